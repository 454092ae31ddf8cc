"""Lists of words for captions and narration: "“cat”, “and” and itself", "in the second sentence"."""

from __future__ import annotations

from collections.abc import Sequence

from .text import ORDINALS

__all__ = ["listed", "quoted", "which_sentence"]


def listed(items: Sequence[str]) -> str:
    """``a``; ``a and b``; ``a, b and c``.

    >>> listed(["a"]), listed(["a", "b", "c"])
    ('a', 'a, b and c')
    """
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def quoted(words: Sequence[str]) -> str:
    """The words in quotation marks, listed: “cat” and “dog”."""
    return listed([f"“{w}”" for w in words])


def which_sentence(c: int, m: int) -> str:
    """Context ``c`` of ``m`` in words: "In the first sentence", ... ("In its sentence" when alone)."""
    return "In its sentence" if m == 1 else f"In the {ORDINALS[c] if c < len(ORDINALS) else 'next'} sentence"
