"""Shared CLI pieces: the --lesson option and turning expected errors into one line.

Expected failures (a bad lesson, a missing system package, a full or read-only disk,
Ctrl-C) end the command with one line on stderr and a non-zero status, never a
traceback: a lecturer should read what to do, not where in Manim it happened.
"""

from __future__ import annotations

import contextlib
import errno
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any, TypeVar

import click

from attncore import Lesson, LessonError, find_lesson

F = TypeVar("F", bound=Callable[..., Any])

#: errno values that mean "this folder cannot take our files": reported as one line naming the folder.
STORAGE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM})


class UserError(Exception):
    """An expected failure: printed as one line, exit status ``code``."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


class Interrupted(BaseException):
    """SIGINT or SIGTERM arrived.

    A ``BaseException`` but not a ``KeyboardInterrupt``: click turns the latter into
    "Aborted!" with status 1, and ``except Exception`` in libraries must not swallow it.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def code(self) -> int:
        return 128 + self.signum

    @property
    def message(self) -> str:
        return "attnvid: interrupted" if self.signum == signal.SIGINT else "attnvid: terminated"


def _raise_interrupted(signum: int, frame: FrameType | None) -> None:
    # Ignore further signals while we clean up: a second Ctrl-C must not cut the
    # clean-up short and print a traceback from the middle of it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise Interrupted(signum)


def install_signal_handlers() -> None:
    """Make SIGINT and SIGTERM raise :class:`Interrupted` in the main thread."""
    signal.signal(signal.SIGINT, _raise_interrupted)
    signal.signal(signal.SIGTERM, _raise_interrupted)


def storage_error(exc: BaseException) -> OSError | None:
    """The full-disk / read-only / permission error behind ``exc``, if any.

    Manim and PyAV wrap the ``OSError`` of a failed write (``RuntimeError: Failed to
    encode video segment ...``), so the cause and context chain is searched too.
    """
    seen: set[int] = set()
    e: BaseException | None = exc
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if isinstance(e, OSError) and e.errno in STORAGE_ERRNOS:
            return e
        e = e.__cause__ or e.__context__
    return None


def storage_message(err: OSError, folder: Path) -> str:
    """One line naming ``folder`` and what to do about ``err``."""
    if err.errno in (errno.ENOSPC, errno.EDQUOT):
        return (f"no space left on the disk that holds {folder}; free some space there, "
                "or render into another folder with --media DIR")
    if err.errno == errno.EROFS:
        return f"{folder} is on a read-only file system; render into a writable folder with --media DIR"
    return (f"cannot write in {folder} (permission denied); fix with: chown -R \"$(id -un)\" {folder}, "
            "or render into another folder with --media DIR")


@contextlib.contextmanager
def cli_errors() -> Iterator[None]:
    """Turn every expected failure into one stderr line and its exit status (see the module doc)."""
    try:
        yield
    except LessonError as exc:
        click.echo(f"attnvid: error: {exc}", err=True)
        sys.exit(2)
    except UserError as exc:
        click.echo(f"attnvid: error: {exc}", err=True)
        sys.exit(exc.code)
    except Interrupted as exc:
        click.echo(exc.message, err=True)
        sys.exit(exc.code)
    except KeyboardInterrupt:
        click.echo("attnvid: interrupted", err=True)
        sys.exit(130)
    except Exception as exc:
        err = storage_error(exc)
        if err is None:
            raise
        folder = Path(err.filename).parent if err.filename else Path.cwd()
        click.echo(f"attnvid: error: {storage_message(err, folder)}", err=True)
        sys.exit(1)


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
