"""``attnvid package``: the rendered lecture as one file a learning platform imports."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import click
from click.decorators import FC

from attncore import Lesson
from attnstage.settings import SceneSettings

from ..lessons import get_lesson, output_root
from ..options import (
    language_option,
    lesson_option,
    media_option,
    quality_option,
    settings_options,
    theme_option,
)
from ..outputs import claim_output
from ..publish.package import (
    DEFAULT_MASTERY,
    FORMATS,
    PackageSettings,
    build_packages,
    lecture_exercises,
    read_lecture,
)


def format_option(name: str, help: str) -> Callable[[FC], FC]:
    return click.option(name, "formats", type=click.Choice(list(FORMATS)), multiple=True, help=help)


def in_video_option(f: FC) -> FC:
    return click.option("--in-video-questions", "in_video", is_flag=True, default=False,
                        help="Also ask the self-check's questions in the player, at the end of the chapter that "
                             "explains each (or [selfcheck] in_video = true in the lesson).")(f)


def render_command(settings: SceneSettings) -> str:
    """The ``attnvid lecture`` command that renders the lecture these settings (as the options gave them) name."""
    words = ["attnvid lecture", f"--quality {settings.quality}"]
    if settings.lesson:
        words.append(f"--lesson {settings.lesson}")
    if settings.language:
        words.append(f"--language {settings.language}")
    if settings.style:
        words.append(f"--theme {settings.style}")
    return " ".join(words)


def write_packages(folder: Path, lesson: Lesson, formats: Sequence[str], settings: PackageSettings,
                   render: str) -> None:
    """Package the lecture in ``folder``, printing each package's path (the last line is one)."""
    read_lecture(folder, render)
    paths = build_packages(folder, lesson, formats, settings, lecture_exercises(folder, lesson))
    for path, size in paths:
        click.echo(f"package: {path.name}, {size / 1e6:.1f} MB", err=True)
    for path, _size in paths:
        click.echo(str(path))


@click.command("package")
@format_option("--format", "What to make (repeat for several): scorm12 (SCORM 1.2, Moodle, Open edX, Canvas's "
                           "SCORM tool), cc (Common Cartridge 1.1, Canvas), zip (the offline page) [default: scorm12].")
@settings_options(quality_option, lesson_option, theme_option, language_option)
@click.option("--mastery", type=click.IntRange(0, 100), default=DEFAULT_MASTERY, show_default=True,
              help="The self-check score (0-100) that passes (adlcp:masteryscore).")
@click.option("--max-size", "max_size", type=click.FloatRange(0, min_open=True), default=None, metavar="MB",
              help="Refuse to write a package larger than this (MB, 10^6 bytes): a platform's upload limit.")
@click.option("--one-item", is_flag=True, default=False,
              help="One SCO for the whole lecture instead of one per part.")
@in_video_option
@media_option()
def package(formats: tuple[str, ...], settings: SceneSettings, mastery: int,
            max_size: float | None, one_item: bool, in_video: bool, media: Path) -> None:
    """Package the rendered lecture for a learning platform, without rendering again.

    Writes media/lecture/<quality>/attnvid-<lesson>-<language>.scorm12.zip (.imscc, .zip)
    from the folder `attnvid lecture` made with the same options: every file of it, its
    pages with a Content-Security-Policy allowing only the package's files, and a script
    that reports progress, the self-check's score and the student's answers to the
    platform's SCORM 1.2 API. Each package's path is printed, the last line being one.
    """
    lesson = get_lesson(settings)
    root = output_root(lesson, media, settings.with_style(lesson.style))
    folder = root / "lecture" / settings.quality
    packaging = PackageSettings(mastery, max_size, one_item, in_video)
    render = render_command(settings)
    if not folder.is_dir():
        read_lecture(folder, render)  # one line naming the command, before any folder is made
    with claim_output(root):
        write_packages(folder, lesson, formats or ("scorm12",), packaging, render)
