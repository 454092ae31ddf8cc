"""Shared CLI pieces: the --lesson option and turning expected errors into one line."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import click

from attncore import Lesson, LessonError, find_lesson

F = TypeVar("F", bound=Callable[..., Any])


class UserError(Exception):
    """An expected failure: printed as one line, exit status ``code``."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


@contextlib.contextmanager
def cli_errors() -> Iterator[None]:
    try:
        yield
    except LessonError as exc:
        click.echo(f"attnvid: error: {exc}", err=True)
        sys.exit(2)
    except UserError as exc:
        click.echo(f"attnvid: error: {exc}", err=True)
        sys.exit(exc.code)
    except KeyboardInterrupt:
        click.echo("attnvid: interrupted", err=True)
        sys.exit(130)


def lesson_option(f: F) -> F:
    return click.option(
        "--lesson",
        "lesson_path",
        type=click.Path(path_type=Path, dir_okay=True),
        default=None,
        help="A lesson TOML file, or a built-in lesson name (default, bank, souris).",
    )(f)


def get_lesson(path: Path | None) -> Lesson:
    """The lesson named by ``--lesson``: a TOML path, or the name of a built-in lesson."""
    return find_lesson(path)
