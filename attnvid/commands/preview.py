"""``attnvid preview``: the fastest look at a scene, and again at every change (``--watch``, :mod:`.warm`).

A one-shot preview is answered, from its second call on, by a warm server or by the picture
already on disk (:mod:`.preview_client`, :mod:`.preview_server`); this command is what the
server runs, and what runs in the command's own process with ``--no-server``."""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import replace
from pathlib import Path

import click

from attncore import Lesson
from attnstage.settings import SceneSettings
from attnstage.speech.voices import section_slug

from ..catalog import is_scene_path, own_lesson_path, resolve_scene, resolve_section
from ..errors import UserError
from ..lessons import get_lesson, output_root
from ..options import language_option, lesson_option, media_option, settings_options, theme_option
from ..outputs import claim_output, write_atomic
from ..paths import source_file
from ..render.cache import cache_key
from ..render.engine import run_jobs
from ..render.frames import section_frames
from ..render.jobs import plan
from ..render.runtime import require_runtime
from .preview_client import DEFAULT_IDLE, Place, make_request, request_digest, write_record
from .preview_client import stop as stop_server
from .warm import WarmPreview
from .warm import watch as watch_warm


@click.command("preview")
@click.argument("scene", required=False)
@click.option("--section", default=None, help="The section whose last frame to show (default: the last one).")
@click.option("--video", is_flag=True, help="Render a low-quality MP4 instead of a PNG.")
@click.option("--watch", is_flag=True, help="Stay warm and preview again after every edit of the lesson or the code, "
              "each animation played to its end (Ctrl-C stops).")
@click.option(
    "--json", "as_json", is_flag=True, help='Print {"png": PATH, "seconds": S, "how": ...} instead of the path.'
)
@click.option("--idle", type=click.IntRange(1), default=DEFAULT_IDLE, show_default=True,
              help="Seconds the preview server waits for the next preview before it stops.")
@click.option("--stop", is_flag=True, help="Stop this checkout's preview server, and preview nothing.")
@click.option("--no-server", is_flag=True, help="Draw in this process: start no preview server, ask none.")
@settings_options(lesson_option, theme_option, language_option)
@media_option(None)
def preview(scene: str | None, section: str | None, video: bool, watch: bool, as_json: bool, idle: int, stop: bool,
            no_server: bool, settings: SceneSettings, media: Path) -> None:
    """The fastest look at SCENE: the last frame (of a section) as a PNG, low quality.

    From its second call on, a one-shot preview is answered by a warm preview server
    (started by the first, stopped after --idle seconds without a preview, or by --stop),
    or, when nothing changed, by the picture on disk without loading Manim."""
    if stop:
        try:
            click.echo(f"attnvid: {stop_server(Place.here())}", err=True)
        except OSError as exc:
            raise UserError(f"no preview server to stop ({exc})") from None
        return
    if scene is None:
        raise click.UsageError("Missing argument 'SCENE'.")
    started = time.perf_counter()
    name, settings = _scene_and_settings(scene, settings, watch)
    if watch:  # the lesson read at each preview: a broken one at the start is only the first bad edit
        if video:
            raise UserError("--watch previews a picture; drop --video (or --watch)")
        watch_warm(WarmPreview(name, section, settings, media.resolve()), _watch_argv(name, section, settings, media))
        return
    lesson = get_lesson(settings)
    settings = replace(settings, quality="low")
    if video:
        job_list = plan(lesson, settings, (name,), "mp4", media)
        with claim_output(output_root(lesson, media, settings.with_style(lesson.style))):
            (r,) = run_jobs(job_list, 1)
        click.echo(r.path)
        return
    request = make_request(scene, section, settings.lesson or None, settings.style or None, media, settings.language)
    digest = request_digest(request)
    png = _preview_png(lesson, settings.with_style(lesson.style), name, section, media).resolve()
    if digest is not None and digest == request_digest(request):  # no edit while it drew
        write_record(digest, png)
    if as_json:
        click.echo(json.dumps({"png": str(png), "seconds": round(time.perf_counter() - started, 3), "how": "process"}))
    else:
        click.echo(str(png))


def _scene_and_settings(scene: str, settings: SceneSettings, watch: bool = False) -> tuple[str, SceneSettings]:
    """How the preview names SCENE from here on (its class name; a scene file of the lecturer's
    own: its absolute path), and the settings with its lesson (``--lesson``, else the one the
    file's scene names). The warm watch follows the lecture's scenes only."""
    cls = resolve_scene(scene)
    if not is_scene_path(scene):
        return cls.__name__, settings
    if watch:
        raise UserError(f"--watch follows the lecture's scenes; preview {scene} again after each edit (drop --watch)")
    own = own_lesson_path([cls])
    if own is not None and not settings.lesson:
        settings = replace(settings, lesson=str(own))
    return str(Path(scene).expanduser().resolve()), settings


def _preview_png(lesson: Lesson, settings: SceneSettings, name: str, section: str | None, media: Path) -> Path:
    """The PNG of the last frame of ``section`` (or of the scene), drawn with ``settings`` (their
    style settled), only when its inputs changed."""
    require_runtime()
    cls = resolve_scene(name)
    title = resolve_section(cls, section) if section is not None else cls.section_names()[-1]
    root = output_root(lesson, media, settings)
    stem = cls.__name__
    out = root / "preview" / (f"{stem}.png" if section is None else f"{stem}_{section_slug(title)}.png")
    # The same inputs give the same picture (see the render cache): a preview whose
    # scene, shared code, lesson and versions did not change is the one on disk.
    key = cache_key(source_file(cls), repr(lesson), settings.quality, f"preview:{title}", style=settings.style)
    sidecar = out.with_name(out.name + ".json")
    with claim_output(root):
        if not _preview_is_current(out, sidecar, key):
            ((_, png),) = section_frames(name, settings, str(root / ".work" / "frames" / stem), frozenset({title}))
            # The old record goes first, as for renders: never a new picture under an old key.
            sidecar.unlink(missing_ok=True)
            write_atomic(out, png)
            write_atomic(sidecar, json.dumps({"key": key, "scene": stem, "section": title,
                                              "png_sha256": hashlib.sha256(png).hexdigest()}).encode())
    return out


def _preview_is_current(out: Path, sidecar: Path, key: str) -> bool:
    """Whether the key beside ``out`` is ``key`` and ``out`` is still the picture drawn then
    (a damaged or overwritten picture is drawn again)."""
    try:
        record = json.loads(sidecar.read_text(encoding="utf-8"))
        return bool(
            record.get("key") == key and record.get("png_sha256") == hashlib.sha256(out.read_bytes()).hexdigest()
        )
    except (OSError, ValueError, AttributeError):
        return False


def _watch_argv(name: str, section: str | None, settings: SceneSettings, media: Path) -> list[str]:
    """The command line that starts the same watch anew (after an edit of shared code)."""
    argv = ["preview", name, "--watch", "--media", str(media.resolve())]
    argv += ["--section", section] if section else []
    argv += ["--lesson", settings.lesson] if settings.lesson else []
    argv += ["--theme", settings.style] if settings.style else []
    return argv + (["--language", settings.language] if settings.language else [])
