"""Which characters the installed fonts can draw, asked of fontconfig once per process.

A lesson's word in a script no installed font covers (Devanagari, Thai, most emoji on a
machine with the DejaVu fonts only) would come out of Pango as empty boxes, or as nothing:
it is refused when the lesson is read (:func:`undrawable`), with the word and the fix, before
any frame is drawn. attncore never imports Manim, so it asks fontconfig itself (``fc-list``,
the list Pango's fallback chooses from): every outline font's character set, colour fonts
left out (a colour emoji is a bitmap in Pango's SVG, and the lecture draws outlines only).
Where there is no ``fc-list`` (no fontconfig) nothing is refused: the fonts are unknown.
"""

from __future__ import annotations

import bisect
import functools
import subprocess
import unicodedata

__all__ = ["undrawable", "font_ranges", "describe"]

#: Characters drawn with no glyph of their own: joiners, direction marks, variation selectors.
_INVISIBLE = {"Cc", "Cf", "Zs", "Zl", "Zp"}


@functools.cache
def font_ranges() -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The code points the installed outline fonts cover, as merged ranges (starts, ends:
    sorted, inclusive); None when fontconfig cannot be asked."""
    try:
        out = subprocess.run(["fc-list", ":outline=true:color=false", "--format", "%{charset}\n"],
                             capture_output=True, text=True, timeout=60, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    ranges = sorted((int(a, 16), int(b or a, 16)) for a, _, b in (tok.partition("-") for tok in out.split()))
    starts: list[int] = []
    ends: list[int] = []
    for a, b in ranges:
        if starts and a <= ends[-1] + 1:
            ends[-1] = max(ends[-1], b)
        else:
            starts.append(a)
            ends.append(b)
    return tuple(starts), tuple(ends)


def _covered(c: str, ranges: tuple[tuple[int, ...], tuple[int, ...]]) -> bool:
    starts, ends = ranges
    k = bisect.bisect_right(starts, ord(c)) - 1
    return k >= 0 and ord(c) <= ends[k]


def undrawable(text: str) -> str | None:
    """The first character of ``text`` that no installed font draws, or None (also when the fonts
    cannot be known). ASCII is taken as drawn without asking: any font has it."""
    if text.isascii():
        return None
    ranges = font_ranges()
    if ranges is None:
        return None
    for c in text:
        if c.isascii() or unicodedata.category(c) in _INVISIBLE or 0xFE00 <= ord(c) <= 0xFE0F:
            continue
        if not _covered(c, ranges):
            return c
    return None


def describe(c: str) -> str:
    """``'च' (U+091A DEVANAGARI LETTER CA)``: a character as a message names it."""
    return f"'{c}' (U+{ord(c):04X} {unicodedata.name(c, 'unnamed character')})"
