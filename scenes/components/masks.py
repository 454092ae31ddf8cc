"""The causal mask drawn over a matrix or a row: "−∞" cells and the staircase edge.

A masked score is ``-inf`` in the trace (``causal.masked``); it is shown by
:func:`attncore.display.fmt_masked`, the one place that writes it, as a
:class:`MaskedCell` that carries its trace :class:`~scenes.components.Source` the way a
:class:`~scenes.components.Num` does, so tests can check that every "−∞" on screen
stands on a masked score. :class:`MaskOver` covers the masked cells of a grid that was
drawn first with every score, so the viewer sees the mask arrive over the numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

import numpy as np
from manim import DOWN, RIGHT, UP, Rectangle, VGroup, VMobject

from attncore.display import fmt_masked

from ..layout import TINY_BUFF
from ..theme import MONO, SIZE, Theme
from .grids import CellGrid, NumberGrid
from .numbers import Source
from .shapes import made
from .text import LightText

__all__ = ["MaskedCell", "MaskOver", "lift_entries", "mask_edge"]

#: The "−∞" glyphs sit low and small in the monospaced font: drawn this much larger than
#: the numbers beside them, they read as large as a digit.
INFINITY_SCALE = 1.4


class MaskedCell(LightText):
    """A masked score on screen: ``fmt_masked(value)`` ("−∞"), tagged with its trace source."""

    def __init__(self, value: float, decimals: int, source: Source, *, size: str = "cell", color: str) -> None:
        if not np.isneginf(value):
            raise ValueError(f"a MaskedCell shows a masked score (-inf), got {value!r}; use a Num")
        self.value = float(value)
        self.decimals = decimals
        self.source = source
        super().__init__(fmt_masked(value, decimals), font=MONO, font_size=SIZE[size] * INFINITY_SCALE, color=color)


def mask_edge(grid: CellGrid, visible: np.ndarray, theme: Theme, rows: Sequence[int] | None = None) -> VMobject:
    """The staircase between what each row may see and what the mask hides.

    ``visible[i, j]`` (the grid's shape) is True where row ``i`` may look at column ``j``:
    a causal mask is True on and below the diagonal, so its edge runs down the right side
    of the last visible cell of every row, from the top of the grid to its bottom.
    ``rows``: only these rows, one after the other (default: every row).
    """
    points: list[Any] = []
    for i in range(grid.n_rows) if rows is None else rows:
        last = int(np.flatnonzero(visible[i])[-1])
        cell = grid.cell(i, last)
        points += [cell.get_corner(UP + RIGHT), cell.get_corner(DOWN + RIGHT)]
    edge = VMobject(stroke_color=theme["negative"], stroke_width=6)
    edge.set_points_as_corners(points)
    return edge


def lift_entries(grid: NumberGrid, cells: list[tuple[int, int]]) -> VGroup:
    """Take the numbers of ``cells`` out of ``grid`` (they stay where they are) and return
    them as a group of their own, so a scene can fade them out while the grid stays."""
    lifted = [grid.entry(i, j) for i, j in cells]
    if lifted:
        grid.entries.remove(*lifted)
    return VGroup(*lifted)


class MaskOver(VGroup):
    """The causal mask laid over ``grid``: every hidden cell covered and marked "−∞".

    ``values``: the masked scores of the grid's rows (``-inf`` where hidden), ``source(i, j)``
    names each in the trace. ``visible``: where the edge runs (default: where ``values``
    is finite; a row of exponentials under a row of masked scores has its own zeros).
    Attributes: ``covers`` (one rectangle per hidden cell), ``marks`` (their
    :class:`MaskedCell`), ``edge`` (:func:`mask_edge`) and ``hidden``, the (i, j) of the
    hidden cells in grid coordinates.
    """

    def __init__(self, grid: CellGrid, values: np.ndarray, decimals: int, source: Callable[[int, int], Source],
                 theme: Theme, *, size: str = "cell", visible: np.ndarray | None = None) -> None:
        super().__init__()
        vals = np.asarray(values, dtype=float).reshape(grid.n_rows, grid.n_cols)
        self.hidden = [(i, j) for i in range(grid.n_rows) for j in range(grid.n_cols) if np.isneginf(vals[i, j])]
        self.covers, self.marks = VGroup(), VGroup()
        for i, j in self.hidden:
            cell = grid.cell(i, j)
            cover = made(Rectangle, width=cell.width, height=cell.height, stroke_color=theme["grid"], stroke_width=1.5,
                         fill_color=theme["background"], fill_opacity=1.0).move_to(cell)
            mark = MaskedCell(vals[i, j], decimals, source(i, j), size=size, color=theme["negative"])
            if mark.width > cell.width - 2 * TINY_BUFF:
                mark.scale_to_fit_width(cell.width - 2 * TINY_BUFF)
            self.covers.add(cover)
            self.marks.add(mark.move_to(cell))
        self.edge = mask_edge(grid, np.isfinite(vals) if visible is None else np.asarray(visible, dtype=bool), theme)
        self.add(self.covers, self.marks, self.edge)

    def mark(self, i: int, j: int) -> MaskedCell:
        """The "−∞" of hidden cell (i, j)."""
        return cast(MaskedCell, self.marks[self.hidden.index((i, j))])
