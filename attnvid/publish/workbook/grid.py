"""Placing labelled matrices of formulas on sheets, and remembering where they went.

A :class:`Block` is where a matrix's values are (sheet, first row and column, shape); it
writes the references other formulas use. A :class:`Sheet` places titles, labels, typed
inputs and formula cells; every formula cell is given the value it must compute (from
the trace), which :mod:`.cached` writes into the file as the cell's cached value.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from copy import copy
from dataclasses import dataclass, field, replace

import numpy as np
from numpy.typing import ArrayLike
from openpyxl import Workbook
from openpyxl.cell import Cell
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.styles.cell_style import StyleArray
from openpyxl.utils import get_column_letter, quote_sheetname
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.worksheet import Worksheet

from attncore import LessonTrace, fmt

from .style import Palette, number_format

__all__ = ["Block", "Book", "Linked", "Matrix", "Sheet", "addr", "text_width"]

Cached = float | str


@dataclass(frozen=True)
class Linked:
    """A label that is a formula (a reference to an input cell), with the text it shows now."""

    formula: str
    text: str


Label = str | Linked


def text_width(text: str) -> int:
    """How many digit widths ``text`` takes: a wide (CJK) character counts two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def addr(row: int, col: int, absolute: bool = False) -> str:
    """``C5`` for (5, 3); ``$C$5`` when ``absolute``."""
    d = "$" if absolute else ""
    return f"{d}{get_column_letter(col)}{d}{row}"


@dataclass(frozen=True)
class Block:
    """Where a matrix's values are: ``n_rows × n_cols`` cells from (``top``, ``left``) of ``sheet``."""

    sheet: str
    top: int
    left: int
    n_rows: int
    n_cols: int

    def _prefix(self, here: str) -> str:
        return "" if here == self.sheet else quote_sheetname(self.sheet) + "!"

    def cell(self, i: int, j: int, here: str) -> str:
        """The reference of value ``[i, j]`` from a formula on sheet ``here``."""
        return self._prefix(here) + addr(self.top + i, self.left + j)

    def _span(self, r0: int, c0: int, r1: int, c1: int, here: str) -> str:
        return self._prefix(here) + f"{addr(self.top + r0, self.left + c0)}:{addr(self.top + r1, self.left + c1)}"

    def row(self, i: int, here: str) -> str:
        return self._span(i, 0, i, self.n_cols - 1, here)

    def col(self, j: int, here: str) -> str:
        return self._span(0, j, self.n_rows - 1, j, here)

    def area(self, here: str) -> str:
        return self._span(0, 0, self.n_rows - 1, self.n_cols - 1, here)

    def absolute(self) -> str:
        """The whole block as a defined name's target: ``'Sheet'!$C$5:$F$9``."""
        end = addr(self.top + self.n_rows - 1, self.left + self.n_cols - 1, True)
        return f"{quote_sheetname(self.sheet)}!{addr(self.top, self.left, True)}:{end}"

    def columns(self, start: int, stop: int) -> Block:
        """Columns ``start`` to ``stop - 1`` of this block."""
        return replace(self, left=self.left + start, n_cols=stop - start)

    @property
    def bottom(self) -> int:
        """The last row the block's values use."""
        return self.top + self.n_rows - 1

    @property
    def right(self) -> int:
        return self.left + self.n_cols - 1


@dataclass
class Matrix:
    """A labelled matrix of formulas: what :meth:`Sheet.matrix` places."""

    title: str
    row_labels: Sequence[Label]
    col_labels: Sequence[Label]
    # (i, j) -> the formula of value [i, j] ("=..."), or a constant the step fixes (a masked
    # weight 0, "−∞"); None: the values are typed inputs.
    formula: Callable[[int, int], str | float] | None
    values: ArrayLike  # (rows, cols) the values the formulas compute, from the trace
    decimals: int
    header: str | Sequence[str] = "muted"  # a role, or one colour per column
    name: str | None = None  # the defined name of the values
    heat: bool = False  # a heat-map colour scale (attention weights, 0 to 1)
    focus_row: int | None = None  # the row label to mark as the focus word
    # (i, j) -> the decimals of value [i, j] when they differ from ``decimals`` (the video's
    # worked rows: products with all their digits, a softmax row redoable from its digits)
    cell_decimals: Callable[[int, int], int] | None = None

    def decimals_at(self, i: int, j: int) -> int:
        return self.decimals if self.cell_decimals is None else self.cell_decimals(i, j)


