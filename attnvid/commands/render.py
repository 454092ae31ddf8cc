"""``attnvid render``: render scenes (all, in lecture order, when none are named)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import click

from attnstage.settings import SceneSettings

from ..catalog import is_scene_path, own_lesson_path, resolve_scenes
from ..lessons import get_lesson, output_root
from ..options import jobs_option, media_option, render_options
from ..outputs import claim_output
from ..render.engine import run_jobs
from ..render.jobs import default_jobs, plan
from ..render.settings import FORMATS
from ..render.workers import start_early


@click.command("render")
@click.argument("scenes", nargs=-1)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="mp4", show_default=True,
              help="mp4, webm, gif, or png (a folder of frames per scene).")
@jobs_option
@render_options("Narration voice; captions are written in every case.")
@media_option()
def render(scenes: tuple[str, ...], fmt: str, jobs: int | None, settings: SceneSettings, media: Path) -> None:
    """Render SCENES (class or file names; all scenes when none are given).

    A SCENE ending in .py is the path of a scene file of your own, anywhere on disk (one
    LessonScene subclass); without --lesson it draws the lesson its LESSON names. Prints
    the path of each video, in lecture order. Scenes whose inputs did not change since
    their last render are not rendered again.
    """
    start_early()  # the workers' fork server imports Manim while this plans
    if not settings.lesson and any(is_scene_path(s) for s in scenes):
        own = own_lesson_path(resolve_scenes(scenes))
        settings = replace(settings, lesson=str(own)) if own is not None else settings
    lesson = get_lesson(settings)
    job_list = plan(lesson, settings, scenes, fmt, media)
    with claim_output(output_root(lesson, media, settings.with_style(lesson.style))):
        results = run_jobs(job_list, jobs or default_jobs())
    for r in results:
        click.echo(r.path)
