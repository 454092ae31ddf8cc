"""Placing texts so that they neither touch nor leave their room: staggering, collisions.

Names are never rotated nor shrunk below the readable size: when neighbours would touch
they take turns on several lines (:func:`stagger_levels`, the one rule for it).
"""

from __future__ import annotations

from collections.abc import Sequence

from manim import RIGHT, Mobject, Text, VGroup

from ..layout import SMALL_BUFF

__all__ = ["stagger_levels", "stagger_names", "boxes_touch", "keep_inside", "STAGGER_GAP"]

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


def stagger_names(names: Sequence[Text], xs: Sequence[float], y: float, *, above: bool,
                  gap: float = STAGGER_GAP) -> VGroup:
    """Put ``names[k]`` centred at ``xs[k]`` on a line at ``y`` (its bottom if ``above``, else its top).

    When neighbours would touch, they take turns on two or more lines (further from the
    cells or bars they label), so long names read horizontally even above narrow columns.
    """
    group = VGroup(*names)
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
