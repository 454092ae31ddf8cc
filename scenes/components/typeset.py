"""Typeset mathematics: formulas, matrix names and short terms, drawn by Typst.

Why Typst and not Pango markup: Pango's ``<sub>``/``<sup>`` give subscripts, but its
overline is a text decoration at the font's own height, so ``√`` and the bar over ``d``
do not meet, and Pango has no fractions. Typst (Manim's ``MathTypst``, the ``typst``
package: a compiled wheel, no LaTeX, nothing downloaded at run time, the same SVG for
the same source) sets real mathematics: ``W_Q`` with its subscript, ``X^T``, a root
whose bar covers its argument, ``frac(a, b)``. It is fast enough: 0.05 to 0.3 s for a
header formula the first time, and Manim keeps the SVG by a hash of its source
(``media/Tex``), so a formula seen before costs only its import.

The maths font is DejaVu Math TeX Gyre (Debian's fonts-dejavu-extra): the OpenType
maths companion of the DejaVu fonts the rest of the lecture uses, with strokes heavy
enough to read at 480p (Typst's own New Computer Modern is too thin there).

A formula's source is Typst maths, e.g. ``A = "softmax"(X X^T \\/ sqrt(d))``. One term
(a substring of the source) may be lit in the accent colour: it becomes a ``MathTypst``
group, so the glyphs it covers are known exactly, and two formulas differing only in
their lit term have the same glyphs in the same order (``Transform`` moves the light).
"""

from __future__ import annotations

import functools
import os
import re
import uuid
from pathlib import Path
from typing import Any, ClassVar

import manim.mobject.text.typst_mobject as typst_mobject
from manim import MathTypst, Text, config
from manim.utils import typst_file_writing

from attncore.i18n import pgettext

from ..theme import FONT, MATH_FONT, SIZE, Theme


def _typst_to_svg_file(typst_code: str, preamble: str = "",
                       text_size: float = typst_file_writing.TYPST_COMPILATION_FONT_SIZE,
                       font_paths: list[str | Path] | None = None) -> Path:
    """Manim's ``typst_to_svg_file`` with atomic writes.

    Manim returns the cached ``<hash>.svg`` as soon as it exists, while another process
    may still be writing it: render workers (and test workers) share ``media/Tex``, and
    a half-written SVG drew a formula with glyphs missing. Written here because Manim
    writes the file in place; the same names, compiled from a private ``.typ`` and moved
    into place whole.
    """
    import typst as typst_compiler

    source = typst_file_writing.TYPST_TEMPLATE.format(text_size=text_size, preamble=preamble, body=typst_code)
    name = typst_file_writing._typst_hash(source)
    folder = config.get_dir("tex_dir")
    folder.mkdir(parents=True, exist_ok=True)
    svg = folder / f"{name}.svg"
    if svg.exists():
        return svg
    own = f".{name}.{os.getpid()}.{uuid.uuid4().hex[:8]}"
    typ_tmp, svg_tmp = folder / f"{own}.typ", folder / f"{own}.svg"
    try:
        typ_tmp.write_text(source, encoding="utf-8")
        fonts = _fonts(tuple(str(f) for f in font_paths or []))
        svg_tmp.write_bytes(typst_compiler.compile(str(typ_tmp), format="svg", font_paths=fonts))
        os.replace(svg_tmp, svg)
        os.replace(typ_tmp, folder / f"{name}.typ")
    finally:
        typ_tmp.unlink(missing_ok=True)
        svg_tmp.unlink(missing_ok=True)
    return svg


@functools.cache
def _fonts(paths: tuple[str, ...]) -> Any:
    """Typst's fonts (the system's, its own and those in ``paths``), found once per process.

    ``typst.compile`` given a list of folders searches every font anew, 70 ms of its 71 ms
    for a formula (15 formulas of three scenes: 1 s of a 34 s render); given the ``Fonts``
    found once it takes 1 ms, and writes the same bytes (``tests/test_typeset.py``)."""
    import typst as typst_compiler

    return typst_compiler.Fonts(font_paths=list(paths))


typst_mobject.typst_to_svg_file = _typst_to_svg_file  # type: ignore[attr-defined]

__all__ = ["Formula", "TYPST_PREAMBLE", "HIGHLIGHT", "formula_words", "translate_formula"]

#: Every formula is set in the maths font; the upright words ("softmax") in it too.
TYPST_PREAMBLE = f'#show math.equation: set text(font: "{MATH_FONT}")'
#: Brackets keep the text's size (``softmax(X Xᵀ/√d)``, as printed in the papers) unless
#: a formula asks them to grow around what they hold (a fraction).
_TEXT_BRACKETS = "#set math.lr(size: 1em)"
#: The name of the ``MathTypst`` group holding the lit term.
HIGHLIGHT = "lit"
#: Put first in every formula, then removed: an "H" taking no room, whose flat bottom
#: is the formula's baseline (Typst's own baseline frames are those of whole text runs).
#: A formula beside a text then sits on the text's line, even one that is a fraction.
_BASELINE_MARK = "#box(width: 0pt)[$upright(H)$]"


@functools.lru_cache(maxsize=256)
def cap_height_of(font: str, font_size: float) -> float:
    """The height of a capital "H" in ``font`` at ``font_size``: laid out once per font and size
    (each layout costs about 10 ms, and a build asks a few hundred times for a handful of sizes)."""
    return float(Text("H", font=font, font_size=font_size).height)


