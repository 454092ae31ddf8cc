"""Formulas as they are published, whose digits are part of the definition.

``PE[p, 2i] = sin(p / 10000^(2i/d))``: the 2 and the 10000 are constants of the
sinusoidal encoding (Vaswani et al., 2017), the same for every lesson, not numbers the
lesson computed. A :class:`Definition` says so, so that the test that every digit on
screen comes from attncore can tell it from a typed-in value.
"""

from __future__ import annotations

from ..theme import FONT, SIZE, Theme
from .text import LightText

__all__ = ["Definition", "POSITIONAL_ENCODING"]

#: The sinusoidal encoding, as attncore.steps.sinusoidal_encoding computes it (positions from 0).
POSITIONAL_ENCODING = ("PE[p, 2i] = sin(p / 10000^(2i/d))", "PE[p, 2i+1] = cos(p / 10000^(2i/d))")


class Definition(LightText):
    """Lines of a published formula (``.lines``), in the formula colour, one under the other."""

    def __init__(self, lines: tuple[str, ...], theme: Theme, *, size: str = "label") -> None:
        self.lines = lines
        super().__init__("\n".join(lines), font=FONT, font_size=SIZE[size], color=theme["text"], line_spacing=0.9)
