"""Where one word looks: a scene of a lecturer's own, built from attnvid's public components.

After this scene the viewer can say where the focus word of the lesson's sentence looks,
and how much: its row of the attention matrix, as bars over the words, every number read
from the trace attncore computed for ``own_lesson.toml`` (the file beside this one).

Render it with plain Manim, or with attnvid (cache, captions, the lecture's errors)::

    manim render -ql docs/examples/own_scene.py
    attnvid render docs/examples/own_scene.py --quality low
    attnvid preview docs/examples/own_scene.py
"""

from __future__ import annotations

from manim import DOWN, UP, Create, FadeIn, GrowFromEdge, LaggedStart, VGroup, Write

from attncore import fmt
from scenes.base import LessonScene
from scenes.components import CONTENT, DRIFT, GROUP_BUFF, Source, TokenRow, WeightBars, label


class WhereOneWordLooks(LessonScene):
    """The focus word's attention over its sentence, in the lesson's own colours."""

    LESSON = "own_lesson.toml"  # beside this file; --lesson overrides it
    TITLE = "Where one word looks"
    STAGE = 3  # the pipeline marker lights "softmax"
    FORMULA = r'A = "softmax"(X X^T \/ sqrt(d))'  # Typst maths, as the lecture's own
    SECTIONS = (
        ("The sentence", "sentence"),
        ("Where one word looks", "weights"),
    )

    def sentence(self) -> None:
        ctx = self.ctx()
        self.row = TokenRow(ctx.tokens, self.theme, focus=ctx.focus_index)
        self.row.shift(UP * (self.content.top - self.row.get_top()[1]))  # at the top of the content box
        self.narrate(f"Take the sentence “{ctx.context.sentence}”, and its word “{ctx.focus}”.")
        self.play(LaggedStart(*(FadeIn(w, shift=DOWN * DRIFT) for w in self.row), lag_ratio=0.15))

    def weights(self) -> None:
        ctx = self.ctx()
        i = ctx.focus_index
        row = ctx.attention[i]  # (n,) the focus word's softmax row: where it looks, summing to 1
        bars = WeightBars(row, ctx.tokens, self.dec, lambda j: Source(0, "attention", (i, j)), self.theme,
                          col_w=min(1.4, CONTENT.width / ctx.n), height=4.0)
        chart = VGroup(bars, bars.outline)  # the outline (around the largest weight) moves with the bars
        chart.next_to(self.row, DOWN, buff=GROUP_BUFF * 2)
        self.content.keep_inside(chart)
        peak = ctx.tokens[bars.peak]
        note = label(f"“{ctx.focus}” looks most at “{peak}”", "body", self.theme["accent"])
        note.next_to(bars, DOWN, buff=GROUP_BUFF)
        self.narrate(f"“{ctx.focus}” gives “{peak}” a weight of {fmt(row[bars.peak], self.dec)}: "
                     "the bars are its row of the attention matrix, and they add up to one.")
        self.play(FadeIn(bars.baseline), LaggedStart(*(GrowFromEdge(b, DOWN) for b in bars.bars), lag_ratio=0.1))
        self.play(LaggedStart(*(Write(n) for n in bars.nums), lag_ratio=0.1), FadeIn(bars.words))
        self.play(Create(bars.outline), FadeIn(note, shift=UP * DRIFT))  # the outline: around the largest weight
