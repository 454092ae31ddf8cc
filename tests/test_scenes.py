"""Scene construction without a full render: numbers, layout, structure, pacing.

Numbers are collected from the mobjects on screen at the end of every section (the
``Num`` texts themselves, not the code that made them) and compared with the trace.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from conftest import ROOT, built_scene

from scenes.components import Num, ShapeLabel
from scenes.inspect import (
    expected_text,
    leaving_frame,
    overlapping_texts,
    resolve,
    unreadable_numbers,
    visible_texts,
)
from scenes.lecture import LECTURE, PARTS, scene_file

SCENES = [pytest.param(c, id=c.__name__) for c in LECTURE]
# Texts allowed to contain digits besides Num and ShapeLabel: the one-line provenance of
# the weights, which states the seed (it comes from attncore's Weights.provenance), the
# scene title "N · Name" (the step's place in the lecture, not a value) and a published
# formula whose digits are constants of its definition (the 10000 of the positional encoding).
DIGIT_CLASSES = ("Provenance", "StepTitle", "Definition")


@pytest.mark.parametrize("cls", SCENES)
def test_sections_are_the_declared_ones(cls: type) -> None:
    scene = built_scene(cls)
    assert [cp.section for cp in scene.checkpoints] == cls.section_names()
    assert len(cls.section_names()) >= 1


@pytest.mark.parametrize("cls", SCENES)
def test_numbers_on_screen_equal_the_trace(cls: type) -> None:
    scene = built_scene(cls)
    checked = 0
    for cp in scene.checkpoints:
        for shown in visible_texts(cp):
            m = shown.mob
            if isinstance(m, Num) and not m.constant:
                assert m.text == expected_text(scene.trace, m), f"{cp.section}: {m.text} vs {m.source}"
                checked += 1
            elif isinstance(m, Num):
                assert m.value in (0.0, 1.0), f"constant {m.text} is not a legend end"
            if isinstance(m, ShapeLabel):
                whole, _ = resolve(scene.trace, m.source)
                assert m.shape == whole.shape, f"{cp.section}: shape {m.text} vs {whole.shape}"
    # The title card shows the lesson's words only; every step shows numbers of the trace.
    assert checked > 0 or cls.__name__ == "TitleCard", "the scene shows no number from the trace"


@pytest.mark.parametrize("cls", SCENES)
def test_every_digit_on_screen_comes_from_attncore(cls: type) -> None:
    scene = built_scene(cls)
    for cp in scene.checkpoints:
        for shown in visible_texts(cp):
            m = shown.mob
            if re.search(r"[0-9]", m.text) and not isinstance(m, (Num, ShapeLabel)):
                assert type(m).__name__ in DIGIT_CLASSES, f"{cp.section}: typed-in number in {m.text!r}"


@pytest.mark.parametrize("cls", SCENES)
def test_nothing_leaves_the_frame(cls: type) -> None:
    scene = built_scene(cls)
    for cp in scene.checkpoints:
        assert not leaving_frame(cp), f"{cp.section}: {leaving_frame(cp)} leave the frame"


@pytest.mark.parametrize("cls", SCENES)
def test_no_two_texts_overlap(cls: type) -> None:
    scene = built_scene(cls)
    for cp in scene.checkpoints:
        assert not overlapping_texts(cp), f"{cp.section}: these texts overlap: {overlapping_texts(cp)}"


@pytest.mark.parametrize("cls", SCENES)
def test_text_is_readable_at_480p(cls: type) -> None:
    """No number smaller than 10 px at 480p (0.17 scene units for a round digit)."""
    scene = built_scene(cls)
    for cp in scene.checkpoints:
        assert not unreadable_numbers(cp), f"{cp.section}: too small: {unreadable_numbers(cp)}"


def test_every_part_of_the_lecture_lasts_at_most_six_minutes() -> None:
    assert [c for _, part in PARTS for c in part] == list(LECTURE), "the parts are the lecture, in order"
    for title, part in PARTS:
        total = sum(built_scene(c).renderer.time for c in part)
        assert 60 <= total <= 360, f"part {title!r} lasts {total:.0f} s"


def test_lecture_has_every_step_as_a_section() -> None:
    sections = [s for c in LECTURE for s in c.section_names()]
    assert len(LECTURE) >= 11 and len(sections) >= 11
    assert len(set(sections)) == len(sections), "section titles must be distinct"


def _calls(tree: ast.AST) -> list[str]:
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            names.append(f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", ""))
    return names


@pytest.mark.parametrize("cls", SCENES)
def test_scene_file_computes_nothing_and_types_no_colour(cls: type) -> None:
    path = ROOT / scene_file(cls)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert not any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.MatMult) for n in ast.walk(tree)), "uses @"
    forbidden = {"exp", "softmax", "dot", "matmul", "einsum", "sqrt", "log"}
    assert not forbidden & set(_calls(tree)), f"computes {forbidden & set(_calls(tree))}"
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            assert not re.fullmatch(r"#[0-9A-Fa-f]{6}", node.value), f"colour literal {node.value}"
        if isinstance(node, ast.ImportFrom) and node.module == "manim":
            colours = {
                a.name
                for a in node.names
                if re.fullmatch(
                    r"(RED|BLUE|GREEN|YELLOW|WHITE|BLACK|GRAY|GREY|ORANGE|PURPLE|PINK|TEAL|GOLD|MAROON)(_[A-E])?",
                    a.name,
                )
            }
            assert not colours, f"imports colour constants {colours}"
    assert ast.get_docstring(tree), "scene file needs a docstring"


def test_attncore_is_the_only_source_of_numbers_in_scene_files() -> None:
    for path in sorted(Path(ROOT / "scenes" / "steps").glob("[a-z]*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("Num", "NumberGrid", "VectorBars"):
                kws = {k.arg for k in node.keywords}
                assert "constant" not in kws or path.name == "components.py", f"{path.name}: constant Num in a scene"


def test_scene_files_do_not_import_each_other() -> None:
    """A scene depends on its own file and the shared modules only: the render cache key
    (attnvid/render/cache.py) relies on it to re-render exactly the scenes a change affects."""
    for path in sorted(Path(ROOT / "scenes" / "steps").glob("[a-z]*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("scenes.steps."):
                other = node.module.removeprefix("scenes.steps.")  # only its own parts: softmax_layout for softmax
                assert other.startswith(path.stem + "_"), f"{path.name} imports {node.module}"


@pytest.mark.parametrize("lesson", ["", "bank"])
def test_the_title_card_shows_the_title_and_every_sentence(lesson: str) -> None:
    # issue 12, point 6: the lecture opens on the lesson's title and its contexts (the page's first poster)
    from attncore import find_lesson, trace_lesson

    assert LECTURE[0].__name__ == "TitleCard" and PARTS[0][1][0] is LECTURE[0]
    scene = built_scene(LECTURE[0], lesson)
    trace = trace_lesson(find_lesson(lesson or None))
    shown = [s.mob.text.replace(" ", "") for s in visible_texts(scene.checkpoints[-1])]
    title = "".join(shown)
    assert trace.lesson.title.replace(" ", "") in title, shown
    for c in trace.contexts:
        assert c.context.name in shown
        words = [w for w in shown if w in c.tokens]
        assert set(c.tokens) <= set(words), (c.tokens, shown)
    assert trace.lesson.title in scene.narrations[0].text
