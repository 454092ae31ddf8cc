"""The lecture's own reader of Pango's SVG (scenes.components.pango_svg) gives the very glyphs
Manim's svgelements reader gives: every attribute of every glyph equal (points bit for bit,
colours, widths, order), for texts of every kind the lecture makes, in both styles, and in
every language's script; what it does not know it leaves to Manim."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from manim import MarkupText, Mobject, Text

from attnstage.settings import env_name
from scenes.components import pango_svg
from scenes.theme import FONT, MONO, SIZE

#: Attributes that name the reader, not what it read: the parsed path Manim keeps (the lecture
#: drops it, scenes.components.text._SVG_LEFTOVERS) and the dictionary of the SVG's groups; and
#: what the lecture's reader keeps besides, the baseline of a right-to-left text (pango_svg.baseline_share).
_READER = {"path_obj", "id_to_vgroup_dict", "submobjects", "name", "baseline_share"}

TEXTS = [
    "softmax row", "0.56", "<0.01", "−0.25", "q·k / √2", "“mouse” attends to “cat”: 0.42",
    "Aufmerksamkeitsgewichtsverteilung", "Straßenbahn, Ähre, Öl", "ratón · teclado · ¿qué?", "clé, ça, œuvre",
    "注意力权重", "老鼠 和 键盘", "x₁ W_Q Xᵀ d_k", "two\nlines", "  spaced   words  ", "\ttab", "0,25 ; 1,00",
    "A", ".", "ﬁ fl ffi",  # a ligature
]
MARKUPS = ["W<sub>Q</sub> and d<sub>v</sub>", "x<sup>T</sup>", "<b>bold</b> and <i>slanted</i>",
           "<span foreground='#ff8800'>orange</span> and white", "<span font_family='DejaVu Sans Mono'>mono</span> 0.5",
           # right to left (Manim's Text lays these out off its surface: scenes.components.text.LightText)
           "עכבר חתול", "القط <b>يطارد</b> الفأرة 2024"]
STYLES = [dict(font=FONT, font_size=SIZE["label"]), dict(font=MONO, font_size=SIZE["small"], color="#1d1d1d"),
          dict(font=FONT, font_size=48, weight="BOLD", color="#ffcc00")]


class _Fast(pango_svg.FastPangoSVG, Text):
    pass


class _FastMarkup(pango_svg.FastPangoSVG, MarkupText):
    pass


def assert_same(a: Any, b: Any, where: str, ignore: frozenset[str] | set[str] = _READER) -> None:
    """``a`` and ``b`` hold equal attributes (but ``ignore``), arrays and mobjects among them
    compared whole, and so do their submobjects, one by one."""
    da, db = vars(a), vars(b)
    assert set(da) - ignore == set(db) - ignore, (where, set(da) ^ set(db))
    for key in set(da) - ignore - {"submobjects"}:
        x, y = da[key], db[key]
        if isinstance(x, np.ndarray):
            assert x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y), (where, key)
        elif isinstance(x, Mobject):
            assert_same(x, y, f"{where}.{key}", ignore)
        elif key != "updaters":
            assert x == y, (where, key, x, y)
    assert len(a.submobjects) == len(b.submobjects), where
    for i, (x, y) in enumerate(zip(a.submobjects, b.submobjects, strict=True)):
        assert_same(x, y, f"{where}[{i}]", ignore)


@pytest.fixture()
def counted(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[bool]:
    """Whether each SVG was read by the lecture's reader (True) or left to Manim (False)."""
    monkeypatch.setenv(env_name("text_cache"), str(tmp_path / "parsed"))
    seen: list[bool] = []
    read = pango_svg.glyph_mobjects

    def counting(path: Path, config: dict[str, Any]) -> Any:
        glyphs = read(path, config)
        seen.append(glyphs is not None)
        return glyphs

    monkeypatch.setattr(pango_svg, "glyph_mobjects", counting)
    return seen


@pytest.mark.parametrize("style", range(len(STYLES)))
def test_the_glyphs_are_manims(style: int, counted: list[bool]) -> None:
    kwargs = STYLES[style]
    for text in TEXTS:
        assert_same(Text(text, **kwargs), _Fast(text, **kwargs), repr(text))
    for markup in MARKUPS:
        assert_same(MarkupText(markup, **kwargs), _FastMarkup(markup, **kwargs), repr(markup))
    assert counted == [True] * len(TEXTS + MARKUPS), "every one of these is Pango's narrow shape"


def test_what_it_does_not_know_goes_to_manim(counted: list[bool], tmp_path: Path) -> None:
    """An underline (a rectangle, not a glyph) and a translucent span are Manim's to read;
    so is an SVG with a relative command or a transform (written here by hand)."""
    for markup in ["<u>under</u>", "<span alpha='50%'>half</span>"]:
        assert_same(MarkupText(markup, font=FONT), _FastMarkup(markup, font=FONT), markup)
    assert counted == [False, False]
    head = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><defs><g>'
            '<symbol overflow="visible" id="g0"><path style="stroke:none;" d="{d}"/></symbol></g></defs>'
            '<g id="surface1"><g style="fill:rgb(100%,100%,100%);fill-opacity:1;">'
            '<use xlink:href="#g0" x="1" y="2"{extra}/></g></g></svg>')
    config = {"should_subdivide_sharp_curves": False, "should_remove_null_curves": False}
    cases = {"good": ("M 0 0 L 1 0 L 1 1 Z", ""), "relative": ("M 0 0 l 1 0 Z", ""),
             "transform": ("M 0 0 L 1 0 Z", ' transform="scale(2)"'), "implicit line": ("M 0 0 1 0 Z", ""),
             "no move": ("L 1 0 Z", "")}
    read = {}
    for name, (d, extra) in cases.items():
        path = tmp_path / f"{name.replace(' ', '_')}.svg"
        path.write_text(head.format(d=d, extra=extra), encoding="utf-8")
        read[name] = pango_svg.glyph_mobjects(path, config)
    assert read["good"] is not None and len(read["good"]) == 1
    # the square's points: M (1,2), lines to (2,2) and (2,3), and the closing line back
    assert np.array_equal(read["good"][0].points[::4, :2], [[1, 2], [2, 2], [2, 3]])
    assert [name for name, glyphs in read.items() if glyphs is None] == ["relative", "transform", "implicit line",
                                                                         "no move"]
