"""A scene of the lecturer's own (issue 50): the tutorial's ``docs/examples/own_scene.py``,
rendered by plain ``manim`` and by ``attnvid render PATH``, previewed by ``attnvid preview
PATH``, each showing the trace of the lesson the file names (``own_lesson.toml``); bad
scene files stop both commands with one line. The same from a wheel: ``test_wheel.py``.

How the numbers are checked: the scene built without video (``test_public_api.py``) shows
the trace's numbers, each tagged with its source; here the last frame of each video is that
build's last frame (the preview draws it), and the captions say the trace's numbers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import ATTNVID, ROOT, shown_frames
from PIL import Image

from attncore import find_lesson, fmt, trace_lesson

pytestmark = pytest.mark.render

EXAMPLE = ROOT / "docs" / "examples" / "own_scene.py"
MANIM = str(Path(sys.executable).parent / "manim")
#: The largest mean difference (0-255) of any 8×8 block between a video's decoded last frame
#: and the preview's picture of it. H.264's loss (4:2:0 colour) reaches 16 on this scene's
#: sharpest edges; one digit covered over reaches 44, another layout of the scene 105.
SAME_PICTURE, BLOCK = 30.0, 8


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), cwd=cwd, capture_output=True, text=True, timeout=600)


def last_frame(video: Path) -> np.ndarray:
    import av

    with av.open(str(video)) as c:
        frames = list(c.decode(c.streams.video[0]))
        assert frames, f"{video}: no frame"
        return np.asarray(frames[-1].to_image().convert("RGB"), dtype=float)


def differs(video: Path, png: Path) -> float:
    """The largest mean difference of any BLOCK × BLOCK square of the two pictures: a changed
    number shows as one square, where a mean over the whole frame would hide it."""
    d = np.abs(last_frame(video) - np.asarray(Image.open(png).convert("RGB"), dtype=float)).mean(axis=2)
    h, w = (d.shape[0] // BLOCK) * BLOCK, (d.shape[1] // BLOCK) * BLOCK
    return float(d[:h, :w].reshape(h // BLOCK, BLOCK, w // BLOCK, BLOCK).mean(axis=(1, 3)).max())


def expected_words() -> list[str]:
    """What the captions must say: the focus word's largest weight, as the trace has it."""
    ctx = trace_lesson(find_lesson(EXAMPLE.parent / "own_lesson.toml")).contexts[0]
    row = ctx.attention[ctx.focus_index]
    peak = int(np.argmax(row))
    return [ctx.context.sentence, f"“{ctx.tokens[peak]}” a weight of {fmt(row[peak], 2)}"]


@pytest.fixture(scope="module")
def preview_png(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``attnvid preview PATH``: the scene's last frame, a PNG, in the lesson's own output folder."""
    folder = tmp_path_factory.mktemp("preview")
    r = run(ATTNVID, "preview", str(EXAMPLE), "--media", "media", cwd=folder)
    assert r.returncode == 0, r.stderr
    png = Path(r.stdout.strip().splitlines()[-1])
    assert png == folder / "media" / "own_lesson" / "preview" / "WhereOneWordLooks.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and Image.open(png).size == (854, 480)
    return png


def test_plain_manim_renders_it(tmp_path: Path, preview_png: Path) -> None:
    r = run(MANIM, "render", "-ql", "--disable_caching", "--media_dir", str(tmp_path / "m"), str(EXAMPLE), cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    (video,) = (tmp_path / "m" / "videos").rglob("WhereOneWordLooks.mp4")
    assert shown_frames(video) > 15 * 10, "two narrated sections, at 15 fps"
    assert differs(video, preview_png) < SAME_PICTURE, "plain Manim's last frame is the built scene's"


def test_attnvid_renders_it_with_captions_and_cache(tmp_path: Path, preview_png: Path) -> None:
    r = run(ATTNVID, "render", str(EXAMPLE), "--quality", "low", "--media", "media", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    video = tmp_path / r.stdout.strip().splitlines()[-1]
    assert video == tmp_path / "media" / "own_lesson" / "scenes" / "low" / "00_WhereOneWordLooks.mp4"
    meta = json.loads(video.with_name(video.name + ".json").read_text(encoding="utf-8"))
    assert [s["title"] for s in meta["sections"]] == ["The sentence", "Where one word looks"]
    captions = " ".join(video.with_suffix(".vtt").read_text(encoding="utf-8").split())
    for words in expected_words():
        assert words in captions, f"the captions say {words!r}"
    assert video.with_suffix(".srt").is_file()
    assert differs(video, preview_png) < SAME_PICTURE, "attnvid's last frame is the built scene's"
    again = run(ATTNVID, "render", str(EXAMPLE), "--quality", "low", "--media", "media", cwd=tmp_path)
    assert again.returncode == 0 and "unchanged, not rendered" in again.stderr, "the cache covers a file of one's own"


@pytest.mark.parametrize("command", ["render", "preview"])
def test_a_bad_scene_file_stops_the_command_in_one_line(tmp_path: Path, command: str) -> None:
    (tmp_path / "broken.py").write_text("from scenes.base import LessonScene\nclass A(LessonScene\n", encoding="utf-8")
    (tmp_path / "empty.py").write_text('"""Nothing to render."""\n', encoding="utf-8")
    for name, says in (("missing.py", "missing.py: no such scene file; give the path of a .py file that defines one "
                                      "LessonScene"),
                       ("broken.py", "broken.py:2: syntax error ("),
                       ("empty.py", "empty.py: no scene class; define one subclass of scenes.base.LessonScene in it")):
        r = run(ATTNVID, command, name, cwd=tmp_path)
        assert r.returncode == 2 and r.stdout == "", r.stderr
        assert len(r.stderr.splitlines()) == 1 and r.stderr.startswith(f"attnvid: error: {says}"), r.stderr


def test_the_watch_says_it_follows_the_lectures_scenes(tmp_path: Path) -> None:
    r = run(ATTNVID, "preview", str(EXAMPLE), "--watch", cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == (f"attnvid: error: --watch follows the lecture's scenes; preview {EXAMPLE} again after each "
                        "edit (drop --watch)\n")
