"""Lists of words for captions and narration: "“cat”, “and” and itself", "in the second sentence".

Each is written in the current viewer language (:mod:`attncore.i18n`): the lists and the
quotation marks are the language's own, the sentences whole translated templates.
"""

from __future__ import annotations

from collections.abc import Sequence

from attncore.i18n import N_, _, list_of, pgettext
from attncore.i18n import quoted as quoted_word

__all__ = ["listed", "quoted", "which_sentence", "approx_note", "EXP_ROW_NOTE", "sum_head"]


def listed(items: Sequence[str]) -> str:
    """``a``; ``a and b``; ``a, b and c``; nothing for no items (in the viewer's language).

    >>> listed(["a"]), listed(["a", "b", "c"]), listed([])
    ('a', 'a, b and c', '')
    """
    return list_of(list(items))


def quoted(words: Sequence[str]) -> str:
    """The words in quotation marks, listed: “cat” and “dog”."""
    return listed([quoted_word(w) for w in words])


def which_sentence(c: int, m: int) -> str:
    """Context ``c`` of ``m`` in words: "In the first sentence", ... ("In its sentence" when alone)."""
    if m == 1:
        return _("In its sentence")
    if c == 0:
        return pgettext("sentence", "In the first sentence")
    if c == 1:
        return pgettext("sentence", "In the second sentence")
    if c == 2:
        return pgettext("sentence", "In the third sentence")
    if c == 3:
        return pgettext("sentence", "In the fourth sentence")
    return pgettext("sentence", "In the next sentence")


#: The sentences of :func:`approx_note`, by (what was added up, what is marked) and by the
#: side the rounded parts fall on: whole sentences, so that each language words them its way.
_APPROX_NOTES: dict[tuple[str, str], dict[str, str]] = {
    ("exponentials shown", "the sum is"): {
        "more": N_("Rounded, the exponentials shown add up to a little more than the exact total; "
                   "that is why the sum is marked approximate."),
        "less": N_("Rounded, the exponentials shown add up to a little less than the exact total; "
                   "that is why the sum is marked approximate."),
        "more or less": N_("Rounded, the exponentials shown add up to a little more or less than the exact "
                           "total; that is why the sum is marked approximate."),
    },
    ("weights shown", "the sum is"): {
        "more": N_("Rounded, the weights shown add up to a little more than the exact total; "
                   "that is why the sum is marked approximate."),
        "less": N_("Rounded, the weights shown add up to a little less than the exact total; "
                   "that is why the sum is marked approximate."),
        "more or less": N_("Rounded, the weights shown add up to a little more or less than the exact total; "
                           "that is why the sum is marked approximate."),
    },
    ("weights shown in some rows", "those sums are"): {
        "more": N_("Rounded, the weights shown in some rows add up to a little more than the exact total; "
                   "that is why those sums are marked approximate."),
        "less": N_("Rounded, the weights shown in some rows add up to a little less than the exact total; "
                   "that is why those sums are marked approximate."),
        "more or less": N_("Rounded, the weights shown in some rows add up to a little more or less than the "
                           "exact total; that is why those sums are marked approximate."),
    },
    ("weights shown in one row", "its sum is"): {
        "more": N_("Rounded, the weights shown in one row add up to a little more than the exact total; "
                   "that is why its sum is marked approximate."),
        "less": N_("Rounded, the weights shown in one row add up to a little less than the exact total; "
                   "that is why its sum is marked approximate."),
        "more or less": N_("Rounded, the weights shown in one row add up to a little more or less than the "
                           "exact total; that is why its sum is marked approximate."),
    },
}


def approx_note(what: str, shown_sums: Sequence[float], totals: Sequence[float], marked: str = "the sum is") -> str:
    """The sentence that explains totals marked ``≈``: the rounded parts shown add up to
    ``shown_sums`` (:func:`attncore.shown_sum`), the exact ones to ``totals``.

    ``what`` and ``marked`` name one of the sentences (keys, in English): ``"exponentials
    shown"`` or ``"weights shown"`` with ``"the sum is"``, ``"weights shown in some rows"``
    with ``"those sums are"``, ``"weights shown in one row"`` with ``"its sum is"``.

    Said once in the section that shows the marks; no digit, so that it never names a
    number the screen does not show.

    >>> approx_note("weights shown", [1.02], [1.0])
    'Rounded, the weights shown add up to a little more than the exact total; that is why the sum is marked
    approximate.'
    >>> approx_note("weights shown in some rows", [1.01, 0.99], [1.0, 1.0], "those sums are")
    'Rounded, the weights shown in some rows add up to a little more or less than the exact total; that is why those
    sums are marked approximate.'
    """
    sides = {"more" if s > t else "less" for s, t in zip(shown_sums, totals) if s != t}
    side = " or ".join(x for x in ("more", "less") if x in sides)
    return _(_APPROX_NOTES[what, marked].get(side, _APPROX_NOTES[what, marked]["more or less"]))


#: Said once when a worked row of exponentials is marked ``≈`` (:func:`exp_row_name`);
#: translate it where it is said: ``_(EXP_ROW_NOTE)``.
EXP_ROW_NOTE = N_("The exponentials are marked approximate: they are those of the exact scores, "
                  "not of the rounded scores shown.")


def sum_head(exact: str, approx: bool) -> str:
    """The words before a sum: ``exact`` ("sum =") when the sum is shown exactly, else the
    word alone, so that a sum marked ≈ reads "sum ≈ 1.00", not "sum = ≈ 1.00"."""
    # Translators: before a sum shown with ≈ ("sum ≈ 1.00"): the word for a sum, without "=".
    return pgettext("before a sum marked ≈", "sum") if approx else exact
