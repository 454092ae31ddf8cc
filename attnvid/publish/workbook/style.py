"""The video's look in a spreadsheet: role colours, number formats, heat maps.

Colours come from :mod:`attnstage.palette`, the one palette the scenes read too (without
manim: writing a workbook must not load it); a lesson's ``[theme]`` table overrides roles
as it does in the video, and a dimension or a head takes the colour the video gives it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TypeVar, cast

from openpyxl.formatting.rule import ColorScaleRule
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side

from attnstage.palette import DEFAULT_STYLE, Colours

__all__ = ["Palette", "number_format"]

_S = TypeVar("_S")
#: The workbook's default font (openpyxl's, and Excel's): styled cells use it too. LibreOffice
#: draws it with the metric-compatible Carlito where installed.
FONT = "Calibri"


def _argb(colour: str) -> str:
    """``#rrggbb`` as openpyxl's ``FFRRGGBB``."""
    return "FF" + colour.lstrip("#").upper()


def _mix(a: str, b: str, t: float) -> str:
    """The colour ``t`` of the way from ``a`` to ``b`` (both ``#rrggbb``)."""
    ca = [int(a.lstrip("#")[k:k + 2], 16) for k in (0, 2, 4)]
    cb = [int(b.lstrip("#")[k:k + 2], 16) for k in (0, 2, 4)]
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(ca, cb))


def number_format(decimals: int) -> str:
    """The lesson's decimals as a number format: ``0.00`` for 2, ``0`` for 0."""
    return "0" if decimals <= 0 else "0." + "0" * decimals


@dataclass
class Palette:
    """The role colours of one lesson (theme defaults plus its ``[theme]``) as cell styles."""

    overrides: Iterable[tuple[str, str]] = ()
    dimensions: tuple[str, ...] = ()
    style: str = DEFAULT_STYLE  # the video's style (``--theme``, ``[theme] style``): its colours, dark or light
    colours: dict[str, str] = field(init=False)
    dim_palette: list[str] = field(init=False)
    head_palette: list[str] = field(init=False)
    picks: Colours = field(init=False)
    _made: dict[tuple[object, ...], object] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.picks = Colours(self.overrides, self.dimensions, self.style)
        self.colours = self.picks.colours
        self.dim_palette = list(self.picks.dim_palette)
        self.head_palette = list(self.picks.head_palette)

    def __getitem__(self, role: str) -> str:
        return self.colours[role]

    def dim(self, name: str) -> str:
        """A named dimension's colour: its role colour if it has one, else the palette (as the video)."""
        return self.picks.dim(name)

    def head(self, i: int) -> str:
        return self.picks.head(i)

    # Cell styles: one object per distinct style, so that cells can share it (see grid.Sheet.put)
    def _memo(self, key: tuple[object, ...], make: Callable[[], _S]) -> _S:
        if key not in self._made:
            self._made[key] = make()
        return cast(_S, self._made[key])

    def fill(self, colour: str) -> PatternFill:
        return self._memo(
            ("fill", colour), lambda: PatternFill("solid", start_color=_argb(colour), end_color=_argb(colour))
        )

    def font(self, colour: str = "text", *, bold: bool = False, italic: bool = False, size: float = 11) -> Font:
        """A font in role ``colour`` (or a ``#rrggbb``); the sheet is light, so "ink" is the dark background colour."""
        value = colour if colour.startswith("#") else self.colours[colour]
        return self._memo(("font", value, bold, italic, size),
                          lambda: Font(name=FONT, color=_argb(value), bold=bold, italic=italic, size=size))

    def ink(self, *, bold: bool = False, italic: bool = False, size: float = 11) -> Font:
        """Dark text: the video's background colour, on the light sheet."""
        return self.font("background", bold=bold, italic=italic, size=size)

    def border(self) -> Border:
        side = Side(style="thin", color=_argb(self.colours["muted"]))
        return self._memo(("border",), lambda: Border(left=side, right=side, top=side, bottom=side))

    def align(self, horizontal: str | None = None, vertical: str | None = None, wrap: bool = False) -> Alignment:
        return self._memo(("align", horizontal, vertical, wrap),
                          lambda: Alignment(horizontal=horizontal, vertical=vertical, wrap_text=wrap))

    def centre(self) -> Alignment:
        return self.align("center", "center")

    def heat_scale(self) -> ColorScaleRule:
        """Attention weights 0 → 1 from the light text colour to the heat colour.

        The video's ramp is a square root (small weights still show); three stops, the
        middle at a weight of 0.25 half-way along the ramp, follow it closely enough.
        """
        low, high = self.colours["text"], self.colours["heat_high"]
        return ColorScaleRule(
            start_type="num", start_value=0, start_color=_argb(low),
            mid_type="num", mid_value=0.25, mid_color=_argb(_mix(low, high, 0.5)),
            end_type="num", end_value=1, end_color=_argb(high),
        )
