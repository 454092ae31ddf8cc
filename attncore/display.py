"""How numbers are shown: the one place that decides decimals and rounding.

Scenes and the ``values`` command format every number through these helpers, so the
screen and the tables always agree.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["MINUS_INFINITY", "decimals_needed", "fmt", "fmt_masked", "round_matrix", "round_rows_to_one", "format_matrix"]

_MINUS = "\u2212"  # a real minus sign: as wide as a digit, unlike the hyphen
#: A masked score, as the lecture, the tables and the workbook write it.
MINUS_INFINITY = _MINUS + "\u221e"


def fmt(x: float, decimals: int, *, plus: bool = False) -> str:
    """Format ``x`` with exactly ``decimals`` decimals and a typographic minus sign.

    Rounding is half away from zero on the decimal value of ``x``, as students,
    calculators and spreadsheets round (``ROUND`` in Excel, LibreOffice and Google
    Sheets), so the video, ``values`` and the workbook show the same digits; ``-0``
    prints as ``0``.

    >>> fmt(0.125, 2), fmt(4.625, 2), fmt(-0.125, 2), fmt(-0.001, 2), fmt(3, 0)
    ('0.13', '4.63', '−0.13', '0.00', '3')
    """
    q = Decimal(1).scaleb(-decimals)
    r = Decimal(repr(float(x))).quantize(q, rounding=ROUND_HALF_UP)
    if r.is_zero():
        r = abs(r)
    s = f"{r:.{decimals}f}"
    if s.startswith("-"):
        return _MINUS + s[1:]
    return ("+" + s) if plus and r > 0 else s


def fmt_masked(x: float, decimals: int) -> str:
    """:func:`fmt`, except that a masked score (``-inf``) shows as ``−∞``.

    The causal mask sets the scores a word may not see to ``-inf`` (their softmax weight
    is then exactly 0); every other value is shown as :func:`fmt` shows it.

    >>> fmt_masked(float("-inf"), 2), fmt_masked(-3.5, 2)
    ('−∞', '−3.50')
    """
    return MINUS_INFINITY if np.isneginf(x) else fmt(x, decimals)


def round_matrix(m: ArrayLike, decimals: int) -> np.ndarray:
    """Round every entry as :func:`fmt` shows it (as floats)."""
    arr = np.asarray(m, dtype=np.float64)
    flat = [float(fmt(v, decimals).replace(_MINUS, "-")) for v in arr.ravel()]
    return np.array(flat, dtype=np.float64).reshape(arr.shape)


def round_rows_to_one(p: ArrayLike, decimals: int) -> np.ndarray:
    """Round probability rows so each displayed row sums to exactly 1.

    Largest-remainder (Hamilton) rounding: floor every entry to the grid of
    ``10**-decimals``, then give the missing units to the entries with the largest
    remainders. Each entry moves by less than one unit; the exact values stay in the trace.

    >>> round_rows_to_one([[1/3, 1/3, 1/3]], 2).tolist()
    [[0.34, 0.33, 0.33]]
    """
    arr = np.asarray(p, dtype=np.float64)
    if arr.ndim != 2:
        raise ValueError(f"round_rows_to_one needs a 2-D matrix, got shape {arr.shape}")
    unit = 10**decimals
    out = np.empty_like(arr)
    for i, row in enumerate(arr):
        total = row.sum()
        if not np.isclose(total, 1.0, rtol=0.0, atol=1e-9) or (row < 0).any():
            raise ValueError(f"row {i} sums to {total}, not 1, or has a negative entry; only probability rows can be rounded this way")
        scaled = row * unit
        floors = np.floor(scaled + 1e-9).astype(np.int64)
        missing = unit - int(floors.sum())
        order = np.argsort(-(scaled - floors), kind="stable")  # largest remainder first
        floors[order[:missing]] += 1
        out[i] = floors / unit
    return out


def format_matrix(m: ArrayLike, decimals: int) -> list[list[str]]:
    """Every entry of ``m`` as :func:`fmt` shows it."""
    return [[fmt(v, decimals) for v in row] for row in np.asarray(m, dtype=np.float64)]


def decimals_needed(m: ArrayLike, max_decimals: int) -> int:
    """The fewest decimals (up to ``max_decimals``) that show every entry of ``m`` exactly.

    Lesson inputs are small round numbers: ``[3, 0.5]`` reads better as ``3, 0.5`` than
    as ``3.00, 0.50``. Used for embeddings and weights, which the lesson author typed.

    >>> decimals_needed([[3, 0.5], [2, 0]], 2), decimals_needed([[1.25]], 1)
    (1, 1)
    """
    arr = np.asarray(m, dtype=np.float64)
    for dec in range(max_decimals + 1):
        if np.allclose(arr, np.round(arr, dec), atol=1e-12, rtol=0):
            return dec
    return max_decimals
