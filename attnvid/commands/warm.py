"""``attnvid preview SCENE --watch``: one warm process that previews again at every edit.

Manim, the fonts, the scenes' code, the texts already parsed and the typeset formulas stay
loaded between previews, so an edit costs only what it changed:

- an edit of the lesson re-reads it and builds the scene again, up to the asked section;
- an edit of the previewed scene's own module reloads that module and builds again;
- an edit of any other code (components, attncore, attnvid) starts the process anew
  (a module reloaded alone would leave stale copies of it in every module that imported
  it), which costs Manim's start-up once;
- a broken edit (bad TOML, an exception in scene code) prints one line and keeps watching;
  the next good edit previews again.

The picture is written atomically (never half a PNG), its path printed on stdout, the time
it took on stderr; ``NAME.html`` beside it shows it and refreshes itself. A watched preview
plays each animation straight to its end (:class:`scenes.skipping.LayoutRenderer`): the same
texts, numbers and shapes at the same places in the same colours as the video, about three
times sooner; ``attnvid preview`` without ``--watch`` draws the video's own frame.
"""

from __future__ import annotations

import gc
import importlib
import os
import shutil
import sys
import tempfile
import time
import traceback
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from attncore import LessonError
from attnstage.settings import SceneSettings
from attnstage.speech.voices import section_slug

from ..catalog import forget_traces, prepare_texts, resolve_scene, resolve_section, warm_texts
from ..errors import UserError
from ..lessons import get_lesson, output_root
from ..outputs import claim_output, write_atomic
from ..paths import package_dir
from ..render.frames import section_frames
from ..render.runtime import require_runtime
from ..signals import Interrupted

#: What the watch watches, besides the lesson's folder: the code a preview depends on.
WATCHED_PACKAGES = ("scenes", "attncore", "attnstage", "attnvid")
#: Seconds without a new event before previewing: an editor's save is several events (a new
#: file written, renamed over the old), all within a few milliseconds.
QUIET = 0.03

#: The page shown beside the picture: the picture, reloaded every half second.
PAGE = """<!doctype html>
<meta charset="utf-8"><title>{title}</title>
<style>body{{margin:0;background:#111;display:grid;place-items:center;height:100vh}}
img{{max-width:100vw;max-height:100vh}}</style>
<img id="p" src="{png}" alt="{title}">
<script>setInterval(() => {{ document.getElementById("p").src = "{png}?" + Date.now(); }}, 500);</script>
"""


def is_edit(event: Any) -> bool:
    """Whether a watchdog ``event`` is an edit of a source or lesson file.

    Only real changes: inotify also reports files being opened and read, which the preview
    itself does when it imports the scenes. A file saved by writing a new one and renaming it
    over the old (``sed -i``, and the atomic save of many editors) comes as a move whose
    *destination* is the file, from a temporary name: both ends count.
    """
    return bool(edited_paths(event))


def edited_paths(event: Any) -> list[Path]:
    """The source or lesson files a watchdog ``event`` changed (none for a mere read)."""
    if event.event_type not in ("modified", "created", "moved", "deleted"):
        return []
    ends = [event.src_path, getattr(event, "dest_path", "")]
    return [Path(os.fsdecode(p)) for p in ends
            if p and os.fsdecode(p).endswith((".py", ".toml")) and "__pycache__" not in os.fsdecode(p)]


class WarmPreview:
    """The preview of one scene (up to one section), kept warm between edits."""

    def __init__(self, name: str, section: str | None, settings: SceneSettings, media: Path) -> None:
        self.name, self.section, self.settings, self.media = name, section, settings, media
        lesson_path = Path(settings.lesson) if settings.lesson else None
        self.lesson_path = lesson_path
        self.cls = resolve_scene(name)
        if section is not None:
            resolve_section(self.cls, section)  # a section the scene does not have: said at once
        if lesson_path is not None and not lesson_path.exists():
            get_lesson(settings)  # a built-in name, or the one-line error of a missing file
        self.lesson_spec_is_file = lesson_path is not None and lesson_path.exists()
        # Manim's work folder (texts' and formulas' SVGs) kept between previews: the output's
        # .work is removed after each one, and compiling the formulas again was a third of an edit's wait
        self.work = Path(tempfile.mkdtemp(prefix="attnvid-watch-"))
        self.module_file = Path(sys.modules[self.cls.__module__].__file__ or "").resolve()

    def draw(self) -> Path:
        """Build the scene (up to the section) and write its picture; return the PNG's path."""
        require_runtime()
        lesson = get_lesson(self.settings)
        settings = replace(self.settings, quality="low").with_style(lesson.style)
        forget_traces()  # the lesson read anew (its file may have changed)
        title = resolve_section(self.cls, self.section) if self.section is not None else self.cls.section_names()[-1]
        root = output_root(lesson, self.media, settings)
        stem = self.name if self.section is None else f"{self.name}_{section_slug(title)}"
        out = root / "preview" / f"{stem}.png"
        with claim_output(root):
            ((_, png),) = section_frames(self.cls, settings, str(self.work), frozenset({title}), exact=False)
            # no key beside it: `attnvid preview` without --watch draws the video's own frame again
            out.with_name(out.name + ".json").unlink(missing_ok=True)
            write_atomic(out, png)
            page = out.with_suffix(".html")
            if not page.is_file():
                write_atomic(page, PAGE.format(title=f"{self.name}: {title}", png=out.name).encode())
        return out

    def reload_scene(self) -> None:
        """Import the scene's module anew (an edit of that file) and take its class from it."""
        module = importlib.reload(sys.modules[self.cls.__module__])
        cls = getattr(module, self.name, None)
        if cls is None:
            raise UserError(f"{self.module_file.name} no longer defines {self.name}")
        self.cls = cls

    def own_module(self, path: Path) -> bool:
        return path.resolve() == self.module_file