class Book:
    """The workbook being written, its cached values, and the blocks placed so far by name."""

    def __init__(self, trace: LessonTrace, palette: Palette) -> None:
        self.trace = trace
        self.wb = Workbook()
        self.wb.remove(self.wb.active)  # the default empty sheet
        self.palette = palette
        self.cache: dict[tuple[str, str], Cached] = {}  # (sheet, "C5") -> value of its formula
        self.blocks: dict[str, Block] = {}
        self.styles: dict[tuple[object, ...], tuple[StyleArray, tuple[object, ...]]] = {}  # see Sheet._style
        self.contents: list[tuple[str, str]] = []  # (sheet, what it shows), for the first sheet's list

    def sheet(self, title: str, about: str = "") -> Sheet:
        """A new sheet; ``about`` (what it shows) goes into the list on the first sheet."""
        if about:
            self.contents.append((title, about))
        return Sheet(self, title)

    def define(self, name: str, block: Block) -> Block:
        """A workbook-wide defined name for ``block`` (the ranges the formulas and tests use)."""
        if name in self.blocks:
            raise ValueError(f"defined name {name!r} used twice")
        self.wb.defined_names[name] = DefinedName(name, attr_text=block.absolute())
        self.blocks[name] = block
        return block

    def __getitem__(self, name: str) -> Block:
        return self.blocks[name]


