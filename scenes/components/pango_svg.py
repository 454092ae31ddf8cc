"""Pango's SVG of a text read straight into Manim's glyphs, each glyph's outline parsed once.

Manim reads a text's SVG with svgelements, which parses a glyph's outline again at every use
of the glyph, resolves the style sheet of every element and makes a group for every element;
then Manim turns each segment into points one at a time. That was about 0.1 s a text and a
third of the test suite's CPU, and the largest part of a preview's wait after a lesson edit.

Written here because Pango's SVG (cairo's SVG surface) is one narrow shape: glyph outlines as
``<symbol>`` paths of absolute ``M``, ``L``, ``C`` and ``Z`` commands in ``<defs>``, and
``<use>`` elements placing them, grouped under a fill colour. For that shape
:func:`glyph_mobjects` gives Manim's glyphs with the very same points, colours and order,
computed with the same floating-point operations in the same order (a glyph's coordinates are
translated by the use's offset, then a line's control points are taken a third and two thirds
along it, as Manim's ``VMobjectFromSVGPath`` does). Anything else in the file (another element,
a transform, a relative command, an opacity) returns None and Manim parses it as before.
``tests/test_pango_svg.py`` compares both readers attribute by attribute on texts of every kind
the lecture makes (each script, markup, both styles, ligatures, tabs, several lines); all 2,265
texts of the lecture built for three lessons (English dark, Chinese, German light) were found
equal the same way when this was written.
"""

from __future__ import annotations

import re
import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, cast

import numpy as np
import svgelements as se
from manim import RIGHT
from manim.mobject.svg.svg_mobject import VMobjectFromSVGPath

from .copying import deepcopy_mobject

__all__ = ["glyph_mobjects", "baseline_share", "FastPangoSVG"]

_SVG = "{http://www.w3.org/2000/svg}"
_HREF = "{http://www.w3.org/1999/xlink}href"
#: Manim's test for a subpath that ends where it began (``VMobjectFromSVGPath.handle_commands``).
_CLOSED = 0.0001
_TOKEN = re.compile(r"\s*([MLCZ])|\s*([-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)")
_ARITY = {"M": 1, "L": 1, "C": 3, "Z": 0}


class _Outline:
    """A glyph's outline parsed once: its coordinates, and for each cubic Bézier curve Manim
    makes of it the indices of its start, two controls and end (-1: a line's control, taken
    along the line); ``closing`` marks the lines a ``Z`` adds only if the subpath is open."""

    __slots__ = ("coords", "start", "c1", "c2", "end", "closing")

    def __init__(self, coords: list[tuple[float, float]], curves: list[tuple[int, int, int, int, bool]]) -> None:
        self.coords = np.array(coords, dtype=np.float64).reshape(-1, 2)
        table = np.array([c[:4] for c in curves], dtype=np.intp).reshape(-1, 4)
        self.start, self.c1, self.c2, self.end = table.T
        self.closing = np.array([c[4] for c in curves], dtype=bool)


def _commands(d: str) -> list[tuple[str, list[float]]] | None:
    """``d`` as (command, numbers) pairs, or None if it holds anything but absolute M, L, C, Z."""
    out: list[tuple[str, list[float]]] = []
    pos, end = 0, len(d.rstrip())
    while pos < end:
        m = _TOKEN.match(d, pos)
        if m is None or m.group(1) is None:
            return None
        numbers: list[float] = []
        pos = m.end()
        while len(numbers) < 2 * _ARITY[m.group(1)]:
            n = _TOKEN.match(d, pos)
            if n is None or n.group(2) is None:
                return None
            numbers.append(float(n.group(2)))
            pos = n.end()
        out.append((m.group(1), numbers))
    return out


