"""How a build plays a scene's animations without drawing a video: three renderers.

Manim skipping an animation still begins it (a copy of its start, aligned with its target,
interpolated to 0), interpolates it to its end and finishes it. A build needs only the end:

- :class:`DryRenderer` is Manim's own skipping, without the frames it would rasterise and
  throw away;
- :class:`ExactRenderer` leaves out what cannot change an end (its frames are Manim's own,
  pixel for pixel, which ``tests/test_layout_build.py`` checks): previews and storyboards;
- :class:`LayoutRenderer` plays each animation straight to its end state: the same texts at
  the same places in the same colours, cheaper still, for the layout and number tests and
  the warm watch.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from manim import (
    AnimationGroup,
    Create,
    FadeIn,
    FadeOut,
    GrowFromPoint,
    Indicate,
    ReplacementTransform,
    Succession,
    Transform,
    TransformFromCopy,
    Write,
    config,
)
from manim.animation.animation import Animation
from manim.animation.transform import _MethodAnimation
from manim.renderer.cairo_renderer import CairoRenderer
from manim.utils.bezier import interpolate as bezier_interpolate

from .components.updating import any_updater


class DryRenderer(CairoRenderer):
    """Manim's Cairo renderer, skipping animations, that also skips rasterising.

    With ``skip_animations`` Manim still draws the static mobjects at every ``play``
    and the whole frame at every ``wait`` (``update_frame`` ignores skipping by
    default), then throws the pixels away. A build only needs the frames it captures
    itself at the checkpoints, so this saves about a sixth of a build.
    """

    def update_frame(self, scene: Any, mobjects: Any = None, include_submobjects: bool = True,
                     ignore_skipping: bool = True, **kwargs: Any) -> None:
        if self.skip_animations:
            return
        super().update_frame(scene, mobjects, include_submobjects, ignore_skipping, **kwargs)


#: Animations whose end state is the state their mobject had when the animation was made:
#: they only bring it in (fades, drawing, growing), take it out (a fade out, which Manim
#: restores after removing) or come back to it (Indicate; TransformFromCopy animates its
#: target from a copy of the source and ends on the target as it was).
TO_ITSELF = (FadeIn, FadeOut, Create, Write, GrowFromPoint, Indicate, TransformFromCopy)


def _no_interpolation(alpha: float) -> None:
    """An animation played straight to its end has nothing to interpolate (a FadeOut's clean-up
    interpolates back to 0, to restore a mobject the end state never changed)."""


def _begin(anim: Animation) -> None:
    if isinstance(anim, AnimationGroup):
        for a in anim.animations:
            _begin(a)
    elif isinstance(anim, (*TO_ITSELF, _MethodAnimation)):
        anim.interpolate = _no_interpolation  # type: ignore[method-assign]
    elif isinstance(anim, Transform) and type(anim) in (Transform, ReplacementTransform):
        # Transform.begin without its start: at alpha 1 Manim's interpolation weighs the start by
        # 0 and copies the target's colours and widths, so the mobject ends as the aligned target
        # whatever the start is. Its copy of the mobject and its interpolation to 0 were a third of
        # the transform's cost, on a state nobody looks at.
        _begin_without_start(anim)
    else:
        anim.begin()


def _finish(anim: Animation) -> None:
    if isinstance(anim, AnimationGroup):
        for a in anim.animations:
            _finish(a)
    elif isinstance(anim, _MethodAnimation):  # ``mob.animate.f(...)``: the methods, on the mobject itself
        for item in anim.methods:
            item.method.__func__(anim.mobject, *item.args, **item.kwargs)
    elif not isinstance(anim, TO_ITSELF):
        anim.finish()


class _Skipping(DryRenderer):
    """A :class:`DryRenderer` that plays skipped animations its own way (:meth:`play_skipped`),
    while nothing has an updater: Manim's skipping runs the updaters once over the animation's
    whole time (a time-based one moves its mobject), which playing to the end leaves out, so
    with any updater in the process (:func:`scenes.components.updating.any_updater`) or on the
    scene every play is Manim's own."""

    def play(self, scene: Any, *args: Any, **kwargs: Any) -> None:
        self.skip_animations = self._original_skipping_status
        self.update_skipping_status()
        if not self.skip_animations or any_updater() or scene.updaters:
            super().play(scene, *args, **kwargs)
            return
        scene.compile_animation_data(*args, **kwargs)
        self.time += scene.duration
        self.play_skipped(scene)
        self.num_plays += 1

    def play_skipped(self, scene: Any) -> None:
        raise NotImplementedError


