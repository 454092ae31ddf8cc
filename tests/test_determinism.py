"""Two clean renders give the same decoded frames and the same MP4 bytes, at every quality.

The cause of the differences we used to see (attnvid.render.settings.X264_OPTIONS): x264's
macroblock tree read memory nothing had written. Which bytes such memory holds depends on
what the process did before, so the failure came and went. These tests make it come every
time: glibc's ``MALLOC_PERTURB_`` fills freshly allocated memory with a byte of our
choice, and each encode runs in its own process with another byte. Same output with
every byte: the encoder reads nothing uninitialised.

``determinism/caption_rises.png`` holds the nine frames that used to differ (bottom 96
rows of 10_ChangingDimension at 480p, frames 121-129: a caption rising at the picture's
bottom edge), stacked one above the other.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ATTNVID, frame_hashes

from attnvid.render.settings import X264_OPTIONS

FRAMES = Path(__file__).parent / "determinism" / "caption_rises.png"
N_FRAMES = 9
PERTURB = ("7", "200")

ENCODE = r"""
import hashlib, json, sys, tempfile
from fractions import Fraction
from pathlib import Path
import numpy as np
from PIL import Image
from manim._config.video_encoder import VideoEncoderSpec
from attnvid.render.encoder import SegmentEncoder

strip = np.asarray(Image.open(sys.argv[1]).convert("RGBA"))
frames = strip.reshape(int(sys.argv[2]), -1, strip.shape[1], 4)
opts = json.loads(sys.argv[3])
with tempfile.TemporaryDirectory() as d:
    spec = VideoEncoderSpec("mp4", "libx264", "yuv420p", frames.shape[2], frames.shape[1], Fraction(15),
                            tuple(sorted(opts.items())))
    enc = SegmentEncoder(target=Path(d) / "s.mp4", spec=spec)
    for f in frames:
        enc.write_frame(np.ascontiguousarray(f))
    enc.finish()
    print(hashlib.sha256((Path(d) / "s.mp4").read_bytes()).hexdigest())
"""


def encode_in_fresh_process(options: dict[str, str], perturb: str) -> str:
    """sha256 of the nine frames encoded with ``options``, fresh memory filled with ``perturb``."""
    env = dict(os.environ, MALLOC_PERTURB_=perturb)
    r = subprocess.run([sys.executable, "-c", ENCODE, str(FRAMES), str(N_FRAMES), json.dumps(options)],
                       capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    return r.stdout.strip()


@pytest.mark.slow
def test_our_x264_options_give_the_same_bytes_whatever_fresh_memory_holds() -> None:
    digests = {p: encode_in_fresh_process(X264_OPTIONS, p) for p in PERTURB}
    assert len(set(digests.values())) == 1, digests


@pytest.mark.slow
@pytest.mark.parametrize("simd", ["ssse3", "avx"])
def test_our_x264_options_give_the_same_bytes_with_older_simd_code(simd: str) -> None:
    """What the README promises across machines: x264 picks its code for the CPU (AVX2 or
    AVX-512 on today's); limited to an older instruction set it must write the same bytes.
    (SSE2 alone gives other bytes: CPUs from before SSSE3, about 2008-2011, are not promised.)"""
    limited = dict(X264_OPTIONS, **{"x264-params": f"{X264_OPTIONS['x264-params']}:asm={simd}"})
    assert encode_in_fresh_process(limited, "7") == encode_in_fresh_process(X264_OPTIONS, "7")


def cpu_has_avx512() -> bool:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return False
    return any(line.startswith("flags") and " avx512f" in line for line in text.splitlines())


@pytest.mark.slow
def test_with_the_macroblock_tree_those_frames_depend_on_uninitialised_memory() -> None:
    """Why mbtree=0: the same nine frames with Manim's options (x264's medium preset) differ.

    It depends on the CPU, through the code x264 picks for it: the differences were seen,
    and this test passed, on VMs whose CPU has AVX-512; on one without it (AVX2 only,
    2026-12-01) six fill bytes all gave the same bytes, with x264's AVX2 code and with
    its SSE2 code, so there is nothing to show there (the test of our own options runs
    everywhere). If this fails on an AVX-512 CPU, the x264 that PyAV ships no longer
    reads uninitialised memory here, and X264_OPTIONS may let the macroblock tree back
    (with a test like the one of our options).
    """
    if not cpu_has_avx512():
        pytest.skip("this CPU has no AVX-512: x264 read no uninitialised memory on such CPUs")
    digests = {p: encode_in_fresh_process({"crf": "23", "threads": "1"}, p) for p in PERTURB}
    assert len(set(digests.values())) > 1, digests


@pytest.mark.render
@pytest.mark.parametrize("scene", ["SimplifiedAttention", "ChangingDimension"])
def test_two_clean_renders_at_low_quality_give_identical_frames_and_bytes(tmp_path: Path, scene: str,
                                                                          lecture_dir: Path) -> None:
    """Low quality (854x480, the width that is not a multiple of 16) through the real CLI: the
    scene rendered here, alone, in one process whose fresh memory holds other bytes, against the
    same scene of the lecture the run renders once (two processes side by side, glibc's own fresh
    memory): the same frames and the same bytes. ChangingDimension is the scene that differed;
    SimplifiedAttention is short. One scene a test, so that each test is short."""
    media = tmp_path / "media"
    r = subprocess.run([ATTNVID, "render", scene, "--quality", "low", "--jobs", "1", "--voice", "espeak",
                        "--media", str(media)], cwd=tmp_path, capture_output=True, text=True, timeout=900,
                       env=dict(os.environ, MALLOC_PERTURB_="200"))
    assert r.returncode == 0, r.stderr[-3000:]
    (here,) = (media / "scenes" / "low").glob(f"*_{scene}.mp4")
    (there,) = (lecture_dir.parents[1] / "scenes" / "low").glob(f"*_{scene}.mp4")
    fa, fb = frame_hashes(here), frame_hashes(there)
    assert len(fa) > 100 and fa == fb, here.name
    assert here.read_bytes() == there.read_bytes(), here.name
