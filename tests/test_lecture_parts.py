"""A lecture in parts (issue #15, point 5): the lesson's ``[lecture]`` table, its checks,
``attnvid list``, and the part videos ``attnvid lecture`` writes.

The table's shape is checked by attncore (the corpus in tests/bad_lessons/, files
``lecture_*``); whether its names are scenes, each named once, in lecture order, only the
application knows: those failures are driven here through every command that takes a
lesson, and through ``batch``.
"""

from __future__ import annotations

import json
import subprocess
import tomllib
from pathlib import Path

import av
import pytest
from conftest import ATTNVID, ROOT
from test_bad_input import BASE, Attnvid, assert_one_line, attnvid_here, commands_with

from attncore import LessonError, builtin_lesson, builtin_lessons, parse_lesson
from attnvid.catalog import Part, lecture_parts
from scenes.order import numbered

__all__ = ["attnvid_here"]  # the fixture, used here too

DEFAULT = (ROOT / "attncore" / "lessons" / "default.toml").read_text(encoding="utf-8")

#: Two parts, three short scenes (about 30 s each at low quality), named in three ways.
TWO_PARTS = """
[[lecture.parts]]
title = "First look"
scenes = ["simplifiedattention", "reading"]

[[lecture.parts]]
title = "Context"
scenes = ["TwoContexts"]
"""


def table(*parts: tuple[str, str]) -> str:
    return "".join(f'\n[[lecture.parts]]\ntitle = "{t}"\nscenes = {s}\n' for t, s in parts)


def test_without_a_table_a_lesson_gets_the_default_parts() -> None:
    from scenes.lecture import LECTURE, PARTS

    for name in builtin_lessons():
        parts = lecture_parts(builtin_lesson(name))
        assert [(p.title, p.scenes) for p in parts] == list(PARTS)
    assert [c for p in PARTS for c in p[1]] == list(LECTURE)
    assert [t for t, _ in PARTS] == ["The core mechanism", "Learned weights and heads", "Decoders and positions"]


def test_names_are_matched_in_any_case_by_class_or_file() -> None:
    from scenes.lecture import ReadingAttention, SimplifiedAttention, TwoContexts

    lesson = parse_lesson(tomllib.loads(DEFAULT + TWO_PARTS), "two.toml")
    assert lecture_parts(lesson) == (Part("First look", (SimplifiedAttention, ReadingAttention)),
                                     Part("Context", (TwoContexts,)))


def test_the_table_leaves_the_scenes_cache_keys_alone() -> None:
    """Which scenes a lecture holds changes how none of them renders: ``repr(lesson)`` (the
    lesson's part of every cache key) is the same with or without the table."""
    plain = parse_lesson(tomllib.loads(DEFAULT), "two.toml")
    parted = parse_lesson(tomllib.loads(DEFAULT + TWO_PARTS), "two.toml")
    assert repr(plain) == repr(parted) and plain != parted
    built_in = parse_lesson(tomllib.loads(DEFAULT), "built-in")
    assert repr(built_in) == repr(plain) and built_in != plain, "nor does where the lesson was read from"


#: (the table, what the one line says): names the application checks.
BAD_NAMES = [
    (table(("A", '["Embeddings", "Softmx"]')),
     "lecture.parts[1].scenes[2]: 'Softmx' is not a scene of the lecture; did you mean 'Softmax'? use one of "
     "TitleCard, Embeddings, SimplifiedAttention,"),
    (table(("A", '["Zebra"]')), "lecture.parts[1].scenes[1]: 'Zebra' is not a scene of the lecture; use one of"),
    (table(("A", '["Softmax", "softmax"]')),
     "lecture.parts[1].scenes[2]: 'softmax' is Softmax, already in lecture.parts[1]; name every scene once"),
    (table(("A", '["Softmax"]'), ("B", '["SOFTMAX"]')),
     "lecture.parts[2].scenes[1]: 'SOFTMAX' is Softmax, already in lecture.parts[1]; name every scene once"),
    (table(("A", '["Softmax"]'), ("B", '["Scaling"]')),
     "lecture.parts[2].scenes[1]: Scaling comes before Softmax in the lecture; list the scenes in lecture order"),
]


