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
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import Any

#: Our quality names and Manim's.
QUALITIES = {"low": "low_quality", "medium": "medium_quality", "high": "high_quality", "4k": "fourk_quality"}
FORMATS = ("mp4", "webm", "gif", "png")
CACHE_VERSION = "attnvid-cache-1"

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


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file renamed into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.part")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _move_into_place(produced: Path, final: Path) -> None:
    final.parent.mkdir(parents=True, exist_ok=True)
    if produced.is_dir():  # png: a folder of frames, swapped in whole
        tmp = final.with_name(f".{final.name}.part")
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.copytree(produced, tmp)
        old = final.with_name(f".{final.name}.old")
        shutil.rmtree(old, ignore_errors=True)
        if final.exists():
            os.replace(final, old)
        os.replace(tmp, final)
        shutil.rmtree(old, ignore_errors=True)
        return
    tmp = final.with_name(f".{final.name}.part")
    shutil.copyfile(produced, tmp)
    os.replace(tmp, final)


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
        "format": job.fmt,
        "write_to_movie": job.fmt != "png",
        "save_pngs": job.fmt == "png",
        "disable_caching": False,
    }
    with tempconfig(settings):
        scene = cls()
        scene.render()
        if job.fmt == "png":
            produced = Path(scene.renderer.file_writer.image_file_path).parent
        else:
            produced = Path(scene.renderer.file_writer.movie_file_path)
            if job.fmt == "gif":
                produced = produced.with_suffix(".gif")
    if not produced.exists():
        raise RuntimeError(f"manim did not produce {produced} for {job.scene}")
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


def render_many(
    jobs: Sequence[Job],
    n_jobs: int,
    on_start: Callable[[str], None] = lambda s: None,
    on_done: Callable[[Result], None] = lambda r: None,
) -> list[Result]:
    """Render ``jobs`` (skipping cached ones) on up to ``n_jobs`` processes, in lecture order."""
    results: dict[str, Result] = {}
    todo = []
    for job in jobs:
        hit = cached_result(job)
        if hit is not None:
            results[job.scene] = hit
            on_done(hit)
        else:
            todo.append(job)
    if todo and (n_jobs <= 1 or len(todo) == 1):
        for job in todo:
            on_start(job.scene)
            r = render_job(job)
            results[job.scene] = r
            on_done(r)
    elif todo:
        ctx = multiprocessing.get_context("spawn")
        with ctx.Manager() as manager:
            started = manager.Queue()
            with ProcessPoolExecutor(max_workers=min(n_jobs, len(todo)), mp_context=ctx) as pool:
                futures: dict[Future[Result], Job] = {pool.submit(render_job, j, started): j for j in todo}
                pending = set(futures)
                try:
                    while pending:
                        done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                        while not started.empty():
                            on_start(started.get())
                        for f in done:
                            r = f.result()
                            results[r.scene] = r
                            on_done(r)
                except BaseException:
                    for f in pending:
                        f.cancel()
                    pool.shutdown(wait=False, cancel_futures=True)
                    raise
    return [results[j.scene] for j in jobs]


def result_json(r: Result) -> dict[str, Any]:
    return asdict(r)
