"""Step 6, reading the attention matrix: a row says where one word looks, and how much.

After this scene the viewer reads the attention matrix the right way round (row = the
word being updated, the query; column = the word it looks at, the key) and can say, for
the focus word, which words matter to it and roughly how much: the row is lifted out of
the matrix as bars, then laid over the sentence as arcs whose thickness is the weight.

Shows from the attncore trace: ``attention`` of the first context (every row rounded
with ``round_rows_to_one`` so that each displayed row sums to exactly 1).
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    AnimationGroup,
    ArcBetweenPoints,
    Create,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    LaggedStart,
    Rectangle,
    ReplacementTransform,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
    Write,
)

from attncore import fmt, round_rows_to_one
from scenes.base import LessonScene
from scenes.components import (
    HeatLegend,
    Num,
    NumberGrid,
    Source,
    TokenRow,
    column_labels,
    describe_focus,
    ink_on_heat,
    label,
)
from scenes.theme import TIME


class ReadingAttention(LessonScene):
    TITLE = "6 · Reading the matrix"
    STAGE = 3
    FORMULA = "A = softmax(X·Xᵀ / √d)"
    SECTIONS = (
        ("Row = query, column = key", "the_matrix"),
        ("One row: one word's attention", "one_row"),
        ("Where the word looks", "where_it_looks"),
    )

    def _source(self, i: int, j: int) -> Source:
        return Source(0, "attention", (i, j), rows_to_one=True)

    # -- 1 -------------------------------------------------------------------------------
    def the_matrix(self) -> None:
        ctx = self.ctx(0)
        n, fi = ctx.n, ctx.focus_index
        self.shown = round_rows_to_one(ctx.attention, self.dec)
        a = ctx.attention
        j_star = max((j for j in range(n) if j != fi), key=lambda j: a[fi, j]) if n > 1 else fi
        self.narrate(
            "This is the attention matrix. A row is the word being updated, its query; "
            "a column is the word it looks at, its key. "
            f"“{ctx.tokens[fi]}” gives {fmt(self.shown[fi, j_star], self.dec)} of its attention to “{ctx.tokens[j_star]}”."
        )
        cell_w = min(1.25, 6.2 / n)
        cell_h = min(0.7, 4.3 / n)
        self.grid = NumberGrid(
            a, self.dec, self._source, self.theme,
            row_labels=list(ctx.tokens), shown=self.shown,
            cell_w=cell_w, cell_h=cell_h, fill=lambda i, j: self.theme.heat(a[i, j]),
            row_colours=[self.theme["query"]] * n,
        )
        # column labels that never shrink: every other one moves up a line if they would touch
        self.grid.set_column_labels(
            column_labels(self.grid, ctx.tokens, self.theme, [self.theme["key"]] * n, size="label", style="pairwise")
        )
        ink_on_heat(self.grid, a, self.theme)
        self.grid.move_to(LEFT * 2.5 + DOWN * 0.4)
        if self.grid.get_top()[1] > 2.3:
            self.grid.shift(DOWN * (self.grid.get_top()[1] - 2.3))
        self.legend = HeatLegend(self.theme, height=min(2.4, self.grid.body().height))
        self.legend.next_to(self.grid.body(), RIGHT, buff=0.45)
        self.play(FadeIn(self.grid.cells), Write(self.grid.row_labels), Write(self.grid.col_labels), run_time=TIME.write)
        self.play(
            LaggedStart(*(FadeIn(self.grid.row_entries(i)) for i in range(n)), lag_ratio=0.2),
            FadeIn(self.legend), run_time=TIME.write * 1.5,
        )
        self.hold(n * n)

        # The convention: row = the word being updated, column = the word it looks at.
        row_box = SurroundingRectangle(
            VGroup(self.grid.row(fi), self.grid.row_labels[fi]), color=self.theme["query"], buff=0.05, stroke_width=4
        )
        col_box = SurroundingRectangle(
            VGroup(self.grid.column(j_star), self.grid.col_labels[j_star]), color=self.theme["key"], buff=0.05, stroke_width=4
        )
        row_text = VGroup(
            label("row", "body", self.theme["query"], weight="BOLD"),
            label("the word being updated", "label", self.theme["text"]),
            label("its query", "label", self.theme["muted"]),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.1)
        col_text = VGroup(
            label("column", "body", self.theme["key"], weight="BOLD"),
            label("the word it looks at", "label", self.theme["text"]),
            label("its key", "label", self.theme["muted"]),
        ).arrange(DOWN, aligned_edge=LEFT, buff=0.1)
        self.convention = VGroup(row_text, col_text).arrange(DOWN, aligned_edge=LEFT, buff=0.55)
        self.convention.next_to(self.legend, RIGHT, buff=0.7).match_y(self.grid.body())
        if self.convention.get_right()[0] > 6.8:
            self.convention.shift(LEFT * (self.convention.get_right()[0] - 6.8))
        self.play(Create(row_box), FadeIn(row_text, shift=LEFT * 0.2), run_time=TIME.write)
        self.play(Create(col_box), FadeIn(col_text, shift=LEFT * 0.2), run_time=TIME.write)
        cell = SurroundingRectangle(self.grid.cell(fi, j_star), color=self.theme["accent"], buff=0.02, stroke_width=5)
        self.play(Create(cell), run_time=TIME.fade)
        self.boxes = VGroup(row_box, col_box, cell)
        self.note = self.say(
            f"This cell: how much “{ctx.tokens[fi]}” looks at “{ctx.tokens[j_star]}”. Every row sums to one."
        )

    # -- 2 -------------------------------------------------------------------------------
    def one_row(self) -> None:
        ctx = self.ctx(0)
        n, fi = ctx.n, ctx.focus_index
        w = self.shown[fi]
        top = max(range(n), key=lambda j: w[j])
        self.narrate(
            f"Lift out the row of “{ctx.tokens[fi]}”: one bar per word. The longest, {fmt(w[top], self.dec)}, goes to "
            f"{'itself' if top == fi else '“' + ctx.tokens[top] + '”'}. The weights add up to one."
        )
        others = [i for i in range(n) if i != fi]
        # The other rows step back: faint cells, muted numbers and labels.
        self.play(
            FadeOut(self.convention), FadeOut(self.legend), FadeOut(self.boxes),
            *(self.grid.row(i).animate.set_fill(opacity=0.3).set_stroke(opacity=0.5) for i in others),
            *(self.grid.row_entries(i).animate.set_color(self.theme["muted"]).set_opacity(0.6) for i in others),
            *(self.grid.row_labels[i].animate.set_color(self.theme["muted"]).set_opacity(0.6) for i in others),
            run_time=TIME.fade,
        )
        self.play(self.grid.animate.to_edge(LEFT, buff=0.45), run_time=TIME.transform)
        self.row_box = SurroundingRectangle(
            VGroup(self.grid.row(fi), self.grid.row_labels[fi]), color=self.theme["accent"], buff=0.05, stroke_width=4
        )
        self.play(Create(self.row_box), run_time=TIME.fade)

        # The row, lifted out: one bar per word it looks at.
        left = self.grid.get_right()[0] + 0.9
        names = VGroup(*(label(t, "label", self.theme["key"]) for t in ctx.tokens))
        name_w = max(m.width for m in names)
        x0 = left + name_w + 0.2
        length = 6.75 - 0.85 - x0  # room for the number after the longest bar
        pitch = min(0.62, 4.2 / n)
        bar_h = pitch * 0.62
        top = self.grid.body().get_center()[1] + pitch * (n - 1) / 2
        wmax = max(float(np.max(w)), 1e-9)
        self.bars, self.bar_nums, self.bar_names = VGroup(), VGroup(), VGroup()
        for j in range(n):
            y = top - j * pitch
            bar = Rectangle(
                width=max(length * w[j] / wmax, 0.02), height=bar_h, stroke_width=0,
                fill_color=self.theme.heat(ctx.attention[fi, j]), fill_opacity=1,
            )
            bar.move_to([x0 + bar.width / 2, y, 0])
            num = Num(w[j], self.dec, self._source(fi, j), size="cell", color=self.theme["text"])
            num.next_to(bar, RIGHT, buff=0.15)
            nm = names[j]
            nm.move_to([x0 - 0.2 - nm.width / 2, y, 0])
            self.bars.add(bar)
            self.bar_nums.add(num)
            self.bar_names.add(nm)
        self.head = label(f"“{ctx.tokens[fi]}” looks at", "label", self.theme["accent"])
        self.head.next_to(self.bars, UP, buff=0.3).align_to(self.bar_names, LEFT)
        self.play(FadeIn(self.head), run_time=TIME.fade)
        self.play(
            LaggedStart(
                *(
                    AnimationGroup(
                        TransformFromCopy(self.grid.col_labels[j], self.bar_names[j]),
                        GrowFromEdge(self.bars[j], LEFT),
                        TransformFromCopy(self.grid.entry(fi, j), self.bar_nums[j]),
                    )
                    for j in range(n)
                ),
                lag_ratio=0.15,
            ),
            run_time=TIME.transform * 2,
        )
        self.hold(n)
        self.note = self.say(f"The row of “{ctx.tokens[fi]}”: how much each word matters to it.", self.note)

    # -- 3 -------------------------------------------------------------------------------
    def where_it_looks(self) -> None:
        ctx = self.ctx(0)
        n, fi = ctx.n, ctx.focus_index
        w = self.shown[fi]
        wmax = max(float(np.max(w)), 1e-9)
        self.narrate(f"Over the sentence, a thicker arc means more attention. {describe_focus(ctx.tokens, list(w), fi)}")
        self.play(FadeOut(self.grid), FadeOut(self.row_box), FadeOut(self.head), run_time=TIME.fade)

        # The sentence, with the row standing on it as vertical bars.
        row = TokenRow(ctx.tokens, self.theme, focus=fi)
        if row.width > 13.2:
            row.scale_to_fit_width(13.2)
        row.move_to(DOWN * 1.15)
        base = row.get_top()[1] + 0.12
        max_h = 2.2 - 0.45 - base
        bars, nums = VGroup(), VGroup()
        for j in range(n):
            box = row.boxes[j]
            bw = min(0.55, box.width * 0.6)
            h = max(max_h * w[j] / wmax, 0.02)
            bar = Rectangle(width=bw, height=h, stroke_width=0, fill_color=self.theme.heat(ctx.attention[fi, j]), fill_opacity=1)
            bar.move_to([box.get_center()[0], base + h / 2, 0])
            num = Num(w[j], self.dec, self._source(fi, j), size="cell", color=self.theme["text"])
            num.next_to(bar, UP, buff=0.1)
            bars.add(bar)
            nums.add(num)
        self.play(
            *(ReplacementTransform(self.bars[j], bars[j]) for j in range(n)),
            *(ReplacementTransform(self.bar_nums[j], nums[j]) for j in range(n)),
            *(ReplacementTransform(self.bar_names[j], row.words[j]) for j in range(n)),
            FadeIn(row.boxes),
            run_time=TIME.transform * 1.5,
        )
        # bring the words back in front of their boxes
        self.remove(*row.words)
        self.add(row)

        # Arcs from the focus word to every other word, as thick and bright as the weight.
        arcs = VGroup()
        start = row.boxes[fi].get_bottom() + DOWN * 0.06
        depth = start[1] - (-3.2)
        for j in range(n):
            if j == fi:
                continue
            end = row.boxes[j].get_bottom() + DOWN * 0.06
            chord = max(abs(end[0] - start[0]), 1e-6)
            # deep for a neighbour, flatter for a far word, always above the caption
            sag = min(depth, 0.25 * chord + 0.35)
            angle = 4 * np.arctan(2 * sag / chord)
            arc = ArcBetweenPoints(start, end, angle=angle if end[0] > start[0] else -angle)
            arc.set_stroke(self.theme["accent"], width=1.5 + 14 * w[j], opacity=0.25 + 0.75 * w[j] / wmax)
            arc.add_tip(tip_length=0.12 + 0.2 * w[j], tip_width=0.12 + 0.2 * w[j])
            arc.tip.set_fill(self.theme["accent"], opacity=0.25 + 0.75 * w[j] / wmax).set_stroke(width=0)
            arcs.add(arc)
        self.play(LaggedStart(*(Create(a) for a in arcs), lag_ratio=0.15), run_time=TIME.write * 1.5)
        self.note = self.say(describe_focus(ctx.tokens, list(w), fi), self.note)
        self.hold()
