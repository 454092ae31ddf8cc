"""Changing the dimension: W_V may map the d input dimensions to d_v others.

After this scene the viewer knows that the value map W_V need not be square: with d rows
and d_v columns it gives every word a value vector of size d_v, and because each output
row is a weighted average of value rows, the output of attention has V's size, not X's.

Shows from the attncore trace, context 0: ``embeddings`` (X), ``reshaped.W_V``
(d×d_v), ``reshaped.V`` (n×d_v), ``projected.attention`` (A) and
``reshaped.output`` = A·V (n×d_v), each with its shape; then the focus word's input row
(``embeddings``) next to its output row (``reshaped.output``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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
    Text,
    TransformFromCopy,
    VGroup,
    VMobject,
)

from attncore import ContextTrace, LessonTrace, decimals_needed
from attncore.i18n import N_, _, quoted
from scenes.base import LessonScene
from scenes.components import (
    BLOCK_LABELS_H,
    Grid,
    MatrixBlock,
    RowFit,
    Source,
    arrange_equation,
    cell_height,
    centre_on_baseline,
    fit_numbers,
    label,
    label_width,
    named_block,
    number_cell_width,
    operator,
    operators_width,
    row_labels_width,
    row_outline,
    row_transfer,
    trace_grid,
)
from scenes.layout import DRIFT, ITEM_BUFF, LABEL_BUFF, LARGE_BUFF, SMALL_BUFF, Box
from scenes.theme import TIME, Theme

#: A product row is fitted ROW_SPARE narrower than the content box.
ROW_SPARE = 0.3
#: The focus word's two rows: cells ROW_CELL_H tall, ROWS_GAP apart when their names stand
#: left of them (LARGE_BUFF when the names stand above); NAME_GAP from a row to its name and size.
ROW_CELL_H, ROWS_GAP, NAME_GAP = 0.6, 0.8, 0.3


# -- a product on one line -------------------------------------------------------------------
@dataclass(frozen=True)
class Product:
    """``left · right = result`` on one line, centred in the content box."""

    left: MatrixBlock
    right: MatrixBlock
    result: MatrixBlock
    dot: VMobject
    eq: VMobject

    def operators(self) -> VGroup:
        return VGroup(self.dot, self.eq)


def row_cell_h(ctx: ContextTrace, box: Box) -> float:
    """One cell height for both products: n or d rows, with their names and shapes, in ``box``."""
    return cell_height(box.height - BLOCK_LABELS_H, max(ctx.n, ctx.d))


def fit_product(ctx: ContextTrace, theme: Theme, box: Box, mats: Sequence[tuple[np.ndarray, int]],
                give_up: Sequence[int]) -> RowFit:
    """Cell widths for a row ``M0 · M1 = M2`` (the first with token row labels)."""
    fixed = row_labels_width(ctx.tokens) + operators_width(theme)
    return fit_numbers(mats, [m.shape[1] for m, _ in mats], box.width - ROW_SPARE, fixed, give_up)


def product_grid(trace: LessonTrace, theme: Theme, path: str, dec: int, fit: RowFit, k: int, colour: str,
                 cell_h: float, rows: Sequence[str] | None = None) -> Grid:
    """Matrix ``k`` of a fitted row: numbers, or tiles in its role colour."""
    return trace_grid(trace, path, dec, theme, cell_w=fit[k].width, cell_h=cell_h, numbers=fit[k].numbers,
                      tiles=colour, size=fit.size, row_labels=rows)


def product_row(left: MatrixBlock, right: MatrixBlock, result: MatrixBlock, theme: Theme, box: Box) -> Product:
    """The three with their operators, centred in ``box`` (shrunk only for extreme lessons)."""
    dot, eq = operator("·", theme), operator("=", theme)
    row = arrange_equation([left, dot, right, eq, result])
    factor = min(1, box.height / row.height, box.width / row.width)
    if factor < 1:
        row.scale(factor)
    # A little above the centre: the two shape lines under the row take more room than the names over it.
    row.move_to((0, box.centre_y + ITEM_BUFF, 0))
    return Product(left, right, result, dot, eq)


def shape_outline(block: MatrixBlock, colour: str) -> SurroundingRectangle:
    """An outline around a block's numeric and symbolic shapes."""
    assert block.shape is not None and block.sym is not None
    return SurroundingRectangle(VGroup(block.shape, block.sym), color=colour, buff=SMALL_BUFF)


