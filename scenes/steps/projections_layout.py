"""The layout of the learned-projections scene (:mod:`scenes.steps.projections`): the product row
X · W = R and its shelf, the diagram of what is learned and what is fixed, the two maps: records of
what stands where, built before anything moves.
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
    Arrow,
    DashedLine,
    RoundedRectangle,
    SurroundingRectangle,
    Text,
    VGroup,
    VMobject,
)

from attncore import ContextTrace, LessonTrace, decimals_needed, round_matrix
from attncore.i18n import _, pgettext
from scenes.components import (
    BLOCK_LABELS_H,
    CELL_H_MIN,
    PICTURE_H,
    TITLE_RISE,
    WIDEN,
    Grid,
    MatrixBlock,
    Picture,
    Provenance,
    RowFit,
    ShapeLabel,
    Source,
    Tiles,
    arrange_equation,
    arrow,
    cap_centre,
    cell_height,
    centre_on_baseline,
    column_labels,
    column_labels_height,
    column_labels_on_one_line,
    fit_cells,
    fit_numbers,
    fit_row,
    heat_fill,
    label,
    named_block,
    number_cell_width,
    operator,
    operators_width,
    picture,
    readable_scale,
    role_fill,
    row_labels_width,
    trace_grid,
)
from scenes.layout import GROUP_BUFF, ITEM_BUFF, LABEL_BUFF, MED_LARGE_BUFF, SMALL_BUFF, TINY_BUFF, Box
from scenes.theme import STROKE, Theme

ROLES = ("Q", "K", "V")
ROLE_NAME = {"Q": "query", "K": "key", "V": "value"}

# -- the product row and the shelf (scene units) ---------------------------------------------
#: A finished product waits on the shelf as a picture: tiles at most SHELF_TILE (wide, tall),
#: all its columns at most SHELF_PICTURE_W wide, its name SHELF_NAME_W beside it, thin outlines.
SHELF_TILE, SHELF_PICTURE_W, SHELF_NAME_W, SHELF_STROKE = (0.2, 0.17), 1, 0.45, STROKE.hair
#: The least a provenance too tall for the row's readable numbers is shrunk to.
PROVENANCE_LEAST = 0.88
#: The strip under the row (provenance and shelf) is at least STRIP_MIN_H tall.
STRIP_MIN_H = 0.6
#: W_Q swells by this factor when it is pointed at.
INDICATE_SCALE = 1.03

# -- the diagram of what is learned and what is fixed (scene units) ---------------------------
#: Its pictures: all columns at most DIAGRAM_W wide, all rows DIAGRAM_H tall; tiles at most
#: DIAGRAM_TILE (wide, tall), A's at most A_TILE_W wide.
DIAGRAM_W, DIAGRAM_H, DIAGRAM_TILE, A_TILE_W = 1.3, 1.2, (0.28, 0.22), 0.24
#: Its plan: the learned projections in the column at LEARNED_X, left of the dashed divider
#: at DIVIDER_X; the fixed mechanism right of it, its heading at FIXED_X, in the columns
#: COMPARE_X, A_X and OUT_X; everything on two lines, TOP_Y and BOTTOM_Y.
LEARNED_X, DIVIDER_X, FIXED_X = -4.85, -2.75, 1.5
COMPARE_X, A_X, OUT_X = -0.75, 2.35, 5.35
TOP_Y, BOTTOM_Y = 0.75, -1.75
#: The divider stops DIVIDER_FOOT above the content box's bottom (clear of the caption).
DIVIDER_FOOT = 0.4
#: The frame around Q and K is rounded by FRAME_CORNER; the lines in a mechanism's box are LINE_GAP apart.
FRAME_CORNER, LINE_GAP = 0.08, 0.12

# -- the two maps (scene units) --------------------------------------------------------------
#: Between the learned map and the simplified one.
MAPS_GAP = 0.9
#: The learned map's cells: CELL_PAD wider than their numbers, at most MAP_CELL_H tall;
#: the simplified map's tiles at most SMALL_TILE_W wide. Their titles take MAP_TITLES_H.
CELL_PAD, MAP_CELL_H, SMALL_TILE_W, MAP_TITLES_H = 0.06, 0.55, 0.4, 0.8

def role_colour(theme: Theme, role: str) -> str:
    return theme[ROLE_NAME[role]]


# -- section 1: the product row --------------------------------------------------------------
@dataclass(frozen=True)
class Sizes:
    """Cell sizes of the product row X · W = R, and of the shelf's pictures under it."""

    dec_x: int  # decimals of X
    dec_w: int  # decimals of the three W
    fit: RowFit  # X, W, R: cell width and numbers or tiles
    cell_h: float  # one height for the row
    tile_w: float  # a shelf picture's tiles
    tile_h: float
    item_w: float  # one shelf item: its name and its tiles
    shelf_w: float  # the three items with their gaps


