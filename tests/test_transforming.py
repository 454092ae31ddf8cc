"""A transform's frame computed for all submobjects at once (scenes.components.transforming) and the
camera's one-pass family listing (scenes.components.family.family_members) give Manim's own values:
every attribute of every submobject at every alpha, bit for bit, for the kinds of transform the
scenes and a lecturer play (fades with a shift and a scale, a lag, ``Indicate``, a replacement
that adds points, colours with a sheen and a gradient), and the same frames for a whole scene;
what the fast path cannot take (an arc, a non-VMobject, an updater) is Manim's own code."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from manim import (
    BLUE,
    RED,
    Circle,
    Dot,
    FadeIn,
    FadeOut,
    Indicate,
    Mobject,
    ReplacementTransform,
    Square,
    Transform,
    VGroup,
    VMobject,
)
from manim.utils.iterables import remove_list_redundancies

from scenes.components import LightText, family, transforming

ATTRS = ("points", "fill_rgbas", "stroke_rgbas", "background_stroke_rgbas", "stroke_width",
         "background_stroke_width", "sheen_direction", "sheen_factor")


def state(mob: Mobject) -> list[tuple[str, str, bytes]]:
    """Every interpolated attribute of every member: its type and its exact bytes."""
    out = []
    for m in mob.get_family():
        for a in ATTRS:
            v = getattr(m, a, None)
            out.append((a, type(v).__name__ if not isinstance(v, float) else "float", np.asarray(v).tobytes()))
    return out


def group() -> VGroup:
    words = VGroup(*(LightText(w, font_size=30) for w in ("Maus", "Katze", "עכבר"))).arrange()
    shapes = VGroup(Square().set_fill(RED, 0.5).set_sheen(0.3), Circle(stroke_width=7).set_color([RED, BLUE]),
                    Dot().set_stroke(width=2, background=True)).arrange().next_to(words, 2 * np.array([0, -1, 0]))
    return VGroup(words, shapes)


ANIMATIONS: dict[str, Callable[[VGroup], Any]] = {
    "fade in shifted and scaled": lambda g: FadeIn(g, shift=np.array([1.0, 0.5, 0]), scale=0.7),
    "fade out": lambda g: FadeOut(g),
    "fade in with a lag": lambda g: FadeIn(g, lag_ratio=0.35),
    "indicate": lambda g: Indicate(g[0][1]),
    "to another group": lambda g: Transform(g, group().scale(0.5).set_color(BLUE).shift(np.array([0, 1.0, 0]))),
    "replacement adding points": lambda g: ReplacementTransform(g[1], VGroup(*(LightText("x" * k) for k in (1, 4)))),
    ".animate": lambda g: g.animate.shift(np.array([0.3, 0, 0])).set_opacity(0.4).build(),
    "along an arc": lambda g: Transform(g[0], g[0].copy().shift(np.array([2.0, 0, 0])), path_arc=1.0),
}


def frames(make: Callable[[VGroup], Any], alphas: tuple[float, ...]) -> list[list[tuple[str, str, bytes]]]:
    g = group()
    anim = make(g)
    anim.begin()
    out = []
    for a in alphas:
        anim.interpolate(a)
        out.append(state(anim.mobject))
    anim.finish()
    out.append(state(anim.mobject))
    return out


def test_installed() -> None:
    assert Transform.interpolate_mobject is transforming.interpolate_mobject
    assert transforming.MANIMS_INTERPOLATE_MOBJECT is not transforming.interpolate_mobject
    import manim.camera.camera
    import manim.scene.scene

    assert manim.camera.camera.extract_mobject_family_members is family.family_members
    assert manim.scene.scene.extract_mobject_family_members is family.family_members


@pytest.mark.parametrize("name", list(ANIMATIONS))
def test_every_value_at_every_alpha_is_manims(name: str) -> None:
    alphas = (0.0, 0.13, 0.5, 0.77, 0.999, 1.0)
    ours = frames(ANIMATIONS[name], alphas)
    with pytest.MonkeyPatch.context() as manims_own:
        manims_own.setattr(Transform, "interpolate_mobject", transforming.MANIMS_INTERPOLATE_MOBJECT)
        theirs = frames(ANIMATIONS[name], alphas)
    assert len(ours) == len(theirs) and len(ours[0]) > 20
    for i, (o, t) in enumerate(zip(ours, theirs, strict=True)):
        assert o == t, f"{name}: frame {i}: " + next(f"{x[0]} {x[1]} vs {y[1]}" for x, y in zip(o, t) if x != y)


def test_the_fast_path_is_taken_and_left_where_it_must() -> None:
    g = group()
    anim = FadeIn(VGroup(g[0], g[1][1:]), lag_ratio=0.2)
    anim.begin()
    assert getattr(anim, transforming.PLAN).stacks is not None, "a fade of VMobjects is stacked"
    sheen = FadeIn(g[1][0])  # a sheen: two colour rows at the start, one in the copy faded to it
    sheen.begin()
    assert getattr(sheen, transforming.PLAN).stacks is None, "arrays that differ in shape are Manim's"
    arc = Transform(g[0], g[0].copy().shift(np.array([1.0, 0, 0])), path_arc=1.0)
    arc.begin()
    assert getattr(arc, transforming.PLAN).stacks is None, "an arc is Manim's path"
    mixed = Transform(Mobject().add(Square()), Mobject().add(Circle()))  # a group that is not a VMobject
    mixed.begin()
    plan = getattr(mixed, transforming.PLAN)
    assert plan.stacks is None or all(isinstance(m, VMobject) for m in plan.stacks.subs)


def test_an_updater_anywhere_gives_manims_own_code() -> None:
    code = ("from scenes.components import transforming, updating\n"
            "from manim import Square, Circle, Transform\n"
            "s = Square(); s.add_updater(lambda m, dt: None)\n"
            "t = Transform(Circle(), Square()); t.begin(); t.interpolate(0.5)\n"
            "print(hasattr(t, transforming.PLAN), updating.any_updater())\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.stdout.split() == ["False", "True"], r.stderr[-2000:]


def test_family_members_lists_what_manim_lists() -> None:
    a, b, c = Square(), Circle(), Square()
    empty = VGroup()
    shared = VGroup(a, b)
    c.z_index = -1
    b.z_index = 2
    tops = [VGroup(shared, empty), VGroup(c, shared), b, Dot()]
    for points in (False, True):
        for z in (False, True):
            ours = family.family_members(iter(tops), use_z_index=z, only_those_with_points=points)
            theirs = family.MANIMS_EXTRACT(tops, use_z_index=z, only_those_with_points=points)
            assert ours == theirs, (points, z)
    assert remove_list_redundancies([1, 2, 1]) == [2, 1], "Manim keeps the last of a repeat"


FRAMES = r"""
import hashlib, json, os, sys, tempfile
os.environ["ATTNVID_LESSON"] = ""
from manim import Transform, tempconfig
from manim.renderer.cairo_renderer import CairoRenderer
from attnvid.catalog import resolve_scene
from scenes.components import family, transforming

