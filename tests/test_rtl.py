"""Right-to-left text drawn right (issue 47): Arabic and Hebrew words, sentences, names and titles.

- Pango draws an Arabic or Hebrew text whole (it used to lay it out past the SVG's right edge,
  where an Arabic word came out empty and ``cap_height`` divided by zero), on its baseline;
- a sentence of Arabic or Hebrew words is a row read from right to left (its first word at the
  right), a sentence of the lecture's language quoting such a word keeps the language's direction,
  a number inside an Arabic text stays left to right;
- the title card, the embeddings and the two-context scene built for an Arabic and a Hebrew lesson
  (tests/rtl_lessons/), frames snapshotted at 480p: every section passes the layout checks of
  test_lesson_scenes, each token row's words stand right to left in the sentence's order (Pango's
  layout), and tesseract reads each row back in that order from the frame's pixels.
"""

from __future__ import annotations

import difflib
import functools
import io
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import built_scene
from manim import RoundedRectangle, VGroup
from PIL import Image, ImageOps
from test_lesson_scenes import check_scene

from attncore import load_lesson
from scenes.components import TokenRow, label
from scenes.components.text import LRM, LightText, directed, right_to_left, text_baseline
from scenes.lecture import LECTURE
from scenes.theme import Theme

LESSONS = Path(__file__).parent / "rtl_lessons"
#: tesseract's language of each lesson.
OCR = {"arabic": "ara", "hebrew": "heb"}
SCENES = {c.__name__: c for c in LECTURE if c.__name__ in ("TitleCard", "Embeddings", "TwoContexts")}


def test_an_arabic_or_hebrew_text_is_drawn_whole() -> None:
    """Every letter has its glyph (Arabic joined, so a glyph per letter but for the lam-alef
    ligature), laid out as Manim's MarkupText (which never lost them) lays it out."""
    from manim import MarkupText

    for word, glyphs in (("القط", 4), ("الفأرة", 6), ("لا", 1), ("עכבר", 4), ("המקלדת", 6), ("עכבר חתול", 8)):
        t = LightText(word, font="DejaVu Sans", font_size=36)
        assert len(t.submobjects) == glyphs, (word, len(t.submobjects))
        ref = MarkupText(word, font="DejaVu Sans", font_size=36)
        assert t.width == pytest.approx(ref.width, rel=1e-6) and t.height == pytest.approx(ref.height, rel=1e-6)
        assert t.font_size == pytest.approx(36)  # divided by the height: the crash of issue 47


def test_the_baseline_of_a_right_to_left_text_is_pangos() -> None:
    """``H`` sits on the baseline, ``ק`` (qof) reaches below it: the baseline of a text holding
    both is the bottom of the H, wherever bidi puts it, and above the text's bottom."""
    for text in ("H קק", "קק H"):
        t = label(text, "body")
        h = (
            min(t.submobjects, key=lambda g: g.get_x())
            if text.startswith("H")
            else max(t.submobjects, key=lambda g: g.get_x())
        )
        assert text_baseline(t) == pytest.approx(h.get_bottom()[1], abs=1e-6), text
        assert text_baseline(t) > t.get_bottom()[1] + 0.05 * t.height
    flat = label("החתול", "body")  # no descender: on its baseline
    assert text_baseline(flat) == pytest.approx(flat.get_bottom()[1], abs=0.01 * flat.height)


def test_the_direction_of_a_paragraph() -> None:
    assert right_to_left("القط") and right_to_left("2 עכבר") and right_to_left("«الفأرة» cat")
    assert not right_to_left("cat القط") and not right_to_left("2024") and not right_to_left("")
    # the lecture's English sentence quoting an Arabic word reads left to right: a mark first
    assert directed("“الفأرة” has one vector") == LRM + "“الفأرة” has one vector"
    assert directed("الفأرة: حيوان أم حاسوب؟") == "الفأرة: حيوان أم حاسوب؟"  # one direction: as it is
    assert directed("mouse") == "mouse"
    t = label("“الفأرة” has one vector")
    assert t.text == "“الفأرة”hasonevector"  # what it shows, no mark


