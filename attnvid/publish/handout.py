"""The lecture handout, ``handout.pdf``: a title page, then one A4 page per section.

The title page gives the lesson's title, its sentences (the followed word in bold, with
the sense it should lean to) and the contents, scene by scene, with page numbers. A
section's page shows the scene and section titles, the section's last frame and what the
narration says over it, wrapped to the page, ruled lines for the student's notes below,
and where the section lies in ``lecture.mp4``.

Drawn with pycairo (which Manim installs), whose PDF surface embeds the DejaVu fonts as
subsets with their Unicode mapping, so the text can be searched and copied; the frames
go in as JPEG (the PNG's pixels, compressed once), which keeps a page near 100 kB.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cairo
from PIL import Image

from attncore import Lesson

from ..outputs import atomic_path
from .clips import SectionClip

HANDOUT_NAME = "handout.pdf"
#: A4 in points (1/72 in), portrait.
PAGE_W, PAGE_H = 595.276, 841.89
MARGIN = 48.0
WIDTH = PAGE_W - 2 * MARGIN
FONT = "DejaVu Sans"
#: Colours (r, g, b) by role: print-friendly, dark text on white.
INK = (0.10, 0.11, 0.13)
MUTED = (0.42, 0.44, 0.49)
ACCENT = (0.72, 0.45, 0.05)
RULE = (0.80, 0.81, 0.84)
#: Font sizes (pt) by role; a narration too long for its page steps down to NARRATION_MIN.
SIZE = {"title": 28.0, "subtitle": 14.0, "heading": 13.0, "sentence": 16.0, "body": 11.0, "scene": 10.5,
        "section": 19.0, "narration": 12.0, "small": 8.5}
NARRATION_MIN = 8.0
LEADING = 1.45  # line height over font size
NOTE_LINE = 24.0  # pt between two ruled lines for notes (handwriting)
JPEG_QUALITY = 90  # frames are flat colour and text: 90 keeps digits sharp
IMAGE_MAX_WIDTH = 1600  # px: about 230 dpi over the text width; larger frames are scaled down


@dataclass
class _Pen:
    """Where the next line goes on the current page."""

    ctx: cairo.Context[cairo.PDFSurface]
    y: float = MARGIN

    def font(self, size: float, bold: bool = False, colour: tuple[float, float, float] = INK) -> None:
        self.ctx.select_font_face(FONT, cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_BOLD if bold else cairo.FONT_WEIGHT_NORMAL)
        self.ctx.set_font_size(size)
        self.ctx.set_source_rgb(*colour)

    def width(self, text: str) -> float:
        return float(self.ctx.text_extents(text).x_advance)

    def text(self, x: float, y: float, text: str) -> None:
        self.ctx.move_to(x, y)
        self.ctx.show_text(text)


def wrap(pen: _Pen, text: str, width: float) -> list[str]:
    """``text`` in lines no wider than ``width`` at the pen's font (greedy, on spaces)."""
    lines: list[str] = []
    for word in text.split():
        if lines and pen.width(f"{lines[-1]} {word}") <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines


def _paragraph(pen: _Pen, text: str, size: float, bold: bool = False,
               colour: tuple[float, float, float] = INK) -> None:
    pen.font(size, bold, colour)
    for line in wrap(pen, text, WIDTH):
        pen.y += size * LEADING
        pen.text(MARGIN, pen.y, line)


def _frame_surface(png: Path) -> cairo.ImageSurface:
    """The frame as a cairo surface that the PDF embeds as JPEG."""
    with Image.open(png) as img:
        rgb = img.convert("RGB")
    if rgb.width > IMAGE_MAX_WIDTH:
        rgb = rgb.resize((IMAGE_MAX_WIDTH, round(rgb.height * IMAGE_MAX_WIDTH / rgb.width)), Image.Resampling.LANCZOS)
    jpeg, lossless = io.BytesIO(), io.BytesIO()
    rgb.save(jpeg, format="JPEG", quality=JPEG_QUALITY, optimize=True)
    rgb.save(lossless, format="PNG")
    lossless.seek(0)
    surface = cairo.ImageSurface.create_from_png(lossless)
    surface.set_mime_data(cairo.MIME_TYPE_JPEG, jpeg.getvalue())
    return surface


def _image(pen: _Pen, png: Path) -> None:
    surface = _frame_surface(png)
    scale = WIDTH / surface.get_width()
    height = surface.get_height() * scale
    ctx = pen.ctx
    ctx.save()
    ctx.translate(MARGIN, pen.y)
    ctx.scale(scale, scale)
    ctx.set_source_surface(surface, 0, 0)
    ctx.paint()
    ctx.restore()
    ctx.set_source_rgb(*RULE)
    ctx.set_line_width(0.6)
    ctx.rectangle(MARGIN, pen.y, WIDTH, height)
    ctx.stroke()
    pen.y += height