@functools.cache
def _typst_per_pango() -> float:
    """Typst ``font_size`` per Pango ``font_size`` giving the same capital height.

    Sizes stay named in :data:`~scenes.theme.SIZE`: a formula at ``SIZE["formula"]`` has
    the capitals of a Pango text of that size, so it reads as well as the text did.
    """
    pango = Text("H", font=FONT, font_size=100).height
    typst = MathTypst("upright(H)", font_size=100, typst_preamble=TYPST_PREAMBLE).height
    return float(pango / typst)


def _term(source: str, highlight: str) -> str:
    """The part of ``source`` that ``highlight`` names: a word in quotes (``"softmax"``
    names ``\"softmax\"``) or a piece of the source as it is (``sqrt(d)``)."""
    for term in (f'"{highlight}"', highlight):
        if term in source:
            return term
    raise ValueError(f"{highlight!r} is not a term of {source!r}")


def formula_words() -> dict[str, str]:
    """The words written in formulas (Typst strings such as ``"output"``) that a viewer
    reads in their language; function names (``"softmax"``, ``"concat"``, ``"KL"``, ``"PE"``)
    stay as the papers write them."""
    # Translators: the words below are written inside formulas (Typst maths); keep them short.
    return {
        "word": pgettext("formula", "word"),
        "vector": pgettext("formula", "vector"),
        "Output": pgettext("formula", "Output"),
        "output": pgettext("formula", "output"),
        "loss": pgettext("formula", "loss"),
        "target": pgettext("formula", "target"),
        "mask": pgettext("formula", "mask"),
        "heads": pgettext("formula", "heads"),
    }


_TYPST_STRING = re.compile(r'"([^"\\]*)"')


def translate_formula(source: str) -> str:
    """``source`` with its words (:func:`formula_words`) in the viewer's language; the
    maths untouched. English: ``source`` itself."""
    words = formula_words()

    def word(m: re.Match[str]) -> str:
        return '"' + words.get(m[1], m[1]).replace('"', "") + '"'

    return _TYPST_STRING.sub(word, source)


class Formula(MathTypst):
    """A typeset formula (Typst maths source ``source``) with one term in the accent colour.

    ``Formula('A = "softmax"(X X^T \\/ sqrt(d))', theme, highlight='"softmax"')``. Build
    the same formula with another ``highlight`` and ``Transform`` into it to move the
    light. ``.formula`` is the source, ``.highlight`` the lit term, ``.text`` the source
    too (what the tests read, as they read a ``Text``'s ``.text``).

    Examples
    --------
    .. manim:: FormulaExample
        :quality: low
        :save_last_frame:

        from scenes.components import GROUP_BUFF, Formula, Theme

        class FormulaExample(Scene):
            def construct(self):
                theme = Theme(style="dark")
                self.camera.background_color = theme["background"]
                plain = Formula('A = "softmax"(Q K^T / sqrt(d))', theme)
                lit = Formula('A = "softmax"(Q K^T / sqrt(d))', theme, highlight="sqrt(d)")
                self.add(VGroup(plain, lit).arrange(DOWN, buff=GROUP_BUFF))
    """

    #: Formulas made before in this process, by everything that makes them; a new equal one is a
    #: deep copy (its list of the strokes Typst rescales then holds the copy's own strokes).
    #: Manim's own SVG cache is not used: it rebuilt a formula from the parsed glyphs and lost that
    #: list, so a root's bar was drawn 0.52 px wide instead of 0.41 in every formula but the first.
    _made: ClassVar[dict[str, Formula]] = {}

    def __init__(self, source: str, theme: Theme, highlight: str | None = None, size: str = "formula", *,
                 colour: str | None = None, growing_brackets: bool = False) -> None:
        self.formula = source
        self.text = source
        self.highlight = highlight
        expr = source
        if highlight:
            term = _term(source, highlight)
            expr = source.replace(term, f"{{{{ {term} : {HIGHLIGHT} }}}}", 1)
        expr = translate_formula(expr)
        preamble = TYPST_PREAMBLE if growing_brackets else f"{TYPST_PREAMBLE}\n{_TEXT_BRACKETS}"
        kwargs: dict[str, Any] = {"font_size": SIZE[size] * _typst_per_pango(), "typst_preamble": preamble,
                                  "color": colour or theme["text"], "use_svg_cache": False}
        key = repr((expr, sorted(kwargs.items()), highlight and theme["accent"], size, config.pixel_width,
                    config.frame_width))
        made = Formula._made.get(key)
        if made is not None:
            self.__dict__.update(made.copy().__dict__)
            return
        super().__init__(f"{_BASELINE_MARK} {expr}", **kwargs)
        self._baseline_share = self._take_baseline_mark()
        self._cap_share = cap_height_of(FONT, SIZE[size]) / float(self.height or 1.0)
        if highlight:
            self.select(HIGHLIGHT).set_color(theme["accent"])
        for m in self.get_family():  # svgelements' path of each glyph, never read again (see LightText)
            m.__dict__.pop("path_obj", None)
        Formula._made[key] = self.copy()

    def lit(self) -> list[Any]:
        """The glyphs of the lit term (empty without one)."""
        return list(self.select(HIGHLIGHT)) if self.highlight else []

    def _take_baseline_mark(self) -> float:
        """Remove the baseline mark (the first glyph); return where it stood, as a share of
        the height up from the bottom of the rest."""
        mark = self.submobjects[0]
        self.remove(mark)
        return (float(mark.get_bottom()[1]) - float(self.get_bottom()[1])) / float(self.height or 1.0)

    def baseline(self) -> float:
        """The y of the formula's main baseline (follows every move and scale)."""
        return float(self.get_bottom()[1]) + self._baseline_share * float(self.height)

    def cap_height(self) -> float:
        """The height of a capital of the formula's text size (follows every scale)."""
        return self._cap_share * float(self.height)