def _outline(d: str) -> _Outline | None:
    """The outline of path data ``d``, in Manim's order; None outside the narrow shape."""
    commands = _commands(d)
    if commands is None:
        return None
    coords: list[tuple[float, float]] = []
    curves: list[tuple[int, int, int, int, bool]] = []
    pen = moved = -1  # indices of the last point drawn to and of the subpath's start
    for cmd, numbers in commands:
        if cmd != "M" and moved < 0:
            return None  # a subpath that does not begin with a move
        if cmd == "Z":
            curves.append((pen, -1, -1, moved, True))
            moved = -1
            continue
        first = len(coords)
        coords.extend(zip(numbers[::2], numbers[1::2]))
        if cmd == "M":
            moved = first
        elif cmd == "L":
            curves.append((pen, -1, -1, first, False))
        else:
            curves.append((pen, first, first + 1, first + 2, False))
        pen = len(coords) - 1
    return _Outline(coords, curves)


_OUTLINES: dict[str, _Outline | None] = {}
_OUTLINES_MAX = 50_000


def _outline_of(d: str) -> _Outline | None:
    if d not in _OUTLINES:
        if len(_OUTLINES) >= _OUTLINES_MAX:
            _OUTLINES.clear()
        _OUTLINES[d] = _outline(d)
    return _OUTLINES[d]


def _points(outline: _Outline, x: float, y: float) -> np.ndarray:
    """The glyph's points placed at (x, y), as Manim computes them (see the module's note)."""
    placed = np.zeros((len(outline.coords), 3))
    placed[:, 0] = outline.coords[:, 0] + x
    placed[:, 1] = outline.coords[:, 1] + y
    start, end = placed[outline.start], placed[outline.end]
    line = outline.c1 < 0
    c1 = np.where(line[:, None], (start + start + end) / 3, placed[outline.c1])
    c2 = np.where(line[:, None], (start + end + end) / 3, placed[outline.c2])
    keep = ~outline.closing
    if outline.closing.any():
        gap = np.linalg.norm(start[outline.closing] - end[outline.closing], axis=1)
        keep[outline.closing] = gap > _CLOSED
    points: np.ndarray = np.stack([start, c1, c2, end], axis=1)[keep].reshape(-1, 3)
    return points


class _NoPath(list):  # type: ignore[type-arg]
    """The parsed path ``VMobjectFromSVGPath`` expects: empty (the points are set after)."""

    def approximate_arcs_with_quads(self) -> None:
        return None


_FILLS: dict[str, str | None] = {}


def _fill(style: str) -> str | None:
    """The hexadecimal fill colour of a Pango group's style, as svgelements reads it; None
    unless the style is exactly an opaque fill."""
    if style not in _FILLS:
        m = re.fullmatch(r"fill:(rgb\([0-9.%,]+\));fill-opacity:1;", style)
        _FILLS[style] = se.Color(m.group(1)).hexrgb if m else None
    return _FILLS[style]


def _placed_glyphs(root: ET.Element) -> list[tuple[str, str, float, float]] | None:
    """(outline data, fill, x, y) of every use in document order; None outside the shape."""
    defs, surface = list(root)[:1], list(root)[1:]
    outlines: dict[str, str] = {}
    for group in (defs[0] if defs and defs[0].tag == _SVG + "defs" else []):
        for symbol in group:
            paths = list(symbol)
            if (group.tag != _SVG + "g" or symbol.tag != _SVG + "symbol" or len(paths) != 1
                    or paths[0].tag != _SVG + "path" or paths[0].get("style") != "stroke:none;"
                    or set(paths[0].attrib) != {"style", "d"}):
                return None
            outlines["#" + symbol.get("id", "")] = paths[0].get("d", "")
    if not defs or len(surface) != 1 or surface[0].tag != _SVG + "g" or set(surface[0].attrib) != {"id"}:
        return None
    placed = []
    for group in surface[0]:
        fill = _fill(group.get("style", ""))
        if group.tag != _SVG + "g" or set(group.attrib) != {"style"} or fill is None:
            return None
        for use in group:
            d = outlines.get(use.get(_HREF, ""))
            if use.tag != _SVG + "use" or set(use.attrib) != {_HREF, "x", "y"} or d is None:
                return None
            placed.append((d, fill, float(use.get("x", "")), float(use.get("y", ""))))
    return placed


