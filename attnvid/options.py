"""The command-line options several commands share, defined once."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from .render_settings import QUALITIES

F = TypeVar("F", bound=Callable[..., Any])


def lesson_option(f: F) -> F:
    return click.option(
        "--lesson",
        "lesson_path",
        type=click.Path(path_type=Path, dir_okay=True),
        default=None,
        help="A lesson TOML file, or a built-in lesson name (default, bank, souris).",
    )(f)


def media_option(help: str | None = "Where outputs go.") -> Callable[[F], F]:
    return click.option("--media", type=click.Path(path_type=Path, file_okay=False), default=Path("media"),
                        show_default=True, help=help)


def quality_option(f: F) -> F:
    return click.option("--quality", "-q", type=click.Choice(list(QUALITIES)), default="low", show_default=True)(f)


def jobs_option(f: F) -> F:
    return click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
                        help="Parallel processes [default: cores].")(f)


def voice_option(help: str) -> Callable[[F], F]:
    return click.option("--voice", default="none", show_default=True, metavar="none|espeak|recorded:DIR", help=help)
