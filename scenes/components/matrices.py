"""Matrices of the lesson: from a trace path, over the words of a sentence, as heat maps,
and fitted into a row (numbers where they fit, colour tiles where they do not).

Use :func:`trace_grid` to draw a matrix of the trace: its values and the source of
every number come from one path, resolved the way the tests resolve it. When a row of
matrices is too wide for its numbers, :func:`fit_numbers` decides which matrices keep
them; :func:`matrix_grid` then draws numbers or tiles.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from manim import DOWN, UP, Rectangle, VGroup

from attncore import LessonTrace, round_matrix
from attncore.i18n import pgettext

from ..layout import SMALL_BUFF
from ..theme import Theme
from .grids import (
    ColumnStyle,
    Grid,
    NumberGrid,
    TileFill,
    Tiles,
    column_labels,
    column_labels_height,
    fit_cells,
    text_size,
)
from .numbers import Num, Source, number_cell_width, resolve
from .shapes import made
from .text import label

__all__ = [
    "role_fill",
    "heat_fill",
    "ink_on_heat",
    "heat_grid",
    "token_matrix",
    "token_header_room",
    "fit_token_cells",
    "strip",
    "HeatLegend",
    "matrix_grid",
    "trace_grid",
    "CellFit",
    "fit_row",
    "RowFit",
    "fit_numbers",
]


# -- fills and ink ---------------------------------------------------------------------------
def role_fill(values: np.ndarray, colour: str, floor: float = 0.12) -> TileFill:
    """Tile fill for a matrix without numbers: the role colour, stronger for larger |value|
    (opacity from ``floor`` for 0 up to 1 for the largest)."""
    m = float(np.max(np.abs(values))) or 1.0
    return lambda i, j: (colour, floor + (1 - floor) * abs(float(values[i, j])) / m)


def heat_fill(shown: np.ndarray, theme: Theme) -> TileFill:
    """Tile fill for attention weights: the lecture's heat ramp."""
    return lambda i, j: (theme.heat(float(shown[i, j])), 1.0)


def ink_on_heat(grid: NumberGrid, weights: np.ndarray, theme: Theme) -> None:
    """Colour every number of a heat-coloured ``grid`` by :meth:`Theme.heat_ink` of its weight."""
    for i in range(grid.n_rows):
        for j in range(grid.n_cols):
            grid.entry(i, j).set_color(theme.heat_ink(weights[i, j]))


def heat_grid(
    weights: np.ndarray, decimals: int, source: Callable[[int, int], Source], theme: Theme, *,
    numbers: bool, cell_w: float, cell_h: float, row_labels: Sequence[str] | None = None,
    size: str = "cell", label_size: str = "label",
) -> Grid:
    """An attention matrix as a heat map: each cell coloured by its weight as shown, numbers
    in a contrasting colour."""
    shown = round_matrix(weights, decimals)
    fill = heat_fill(shown, theme)
    if not numbers:
        n_rows, n_cols = weights.shape
        return Tiles(n_rows, n_cols, fill, theme, cell_w=cell_w, cell_h=cell_h, row_labels=row_labels,
                     label_size=label_size)
    grid = NumberGrid(
        weights, decimals, source, theme, fill=lambda i, j: fill(i, j)[0],
        cell_w=cell_w, cell_h=cell_h, size=size, row_labels=row_labels, label_size=label_size,
    )
    ink_on_heat(grid, shown, theme)
    return grid


# -- over the words of a sentence (dot products to softmax) ------------------------------------
def token_matrix(
    values: np.ndarray, decimals: int, source: Callable[[int, int], Source], theme: Theme, tokens: Sequence[str], *,
    cell_w: float, cell_h: float, heat: bool = False, approx: Callable[[int, int], bool] | None = None,
) -> NumberGrid:
    """An n×n matrix over the words of a sentence: rows = queries, columns = keys.

    Row labels are in the query colour, column labels in the key colour, so the
    convention reads at a glance; column labels too long for their columns are turned
    (callers keep :func:`token_header_room` free above the cells). ``heat=True``: ``values``
    are attention weights, drawn by :func:`heat_grid` (heat-coloured cells). ``approx(i, j)``:
    cell (i, j) is shown marked ``≈`` (numbers only).
    """
    size = text_size(cell_w, cell_h)
    lsize = _label_size(size)
    if heat:
        grid = heat_grid(
            values, decimals, source, theme, numbers=True, cell_w=cell_w, cell_h=cell_h,
            row_labels=list(tokens), size=size, label_size=lsize,
        )
        assert isinstance(grid, NumberGrid)
        grid.row_labels.set_color(theme["query"])
    else:
        grid = NumberGrid(
            values, decimals, source, theme, row_labels=list(tokens), cell_w=cell_w, cell_h=cell_h,
            row_colours=[theme["query"]] * len(tokens), size=size, label_size=lsize, approx=approx,
        )
    grid.set_column_labels(column_labels(grid, tokens, theme, [theme["key"]] * len(tokens), size=lsize,
                                         style="turned"))
    return grid


