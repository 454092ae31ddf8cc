"""Rendering scenes: cache keys, one render per worker process, atomic outputs.

Each scene renders in its own process and its own Manim work folder, so that scenes
run in parallel without racing on Manim's caches. A finished video is copied to a
temporary name beside its final path and renamed into place, then a small JSON
"sidecar" records the cache key, the duration and the section times. A scene whose
cache key did not change is not rendered again.

The cache key of a scene covers everything its pixels depend on: its own file, the
shared scene modules (base, components, theme...), attncore's code, the lesson's
content, the quality, the output format and the versions of Manim and PyAV. Other
scene files are not part of it, so editing one scene re-renders only that scene.

Reliability (what a killed, interrupted or failed run leaves behind):

- every final output goes through a ``.NAME.part`` file renamed into place, so a
  reader sees the previous good file or the new complete one, never a truncated one;
- :func:`claim_output` holds a lock on the output root for the whole run (two
  ``attnvid`` runs on one folder take turns instead of racing) and removes the
  ``.part`` files and the ``.work`` folder that a killed run left behind;
- workers ignore Ctrl-C (the terminal sends it to the whole process group; only the
  parent decides), are terminated by the parent when it stops, and exit by themselves
  within half a second when the parent is killed outright;
- x264 runs single-threaded (see ``ENCODER_OPTIONS``), so the same lesson, quality
  and versions give the same decoded frames, and the same MP4 bytes whatever the
  machine's number of cores, with one exception. At ``low`` quality the picture is 854
  pixels wide, not a multiple of 16: x264 codes 10 more columns, which every decoder
  crops, and the row padding of the yuv420p frame PyAV hands it there is left
  uninitialised. Now and then (one segment encode in 80 in our runs; identical frames
  at widths 848 and 864 never differed) one packet differs in a few bytes near its end,
  while every decoded frame stays identical. The ``medium`` (1280), ``high`` (1920)
  and ``4k`` (3840) widths are multiples of 16 and have no such columns.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import multiprocessing
import os
import shutil
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from importlib.metadata import version
from pathlib import Path
from types import TracebackType
from typing import Any

import click

from .common import UserError, storage_error, storage_message

#: Our quality names and Manim's.
QUALITIES = {"low": "low_quality", "medium": "medium_quality", "high": "high_quality", "4k": "fourk_quality"}
FORMATS = ("mp4", "webm", "gif", "png")
CACHE_VERSION = "attnvid-cache-2"  # 2: x264 single-threaded (ENCODER_OPTIONS), so the bytes changed
#: Extra encoder options per format. x264 picks its thread count from the number of
#: cores, and its output depends on that count (a 1-core and a 2-core machine gave
#: different files). One thread gives the same bytes on every machine with the same
#: Manim and PyAV; it costs little, since scenes render in parallel processes and Manim
#: encodes in a thread of its own beside the drawing. webm (libvpx) is left as it was.
ENCODER_OPTIONS: dict[str, dict[str, str]] = {"mp4": {"threads": "1"}}
#: The folders of an output root that hold our outputs (others hold other lessons' roots).
OUTPUT_FOLDERS = ("scenes", "lecture", "preview", "storyboard")
LOCK_NAME = ".attnvid.lock"

SCENES_DIR = Path(__file__).resolve().parents[1]
ATTNCORE_DIR = SCENES_DIR.parent / "attncore"


@dataclass(frozen=True)
class Job:
    """One scene to render. Plain data, so that it can be sent to a worker process."""

    scene: str  # class name
    index: int  # position in the lecture, from 1
    quality: str
    fmt: str
    lesson_spec: str  # path or built-in name ("" for the default)
    root: str  # output root for this lesson (media/ or media/<slug>/)
    key: str
    voice: str = "none"  # none, espeak or recorded:FOLDER

    @property
    def stem(self) -> str:
        return f"{self.index:02d}_{self.scene}"

    @property
    def out_dir(self) -> Path:
        return Path(self.root) / "scenes" / self.quality

    @property
    def final(self) -> Path:
        """The video file (or, for png, the folder of frames)."""
        return self.out_dir / (self.stem if self.fmt == "png" else f"{self.stem}.{self.fmt}")

    @property
    def sidecar(self) -> Path:
        return self.out_dir / f"{self.stem}.{self.fmt}.json"

    @property
    def work(self) -> Path:
        return Path(self.root) / ".work" / self.quality / self.fmt / self.scene

    def caption_file(self, ext: str) -> Path:
        return self.out_dir / f"{self.stem}.{ext}"


@dataclass
class Result:
    scene: str
    path: str
    seconds: float  # wall time spent (0 when cached)
    cached: bool
    duration: float  # seconds of video
    sections: list[dict[str, Any]] = field(default_factory=list)  # {"title", "start_s", "end_s"}
    narration: list[dict[str, Any]] = field(default_factory=list)  # {"section", "text", "start_s", "speech_s", "spoken"}
    cues: list[dict[str, Any]] = field(default_factory=list)  # {"start", "end", "text"}
    captions: list[str] = field(default_factory=list)  # paths of the .srt and .vtt


def _digest(h: Any, path: Path) -> None:
    h.update(path.relative_to(SCENES_DIR.parent).as_posix().encode())
    h.update(b"\0")
    h.update(path.read_bytes())
    h.update(b"\0")


def shared_files() -> list[Path]:
    """Files every scene depends on: the non-scene modules of scenes/ and all of attncore."""
    own = [p for p in sorted(SCENES_DIR.glob("*.py")) if not (p.name[0] == "s" and p.name[1:3].isdigit())]
    core = sorted(ATTNCORE_DIR.rglob("*.py"))
    return own + core


def cache_key(scene_file: Path, lesson_repr: str, quality: str, fmt: str, voice: str = "none") -> str:
    h = hashlib.sha256(CACHE_VERSION.encode())
    for p in [scene_file, *shared_files()]:
        _digest(h, p)
    for part in (lesson_repr, quality, fmt, voice, version("manim"), version("av"), sys.version.split()[0]):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()


def cached_result(job: Job) -> Result | None:
    """The previous result of ``job`` if its outputs exist and its key is unchanged."""
    try:
        meta = json.loads(job.sidecar.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if meta.get("key") != job.key or not job.final.exists():
        return None
    captions = [str(job.caption_file(e)) for e in ("srt", "vtt")]
    if not all(Path(c).is_file() for c in captions):
        return None
    return Result(scene=job.scene, path=str(job.final), seconds=0.0, cached=True,
                  duration=float(meta["duration"]), sections=list(meta["sections"]),
                  narration=list(meta["narration"]), cues=list(meta["cues"]), captions=captions)


def part_path(path: Path) -> Path:
    """The temporary name ``path`` is written under before it is renamed into place."""
    return path.with_name(f".{path.name}.part")


@contextlib.contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """Yield a temporary path to write; rename it to ``path`` only if the block succeeds.

    On any failure (a full disk, an exception, Ctrl-C) the temporary file is removed and
    ``path`` keeps its previous content. A killed process leaves the ``.part`` file,
    which the next run's :func:`clean_leftovers` removes.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = part_path(path)
    try:
        yield tmp
        with open(tmp, "rb") as f:  # the data, not only the name, must be on disk before the rename
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file renamed into place."""
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def _move_into_place(produced: Path, final: Path) -> None:
    final.parent.mkdir(parents=True, exist_ok=True)
    if produced.is_dir():  # png: a folder of frames, swapped in whole
        tmp = part_path(final)
        old = final.with_name(f".{final.name}.old")  # put back by clean_leftovers if we die mid-swap
        shutil.rmtree(tmp, ignore_errors=True)
        try:
            shutil.copytree(produced, tmp)
            shutil.rmtree(old, ignore_errors=True)
            if final.exists():
                os.replace(final, old)
            os.replace(tmp, final)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(old, ignore_errors=True)
        return
    with atomic_path(final) as tmp:
        shutil.copyfile(produced, tmp)


def render_job(job: Job, started: Any = None) -> Result:
    """Render one scene (in this process). ``started`` is an optional queue told when we begin."""
    if started is not None:
        started.put(job.scene)
    from scenes.base import LESSON_ENV
    from scenes.narration import VOICE_ENV, compose_srt, compose_vtt

    os.environ[LESSON_ENV] = job.lesson_spec
    os.environ[VOICE_ENV] = job.voice
    from manim import tempconfig

    from scenes.lecture import find_scene

    cls = find_scene(job.scene)
    t0 = time.perf_counter()
    shutil.rmtree(job.work, ignore_errors=True)  # leftovers of an interrupted run
    settings = {
        "quality": QUALITIES[job.quality],
        "media_dir": str(job.work),
        "output_file": job.scene,
        "progress_bar": "none",
        "verbosity": "WARNING",
        # Manim's "png" is the last frame only; ours is every frame, Manim's "png-sequence".
        "format": "png-sequence" if job.fmt == "png" else job.fmt,
        "disable_caching": False,
        "video_encoder_options": ENCODER_OPTIONS.get(job.fmt, {}),
    }
    with tempconfig(settings):
        scene = cls()
        scene.render()
        if job.fmt == "png":
            produced = Path(scene.renderer.file_writer.image_sequence_directory)
        else:
            produced = Path(scene.renderer.file_writer.movie_file_path)
            if job.fmt == "gif":
                produced = produced.with_suffix(".gif")
    if not produced.exists():
        raise RuntimeError(f"manim did not produce {produced} for {job.scene}")
    # The old record goes first: if we die between here and the new record, the next
    # run finds no record and renders again instead of trusting a mismatched pair.
    job.sidecar.unlink(missing_ok=True)
    _move_into_place(produced, job.final)
    sections = [{"title": t, "start_s": round(s, 6), "end_s": round(e, 6)} for t, s, e in scene.section_times()]
    duration = float(scene.renderer.time)
    cue_list = scene.caption_cues()
    write_atomic(job.caption_file("srt"), compose_srt(cue_list).encode())
    write_atomic(job.caption_file("vtt"), compose_vtt(cue_list).encode())
    narration = [{"section": n.section, "text": n.text, "start_s": round(n.start, 6), "speech_s": round(n.speech, 6),
                  "spoken": n.spoken} for n in scene.narrations]
    cues = [{"start": c.start, "end": c.end, "text": c.text} for c in cue_list]
    meta = {"key": job.key, "scene": job.scene, "duration": duration, "sections": sections,
            "narration": narration, "cues": cues}
    write_atomic(job.sidecar, json.dumps(meta, indent=1, ensure_ascii=False).encode())
    shutil.rmtree(job.work, ignore_errors=True)
    return Result(scene=job.scene, path=str(job.final), seconds=time.perf_counter() - t0, cached=False,
                  duration=duration, sections=sections, narration=narration, cues=cues,
                  captions=[str(job.caption_file(e)) for e in ("srt", "vtt")])


def _watch_parent(parent: int) -> None:
    """Exit when the parent is gone (killed outright): nobody would collect our result."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


