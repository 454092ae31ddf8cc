"""``attnvid render``: render scenes (all, in lecture order, when none are named)."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import click

from .common import UserError, get_lesson, lesson_option

#: Our quality names and Manim's.
QUALITIES = {"low": "low_quality", "medium": "medium_quality", "high": "high_quality", "4k": "fourk_quality"}


def output_root(slug: str, media: Path) -> Path:
    """The built-in lesson's outputs go under media/; other lessons under media/<slug>/."""
    return media if slug == "default" else media / slug


def render_scene(cls: type, quality: str, work: Path, final: Path) -> float:
    """Render one scene with Manim in this process; move the finished video into ``final``.

    The video is written under ``work`` and renamed into place only when complete, so an
    interrupted render never leaves a truncated file at ``final``.
    """
    from manim import tempconfig

    t0 = time.perf_counter()
    name = cls.__name__
    settings = {
        "quality": QUALITIES[quality],
        "media_dir": str(work),
        "output_file": name,
        "progress_bar": "none",
        "verbosity": "WARNING",
        "write_to_movie": True,
        "format": "mp4",
    }
    with tempconfig(settings):
        scene = cls()
        scene.render()
        produced = Path(scene.renderer.file_writer.movie_file_path)
    if not produced.is_file():
        raise UserError(f"manim did not produce a video for {name}; see the messages above", code=1)
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = final.with_name(f".{final.name}.part")
    shutil.copyfile(produced, tmp)
    os.replace(tmp, final)
    return time.perf_counter() - t0


@click.command("render")
@click.argument("scenes", nargs=-1)
@click.option("--quality", "-q", type=click.Choice(list(QUALITIES)), default="low", show_default=True)
@lesson_option
@click.option("--media", type=click.Path(path_type=Path, file_okay=False), default=Path("media"), show_default=True,
              help="Where outputs go.")
def render(scenes: tuple[str, ...], quality: str, lesson_path: Path | None, media: Path) -> None:
    """Render SCENES (class or file names; all scenes when none are given)."""
    lesson = get_lesson(lesson_path)
    if lesson_path is not None:
        spec = Path(lesson_path)
        os.environ["ATTNVID_LESSON"] = str(spec.resolve()) if spec.exists() else str(spec)
    from scenes.lecture import LECTURE, find_scene

    chosen = []
    for s in scenes:
        try:
            chosen.append(find_scene(s))
        except KeyError:
            names = ", ".join(c.__name__ for c in LECTURE)
            raise UserError(f"unknown scene {s!r}; choose from: {names}") from None
    chosen = chosen or list(LECTURE)
    root = output_root(lesson.slug, media)
    work = root / ".work" / quality
    for cls in chosen:
        k = LECTURE.index(cls) + 1
        final = root / "scenes" / quality / f"{k:02d}_{cls.__name__}.mp4"
        secs = render_scene(cls, quality, work, final)
        click.echo(f"rendered {cls.__name__} in {secs:.1f} s", err=True)
        click.echo(str(final))
