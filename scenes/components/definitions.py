"""Formulas as they are published, whose digits are part of the definition.

PE(p, 2i) = sin(p / 10000^(2i/d)): the 2 and the 10000 are constants of the
sinusoidal encoding (Vaswani et al., 2017), the same for every lesson, not numbers the
lesson computed. A :class:`Definition` says so, so that the test that every digit on
screen comes from attncore can tell it from a typed-in value.
"""

from __future__ import annotations

from ..theme import Theme
from .typeset import Formula

__all__ = ["Definition", "POSITIONAL_ENCODING"]

#: The sinusoidal encoding, as attncore.steps.sinusoidal_encoding computes it (positions
#: from 0), in Typst maths: one line each, aligned on "=".
#: (A slash, not a fraction: as a fraction the exponent 2i/d is too small to read at 480p.)
POSITIONAL_ENCODING = (r'"PE"_(p, 2i) &= sin(p \/ 10000^(2i \/ d))', r'"PE"_(p, 2i+1) &= cos(p \/ 10000^(2i \/ d))')


class Definition(Formula):
    """Lines of a published formula (``.lines``, Typst maths), typeset one under the other."""

    def __init__(self, lines: tuple[str, ...], theme: Theme, *, size: str = "label") -> None:
        self.lines = lines
        super().__init__(" \\ ".join(lines), theme, size=size)
