"""Placing texts so that they neither touch nor leave their room: staggering, collisions.

Names are never rotated nor shrunk below the readable size: when neighbours would touch
they take turns on several lines (:func:`stagger_levels`, the one rule for it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from manim import DL, RIGHT, UR, Mobject, Text, VGroup

from ..layout import SMALL_BUFF

__all__ = [
    "stagger_levels",
    "stagger_names",
    "boxes_touch",
    "keep_inside",
    "STAGGER_GAP",
    "ink_corners",
    "edge_through",
    "header_row",
    "header_names",
]

#: The least room between two staggered names on one line.
STAGGER_GAP = SMALL_BUFF


def stagger_levels(widths: Sequence[float], xs: Sequence[float], gap: float = STAGGER_GAP, *,
                   most: int | None = 4, pitch: float | None = None, fill: float = 1.0) -> int:
    """How many lines items of ``widths`` centred at ``xs`` need so that none touches another.

    Item ``k`` goes on line ``k % levels``; ``levels`` is the fewest lines such that any two
    items ``levels`` apart keep ``gap`` between them (one line when all fit). With
    ``most``, no more lines than that (crowded items may then touch).

    ``pitch``: regular lines for the columns of a grid, ``pitch`` apart (``xs`` is then not
    read): every item counts as wide as the widest, whatever the number of items, so each
    may span ``levels`` columns; one line when the widest fills at most ``fill`` of a column.
    """
    widest = max(widths, default=0.0)

    def clear(levels: int) -> bool:
        if pitch is not None:
            return widest <= fill * pitch if levels == 1 else widest + gap <= levels * pitch
        return all((widths[k] + widths[k + levels]) / 2 + gap <= abs(xs[k + levels] - xs[k])
                   for k in range(len(xs) - levels))

    levels = 1
    while not clear(levels) and (most is None or levels < most):
        levels += 1
    return levels


def header_row(group: VGroup) -> VGroup:
    """Mark ``group`` as one row of names over (or under) columns or bars, so that the layout
    tests check it is on one line (scenes.inspect.staircase_headers: issue 24, names climbing a
    staircase of lines read as rows of another table); ``group`` itself, for chaining.

    The mark is the row's names themselves (a copy of the group marks its copies): a name that
    an animation puts in their place (``ReplacementTransform`` replaces a mobject inside its
    group, mixing's words becoming the row labels of its weights) is no longer one of them."""
    group.header_row = tuple(group.submobjects)  # type: ignore[attr-defined]
    return group


def header_names(m: Mobject) -> list[Mobject] | None:
    """The names of the row ``m`` marked by :func:`header_row` that are still in it (None when
    ``m`` is not marked)."""
    names = getattr(m, "header_row", None)
    return None if names is None else [sub for sub in m.submobjects if any(sub is nm for nm in names)]


def stagger_names(names: Sequence[Text], xs: Sequence[float], y: float, *, above: bool,
                  gap: float = STAGGER_GAP) -> VGroup:
    """Put ``names[k]`` centred at ``xs[k]`` on a line at ``y`` (its bottom if ``above``, else its top).

    When neighbours would touch, they take turns on two or more lines (further from the
    cells or bars they label), so long names read horizontally even above narrow columns. The
    group is marked a :func:`header_row`: the layout tests fail on such lines, so a caller keeps
    its names apart (wider columns, turned or smaller names) where the test lessons go.
    """
    group = header_row(VGroup(*names))
    if not names:
        return group
    levels = stagger_levels([nm.width for nm in names], xs, gap)
    line = max(nm.height for nm in names) + 0.12
    sign = 1 if above else -1
    for k, nm in enumerate(names):
        nm.move_to((xs[k], y + sign * (nm.height / 2 + (k % levels) * line), 0.0))
    return group


def boxes_touch(a: Mobject, b: Mobject, gap: float, gap_y: float | None = None) -> bool:
    """Whether the bounding boxes of ``a`` and ``b`` come closer than ``gap`` across and
    ``gap_y`` (default: ``gap``) down."""
    gy = gap if gap_y is None else gap_y
    return bool(
        min(a.get_right()[0], b.get_right()[0]) - max(a.get_left()[0], b.get_left()[0]) > -gap
        and min(a.get_top()[1], b.get_top()[1]) - max(a.get_bottom()[1], b.get_bottom()[1]) > -gy
    )


def keep_inside(names: VGroup, left: float, right: float) -> VGroup:
    """Shift the names that stick out of ``[left, right]`` back inside (each on its own)."""
    for nm in names:
        if nm.get_left()[0] < left:
            nm.shift(RIGHT * (left - nm.get_left()[0]))
        if nm.get_right()[0] > right:
            nm.shift(RIGHT * (right - nm.get_right()[0]))
    return names


def ink_corners(m: Mobject) -> Any:
    """The four corners of the box of ``m``'s ink: along its own turned axes for a text turned
    on purpose (marked ``turned``, the angle), else upright."""
    angle = float(getattr(m, "turned", 0.0))
    if not angle:
        (x0, y0, _), (x1, y1, _) = m.get_corner(DL), m.get_corner(UR)
        return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    axes = np.array([[np.cos(angle), np.sin(angle)], [-np.sin(angle), np.cos(angle)]])
    along = np.concatenate([g.points[:, :2] for g in m.family_members_with_points()]) @ axes.T
    (u0, v0), (u1, v1) = along.min(axis=0), along.max(axis=0)
    return np.array([[u0, v0], [u1, v0], [u1, v1], [u0, v1]]) @ axes


def _cross(u: Any, v: Any) -> Any:
    """The z of u × v, for 2-vectors (numpy 2 no longer takes them in np.cross)."""
    return u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]


def _inside(points: Any, corners: Any, margin: float) -> Any:
    """Which ``points`` lie inside the convex polygon ``corners`` by at least ``margin``."""
    inside = np.ones(len(points), dtype=bool)
    sign = np.sign(_cross(corners[1] - corners[0], corners[2] - corners[1])) or 1.0
    for k in range(len(corners)):
        a, b = corners[k], corners[(k + 1) % len(corners)]
        edge = b - a
        inside &= sign * _cross(edge, points - a) / np.linalg.norm(edge) >= margin
    return inside


def edge_through(box: Mobject, corners: Any, margin: float = 0.02) -> bool:
    """Whether an edge of the (upright) outline ``box`` runs through the box ``corners`` (of
    :func:`ink_corners`) by more than ``margin``."""
    (x0, y0, _), (x1, y1, _) = box.get_corner(DL), box.get_corner(UR)
    c = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    for k in range(4):
        a, b = c[k], c[(k + 1) % 4]
        points = a + np.linspace(0.0, 1.0, max(2, int(np.linalg.norm(b - a) / margin)))[:, None] * (b - a)
        if _inside(points, corners, margin).any():
            return True
    return False
