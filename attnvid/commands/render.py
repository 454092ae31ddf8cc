"""``attnvid render``: render scenes (all, in lecture order, when none are named)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import click

from attncore import Lesson

from .common import UserError, get_lesson, lesson_option
from .doctor_cmd import require_runtime
from .engine import FORMATS, QUALITIES, Job, Result, cache_key, claim_output, render_many
from .progress import SceneProgress


def output_root(lesson: Lesson, media: Path) -> Path:
    """The built-in lesson's outputs go under media/; other lessons under media/<slug>/."""
    return media if lesson.slug == "default" else media / lesson.slug


def lesson_spec(lesson_path: Path | None) -> str:
    """How worker processes find the lesson again: an absolute path or a built-in name."""
    if lesson_path is None:
        return ""
    return str(lesson_path.resolve()) if lesson_path.exists() else str(lesson_path)


def check_voice(voice: str, lesson: Lesson) -> str:
    """Fail early, in one line, when the voice cannot speak here; return its cache fingerprint."""
    from scenes.narration import VoiceError, voice_from_spec

    try:
        v = voice_from_spec(voice, lesson.language)
        return v.fingerprint()
    except VoiceError as exc:
        raise UserError(str(exc), code=1) from None


def plan(lesson: Lesson, spec: str, names: Sequence[str], quality: str, fmt: str, media: Path,
         voice: str = "none") -> list[Job]:
    """Jobs for the named scenes (all when none), each with its cache key.

    Checks first that the system parts the render needs are present (the same line as
    ``attnvid doctor`` when one is not), before anything is written.
    """
    require_runtime(voice)
    fingerprint = check_voice(voice, lesson)
    os.environ["ATTNVID_LESSON"] = spec
    from scenes.lecture import LECTURE, find_scene, scene_file

    chosen = []
    for s in names:
        try:
            chosen.append(find_scene(s))
        except KeyError:
            known = ", ".join(c.__name__ for c in LECTURE)
            raise UserError(f"unknown scene {s!r}; choose from: {known}") from None
    chosen = chosen or list(LECTURE)
    root = output_root(lesson, media)
    repo = Path(__file__).resolve().parents[2]
    return [
        Job(scene=c.__name__, index=LECTURE.index(c) + 1, quality=quality, fmt=fmt, lesson_spec=spec,
            root=str(root), key=cache_key(repo / scene_file(c), repr(lesson), quality, fmt, fingerprint), voice=voice)
        for c in chosen
    ]


def run_jobs(jobs: list[Job], n_jobs: int) -> list[Result]:
    with SceneProgress([j.scene for j in jobs]) as progress:
        return render_many(jobs, n_jobs, on_start=progress.start, on_done=progress.done)


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


@click.command("render")
@click.argument("scenes", nargs=-1)
@click.option("--quality", "-q", type=click.Choice(list(QUALITIES)), default="low", show_default=True)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="mp4", show_default=True,
              help="mp4, webm, gif, or png (a folder of frames per scene).")
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None, help="Parallel processes [default: cores].")
@lesson_option
@click.option("--voice", default="none", show_default=True, metavar="none|espeak|recorded:DIR",
              help="Narration voice; captions are written in every case.")
@click.option("--media", type=click.Path(path_type=Path, file_okay=False), default=Path("media"), show_default=True,
              help="Where outputs go.")
def render(scenes: tuple[str, ...], quality: str, fmt: str, jobs: int | None, lesson_path: Path | None,
           voice: str, media: Path) -> None:
    """Render SCENES (class or file names; all scenes when none are given).

    Prints the path of each video, in lecture order. Scenes whose inputs did not change
    since their last render are not rendered again.
    """
    lesson = get_lesson(lesson_path)
    job_list = plan(lesson, lesson_spec(lesson_path), scenes, quality, fmt, media, voice)
    with claim_output(output_root(lesson, media)):
        results = run_jobs(job_list, jobs or default_jobs())
    for r in results:
        click.echo(r.path)
