"""Where a path's curves meet (scenes.components.subpaths) is Manim's own answer: the same
subpaths and the same point comparisons on everything the scenes draw, and on the edge
cases Manim's code handles (a short run at the end, infinities, NaN); and a formula made
twice in one process is drawn alike (Manim's copy of a parsed formula lost Typst's bars)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
from conftest import built_scene
from manim import Circle, Square, VMobject

from scenes.components import subpaths
from scenes.lecture import find_scene
from scenes.theme import Theme


@contextmanager
def manims_own() -> Iterator[None]:
    for name, method in subpaths.MANIMS.items():
        setattr(VMobject, name, method)
    try:
        yield
    finally:
        subpaths.install()


def split(points: Any) -> list[bytes]:
    mob = VMobject()
    return [np.asarray(p).tobytes() for p in mob.get_subpaths_from_points(points)]


def both(points: Any) -> tuple[list[bytes], list[bytes]]:
    with manims_own():
        theirs = split(points)
    return theirs, split(points)


def test_the_methods_are_installed() -> None:
    assert VMobject.get_subpaths_from_points is subpaths.subpaths_from_points
    assert VMobject.consider_points_equals is subpaths.points_equal
    assert subpaths.MANIMS["consider_points_equals"] is not subpaths.points_equal


EDGES = {
    "empty": np.zeros((0, 3)),
    "shorter than a curve": np.ones((3, 3)),
    "one curve": np.arange(12.0).reshape(4, 3),
    "a short run at the end": np.arange(27.0).reshape(9, 3),
    "closed then open": np.vstack([Square().points, Circle().points + 5.0]),
    "infinity met by infinity": np.array([[0, 0, 0], [1, 1, 0], [2, 2, 0], [np.inf, 3, 0]] * 2, dtype=float),
    "NaN never meets": np.array([[0, 0, 0], [1, 1, 0], [2, 2, 0], [np.nan, 3, 0]] * 2, dtype=float),
    "within the tolerance": np.array([[0, 0, 0], [1, 1, 0], [2, 2, 0], [3, 3, 0],
                                      [3 + 1e-7, 3, 0], [4, 4, 0], [5, 5, 0], [6, 6, 0]], dtype=float),
}


@pytest.mark.parametrize("name", list(EDGES))
def test_subpaths_of_the_edge_cases_are_manims(name: str) -> None:
    theirs, ours = both(EDGES[name])
    assert theirs == ours


def test_points_compare_as_allclose() -> None:
    rng = np.random.default_rng(0)
    mob = VMobject()
    specials = [0.0, 1e-9, -1e-9, 1.0, np.inf, -np.inf, np.nan, 1e300]
    for _ in range(3000):
        a = rng.choice(specials, 3) if rng.random() < 0.3 else rng.normal(size=3)
        b = a + rng.choice([0.0, 1e-9, 1e-7, 1e-5, 1e-3], 3) * rng.normal(size=3)
        if rng.random() < 0.2:
            b = rng.choice(specials, 3)
        with manims_own():
            theirs = mob.consider_points_equals(a, b)
        assert mob.consider_points_equals(a, b) == theirs, (a, b)
    many = np.zeros((4, 3))
    assert mob.consider_points_equals(many, np.zeros(3)) and not mob.consider_points_equals(many + 1, np.zeros(3))


@pytest.mark.parametrize("name", ["Softmax", "MultiHead", "CausalMask"])
def test_subpaths_and_alignment_are_manims_for_everything_on_screen(name: str) -> None:
    """Every path on screen at each section's end (glyphs, formulas, grids, arrows, masks)
    splits as Manim splits it, and each aligned to the next (what a Transform does first)
    gets the same points."""
    scene = built_scene(find_scene(name))
    paths = [m for cp in scene.checkpoints for mob in cp.mobjects for m in mob.family_members_with_points()
             if isinstance(m, VMobject)]
    assert len(paths) > 500
    for m in paths:
        theirs, ours = both(m.points)
        assert theirs == ours, type(m).__name__
    for a, b in zip(paths[::7], paths[3::7], strict=False):
        with manims_own():
            a1, b1 = a.copy(), b.copy()
            a1.align_points(b1)
        a2, b2 = a.copy(), b.copy()
        a2.align_points(b2)
        assert a1.points.tobytes() == a2.points.tobytes() and b1.points.tobytes() == b2.points.tobytes()


def test_a_formula_made_twice_in_a_process_is_drawn_alike() -> None:
    """Manim's copy of a formula parsed before had lost the strokes Typst rescales (a root's
    bar drawn 0.52 px wide at 480p instead of 0.41), so a scene's frames depended on what the
    process had built before it."""
    from manim import tempconfig

    from scenes.components.typeset import Formula

    with tempconfig({"quality": "low_quality"}):
        first, second = (Formula('"score" \\/ sqrt(d)', Theme()) for _ in range(2))
    widths = [[float(m.get_stroke_width()) for m in f.family_members_with_points()] for f in (first, second)]
    assert any(w > 0 for w in widths[0]), "the formula has a stroked bar"
    assert widths[0] == widths[1]
