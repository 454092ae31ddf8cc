"""The layout of the side-by-side scene (:mod:`scenes.steps.two_contexts`): the panels of the
contexts, their bars and tags, the outlines of the winners: pure functions that build and place,
returning typed records.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, cast

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    RoundedRectangle,
    Square,
    SurroundingRectangle,
    Text,
    VGroup,
)

from attncore import ContextTrace, decimals_needed, fmt
from attncore.i18n import _
from scenes.components import (
    Num,
    Source,
    TokenRow,
    VectorBars,
    boxes_touch,
    centre_on_baseline,
    keep_inside,
    label,
    readable_numbers,
    readable_scale,
    stagger_levels,
    stagger_names,
    wrap_token_row,
)
from scenes.layout import (
    FRAME_MARGIN,
    FRAME_X,
    GROUP_BUFF,
    ITEM_BUFF,
    LABEL_BUFF,
    MED_LARGE_BUFF,
    MED_SMALL_BUFF,
    PANEL_AREA,
    SMALL_BUFF,
    TINY_BUFF,
)
from scenes.theme import STROKE, Theme

# -- the panels (scene units) --------------------------------------------------------------
#: The least slack: the panels reach this close to x = ±FRAME_X (the bars' numbers need the
#: room); the legend and the names keep this much spare, an outline half of it in its column.
SLACK = 0.02
#: All the panels together, side by side: FRAME_MARGIN in from x = ±FRAME_X, like every
#: scene's content (the bars' numbers at the panels' edges keep 24 px from the frame at 480p).
PANELS_SPAN = 2 * (FRAME_X - FRAME_MARGIN)
#: One panel alone is no wider than PANEL_W_MAX (its bars would drift too far apart to compare);
#: between two panels MED_LARGE_BUFF, a TINY_BUFF less when there are three.
PANEL_W_MAX, PANEL_GAP, PANEL_GAP_THREE = 6.75, MED_LARGE_BUFF, MED_LARGE_BUFF - TINY_BUFF
#: A panel's rounded corner and the room above its sentence; its outline, its opacity, and the
#: outline of the panels at the end (the winner's colour).
PANEL_PAD = 0.18
PANEL_STROKE, PANEL_OPACITY, WINNER_STROKE = STROKE.thin, 0.55, STROKE.bold
#: Between two lines of names (as :func:`~scenes.components.stagger_names` puts them) and
#: the rows of a legend; a chart keeps as much from each side of its panel.
LINE_GAP = 0.12
#: The clearance of marks (the arrow under the inputs, names in their panel, outlines at most);
#: the least gap between a winning bar's number and the top of its outline.
CLEARANCE = 0.08
NUMBER_CLEAR = 1.5 * CLEARANCE
#: An outline keeps NAME_CLEAR from the names of the other columns; a legend's colour square
#: is SWATCH a side, small beside its name.
NAME_CLEAR, SWATCH = 0.06, ITEM_BUFF

# -- the bars (scene units) ----------------------------------------------------------------
#: From one bar's centre to the next at most; the bar takes BAR_SHARE of it, the gap GAP_SHARE.
PITCH_MAX, BAR_SHARE, GAP_SHARE = 1.1, 0.66, 0.34
#: The tallest bar (the largest |value| of all charts) when the room allows.
BAR_H_MAX = 1.7
#: The shortest bars tried before the panel is compacted further, pass by pass.
BAR_H_MIN = (0.6, 0.4, MED_SMALL_BUFF)
#: The room for the arrow between the charts: a LABEL_BUFF less with three panels, two compacted.
ARROW_H = 0.75
#: Heights within this of the room still fit (the bisection's measurements are floats).
FIT_TOL = 1e-6

# --- layout: pure functions that build and place, returning typed records -----------------
@dataclass(frozen=True)
class Columns:
    """Where the panels go across the frame: one per context, side by side."""

    width: float  # of every panel
    xs: tuple[float, ...]  # each panel's centre, left to right


def columns(m: int) -> Columns:
    """``m`` panels as wide as PANELS_SPAN allows, at most PANEL_W_MAX, centred on x = 0."""
    gap = PANEL_GAP if m < 3 else PANEL_GAP_THREE
    w = min(PANEL_W_MAX, (PANELS_SPAN - (m - 1) * gap) / m)
    return Columns(w, tuple((k - (m - 1) / 2) * (w + gap) for k in range(m)))


@dataclass(frozen=True)
class BarScale:
    """What every chart shares, so that all of them compare at a glance."""

    max_abs: float  # the largest |value| of any input or output: the tallest bar
    dec_in: int  # decimals of the inputs (as few as show them exactly)
    pitch: float  # from one bar's centre to the next
    bar_w: float
    bar_gap: float


def bar_scale(ctxs: Sequence[ContextTrace], d: int, dec: int, width: float) -> BarScale:
    """Columns as wide as the panel allows, keeping room for the numbers of the outer bars,
    which are wider than their bars when there are many dimensions."""
    vecs = [c.embeddings[c.focus_index] for c in ctxs] + [c.output[c.focus_index] for c in ctxs]
    max_abs = max(float(np.max(np.abs(v))) for v in vecs)
    dec_in = decimals_needed(np.array([c.embeddings[c.focus_index] for c in ctxs]), dec)
    # Digits are monospaced: the longest text is the widest.
    shown = [fmt(v, dec_in) for c in ctxs for v in c.embeddings[c.focus_index]]
    shown += [fmt(v, dec) for c in ctxs for v in c.output[c.focus_index]]
    num_w = label(max(shown, key=len), "small", mono=True).width
    room = width - 2 * LINE_GAP
    pitch = min(PITCH_MAX, room / d, (room - num_w) / (d - 1) if d > 1 else PITCH_MAX)
    return BarScale(max_abs, dec_in, pitch, pitch * BAR_SHARE, pitch * GAP_SHARE)


def dimension_legend(dims: Sequence[str], theme: Theme) -> VGroup:
    """A colour square and a name per dimension, on one line under the panels (two if one is too wide)."""
    legend = VGroup()
    for nm in dims:
        swatch = Square(SWATCH, stroke_width=0, fill_color=theme.dim(nm), fill_opacity=1)
        name = label(nm, "small", theme.dim(nm)).next_to(swatch, RIGHT, buff=SMALL_BUFF)
        legend.add(VGroup(swatch, centre_on_baseline(name, (name.get_x(), 0.0, 0.0))))  # capitals beside the square
    legend.arrange(RIGHT, buff=GROUP_BUFF, coor_mask=np.array([1, 0, 0]))  # the names on one baseline
    if legend.width > 2 * (FRAME_X - TINY_BUFF):
        legend.arrange_in_grid(cols=(len(dims) + 1) // 2, buff=(GROUP_BUFF, LINE_GAP))
    return legend.move_to((0, PANEL_AREA.bottom + legend.height / 2 + SLACK, 0))


@dataclass(frozen=True)
class Names:
    """How the dimensions are named: under every output chart, or by one shared legend."""

    texts: tuple[tuple[Text, ...], ...]  # (m, d) per context, one name per dimension, not yet placed
    legend: VGroup  # empty when the names go under the charts
    height: float  # the room the names take under an output chart (0 with a legend)
    bottom: float  # the panels' bottom edge (over the legend, if any)


def dimension_names(dims: Sequence[str], theme: Theme, m: int, pitch: float) -> Names:
    """Names under the charts, or, when they would not keep one line (long names, many dimensions
    in narrow panels: issue 24, a second line read as a staircase), one shared colour legend under
    the panels (the bars as far apart as before: wider, they would leave no room for the tags)."""
    texts = tuple(tuple(label(nm, "small", theme.dim(nm)) for nm in dims) for _k in range(m))
    levels = stagger_levels([t.width for t in texts[0]], [k * pitch for k in range(len(dims))])
    if levels > 1:
        legend = dimension_legend(dims, theme)
        return Names(texts, legend, 0, PANEL_AREA.bottom + (legend.height + LABEL_BUFF))
    return Names(texts, VGroup(), levels * (texts[0][0].height + LINE_GAP) + SLACK, PANEL_AREA.bottom)


@dataclass(frozen=True)
class Compact:
    """One way to fit a panel's contents; each next one is more compact."""

    size: str  # of the words of the sentence
    line_buff: float | None  # between the lines of a wrapped sentence (None: wrap_token_row's)
    arrow_h: float  # the room between the two charts, for the arrow
    h_min: float  # the shortest bars tried
    max_lines: int | None  # only the numbers that fit on this many lines (None: all)
    scale: float = 1  # the words' boxes scaled by this (below 1: no smaller than readable)