def value_map_layout(trace: LessonTrace, theme: Theme, box: Box, dec: int) -> Product:
    """X · W_V = V."""
    ctx = trace.contexts[0]
    x, w, v = ctx.embeddings, ctx.reshaped.W_V, ctx.reshaped.V
    ch = row_cell_h(ctx, box)
    dec_x, dec_w = decimals_needed(x, dec), decimals_needed(w, dec)
    fit = fit_product(ctx, theme, box, [(x, dec_x), (w, dec_w), (v, dec)], give_up=[0, 1, 2])
    text, value = theme["text"], theme["value"]
    x_block = named_block(product_grid(trace, theme, "embeddings", dec_x, fit, 0, text, ch, ctx.tokens), "X", text,
                          x.shape, Source(0, "embeddings"), "n×d", theme, outline=False)
    w_block = named_block(product_grid(trace, theme, "reshaped.W_V", dec_w, fit, 1, value, ch), "W_V", value, w.shape,
                          Source(0, "reshaped.W_V"), "d×d_v", theme)
    v_block = named_block(product_grid(trace, theme, "reshaped.V", dec, fit, 2, value, ch), "V", value, v.shape,
                          Source(0, "reshaped.V"), "n×d_v", theme)
    return product_row(x_block, w_block, v_block, theme, box)


def output_layout(trace: LessonTrace, theme: Theme, box: Box, dec: int) -> Product:
    """A · V = output, its cells as tall as X · W_V's."""
    ctx = trace.contexts[0]
    a, v, out = ctx.projected.attention, ctx.reshaped.V, ctx.reshaped.output
    ch = row_cell_h(ctx, box)
    fit = fit_product(ctx, theme, box, [(a, dec), (v, dec), (out, dec)], give_up=[0, 1, 2])
    value, output = theme["value"], theme["output"]
    a_grid = trace_grid(trace, "projected.attention", dec, theme, heat=True, numbers=fit[0].numbers,
                        cell_w=fit[0].width, cell_h=ch, row_labels=ctx.tokens, size=fit.size)
    a_block = named_block(a_grid, "A", theme["accent"], a.shape, Source(0, "projected.attention"), "n×n", theme,
                          outline=False)
    v_block = named_block(product_grid(trace, theme, "reshaped.V", dec, fit, 1, value, ch), "V", value, v.shape,
                          Source(0, "reshaped.V"), "n×d_v", theme)
    o_block = named_block(product_grid(trace, theme, "reshaped.output", dec, fit, 2, output, ch), _("output"), output,
                          out.shape, Source(0, "reshaped.output"), "n×d_v", theme)
    return product_row(a_block, v_block, o_block, theme, box)


# -- one word, before and after --------------------------------------------------------------
@dataclass(frozen=True)
class BeforeAfter:
    """The focus word's row of X over its row of the output, each named, each with its size."""

    x_row: Grid  # (1, d) the focus row of embeddings
    o_row: Grid  # (1, d_v) the focus row of reshaped.output
    x_name: Text
    o_name: Text
    sizes: VGroup  # "d numbers", "d_v numbers", right of the rows


def row_cells(ctx: ContextTrace, dec: int, room: float, names_w: float, sizes_w: float) -> tuple[float, str, bool]:
    """Cell width, number size and whether the names stand left of the rows: numbers as large as fit,
    names left of the rows when there is room, else above them."""
    f = ctx.focus_index
    x, out = ctx.embeddings, ctx.reshaped.output
    dec_x = decimals_needed(x, dec)
    wide = max(x.shape[1], out.shape[1])
    for size, names_left in (("body", True), ("cell", True), ("body", False), ("cell", False), ("small", False)):
        cw = max(number_cell_width(x[f], dec_x, size), number_cell_width(out[f], dec, size))
        if wide * cw + sizes_w + (names_w if names_left else 0) <= room:
            break
    return cw, size, names_left


