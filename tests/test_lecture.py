"""``attnvid lecture`` from a temporary folder: the lecture file, the page, the manifest.

The lecture is rendered once per test session (the ``lecture_dir`` fixture in
conftest.py, with the espeak voice); every check reads what the command wrote.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import av
import pytest
from conftest import shown_frames
from PIL import Image

from scenes.lecture import LECTURE
from scenes.order import numbered


def mp4_boxes(path: Path) -> list[str]:
    """Top-level box types of an MP4, in file order."""
    out = []
    with open(path, "rb") as f:
        while header := f.read(8):
            size = int.from_bytes(header[:4], "big")
            kind = header[4:8].decode("latin-1")
            if size == 1:
                size = int.from_bytes(f.read(8), "big")
                f.seek(size - 16, 1)
            elif size == 0:
                out.append(kind)
                break
            else:
                f.seek(size - 8, 1)
            out.append(kind)
    return out


def _vtt_cue_count(path: Path) -> int:
    import webvtt

    return len(webvtt.read(str(path)))


def expected_chapter_titles() -> list[str]:
    # the title card has no scene title: its chapter is its section alone
    return [f"{numbered(c.__name__, c.TITLE)} — {s}" if c.TITLE else s for c in LECTURE for s in c.section_names()]


def test_lecture_folder_holds_everything(lecture_dir: Path) -> None:
    for name in (
        "lecture.mp4",
        "chapters.vtt",
        "index.html",
        "manifest.json",
        "captions.vtt",
        "captions.srt",
        "narration.md",
    ):
        assert (lecture_dir / name).is_file(), name
    assert not list(lecture_dir.rglob(".*.part")), "temporary files left behind"


def test_lecture_mp4_is_h264_yuv420p_faststart(lecture_dir: Path) -> None:
    path = lecture_dir / "lecture.mp4"
    boxes = mp4_boxes(path)
    assert "moov" in boxes and "mdat" in boxes
    assert boxes.index("moov") < boxes.index("mdat"), f"not faststart: {boxes}"
    with av.open(str(path)) as c:
        v = c.streams.video[0]
        assert v.codec_context.name == "h264" and v.codec_context.pix_fmt == "yuv420p"


def test_chapters_in_the_file_match_the_sections(lecture_dir: Path) -> None:
    with av.open(str(lecture_dir / "lecture.mp4")) as c:
        chapters = c.chapters()
    titles = [ch["metadata"]["title"] for ch in chapters]
    assert titles == expected_chapter_titles()
    starts = [float(ch["start"] * ch["time_base"]) for ch in chapters]
    assert starts == sorted(starts) and starts[0] == 0


def test_duration_is_the_sum_of_the_scenes(lecture_dir: Path) -> None:
    scenes_dir = lecture_dir.parents[1] / "scenes" / "low"
    parts = sorted(scenes_dir.glob("*.mp4"))
    assert len(parts) == len(LECTURE)
    total_frames = 0
    total_s = 0.0
    for p in parts:
        with av.open(str(p)) as c:
            s = c.streams.video[0]
            total_s += float(s.duration * s.time_base)
            total_frames += sum(1 for _ in c.decode(s))
    with av.open(str(lecture_dir / "lecture.mp4")) as c:
        s = c.streams.video[0]
        frames = sum(1 for _ in c.decode(s))  # decodes to the end
        duration = float(s.duration * s.time_base)
    assert frames == total_frames
    assert abs(duration - total_s) <= 1 / 15


def test_manifest_and_vtt(lecture_dir: Path) -> None:
    m = json.loads((lecture_dir / "manifest.json").read_text(encoding="utf-8"))
    assert {"quality", "duration_s", "video", "chapters", "posters", "page", "captions"} <= set(m)
    assert m["quality"] == "low" and m["video"] == "lecture.mp4" and m["page"] == "index.html"
    assert [c["title"] for c in m["chapters"]] == expected_chapter_titles()
    for a, b in zip(m["chapters"], m["chapters"][1:]):
        assert a["end_s"] == pytest.approx(b["start_s"]) and a["start_s"] < a["end_s"]
    assert m["chapters"][-1]["end_s"] == pytest.approx(m["duration_s"], abs=1 / 15)
    assert len(m["posters"]) == len(LECTURE)
    for p in m["posters"]:
        assert not Path(p).is_absolute()
        with Image.open(lecture_dir / p) as img:
            assert img.size == (854, 480)
    vtt = (lecture_dir / "chapters.vtt").read_text(encoding="utf-8")
    assert vtt.startswith("WEBVTT")
    cues = re.findall(r"(\d\d:\d\d:\d\d\.\d\d\d) --> (\d\d:\d\d:\d\d\.\d\d\d)\n(.+)", vtt)
    assert [c[2] for c in cues] == expected_chapter_titles()


def test_page_is_offline(lecture_dir: Path) -> None:
    page = (lecture_dir / "index.html").read_text(encoding="utf-8")
    assert not re.search(r"(src|href)=\"(https?:)?//", page), "the page must not load anything from the network"
    assert "lecture.mp4" in page


def test_page_in_headless_chromium(lecture_dir: Path) -> None:
    """The video loads with the right duration, a chapter click seeks, presenter mode pauses."""
    from playwright.sync_api import sync_playwright

    m = json.loads((lecture_dir / "manifest.json").read_text(encoding="utf-8"))
    requests: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run", "--autoplay-policy=no-user-gesture-required"],
        )
        try:
            page = browser.new_page()
            page.on("request", lambda r: requests.append(r.url))
            page.goto((lecture_dir / "index.html").resolve().as_uri())
            page.evaluate("lecture.video.preload = 'metadata'")  # the page loads nothing until asked
            page.wait_for_function("document.getElementById('video').readyState >= 1", timeout=20000)
            assert page.evaluate("lecture.video.duration") == pytest.approx(m["duration_s"], abs=0.1)
            # A chapter click seeks to its start.
            k = 4
            page.evaluate("lecture.video.muted = true")
            page.click(f"#chapters li:nth-child({k + 1}) button")
            page.wait_for_function("!lecture.video.seeking", timeout=5000)
            t = page.evaluate("lecture.video.currentTime")
            assert m["chapters"][k]["start_s"] - 0.01 <= t <= m["chapters"][k]["start_s"] + 1.0
            # Presenter mode: play from the start of a short section; it pauses at its end.
            short = min(
                range(len(m["chapters"]) - 1), key=lambda i: m["chapters"][i]["end_s"] - m["chapters"][i]["start_s"]
            )
            page.evaluate("lecture.video.pause()")
            page.evaluate(f"lecture.setPresenter(true); lecture.seekTo({short}, false)")
            page.wait_for_function("!lecture.video.seeking", timeout=5000)
            t0 = time.monotonic()
            page.evaluate("lecture.video.play()")
            page.wait_for_function(f"lecture.video.paused && lecture.state().holdAt === {short}", timeout=60000)
            waited = time.monotonic() - t0
            length = m["chapters"][short]["end_s"] - m["chapters"][short]["start_s"]
            assert waited >= length * 0.8, "it paused only after playing the section"
            assert page.evaluate("lecture.video.currentTime") == pytest.approx(m["chapters"][short]["end_s"], abs=0.1)
            # Space goes on into the next section; ArrowLeft steps back a section (the page's keys, where
            # no control has the focus: the chapter clicked above has it)
            page.evaluate("document.activeElement.blur()")
            page.keyboard.press("Space")
            page.wait_for_function(f"!lecture.video.paused && lecture.state().current === {short + 1}", timeout=5000)
            page.keyboard.press("ArrowLeft")
            page.wait_for_function("!lecture.video.seeking", timeout=5000)
            assert page.evaluate("lecture.state().current") in (short, short + 1)
            # The captions track is there and its cues load.
            n_cues = page.evaluate("""() => {
                const t = [...lecture.video.textTracks].find(t => t.kind === 'captions');
                return t && t.cues ? t.cues.length : -1;
            }""")
            assert n_cues == _vtt_cue_count(lecture_dir / "captions.vtt")
        finally:
            browser.close()
    assert requests and all(u.startswith(("file://", "data:", "blob:")) for u in requests), requests


def test_render_of_a_scene_is_playable(lecture_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every scene file the lecture rendered is H.264, yuv420p, 854x480 at 15 frames a second,
    decodes to its end with the frames of its record, and lasts as long as the scene built
    without rendering, with the same voice, says (a real render ends every play on a frame,
    the build keeps exact times: at most a frame short per play). No temporary file is
    left. (The renders of Embeddings, CausalMask and WordOrder that test_render.py and
    test_causal_scenes.py made for this check are these.)"""
    from attnstage.settings import env_name
    from scenes.base import LessonScene
    from scenes.inspect import build

    scenes_dir = lecture_dir.parents[1] / "scenes" / "low"
    videos = sorted(scenes_dir.glob("*.mp4"))
    assert [p.stem.split("_", 1)[1] for p in videos] == [c.__name__ for c in LECTURE]
    assert not list(scenes_dir.glob(".*.part")), "a temporary file was left behind"
    monkeypatch.setenv(env_name("voice"), "espeak")  # as the lecture was rendered
    monkeypatch.delenv(env_name("lesson"), raising=False)
    monkeypatch.setattr(LessonScene, "voice_in_dry_run", True)
    for cls, p in zip(LECTURE, videos, strict=True):
        meta = json.loads(p.with_name(p.name + ".json").read_text(encoding="utf-8"))
        assert [s["title"] for s in meta["sections"]] == cls.section_names()
        with av.open(str(p)) as c:
            v = c.streams.video[0]
            assert (v.codec_context.name, v.codec_context.pix_fmt) == ("h264", "yuv420p")
            assert (v.codec_context.width, v.codec_context.height) == (854, 480)
            assert v.base_rate == 15 and v.guessed_rate == 15
        frames = shown_frames(p)
        assert abs(frames - round(meta["duration"] * 15)) <= 1
        built = build(cls, mobjects=False).renderer
        # Each play of a real render ends on a whole frame (Manim counts its frames down), the
        # build keeps exact times: at most a frame short per play, never longer.
        short = round(built.time * 15) - frames
        assert -1 <= short <= built.num_plays, (cls.__name__, frames, built.time, built.num_plays)
