"""The lesson a command works on, how worker processes find it again, where its outputs go."""

from __future__ import annotations

from pathlib import Path

from attncore import Lesson, find_lesson


def get_lesson(path: Path | None) -> Lesson:
    """The lesson named by ``--lesson``: a TOML path, or the name of a built-in lesson."""
    return find_lesson(path)


def lesson_spec(lesson_path: Path | None) -> str:
    """How worker processes find the lesson again: an absolute path or a built-in name.

    Passed to them in :data:`attnvid.env.LESSON_ENV` ("" for the built-in lesson).
    """
    if lesson_path is None:
        return ""
    return str(lesson_path.resolve()) if lesson_path.exists() else str(lesson_path)


def output_root(lesson: Lesson, media: Path, style: str = "dark") -> Path:
    """The built-in lesson's outputs go under media/; other lessons under media/<slug>/; in
    the light style under ``light/`` there, so that the two styles are kept (and cached) apart."""
    root = media if lesson.slug == "default" else media / lesson.slug
    return root / "light" if style == "light" else root


def lesson_style(theme: str | None, lesson: Lesson) -> str:
    """The style a command draws in: ``--theme`` when given, else the lesson's ``[theme] style``, else dark."""
    return theme or lesson.style or "dark"