def test_a_number_inside_an_arabic_text_stays_left_to_right() -> None:
    """In "فأر 2024" the number is the leftmost thing (the text reads from the right) and its
    digits read 2, 0, 2, 4 from left to right: each digit's glyph is the glyph of that digit alone."""
    t = label("فأر 2024", "body")
    glyphs = sorted(t.submobjects, key=lambda g: g.get_x())
    digits = glyphs[:4]
    alone = {d: label(d, "body").submobjects[0] for d in "024"}
    for g, d in zip(digits, "2024", strict=True):
        assert g.width == pytest.approx(alone[d].width, abs=1e-6) and g.height == pytest.approx(
            alone[d].height, abs=1e-6
        )
    assert max(g.get_right()[0] for g in digits) < min(g.get_left()[0] for g in glyphs[4:])


def test_a_token_row_reads_as_its_sentence() -> None:
    theme = Theme()
    for tokens, rtl in (
        (("القط", "يطارد", "الفأرة"), True),
        (("החתול", "רודף"), True),
        (("cat", "and", "mouse"), False),
    ):
        row = TokenRow(tokens, theme, focus=0)
        xs = [w.get_x() for w in row.words]
        assert [w.text for w in row.words] == list(tokens)
        assert xs == sorted(xs, reverse=rtl), (tokens, xs)
    from scenes.components import wrap_token_row

    tokens = ("החתול", "רודף", "אחרי", "העכבר", "ליד", "המקלדת")
    row = wrap_token_row(TokenRow(tokens, theme), 3.0)
    ys = [round(w.get_y(), 3) for w in row.words]
    assert len(set(ys)) > 1 and ys == sorted(ys, reverse=True)  # lines from the top, in order
    for y in set(ys):  # on each line, right to left
        xs = [w.get_x() for w, wy in zip(row.words, ys) if wy == y]
        assert xs == sorted(xs, reverse=True)


@functools.cache
def framed(lesson: str, scene: str) -> Any:
    """``scene`` built for ``tests/rtl_lessons/<lesson>.toml`` with the frame of every section (480p)."""
    from attnstage.settings import env_name
    from scenes.inspect import build

    old = os.environ.get(env_name("lesson"))
    os.environ[env_name("lesson")] = str(LESSONS / f"{lesson}.toml")
    try:
        return build(SCENES[scene], frames=True)
    finally:
        if old is None:
            os.environ.pop(env_name("lesson"), None)
        else:
            os.environ[env_name("lesson")] = old


def shown_rows(cp: Any) -> list[Any]:
    """The token rows on screen at checkpoint ``cp``: each :class:`TokenRow`, and the words of a
    row a scene brought in one by one (its items ``VGroup(box, word)`` on screen by themselves)."""
    rows: list[Any] = [m for top in cp.mobjects for m in top.get_family() if isinstance(m, TokenRow)]
    items = [m for m in cp.mobjects if type(m) is VGroup and len(m.submobjects) == 2
             and isinstance(m[0], RoundedRectangle) and hasattr(m[1], "text")]
    if items:
        row = VGroup(*items)
        row.boxes, row.words = VGroup(*(i[0] for i in items)), VGroup(*(i[1] for i in items))
        rows.append(row)
    return rows


def _pixels(mob: Any, size: tuple[int, int]) -> tuple[int, int, int, int]:
    from manim import config

    (left, bottom, _), (right, top, _) = mob.get_corner((-1, -1, 0)), mob.get_corner((1, 1, 0))
    sx, sy = size[0] / config.frame_width, size[1] / config.frame_height
    return (round((left + config.frame_width / 2) * sx), round((config.frame_height / 2 - top) * sy),
            round((right + config.frame_width / 2) * sx), round((config.frame_height / 2 - bottom) * sy))


