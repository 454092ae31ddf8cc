"""Section clips, the deck (lecture.pptx) and the handout (handout.pdf) of the lecture folder.

The cutting is checked on small videos made here (a section on a key frame is copied; one
that is not has its head re-encoded, or the whole clip when the encoders differ); the
rest reads the lecture the session renders once (``lecture_dir``, conftest.py): the
clips against the scene files packet by packet, the deck through python-pptx and
LibreOffice Impress, the handout through poppler's pdfinfo and pdftotext.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import av
import numpy as np
import pytest
from PIL import Image

from attnvid.publish.clips import X264_OPTIONS, cut_clip

FPS = 15
SOFFICE = shutil.which("soffice")


# -- cutting, on videos made here --------------------------------------------------------------
def make_video(path: Path, frames: int = 60, keyint: int = 30, options: dict[str, str] | None = None) -> None:
    """A 320×180 video with sound: a bar that grows one step per frame, a 440 Hz tone."""
    with av.open(str(path), "w", format="mp4") as c:
        v = c.add_stream("libx264", rate=FPS, options={**X264_OPTIONS, "g": str(keyint), "sc_threshold": "0",
                                                       **(options or {})})
        v.width, v.height, v.pix_fmt = 320, 180, "yuv420p"
        a = c.add_stream("aac", rate=48000)
        for k in range(frames):
            img = np.zeros((180, 320, 3), np.uint8)
            img[:, : 5 * k + 5] = (200, 80, 40)
            img[k % 180, :] = 255
            frame = av.VideoFrame.from_ndarray(img, format="rgb24")
            frame.pts = k
            for p in v.encode(frame):
                c.mux(p)
        for p in v.encode(None):
            c.mux(p)
        tone = (0.3 * np.sin(2 * np.pi * 440 * np.arange(48000 * frames // FPS) / 48000)).astype(np.float32)
        for i in range(0, len(tone), 1024):
            chunk = av.AudioFrame.from_ndarray(tone[None, i:i + 1024], format="fltp", layout="mono")
            chunk.sample_rate, chunk.pts = 48000, i
            for p in a.encode(chunk):
                c.mux(p)
        for p in a.encode(None):
            c.mux(p)


def decoded(path: Path) -> list[np.ndarray]:
    with av.open(str(path)) as c:
        return [f.to_ndarray(format="rgb24").astype(np.int16) for f in c.decode(video=0)]


def durations(path: Path) -> tuple[float, float | None]:
    """Seconds of video and of sound (None: a silent video)."""
    with av.open(str(path)) as c:
        v = c.streams.video[0]
        assert v.duration is not None and v.time_base
        if not c.streams.audio:
            return float(v.duration * v.time_base), None
        a = c.streams.audio[0]
        assert a.duration is not None and a.time_base
        return float(v.duration * v.time_base), float(a.duration * a.time_base)


def close(a: np.ndarray, b: np.ndarray) -> bool:
    return float(np.abs(a - b).mean()) < 2.0


def test_a_part_that_starts_on_a_key_frame_is_copied(tmp_path: Path) -> None:
    src, out = tmp_path / "scene.mp4", tmp_path / "clip.mp4"
    make_video(src)
    cut = cut_clip(src, 30 / FPS, 50 / FPS, out)
    assert (cut.frames, cut.reencoded, cut.whole) == (20, 0, False)
    frames, clip = decoded(src), decoded(out)
    assert len(clip) == 20 and all((a == b).all() for a, b in zip(frames[30:50], clip)), "copied, not re-encoded"
    video_s, sound_s = durations(out)
    assert video_s == pytest.approx(20 / FPS, abs=0.5 / FPS) and sound_s == pytest.approx(video_s, abs=0.03)


def test_a_part_that_does_not_start_on_a_key_frame_has_its_head_re_encoded(tmp_path: Path) -> None:
    src, out = tmp_path / "scene.mp4", tmp_path / "clip.mp4"
    make_video(src)
    cut = cut_clip(src, 10 / FPS, 50 / FPS, out)
    assert (cut.frames, cut.reencoded, cut.whole) == (40, 20, False), "frames 10 to 29, up to the key frame at 30"
    frames, clip = decoded(src), decoded(out)
    assert len(clip) == 40
    assert all(close(a, b) for a, b in zip(frames[10:30], clip[:20])), "the head looks the same"
    assert all((a == b).all() for a, b in zip(frames[30:50], clip[20:])), "the rest is copied"
    assert durations(out)[1] == pytest.approx(40 / FPS, abs=0.03)


def test_another_encoders_part_is_re_encoded_whole(tmp_path: Path) -> None:
    src, out = tmp_path / "scene.mp4", tmp_path / "clip.mp4"
    make_video(src, options={"crf": "30", "bframes": "0"})
    cut = cut_clip(src, 10 / FPS, 50 / FPS, out)
    assert (cut.frames, cut.reencoded, cut.whole) == (40, 40, True)
    frames, clip = decoded(src), decoded(out)
    assert len(clip) == 40 and all(close(a, b) for a, b in zip(frames[10:50], clip))


# -- the lecture folder ------------------------------------------------------------------------
def manifest(folder: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    return data


def scene_records(folder: Path) -> dict[str, dict[str, Any]]:
    """The render record (sidecar) of every scene of the lecture, by class name."""
    out = {}
    for p in sorted((folder.parents[1] / "scenes" / "low").glob("*.mp4")):
        out[p.stem.split("_", 1)[1]] = {**json.loads(p.with_name(p.name + ".json").read_text(encoding="utf-8")),
                                        "path": p}
    return out


def narration_of(folder: Path, scene: str, section: str) -> str:
    return next(n["text"] for n in scene_records(folder)[scene]["narration"] if n["section"] == section)


def video_packets(path: Path, start_s: float = 0, end_s: float = float("inf")) -> list[bytes]:
    with av.open(str(path)) as c:
        v = c.streams.video[0]
        assert v.time_base is not None
        half = 0.5 / FPS
        return [bytes(p) for p in sorted((p for p in c.demux(v) if p.pts is not None), key=lambda p: p.dts or 0)
                if start_s - half <= float(p.pts * v.time_base) < end_s - half]


@pytest.mark.render
def test_every_section_is_a_clip_of_its_own(lecture_dir: Path) -> None:
    m = manifest(lecture_dir)
    sections = m["sections"]
    assert len(sections) == len(m["chapters"])
    records = scene_records(lecture_dir)
    offset = {}
    total = 0.0
    for scene, rec in records.items():
        offset[scene] = total
        total += rec["duration"]
    for s, chapter in zip(sections, m["chapters"]):
        whole = s["title"] if s["scene"] == "TitleCard" else f" — {s['title']}"  # the title card: no scene title
        assert chapter["title"].endswith(whole) and not chapter["title"].startswith(" ")
        assert (s["start_s"], s["end_s"]) == (pytest.approx(chapter["start_s"]), pytest.approx(chapter["end_s"]))
        assert not Path(s["path"]).is_absolute() and s["path"].startswith("sections/")
        clip = lecture_dir / s["path"]
        rec = records[s["scene"]]
        start, end = s["start_s"] - offset[s["scene"]], s["end_s"] - offset[s["scene"]]
        # Stream copy: the clip's video packets are the scene's, byte for byte.
        assert video_packets(clip) == video_packets(rec["path"], start, end), s["path"]
        video_s, sound_s = durations(clip)
        assert video_s == pytest.approx(end - start, abs=1.01 / FPS)
        assert (sound_s is None) == (m["voice"] == "none")
        assert sound_s is None or sound_s == pytest.approx(video_s, abs=0.05)
        with Image.open(lecture_dir / s["poster"]) as img:
            assert img.size == (854, 480)
    assert not list((lecture_dir / "sections").glob(".*.part"))


@pytest.mark.render
def test_the_deck_has_a_playing_slide_per_section(lecture_dir: Path) -> None:
    from pptx import Presentation
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    m = manifest(lecture_dir)
    assert m["slides"] == "lecture.pptx"
    prs = Presentation(str(lecture_dir / m["slides"]))
    assert (prs.slide_width, prs.slide_height) == (12192000, 6858000), "16:9"
    slides = list(prs.slides)
    assert len(slides) == len(m["sections"]) + len(m["parts"]), "a slide per section, a title slide per part"
    titles = [sl.shapes.title.text for sl in slides if sl.slide_layout.name == "Title Slide"]
    assert titles == [f"Part {n}: {p['title']}" for n, p in enumerate(m["parts"], 1)]
    slides = [sl for sl in slides if sl.slide_layout.name != "Title Slide"]
    for slide, s in zip(slides, m["sections"], strict=True):
        whole = s["title"] if s["scene"] == "TitleCard" else f" — {s['title']}"
        assert slide.shapes.title is not None and slide.shapes.title.text.endswith(whole)
        assert not slide.shapes.title.text.startswith(" ")
        movies = [sh for sh in slide.shapes if sh.shape_type == MSO_SHAPE_TYPE.MEDIA]
        assert len(movies) == 1
        movie = movies[0]
        assert (movie.left, movie.top, movie.width, movie.height) == (0, 0, prs.slide_width, prs.slide_height)
        parts = {rel.reltype.rsplit("/", 1)[-1]: rel.target_part for rel in slide.part.rels.values()}
        assert parts["media"].blob == (lecture_dir / s["path"]).read_bytes(), "the section's clip"
        assert parts["image"].blob == (lecture_dir / s["poster"]).read_bytes(), "its last frame as the poster"
        # It plays as the slide opens: the main sequence calls playFrom(0.0) on this movie.
        xml = slide._element
        assert xml.xpath(".//p:cond[@evt='onBegin']/@delay") == ["0"]
        assert xml.xpath(".//p:cmd[@type='call']/@cmd") == ["playFrom(0.0)"]
        assert {int(i) for i in xml.xpath(".//p:timing//p:spTgt/@spid")} == {movie.shape_id}
        ids = xml.xpath(".//p:timing//p:cTn/@id")
        assert len(ids) == len(set(ids))
        assert slide.has_notes_slide
        assert slide.notes_slide.notes_text_frame.text == narration_of(lecture_dir, s["scene"], s["title"])


@pytest.mark.render
def test_impress_shows_one_page_per_slide(lecture_dir: Path, tmp_path: Path) -> None:
    assert SOFFICE, "LibreOffice is missing: run bash .ci/setup --tests (it installs libreoffice-impress-nogui)"
    m = manifest(lecture_dir)
    r = subprocess.run(
        [
            SOFFICE,
            f"-env:UserInstallation={(tmp_path / 'profile').as_uri()}",
            "--headless",
            "--norestore",
            "--convert-to",
            "pdf",
            "--outdir",
            str(tmp_path),
            str(lecture_dir / m["slides"]),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    pdf = tmp_path / "lecture.pdf"
    assert r.returncode == 0 and pdf.is_file(), r.stdout + r.stderr
    assert pdf_pages(pdf) == len(m["sections"]) + len(m["parts"])
    text = " ".join(pdf_text(pdf).split())
    for n, p in enumerate(m["parts"], 1):
        assert f"Part {n}: {p['title']}" in text
    for s in m["sections"]:
        assert s["title"] in text, s["title"]  # each slide's title, behind its video


def pdf_pages(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    found = re.search(r"^Pages:\s+(\d+)$", info, re.M)
    assert found, info
    return int(found.group(1))


def pdf_text(pdf: Path, first: int | None = None, last: int | None = None) -> str:
    pages = [*(["-f", str(first)] if first else []), *(["-l", str(last)] if last else [])]
    return subprocess.run(["pdftotext", "-enc", "UTF-8", *pages, str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout


@pytest.mark.render
def test_the_handout_prints_two_sections_to_a_page(lecture_dir: Path) -> None:
    """A title page, then two sections to a page (half the pages of one a page), each with
    its title and its whole narration."""
    m = manifest(lecture_dir)
    pdf = lecture_dir / m["handout"]
    assert m["handout"] == "handout.pdf"
    sections = m["sections"]
    assert pdf_pages(pdf) == 1 + (len(sections) + 1) // 2, "a title page, then two sections a page"
    title = " ".join(pdf_text(pdf, 1, 1).split())
    assert m["title"] in title and "cat and mouse are friends" in title and "keyboard and mouse are useful" in title
    for k, s in enumerate(sections):
        page = " ".join(pdf_text(pdf, 2 + k // 2, 2 + k // 2).split())
        assert s["title"] in page, (k, s["title"])
        said = narration_of(lecture_dir, s["scene"], s["title"])
        assert " ".join(said.split()) in page, f"section {k + 1}: the whole narration, wrapped"


@pytest.mark.render
def test_the_handout_frames_are_light_and_print_sharp(lecture_dir: Path, tmp_path: Path) -> None:
    """Every frame printed at 150 dpi or more at its printed size (pdfimages' x-ppi and
    y-ppi), light although the lecture's video is dark, and the pages light."""
    pdf = lecture_dir / "handout.pdf"
    rows = subprocess.run(["pdfimages", "-list", str(pdf)], capture_output=True, text=True, check=True).stdout
    images = [line.split() for line in rows.splitlines()[2:] if line.strip()]
    assert len(images) == len(manifest(lecture_dir)["sections"])
    assert all(int(r[12]) >= 150 and int(r[13]) >= 150 for r in images), [r[12:14] for r in images]
    subprocess.run(["pdfimages", "-j", "-f", "2", "-l", "3", str(pdf), str(tmp_path / "img")], check=True)
    subprocess.run(["pdftoppm", "-r", "30", "-png", "-f", "2", "-l", "3", str(pdf), str(tmp_path / "page")], check=True)
    for path in [*tmp_path.glob("img-*"), *tmp_path.glob("page-*")]:
        with Image.open(path) as img:
            assert np.asarray(img.convert("L")).mean() > 200, f"{path.name} is dark"
    with Image.open(next(iter(sorted((lecture_dir / "posters").glob("*.png"))))) as poster:
        assert np.asarray(poster.convert("L")).mean() < 80, "the video itself stays dark"


