"""``attnvid list``: the scenes in lecture order with their sections."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..catalog import lecture_scenes
from ..lessons import get_lesson
from ..options import lesson_option


@click.command("list")
@lesson_option
@click.option("--json", "as_json", is_flag=True, help='JSON: [{"scene", "file", "sections"}, ...].')
def list_scenes(lesson_path: Path | None, as_json: bool) -> None:
    """List the lecture's scenes in order, with their named sections."""
    get_lesson(lesson_path)  # a bad lesson fails here, with its one-line message
    from scenes.lecture import scene_file

    rows = [{"scene": c.__name__, "file": scene_file(c), "sections": c.section_names()} for c in lecture_scenes()]
    if as_json:
        click.echo(json.dumps(rows, indent=1, ensure_ascii=False))
        return
    for k, r in enumerate(rows, 1):
        click.echo(f"{k:2d}. {r['scene']}  ({r['file']})")
        for s in r["sections"]:
            click.echo(f"      - {s}")
