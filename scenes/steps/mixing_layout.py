"""The layout of the mixing scene (:mod:`scenes.steps.mixing`): the equation weights × V = terms,
the marks of the sum, the recipe of bars: records of what stands where, built before anything moves.
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
    Line,
    ManimColor,
    Text,
    VGroup,
)

from attncore import ContextTrace, decimals_needed, fmt, round_matrix
from attncore.i18n import _, pgettext, quoted
from scenes.components import (
    EQ_BUFF,
    ColumnStyle,
    Num,
    NumberGrid,
    Source,
    VectorBars,
    bar_names,
    column_labels,
    column_labels_height,
    fit_cells,
    label,
    label_extent,
    names_pitch,
    one_line_header,
    place_after,
    readable_numbers,
    wrapped_text,
)
from scenes.layout import (
    CONTENT,
    GROUP_BUFF,
    ITEM_BUFF,
    LABEL_BUFF,
    MED_LARGE_BUFF,
    MED_SMALL_BUFF,
    MIXING_AREA,
    MIXING_BARS_AREA,
    Box,
)
from scenes.theme import STROKE, Theme

# -- the equation "weights × V = terms" ------------------------------------------------------
#: The equation and the recipe keep LABEL_BUFF inside the content box on each side.
BAND: Box = CONTENT.inset(left=LABEL_BUFF, right=LABEL_BUFF)
#: The widest cell, however few the dimensions or words.
MAX_CELL_W = 1.2
#: The column of weights: one cell wide enough for any weight.
WEIGHT_W = 0.95
#: Room for a sign ("×", "=") and its gaps, when the cells are sized.
SIGN_ROOM = 0.75
#: A number may shrink to 80 % of its size, no further (then the terms replace V in place);
#: a NumberGrid fills 92 % of a cell with it.
MIN_SHRINK, CELL_FILL = 0.8, 0.92
#: Height of the rows of V with the output row and the gap over it (n + 2 rows).
EQUATION_H = 3.9
#: The focus word's attention row as it first appears: that many units wide at most,
#: cells STRIP_H high, STRIP_DROP under the middle (where reading the matrix showed it).
STRIP_WIDTH, STRIP_H, STRIP_DROP = 11, 0.6, 0.4
#: Headings over the column names, the "+" before the sum's rule: as close as names over cells.
CLOSE_BUFF = 0.12
#: The "weight" heading stays at most this far over its first cell.
WEIGHT_HEAD_RISE = 0.6
#: The output row stands out: its outline in the accent colour, this wide.
OUTPUT_STROKE = STROKE.rule
#: Room for the sum: its rule reaches this far left of the terms (the "+" stands there),
#: and the output row sits this much lower than a next row of terms would.
SUM_GAP = 0.45
#: The outlines of the row being multiplied, just off its cells.
MARK_BUFF = 0.03
#: The terms fade to this while they slide into the output cell.
SLIDING_OPACITY = 0.45

# -- the recipe "w × word [bars] + … = [bars]" -------------------------------------------------
#: Room for the weight in front of "× word" (the widest weight, with its gap).
WEIGHT_ROOM = 1.1
#: Bar chart height: at first, and the least it shrinks to.
MAX_BAR_H, MIN_BAR_H = 1.4, 0.35
#: A bar's share of its pitch (the gap takes the rest).
BAR_SHARE = 0.66
#: The lead "w × word" and the "=" stand this far up the bars (a fraction of their height).
LEAD_RISE, EQ_RISE = 0.35, 0.4

def weight_source(fi: int, j: int) -> Source:
    """The weight of word ``j`` in the focus word's row, as displayed."""
    return Source(0, "attention", (fi, j))


def weight_colours(ctx: ContextTrace, theme: Theme) -> tuple[list[ManimColor], list[str]]:
    """(cell colour, ink) of each weight of the focus word's row, on the heat ramp."""
    a = ctx.attention
    fi = ctx.focus_index
    return [theme.heat(a[fi, j]) for j in range(ctx.n)], [theme.heat_ink(a[fi, j]) for j in range(ctx.n)]