def _luminance(colour: Any) -> float:
    r, g, b = colour.to_rgb()
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def row_read_back(image: Image.Image, row: Any, lang: str) -> list[str]:
    """What tesseract reads in the strip of ``image`` holding the words of ``row``, word by word in
    its reading order; each box is first made dark ink on light (a tinted box has dark ink)."""
    grey = image.convert("L")
    for box, word in zip(row.boxes, row.words, strict=True):
        region = _pixels(box, image.size)
        if _luminance(word.get_color()) > _luminance(box.get_fill_color()):
            grey.paste(ImageOps.invert(grey.crop(region)), region[:2])
    left, _, right, _ = _pixels(row, image.size)
    top = min(_pixels(w, image.size)[1] for w in row.words)
    bottom = max(_pixels(w, image.size)[3] for w in row.words)
    strip = grey.crop((left - 4, top - 1, right + 4, bottom + 2))
    strip = strip.resize((strip.width * 4, strip.height * 4), Image.LANCZOS)
    buf = io.BytesIO()
    strip.save(buf, format="PNG")
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    out = subprocess.run(["tesseract", "stdin", "stdout", "-l", lang, "--psm", "7"], input=buf.getvalue(),
                         capture_output=True, env=env, check=True).stdout.decode()
    return re.findall(r"[^\W\d_]{2,}", out)


def in_order(read: list[str], tokens: tuple[str, ...]) -> list[int]:
    """The index in ``tokens`` of each word read (the closest token, if close enough: tesseract
    reads أ as آ now and then), in the order read; words it made up are left out."""
    out = []
    for w in read:
        best = max(range(len(tokens)), key=lambda k: difflib.SequenceMatcher(None, w, tokens[k]).ratio())
        if difflib.SequenceMatcher(None, w, tokens[best]).ratio() >= 0.75:
            out.append(best)
    return out