def before_after_layout(trace: LessonTrace, theme: Theme, box: Box, dec: int) -> BeforeAfter:
    """The two rows, their names and sizes, centred in ``box``."""
    ctx = trace.contexts[0]
    f = ctx.focus_index
    # Translators: {word} is a word of the lesson, shown without quotation marks (start with it if you can).
    texts = (_("{word} in X").format(word=ctx.focus), _("{word} after attention").format(word=ctx.focus))
    # Translators: d and d_v are the sizes of a word's vector before and after (symbols, keep them).
    size_texts = (_("d numbers"), _("d_v numbers"))
    names_w = label_width(texts, "body") + NAME_GAP
    sizes_w = label_width(size_texts, "label") + NAME_GAP
    cw, size, names_left = row_cells(ctx, dec, box.width - ITEM_BUFF, names_w, sizes_w)
    x_row = trace_grid(trace, "embeddings", decimals_needed(ctx.embeddings, dec), theme, row=f, cell_w=cw,
                       cell_h=ROW_CELL_H, size=size)
    o_row = trace_grid(trace, "reshaped.output", dec, theme, row=f, cell_w=cw, cell_h=ROW_CELL_H, size=size)
    o_row.cells.set_stroke(theme["output"])
    rows = VGroup(x_row, o_row).arrange(DOWN, buff=ROWS_GAP if names_left else LARGE_BUFF, aligned_edge=LEFT)
    names: list[Text] = []
    # No leading quote mark: centre_on_baseline reads the baseline from the first glyph.
    for grid, text, colour in ((x_row, texts[0], theme["text"]), (o_row, texts[1], theme["output"])):
        lab = label(text, "body", colour)
        if names_left:
            centre_on_baseline(lab, grid.get_center())
            lab.next_to(grid, LEFT, buff=NAME_GAP, coor_mask=np.array([1, 0, 0]))
        else:
            lab.next_to(grid, UP, buff=LABEL_BUFF, aligned_edge=LEFT)
        names.append(lab)
    sizes = VGroup(
        label(size_texts[0], "label", theme["muted"]).next_to(x_row, RIGHT, buff=NAME_GAP),
        label(size_texts[1], "label", theme["muted"]).next_to(o_row, RIGHT, buff=NAME_GAP),
    )
    VGroup(VGroup(*names), rows, sizes).move_to((0, box.centre_y, 0))
    return BeforeAfter(x_row, o_row, names[0], names[1], sizes)


