"""The lesson a command works on, how worker processes find it again, where its outputs go."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from attncore import Lesson, find_lesson

from .env import LANGUAGE_ENV


def in_language(lesson: Lesson) -> Lesson:
    """``lesson`` in the language ``--language`` asked for (:data:`~attnvid.env.LANGUAGE_ENV`),
    else as it is: what the viewer sees and hears, and the espeak voice, follow it."""
    wanted = os.environ.get(LANGUAGE_ENV, "")
    return replace(lesson, language=wanted) if wanted and wanted != lesson.language else lesson


def get_lesson(path: Path | None) -> Lesson:
    """The lesson named by ``--lesson``: a TOML path, or the name of a built-in lesson (in the
    language of ``--language``, when given)."""
    return in_language(find_lesson(path))


def lesson_spec(lesson_path: Path | None) -> str:
    """How worker processes find the lesson again: an absolute path or a built-in name.

    Passed to them in :data:`attnvid.env.LESSON_ENV` ("" for the built-in lesson).
    """
    if lesson_path is None:
        return ""
    return str(lesson_path.resolve()) if lesson_path.exists() else str(lesson_path)


def output_root(lesson: Lesson, media: Path, style: str = "dark") -> Path:
    """The built-in lesson's outputs go under media/; other lessons under media/<slug>/; with
    ``--language`` under ``<language>/`` there; in the light style under ``light/`` there, so that
    languages and styles are kept (and cached) apart."""
    root = media if lesson.slug == "default" else media / lesson.slug
    if os.environ.get(LANGUAGE_ENV, ""):  # --language: under its own folder, whatever the lesson's language
        root = root / os.environ[LANGUAGE_ENV]
    return root / "light" if style == "light" else root


def lesson_style(theme: str | None, lesson: Lesson) -> str:
    """The style a command draws in: ``--theme`` when given, else the lesson's ``[theme] style``, else dark."""
    return theme or lesson.style or "dark"