class LayoutRenderer(_Skipping):
    """A :class:`DryRenderer` that plays every animation straight to its end state.

    Manim skipping an animation still begins it (copies of the mobject and its target,
    aligned point by point) and interpolates it to its end: about half of a build, spent
    on states nobody looks at. Here an animation that ends where its mobject already is
    (:data:`TO_ITSELF`) is only added to or removed from the scene, ``mob.animate``
    applies its methods to the mobject, and every other animation (Transform,
    ReplacementTransform, FadeTransform, ...) runs as Manim runs it. The scene's clock,
    narration and sections are Manim's, and at the end of every section the same texts
    stand at the same places in the same colours, which ``tests/test_layout_build.py``
    checks against :class:`DryRenderer` for every scene of the default lesson. Not the
    same pixels: Manim's transforms leave aligned copies of glyphs, and ``Write`` its own
    stroke width, so frames are drawn by :class:`ExactRenderer`. A build is then 2.5 to 3
    times faster (the layout and number tests).
    """

    def play_skipped(self, scene: Any) -> None:
        # Manim's order: every animation set up and begun, then every one finished, then cleaned up.
        for anim in scene.animations:
            anim._setup_scene(scene)
            _begin(anim)
        for anim in scene.animations:
            _finish(anim)
        for anim in scene.animations:
            anim.clean_up_from_scene(scene)


def _ends_as_target(anim: Animation) -> bool:
    """Whether Manim's skipped ``anim`` ends with its mobject equal to the aligned copy of its target
    whatever its start: a straight path, ``(1 - a) * start + a * end``, weighs the start by
    exactly 0 when the rate function gives exactly 1 at the end."""
    return float(anim.rate_func(1.0)) == 1.0 and _straight(anim)


#: Animations a frame-exact build still leaves out: whatever they do in between, their mobject
#: ends with the very values it had (a fade or a growth ends on a copy of the mobject; a fade out
#: is removed and set back to its start; Create's last partial curve is the whole curve).
#: Not Write (its outline's stroke is interpolated away, not copied back) nor TransformFromCopy
#: (its target ends aligned with the source): those Manim runs.
SAME_AT_END = (FadeIn, Create, GrowFromPoint)


def _exact_begin(anim: Animation) -> bool:
    """Begin ``anim`` for :class:`ExactRenderer`; whether Manim's ``finish`` must still run."""
    if isinstance(anim, AnimationGroup) and not isinstance(anim, Succession):
        return any([_exact_begin(a) for a in anim.animations])  # every child begun, in Manim's order
    if (isinstance(anim, FadeOut) or (isinstance(anim, SAME_AT_END) and float(anim.rate_func(1.0)) == 1.0)
            or (isinstance(anim, Indicate) and float(anim.rate_func(1.0)) == 0.0)):
        anim.interpolate = _no_interpolation  # type: ignore[method-assign]
        return False
    t: Any = anim  # Manim types these Mobject or OpenGLMobject: the Cairo renderer's are Mobjects
    if isinstance(anim, TransformFromCopy) and float(anim.rate_func(0.0)) == 0.0 and _straight(anim):
        # it ends at its start, 1 * start + 0 * source: its mobject as aligned with the source's copy
        _align_with_target(t)
        anim.interpolate = _no_interpolation  # type: ignore[method-assign]
        return False
    if _plain_transform(anim) and _ends_as_target(anim):
        _begin_without_start(t)
        return True
    anim.begin()
    return True


