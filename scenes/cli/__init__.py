"""The ``attnvid`` command: one module per subcommand on one click group.

Commands import manim only when they need it, so ``attnvid values`` answers at once.
Every expected failure (a bad lesson, an unknown scene) is one line on stderr and a
non-zero exit status, never a traceback.
"""

from __future__ import annotations

import sys

import click

from .common import cli_errors
from .frames_cmd import preview, storyboard
from .lecture_cmd import lecture
from .list_cmd import list_scenes
from .render_cmd import render
from .values_cmd import values


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="attnvid", prog_name="attnvid")
def cli() -> None:
    """Lecture videos of self-attention, every number computed by attncore."""


cli.add_command(values)
cli.add_command(list_scenes)
cli.add_command(render)
cli.add_command(lecture)
cli.add_command(preview)
cli.add_command(storyboard)


def main() -> None:
    with cli_errors():
        cli.main(prog_name="attnvid", standalone_mode=True)
    sys.exit(0)