def compact_passes(m: int) -> tuple[Compact, ...]:
    """The words at label size; then smaller and closer, with a shorter arrow; then only
    the numbers that fit on one line; last, for long words (German, say) one per line in
    narrow panels, the words scaled down to the least readable size so that more share a line."""
    short = ARROW_H - 2 * LABEL_BUFF
    return (
        Compact("label", None, ARROW_H if m < 3 else ARROW_H - LABEL_BUFF, BAR_H_MIN[0], None),
        Compact("small", SMALL_BUFF, short, BAR_H_MIN[1], None),
        Compact("small", SMALL_BUFF, short, BAR_H_MIN[2], 1),
        Compact("small", SMALL_BUFF, short, BAR_H_MIN[2], 1, readable_scale("small")),
    )


def sentence(ctx: ContextTrace, theme: Theme, width: float, mode: Compact) -> TokenRow:
    """The words of ``ctx``, the focus word outlined, wrapped to ``width``."""
    row = TokenRow(ctx.tokens, theme, focus=ctx.focus_index, size=mode.size)
    if mode.line_buff is None:
        return wrap_token_row(row, width)
    # Scaled words wrap to the width they will have once scaled, gaps and all.
    row = wrap_token_row(row, width / mode.scale, line_buff=mode.line_buff / mode.scale)
    return row.scale(mode.scale) if mode.scale < 1 else row


