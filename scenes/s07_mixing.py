"""Step 7, mixing the values: ``Output = A·V``, with ``V = X`` for now.

After this scene the viewer knows what attention *does* with its weights: the focus
word's output is a weighted sum of the value vectors of its sentence (each word's vector
times how much the focus word attends to it, then added up, dimension by dimension), so
the output of ``mouse`` is its own vector plus a share of the vectors it attends to, a
weighted average of the inputs.

Shows from the attncore trace (first context): the focus word's ``attention`` row
(rounded with ``round_rows_to_one``), ``embeddings`` (V = X), ``weighted_values(i)``
(the terms ``A[i, j] · V[j]``) and the ``output`` row of the focus word.

Layout adapts to the lesson: when V and the terms cannot both stand side by side at a
readable size (many dimensions, long numbers), each row of V turns into its weighted row
in place; the bar charts of the last section shrink until they fit.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    Create,
    FadeIn,
    FadeOut,
    FadeTransform,
    LaggedStart,
    Line,
    ReplacementTransform,
    SurroundingRectangle,
    Text,
    TransformFromCopy,
    VGroup,
    Write,
)

from attncore import decimals_needed, fmt, round_rows_to_one
from scenes.base import LessonScene
from scenes.components import (
    Num,
    NumberGrid,
    Source,
    VectorBars,
    bar_names,
    grid_col_names,
    grow_bars,
    label,
    readable_numbers,
)
from scenes.theme import TIME


class MixingValues(LessonScene):
    TITLE = "7 · Mixing the values"
    STAGE = 4
    FORMULA = "Output = A·V"
    SECTIONS = (
        ("Weights and value vectors", "weights_and_values"),
        ("Weight times vector", "weight_times_vector"),
        ("Adding them up", "adding_up"),
        ("Its own vector plus its neighbours'", "own_plus_neighbours"),
    )

    def _w_source(self, j: int) -> Source:
        return Source(0, "attention", (self.ctx(0).focus_index, j), rows_to_one=True)

    def _weight_num(self, j: int, size: str = "body") -> Num:
        w = self.shown[self.ctx(0).focus_index][j]
        return Num(w, self.dec, self._w_source(j), size=size, color=self.theme["weight"])

    # -- 1 -------------------------------------------------------------------------------
    def weights_and_values(self) -> None:
        ctx = self.ctx(0)
        n, d, fi = ctx.n, ctx.d, ctx.focus_index
        self.dims = dims = list(self.lesson.dimensions)
        a = ctx.attention
        self.shown = round_rows_to_one(a, self.dec)
        w = self.shown[fi]
        dec_x = decimals_needed(ctx.embeddings, self.dec)
        self.narrate(
            f"Now the weights are used. The row of “{ctx.tokens[fi]}” becomes a column: one weight per word. "
            "Next to it are the values, for now just the embeddings."
        )
        heat = [self.theme.heat(a[fi, j]) for j in range(n)]
        ink = [self.theme["background"] if a[fi, j] >= 0.45 else self.theme["text"] for j in range(n)]

        # Sizes from the room: token labels | weights | × | V | = | terms. When the numbers
        # would have to shrink below the readable size, the terms replace V in place instead.
        name_w = max(label(t, "label").width for t in ctx.tokens)
        room = 13.4 - (name_w + 0.15) - 0.95 - 2 * 0.75
        texts = [fmt(v, dec_x) for v in ctx.embeddings.flat] + [fmt(v, self.dec) for v in ctx.weighted_values(fi).flat]
        widest = max(label(t, "cell", mono=True).width for t in texts)
        need = widest * 0.8 / 0.92  # a number may shrink to 80 % of its size, no further
        self.in_place = min(1.2, room / (2 * d)) < need
        if self.in_place:
            room += 0.75 + 0.22
            self.cell_w = cw = min(1.2, room / d)
        else:
            self.cell_w = cw = min(1.2, room / (2 * d))
        self.cell_h = ch = min(0.55, 3.9 / (n + 2))

        # The attention row of the focus word, as it was read in the matrix ...
        strip = NumberGrid(
            a[fi : fi + 1], self.dec, lambda _, j: self._w_source(j), self.theme, shown=self.shown[fi : fi + 1],
            row_labels=[ctx.tokens[fi]], cell_w=min(1.2, 11.0 / n), cell_h=0.6,
            row_colours=[self.theme["query"]], fill=lambda _, j: heat[j],
        )
        strip.col_labels = grid_col_names(strip, list(ctx.tokens), [self.theme["key"]] * n)
        strip.add(strip.col_labels)
        for j in range(n):
            strip.entry(0, j).set_color(ink[j])
        strip.move_to(DOWN * 0.4)
        self.play(FadeIn(strip), run_time=TIME.write)
        self.note = self.say(f"The weights: the row of “{ctx.tokens[fi]}” in the attention matrix.")

        # ... turns into a column, one weight per word, beside the value vectors.
        self.weights = NumberGrid(
            a[fi][:, None], self.dec, lambda j, _: self._w_source(j), self.theme, shown=w[:, None],
            row_labels=list(ctx.tokens), cell_w=0.95, cell_h=ch,
            fill=lambda j, _: heat[j],
        )
        for j in range(n):
            self.weights.entry(j, 0).set_color(ink[j])
        self.values = NumberGrid(
            ctx.embeddings, dec_x, lambda j, k: Source(0, "embeddings", (j, k)), self.theme, cell_w=cw, cell_h=ch
        )
        self.terms = NumberGrid(
            ctx.weighted_values(fi), self.dec, lambda j, k: Source(0, "weighted_values", (j, k), (fi,)), self.theme,
            cell_w=cw, cell_h=ch,
        )
        self.out = NumberGrid(
            ctx.output[fi : fi + 1], self.dec, lambda _, k: Source(0, "output", (fi, k)), self.theme,
            cell_w=cw, cell_h=ch, number_colour=self.theme["accent"],
        )
        self.out.cells.set_stroke(self.theme["accent"], width=2.5)
        self.times = label("×", "formula", self.theme["muted"])
        self.equals = label("=", "formula", self.theme["muted"])

        # Bodies left to right, tops aligned; the output row under the terms.
        cursor = self.weights.body().get_right()[0]
        steps = [(self.times, self.values)] + ([] if self.in_place else [(self.equals, self.terms)])
        for sign, grid in steps:
            sign.move_to([cursor + 0.22 + sign.width / 2, 0, 0])
            cursor = sign.get_right()[0] + 0.22
            grid.shift([cursor - grid.body().get_left()[0], self.weights.body().get_top()[1] - grid.body().get_top()[1], 0])
            cursor = grid.body().get_right()[0]
            sign.set_y(grid.body().get_y())
        if self.in_place:
            self.terms.shift(self.values.body().get_center() - self.terms.body().get_center())
        self.out.shift(self.terms.cell(n - 1, 0).get_center() + DOWN * (ch + 0.45) - self.out.cell(0, 0).get_center())
        dim_colours = [self.theme.dim(x) for x in dims]
        self.v_names = grid_col_names(self.values, dims, dim_colours)
        self.t_names = self.v_names if self.in_place else grid_col_names(self.terms, dims, dim_colours)
        head_y = max(self.v_names.get_top()[1], self.t_names.get_top()[1]) + 0.12
        self.h_weight = label("weight", "label", self.theme["weight"])
        self.h_value = label("value vectors, V = X", "label", self.theme["value"])
        self.h_terms = label("weight × vector", "label", self.theme["text"])
        for h, g in ((self.h_weight, self.weights), (self.h_value, self.values), (self.h_terms, self.terms)):
            h.move_to([g.body().get_x(), head_y + h.height / 2, 0])
        h_weight_low = self.weights.body().get_top()[1] + 0.12 + self.h_weight.height / 2
        self.h_weight.set_y(min(self.h_weight.get_y(), h_weight_low + 0.6))
        self.block = VGroup(
            self.weights, self.times, self.values, self.terms, self.out, self.v_names, self.h_weight, self.h_value,
            self.h_terms,
        )
        if not self.in_place:
            self.block.add(self.equals, self.t_names)
        # centred in the room between the header and the caption
        self.block.shift([-self.block.get_center()[0], (2.35 + -3.1) / 2 - self.block.get_center()[1], 0])

        self.play(
            *(ReplacementTransform(strip.entry(0, j), self.weights.entry(j, 0)) for j in range(n)),
            *(ReplacementTransform(strip.cell(0, j), self.weights.cell(j, 0)) for j in range(n)),
            *(ReplacementTransform(strip.col_labels[j], self.weights.row_labels[j]) for j in range(n)),
            FadeOut(strip.row_labels), FadeIn(self.h_weight),
            run_time=TIME.transform * 1.5,
        )
        self.play(
            FadeIn(self.values.cells), Write(self.v_names), FadeIn(self.h_value), FadeIn(self.times),
            LaggedStart(*(FadeIn(self.values.row_entries(j)) for j in range(n)), lag_ratio=0.15),
            run_time=TIME.write * 1.5,
        )
        self.note = self.say("The values: for now V = X, each word's own vector.", self.note)

    # -- 2 -------------------------------------------------------------------------------
    def weight_times_vector(self) -> None:
        ctx = self.ctx(0)
        n, fi = ctx.n, ctx.focus_index
        j0 = max(range(n), key=lambda j: self.shown[fi][j])
        who = f"“{ctx.tokens[j0]}” itself" if j0 == fi else f"“{ctx.tokens[j0]}”"
        self.narrate(
            f"Multiply each vector by its weight. {who}, weighted {fmt(self.shown[fi][j0], self.dec)}, "
            "keeps most of its vector; words with tiny weights almost vanish."
        )
        if self.in_place:
            # no room for both: each row of V turns into its weighted row where it stands
            self.play(ReplacementTransform(self.h_value, self.h_terms), run_time=TIME.fade)
            self.add(self.terms.cells)
            self.remove(self.values.cells)
        else:
            self.play(
                FadeIn(self.equals), FadeIn(self.terms.cells), Write(self.t_names), FadeIn(self.h_terms),
                run_time=TIME.fade,
            )

        def product(j: int) -> Animation:
            if self.in_place:
                return ReplacementTransform(
                    VGroup(self.weights.entry(j, 0).copy(), self.values.row_entries(j)), self.terms.row_entries(j)
                )
            return TransformFromCopy(VGroup(self.weights.entry(j, 0), self.values.row_entries(j)), self.terms.row_entries(j))

        # The biggest weight's row first, its parts outlined; then the others together.
        marks = VGroup(
            SurroundingRectangle(self.weights.cell(j0, 0), color=self.theme["accent"], buff=0.03),
            SurroundingRectangle(self.values.row(j0), color=self.theme["accent"], buff=0.03),
        )
        if not self.in_place:
            marks.add(SurroundingRectangle(self.terms.row(j0), color=self.theme["accent"], buff=0.03))
        self.play(Create(marks[0]), Create(marks[1]), run_time=TIME.fade)
        self.play(product(j0), *(Create(m) for m in marks[2:]), run_time=TIME.transform)
        self.note = self.say(f"Each word's vector, scaled by how much “{ctx.tokens[fi]}” attends to it.", self.note)
        rest = [j for j in range(n) if j != j0]
        self.play(FadeOut(marks), LaggedStart(*(product(j) for j in rest), lag_ratio=0.2), run_time=TIME.transform * 1.6)
        self.hold(len(rest) * ctx.d)

    # -- 3 -------------------------------------------------------------------------------
    def adding_up(self) -> None:
        ctx = self.ctx(0)
        n, d, fi = ctx.n, ctx.d, ctx.focus_index
        out = ctx.output[fi]
        k1, k2 = sorted(range(d), key=lambda k: -out[k])[:2] if d > 1 else (0, 0)
        parts = f"{fmt(out[k1], self.dec)} in {self.dims[k1]}"
        if k2 != k1:
            parts += f" and {fmt(out[k2], self.dec)} in {self.dims[k2]}"
        self.narrate(
            f"Then add the rows, dimension by dimension. The result is the output of “{ctx.tokens[fi]}”: {parts}."
        )
        body = self.terms.body()
        rule_y = (body.get_bottom()[1] + self.out.body().get_top()[1]) / 2
        rule = Line(
            [body.get_left()[0] - 0.45, rule_y, 0], [body.get_right()[0], rule_y, 0],
            stroke_color=self.theme["text"], stroke_width=2,
        )
        plus = label("+", "formula", self.theme["text"]).next_to(rule, LEFT, buff=0.12)
        self.out_name = label(f"output of “{ctx.tokens[fi]}”", "label", self.theme["accent"])
        self.out_name.next_to(self.out.body(), LEFT, buff=0.35)
        self.play(Create(rule), FadeIn(plus), FadeIn(self.out.cells), FadeIn(self.out_name), run_time=TIME.fade)
        # Each column's terms slide down into the output cell, then merge into their sum.
        copies = [VGroup(*(self.terms.entry(j, k).copy() for j in range(n))) for k in range(d)]
        self.play(
            LaggedStart(
                *(AnimationGroup(*(c.animate.move_to(self.out.cell(0, k)).set_opacity(0.45) for c in copies[k])) for k in range(d)),
                lag_ratio=0.2,
            ),
            run_time=TIME.transform * 1.3,
        )
        self.play(*(FadeTransform(copies[k], self.out.entry(0, k)) for k in range(d)), run_time=TIME.transform)
        self.remove(*copies)
        self.hold(d)
        self.sum_marks = VGroup(rule, plus)
        self.note = self.say(f"Add the rows, dimension by dimension: the output of “{ctx.tokens[fi]}”.", self.note)

    # -- 4 -------------------------------------------------------------------------------
    def own_plus_neighbours(self) -> None:
        ctx = self.ctx(0)
        n, d, fi = ctx.n, ctx.d, ctx.focus_index
        w = self.shown[fi]
        others = [j for j in range(n) if j != fi]
        j2 = max(others, key=lambda j: w[j]) if others else None
        rows = [fi] + ([j2] if j2 is not None else [])
        recipe = f"{fmt(w[fi], self.dec)} times its own vector"
        if j2 is not None:
            recipe += f", plus {fmt(w[j2], self.dec)} times “{ctx.tokens[j2]}”"
        if n > len(rows):
            recipe += ", plus a little of the rest"
        self.narrate(f"In short: {recipe}. Each output is a weighted average of the input vectors.")
        max_abs = max(float(np.max(np.abs(v))) for v in [*(ctx.embeddings[j] for j in rows), ctx.output[fi]])
        dec_x = decimals_needed(ctx.embeddings, self.dec)

        # Left: "w × word [bars]" for the focus word and the word it attends to most
        # (then "+ …" for the rest); right: "= [bars]" of the output. One height scale,
        # the tallest bars that fit between the header and the caption.
        lead_w = max(label(f"+ × “{ctx.tokens[j]}”", "body").width for j in rows) + 1.1
        pitch = min(1.0, (13.4 - lead_w - 1.2 - 0.8) / (2 * d))
        height, max_lines = 1.4, None
        for _ in range(10):
            parts = self._recipe(rows, max_abs, dec_x, pitch, height, max_lines)
            extra = parts[0].height - (2.35 - (-3.15))
            if extra <= 0:
                break
            if height <= 0.35:
                max_lines = 1  # too crowded: keep only the numbers that fit on one line
            height = max(0.35, height - extra / (len(rows) + 0.5))
        scene_row, in_rows, rest, eq, out_bars, out_names, out_cap = parts
        scene_row.move_to([0, (2.35 + -3.15) / 2, 0])
        in_charts = [row[1] for row in in_rows]

        # The weights and value rows used fly into the new picture; the rest fades.
        gone = VGroup(self.weights.cells, self.weights.row_labels, self.terms, self.times, self.sum_marks)
        gone.add(self.h_weight, self.h_terms, self.out.cells, self.out_name, self.v_names)
        gone.add(*(self.weights.entry(j, 0) for j in range(n) if j not in rows))
        if self.in_place:
            moves = [FadeIn(in_rows[r][1].nums) for r in range(len(rows))]
        else:
            gone.add(self.values.cells, self.equals, self.h_value, self.t_names)
            gone.add(*(self.values.row_entries(j) for j in range(n) if j not in rows))
            moves = [ReplacementTransform(self.values.row_entries(j), in_rows[r][1].nums) for r, j in enumerate(rows)]
        self.play(
            FadeOut(gone), *moves,
            *(ReplacementTransform(self.weights.entry(j, 0), in_rows[r][0][-3]) for r, j in enumerate(rows)),
            ReplacementTransform(self.out.entries, out_bars.nums),
            run_time=TIME.transform * 1.3,
        )
        self.play(
            *(FadeIn(VGroup(lead[:-3], lead[-2:])) for lead in (row[0] for row in in_rows)),
            *(FadeIn(row[2]) for row in in_rows),
            *(FadeIn(c.baseline) for c in (*in_charts, out_bars)),
            *(grow_bars(c) for c in (*in_charts, out_bars)),
            FadeIn(eq), FadeIn(out_names), FadeIn(out_cap), *([FadeIn(rest)] if rest is not None else []),
            run_time=TIME.transform * 1.3,
        )
        self.hold(d)
        self.note = self.say(f"The output of “{ctx.tokens[fi]}” = its own vector plus the vectors it attends to.", self.note)
        self.note = self.say("Each output is a weighted average of the input vectors.", self.note)
        self.hold()

    def _recipe(
        self, rows: list[int], max_abs: float, dec_x: int, pitch: float, height: float, max_lines: int | None = None
    ) -> tuple[VGroup, VGroup, Text | None, Text, VectorBars, VGroup, Text]:
        """``w × word [bars] + w × word [bars] + … = [bars]`` at bar ``height``: the groups to animate."""
        ctx = self.ctx(0)
        n, fi = ctx.n, ctx.focus_index
        dims = self.dims
        bar_w, gap = pitch * 0.66, pitch * 0.34

        def chart(vals: Sequence[float], dec: int, name: str, row: int) -> VectorBars:
            bars = VectorBars(
                vals, dims, dec, lambda k: Source(0, name, (row, k)), self.theme,
                max_abs=max_abs, height=height, bar_w=bar_w, gap=gap, dim_labels=False,
            )
            readable_numbers(bars, max_lines=max_lines)
            return bars

        in_rows = VGroup()
        for r, j in enumerate(rows):
            bars = chart(ctx.embeddings[j], dec_x, "embeddings", j)
            lead = VGroup(
                self._weight_num(j), label("×", "body", self.theme["muted"]),
                label(f"“{ctx.tokens[j]}”", "body", self.theme["text"]),
            ).arrange(RIGHT, buff=0.15)
            if r > 0:
                lead.add_to_back(label("+", "formula", self.theme["muted"]).next_to(lead, LEFT, buff=0.15))
            lead.next_to(bars.baseline, LEFT, buff=0.35).shift(UP * height * 0.35)
            in_rows.add(VGroup(lead, bars, bar_names(bars, dims, self.theme)))
        in_rows.arrange(DOWN, buff=0.35, aligned_edge=RIGHT)
        rest = label("+ …", "formula", self.theme["muted"]) if n > len(rows) else None
        left = VGroup(in_rows)
        if rest is not None:
            rest.next_to(in_rows, DOWN, buff=0.2).align_to(in_rows[-1][0], LEFT)
            left.add(rest)
        out_bars = chart(ctx.output[fi], self.dec, "output", fi)
        out_names = bar_names(out_bars, dims, self.theme)
        out_cap = label(f"output of “{ctx.tokens[fi]}”", "label", self.theme["accent"]).next_to(out_names, DOWN, buff=0.25)
        eq = label("=", "formula", self.theme["text"])
        right = VGroup(out_bars, out_names, out_cap)
        scene_row = VGroup(left, eq, right).arrange(RIGHT, buff=0.5)
        right.set_y(in_rows.get_y())
        eq.set_y(out_bars.baseline.get_y() + height * 0.4)
        return scene_row, in_rows, rest, eq, out_bars, out_names, out_cap
