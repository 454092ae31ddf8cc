"""``attnvid list``: the lesson's lecture in parts, its scenes in order with their sections."""

from __future__ import annotations

import json

import click

from attnstage.settings import SceneSettings

from ..catalog import lecture_index, lecture_parts, scene_file
from ..lessons import get_lesson
from ..options import lesson_option, no_media_option, settings_options


@click.command("list")
@settings_options(lesson_option)
@no_media_option("list writes no files, it prints the scenes")
@click.option("--json", "as_json", is_flag=True,
              help='JSON: [{"scene", "file", "sections", "part", "part_title"}, ...].')
def list_scenes(settings: SceneSettings, as_json: bool) -> None:
    """List the lecture's parts and their scenes in order, with their named sections.

    The parts are the lesson's [lecture] table, or the default parts.
    """
    lesson = get_lesson(settings)  # a bad lesson fails here, with its one-line message
    parts = lecture_parts(lesson)
    rows = [
        {
            "scene": c.__name__,
            "file": scene_file(c),
            "sections": c.section_names(),
            "part": n,
            "part_title": p.title,
            "index": lecture_index(c),
        }
        for n, p in enumerate(parts, 1)
        for c in p.scenes
    ]
    if as_json:
        click.echo(json.dumps(rows, indent=1, ensure_ascii=False))
        return
    for n, p in enumerate(parts, 1):
        click.echo(f"Part {n}: {p.title}")
        for c in p.scenes:
            click.echo(f"  {lecture_index(c):2d}. {c.__name__}  ({scene_file(c)})")
            for s in c.section_names():
                click.echo(f"        - {s}")