def product_sizes(ctx: ContextTrace, theme: Theme, box: Box, dec: int) -> Sizes:
    """The row's cells as large as ``box`` allows over the strip of provenance and shelf."""
    p = ctx.projected
    n, d = ctx.n, ctx.d
    dec_x = decimals_needed(ctx.embeddings, dec)
    dec_w = decimals_needed(np.vstack([p.W_Q, p.W_K, p.W_V]), dec)
    results = np.vstack([p.Q, p.K, p.V])
    tile_w, tile_h = fit_cells(n, d, SHELF_PICTURE_W, PICTURE_H, max_w=SHELF_TILE[0], max_h=SHELF_TILE[1])
    item_w = SHELF_NAME_W + d * tile_w
    shelf_w = 3 * item_w + 2 * GROUP_BUFF
    fixed = row_labels_width(ctx.tokens) + operators_width(theme)
    mats = [(ctx.embeddings, dec_x), (np.vstack([p.W_Q, p.W_K, p.W_V]), dec_w), (results, dec)]
    fit = fit_numbers(mats, [d, d, d], box.width, fixed, give_up=[0, 1])
    # Names, shapes and the gap to the strip; then the strip.
    overhead = BLOCK_LABELS_H + max(STRIP_MIN_H, n * tile_h)
    cell_h = cell_height(box.height - overhead, max(n, d))
    return Sizes(dec_x, dec_w, fit, cell_h, tile_w, tile_h, item_w, shelf_w)


@dataclass(frozen=True)
class Products:
    """X · W_Q = Q across the top, the provenance under it on the left; W_K, K and W_V, V
    where W_Q and Q stand, waiting to replace them."""

    x: MatrixBlock  # (n, d) X, the words as row labels
    dot: VMobject
    eq: VMobject
    ws: dict[str, MatrixBlock]  # W_Q, W_K, W_V (d, d)
    rs: dict[str, MatrixBlock]  # Q, K, V (n, d)
    provenance: Provenance  # how the weights were obtained
    shelf_y: float  # the centre line of the strip (provenance and shelf)


def product_blocks(trace: LessonTrace, theme: Theme, s: Sizes, dec: int) -> tuple[
        MatrixBlock, dict[str, MatrixBlock], dict[str, MatrixBlock]]:
    """X, the three W and the three products, each numbers or tiles in its role colour."""
    ctx = trace.contexts[0]

    def grid(path: str, dec: int, k: int, colour: str, rows: Sequence[str] | None = None) -> Grid:
        cw, numbers = s.fit[k]
        return trace_grid(trace, path, dec, theme, cell_w=cw, cell_h=s.cell_h, numbers=numbers, tiles=colour,
                          size=s.fit.size, row_labels=rows)

    x = MatrixBlock(grid("embeddings", s.dec_x, 0, theme["text"], ctx.tokens),
                    label("X", "label", theme["text"], weight="BOLD"),
                    ShapeLabel(ctx.embeddings.shape, Source(0, "embeddings")), label("n×d", "small", theme["muted"]))
    ws: dict[str, MatrixBlock] = {}
    rs: dict[str, MatrixBlock] = {}
    for role in ROLES:
        colour = role_colour(theme, role)
        w, r = f"projected.W_{role}", f"projected.{role}"
        ws[role] = named_block(grid(w, s.dec_w, 1, colour), f"W_{role}", colour,
                               getattr(ctx.projected, "W_" + role).shape, Source(0, w), "d×d", theme)
        rs[role] = named_block(grid(r, dec, 2, colour), role, colour,
                               getattr(ctx.projected, role).shape, Source(0, r), "n×d", theme)
    return x, ws, rs


