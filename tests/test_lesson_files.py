"""Lesson files: the shipped lessons meet their claims; every bad file gets one clear line.

The corpus in tests/bad_lessons/ has one file per failure; its first line says
``# expect: <the message>``. Each is run through the command (``values``, ``list`` and
``render``): status 2, one line on stderr naming the file, field and fix, no traceback,
and nothing written to media/. The command runs in the test's process (attnvid's own
entry point, less its signal handlers: 192 runs in about a second instead of 160 s of
Python start-ups); a sample of the corpus runs as a real subprocess too and prints the same.
"""

from __future__ import annotations

import ast
import inspect
import json
import math
import subprocess
import tomllib
import warnings
from pathlib import Path

import numpy as np
import pytest
from conftest import ATTNVID

import attncore.lesson_parse
from attncore import (
    LIMITS,
    LessonError,
    builtin_lesson,
    builtin_lessons,
    load_lesson,
    parse_lesson,
    trace_lesson,
)
from attncore.lesson import (
    DEFAULT_WEIGHTS,
    EXP_LIMIT,
    LEAN_MARGIN,
    SCORE_LIMIT,
    VALUE_LIMIT,
    lesson_warnings,
)

BAD = sorted((Path(__file__).parent / "bad_lessons").glob("*.toml"))


def expectation(path: Path) -> str:
    first = path.read_bytes().split(b"\n", 1)[0].decode("utf-8", "replace")
    if first.startswith("# expect: "):
        return first[len("# expect: "):]
    return {
        "not_utf8.toml": ("is UTF-16 text (it starts with a UTF-16 byte order mark), not UTF-8; "
                          "save the lesson as UTF-8"),
        "not_utf8_latin1.toml": "line 2, column 10: byte 0xE8 is not UTF-8 text (a file saved as Latin-1 or "
        "Windows-1252?); save the lesson as UTF-8",
    }[path.name]


def test_the_corpus_covers_every_failure() -> None:
    names = {p.stem for p in BAD}
    assert len(BAD) >= 20
    for must in ("syntax_error", "missing_dimensions", "unknown_key", "word_not_in_vocabulary",
                 "wrong_vector_length", "not_a_number", "nan_value", "inf_value", "empty_sentence",
                 "duplicate_dimension", "focus_not_in_sentence", "heads_not_dividing",
                 "too_many_tokens", "too_many_dimensions", "too_many_contexts", "too_many_heads", "not_utf8",
                 # a line for the first byte that is not UTF-8, "did you mean" for keys, a decimal comma (issue 47)
                 "not_utf8_latin1", "key_misspelt", "decimal_comma", "language_unknown",
                 # a script or an emoji no installed outline font draws (issue 47)
                 "word_in_a_script_no_font_draws", "emoji_no_font_draws",
                 # [projections] weights and the [training] table (issue #13)
                 "weights_unknown_kind", "training_not_a_table", "training_unknown_key", "training_steps_out_of_range",
                 "training_bad_seed", "training_learning_rate_out_of_range", "training_examples_not_a_list",
                 "too_many_training_examples", "training_example_unknown_key", "training_example_missing_leans",
                 "training_example_word_not_in_vocabulary", "training_example_leans_not_a_dimension",
                 # magnitudes, claims, hints and [narration] (issue #12)
                 "value_too_large", "value_huge", "value_just_below_the_range", "explicit_weight_too_large",
                 "exponential_too_long", "leans_contradicted", "word_with_a_capital", "word_with_punctuation",
                 "new_word_with_punctuation", "new_unicode_word", "unquoted_unicode_key", "focus_with_a_capital",
                 "narration_unknown_matrix", "narration_unknown_word", "narration_unknown_context",
                 "narration_not_a_slug", "narration_not_a_table",
                 # the [lecture] table's shape (issue #15; its scene names: test_lecture_parts.py)
                 "lecture_not_a_table", "lecture_unknown_key", "lecture_parts_empty", "lecture_part_title_empty",
                 "lecture_part_scenes_empty", "lecture_part_unknown_key", "lecture_part_scenes_not_names"):
        assert must in names


@pytest.mark.parametrize("path", BAD, ids=[p.stem for p in BAD])
def test_bad_lesson_raises_lesson_error_with_its_message(path: Path) -> None:
    with pytest.raises(LessonError) as exc:
        load_lesson(path)
    msg = str(exc.value)
    assert "\n" not in msg
    assert msg.startswith(f"{path}: ")
    assert expectation(path) in msg