def glyph_mobjects(path: Path, path_config: dict[str, Any]) -> list[VMobjectFromSVGPath] | None:
    """Manim's glyphs of the Pango SVG at ``path`` (what ``SVGMobject.get_mobjects_from``
    gives for it), or None when the file is not of the narrow shape this reads."""
    try:
        placed = _placed_glyphs(ET.parse(path).getroot())
    except (OSError, ET.ParseError, ValueError):
        return None
    if placed is None:
        return None
    mobjects = []
    for d, fill, x, y in placed:
        outline = _outline_of(d)
        if outline is None:
            return None
        if not len(outline.start):
            continue  # a space: Manim leaves out a glyph without points
        points = _points(outline, x, y)
        if len(points):
            mob = _glyph(fill, path_config)
            mob.points = points
            mobjects.append(mob)
    return mobjects


_GLYPHS: dict[tuple[str, tuple[tuple[str, Any], ...]], VMobjectFromSVGPath] = {}


def _glyph(fill: str, path_config: dict[str, Any]) -> VMobjectFromSVGPath:
    """A glyph without points, styled as ``SVGMobject.apply_style_to_mobject`` styles it: a
    copy of the first one made, as making one (colours set five times) costs seven copies."""
    key = (fill, tuple(sorted(path_config.items())))
    made = _GLYPHS.get(key)
    if made is None:
        made = VMobjectFromSVGPath(_NoPath(), **path_config)
        made.set_style(stroke_width=0, stroke_color=None, stroke_opacity=None, fill_color=fill, fill_opacity=1.0)
        _GLYPHS[key] = made
    mob = cast(VMobjectFromSVGPath, deepcopy_mobject(made, {}))
    del mob.__dict__["original_id"]  # a copy's mark: a glyph made anew has none
    return mob


_FIRST_USE_Y = re.compile(r'<use [^>]*\by="([-+0-9.eE]+)"')


def baseline_share(path: Path, glyphs: list[VMobjectFromSVGPath]) -> float | None:
    """Where the first line's baseline of the Pango SVG at ``path`` sits in the ink of its
    ``glyphs`` (still in the SVG's coordinates, y down): 0 at the bottom, 1 at the top; None
    for a text without ink.

    Pango places every glyph of a line at the line's baseline (a ``<use>``'s ``y``), so this
    is exact in any script; a share survives Manim's scaling and moving of the text.
    """
    points = [g.points for g in glyphs if len(g.points)]
    if not points:
        return None
    try:
        m = _FIRST_USE_Y.search(path.read_text(encoding="utf-8"))
    except OSError:
        return None
    ys = np.concatenate(points)[:, 1]
    top, bottom = float(ys.min()), float(ys.max())
    if m is None or bottom <= top:
        return None
    return (bottom - float(m.group(1))) / (bottom - top)


class FastPangoSVG:
    """Mixin for Manim's ``Text`` and ``MarkupText``: their SVG read by :func:`glyph_mobjects`
    when it can, by Manim otherwise.

    A text holding right-to-left letters keeps :func:`baseline_share` as ``baseline_share``:
    Pango orders its glyphs as they are seen, not as the characters are read (and joins
    Arabic letters), so its characters cannot name its glyphs (``text_baseline``).
    """

    def generate_mobject(self) -> Any:
        path = self.get_file_path()  # type: ignore[attr-defined]
        glyphs = glyph_mobjects(path, self.path_string_config)  # type: ignore[attr-defined]
        if glyphs is None:
            return super().generate_mobject()  # type: ignore[misc]
        if any(unicodedata.bidirectional(c) in ("R", "AL") for c in getattr(self, "text", "")):
            self.baseline_share = baseline_share(Path(path), glyphs)
        self.add(*glyphs)  # type: ignore[attr-defined]
        self.id_to_vgroup_dict: dict[str, Any] = {}
        self.flip(RIGHT)  # type: ignore[attr-defined]
        return self
