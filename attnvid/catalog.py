"""The lecture's scenes as the commands name them: by class or file name, with one
line listing the known scenes when a name is wrong.

Imports :mod:`scenes.lecture` (and so manim) only when called.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .errors import UserError

if TYPE_CHECKING:
    from scenes.base import LessonScene


def lecture_scenes() -> tuple[type[LessonScene], ...]:
    """Every scene, in lecture order."""
    from scenes.lecture import LECTURE

    return LECTURE


def resolve_scene(name: str) -> type[LessonScene]:
    """The scene named ``name`` (``Softmax`` or ``s05_softmax``), or a one-line error."""
    from scenes.lecture import find_scene

    try:
        return find_scene(name)
    except KeyError:
        known = ", ".join(c.__name__ for c in lecture_scenes())
        raise UserError(f"unknown scene {name!r}; choose from: {known}") from None


def resolve_scenes(names: Sequence[str]) -> list[type[LessonScene]]:
    """The named scenes in the order given, or every scene when none is named."""
    return [resolve_scene(s) for s in names] or list(lecture_scenes())


def lecture_index(cls: type[LessonScene]) -> int:
    """The scene's place in the lecture, from 1."""
    return lecture_scenes().index(cls) + 1
