"""``attnvid preview``: the fastest look at a scene, and again at every change (``--watch``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import click

from attncore import Lesson

from ..catalog import resolve_scene, resolve_section
from ..env import LESSON_ENV
from ..lessons import get_lesson, lesson_spec, lesson_style, output_root
from ..options import language_option, lesson_option, media_option, theme_option
from ..outputs import claim_output, write_atomic
from ..paths import package_dir, source_file
from ..render.cache import cache_key
from ..render.engine import run_jobs
from ..render.frames import section_frames
from ..render.jobs import plan
from ..render.runtime import require_runtime
from ..signals import Interrupted
from ..speech.voices import section_slug

#: What ``--watch`` watches, besides the lesson's folder: the code a preview depends on.
WATCHED_PACKAGES = ("scenes", "attncore", "attnvid")


@click.command("preview")
@click.argument("scene")
@click.option("--section", default=None, help="The section whose last frame to show (default: the last one).")
@click.option("--video", is_flag=True, help="Render a low-quality MP4 instead of a PNG.")
@click.option("--watch", is_flag=True, help="Preview again whenever a project file changes (Ctrl-C stops).")
@lesson_option
@theme_option
@language_option
@media_option(None)
def preview(scene: str, section: str | None, video: bool, watch: bool, lesson_path: Path | None,
            theme: str | None, media: Path) -> None:
    """The fastest look at SCENE: the last frame (of a section) as a PNG, low quality."""
    lesson = get_lesson(lesson_path)
    spec = lesson_spec(lesson_path)
    os.environ[LESSON_ENV] = spec
    name = resolve_scene(scene).__name__
    style = lesson_style(theme, lesson)
    if watch:
        argv = ["preview", name, "--media", str(media.resolve())]
        argv += ["--section", section] if section else []
        argv += ["--video"] if video else []
        argv += ["--lesson", spec] if spec else []
        argv += ["--theme", theme] if theme else []
        _watch(argv, lesson_path)
    elif video:
        job_list = plan(lesson, spec, (name,), "low", "mp4", media, style=style)
        with claim_output(output_root(lesson, media, style)):
            (r,) = run_jobs(job_list, 1)
        click.echo(r.path)
    else:
        click.echo(str(_preview_png(lesson, spec, name, section, media, style)))


def _preview_png(lesson: Lesson, spec: str, name: str, section: str | None, media: Path, style: str = "dark") -> Path:
    """The PNG of the last frame of ``section`` (or of the scene), drawn only when its inputs changed."""
    require_runtime()
    cls = resolve_scene(name)
    title = resolve_section(cls, section) if section is not None else cls.section_names()[-1]
    root = output_root(lesson, media, style)
    out = root / "preview" / (f"{name}.png" if section is None else f"{name}_{section_slug(title)}.png")
    # The same inputs give the same picture (see the render cache): a preview whose
    # scene, shared code, lesson and versions did not change is the one on disk.
    key = cache_key(source_file(cls), repr(lesson), "low", f"preview:{title}", style=style)
    sidecar = out.with_name(out.name + ".json")
    with claim_output(root):
        if not _preview_is_current(out, sidecar, key):
            ((_, png),) = section_frames(name, "low", spec, str(root / ".work" / "frames" / name), frozenset({title}),
                                           style)
            # The old record goes first, as for renders: never a new picture under an old key.
            sidecar.unlink(missing_ok=True)
            write_atomic(out, png)
            write_atomic(sidecar, json.dumps({"key": key, "scene": name, "section": title}).encode())
    return out


def _preview_is_current(out: Path, sidecar: Path, key: str) -> bool:
    try:
        return bool(json.loads(sidecar.read_text(encoding="utf-8")).get("key") == key) and out.is_file()
    except (OSError, ValueError, AttributeError):
        return False


def _watch_paths(lesson_path: Path | None) -> list[Path]:
    paths = [package_dir(p) for p in WATCHED_PACKAGES]
    if lesson_path is not None and lesson_path.exists():
        paths.append(lesson_path.resolve().parent)
    return paths


def _preview_again(argv: list[str]) -> None:
    """One preview in a fresh process (so that edited modules are imported anew); print its path."""
    r = subprocess.run([sys.executable, "-m", "attnvid", *argv], capture_output=True, text=True)
    if r.returncode == 0:
        click.echo(r.stdout.strip().splitlines()[-1])
    else:
        click.echo(r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "preview failed", err=True)


def is_edit(event: Any) -> bool:
    """Whether a watchdog ``event`` is an edit of a source or lesson file.

    Only real changes: inotify also reports files being opened and read, which the preview
    itself does when it imports the scenes. A file saved by writing a new one and renaming it
    over the old (``sed -i``, and the atomic save of many editors) comes as a move whose
    *destination* is the file, from a temporary name: both ends count.
    """
    if event.event_type not in ("modified", "created", "moved", "deleted"):
        return False
    ends = [event.src_path, getattr(event, "dest_path", "")]
    return any(str(p).endswith((".py", ".toml")) and "__pycache__" not in str(p) for p in ends if p)


def _watch(argv: list[str], lesson_path: Path | None) -> None:
    """Re-run the preview in a fresh process whenever a project file changes."""
    from watchdog.events import FileSystemEvent, FileSystemEventHandler
    from watchdog.observers import Observer

    changed: list[float | None] = [time.monotonic()]  # run once at start

    class Handler(FileSystemEventHandler):
        def on_any_event(self, event: FileSystemEvent) -> None:
            if is_edit(event):
                changed[0] = time.monotonic()

    observer = Observer()
    for p in _watch_paths(lesson_path):
        observer.schedule(Handler(), str(p), recursive=True)
    observer.start()
    click.echo("watching scenes/, attncore/, attnvid/ and the lesson; Ctrl-C stops", err=True)
    try:
        while True:
            at = changed[0]
            if at is not None and time.monotonic() - at > 0.3:
                changed[0] = None
                _preview_again(argv)
            time.sleep(0.1)
    except (KeyboardInterrupt, Interrupted):
        click.echo("stopped watching", err=True)
    finally:
        observer.stop()
        observer.join(timeout=2)
