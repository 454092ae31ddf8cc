"""The lecture handout, ``handout.pdf``: a title page, then two sections to an A4 page.

The title page gives the lesson's title, its sentences (the followed word in bold, with
the sense it should lean to) and the contents, scene by scene, with page numbers. Each
half page shows a section: its scene and title, its last frame and, under it, what the
narration says over it, and where the section lies in ``lecture.mp4``.

The frames are printed light whatever the video's style (:func:`print_frames`: each
section's last frame drawn again by Manim's camera in the light style at 1280×720, no
video encoded, kept under ``<media>/prints/`` and drawn again only when the scene's
inputs change), about 190 dpi at their printed width: toner for the numbers, not for a
dark background. Without them (a folder of posters only) the video's posters are printed.

Drawn with pycairo (which Manim installs), whose PDF surface embeds the DejaVu fonts as
subsets with their Unicode mapping, so the text can be searched and copied; the frames
go in as JPEG (the PNG's pixels, compressed once).
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import cairo
from PIL import Image

from attncore import Lesson, find_lesson
from attncore.i18n import _, breakable_words, language, ngettext, quoted
from attncore.narration import section_slug
from attnstage.settings import DEFAULTS

from ..catalog import resolve_scene, scene_heading
from ..outputs import atomic_path, write_atomic
from ..paths import source_file
from ..render.cache import cache_key
from ..render.frames import section_frames
from ..render.jobs import Job
from ..render.workers import Workers
from .clips import SectionClip, shown

HANDOUT_NAME = "handout.pdf"
#: A4 in points (1/72 in), portrait.
PAGE_W, PAGE_H = 595.276, 841.89
MARGIN = 48.0
WIDTH = PAGE_W - 2 * MARGIN
FONT = "DejaVu Sans"
#: The font of a language DejaVu does not cover (Debian's fonts-noto-cjk, which ``doctor`` checks).
FONTS = {"zh": "Noto Sans CJK SC"}
#: Colours (r, g, b) by role: print-friendly, dark text on white.
INK = (0.10, 0.11, 0.13)
MUTED = (0.42, 0.44, 0.49)
ACCENT = (0.72, 0.45, 0.05)
RULE = (0.80, 0.81, 0.84)
#: Font sizes (pt) by role.
SIZE = {"title": 28.0, "subtitle": 14.0, "heading": 13.0, "sentence": 16.0, "body": 11.0, "scene": 9.5,
        "small": 8.5}
LEADING = 1.45  # line height over font size
JPEG_QUALITY = 90  # frames are flat colour and text: 90 keeps digits sharp
IMAGE_MAX_WIDTH = 1600  # px: about 230 dpi over the text width; larger frames are scaled down
#: Sections on a page, and the quality their frames are drawn at for print (1280×720: at
#: most 499 pt wide, 185 dpi and up).
PER_PAGE = 2
PRINT_QUALITY = "medium"
#: The style the handout prints in, whatever the video's.
PRINT_STYLE = "light"
#: The narration under a frame: its size, and the least it steps down to before the frame shrinks.
UNDER_SIZE, UNDER_MIN = 10.0, 8.5
#: A half page: the room of a section, between the top margin and the footer.
HALF = (PAGE_H - 2 * MARGIN - 14) / PER_PAGE
#: Points between a section's heading, frame and narration, and after a section.
GAP, BLOCK_GAP = 6.0, 14.0


@dataclass
class _Pen:
    """Where the next line goes on the current page."""

    ctx: cairo.Context[cairo.PDFSurface]
    y: float = MARGIN
    face: str = FONT
    #: The frames drawn so far, kept alive until the PDF is finished (:func:`_release`).
    frames: list[cairo.ImageSurface] = field(default_factory=list)

    def font(self, size: float, bold: bool = False, colour: tuple[float, float, float] = INK) -> None:
        self.ctx.select_font_face(
            self.face, cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_BOLD if bold else cairo.FONT_WEIGHT_NORMAL
        )
        self.ctx.set_font_size(size)
        self.ctx.set_source_rgb(*colour)

    def width(self, text: str) -> float:
        return float(self.ctx.text_extents(text).x_advance)

    def text(self, x: float, y: float, text: str) -> None:
        self.ctx.move_to(x, y)
        self.ctx.show_text(text)


def wrap(pen: _Pen, text: str, width: float) -> list[str]:
    """``text`` in lines no wider than ``width`` at the pen's font (greedy, on spaces; a run
    wider than a line, as a Chinese sentence without spaces, is broken between characters)."""
    lines: list[str] = []
    for word in breakable_words(text):  # a no-break space (French « ») holds its words together
        if lines and pen.width(f"{lines[-1]} {word}") <= width:
            lines[-1] += f" {word}"
        elif pen.width(word) <= width:
            lines.append(word)
        else:
            lines.append("")
            for ch in word:
                if not lines[-1] or pen.width(lines[-1] + ch) <= width:
                    lines[-1] += ch
                else:
                    lines.append(ch)
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


def _release(frames: list[cairo.ImageSurface]) -> None:
    """Detach the frames' JPEG data while their Python objects still hold them.

    pycairo frees mime data from a callback that, when cairo itself drops the last reference
    to a frame (the PDF's page replay, after our object is gone), touches the surface being
    destroyed: a use-after-free that crashed the lecture at ``show_page`` under load (a core
    dump showed ``_destroy_mime_data_func`` under ``cairo_surface_destroy``, cairo 1.16). Kept
    alive to the end and detached here, no frame is ever destroyed with mime data on it.
    """
    for frame in frames:
        frame.set_mime_data(cairo.MIME_TYPE_JPEG, None)
    frames.clear()


def _image(pen: _Pen, png: Path, width: float = WIDTH) -> None:
    """The frame ``width`` points wide, centred on the text column."""
    surface = _frame_surface(png)
    pen.frames.append(surface)
    scale = width / surface.get_width()
    height = surface.get_height() * scale
    x = MARGIN + (WIDTH - width) / 2
    ctx = pen.ctx
    ctx.save()
    ctx.translate(x, pen.y)
    ctx.scale(scale, scale)
    ctx.set_source_surface(surface, 0, 0)
    ctx.paint()
    ctx.restore()
    ctx.set_source_rgb(*RULE)
    ctx.set_line_width(0.6)
    ctx.rectangle(x, pen.y, width, height)
    ctx.stroke()
    pen.y += height


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
    _paragraph(pen, _("Self-attention, explained with real numbers: the handout of the lecture"), SIZE["subtitle"],
               colour=MUTED)
    pen.y += 18
    _paragraph(pen, _("The sentences"), SIZE["heading"], bold=True)
    for c in lesson.contexts:
        _sentence(pen, c.tokens, c.focus)
        if c.leans:
            # Translators: under a sentence of the lesson: {name} is its context, {word} the word
            # followed (quoted), {lean} the dimension its meaning should lean to.
            said = _("{name}: we follow {word}, which should lean to {lean}.")
        else:
            said = _("{name}: we follow {word}.")
        _paragraph(pen, said.format(name=c.name, word=quoted(c.focus), lean=c.leans), SIZE["body"], colour=MUTED)
        pen.y += 4
    pen.y += 14
    _paragraph(pen, _("Contents"), SIZE["heading"], bold=True)
    first_page: dict[str, int] = {}
    for clip, page in zip(clips, _pages(clips), strict=True):
        first_page.setdefault(
            scene_heading(clip.scene, clip.scene_title) if clip.scene_title else shown(clip.title), page
        )
    pen.font(SIZE["body"])
    for scene_title, page in first_page.items():
        pen.y += SIZE["body"] * LEADING
        pen.text(MARGIN, pen.y, scene_title)
        # Translators: a page number in the handout's contents.
        number = _("page {n}").format(n=page)
        pen.text(MARGIN + WIDTH - pen.width(number), pen.y, number)
    pen.y += 18
    about = ngettext(
        "{n} section, {time} of video (lecture.mp4). Each half page shows a section's last frame and what the "
        "narration says over it; the slides (lecture.pptx) play the same sections, and the workbook "
        "(workbook.xlsx) computes every number.",
        "{n} sections, {time} of video (lecture.mp4). Each half page shows a section's last frame and what the "
        "narration says over it; the slides (lecture.pptx) play the same sections, and the workbook "
        "(workbook.xlsx) computes every number.", len(clips))
    _paragraph(pen, about.format(n=len(clips), time=_clock(duration)), SIZE["body"], colour=MUTED)


def _narration_size(pen: _Pen, text: str, room: float) -> tuple[float, float]:
    """The narration's font size (from UNDER_SIZE down to UNDER_MIN) and the height it takes."""
    size = UNDER_SIZE
    while True:
        pen.font(size)
        height = len(wrap(pen, text, WIDTH)) * size * LEADING
        if height <= room or size <= UNDER_MIN:
            return size, height
        size -= 0.5


def _section_block(pen: _Pen, png: Path, clip: SectionClip, index: int, total: int) -> None:
    """One section on its half page: heading, frame, the narration under it."""
    top = pen.y
    pen.font(SIZE["scene"], bold=True, colour=MUTED)
    where = f"{index}/{total} · {_clock(clip.start_s)}–{_clock(clip.end_s)}"
    pen.text(PAGE_W - MARGIN - pen.width(where), top + SIZE["scene"], where)
    pen.text(MARGIN, top + SIZE["scene"], scene_heading(clip.scene, clip.scene_title))
    pen.y = top + SIZE["scene"] * LEADING
    _paragraph(pen, shown(clip.title), SIZE["heading"], bold=True)
    pen.y += GAP
    heading = pen.y - top
    size, text_h = _narration_size(pen, clip.narration, HALF - heading - WIDTH * 9 / 16 - GAP - BLOCK_GAP)
    frame_h = min(WIDTH * 9 / 16, HALF - heading - text_h - GAP - BLOCK_GAP)
    _image(pen, png, frame_h * 16 / 9)
    pen.y += GAP - size * (LEADING - 1)
    _paragraph(pen, clip.narration, size)


def _pages(clips: Sequence[SectionClip]) -> list[int]:
    """The page each section is printed on (the title page is 1)."""
    return [2 + k // PER_PAGE for k in range(len(clips))]


def write_handout(out: Path, folder: Path, lesson: Lesson, clips: Sequence[SectionClip], duration: float,
                  prints: Mapping[tuple[str, str], Path] | None = None) -> None:
    """Write the handout of ``clips`` to ``out``, atomically: each section's frame from
    ``prints`` ((scene, section title) -> light PNG, :func:`print_frames`), else its poster
    (relative to ``folder``)."""
    prints = prints or {}
    with atomic_path(out) as tmp:
        surface = cairo.PDFSurface(str(tmp), PAGE_W, PAGE_H)
        surface.set_metadata(cairo.PDF_METADATA_TITLE, _("{title}: handout").format(title=lesson.title))
        surface.set_metadata(cairo.PDF_METADATA_CREATOR, "attnvid lecture")
        surface.set_metadata(cairo.PDF_METADATA_CREATE_DATE, "1980-01-01T00:00:00Z")  # the same lecture, the same bytes
        pen = _Pen(cairo.Context(surface), face=FONTS.get(language(), FONT))
        try:
            _title_page(pen, lesson, clips, duration)
            _footer(pen, lesson.title, 1)
            pages = _pages(clips)
            for k, clip in enumerate(clips):
                if k % PER_PAGE == 0:
                    pen.ctx.show_page()
                    _footer(pen, lesson.title, pages[k])
                pen.y = MARGIN + (k % PER_PAGE) * HALF
                png = prints.get((clip.scene, clip.title), folder / clip.poster)
                _section_block(pen, png, clip, k + 1, len(clips))
            surface.finish()
        finally:
            _release(pen.frames)


def print_frames(jobs: Sequence[Job], n_jobs: int) -> dict[tuple[str, str], Path]:
    """The last frame of every section of the jobs' scenes, light, at print resolution:
    (scene, section title) -> PNG under ``<root>/prints/``.

    A scene's frames are drawn again (on ``n_jobs`` worker processes) only when its inputs
    changed: their key is the render cache key of the scene in the light style at
    :data:`PRINT_QUALITY`, kept beside them.
    """
    out: dict[tuple[str, str], Path] = {}
    todo = []
    for job in jobs:
        folder = Path(job.root).parent / "prints" if job.settings.style == PRINT_STYLE else Path(job.root) / "prints"
        folder = folder / job.scene
        key = cache_key(source_file(resolve_scene(job.scene)), repr(find_lesson(job.settings.lesson or None)),
                        PRINT_QUALITY, "print", style=PRINT_STYLE)
        found = _stored_prints(folder, key)
        if found is None:
            todo.append((job, folder, key))
        else:
            out.update({(job.scene, t): p for t, p in found.items()})
    if todo:
        # One folder of parsed texts for every scene's frames (the header and labels recur),
        # unless a caller (the test suite) named one; no voice: a print is not timed by speech.
        texts = todo[0][0].settings.text_cache or str(Path(todo[0][0].root) / ".work" / "prints" / "texts")
        calls = [(j.scene, replace(j.settings, quality=PRINT_QUALITY, style=PRINT_STYLE, voice=DEFAULTS.voice,
                                   text_cache=texts),
                  str(Path(j.root) / ".work" / "prints" / j.scene), None, False) for j, _, _ in todo]
        with Workers(max(1, min(n_jobs, len(calls)))) as workers:
            drawn = [f.result() for f in workers.submit_all(section_frames, calls)]
        for (job, folder, key), frames in zip(todo, drawn, strict=True):
            out.update({(job.scene, t): p for t, p in _store_prints(folder, key, frames).items()})
    return out


def _stored_prints(folder: Path, key: str) -> dict[str, Path] | None:
    try:
        meta = json.loads((folder / "prints.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    found = {t: folder / name for t, name in meta.get("frames", {}).items()}
    if meta.get("key") != key or not all(p.is_file() for p in found.values()):
        return None
    return found


def _store_prints(folder: Path, key: str, frames: Sequence[tuple[str, bytes]]) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "prints.json").unlink(missing_ok=True)  # the old record goes first, as for renders
    names = {}
    for k, (title, png) in enumerate(frames, 1):
        names[title] = f"{k:02d}_{section_slug(title)}.png"
        write_atomic(folder / names[title], png)
    write_atomic(folder / "prints.json", json.dumps({"key": key, "frames": names}, ensure_ascii=False).encode())
    return {t: folder / n for t, n in names.items()}