scene_name, which = sys.argv[1], sys.argv[2]
if which == "manim":
    Transform.interpolate_mobject = transforming.MANIMS_INTERPOLATE_MOBJECT
    for module in family.CALLERS:
        module.extract_mobject_family_members = family.MANIMS_EXTRACT
stacked = [0]
frame = transforming._Stacks.frame
def counting(self, alpha):
    stacked[0] += 1
    return frame(self, alpha)
transforming._Stacks.frame = counting
frames = []
class Recording(CairoRenderer):
    def add_frame(self, f, num_frames=1):
        if not self.skip_animations:
            frames.append((hashlib.sha1(f.tobytes()).hexdigest(), num_frames))
        super().add_frame(f, num_frames)
with tempfile.TemporaryDirectory() as d, tempconfig({"quality": "low_quality", "media_dir": d, "dry_run": True,
                                                     "disable_caching": True, "verbosity": "WARNING",
                                                     "progress_bar": "none"}):
    resolve_scene(scene_name)(renderer=Recording()).render()
print(json.dumps({"frames": frames, "stacked": stacked[0]}))
"""


@pytest.mark.slow
def test_a_scene_draws_the_same_frames_as_with_manims_own_code() -> None:
    """Scaling (fades, numbers transformed in a table, cells highlighted): every frame handed to the encoder."""
    runs = {}
    for which in ("ours", "manim"):
        r = subprocess.run([sys.executable, "-c", FRAMES, "Scaling", which], capture_output=True, text=True,
                           timeout=600)
        assert r.returncode == 0, r.stderr[-3000:]
        runs[which] = json.loads(r.stdout.strip().splitlines()[-1])
    assert len(runs["manim"]["frames"]) > 100
    assert runs["ours"]["frames"] == runs["manim"]["frames"]
    assert runs["ours"]["stacked"] > 1000 and runs["manim"]["stacked"] == 0
