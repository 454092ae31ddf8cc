"""Colours by role, fonts, sizes and timings: the only place a scene's look is decided.

Scene files never hold a colour literal or a font size of their own; they name a role
(``ROLE["query"]``, ``SIZE["cell"]``) so the whole lecture changes in one place and a
lesson's ``[theme]`` table can override a role's colour. The colours themselves are
:mod:`attnstage.palette`'s, the one palette the workbook and the pages read too; this module
adds what needs Manim (the heat ramp's colours).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from manim import ManimColor, interpolate_color

from attnstage.palette import (
    DIM_PALETTE,
    HEAD_PALETTE,
    LIGHT_DIM_PALETTE,
    LIGHT_HEAD_PALETTE,
    LIGHT_ROLE,
    ROLE,
    STYLES,
    Colours,
)

from .palette_checks import AA_TEXT, close_pairs, contrast_ratio

if TYPE_CHECKING:
    from attncore import Lesson

__all__ = [
    "FONT",
    "MONO",
    "MATH_FONT",
    "ROLE",
    "SIZE",
    "TIME",
    "LAG",
    "STROKE",
    "DIM_PALETTE",
    "HEAD_PALETTE",
    "Theme",
    "heat_colour",
    "LIGHT_ROLE",
    "LIGHT_DIM_PALETTE",
    "LIGHT_HEAD_PALETTE",
    "STYLES",
    "activate",
    "active_theme",
    "must_differ",
    "lesson_colour_warnings",
]

# Fonts shipped by Debian's fonts-dejavu-core (installed by .ci/setup): nothing is
# downloaded at run time and the glyphs ᵀ, √, ·, −, Σ all exist in them.
FONT = "DejaVu Sans"
MONO = "DejaVu Sans Mono"
#: Formulas are typeset by Typst in this OpenType maths font of the same family
#: (Debian's fonts-dejavu-extra, also installed by .ci/setup): see scenes.components.typeset.
MATH_FONT = "DejaVu Math TeX Gyre"

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


class Theme(Colours):
    """The role colours of one lesson (:class:`attnstage.palette.Colours`), with the heat ramp's
    colours as Manim draws them.

    ``style`` is "dark" or "light"; None takes the style of the scene being built
    (:func:`activate`), so that a component making a theme of its own draws in the same style.
    """

    def __init__(self, overrides: Iterable[tuple[str, str]] = (), dimensions: Iterable[str] = (),
                 style: str | None = None) -> None:
        super().__init__(overrides, dimensions, style if style is not None else _ACTIVE[0].style)

    def heat(self, t: float) -> ManimColor:
        return heat_colour(t, self.colours["heat_low"], self.colours["heat_high"])

    def heat_ink(self, t: float) -> str:
        """The colour of text on a heat-coloured cell or box of weight ``t``: of the text and
        background colours, the one of the higher WCAG contrast against the cell.

        On the middle of a ramp from dark to bright neither may reach 4.5:1 (the dark
        style's text and background meet at 3.8:1 there): the number then takes black or
        white, whichever contrasts more (at least 4.58:1 on any colour).
        """
        cell = self.heat(t).to_hex()
        inks = sorted((self.colours["text"], self.colours["background"]), key=lambda c: -contrast_ratio(c, cell))
        if contrast_ratio(inks[0], cell) >= AA_TEXT:
            return inks[0]
        return max(("#000000", "#ffffff"), key=lambda c: contrast_ratio(c, cell))


#: The theme of the scene being built (one per process: Manim builds one scene at a time).
_ACTIVE: list[Theme] = []


def activate(theme: Theme) -> None:
    """Make ``theme`` the one components use when not given colours (called by every scene)."""
    _ACTIVE[:] = [theme]


def active_theme() -> Theme:
    """The theme of the scene being built (the dark default before any)."""
    return _ACTIVE[0]


def heat_colour(t: float, low: str = ROLE["heat_low"], high: str = ROLE["heat_high"]) -> ManimColor:
    """Colour for a weight ``t`` in [0, 1]; a square-root ramp so small weights still show."""
    t = min(1.0, max(0.0, float(t)))
    return interpolate_color(ManimColor(low), ManimColor(high), t**0.5)


_ACTIVE.append(Theme(style="dark"))


def must_differ(theme: Theme, dimensions: Sequence[str], heads: int,
                leans: Sequence[str | None] = ()) -> dict[str, dict[str, str]]:
    """The groups of colours a viewer must tell apart, by group: the lesson's dimensions,
    query/key/value, the contexts (by the dimension each leans to) and the heads."""
    groups = {
        "dimensions": {d: theme.dim(d) for d in dimensions},
        "query/key/value": {r: theme[r] for r in ("query", "key", "value")},
        "heads": {f"head{k + 1}": theme.head(k) for k in range(heads)},
    }
    named = [d for d in leans if d is not None]
    if len(named) == len(leans) and len(set(named)) > 1:
        groups["contexts"] = {d: theme.dim(d) for d in dict.fromkeys(named)}
    return groups


#: Roles whose colour is never text (grounds, lines and the heat ramp, which adapts its ink).
NOT_TEXT = ("background", "panel", "grid", "heat_low", "heat_high")


def lesson_colour_warnings(lesson: Lesson) -> list[str]:
    """One line per colour of the lesson's own ``[theme]`` that breaks a rule, in the style
    the lesson asks for (dark unless it says): a text colour under 4.5:1 on the background
    or the panel, or a pair that simulated colour-blind viewers could not tell apart."""
    own = {role for role, _ in lesson.theme}
    out: list[str] = []
    for style in (lesson.style or "dark",):
        theme = Theme(lesson.theme, lesson.dimensions, style)
        for role in sorted(own - set(NOT_TEXT)):
            worst = min(contrast_ratio(theme[role], theme[g]) for g in ("background", "panel"))
            if worst < AA_TEXT:
                out.append(
                    f"{lesson.source}: theme.{role}: {theme[role]} has only {worst:.1f}:1 on the {style} "
                    f"background or panel, under 4.5:1; choose a {'lighter' if style == 'dark' else 'darker'} colour"
                )
        groups = must_differ(theme, lesson.dimensions, lesson.heads, [c.leans for c in lesson.contexts])
        for group, colours in groups.items():
            if group == "contexts":
                continue  # the same colours as their dimensions
            for p in close_pairs(group, colours):
                if {p.first, p.second} & own:
                    out.append(f"{lesson.source}: theme: {p} in the {style} style; choose colours that differ "
                               "in lightness as well as hue")
    return out
