"""Authoring a lesson (issue #12): the recording script, recordings checked before
rendering, the ``[narration]`` table and its placeholders, names in any case, claims
that hold but barely."""

from __future__ import annotations

import os
import subprocess
import tomllib
from pathlib import Path

import pytest
from conftest import ATTNVID, built_scene

from attncore import LessonError, fmt, parse_lesson, trace_lesson
from attncore.lesson import lesson_warnings
from attncore.narration import NarrationError, check_template, fill, narration_override, section_slug
from attnstage.speech.voices import recording_name
from attnvid.catalog import check_recordings, resolve_scene, resolve_section
from attnvid.errors import UserError
from scenes.lecture import LECTURE, find_scene

DEFAULT = (Path(__file__).parents[1] / "attncore" / "lessons" / "default.toml").read_text(encoding="utf-8")


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([ATTNVID, *args], cwd=cwd, capture_output=True, text=True, timeout=900)


# The recording script --------------------------------------------------------------------
def test_section_slugs_are_unique_in_the_lecture() -> None:
    """[narration] keys and recording names rely on it."""
    slugs = [section_slug(t) for c in LECTURE for t in c.section_names()]
    assert len(slugs) == len(set(slugs)) and all(slugs)


@pytest.mark.slow
def test_script_gives_every_section_its_file_name_and_words(tmp_path: Path) -> None:
    scenes = (find_scene("Embeddings"), find_scene("SimplifiedAttention"))
    r = run("script", "embeddings", "SimplifiedAttention", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    *text, last = r.stdout.splitlines()
    out = tmp_path / last
    assert out == tmp_path / "media" / "script" / "recording_script_Embeddings_SimplifiedAttention.md"
    assert out.read_text(encoding="utf-8").splitlines() == text, "the file is what was printed"
    assert not [p for p in out.parent.iterdir() if p.name.endswith(".part")]
    said = " ".join(" ".join(text).split())
    assert r.stderr == "script: 5 recordings for 2 scenes\n"
    for k, cls in enumerate(scenes):
        assert f"## {k + 1}. {cls.__name__}" in text
        for n in built_scene(cls).narrations:
            assert f"### {recording_name(cls.__name__, n.section)}" in text
            assert f"*{n.section}*" in text
            assert n.text in said, f"{cls.__name__} / {n.section}: the words to read are the scene's"
    assert said.index("words-become-vectors") < said.index("every-word-looks-at-every-word"), "lecture order"


# Recordings: all checked before rendering ---------------------------------------------------
def test_every_missing_recording_is_named_at_once(tmp_path: Path) -> None:
    softmax = find_scene("Softmax")
    names = [recording_name("Softmax", t) for t in softmax.section_names()]
    assert names == ["Softmax__exponentiate-the-scores.wav", "Softmax__divide-by-the-sum.wav",
                     "Softmax__the-attention-matrix.wav"]
    (tmp_path / names[1]).write_bytes(b"")
    with pytest.raises(UserError) as exc:
        check_recordings(f"recorded:{tmp_path}", [softmax])
    assert str(exc.value) == (f"missing 2 recordings in {tmp_path}: {names[0]}, {names[2]}; "
                              "attnvid script lists what to record")
    for n in (names[0], names[2]):
        (tmp_path / n).write_bytes(b"")
    check_recordings(f"recorded:{tmp_path}", [softmax])
    check_recordings("none", list(LECTURE))


def test_a_lecture_with_recordings_missing_stops_before_rendering(tmp_path: Path) -> None:
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    r = run("lecture", "--voice", f"recorded:{recordings}", cwd=tmp_path)
    n = sum(len(c.section_names()) for c in LECTURE)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith(f"attnvid: error: missing {n} recordings in {recordings}: TitleCard__title.wav, "
                               "Embeddings__words-become-vectors.wav, ")
    assert len(r.stderr.splitlines()) == 1 and not (tmp_path / "media").exists()


# Names in any case ------------------------------------------------------------------------
def test_scene_and_section_names_in_any_case() -> None:
    softmax = find_scene("Softmax")
    for name in ("Softmax", "softmax", "SOFTMAX", "softmax", "SoftMax"):
        assert resolve_scene(name) is softmax
    for name in ("Divide by the sum", "divide by the sum", "DIVIDE BY THE SUM", "divide-by-the-sum"):
        assert resolve_section(softmax, name) == "Divide by the sum"
    with pytest.raises(UserError, match="Softmax has no section 'divide'; its sections are: Exponentiate the scores;"):
        resolve_section(softmax, "divide")


# [narration] -------------------------------------------------------------------------------
NARRATED = (
    DEFAULT
    + """
[narration]
no-learned-weights-yet = "In “{1.sentence}”, {animal.focus} gives {animal.attention.mouse.cat} of its attention \
to cat; \
the scaled score is {1.scaled.mouse.cat}, its exponential {1.exp.mouse.cat}, out of {1.sum.mouse}. \
Cat is {1.embeddings.cat.animal} in animal; the output of mouse is {tech.output.mouse.tech} in tech; \
Q{{mouse, 2}} = {tech.Q.3.2}; d = {d}, √d = {sqrt_d}."
"""
)


def test_placeholders_say_what_the_screen_shows() -> None:
    lesson = parse_lesson(tomllib.loads(NARRATED), "narrated.toml")
    trace = trace_lesson(lesson)
    a, b = trace.contexts
    m, c = a.tokens.index("mouse"), a.tokens.index("cat")
    said = narration_override(lesson, trace, "SimplifiedAttention", "No learned weights yet")
    assert said == (
        f"In “cat and mouse are friends”, mouse gives {fmt(a.attention[m, c], 2)} of its attention "
        f"to cat; the scaled score is {fmt(a.scaled[m, c], 2)}, its exponential {fmt(a.softmax_exps(m)[c], 2)}, out of "
        f"{fmt(a.softmax_total(m), 2)}. Cat is 3.0 in animal; the output of mouse is {fmt(b.output[2, 1], 2)} in tech; "
        f"Q{{mouse, 2}} = {fmt(b.projected.Q[2, 1], 2)}; d = 4, √d = 2.00."
    )
    assert narration_override(lesson, trace, "SimplifiedAttention", "Every word looks at every word") is None


def test_the_scene_says_the_lessons_words(tmp_path: Path) -> None:
    path = tmp_path / "narrated.toml"
    path.write_text(NARRATED, encoding="utf-8")
    scene = built_scene(find_scene("SimplifiedAttention"), str(path))
    said = {n.section: n.text for n in scene.narrations}
    trace = trace_lesson(parse_lesson(tomllib.loads(NARRATED), str(path)))
    assert said["No learned weights yet"] == narration_override(trace.lesson, trace, "SimplifiedAttention",
                                                               "No learned weights yet")
    default = built_scene(find_scene("SimplifiedAttention"))
    assert said["Every word looks at every word"] == {n.section: n.text for n in default.narrations}[
        "Every word looks at every word"], "a section the table does not name keeps its words"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("{animal.atention.mouse.cat}", "'atention' is not a matrix; use one of scores, scaled, exp, attention"),
        ("{3.focus}", "'3' is not a context; use one of animal, tech (or a number from 1 to 2)"),
        (
            "{animal.attention.mouse.dog}",
            "'dog' is not a word of \"cat and mouse are friends\"; use one of cat, and, mouse",
        ),
        ("{animal.output.mouse.cat}", "'cat' is not a dimension; use one of animal, tech, grammar, other"),
        ("{animal.Q.mouse.9}", "'9' is not a column of Q; use one of 1, 2, 3, 4"),
        ("{animal.attention.mouse}", "write {animal.attention.ROW.COLUMN}"),
        ("{animal.focus.mouse}", "takes nothing after it"),
        ("{dd}", "'dd' is not a placeholder; use d, sqrt_d or CONTEXT.MATRIX.ROW.COLUMN"),
        ("a } b", "a lone '}': write }} for a brace"),
    ],
)
def test_an_unknown_placeholder_names_what_exists(text: str, says: str) -> None:
    lesson = parse_lesson(tomllib.loads(DEFAULT), "x.toml")
    with pytest.raises(NarrationError) as exc:
        check_template(text, lesson)
    assert says in str(exc.value) and "\n" not in str(exc.value)