def focus_strip(ctx: ContextTrace, shown: np.ndarray, theme: Theme, dec: int) -> NumberGrid:
    """The attention row of the focus word, as it was read in the matrix: words over it on one line."""
    n, fi = ctx.n, ctx.focus_index
    heat, ink = weight_colours(ctx, theme)
    cell_w, size, style = one_line_header(
        [ctx.tokens], min(MAX_CELL_W, STRIP_WIDTH / n), STRIP_WIDTH, n, turned_size="label"
    )
    strip = NumberGrid(
        ctx.attention[fi : fi + 1], dec, lambda _, j: weight_source(fi, j), theme,
        row_labels=[ctx.tokens[fi]], cell_w=cell_w, cell_h=STRIP_H,
        row_colours=[theme["query"]], fill=lambda _, j: heat[j],
    )
    strip.set_column_labels(column_labels(strip, ctx.tokens, theme, [theme["key"]] * n, size=size, style=style))
    for j in range(n):
        strip.entry(0, j).set_color(ink[j])
    return strip.move_to(DOWN * STRIP_DROP)


# -- 1: the equation -------------------------------------------------------------------------
@dataclass(frozen=True)
class Cells:
    """The cells of V, the terms and the output; ``in_place``: the terms replace V where it stands;
    the dimension names over them at ``size`` in ``style`` (see column_labels)."""

    width: float
    height: float
    in_place: bool
    size: str = "label"
    style: ColumnStyle = "pairwise"


def equation_cells(ctx: ContextTrace, dims: Sequence[str], dec: int, dec_x: int) -> Cells:
    """Sizes from the room: token labels | weights | × | V | = | terms. When the numbers
    would have to shrink below the readable size, the terms replace V in place instead."""
    d = ctx.d
    name_w = max(label(t, "label").width for t in ctx.tokens)
    room = BAND.width - (name_w + LABEL_BUFF) - WEIGHT_W - 2 * SIGN_ROOM
    texts = [fmt(v, dec_x) for v in ctx.embeddings.flat]
    texts += [fmt(v, dec) for v in ctx.weighted_values(ctx.focus_index).flat]
    widest = max(label(t, "cell", mono=True).width for t in texts)
    need = widest * MIN_SHRINK / CELL_FILL
    in_place = bool(min(MAX_CELL_W, room / (2 * d)) < need)
    if in_place:
        room += SIGN_ROOM + EQ_BUFF  # no "=" and no second matrix
    width, height = fit_cells(ctx.n + 2, d if in_place else 2 * d, room, EQUATION_H, max_w=MAX_CELL_W)
    # the dimension names on one line (issue 24): as they are where they keep apart; else as wide as
    # they need upright, side by side where the equation may take the band's margins for it, else the
    # terms in place (twice the room per column); else turned, the rows giving up the room they take
    margins = CONTENT.width - BAND.width
    width, size, style = one_line_header([dims], width, room + margins, d if in_place else 2 * d)
    if style == "turned" and not in_place:
        in_place, room = True, room + SIGN_ROOM + EQ_BUFF
        width, size, style = one_line_header([dims], min(MAX_CELL_W, room / d), room + margins, d)
    if style == "turned":  # turned names reach right of their columns: the equation keeps the margins
        left = MIXING_AREA.height - label_extent("Hy", "label")[1] - 2 * CLOSE_BUFF - SUM_GAP
        height = min(height, (left - column_labels_height(dims, width, size, "turned")) / (ctx.n + 1))
    return Cells(width, height, in_place, size, style)


