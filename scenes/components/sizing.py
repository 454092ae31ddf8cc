"""Sizes of a row of matrices in the content box: the room its labels and operators take,
and the range its cell height keeps to.

A product written on one line, ``M0 · M1 = M2`` (learned projections, changing the dimension, multi-head), shares one
cell height
between its matrices; the first matrix has the words as row labels, and two operators
with their gaps stand between the matrices. :func:`~scenes.components.fit_numbers`
then decides the cell widths.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from manim import Text

from ..layout import ITEM_BUFF, READABLE_DIGIT_H
from ..theme import MONO, SIZE, Theme
from .equations import EQ_BUFF, operator
from .grids import CELL_FILL, label_width
from .numbers import APPROX, widest_number

__all__ = [
    "CELL_H_MIN",
    "CELL_H_MAX",
    "BLOCK_LABELS_H",
    "TITLE_RISE",
    "WIDEN",
    "row_labels_width",
    "operators_width",
    "cell_height",
    "readable_scale",
    "round_digit_height",
    "readable_cell_width",
]

#: A cell is at least CELL_H_MIN tall (a word still fits beside it as a row label) and at
#: most CELL_H_MAX (a few rows should not fill the frame).
CELL_H_MIN, CELL_H_MAX = 0.3, 0.5
#: The height a row of named blocks takes beyond its cells: the names above, the numeric
#: and symbolic shapes below.
BLOCK_LABELS_H = 1.6
#: A title over a matrix has its cap centre TITLE_RISE above the top of what it names (the
#: words over the matrix's columns, or its tiles).
TITLE_RISE = 0.3
#: Spare room widens the cells of a heat map by up to this factor (a quarter), so that the
#: words above its columns fit.
WIDEN = 1.25


def row_labels_width(tokens: Sequence[str], size: str = "label") -> float:
    """The room the words take as row labels left of a matrix, with their gap."""
    return label_width(tokens, size) + ITEM_BUFF


def operators_width(theme: Theme, count: int = 2) -> float:
    """The room ``count`` operators (``·``, ``=``) take between matrices, each counted as
    wide as ``=`` with an :data:`~scenes.components.EQ_BUFF` either side."""
    return count * (operator("=", theme).width + 2 * EQ_BUFF)


def cell_height(height: float, rows: int, low: float = CELL_H_MIN, high: float = CELL_H_MAX) -> float:
    """The cell height that fits ``rows`` rows into ``height``, kept between ``low`` and ``high``."""
    return min(high, max(low, height / rows))


@functools.cache
def round_digit_height(font_size: float) -> float:
    """The height of a round digit ("0", whose curves overshoot the flat digits') of a number set
    at ``font_size``."""
    return float(Text("0", font=MONO, font_size=font_size).height)


def readable_scale(size: str) -> float:
    """The least a number of ``size`` may be scaled by and stay readable: its round digits at
    least :data:`~scenes.layout.READABLE_DIGIT_H` high (with a hair to spare)."""
    return (READABLE_DIGIT_H + 1e-3) / round_digit_height(SIZE[size])


def readable_cell_width(values: object, decimals: int, size: str = "cell", *, approx: bool = False) -> float:
    """The narrowest cell in which every number of ``values`` (``≈`` before each with ``approx``)
    keeps readable digits once a grid has shrunk it to fit (:func:`readable_scale`)."""
    return widest_number(values, decimals, size, APPROX * approx) * readable_scale(size) / CELL_FILL