@pytest.mark.parametrize(
    ("text", "says"), BAD_NAMES, ids=["misspelt", "unknown", "twice", "twice-in-two-parts", "order"]
)
def test_bad_scene_names_raise_one_line(text: str, says: str) -> None:
    lesson = parse_lesson(tomllib.loads(DEFAULT + text), "bad.toml")  # the shape is right: attncore takes it
    with pytest.raises(LessonError) as exc:
        lecture_parts(lesson)
    assert str(exc.value).startswith(f"bad.toml: {says}") and "\n" not in str(exc.value)


@pytest.mark.parametrize("command", commands_with("lesson_path"))
def test_bad_scene_names_through_every_command(command: str, attnvid_here: Attnvid, tmp_path: Path) -> None:
    for k, (text, says) in enumerate(BAD_NAMES):
        path = tmp_path / f"bad{k}.toml"
        path.write_text(DEFAULT + text, encoding="utf-8")
        args = [*BASE[command], "--lesson", str(path)]
        r = attnvid_here(*args)
        assert_one_line(r, args, tmp_path)
        assert r.code == 2 and r.err.startswith(f"attnvid: error: {path}: {says}"), (args, r.err)


def test_bad_scene_names_in_a_batch_one_line_each(attnvid_here: Attnvid, tmp_path: Path) -> None:
    for k in (0, 4):
        (tmp_path / f"bad{k}.toml").write_text(DEFAULT + BAD_NAMES[k][0], encoding="utf-8")
    r = attnvid_here("batch", "bad0.toml", "bad4.toml")
    assert r.code == 2 and r.out == ""
    lines = r.err.splitlines()
    assert len(lines) == 2 and "'Softmx' is not a scene" in lines[0] and "Scaling comes before Softmax" in lines[1]
    assert not (tmp_path / "media").exists()


