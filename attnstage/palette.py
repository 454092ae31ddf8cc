"""The lecture's colours by role, for each style: the one palette the scenes, the workbook and
the pages read (no manim: the scenes turn these ``#rrggbb`` strings into Manim colours).

A style is a table of role colours, a palette for dimensions without a role of their own and
one for attention heads; :class:`Colours` is one lesson's picks from them (its ``[theme]``
overriding roles), made the same way wherever they are shown.
"""

from __future__ import annotations

from collections.abc import Iterable

from .settings import DEFAULT_STYLE
from .settings import STYLES as SETTING_STYLES

__all__ = [
    "ROLE", "DIM_PALETTE", "HEAD_PALETTE", "LIGHT_ROLE", "LIGHT_DIM_PALETTE", "LIGHT_HEAD_PALETTE", "STYLES",
    "DEFAULT_STYLE", "Colours",
]

#: Colours by role, on the dark background (the default style). Every text colour meets
#: WCAG 2.1's 4.5:1 on the background and on the panel, and the pairs that must be told
#: apart stay apart under simulated colour-vision deficiencies (:mod:`scenes.palette_checks`,
#: tests/test_theme.py).
ROLE: dict[str, str] = {
    "background": "#14161c",
    "text": "#ece8e1",
    "muted": "#8d93a1",
    "panel": "#20232c",
    "grid": "#6a7080",  # lines that carry meaning: 3:1 on the background and the panel (WCAG 1.4.11)
    "accent": "#f2c14e",  # the cell or term being worked on now
    "query": "#f2a65a",
    "key": "#5ab1f2",
    "value": "#a8e6cf",  # mint, not green: green and the query's orange merge under deuteranopia
    "output": "#e5e5e5",
    "weight": "#c792ea",
    "animal": "#f08a5d",
    "tech": "#4fa3e0",
    "grammar": "#a9b4c0",  # a little lighter, "other" a little darker: under deuteranopia the two
    "other": "#a57f9e",  # differed only in a lightness the eye could not see (CIEDE2000 2.4)
    "heat_low": "#1d2733",
    "heat_high": "#f2c14e",
    "positive": "#8bd17c",
    "negative": "#e06c75",
}

#: Colours for dimensions without a role of their own, in order.
DIM_PALETTE = ["#f08a5d", "#4fa3e0", "#a9b4c0", "#a57f9e", "#8bd17c", "#e5c07b", "#56b6c2", "#e06c75"]
#: One colour per attention head (the third and fourth told apart from the first two under
#: every simulated deficiency).
HEAD_PALETTE = ["#56b6c2", "#e5c07b", "#e46585", "#93931a"]

#: The light style, for projectors and print: designed for a light background, not the
#: dark colours inverted. Colours that are text (every role but background, panel, grid
#: and the heat ramp) are dark enough for 4.5:1 on the panel; the senses and query/key/value
#: are told apart by hue *and* lightness, so that they survive protanopia, deuteranopia and
#: tritanopia (checked by tests/test_theme.py).
LIGHT_ROLE: dict[str, str] = {
    "background": "#fbfaf6",
    "text": "#1c1e24",
    "muted": "#5b606b",
    "panel": "#f0eee8",
    "grid": "#7d838e",
    "accent": "#955800",
    "query": "#886113",
    "key": "#1f66b8",
    "value": "#c41c70",
    "output": "#3b3f49",
    "weight": "#7a3da0",
    "animal": "#a3520a",
    "tech": "#2f5fd0",
    "grammar": "#575d66",
    "other": "#117654",
    "heat_low": "#f2f0ea",
    "heat_high": "#e0a526",
    "positive": "#276b2b",
    "negative": "#b3261e",
}
LIGHT_DIM_PALETTE = ["#a3520a", "#2f5fd0", "#575d66", "#117654", "#7a3da0", "#6b6b0f", "#0d7575", "#b3261e"]
LIGHT_HEAD_PALETTE = ["#0d7575", "#81640e", "#5353ec", "#c8166f"]

#: The styles by name: (role colours, dimension palette, head palette).
STYLES: dict[str, tuple[dict[str, str], list[str], list[str]]] = {
    "dark": (ROLE, DIM_PALETTE, HEAD_PALETTE),
    "light": (LIGHT_ROLE, LIGHT_DIM_PALETTE, LIGHT_HEAD_PALETTE),
}

assert tuple(STYLES) == SETTING_STYLES, "a style of the settings without its colours, or colours without a style"


class Colours:
    """The role colours of one lesson: the style's colours plus the lesson's ``[theme]`` overrides,
    a colour for each named dimension and for each head (``style``: "dark" or "light")."""

    def __init__(self, overrides: Iterable[tuple[str, str]] = (), dimensions: Iterable[str] = (),
                 style: str = DEFAULT_STYLE) -> None:
        self.style = style
        roles, self.dim_palette, self.head_palette = STYLES[style]
        self.colours = dict(roles)
        self.colours.update(dict(overrides))
        self.dimensions = list(dimensions)

    def __getitem__(self, role: str) -> str:
        return self.colours[role]

    def dim(self, name: str) -> str:
        """Colour of a named dimension: its role colour if it has one, else the palette."""
        if name in self.colours:
            return self.colours[name]
        i = self.dimensions.index(name) if name in self.dimensions else 0
        return self.dim_palette[i % len(self.dim_palette)]

    def head(self, i: int) -> str:
        """Colour of head ``i`` (from 0): the lesson's ``head{i + 1}`` role, else the palette."""
        return self.colours.get(f"head{i + 1}", self.head_palette[i % len(self.head_palette)])