def one_line(exc: BaseException) -> str:
    """A failed preview as one line: a user's error as the CLI says it, any other exception with
    the place in the project's code (or the lesson's scene) where it was raised."""
    if isinstance(exc, (UserError, LessonError, click.ClickException)):
        text = exc.format_message() if isinstance(exc, click.ClickException) else str(exc)
        return "attnvid: error: " + " ".join(text.split())
    where = ""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if any(f"/{p}/" in frame.filename for p in WATCHED_PACKAGES):
            where = f" ({Path(frame.filename).name}:{frame.lineno})"
            break
    if isinstance(exc, SyntaxError) and exc.filename:
        where = f" ({Path(exc.filename).name}:{exc.lineno})"
    return f"attnvid: preview failed: {type(exc).__name__}: {' '.join(str(exc).split())}{where}; still watching"


def _preview_once(warm: WarmPreview) -> None:
    started = time.perf_counter()
    try:
        out = warm.draw()
    except (KeyboardInterrupt, Interrupted):
        raise
    except Exception as exc:  # a broken edit: say it in one line and keep watching
        click.echo(one_line(exc), err=True)
        return
    click.echo(str(out))
    click.echo(f"{warm.name}: {time.perf_counter() - started:.2f} s", err=True)


def settle() -> None:
    """Between edits: collect what the last preview left, copy ahead the texts it took
    (scenes.components.text.prepare_spares), then freeze what lives on (Manim, the fonts, the
    parsed texts and formulas, the spare copies) out of the cyclic collector's way. A full collection
    during a preview scanned all of it (about 0.1 s of a 0.8 s LearnedProjections preview, in one
    preview out of two); done here, while the author looks at the picture, it delays no preview.
    Unfrozen first, so that nothing frozen once stays uncollected when it dies."""
    gc.unfreeze()
    gc.collect()
    prepare_texts()
    gc.freeze()


def _restart(warm: WarmPreview, argv: list[str]) -> None:
    click.echo("shared code changed: starting the preview anew", err=True)
    shutil.rmtree(warm.work, ignore_errors=True)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, [sys.executable, "-m", "attnvid", *argv])


def _react(warm: WarmPreview, changed: set[Path], argv: list[str]) -> None:
    """Preview again after the edits ``changed``: reload what changed, or start anew."""
    packages = [package_dir(p).resolve() for p in WATCHED_PACKAGES]
    code = {p for p in changed if p.suffix == ".py" and any(p.resolve().is_relative_to(d) for d in packages)}
    if not code and not any(p.suffix == ".toml" for p in changed):
        return  # a script beside the lesson, say: not what the preview is made of
    if warm.lesson_path is not None and warm.lesson_spec_is_file and not warm.lesson_path.exists():
        # deleted, or saved by deleting and writing anew: preview when it is back
        click.echo(f"watch: {warm.lesson_path.name} is gone; previewing again when it is back", err=True)
        return
    if code and any(not warm.own_module(p) for p in code):
        _restart(warm, argv)
    if code:
        try:
            warm.reload_scene()
        except Exception as exc:  # a syntax error, a name gone: one line, keep watching
            click.echo(one_line(exc), err=True)
            return
    _preview_once(warm)


def watch(warm: WarmPreview, argv: list[str]) -> None:
    """Preview now, then again after every edit of the lesson or the code, until Ctrl-C."""
    import threading

    from watchdog.events import FileSystemEvent, FileSystemEventHandler
    from watchdog.observers import Observer

    pending: set[Path] = set()
    last = [0.0]
    lock = threading.Lock()
    edited = threading.Event()  # wakes the loop at an edit, rather than a poll

    class Handler(FileSystemEventHandler):
        def on_any_event(self, event: FileSystemEvent) -> None:
            paths = edited_paths(event)
            if paths:
                with lock:
                    pending.update(paths)
                    last[0] = time.monotonic()
                edited.set()

    observer = Observer()
    for package in WATCHED_PACKAGES:
        observer.schedule(Handler(), str(package_dir(package)), recursive=True)
    if warm.lesson_path is not None and warm.lesson_path.exists():
        # the lesson's own folder only: the pictures are often written below it
        observer.schedule(Handler(), str(warm.lesson_path.resolve().parent), recursive=False)
    observer.start()
    click.echo("watching scenes/, attncore/, attnstage/, attnvid/ and the lesson; Ctrl-C stops", err=True)
    # count the texts each preview takes, for settle to copy ahead; written for others only to a
    # folder the settings name (our own text folder goes when we start anew)
    warm_texts(keep_on_disk=bool(warm.settings.text_cache))
    try:
        _preview_once(warm)
        settle()
        while True:
            edited.wait(0.5)  # until an edit; the timeout lets Ctrl-C be seen while nothing happens
            with lock:
                rest = QUIET - (time.monotonic() - last[0])  # how long the rest of a save may take
                changed = set(pending) if rest <= 0 else set()
                if rest <= 0 or not pending:
                    pending.clear()
                    edited.clear()
            if changed:
                _react(warm, changed, argv)
                settle()
            elif pending:
                time.sleep(rest)
    except (KeyboardInterrupt, Interrupted):
        click.echo("stopped watching", err=True)
    finally:
        observer.stop()
        observer.join(timeout=2)
        shutil.rmtree(warm.work, ignore_errors=True)
