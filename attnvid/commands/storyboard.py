"""``attnvid storyboard``: the last frame of every section, on one contact sheet."""

from __future__ import annotations

import io
import math
from pathlib import Path
from typing import TYPE_CHECKING

import click

from attncore.i18n import language, use
from attnstage.settings import DEFAULT_STYLE, SceneSettings

from ..catalog import lecture_scenes
from ..lessons import get_lesson, output_root
from ..options import (
    jobs_option,
    language_option,
    lesson_option,
    media_option,
    quality_option,
    settings_options,
    theme_option,
)
from ..outputs import claim_output, write_atomic
from ..publish.clips import shown
from ..render.frames import section_frames
from ..render.jobs import default_jobs
from ..render.runtime import require_runtime
from ..render.workers import Workers, start_early

if TYPE_CHECKING:
    from PIL.ImageFont import FreeTypeFont, ImageFont


@click.command("storyboard")
@jobs_option
@settings_options(quality_option, lesson_option, theme_option, language_option)
@media_option(None)
def storyboard(jobs: int | None, settings: SceneSettings, media: Path) -> None:
    """One PNG contact sheet: the last frame of every section, in lecture order."""
    start_early()  # the workers' fork server imports Manim while this plans
    lesson = get_lesson(settings)
    names = [c.__name__ for c in lecture_scenes()]
    require_runtime()
    settings = settings.with_style(lesson.style)
    root = output_root(lesson, media, settings)
    out = root / "storyboard" / f"storyboard_{settings.quality}.png"
    with claim_output(root):
        per_scene = _frames_of(names, settings, root, jobs or default_jobs())
        with use(lesson.language, lesson.catalogue):  # the sections' titles as the frames show them
            tiles = [(f"{k}. {s} · {shown(title)}", png)
                     for k, (s, frames) in enumerate(zip(names, per_scene, strict=True), 1) for title, png in frames]
            sheet = contact_sheet(tiles, settings.style)
        write_atomic(out, sheet)
    click.echo(f"storyboard: {len(tiles)} sections of {len(names)} scenes", err=True)
    click.echo(str(out))


def _frames_of(names: list[str], settings: SceneSettings, root: Path, n: int) -> list[list[tuple[str, bytes]]]:
    """Every section's last frame of every scene, on ``n`` worker processes (or here, for one)."""
    calls = [(s, settings, str(root / ".work" / "frames" / s), None) for s in names]
    if n == 1:
        return [section_frames(*c) for c in calls]
    with Workers(n) as workers:
        return [f.result() for f in workers.submit_all(section_frames, calls)]


#: The sheet's background and caption colours (r, g, b) by style.
SHEET_COLOURS = {"dark": ((10, 11, 14), (236, 232, 225)), "light": ((236, 234, 228), (28, 30, 36))}


def contact_sheet(tiles: list[tuple[str, bytes]], style: str = DEFAULT_STYLE) -> bytes:
    """The storyboard PNG: (caption, PNG bytes) tiles, four to a row."""
    from PIL import Image, ImageDraw

    tile_w, tile_h = 427, 240  # half of 480p: numbers stay legible on the sheet
    label_h, pad, cols = 26, 10, 4
    rows = math.ceil(len(tiles) / cols)
    sheet = Image.new(
        "RGB", (cols * (tile_w + pad) + pad, rows * (tile_h + label_h + pad) + pad), SHEET_COLOURS[style][0]
    )
    draw = ImageDraw.Draw(sheet)
    font = _font(14, language())
    for k, (caption, png) in enumerate(tiles):
        x = pad + (k % cols) * (tile_w + pad)
        y = pad + (k // cols) * (tile_h + label_h + pad)
        img = Image.open(io.BytesIO(png)).convert("RGB").resize((tile_w, tile_h), Image.Resampling.LANCZOS)
        sheet.paste(img, (x, y + label_h))
        while draw.textlength(caption, font=font) > tile_w - 4 and len(caption) > 4:
            caption = caption[:-2] + "…"
        draw.text((x + 2, y + 4), caption, fill=SHEET_COLOURS[style][1], font=font)
    buf = io.BytesIO()
    sheet.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


#: Fonts of the captions by language: DejaVu has no Chinese (Debian's fonts-noto-cjk has).
#: (path, index in the collection: 2 is Simplified Chinese).
FONTS = {"zh": (("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 2),)}


def _font(size: int, lang: str = "en") -> FreeTypeFont | ImageFont:
    from PIL import ImageFont

    for path, index in (*FONTS.get(lang, ()), ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 0),
                        ("DejaVuSans.ttf", 0)):
        try:
            return ImageFont.truetype(path, size, index=index)
        except OSError:
            continue
    return ImageFont.load_default()