def _label_size(size: str) -> str:
    """The size of a matrix's word labels beside numbers of ``size``."""
    return "body" if size == "body" else "label"


def token_header_room(tokens: Sequence[str], cell_w: float, cell_h: float, least: float) -> float:
    """The height to keep above the cells of a :func:`token_matrix` for its column words: ``least``,
    or more where long words over narrow columns are turned (issue 24: they climbed in a staircase
    of lines over the matrices of the largest lessons)."""
    size = _label_size(text_size(cell_w, cell_h))
    return max(least, column_labels_height(tokens, cell_w, size, "turned") + SMALL_BUFF)


def fit_token_cells(tokens: Sequence[str], width: float, height: float, least: float, *, more_cols: int = 0,
                    **most: float) -> tuple[float, float]:
    """:func:`fit_cells` of a :func:`token_matrix` over ``tokens`` (and ``more_cols`` columns
    beside it) in ``width`` × ``height``, its column words included: ``least`` above the cells,
    or what turned words need."""
    n = len(tokens)
    cw, ch = fit_cells(n, n + more_cols, width, height - least, **most)
    return fit_cells(n, n + more_cols, width, height - token_header_room(tokens, cw, ch, least), **most)


def strip(
    values: np.ndarray, decimals: int, source: Callable[[int, int], Source], theme: Theme, *, cell_w: float,
    cell_h: float, col_labels: Sequence[str] | None = None, heat: bool = False,
    approx: Callable[[int, int], bool] | None = None, col_style: ColumnStyle = "staggered",
) -> NumberGrid:
    """One row of numbers (1×n) in cells. ``heat=True``: ``values`` is one row of attention
    weights, drawn like a row of the heat map (:func:`heat_grid`). ``approx(0, j)``: cell j
    is shown marked ``≈`` (not with ``heat``). ``col_style``: how crowded column labels go
    (:func:`~scenes.components.grids.column_labels`; ``"turned"`` needs room above)."""
    size = text_size(cell_w, cell_h)
    lsize = "body" if size == "body" else "label"
    vals = np.asarray(values, dtype=float)[None, :]
    if heat:
        g = heat_grid(vals, decimals, source, theme, numbers=True, cell_w=cell_w, cell_h=cell_h, size=size)
        assert isinstance(g, NumberGrid)
    else:
        g = NumberGrid(vals, decimals, source, theme, cell_w=cell_w, cell_h=cell_h, size=size, approx=approx)
    if col_labels:
        g.set_column_labels(column_labels(g, col_labels, theme, [theme["key"]] * len(col_labels), size=lsize,
                                          style=col_style))
    return g


class HeatLegend(VGroup):
    """A vertical colour ramp from 0 to 1 with its two end values."""

    def __init__(self, theme: Theme, height: float = 2.4, caption: str | None = None) -> None:
        super().__init__()
        steps = 24
        bar = VGroup(
            *(
                made(Rectangle, width=0.25, height=height / steps, stroke_width=0,
                     fill_color=theme.heat(k / (steps - 1)), fill_opacity=1)
                for k in range(steps)
            )
        ).arrange(UP, buff=0)
        lo = Num(0, 0, constant=True, size="small", color=theme["muted"]).next_to(bar, DOWN, buff=SMALL_BUFF)
        hi = Num(1, 0, constant=True, size="small", color=theme["muted"]).next_to(bar, UP, buff=SMALL_BUFF)
        # Translators: the title of the colour scale of attention weights (0 to 1).
        cap = label(pgettext("legend", "weight") if caption is None else caption, "small", theme["muted"]).next_to(
            hi, UP, buff=SMALL_BUFF
        )
        self.add(bar, lo, hi, cap)


# -- numbers or tiles, from a trace path ------------------------------------------------------
def matrix_grid(
    values: np.ndarray, decimals: int, source: Callable[[int, int], Source], theme: Theme, *, numbers: bool,
    tiles: TileFill | None, cell_w: float, cell_h: float, size: str = "cell", row_labels: Sequence[str] | None = None,
    label_size: str = "label",
) -> Grid:
    """The one choice between numbers and colour tiles: a :class:`NumberGrid` of ``values``
    when ``numbers``, else :class:`Tiles` filled by ``tiles`` (same cells, same labels)."""
    if numbers:
        return NumberGrid(values, decimals, source, theme, cell_w=cell_w, cell_h=cell_h, size=size,
                          row_labels=row_labels, label_size=label_size)
    if tiles is None:
        raise ValueError("tiles need a fill (role_fill, heat_fill or a fill of their own)")
    n_rows, n_cols = values.shape
    return Tiles(n_rows, n_cols, tiles, theme, cell_w=cell_w, cell_h=cell_h, row_labels=row_labels,
                 label_size=label_size)


