"""How a render process encodes Manim's frames: each drawn picture converted and encoded once.

Manim's :class:`~manim.scene.video_segment_encoder.VideoSegmentEncoder` copies every
frame it is handed into a new RGBA ``VideoFrame``, lets PyAV convert it to yuv420p and
has x264 encode it, ``repeat`` times over for a held frame: a two-second ``wait`` at 60 fps
is 120 copies, colour conversions and encodes of the same picture. At 1080p60 that cost
more CPU than drawing the frames. :class:`SegmentEncoder` wraps Manim's array without
copying it (Manim hands the array over for good), converts it once, and:

- for an MP4 (``hold_once``), encodes a held picture **once**, as one sample that lasts
  ``repeat`` frames: a variable frame rate, which MP4 stores as each sample's duration
  (its ``stts`` table). A player shows the picture for as long as it lasts, as it would
  show ``repeat`` copies of it. The frames that are encoded are encoded exactly as the
  constant-rate file encodes them (the same pictures, in the same order, from the same
  encoder state), so each decodes to the very same pixels; what the constant rate adds
  are x264's re-encodings of a held picture, which refine its residual a little at each
  copy (``tests/test_encoder.py`` compares both at every shown instant). Softmax at
  1080p60: 2,903 frames become 1,359 samples, and the encoder's CPU time falls by 40 %;
- for a GIF (whose frames Manim decodes from these segments and numbers one by one) and
  a WebM (libvpx), hands the converted frame to the encoder ``repeat`` times with
  consecutive timestamps, as Manim does (x264 copies a picture into its own buffers when
  it receives it, so the bytes are those Manim's encoder writes; a test compares them).

The colour conversion runs in the encoder's own thread, on one core (``threads=1``):
swscale's default splits it over every core, which on a machine already busy drawing
(every core renders a scene, or draws beside its encoder) costs more than it saves; the
pixels are the same.

The x264 options themselves live in :data:`attnvid.render.settings.ENCODER_OPTIONS`,
which says why they make the output deterministic.

Used through :func:`renderer`, the renderer :mod:`attnvid.render.engine` gives each scene;
plain ``manim render`` keeps Manim's own encoder.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any, cast

import av
from av.video.stream import VideoStream
from manim._config.video_encoder import VideoEncoderSpec
from manim.renderer.cairo_renderer import CairoRenderer
from manim.scene.scene_file_writer import SceneFileWriter
from manim.scene.video_segment_encoder import VideoSegmentEncoder

from .camera import PathCachingCamera

#: swscale threads for the colour conversion (see the module's doc).
CONVERSION_THREADS = 1


class _Durations:
    """The segment's container, giving each packet the duration of its picture before muxing it:
    the MP4 muxer takes a sample's duration from the next sample's timestamp, and the last one's
    from its packet, which x264 gives one frame. Manim's own ``write_frame``, ``finish`` and
    ``abort`` mux and close through it unchanged."""

    def __init__(self, container: Any, fps: Fraction) -> None:
        self.container, self.fps = container, fps
        #: The duration (in frames) of every picture given to x264 and not yet back as a packet,
        #: by its timestamp (in frames).
        self.lasts: dict[int, int] = {}

    def mux(self, packet: Any) -> None:
        if packet.pts is not None and packet.time_base is not None:
            frame_ticks = 1 / (self.fps * packet.time_base)  # one frame in the packet's time base
            packet.duration = int(self.lasts.pop(int(packet.pts / frame_ticks)) * frame_ticks)
        self.container.mux(packet)

    def close(self) -> None:
        self.container.close()


class SegmentEncoder(VideoSegmentEncoder):
    """Manim's segment encoder, converting each picture once; with ``hold_once``, also encoding
    a held picture once, as one sample lasting as long as it is held."""

    def __init__(self, *, target: Path, spec: VideoEncoderSpec, hold_once: bool = False) -> None:
        super().__init__(target=target, spec=spec)
        self.hold_once = hold_once
        self._durations = _Durations(self._container, Fraction(spec.frame_rate))
        self._container = self._durations  # type: ignore[assignment]  # muxes and closes as the container does

    def write_frame(self, pixels: Any, *, repeat: int = 1) -> None:
        self._validate_frame(pixels, repeat)
        spec = self.spec
        time_base = Fraction(spec.frame_rate.denominator, spec.frame_rate.numerator)
        stream = cast(VideoStream, self._stream)
        try:
            frame = av.VideoFrame.from_numpy_buffer(pixels, format="rgba")
            if frame.format.name != spec.pixel_format:
                frame = frame.reformat(format=spec.pixel_format, threads=CONVERSION_THREADS)
            for lasts in [repeat] if self.hold_once else [1] * repeat:
                # PyAV rebases the frame's timestamp in place when encoding; set both each time.
                frame.pts = self._next_pts
                frame.time_base = time_base
                self._durations.lasts[self._next_pts] = lasts
                self._next_pts += lasts
                for packet in stream.encode(frame):
                    self._container.mux(packet)
        except BaseException as error:
            raise self._operation_error("encode", error) from error


class FileWriter(SceneFileWriter):
    """Manim's scene file writer, encoding its segments with :class:`SegmentEncoder`: held
    pictures once in an MP4, repeated for a GIF or a WebM (see the module's doc)."""

    def _create_segment_encoder(self, target: Any) -> VideoSegmentEncoder:
        if self.video_encoder is None:
            raise RuntimeError("Video segment encoding requires resolved settings.")
        hold_once = self.video_encoder.container_format == "mp4" and not self.output_spec.is_gif
        return SegmentEncoder(target=target, spec=self.video_encoder, hold_once=hold_once)


def renderer() -> CairoRenderer:
    """A Cairo renderer (Manim's default) whose file writer is :class:`FileWriter` and
    whose camera reuses unchanged paths (:class:`attnvid.render.camera.PathCachingCamera`)."""
    return CairoRenderer(file_writer_class=FileWriter, camera_class=PathCachingCamera)
