"""Expected failures, and turning each into one line on stderr.

Expected failures (a bad lesson, a bad option, a missing system package, a full or
read-only disk, Ctrl-C) end the command with one line on stderr and a non-zero status,
never a traceback: a lecturer should read what to do, not where in Manim it happened.
Click runs with ``standalone_mode=False`` (see :func:`attnvid.cli.main`), so its usage
errors reach :func:`cli_errors` too, which prints them in one line rather than click's
four (usage, hint, blank line, error).
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import click

from attncore import LessonError

from .signals import Interrupted, signal_in

#: errno values that mean "this folder cannot take our files": reported as one line naming the folder.
STORAGE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM})


class UserError(Exception):
    """An expected failure: printed as one line, exit status ``code``."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


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


def _one_line(message: str) -> str:
    return " ".join(message.split())


def _fail(message: str, code: int) -> NoReturn:
    click.echo(message, err=True)
    sys.exit(code)


@contextlib.contextmanager
def cli_errors() -> Iterator[None]:
    """Turn every expected failure into one stderr line and its exit status (see the module doc)."""
    try:
        yield
    except click.exceptions.NoArgsIsHelpError as exc:
        exc.show()  # plain `attnvid`: the help, as click prints it
        sys.exit(exc.exit_code)
    except click.UsageError as exc:
        where = exc.ctx.command_path if exc.ctx is not None else "attnvid"
        _fail(f"attnvid: error: {_one_line(exc.format_message()).rstrip('.')}; see {where} --help", exc.exit_code)
    except click.ClickException as exc:
        _fail(f"attnvid: error: {_one_line(exc.format_message())}", exc.exit_code)
    except click.Abort:
        _fail("attnvid: aborted", 1)
    except BrokenPipeError:
        # The reader went away (`attnvid values | head`): nothing more to say, and nothing
        # left to flush at exit either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    except LessonError as exc:
        _fail(f"attnvid: error: {exc}", 2)
    except UserError as exc:
        _fail(f"attnvid: error: {exc}", exc.code)
    except Interrupted as exc:
        _fail(exc.message, exc.code)
    except KeyboardInterrupt:
        _fail("attnvid: interrupted", 130)
    except Exception as exc:
        signalled = signal_in(exc)  # a signal landing in __set_name__ comes as a RuntimeError
        if isinstance(signalled, Interrupted):
            _fail(signalled.message, signalled.code)
        if isinstance(signalled, KeyboardInterrupt):
            _fail("attnvid: interrupted", 130)
        err = storage_error(exc)
        if err is None:
            raise
        folder = Path(err.filename).parent if err.filename else Path.cwd()
        _fail(f"attnvid: error: {storage_message(err, folder)}", 1)