@dataclass(frozen=True)
class Equation:
    """``weights × V = terms`` with the output row under the terms, centred in MIXING_AREA."""

    cells: Cells
    shown: np.ndarray  # (n,) the focus word's weights as displayed
    weights: NumberGrid  # (n, 1) the focus word's weights, one row per word
    values: NumberGrid  # (n, d) V = X
    terms: NumberGrid  # (n, d) A[fi, j] · V[j]; over V when in place
    out: NumberGrid  # (1, d) the output of the focus word
    times: Text
    equals: Text  # not placed (nor shown) in place
    v_names: VGroup  # dimension names over V
    t_names: VGroup  # over the terms (v_names itself in place)
    h_weight: Text
    h_value: Text
    h_terms: Text

    @property
    def in_place(self) -> bool:
        return self.cells.in_place


def equation_grids(ctx: ContextTrace, shown: np.ndarray, cells: Cells, theme: Theme, dec: int,
                   dec_x: int) -> tuple[NumberGrid, NumberGrid, NumberGrid, NumberGrid]:
    """(weights, V, terms, output), not yet placed."""
    fi = ctx.focus_index
    cw, ch = cells.width, cells.height
    heat, ink = weight_colours(ctx, theme)
    weights = NumberGrid(
        ctx.attention[fi][:, None], dec, lambda j, _: weight_source(fi, j), theme,
        row_labels=list(ctx.tokens), cell_w=WEIGHT_W, cell_h=ch, fill=lambda j, _: heat[j],
    )
    for j in range(ctx.n):
        weights.entry(j, 0).set_color(ink[j])
    values = NumberGrid(
        ctx.embeddings, dec_x, lambda j, k: Source(0, "embeddings", (j, k)), theme, cell_w=cw, cell_h=ch
    )
    terms = NumberGrid(
        ctx.weighted_values(fi), dec, lambda j, k: Source(0, "weighted_values", (j, k), (fi,)), theme,
        cell_w=cw, cell_h=ch,
    )
    out = NumberGrid(
        ctx.output[fi : fi + 1], dec, lambda _, k: Source(0, "output", (fi, k)), theme,
        cell_w=cw, cell_h=ch, number_colour=theme["accent"],
    )
    out.cells.set_stroke(theme["accent"], width=OUTPUT_STROKE)
    return weights, values, terms, out


def equation_layout(ctx: ContextTrace, dims: Sequence[str], theme: Theme, dec: int) -> Equation:
    """The whole equation: bodies left to right, tops aligned; the output row under the terms."""
    n = ctx.n
    dec_x = decimals_needed(ctx.embeddings, dec)
    cells = equation_cells(ctx, dims, dec, dec_x)
    shown = round_matrix(ctx.attention, dec)[ctx.focus_index]
    weights, values, terms, out = equation_grids(ctx, shown, cells, theme, dec, dec_x)
    times = label("×", "formula", theme["muted"])
    equals = label("=", "formula", theme["muted"])
    place_after(weights, [(times, values)] + ([] if cells.in_place else [(equals, terms)]))
    if cells.in_place:
        terms.shift(values.body().get_center() - terms.body().get_center())
    out.shift(terms.cell(n - 1, 0).get_center() + DOWN * (cells.height + SUM_GAP) - out.cell(0, 0).get_center())
    dim_colours = [theme.dim(x) for x in dims]
    v_names = column_labels(values, dims, theme, dim_colours, size=cells.size, style=cells.style)
    t_names = v_names if cells.in_place else column_labels(terms, dims, theme, dim_colours, size=cells.size,
                                                           style=cells.style)
    head_y = max(v_names.get_top()[1], t_names.get_top()[1]) + CLOSE_BUFF
    # Translators: the title over the column of attention weights of one word.
    h_weight = label(pgettext("column title", "weight"), "label", theme["weight"])
    h_value = label(_("value vectors, V = X"), "label", theme["value"])
    h_terms = label(_("weight × vector"), "label", theme["text"])
    for h, g in ((h_weight, weights), (h_value, values), (h_terms, terms)):
        h.move_to((g.body().get_x(), head_y + h.height / 2, 0))
    h_weight_low = weights.body().get_top()[1] + CLOSE_BUFF + h_weight.height / 2
    h_weight.set_y(min(h_weight.get_y(), h_weight_low + WEIGHT_HEAD_RISE))
    block = VGroup(weights, times, values, terms, out, v_names, h_weight, h_value, h_terms)
    if not cells.in_place:
        block.add(equals, t_names)
    # centred in the room between the header and the caption
    block.shift((-block.get_center()[0], MIXING_AREA.centre_y - block.get_center()[1], 0))
    return Equation(cells, shown, weights, values, terms, out, times, equals, v_names, t_names,
                    h_weight, h_value, h_terms)


