"""``attnvid lecture``: the whole lecture as one folder, ready to embed or present."""

from __future__ import annotations

from pathlib import Path

import click

from attnstage.settings import SceneSettings

from ..catalog import lecture_parts, resolve_scene
from ..lessons import get_lesson, output_root
from ..options import jobs_option, media_option, render_options
from ..outputs import claim_output
from ..publish.assemble import assemble_lecture
from ..publish.handout import print_frames
from ..publish.package import PackageSettings
from ..render.engine import run_jobs
from ..render.jobs import default_jobs, plan
from ..render.workers import start_early
from .package import format_option, in_video_option, render_command, write_packages


@click.command("lecture")
@jobs_option
@render_options(
    "Narration voice (espeak-ng or Piper, offline, or your recordings); captions are written in every case."
)
@format_option("--package", "Also package the lecture for a learning platform (repeat for several; "
                            "see attnvid package, which takes the same formats and more settings).")
@in_video_option
@media_option()
def lecture(jobs: int | None, settings: SceneSettings, formats: tuple[str, ...], in_video: bool, media: Path) -> None:
    """Render the lesson's scenes and assemble the lecture folder.

    The lecture holds the scenes of the lesson's [lecture] parts (the default parts: every
    scene). The folder (media/lecture/<quality>/ for the built-in lesson, media/<lesson>/
    lecture/<quality>/ for others) holds lecture.mp4 (faststart, one chapter per section),
    chapters.vtt, one MP4 per part with its chapters and captions (parts/), one poster
    PNG per scene, every section as its own MP4 (sections/), lecture.pptx (a title slide
    per part, then one slide per section, its video playing by itself, the narration in
    the notes), handout.pdf (each section's last frame and narration), index.html (offline
    player with chapters, presenter mode, the parts, a self-check of the exercises and the
    Try it panel), playground.html (the panel on its own), the pages' scripts and styles
    (lecture.js, lecture.css and the like), workbook.xlsx (every number as a live formula),
    exercises.pdf, quiz.gift and quiz.xml (ten exercises with worked answers, seed 0) and
    manifest.json. Its path is the last line printed; with --package, the packages' paths
    follow it (as attnvid package writes them).
    """
    start_early()  # the workers' fork server imports Manim while this plans
    lesson = get_lesson(settings)
    names = [c.__name__ for part in lecture_parts(lesson) for c in part.scenes]  # the lesson's scenes, in order
    job_list = plan(lesson, settings, names, "mp4", media)
    root = output_root(lesson, media, settings.with_style(lesson.style))
    quality, voice = settings.quality, settings.voice
    folder = root / "lecture" / quality
    with claim_output(root):
        results = run_jobs(job_list, jobs or default_jobs())
        prints = print_frames(job_list, jobs or default_jobs())  # the handout's light frames
        titles = [resolve_scene(j.scene).TITLE for j in job_list]
        duration, n_chapters = assemble_lecture(folder, lesson, job_list, results, titles, quality, voice, prints,
                                                in_video)
        click.echo(f"lecture: {duration:.1f} s, {n_chapters} chapters, {len(job_list)} scenes", err=True)
        click.echo(str(folder))
        if formats:
            write_packages(folder, lesson, formats, PackageSettings(in_video=in_video),
                           render_command(settings))
