"""Where a path's curves meet: Manim's own answer, without a NumPy call per pair of points.

Every ``Transform`` begins by aligning the points of its start and its target
(``VMobject.align_points``), which splits both into subpaths: Manim compares each curve's
end with the next curve's start through ``consider_points_equals``, a ``np.allclose`` of
two 3-vectors, one call per curve (about 60 µs each). A build of Softmax made 62,000 such
calls, a third of its time; every render makes them too.

Manim 0.22 already has the vectorised comparison, documented as giving the same splits as
``consider_points_equals`` (``get_subpath_split_indices_from_points``, used by its camera):
:func:`subpaths_from_points` keeps Manim's result (the same slices, short runs at the end
dropped as Manim drops them) and takes its splits from there. :func:`points_equal` is
``np.allclose`` for the small arrays compared one by one (``|a - b| <= atol + rtol·|b|``
everywhere, NumPy's default ``rtol``), without its general machinery; anything not finite
goes to ``np.allclose`` itself. Written here because Manim does not yet use its own
vectorised split for ``get_subpaths_from_points``; ``tests/test_copying.py`` checks both
against Manim's on every glyph and shape the scenes show.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from manim import VMobject

__all__ = ["MANIMS", "install", "points_equal", "subpaths_from_points"]

#: Manim's own methods (before :func:`install`), kept for the tests.
MANIMS = {name: getattr(VMobject, name) for name in ("consider_points_equals", "get_subpaths_from_points")}

#: NumPy's default relative tolerance of ``isclose`` and ``allclose``.
_RTOL = 1.0e-5


def points_equal(self: VMobject, p0: Any, p1: Any) -> bool:
    """``np.allclose(p0, p1, atol=self.tolerance_for_point_equality)``, decided the same way."""
    a, b = np.asarray(p0, dtype=float), np.asarray(p1, dtype=float)
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        return bool(np.allclose(a, b, atol=self.tolerance_for_point_equality))
    return bool((np.abs(a - b) <= self.tolerance_for_point_equality + _RTOL * np.abs(b)).all())


def subpaths_from_points(self: VMobject, points: Any) -> list[Any]:
    """Manim's ``get_subpaths_from_points``: runs of curves whose ends meet, as slices of ``points``."""
    nppcc = self.n_points_per_cubic_curve
    ranges = self.get_subpath_split_indices_from_points(points)
    return [points[i:j] for i, j in ranges.tolist() if j - i >= nppcc]


def install() -> None:
    """Make these Manim's ``VMobject`` methods (idempotent)."""
    VMobject.consider_points_equals = points_equal  # type: ignore[method-assign]
    VMobject.get_subpaths_from_points = subpaths_from_points  # type: ignore[method-assign]


install()