class ChangingDimension(LessonScene):
    TITLE = N_("Changing the dimension")
    STAGE = 5
    FORMULA = 'V = X W_V quad "output" = A V'
    SECTIONS = (
        (N_("A value map of another size"), "value_map"),
        (N_("The output takes the size of V"), "output_size"),
        (N_("One word, before and after"), "before_and_after"),
    )

    value: Product  # X · W_V = V
    output: Product  # A · V = output
    shape_boxes: VGroup  # around the shapes of V and of the output

    def _compare(self, more: str, fewer: str, same: str) -> str:
        """``more``, ``fewer`` or ``same``: how d_v compares with d in this lesson."""
        d, d_v = self.ctx(0).d, self.ctx(0).reshaped.V.shape[1]
        return more if d_v > d else fewer if d_v < d else same

    # -- section 1 ------------------------------------------------------------------------
    def _value_map_words(self) -> str:
        """W_V need not be square; how this lesson's d_v compares with d."""
        return (_("The value matrix W_V does not have to be square.") + " " + self.claims("value_size")[0].text
                + self._untrained_words())

    def _untrained_words(self) -> str:
        """With trained weights, say that this W_V was not trained (unless set by hand)."""
        t = self.trace.training
        if t is None or not t.trained or self.lesson.projections.matrix("W_V_reshape") is not None:
            return ""
        return " " + _("Its numbers are drawn at random, not trained: its columns have no named sense to learn.")

    def value_map(self) -> None:
        self.narrate(self._value_map_words())
        lay = self.value = value_map_layout(self.trace, self.theme, self.content, self.dec)
        w = lay.right
        assert w.shape is not None and w.sym is not None
        self.play(FadeIn(lay.left), run_time=TIME.fade)
        self.play(FadeIn(lay.dot), FadeIn(w, shift=LEFT * DRIFT), run_time=TIME.write)
        shape, size = (c.text for c in self.claims("value_size", "caption"))
        self.note = self.say(shape)
        self.play(Indicate(w.shape, color=self.theme["accent"]), Indicate(w.sym, color=self.theme["accent"]),
                  FadeIn(lay.eq))
        self.play(row_transfer(lay.left.grid, lay.result.grid), FadeIn(lay.result.labels()))
        self.hold(self.ctx(0).n * self.ctx(0).reshaped.V.shape[1] // 2)
        self.note = self.say(size, self.note)

    # -- section 2 ------------------------------------------------------------------------
    def _output_words(self) -> str:
        """Why the output takes the size of V."""
        return _("Attention is unchanged: the output is A times V. "
                 "Each output row is a weighted average of rows of V, so it has the size of V, not of X.")

    def output_size(self) -> None:
        ctx = self.ctx(0)
        self.narrate(self._output_words())
        lay = self.output = output_layout(self.trace, self.theme, self.content, self.dec)
        before = self.value
        self.play(FadeOut(VGroup(before.left, before.right, before.operators())), run_time=TIME.fade)
        self.play(ReplacementTransform(before.result, lay.right), run_time=TIME.transform)
        self.play(FadeIn(lay.left, shift=RIGHT * DRIFT), FadeIn(lay.dot), run_time=TIME.write)
        self.hold(ctx.n)
        self.play(FadeIn(lay.eq), row_transfer(lay.left.grid, lay.result.grid), FadeIn(lay.result.labels()))
        self.hold(ctx.n * ctx.reshaped.output.shape[1] // 2)
        self.shape_boxes = VGroup(*(shape_outline(b, self.theme["accent"]) for b in (lay.right, lay.result)))
        self.play(Create(self.shape_boxes), run_time=TIME.fade)
        self.note = self.say(_("Each output row is a weighted average of rows of V, so it has V's size."), self.note)

    # -- section 3 ------------------------------------------------------------------------
    def _before_after_words(self) -> str:
        """The focus word goes in with d numbers and comes out with d_v."""
        return _(
            "{word} goes in with d numbers and comes out with d_v. "
            "Multi-head attention uses this to give each head smaller values."
        ).format(word=quoted(self.ctx(0).focus))

    def before_and_after(self) -> None:
        ctx = self.ctx(0)
        f = ctx.focus_index
        lay = before_after_layout(self.trace, self.theme, self.content, self.dec)
        out = self.output
        o_grid = out.result.grid
        focus_box = row_outline(o_grid, f, self.theme["accent"])
        self.narrate(self._before_after_words())
        self.play(FadeOut(self.shape_boxes), Create(focus_box), run_time=TIME.fade)
        self.play(FadeOut(VGroup(out.left, out.right, out.operators(), out.result.labels())), run_time=TIME.fade)
        self.play(FadeIn(lay.x_row), FadeIn(lay.x_name), run_time=TIME.fade)
        self.play(
            TransformFromCopy(VGroup(*o_grid.row(f), *o_grid.row_entries(f)), lay.o_row),
            FadeOut(VGroup(o_grid, focus_box)),
            FadeIn(lay.o_name),
            run_time=TIME.transform,
        )
        self.play(FadeIn(lay.sizes), run_time=TIME.fade)
        self.hold(ctx.embeddings.shape[1] + ctx.reshaped.output.shape[1])
        self.note = self.say(
            _("A model chooses d_v freely; multi-head attention uses smaller values per head."), self.note
        )
