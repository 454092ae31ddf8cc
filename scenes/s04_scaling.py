"""Step 4, scaling: every score is divided by √d before the softmax.

After this scene the viewer knows what d and √d are in the lesson, has seen the score
matrix turn into the scaled matrix, and has seen why: without the division the softmax
of the focus word's row is sharper (more of the weight on a single word), because dot
products grow with the number of dimensions.

Shows from the attncore trace (context 0): ``d`` and ``sqrt_d``, ``scores`` (S) turning
into ``scaled`` (S/√d), and the focus row of ``unscaled_attention`` (softmax of S)
beside the same row of ``attention`` (softmax of S/√d), both rounded so each row sums
to exactly 1.
"""

from __future__ import annotations

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    AnimationGroup,
    Create,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    LaggedStart,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
    Write,
)

from attncore import fmt, round_rows_to_one
from scenes.base import LessonScene
from scenes.components import (
    LABEL_ROOM,
    MATRIX_BOTTOM,
    MATRIX_TOP,
    Num,
    Source,
    WeightBars,
    axis_titles,
    fit_cells,
    label,
    max_label_width,
    token_matrix,
)
from scenes.theme import TIME

# --- the scene ----------------------------------------------------------------------------


class Scaling(LessonScene):
    TITLE = "4 · Scaling"
    STAGE = 2
    FORMULA = "X·Xᵀ / √d"
    SECTIONS = (
        ("Divide every score by √d", "divide"),
        ("Softmax without scaling", "without"),
        ("Softmax with scaling", "with_scaling"),
    )

    def divide(self) -> None:
        ctx = self.ctx(0)
        n = ctx.n
        dims = list(self.lesson.dimensions)
        # Left: the score matrix of the previous step. Right: d and √d.
        panel_left = 2.5
        room_w = panel_left - 0.5 - (-6.85) - max_label_width(ctx.tokens) - 0.2
        cw, ch = fit_cells(n, n, room_w, MATRIX_TOP - MATRIX_BOTTOM - LABEL_ROOM, max_w=1.3)
        S = token_matrix(ctx.scores, self.dec, lambda r, c: Source(0, "scores", (r, c)), self.theme, ctx.tokens, cell_w=cw, cell_h=ch)
        axes = axis_titles(S, self.theme)
        block = VGroup(S, axes)
        block.move_to([(-6.85 + panel_left - 0.5) / 2, (MATRIX_TOP + MATRIX_BOTTOM) / 2, 0])
        self.narrate(
            "Before the softmax, every score is divided by the square root of d, the number of dimensions. "
            f"Dot products grow with d. Here d is {fmt(ctx.d, 0)}, so we divide by {fmt(ctx.sqrt_d, self.dec)}."
        )
        self.play(FadeIn(S.cells), Write(S.row_labels), Write(S.col_labels), FadeIn(axes), run_time=TIME.write)
        self.play(LaggedStart(*(FadeIn(S.row_entries(r)) for r in range(n)), lag_ratio=0.1))
        self.note = self.say("The scores S of the previous step, one row per query word.")

        # d: the number of named dimensions; √d: the divisor.
        d_line = VGroup(
            label("d =", "body"), Num(ctx.d, 0, Source(0, "d"), size="body"), label("dimensions", "body", self.theme["muted"])
        ).arrange(RIGHT, buff=0.18)
        names = VGroup(*(label(m, "small", self.theme.dim(m)) for m in dims))
        cols = 2 if len(dims) > 3 else 1
        names.arrange_in_grid(cols=cols, buff=(0.4, 0.22), col_alignments="l" * cols)
        sqrt_num = Num(ctx.sqrt_d, self.dec, Source(0, "sqrt_d"), size="body", color=self.theme["accent"])
        sqrt_line = VGroup(label("√d =", "body", self.theme["accent"]), sqrt_num).arrange(RIGHT, buff=0.18)
        panel = VGroup(d_line, names, sqrt_line).arrange(DOWN, buff=0.4, aligned_edge=LEFT)
        panel.move_to([(panel_left + 6.85) / 2, S.cells.get_center()[1], 0])
        self.play(FadeIn(d_line), LaggedStart(*(FadeIn(m) for m in names), lag_ratio=0.1))
        self.note = self.say("d is the number of dimensions of every word vector.", self.note)
        self.play(self.light_formula("√d"), FadeIn(sqrt_line, shift=LEFT * 0.2))
        self.hold(1)

        # Every score is divided by √d: the matrix turns into the scaled one, row by row.
        T = token_matrix(ctx.scaled, self.dec, lambda r, c: Source(0, "scaled", (r, c)), self.theme, ctx.tokens, cell_w=cw, cell_h=ch)
        T.move_to(S)
        # A "÷ √d" beside every row, then each score rolls over into its scaled value.
        divs = VGroup()
        for r in range(n):
            div = VGroup(label("÷", "small", self.theme["accent"]), sqrt_num.copy().scale(0.75)).arrange(RIGHT, buff=0.08)
            divs.add(div.next_to(S.row(r), RIGHT, buff=0.15))
        self.play(
            LaggedStart(*(AnimationGroup(FadeIn(dv[0]), TransformFromCopy(sqrt_num, dv[1])) for dv in divs), lag_ratio=0.08),
            run_time=TIME.transform,
        )
        self.play(
            LaggedStart(
                *(
                    AnimationGroup(
                        *(FadeOut(S.entry(r, c), shift=UP * 0.2) for c in range(n)),
                        *(FadeIn(T.entry(r, c), shift=UP * 0.2) for c in range(n)),
                        FadeOut(divs[r], shift=LEFT * 0.3),
                    )
                    for r in range(n)
                ),
                lag_ratio=0.2,
            ),
            run_time=2 * TIME.transform,
        )
        self.hold(2 * n)
        self.note = self.say("Every score is divided by the same number: √d.", self.note)
        self.S, self.T, self.axes, self.panel = S, T, axes, panel

    def _chart(self, matrix: str, x_left: float, x_right: float, col_w: float, title: str, sub: str) -> VGroup:
        """The focus row of ``matrix`` (an attention matrix of the trace) as bars."""
        ctx = self.ctx(0)
        i = ctx.focus_index
        shown = round_rows_to_one(getattr(ctx, matrix), self.dec)[i]
        chart = WeightBars(
            shown, ctx.tokens, self.dec, lambda k: Source(0, matrix, (i, k), rows_to_one=True), self.theme,
            col_w=col_w, height=self.bar_h,
        )
        chart.words[i].set_color(self.theme["query"])
        chart.shift([(x_left + x_right) / 2 - chart.baseline.get_center()[0], self.base_y - chart.baseline.get_y(), 0])
        head = VGroup(label(title, "label", self.theme["text"]), label(sub, "small", self.theme["muted"]))
        head.arrange(DOWN, buff=0.12).move_to([(x_left + x_right) / 2, self.head_y, 0])
        chart.head = head
        return chart

    def _show(self, chart: VGroup) -> None:
        self.play(FadeIn(chart.head), Create(chart.baseline), FadeIn(chart.words), run_time=TIME.fade)
        self.play(
            LaggedStart(*(GrowFromEdge(b, DOWN) for b in chart.bars), lag_ratio=0.1),
            LaggedStart(*(FadeIn(m, shift=UP * 0.2) for m in chart.nums), lag_ratio=0.1),
            run_time=TIME.transform,
        )
        peak = chart.peak
        box = SurroundingRectangle(VGroup(chart.bars[peak], chart.nums[peak]), color=self.theme["accent"], buff=0.1)
        self.play(Create(box), chart.bars[peak].animate.set_fill(self.theme["accent"]))
        chart.box = box
        self.hold(len(chart.nums))

    def without(self) -> None:
        ctx = self.ctx(0)
        n = ctx.n
        # Two charts side by side, same height scale, the same words in the same order.
        self.col_w = min(1.15, 6.0 / n)
        self.bar_h = 2.8
        self.base_y = -2.35
        self.head_y = 1.4
        self.left = self._chart("unscaled_attention", -6.85, -0.35, self.col_w, "softmax(S)", "without scaling")
        self.right = self._chart("attention", 0.35, 6.85, self.col_w, "softmax(S / √d)", "with scaling")
        peak = self.left.peak
        who = "itself" if peak == ctx.focus_index else f"“{ctx.tokens[peak]}”"
        self.narrate(
            "Softmax, the next step, turns scores into weights that add up to one. "
            f"Without the division, “{ctx.focus}” would give {self.left.nums[peak].text} of its attention to {who}."
        )
        self.play(
            FadeOut(self.S.cells), FadeOut(self.S.row_labels), FadeOut(self.S.col_labels), FadeOut(self.T.entries),
            FadeOut(self.axes), FadeOut(self.panel), self.light_formula(None), run_time=TIME.fade,
        )
        intro = label(f"How much “{ctx.focus}” attends to each word", "label", self.theme["query"])
        intro.move_to([0, 2.2, 0])
        self.intro = intro
        self.play(FadeIn(intro))
        self.note = self.say("Softmax (next step) turns a row of scores into weights that sum to one.", self.note)
        self._show(self.left)
        if self.left.nums[self.left.peak].value > 0.5:
            self.note = self.say("Without scaling, one word takes most of the weight.", self.note)
        else:
            self.note = self.say("Without scaling, the largest score takes the biggest share.", self.note)

    def with_scaling(self) -> None:
        ctx = self.ctx(0)
        peak = self.right.peak
        who = "itself" if peak == ctx.focus_index else f"“{ctx.tokens[peak]}”"
        self.narrate(
            f"With it, {who} gets {self.right.nums[peak].text} and the other words keep a share: "
            "scaling keeps the softmax from becoming too sharp."
        )
        self._show(self.right)
        self.note = self.say("With scaling, the weight is shared more evenly among the words.", self.note)
        self.note = self.say("Dot products grow with d: scaling keeps the softmax from becoming too sharp.", self.note)
        self.hold()


__all__ = ["Scaling", "WeightBars"]
