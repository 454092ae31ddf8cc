"""Step 10, changing the dimension: W_V may map the d input dimensions to d_v others.

After this scene the viewer knows that the value map W_V need not be square: with d rows
and d_v columns it gives every word a value vector of size d_v, and because each output
row is a weighted average of value rows, the output of attention has V's size, not X's.

Shows from the attncore trace, context 0: ``embeddings`` (X), ``reshaped.W_V``
(d×d_v), ``reshaped.V`` (n×d_v), ``projected.attention`` (A, rows rounded to one) and
``reshaped.output`` = A·V (n×d_v), each with its shape; then the focus word's input row
(``embeddings``) next to its output row (``reshaped.output``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    FadeIn,
    FadeOut,
    Indicate,
    ReplacementTransform,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
)

from attncore import decimals_needed
from scenes.base import LessonScene
from scenes.components import (
    EQ_BUFF,
    Grid,
    RowFit,
    Source,
    arrange_equation,
    centre_on_baseline,
    fit_numbers,
    label,
    label_width,
    named_block,
    number_cell_width,
    operator,
    row_transfer,
    trace_grid,
)
from scenes.theme import TIME

ROW_GAP = 0.35  # room between the equation row and what sits under it


class ChangingDimension(LessonScene):
    TITLE = "10 · Changing the dimension"
    STAGE = 5
    FORMULA = "V = X·W_V   output = A·V"
    SECTIONS = (
        ("A value map of another size", "value_map"),
        ("The output takes the size of V", "output_size"),
        ("One word, before and after", "before_and_after"),
    )

    # -- helpers --------------------------------------------------------------------------
    def _fit(self, mats: Sequence[tuple[np.ndarray, int]], give_up: Sequence[int]) -> RowFit:
        """Cell widths for a row ``M0 · M1 = M2`` (the first with token row labels)."""
        rows_w = label_width(self.ctx(0).tokens, "label") + 0.2
        fixed = rows_w + 2 * (operator("=", self.theme).width + 2 * EQ_BUFF)
        return fit_numbers(mats, [m.shape[1] for m, _ in mats], self.content.width - 0.3, fixed, give_up)

    def _grid(self, path: str, dec: int, fit: RowFit, k: int, colour: str, rows: Sequence[str] | None = None) -> Grid:
        """Matrix ``k`` of a fitted row: numbers, or tiles in its role colour."""
        return trace_grid(self.trace, path, dec, self.theme, cell_w=fit[k].width, cell_h=self.cell_h,
                          numbers=fit[k].numbers, tiles=colour, size=fit.size, row_labels=rows)

    def _place_row(self, row: VGroup) -> None:
        """Centre an equation row in the content box (shrinking it only for extreme lessons)."""
        factor = min(1.0, (self.content.height) / row.height, (self.content.width) / row.width)
        if factor < 1.0:
            row.scale(factor)
        row.move_to([0, self.content.centre_y + 0.2, 0])

    def _compare(self, more: str, fewer: str, same: str) -> str:
        """``more``, ``fewer`` or ``same``: how d_v compares with d in this lesson."""
        d, d_v = self.ctx(0).d, self.ctx(0).reshaped.V.shape[1]
        return more if d_v > d else fewer if d_v < d else same

    # -- section 1 ------------------------------------------------------------------------
    def value_map(self) -> None:
        ctx = self.ctx(0)
        x, w, v = ctx.embeddings, ctx.reshaped.W_V, ctx.reshaped.V
        n, d = ctx.n, ctx.d
        self.narrate(
            "The value matrix W_V does not have to be square. " + self._compare(
                "This one has more columns than rows, so every word gets a longer value vector, of size d_v.",
                "This one has fewer columns than rows, so every word gets a shorter value vector, of size d_v.",
                "This one happens to be square, but any number of columns, d_v, would work.",
            )
        )
        self.cell_h = min(0.5, max(0.3, (self.content.height - 1.6) / max(n, d)))
        dec_x, dec_w = decimals_needed(x, self.dec), decimals_needed(w, self.dec)
        fit = self._fit([(x, dec_x), (w, dec_w), (v, self.dec)], give_up=[0, 1, 2])
        value = self.theme["value"]
        x_block = named_block(self._grid("embeddings", dec_x, fit, 0, self.theme["text"], ctx.tokens), "X",
                              self.theme["text"], x.shape, Source(0, "embeddings"), "n×d", self.theme, outline=False)
        w_block = named_block(self._grid("reshaped.W_V", dec_w, fit, 1, value), "W_V", value, w.shape,
                              Source(0, "reshaped.W_V"), "d×d_v", self.theme)
        v_block = named_block(self._grid("reshaped.V", self.dec, fit, 2, value), "V", value, v.shape,
                              Source(0, "reshaped.V"), "n×d_v", self.theme)
        dot, eq = operator("·", self.theme), operator("=", self.theme)
        row = arrange_equation([x_block, dot, w_block, eq, v_block])
        self._place_row(row)

        self.play(FadeIn(x_block), run_time=TIME.fade)
        self.play(FadeIn(dot), FadeIn(w_block, shift=LEFT * 0.2), run_time=TIME.write)
        self.note = self.say("This W_V has d rows but only d_v columns: it is not square.")
        self.play(Indicate(w_block.shape, color=self.theme["accent"]), Indicate(w_block.sym, color=self.theme["accent"]),
                  FadeIn(eq))
        self.play(row_transfer(x_block.grid, v_block.grid), FadeIn(v_block.labels()))
        self.hold(n * v.shape[1] // 2)
        self.note = self.say("So every word gets a value vector V of size d_v instead of d.", self.note)
        self.x_block, self.w_block, self.v_block, self.ops = x_block, w_block, v_block, VGroup(dot, eq)

    # -- section 2 ------------------------------------------------------------------------
    def output_size(self) -> None:
        ctx = self.ctx(0)
        self.narrate(
            "Attention is unchanged: the output is A times V. "
            "Each output row is a weighted average of rows of V, so it has the size of V, not of X."
        )
        a, v, out = ctx.projected.attention, ctx.reshaped.V, ctx.reshaped.output
        fit = self._fit([(a, self.dec), (v, self.dec), (out, self.dec)], give_up=[0, 1, 2])
        value, output = self.theme["value"], self.theme["output"]
        a_grid = trace_grid(self.trace, "projected.attention", self.dec, self.theme, heat=True, numbers=fit[0].numbers,
                            cell_w=fit[0].width, cell_h=self.cell_h, row_labels=ctx.tokens, size=fit.size)
        a_block = named_block(a_grid, "A", self.theme["accent"], a.shape, Source(0, "projected.attention"), "n×n",
                              self.theme, outline=False)
        v_block = named_block(self._grid("reshaped.V", self.dec, fit, 1, value), "V", value, v.shape,
                              Source(0, "reshaped.V"), "n×d_v", self.theme)
        o_block = named_block(self._grid("reshaped.output", self.dec, fit, 2, output), "output", output,
                              out.shape, Source(0, "reshaped.output"), "n×d_v", self.theme)
        dot, eq = operator("·", self.theme), operator("=", self.theme)
        row = arrange_equation([a_block, dot, v_block, eq, o_block])
        self._place_row(row)

        self.play(FadeOut(VGroup(self.x_block, self.w_block, self.ops)), run_time=TIME.fade)
        self.play(ReplacementTransform(self.v_block, v_block), run_time=TIME.transform)
        self.play(FadeIn(a_block, shift=RIGHT * 0.2), FadeIn(dot), run_time=TIME.write)
        self.hold(ctx.n)
        self.play(FadeIn(eq), row_transfer(a_block.grid, o_block.grid), FadeIn(o_block.labels()))
        self.hold(ctx.n * out.shape[1] // 2)
        boxes = VGroup(
            SurroundingRectangle(VGroup(v_block.shape, v_block.sym), color=self.theme["accent"], buff=0.1),
            SurroundingRectangle(VGroup(o_block.shape, o_block.sym), color=self.theme["accent"], buff=0.1),
        )
        self.play(Create(boxes), run_time=TIME.fade)
        self.note = self.say("Each output row is a weighted average of rows of V, so it has V's size.", self.note)
        self.a_block, self.v2_block, self.o_block, self.ops2, self.boxes = a_block, v_block, o_block, VGroup(dot, eq), boxes

    # -- section 3 ------------------------------------------------------------------------
    def before_and_after(self) -> None:
        ctx = self.ctx(0)
        f = ctx.focus_index
        x, out = ctx.embeddings, ctx.reshaped.output
        dec_x = decimals_needed(x, self.dec)
        room = self.content.width - 0.2
        wide = max(x.shape[1], out.shape[1])
        texts = (f"{ctx.focus} in X", f"{ctx.focus} after attention")
        names_w = label_width(texts, "body") + 0.3
        sizes_w = label_width(["d_v numbers"], "label") + 0.3
        # Names left of the rows when there is room, else above them; numbers as large as fit.
        for size, names_left in (("body", True), ("cell", True), ("body", False), ("cell", False), ("small", False)):
            cw = max(number_cell_width(x[f], dec_x, size), number_cell_width(out[f], self.dec, size))
            if wide * cw + sizes_w + (names_w if names_left else 0.0) <= room:
                break
        ch = 0.6
        x_row = trace_grid(self.trace, "embeddings", dec_x, self.theme, row=f, cell_w=cw, cell_h=ch, size=size)
        o_row = trace_grid(self.trace, "reshaped.output", self.dec, self.theme, row=f, cell_w=cw, cell_h=ch, size=size)
        o_row.cells.set_stroke(self.theme["output"], width=1.5)
        rows = VGroup(x_row, o_row).arrange(DOWN, buff=0.8 if names_left else 1.0, aligned_edge=LEFT)
        names = VGroup()
        # No leading quote mark: centre_on_baseline reads the baseline from the first glyph.
        for grid, text, colour in ((x_row, texts[0], self.theme["text"]), (o_row, texts[1], self.theme["output"])):
            lab = label(text, "body", colour)
            if names_left:
                centre_on_baseline(lab, grid.get_center())
                lab.next_to(grid, LEFT, buff=0.3, coor_mask=np.array([1, 0, 0]))
            else:
                lab.next_to(grid, UP, buff=0.15, aligned_edge=LEFT)
            names.add(lab)
        sizes = VGroup(
            label("d numbers", "label", self.theme["muted"]).next_to(x_row, RIGHT, buff=0.3),
            label("d_v numbers", "label", self.theme["muted"]).next_to(o_row, RIGHT, buff=0.3),
        )
        VGroup(names, rows, sizes).move_to([0, self.content.centre_y, 0])
        focus_box = SurroundingRectangle(self.o_block.grid.row(f), color=self.theme["accent"], buff=0.03)

        self.narrate(
            f"“{ctx.focus}” goes in with d numbers and comes out with d_v. "
            "Multi-head attention uses this to give each head smaller values."
        )
        self.play(FadeOut(self.boxes), Create(focus_box), run_time=TIME.fade)
        self.play(FadeOut(VGroup(self.a_block, self.v2_block, self.ops2, self.o_block.labels())), run_time=TIME.fade)
        self.play(FadeIn(x_row), FadeIn(names[0]), run_time=TIME.fade)
        self.play(
            TransformFromCopy(VGroup(*self.o_block.grid.row(f), *self.o_block.grid.row_entries(f)), o_row),
            FadeOut(VGroup(self.o_block.grid, focus_box)),
            FadeIn(names[1]),
            run_time=TIME.transform,
        )
        self.play(FadeIn(sizes), run_time=TIME.fade)
        self.hold(x.shape[1] + out.shape[1])
        self.note = self.say("A model chooses d_v freely; multi-head attention uses smaller values per head.", self.note)

