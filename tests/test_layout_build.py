"""The builds the tests check are the builds a render makes (issue #23: build once, check many).

The layout and number tests read scenes built by :class:`scenes.inspect.LayoutRenderer`,
which plays every animation straight to its end instead of letting Manim begin and
interpolate it. Here every scene of the default lesson is built both ways (the largest
lesson at the bounds was compared too when this was written, at three times the cost): at the end of every section the
same texts are on screen, with
the same boxes and colours, the clock and the narration are the same. Frames (previews,
storyboards, the pixel tests) are still drawn from Manim's own way (``exact``), since
Manim's transforms leave aligned copies of glyphs that the end state does not have.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from conftest import built_scene

from scenes.inspect import build, visible_texts
from scenes.lecture import LECTURE

#: Boxes agree to rounding (a sum of the same terms in another order).
TOLERANCE = 1e-9


def texts(cp: Any) -> list[tuple[Any, ...]]:
    return [(type(s.mob).__name__, s.mob.text, np.array([s.left, s.right, s.bottom, s.top]),
             np.asarray(s.mob.get_fill_rgbas()).ravel()) for s in visible_texts(cp)]


def differences(exact: Any, layout: Any) -> list[str]:
    out = []
    if exact.renderer.time != layout.renderer.time:
        out.append(f"the clock: {exact.renderer.time} s vs {layout.renderer.time} s")
    if [(n.section, n.text, n.start) for n in exact.narrations] != [
        (n.section, n.text, n.start) for n in layout.narrations
    ]:
        out.append("the narration")
    if exact.bottom_captions != layout.bottom_captions:
        out.append("the captions")
    for ce, cl in zip(exact.checkpoints, layout.checkpoints, strict=True):
        a, b = texts(ce), texts(cl)
        if [x[:2] for x in a] != [x[:2] for x in b]:
            out.append(f"{ce.section}: other texts {[x[1] for x in a]} vs {[x[1] for x in b]}")
            continue
        for x, y in zip(a, b, strict=True):
            if not (np.allclose(x[2], y[2], rtol=0, atol=TOLERANCE) and x[3].shape == y[3].shape
                    and np.allclose(x[3], y[3], rtol=0, atol=TOLERANCE)):
                out.append(f"{ce.section}: {x[1]!r} at {x[2]} in {x[3]} vs at {y[2]} in {y[3]}")
    return out


@pytest.mark.slow
@pytest.mark.parametrize("cls", LECTURE, ids=[c.__name__ for c in LECTURE])
def test_a_layout_build_shows_what_manims_own_build_shows(cls: type, monkeypatch: pytest.MonkeyPatch) -> None:
    from attnstage.settings import env_name

    layout = built_scene(cls)
    monkeypatch.delenv(env_name("lesson"), raising=False)
    exact = build(cls, exact=True)
    assert differences(exact, layout) == []


def test_the_comparison_sees_a_moved_text() -> None:
    """Guard: one text moved by a thousandth of a unit is a difference."""
    scene = built_scene(LECTURE[0])
    import copy

    moved = copy.deepcopy(scene.checkpoints)
    for m in moved[-1].mobjects[0].get_family():
        if hasattr(m, "text"):
            m.shift([1e-3, 0, 0])
            break

    class Other:
        renderer, narrations, bottom_captions, checkpoints = (
            scene.renderer,
            scene.narrations,
            scene.bottom_captions,
            moved,
        )

    assert differences(scene, Other()) != []


def test_the_builds_config_comes_back_as_tempconfig_leaves_it() -> None:
    """scenes.inspect.temporary_config (Manim's tempconfig without re-setting an unchanged
    renderer) leaves every config value as it found it, a changed renderer too."""
    from manim import config

    from scenes.inspect import temporary_config

    before = dict(config._d)
    with temporary_config({"quality": "high_quality", "media_dir": "/tmp/elsewhere", "disable_caching": True}):
        assert config.pixel_height == 1080 and config.media_dir == "/tmp/elsewhere"
    assert dict(config._d) == before
    with temporary_config({"renderer": "opengl"}):
        assert config.renderer.value == "opengl"
    assert dict(config._d) == before and config.renderer.value == "cairo"
