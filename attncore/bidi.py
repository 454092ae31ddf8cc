"""Which way a text reads: right to left for Hebrew and Arabic letters, as Unicode's bidi rules say.

Pango (frames) and a caption player (WebVTT, SRT) give a paragraph the direction of its first
letter of a strong direction (rule P2). That is right for a lesson's own Arabic title or word,
and wrong for a sentence of the lecture in English that begins by quoting one ("“الفأرة” has one
vector…" would read from the right, its English words in reverse order): :func:`directed` puts
the language's invisible direction mark first in a text holding letters of both directions.
"""

from __future__ import annotations

import functools
import unicodedata

from babel import Locale, UnknownLocaleError

__all__ = ["LRM", "RLM", "right_to_left", "language_right_to_left", "directed", "own", "undirected"]

#: Unicode's invisible marks of a strong direction (left to right, right to left).
LRM, RLM = "\u200e", "\u200f"
_RTL = ("R", "AL")


def right_to_left(text: str) -> bool:
    """Whether ``text`` reads right to left as a paragraph: its first letter of a strong direction
    is Hebrew or Arabic. Digits and punctuation have none.

    >>> right_to_left("2 فأر"), right_to_left("GPT فأر"), right_to_left("")
    (True, False, False)
    """
    for c in text:
        kind = unicodedata.bidirectional(c)
        if kind in _RTL:
            return True
        if kind == "L":
            return False
    return False


@functools.cache
def language_right_to_left(code: str) -> bool:
    """Whether language ``code`` is written right to left (CLDR's, by Babel: ``ar``, ``he``, ``fa``…)."""
    try:
        return bool(Locale.parse(code.replace("-", "_")).text_direction == "rtl")
    except (UnknownLocaleError, ValueError, TypeError):
        return False


def directed(text: str, language: str) -> str:
    """``text`` with the direction of ``language`` marked first when it holds letters of both
    directions; else as it is (a text of one direction reads its own way in any language).

    >>> directed("“فأر” is a word", "en") == LRM + "“فأر” is a word", directed("فأر 2", "en") == "فأر 2"
    (True, True)
    """
    if text.startswith((LRM, RLM)) or not _mixed(text):  # marked already (:func:`own`), or one direction
        return text
    return (RLM if language_right_to_left(language) else LRM) + text


def own(text: str) -> str:
    """``text`` marked with its own direction (its first strong letter's) when it holds letters of
    both directions: a lesson's own text (its title) read its own way whatever the lecture's
    language (:func:`directed` keeps a mark it finds).

    >>> own("فأر: GPT") == RLM + "فأر: GPT", own("mouse") == "mouse"
    (True, True)
    """
    if text.startswith((LRM, RLM)) or not _mixed(text):
        return text
    return (RLM if right_to_left(text) else LRM) + text


def _mixed(text: str) -> bool:
    kinds = {unicodedata.bidirectional(c) for c in text}
    return "L" in kinds and bool(kinds & set(_RTL))


def undirected(text: str) -> str:
    """``text`` without the marks :func:`directed` adds."""
    return text.replace(LRM, "").replace(RLM, "")