def run(*args: str, cwd: Path, timeout: int = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([ATTNVID, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout)


def test_list_shows_the_lessons_parts(tmp_path: Path) -> None:
    (tmp_path / "two.toml").write_text(DEFAULT + TWO_PARTS, encoding="utf-8")
    r = run("list", "--lesson", "two.toml", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    heads = [line for line in r.stdout.splitlines() if not line.startswith(" ")]
    assert heads == ["Part 1: First look", "Part 2: Context"]
    assert "Part 1: First look\n   2. SimplifiedAttention  (scenes/steps/simplified.py)\n" in r.stdout
    assert "\nPart 2: Context\n   8. TwoContexts  (scenes/steps/two_contexts.py)\n" in r.stdout
    assert "Embeddings" not in r.stdout, "only the lesson's scenes"
    rows = json.loads(run("list", "--json", "--lesson", "two.toml", cwd=tmp_path).stdout)
    assert [(x["part"], x["part_title"], x["scene"], x["index"]) for x in rows] == [
        (1, "First look", "SimplifiedAttention", 2), (1, "First look", "ReadingAttention", 6),
        (2, "Context", "TwoContexts", 8)]


def test_list_shows_the_default_parts(tmp_path: Path) -> None:
    r = run("list", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    heads = [line for line in r.stdout.splitlines() if not line.startswith(" ")]
    assert heads == [
        "Part 1: The core mechanism",
        "Part 2: Learned weights and heads",
        "Part 3: Decoders and positions",
    ]
    assert "\nPart 2: Learned weights and heads\n   9. LearningTheWeights  (scenes/steps/training.py)\n" in r.stdout
    rows = json.loads(run("list", "--json", cwd=tmp_path).stdout)
    assert [x["part"] for x in rows] == [1] * 9 + [2] * 4 + [3] * 2  # the title card opens part 1


def video_s(path: Path) -> float:
    with av.open(str(path)) as c:
        v = c.streams.video[0]
        assert v.duration is not None and v.time_base
        return float(v.duration * v.time_base)


@pytest.mark.render
def test_a_lecture_in_two_parts(tmp_path: Path, lecture_dir: Path) -> None:
    """The lecture holds the lesson's three scenes; each part is a video of its scenes
    (their summed length, to a frame), with its chapters in the file, its chapters.vtt and
    its captions; the manifest, the page and the deck list the parts.

    The lesson is the default one with a [lecture] table, which changes no scene's cache key:
    its scenes, as the run's lecture rendered them (same voice, same quality), are found
    unchanged and not rendered again."""
    import shutil

    import webvtt
    from pptx import Presentation

    from scenes.lecture import ReadingAttention, SimplifiedAttention, TwoContexts

    (tmp_path / "two.toml").write_text(DEFAULT + TWO_PARTS, encoding="utf-8")
    rendered = tmp_path / "media" / "two" / "scenes" / "low"
    rendered.mkdir(parents=True)
    for scene in ("SimplifiedAttention", "ReadingAttention", "TwoContexts"):
        for f in (lecture_dir.parents[1] / "scenes" / "low").glob(f"*_{scene}.*"):
            shutil.copy2(f, rendered / f.name)
    r = run("lecture", "--quality", "low", "--voice", "espeak", "--lesson", "two.toml", cwd=tmp_path, timeout=1800)
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stderr.count("unchanged, not rendered") == 3 and "rendered in" not in r.stderr, r.stderr[-2000:]
    folder = tmp_path / r.stdout.strip().splitlines()[-1]
    assert folder == tmp_path / "media" / "two" / "lecture" / "low", "the last line is still the lecture folder"
    m = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    scenes = {p.stem.split("_", 1)[1]: p for p in (tmp_path / "media" / "two" / "scenes" / "low").glob("*.mp4")}
    assert set(scenes) == {"SimplifiedAttention", "ReadingAttention", "TwoContexts"}, "only the lesson's scenes"
    chosen = (SimplifiedAttention, ReadingAttention, TwoContexts)
    assert [c["title"] for c in m["chapters"]] == [
        f"{numbered(c.__name__, c.TITLE)} — {s}" for c in chosen for s in c.section_names()
    ]
    assert [(p["title"], p["scenes"]) for p in m["parts"]] == [
        ("First look", ["SimplifiedAttention", "ReadingAttention"]), ("Context", ["TwoContexts"])]
    frame = 1 / 15
    assert sum(p["duration_s"] for p in m["parts"]) == pytest.approx(m["duration_s"], abs=2 * frame)
    for n, p in enumerate(m["parts"], 1):
        video = folder / p["video"]
        assert p["video"] == f"parts/part-{n}.mp4" and video.is_file()
        expected = sum(video_s(scenes[s]) for s in p["scenes"])
        assert video_s(video) == pytest.approx(expected, abs=1.01 * frame)
        assert p["duration_s"] == pytest.approx(expected, abs=1.01 * frame)
        with av.open(str(video)) as c:
            chapters = c.chapters()
            assert c.streams.audio, "the narration's sound comes along"
        in_lecture = [
            c for c in m["chapters"] if p["start_s"] - 1e-3 <= c["start_s"] < p["start_s"] + p["duration_s"] - 1e-3
        ]
        assert [ch["metadata"]["title"] for ch in chapters] == [c["title"] for c in p["chapters"]] == \
            [c["title"] for c in in_lecture]
        starts = [float(ch["start"] * ch["time_base"]) for ch in chapters]
        assert starts[0] == 0 and starts == sorted(starts)
        assert p["chapters"][-1]["end_s"] == pytest.approx(p["duration_s"], abs=frame)
        assert (folder / p["chapters_vtt"]).read_text(encoding="utf-8").startswith("WEBVTT")
        vtt, srt = (folder / c["path"] for c in p["captions"])
        cues = webvtt.read(str(vtt))
        scene_cues = sum(len(webvtt.read(str(scenes[s].with_suffix(".vtt")))) for s in p["scenes"])
        assert len(cues) == scene_cues > 0 and srt.is_file()
        assert cues[-1].end_in_seconds <= p["duration_s"] + 0.01
    assert [c["title"] for c in m["chapters"]] == [c["title"] for p in m["parts"] for c in p["chapters"]]
    page = (folder / "index.html").read_text(encoding="utf-8")
    assert "Part 1 · First look" in page and 'src="parts/part-1.mp4"' in page and 'src="parts/part-2.mp4"' in page
    prs = Presentation(str(folder / m["slides"]))
    titles = [s.shapes.title.text for s in prs.slides if s.slide_layout.name == "Title Slide"]
    assert titles == ["Part 1: First look", "Part 2: Context"]
    assert len(prs.slides) == len(m["sections"]) + 2
