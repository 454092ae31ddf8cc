"""attnvid.render.camera: reusing an unchanged mobject's Cairo path draws the very same pixels.

Each scene is drawn twice in a fresh process at low quality, once with Manim's own
camera and once with :class:`attnvid.render.camera.PathCachingCamera` (the one every render
uses), and every frame handed to the encoder is compared by its hash. The scenes chosen
move text (captions that rise and fade), transform numbers and highlight cells, so that
paths are reused, rebuilt after a move, and rebuilt after the tiny point changes of a
fade.

The outlines that must be traced anew are traced in C (``attnvid/render/_trace.c``): the Cairo
path it builds is compared, element for element, with the one Manim's own camera builds, for
the lecture's glyphs, formulas and shapes and for random points (subpaths that meet within and
beyond the tolerance, unfinished curves, non-finite points).
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

DRAW = r"""
import hashlib, json, os, sys, tempfile
os.environ["ATTNVID_LESSON"] = ""
from manim import tempconfig
from manim.renderer.cairo_renderer import CairoRenderer
from attnvid.render.camera import PathCachingCamera
from attnvid.catalog import resolve_scene

scene_name, which = sys.argv[1], sys.argv[2]
frames = []
reused = [0]


class Recording(CairoRenderer):
    def add_frame(self, frame, num_frames=1):
        if not self.skip_animations:
            frames.append((hashlib.sha1(frame.tobytes()).hexdigest(), num_frames))
        super().add_frame(frame, num_frames)


class Counting(PathCachingCamera):
    def set_cairo_context_path(self, ctx, vmobject):
        hit = self._paths.get(id(vmobject))
        if hit is not None and hit[1] == vmobject.points.tobytes():
            reused[0] += 1
        return super().set_cairo_context_path(ctx, vmobject)


with tempfile.TemporaryDirectory() as d, tempconfig({"quality": "low_quality", "media_dir": d, "dry_run": True,
                                                     "disable_caching": True, "verbosity": "WARNING",
                                                     "progress_bar": "none"}):
    camera = Counting if which == "cached" else None
    resolve_scene(scene_name)(renderer=Recording(camera_class=camera)).render()
print(json.dumps({"frames": frames, "reused": reused[0]}))
"""


def draw(scene: str, which: str) -> dict[str, object]:
    r = subprocess.run([sys.executable, "-c", DRAW, scene, which], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


@pytest.mark.slow
@pytest.mark.parametrize("scene", ["TwoContexts", "Scaling"])
def test_reused_paths_draw_the_same_frames_as_manims_camera(scene: str) -> None:
    plain, cached = draw(scene, "plain"), draw(scene, "cached")
    assert len(plain["frames"]) > 100  # type: ignore[arg-type]
    assert cached["frames"] == plain["frames"]
    assert cached["reused"] > 1000, "the cache was used"  # type: ignore[operator]


# --- the outline traced in C (attnvid/render/_trace.c) against Manim's own tracing --------------

FRAME = (854, 480)


def _context() -> Any:
    """A Cairo context with the matrix Manim's camera sets at 480p (user units: Manim's)."""
    import cairo

    ctx = cairo.Context(cairo.ImageSurface(cairo.FORMAT_ARGB32, *FRAME))
    ctx.scale(FRAME[0] / 14.222222222222221, -FRAME[1] / 8.0)
    ctx.translate(7.111111111111111, -4.0)
    return ctx


def _three_ways(vmobject: Any) -> tuple[list[Any], list[Any], list[Any]]:
    """The Cairo path of ``vmobject`` built by Manim's camera, by trace_path (Python) and in C."""
    from manim.camera.camera import Camera

    from attnvid.render.camera import RTOL, _trace_in_c, trace_path

    assert _trace_in_c is not None
    ctx = _context()
    Camera().set_cairo_context_path(ctx, vmobject)
    manims = list(ctx.copy_path())
    trace_path(ctx, vmobject, vmobject.points)
    python = list(ctx.copy_path())
    _trace_in_c(ctx, vmobject.points.tobytes(), vmobject.n_points_per_cubic_curve,
                vmobject.tolerance_for_point_equality, RTOL)
    return manims, python, list(ctx.copy_path())


def test_outlines_are_traced_in_c_here() -> None:
    from attnvid.render.camera import TRACED_IN_C

    assert TRACED_IN_C, "attnvid.render._trace was not built: reinstall (bash .ci/setup) with gcc and libcairo2-dev"


def test_the_lectures_shapes_trace_to_manims_paths_in_c() -> None:
    from manim import Arc, Arrow, Circle, DashedLine, Dot, Rectangle, RoundedRectangle, VGroup

    from scenes.components import Formula, Theme
    from scenes.components.text import LightText

    theme = Theme(style="dark")
    shapes = VGroup(LightText("Maus sieht „Katze“ · עכבר 0,70"), Formula('A = "softmax"(Q K^T / sqrt(d))', theme),
                    Circle(), Arc(angle=1.0), Arrow(), DashedLine(), Dot(), RoundedRectangle(), Rectangle())
    members = shapes.family_members_with_points()
    assert len(members) > 40
    for m in members:
        manims, python, in_c = _three_ways(m)
        assert manims and in_c == manims and python == manims


