"""Step 1, embeddings: every word is a vector whose columns have names.

After this scene the viewer can read a word vector dimension by dimension, and has
noticed that the focus word (``mouse``) is strong in two dimensions at once: on its
own, its vector cannot tell which meaning is meant.

Shows from the attncore trace: ``embeddings`` (X) of every context, one row per word.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    FadeIn,
    FadeOut,
    GrowArrow,
    LaggedStart,
    SurroundingRectangle,
    VGroup,
    Write,
)

from attncore import decimals_needed
from scenes.base import LessonScene
from scenes.components import NumberGrid, Source, TokenRow, arrow
from scenes.theme import TIME


class Embeddings(LessonScene):
    TITLE = "1 · Embeddings"
    STAGE = 0
    FORMULA = "word → vector X"
    SECTIONS = (
        ("Words become vectors", "words_become_vectors"),
        ("Reading a vector", "reading_a_vector"),
        ("One word, two meanings", "one_word_two_meanings"),
    )

    def _vocab_rows(self) -> list[tuple[str, int, int]]:
        """Each distinct word of the lesson's sentences once: (word, context, row)."""
        seen: dict[str, tuple[str, int, int]] = {}
        for c, ctx in enumerate(self.trace.contexts):
            for i, tok in enumerate(ctx.tokens):
                seen.setdefault(tok, (tok, c, i))
        return list(seen.values())

    def words_become_vectors(self) -> None:
        ctx = self.ctx(0)
        dims = list(self.lesson.dimensions)
        self.narrate(
            "To compute with words, a model turns every word into a vector of numbers. "
            f"In this lesson each column has a name: {', '.join(dims[:-1])} and {dims[-1]}, "
            "so we can read a vector like a profile."
        )
        self.sentence = TokenRow(ctx.tokens, self.theme).next_to(self.title, DOWN, buff=0.45).set_x(0)
        self.play(LaggedStart(*(FadeIn(w, shift=DOWN * 0.2) for w in self.sentence), lag_ratio=0.15))
        rows = self._vocab_rows()
        dims = list(self.lesson.dimensions)
        x_all = [self.trace.contexts[c].embeddings[i] for _, c, i in rows]
        dec = decimals_needed(x_all, self.dec)
        avail_h = self.sentence.get_bottom()[1] - 0.9 - (-3.3)
        cell_h = min(0.5, avail_h / (len(rows) + 1))
        self.table = NumberGrid(
            x_all, dec, lambda r, k: Source(rows[r][1], "embeddings", (rows[r][2], k)), self.theme,
            row_labels=[w for w, _, _ in rows], col_labels=dims,
            col_colours=[self.theme.dim(d) for d in dims], cell_w=1.25, cell_h=cell_h,
        )
        self.table.next_to(self.sentence, DOWN, buff=0.55)
        self.table.shift(RIGHT * (0 - self.table.body().get_center()[0]))
        self.rows = rows
        self.play(FadeIn(self.table.cells), Write(self.table.col_labels), Write(self.table.row_labels), run_time=TIME.write)
        self.play(LaggedStart(*(FadeIn(r) for r in [self.table.row_entries(i) for i in range(len(rows))]), lag_ratio=0.2))
        self.note = self.say("Each word is a row of numbers; each column is a named dimension.")

    def reading_a_vector(self) -> None:
        # The word that is strongest in the first dimension, e.g. "cat" for "animal".
        dims = list(self.lesson.dimensions)
        first = max(range(len(self.rows)), key=lambda r: self.table.entry(r, 0).value - sum(abs(self.table.entry(r, k).value) for k in range(1, len(dims))))
        word, top = self.rows[first][0], self.table.entry(first, 0)
        self.narrate(
            f"Take “{word}”: it has {top.text} in {dims[0]} and little anywhere else, "
            f"so its vector says: this word is about {dims[0]}."
        )
        box = SurroundingRectangle(self.table.row(first), color=self.theme.dim(dims[0]), buff=0.04)
        self.play(Create(box))
        self.note = self.say(f"“{self.rows[first][0]}” is strong in {dims[0]} and weak elsewhere.", self.note)
        self.play(FadeOut(box), run_time=TIME.fade)

    def one_word_two_meanings(self) -> None:
        focus = self.ctx(0).focus
        r = next(k for k, (w, _, _) in enumerate(self.rows) if w == focus)
        strong_dims = [d for k, d in enumerate(self.lesson.dimensions) if self.table.entry(r, k).value >= 1.5]
        quoted = " and ".join(f"“{c.context.sentence}”" for c in self.trace.contexts)
        self.narrate(
            f"Now look at “{focus}”. Its vector is strong in {' and '.join(strong_dims) or 'several dimensions'} at once. "
            f"The sentences {quoted} use exactly the same vector for it. "
            "On its own, the vector cannot tell which meaning is meant: the context has to decide."
        )
        # Table to the right, every sentence containing the focus word stacked on the left,
        # an arrow from each occurrence to the one row they share.
        self.play(FadeOut(self.sentence, shift=UP * 0.2), run_time=TIME.fade)
        self.play(self.table.animate.to_edge(RIGHT, buff=0.6).set_y(-0.3), run_time=TIME.transform)
        box = SurroundingRectangle(VGroup(self.table.row(r), self.table.row_labels[r]), color=self.theme["accent"], buff=0.04)
        self.play(Create(box))
        sentences = VGroup(
            *(TokenRow(c.tokens, self.theme, focus=c.focus_index, size="label") for c in self.trace.contexts)
        ).arrange(DOWN, buff=0.9, aligned_edge=LEFT)
        room = self.table.get_left()[0] - 1.2 - (-6.9)
        if sentences.width > room:
            sentences.scale_to_fit_width(room)
        sentences.next_to(self.table, LEFT, buff=1.2).set_y(self.table.body().get_center()[1])
        arrows = VGroup(
            *(
                arrow(s.get_right(), self.table.row_labels[r].get_left(), self.theme["accent"])
                for s in sentences
            )
        )
        self.play(LaggedStart(*(FadeIn(s) for s in sentences), lag_ratio=0.3))
        self.play(LaggedStart(*(GrowArrow(a) for a in arrows), lag_ratio=0.3))
        strong = [d for k, d in enumerate(self.lesson.dimensions) if self.table.entry(r, k).value >= 1.5]
        both = " and ".join(strong) if strong else "several dimensions"
        self.note = self.say(f"“{focus}” has one vector, strong in {both}: which meaning is meant?", self.note)
        self.hold()
