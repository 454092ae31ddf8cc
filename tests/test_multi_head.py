"""The multi-head scene shows the numbers its narration states (issue 24): with three heads
over five words, the maps are tiles, and under each map stand the weights of the focus row
that the narration names, which add up to the share it says."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from conftest import built_scene
from test_lesson_scenes import check_scene

from attncore.claims import section_claims
from scenes.components import Num
from scenes.inspect import visible_texts
from scenes.steps.multi_head import MultiHead

#: Three contexts (one without leans), six dimensions, three heads, twelve words.
CRANE = """
title = "Cranes and cranes"
dimensions = ["bird", "building", "motion", "water", "size", "other"]
decimals = 2
[vocabulary]
crane = [2, 2, 1, 0, 1, 0.5]
the = [0, 0, 0, 0, 0, 1]
steel = [0, 3, 0, 0, 1, 0]
beams = [0, 3, 0, 0, 0.5, 0]
lifted = [0, 1, 2, 0, 0, 0]
feathers = [3, 0, 0, 0, 0, 0]
fish = [2, 0, 0, 1, 0, 0]
caught = [1, 0, 2, 1, 0, 0]
river = [0, 0, 0.5, 3, 1, 0]
near = [0, 0, 0, 0, 0, 1]
tall = [0, 1, 0, 0, 3, 0]
white = [3, 0, 0, 0, 0, 1]
[[contexts]]
name = "bird"
sentence = "the white crane caught fish"
focus = "crane"
leans = "bird"
[[contexts]]
name = "site"
sentence = "the crane lifted steel beams"
focus = "crane"
leans = "building"
[[contexts]]
name = "river"
sentence = "tall crane near the river"
focus = "crane"
[projections]
seed = 3
d_v = 4
[heads]
count = 3
"""

SECTION = "One attention per head, in parallel"


@pytest.fixture(scope="module")
def crane(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("crane") / "crane.toml"
    path.write_text(CRANE, encoding="utf-8")
    return str(path)


def test_each_head_shows_the_weights_its_sentence_adds_up(crane: str) -> None:
    scene = built_scene(MultiHead, crane)
    check_scene(scene, "crane")
    cp = next(cp for cp in scene.checkpoints if cp.section == SECTION)
    shown = {(m.source.name, tuple(m.source.index)): m for s in visible_texts(cp) if isinstance(m := s.mob, Num)
             and m.source is not None}
    claims = [c for c in section_claims(scene.trace, "MultiHead", SECTION) if c.kind == "share"]
    assert len(claims) == 3, "each of the three heads learned to find the bird words"
    f = scene.trace.contexts[0].focus_index
    for cl in claims:
        k = int(cl.args["stage"].split(":")[1])
        parts = [shown.get((f"multi_head.heads.{k}.attention", (f, j))) for j in cl.args["columns"][0]]
        assert all(parts), f"head {k}: a weight the narration adds up is not on screen"
        said = re.search(r"\((\d\.\d\d)\)", cl.text)
        assert said, cl.text
        total = sum((Decimal(p.digits) for p in parts if p is not None), Decimal(0))
        assert total == Decimal(said[1]), f"head {k}: {total} shown, {said[1]} said"


def test_the_default_lessons_heads_show_what_the_narration_names() -> None:
    """The default lesson's two heads: every weight of every head in its map when the numbers
    fit, else the focus row's weights the narration names under each map (and nothing else)."""
    scene = built_scene(MultiHead)
    cp = next(cp for cp in scene.checkpoints if cp.section == SECTION)
    heads = [m.source for s in visible_texts(cp) if isinstance(m := s.mob, Num) and m.source is not None
             and m.source.name.startswith("multi_head.heads.")]
    ctx = scene.trace.contexts[0]
    h, f = len(ctx.multi_head.heads), ctx.focus_index
    if {src.index[0] for src in heads} != {f}:  # numbers in the maps: all of them, once
        assert len(heads) == len(set(heads)) == h * ctx.n * ctx.n
    else:  # tiles: under each map, the focus row's weights the narration names, once
        assert len(heads) == len(set(heads)) and {int(src.name.split(".")[2]) for src in heads} == set(range(h))
