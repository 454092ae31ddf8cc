"""How Manim renders a scene: our quality and format names, Manim's settings, x264's options.

Part of every scene's cache key (see :mod:`attnvid.render.cache`): a change here changes
frames or bytes, so it re-renders everything.
"""

from __future__ import annotations

import logging
from typing import Any

#: Our quality names and Manim's.
QUALITIES = {"low": "low_quality", "medium": "medium_quality", "high": "high_quality", "4k": "fourk_quality"}
FORMATS = ("mp4", "webm", "gif", "png")

#: x264's options for the segments of an mp4 (and of a gif, whose segments are x264 too).
#:
#: - ``threads=1``: x264 picks its thread count from the number of cores, and its output
#:   depends on that count (a 1-core and a 2-core machine gave different files). A fixed
#:   count gives the same bytes on every machine; one thread costs little, since every
#:   core already runs a scene (its drawing, and beside it its encoder thread).
#: - ``mbtree=0``: x264's macroblock tree read memory that nothing had written when a
#:   short segment ended in motion at the picture's edge, so two clean renders could
#:   differ: 10_ChangingDimension at 480p, frames 121-129 (a caption rising at the bottom
#:   edge), at any width (848, 854 and 864 alike: the padding columns were not the
#:   cause). Making the allocator fill fresh memory with other bytes (MALLOC_PERTURB_)
#:   changed the output with the tree on and never with it off (tests/test_determinism.py
#:   replays those nine frames). ``superfast`` looks no frame ahead, so it has no tree;
#:   the option stays so that a slower preset cannot bring it back.
#: - ``preset=superfast`` (Manim's default is ``medium``), CRF 23 as before: x264 took
#:   80 % of a 1080p60 render's CPU time. On SimplifiedAttention at 1080p60 x264's time
#:   falls by ~37 %; PSNR against the drawn frames 41.6 dB (medium: 41.4), 27 % more
#:   bytes. At 480p: 38.6 dB (38.8), 36 % more bytes.
#:
#: - ``bframes=0`` (``superfast`` uses up to 3): x264 spent as long on a held frame (a
#:   ``wait`` is the same picture 60 times a second) as on a moving one, and about a third
#:   of a 1080p60 render's CPU time went to x264. Without B-frames it takes 13-16 % less
#:   (Scaling at 1080p60: 14.8 -> 12.6 s, best of runs), PSNR-Y 48.7 dB (49.2 with them),
#:   29 % more bytes. ``preset=ultrafast`` would take 40 % less at CRF 31 (same PSNR, 55 %
#:   more bytes) but, without adaptive quantisation, draws 16-pixel blocks on the dark
#:   background; not taken.
#: - ``subme=0`` (``superfast`` refines motion vectors to a quarter pixel, ``subme=1``): with
#:   every held picture encoded once (attnvid.render.encoder), x264 spends its time on the
#:   frames of animations, and there the sub-pixel search was a quarter of it. On 400 frames of
#:   Softmax at 1080p60: 6.9 -> 5.1 ms a frame, PSNR-Y against the frames 48.73 -> 48.67 dB
#:   (the worst frame 42.28 dB either way), 6.6 % more bytes; the whole of Softmax with and
#:   without it differs by 46.5 dB at its worst frame. Deterministic like the rest (the SIMD
#:   and fresh-memory tests of tests/test_determinism.py run these options).
#:
#: webm (libvpx) is left as it was.
X264_OPTIONS: dict[str, str] = {"crf": "23", "preset": "superfast", "threads": "1",
                                "x264-params": "mbtree=0:bframes=0:subme=0"}
ENCODER_OPTIONS: dict[str, dict[str, str]] = {"mp4": X264_OPTIONS, "gif": X264_OPTIONS}
#: Segments Manim may still be encoding while the next animation is drawn. Manim's
#: default (1) makes the drawing wait at the end of every animation until x264 has
#: flushed that segment's last frames; 2 lets the two overlap.
INFLIGHT_ENCODERS = 2


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
        # Manim's own cache hashes every mobject at every play (a third of a low-quality
        # render's time) to reuse animations between runs; our cache (attnvid.render.cache)
        # already decides which scenes render, and a scene that renders has changed.
        "disable_caching": True,
        "max_inflight_encoders": INFLIGHT_ENCODERS,
        "video_encoder_options": ENCODER_OPTIONS.get(fmt, {}),
    }


#: Warnings Manim and PyAV give their own users that say nothing to ours: webm was asked
#: for on purpose, and PyAV lists encoder options a codec ignores (x264's for a GIF).
NOISE = ("Output format set as webm", "Some options were not used")
#: The loggers they come from (a filter on a logger sees only what is logged on it).
NOISY_LOGGERS = ("manim", "av.container.output")


class _DropNoise(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith(NOISE)


def quiet_noise() -> None:
    """Keep :data:`NOISE` off the terminal (once per process; other warnings still show)."""
    for name in NOISY_LOGGERS:
        log = logging.getLogger(name)
        if not any(isinstance(f, _DropNoise) for f in log.filters):
            log.addFilter(_DropNoise())
