"""Frames without video: the last frame of each section, drawn by Manim's own camera.

The scene's ``construct`` runs with animations skipped and the frame at the end of each
section is rasterised (see :mod:`scenes.inspect`): the fastest way to see what a scene
shows. Used by ``attnvid preview`` and ``attnvid storyboard``; :func:`section_frames`
also runs in worker processes.
"""

from __future__ import annotations

import io

from attnstage.settings import SceneSettings

from ..catalog import build_scene
from .settings import QUALITIES


def section_frames(scene: str | type, settings: SceneSettings, work: str,
                   only: frozenset[str] | None = None, exact: bool = True) -> list[tuple[str, bytes]]:
    """(section title, PNG bytes) of the last frame of every section of ``scene`` (a name, or
    the class itself: the watch's, reloaded) (or of the sections named in ``only``: rasterising
    the others would be wasted).

    Manim's text cache goes to ``work``, one folder per scene: Manim writes a text's SVG
    in place and reads any SVG it finds, so two processes sharing ./media/texts could
    read each other's half-written files. ``settings``: what the scene is drawn with (its
    quality the frames'; its style dark or light, "" the lesson's own).
    ``exact=True`` draws the video's own frame, pixel for pixel
    (:class:`scenes.skipping.ExactRenderer`); ``exact=False`` plays each animation straight
    to its end state (:class:`scenes.skipping.LayoutRenderer`, cheaper still where transforms
    copy from other mobjects): the same texts at the same places in the same colours,
    without the aligned copies of glyphs Manim's transforms leave in a video's frame.
    """
    built = build_scene(scene, settings, work, frames=only if only is not None else True, mobjects=False,
                        quality=QUALITIES[settings.quality], exact=exact)
    out = []
    for cp in built.checkpoints:
        if cp.image is None:
            continue
        buf = io.BytesIO()
        cp.image.convert("RGB").save(buf, format="PNG")
        out.append((cp.section, buf.getvalue()))
    return out

