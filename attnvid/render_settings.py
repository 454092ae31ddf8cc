"""How Manim renders a scene: our quality and format names, Manim's settings.

Part of every scene's cache key (see :mod:`attnvid.cache`): a change here changes
frames or bytes, so it re-renders everything.
"""

from __future__ import annotations

from typing import Any

#: Our quality names and Manim's.
QUALITIES = {"low": "low_quality", "medium": "medium_quality", "high": "high_quality", "4k": "fourk_quality"}
FORMATS = ("mp4", "webm", "gif", "png")
#: Extra encoder options per format. x264 picks its thread count from the number of
#: cores, and its output depends on that count (a 1-core and a 2-core machine gave
#: different files). One thread gives the same bytes on every machine with the same
#: Manim and PyAV; it costs little, since scenes render in parallel processes and Manim
#: encodes in a thread of its own beside the drawing. webm (libvpx) is left as it was.
ENCODER_OPTIONS: dict[str, dict[str, str]] = {"mp4": {"threads": "1"}}


def manim_settings(scene: str, quality: str, fmt: str, work: str) -> dict[str, Any]:
    """Manim's config for rendering ``scene`` into the work folder ``work`` (see ``tempconfig``)."""
    return {
        "quality": QUALITIES[quality],
        "media_dir": work,
        "output_file": scene,
        "progress_bar": "none",
        "verbosity": "WARNING",
        # Manim's "png" is the last frame only; ours is every frame, Manim's "png-sequence".
        "format": "png-sequence" if fmt == "png" else fmt,
        "disable_caching": False,
        "video_encoder_options": ENCODER_OPTIONS.get(fmt, {}),
    }