@dataclass
class Sheet:
    """One worksheet: cells written through here keep their cached values and column widths."""

    book: Book
    title: str
    ws: Worksheet = field(init=False)
    widths: dict[int, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.ws = self.book.wb.create_sheet(self.title)

    @property
    def palette(self) -> Palette:
        return self.book.palette

    def _measure(self, col: int, text: str) -> None:
        self.widths[col] = max(self.widths.get(col, 0.0), text_width(text) * 1.1 + 2)

    def put(self, row: int, col: int, value: float | str, *, cached: Cached | None = None, font: Font | None = None,
            fill: PatternFill | None = None, decimals: int | None = None, align: Alignment | None = None,
            border: bool = False, measure: bool = True, named: str | None = None) -> Cell:
        """Write one cell; a formula (text starting with "=") must come with the value it computes.

        ``named`` is a built-in cell style ("Input" for what a student types), applied first.
        """
        cell = self.ws.cell(row=row, column=col, value=value)
        self._style(cell, (font, fill, align, border, decimals, named))
        if isinstance(value, str) and value.startswith("="):
            if cached is None:
                raise ValueError(f"{self.title}!{cell.coordinate}: a formula needs its cached value")
            self.book.cache[(self.title, cell.coordinate)] = float(cached) if not isinstance(cached, str) else cached
        shown = cached if cached is not None else value
        if decimals is not None and not isinstance(shown, str):
            shown = fmt(float(shown), decimals)
        if measure:
            self._measure(col, str(shown))
        return cell

    def _style(
        self, cell: Cell, spec: tuple[Font | None, PatternFill | None, Alignment | None, bool, int | None, str | None]
    ) -> None:
        """Style ``cell``; a style seen before is copied whole (``cell._style``, as openpyxl's docs copy styles).

        Setting fonts and fills one by one makes openpyxl hash each style object again, which
        took most of the time on the largest lessons. The palette hands out one object per
        style, so their ids (kept alive in the cache) identify a combination.
        """
        key = tuple(id(x) if not isinstance(x, bool | int | str) and x is not None else x for x in spec)
        known = self.book.styles.get(key)
        if known is not None:
            cell._style = copy(known[0])
            return
        font, fill, align, border, decimals, named = spec
        if named is not None:
            cell.style = named
        if decimals is not None:
            cell.number_format = number_format(decimals)
        for attr, style in (("font", font), ("fill", fill), ("alignment", align)):
            if style is not None:
                setattr(cell, attr, style)
        if border:
            cell.border = self.palette.border()
        self.book.styles[key] = (copy(cell._style), spec)

    def label(self, row: int, col: int, label: Label, **style: object) -> Cell:
        if isinstance(label, Linked):
            return self.put(row, col, label.formula, cached=label.text, **style)  # type: ignore[arg-type]
        return self.put(row, col, label, **style)  # type: ignore[arg-type]

    def text(
        self,
        row: int,
        col: int,
        text: str,
        *,
        bold: bool = False,
        italic: bool = False,
        colour: str = "background",
        size: float = 11,
    ) -> Cell:
        """Prose or a heading: not measured, so it runs over the empty cells to its right."""
        font = self.palette.font(colour, bold=bold, italic=italic, size=size)
        return self.put(row, col, text, font=font, measure=False)

    def title_band(self, title: str, subtitle: str, width: int = 14) -> None:
        """Row 1: the step's title on the video's dark panel; row 2: its formula or purpose."""
        fill = self.palette.fill(self.palette["panel"])
        for c in range(1, width + 1):
            self.ws.cell(row=1, column=c).fill = fill
        self.put(1, 1, title, font=self.palette.font("text", bold=True, size=14), fill=fill, measure=False)
        self.ws.row_dimensions[1].height = 24
        self.text(2, 1, subtitle, italic=True)
        self.ws.freeze_panes = "A4"

    def matrix(self, row: int, col: int, m: Matrix) -> Block:
        """Place ``m`` with its title at ``row``, column labels under it, row labels in ``col``.

        Values start at (row + 2, col + 1); the block of values is returned (and defined
        under ``m.name``).
        """
        p = self.palette
        values = np.asarray(m.values, dtype=np.float64)
        n_rows, n_cols = len(m.row_labels), len(m.col_labels)
        assert values.shape == (n_rows, n_cols), (m.title, values.shape, (n_rows, n_cols))
        self.put(row, col, m.title, font=p.ink(bold=True), measure=False)
        colours = [m.header] * n_cols if isinstance(m.header, str) else list(m.header)
        for j, lab in enumerate(m.col_labels):
            colour = colours[j] if colours[j].startswith("#") else p[colours[j]]
            self.label(row + 1, col + 1 + j, lab, font=p.ink(bold=True), fill=p.fill(colour), align=p.centre(),
                       border=True)
        for i, lab in enumerate(m.row_labels):
            focus = i == m.focus_row
            self.label(row + 2 + i, col, lab, font=p.ink(bold=True), fill=p.fill(p["accent"]) if focus else None)
        block = Block(self.title, row + 2, col + 1, n_rows, n_cols)
        for i in range(n_rows):
            for j in range(n_cols):
                self._value(block.top + i, block.left + j, m, i, j, float(values[i, j]))
        if m.heat:
            self.ws.conditional_formatting.add(block.area(self.title), p.heat_scale())
        if m.name:
            self.book.define(m.name, block)
        return block

    def _value(self, row: int, col: int, m: Matrix, i: int, j: int, value: float) -> None:
        """Value [i, j] of ``m``: a typed input, a formula with its cached value, or a constant."""
        dec = m.decimals_at(i, j)
        if m.formula is None:
            self.put(row, col, value, decimals=dec, named="Input")
            return
        f = m.formula(i, j)
        if isinstance(f, str) and f.startswith("="):
            self.put(row, col, f, cached=value, decimals=dec, border=True)
        else:  # fixed by the step itself (a masked key): shown, greyed, not computed
            self.put(row, col, f, decimals=None if isinstance(f, str) else dec, border=True,
                     font=self.palette.font("muted"), align=self.palette.align("right"))

    def column_beside(self, block: Block, header: str, formula: Callable[[int], str], values: ArrayLike, decimals: int,
                      name: str | None = None, colour: str = "muted") -> Block:
        """One more column of formulas right of ``block`` (a row's sum, a check), headed ``header``."""
        p, col = self.palette, block.right + 1
        vals = np.asarray(values, dtype=np.float64).reshape(-1)
        self.put(
            block.top - 1, col, header, font=p.ink(bold=True), fill=p.fill(p[colour]), align=p.centre(), border=True
        )
        for i in range(block.n_rows):
            self.put(block.top + i, col, formula(i), cached=float(vals[i]), decimals=decimals, border=True)
        out = Block(self.title, block.top, col, block.n_rows, 1)
        return self.book.define(name, out) if name else out

    def row_below(self, block: Block, label: str, formula: Callable[[int], str], values: ArrayLike, decimals: int,
                  name: str | None = None, label_col: int | None = None) -> Block:
        """One more row of formulas under ``block`` (column sums), labelled ``label`` (left of it by default)."""
        p, row = self.palette, block.bottom + 1
        vals = np.asarray(values, dtype=np.float64).reshape(-1)
        self.put(row, block.left - 1 if label_col is None else label_col, label, font=p.ink(bold=True))
        for j in range(block.n_cols):
            self.put(row, block.left + j, formula(j), cached=float(vals[j]), decimals=decimals, border=True,
                     font=p.ink(bold=True))
        out = Block(self.title, row, block.left, 1, block.n_cols)
        return self.book.define(name, out) if name else out

    def finish(self) -> None:
        """Column widths from what the columns hold (at least a number's width); printed one page wide."""
        for col, w in self.widths.items():
            self.ws.column_dimensions[get_column_letter(col)].width = max(7.0, min(w, 36.0))
        self.ws.page_setup.orientation = "landscape"
        self.ws.sheet_properties.pageSetUpPr.fitToPage = True
        self.ws.page_setup.fitToWidth = 1
        self.ws.page_setup.fitToHeight = 0  # as many pages down as needed