_STARTED: Any = None  # the queue a worker announces its scenes on (set by _worker_init)


def _worker_init(started: Any, parent: int) -> None:
    global _STARTED
    _STARTED = started
    # Ctrl-C in a terminal reaches every process of the group; only the parent acts on it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # The parent started us with SIGTERM blocked (see Workers.submit_all); a terminate()
    # that arrived while we were importing is delivered now and ends us.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    threading.Thread(target=_watch_parent, args=(parent,), name="watch-parent", daemon=True).start()
    # tqdm (Manim's progress bars) would otherwise create a multiprocessing semaphore,
    # which a terminated worker leaks: Python then prints a warning after our last line.
    from tqdm import tqdm

    tqdm.set_lock(threading.RLock())


def _render_in_worker(job: Job) -> Result:
    """``render_job`` in a worker, with a full-disk error sent back as a plain ``OSError``.

    The parent needs the errno to print one clear line; Manim wraps it in a
    ``RuntimeError`` and PyAV's own ``OSError`` subclasses do not always pickle.
    """
    try:
        return render_job(job, _STARTED)
    except Exception as exc:
        err = storage_error(exc)
        if err is None:
            raise
        raise OSError(err.errno, err.strerror, err.filename) from None


class Workers:
    """Spawned worker processes that ignore Ctrl-C, die with their parent, and stop at once on an error.

    ``submit_all`` starts the processes (the pool spawns them on submit) with SIGINT
    and SIGTERM blocked. A Ctrl-C arriving while a worker still imports Python then
    cannot print a traceback there, and a signal cannot interrupt the parent between
    starting a process and recording it in the pool, which would leave a worker that
    nobody terminates, still writing in the work folder after the clean-up. The parent
    receives the signal as soon as the mask is restored.
    """

    def __init__(self, n: int) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.started = ctx.SimpleQueue()
        self.pool = ProcessPoolExecutor(max_workers=n, mp_context=ctx, initializer=_worker_init,
                                        initargs=(self.started, os.getpid()))

    def submit_all(self, fn: Callable[..., Any], calls: Iterable[tuple[Any, ...]]) -> list[Future[Any]]:
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        try:
            return [self.pool.submit(fn, *args) for args in calls]
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)

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
        # Stop now rather than let running scenes finish (shutdown would wait for them).
        # Python 3.14's ProcessPoolExecutor.terminate_workers() does the same.
        procs = list((self.pool._processes or {}).values())
        procs += [p for p in multiprocessing.active_children() if p not in procs]
        for p in procs:
            p.terminate()
        self.pool.shutdown(wait=False, cancel_futures=True)
        # Every worker must be gone before the caller removes the work folder: one that
        # still ran would write there after the clean-up.
        for p in procs:
            p.join(timeout=5)
            if p.is_alive():
                p.kill()
                p.join()


