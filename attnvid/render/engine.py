"""The render engine: one scene per worker process, cached results, atomic outputs.

Each scene renders in its own process and its own Manim work folder, so that scenes
run in parallel without racing on Manim's caches. A finished video is copied to a
temporary name beside its final path and renamed into place (:mod:`attnvid.outputs`),
then a small JSON "sidecar" records the cache key (:mod:`attnvid.render.cache`), the duration
and the section times. A scene whose cache key did not change is not rendered again.

Reliability (what a killed, interrupted or failed run leaves behind): see
:mod:`attnvid.outputs` (complete files or none, one run per folder) and
:mod:`attnvid.render.workers` (no orphaned render process). Determinism: the same lesson,
quality and versions give the same decoded frames and the same MP4 bytes on any machine
(see :data:`attnvid.render.settings.X264_OPTIONS` for why).

Speed: every core renders a scene, the longest first (:mod:`attnvid.render.schedule`), with
Manim's own per-animation cache off and each distinct frame converted to yuv420p once
(:mod:`attnvid.render.encoder`). Where the scenes render is a parameter of
:func:`render_many`: worker processes here by default, a Dask cluster for
``attnvid batch --cluster`` (:mod:`attnvid.render.cluster`).
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from pathlib import Path
from typing import Any

from attnstage.speech.captions import compose_srt, compose_vtt

from ..catalog import manim_renderer, resolve_scene
from ..errors import UserError, storage_error
from ..outputs import move_into_place, write_atomic
from .jobs import Job, Result
from .progress import SceneProgress
from .schedule import longest_first, remember_times
from .settings import manim_settings, quiet_noise
from .workers import Workers, started_queue

#: Called with a job's label, and where it renders ("" for this machine), when its render begins.
OnStart = Callable[[str, str], None]
#: Called with a job and its result when it is done (rendered, or unchanged).
OnDone = Callable[[Job, Result], None]
#: Renders jobs that are not cached (on up to ``n`` processes), reporting as they start and end.
Backend = Callable[[Sequence[Job], int, OnStart, OnDone], list[Result]]


def cached_result(job: Job) -> Result | None:
    """The previous result of ``job`` if its outputs exist and its key is unchanged."""
    try:
        meta = json.loads(job.sidecar.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if meta.get("key") != job.key or not job.final.exists():
        return None
    if not all(Path(c).is_file() for c in job.captions):
        return None
    return Result(scene=job.scene, path=str(job.final), seconds=0.0, cached=True,
                  duration=float(meta["duration"]), sections=list(meta["sections"]),
                  narration=list(meta["narration"]), cues=list(meta["cues"]), captions=job.captions)


def _scene_class(job: Job) -> Any:
    """The scene class of ``job``, imported for the job's settings (which the scene reads from the environment).

    Unless the settings name a folder of parsed texts, the run's scenes share one, in the output
    root's work folder (removed at the end of the run, as the rest of it): a label another scene
    of the run parsed, in another process, is read back instead of laid out and parsed again
    (the lecture's two workers at 480p parse 125 of their 930 texts both).
    """
    settings = job.settings
    if not settings.text_cache:
        settings = replace(settings, text_cache=str(Path(job.root) / ".work" / "texts"))
    settings.to_environ()
    return resolve_scene(job.file or job.scene)


def _run_manim(job: Job, cls: Any) -> tuple[Any, Path]:
    """Render ``cls`` with Manim in the job's work folder: the scene, and the file (or folder) it made."""
    from manim import tempconfig

    shutil.rmtree(job.work, ignore_errors=True)  # leftovers of an interrupted run
    quiet_noise()
    with tempconfig(manim_settings(job.scene, job.quality, job.fmt, str(job.work))):
        scene = cls(renderer=manim_renderer())
        scene.render()
        if job.fmt == "png":
            produced = Path(scene.renderer.file_writer.image_sequence_directory)
        else:
            produced = Path(scene.renderer.file_writer.movie_file_path)
            if job.fmt == "gif":
                produced = produced.with_suffix(".gif")
    if not produced.exists():
        raise RuntimeError(f"manim did not produce {produced} for {job.scene}")
    return scene, produced


def _record(job: Job, scene: Any, seconds: float) -> Result:
    """Write the captions and the sidecar of a rendered scene; its result."""
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
    return Result(scene=job.scene, path=str(job.final), seconds=seconds, cached=False, duration=duration,
                  sections=sections, narration=narration, cues=cues, captions=job.captions)


def render_job(job: Job, started: Any = None) -> Result:
    """Render one scene (in this process). ``started`` is an optional queue told when we begin."""
    if started is not None:
        started.put(job.label)
    cls = _scene_class(job)
    t0 = time.perf_counter()
    scene, produced = _run_manim(job, cls)
    # The old record goes first: if we die between here and the new record, the next
    # run finds no record and renders again instead of trusting a mismatched pair.
    job.sidecar.unlink(missing_ok=True)
    move_into_place(produced, job.final)
    result = _record(job, scene, 0.0)
    shutil.rmtree(job.work, ignore_errors=True)
    result.seconds = time.perf_counter() - t0
    return result


def _render_in_worker(job: Job) -> Result:
    """``render_job`` in a worker, with a full-disk error sent back as a plain ``OSError``.

    The parent needs the errno to print one clear line; Manim wraps it in a
    ``RuntimeError`` and PyAV's own ``OSError`` subclasses do not always pickle.
    """
    try:
        return render_job(job, started_queue())
    except Exception as exc:
        err = storage_error(exc)
        if err is None:
            raise
        raise OSError(err.errno, err.strerror, err.filename) from None


def _collect(future: Future[Result]) -> Result:
    try:
        return future.result()
    except BrokenProcessPool:
        raise UserError("a render process stopped abruptly (killed, or out of memory?); "
                        "run again, with fewer --jobs if memory is short", code=1) from None


def render_locally(todo: Sequence[Job], n_jobs: int, on_start: OnStart, on_done: OnDone) -> list[Result]:
    """Render ``todo`` on up to ``n_jobs`` worker processes of this machine (the default backend)."""
    out = []
    with Workers(min(n_jobs, len(todo))) as workers:
        futures = {f: j for f, j in zip(workers.submit_all(_render_in_worker, [(j,) for j in todo]), todo, strict=True)}
        pending: set[Future[Result]] = set(futures)
        while pending:
            done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            for label in workers.started_scenes():
                on_start(label, "")
            for f in done:
                r = _collect(f)
                out.append(r)
                on_done(futures[f], r)
    return out


def render_many(
    jobs: Sequence[Job],
    n_jobs: int,
    on_start: OnStart = lambda label, where: None,
    on_done: OnDone = lambda job, r: None,
    backend: Backend = render_locally,
) -> list[Result]:
    """Render ``jobs`` (skipping cached ones) with ``backend``; the results in the order of ``jobs``.

    The jobs to render go longest first (by their last render's time, see
    :mod:`attnvid.render.schedule`), so that no core idles at the end while one long scene
    finishes. Locally, scenes always render in worker processes, even one scene: the
    parent then never runs Manim, so a Ctrl-C or SIGTERM reaching it is handled in one
    place.
    """
    results: dict[Job, Result] = {}
    todo = []
    for job in jobs:
        hit = cached_result(job)
        if hit is not None:
            results[job] = hit
            on_done(job, hit)
        else:
            todo.append(job)
    if todo:
        by_path = {str(j.final): j for j in todo}
        rendered = backend(longest_first(todo), n_jobs, on_start, on_done)
        results.update((by_path[r.path], r) for r in rendered)
        remember_times([(by_path[r.path], r) for r in rendered])
    return [results[j] for j in jobs]


def run_jobs(jobs: list[Job], n_jobs: int) -> list[Result]:
    """:func:`render_many` with a line per scene on stderr while it works."""
    with SceneProgress([j.label for j in jobs]) as progress:
        return render_many(jobs, n_jobs, on_start=progress.start, on_done=progress.done)
