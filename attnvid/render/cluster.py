"""Rendering on a Dask cluster: the same jobs, rendered by ``dask worker`` processes, the
videos sent back as bytes and written here, atomically, as a local render writes them.

- **Same installation everywhere.** A worker imports this module to run
  :func:`render_remote`, and checks before rendering that the job's cache key, computed
  there from its own files (scenes, ``attncore``, attnvid's frame modules, Manim, PyAV,
  Python), is the key this machine computed: a worker with other code fails the job
  with one line naming it, instead of sending back other frames.
- **Lessons travel with the job.** A lesson file's text goes with each of its jobs and
  is written to a temporary folder on the worker; a built-in lesson goes by name.
- **Nothing half-written.** A worker renders into a temporary folder it removes in any
  case; only whole videos come back, and this machine writes each through
  :func:`attnvid.outputs.write_atomic`, sidecar last, as :func:`attnvid.render.engine.render_job`
  does.
- **A worker that dies loses nothing.** The scheduler gives its jobs to another worker
  (Dask reschedules the tasks of a lost worker; ``retries`` covers a job that failed).
- **Ctrl-C** cancels every future of the batch; the caller's ``with`` blocks then clean up.

Dask is an optional extra (``pip install 'attnvid[cluster]'``), imported only here and
only when ``--cluster`` is given.
"""

from __future__ import annotations

import importlib
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from attncore import find_lesson
from attncore.i18n import catalogue_digest
from attnstage.settings import SceneSettings

from ..catalog import resolve_scene
from ..errors import UserError
from ..outputs import write_atomic
from ..paths import source_file
from .cache import cache_key
from .engine import render_job
from .jobs import Job, Result, voice_fingerprint

#: How many times a job that raised is tried again (a worker that dies is handled by
#: the scheduler itself: its jobs go to other workers).
RETRIES = 1
#: How often (s) the client looks at its futures and at the workers' announcements.
POLL_S = 0.25
#: The topic workers announce a render's start on (``Worker.log_event``).
EVENT_TOPIC = "attnvid-started"
#: Seconds to reach the scheduler before giving up with one line.
CONNECT_TIMEOUT_S = 10
INSTALL_HINT = "pip install 'attnvid[cluster]'"

#: One render at a time per worker process: Manim's config, the lesson and voice in
#: os.environ are process-wide (start workers with ``--nthreads 1``, one per core).
_RENDER_LOCK = threading.Lock()


class InstallationMismatch(Exception):
    """A worker's files do not give the job's cache key: it runs another installation."""


@dataclass(frozen=True)
class LessonText:
    """How a worker finds a job's lesson: the file's text (None: a built-in, by name) and
    the lesson's ``source`` on this machine (part of its cache key)."""

    text: str | None
    source: str
    name: str = "lesson.toml"


@dataclass
class Rendered:
    """What a worker sends back: the result, and every file of the scene as bytes."""

    result: Result
    video: bytes
    sidecar: bytes
    captions: dict[str, bytes] = field(default_factory=dict)  # extension -> bytes
    worker: str = ""


def _worker() -> Any:
    """The Dask worker running this task (None outside one)."""
    try:
        from distributed import get_worker

        return get_worker()
    except (ImportError, ValueError):
        return None


def _announce(worker: Any, batch: str, label: str) -> str:
    """Tell the client that ``label`` begins here (best effort); this worker's address."""
    if worker is None:
        return ""
    worker.log_event(EVENT_TOPIC, {"batch": batch, "label": label, "worker": worker.address})
    return str(worker.address)


def _check_installation(job: Job, source: str) -> None:
    settings = job.settings
    lesson = replace(find_lesson(settings.lesson), source=source)
    if settings.language:
        lesson = replace(lesson, language=settings.language)
    here = cache_key(
        source_file(resolve_scene(job.file or job.scene)),
        repr(lesson) + catalogue_digest(lesson.language, lesson.catalogue),
        job.quality,
        job.fmt,
        voice_fingerprint(settings.voice, lesson),
        settings.style,
    )
    if here != job.key:
        raise InstallationMismatch(
            f"the worker's installation differs from this machine's (scenes, attncore, attnvid, Manim, PyAV or "
            f"Python; voice {settings.voice!r}): install the same attnvid on every worker and restart it"
        )


