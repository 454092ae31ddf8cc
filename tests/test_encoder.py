"""A held picture encoded once (attnvid.render.encoder): an MP4 sample lasting as long as the hold.

- on frames made here: one sample per picture, each lasting its hold; every sample decodes to
  the very pixels the constant-rate encoding (Manim's, byte for byte) shows at that instant,
  and at every other instant of a hold the picture shown is that drawn picture, as close to
  it as the constant rate's re-encoded copies are;
- on a real scene (TitleCard, rendered both ways in this process): the same at every frame of
  the video, and the section clips cut from it (attnvid.publish.clips) keep the holds.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from itertools import zip_longest
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import av
import numpy as np
import pytest
from conftest import frame_hashes, shown_frames
from manim._config.video_encoder import VideoEncoderSpec
from manim.scene.video_segment_encoder import VideoSegmentEncoder

from attnvid.publish.clips import cut_clip
from attnvid.render.encoder import SegmentEncoder
from attnvid.render.settings import X264_OPTIONS

FPS = 15
#: PSNR (dB) of a held picture against the constant rate's re-encoded copy of the same drawn
#: picture, at least (measured: 43-45 dB on the pictures below, 42-99 dB on TitleCard).
LEAST_PSNR = 40.0
#: How much closer to the drawn picture (dB of PSNR) the constant rate's re-encodings of a hold may
#: come than the held picture (measured: 0.04 dB at most on the pictures below).
REFINED_DB = 0.5


def pictures() -> list[tuple[np.ndarray, int]]:
    """Pictures and how many frames each is held: moving bars, then holds of 1 to 9 frames."""
    rng = np.random.default_rng(3)
    out = []
    for k in range(12):
        f = np.zeros((480, 854, 4), np.uint8)
        f[..., 3] = 255
        f[80:200, 40 + 50 * k:160 + 50 * k, :3] = rng.integers(40, 255, 3, dtype=np.uint8)
        f[300:330, :848, :3] = np.repeat(rng.integers(0, 255, (30, 106, 3), dtype=np.uint8), 8, axis=1)  # detail x264
        # refines when held
        out.append((f, [1, 1, 4, 1, 9, 2, 1, 1, 6, 1, 3, 5][k]))
    return out


def encode(path: Path, frames: list[tuple[np.ndarray, int]], cls: type = SegmentEncoder, **kwargs: Any) -> None:
    spec = VideoEncoderSpec("mp4", "libx264", "yuv420p", 854, 480, Fraction(FPS), tuple(sorted(X264_OPTIONS.items())))
    enc = cls(target=path, spec=spec, **kwargs)
    for f, repeat in frames:
        enc.write_frame(f.copy(), repeat=repeat)
    enc.finish()


def at_every_instant(video: Path) -> Iterator[tuple[np.ndarray, bool]]:
    """The picture a player shows at each frame's instant (1/FPS apart), and whether a sample
    starts there."""
    with av.open(str(video)) as c:
        for f in c.decode(video=0):
            picture = f.to_ndarray(format="rgb24").astype(np.int16)
            for k in range(round(f.duration * f.time_base * FPS)):
                yield picture, k == 0


def psnr(a: np.ndarray, b: np.ndarray) -> float:
    mse = float(((a.astype(np.float64) - b) ** 2).mean())
    return 99.0 if mse == 0 else 10 * float(np.log10(255**2 / mse))


def compare_at_every_instant(held_once: Path, constant: Path, drawn: list[np.ndarray] | None = None,
                             exact: bool = True) -> int:
    """Assert what the module's doc says of ``held_once`` against ``constant`` (``exact``: a sample
    decodes to the very pixels the constant rate shows there, as it does where every hold is a
    segment of its own, as a scene's waits are; ``drawn``: the pictures drawn, frame by frame);
    the samples counted."""
    samples = 0
    for k, ((pa, starts), (pb, also)) in enumerate(zip_longest(at_every_instant(held_once), at_every_instant(constant),
                                                               fillvalue=(None, False))):
        assert pa is not None and pb is not None, f"frame {k}: one of them ends there: the same frames, for as long"
        assert also, f"frame {k}: the constant rate has a sample at every frame"
        if starts:
            samples += 1
            assert not exact or (pa == pb).all(), f"frame {k}: a sample decodes to what the constant rate shows there"
        assert psnr(pa, pb) >= LEAST_PSNR, f"frame {k}: the hold shows the picture the constant rate re-encodes"
        if drawn is not None:
            assert psnr(pa, drawn[k]) >= psnr(pb, drawn[k]) - REFINED_DB, f"frame {k}: as close to the drawn picture"
    return samples


def test_a_held_picture_is_one_sample_lasting_its_hold(tmp_path: Path) -> None:
    frames = pictures()
    encode(tmp_path / "held.mp4", frames, hold_once=True)
    with av.open(str(tmp_path / "held.mp4")) as c:
        v = c.streams.video[0]
        packets = [p for p in c.demux(v) if p.pts is not None]
        assert v.base_rate == FPS and v.duration is not None and v.time_base is not None
        assert float(v.duration * v.time_base) == pytest.approx(sum(r for _, r in frames) / FPS)
        lasts = [round(p.duration * v.time_base * FPS) for p in packets]
    assert lasts == [r for _, r in frames], "one sample per picture, lasting its hold"
    assert shown_frames(tmp_path / "held.mp4") == sum(r for _, r in frames)


def test_held_pictures_match_the_constant_rate_at_every_instant(tmp_path: Path) -> None:
    frames = pictures()
    encode(tmp_path / "held.mp4", frames, hold_once=True)
    encode(tmp_path / "constant.mp4", frames, hold_once=False)
    encode(tmp_path / "manim.mp4", frames, cls=VideoSegmentEncoder)
    assert (tmp_path / "constant.mp4").read_bytes() == (tmp_path / "manim.mp4").read_bytes(), \
        "repeated (GIF, WebM): the bytes Manim's encoder writes"
    drawn = [f[..., :3].astype(np.int16) for f, r in frames for _ in range(r)]
    # one segment holding everything: the pictures after a hold are predicted from another
    # reference (the constant rate's last re-encoding), so they are close, not the same
    assert compare_at_every_instant(tmp_path / "held.mp4", tmp_path / "constant.mp4", drawn, exact=False) == len(frames)
    refined = [psnr(pb, d) for (pb, _), d in zip(at_every_instant(tmp_path / "constant.mp4"), drawn, strict=True)]
    assert max(refined) > min(refined), "the constant rate's copies of a hold are re-encodings, not the same"


def test_the_check_sees_a_hold_that_shows_another_picture(tmp_path: Path) -> None:
    frames = pictures()
    wrong = [*frames[:4], (frames[6][0], frames[4][1]), *frames[5:]]  # the long hold shows another picture
    encode(tmp_path / "wrong.mp4", wrong, hold_once=True)
    encode(tmp_path / "constant.mp4", frames, hold_once=False)
    with pytest.raises(AssertionError):
        compare_at_every_instant(tmp_path / "wrong.mp4", tmp_path / "constant.mp4")


@pytest.fixture(scope="module")
def title_card_both_ways(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """TitleCard rendered at 480p in this process, its holds encoded once and repeated."""
    import attnvid.render.encoder as encoder
    from attnvid.render.engine import _run_manim
    from scenes.steps.title import TitleCard

    folder = tmp_path_factory.mktemp("title-card")
    out = []
    for hold_once in (True, False):
        class Writer(encoder.FileWriter):
            def _create_segment_encoder(self, target: Any, hold_once: bool = hold_once) -> VideoSegmentEncoder:
                seg = super()._create_segment_encoder(target)
                assert isinstance(seg, SegmentEncoder) and seg.hold_once, "an MP4 holds its pictures once"
                seg.hold_once = hold_once
                return seg

        job = SimpleNamespace(scene="TitleCard", quality="low", fmt="mp4", work=folder / f"work-{hold_once}")
        saved = encoder.FileWriter
        encoder.FileWriter = Writer  # type: ignore[misc]
        try:
            _, produced = _run_manim(job, TitleCard)
        finally:
            encoder.FileWriter = saved  # type: ignore[misc]
        out.append(produced.rename(folder / f"title-{hold_once}.mp4"))
    return out[0], out[1]


@pytest.mark.render
def test_a_scene_holds_its_pictures_once_and_shows_the_constant_rate_frames(
        title_card_both_ways: tuple[Path, Path]) -> None:
    held, constant = title_card_both_ways
    samples = compare_at_every_instant(held, constant)
    assert shown_frames(held) == shown_frames(constant) > 150
    assert samples < shown_frames(held) / 2, "most of a title card is held"
    assert held.stat().st_size < constant.stat().st_size


def key_frame_times(video: Path) -> list[float]:
    with av.open(str(video)) as c:
        v = c.streams.video[0]
        assert v.time_base is not None
        return sorted(float(p.pts * v.time_base) for p in c.demux(v) if p.pts is not None and p.is_keyframe)


@pytest.mark.render
def test_clips_cut_from_held_pictures_keep_their_holds(title_card_both_ways: tuple[Path, Path], tmp_path: Path) -> None:
    """A clip from a key frame is copied (the same pictures and holds as the constant rate's); one
    from the middle of a hold re-encodes its head, and keeps the hold there as one sample too."""
    held, constant = title_card_both_ways
    total = shown_frames(constant) / FPS
    keys = key_frame_times(held)
    assert keys == key_frame_times(constant) and len(keys) > 2
    mid_hold = keys[1] + 3 / FPS
    for name, start, copied in (("copied", keys[1], True), ("head", mid_hold, False)):
        a = cut_clip(held, start, total, tmp_path / f"{name}-held.mp4")
        b = cut_clip(constant, start, total, tmp_path / f"{name}-constant.mp4")
        assert (a.frames, a.duration_s, a.reencoded == 0) == (b.frames, b.duration_s, copied), name
        assert (
            shown_frames(tmp_path / f"{name}-held.mp4") == a.frames == shown_frames(tmp_path / f"{name}-constant.mp4")
        )
        samples = compare_at_every_instant(
            tmp_path / f"{name}-held.mp4", tmp_path / f"{name}-constant.mp4", exact=copied
        )
        assert samples < a.frames / 2, f"{name}: the holds are kept"
    assert frame_hashes(held) == frame_hashes(held), "decodes the same every time"