@dataclass(frozen=True)
class Pair:
    """A context's focus word as bars: its input (embedding) and its output."""

    input: VectorBars
    output: VectorBars


def focus_row(c: int, name: str, fi: int) -> Callable[[int], Source]:
    """Where entry ``k`` of row ``fi`` (the focus word's) of ``name`` in context ``c`` comes from."""
    return lambda k: Source(c, name, (fi, k))


def pairs_at(h: float, ctxs: Sequence[ContextTrace], dims: list[str], scale: BarScale, theme: Theme, dec: int,
             max_lines: int | None) -> tuple[Pair, ...]:
    """Every context's two charts, a bar of ``scale.max_abs`` being ``h`` tall, not yet placed."""

    def chart(values: Sequence[float], decimals: int, source: Callable[[int], Source]) -> VectorBars:
        bars = VectorBars(values, dims, decimals, source, theme, max_abs=scale.max_abs, height=h, bar_w=scale.bar_w,
                          gap=scale.bar_gap)
        readable_numbers(bars, max_lines=max_lines)
        return bars

    return tuple(
        Pair(chart(list(ctx.embeddings[ctx.focus_index]), scale.dec_in, focus_row(c, "embeddings", ctx.focus_index)),
             chart(list(ctx.output[ctx.focus_index]), dec, focus_row(c, "output", ctx.focus_index)))
        for c, ctx in enumerate(ctxs)
    )


def reach(chart: VectorBars) -> tuple[float, float]:
    """How far the chart reaches above and below its baseline."""
    y = chart.baseline.get_y()
    return chart.get_top()[1] - y, y - chart.get_bottom()[1]


@dataclass(frozen=True)
class Charts:
    """Every context's charts at one bar height, and the height they make a panel's contents."""

    h: float  # a bar of max_abs is this tall
    pairs: tuple[Pair, ...]
    up_in: float  # how far the input charts reach above their baseline, at most
    down_in: float  # ... and below it
    up_out: float  # the same for the output charts
    down_out: float
    total: float  # sentence, charts, arrow and names, with the room between them


