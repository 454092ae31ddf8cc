"""The companion workbook: every number of the lecture as a live spreadsheet formula.

The same trace that drives the video writes an ``.xlsx`` in which the vocabulary, the
sentences and the weights are typed inputs and every other number is a formula on them,
sheet by sheet in lecture order; a student edits "mouse"'s vector and sees the scores,
the softmax, the outputs and the two contexts recompute, in Excel, LibreOffice Calc or
Google Sheets.

- :mod:`.formulas`: one ordinary formula per cell (why no array formulas);
- :mod:`.cached`: the trace's values saved as the formulas' cached values;
- :mod:`.style`: the video's colours (:mod:`attnstage.palette`, the scenes' own, without manim);
- :mod:`.grid`: placing labelled matrices and naming them;
- :mod:`.inputs`, :mod:`.simple`, :mod:`.learned`, :mod:`.order`, :mod:`.guide`: the sheets.

Sheet names, headers, labels and the guide are written in the current viewer language
(:func:`attncore.i18n.use`; ``attnvid workbook`` uses the lesson's); numbers stay numbers (the
reader's spreadsheet shows them in its own locale) and formulas and defined names stay as they
are, referring to the sheets by their translated, quoted names.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from attncore import LessonTrace
from attncore.i18n import _
from attnstage.settings import DEFAULT_STYLE

from ...outputs import write_atomic
from .cached import FIXED_DATE, add_cached_values
from .grid import Book
from .guide import START, start_sheet
from .inputs import inputs_sheet
from .learned import learned_sheets
from .order import order_sheets
from .simple import simplified_sheets
from .style import Palette

__all__ = ["WORKBOOK_NAME", "Written", "build_book", "workbook_bytes", "write_workbook"]

#: The file name, in the workbook folder and in the lecture folder.
WORKBOOK_NAME = "workbook.xlsx"


def build_book(trace: LessonTrace, style: str = DEFAULT_STYLE) -> Book:
    """Every sheet of the workbook, in lecture order after the first two (Start, Inputs), in
    the colours of the video's ``style``."""
    book = Book(trace, Palette(trace.lesson.theme, trace.lesson.dimensions, style))
    start = book.sheet(_(START))
    inputs_sheet(book, trace)
    simplified_sheets(book)
    learned_sheets(book)
    order_sheets(book)
    start_sheet(book, start)
    book.wb.active = 0
    book.wb.properties.created = datetime(*FIXED_DATE)  # the same lesson, the same bytes
    book.wb.properties.creator = "attnvid workbook"
    # Applications that compute (Excel, Google Sheets) recompute everything on opening.
    book.wb.calculation.fullCalcOnLoad = True
    return book


@dataclass(frozen=True)
class Written:
    """What :func:`write_workbook` wrote."""

    path: Path
    sheets: int
    formulas: int
    size: int  # bytes


def workbook_bytes(trace: LessonTrace, style: str = DEFAULT_STYLE) -> bytes:
    """The ``.xlsx`` file of ``trace``: formulas, styles, defined names and cached values."""
    return _save(build_book(trace, style))


def _save(book: Book) -> bytes:
    buf = io.BytesIO()
    book.wb.save(buf)
    # openpyxl numbers the worksheet parts as it saves them: ws.path is known only now.
    by_part: dict[str, dict[str, float | str]] = {ws.path.lstrip("/"): {} for ws in book.wb.worksheets}
    part = {ws.title: ws.path.lstrip("/") for ws in book.wb.worksheets}
    for (title, ref), value in book.cache.items():
        by_part[part[title]][ref] = value
    return add_cached_values(buf.getvalue(), by_part)


def write_workbook(path: Path, trace: LessonTrace, style: str = DEFAULT_STYLE) -> Written:
    """Write the workbook of ``trace`` to ``path`` atomically (a temporary name, then a rename)."""
    book = build_book(trace, style)
    data = _save(book)
    write_atomic(path, data)
    return Written(path, len(book.wb.worksheets), len(book.cache), len(data))
