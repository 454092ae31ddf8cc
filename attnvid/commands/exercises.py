"""``attnvid exercises``: questions with worked answers, from the lesson's own numbers."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import click

from attncore import trace_lesson
from attncore.exercises import COUNT_LIMITS, make_exercises
from attncore.i18n import use
from attnstage.settings import SceneSettings

from ..lessons import get_lesson, output_root
from ..options import language_option, lesson_option, media_option, settings_options
from ..outputs import claim_output, move_into_place
from ..publish.quiz import write_exercise_files

#: The largest seed (``random.Random`` takes any integer; this keeps it a 32-bit number to write down).
SEED_MAX = 2**32 - 1
DEFAULT_COUNT = 10


@click.command("exercises")
@settings_options(lesson_option, language_option)
@click.option("--count", type=click.IntRange(*COUNT_LIMITS), default=DEFAULT_COUNT, show_default=True,
              help="How many questions (one of each kind in lecture order, then round again).")
@click.option("--seed", type=click.IntRange(0, SEED_MAX), default=0, show_default=True,
              help="Which words, rows and columns: the same seed gives the same exercises.")
@media_option()
def exercises(settings: SceneSettings, count: int, seed: int, media: Path) -> None:
    """Write exercises.pdf (questions, then the answer key, worked), quiz.gift and quiz.xml (Moodle).

    Every answer is computed by attncore from the lesson; each wrong option of a
    multiple-choice question is what a named mistake gives. The folder is
    media/exercises/seed-S/ for the built-in lesson, media/<lesson>/exercises/seed-S/ for
    others, written whole or not at all; its path is the last line printed.
    """
    lesson = get_lesson(settings)
    trace = trace_lesson(lesson)
    with use(lesson.language, lesson.catalogue):  # the questions, answers and sheet in the lesson's language
        items = make_exercises(trace, count, seed)
        root = output_root(lesson, media, replace(settings, style=""))  # one folder for both styles
        folder = root / "exercises" / f"seed-{seed}"
        with claim_output(root):
            staging = root / ".work" / "exercises"
            staging.mkdir(parents=True, exist_ok=True)
            write_exercise_files(staging, lesson.title, items, seed, lesson.decimals)
            move_into_place(staging, folder)  # the three files appear together
    kinds = len({e.kind for e in items})
    click.echo(f"exercises: {len(items)} questions of {kinds} kinds, seed {seed}", err=True)
    click.echo(str(folder))
