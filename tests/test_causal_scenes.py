"""The causal mask and word order scenes (issue #15): built without rendering for the built-in
lessons, lessons at the bounds and a lesson whose sense words come after the focus word;
every number and every "−∞" on screen is the trace's, nothing leaves the frame, overlaps or
is too small; the shuffled output shown equals the original. (Their real renders are the
lecture's: tests/test_lecture.py checks every scene's video against its build.)
"""

from __future__ import annotations

from typing import cast

import numpy as np
import pytest
from conftest import built_scene
from test_lesson_scenes import CAUSAL_BOUNDS, bounds_toml, check_scene

from attncore import fmt
from attncore.display import fmt_masked
from scenes.base import LessonScene
from scenes.components import MaskedCell, Num, Source
from scenes.inspect import (
    resolve,
    visible_texts,
)
from scenes.steps.causal_mask import CausalMask
from scenes.steps.word_order import WordOrder

SCENES = (CausalMask, WordOrder)

#: The default vocabulary with the sense words after "mouse": the mask hides "cat" and "keyboard".
SENSE_AFTER = """
title = "Sense after the focus word"
dimensions = ["animal", "tech", "grammar", "other"]
decimals = 2
[vocabulary]
cat = [3, 0, 0, 0.5]
mouse = [2, 2, 0, 0.5]
keyboard = [0, 3, 0, 0.5]
and = [0, 0, 2, 0]
are = [0, 0, 2, 0.5]
friends = [0.5, 0, 0.5, 1]
useful = [0, 0.5, 0.5, 1]
[[contexts]]
name = "animal"
sentence = "mouse and cat are friends"
focus = "mouse"
leans = "animal"
[[contexts]]
name = "tech"
sentence = "mouse and keyboard are useful"
focus = "mouse"
leans = "tech"
[projections]
seed = 7
d_v = 3
[heads]
count = 2
"""