def measure(h: float, make: Callable[[float], tuple[Pair, ...]], sent_h: float, arrow_h: float,
            names_h: float) -> Charts:
    """Build the charts at bar height ``h`` and measure them: numbers and names do not scale
    with the bars."""
    pairs = make(h)
    up_in, down_in = max(reach(p.input)[0] for p in pairs), max(reach(p.input)[1] for p in pairs)
    up_out, down_out = max(reach(p.output)[0] for p in pairs), max(reach(p.output)[1] for p in pairs)
    reaches = up_in + down_in + up_out + down_out
    total = PANEL_PAD + sent_h + MED_SMALL_BUFF + reaches + arrow_h + names_h + ITEM_BUFF
    return Charts(h, pairs, up_in, down_in, up_out, down_out, total)


def tallest(at: Callable[[float], Charts], h_min: float, band: float) -> Charts:
    """The tallest bars that fit in ``band`` (else those ``h_min`` tall): BAR_H_MAX, or bisect down to ``h_min``
    (numbers stacked over crowded bars make a chart grow in steps, not in proportion)."""
    best = at(BAR_H_MAX)
    if best.total <= band + FIT_TOL:
        return best
    lo_h, hi_h = h_min, BAR_H_MAX
    best = at(lo_h)
    if best.total <= band + FIT_TOL:
        for _ in range(6):
            mid = (lo_h + hi_h) / 2
            trial = at(mid)
            if trial.total <= band + FIT_TOL:
                lo_h, best = mid, trial
            else:
                hi_h = mid
    return best


@dataclass(frozen=True)
class Fit:
    """The sentences and charts of every panel, built the least compact way that fits."""

    mode: Compact
    rows: tuple[TokenRow, ...]  # one sentence per context, not yet placed
    sent_h: float  # the tallest sentence
    charts: Charts


def fit_panels(ctxs: Sequence[ContextTrace], dims: list[str], theme: Theme, dec: int, cols: Columns,
               scale: BarScale, names: Names) -> Fit:
    """The tallest bars that fit in the band; if even short bars do not fit (long sentences
    in narrow panels), compact the words and the arrow and try again."""
    band = PANEL_AREA.top - names.bottom
    for mode in compact_passes(len(ctxs)):
        rows = tuple(sentence(ctx, theme, cols.width - 2 * LABEL_BUFF, mode) for ctx in ctxs)
        sent_h = max(r.height for r in rows)
        make = partial(pairs_at, ctxs=ctxs, dims=dims, scale=scale, theme=theme, dec=dec, max_lines=mode.max_lines)
        charts = tallest(partial(measure, make=make, sent_h=sent_h, arrow_h=mode.arrow_h, names_h=names.height),
                         mode.h_min, band)
        if charts.total <= band + FIT_TOL:
            break
    return Fit(mode, rows, sent_h, charts)  # the last, most compact, when none fits


@dataclass(frozen=True)
class Panel:
    """One context's panel, everything in place."""

    box: RoundedRectangle
    sentence: TokenRow
    input: VectorBars
    output: VectorBars
    names: VGroup  # one per dimension under the output bars (empty with a legend)
    input_tag: Text | None  # "input" left of the input bars, when the panel has room
    output_tag: Text | None


@dataclass(frozen=True)
class Board:
    """Every panel, the legend and the heights the sections place their marks at."""

    panels: tuple[Panel, ...]
    legend: VGroup  # empty when the names go under the charts
    pitch: float  # from one bar's centre to the next
    bar_h: float  # a bar of max_abs is this tall
    y_in: float  # the input charts' baseline
    y_out: float  # the output charts' baseline
    arrow_span: tuple[float, float]  # where the arrow from input to output starts and ends


@dataclass(frozen=True)
class Tags:
    """The words "input" and "output" left of the bars, when the panels have room for them."""

    texts: tuple[tuple[Text, Text], ...] | None  # per context, not yet placed; None without room
    width: float  # the wider of the two
    offset: float  # the charts move right by this, so that tags and bars are centred together

    def place(self, tag: Text, chart: VectorBars, h: float) -> Text:
        """``tag`` left of ``chart``, halfway up a bar ``h`` tall."""
        return tag.move_to((chart.get_left()[0] - MED_SMALL_BUFF - self.width / 2, chart.baseline.get_y() + h / 2, 0))