def run_in_process(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``attnvid ARGS`` run as :func:`attnvid.cli.main` runs it, in this process, in ``cwd``."""
    from lesson_search import run_cli

    status, out, err = run_cli(args, cwd)
    return subprocess.CompletedProcess(args, status, out, err)


@pytest.mark.parametrize("command", ["values", "list", "render"])
@pytest.mark.parametrize("path", BAD, ids=[p.stem for p in BAD])
def test_bad_lesson_on_the_command_line(path: Path, command: str, tmp_path: Path) -> None:
    r = run_in_process([command, "--lesson", str(path)], tmp_path)
    assert r.returncode == 2, r.stderr
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith(f"attnvid: error: {path}: ") and expectation(path) in lines[0]
    assert not (tmp_path / "media").exists()


#: Bad lessons also run through the real command, in a subprocess: one per command.
REAL = [(BAD[k * len(BAD) // 3], command) for k, command in enumerate(["values", "list", "render"])]


@pytest.mark.parametrize(("path", "command"), REAL, ids=[f"{p.stem}-{c}" for p, c in REAL])
def test_the_real_command_says_what_the_command_in_process_says(path: Path, command: str, tmp_path: Path) -> None:
    real = subprocess.run([ATTNVID, command, "--lesson", str(path)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    here = run_in_process([command, "--lesson", str(path)], tmp_path)
    assert (real.returncode, real.stdout, real.stderr) == (here.returncode, here.stdout, here.stderr) == (
        2, "", real.stderr.strip() + "\n")
    assert expectation(path) in real.stderr and not (tmp_path / "media").exists()


@pytest.mark.parametrize("spec", ["missing.toml", "no-such-lesson"])
def test_missing_file_or_name(spec: str, tmp_path: Path) -> None:
    r = subprocess.run([ATTNVID, "values", "--lesson", spec], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    assert spec in r.stderr and ("file not found" in r.stderr or "no such file or built-in lesson" in r.stderr)


def test_a_folder_is_not_a_lesson(tmp_path: Path) -> None:
    r = subprocess.run(
        [ATTNVID, "values", "--lesson", str(tmp_path)], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 2 and "is a folder, not a file" in r.stderr


@pytest.mark.parametrize("name", builtin_lessons())
def test_shipped_lessons_meet_their_claims(name: str) -> None:
    """The focus word has one input vector, strong in two dimensions, and leans as claimed."""
    lesson = builtin_lesson(name)
    trace = trace_lesson(lesson)
    dims = list(lesson.dimensions)
    focus_vectors = {tuple(c.embeddings[c.focus_index]) for c in trace.contexts}
    assert len(focus_vectors) == 1, "the focus word must have the same input vector everywhere"
    (vec,) = focus_vectors
    assert sum(v >= 2 for v in vec) >= 2, "the focus word must be strong in two dimensions"
    for _, v in lesson.vocabulary:
        assert all(abs(x * 10 - round(x * 10)) < 1e-9 for x in v), "values are integers or one decimal"
    leanings = []
    for c in trace.contexts:
        assert c.context.leans is not None
        out = c.output[c.focus_index]
        k = dims.index(c.context.leans)
        others = [out[j] for j in range(len(dims)) if j != k]
        assert out[k] - max(others) >= 0.5, f"{c.context.name}: margin {out[k] - max(others):.2f}"
        leanings.append(c.context.leans)
    assert len(set(leanings)) == len(leanings), "each context leans somewhere else"


def test_unicode_words_work() -> None:
    lesson = builtin_lesson("souris")
    assert "l'écran" in lesson.contexts[1].tokens and "très" in lesson.contexts[1].tokens
    assert lesson.slug == "souris"
    assert np.isfinite(trace_lesson(lesson).contexts[1].output).all()


def test_limits_are_the_documented_ones() -> None:
    assert LIMITS["contexts"] == (1, 3) and LIMITS["tokens"] == (2, 8)
    assert LIMITS["dimensions"] == (2, 8) and LIMITS["heads"] == (1, 4)


def test_limits_of_training_are_documented() -> None:
    assert LIMITS["training_steps"] == (1, 2000) and LIMITS["training_examples"] == (0, 16)


def test_weights_and_training_are_read_from_the_file(tmp_path: Path) -> None:
    text = (BAD[0].parent / "training_bad_seed.toml").read_text(encoding="utf-8").split("\n", 1)[1]
    good = text.replace("seed = -1", "seed = 4\nsteps = 50\nlearning_rate = 0.2\n"
                        '[[training.examples]]\nsentence = "mouse cat"\nfocus = "mouse"\nleans = "animal"')
    path = tmp_path / "trained.toml"
    path.write_text(good.replace("[training]", '[projections]\nweights = "trained"\n[training]'), encoding="utf-8")
    lesson = load_lesson(path)
    assert lesson.projections.weights == "trained"
    t = lesson.training
    assert (t.steps, t.seed, t.learning_rate) == (50, 4, 0.2)
    assert [(e.sentence, e.focus, e.leans) for e in t.examples] == [("mouse cat", "mouse", "animal")]
    unsaid = parse_lesson(tomllib.loads(text.replace("[training]\nseed = -1", "")), "plain.toml")
    assert unsaid.projections.weights == DEFAULT_WEIGHTS and unsaid.training.steps == 300


def test_parse_lesson_is_one_short_function_per_part_of_the_file() -> None:
    # issue 11, part 4: top-level fields, vocabulary, contexts, projections, heads, theme, training
    tree = ast.parse(inspect.getsource(attncore.lesson_parse))
    lengths = {f.name: f.end_lineno - f.lineno + 1 for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)}
    for part in ("_top_level", "_vocabulary", "_contexts", "_projections", "_heads", "_theme", "_training"):
        assert part in lengths, part
    too_long = {name: n for name, n in lengths.items() if n >= 60}
    assert not too_long, f"functions of 60 lines or more: {too_long}"


# Magnitudes (issue #12) ------------------------------------------------------------------
def largest_lesson(weights: str = "explicit") -> str:
    """A lesson at every magnitude bound: 8 words and 8 dimensions, words at ±VALUE_LIMIT, explicit
    weights at ±VALUE_LIMIT (or trained ones), and the first focus row's scores just under SCORE_LIMIT."""
    d, lim = 8, VALUE_LIMIT

    def vec(values: list[float]) -> str:
        return "[" + ", ".join(f"{v:g}" for v in values) + "]"

    big0, big1 = [lim] + [lim - 1] * (d - 1), [lim - 1, lim] + [lim - 1] * (d - 2)
    f = (SCORE_LIMIT - 0.001) * math.sqrt(d) / sum(big0)  # focus·big0/√d: the largest exponential accepted
    alt = [lim if k % 2 else -lim for k in range(d)]
    w = "[" + ", ".join(vec([lim if k % 2 else -lim] * d) for k in range(d)) + "]"
    proj = ('weights = "trained"\n' if weights == "trained" else
            "".join(f"{m} = {w}\n" for m in ("W_Q", "W_K", "W_V", "W_O", "W_V_reshape")))
    return (f'title = "At the bounds"\ndimensions = {[f"d{k}" for k in range(d)]!r}\ndecimals = 3\n'.replace("'", '"')
            + f"[vocabulary]\nbig0 = {vec(big0)}\nbig1 = {vec(big1)}\nneg = {vec([-lim] * d)}\nalt = {vec(alt)}\n"
            + f"focus = {vec([f] * d)}\n"
            + "".join(f"w{k} = {vec([lim / 2 * (-1) ** k] * d)}\n" for k in range(4))
            + '[[contexts]]\nsentence = "big0 neg alt focus w0 w1 w2 w3"\nfocus = "focus"\nleans = "d0"\n'
            + '[[contexts]]\nsentence = "neg big1 w3 w2 focus w1 w0 alt"\nfocus = "focus"\nleans = "d1"\n'
            + f"[projections]\nd_v = 8\n{proj}[heads]\ncount = 4\n")


def test_the_magnitude_limits_are_the_documented_ones() -> None:
    assert VALUE_LIMIT == 10 and EXP_LIMIT == 100_000
    assert math.exp(SCORE_LIMIT) == pytest.approx(EXP_LIMIT)
    assert LEAN_MARGIN == 0.5


@pytest.mark.parametrize("weights", ["explicit", "trained"])
def test_the_largest_accepted_values_trace_without_overflow(weights: str, tmp_path: Path) -> None:
    path = tmp_path / "largest.toml"
    path.write_text(largest_lesson(weights), encoding="utf-8")
    lesson = load_lesson(path)
    assert max(abs(v) for _, vec in lesson.vocabulary for v in vec) == VALUE_LIMIT
    # Underflow is allowed: a weight of exp(-1000) is exactly 0, and shown as 0.
    with warnings.catch_warnings(), np.errstate(over="raise", invalid="raise", divide="raise"):
        warnings.simplefilter("error")
        trace = trace_lesson(lesson)
        # The exponentials a scene can show: of scaled scores, simple, masked or with positions, any row
        # (exp(-inf) = 0 for a masked score). Projected stages are never exponentiated on screen.
        for c in trace.contexts:
            for stage in ("simple", "causal", "positional"):
                for i in range(c.n):
                    assert np.isfinite(c.softmax_exps(i, stage)).all() and np.isfinite(c.softmax_total(i, stage))
        exps = trace.contexts[0].softmax_exps(trace.contexts[0].focus_index)
        assert exps.max() < EXP_LIMIT and exps.max() > EXP_LIMIT * 0.95, "at the bound, not far under it"
        json.dumps(trace.to_json(), allow_nan=False)
    r = subprocess.run(
        [ATTNVID, "values", "--lesson", str(path)], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert "d0" in r.stdout and "nan" not in r.stdout.lower() and "inf" not in r.stdout.lower()


def _accepted_and_refused(tmp_path: Path, text: str, cases: dict[str, str | None]) -> None:
    """``text`` with X replaced by each key loads when its value is None, else fails with a
    LessonError matching the value."""
    for x, refused in cases.items():
        path = tmp_path / "edge.toml"
        path.write_text(text.replace("X", x), encoding="utf-8")
        if refused is None:
            load_lesson(path)
        else:
            with pytest.raises(LessonError, match=refused):
                load_lesson(path)


def test_values_at_the_limit_are_accepted_and_beyond_are_not(tmp_path: Path) -> None:
    text = ('title = "x"\ndimensions = ["animal", "tech"]\n[vocabulary]\ncat = [3, 0]\nmouse = [2, 2]\n'
            'rare = [X, 0]\n[[contexts]]\nsentence = "cat mouse"\nfocus = "mouse"\n')
    beyond = r"vocabulary\.rare: .*(outside the supported range -10\.\.10|not a finite)"
    _accepted_and_refused(tmp_path, text, {"10": None, "-10": None, "10.001": beyond, "-1e6": beyond, "nan": beyond,
                                           "-inf": beyond})


def test_words_at_the_length_limit_are_accepted_and_longer_are_not(tmp_path: Path) -> None:
    """Twelve characters (a Chinese one counting two): the length every scene is checked at."""
    assert LIMITS["word_chars"] == (1, 12)
    text = ('title = "x"\ndimensions = ["animal", "tech"]\n[vocabulary]\ncat = [3, 0]\n"X" = [2, 2]\n'
            '[[contexts]]\nsentence = "cat X"\nfocus = "cat"\n')
    _accepted_and_refused(tmp_path, text, {
        word: None if ok else rf"vocabulary\.{word}: is 1[34] characters long, longer than the 12"
        for word, ok in (("Kreditkarten", True), ("Kreditkartens", False), ("注意力机制的", True),
                         ("注意力机制的词", False), ("ab注意力机制", True), ("abc注意力机制", False))})


# Claims (issue #12) ----------------------------------------------------------------------
@pytest.mark.parametrize("name", builtin_lessons())
def test_shipped_lessons_lean_visibly(name: str) -> None:
    assert lesson_warnings(builtin_lesson(name)) == []


def test_a_lean_too_small_to_see_is_a_warning_not_an_error(tmp_path: Path) -> None:
    path = tmp_path / "weak.toml"
    path.write_text('title = "x"\ndimensions = ["animal", "tech"]\n[vocabulary]\ncat = [1, 0]\nmouse = [2, 2]\n'
                    'and = [0, 0.5]\n[[contexts]]\nsentence = "cat and mouse"\nfocus = "mouse"\nleans = "animal"\n',
                    encoding="utf-8")
    (warning,) = lesson_warnings(load_lesson(path))
    assert warning.startswith(f"{path}: contexts[1].leans: 'mouse' leans 'animal' by only 0.") and "\n" not in warning
    r = subprocess.run(
        [ATTNVID, "values", "--lesson", str(path)], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0
    assert r.stderr == f"attnvid: warning: {warning}\n"