# -- 3: the sum --------------------------------------------------------------------------------
@dataclass(frozen=True)
class SumMarks:
    """The rule under the terms with its "+", and the name of the output row."""

    rule: Line
    plus: Text
    out_name: Text | VGroup


def sum_marks(eq: Equation, focus: str, theme: Theme) -> SumMarks:
    body = eq.terms.body()
    rule_y = (body.get_bottom()[1] + eq.out.body().get_top()[1]) / 2
    rule = Line((body.get_left()[0] - SUM_GAP, rule_y, 0), (body.get_right()[0], rule_y, 0),
                stroke_color=theme["text"], stroke_width=2)
    plus = label("+", "formula", theme["text"]).next_to(rule, LEFT, buff=CLOSE_BUFF)
    name = _("output of {word}").format(word=quoted(focus))
    room = eq.out.body().get_left()[0] - GROUP_BUFF - CONTENT.left
    out_name: Text | VGroup = label(name, "label", theme["accent"])
    if out_name.width > room:  # a long name ("Ausgabe von …"): one size smaller, then on two lines
        out_name = label(name, "small", theme["accent"])
        if out_name.width > room:
            out_name = wrapped_text(name, "small", theme["accent"], room)
    out_name.next_to(eq.out.body(), LEFT, buff=GROUP_BUFF)
    return SumMarks(rule, plus, out_name)


# -- 4: the recipe -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Term:
    """One row of the recipe: ``[+] w × “word”``, the word's vector as bars, their names."""

    lead: VGroup  # [+], weight, ×, word
    bars: VectorBars
    names: VGroup

    @property
    def weight(self) -> Num:
        w = self.lead[-3]
        assert isinstance(w, Num)
        return w

    def signs(self) -> VGroup:
        """The lead without its weight (the weight flies in from the equation)."""
        return VGroup(self.lead[:-3], self.lead[-2:])


@dataclass(frozen=True)
class Recipe:
    """``w × word [bars] + w × word [bars] + … = [bars]`` at one bar height."""

    whole: VGroup
    terms: tuple[Term, ...]
    rest: Text | None  # "+ …" when some words are left out
    eq: Text
    out_bars: VectorBars
    out_names: VGroup
    out_cap: Text


@dataclass(frozen=True)
class RecipeInput:
    """What every recipe of a scene shares: the rows shown and the scale of the bars."""

    ctx: ContextTrace
    dims: Sequence[str]
    rows: list[int]  # the focus word, then the word it attends to most
    shown: np.ndarray  # (n,) the focus word's weights as displayed
    max_abs: float  # one height scale for every chart
    dec: int
    dec_x: int


def term_row(inp: RecipeInput, r: int, j: int, chart: VectorBars, height: float, theme: Theme) -> Term:
    lead = VGroup(
        Num(inp.ctx.attention[inp.ctx.focus_index, j], inp.dec, weight_source(inp.ctx.focus_index, j), size="body",
            color=theme["weight"]),  # the exact weight as shown (too small to show: <0.01)
        label("×", "body", theme["muted"]), label(quoted(inp.ctx.tokens[j]), "body", theme["text"]),
    ).arrange(RIGHT, buff=LABEL_BUFF)
    if r > 0:
        lead.add_to_back(label("+", "formula", theme["muted"]).next_to(lead, LEFT, buff=LABEL_BUFF))
    lead.next_to(chart.baseline, LEFT, buff=GROUP_BUFF).shift(UP * height * LEAD_RISE)
    return Term(lead, chart, bar_names(chart, inp.dims, theme))