def tags(m: int, width: float, chart_w: float, theme: Theme) -> Tags:
    """The tags of ``m`` panels ``width`` wide, shown if a chart ``chart_w`` wide leaves room."""
    texts = tuple((label(_("input"), "small", theme["muted"]), label(_("output"), "small", theme["muted"]))
                  for _k in range(m))
    tag_w = max(t.width for t in texts[0])
    if width - 2 * ITEM_BUFF >= chart_w + MED_SMALL_BUFF + tag_w:
        return Tags(texts, tag_w, (tag_w + MED_SMALL_BUFF) / 2)
    return Tags(None, tag_w, 0)


def panel(c: int, x: float, cols: Columns, fit: Fit, names: Names, tag: Tags, y_in: float, y_out: float,
          theme: Theme) -> Panel:
    """Panel ``c`` centred at ``x``: the sentence at the top, the input bars, the output bars
    and their names; everything else is placed by :func:`board`."""
    box = RoundedRectangle(
        corner_radius=PANEL_PAD, width=cols.width, height=PANEL_AREA.top - names.bottom, stroke_color=theme["grid"],
        stroke_width=PANEL_STROKE, fill_color=theme["panel"], fill_opacity=PANEL_OPACITY,
    ).move_to((x, (PANEL_AREA.top + names.bottom) / 2, 0))
    row = fit.rows[c].move_to((x, PANEL_AREA.top - PANEL_PAD - fit.sent_h / 2, 0))
    inp, out = fit.charts.pairs[c].input, fit.charts.pairs[c].output
    inp.shift((x + tag.offset - inp.baseline.get_x(), y_in - inp.baseline.get_y(), 0))
    out.shift((x + tag.offset - out.baseline.get_x(), y_out - out.baseline.get_y(), 0))
    under = VGroup()
    if not len(names.legend):
        xs_bars = [float(b.get_x()) for b in out.bars]
        under = stagger_names(names.texts[c], xs_bars, y_out - fit.charts.down_out - SMALL_BUFF, above=False)
        keep_inside(under, box.get_left()[0] + CLEARANCE, box.get_right()[0] - CLEARANCE)
    if tag.texts is None:
        return Panel(box, row, inp, out, under, None, None)
    (tag_in, tag_out), ch = tag.texts[c], fit.charts  # tags halfway up what the bars reach (all-zero: the baseline)
    return Panel(
        box,
        row,
        inp,
        out,
        under,
        tag.place(tag_in, inp, min(ch.h, ch.up_in)),
        tag.place(tag_out, out, min(ch.h, ch.up_out)),
    )


def board(ctxs: Sequence[ContextTrace], dims: list[str], theme: Theme, dec: int) -> Board:
    """Panels, sentences and both bar charts of every context, all on one scale."""
    cols = columns(len(ctxs))
    scale = bar_scale(ctxs, len(dims), dec, cols.width)
    names = dimension_names(dims, theme, len(ctxs), scale.pitch)
    fit = fit_panels(ctxs, dims, theme, dec, cols, scale, names)
    ch = fit.charts
    y_in = PANEL_AREA.top - PANEL_PAD - fit.sent_h - MED_SMALL_BUFF - ch.up_in
    y_out = y_in - ch.down_in - fit.mode.arrow_h - ch.up_out
    tag = tags(len(ctxs), cols.width, ch.pairs[0].input.width, theme)
    panels = tuple(panel(c, x, cols, fit, names, tag, y_in, y_out, theme) for c, x in enumerate(cols.xs))
    return Board(panels, names.legend, scale.pitch, ch.h, y_in, y_out,
                 (y_in - ch.down_in - CLEARANCE, y_out + ch.up_out + TINY_BUFF))