@pytest.fixture(scope="module")
def lessons(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Lesson specs by name: the built-in ones, the bounds, and the sense words after the focus word."""
    folder = tmp_path_factory.mktemp("causal_lessons")
    out = {"default": "", "bank": "bank", "souris": "souris"}
    # the corners of the supported sizes: test_lesson_scenes builds every other scene of
    # the same lessons and leaves these two to this file
    for name in CAUSAL_BOUNDS:
        path = folder / f"{name}.toml"
        path.write_text(bounds_toml(name), encoding="utf-8")
        out[name] = str(path)
    path = folder / "sense_after.toml"
    path.write_text(SENSE_AFTER, encoding="utf-8")
    out["sense-after"] = str(path)
    return out


LESSONS = ["default", "bank", "souris", *CAUSAL_BOUNDS, "sense-after"]
CASES = [pytest.param(cls, name, id=f"{cls.__name__}-{name}") for cls in SCENES for name in LESSONS]


def build(cls: type[LessonScene], spec: str = "") -> LessonScene:
    """``cls`` built (once per lesson) for the lesson ``spec``."""
    return cast(LessonScene, built_scene(cls, spec))


def shown_nums(scene: LessonScene, section: str) -> list[tuple[Num, Source]]:
    """The numbers from the trace on screen at the end of ``section``, with their sources."""
    cp = next(cp for cp in scene.checkpoints if cp.section == section)
    return [(s.mob, s.mob.source) for s in visible_texts(cp)
            if isinstance(s.mob, Num) and s.mob.source is not None]


@pytest.mark.parametrize(("cls", "name"), CASES)
def test_scene_builds_and_shows_the_trace_readably(lessons: dict[str, str], cls: type[LessonScene], name: str) -> None:
    scene = build(cls, lessons[name])
    assert [cp.section for cp in scene.checkpoints] == cls.section_names()
    assert check_scene(scene, name) > 0
    assert all(n.text for n in scene.narrations) and len(scene.narrations) == len(cls.SECTIONS)


@pytest.mark.parametrize("name", LESSONS)
def test_every_minus_infinity_stands_on_a_masked_score(lessons: dict[str, str], name: str) -> None:
    scene = build(CausalMask, lessons[name])
    ctx = scene.trace.contexts[0]
    for cp in scene.checkpoints:
        marks = [s.mob for s in visible_texts(cp) if isinstance(s.mob, MaskedCell)]
        for m in marks:
            _, value = resolve(scene.trace, m.source)
            assert np.isneginf(value) and m.text == fmt_masked(value, m.decimals) == "−∞", (cp.section, m.source)
        if cp.section == "Only the words before":
            # every score above the diagonal, and only those
            assert sorted(m.source.index for m in marks) == [(i, j) for i in range(ctx.n) for j in range(i + 1, ctx.n)]
            # and every score on or below it, unchanged
            seen = {src.index for _, src in shown_nums(scene, cp.section)}
            assert seen == {(i, j) for i in range(ctx.n) for j in range(i + 1)}


@pytest.mark.parametrize("name", LESSONS)
def test_the_shuffled_output_shown_equals_the_original(lessons: dict[str, str], name: str) -> None:
    scene = build(WordOrder, lessons[name])
    nums = shown_nums(scene, "The same output in any order")
    for c, ctx in enumerate(scene.trace.contexts):
        f = ctx.focus_index
        original = {src.index[-1]: m.text for m, src in nums if src.context == c and src.name == "output"}
        shuffled = {src.index[-1]: m.text for m, src in nums
                    if src.context == c and src.name == "positional.shuffled_focus_output"}
        assert sorted(original) == sorted(shuffled) == list(range(ctx.d)), (c, original, shuffled)
        assert original == shuffled, f"context {c}: {original} vs {shuffled}"
        assert all(src.index[0] == f for _, src in nums if src.context == c and src.name == "output")


def test_with_positions_the_outputs_differ_and_the_video_says_it_honestly(lessons: dict[str, str]) -> None:
    scene = build(WordOrder, lessons["default"])
    nums = shown_nums(scene, "Now the order counts")
    tech = scene.trace.contexts[1]
    shown = {(src.context, src.name, src.index[-1]): m.text for m, src in nums}
    assert any(shown[(1, "positional.output", k)] != shown[(1, "positional.shuffled_positional_focus_output", k)]
               for k in range(tech.d))
    last = scene.narrations[-1].text
    # "mouse" in the tech sentence leans animal once positions are added: said with the screen's numbers.
    f = tech.focus_index
    assert np.argmax(tech.positional.output[f]) == 0 and np.argmax(tech.output[f]) == 1
    assert "leans animal, 2.61 against 1.77 tech" in last
    assert "not a better meaning" in last and "hundreds" in last


def test_the_mask_cost_is_shown_when_the_sense_words_come_after(lessons: dict[str, str]) -> None:
    scene = build(CausalMask, lessons["sense-after"])
    for c, ctx in enumerate(scene.trace.contexts):
        cost = ctx.causal.mask_cost
        assert cost.hidden_positions == cost.sense_positions != ()
        nums = {src.name: m.text for m, src in shown_nums(scene, "What the mask costs") if src.context == c}
        assert nums["causal.mask_cost.unmasked"] != nums["causal.mask_cost.causal"] == fmt(0.0, scene.dec)
    said = scene.narrations[-1].text
    assert "“cat” comes after “mouse”: the mask hides it" in said
    assert "“keyboard” comes after “mouse”" in said
    # and in the built-in lesson, where "cat" and "keyboard" come first, "mouse" still finds them
    found = build(CausalMask, lessons["default"]).narrations[3].text
    assert "still finds “cat”" in found and "still finds “keyboard”" in found


@pytest.mark.parametrize("name", LESSONS)
def test_every_cell_the_narration_names_under_the_mask_is_marked(lessons: dict[str, str], name: str) -> None:
    """"“crane” still finds “fish”, 0.13": at the end of that section an outline stands on the
    cell of “fish” in the masked row, as on the sense words' cells (issue 24)."""
    from manim import SurroundingRectangle

    from attncore.claims import section_claims

    section = "Both contexts under the mask"
    scene = build(CausalMask, lessons[name])
    cp = next(cp for cp in scene.checkpoints if cp.section == section)
    outlines = [m for top in cp.mobjects for m in top.get_family() if isinstance(m, SurroundingRectangle)]
    nums = shown_nums(scene, section)
    named = 0
    for cl in section_claims(scene.trace, "CausalMask", section, "largest"):
        c, f = cl.args["context"], scene.trace.contexts[cl.args["context"]].focus_index
        cols = cl.args.get("words", {}).get("finds", {}).get("columns", [cl.args["column"]])
        for j in cols:
            cell = [
                m
                for m, src in nums
                if src.context == c and src.name == "causal.attention" and tuple(src.index) == (f, j)
            ]
            assert cell, f"{name}: the weight of column {j} in context {c} is not on screen"
            x, y = cell[0].get_center()[:2]
            assert any(
                o.get_left()[0] < x < o.get_right()[0]
                and o.get_bottom()[1] < y < o.get_top()[1]
                and o.width < 3 * cell[0].width + 1
                for o in outlines
            ), f"{name}: {cl.text!r} names a cell no outline marks"
            named += 1
    assert named or all(ctx.focus_index == 0 for ctx in scene.trace.contexts)
