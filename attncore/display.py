"""How numbers are shown: the one place that decides decimals and rounding.

Scenes and the ``values`` command format every number through these helpers, so the
screen and the tables always agree. One rule: every number is shown as :func:`fmt` of its
own value (half away from zero), attention weights included, so equal values look
equal and the video, ``values`` and the workbook show the same digits. A shown total
whose shown parts do not add up to it is marked ``≈`` (:func:`adds_up`); a shown
exponential or quotient gets operands precise enough to redo it
(:func:`exp_operand_decimals`, :func:`quotient_decimals`).
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import ROUND_HALF_UP, Context, Decimal

import numpy as np
from numpy.typing import ArrayLike

from .i18n import _, number

__all__ = [
    "MINUS",
    "MINUS_INFINITY",
    "decimals_needed",
    "fmt",
    "plain",
    "said",
    "shown_value",
    "fmt_masked",
    "round_matrix",
    "format_matrix",
    "shown_sum",
    "adds_up",
    "exp_operand_decimals",
    "exp_as_shown",
    "quotient_decimals",
    "softmax_decimals",
    "WORKED_EXTRA_DECIMALS",
    "worked_softmax_decimals",
    "product_decimals",
    "quotient_as_shown",
]

#: A real minus sign: as wide as a digit, unlike the hyphen.
MINUS = "\u2212"
#: A masked score, as the lecture, the tables and the workbook write it.
MINUS_INFINITY = MINUS + "\u221e"


def fmt(x: float, decimals: int, *, plus: bool = False) -> str:
    """Format ``x`` with exactly ``decimals`` decimals and a typographic minus sign, in the
    current viewer language's decimal sign and digit grouping (:func:`attncore.i18n.number`:
    0,26 in French); :func:`plain` is the same number as code reads it back.

    >>> from attncore.i18n import use
    >>> with use("de"):
    ...     fmt(-0.125, 2)
    '−0,13'
    """
    return number(plain(x, decimals, plus=plus))


_WIDE = Context(prec=400, Emax=999)


def plain(x: float, decimals: int, *, plus: bool = False) -> str:
    """Format ``x`` with exactly ``decimals`` decimals and a typographic minus sign
    (a decimal point whatever the viewer's language: the form code parses).

    Rounding is half away from zero on the decimal value of ``x``, as students,
    calculators and spreadsheets round (``ROUND`` in Excel, LibreOffice and Google
    Sheets), so the video, ``values`` and the workbook show the same digits; ``-0``
    prints as ``0``.

    >>> plain(0.125, 2), plain(4.625, 2), plain(-0.125, 2), plain(-0.001, 2), plain(3, 0)
    ('0.13', '4.63', '−0.13', '0.00', '3')
    """
    q = Decimal(1).scaleb(-decimals)
    # a context wide enough for any float's digits: the default 28 digits refused e^62 (an
    # exponential the workbook shows for every row, 8.4e26 at one decimal needs 29)
    r = Decimal(repr(float(x))).quantize(q, rounding=ROUND_HALF_UP, context=_WIDE)
    if r.is_zero():
        r = abs(r)
    s = f"{r:.{decimals}f}"
    if s.startswith("-"):
        return MINUS + s[1:]
    return ("+" + s) if plus and r > 0 else s


def shown_value(x: float, decimals: int) -> float:
    """The number a reader sees: ``x`` rounded as :func:`fmt` shows it, read back.

    >>> shown_value(-0.126, 2), shown_value(2.5, 0)
    (-0.13, 3.0)
    """
    return float(plain(x, decimals).replace(MINUS, "-"))


def said(x: float, decimals: int) -> str:
    """``x`` as a sentence says it: :func:`fmt`, except that a quantity that is not zero but
    shows as zero is said to be under (or above) one unit of the last decimal, so that a
    sentence never reads "none" where there is some.

    >>> said(0.0017, 2), said(0.66, 2), said(0.0, 2), said(-0.004, 2), said(0.03, 1)
    ('under 0.01', '0.66', '0.00', 'above −0.01', 'under 0.1')
    """
    s = plain(x, decimals)
    if x == 0 or Decimal(s.replace(MINUS, "-")) != 0:
        return number(s)
    unit = fmt(10.0 ** -decimals, decimals)
    return (_("under {number}") if x > 0 else _("above {number}")).format(number=unit if x > 0 else MINUS + unit)


def fmt_weight(x: float, decimals: int) -> str:
    """An attention weight as a frame shows it: :func:`fmt`, except that a positive weight too
    small to show is written under one unit of the last decimal, ``<0.01``: on screen, 0.00
    reads as "no attention at all". Its value in a sum is still what it rounds to (0.00), as
    for every shown number; an exact zero (the causal mask's) stays 0.00.

    >>> fmt_weight(0.0042, 2), fmt_weight(0.0, 2), fmt_weight(0.31, 2), fmt_weight(0.04, 1)
    ('<0.01', '0.00', '0.31', '<0.1')
    """
    if x > 0 and Decimal(plain(x, decimals)) == 0:
        return "<" + fmt(10.0 ** -decimals, decimals)
    return fmt(x, decimals)


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
    flat = [shown_value(v, decimals) for v in arr.ravel()]
    return np.array(flat, dtype=np.float64).reshape(arr.shape)


def shown_sum(parts: ArrayLike, decimals: int) -> float:
    """The sum of ``parts`` as they are shown: each rounded by :func:`fmt` first.

    What a student gets by adding the numbers on screen; rounded to ``decimals`` again
    only to drop the float noise of the addition.

    >>> shown_sum([0.333, 0.333, 0.334], 2), shown_sum([0.125, 0.125], 2)
    (0.99, 0.26)
    """
    return float(round_matrix([float(np.sum(round_matrix(parts, decimals)))], decimals)[0])


def adds_up(parts: ArrayLike, total: float, decimals: int) -> bool:
    """Whether the shown ``total`` equals the sum of the shown ``parts`` at ``decimals``.

    A total for which this is false is shown marked ``≈`` (``Num(..., approx=True)``):
    the exact parts add up to it, their rounded values do not.

    >>> adds_up([1/3, 1/3, 1/3], 1.0, 2), adds_up([0.25, 0.75], 1.0, 2)
    (False, True)
    """
    return fmt(shown_sum(parts, decimals), decimals) == fmt(total, decimals)


def _fewest(ok: Callable[[int], bool], decimals: int, max_decimals: int) -> int:
    """The fewest decimals from ``decimals`` up to ``max_decimals`` for which ``ok`` holds
    (``max_decimals`` when none does)."""
    return next((k for k in range(decimals, max_decimals + 1) if ok(k)), max(decimals, max_decimals))


def exp_operand_decimals(x: ArrayLike, exp_decimals: int, decimals: int, max_decimals: int = 6) -> int:
    """The fewest decimals (at least ``decimals``) to show ``x`` with so that the
    exponential of every number as shown, shown at ``exp_decimals``, is the exponential
    shown: ``fmt(exp(x as shown), exp_decimals) == fmt(exp(x), exp_decimals)``.

    The softmax shows ``3.125 → 22.76``: at two decimals the score would read 3.13, whose
    exponential is 22.87. ``-inf`` (a masked score) needs no decimals. When no precision
    up to ``max_decimals`` is enough, ``max_decimals`` (the exponential is then shown ``≈``).

    >>> exp_operand_decimals([3.125, 0.75], 2, 2)
    3
    """
    arr = np.asarray(x, dtype=np.float64).ravel()
    arr = arr[np.isfinite(arr)]
    want = format_matrix([np.exp(arr)], exp_decimals)[0]
    return _fewest(lambda k: format_matrix([np.exp(round_matrix(arr, k))], exp_decimals)[0] == want,
                   decimals, max_decimals)


def exp_as_shown(x: float, operand_decimals: int, exp_decimals: int) -> bool:
    """Whether ``exp(x)`` shown at ``exp_decimals`` is the exponential of ``x`` as shown
    at ``operand_decimals`` (else the exponential is shown ``≈``)."""
    if not np.isfinite(x):
        return True
    shown = float(round_matrix([x], operand_decimals)[0])
    return fmt(float(np.exp(shown)), exp_decimals) == fmt(float(np.exp(x)), exp_decimals)


def quotient_decimals(parts: ArrayLike, total: float, decimals: int, max_decimals: int = 6) -> int:
    """The fewest decimals (at least ``decimals``) to show ``parts`` and ``total`` with so
    that every shown part divided by the shown total, shown at ``decimals``, is the
    quotient shown: ``fmt(part as shown / total as shown, decimals) == fmt(part / total, decimals)``.

    >>> quotient_decimals([1.0, 2.0], 3.0, 2)
    2
    """
    arr = np.asarray(parts, dtype=np.float64).ravel()
    want = format_matrix([arr / total], decimals)[0]

    def ok(k: int) -> bool:
        shown_total = float(round_matrix([total], k)[0])
        return shown_total != 0 and format_matrix([round_matrix(arr, k) / shown_total], decimals)[0] == want

    return _fewest(ok, decimals, max_decimals)


def quotient_as_shown(x: float, divisor: float, operand_decimals: int, decimals: int) -> bool:
    """Whether ``x / divisor`` shown at ``decimals`` is the quotient of both as shown at
    ``operand_decimals`` (else the quotient is shown ``≈``): a student dividing the shown
    score by the shown √d gets the shown scaled score.

    >>> quotient_as_shown(4.25, 2.0, 2, 1), quotient_as_shown(19.25, 6 ** 0.5, 3, 3)
    (True, False)
    """
    shown_x, shown_div = (float(v) for v in round_matrix([x, divisor], operand_decimals))
    return shown_div != 0 and fmt(shown_x / shown_div, decimals) == fmt(x / divisor, decimals)


def softmax_decimals(scores: ArrayLike, decimals: int, max_decimals: int = 6) -> tuple[int, int]:
    """(decimals of the scores, decimals of their exponentials and of the sum) for a softmax
    row worked on screen, so that each step can be redone from the numbers shown.

    The weights are shown at ``decimals``; the exponentials and their sum get enough
    decimals that each shown exponential divided by the shown sum gives the shown weight
    (:func:`quotient_decimals`), and the scores enough that the exponential of each shown
    score is the shown exponential (:func:`exp_operand_decimals`). ``-inf`` (masked) is allowed.

    >>> softmax_decimals([3.125, 0.0, 4.125, 0.125, 0.75], 2)
    (3, 2)
    """
    x = np.asarray(scores, dtype=np.float64).ravel()
    e = np.exp(x)
    exp_dec = quotient_decimals(e, float(e.sum()), decimals, max_decimals)
    return exp_operand_decimals(x, exp_dec, decimals, max_decimals), exp_dec


#: A worked softmax row (video and workbook) shows its scores and exponentials with at
#: most this many decimals more than the lesson's; past it an exponential is marked ``≈``.
WORKED_EXTRA_DECIMALS = 1


def worked_softmax_decimals(scores: ArrayLike, decimals: int) -> tuple[int, int]:
    """:func:`softmax_decimals` of a worked row as the video and the workbook show it: at
    most :data:`WORKED_EXTRA_DECIMALS` more than the lesson's ``decimals``.

    >>> worked_softmax_decimals([3.125, 0.0, 4.125, 0.125, 0.75], 2)
    (3, 2)
    """
    return softmax_decimals(scores, decimals, decimals + WORKED_EXTRA_DECIMALS)


def product_decimals(factor_decimals: int, decimals: int) -> int:
    """The decimals of a product of two numbers shown with ``factor_decimals``: all of its
    digits (twice as many), and never fewer than the lesson's ``decimals``.

    >>> product_decimals(1, 1)
    2
    """
    return max(decimals, 2 * factor_decimals)


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
