"""``attnvid lecture``: the whole lecture as one folder, ready to embed or present."""

from __future__ import annotations

from pathlib import Path

import click

from attncore import Lesson
from scenes.narration import compose_srt, compose_vtt

from .assemble import (
    chapters_for,
    chapters_vtt,
    join_videos,
    lecture_cues,
    narration_markdown,
    poster,
    write_manifest,
)
from .common import get_lesson, lesson_option
from .engine import QUALITIES, Job, claim_output, write_atomic
from .page import lecture_page
from .render_cmd import default_jobs, lesson_spec, output_root, plan, run_jobs


@click.command("lecture")
@click.option("--quality", "-q", type=click.Choice(list(QUALITIES)), default="low", show_default=True)
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None, help="Parallel processes [default: cores].")
@lesson_option
@click.option("--voice", default="none", show_default=True, metavar="none|espeak|recorded:DIR",
              help="Narration voice (espeak-ng offline, or your recordings); captions are written in every case.")
@click.option("--media", type=click.Path(path_type=Path, file_okay=False), default=Path("media"), show_default=True,
              help="Where outputs go.")
def lecture(quality: str, jobs: int | None, lesson_path: Path | None, voice: str, media: Path) -> None:
    """Render every scene and assemble the lecture folder.

    The folder (media/lecture/<quality>/ for the built-in lesson, media/<lesson>/lecture/
    <quality>/ for others) holds lecture.mp4 (faststart, one chapter per section),
    chapters.vtt, one poster PNG per scene, index.html (offline player with chapters and
    presenter mode) and manifest.json. Its path is the last line printed.
    """
    lesson = get_lesson(lesson_path)
    job_list = plan(lesson, lesson_spec(lesson_path), (), quality, "mp4", media, voice)
    root = output_root(lesson, media)
    with claim_output(root):
        folder, duration, n_chapters = _render_and_assemble(lesson, job_list, quality, voice, jobs or default_jobs(), root)
    click.echo(f"lecture: {duration:.1f} s, {n_chapters} chapters, {len(job_list)} scenes", err=True)
    click.echo(str(folder))


def _render_and_assemble(lesson: Lesson, job_list: list[Job], quality: str, voice: str, n_jobs: int,
                         root: Path) -> tuple[Path, float, int]:
    """Render the scenes and write the lecture folder; every file goes through a ``.part`` name."""
    results = run_jobs(job_list, n_jobs)
    from scenes.lecture import find_scene

    folder = root / "lecture" / quality
    folder.mkdir(parents=True, exist_ok=True)
    titles = [find_scene(j.scene).TITLE for j in job_list]
    chapters = chapters_for(results, titles)
    duration = join_videos([Path(r.path) for r in results], folder / "lecture.mp4", chapters)
    write_atomic(folder / "chapters.vtt", chapters_vtt(chapters).encode())
    (folder / "posters").mkdir(exist_ok=True)
    posters = []
    for j, r in zip(job_list, results, strict=True):
        rel = f"posters/{j.stem}.png"
        poster(Path(r.path), folder / rel)
        posters.append(rel)
    cues = lecture_cues(results)
    write_atomic(folder / "captions.srt", compose_srt(cues).encode())
    write_atomic(folder / "captions.vtt", compose_vtt(cues).encode())
    write_atomic(folder / "narration.md", narration_markdown(lesson.title, results, titles).encode())
    manifest = {
        "title": lesson.title,
        "quality": quality,
        "duration_s": round(duration, 6),
        "video": "lecture.mp4",
        "chapters": [{"title": c.title, "start_s": round(c.start_s, 6), "end_s": round(c.end_s, 6)} for c in chapters],
        "chapters_vtt": "chapters.vtt",
        "posters": posters,
        "page": "index.html",
        "captions": [
            {"path": "captions.vtt", "format": "vtt", "lang": lesson.language, "label": "Captions"},
            {"path": "captions.srt", "format": "srt", "lang": lesson.language, "label": "Captions"},
        ],
        "narration": "narration.md",
        "voice": voice if voice in ("none", "espeak") else "recorded",
    }
    write_manifest(folder, manifest)
    page_cues = [{"start": c.start, "end": c.end, "text": c.text} for c in cues]
    write_atomic(folder / "index.html", lecture_page(manifest, lesson.title, page_cues).encode())
    return folder, duration, len(chapters)
