"""Cached values: the numbers a viewer shows when it does not recompute.

openpyxl writes a formula cell as ``<c r="C5"><f>...</f><v/></c>``, with no value. Excel
and Google Sheets recompute on opening, but a file preview, a Python reader, or
LibreOffice with its default for Excel files ("never recalculate") shows empty cells.

Every formula's value is already known: the trace computed it. So after openpyxl has
written the file, each formula cell's empty ``<v/>`` receives that value, written with
``repr`` (the shortest text that reads back as the same double), or the text itself with
``t="str"`` when the formula gives a word. The workbook also asks for a full recalculation
on load (``fullCalcOnLoad``), so an application that computes shows its own numbers,
which equal these (``tests/test_workbook.py`` recomputes with LibreOffice to check).

The package gets fixed dates too (:data:`FIXED_DATE`): the same lesson gives the same bytes.

Recomputing once with LibreOffice instead would make it a dependency of the command, be
slower, and its re-export rewrites the styles; writing the XML value needs nothing.
"""

from __future__ import annotations

import io
import re
import zipfile
from xml.sax.saxutils import escape

__all__ = ["add_cached_values"]

# One formula cell as openpyxl writes it (attributes, formula, empty value).
_FORMULA_CELL = re.compile(rb'<c r="([A-Z]+[0-9]+)"([^>]*)><f>(.*?)</f>(?:<v\s*/>|<v></v>)</c>', re.S)


def _fill(xml: bytes, values: dict[str, float | str], where: str) -> bytes:
    filled: set[str] = set()

    def cell(m: re.Match[bytes]) -> bytes:
        ref = m.group(1).decode()
        if ref not in values:
            raise ValueError(f"{where}: formula cell {ref} has no cached value")
        value, attrs = values[ref], m.group(2)
        filled.add(ref)
        if isinstance(value, str):
            text = escape(value).encode()
            return b'<c r="%s"%s t="str"><f>%s</f><v>%s</v></c>' % (m.group(1), attrs, m.group(3), text)
        return b'<c r="%s"%s><f>%s</f><v>%s</v></c>' % (m.group(1), attrs, m.group(3), repr(float(value)).encode())

    out = _FORMULA_CELL.sub(cell, xml)
    missing = sorted(set(values) - filled)
    if missing:
        raise ValueError(f"{where}: cached values for cells that hold no formula: {', '.join(missing[:5])}")
    return out


#: The date the package's parts and properties carry, so that one lesson always gives the same
#: bytes (openpyxl stamps the time of saving; the zip format starts in 1980).
FIXED_DATE = (1980, 1, 1, 0, 0, 0)
_MODIFIED = re.compile(rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)")


def add_cached_values(xlsx: bytes, values_by_part: dict[str, dict[str, float | str]]) -> bytes:
    """``xlsx`` with the cached value of every formula cell filled in, and no time of saving.

    ``values_by_part`` maps a worksheet's part name (``xl/worksheets/sheet3.xml``) to
    ``{"C5": value}`` for every formula cell of that sheet; a formula without a value, or a
    value without a formula, is an error (the workbook and the trace must agree).
    """
    src = zipfile.ZipFile(io.BytesIO(xlsx))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename in values_by_part:
                data = _fill(data, values_by_part[item.filename], item.filename)
            if item.filename == "docProps/core.xml":
                data = _MODIFIED.sub(rb"\g<1>1980-01-01T00:00:00Z\g<2>", data)
            dst.writestr(zipfile.ZipInfo(item.filename, FIXED_DATE), data, zipfile.ZIP_DEFLATED)
    return out.getvalue()
