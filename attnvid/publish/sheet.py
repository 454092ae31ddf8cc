"""The exercise sheet, ``exercises.pdf``: the questions, then a separate answer key.

The questions come first, each with the numbers it gives (in a monospaced font, one per
line) and its options or a line to write the answer on; the answer key starts on a page
of its own, so a lecturer can hand out the questions alone. The key gives each answer
as shown, the accepted range of a numerical one, which mistake gives each wrong option,
and the worked solution line by line, with where the lecture explains it.

Drawn with pycairo like the handout (:mod:`attnvid.publish.handout`): A4, DejaVu fonts
embedded as subsets with their Unicode mapping, so the text can be searched and copied.
Every line is wrapped to the text width (a word longer than the line is cut), and a
block that does not fit on the page goes on to the next.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cairo

from attncore.exercises import Exercise
from attncore.i18n import _, language, ngettext, number

from ..outputs import atomic_path
from .handout import ACCENT, FONT, INK, LEADING, MARGIN, MUTED, PAGE_H, PAGE_W, RULE, WIDTH

SHEET_NAME = "exercises.pdf"
MONO = "DejaVu Sans Mono"
#: (text, monospaced) fonts of a language DejaVu does not cover (Debian's fonts-noto-cjk).
FACES = {"zh": ("Noto Sans CJK SC", "Noto Sans Mono CJK SC")}
SIZE = {"title": 22.0, "subtitle": 11.0, "heading": 12.0, "body": 10.5, "given": 9.0, "small": 8.0}
INDENT = 16.0  # pt: givens, options and worked lines sit under their question's text
GAP = 14.0  # pt between two questions
ANSWER_LINE = 150.0  # pt: the line a numerical answer is written on
LETTERS = "abcdefgh"


@dataclass
class _Sheet:
    """The PDF being drawn and where the next line goes."""

    surface: cairo.PDFSurface
    ctx: cairo.Context[cairo.PDFSurface]
    footer: str
    page: int = 1
    y: float = MARGIN
    faces: tuple[str, str] = (FONT, MONO)  # (text, monospaced): the viewer language's

    def font(
        self, size: float, bold: bool = False, mono: bool = False, colour: tuple[float, float, float] = INK
    ) -> None:
        weight = cairo.FONT_WEIGHT_BOLD if bold else cairo.FONT_WEIGHT_NORMAL
        self.ctx.select_font_face(self.faces[1] if mono else self.faces[0], cairo.FONT_SLANT_NORMAL, weight)
        self.ctx.set_font_size(size)
        self.ctx.set_source_rgb(*colour)

    def width(self, text: str) -> float:
        return float(self.ctx.text_extents(text).x_advance)

    def wrap(self, text: str, width: float) -> list[str]:
        """``text`` in lines no wider than ``width`` (on spaces; a longer word is cut)."""
        lines: list[str] = []
        for word in text.split():
            while self.width(word) > width and len(word) > 1:
                cut = max(k for k in range(1, len(word)) if self.width(word[:k]) <= width or k == 1)
                lines.append(word[:cut])
                word = word[cut:]
            if lines and self.width(f"{lines[-1]} {word}") <= width:
                lines[-1] += f" {word}"
            else:
                lines.append(word)
        return lines

    def room(self, height: float) -> None:
        """Start a new page unless ``height`` more points fit above the footer."""
        if self.y + height > PAGE_H - MARGIN:
            self.new_page()

    def new_page(self) -> None:
        self.draw_footer()
        self.ctx.show_page()
        self.page += 1
        self.y = MARGIN

    def draw_footer(self) -> None:
        self.font(SIZE["small"], colour=MUTED)
        self.ctx.move_to(MARGIN, PAGE_H - MARGIN / 2)
        self.ctx.show_text(self.footer)
        number = str(self.page)
        self.ctx.move_to(PAGE_W - MARGIN - self.width(number), PAGE_H - MARGIN / 2)
        self.ctx.show_text(number)

    def paragraph(self, text: str, size: float, *, bold: bool = False, mono: bool = False, indent: float = 0.0,
                  colour: tuple[float, float, float] = INK) -> None:
        self.font(size, bold, mono, colour)
        for line in self.wrap(text, WIDTH - indent):
            self.room(size * LEADING)
            self.y += size * LEADING
            self.ctx.move_to(MARGIN + indent, self.y)
            self.ctx.show_text(line)


def _height(sheet: _Sheet, texts: Sequence[tuple[str, float, bool]], indent: float) -> float:
    """The height the lines of ``texts`` (text, size, mono) take, wrapped."""
    total = 0.0
    for text, size, mono in texts:
        sheet.font(size, mono=mono)
        total += len(sheet.wrap(text, WIDTH - indent)) * size * LEADING
    return total


def _where(ex: Exercise) -> str:
    """The scene (its class name, as ``attnvid list`` names it) and its section, in the viewer's language."""
    return f"{ex.scene} · {_(ex.section)}"


