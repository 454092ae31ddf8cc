"""How a render process encodes Manim's frames: one colour conversion per distinct frame.

Manim's :class:`~manim.scene.video_segment_encoder.VideoSegmentEncoder` copies every
frame it is handed into a new RGBA ``VideoFrame`` and lets PyAV convert it to yuv420p,
``repeat`` times over for a held frame: a two-second ``wait`` at 60 fps is 120 copies
and colour conversions of the same picture. At 1080p that conversion cost more CPU
than drawing the frames. :class:`SegmentEncoder` wraps Manim's array without copying it
(Manim hands the array over for good), converts it once, and gives the same yuv420p
frame to x264 ``repeat`` times with consecutive timestamps: about 6.5 ms per distinct
1080p frame instead of 20 ms per frame written. The yuv420p pictures are the same
(swscale reads the same pixels; a test compares them), and x264 copies a picture into
its own buffers when it receives it, so the bytes are those Manim's encoder writes with
the same options (a test compares the two).

The x264 options themselves live in :data:`attnvid.render.settings.ENCODER_OPTIONS`,
which says why they make the output deterministic.

Used through :func:`renderer`, the renderer :mod:`attnvid.render.engine` gives each scene;
plain ``manim render`` keeps Manim's own encoder.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, cast

import av
from av.video.stream import VideoStream
from manim.renderer.cairo_renderer import CairoRenderer
from manim.scene.scene_file_writer import SceneFileWriter
from manim.scene.video_segment_encoder import VideoSegmentEncoder


class SegmentEncoder(VideoSegmentEncoder):
    """Manim's segment encoder, with one colour conversion per distinct frame."""

    def write_frame(self, pixels: Any, *, repeat: int = 1) -> None:
        self._validate_frame(pixels, repeat)
        spec = self.spec
        time_base = Fraction(spec.frame_rate.denominator, spec.frame_rate.numerator)
        stream = cast(VideoStream, self._stream)
        try:
            frame = av.VideoFrame.from_numpy_buffer(pixels, format="rgba")
            if frame.format.name != spec.pixel_format:
                frame = frame.reformat(format=spec.pixel_format)
            for _ in range(repeat):
                # PyAV rebases the frame's timestamp in place when encoding; set both each time.
                frame.pts = self._next_pts
                frame.time_base = time_base
                self._next_pts += 1
                for packet in stream.encode(frame):
                    self._container.mux(packet)
        except BaseException as error:
            raise self._operation_error("encode", error) from error


class FileWriter(SceneFileWriter):
    """Manim's scene file writer, encoding its segments with :class:`SegmentEncoder`."""

    def _create_segment_encoder(self, target: Any) -> VideoSegmentEncoder:
        if self.video_encoder is None:
            raise RuntimeError("Video segment encoding requires resolved settings.")
        return SegmentEncoder(target=target, spec=self.video_encoder)


def renderer() -> CairoRenderer:
    """A Cairo renderer (Manim's default) whose file writer is :class:`FileWriter` and
    whose camera reuses unchanged paths (:class:`attnvid.render.camera.PathCachingCamera`)."""
    from .camera import PathCachingCamera

    return CairoRenderer(file_writer_class=FileWriter, camera_class=PathCachingCamera)