def products_layout(trace: LessonTrace, theme: Theme, box: Box, s: Sizes, dec: int) -> Products:
    """The row on top and the strip under it, centred together in ``box`` (shrunk only when too big)."""
    x, ws, rs = product_blocks(trace, theme, s, dec)
    dot, eq = operator("·", theme), operator("=", theme)
    row = arrange_equation([x, dot, ws["Q"], eq, rs["Q"]])
    # Provenance sits under the row, in the room left of the shelf.
    provenance = Provenance(trace.weights.provenance, theme, max_width=box.width - s.shelf_w - MED_LARGE_BUFF)
    strip_h = max(provenance.height, trace.contexts[0].n * s.tile_h)
    # a row that must shrink keeps less room above the strip, so that its numbers shrink less
    # (French's six-line provenance drew them under the readable height) ...
    gap = GROUP_BUFF if box.height - GROUP_BUFF - strip_h >= row.height else ITEM_BUFF
    # ... and a provenance too tall for readable numbers (Spanish: seven lines) gives up a little
    # of its size first: numbers before prose
    readable = readable_scale(s.fit.size)
    if (box.height - gap - strip_h) / row.height < readable and provenance.height >= strip_h:
        provenance.scale(max(PROVENANCE_LEAST, (box.height - gap - readable * row.height) / provenance.height))
        strip_h = max(provenance.height, trace.contexts[0].n * s.tile_h)
    factor = min(1, (box.height - gap - strip_h) / row.height, box.width / row.width)
    if factor < 1:
        row.scale(factor)
    top = box.centre_y + (row.height + gap + strip_h) / 2
    row.move_to((0, top - row.height / 2, 0))
    strip_top = row.get_bottom()[1] - gap
    shelf_y = strip_top - strip_h / 2
    provenance.move_to((0, shelf_y, 0)).align_to((box.left, 0, 0), LEFT)
    for role in ("K", "V"):  # the later products take the same places
        for new, old in ((ws[role], ws["Q"]), (rs[role], rs["Q"])):
            assert old.shape is not None
            new.scale(factor)
            new.shift(old.body().get_center() - new.body().get_center())
            new.place_labels(cap_centre(old.title), old.shape.get_center()[1])
    return Products(x, dot, eq, ws, rs, provenance, shelf_y)


def shelf_item(values: np.ndarray, role: str, slot: int, s: Sizes, theme: Theme, box: Box, shelf_y: float) -> Picture:
    """Product ``role`` as a picture on the shelf, in place ``slot`` (0, 1, 2) of the three at the right."""
    colour = role_colour(theme, role)
    n_rows, n_cols = values.shape
    tiles = Tiles(n_rows, n_cols, role_fill(values, colour), theme, cell_w=s.tile_w, cell_h=s.tile_h,
                  stroke_width=SHELF_STROKE)
    right = box.right - (len(ROLES) - 1 - slot) * (s.item_w + GROUP_BUFF)
    tiles.move_to((right - tiles.width / 2, shelf_y, 0))
    return picture(tiles, role, colour)


# -- section 2: what is learned, what is fixed -----------------------------------------------
@dataclass(frozen=True)
class Learned:
    """Q and K framed together over V, in the column of the learned projections."""

    tiles: dict[str, Tiles]  # Q, K, V (n, d) as tiles in their role colour
    names: dict[str, Text]  # over each
    frame: SurroundingRectangle  # around Q and K
    compare_note: Text  # under the frame: what Q and K decide
    pass_note: Text  # under V: what V decides


@dataclass(frozen=True)
class Diagram:
    """The learned projections left of a divider; the fixed mechanism right of it, arrows between."""

    learned: Learned
    headings: tuple[Text, Text]  # "learned", "fixed"
    divider: DashedLine
    compare: VGroup  # a box: dot products, scaling, softmax
    a_tiles: Tiles  # (n, n) projected.attention, as heat tiles
    a_name: Text
    mixing: VGroup  # a box: mixing, A·V
    out_tiles: Tiles  # (n, d) projected.output
    out_name: Text
    arrows: list[Arrow]  # learned → compare → A → mixing ← V; mixing → output

    def everything(self) -> VGroup:
        lr = self.learned
        return VGroup(
            lr.frame, lr.compare_note, lr.pass_note, *self.headings, self.divider, self.compare, self.a_name,
            self.mixing, self.out_tiles, self.out_name, *self.arrows, *lr.tiles.values(), *lr.names.values(),
        )


def name_over(tiles: Tiles, name: str, colour: str) -> Text:
    """``name`` in bold, its cap centre TITLE_RISE above ``tiles``."""
    lab = label(name, "label", colour, weight="BOLD")
    centre_on_baseline(lab, tiles.get_top() + UP * TITLE_RISE)
    return lab


def mechanism_box(lines: Sequence[str], centre: Any, theme: Theme) -> VGroup:
    """The steps of the mechanism, one a line, in a rounded panel."""
    text = VGroup(*(label(t, "small", theme["muted"]) for t in lines)).arrange(DOWN, buff=LINE_GAP)
    frame = RoundedRectangle(
        corner_radius=SMALL_BUFF,
        width=text.width + MED_LARGE_BUFF,
        height=text.height + GROUP_BUFF,
        stroke_color=theme["muted"],
        stroke_width=2,
        fill_color=theme["panel"],
        fill_opacity=1,
    )
    return VGroup(frame, text.move_to(frame)).move_to(centre)


