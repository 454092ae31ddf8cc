"""Colours by role, fonts, sizes and timings: the only place a scene's look is decided.

Scene files never hold a colour literal or a font size of their own; they name a role
(``ROLE["query"]``, ``SIZE["cell"]``) so the whole lecture changes in one place and a
lesson's ``[theme]`` table can override a role's colour.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from manim import ManimColor, interpolate_color

__all__ = [
    "FONT", "MONO", "MATH_FONT", "ROLE", "SIZE", "TIME", "LAG", "STROKE", "DIM_PALETTE", "HEAD_PALETTE", "Theme", "heat_colour", "DARK_INK_FROM",
    "MAP_DARK_INK_FROM", "on_bright_heat",
]

# Fonts shipped by Debian's fonts-dejavu-core (installed by .ci/setup): nothing is
# downloaded at run time and the glyphs ᵀ, √, ·, −, Σ all exist in them.
FONT = "DejaVu Sans"
MONO = "DejaVu Sans Mono"
#: Formulas are typeset by Typst in this OpenType maths font of the same family
#: (Debian's fonts-dejavu-extra, also installed by .ci/setup): see scenes.components.typeset.
MATH_FONT = "DejaVu Math TeX Gyre"

#: Colours by role. Chosen for contrast on the dark background and for colour-blind
#: safety between the pairs that must be told apart (animal/tech, query/key/value).
ROLE: dict[str, str] = {
    "background": "#14161c",
    "text": "#ece8e1",
    "muted": "#8d93a1",
    "panel": "#20232c",
    "grid": "#4a4f5c",
    "accent": "#f2c14e",  # the cell or term being worked on now
    "query": "#f2a65a",
    "key": "#5ab1f2",
    "value": "#8bd17c",
    "output": "#e5e5e5",
    "weight": "#c792ea",
    "animal": "#f08a5d",
    "tech": "#4fa3e0",
    "grammar": "#9aa5b1",
    "other": "#b48ead",
    "heat_low": "#1d2733",
    "heat_high": "#f2c14e",
    "positive": "#8bd17c",
    "negative": "#e06c75",
}

#: Colours for dimensions without a role of their own, in order.
DIM_PALETTE = ["#f08a5d", "#4fa3e0", "#9aa5b1", "#b48ead", "#8bd17c", "#e5c07b", "#56b6c2", "#e06c75"]
#: One colour per attention head.
HEAD_PALETTE = ["#56b6c2", "#e5c07b", "#c678dd", "#98c379"]

#: Font sizes (Manim units of ``font_size``). The smallest, ``small``, still reads at
#: 480p: about 13 px high, checked on rendered frames.
SIZE: dict[str, float] = {
    "title": 34,
    "formula": 30,
    "body": 26,
    "label": 22,
    "cell": 22,
    "small": 20,
    "pipeline": 19,
}


@dataclass(frozen=True)
class Timing:
    """Seconds. ``read_per_number`` is added per new number put on screen, so a slide
    with more numbers is held longer (capped by ``read_max``)."""

    write: float = 1.0
    transform: float = 1.2
    fade: float = 0.6
    read_base: float = 1.2
    read_per_number: float = 0.12
    read_max: float = 4.0
    pause: float = 0.8

    def read(self, n_numbers: int = 0) -> float:
        return min(self.read_max, self.read_base + self.read_per_number * n_numbers)


TIME = Timing()


@dataclass(frozen=True)
class Lags:
    """``lag_ratio`` of a ``LaggedStart``: the share of one item's animation that has run
    when the next item starts. Small: a group arrives nearly together; large: one by one."""

    trickle: float = 0.05  # many small items (the tags of a row), nearly at once
    quick: float = 0.1  # the cells of one row
    item: float = 0.15  # words, rows, bars, one after another
    step: float = 0.2  # items the eye should follow one at a time
    slow: float = 0.3  # whole sentences
    half: float = 0.5  # each item half done before the next starts


LAG = Lags()


@dataclass(frozen=True)
class Strokes:
    """Line widths (Manim's stroke units; its default is 4)."""

    hair: float = 0.8  # the frame of a small picture
    thin: float = 1.5  # panel edges, arcs between words
    rule: float = 2.5  # a sum's rule, an output's outline
    bold: float = 3.5  # the outline of a winner


STROKE = Strokes()


#: The weight from which text on the heat ramp turns dark (the ramp is a square root:
#: about two thirds bright). Used on attention rows and tinted words.
DARK_INK_FROM = 0.45
#: The same for the numbers of a heat map (:func:`~scenes.components.heat_grid`), which
#: turn dark earlier: where the ramp is 0.55 bright (0.55² = 0.3025). Kept apart from
#: DARK_INK_FROM so that no picture changed when the rules were merged.
MAP_DARK_INK_FROM = 0.3025


class Theme:
    """The role colours of one lesson: the defaults plus the lesson's ``[theme]`` overrides."""

    def __init__(self, overrides: Iterable[tuple[str, str]] = (), dimensions: Iterable[str] = ()) -> None:
        self.colours = dict(ROLE)
        self.colours.update(dict(overrides))
        self.dimensions = list(dimensions)

    def __getitem__(self, role: str) -> str:
        return self.colours[role]

    def dim(self, name: str) -> str:
        """Colour of a named dimension: its role colour if it has one, else the palette."""
        if name in self.colours:
            return self.colours[name]
        i = self.dimensions.index(name) if name in self.dimensions else 0
        return DIM_PALETTE[i % len(DIM_PALETTE)]

    def head(self, i: int) -> str:
        return self.colours.get(f"head{i + 1}", HEAD_PALETTE[i % len(HEAD_PALETTE)])

    def heat(self, t: float) -> ManimColor:
        return heat_colour(t, self.colours["heat_low"], self.colours["heat_high"])

    def heat_ink(self, t: float, dark_from: float = DARK_INK_FROM) -> str:
        """The colour of text on a heat-coloured cell or box of weight ``t``.

        The heat ramp ends in the accent yellow, on which the light text colour is hard to
        read: from weight ``dark_from`` on, text takes the background colour instead.
        """
        return self.colours["background"] if on_bright_heat(t, dark_from) else self.colours["text"]


def on_bright_heat(t: float, dark_from: float = DARK_INK_FROM) -> bool:
    """Whether weight ``t`` (clipped to [0, 1]) is at or past ``dark_from`` on the heat ramp."""
    return min(1.0, max(0.0, float(t))) >= dark_from


def heat_colour(t: float, low: str = ROLE["heat_low"], high: str = ROLE["heat_high"]) -> ManimColor:
    """Colour for a weight ``t`` in [0, 1]; a square-root ramp so small weights still show."""
    t = min(1.0, max(0.0, float(t)))
    return interpolate_color(ManimColor(low), ManimColor(high), t**0.5)