def _plain_transform(anim: Animation) -> bool:
    """A Transform that begins, interpolates and finishes as Transform itself does (not
    FadeTransform, which fades a group of both; not a fade, a growth or an indication)."""
    kind = type(anim)
    return (isinstance(anim, Transform) and not isinstance(anim, SAME_AT_END + (Indicate,))
            and all(getattr(kind, m) is getattr(Transform, m)
                    for m in ("begin", "interpolate", "interpolate_mobject", "interpolate_submobject",
                              "get_all_families_zipped")))


def _straight(anim: Animation) -> bool:
    return getattr(anim, "path_func", None) is bezier_interpolate


def _align_with_target(t: Any) -> None:
    """What Transform.begin does before it copies the start: the target made, copied, and the
    mobject aligned with the copy (which may add points to either)."""
    t.target_mobject = t.create_target()
    t.target_copy = t.target_mobject.copy()
    t.mobject.align_data(t.target_copy)


def _begin_without_start(t: Any) -> None:
    """Transform.begin without its start: at alpha 1 the start weighs exactly 0 (see
    :func:`_ends_as_target`), so its copy and the interpolation to 0 change no value of the end."""
    _align_with_target(t)
    t.starting_mobject = t.target_copy
    if t.suspend_mobject_updating:
        t.mobject.suspend_updating()


def _exact_finish(anim: Animation) -> None:
    if isinstance(anim, AnimationGroup) and not isinstance(anim, Succession):
        for a in anim.animations:
            _exact_finish(a)
    elif anim.interpolate is not _no_interpolation:
        anim.finish()


class ExactRenderer(_Skipping):
    """A :class:`DryRenderer` whose skipped animations end where Manim's end, value for value, sooner.

    Manim skipping an animation begins it (a copy of its start, interpolated to 0),
    interpolates it to its end, finishes it (to its end again) and cleans up. For a scene
    without updaters (ours have none; with one every play is Manim's, see :class:`_Skipping`)
    the end is all anybody sees, and for most animations it does not depend on the start:
    those leave out the start's copy and the interpolations (:func:`_exact_begin`), the rest
    (``Write``, a path along an arc, a rate function that does not end at 1, ``Succession``)
    run as Manim runs them. Every section's frame equals :class:`DryRenderer`'s pixel for
    pixel (``tests/test_layout_build.py``), which is the video's own frame; the one-shot
    preview and the storyboard draw with it.
    """

    def play_skipped(self, scene: Any) -> None:
        finishing = []
        for anim in scene.animations:  # Manim's order: each set up and begun, then each finished and cleaned up
            anim._setup_scene(scene)
            finishing.append(_exact_begin(anim))
        for anim, finish in zip(scene.animations, finishing, strict=True):
            if finish:
                _exact_finish(anim)
            anim.clean_up_from_scene(scene)


@contextmanager
def temporary_config(temp: dict[str, Any]) -> Iterator[None]:
    """Manim's ``tempconfig``, without setting an unchanged renderer again on the way out.

    ``tempconfig`` restores the whole config through ``config.update``, whose renderer setter
    reassigns the bases of every class Manim converts for OpenGL, even to the same bases: about
    10 ms, and the method caches of those classes emptied, twice in every preview (the warm
    watch's LearnedProjections after a lesson edit: 0.654 s -> 0.627 s, medians of ten edits in
    turn). The same values come back; so does the renderer when it changed."""
    original = config.copy()
    config.update({k: v for k, v in temp.items() if k in original})
    try:
        yield
    finally:
        if config.renderer == original.renderer:
            config._d.update(original._d)
            if original.tex_template:
                config.tex_template = original.tex_template
        else:
            config.update(original)