def recipe(inp: RecipeInput, theme: Theme, pitch: float, height: float, max_lines: int | None) -> Recipe:
    """The recipe at bar ``height``, not yet placed."""
    ctx, fi = inp.ctx, inp.ctx.focus_index
    bar_w = pitch * BAR_SHARE

    def chart(vals: Sequence[float], dec: int, name: str, row: int) -> VectorBars:
        bars = VectorBars(
            vals, inp.dims, dec, lambda k: Source(0, name, (row, k)), theme,
            max_abs=inp.max_abs, height=height, bar_w=bar_w, gap=pitch - bar_w,
        )
        readable_numbers(bars, max_lines=max_lines)
        return bars

    terms = [term_row(inp, r, j, chart(ctx.embeddings[j], inp.dec_x, "embeddings", j), height, theme)
             for r, j in enumerate(inp.rows)]
    in_rows = VGroup(*(VGroup(t.lead, t.bars, t.names) for t in terms))
    in_rows.arrange(DOWN, buff=GROUP_BUFF, aligned_edge=RIGHT)
    rest = label("+ …", "formula", theme["muted"]) if ctx.n > len(inp.rows) else None
    left = VGroup(in_rows)
    if rest is not None:
        under = terms[-1].lead if getattr(terms[-1].names[0], "turned", 0.0) else in_rows  # beside turned names
        rest.next_to(under, DOWN, buff=ITEM_BUFF).align_to(terms[-1].lead, LEFT)
        left.add(rest)
    out_bars = chart(ctx.output[fi], inp.dec, "output", fi)
    out_names = bar_names(out_bars, inp.dims, theme)
    out_cap = label(_("output of {word}").format(word=quoted(ctx.tokens[fi])), "label", theme["accent"])
    out_cap.next_to(out_names, DOWN, buff=MED_SMALL_BUFF)
    eq = label("=", "formula", theme["text"])
    right = VGroup(out_bars, out_names, out_cap)
    whole = VGroup(left, eq, right).arrange(RIGHT, buff=MED_LARGE_BUFF)
    right.set_y(in_rows.get_y())
    eq.set_y(out_bars.baseline.get_y() + height * EQ_RISE)
    return Recipe(whole, tuple(terms), rest, eq, out_bars, out_names, out_cap)


def fitted_recipe(inp: RecipeInput, theme: Theme) -> Recipe:
    """The tallest bars whose recipe fits MIXING_BARS_AREA, centred in it: one height scale."""
    lead_w = max(label(f"+ × {quoted(inp.ctx.tokens[j])}", "body").width for j in inp.rows) + WEIGHT_ROOM
    # the rest of the row: "=" with its gaps, the gap after each lead, the ends of the baselines
    room = (BAND.width - lead_w - 2) / (2 * inp.ctx.d)
    pitch = names_pitch(inp.dims, min(1, room), room)
    height, max_lines = MAX_BAR_H, None
    for _attempt in range(10):
        parts = recipe(inp, theme, pitch, height, max_lines)
        extra = parts.whole.height - MIXING_BARS_AREA.height
        if extra <= 0:
            break
        if height <= MIN_BAR_H:
            max_lines = 1  # too crowded: keep only the numbers that fit on one line
        # the overflow, shared by the halves of every row and the "+ …" (about half a row)
        height = max(MIN_BAR_H, height - 2 * extra / (2 * len(inp.rows) + 1))
    if parts.whole.width > BAND.width:  # long words: smaller, not narrower bars (their names would stagger)
        parts.whole.scale_to_fit_width(BAND.width)
    parts.whole.move_to((0, MIXING_BARS_AREA.centre_y, 0))
    return parts
