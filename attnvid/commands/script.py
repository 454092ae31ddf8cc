"""``attnvid script``: what to record for ``--voice recorded:DIR``, section by section.

The words of a section are built from the trace when the scene runs (each section calls
``self.narrate(text)``, or says the lesson's ``[narration]`` text instead), so they are
collected by running every scene with animations skipped (:func:`scenes.inspect.build`):
no frame is drawn and no video encoded.
"""

from __future__ import annotations

import textwrap
from dataclasses import replace
from pathlib import Path

import click

from attncore import Lesson
from attncore.i18n import _, use
from attnstage.settings import SceneSettings
from attnstage.speech.voices import recording_name

from ..catalog import build_scene, lecture_index, resolve_scenes
from ..lessons import get_lesson, output_root
from ..options import jobs_option, language_option, lesson_option, media_option, settings_options
from ..outputs import claim_output, write_atomic
from ..render.jobs import default_jobs
from ..render.runtime import require_runtime
from ..render.workers import Workers, start_early

SCRIPT_NAME = "recording_script.md"


@click.command("script")
@click.argument("scenes", nargs=-1)
@jobs_option
@settings_options(lesson_option, language_option)
@media_option()
def script(scenes: tuple[str, ...], jobs: int | None, settings: SceneSettings, media: Path) -> None:
    """Print the recording script: for every section, the WAV file to record and the words to read.

    Of SCENES (class or file names), or of the whole lecture when none are given. Record
    each block as FOLDER/<file name> and render with --voice recorded:FOLDER. The script
    is also written to media/script/recording_script.md (media/<lesson>/script/ for
    another lesson; recording_script_<Scene>...md for some scenes); its path is the last
    line printed.
    """
    start_early()  # the workers' fork server imports Manim while this plans
    lesson = get_lesson(settings)
    classes = resolve_scenes(scenes)
    names = [c.__name__ for c in classes]
    require_runtime()
    root = output_root(lesson, media, replace(settings, style=""))  # one script for both styles
    out = root / "script" / (SCRIPT_NAME if not scenes else f"recording_script_{'_'.join(names)}.md")
    with claim_output(root):
        said = _narrations_of(names, settings, root, jobs or default_jobs())
        text = compose_script(lesson, [(lecture_index(c), c.__name__, s) for c, s in zip(classes, said, strict=True)])
        write_atomic(out, text.encode("utf-8"))
    click.echo(text, nl=False)
    n = sum(len(s) for s in said)
    click.echo(f"script: {n} recordings for {len(names)} scenes", err=True)
    click.echo(str(out))


def scene_narrations(scene: str, settings: SceneSettings, work: str) -> list[tuple[str, str]]:
    """(section title, words) of every section of ``scene``, from a build without rendering.

    Runs in worker processes too. Manim's text cache goes to ``work`` (one folder per
    scene), as for :func:`attnvid.render.frames.section_frames`.
    """
    built = build_scene(scene, settings, work, mobjects=False)
    return [(n.section, n.text) for n in built.narrations]


def _narrations_of(names: list[str], settings: SceneSettings, root: Path, n: int) -> list[list[tuple[str, str]]]:
    calls = [(s, settings, str(root / ".work" / "script" / s)) for s in names]
    if n == 1:
        return [scene_narrations(*c) for c in calls]
    with Workers(n) as workers:
        return [f.result() for f in workers.submit_all(scene_narrations, calls)]


def compose_script(lesson: Lesson, scenes: list[tuple[int, str, list[tuple[str, str]]]]) -> str:
    """The recording script as Markdown, in the lesson's language (the words were said in it):
    one heading per scene (its place in the lecture, its name), one block per section (the WAV
    file name, the title, the words)."""
    with use(lesson.language, lesson.catalogue):
        lines = [_("# Recording script: {title}").format(title=lesson.title), "",
                 *_("Record one WAV file per block, named as its heading, all in one folder; then render\n"
                    "with `--voice recorded:FOLDER`. A section lasts at least as long as its recording.").splitlines(),
                 ""]
        for k, scene, sections in scenes:
            lines += [f"## {k}. {scene}", ""]
            for title, words in sections:
                # the section's title as the lecture shows it; its file name keeps the English one
                lines += [f"### {recording_name(scene, title)}", "", f"*{_(title)}*", "",
                          *textwrap.wrap(words, 88, break_long_words=False, break_on_hyphens=False), ""]
    return "\n".join(lines)
