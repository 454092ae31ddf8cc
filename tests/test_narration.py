"""Narration and captions: every section narrated, cues short and in their sections,
speech inside its section (measured from the audio itself), numbers said = numbers shown.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import av
import numpy as np
import pytest
import srt
import webvtt
from conftest import built_scene
from hypothesis import given, settings
from hypothesis import strategies as st

from attnstage.speech.captions import MAX_CHARS, MAX_LINES, split_cues, timed_cues
from scenes.components import Num
from scenes.inspect import visible_texts
from scenes.lecture import LECTURE
from scenes.order import numbered

SCENES = [pytest.param(c, id=c.__name__) for c in LECTURE]
NUMBER = re.compile(r"[−-]?\d+(?:\.\d+)?")


def check_cue_text(text: str) -> None:
    assert text.strip(), "empty cue"
    lines = text.split("\n")
    assert len(lines) <= MAX_LINES, text
    for line in lines:
        assert len(line) <= MAX_CHARS or " " not in line, f"line too long: {line!r}"


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.text(alphabet=st.sampled_from("abcdefghij klmnop,.“”0123456789"), min_size=1, max_size=30),
        min_size=1,
        max_size=40,
    )
)
def test_split_cues_respects_the_limits(words: list[str]) -> None:
    text = " ".join(words)
    cues = split_cues(text)
    if not text.split():
        assert cues == []
        return
    for c in cues:
        check_cue_text(c)
    assert " ".join(" ".join(c.split()) for c in cues) == " ".join(text.split()), "no word lost or added"


def test_timed_cues_fill_the_speech_in_order() -> None:
    cues = timed_cues("One two three. " * 20, 1.0, 10.0)
    assert cues[0].start == 1.0 and cues[-1].end == pytest.approx(11.0, abs=0.01)
    assert all(a.end == pytest.approx(b.start, abs=0.002) for a, b in zip(cues, cues[1:]))


#: Issue 47: quoted sentences as the title card says them, in four languages.
QUOTING = [
    "Pesca: frutto o sport? A lecture on self-attention, step by step. We follow “pesca” through two "
    "sentences: “la pesca è un frutto dolce e succoso” and “la pesca in mare è uno sport rilassante”.",
    "Ein Wort, zwei Kontexte. Eine Vorlesung über Selbstaufmerksamkeit, Schritt für Schritt. Wir folgen "
    "„Maus“ durch zwei Sätze: „die Katze und die Maus sind Freunde“ und „der Bildschirm und die Maus sind sehr "
    "nützlich“.",
    "Un mot, deux contextes. Nous suivons «\u00a0souris\u00a0» à travers deux phrases\u00a0: «\u00a0le chat et "
    "la souris sont amis\u00a0» et «\u00a0le clavier et la souris sont très utiles\u00a0».",
    "He said “is the mouse an animal? or a device?” and then we looked at the numbers again, slowly.",
]


@pytest.mark.parametrize("text", QUOTING)
def test_cues_end_at_sentence_or_clause_ends_and_not_inside_a_short_quote(text: str) -> None:
    from attncore.i18n import breakable_words
    from attnstage.speech.captions import _inside_quote

    cues = split_cues(text)
    for c in cues:
        check_cue_text(c)
    for c in cues[:-1]:
        words = breakable_words(c)
        # a quotation that fits in one cue (two lines) is never cut
        quote_open = _inside_quote(words)[-1]
        assert not quote_open or len(c.replace("\n", " ")) > MAX_CHARS, f"cut inside a quotation: {c!r}"
    speech = 0.4 * len(text.split())
    for cue in timed_cues(text, 0.0, speech):
        assert cue.end - cue.start >= 1.5 - 1e-3, f"{cue.text!r} is shown {cue.end - cue.start:.2f} s"


def test_a_question_in_a_quotation_does_not_end_the_sentence() -> None:
    cues = split_cues("He said “is it an animal? or a device?” and we looked.")
    assert len(cues) == 1 and cues[0].replace("\n", " ") == "He said “is it an animal? or a device?” and we looked."


def test_a_cue_is_shown_at_least_one_and_a_half_seconds_where_the_speech_allows() -> None:
    from attnstage.speech.captions import _durations

    assert [round(d, 2) for d in _durations([80.0, 10.0, 10.0], 6.0, 1.5)] == [3.0, 1.5, 1.5]
    assert sum(_durations([80.0, 10.0, 10.0], 3.0, 1.5)) == pytest.approx(3.0)  # too short for all: shared


@pytest.mark.parametrize("cls", SCENES)
def test_every_section_is_narrated(cls: type) -> None:
    scene = built_scene(cls)
    said = {n.section: n.text for n in scene.narrations}
    for section in cls.section_names():
        assert len(said.get(section, "").split()) >= 5, f"{section!r} has no narration"


@pytest.mark.parametrize("cls", SCENES)
def test_sections_last_as_long_as_their_words(cls: type) -> None:
    scene = built_scene(cls)
    ends = {t: e for t, _, e in scene.section_times()}
    starts = {t: s for t, s, _ in scene.section_times()}
    for n in scene.narrations:
        assert n.start >= starts[n.section]
        assert n.start + n.speech <= ends[n.section] + 1e-6


@pytest.mark.parametrize("cls", SCENES)
def test_numbers_said_are_numbers_shown(cls: type) -> None:
    """Every number in a section's narration is on screen at that section's end (where
    the scene tests prove it equals the trace)."""
    scene = built_scene(cls)
    shown = {
        cp.section: {
            s.mob.text.replace("−", "-").removeprefix("≈") for s in visible_texts(cp) if isinstance(s.mob, Num)
        }
        for cp in scene.checkpoints
    }
    for n in scene.narrations:
        # "under 0.01" (attncore.display.said) is a bound, said of a positive number shown as 0.00
        for number in NUMBER.findall(re.sub(r"\b(?:under|above) [−-]?\d+(?:\.\d+)?", "", n.text)):
            assert number.replace("−", "-") in shown[n.section], f"{n.section}: says {number} but does not show it"


def test_narration_follows_the_lesson() -> None:
    """Another lesson: the narration says its words, not the default ones."""
    from scenes.steps.embeddings import Embeddings

    scene = built_scene(Embeddings, "bank")
    text = " ".join(n.text for n in scene.narrations)
    assert "bank" in text and "river" in text and "nature" in text
    assert "mouse" not in text and "animal" not in text


# -- on the rendered lecture (with --voice espeak) ----------------------------------------
def test_caption_files_parse_and_cues_stay_in_their_sections(lecture_dir: Path) -> None:
    m = json.loads((lecture_dir / "manifest.json").read_text(encoding="utf-8"))
    assert {c["path"] for c in m["captions"]} == {"captions.vtt", "captions.srt"}
    subs = list(srt.parse((lecture_dir / "captions.srt").read_text(encoding="utf-8")))
    vtt = webvtt.read(str(lecture_dir / "captions.vtt"))
    assert len(subs) == len(vtt) > 0
    chapters = m["chapters"]
    for sub, cue in zip(subs, vtt):
        start, end = sub.start.total_seconds(), sub.end.total_seconds()
        h, mnt, sec = cue.start.split(":")  # webvtt-py's start_in_seconds drops the milliseconds
        assert int(h) * 3600 + int(mnt) * 60 + float(sec) == pytest.approx(start, abs=0.002)
        check_cue_text(sub.content)
        assert sub.content == cue.text
        assert 0 <= start < end <= m["duration_s"] + 1e-3
        inside = [c for c in chapters if c["start_s"] - 1e-3 <= start and end <= c["end_s"] + 1e-3]
        assert inside, f"cue {sub.content!r} ({start:.2f}-{end:.2f}) crosses a section boundary"


def test_narration_file_is_readable(lecture_dir: Path) -> None:
    text = (lecture_dir / "narration.md").read_text(encoding="utf-8")
    lines = text.splitlines()
    for cls in LECTURE:
        assert f"## {numbered(cls.__name__, cls.TITLE)}" in text or not cls.TITLE
        for s in cls.section_names():
            assert f"### {s} (" in text
    for k, line in enumerate(lines):  # every heading has words under it (or a heading of a lower level)
        if line.startswith("## "):
            assert next(x for x in lines[k + 1:] if x.strip()).startswith("### "), line
        elif line.startswith("### "):
            assert not next((x for x in lines[k + 1:] if x.strip()), "#").startswith("#"), line


def audio_envelope(path: Path) -> tuple[np.ndarray, float]:
    """RMS level of the sound track in 20 ms windows, and the window length in seconds."""
    with av.open(str(path)) as c:
        a = c.streams.audio[0]
        rate = a.codec_context.sample_rate
        chunks = [f.to_ndarray().astype(np.float64).mean(axis=0) for f in c.decode(a)]
    samples = np.concatenate(chunks)
    win = int(rate * 0.02)
    n = len(samples) // win
    rms = np.sqrt((samples[: n * win].reshape(n, win) ** 2).mean(axis=1))
    return rms, 0.02


def test_audio_lasts_as_long_as_the_video(lecture_dir: Path) -> None:
    with av.open(str(lecture_dir / "lecture.mp4")) as c:
        v, a = c.streams.video[0], c.streams.audio[0]
        assert a.codec_context.name == "aac"
        video_s = float(v.duration * v.time_base)
        audio_s = float(a.duration * a.time_base)
    assert abs(audio_s - video_s) <= 0.5


def test_speech_starts_and_ends_inside_each_section(lecture_dir: Path) -> None:
    m = json.loads((lecture_dir / "manifest.json").read_text(encoding="utf-8"))
    rms, step = audio_envelope(lecture_dir / "lecture.mp4")
    loud = rms > max(0.01, rms.max() * 0.03)
    for c in m["chapters"]:
        i0, i1 = int(c["start_s"] / step), int(c["end_s"] / step)
        window = loud[i0:i1]
        assert window.any(), f"no speech in {c['title']!r}"
        # Silence at both edges: the words start after the section starts, end before it ends.
        assert not loud[i0 : i0 + 5].any(), f"speech already running when {c['title']!r} starts"
        assert not loud[max(i0, i1 - 5) : i1].any(), f"speech still running when {c['title']!r} ends"


def test_narration_file_has_no_empty_heading() -> None:
    """A scene or a section that says nothing gets no heading in narration.md (issue 24)."""
    from attnvid.publish.assemble import narration_markdown
    from attnvid.render.jobs import Result

    said = [{"section": "Softmax", "text": "Divide by the sum.", "start_s": 0.0, "speech_s": 1.0, "spoken": True}]
    silent = [{"section": "Title", "text": "  ", "start_s": 0.0, "speech_s": 0.0, "spoken": False}]
    results = [Result("TitleCard", "a.mp4", 0, True, 3.0, narration=silent),
               Result("Softmax", "b.mp4", 0, True, 5.0, narration=said)]
    text = narration_markdown("Lesson", results, ["Title card", "Softmax"])
    lines = text.splitlines()
    assert "## Title card" not in text and "## Softmax" in text and "### Softmax (00:03)" in text
    for k, line in enumerate(lines):
        if line.startswith("#"):
            after = next((x for x in lines[k + 1:] if x.strip()), "")
            assert after and (line.startswith("# ") or not after.startswith("#") or after.startswith("###")), line


def test_chinese_captions_are_cut_by_character() -> None:
    """Chinese has no spaces: cues of two lines of at most 16 characters, cut at sentence and
    clause ends, never starting a line with closing punctuation nor cutting a number; read at
    9 characters a second."""
    from attnstage.speech.captions import CJK_PER_SECOND, MAX_CJK_CHARS, is_cjk, reading_seconds, split_cues

    text = ("我们在两个句子中跟随“苹果”：“我 吃 了 新鲜 的 苹果”和“我 用 手机 打开 苹果 商店”。"
            "现在看第一句：“苹果” 把 0.68 的注意力给了 “新鲜”，0.21 给了它自己，其余的词几乎不算。"
            "所以它的输出偏向水果。这就是注意力的意义所在，它让同一个词在不同语境里变成不同的向量。")
    assert is_cjk(text) and not is_cjk("Take “cat”: it has 3 in animal.")
    cues = split_cues(text)
    assert len(cues) >= 4 and "".join("".join(c.split()) for c in cues) == "".join(text.split())
    for cue in cues:
        lines = cue.split("\n")
        # closing marks may hang past the line's room (they never start a line)
        assert len(lines) <= 2 and all(len(line.rstrip("，。、；：！？”’）")) <= MAX_CJK_CHARS for line in lines), cue
        assert not any(line[0] in "，。、；：！？”" for line in lines), cue
        assert not any(line[-1] in "“‘（《" for line in lines), cue  # an opening mark goes with its word
    assert any(c.endswith("。") for c in cues) and "0.68" in "".join(cues) and "0.21" in "".join(cues)
    assert reading_seconds(text) == len("".join(text.split())) / CJK_PER_SECOND


def test_french_captions_never_break_at_a_no_break_space() -> None:
    """French sets a no-break space inside « » and before : ; ? !: a caption line never starts
    with », :, ; or ?, nor ends with «, and the words around them stay whole."""
    from attncore.i18n import quoted, use

    with use("fr"):
        word = quoted("souris")
    text = (f"Nous suivons {word} dans deux phrases\u00a0: « le chat et la souris sont amis » et "
            f"« l'écran et la souris sont très utiles ». Pourquoi\u00a0? Parce que {word} change de sens.")
    text = text.replace("« ", "«\u00a0").replace(" »", "\u00a0»")
    cues = split_cues(text)
    lines = [line for cue in cues for line in cue.split("\n")]
    assert len(lines) > 2
    for line in lines:
        assert line[0] not in "»:;?!" and not line.endswith("«"), lines
    assert " ".join(lines).split() == text.split(), "nothing lost or added"
