"""A transform's frame, Manim's own values, computed for all of its submobjects at once.

At every frame of a :class:`~manim.animation.transform.Transform` (and of what derives from
it: fades, ``Indicate``, ``.animate``, ``ReplacementTransform``...) Manim lists the three
families again (the mobject's, its start's and its target's: a walk of each, every frame) and
then, for each submobject, interpolates its points and seven colour and width attributes,
one small NumPy call and a ``getattr``/``setattr`` pair each: a table of digits is a few
hundred submobjects. In a 480p render of the lecture that was a fifth of the time (cProfile:
375,000 submobject interpolations in 16,500 frames of transforms).

Here the families are listed once per animation, when it begins: within one ``play`` and
without updaters, nothing changes a family or the number of its points (a transform's
interpolation writes new values of the same shapes; ``Transform.begin`` aligned them). Their
starts and targets are stacked once into one array per attribute, and each frame computes
Manim's very formula, ``(1 - a) * start + a * end``, on the stacks: every element is the same
IEEE multiplication and addition as Manim's, so every value is the same, bit for bit (a
submobject's own ``a`` when a lag staggers them). Each submobject then gets its rows (views
of the frame's arrays, which nothing changes in place: every frame writes new ones, as
Manim's does).

Only what is certain to be Manim's own path takes this one: a transform class that keeps
Manim's ``interpolate_mobject``, ``get_all_families_zipped`` and ``interpolate_submobject``,
a straight path, VMobjects keeping Manim's ``interpolate`` and ``interpolate_color``, arrays of
the same shape at start and end, and no updater anywhere in the process
(:func:`.updating.any_updater`). Anything else runs Manim's code (with the families listed
once, for the first rules). ``tests/test_transforming.py`` compares every value with
Manim's, and the lecture's videos came out byte for byte the same.
Written here because Manim has no vectorised transform for the Cairo renderer.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from manim import Mobject, Transform, VMobject
from manim.animation.animation import Animation
from manim.utils.bezier import interpolate as bezier_interpolate

from .updating import any_updater

__all__ = ["MANIMS_INTERPOLATE_MOBJECT", "install"]

#: Manim's own ``Transform.interpolate_mobject`` (Animation's), before :func:`install`.
MANIMS_INTERPOLATE_MOBJECT = Transform.interpolate_mobject
#: VMobject.interpolate_color's array attributes (rows of values) and its numbers.
ROWS = ("fill_rgbas", "stroke_rgbas", "background_stroke_rgbas")
NUMBERS = ("stroke_width", "background_stroke_width", "sheen_factor")
PLAN = "_attnvid_transform_plan"


def _manims_families(cls: Any) -> bool:
    return (cls.get_all_families_zipped is Transform.get_all_families_zipped
            and cls.interpolate_submobject is Transform.interpolate_submobject)


class _Stacks:
    """The starts and ends of a transform's submobjects, stacked: one frame of all of them in a few NumPy calls."""

    def __init__(self, subs: list[Any], starts: list[Any], ends: list[Any]) -> None:
        self.subs, self.ends = subs, ends
        self.point_rows = np.array([len(s.points) for s in starts])
        self.points = (np.concatenate([s.points for s in starts]), np.concatenate([e.points for e in ends]))
        self.rows = {a: (np.concatenate([getattr(s, a) for s in starts]), np.concatenate([getattr(e, a) for e in ends]),
                         np.array([len(getattr(s, a)) for s in starts])) for a in ROWS}
        self.sheen = (np.array([s.sheen_direction for s in starts]), np.array([e.sheen_direction for e in ends]))
        self.numbers = (np.array([[getattr(s, a) for a in NUMBERS] for s in starts], dtype=float),
                        np.array([[getattr(e, a) for a in NUMBERS] for e in ends], dtype=float))
        self.slices = {a: _slices(counts) for a, (_, _, counts) in self.rows.items()}
        self.slices["points"] = _slices(self.point_rows)

    @staticmethod
    def fits(subs: list[Any], starts: list[Any], ends: list[Any]) -> bool:
        """Whether every submobject takes Manim's own VMobject path with values that stack."""
        for sub, s, e in zip(subs, starts, ends, strict=True):
            cls = type(sub)
            if not (isinstance(sub, VMobject) and isinstance(s, VMobject) and isinstance(e, VMobject)
                    and cls.interpolate is Mobject.interpolate and cls.interpolate_color is VMobject.interpolate_color
                    and cls.__setattr__ is object.__setattr__):  # type: ignore[comparison-overlap]
                return False
            if s.points.shape != e.points.shape or s.points.ndim != 2 or s.points.dtype != np.float64:
                return False
            for a in (*ROWS, "sheen_direction"):
                x, y = getattr(s, a), getattr(e, a)
                if not (isinstance(x, np.ndarray) and isinstance(y, np.ndarray) and x.shape == y.shape
                        and x.dtype == np.float64 == y.dtype and x.ndim == (1 if a == "sheen_direction" else 2)):
                    return False
            if not all(type(getattr(m, a)) in (int, float, np.float64) for m in (s, e) for a in NUMBERS):
                return False
        return True

    def frame(self, alpha: float | list[float]) -> None:
        """Give every submobject its values at ``alpha`` (a list: each its own): Manim's formula, elementwise."""
        if isinstance(alpha, list):
            per_sub = np.asarray(alpha, dtype=float)[:, None]
            points = _mix(self.points, np.repeat(per_sub, self.point_rows, axis=0))
            rows = {a: _mix(se[:2], np.repeat(per_sub, se[2], axis=0)) for a, se in self.rows.items()}
            sheen, numbers = _mix(self.sheen, per_sub), _mix(self.numbers, per_sub)
        else:
            points, sheen, numbers = _mix(self.points, alpha), _mix(self.sheen, alpha), _mix(self.numbers, alpha)
            rows = {a: _mix(se[:2], alpha) for a, se in self.rows.items()}
        point_slices, row_slices = self.slices["points"], [(a, rows[a], self.slices[a]) for a in ROWS]
        for i, sub in enumerate(self.subs):
            d = sub.__dict__
            d["points"] = points[point_slices[i]]
            for a, values, slices in row_slices:
                d[a] = values[slices[i]]
            d["sheen_direction"] = sheen[i]
            d["stroke_width"], d["background_stroke_width"], d["sheen_factor"] = numbers[i]
        at_end = [i for i, a in enumerate(alpha) if a == 1.0] if isinstance(alpha, list) else (
            range(len(self.subs)) if alpha == 1.0 else [])
        for i in at_end:  # VMobject.interpolate_color at exactly 1: the end's own values (a copy of an array)
            d, end = self.subs[i].__dict__, self.ends[i].__dict__
            for a in (*ROWS, "sheen_direction"):
                d[a] = end[a].copy()
            for a in NUMBERS:
                d[a] = end[a]


