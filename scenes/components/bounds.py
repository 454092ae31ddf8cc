"""A mobject's bounding box: Manim's own points, gathered by NumPy instead of a tuple per point.

Every ``next_to``, ``move_to``, ``get_left`` or ``width`` measures a bounding box. Manim finds a
VMobject's box from the anchors of its whole family (``get_points_defining_boundary``): each
member's ``get_anchors`` zips its start and end anchors into a Python list of 3-vectors, and the
family's lists are chained into a tuple that NumPy turns back into one array, a Python object per
point. A build of the lecture's 15 scenes spent a tenth of its time there (110,000 calls of
``get_anchors``), a grid of numbers measured anew at every placing. ``width`` and ``height``
(``reduce_across_dimension``) walk the family with one NumPy reduction per member.

:func:`get_points_defining_boundary` gives the same array (the same points in the same order, the
same shape and type, an empty family's ``np.array(())`` included) with one NumPy slice per member;
:func:`reduce_across_dimension` the same minimum or maximum with one reduction over the family's
points. A member whose class has anchors of its own, a path whose points do not make whole
curves (which Manim refuses) and any other reducing function are left to Manim. Importing this
module makes them Manim's methods (:func:`install`), as :mod:`.family` does for the family;
``tests/test_bounds.py`` compares both with Manim's on everything the scenes put on screen.
Written here because Manim offers no cheaper exact way to measure a mobject.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
from manim import Mobject, VMobject

__all__ = ["MANIMS_BOUNDARY", "MANIMS_REDUCE", "get_points_defining_boundary", "install", "reduce_across_dimension"]

#: Manim's own methods (before :func:`install`), kept for the tests.
MANIMS_BOUNDARY = VMobject.get_points_defining_boundary
MANIMS_REDUCE = Mobject.reduce_across_dimension
_MANIMS_ANCHORS = VMobject.get_anchors


def _anchors(member: Any) -> Any:
    """The anchors of one family member as an array (start and end anchor of each curve in turn,
    as Manim's ``get_anchors`` lists them), or None when it has none."""
    points = member.points
    n = len(points)
    if type(member).get_anchors is not _MANIMS_ANCHORS or (n > 1 and n % member.n_points_per_cubic_curve):
        found = member.get_anchors()  # its own anchors; or a broken path, which Manim's zip refuses
        return np.asarray(found) if len(found) else None
    if n == 0:
        return None
    if n == 1:
        return points
    k = member.n_points_per_cubic_curve
    return np.stack((points[::k], points[k - 1 :: k]), axis=1).reshape(-1, points.shape[1])


def get_points_defining_boundary(self: VMobject) -> Any:
    """``VMobject.get_points_defining_boundary`` as Manim computes it: the anchors of every
    member of the family, in the family's order."""
    parts = [a for a in (_anchors(m) for m in self.get_family()) if a is not None]
    if not parts:
        return np.array(())
    return np.concatenate(parts)


def reduce_across_dimension(self: Mobject, reduce_func: Callable[[Iterable[float]], float], dim: int) -> Any:
    """``Mobject.reduce_across_dimension`` as Manim computes it for ``min`` and ``max`` (the
    extreme coordinate of every point of the family along ``dim``; None when it has no point)."""
    if reduce_func is not max and reduce_func is not min:
        return MANIMS_REDUCE(self, reduce_func, dim)
    assert 0 <= dim <= 2
    columns = [m.points[:, dim] for m in self.get_family() if len(m.points)]
    if not columns:
        return None
    values = columns[0] if len(columns) == 1 else np.concatenate(columns)
    return values.max() if reduce_func is max else values.min()


def install() -> None:
    """Make these Manim's methods (idempotent)."""
    VMobject.get_points_defining_boundary = get_points_defining_boundary  # type: ignore[method-assign]
    Mobject.reduce_across_dimension = reduce_across_dimension  # type: ignore[method-assign]


install()
