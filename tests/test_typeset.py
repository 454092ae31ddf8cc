"""Typeset formulas: the Formula component, maths in labels, and no plain-text maths on screen.

Formulas are typeset by Typst (:mod:`scenes.components.typeset`), names in labels and
sentences get Pango sub- and superscripts (:func:`scenes.components.text.inline_math`).
What the issue asked: no underscore-named matrix and no ASCII-art formula left on screen.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import built_scene
from manim import MarkupText, Text, Transform

from scenes.components import Definition, Formula, label
from scenes.components.text import inline_math, typst_of
from scenes.inspect import visible_texts
from scenes.lecture import LECTURE
from scenes.theme import SIZE, Theme

THEME = Theme()
ACCENT, TEXT = THEME["accent"].upper(), THEME["text"].upper()

#: Plain-text maths: a name with an underscore subscript (W_Q, d_v), a caret, a ᵀ glyph.
ASCII_MATHS = re.compile(r"\b[A-Za-z]+_[A-Za-z0-9]|\^|ᵀ")


def colours(glyphs: list) -> set[str]:  # type: ignore[type-arg]
    return {g.get_fill_color().to_hex().upper() for g in glyphs}


def test_subscripts_are_small_and_low() -> None:
    """``Q = X W_Q``: five glyphs; the subscript Q is smaller than the Q on the line and below the baseline."""
    f = Formula("Q = X W_Q", THEME)
    q, _, x, w, sub = f.submobjects
    assert len(f.submobjects) == 5
    assert sub.height < 0.85 * q.height  # (the Q on the line with its tail)
    assert sub.get_bottom()[1] < f.baseline() - 0.02 < x.get_bottom()[1] + 0.01
    assert sub.get_left()[0] > w.get_right()[0] - 0.05, "the subscript follows its W"


def test_transpose_is_a_superscript_and_the_root_has_its_bar() -> None:
    f = Formula(r"X X^T \/ sqrt(d)", THEME)
    x, _, t = f.submobjects[:3]
    assert t.height < 0.85 * x.height and t.get_bottom()[1] > x.get_bottom()[1] + 0.05, "T raised and smaller"
    d = f.submobjects[-2] if f.submobjects[-1].height < 0.05 else f.submobjects[-1]
    bar = max(f.submobjects, key=lambda m: m.width / max(m.height, 1e-3))
    assert bar.height < 0.05, "the root's bar is a flat line"
    assert bar.get_left()[0] <= d.get_left()[0] + 0.02 and bar.get_right()[0] >= d.get_right()[0] - 0.02
    assert bar.get_bottom()[1] > d.get_top()[1] - 0.02, "the bar is over d"


def test_highlight_colours_exactly_the_glyphs_of_its_term() -> None:
    src = r'A = "softmax"(X X^T \/ sqrt(d))'
    f = Formula(src, THEME, highlight="softmax")
    lit = f.lit()
    assert len(lit) == len("softmax")
    assert colours(lit) == {ACCENT}
    assert colours([g for g in f.submobjects if g not in lit]) == {TEXT}
    root = Formula(src, THEME, highlight="sqrt(d)")
    assert len(root.lit()) == 3 and colours(root.lit()) == {ACCENT}, "the root sign, its bar and d"
    with pytest.raises(ValueError, match="not a term"):
        Formula(src, THEME, highlight="mask")


def test_moving_the_light_is_a_glyph_for_glyph_transform() -> None:
    """The same formula with another lit term has the same glyphs at the same places."""
    src = r'"softmax"("mask"(X X^T \/ sqrt(d))) X'
    a, b = Formula(src, THEME, highlight="mask"), Formula(src, THEME, highlight="softmax")
    assert len(a.submobjects) == len(b.submobjects)
    for p, q in zip(a.submobjects, b.submobjects, strict=True):
        assert abs(p.get_center() - q.get_center()).max() < 1e-6 and len(p.points) == len(q.points)
    anim = Transform(a, b)
    anim.begin()
    anim.interpolate(1.0)
    assert colours(a.submobjects[:7]) == {ACCENT}


def test_formula_capitals_are_as_tall_as_the_text_of_its_size() -> None:
    """Readability kept: a formula at SIZE[s] has the capitals of Pango text at SIZE[s]."""
    for size in ("formula", "label", "pipeline"):
        f = Formula("H", THEME, size=size)
        assert f.height == pytest.approx(Text("H", font="DejaVu Sans", font_size=SIZE[size]).height, rel=0.03)
        assert f.cap_height() == pytest.approx(f.height, rel=0.03)
        assert f.baseline() == pytest.approx(f.get_bottom()[1], abs=0.01)


def test_maths_in_labels() -> None:
    assert inline_math("W_Q") == "W<sub>Q</sub>"
    assert inline_math("Values: V = X·W_V & more") == "Values: V = X·W<sub>V</sub> &amp; more"
    assert inline_math("X·Xᵀ") == "X·X<sup>T</sup>" and inline_math("the word") is None
    name = label("W_Q")
    assert isinstance(name, MarkupText) and name.text == "WQ"
    assert typst_of("score / √d") == r'"score" \/ sqrt(d)'
    assert typst_of("Every score is divided by √d.") is None, "a sentence stays a sentence"
    assert isinstance(label("√d ="), Formula)


def test_definition_is_one_typeset_formula_of_two_lines() -> None:
    from scenes.components import POSITIONAL_ENCODING

    d = Definition(POSITIONAL_ENCODING, THEME)
    assert isinstance(d, Formula) and d.lines == POSITIONAL_ENCODING
    assert d.height > 2.5 * d.cap_height(), "two lines"


@pytest.mark.parametrize("cls", [pytest.param(c, id=c.__name__) for c in LECTURE])
def test_no_plain_text_maths_on_screen(cls: type) -> None:
    """No text of the default lesson shows W_Q, d_v, X^T or Xᵀ as typed: names are set with
    sub- and superscripts, formulas by Typst; a formula's Typst source quotes no such name."""
    scene = built_scene(cls)
    typeset = 0
    for cp in scene.checkpoints:
        for shown in visible_texts(cp):
            m = shown.mob
            if isinstance(m, Formula):
                typeset += 1
                quoted = " ".join(re.findall(r'"([^"]*)"', m.formula))
                assert not ASCII_MATHS.search(quoted), f"{cp.section}: {m.formula!r} quotes plain maths"
                continue
            assert not ASCII_MATHS.search(m.text), f"{cp.section}: plain-text maths {m.text!r}"
            if isinstance(m, Text):  # Pango text (sentences may say √d; labels may not)
                assert "√" not in m.text or m.text.endswith("."), f"{cp.section}: a root without its bar {m.text!r}"
    # every step has its header; the title card has none (no pipeline marker, no formula)
    assert typeset > 0 or cls.__name__ == "TitleCard", "the header formula and the pipeline marker are typeset"


