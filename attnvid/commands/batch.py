"""``attnvid batch``: the lecture of every lesson given, on this machine or on a Dask cluster."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import click

from attncore import Lesson, LessonError
from attnstage.settings import DEFAULTS, SceneSettings

from ..catalog import check_lecture, lecture_parts, resolve_scene
from ..errors import UserError
from ..lessons import get_lesson, lesson_spec, output_root
from ..options import (
    jobs_option,
    language_option,
    media_option,
    quality_option,
    settings_options,
    theme_option,
    voice_options,
)
from ..outputs import claim_output
from ..publish.assemble import assemble_lecture
from ..publish.handout import print_frames
from ..render.cluster import ClusterBackend, LessonText, connect
from ..render.engine import Backend, render_locally, render_many
from ..render.jobs import Job, Result, default_jobs, plan
from ..render.progress import SceneProgress


@dataclass
class _Lesson:
    """One lesson of the batch: how it was named, where its outputs go, its jobs."""

    path: Path | None  # None: the built-in default lesson
    lesson: Lesson
    root: Path
    jobs: list[Job]
    results: dict[Job, Result]

    @property
    def folder(self) -> Path:
        return self.root / "lecture" / self.jobs[0].quality


def _named(args: Sequence[str], errors: list[str]) -> list[str]:
    """The lessons the arguments name: files, built-in names, and the ``.toml`` files of folders."""
    out: list[str] = []
    for a in args:
        p = Path(a)
        if p.is_dir():
            found = sorted(str(f) for f in p.glob("*.toml") if f.is_file())
            if not found:
                errors.append(f"{a}: a folder without lesson files; put .toml lesson files in it or name the files")
            out += found
        else:
            out.append(a)
    return out


def load_lessons(args: Sequence[str], media: Path,
                 settings: SceneSettings = DEFAULTS) -> list[tuple[Path | None, Lesson]]:
    """Every lesson of the batch, or a :class:`UserError` with one line per bad one.

    All are read before any work starts, so a typo in the tenth file does not stop the
    batch after nine lectures. Two lessons that would write to the same folder are an
    error too (the same lesson named twice is taken once).
    """
    errors: list[str] = []
    lessons: list[tuple[Path | None, Lesson]] = []
    roots: dict[Path, str] = {}
    for name in _named(args, errors):
        path = None if name == "default" else Path(name)
        try:
            lesson = get_lesson(replace(settings, lesson=lesson_spec(path)))
            check_lecture(lesson)
        except LessonError as exc:
            errors.append(str(exc))
            continue
        root = output_root(lesson, media, replace(settings, style=""))
        if root in roots:
            if roots[root] != repr(lesson):
                errors.append(f"{name}: writes to {root} like another lesson of the batch; rename one of the files")
            continue
        roots[root] = repr(lesson)
        lessons.append((path, lesson))
    if errors:
        raise UserError("\nattnvid: error: ".join(errors), code=2)
    return lessons


def _cluster_lessons(batch: list[_Lesson]) -> dict[str, LessonText]:
    """What a worker needs to find each lesson: the file's text, or a built-in name."""
    out: dict[str, LessonText] = {}
    for b in batch:
        spec = b.jobs[0].settings.lesson
        if b.path is not None and b.path.is_file():
            out[spec] = LessonText(b.path.read_text(encoding="utf-8"), b.lesson.source, b.path.name)
        else:
            out[spec] = LessonText(None, b.lesson.source)
    return out


def _planned(path: Path | None, lesson: Lesson, scenes: Sequence[str], settings: SceneSettings, media: Path) -> _Lesson:
    """One lesson of the batch with its jobs (its lecture's scenes, or ``scenes``) in its style."""
    names = scenes or [c.__name__ for part in lecture_parts(lesson) for c in part.scenes]
    settings = replace(settings, lesson=lesson_spec(path)).with_style(lesson.style)
    planned = plan(lesson, settings, names, "mp4", media)
    return _Lesson(
        path, lesson, output_root(lesson, media, settings), [replace(j, tag=lesson.slug) for j in planned], {}
    )


@click.command("batch")
@click.argument("lessons", nargs=-1, required=True)
@settings_options(quality_option,
                  voice_options("Narration voice of every lesson (espeak-ng offline, or recordings); captions are "
                                "written in every case."),
                  theme_option, language_option)
@jobs_option
@click.option("--scene", "scenes", multiple=True, metavar="SCENE",
              help="Only this scene (repeat the option for more); the lecture then holds only those. "
                   "[default: the lesson's lecture]")
@click.option("--cluster", default=None, metavar="tcp://HOST:PORT",
              help="Render on the Dask scheduler there (pip install 'attnvid[cluster]'; "
                   "workers need the same installation).")
@media_option()
def batch(lessons: tuple[str, ...], settings: SceneSettings, jobs: int | None,
          scenes: tuple[str, ...], cluster: str | None, media: Path) -> None:
    """Render the lecture of every LESSON: lesson files, built-in names, or folders of lesson files.

    Every lesson's scenes share one pool of processes (--jobs) or, with --cluster, the
    workers of a Dask scheduler; scenes whose inputs did not change are not rendered
    again. One progress display covers the batch; as each lesson's lecture is complete,
    its folder (as `attnvid lecture` writes it) is printed, one line per lesson.
    """
    t0 = time.perf_counter()
    quality, voice = settings.quality, settings.voice  # the rate travels in the voice's name
    found = load_lessons(lessons, media, settings)
    if cluster is not None and voice.startswith("recorded:"):
        raise UserError("--voice recorded:DIR is not available with --cluster (the workers cannot read DIR); "
                        "use --voice espeak or none", code=2)
    batch_lessons = [_planned(path, lesson, scenes, settings, media) for path, lesson in found]
    all_jobs = [j for b in batch_lessons for j in b.jobs]
    owner = {j: b for b in batch_lessons for j in b.jobs}

    with contextlib.ExitStack() as stack:
        backend: Backend = render_locally
        if cluster is not None:
            backend = ClusterBackend(stack.enter_context(connect(cluster)), _cluster_lessons(batch_lessons))
        for root in sorted({b.root for b in batch_lessons}):
            stack.enter_context(claim_output(root))
        progress = stack.enter_context(SceneProgress([j.label for j in all_jobs], announce_starts=True))

        def lesson_done(job: Job, r: Result) -> None:
            progress.done(job, r)
            b = owner[job]
            b.results[job] = r
            if len(b.results) == len(b.jobs):
                results = [b.results[j] for j in b.jobs]
                titles = [resolve_scene(j.scene).TITLE for j in b.jobs]
                prints = print_frames(b.jobs, jobs or default_jobs())  # the handout's light frames
                assemble_lecture(b.folder, b.lesson, b.jobs, results, titles, quality, voice, prints)
                click.echo(str(b.folder))

        results = render_many(all_jobs, jobs or default_jobs(), on_start=progress.start, on_done=lesson_done,
                              backend=backend)
    rendered = sum(not r.cached for r in results)
    click.echo(f"batch: {len(batch_lessons)} lessons, {rendered} scenes rendered, {len(results) - rendered} unchanged, "
               f"in {time.perf_counter() - t0:.1f} s", err=True)