def column_note(text: str, theme: Theme, room: float) -> Text:
    """A note under a picture of the learned column, no wider than ``room`` (a long translation shrinks)."""
    note = label(text, "small", theme["text"])
    return note.scale_to_fit_width(room) if note.width > room else note


def learned_layout(ctx: ContextTrace, theme: Theme, tw: float, th: float, room: float) -> Learned:
    """Q and K side by side on the top line, V under them, in the learned column (``room`` wide
    around its centre)."""
    n, d = ctx.n, ctx.d
    tiles = {r: Tiles(n, d, role_fill(getattr(ctx.projected, r), role_colour(theme, r)), theme, cell_w=tw, cell_h=th)
             for r in ROLES}
    tiles["Q"].move_to((LEARNED_X - ITEM_BUFF - d * tw / 2 - TINY_BUFF, TOP_Y, 0))
    tiles["K"].move_to((LEARNED_X + ITEM_BUFF + d * tw / 2 + TINY_BUFF, TOP_Y, 0))
    tiles["V"].move_to((LEARNED_X, BOTTOM_Y, 0))
    names = {r: name_over(tiles[r], r, role_colour(theme, r)) for r in ROLES}
    qk = VGroup(tiles["Q"], tiles["K"], names["Q"], names["K"])
    frame = SurroundingRectangle(qk, color=theme["grid"], buff=LABEL_BUFF, corner_radius=FRAME_CORNER)
    compare_note = column_note(_("decide what is compared"), theme, room).next_to(frame, DOWN, buff=LABEL_BUFF)
    pass_note = column_note(_("decides what is passed on"), theme, room).next_to(tiles["V"], DOWN, buff=ITEM_BUFF)
    return Learned(tiles, names, frame, compare_note, pass_note)


def diagram_layout(ctx: ContextTrace, theme: Theme, box: Box, dec: int) -> Diagram:
    """The diagram on its plan (see the constants above)."""
    n, d = ctx.n, ctx.d
    tw, th = fit_cells(n, d, DIAGRAM_W, DIAGRAM_H, max_w=DIAGRAM_TILE[0], max_h=DIAGRAM_TILE[1])
    # the notes keep clear of the content box's left edge and of the divider
    lr = learned_layout(ctx, theme, tw, th, 2 * min(LEARNED_X - box.left, DIVIDER_X - TINY_BUFF - LEARNED_X))
    learned = label(pgettext("heading: the learned projections", "learned"), "label", theme["accent"], weight="BOLD")
    centre_on_baseline(learned, (LEARNED_X, box.top - ITEM_BUFF, 0))
    fixed = label(pgettext("heading: the fixed mechanism", "fixed"), "label", theme["muted"], weight="BOLD")
    centre_on_baseline(fixed, (FIXED_X, box.top - ITEM_BUFF, 0))
    divider = DashedLine((DIVIDER_X, box.top - TINY_BUFF, 0), (DIVIDER_X, box.bottom + DIVIDER_FOOT, 0),
                         color=theme["grid"])
    compare = mechanism_box([_("dot products"), _("scaling"), "softmax"], (COMPARE_X, TOP_Y, 0), theme)
    shown = round_matrix(ctx.projected.attention, dec)
    a_tiles = Tiles(n, n, heat_fill(shown, theme), theme, cell_w=min(A_TILE_W, DIAGRAM_W / n), cell_h=th)
    a_tiles.move_to((A_X, TOP_Y, 0))
    a_name = name_over(a_tiles, "A", theme["accent"])
    mixing = mechanism_box([_("mixing"), "A·V"], (A_X, BOTTOM_Y, 0), theme)
    out_tiles = Tiles(n, d, role_fill(ctx.projected.output, theme["output"]), theme, cell_w=tw, cell_h=th)
    out_tiles.move_to((OUT_X, BOTTOM_Y, 0))
    out_name = name_over(out_tiles, _("output"), theme["output"])
    arrows = [
        arrow((lr.frame.get_right()[0], TOP_Y, 0), compare.get_left(), theme["muted"]),
        arrow(compare.get_right(), a_tiles.get_left(), theme["muted"]),
        arrow(a_tiles.get_bottom(), mixing.get_top(), theme["muted"]),
        arrow(lr.tiles["V"].get_right(), mixing.get_left(), theme["muted"]),
        arrow(mixing.get_right(), out_tiles.get_left(), theme["muted"]),
    ]
    return Diagram(lr, (learned, fixed), divider, compare, a_tiles, a_name, mixing, out_tiles, out_name, arrows)