def render_many(
    jobs: Sequence[Job],
    n_jobs: int,
    on_start: Callable[[str], None] = lambda s: None,
    on_done: Callable[[Result], None] = lambda r: None,
) -> list[Result]:
    """Render ``jobs`` (skipping cached ones) on up to ``n_jobs`` processes, in lecture order.

    Scenes always render in worker processes, even one scene: the parent then never
    runs Manim, so a Ctrl-C or SIGTERM reaching it is handled in one place.
    """
    results: dict[str, Result] = {}
    todo = []
    for job in jobs:
        hit = cached_result(job)
        if hit is not None:
            results[job.scene] = hit
            on_done(hit)
        else:
            todo.append(job)
    if todo:
        with Workers(min(n_jobs, len(todo))) as workers:
            pending: set[Future[Result]] = set(workers.submit_all(_render_in_worker, [(j,) for j in todo]))
            while pending:
                done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                for scene in workers.started_scenes():
                    on_start(scene)
                for f in done:
                    try:
                        r = f.result()
                    except BrokenProcessPool:
                        raise UserError("a render process stopped abruptly (killed, or out of memory?); "
                                        "run again, with fewer --jobs if memory is short", code=1) from None
                    results[r.scene] = r
                    on_done(r)
    return [results[j.scene] for j in jobs]