def _answer_label(ex: Exercise) -> str:
    return ngettext("Answer ({n} decimal):", "Answer ({n} decimals):", ex.decimals).format(n=ex.decimals)


def _option_mistake(letter: str, text: str, mistake: str) -> str:
    # Translators: a wrong option of the answer key and the mistake that gives it: "b)  0.26: forgot √d".
    return _("{option}: {mistake}").format(option=f"{letter})  {text}", mistake=mistake)


def _keep_together(sheet: _Sheet, texts: Sequence[tuple[str, float, bool]], extra: float = 0.0) -> None:
    """Start a new page unless the block of ``texts`` fits below; a block taller than a page starts where it is."""
    height = _height(sheet, texts, INDENT) + extra
    if height <= PAGE_H - 2 * MARGIN - SIZE["title"] * LEADING:
        sheet.room(height)


def _question(sheet: _Sheet, ex: Exercise) -> None:
    options = [(f"a)  {c.text}", SIZE["body"], False) for c in ex.choices] or [("Answer", 2 * SIZE["body"], False)]
    _keep_together(sheet, [(f"{ex.number}. {ex.title}", SIZE["heading"], False), (ex.prompt, SIZE["body"], False),
                           *((g, SIZE["given"], True) for g in ex.givens), *options], extra=6)
    sheet.paragraph(f"{ex.number}. {ex.title}", SIZE["heading"], bold=True)
    sheet.paragraph(ex.prompt, SIZE["body"])
    sheet.y += 3
    for g in ex.givens:
        sheet.paragraph(g, SIZE["given"], mono=True, indent=INDENT)
    sheet.y += 3
    if ex.numerical:
        sheet.room(2 * SIZE["body"] * LEADING)
        label = _answer_label(ex)
        sheet.paragraph(label, SIZE["body"], indent=INDENT)
        x = MARGIN + INDENT + sheet.width(label) + 8
        sheet.ctx.set_source_rgb(*RULE)
        sheet.ctx.set_line_width(0.6)
        sheet.ctx.move_to(x, sheet.y + 2)
        sheet.ctx.line_to(min(x + ANSWER_LINE, MARGIN + WIDTH), sheet.y + 2)
        sheet.ctx.stroke()
    else:
        for letter, c in zip(LETTERS, ex.choices):
            sheet.paragraph(f"{letter})  {c.text}", SIZE["body"], indent=INDENT)
    sheet.y += GAP