# -- section 3: a new attention pattern ------------------------------------------------------
@dataclass(frozen=True)
class Maps:
    """The attention with learned projections (large, numbers) beside the simplified one."""

    big: Grid  # (n, n) projected.attention, the words as row labels
    small: Grid  # (n, n) attention (Q = K = X), the same rows
    big_cols: VGroup  # the words over the columns
    small_cols: VGroup
    title_big: Text
    title_small: Text


def map_cells(ctx: ContextTrace, box: Box, dec: int) -> tuple[tuple[float, bool], tuple[float, bool], float]:
    """(width, numbers) of the big map's and of the small map's cells, and their one height."""
    n = ctx.n
    room = box.width - row_labels_width(ctx.tokens) - MAPS_GAP
    need_big = number_cell_width(ctx.projected.attention, dec, "cell") + CELL_PAD
    need_small = number_cell_width(ctx.attention, dec, "small")
    (big_w, big_nums), (small_w, small_nums) = fit_row([need_big, need_small], [n, n], room, 0, give_up=[1, 0])
    if not small_nums:
        small_w = min(SMALL_TILE_W, room / n - big_w) if big_nums else small_w
    if big_nums:  # spare room widens the big map (up to a quarter), so word labels fit above it
        big_w = max(big_w, min(need_big * WIDEN, room / n - small_w))
    small_h = column_labels_height(ctx.tokens, small_w, style="turned") if small_words(ctx, small_w) else 0.0
    overhead = MAP_TITLES_H + max(column_labels_height(ctx.tokens, big_w, style="turned"), small_h)
    ch = cell_height(box.height - overhead, n, CELL_H_MIN, MAP_CELL_H)
    return (big_w, big_nums), (small_w, small_nums), ch


def small_words(ctx: ContextTrace, small_w: float) -> bool:
    """Whether the small map shows the words over its columns: only on one line (turned if need
    be). Its columns too narrow for even upright words (the tiles of the largest lessons), it
    shows none rather than a staircase: its columns are the big map's, in the same order, as
    its rows are (which are not labelled either)."""
    return column_labels_on_one_line(ctx.tokens, small_w)


def maps_layout(trace: LessonTrace, theme: Theme, box: Box, dec: int) -> Maps:
    """The two maps side by side with their titles, centred in ``box``."""
    ctx = trace.contexts[0]
    (big_w, big_nums), (small_w, small_nums), ch = map_cells(ctx, box, dec)
    big = trace_grid(trace, "projected.attention", dec, theme, heat=True, numbers=big_nums,
                     cell_w=big_w, cell_h=ch, row_labels=ctx.tokens)
    small = trace_grid(trace, "attention", dec, theme, heat=True, numbers=small_nums,
                       cell_w=small_w, cell_h=ch, size="small")
    small.next_to(big.body(), RIGHT, buff=MAPS_GAP).align_to(big.body(), UP)
    big_cols = column_labels(big, ctx.tokens, theme, style="turned")
    small_cols = column_labels(small, ctx.tokens, theme, style="turned") if small_words(ctx, small_w) else VGroup()
    maps = VGroup(big, small, big_cols, small_cols)
    t = trace.training
    title_big = label(_("with learned projections") if t is not None and t.attention_trained else
                      # Translators: over the attention map when W_Q and W_K were not trained (set by hand, or random)
                      _("with the projections W_Q, W_K"), "label", theme["accent"])
    title_small = label(_("simplified, Q = K = X"), "label", theme["muted"])
    cap_y = max(float(c.get_top()[1]) for c in (big_cols, small_cols, small) if c.submobjects) + TITLE_RISE
    # Centre everything in the content box (maps first, then titles above their columns).
    maps_top = cap_y + ITEM_BUFF
    group_h = maps_top - maps.get_bottom()[1]
    dy = (box.top - (box.height - group_h) / 2) - maps_top
    dx = -(maps.get_left()[0] + maps.get_right()[0]) / 2
    maps.shift((dx, dy, 0))
    box.fit_width(maps)  # the words over the last columns may reach past them: keep them in the box
    cap_y += dy
    centre_on_baseline(title_big, (big.body().get_center()[0], cap_y, 0))
    centre_on_baseline(title_small, (small.body().get_center()[0], cap_y, 0))
    if title_small.get_left()[0] < title_big.get_right()[0] + ITEM_BUFF:
        title_small.shift(RIGHT * (title_big.get_right()[0] + ITEM_BUFF - title_small.get_left()[0]))
    if title_small.get_right()[0] > box.right:
        title_small.shift(LEFT * (title_small.get_right()[0] - box.right))
    return Maps(big, small, big_cols, small_cols, title_big, title_small)