def clean_leftovers(root: Path) -> None:
    """Remove what a killed run left in ``root``: ``.part`` files and the ``.work`` folder.

    A png folder caught mid-swap (``.NAME.old`` without ``NAME``) is put back, so the
    previous good frames survive. Only our own folders are searched: other lessons'
    roots live inside media/ too, under their own lock.
    """
    shutil.rmtree(root / ".work", ignore_errors=True)
    for sub in OUTPUT_FOLDERS:
        folder = root / sub
        if not folder.is_dir():
            continue
        for p in sorted(folder.rglob(".*.old")):
            final = p.with_name(p.name[1:-len(".old")])
            if final.exists():
                shutil.rmtree(p, ignore_errors=True)
            else:
                os.replace(p, final)
        for p in sorted(folder.rglob(".*.part")):
            if p.is_dir():
                shutil.rmtree(p, ignore_errors=True)
            else:
                p.unlink(missing_ok=True)


def _nearly_full(root: Path) -> bool:
    """Less than 1 MiB free: a failed render there most likely ran out of space."""
    try:
        return shutil.disk_usage(root).free < 1 << 20
    except OSError:
        return False


@contextlib.contextmanager
def claim_output(root: Path) -> Iterator[None]:
    """Hold the output root for this run: lock it, clean leftovers before and after.

    A second ``attnvid`` on the same root says that it waits and waits (``flock``
    blocks; the kernel releases the lock when its holder exits, even when killed).
    A full disk or an unwritable folder becomes one line naming ``root``; whatever the
    failed run left there (``.part`` files, Manim's work folder) is removed.
    """
    try:
        root.mkdir(parents=True, exist_ok=True)
        fd = os.open(root / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        if storage_error(exc) is not None:
            raise UserError(storage_message(exc, root), code=1) from None
        raise
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            click.echo(f"attnvid: waiting for another attnvid run on {root} to finish", err=True)
            fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            clean_leftovers(root)
            yield
        except BaseException as exc:
            err = storage_error(exc) if isinstance(exc, Exception) else None
            if err is None and isinstance(exc, Exception) and _nearly_full(root):
                # Not every write reports a full disk: cairo (through manimpango) leaves a
                # text's SVG cut short, and Manim then fails to parse it.
                err = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(root))
            with contextlib.suppress(OSError):
                clean_leftovers(root)
            if err is not None:
                raise UserError(storage_message(err, root), code=1) from None
            raise
        with contextlib.suppress(OSError):
            shutil.rmtree(root / ".work")
    finally:
        os.close(fd)  # releases the lock


def result_json(r: Result) -> dict[str, Any]:
    return asdict(r)