def _note_lines(pen: _Pen) -> None:
    """Ruled lines for notes from below the text down to the footer (none when less than two fit)."""
    top, bottom = pen.y + 2 * NOTE_LINE, PAGE_H - MARGIN - 6
    if bottom - top < NOTE_LINE:
        return
    pen.font(SIZE["small"], colour=MUTED)
    pen.text(MARGIN, top - NOTE_LINE + SIZE["small"], "Notes")
    pen.ctx.set_source_rgb(*RULE)
    pen.ctx.set_line_width(0.5)
    y = top
    while y <= bottom:
        pen.ctx.move_to(MARGIN, y)
        pen.ctx.line_to(MARGIN + WIDTH, y)
        y += NOTE_LINE
    pen.ctx.stroke()


def _clock(seconds: float) -> str:
    m, s = divmod(int(seconds), 60)
    return f"{m}:{s:02d}"


def _footer(pen: _Pen, left: str, page: int) -> None:
    pen.font(SIZE["small"], colour=MUTED)
    pen.text(MARGIN, PAGE_H - MARGIN / 2, left)
    number = str(page)
    pen.text(PAGE_W - MARGIN - pen.width(number), PAGE_H - MARGIN / 2, number)


def _sentence(pen: _Pen, tokens: Sequence[str], focus: str) -> None:
    """The sentence on one line (wrapped if it must), the followed word in bold and accent colour."""
    size = SIZE["sentence"]
    x = MARGIN
    pen.y += size * LEADING
    for word in tokens:
        bold = word == focus
        pen.font(size, bold, ACCENT if bold else INK)
        w = pen.width(word)
        if x > MARGIN and x + w > MARGIN + WIDTH:
            x, pen.y = MARGIN, pen.y + size * LEADING
        pen.text(x, pen.y, word)
        x += w + pen.width(" ")


def _title_page(pen: _Pen, lesson: Lesson, clips: Sequence[SectionClip], duration: float) -> None:
    _paragraph(pen, lesson.title, SIZE["title"], bold=True)
    _paragraph(pen, "Self-attention, explained with real numbers: the handout of the lecture", SIZE["subtitle"],
               colour=MUTED)
    pen.y += 18
    _paragraph(pen, "The sentences", SIZE["heading"], bold=True)
    for c in lesson.contexts:
        _sentence(pen, c.tokens, c.focus)
        lean = f", which should lean to {c.leans}" if c.leans else ""
        _paragraph(pen, f"{c.name}: we follow “{c.focus}”{lean}.", SIZE["body"], colour=MUTED)
        pen.y += 4
    pen.y += 14
    _paragraph(pen, "Contents", SIZE["heading"], bold=True)
    first_page: dict[str, int] = {}
    for k, clip in enumerate(clips, 2):
        first_page.setdefault(clip.scene_title, k)
    pen.font(SIZE["body"])
    for scene_title, page in first_page.items():
        pen.y += SIZE["body"] * LEADING
        pen.text(MARGIN, pen.y, scene_title)
        number = f"page {page}"
        pen.text(MARGIN + WIDTH - pen.width(number), pen.y, number)
    pen.y += 18
    _paragraph(pen, f"{len(clips)} sections, {_clock(duration)} of video (lecture.mp4). Each page shows a "
               "section's last frame and what the narration says over it; the slides (lecture.pptx) play the "
               "same sections, and the workbook (workbook.xlsx) computes every number.", SIZE["body"], colour=MUTED)


def _section_page(pen: _Pen, folder: Path, clip: SectionClip, index: int, total: int) -> None:
    _paragraph(pen, clip.scene_title, SIZE["scene"], bold=True, colour=MUTED)
    _paragraph(pen, clip.title, SIZE["section"], bold=True)
    pen.y += 12
    _image(pen, folder / clip.poster)
    pen.y += 8
    room = PAGE_H - MARGIN - pen.y
    size = SIZE["narration"]
    pen.font(size)
    while size > NARRATION_MIN and len(wrap(pen, clip.narration, WIDTH)) * size * LEADING > room:
        size -= 0.5
        pen.font(size)
    _paragraph(pen, clip.narration, size)
    _note_lines(pen)
    where = f"Section {index} of {total} · {_clock(clip.start_s)}–{_clock(clip.end_s)} in lecture.mp4"
    _footer(pen, where, index + 1)


def write_handout(out: Path, folder: Path, lesson: Lesson, clips: Sequence[SectionClip], duration: float) -> None:
    """Write the handout of ``clips`` (posters relative to ``folder``) to ``out``, atomically."""
    with atomic_path(out) as tmp:
        surface = cairo.PDFSurface(str(tmp), PAGE_W, PAGE_H)
        surface.set_metadata(cairo.PDF_METADATA_TITLE, f"{lesson.title}: handout")
        surface.set_metadata(cairo.PDF_METADATA_CREATOR, "attnvid lecture")
        surface.set_metadata(cairo.PDF_METADATA_CREATE_DATE, "1980-01-01T00:00:00Z")  # the same lecture, the same bytes
        pen = _Pen(cairo.Context(surface))
        _title_page(pen, lesson, clips, duration)
        _footer(pen, lesson.title, 1)
        for k, clip in enumerate(clips, 1):
            pen.ctx.show_page()
            pen.y = MARGIN
            _section_page(pen, folder, clip, k, len(clips))
        surface.finish()
