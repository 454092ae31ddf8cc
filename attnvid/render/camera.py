"""How a render process draws: Manim's Cairo camera, tracing each unchanged outline once.

Manim's :meth:`~manim.camera.camera.Camera.set_cairo_context_path` turns a VMobject's
Bézier points into a Cairo path in Python: it finds the subpaths with numpy, then calls
``curve_to`` once per curve. A frame redraws every mobject from the first moving one
on in drawing order, most of them unchanged (a table's digits while a caption fades),
and at 1080p60 that Python loop took about two thirds of the drawing time (Softmax:
18 of 27 s). :class:`PathCachingCamera` keeps, per mobject, the path Cairo built and
the points and transformation it was built from; when both are unchanged it hands Cairo
that path again (``append_path``, in C) instead of tracing it.

The frames are the same: Cairo stores a path in device space as 24.8 fixed-point
numbers; ``copy_path`` maps them back to user space with the inverse of the current
matrix and ``append_path`` maps them forward with the same matrix, and each coordinate
comes back within far less than half a step of the grid point it started on, so it
rounds to the very same fixed-point path (a test compares the pixels of every frame of a
scene drawn both ways).

An outline that did change (a moving or fading mobject's) is traced by :func:`trace`: in C
(``attnvid/render/_trace.c``, built when the package is installed), the very Cairo calls with
the very numbers of Manim's loop, about 20 times faster than :func:`trace_path`, its one-pass
Python version, which remains for what C does not take (a subclass with its own closing test,
points that are not float64) and for a source tree that was never installed. At 480p the
tracing in Python was a ninth of the lecture's CPU.

Each mobject is then painted by one function, :meth:`PathCachingCamera.display_vectorized`: the
Cairo calls of Manim's four (path, background stroke, fill, stroke), with the same numbers, and
the group a class is drawn with looked up once per class (Manim's ``type_or_raise`` rebuilt a dict
for each of the ~120 mobjects of a frame): a frame of Softmax at 480p, 7.3 -> 5.7 ms.

Why our own subclass rather than Manim's: Manim has no path cache (its static-image
shortcut only skips mobjects *before* the first moving one), and the check it needs is
cheap only with the points' bytes at hand, which is what this one keeps.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cairo
import numpy as np
from manim.camera.camera import CAP_STYLE_MAP, LINE_JOIN_MAP, Camera
from manim.mobject.types.vectorized_mobject import VMobject

#: Paths kept at most (one per mobject drawn recently); past it the cache starts afresh.
#: A lecture scene draws a few thousand distinct mobjects; a path is a few kB.
MAX_PATHS = 20_000
#: numpy.isclose's relative tolerance, which Manim's subpath split and closing test use.
RTOL = 1.0e-5


def trace_path(ctx: cairo.Context[Any], vmobject: Any, points: Any) -> None:
    """Manim's :meth:`~manim.camera.camera.Camera.set_cairo_context_path` for ``points`` (the
    vmobject's, not empty), in one pass over plain Python floats.

    Manim finds the subpaths with a dozen numpy operations on a few points (most of the time of
    a redrawn glyph) and then reads each curve's coordinates as numpy scalars. Here the points
    become a list of floats once, and one loop both finds where a subpath ends (an anchor not
    close to the next curve's start, by the very comparison Manim vectorises:
    ``|a - b| <= atol + rtol·|b|`` on x and y) and hands Cairo its curves: the same calls with
    the same numbers, so the same path (``tests/test_camera.py`` compares the frames).
    """
    if not np.isfinite(points).all():  # Manim's transform_points_pre_display: nothing to draw
        points = np.zeros((1, 3))
    ctx.new_path()
    nppcc = vmobject.n_points_per_cubic_curve
    n = len(points)
    if n < nppcc:
        return
    xy = points[:, :2].ravel().tolist()
    atol = vmobject.tolerance_for_point_equality
    move_to, curve_to, new_sub_path, close_path = ctx.move_to, ctx.curve_to, ctx.new_sub_path, ctx.close_path
    close = vmobject.consider_points_equals_2d

    def subpath(start: int, end: int) -> None:
        if end - start < nppcc:
            return
        new_sub_path()
        move_to(xy[2 * start], xy[2 * start + 1])
        for i in range(start, end - nppcc + 1, nppcc):
            b = 2 * i + 2
            curve_to(xy[b], xy[b + 1], xy[b + 2], xy[b + 3], xy[b + 4], xy[b + 5])
        if close((xy[2 * start], xy[2 * start + 1]), (xy[2 * end - 2], xy[2 * end - 1])):
            close_path()

    start = 0
    for b in range(nppcc, n, nppcc):
        ex, ey, sx, sy = xy[2 * b - 2], xy[2 * b - 1], xy[2 * b], xy[2 * b + 1]
        if abs(ex - sx) <= atol + RTOL * abs(sx) and abs(ey - sy) <= atol + RTOL * abs(sy):
            continue
        subpath(start, b)
        start = b
    subpath(start, n)


_trace_in_c: Callable[[Any, bytes, int, float, float], None] | None
try:  # Manim's outline traced in C (attnvid/render/_trace.c, built by pip install); trace_path otherwise
    from ._trace import trace as _trace_in_c
except ImportError:  # pragma: no cover - run from a source tree never installed: the same paths, in Python
    _trace_in_c = None
#: Whether outlines are traced in C (``tests/test_camera.py`` requires it where the suite runs).
TRACED_IN_C = _trace_in_c is not None
_FLOAT64 = np.dtype(np.float64)


def trace(ctx: cairo.Context[Any], vmobject: Any, points: Any, data: bytes) -> None:
    """:func:`trace_path` for ``points`` (whose bytes are ``data``), in C when it can be: for a
    cairo.Context, float64 points of three columns and Manim's own closing test (a subclass that
    changes it is traced in Python, which calls its own)."""
    if (_trace_in_c is not None and type(ctx) is cairo.Context and points.dtype == _FLOAT64
            and points.ndim == 2 and points.shape[1] == 3
            and type(vmobject).consider_points_equals_2d is VMobject.consider_points_equals_2d):
        _trace_in_c(ctx, data, vmobject.n_points_per_cubic_curve, vmobject.tolerance_for_point_equality, RTOL)
    else:
        trace_path(ctx, vmobject, points)


#: Camera methods display_vectorized stands for: a subclass that changes one is drawn Manim's way.
_CAMERA_STEPS = ("display_vectorized", "apply_stroke", "apply_fill", "set_cairo_context_color",
                 "get_stroke_rgbas", "get_fill_rgbas")
#: VMobject methods it reads through: a VMobject class that changes one is drawn Manim's way.
_VMOBJECT_STEPS = ("get_stroke_width", "get_stroke_rgbas", "get_fill_rgbas")
_NO_COLOUR = np.zeros((1, 4))


class PathCachingCamera(Camera):
    """Manim's camera, reusing the Cairo path of a mobject whose points did not change."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # id(vmobject) -> (the mobject, its points' bytes, the matrix, its tolerance, the path).
        # The mobject is kept so that its id cannot be reused by another while cached.
        self._paths: dict[int, tuple[Any, bytes, tuple[float, ...], float, cairo.Path]] = {}
        # type(mobject) -> the display group Manim's type_or_raise finds for it
        self._kinds: dict[type, type] = {}
        # type(vmobject) -> whether display_vectorized may read its colours and widths directly
        self._plain: dict[type, bool] = {}
        self._fused = all(getattr(type(self), n) is getattr(PathCachingCamera, n) for n in _CAMERA_STEPS)

    def type_or_raise(self, mobject: Any) -> Any:
        """Manim's, once per class: it builds a dict of four display functions and tries
        ``isinstance`` against each, for each of the ~120 mobjects of every frame."""
        kind = self._kinds.get(type(mobject))
        if kind is None:
            kind = self._kinds[type(mobject)] = super().type_or_raise(mobject)
        return kind

    def display_vectorized(self, vmobject: Any, ctx: cairo.Context[Any]) -> PathCachingCamera:
        """Manim's :meth:`~manim.camera.camera.Camera.display_vectorized` in one function: the same
        Cairo calls with the same numbers (path, background stroke, fill, stroke), without the
        seven method calls and the numpy scalars per mobject that were a tenth of the drawing's
        CPU at 480p. A VMobject class, or a camera subclass, that changes one of the methods
        involved is drawn by Manim's own."""
        plain = self._plain.get(type(vmobject))
        if plain is None:
            plain = self._plain[type(vmobject)] = self._fused and all(
                getattr(type(vmobject), n) is getattr(VMobject, n) for n in _VMOBJECT_STEPS)
        if not plain:
            return super().display_vectorized(vmobject, ctx)
        self.set_cairo_context_path(ctx, vmobject)
        width = max(0.0, vmobject.background_stroke_width)
        if width != 0:
            self._stroke(ctx, vmobject, width, getattr(vmobject, "background_stroke_rgbas", None))
        self._colour(ctx, getattr(vmobject, "fill_rgbas", None), vmobject)
        ctx.fill_preserve()
        width = vmobject.stroke_width
        width = max(0.0, int(width) if isinstance(width, str) else width)
        if width != 0:
            self._stroke(ctx, vmobject, width, getattr(vmobject, "stroke_rgbas", None))
        return self

    def _stroke(self, ctx: cairo.Context[Any], vmobject: Any, width: float, rgbas: Any) -> None:
        """Manim's apply_stroke once the width is known not to be zero."""
        self._colour(ctx, rgbas, vmobject)
        ctx.set_line_width(width * self.cairo_line_width_multiple * (self.frame_width / self.frame_width))
        ctx.set_line_join(LINE_JOIN_MAP[vmobject.joint_type])
        ctx.set_line_cap(CAP_STYLE_MAP[vmobject.cap_style])
        ctx.stroke_preserve()

    def _colour(self, ctx: cairo.Context[Any], rgbas: Any, vmobject: Any) -> None:
        """Manim's set_cairo_context_color (``rgbas`` None: the zeros Manim's getters give a
        VMobject without that colour); one colour as plain floats, a gradient by Manim."""
        if rgbas is None:
            rgbas = _NO_COLOUR
        if len(rgbas) == 1:
            r, g, b, a = rgbas[0].tolist()
            ctx.set_source_rgba(b, g, r, a)
        else:
            self.set_cairo_context_color(ctx, rgbas, vmobject)

    def set_cairo_context_path(self, ctx: cairo.Context[Any], vmobject: Any) -> PathCachingCamera:
        points = vmobject.points
        if len(points) == 0:  # Manim leaves the previous path in place: nothing to keep
            super().set_cairo_context_path(ctx, vmobject)
            return self
        data = points.tobytes()
        m = ctx.get_matrix()
        matrix = (m.xx, m.yx, m.xy, m.yy, m.x0, m.y0)
        tolerance = vmobject.tolerance_for_point_equality
        hit = self._paths.get(id(vmobject))
        if hit is not None and hit[1] == data and hit[2] == matrix and hit[3] == tolerance and hit[0] is vmobject:
            ctx.new_path()
            ctx.append_path(hit[4])
            return self
        trace(ctx, vmobject, points, data)
        if len(self._paths) >= MAX_PATHS:
            self._paths.clear()
        self._paths[id(vmobject)] = (vmobject, data, matrix, tolerance, ctx.copy_path())
        return self
