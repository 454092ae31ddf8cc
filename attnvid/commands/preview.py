"""``attnvid preview`` and ``attnvid storyboard``: frames without encoding video.

Both run a scene's ``construct`` with animations skipped and rasterise the frame at the
end of each section with Manim's own camera (see :mod:`scenes.inspect`): the fastest
way to see what a scene shows.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import click

from .common import Interrupted, UserError, get_lesson, lesson_option
from .doctor_cmd import require_runtime
from .engine import QUALITIES, Workers, cache_key, claim_output, write_atomic
from .render_cmd import default_jobs, lesson_spec, output_root, plan, run_jobs


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()


def section_frames(scene: str, quality: str, spec: str, work: str,
                   only: frozenset[str] | None = None) -> list[tuple[str, bytes]]:
    """(section title, PNG bytes) of the last frame of every section of ``scene`` (or of
    the sections named in ``only``: rasterising the others would be wasted).

    Manim's text cache goes to ``work``, one folder per scene: Manim writes a text's SVG
    in place and reads any SVG it finds, so two processes sharing ./media/texts could
    read each other's half-written files.
    """
    os.environ["ATTNVID_LESSON"] = spec
    from manim import tempconfig

    from scenes.inspect import build
    from scenes.lecture import find_scene

    with tempconfig({"media_dir": work}):
        built = build(find_scene(scene), frames=only if only is not None else True, mobjects=False,
                      quality=QUALITIES[quality])
    out = []
    for cp in built.checkpoints:
        if cp.image is None:
            continue
        buf = io.BytesIO()
        cp.image.convert("RGB").save(buf, format="PNG")
        out.append((cp.section, buf.getvalue()))
    return out


def _resolve_scene(name: str) -> str:
    from scenes.lecture import LECTURE, find_scene

    try:
        return find_scene(name).__name__
    except KeyError:
        known = ", ".join(c.__name__ for c in LECTURE)
        raise UserError(f"unknown scene {name!r}; choose from: {known}") from None


def _watch_paths(lesson_path: Path | None) -> list[Path]:
    root = Path(__file__).resolve().parents[2]
    paths = [root / "scenes", root / "attncore"]
    if lesson_path is not None and lesson_path.exists():
        paths.append(lesson_path.resolve().parent)
    return paths


def _watch(argv: list[str], lesson_path: Path | None) -> None:
    """Re-run the preview in a fresh process whenever a project file changes."""
    from watchdog.events import FileSystemEvent, FileSystemEventHandler
    from watchdog.observers import Observer

    changed = {"at": time.monotonic()}  # run once at start

    class Handler(FileSystemEventHandler):
        def on_any_event(self, event: FileSystemEvent) -> None:
            # Only real changes: inotify also reports files being opened and read, which
            # the preview itself does when it imports the scenes.
            if event.event_type not in ("modified", "created", "moved", "deleted"):
                return
            src = str(event.src_path)
            if src.endswith((".py", ".toml")) and "__pycache__" not in src:
                changed["at"] = time.monotonic()

    observer = Observer()
    for p in _watch_paths(lesson_path):
        observer.schedule(Handler(), str(p), recursive=True)
    observer.start()
    click.echo("watching scenes/, attncore/ and the lesson; Ctrl-C stops", err=True)
    try:
        while True:
            if changed["at"] is not None and time.monotonic() - changed["at"] > 0.3:
                changed["at"] = None  # type: ignore[assignment]
                r = subprocess.run([sys.executable, "-m", "scenes.cli", *argv], capture_output=True, text=True)
                if r.returncode == 0:
                    click.echo(r.stdout.strip().splitlines()[-1])
                else:
                    click.echo(r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "preview failed", err=True)
            time.sleep(0.1)
    except (KeyboardInterrupt, Interrupted):
        click.echo("stopped watching", err=True)
    finally:
        observer.stop()
        observer.join(timeout=2)


@click.command("preview")
@click.argument("scene")
@click.option("--section", default=None, help="The section whose last frame to show (default: the last one).")
@click.option("--video", is_flag=True, help="Render a low-quality MP4 instead of a PNG.")
@click.option("--watch", is_flag=True, help="Preview again whenever a project file changes (Ctrl-C stops).")
@lesson_option
@click.option("--media", type=click.Path(path_type=Path, file_okay=False), default=Path("media"), show_default=True)
def preview(scene: str, section: str | None, video: bool, watch: bool, lesson_path: Path | None, media: Path) -> None:
    """The fastest look at SCENE: the last frame (of a section) as a PNG, low quality."""
    lesson = get_lesson(lesson_path)
    spec = lesson_spec(lesson_path)
    os.environ["ATTNVID_LESSON"] = spec
    name = _resolve_scene(scene)
    if watch:
        argv = ["preview", name, "--media", str(media.resolve())]
        argv += ["--section", section] if section else []
        argv += ["--video"] if video else []
        argv += ["--lesson", spec] if spec else []
        _watch(argv, lesson_path)
        return
    if video:
        job_list = plan(lesson, spec, (name,), "low", "mp4", media)
        with claim_output(output_root(lesson, media)):
            (r,) = run_jobs(job_list, 1)
        click.echo(r.path)
        return
    require_runtime()
    from scenes.lecture import find_scene, scene_file

    cls = find_scene(name)
    names = cls.section_names()
    if section is not None and section not in names:
        raise UserError(f"{name} has no section {section!r}; its sections are: {'; '.join(names)}")
    title = section if section is not None else names[-1]
    root = output_root(lesson, media)
    out = root / "preview" / (f"{name}.png" if section is None else f"{name}_{_slug(title)}.png")
    # The same inputs give the same picture (see the render cache): a preview whose
    # scene, shared code, lesson and versions did not change is the one on disk.
    repo = Path(__file__).resolve().parents[2]
    key = cache_key(repo / scene_file(cls), repr(lesson), "low", f"preview:{title}")
    sidecar = out.with_name(out.name + ".json")
    with claim_output(root):
        if not _preview_is_current(out, sidecar, key):
            ((_, png),) = section_frames(name, "low", spec, str(root / ".work" / "frames" / name), frozenset({title}))
            # The old record goes first, as for renders: never a new picture under an old key.
            sidecar.unlink(missing_ok=True)
            write_atomic(out, png)
            write_atomic(sidecar, json.dumps({"key": key, "scene": name, "section": title}).encode())
    click.echo(str(out))


def _preview_is_current(out: Path, sidecar: Path, key: str) -> bool:
    try:
        return bool(json.loads(sidecar.read_text(encoding="utf-8")).get("key") == key) and out.is_file()
    except (OSError, ValueError, AttributeError):
        return False


def _contact_sheet(tiles: list[tuple[str, bytes]]) -> bytes:
    """The storyboard PNG: (caption, PNG bytes) tiles, four to a row."""
    from PIL import Image, ImageDraw

    tile_w, tile_h = 427, 240  # half of 480p: numbers stay legible on the sheet
    label_h, pad, cols = 26, 10, 4
    rows = math.ceil(len(tiles) / cols)
    sheet = Image.new("RGB", (cols * (tile_w + pad) + pad, rows * (tile_h + label_h + pad) + pad), (10, 11, 14))
    draw = ImageDraw.Draw(sheet)
    font = _font(14)
    for k, (caption, png) in enumerate(tiles):
        x = pad + (k % cols) * (tile_w + pad)
        y = pad + (k // cols) * (tile_h + label_h + pad)
        img = Image.open(io.BytesIO(png)).convert("RGB").resize((tile_w, tile_h), Image.LANCZOS)
        sheet.paste(img, (x, y + label_h))
        while draw.textlength(caption, font=font) > tile_w - 4 and len(caption) > 4:
            caption = caption[:-2] + "…"
        draw.text((x + 2, y + 4), caption, fill=(236, 232, 225), font=font)
    buf = io.BytesIO()
    sheet.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def _font(size: int) -> object:
    from PIL import ImageFont

    for path in ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "DejaVuSans.ttf"):
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            continue
    return ImageFont.load_default()


@click.command("storyboard")
@click.option("--quality", "-q", type=click.Choice(list(QUALITIES)), default="low", show_default=True)
@click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None, help="Parallel processes [default: cores].")
@lesson_option
@click.option("--media", type=click.Path(path_type=Path, file_okay=False), default=Path("media"), show_default=True)
def storyboard(quality: str, jobs: int | None, lesson_path: Path | None, media: Path) -> None:
    """One PNG contact sheet: the last frame of every section, in lecture order."""
    lesson = get_lesson(lesson_path)
    spec = lesson_spec(lesson_path)
    os.environ["ATTNVID_LESSON"] = spec
    from scenes.lecture import LECTURE

    require_runtime()
    names = [c.__name__ for c in LECTURE]
    n = jobs or default_jobs()
    root = output_root(lesson, media)
    out = root / "storyboard" / f"storyboard_{quality}.png"
    with claim_output(root):
        calls = [(s, quality, spec, str(root / ".work" / "frames" / s)) for s in names]
        if n > 1:
            with Workers(n) as workers:
                per_scene = [f.result() for f in workers.submit_all(section_frames, calls)]
        else:
            per_scene = [section_frames(*c) for c in calls]
        tiles = [(f"{k}. {s} · {title}", png) for k, (s, frames) in enumerate(zip(names, per_scene, strict=True), 1)
                 for title, png in frames]
        write_atomic(out, _contact_sheet(tiles))
    click.echo(f"storyboard: {len(tiles)} sections of {len(names)} scenes", err=True)
    click.echo(str(out))