def test_braces_and_plain_text_stay() -> None:
    trace = trace_lesson(parse_lesson(tomllib.loads(DEFAULT), "x.toml"))
    assert fill("{{x}} and {d}", trace) == "{x} and 4"
    assert fill("no placeholder", trace) == "no placeholder"


def test_an_unknown_slug_names_the_sections(tmp_path: Path) -> None:
    path = tmp_path / "narrated.toml"
    path.write_text(DEFAULT + '\n[narration]\ndivide-by-sum = "words"\n', encoding="utf-8")
    r = run("values", "--lesson", str(path), cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith(
        f"attnvid: error: {path}: narration.divide-by-sum: no section of the lecture has this slug; "
        "use one of title, words-become-vectors, reading-a-vector, "
    )
    assert "divide-by-the-sum" in r.stderr and len(r.stderr.splitlines()) == 1


# Claims that hold, but barely ----------------------------------------------------------------
def test_a_tie_on_screen_is_a_warning_and_a_contradiction_an_error() -> None:
    text = ('title = "x"\ndimensions = ["animal", "tech"]\n[vocabulary]\ncat = [2, 0]\nkey = [0, 2]\nmouse = [2, 2]\n'
            '[[contexts]]\nsentence = "cat key mouse"\nfocus = "mouse"\nleans = "LEANS"\n')
    for leans in ("animal", "tech"):  # an exact tie: neither is contradicted on screen
        lesson = parse_lesson(tomllib.loads(text.replace("LEANS", leans)), "tie.toml")
        (warning,) = lesson_warnings(lesson)
        assert f"'mouse' leans '{leans}' by only 0.00" in warning
    with pytest.raises(
        LessonError, match=r"'animal' is contradicted: .* leans 'tech' \(animal 1\.\d\d, tech 1\.\d\d\)"
    ):
        parse_lesson(tomllib.loads(text.replace("LEANS", "animal").replace("key = [0, 2]", "key = [0, 2.5]")), "x.toml")


def test_the_warning_does_not_stop_a_command(tmp_path: Path) -> None:
    path = tmp_path / "weak.toml"
    path.write_text(DEFAULT.replace("friends     = [0.5, 0,   0.5, 1]", "friends     = [0.5, 2,   0.5, 1]"),
                    encoding="utf-8")
    r = run("list", "--lesson", str(path), cwd=tmp_path)
    assert r.returncode == 0 and "Embeddings" in r.stdout
    assert r.stderr.startswith(f"attnvid: warning: {path}: contexts[1].leans: 'mouse' leans 'animal' by only ")
    assert len(r.stderr.splitlines()) == 1
    assert os.environ.get("ATTNVID_LESSON", "") == ""