@pytest.mark.render
def test_the_page_links_the_deck_the_handout_and_the_workbook(lecture_dir: Path) -> None:
    m = manifest(lecture_dir)
    page = (lecture_dir / "index.html").read_text(encoding="utf-8")
    for key, name in (("slides", "lecture.pptx"), ("handout", "handout.pdf"), ("workbook", "workbook.xlsx")):
        assert m[key] == name and (lecture_dir / name).is_file()
        assert f'href="{name}"' in page, name


@pytest.mark.render
def test_the_same_lecture_gives_the_same_deck_and_handout(lecture_dir: Path, tmp_path: Path) -> None:
    from attncore import default_lesson
    from attnvid.publish.clips import SectionClip
    from attnvid.publish.deck import DeckPart, write_deck
    from attnvid.publish.handout import write_handout

    m = manifest(lecture_dir)
    clips = [SectionClip(s["scene"], "", s["title"], s["path"], s["poster"], s["start_s"], s["end_s"],
                         narration_of(lecture_dir, s["scene"], s["title"])) for s in m["sections"][:3]]
    digests = []
    for k in range(2):
        write_deck(tmp_path / f"d{k}.pptx", lecture_dir, "t", clips, [DeckPart("p", [clips[0].scene])])
        write_handout(tmp_path / f"h{k}.pdf", lecture_dir, default_lesson(), clips, 60.0)
        digests.append([hashlib.sha256((tmp_path / f"{x}{k}.{e}").read_bytes()).hexdigest()
                        for x, e in (("d", "pptx"), ("h", "pdf"))])
    assert digests[0] == digests[1]


