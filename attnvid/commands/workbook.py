"""``attnvid workbook``: every number of the lecture as live spreadsheet formulas."""

from __future__ import annotations

from pathlib import Path

import click

from attncore import trace_lesson
from attncore.i18n import use
from attnstage.settings import SceneSettings

from ..lessons import get_lesson, output_root
from ..options import language_option, lesson_option, media_option, settings_options, theme_option
from ..outputs import claim_output
from ..publish.workbook import WORKBOOK_NAME, write_workbook


@click.command("workbook")
@settings_options(lesson_option, theme_option, language_option)
@media_option()
def workbook(settings: SceneSettings, media: Path) -> None:
    """Write workbook.xlsx: the lesson's numbers as formulas a student can change.

    The vocabulary, the sentences and the weights are typed inputs; every other number
    is a formula on them, one sheet per step in lecture order. Excel, LibreOffice Calc
    and Google Sheets recompute it. The file is media/workbook/workbook.xlsx for the
    built-in lesson, media/<lesson>/workbook/workbook.xlsx for others (under light/ in the
    light style, whose colours it takes); its path is the last line printed. Its sheet names,
    headers and guide are in the lesson's language; its numbers are numbers, shown by the
    spreadsheet in the reader's locale.
    """
    lesson = get_lesson(settings)
    trace = trace_lesson(lesson)
    settings = settings.with_style(lesson.style)
    root = output_root(lesson, media, settings)
    out = root / "workbook" / WORKBOOK_NAME
    with (
        claim_output(root),
        use(lesson.language, lesson.catalogue),
    ):  # sheet names, headers and the guide in the lesson's language
        written = write_workbook(out, trace, settings.style)
    click.echo(
        f"workbook: {written.sheets} sheets, {written.formulas} formulas, {written.size / 1024:.0f} KiB", err=True
    )
    click.echo(str(out))