def outline(inside: VGroup, colour: str, pitch: float) -> SurroundingRectangle:
    """An outline inside its column when it can; around a number wider than the column (many
    dimensions in a narrow panel) still clear of the digits; above, always a clear gap (the
    number on top must not sit on its edge; the name below keeps its own gap)."""
    buff = max(CLEARANCE / 2, min(CLEARANCE, (pitch - inside.width) / 2 - SLACK / 2))
    rect = SurroundingRectangle(inside, color=colour, buff=buff, corner_radius=CLEARANCE, stroke_width=4)
    return rect.stretch_to_fit_height(rect.height + max(0.0, NUMBER_CLEAR - buff), about_edge=DOWN)


def shown_numbers(bars: VectorBars, k: int) -> list[Num]:
    """The number of bar ``k``, if :func:`~scenes.components.readable_numbers` kept it."""
    return [x for x in (cast(Num, m) for m in bars.nums) if x.source is not None and x.source.index[-1] == k]


def number_outline(p: Panel, k: int, colour: str) -> SurroundingRectangle:
    """An outline round the number of output bar ``k`` alone (the largest always keeps its number)."""
    return SurroundingRectangle(VGroup(*shown_numbers(p.output, k)), color=colour, buff=CLEARANCE / 2, stroke_width=4)


def winner_outline(
    p: Panel, k: int, colour: str, pitch: float
) -> tuple[SurroundingRectangle, SurroundingRectangle | None, bool]:
    """The outline of output bar ``k`` and its number; with the name under it too when the name fits its
    column and clears the neighbours' names; and whether the first runs through a neighbour's number
    (crowded numbers are kept apart, not clear of a tall outline: :func:`number_outline` marks it then)."""
    mine = shown_numbers(p.output, k)
    bare = outline(VGroup(p.output.bars[k], *mine), colour, pitch)
    crowded = bool(mine) and any(boxes_touch(bare, m, SLACK) for m in p.output.nums if all(m is not n for n in mine))
    if not (len(p.names) > 0 and p.names[k].width <= pitch - SMALL_BUFF):
        return bare, None, crowded
    named = outline(VGroup(p.output.bars[k], *mine, p.names[k]), colour, pitch)
    others_names = [nm for j, nm in enumerate(p.names) if j != k]
    return bare, None if any(boxes_touch(named, nm, NAME_CLEAR) for nm in others_names) else named, crowded


@dataclass(frozen=True)
class Winners:
    """Which dimension each context's output leans to most, marked."""

    names: tuple[str, ...]  # per context
    colours: tuple[str, ...]  # per context
    marks: VGroup  # one outline per context, alike: with the names, round bar and number, or the number alone


def winners(b: Board, ctxs: Sequence[ContextTrace], dims: list[str], theme: Theme) -> Winners:
    """The largest output of every panel, outlined in its dimension's colour."""
    ks = [int(np.argmax(ctx.output[ctx.focus_index])) for ctx in ctxs]
    colours = tuple(theme.dim(dims[k]) for k in ks)
    outlines = [winner_outline(p, k, colour, b.pitch) for p, k, colour in zip(b.panels, ks, colours)]
    named = [n for _, n, _ in outlines]
    if any(crowded for _, _, crowded in outlines):
        marks = VGroup(*(number_outline(p, k, c) for p, k, c in zip(b.panels, ks, colours)))
    else:
        marks = VGroup(*(named if all(n is not None for n in named) else [bare for bare, _, _ in outlines]))
    return Winners(tuple(dims[k] for k in ks), colours, marks)


def arrow_tag(text: str, to: Any, box: RoundedRectangle, theme: Theme) -> Text:
    """``text`` right of the arrow ``to``, inside its panel ``box`` (a long word, in German say, shrinks)."""
    tag = label(text, "small", theme["accent"]).next_to(to, RIGHT, buff=LABEL_BUFF)
    room = box.get_right()[0] - CLEARANCE - tag.get_left()[0]
    return tag.scale_to_fit_width(room, about_edge=LEFT) if tag.width > room else tag


def sign_between(b: Board, c: int, sign: str, y: float, theme: Theme) -> Text:
    """``sign`` ("=" or "≠") between panel ``c`` and the next, at height ``y``."""
    x = (b.panels[c].box.get_right()[0] + b.panels[c + 1].box.get_left()[0]) / 2
    return label(sign, "formula", theme["text"]).move_to((x, y, 0))
