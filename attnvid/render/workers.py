"""Worker processes that ignore Ctrl-C, die with their parent, and stop at once on an error.

Workers ignore Ctrl-C (the terminal sends it to the whole process group; only the
parent decides), are terminated by the parent when it stops, and exit by themselves
within half a second when the parent is killed outright.

They are forked by a fork server (Python's ``forkserver`` start method) that imported Manim
and the scenes' components once (:data:`PRELOAD`), instead of each starting a new interpreter
that imports them again (about a second each); :func:`start_early` starts that server while
the command still plans its work, so that its imports run beside the command's own. The
server is a process of its own, single-threaded, and ends when the command does; each call
carries the command's environment and working folder at the time of the call, as a spawned
process would have inherited them.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from multiprocessing import forkserver, resource_tracker
from multiprocessing.process import BaseProcess
from types import FrameType, TracebackType
from typing import Any

_STARTED: Any = None  # the queue a worker announces its scenes on (set by _worker_init)
#: What the fork server imports before it forks the first worker: Manim, the components (and the
#: speed-ups they install in Manim) and the render engine. Nothing in them reads the settings
#: when imported (a scene reads them when it is made, in the worker).
PRELOAD = ["manim", "scenes.components", "scenes.lecture", "attnvid.render.engine"]


def _context() -> Any:
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(PRELOAD)
    return ctx


def start_early() -> None:
    """Start the fork server now, so that its imports run while the caller plans (best effort).

    With SIGINT and SIGTERM blocked, as :meth:`Workers.submit_all` starts processes: the server
    and every worker it forks start with them blocked (a blocked signal stays blocked across
    ``exec``) until ``_worker_init`` ignores one and unblocks the other. The server itself ends
    when the command does (Python's fork server reads the end of a pipe the command holds).
    """
    _context()
    # Python's resource tracker (which the server needs) unblocks both signals after starting
    # itself: started first, so that the server starts with them blocked.
    try:
        resource_tracker.ensure_running()
    except OSError:
        return
    old_mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        forkserver.ensure_running()
    except OSError:  # no server now: the pool starts it when it needs one, or says why not
        pass
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)


def started_queue() -> Any:
    """In a worker: the queue to announce a scene on when its render begins."""
    return _STARTED


def _watch_parent(parent: int, command: int) -> None:
    """Exit when the command is gone (killed outright, even while we were being forked): nobody
    would collect our result. Either the process that forked us changes (the fork server ends with
    the command) or the command's own process is gone; both are looked at at once, then twice a second."""
    while os.getppid() == parent:
        try:
            os.kill(command, 0)
        except ProcessLookupError:
            break
        time.sleep(0.5)
    os._exit(1)


def _close_server_pipe() -> None:
    """Close our copy of the pipe by which the fork server knows the command is alive.

    Python's fork server gives each process it forks the command's end of that pipe (so that
    it could ask the server for processes of its own); while a worker held it, a command killed
    outright left the server waiting, and the workers with it. Ours ask for none."""
    server: Any = getattr(forkserver, "_forkserver", None)
    fd = getattr(server, "_forkserver_alive_fd", None)
    if isinstance(fd, int):
        with contextlib.suppress(OSError):
            os.close(fd)
        server._forkserver_alive_fd = None


def _worker_init(started: Any, command: int) -> None:
    global _STARTED
    _STARTED = started
    # Ctrl-C in a terminal reaches every process of the group; only the parent acts on it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # We were started with SIGTERM blocked (see Workers.submit_all and start_early); a
    # terminate() that arrived while we were being started is delivered now and ends us.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    _close_server_pipe()
    threading.Thread(target=_watch_parent, args=(os.getppid(), command), name="watch-parent", daemon=True).start()
    # tqdm (Manim's progress bars) would otherwise create a multiprocessing semaphore,
    # which a terminated worker leaks: Python then prints a warning after our last line.
    from tqdm import tqdm

    tqdm.set_lock(threading.RLock())


def _as_here(here: tuple[dict[str, str], str], fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` in the environment and working folder the command had when it asked."""
    environ, cwd = here
    if os.environ != environ:
        os.environ.clear()
        os.environ.update(environ)
    if os.getcwd() != cwd:
        os.chdir(cwd)
    return fn(*args)


class Workers:
    """Spawned worker processes that ignore Ctrl-C, die with their parent, and stop at once on an error.

    ``submit_all`` starts the processes (the pool spawns them on submit) with SIGINT
    and SIGTERM blocked. A Ctrl-C arriving while a worker still imports Python then
    cannot print a traceback there, and a signal cannot interrupt the parent between
    starting a process and recording it in the pool, which would leave a worker that
    nobody terminates, still writing in the work folder after the clean-up, or in the
    middle of sending a new process what it needs. The parent acts on the signal as soon
    as every process is started.
    """

    def __init__(self, n: int) -> None:
        ctx = _context()
        self.started = ctx.SimpleQueue()
        self.pool = ProcessPoolExecutor(max_workers=n, mp_context=ctx, initializer=_worker_init,
                                        initargs=(self.started, os.getpid()))

    def submit_all(self, fn: Callable[..., Any], calls: Iterable[tuple[Any, ...]]) -> list[Future[Any]]:
        # Blocking the signals in this thread is not enough: the kernel delivers a signal
        # sent to the process to any thread that does not block it (the progress display's,
        # for one), and Python then runs the handler in the main thread all the same, in the
        # middle of a spawn: the new process read half of what it was being sent and printed
        # a traceback (EOFError in spawn_main). So the handlers only note the signal here,
        # and the real one runs once every process is started and recorded.
        noted: list[int] = []

        def note(signum: int, frame: FrameType | None) -> None:
            noted.append(signum)

        old_mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        old_handlers = {sig: signal.signal(sig, note) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            here = (dict(os.environ), os.getcwd())
            return [self.pool.submit(_as_here, here, fn, *args) for args in calls]
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)  # one held back is noted now
            for sig, handler in old_handlers.items():
                signal.signal(sig, handler)
            if noted:
                signal.raise_signal(noted[0])  # now handled as it would have been

    def started_scenes(self) -> list[str]:
        """Scenes whose render began since the last call (for the progress display)."""
        out = []
        while not self.started.empty():
            out.append(self.started.get())
        return out

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None) -> None:
        if et is None:
            self.pool.shutdown(wait=True)
            return
        self._stop_now()

    def _stop_now(self) -> None:
        """Stop now rather than let running scenes finish (shutdown would wait for them).

        Python 3.14's ProcessPoolExecutor.terminate_workers() does the same. Every
        worker must be gone before the caller removes the work folder: one that still
        ran would write there after the clean-up.
        """
        procs: list[BaseProcess] = list((self.pool._processes or {}).values())
        procs += [p for p in multiprocessing.active_children() if p not in procs]
        for p in procs:
            p.terminate()
        self.pool.shutdown(wait=False, cancel_futures=True)
        for p in procs:
            p.join(timeout=5)
            if p.is_alive():
                p.kill()
                p.join()