@settings(max_examples=300, deadline=None)
@given(curves=st.lists(st.tuples(st.lists(st.floats(-8, 8), min_size=8, max_size=8),
                                 st.sampled_from([0.0, 1e-9, 1e-6, 1e-5, 1e-3, 1.0])), min_size=1, max_size=8),
       extra=st.integers(0, 3), tolerance=st.sampled_from([1e-6, 1e-8, 0.0]), spoil=st.sampled_from(["", "nan", "inf"]))
def test_any_points_trace_to_manims_path_in_c(curves: list[tuple[list[float], float]], extra: int, tolerance: float,
                                               spoil: str) -> None:
    """Curves whose ends meet the next start exactly, within and beyond the tolerance; a few
    points too many (an unfinished curve); a non-finite point (Manim draws nothing)."""
    from manim import VMobject

    rows = []
    for k, (xy, gap) in enumerate(curves):
        start = rows[-1] + np.array([gap, -gap, 0.0]) if k and rows else np.array([xy[0], xy[1], 0.0])
        rows += [start] + [np.array([xy[i], xy[i + 1], 0.0]) for i in range(2, 8, 2)]
    rows += [np.array([0.5 * j, 0.25, 0.0]) for j in range(extra)]
    points = np.array(rows, dtype=float)
    if spoil:
        points[len(points) // 2, 1] = float(spoil)
    v = VMobject()
    v.points = points
    v.tolerance_for_point_equality = tolerance
    manims, python, in_c = _three_ways(v)
    assert in_c == manims and python == manims


def test_only_manims_own_kind_of_points_goes_to_c(monkeypatch: pytest.MonkeyPatch) -> None:
    """float32 points and a subclass with its own closing test are traced in Python."""
    from manim import Square, VMobject

    from attnvid.render import camera

    calls: list[str] = []
    monkeypatch.setattr(camera, "trace_path", lambda ctx, v, p: calls.append("python"))
    monkeypatch.setattr(camera, "_trace_in_c", lambda *a: calls.append("c"))

    class OwnClosing(VMobject):
        def consider_points_equals_2d(self, p0: Any, p1: Any) -> bool:
            return False

    square, own, single = Square(), OwnClosing(), Square()
    own.points = square.points.copy()
    single.points = square.points.astype(np.float32)
    for v in (square, own, single):
        camera.trace(_context(), v, v.points, v.points.tobytes())
    assert calls == ["c", "python", "python"]


def test_c_refuses_points_not_in_threes() -> None:
    from attnvid.render.camera import RTOL, _trace_in_c

    assert _trace_in_c is not None
    with pytest.raises(ValueError, match="n x 3"):
        _trace_in_c(_context(), np.zeros(4).tobytes(), 4, 1e-6, RTOL)


# --- display_vectorized in one function against Manim's ------------------------------------------


def test_one_function_drawing_paints_manims_pixels() -> None:
    """Fills, strokes, background strokes, gradients, caps and joints, a width given as text, a
    mobject without colours, and a class that changes its own fill: the same pixels as Manim's camera."""
    from manim import BLUE, RED, YELLOW, Circle, Line, Polygon, Square, Text, VGroup, VMobject
    from manim.camera.camera import Camera
    from manim.constants import CapStyleType, LineJointType

    from attnvid.render.camera import PathCachingCamera

    class OwnFill(Square):  # drawn Manim's way: it changes a method the one function reads through
        def get_fill_rgbas(self) -> Any:
            return np.array([[0.2, 0.9, 0.1, 0.7]])

    bare = VMobject()
    bare.set_points_as_corners([[-6, -3, 0], [-5, -2, 0], [-6, -2, 0]])
    del bare.fill_rgbas  # Manim's getters give zeros for a colour never set
    text_width = Line([-6, 3, 0], [6, 3, 0], stroke_width=8, color=YELLOW)
    text_width.stroke_width = "6"  # type: ignore[assignment]
    group = VGroup(
        Square(2, fill_color=BLUE, fill_opacity=0.6, stroke_width=5).shift(3 * np.array([-1, 0, 0])),
        Circle(1.2).set_fill([RED, BLUE], opacity=0.8).set_stroke([YELLOW, RED], width=7),
        Polygon([0, 0, 0], [1, 2, 0], [2, 0, 0], joint_type=LineJointType.ROUND, stroke_width=12),
        Line([-3, -3, 0], [3, -2, 0], stroke_width=14, cap_style=CapStyleType.ROUND),
        Text("attention", font="DejaVu Sans").set_stroke(BLUE, width=6, background=True).shift(2 * np.array([0, 1, 0])),
        OwnFill(1).shift(np.array([4, -2, 0])),
        bare, text_width,
    )
    manims, ours = Camera(), PathCachingCamera()
    for camera in (manims, ours):
        camera.capture_mobjects([group])
    assert manims.pixel_array.any()
    assert np.array_equal(manims.pixel_array, ours.pixel_array)
    assert ours._plain[OwnFill] is False and ours._plain[Line] is True  # the check that decides it
