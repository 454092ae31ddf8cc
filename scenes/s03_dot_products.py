"""Step 3, dot products: the score of two words is the dot product of their vectors.

After this scene the viewer can compute one score by hand (multiply the two vectors
dimension by dimension, add the products), knows that the score matrix ``S = X·Xᵀ`` has
one row per query word and one column per key word, and knows that a raw score is a
similarity, not yet a weight.

Shows from the attncore trace (context 0): ``embeddings`` rows of the focus word and of
the word it scores highest with, ``dot_terms(i, j)`` (the products), ``scores`` (S).
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    Create,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    Line,
    ReplacementTransform,
    SurroundingRectangle,
    Transform,
    TransformFromCopy,
    VGroup,
    Write,
)

from attncore import decimals_needed
from scenes.base import LessonScene
from scenes.components import (
    LABEL_ROOM,
    MATRIX_BOTTOM,
    MATRIX_TOP,
    NumberGrid,
    Source,
    axis_titles,
    fit_cells,
    label,
    max_label_width,
    relabel_columns,
    text_size,
    token_matrix,
)
from scenes.theme import TIME

# --- the scene ----------------------------------------------------------------------------


class DotProducts(LessonScene):
    TITLE = "3 · Dot products"
    STAGE = 1
    FORMULA = "S = X·Xᵀ"
    SECTIONS = (
        ("One score, term by term", "one_score"),
        ("Every pair of words", "every_pair"),
        ("A similarity, not yet a weight", "not_a_weight"),
    )

    def one_score(self) -> None:
        ctx = self.ctx(0)
        n, d = ctx.n, ctx.d
        i = ctx.focus_index
        # The word the focus word matches most among the others: the example worth working out.
        j = max((k for k in range(n) if k != i), key=lambda k: ctx.scores[i, k])
        self.i, self.j = i, j
        dims = list(self.lesson.dimensions)
        x_dec = decimals_needed(ctx.embeddings, self.dec)

        # Left: the two vectors side by side, one row per named dimension, then products.
        cw = 1.1
        ch = min(0.6, (MATRIX_TOP - MATRIX_BOTTOM - 1.6) / d)
        size = text_size(cw, ch)
        lsize = "body" if size == "body" else "label"
        heads = [ctx.tokens[i], ctx.tokens[j], "product"]
        head_w = [label(h, lsize).width for h in heads]
        gap = max(0.6, max(head_w[0] + head_w[1], head_w[1] + head_w[2]) / 2 - cw + 0.2)
        a = NumberGrid(
            ctx.embeddings[i][:, None], x_dec, lambda r, c: Source(0, "embeddings", (i, r)), self.theme,
            row_labels=dims, row_colours=[self.theme.dim(m) for m in dims], cell_w=cw, cell_h=ch, size=size, label_size=lsize,
        )
        b = NumberGrid(
            ctx.embeddings[j][:, None], x_dec, lambda r, c: Source(0, "embeddings", (j, r)), self.theme,
            cell_w=cw, cell_h=ch, size=size, label_size=lsize,
        )
        p = NumberGrid(
            ctx.dot_terms(i, j)[:, None], self.dec, lambda r, c: Source(0, "dot_terms", (r,), (i, j)), self.theme,
            cell_w=cw, cell_h=ch, size=size,
            label_size=lsize,
        )
        for g, head, colour in ((a, heads[0], "query"), (b, heads[1], "key"), (p, heads[2], "muted")):
            relabel_columns(g, [head], self.theme, [self.theme[colour]], lsize)
        b.shift(a.cell(0, 0).get_center() - b.cell(0, 0).get_center() + RIGHT * (cw + gap))
        p.shift(b.cell(0, 0).get_center() - p.cell(0, 0).get_center() + RIGHT * (cw + gap))
        signs = VGroup()
        for r in range(d):
            for left, sign in ((a, "×"), (b, "=")):
                s = label(sign, lsize, self.theme["muted"])
                s.move_to(left.cell(r, 0).get_right() + RIGHT * gap / 2)
                signs.add(s)
        rule = Line(p.cells.get_corner(DOWN + LEFT), p.cells.get_corner(DOWN + RIGHT), stroke_color=self.theme["text"], stroke_width=2)
        rule.shift(DOWN * 0.14)
        total = NumberGrid(
            ctx.scores[i : i + 1, j : j + 1], self.dec, lambda r, c: Source(0, "scores", (i, j)), self.theme,
            cell_w=cw, cell_h=ch, size=size,
        )
        total.cells.set_stroke(self.theme["accent"], width=2.5)
        total.entries.set_color(self.theme["accent"])
        total.next_to(rule, DOWN, buff=0.2)
        total_label = label("sum", lsize, self.theme["accent"]).next_to(total.cells, LEFT, buff=0.25)
        worked = VGroup(a, b, p, signs, rule, total, total_label)
        worked.next_to([-6.85, 0, 0], RIGHT, buff=0)
        worked.set_y((MATRIX_TOP + MATRIX_BOTTOM) / 2 + 0.1)

        # Right: the empty score matrix, its cell (i, j) waiting for the sum.
        room_w = 6.85 - (worked.get_right()[0] + 0.5) - max_label_width(ctx.tokens) - 0.2
        mcw, mch = fit_cells(n, n, room_w, MATRIX_TOP - MATRIX_BOTTOM - LABEL_ROOM, max_w=1.1)
        self.S = token_matrix(
            ctx.scores, self.dec, lambda r, c: Source(0, "scores", (r, c)), self.theme, ctx.tokens,
            cell_w=mcw, cell_h=mch,
        )
        self.axes = axis_titles(self.S, self.theme)
        block = VGroup(self.S, self.axes)
        block.shift(RIGHT * (6.85 - block.get_right()[0]))
        block.set_y((MATRIX_TOP + MATRIX_BOTTOM) / 2)

        # The dimension that contributes most, cited with the very numbers on screen.
        k = max(range(d), key=lambda r: p.entry(r, 0).value)
        self.narrate(
            "The score of two words is the dot product of their vectors. "
            f"Take “{ctx.tokens[i]}” and “{ctx.tokens[j]}”, the word it matches most among the others. "
            f"Multiply the two vectors dimension by dimension: in {dims[k]}, {a.entry(k, 0).text} times "
            f"{b.entry(k, 0).text} gives {p.entry(k, 0).text}. Add the products: the sum, "
            f"{total.entry(0, 0).text}, is the score in row “{ctx.tokens[i]}”, column “{ctx.tokens[j]}”."
        )
        self.play(
            FadeIn(self.S.cells), Write(self.S.row_labels), Write(self.S.col_labels), FadeIn(self.axes),
            run_time=TIME.write,
        )
        target = SurroundingRectangle(self.S.cell(i, j), color=self.theme["accent"], buff=0.0, stroke_width=4)
        self.play(
            Create(target),
            self.S.row_labels[i].animate.set_color(self.theme["accent"]),
            self.S.col_labels[j].animate.set_color(self.theme["accent"]),
        )
        self.note = self.say(f"Which score belongs in row “{ctx.tokens[i]}”, column “{ctx.tokens[j]}”?")

        # The two vectors arrive: each word's embedding row, laid side by side.
        self.play(
            TransformFromCopy(self.S.row_labels[i], a.col_labels[0]),
            TransformFromCopy(self.S.col_labels[j], b.col_labels[0]),
            FadeIn(a.cells), FadeIn(b.cells), FadeIn(p.cells), Write(a.row_labels), FadeIn(p.col_labels),
            run_time=TIME.transform,
        )
        self.play(LaggedStart(*(FadeIn(VGroup(a.entry(r, 0), b.entry(r, 0))) for r in range(d)), lag_ratio=0.15))
        self.note = self.say("Put the two vectors side by side, dimension by dimension.", self.note)

        # One product per dimension, one after the other.
        focus_box = SurroundingRectangle(VGroup(a.row_labels[0], p.cell(0, 0)), color=self.theme["accent"], buff=0.05)
        self.play(Create(focus_box), FadeIn(signs[0:2]), run_time=TIME.fade)
        step = min(1.05, 5.0 / d)  # seconds per dimension: the whole walk stays short for large d
        for r in range(d):
            if r > 0:
                nxt = SurroundingRectangle(VGroup(a.row_labels[r], p.cell(r, 0)), color=self.theme["accent"], buff=0.05)
                nxt.match_width(focus_box, stretch=True).align_to(focus_box, RIGHT)
                self.play(Transform(focus_box, nxt), FadeIn(signs[2 * r : 2 * r + 2]), run_time=step / 3)
            self.play(TransformFromCopy(VGroup(a.entry(r, 0), b.entry(r, 0)), p.entry(r, 0)), run_time=step * 0.57)
            self.wait(step * 0.1)
        self.play(FadeOut(focus_box), run_time=TIME.fade)

        # Their sum is the score; it lands in its cell of S.
        self.play(Create(rule), FadeIn(total.cells), FadeIn(total_label), run_time=TIME.fade)
        self.play(TransformFromCopy(p.entries, total.entries), run_time=TIME.transform)
        self.S.entry(i, j).set_color(self.theme["accent"])
        self.play(TransformFromCopy(total.entries[0], self.S.entry(i, j)), run_time=TIME.transform)
        self.note = self.say("Multiply dimension by dimension, add the products: that sum is the score.", self.note)
        self.worked = worked
        self.target = target

    def every_pair(self) -> None:
        ctx = self.ctx(0)
        n = ctx.n
        i, j = self.i, self.j
        self.narrate(
            "Every word is compared with every word of its sentence in the same way. "
            "That fills the score matrix: one row per query word, one column per key word."
        )
        self.play(FadeOut(self.worked), run_time=TIME.fade)
        # The matrix takes the room the worked example leaves: rebuilt with larger cells.
        cw, ch = fit_cells(
            n, n, 12.6 - max_label_width(ctx.tokens), MATRIX_TOP - MATRIX_BOTTOM - LABEL_ROOM, max_w=1.4, max_h=0.7
        )
        big = token_matrix(ctx.scores, self.dec, lambda r, c: Source(0, "scores", (r, c)), self.theme, ctx.tokens, cell_w=cw, cell_h=ch)
        big_axes = axis_titles(big, self.theme)
        VGroup(big, big_axes).move_to([0, (MATRIX_TOP + MATRIX_BOTTOM) / 2, 0])
        big.entry(i, j).set_color(self.theme["accent"])
        big.row_labels[i].set_color(self.theme["accent"])
        big.col_labels[j].set_color(self.theme["accent"])
        big_target = SurroundingRectangle(big.cell(i, j), color=self.theme["accent"], buff=0.0, stroke_width=4)
        self.play(
            ReplacementTransform(self.S.cells, big.cells),
            ReplacementTransform(self.S.row_labels, big.row_labels),
            ReplacementTransform(self.S.col_labels, big.col_labels),
            ReplacementTransform(self.S.entry(i, j), big.entry(i, j)),
            ReplacementTransform(self.axes, big_axes),
            ReplacementTransform(self.target, big_target),
            run_time=TIME.transform,
        )
        self.S, self.axes, self.target = big, big_axes, big_target
        self.note = self.say("Every word is compared with every word of its sentence the same way.", self.note)
        for r in range(n):
            new = [self.S.entry(r, c) for c in range(n) if (r, c) != (i, j)]
            self.play(
                Indicate(self.S.row_labels[r], color=self.theme["accent"], scale_factor=1.1),
                LaggedStart(*(FadeIn(e, scale=0.6) for e in new), lag_ratio=0.12),
                run_time=min(0.7, 4.2 / n),
            )
        self.hold(n)
        self.note = self.say("Row = the query word, column = the key word it is compared with.", self.note)

    def not_a_weight(self) -> None:
        ctx = self.ctx(0)
        i = self.i
        best = max(range(ctx.n), key=lambda c: ctx.scores[i, c])
        who = "itself" if best == i else f"“{ctx.tokens[best]}”"
        self.narrate(
            f"In the row of “{ctx.tokens[i]}”, the largest score, {self.S.entry(i, best).text}, is with {who}. "
            "A raw score is a similarity, not yet a weight."
        )
        row_box = SurroundingRectangle(VGroup(self.S.row(i), self.S.row_labels[i]), color=self.theme["accent"], buff=0.12)
        self.play(
            FadeOut(self.target),
            self.S.entry(self.i, self.j).animate.set_color(self.theme["text"]),
            self.S.col_labels[self.j].animate.set_color(self.theme["key"]),
            Create(row_box),
        )
        best_box = SurroundingRectangle(self.S.cell(i, best), color=self.theme["accent"], buff=0.0, stroke_width=4)
        self.play(Create(best_box), self.S.entry(i, best).animate.set_color(self.theme["accent"]), run_time=TIME.fade)
        self.note = self.say(f"In the row of “{ctx.tokens[i]}”, the largest score is with {who}.", self.note)
        self.note = self.say("A raw score is a similarity, not yet a weight.", self.note)
        self.hold()


__all__ = ["DotProducts", "text_size", "axis_titles", "fit_cells", "max_label_width", "relabel_columns", "token_matrix"]
