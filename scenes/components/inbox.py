"""Placing a group inside a :class:`~scenes.layout.Box`: at its top, in what is left under something.

The content box (``LessonScene.content``) is the room; these put a mobject in it by the
box's own edges and the named gaps of :mod:`scenes.layout`, never at a bare coordinate.
"""

from __future__ import annotations

from typing import TypeVar

from manim import UP, Mobject

from ..layout import GROUP_BUFF, Box

__all__ = ["at_top", "below", "centre_in"]

M = TypeVar("M", bound=Mobject)


def at_top(mob: M, box: Box) -> M:
    """``mob`` centred across ``box``, its top on the box's top."""
    mob.move_to(box.centre)
    mob.shift(UP * (box.top - mob.get_top()[1]))
    return mob


def below(above: Mobject, box: Box, gap: float = GROUP_BUFF) -> Box:
    """The part of ``box`` under ``above``, ``gap`` away from it."""
    return box.inset(top=box.top - float(above.get_bottom()[1]) + gap)


def centre_in(mob: M, box: Box) -> M:
    """``mob`` centred in ``box``."""
    mob.move_to(box.centre)
    return mob