def render_remote(job: Job, lesson: LessonText, batch: str) -> Rendered:
    """On a worker: render ``job`` in a temporary folder and return its files as bytes."""
    worker = _worker()
    # In the worker's own scratch folder: Dask removes what a killed worker left there
    # when the next worker starts on that machine.
    scratch = getattr(worker, "local_directory", None)
    with _RENDER_LOCK, tempfile.TemporaryDirectory(prefix="attnvid-job-", dir=scratch) as tmp:
        address = _announce(worker, batch, job.label)
        spec = job.settings.lesson
        if lesson.text is not None:
            path = Path(tmp) / "lesson" / lesson.name
            path.parent.mkdir()
            path.write_text(lesson.text, encoding="utf-8")
            spec = str(path)
        # the lesson as written here; the texts' folder is this worker's own, not the client's
        here = replace(job.settings, lesson=spec, text_cache=SceneSettings.from_environ().text_cache)
        local = replace(job, root=str(Path(tmp) / "out"), settings=here)
        _check_installation(local, lesson.source)
        result = render_job(local)
        return Rendered(result=result, video=local.final.read_bytes(), sidecar=local.sidecar.read_bytes(),
                        captions={e: local.caption_file(e).read_bytes() for e in ("srt", "vtt")}, worker=address)


def write_back(job: Job, rendered: Rendered) -> Result:
    """Write a worker's files at ``job``'s paths here, each atomically, the sidecar last
    (the old one first goes, as in :func:`attnvid.render.engine.render_job`)."""
    job.sidecar.unlink(missing_ok=True)
    write_atomic(job.final, rendered.video)
    for ext, data in rendered.captions.items():
        write_atomic(job.caption_file(ext), data)
    write_atomic(job.sidecar, rendered.sidecar)
    return replace(rendered.result, path=str(job.final), captions=job.captions, worker=rendered.worker)


@contextmanager
def connect(address: str) -> Iterator[Any]:
    """A Dask client of the scheduler at ``address``, or one line saying what is missing."""
    try:
        distributed: Any = importlib.import_module("distributed")  # typed Any: dask ships no type hints
    except ImportError:
        raise UserError(f"--cluster needs Dask here and on every worker: {INSTALL_HINT}", code=1) from None
    try:
        client = distributed.Client(address, timeout=CONNECT_TIMEOUT_S, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise UserError(f"cannot reach a Dask scheduler at {address} ({exc.__class__.__name__}); start one there "
                        "with: dask scheduler, and workers with: dask worker ADDRESS --nthreads 1", code=1) from None
    try:
        yield client
    finally:
        client.close(timeout=CONNECT_TIMEOUT_S)


class ClusterBackend:
    """:data:`attnvid.render.engine.Backend` on a Dask cluster (``n_jobs`` is the cluster's business)."""

    def __init__(self, client: Any, lessons: dict[str, LessonText]) -> None:
        self.client = client
        self.lessons = lessons  # by job.settings.lesson

    def __call__(self, todo: Sequence[Job], n_jobs: int, on_start: Any, on_done: Any) -> list[Result]:
        from distributed.client import FuturesCancelledError

        batch = uuid.uuid4().hex[:12]
        futures = {
            self.client.submit(render_remote, job, self.lessons[job.settings.lesson], batch,
                               key=f"attnvid-{batch}-{k:03d}-{job.label}", pure=False, retries=RETRIES): job
            for k, job in enumerate(todo)
        }
        out: list[Result] = []
        announced: set[tuple[str, str]] = set()
        pending = set(futures)
        try:
            while pending:
                time.sleep(POLL_S)  # futures update from the client's own thread
                for label, where in self._started(batch, announced):
                    on_start(label, where)
                for f in [f for f in pending if f.done()]:
                    pending.discard(f)
                    job = futures[f]
                    r = write_back(job, self._result(f, job))
                    out.append(r)
                    on_done(job, r)
        except FuturesCancelledError:
            raise UserError("the Dask scheduler cancelled the batch's jobs (restarted or shut down?)", code=1) from None
        finally:
            if pending:
                self.client.cancel(list(pending), force=True)
        return out

    def _started(self, batch: str, announced: set[tuple[str, str]]) -> list[tuple[str, str]]:
        """(label, worker) of the renders that began since the last call (a job that a
        dead worker had begins again elsewhere: announced again)."""
        try:
            events = self.client.get_events(EVENT_TOPIC)
        except Exception:  # progress only: never fail a batch over it
            return []
        new = []
        for _, msg in events:
            if not isinstance(msg, dict) or msg.get("batch") != batch:
                continue
            item = (str(msg.get("label")), str(msg.get("worker")))
            if item not in announced:
                announced.add(item)
                new.append(item)
        return new

    @staticmethod
    def _result(future: Any, job: Job) -> Rendered:
        from distributed import KilledWorker

        try:
            rendered = future.result()
        except InstallationMismatch as exc:
            raise UserError(f"{job.label}: {exc}", code=1) from None
        except KilledWorker:
            raise UserError(f"{job.label}: every worker that took this scene died (out of memory?); "
                            "run again, with fewer workers per machine if memory is short", code=1) from None
        if not isinstance(rendered, Rendered):
            raise TypeError(f"{job.label}: a worker sent back {type(rendered).__name__}")
        return rendered
