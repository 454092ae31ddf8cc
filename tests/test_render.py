"""One real low-quality render through the CLI, the file opened and checked with PyAV."""

from __future__ import annotations

import subprocess
from pathlib import Path

import av
import pytest
from conftest import ATTNVID, built_scene


@pytest.mark.render
def test_render_one_scene_gives_a_playable_h264_file(tmp_path: Path) -> None:
    from scenes.s01_embeddings import Embeddings

    r = subprocess.run([ATTNVID, "render", "Embeddings", "--quality", "low"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr
    out = Path(r.stdout.strip().splitlines()[-1])
    path = out if out.is_absolute() else tmp_path / out
    assert path == tmp_path / "media" / "scenes" / "low" / "01_Embeddings.mp4"
    expected_s = built_scene(Embeddings).renderer.time
    with av.open(str(path)) as container:
        v = container.streams.video[0]
        assert v.codec_context.name == "h264"
        assert v.codec_context.pix_fmt == "yuv420p"
        assert (v.codec_context.width, v.codec_context.height) == (854, 480)
        assert v.base_rate == 15 and v.guessed_rate == 15
        frames = sum(1 for _ in container.decode(video=0))  # decodes to the end
    assert abs(frames - round(expected_s * 15)) <= 1, (frames, expected_s)
    assert not list(path.parent.glob(".*.part")), "a temporary file was left behind"
