"""Ctrl-C and SIGTERM: turned into an exception the main thread cleans up after.

A signal must not leave half-written outputs or orphaned render processes, so it
becomes :class:`Interrupted`, which unwinds through every ``with`` block (the output
lock, the worker pool) before :func:`attnvid.errors.cli_errors` prints one line and
exits with ``128 + signal``.
"""

from __future__ import annotations

import signal
from types import FrameType


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



def signal_in(exc: BaseException) -> BaseException | None:
    """The signal's exception (:class:`Interrupted`, ``KeyboardInterrupt``: not an ``Exception``)
    that ``exc`` was raised from, if any, following its cause or context."""
    seen: set[int] = set()
    e: BaseException | None = exc
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if not isinstance(e, Exception):
            return e
        e = e.__cause__ or e.__context__
    return None


def reraise_signal(exc: BaseException) -> None:
    """Raise again a signal's exception that an ``except Exception`` caught wrapped in another:
    Python turns an exception raised while a class body's ``__set_name__`` runs into a
    ``RuntimeError``, so a Ctrl-C or SIGTERM landing while Manim is imported read as "manim:
    cannot be imported" with status 1."""
    signalled = signal_in(exc)
    if signalled is not None:
        raise signalled
