"""The ``attnvid`` command: one module per subcommand (:mod:`attnvid.commands`) on one click group.

Commands import manim only when they need it, so ``attnvid values`` answers at once.
Every expected failure (a bad lesson, an unknown scene, a missing system package, a
full disk, Ctrl-C) is one line on stderr and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from types import FrameType


def _leave_quietly(signum: int, frame: FrameType | None) -> None:
    """Ctrl-C or SIGTERM while our modules still load: nothing is written yet, so just go."""
    os.write(2, b"attnvid: interrupted\n" if signum == signal.SIGINT else b"attnvid: terminated\n")
    os._exit(128 + signum)


# Only when this process is the attnvid program itself: not when a test imports us, and
# not in a worker, which runs the same script (spawn) but is started as `python -c`.
if len(sys.orig_argv) > 1 and (Path(sys.orig_argv[1]).name == "attnvid" or sys.orig_argv[1:3] == ["-m", "attnvid"]):
    signal.signal(signal.SIGINT, _leave_quietly)
    signal.signal(signal.SIGTERM, _leave_quietly)
    if sys.argv[1:2] == ["preview"]:
        # A one-shot preview whose picture is already right, or that the warm preview server
        # draws, is answered (and exits) before click and Manim are imported.
        from .commands.preview_client import answer

        answer(sys.argv[2:])

import click  # noqa: E402  (after the signal handlers above, on purpose)

from .commands.batch import batch  # noqa: E402
from .commands.doctor import doctor  # noqa: E402
from .commands.exercises import exercises  # noqa: E402
from .commands.lecture import lecture  # noqa: E402
from .commands.list_scenes import list_scenes  # noqa: E402
from .commands.locale import locale  # noqa: E402
from .commands.package import package  # noqa: E402
from .commands.preview import preview  # noqa: E402
from .commands.render import render  # noqa: E402
from .commands.script import script  # noqa: E402
from .commands.storyboard import storyboard  # noqa: E402
from .commands.values import values  # noqa: E402
from .commands.workbook import workbook  # noqa: E402
from .errors import cli_errors  # noqa: E402
from .signals import install_signal_handlers  # noqa: E402


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="attnvid", prog_name="attnvid")
def cli() -> None:
    """Lecture videos of self-attention, every number computed by attncore."""


cli.add_command(values)
cli.add_command(list_scenes)
cli.add_command(render)
cli.add_command(lecture)
cli.add_command(batch)
cli.add_command(preview)
cli.add_command(storyboard)
cli.add_command(doctor)
cli.add_command(script)
cli.add_command(workbook)
cli.add_command(exercises)
cli.add_command(package)
cli.add_command(locale)


def main() -> None:
    install_signal_handlers()
    with cli_errors():  # every failure, click's usage errors included, as one line
        code = cli.main(prog_name="attnvid", standalone_mode=False)
    sys.exit(code if isinstance(code, int) else 0)
