"""The builds the tests check are the builds a render makes (issue #23: build once, check many).

The layout and number tests read scenes built by :class:`scenes.skipping.LayoutRenderer`,
which plays every animation straight to its end instead of letting Manim begin and
interpolate it. Here every scene of the default lesson is built both ways (the largest
lesson at the bounds was compared too when this was written, at three times the cost): at the end of every section the
same texts are on screen, with
the same boxes and colours, the clock and the narration are the same. Frames (previews,
storyboards, the pixel tests) are drawn by :class:`scenes.skipping.ExactRenderer`, which
leaves out only what cannot change an end state (Manim's transforms leave aligned copies of
glyphs that the layout build does not have): its frames are Manim's own, pixel for pixel,
for every section of every scene, and for a lesson of three contexts in Hebrew, in French
and the light style.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import built_scene

from scenes.inspect import DryRenderer, LayoutRenderer, build, visible_texts
from scenes.lecture import LECTURE

#: Boxes agree to rounding (a sum of the same terms in another order).
TOLERANCE = 1e-9
FOUND = Path(__file__).parent / "found_lessons"


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


def pixel_differences(a: Any, b: Any) -> list[tuple[str, int]]:
    """(section, pixels that differ) of every section whose last frames differ between two builds."""
    out = []
    for ca, cb in zip(a.checkpoints, b.checkpoints, strict=True):
        x, y = np.asarray(ca.image), np.asarray(cb.image)
        if x.shape != y.shape or (x != y).any():
            out.append((ca.section, int((x != y).any(axis=-1).sum()) if x.shape == y.shape else -1))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("cls", LECTURE, ids=[c.__name__ for c in LECTURE])
def test_a_layout_build_shows_what_manims_own_build_shows(cls: type, monkeypatch: pytest.MonkeyPatch) -> None:
    """The layout build's texts are Manim's own build's; the exact build's frames are its pixels."""
    from attnstage.settings import env_name

    layout = built_scene(cls)
    monkeypatch.delenv(env_name("lesson"), raising=False)
    manims = build(cls, frames=True, renderer=DryRenderer)
    assert differences(manims, layout) == []
    assert pixel_differences(manims, build(cls, frames=True, mobjects=False)) == []


@pytest.mark.slow
@pytest.mark.parametrize("cls", [c for c in LECTURE if c.__name__ in ("TwoContexts", "MultiHead", "CausalMask")],
                         ids=lambda c: c.__name__)
def test_the_exact_builds_frames_are_manims_for_a_lesson_unlike_ours(cls: type,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Three contexts, Hebrew words, the light style in French: the exact build's frames are
    still Manim's own, pixel for pixel."""
    from attnstage.settings import env_name

    monkeypatch.setenv(env_name("lesson"), str(FOUND / "hebrew_three_contexts.toml"))
    monkeypatch.setenv(env_name("style"), "light")
    monkeypatch.setenv(env_name("language"), "fr")
    manims = build(cls, frames=True, mobjects=False, renderer=DryRenderer)
    assert pixel_differences(manims, build(cls, frames=True, mobjects=False)) == []


def test_the_pixel_comparison_sees_the_layout_builds_aligned_glyphs() -> None:
    """Guard: the layout build's frames, whose transforms leave no aligned glyphs, differ from
    Manim's (95 pixels at two sections of MixingValues when this was written)."""
    (cls,) = [c for c in LECTURE if c.__name__ == "MixingValues"]
    manims = build(cls, frames=True, mobjects=False, renderer=DryRenderer)
    assert pixel_differences(manims, build(cls, frames=True, mobjects=False, renderer=LayoutRenderer)) != []


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