@pytest.mark.parametrize("scene", list(SCENES))
@pytest.mark.parametrize("lesson", list(OCR))
def test_right_to_left_lessons_are_drawn_and_read_in_order(lesson: str, scene: str, tmp_path: Path) -> None:
    if shutil.which("tesseract") is None:
        pytest.fail("tesseract is not installed: bash .ci/setup --tests installs it (with its Arabic and Hebrew)")
    built = framed(lesson, scene)
    sentences = {c.tokens for c in load_lesson(LESSONS / f"{lesson}.toml").contexts}
    assert check_scene(built, lesson) >= 0  # frame, margins, overlaps, one-line headers, numbers
    rows_seen = 0
    for k, cp in enumerate(built.checkpoints):
        assert cp.image is not None and cp.image.size == (854, 480)
        cp.image.save(tmp_path / f"{lesson}-{scene}-{k}.png")  # the snapshot, for a look
        rows = shown_rows(cp)
        for row in rows:
            tokens = tuple(w.text for w in row.words)
            assert tokens in sentences
            xs = [w.get_x() for w in row.words]
            assert all(a > b for a, b in zip(xs, xs[1:])), f"{cp.section}: {tokens} not right to left: {xs}"
            read = in_order(row_read_back(cp.image, row, OCR[lesson]), tokens)
            where = f"{lesson} {scene} / {cp.section}: {tokens} read as {read}"
            assert len(set(read)) >= max(2, (len(tokens) + 1) // 2), where
            assert read == sorted(read), where
            rows_seen += 1
    assert rows_seen >= len(built.checkpoints)  # every section shows a sentence
    names = {c.name for c in load_lesson(LESSONS / f"{lesson}.toml").contexts}
    if scene == "TitleCard":  # each context's name is on the card, drawn
        shown = [m for top in built.checkpoints[-1].mobjects for m in top.get_family()
                 if getattr(m, "text", None) in names and m.height > 0]
        assert {m.text for m in shown} == names


def test_a_caption_line_quoting_an_arabic_word_reads_left_to_right() -> None:
    """The narration's caption cues (SRT, WebVTT, the page's track): a player gives a line the
    direction of its first letter, so each line mixing directions starts with the mark of the
    lecture's language (English: left to right); a line of one direction is left as it is."""
    from attnstage.speech.captions import compose_vtt

    built = framed("arabic", "Embeddings")
    cues = built.caption_cues()
    lines = [line for c in cues for line in c.text.split("\n")]
    mixed = [line for line in lines if re.search(r"[A-Za-z]", line) and re.search(r"[\u0600-\u06ff]", line)]
    assert mixed and all(line.startswith(LRM) for line in mixed), mixed
    assert all(not line.startswith(LRM) for line in lines if line not in mixed)
    assert [line.lstrip(LRM) for line in lines] == [line for c in cues for line in c.text.replace(LRM, "").split("\n")]
    # the marks reach the WebVTT file, at the start of the mixed lines
    vtt_lines = compose_vtt(cues).split("\n")
    assert sum(line.startswith(LRM) for line in vtt_lines) == len(mixed)


def test_a_wrapped_right_to_left_title_starts_at_the_right() -> None:
    """A title too long for one line: its first words on the first line, lines flush right."""
    from scenes.components.text import wrapped_text

    title = "الفأرة في الجملة الأولى حيوان وفي الجملة الثانية جهاز بجانب لوحة المفاتيح"
    lines = wrapped_text(title, "title", "#ffffff", 5.0)
    assert len(lines) > 1
    assert " ".join(t.original_text for t in lines).split() == title.split()
    rights = [t.get_right()[0] for t in lines]
    assert max(rights) - min(rights) < 1e-6 and len({round(t.get_left()[0], 3) for t in lines}) > 1


@pytest.mark.slow
@pytest.mark.parametrize("cls", LECTURE, ids=[c.__name__ for c in LECTURE])
@pytest.mark.parametrize("lesson", ["arabic"])
def test_every_scene_of_a_right_to_left_lesson_builds_and_lays_out(lesson: str, cls: type) -> None:
    """Every scene of the lecture for the Arabic lesson: built, every section's layout checked
    (test_lesson_scenes), every number the trace's, every token row right to left. (Hebrew: every
    scene of tests/found_lessons/hebrew_three_contexts.toml in test_any_lesson, and the three
    scenes above; a lesson's fifteen builds cost a minute of the suite.)"""
    built = built_scene(cls, str(LESSONS / f"{lesson}.toml"))
    assert check_scene(built, lesson) > 0 or cls.__name__ == "TitleCard"
    for cp in built.checkpoints:
        for row in shown_rows(cp):
            xs = [w.get_x() for w in row.words]
            assert all(a > b for a, b in zip(xs, xs[1:])), f"{cls.__name__} / {cp.section}: {xs}"


def test_what_no_installed_font_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    """fontconfig's answer, asked once: Arabic, Hebrew, Chinese and Latin are drawn here,
    Devanagari and 💻 are not (the fonts .ci/setup installs); without fc-list nothing is refused."""
    from attncore import glyphs

    assert [glyphs.undrawable(w) for w in ("القط", "עכבר", "老鼠", "café", "mouse", "a\u200db")] == [None] * 6
    assert glyphs.undrawable("चूहा") == "च" and glyphs.undrawable("tech 💻") == "💻"
    assert glyphs.describe("च") == "'च' (U+091A DEVANAGARI LETTER CA)"
    glyphs.font_ranges.cache_clear()
    monkeypatch.setenv("PATH", "/nonexistent")
    try:
        assert glyphs.font_ranges() is None and glyphs.undrawable("चूहा") is None
    finally:
        glyphs.font_ranges.cache_clear()


def test_a_lessons_own_title_reads_its_own_way() -> None:
    """An Arabic title holding a Latin word ("الفأرة: GPT أم حاسوب؟") reads from the right on the
    card whatever the lecture's language: its first letter, alef, is the rightmost glyph (as the
    English lecture's own direction, left to right, it would end at the right with "؟")."""
    from attncore.bidi import RLM, own
    from scenes.components.text import wrapped_text

    title = "الفأرة: GPT أم حاسوب؟"
    alef = label("ا", "title").submobjects[0]
    assert own(title) == RLM + title and own("mouse: GPT") == "mouse: GPT"
    for text, rightmost_is_alef in ((own(title), True), (title, False)):
        line = wrapped_text(text, "title", "#ffffff", 20.0)[0]
        right = max(line.submobjects, key=lambda g: g.get_x())
        same = right.width == pytest.approx(alef.width, abs=1e-6) and right.height == pytest.approx(
            alef.height, abs=1e-6
        )
        assert same == rightmost_is_alef, text
        assert line.text == title.replace(" ", "")
