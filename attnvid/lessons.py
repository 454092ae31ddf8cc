"""The lesson a command works on, how worker processes find it again, where its outputs go."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from attncore import Lesson, find_lesson
from attnstage.settings import DEFAULTS, SceneSettings


def in_language(lesson: Lesson, wanted: str) -> Lesson:
    """``lesson`` in the language ``wanted`` (the settings', ``--language``), else ("") as it is:
    what the viewer sees and hears, and the espeak voice, follow it."""
    return replace(lesson, language=wanted) if wanted and wanted != lesson.language else lesson


def get_lesson(settings: SceneSettings) -> Lesson:
    """The settings' lesson (``--lesson``): a TOML path, or the name of a built-in lesson (in the
    settings' language, when they name one)."""
    return in_language(find_lesson(settings.lesson or None), settings.language)


def lesson_spec(lesson_path: Path | None) -> str:
    """How worker processes find the lesson again: an absolute path or a built-in name.

    Carried to them by the settings (:attr:`~attnstage.settings.SceneSettings.lesson`, "" for the built-in lesson).
    """
    if lesson_path is None:
        return ""
    return str(lesson_path.resolve()) if lesson_path.exists() else str(lesson_path)


def output_root(lesson: Lesson, media: Path, settings: SceneSettings = DEFAULTS) -> Path:
    """The built-in lesson's outputs go under media/; other lessons under media/<slug>/; with
    ``--language`` under ``<language>/`` there; in the light style under ``light/`` there, so that
    languages and styles are kept (and cached) apart."""
    root = media if lesson.slug == "default" else media / lesson.slug
    if settings.language:  # --language: under its own folder, whatever the lesson's language
        root = root / settings.language
    return root / "light" if settings.style == "light" else root