def _key(sheet: _Sheet, ex: Exercise) -> None:
    _keep_together(sheet, [(f"{ex.number}. {ex.title}", SIZE["heading"], False), ("Answer", SIZE["body"], False),
                           *((_option_mistake("a", c.text, c.mistake), SIZE["body"], False) for c in ex.choices
                             if c.mistake),
                           (_("Worked:"), SIZE["body"], False), *((w.text, SIZE["given"], True) for w in ex.solution),
                           ("Explained", SIZE["small"], False)])
    sheet.paragraph(f"{ex.number}. {ex.title}", SIZE["heading"], bold=True)
    if ex.numerical:
        lo, hi = ex.answer_number, ex.tolerance_text
        text = _("Answer: {answer} (accepted within ±{tolerance} of {value})").format(
            answer=ex.answer_text, tolerance=number(hi), value=number(lo))
        sheet.paragraph(text, SIZE["body"], bold=True, colour=ACCENT)
    else:
        right = next(k for k, c in enumerate(ex.choices) if not c.mistake)
        sheet.paragraph(_("Answer: {answer}").format(answer=f"{LETTERS[right]})  {ex.answer_text}"), SIZE["body"],
                        bold=True, colour=ACCENT)
        for letter, c in zip(LETTERS, ex.choices):
            if c.mistake:
                sheet.paragraph(_option_mistake(letter, c.text, c.mistake), SIZE["body"], indent=INDENT, colour=MUTED)
    sheet.paragraph(_("Worked:"), SIZE["body"])
    for w in ex.solution:
        sheet.paragraph(w.text, SIZE["given"], mono=True, indent=INDENT)
    sheet.paragraph(_("Explained in the lecture: {where}").format(where=_where(ex)), SIZE["small"], indent=INDENT,
                    colour=MUTED)
    sheet.y += GAP


def _intro(sheet: _Sheet, title: str, count: int, seed: int, decimals: int) -> None:
    sheet.paragraph(_("Exercises: {title}").format(title=title), SIZE["title"], bold=True)
    questions = ngettext("{count} question on the lecture's own numbers (seed {seed}).",
                         "{count} questions on the lecture's own numbers (seed {seed}).", count).format(
        count=count, seed=seed)
    rounding = ngettext("Give numbers with {decimals} decimal unless a question says otherwise, rounded half away "
                        "from zero ({example} gives {rounded}); a numerical answer is right within half a unit of its "
                        "last decimal.",
                        "Give numbers with {decimals} decimals unless a question says otherwise, rounded half away "
                        "from zero ({example} gives {rounded}); a numerical answer is right within half a unit of its "
                        "last decimal.", decimals).format(decimals=decimals, example=number("4.625"),
                                                          rounded=number("4.63"))
    key = _("The answer key, with every answer worked, starts on a page of its own.")
    sheet.paragraph(f"{questions} {rounding} {key}", SIZE["subtitle"], colour=MUTED)
    sheet.y += GAP


def write_sheet(out: Path, title: str, exercises: Sequence[Exercise], seed: int, decimals: int) -> int:
    """Write the sheet to ``out`` atomically; the number of pages."""
    with atomic_path(out) as tmp:
        surface = cairo.PDFSurface(str(tmp), PAGE_W, PAGE_H)
        surface.set_metadata(cairo.PDF_METADATA_TITLE, _("{title}: exercises").format(title=title))
        surface.set_metadata(cairo.PDF_METADATA_CREATOR, "attnvid exercises")
        surface.set_metadata(cairo.PDF_METADATA_CREATE_DATE, "1980-01-01T00:00:00Z")  # the same seed, the same bytes
        sheet = _Sheet(surface, cairo.Context(surface), _("{title}: exercises").format(title=title),
                       faces=FACES.get(language(), (FONT, MONO)))
        _intro(sheet, title, len(exercises), seed, decimals)
        for ex in exercises:
            _question(sheet, ex)
        sheet.new_page()
        sheet.footer = _("{title}: answer key").format(title=title)
        sheet.paragraph(_("Answer key"), SIZE["title"], bold=True)
        sheet.y += GAP / 2
        for ex in exercises:
            _key(sheet, ex)
        sheet.draw_footer()
        pages = sheet.page
        surface.finish()
    return pages
