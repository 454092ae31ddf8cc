"""``scenes.components.shapes.made``: a shape copied from the one made before is the shape made anew."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import test_pango_svg
from manim import RED, ManimColor, Rectangle, RoundedRectangle, interpolate_color

from scenes.components import shapes
from scenes.components.shapes import made
from scenes.theme import Theme

#: A copy's mark, which Manim's ``copy`` leaves and only its hashing reads; a shape made anew has none.
_COPY_MARK = {"original_id"}


def assert_same(a: Any, b: Any, where: str) -> None:
    test_pango_svg.assert_same(a, b, where, ignore=_COPY_MARK)


THEMES = (Theme(style="dark"), Theme(style="light"))


def kinds(theme: Theme) -> list[tuple[type, dict[str, Any]]]:
    """Every kind the scenes make through ``made``: a cell, a heat tile, a bar, a word box, a mask's cover."""
    return [
        (
            Rectangle,
            dict(
                width=0.9,
                height=0.5,
                stroke_color=theme["grid"],
                stroke_width=1.5,
                fill_color=theme["panel"],
                fill_opacity=1.0,
            ),
        ),
        (
            Rectangle,
            dict(
                width=0.4,
                height=0.4,
                stroke_color=theme["grid"],
                stroke_width=1.0,
                fill_color=theme.heat(0.37),
                fill_opacity=0.8,
            ),
        ),
        (
            Rectangle,
            dict(
                width=0.3,
                height=float(np.float64(1.234)),
                stroke_width=0,
                fill_color=theme.dim("animal"),
                fill_opacity=0.95,
            ),
        ),
        (
            RoundedRectangle,
            dict(
                corner_radius=0.08,
                width=1.3,
                height=0.62,
                stroke_color=theme["accent"],
                stroke_width=3,
                fill_color=theme["panel"],
                fill_opacity=1,
            ),
        ),
        (
            Rectangle,
            dict(
                width=0.7,
                height=0.45,
                stroke_color=theme["grid"],
                stroke_width=1.5,
                fill_color=theme["background"],
                fill_opacity=1.0,
            ),
        ),
    ]


@pytest.mark.parametrize("theme", THEMES, ids=["dark", "light"])
def test_a_made_shape_is_the_shape_made_anew(theme: Theme) -> None:
    for cls, kwargs in kinds(theme):
        first, second = made(cls, **kwargs), made(cls, **kwargs)  # the first makes it, the second copies
        for m in (first, second):
            assert type(m) is cls
            assert_same(m, cls(**kwargs), f"{cls.__name__}{kwargs}")


def test_each_made_shape_is_its_own() -> None:
    kwargs = dict(width=1.0, height=0.5, stroke_width=1.5, fill_color="#336699", fill_opacity=1.0)
    a = made(Rectangle, **kwargs)
    a.shift([3, 1, 0]).set_fill(RED).stretch(2, 0)
    b = made(Rectangle, **kwargs)
    assert_same(b, Rectangle(**kwargs), "after changing an earlier copy")
    assert a.points is not b.points and a.fill_rgbas is not b.fill_rgbas


def test_colours_of_one_name_but_other_floats_are_other_shapes() -> None:
    low, high = ManimColor(Theme()["panel"]), ManimColor(Theme()["accent"])
    c1, c2 = interpolate_color(low, high, 0.31), interpolate_color(low, high, 0.31 + 1e-6)
    assert c1.to_hex() == c2.to_hex() and not np.array_equal(c1.to_rgba(), c2.to_rgba())
    a, b = made(Rectangle, width=1.0, fill_color=c1), made(Rectangle, width=1.0, fill_color=c2)
    assert np.array_equal(a.fill_rgbas, Rectangle(width=1.0, fill_color=c1).fill_rgbas)
    assert np.array_equal(b.fill_rgbas, Rectangle(width=1.0, fill_color=c2).fill_rgbas)
    assert not np.array_equal(a.fill_rgbas, b.fill_rgbas)
    # a number's type makes no other shape, but its value does
    assert made(Rectangle, width=1).width == made(Rectangle, width=1.0).width
    assert made(Rectangle, width=1.5).width != made(Rectangle, width=1.0).width


def test_an_argument_without_a_key_is_refused() -> None:
    with pytest.raises(TypeError, match="no key"):
        made(Rectangle, width=1.0, fill_color=object())


def test_the_shapes_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shapes, "_MADE", {})
    monkeypatch.setattr(shapes, "MADE_MAX", 3)
    for k in range(7):
        assert made(Rectangle, width=1.0 + k).width == pytest.approx(1.0 + k)
        assert len(shapes._MADE) <= 3