def test_formulas_reach_the_shared_cache_whole(tmp_path: Path) -> None:
    """Render workers share media/Tex: a compiled formula appears there in one move (Manim
    writes it in place, and another worker may read it half-written), and no temporary is left."""
    import manim.mobject.text.typst_mobject as typst_mobject
    from manim import tempconfig

    from scenes.components import typeset

    assert typst_mobject.typst_to_svg_file is typeset._typst_to_svg_file
    with tempconfig({"media_dir": str(tmp_path)}):
        svg = typeset._typst_to_svg_file("$W_Q$")
        again = typeset._typst_to_svg_file("$W_Q$")
    assert svg == again and svg.read_bytes().startswith(b"<svg")
    assert sorted(p.suffix for p in svg.parent.iterdir()) == [".svg", ".typ"]  # nothing half-done beside them


def test_fonts_found_once_compile_to_the_bytes_of_a_fresh_search(tmp_path: Path) -> None:
    """The formulas are compiled with Typst's fonts found once per process (70 ms a formula
    saved): every formula of the kinds the lecture shows, in three scripts, compiles to the
    bytes ``typst.compile`` writes when it searches the fonts itself."""
    import typst
    from manim.utils import typst_file_writing

    from scenes.components import typeset

    bodies = ["$W_Q$", "$sqrt(d_k)$", "$\"softmax\"(Q K^T) V$", "$x^2 + y_1 - 0.5$", "$\"Maus\" dot \"Katze\"$",
              "$\"苹果\" + \"עכבר\" = \"فأر\"$", "$e^(s_i) / (sum_j e^(s_j))$"]
    shared = typeset._fonts(())
    for i, body in enumerate(bodies):
        source = typst_file_writing.TYPST_TEMPLATE.format(
            text_size=typst_file_writing.TYPST_COMPILATION_FONT_SIZE, preamble=typeset.TYPST_PREAMBLE, body=body)
        typ = tmp_path / f"{i}.typ"
        typ.write_text(source, encoding="utf-8")
        assert typst.compile(str(typ), format="svg", font_paths=shared) == typst.compile(str(typ), format="svg"), body
    assert typeset._fonts(()) is shared, "found once"
