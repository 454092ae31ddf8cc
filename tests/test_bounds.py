"""A mobject's bounding box (scenes.components.bounds) is Manim's own: the points that define it
are the same array, and every width and height the same number, on everything the scenes put on
screen and on the edge cases Manim's code has (no points, one point, a broken path, anchors of
a subclass's own, another reducing function)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest
from conftest import built_scene
from manim import Circle, Dot, Mobject, Square, VGroup, VMobject

from scenes.components import bounds
from scenes.lecture import LECTURE


@contextmanager
def manims_own() -> Iterator[None]:
    VMobject.get_points_defining_boundary = bounds.MANIMS_BOUNDARY  # type: ignore[method-assign]
    Mobject.reduce_across_dimension = bounds.MANIMS_REDUCE  # type: ignore[method-assign]
    try:
        yield
    finally:
        bounds.install()


def measures(mob: Mobject) -> list[object]:
    out: list[object] = []
    for m in mob.get_family():
        out.append(m.get_points_defining_boundary())
        out += [m.reduce_across_dimension(f, d) for f in (min, max) for d in (0, 1, 2)]
    return out


def same(mob: Mobject) -> None:
    ours = measures(mob)
    with manims_own():
        theirs = measures(mob)
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs, strict=True):
        if isinstance(b, np.ndarray):
            assert isinstance(a, np.ndarray) and a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a, b)
        else:
            assert a == b and type(a) is type(b), (a, b)


def test_installed() -> None:
    assert VMobject.get_points_defining_boundary is bounds.get_points_defining_boundary
    assert Mobject.reduce_across_dimension is bounds.reduce_across_dimension


def test_the_edge_cases_are_manims() -> None:
    one = VMobject()
    one.points = np.array([[1.0, 2.0, 0.0]])

    class OwnAnchors(VMobject):
        def get_anchors(self) -> list[np.ndarray]:
            return [np.array([5.0, -1.0, 0.0])]

    same(VGroup(Square(), VGroup(Circle(), VMobject()), one, OwnAnchors(), Dot()))
    same(VMobject())  # no point at all: np.array(()) and None, as Manim
    broken = VMobject()
    broken.points = np.zeros((5, 3))  # not whole curves: Manim's zip refuses it, so does ours
    with pytest.raises(ValueError), manims_own():
        broken.get_points_defining_boundary()
    with pytest.raises(ValueError):
        broken.get_points_defining_boundary()
    # another reducing function is Manim's own
    square = Square()
    assert square.reduce_across_dimension(sum, 0) == bounds.MANIMS_REDUCE(square, sum, 0)


@pytest.mark.slow  # 1 s a scene: Manim's own bounds of every mobject are the slow part
@pytest.mark.parametrize("cls", LECTURE, ids=[c.__name__ for c in LECTURE])
def test_every_box_on_screen_is_manims(cls: type) -> None:
    """Every mobject on screen at every section end of the default lesson, and every member."""
    scene = built_scene(cls)
    for cp in scene.checkpoints:
        same(VGroup(*cp.mobjects) if all(isinstance(m, VMobject) for m in cp.mobjects) else Mobject().add(*cp.mobjects))
