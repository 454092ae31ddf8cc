"""``attnvid render``: render scenes (all, in lecture order, when none are named)."""

from __future__ import annotations

from pathlib import Path

import click

from ..catalog import is_scene_path, own_lesson_path, resolve_scenes
from ..lessons import get_lesson, lesson_spec, lesson_style, output_root
from ..options import (
    jobs_option,
    language_option,
    lesson_option,
    media_option,
    quality_option,
    rate_option,
    spoken_voice,
    theme_option,
    voice_option,
)
from ..outputs import claim_output
from ..render.engine import run_jobs
from ..render.jobs import default_jobs, plan
from ..render.settings import FORMATS


@click.command("render")
@click.argument("scenes", nargs=-1)
@quality_option
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="mp4", show_default=True,
              help="mp4, webm, gif, or png (a folder of frames per scene).")
@jobs_option
@lesson_option
@voice_option("Narration voice; captions are written in every case.")
@rate_option
@theme_option
@language_option
@media_option()
def render(scenes: tuple[str, ...], quality: str, fmt: str, jobs: int | None, lesson_path: Path | None,
           voice: str, rate: int | None, theme: str | None, media: Path) -> None:
    """Render SCENES (class or file names; all scenes when none are given).

    A SCENE ending in .py is the path of a scene file of your own, anywhere on disk (one
    LessonScene subclass); without --lesson it draws the lesson its LESSON names. Prints
    the path of each video, in lecture order. Scenes whose inputs did not change since
    their last render are not rendered again.
    """
    voice = spoken_voice(voice, rate)
    if lesson_path is None and any(is_scene_path(s) for s in scenes):
        lesson_path = own_lesson_path(resolve_scenes(scenes))
    lesson = get_lesson(lesson_path)
    style = lesson_style(theme, lesson)
    job_list = plan(lesson, lesson_spec(lesson_path), scenes, quality, fmt, media, voice, style)
    with claim_output(output_root(lesson, media, style)):
        results = run_jobs(job_list, jobs or default_jobs())
    for r in results:
        click.echo(r.path)