def _slices(counts: Any) -> list[slice]:
    ends = np.cumsum(counts).tolist()
    return [slice(e - c, e) for e, c in zip(ends, counts.tolist(), strict=True)]


def _mix(start_end: tuple[Any, Any], alpha: Any) -> Any:
    """Manim's ``interpolate``: ``(1 - alpha) * start + alpha * end``."""
    return (1 - alpha) * start_end[0] + alpha * start_end[1]


class _Plan:
    """A transform's families, listed when it begins, and their stacks when they stack."""

    def __init__(self, anim: Transform) -> None:
        self.key = (anim.mobject, anim.starting_mobject, anim.target_copy)
        self.families = list(anim.get_all_families_zipped())
        subs, starts, ends = (list(c) for c in zip(*self.families, strict=True)) if self.families else ([], [], [])
        stack = anim.path_func is bezier_interpolate and bool(subs) and _Stacks.fits(subs, starts, ends)
        self.stacks = _Stacks(subs, starts, ends) if stack else None

    def current(self, anim: Transform) -> bool:
        m, s, t = self.key
        return anim.mobject is m and anim.starting_mobject is s and anim.target_copy is t


def interpolate_mobject(self: Transform, alpha: float) -> None:
    """``Animation.interpolate_mobject`` for a transform: Manim's values, its families listed once."""
    cls = type(self)
    if any_updater() or not _manims_families(cls):
        return MANIMS_INTERPOLATE_MOBJECT(self, alpha)
    plan = self.__dict__.get(PLAN)
    if plan is None or not plan.current(self):
        plan = _Plan(self)
        self.__dict__[PLAN] = plan
    n = len(plan.families)
    lag_free = cls.get_sub_alpha is Animation.get_sub_alpha and not self.lag_ratio
    # Without a lag every index gets the very same value (lower = index * 0 = 0): computed once.
    alpha_of: float | list[float] = (self.get_sub_alpha(alpha, 0, n) if lag_free
                                      else [self.get_sub_alpha(alpha, i, n) for i in range(n)])
    if plan.stacks is not None:
        plan.stacks.frame(alpha_of)
        return None
    manims: Any = self  # Transform.interpolate_submobject takes the three mobjects (Animation's, two)
    alphas = alpha_of if isinstance(alpha_of, list) else [alpha_of] * n
    for mobs, sub_alpha in zip(plan.families, alphas, strict=True):
        manims.interpolate_submobject(*mobs, sub_alpha)
    return None


def install() -> None:
    """Make :func:`interpolate_mobject` Manim's ``Transform.interpolate_mobject`` (idempotent)."""
    Transform.interpolate_mobject = interpolate_mobject  # type: ignore[method-assign,assignment]


install()