#: Written by a process that valgrind watches: a handout of three sections, tiny frames.
_HANDOUT_UNDER_VALGRIND = """
import sys
from pathlib import Path
from PIL import Image
from attnstage.settings import SceneSettings
from attnvid.lessons import get_lesson
from attnvid.publish.clips import SectionClip
from attnvid.publish.handout import write_handout
folder = Path(sys.argv[1])
Image.new("RGB", (64, 36), (200, 100, 50)).save(folder / "p.png")
clips = [SectionClip("S", "1 · S", f"T{k}", "x.mp4", "p.png", k, k + 1, "words") for k in range(3)]
write_handout(folder / "h.pdf", folder, get_lesson(SceneSettings()), clips, 3.0)
"""


@pytest.mark.slow
def test_the_handout_reads_no_freed_memory_in_cairo(tmp_path: Path) -> None:
    """The shared lecture once died of SIGSEGV at the handout's ``show_page``, only under load:
    pycairo freed a frame's JPEG data from inside cairo's destroy of that frame (a read of
    freed memory, which valgrind reports every time; a crash only when the heap was reused).
    The handout keeps its frames to the end and detaches their data first
    (``handout._release``): valgrind must find no invalid access under cairo."""
    import sys

    script = tmp_path / "handout.py"
    script.write_text(_HANDOUT_UNDER_VALGRIND, encoding="utf-8")
    r = subprocess.run(["valgrind", "--error-limit=no", sys.executable, str(script), str(tmp_path)],
                       capture_output=True, text=True, timeout=600, env={**os.environ, "PYTHONMALLOC": "malloc"})
    assert r.returncode == 0, r.stderr[-3000:]
    assert (tmp_path / "h.pdf").stat().st_size > 0
    # valgrind's records are blank-line separated; the loader's own (dl-load.c) are not ours
    records = [rec for rec in re.split(r"\n==\d+==\s*\n", r.stderr) if "Invalid" in rec]
    ours = [rec for rec in records if "cairo" in rec]
    assert not ours, ours[0][-2000:]
