"""The layout of the multi-head scene (:mod:`scenes.steps.multi_head`): the head names and colours,
the split into heads, one attention map per head, the concatenation and W_O: records of what stands
where, built before anything moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Line,
    SurroundingRectangle,
    VGroup,
    VMobject,
)

from attncore import ContextTrace, LessonTrace, decimals_needed
from attncore.claims import section_claims
from attncore.i18n import N_, _, pgettext
from scenes.components import (
    BLOCK_LABELS_H,
    CELL_H_MAX,
    CELL_H_MIN,
    PICTURE_H,
    TITLE_RISE,
    WIDEN,
    Grid,
    MatrixBlock,
    Num,
    NumberGrid,
    Picture,
    ShapeLabel,
    Source,
    TileFill,
    Tiles,
    arrange_equation,
    cell_height,
    centre_on_baseline,
    column_labels,
    column_labels_height,
    column_labels_on_one_line,
    fit_cells,
    fit_numbers,
    label,
    named_block,
    number_cell_width,
    operator,
    operators_width,
    picture,
    role_fill,
    row_labels_width,
    trace_grid,
)
from scenes.layout import GROUP_BUFF, ITEM_BUFF, LABEL_BUFF, MED_LARGE_BUFF, SMALL_BUFF, TINY_BUFF, Box
from scenes.theme import Theme

#: Head names without digits (plain labels may not contain any); LIMITS allows 1-4 heads.
HEAD_NAMES = (N_("first head"), N_("second head"), N_("third head"), N_("fourth head"))
ROLES = (("Q", "query"), ("K", "key"), ("V", "value"))

# -- head colours ----------------------------------------------------------------------------
#: Tiles fade from TILE_FLOOR opacity (a zero) to 1 (the largest |value|): W_O's and the heads'.
TILE_FLOOR = 0.15
#: A numeric cell tinted with its head's colour: faint, so that its number still reads.
HEAD_TINT = 0.28
#: A head's bar runs BAR_DROP under its column block, clear of the cells' outline, BAR_W wide.
BAR_DROP, BAR_W = 0.09, 6

# -- the split (scene units) -----------------------------------------------------------------
#: Between Q, K and V: room for their names; their cells (when tiles) are at most TILE_W_MAX wide.
BLOCK_GAP, TILE_W_MAX = 0.6, 0.6
#: Between things side by side that belong apart: the legend's entries, the heads' maps.
SIDE_GAP = 0.55
#: The split's cells are between SPLIT_CELL_H (least, most) tall; names and shapes take SPLIT_LABELS_H.
SPLIT_CELL_H, SPLIT_LABELS_H = (0.28, 0.45), 1.2
#: The shapes sit a little lower than in other rows: the head bars run between them and the cells.
SHAPE_GAP = 0.32

# -- the heads (scene units) -----------------------------------------------------------------
#: Q, K and V shrink into a strip of pictures at the top: each at most STRIP_W wide (and
#: PICTURE_H tall), its tiles at most STRIP_TILE; STRIP_GAP between them, HEADS_DROP above the maps.
STRIP_W, STRIP_TILE, STRIP_GAP, HEADS_DROP = 1.4, (0.22, 0.15), 0.7, 0.4
#: The heads' names over their maps, and the gaps around them, take TITLES_H.
TITLES_H = 0.7
#: Under a map without numbers, each weight the narration names takes a line READOUT_LINE tall.
READOUT_LINE = 0.34


def head_name(k: int, h: int) -> str:
    return _("one head") if h == 1 else _(HEAD_NAMES[k])


def n_heads(ctx: ContextTrace) -> int:
    return len(ctx.multi_head.heads)


# -- colour by head --------------------------------------------------------------------------
def head_fill(values: np.ndarray, theme: Theme, h: int) -> TileFill:
    """Tile fill of a (n, d) matrix: column block k in head k's colour, stronger for larger |value|."""
    d_h = values.shape[1] // h
    strength = role_fill(values, theme["text"], TILE_FLOOR)
    return lambda i, j: (theme.head(j // d_h), strength(i, j)[1])


def head_tiles(values: np.ndarray, theme: Theme, h: int, cell_w: float, cell_h: float,
               rows: Sequence[str] | None = None) -> Tiles:
    """A (n, d) matrix as tiles whose column blocks take their head's colour."""
    n_rows, n_cols = values.shape
    return Tiles(n_rows, n_cols, head_fill(values, theme, h), theme, cell_w=cell_w, cell_h=cell_h, row_labels=rows,
                 label_size="label")


def tint_heads(grid: NumberGrid, theme: Theme, h: int) -> None:
    """Tint the column blocks of a numeric (n, d) grid with their head's colour."""
    d_h = grid.n_cols // h
    for i in range(grid.n_rows):
        for j in range(grid.n_cols):
            grid.cell(i, j).set_fill(theme.head(j // d_h), opacity=HEAD_TINT)


def head_bars(grid: Grid, theme: Theme, h: int) -> VGroup:
    """A coloured bar under each head's column block."""
    d_h = grid.n_cols // h
    y = grid.body().get_bottom()[1] - BAR_DROP
    bars = VGroup()
    for k in range(h):
        left = grid.cell(0, k * d_h).get_left()[0] + TINY_BUFF
        right = grid.cell(0, (k + 1) * d_h - 1).get_right()[0] - TINY_BUFF
        bars.add(Line((left, y, 0), (right, y, 0), color=theme.head(k), stroke_width=BAR_W))
    return bars


# -- section 1: the split --------------------------------------------------------------------
@dataclass(frozen=True)
class Split:
    """Q, K and V side by side, their columns in head blocks, and a legend of the heads under them."""

    blocks: list[MatrixBlock]  # Q, K, V (n, d): numbers tinted by head, or head-coloured tiles
    bars: VGroup  # under each matrix, one bar per head's column block
    legend: VGroup  # a swatch and name per head, and what each head receives


def head_legend(theme: Theme, h: int, room: float) -> VGroup:
    """One swatch (an item gap either side of its centre) and name per head, then what each receives."""
    items = VGroup()
    for k in range(h):
        swatch = Line(LEFT * ITEM_BUFF, RIGHT * ITEM_BUFF, color=theme.head(k), stroke_width=BAR_W)
        name = label(head_name(k, h), "label", theme.head(k))
        items.add(VGroup(swatch, name).arrange(RIGHT, buff=LABEL_BUFF))
    items.arrange(RIGHT, buff=SIDE_GAP)
    note = label(_("each: d/h columns of Q, K and V"), "label", theme["muted"])
    legend = VGroup(items, note).arrange(RIGHT, buff=SIDE_GAP)
    if legend.width > room:
        legend.arrange(DOWN, buff=LABEL_BUFF)
    return legend


def split_layout(trace: LessonTrace, theme: Theme, box: Box, dec: int) -> Split:
    """Q, K, V as large as the box allows over the legend, the pair centred in the box."""
    ctx = trace.contexts[0]
    n, d, h = ctx.n, ctx.d, n_heads(ctx)
    mats = [getattr(ctx.projected, r) for r, _ in ROLES]
    rows_w = row_labels_width(ctx.tokens)
    room = box.width
    gaps = 2 * BLOCK_GAP
    fit = fit_numbers([(np.vstack(mats), dec)] * 3, [d] * 3, room, rows_w + gaps, give_up=[2, 1, 0],
                      sizes=("small",))
    numbers = fit.numbers
    legend = head_legend(theme, h, room)
    legend_h = legend.height + GROUP_BUFF
    ch = cell_height(box.height - SPLIT_LABELS_H - legend_h, n, *SPLIT_CELL_H)
    blocks: list[MatrixBlock] = []
    for k, ((role, colour_name), m) in enumerate(zip(ROLES, mats)):
        cw = fit[k].width if numbers else min(TILE_W_MAX, (room - rows_w - gaps) / (3 * d))
        grid = trace_grid(trace, f"projected.{role}", dec, theme, numbers=numbers, tiles=head_fill(m, theme, h),
                          cell_w=cw, cell_h=ch, size="small", row_labels=ctx.tokens if k == 0 else None)
        if isinstance(grid, NumberGrid):
            tint_heads(grid, theme, h)
        blocks.append(named_block(grid, role, theme[colour_name], m.shape, Source(0, f"projected.{role}"),
                                  "n×d", theme, outline=False))
    row = arrange_equation(blocks, buff=BLOCK_GAP, shape_gap=SHAPE_GAP)
    row.move_to((0, (box.top + box.bottom + legend_h) / 2, 0))
    bars = VGroup(*(head_bars(b.grid, theme, h) for b in blocks))
    legend.next_to(row, DOWN, buff=GROUP_BUFF)
    return Split(blocks, bars, legend)


# -- section 2: one attention per head -------------------------------------------------------
@dataclass(frozen=True)
class Heads:
    """Q, K, V as a strip of small tiles at the top; under it one heat map per head."""

    strip: VGroup  # the three pictures, side by side
    small: list[Picture]  # Q, K, V: (n, d) head-coloured tiles, named
    maps: list[Grid]  # (n, n) attention of each head
    cols: list[VGroup]  # the words over each map's columns
    titles: VGroup  # each head's name over its map
    frames: VGroup  # an outline in each head's colour around each map
    readouts: VGroup  # under a map without numbers: the focus row's weights the narration names

    def extras(self) -> VGroup:
        """Everything of the maps but the maps."""
        return VGroup(*self.cols, self.titles, self.frames, self.readouts)


def named_columns(trace: LessonTrace, h: int) -> list[list[int]]:
    """For each head, the columns of the focus row whose weights the narration names (the
    words a head learned to find, the word it looks at most), none when it names none."""
    named: list[list[int]] = [[] for _ in range(h)]
    for cl in section_claims(trace, "MultiHead", "One attention per head, in parallel"):
        stage = str(cl.args.get("stage", ""))
        if not stage.startswith("head:"):
            continue
        k = int(stage.split(":")[1])
        cols = cl.args["columns"][0] if "columns" in cl.args else [cl.args["column"]] if "column" in cl.args else []
        named[k] += [int(j) for j in cols if int(j) not in named[k]]
    return named


def readout(trace: LessonTrace, k: int, cols: Sequence[int], theme: Theme, dec: int) -> VGroup:
    """The weights of the focus row of head ``k`` on ``cols``, a line each: word, then number."""
    ctx = trace.contexts[0]
    f, att = ctx.focus_index, ctx.multi_head.heads[k].attention
    lines = VGroup(*(VGroup(label(ctx.tokens[j], "small", theme["key"]),
                            Num(att[f, j], dec, Source(0, f"multi_head.heads.{k}.attention", (f, j)), size="small"))
                     .arrange(RIGHT, buff=LABEL_BUFF) for j in cols))
    return lines.arrange(DOWN, buff=LABEL_BUFF, aligned_edge=RIGHT) if cols else lines


def qkv_strip(ctx: ContextTrace, theme: Theme, box: Box) -> tuple[VGroup, list[Picture]]:
    """Q, K and V as small head-coloured pictures in a row at the top of ``box``."""
    tw, th = fit_cells(ctx.n, ctx.d, STRIP_W, PICTURE_H, max_w=STRIP_TILE[0], max_h=STRIP_TILE[1])
    small = [picture(head_tiles(getattr(ctx.projected, role), theme, n_heads(ctx), tw, th), role, theme[colour])
             for role, colour in ROLES]
    strip = VGroup(*(p.group for p in small))
    strip.arrange(RIGHT, buff=STRIP_GAP).move_to((0, box.top - strip.height / 2 - TINY_BUFF, 0))
    return strip, small


def column_words(tokens: Sequence[str], cw: float, room: float, reads_h: float) -> bool:
    """Whether the words fit over the maps' columns: turned on one line, leaving cells at least
    CELL_H_MIN tall under the titles in ``room``. Long words (German, say) over many narrow columns
    do not: they would climb in lines or stand taller than the room."""
    if not column_labels_on_one_line(tokens, cw):
        return False
    return bool(
        room - TITLES_H - column_labels_height(tokens, cw, style="turned") - reads_h >= len(tokens) * CELL_H_MIN
    )


def key_hint(g: Grid, theme: Theme) -> VGroup:
    """"key →" over the first map's columns, when no words stand over them: the columns are the
    same words as the rows, in the same order."""
    hint = label(_("key →"), "small", theme["key"])
    return VGroup(hint.next_to(g.body(), UP, buff=SMALL_BUFF, aligned_edge=LEFT))


def heads_layout(trace: LessonTrace, theme: Theme, box: Box, dec: int) -> Heads:
    """The strip at the top; the heads' maps side by side, centred in the room under it."""
    ctx = trace.contexts[0]
    n, h = ctx.n, n_heads(ctx)
    strip, small = qkv_strip(ctx, theme, box)
    rows_w = row_labels_width(ctx.tokens)
    room = box.width
    attn = [hd.attention for hd in ctx.multi_head.heads]
    need = number_cell_width(np.vstack(attn), dec, "cell")
    fit = fit_numbers([(np.vstack(attn), dec)] * h, [n] * h, room, rows_w + SIDE_GAP * (h - 1),
                      give_up=list(range(h)), sizes=("cell",), tile_max=TILE_W_MAX)
    numbers = fit.numbers
    # Spare room widens the cells, so that word labels fit above them.
    spare = (room - rows_w - SIDE_GAP * (h - 1)) / (n * h)
    cw = min(need * WIDEN, spare) if numbers else min(c.width for c in fit.cells)
    top = strip.get_bottom()[1] - HEADS_DROP
    # without numbers in the maps, the weights the narration names stand under them
    reads = [readout(trace, k, cols, theme, dec) for k, cols in enumerate(named_columns(trace, h))] \
        if not numbers else [VGroup() for _ in range(h)]
    reads_h = max((len(r) for r in reads), default=0) * READOUT_LINE
    worded = column_words(ctx.tokens, cw, top - box.bottom, reads_h)
    if not (worded or numbers):  # tiles as wide as the room leaves: the words may fit over them after all
        cw = max(cw, min(TILE_W_MAX, spare))
        worded = column_words(ctx.tokens, cw, top - box.bottom, reads_h)
    words_h = column_labels_height(ctx.tokens, cw, style="turned") if worded else label(_("key →"), "small").height
    ch = cell_height(top - box.bottom - TITLES_H - words_h - reads_h, n)
    maps = [trace_grid(trace, f"multi_head.heads.{k}.attention", dec, theme, heat=True, numbers=numbers, cell_w=cw,
                       cell_h=ch, row_labels=ctx.tokens if k == 0 else None, size="cell") for k in range(h)]
    names = [label(head_name(k, h), "label", theme.head(k), weight="BOLD") for k in range(h)]
    # Maps narrower than their titles (few words) are set further apart, so the titles do not touch.
    gap = max(SIDE_GAP, max(t.width for t in [*names, *reads]) + ITEM_BUFF - n * cw)
    for k in range(1, h):
        maps[k].next_to(maps[k - 1].body(), RIGHT, buff=gap).align_to(maps[0].body(), UP)
    cols = [column_labels(g, ctx.tokens, theme, style="turned") if worded else
            key_hint(g, theme) if k == 0 else VGroup() for k, g in enumerate(maps)]
    return place_heads(strip, small, maps, cols, names, reads, ctx.focus_index, theme, box, top)


def place_heads(strip: VGroup, small: list[Picture], maps: list[Grid], cols: list[VGroup], names: list[Any],
                reads: list[VGroup], focus: int, theme: Theme, box: Box, top: float) -> Heads:
    """The titles over the maps, the readouts (of row ``focus``) under them, all centred in the room under the strip."""
    titles = VGroup(*names)
    grid_all = VGroup(*maps, *cols)
    title_y = grid_all.get_top()[1] + TITLE_RISE
    for g, t in zip(maps, names):
        centre_on_baseline(t, (g.body().get_center()[0], title_y, 0))
    for g, r in zip(maps, reads):
        if len(r):
            r.next_to(g.body(), DOWN, buff=LABEL_BUFF)
            # the row the numbers are read from: the focus word's, outlined as the readout's words are coloured
            r.add(SurroundingRectangle(g.row(focus), color=theme["key"], buff=0, stroke_width=2))
    readouts = VGroup(*reads)
    everything = VGroup(grid_all, titles, readouts)
    everything.shift(RIGHT * -(everything.get_left()[0] + everything.get_right()[0]) / 2)
    box.fit_width(everything)  # the words over the last columns may reach past them: keep them in the box
    everything.shift(UP * ((top + box.bottom) / 2 - everything.get_center()[1]))
    frames = VGroup(*(SurroundingRectangle(g.body(), color=theme.head(k), buff=TINY_BUFF) for k, g in enumerate(maps)))
    return Heads(strip, small, maps, cols, titles, frames, readouts)


# -- section 3: concatenate and project ------------------------------------------------------
@dataclass(frozen=True)
class Joined:
    """The heads' outputs where their maps were; the product concat · W_O = output in their place."""

    outs: list[MatrixBlock]  # each head's (n, d/h) output, cells tinted in its colour
    concat: MatrixBlock  # (n, d) the outputs side by side, as head-coloured tiles
    w_o: MatrixBlock  # (d, d) W_O
    output: MatrixBlock  # (n, d) concat · W_O
    dot: VMobject
    eq: VMobject


def head_outputs(trace: LessonTrace, theme: Theme, room: float, dec: int, cell_h: float) -> list[MatrixBlock]:
    """Each head's output, tinted in its colour, named, with its shape n×d/h."""
    ctx = trace.contexts[0]
    mh, h = ctx.multi_head, n_heads(ctx)
    rows_w = row_labels_width(ctx.tokens)
    need_h = number_cell_width(np.vstack([hd.output for hd in mh.heads]), dec, "small")
    cw_h = min(need_h, (room - rows_w - MED_LARGE_BUFF * (h - 1)) / ctx.d)
    outs: list[MatrixBlock] = []
    for k, hd in enumerate(mh.heads):
        g = trace_grid(trace, f"multi_head.heads.{k}.output", dec, theme, cell_w=cw_h, cell_h=cell_h, size="small")
        for rect in g.cells:
            rect.set_fill(theme.head(k), opacity=HEAD_TINT)
        outs.append(MatrixBlock(g, label(head_name(k, h), "label", theme.head(k), weight="BOLD"),
                                ShapeLabel(hd.output.shape, Source(0, f"multi_head.heads.{k}.output")),
                                label("n×d/h", "small", theme["muted"])))
    return outs


def joined_layout(trace: LessonTrace, theme: Theme, box: Box, dec: int) -> Joined:
    """concat · W_O = output across the box, a little above its centre; the heads' outputs on the same line."""
    ctx = trace.contexts[0]
    mh, n, d, h = ctx.multi_head, ctx.n, ctx.d, n_heads(ctx)
    dec_o = decimals_needed(mh.W_O, dec)
    room = box.width
    fixed = row_labels_width(ctx.tokens) + operators_width(theme)
    ch = cell_height(box.height - BLOCK_LABELS_H, max(n, d))
    # concat as head-coloured tiles (its numbers were just shown per head), no wider than the tallest cell.
    cw_c = min(CELL_H_MAX, room / (4 * d))
    fit = fit_numbers([(mh.W_O, dec_o), (mh.output, dec)], [d, d], room, fixed + d * cw_c, give_up=[0, 1],
                      sizes=("small",))
    concat = MatrixBlock(
        head_tiles(mh.concat, theme, h, cw_c, ch, ctx.tokens),
        label("concat", "label", theme["text"], weight="BOLD"),
        ShapeLabel(mh.concat.shape, Source(0, "multi_head.concat")),
        label("n×d", "small", theme["muted"]),
    )
    w_grid = trace_grid(trace, "multi_head.W_O", dec_o, theme, numbers=fit[0].numbers,
                        tiles=role_fill(mh.W_O, theme["weight"], floor=TILE_FLOOR), cell_w=fit[0].width, cell_h=ch,
                        size="small")
    w_o = named_block(w_grid, "W_O", theme["weight"], mh.W_O.shape, Source(0, "multi_head.W_O"), "d×d", theme)
    out_grid = trace_grid(trace, "multi_head.output", dec, theme, numbers=fit[1].numbers,
                          tiles=head_fill(mh.output, theme, h), cell_w=fit[1].width, cell_h=ch, size="small")
    output = named_block(
        out_grid,
        pgettext("matrix name", "output"),
        theme["output"],
        mh.output.shape,
        Source(0, "multi_head.output"),
        "n×d",
        theme,
    )
    dot, eq = operator("·", theme), operator("=", theme)
    row = arrange_equation([concat, dot, w_o, eq, output])
    factor = min(1, room / row.width)
    if factor < 1:
        row.scale(factor)
    # A little above the centre: the two shape lines under the row take more room than the names over it.
    row.move_to((0, box.centre_y + ITEM_BUFF, 0))
    outs = head_outputs(trace, theme, room, dec, ch)
    arrange_equation(outs, buff=MED_LARGE_BUFF).move_to(row).set_x(0)
    return Joined(outs, concat, w_o, output, dot, eq)
