"""The first sheet: how to use the workbook, a legend, and the list of sheets."""

from __future__ import annotations

import math

from openpyxl.utils import quote_sheetname
from openpyxl.worksheet.hyperlink import Hyperlink

from attncore.i18n import N_, _, ngettext, number

from .formulas import FUNCTIONS
from .grid import Book, Sheet, text_width
from .inputs import INPUTS

__all__ = ["START", "start_sheet"]

# Translators: a sheet name of the workbook: at most 31 characters, none of : \ / ? * [ ]
START = N_("Start")


def _how_to(book: Book) -> list[str]:
    trace, inputs = book.trace, _(INPUTS)
    made = (_("Made by `attnvid workbook` from the built-in lesson.") if trace.lesson.source == "built-in"
            else _("Made by `attnvid workbook` from the lesson {source}.").format(source=trace.lesson.source))
    return [
        _("Change an orange cell on the {inputs} sheet (a word's vector, a word of a sentence, a weight) and every "
          "sheet recomputes: the scores, the softmax, the outputs, the two contexts, the projections and the "
          "heads.").format(inputs=inputs),
        _("Every other number is a formula: click it to see how it is computed. The sheets follow the lecture's steps, "
          "in order."),
        _("In a matrix of scores or weights, row = the word being updated (query), column = the word it looks at "
          "(key). The focus word's row is highlighted."),
        ngettext("Numbers show {decimals} decimal, as in the video; every cell keeps full precision. Weights are "
                 "rounded one by one here, so a row may show a sum of {low} or {high} (the video rounds a row so that "
                 "it shows exactly 1).",
                 "Numbers show {decimals} decimals, as in the video; every cell keeps full precision. Weights are "
                 "rounded one by one here, so a row may show a sum of {low} or {high} (the video rounds a row so that "
                 "it shows exactly 1).", trace.decimals).format(decimals=trace.decimals, low=number("0.99"),
                                                                 high=number("1.01")),
        _("Attention matrices are coloured like the video's heat maps: the brighter the cell, the larger the weight."),
        _("Weights: {provenance}").format(provenance=trace.weights.provenance),
        _("Excel, LibreOffice Calc and Google Sheets all recompute it: the formulas use only functions they share "
          "({functions}). The saved values are the ones attncore computed, so a viewer that does not recompute shows "
          "the same numbers as the video.").format(functions=", ".join(sorted(FUNCTIONS))),
        made,
    ]


_TEXT_WIDTH = 100  # characters of column B, where the prose wraps


def _prose(s: Sheet, row: int, text: str) -> None:
    """``text`` in column B, wrapped, its row tall enough for it."""
    s.text(row, 2, text).alignment = s.palette.align(vertical="top", wrap=True)
    lines = math.ceil(text_width(text) / (_TEXT_WIDTH * 1.25))  # prose is narrower than the digits a width counts
    s.ws.row_dimensions[row].height = 16 * lines + 3


def start_sheet(book: Book, s: Sheet) -> None:
    """Fill the first sheet (created first, filled last: it lists the others)."""
    p = s.palette
    s.title_band(_("{title}: the companion workbook").format(title=book.trace.lesson.title),
                 _("Every number of the lecture, as a live formula. Change an input and watch what follows."), width=2)
    row = 4
    for k, line in enumerate(_how_to(book), 1):
        s.put(row, 1, f"{k}.", font=p.ink(bold=True), align=s.palette.align("right", "top"))
        _prose(s, row, line)
        row += 1
    row = _legend(s, row + 1)
    s.text(row, 1, _("The sheets"), bold=True, size=12)
    for title, about in book.contents:
        row += 1
        cell = s.put(row, 1, title, font=p.font("key", bold=True), align=p.align(vertical="top"))
        cell.hyperlink = Hyperlink(ref=cell.coordinate, location=f"{quote_sheetname(title)}!A1", display=title)
        _prose(s, row, about)
    s.ws.freeze_panes = None
    s.ws.sheet_view.showGridLines = False
    s.finish()
    s.ws.column_dimensions["A"].width = 16
    s.ws.column_dimensions["B"].width = _TEXT_WIDTH


def _legend(s: Sheet, row: int) -> int:
    p = s.palette
    s.text(row, 1, _("Legend"), bold=True, size=12)
    s.put(row + 1, 1, 1.5, named="Input", decimals=1)
    s.text(row + 1, 2, _("an input: type another number here"))
    s.put(row + 2, 1, "=2*1.5", cached=3.0, decimals=s.book.trace.decimals, border=True)
    s.text(row + 2, 2, _("a formula, computed from the inputs (click it to read it)"))
    weights = (0.0, 0.1, 0.25, 0.5, 1.0)
    for k, w in enumerate(weights):
        s.put(row + 3 + k, 1, w, decimals=2, border=True)
    s.ws.conditional_formatting.add(f"A{row + 3}:A{row + 2 + len(weights)}", p.heat_scale())
    s.text(row + 3, 2, _("attention weights from 0 to 1, coloured as in the video"))
    return row + 4 + len(weights)
