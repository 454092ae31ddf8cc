"""Rows to compare: vectors from different places of the trace, one row each, in one grid.

"The output of *mouse* in the sentence and in the shuffled sentence", "the weights of
*mouse* without and with the mask": each row comes from its own trace path, yet they
share columns (dimensions or words) so that a viewer compares them cell by cell.
:func:`compare_rows` draws them as one :class:`~scenes.components.NumberGrid` whose
numbers keep each row's own :class:`~scenes.components.Source`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from manim import SurroundingRectangle, VGroup

from attncore import round_matrix

from ..layout import TINY_BUFF
from ..theme import Theme
from .grids import CellGrid, ColumnStyle, NumberGrid, column_labels
from .numbers import Source

__all__ = ["CompareRow", "compare_rows", "cell_outline", "row_outline", "labelled_row_outline", "ROW_OUTLINE_BUFF"]

#: An outline around a row of cells hugs it, clear of the rows above and below.
ROW_OUTLINE_BUFF = 0.03

#: One row's numbers: a row of a trace matrix or a list.
Values = Sequence[float] | np.ndarray


@dataclass(frozen=True)
class CompareRow:
    """One row of a comparison: its name, exact values, where each comes from.

    ``heat``: the values are attention weights, drawn on the heat ramp (by their value
    as shown, so that equal numbers get equal colours). ``decimals``: this row's own
    precision (default: the grid's); ``approx(j)``: cell j is shown marked ``≈``.
    """

    name: str
    values: Values
    source: Callable[[int], Source]
    colour: str
    heat: bool = False
    decimals: int | None = None
    approx: Callable[[int], bool] | None = None


def _marked(row: CompareRow, j: int) -> bool:
    """Whether cell ``j`` of ``row`` is shown marked ``≈``."""
    return row.approx is not None and row.approx(j)


def compare_rows(rows: Sequence[CompareRow], columns: Sequence[str], decimals: int, theme: Theme, *,
                 cell_w: float, cell_h: float, size: str = "cell", label_size: str = "label",
                 column_colours: Sequence[str] | None = None, column_style: ColumnStyle = "staggered",
                 column_peers: Sequence[Sequence[str]] = ()) -> NumberGrid:
    """The rows in one grid: names on the left, ``columns`` above (staggered when long, or turned:
    see :func:`~scenes.components.grids.column_labels`; the caller stacks by the grid's bounds),
    laid out as the header rows ``column_peers`` of the grids shown with it.

    Heat rows take the heat colour of each weight and the ink that reads on it.
    """
    exact = np.array([np.asarray(r.values, dtype=float) for r in rows])
    row_dec = [decimals if r.decimals is None else r.decimals for r in rows]
    shown = np.array([round_matrix(row, dec) if r.heat else row for r, row, dec in zip(rows, exact, row_dec)])

    def fill(i: int, j: int) -> object:
        return theme.heat(float(shown[i, j])) if rows[i].heat else theme["panel"]

    grid = NumberGrid(
        exact, row_dec, lambda i, j: rows[i].source(j), theme, fill=fill,
        approx=lambda i, j: _marked(rows[i], j),
        row_labels=[r.name for r in rows], row_colours=[r.colour for r in rows],
        cell_w=cell_w, cell_h=cell_h, size=size, label_size=label_size,
    )
    for i, r in enumerate(rows):
        if r.heat:
            for j in range(grid.n_cols):
                grid.entry(i, j).set_color(theme.heat_ink(float(shown[i, j])))
    if columns:  # none: a block under another that names the same columns
        grid.set_column_labels(column_labels(grid, columns, theme, column_colours, size=label_size,
                                             style=column_style, peers=column_peers))
    return grid


def cell_outline(grid: NumberGrid, i: int, j: int, colour: str) -> SurroundingRectangle:
    """An outline just inside cell (i, j): marks one number without touching its neighbours."""
    return SurroundingRectangle(grid.cell(i, j), color=colour, buff=-TINY_BUFF, stroke_width=4)


def row_outline(grid: CellGrid, i: int, colour: str) -> SurroundingRectangle:
    """An outline just around row ``i`` of ``grid``: marks one word's row."""
    return SurroundingRectangle(grid.row(i), color=colour, buff=ROW_OUTLINE_BUFF)


def labelled_row_outline(
    grid: CellGrid, i: int, colour: str, buff: float, stroke_width: float = 4
) -> SurroundingRectangle:
    """An outline around row ``i`` of ``grid`` and its label, ``buff`` off them across but, up and
    down, never reaching the labels of the rows above and below (rows as low as their labels:
    the outline crossed their words)."""
    box = SurroundingRectangle(VGroup(grid.row(i), grid.row_labels[i]), color=colour, buff=buff,
                               stroke_width=stroke_width)
    label_h = max(float(lab.height) for lab in grid.row_labels)
    room = max(0.0, (float(grid.row(i).height) - label_h) / 2 - ROW_OUTLINE_BUFF)
    half = float(grid.row(i).height) / 2 + min(buff, room)
    if box.height > 2 * half:
        box.stretch_to_fit_height(2 * half).set_y(float(grid.row(i).get_y()))
    if i == 0 and len(grid.col_labels):
        # the first row: the outline stays clear of the column labels above it too (a focus
        # word first in its sentence; the outline ran through the labels' lower edge)
        ceiling = min(float(lab.get_bottom()[1]) for lab in grid.col_labels) - ROW_OUTLINE_BUFF
        top, bottom = float(box.get_top()[1]), float(box.get_bottom()[1])
        row_top = float(grid.row(0).get_top()[1])
        if top > ceiling:
            new_top = max(ceiling, row_top)
            box.stretch_to_fit_height(new_top - bottom).move_to((float(box.get_x()), (new_top + bottom) / 2, 0.0))
    return box