def trace_grid(
    trace: LessonTrace, path: str, decimals: int, theme: Theme, *, cell_w: float, cell_h: float,
    context: int = 0, numbers: bool = True, tiles: str | TileFill | None = None, heat: bool = False,
    row: int | None = None, size: str = "cell", row_labels: Sequence[str] | None = None, label_size: str = "label",
) -> Grid:
    """The matrix at ``path`` of the trace (e.g. ``"projected.W_Q"``,
    ``"multi_head.heads.1.attention"``), its numbers tagged ``Source(context, path, (i, j))``.

    Values and sources come from the same path, resolved by :func:`resolve`, the function
    the tests check the screen with. ``heat``: attention weights, drawn by
    :func:`heat_grid`. ``row``: only that row, as a 1×n grid.
    Without ``numbers``, tiles: filled by ``tiles``, a fill or a role colour
    (:func:`role_fill` of the values).

    Examples
    --------
    .. manim:: TraceGridExample
        :quality: low
        :save_last_frame:

        from attncore import default_lesson, trace_lesson
        from scenes.components import Theme, trace_grid

        class TraceGridExample(Scene):
            def construct(self):
                theme = Theme(style="dark")
                self.camera.background_color = theme["background"]
                trace = trace_lesson(default_lesson())
                words = trace.contexts[0].tokens
                grid = trace_grid(trace, "attention", 2, theme, cell_w=1.1, cell_h=0.6, heat=True, row_labels=words)
                self.add(grid.move_to(ORIGIN))
    """
    whole, _ = resolve(trace, Source(context, path))
    first = 0 if row is None else row
    values = whole if row is None else whole[row : row + 1]

    def source(i: int, j: int) -> Source:
        return Source(context, path, (first + i, j))

    if heat:
        return heat_grid(values, decimals, source, theme, numbers=numbers, cell_w=cell_w, cell_h=cell_h,
                         row_labels=row_labels, size=size, label_size=label_size)
    fill = role_fill(values, tiles) if isinstance(tiles, str) else tiles
    return matrix_grid(values, decimals, source, theme, numbers=numbers, tiles=fill,
                       cell_w=cell_w, cell_h=cell_h, size=size, row_labels=row_labels, label_size=label_size)


# -- fitting a row of matrices ----------------------------------------------------------------
class CellFit(NamedTuple):
    """The cell width of one matrix of a row, and whether it shows its numbers."""

    width: float
    numbers: bool


def fit_row(
    need: Sequence[float], cols: Sequence[int], room: float, fixed: float, give_up: Sequence[int],
    tile_max: float = 0.45, tile_min: float = 0.14,
) -> list[CellFit]:
    """Cell width and numbers-or-tiles for each matrix of a row of matrices.

    ``need[k]``: cell width matrix ``k`` needs to show its numbers; ``cols[k]``: its
    columns; ``fixed``: everything else in the row (labels, operators, gaps). When the
    row is wider than ``room``, the matrices listed in ``give_up`` lose their numbers
    one after the other (they become :class:`Tiles`) until it fits.
    """
    numbers = [True] * len(cols)
    tw = tile_max
    for k in [None, *give_up]:
        if k is not None:
            numbers[k] = False
        used = sum(w * c for w, c, nm in zip(need, cols, numbers) if nm)
        tile_cols = sum(c for c, nm in zip(cols, numbers) if not nm)
        left = room - fixed - used
        if tile_cols == 0 and left >= 0:
            break
        if tile_cols and left / tile_cols >= tile_min:
            tw = min(tile_max, left / tile_cols)
            break
        tw = tile_min
    return [CellFit(w if nm else tw, nm) for w, nm in zip(need, numbers)]


@dataclass(frozen=True)
class RowFit:
    """How a row of matrices fits: one :class:`CellFit` per matrix, and the number size."""

    cells: tuple[CellFit, ...]
    size: str

    def __getitem__(self, k: int) -> CellFit:
        return self.cells[k]

    @property
    def numbers(self) -> bool:
        """Whether every matrix of the row shows its numbers."""
        return all(c.numbers for c in self.cells)


def fit_numbers(
    mats: Sequence[tuple[Any, int]], cols: Sequence[int], room: float, fixed: float, give_up: Sequence[int], *,
    sizes: Sequence[str] = ("cell", "small"), tile_max: float = 0.45,
) -> RowFit:
    """The one row-fitting loop: the largest of ``sizes`` at which every matrix of the row
    (``(values, decimals)`` each) shows its numbers; at the smallest, :func:`fit_row` turns
    the matrices of ``give_up`` into tiles, in that order, until the row fits ``room``."""
    size = sizes[0]
    fit: list[CellFit] = []
    for size in sizes:
        need = [number_cell_width(m, dec, size) for m, dec in mats]
        fit = fit_row(need, cols, room, fixed, give_up, tile_max)
        if all(c.numbers for c in fit):
            break
    return RowFit(tuple(fit), size)
