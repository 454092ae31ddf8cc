"""Lists of words for captions and narration: "“cat”, “and” and itself", "in the second sentence"."""

from __future__ import annotations

from collections.abc import Sequence

from .text import ORDINALS

__all__ = ["listed", "quoted", "which_sentence", "approx_note"]


def listed(items: Sequence[str]) -> str:
    """``a``; ``a and b``; ``a, b and c``; nothing for no items.

    >>> listed(["a"]), listed(["a", "b", "c"]), listed([])
    ('a', 'a, b and c', '')
    """
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def quoted(words: Sequence[str]) -> str:
    """The words in quotation marks, listed: “cat” and “dog”."""
    return listed([f"“{w}”" for w in words])


def which_sentence(c: int, m: int) -> str:
    """Context ``c`` of ``m`` in words: "In the first sentence", ... ("In its sentence" when alone)."""
    return "In its sentence" if m == 1 else f"In the {ORDINALS[c] if c < len(ORDINALS) else 'next'} sentence"


def approx_note(what: str, shown_sums: Sequence[float], totals: Sequence[float], marked: str = "the sum is") -> str:
    """The sentence that explains totals marked ``≈``: the rounded parts shown add up to
    ``shown_sums`` (:func:`attncore.shown_sum`), the exact ones to ``totals``.

    Said once in the section that shows the marks; no digit, so that it never names a
    number the screen does not show.

    >>> approx_note("weights shown", [1.02], [1.0])
    'Rounded, the weights shown add up to a little more than the exact total; that is why the sum is marked approximate.'
    >>> approx_note("weights shown in some rows", [1.01, 0.99], [1.0, 1.0], "those sums are")
    'Rounded, the weights shown in some rows add up to a little more or less than the exact total; that is why those sums are marked approximate.'
    """
    sides = {"more" if s > t else "less" for s, t in zip(shown_sums, totals) if s != t}
    side = " or ".join(x for x in ("more", "less") if x in sides)
    return (f"Rounded, the {what} add up to a little {side} than the exact total; "
            f"that is why {marked} marked approximate.")


#: Said once when a worked row of exponentials is marked ``≈`` (:func:`exp_row_name`).
EXP_ROW_NOTE = ("The exponentials are marked approximate: they are those of the exact scores, "
                "not of the rounded scores shown.")
