"""Frames without video: the last frame of each section, drawn by Manim's own camera.

The scene's ``construct`` runs with animations skipped and the frame at the end of each
section is rasterised (see :mod:`scenes.inspect`): the fastest way to see what a scene
shows. Used by ``attnvid preview`` and ``attnvid storyboard``; :func:`section_frames`
also runs in worker processes.
"""

from __future__ import annotations

import io
import os

from ..catalog import resolve_scene
from ..env import LESSON_ENV, THEME_ENV
from .settings import QUALITIES


def section_frames(scene: str | type, quality: str, spec: str, work: str,
                   only: frozenset[str] | None = None, style: str = "",
                   exact: bool = True) -> list[tuple[str, bytes]]:
    """(section title, PNG bytes) of the last frame of every section of ``scene`` (a name, or
    the class itself: the watch's, reloaded) (or of the sections named in ``only``: rasterising
    the others would be wasted).

    Manim's text cache goes to ``work``, one folder per scene: Manim writes a text's SVG
    in place and reads any SVG it finds, so two processes sharing ./media/texts could
    read each other's half-written files. ``style``: dark or light ("": the lesson's own).
    ``exact=False`` plays each animation straight to its end state
    (:class:`scenes.inspect.LayoutRenderer`, 2.6 times cheaper): the same texts at the same
    places in the same colours, without the aligned copies of glyphs Manim's transforms
    leave in a video's frame (what a print wants, not what a preview of the video wants).
    """
    os.environ[LESSON_ENV] = spec
    os.environ[THEME_ENV] = style
    from scenes.inspect import build, temporary_config

    with temporary_config({"media_dir": work}):
        built = build(resolve_scene(scene) if isinstance(scene, str) else scene, frames=only if only is not None else True, mobjects=False,
                      quality=QUALITIES[quality], exact=exact)
    out = []
    for cp in built.checkpoints:
        if cp.image is None:
            continue
        buf = io.BytesIO()
        cp.image.convert("RGB").save(buf, format="PNG")
        out.append((cp.section, buf.getvalue()))
    return out

