"""Exercises (issue 28): every answer and wrong option recomputed, the files read back.

- every answer and every wrong option is recomputed here in plain Python from what
  ``attnvid values --json`` prints (the real command), by the formula of its named
  mistake; no wrong option reads like the answer, and no two options read alike;
- every arithmetic claim of a worked solution is evaluated (a small AST evaluator) and
  shows as its result, using only numbers shown before it;
- quiz.gift is read back by pygiftparser (a GIFT parser from PyPI) and quiz.xml by
  xml.etree, into the same questions, answers, tolerances and feedback;
- the same seed gives the same bytes; another seed other questions;
- exercises.pdf read by pdftotext: the questions, then the key, and every word inside the page;
- the page's self-check driven in headless Chromium (slow tier).

Lessons: the built-in ones, one of three contexts, one with one decimal, one with a
single context, four heads and long words.
"""

from __future__ import annotations

import ast
import html
import io
import json
import math
import operator
import re
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from conftest import ATTNVID, made_once
from test_lesson_scenes import lesson_toml

from attncore import find_lesson, parse_lesson, trace_lesson
from attncore.exercises import COUNT_LIMITS, KINDS, MISTAKES, PLACES, Exercise, make_exercises
from attncore.lesson import tomllib
from scenes.order import numbered

MINUS = "\u2212"
#: Words as long as a lesson allows (12 characters, attncore's LIMITS["word_chars"]).
LONG_WORDS = """
title = "Long words"
dimensions = ["nature", "finance", "grammar", "other"]
decimals = 3
[vocabulary]
"Donaudampfer" = [2, 2, 0, 0.5]
"l'entreprise" = [0, 2.5, 0, 1]
riverbankway = [3, 0, 0, 0.5]
and = [0, 0, 2, 0]
[[contexts]]
sentence = "riverbankway and Donaudampfer and l'entreprise"
focus = "Donaudampfer"
[projections]
seed = 3
[heads]
count = 4
"""
#: name -> lesson TOML text ("" for a built-in lesson, read by name).
LESSONS = {
    "default": "", "bank": "", "souris": "",
    "three-contexts": lesson_toml(3, 6, 4, 2, seed=4),
    "one-decimal": lesson_toml(2, 5, 4, 2, seed=9, decimals=1),
    "long-words": LONG_WORDS,
}
SEEDS = (0, 1, 7)


@pytest.fixture(scope="module")
def lesson_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Each lesson as ``--lesson`` names it: a built-in name, or a file written here."""
    folder = tmp_path_factory.mktemp("lessons")
    out = {}
    for name, text in LESSONS.items():
        if text:
            (folder / f"{name}.toml").write_text(text, encoding="utf-8")
            out[name] = str(folder / f"{name}.toml")
        else:
            out[name] = name
    return out


@pytest.fixture(scope="module")
def values(lesson_files: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """``attnvid values --json`` of every lesson, from the real program: run once per run (all
    lessons at once), shared by the xdist workers."""
    def make(folder: Path) -> None:
        runs = {name: subprocess.Popen([ATTNVID, "values", "--json", "--lesson", spec], cwd=folder, text=True,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                for name, spec in lesson_files.items()}
        for name, proc in runs.items():
            out, err = proc.communicate(timeout=300)
            assert proc.returncode == 0, err
            (folder / f"{name}.json").write_text(out, encoding="utf-8")

    folder = made_once(tmp_path_factory, "exercise-values", make)
    return {name: json.loads((folder / f"{name}.json").read_text(encoding="utf-8")) for name in lesson_files}


@cache
def exercises_of(spec: str, seed: int, count: int = 10) -> tuple[Exercise, ...]:
    return make_exercises(trace_lesson(find_lesson(Path(spec) if "/" in spec else spec)), count, seed)


# An independent reference: rounding as students round, and the formulas --------------------
def show(x: float, decimals: int) -> str:
    """Half away from zero on the decimal value, a real minus, no negative zero."""
    r = Decimal(repr(float(x))).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
    s = f"{abs(r) if r.is_zero() else r:.{decimals}f}"
    return s.replace("-", MINUS)


def num(text: str) -> float:
    return float(text.replace(MINUS, "-"))


def decimals_of(text: str) -> int:
    return len(text.split(".")[1]) if "." in text else 0


def exact_decimals(m: list[list[float]], most: int) -> int:
    """The fewest decimals (up to ``most``) showing every entry of ``m`` exactly."""
    return next((k for k in range(most + 1) if all(abs(v - round(v, k)) < 1e-12 for row in m for v in row)), most)


def dot(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b))


def softmax(row: list[float]) -> list[float]:
    top = max(row)
    e = [math.exp(v - top) for v in row]
    return [v / sum(e) for v in e]


def lean_text(row: list[float], dims: list[str], dec: int, smallest: bool = False) -> str | None:
    shown = [num(show(v, dec)) for v in row]
    top = max(range(len(shown)), key=lambda k: shown[k])
    other = min(shown) if smallest else sorted(shown)[-2]
    if not smallest and other == shown[top]:
        return None
    return f"{dims[top]}, by {show(shown[top] - other, dec)}"


def shape(a: int, b: int) -> str:
    return f"{a}×{b}"


def words(tokens: list[str], positions: list[int]) -> str:
    return ", ".join(f"“{tokens[p]}” ({p + 1})" for p in positions) or "none"


Expected = tuple[str, dict[str, set[str]]]  # the answer as shown, and what each mistake may show


def _numbers(v: dict[str, Any], ex: Exercise) -> tuple[dict[str, Any], int]:
    return v["contexts"][ex.context], v["decimals"]


def expect_dot_product(v: dict[str, Any], ex: Exercise) -> Expected:
    c, dec = _numbers(v, ex)
    i, j, x = ex.where["row"], ex.where["column"], c["embeddings"]
    ad = max(dec, 2 * exact_decimals(x, dec))
    assert ex.decimals == ad
    s = dot(x[i], x[j])
    others = [k for k, t in enumerate(c["tokens"]) if t != c["tokens"][i]]
    return show(s, ad), {
        "used the wrong row": {show(dot(x[k], x[j]), ad) for k in others},
        "added instead of multiplying": {show(sum(x[i]) + sum(x[j]), ad)},
        "forgot a term": {show(s - x[i][-1] * x[j][-1], ad)},
        "multiplied the sums": {show(sum(x[i]) * sum(x[j]), ad)},
    }


def expect_scaled_score(v: dict[str, Any], ex: Exercise) -> Expected:
    c, dec = _numbers(v, ex)
    s, d = c["scores"][ex.where["row"]][ex.where["column"]], len(v["dimensions"])
    assert c["scaled"][ex.where["row"]][ex.where["column"]] == pytest.approx(s / math.sqrt(d))
    return show(s / math.sqrt(d), dec), {
        "forgot √d": {show(s, dec)}, "divided by d": {show(s / d, dec)},
        "multiplied by √d": {show(s * math.sqrt(d), dec)}, "divided by 2": {show(s / 2, dec)},
    }


def expect_exponential(v: dict[str, Any], ex: Exercise) -> Expected:
    c, dec = _numbers(v, ex)
    return show(math.exp(c["scaled"][ex.where["row"]][ex.where["column"]]), dec), {}


def expect_row_sum(v: dict[str, Any], ex: Exercise) -> Expected:
    c, dec = _numbers(v, ex)
    return show(sum(math.exp(s) for s in c["scaled"][ex.where["row"]]), dec), {}


def expect_attention_weight(v: dict[str, Any], ex: Exercise) -> Expected:
    c, dec = _numbers(v, ex)
    i, j, s, raw, d = ex.where["row"], ex.where["column"], c["scaled"], c["scores"], len(v["dimensions"])
    assert c["attention"][i][j] == pytest.approx(softmax(s[i])[j])
    column = softmax([row[j] for row in s])
    others = [k for k, t in enumerate(c["tokens"]) if t != c["tokens"][i]]
    return show(c["attention"][i][j], dec), {
        "forgot √d": {show(softmax(raw[i])[j], dec)},
        "divided by d": {show(softmax([x / d for x in raw[i]])[j], dec)},
        "took the softmax over the column": {show(column[i], dec)},
        "used the wrong row": {show(c["attention"][k][j], dec) for k in others},
        "forgot the exponential": {show(s[i][j] / sum(s[i]), dec)} if abs(sum(s[i])) > 1e-9 else set(),
    }


def expect_weighted_sum(v: dict[str, Any], ex: Exercise) -> Expected:
    c, dec = _numbers(v, ex)
    i, k, a, x = ex.where["row"], ex.where["dimension"], c["attention"], c["embeddings"]
    col = [row[k] for row in x]
    assert c["output"][i][k] == pytest.approx(dot(a[i], col))
    others = [m for m, t in enumerate(c["tokens"]) if t != c["tokens"][i]]
    return show(dot(a[i], col), dec), {
        "used the wrong row": {show(dot(a[m], col), dec) for m in others},
        "used the column of the attention matrix": {show(dot([row[i] for row in a], col), dec)},
        "left out the weights": {show(sum(col), dec)},
        "took the plain average": {show(sum(col) / len(col), dec)},
        "used the wrong dimension": {show(c["output"][i][m], dec) for m in range(len(x[0])) if m != k},
    }


def expect_leans(v: dict[str, Any], ex: Exercise) -> Expected:
    c, dec = _numbers(v, ex)
    dims, f = v["dimensions"], c["tokens"].index(c["focus"])
    assert ex.where["row"] == f
    answer = lean_text(c["output"][f], dims, dec)
    assert answer is not None
    others = [k for k, t in enumerate(c["tokens"]) if t != c["focus"]]
    contexts = [o for k, o in enumerate(v["contexts"]) if k != ex.context]
    return answer, {
        "read the input vector": {lean_text(c["embeddings"][f], dims, dec) or ""},
        "read another word's output": {lean_text(c["output"][k], dims, dec) or "" for k in others},
        "took the margin over the smallest value": {lean_text(c["output"][f], dims, dec, smallest=True) or ""},
        "read the other context": {lean_text(o["output"][o["tokens"].index(o["focus"])], dims, dec) or ""
                                   for o in contexts},
    }


def expect_projection(v: dict[str, Any], ex: Exercise) -> Expected:
    c, dec = _numbers(v, ex)
    i, k, x, w = ex.where["row"], ex.where["column"], c["embeddings"], c["projected"]["W_Q"]
    pd = max(dec, exact_decimals(x, dec) + exact_decimals(w, dec))
    assert ex.decimals == pd
    column = [row[k] for row in w]
    q = dot(x[i], column)
    assert c["projected"]["Q"][i][k] == pytest.approx(q)
    others = [m for m, t in enumerate(c["tokens"]) if t != c["tokens"][i]]
    return show(q, pd), {
        "used a row of W_Q instead of a column": {show(dot(x[i], w[k]), pd)},
        "used the wrong word's row": {show(dot(x[m], column), pd) for m in others},
        "used the wrong column": {show(dot(x[i], [row[m] for row in w]), pd) for m in range(len(w)) if m != k},
        "forgot a term": {show(q - x[i][-1] * w[-1][k], pd)},
    }


def expect_head_shape(v: dict[str, Any], ex: Exercise) -> Expected:
    c = v["contexts"][ex.context]
    n, d, heads = len(c["tokens"]), len(v["dimensions"]), c["multi_head"]["heads"]
    h, dh = len(heads), len(heads[0]["output"][0])
    assert len(heads[0]["attention"]) == n and len(c["multi_head"]["concat"][0]) == d
    answer = {"one head's queries Q_h": (n, dh), "one head's attention matrix": (n, n),
              "one head's output": (n, dh), "the heads' outputs concatenated": (n, d)}[ex.where["asks"]]
    return shape(*answer), {
        "forgot to split into heads": {shape(n, d)}, "took the shape of W_Q's block": {shape(d, dh)},
        "transposed it": {shape(answer[1], answer[0])}, "took the number of heads as the width": {shape(n, h)},
        "multiplied d by h": {shape(n, d * h)}, "took the attention matrix": {shape(n, n)},
        "took one head's width": {shape(n, dh)}, "took the heads as the rows": {shape(h, dh)},
    }


def expect_causal_mask(v: dict[str, Any], ex: Exercise) -> Expected:
    c = v["contexts"][ex.context]
    i, toks, n = ex.where["row"], c["tokens"], len(c["tokens"])
    hidden = [j for j, a in enumerate(c["causal"]["attention"][i]) if a == 0.0]  # what the mask left out
    return words(toks, hidden), {
        "hid the words before it": {words(toks, list(range(i)))},
        "hid the word itself too": {words(toks, list(range(i, n)))},
        "hid nothing": {"none"}, "hid every other word": {words(toks, [p for p in range(n) if p != i])},
    }


EXPECT: dict[str, Callable[[dict[str, Any], Exercise], Expected]] = {
    "dot_product": expect_dot_product, "scaled_score": expect_scaled_score, "exponential": expect_exponential,
    "row_sum": expect_row_sum, "attention_weight": expect_attention_weight, "weighted_sum": expect_weighted_sum,
    "leans": expect_leans, "projection": expect_projection, "head_shape": expect_head_shape,
    "causal_mask": expect_causal_mask,
}


# A worked line's arithmetic, evaluated --------------------------------------------------------
_OPS: dict[type, Callable[[float, float], float]] = {ast.Add: operator.add, ast.Sub: operator.sub,
                                                     ast.Mult: operator.mul, ast.Div: operator.truediv}


def evaluate(expr: str) -> float:
    """``+ - * /``, parentheses, ``sqrt(n)`` and ``exp(x)`` on decimal numbers; nothing else."""
    def ev(node: ast.AST) -> float:
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
            return float(node.value)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -ev(node.operand)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("sqrt", "exp"):
            return {"sqrt": math.sqrt, "exp": math.exp}[node.func.id](ev(node.args[0]))
        raise AssertionError(f"not plain arithmetic: {ast.dump(node)}")

    return ev(ast.parse(expr, mode="eval").body)


NUMBER = re.compile(r"(?<![\w.])[-−]?\d+(?:\.\d+)?")


def shown_numbers(text: str) -> set[str]:
    return {m.replace(MINUS, "-").lstrip("-") for m in NUMBER.findall(text)}


def check_worked(ex: Exercise) -> None:
    """Each claim ``expr = result`` shows as its result, from numbers shown before it; the last
    claim of a numerical answer is the answer."""
    seen = shown_numbers(" ".join((ex.prompt, *ex.givens)))
    last = None
    for work in ex.solution:
        for expr, result in work.checks:
            used = {m.lstrip("-") for m in NUMBER.findall(re.sub(r"sqrt|exp", " ", expr))}
            assert used <= seen, f"{ex.number} {ex.kind}: {expr} uses {used - seen}, not shown before"
            assert show(evaluate(expr), decimals_of(result)) == result, f"{ex.kind}: {expr} = {result}?"
            seen |= shown_numbers(result)
            last = result
    if ex.answer is not None and ex.kind != "leans":
        assert last == ex.answer_text, f"{ex.kind}: the worked solution ends at {last}, not {ex.answer_text}"


# The tests --------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(LESSONS))
def test_every_answer_and_wrong_option_recomputed(name: str, lesson_files: dict[str, str],
                                                  values: dict[str, dict[str, Any]]) -> None:
    v = {**values[name], "decimals": find_lesson(Path(lesson_files[name]) if "/" in lesson_files[name]
                                                 else lesson_files[name]).decimals}
    kinds_seen: set[str] = set()
    for seed in SEEDS:
        for ex in exercises_of(lesson_files[name], seed, 20):
            kinds_seen.add(ex.kind)
            answer, mistakes = EXPECT[ex.kind](v, ex)
            assert ex.answer_text == answer, (name, seed, ex.kind, ex.where)
            assert ex.tolerance == 0.5 * 10.0 ** -ex.decimals
            if ex.answer is not None and ex.kind != "leans":
                assert decimals_of(ex.answer_text) == ex.decimals
                assert abs(num(ex.answer_text) - ex.answer) <= ex.tolerance + 1e-12
            check_worked(ex)
            if ex.numerical:
                assert ex.kind in ("exponential", "row_sum")
                continue
            texts = [c.text for c in ex.choices]
            assert len(set(texts)) == len(texts), f"two options read alike: {texts}"
            assert [c.text for c in ex.choices if not c.mistake] == [answer]
            wrong = [c for c in ex.choices if c.mistake]
            assert len(wrong) >= 2
            for c in wrong:
                assert c.text != answer
                assert c.mistake in MISTAKES[ex.kind]
                assert c.text in mistakes[c.mistake], (name, ex.kind, c.mistake, c.text, mistakes[c.mistake])
    assert kinds_seen == set(EXPECT), f"{name}: no question of {set(EXPECT) - kinds_seen}"


def test_each_kind_links_a_section_of_the_lecture() -> None:
    from scenes.lecture import LECTURE

    sections = {(c.__name__, s) for c in LECTURE for s in c.section_names()}
    assert {k for k, _, _ in KINDS} == set(PLACES) == set(EXPECT)
    for kind, place in PLACES.items():
        assert place in sections, f"{kind}: {place} is not a section of the lecture"


def test_the_recomputation_can_fail(values: dict[str, dict[str, Any]]) -> None:
    ex = exercises_of("default", 0)[4]
    assert ex.kind == "attention_weight"
    v = {**values["default"], "decimals": 2}
    v["contexts"] = [{**c, "attention": [[a + 0.01 for a in row] for row in c["attention"]]} for c in v["contexts"]]
    with pytest.raises(AssertionError):
        answer, _ = EXPECT[ex.kind](v, ex)
        assert answer == ex.answer_text
    bad = ex.solution[-1].checks[0]
    with pytest.raises(AssertionError):
        assert show(evaluate(bad[0]) + 0.01, decimals_of(bad[1])) == bad[1]


def test_count_and_seed() -> None:
    lo, hi = COUNT_LIMITS
    assert len(exercises_of("default", 0, 1)) == 1 and len(exercises_of("default", 0, hi)) == hi
    with pytest.raises(ValueError):
        exercises_of("default", 0, hi + 1)
    first = [(e.kind, e.context, e.where) for e in exercises_of("default", 0)]
    assert first == [(e.kind, e.context, e.where) for e in make_exercises(trace_lesson(find_lesson("default")), 10, 0)]
    assert [e.kind for e in exercises_of("default", 0)] == [k for k, _, _ in KINDS], "one of each, in lecture order"
    for seed in (1, 2):
        other = [(e.kind, e.context, e.where) for e in exercises_of("default", seed)]
        assert sum(a != b for a, b in zip(first, other)) >= 5, f"seed {seed} asks mostly the same"
    keys = [(e.kind, e.context, json.dumps(e.where)) for e in exercises_of("default", 3, hi)]
    assert len(set(keys)) == len(keys), "no question twice"


def test_a_lesson_of_one_short_sentence() -> None:
    trace = trace_lesson(parse_lesson(tomllib.loads(lesson_toml(1, 2, 2, 1))))
    items = make_exercises(trace, 10, 0)
    assert len(items) >= 6 and {e.kind for e in items} >= {"exponential", "row_sum", "head_shape", "causal_mask"}


# The files ---------------------------------------------------------------------------------------
def run_exercises(cwd: Path, *args: str) -> Path:
    r = subprocess.run([ATTNVID, "exercises", *args], cwd=cwd, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    folder = cwd / r.stdout.strip().splitlines()[-1]
    assert sorted(p.name for p in folder.iterdir()) == ["exercises.pdf", "quiz.gift", "quiz.xml"]
    assert not list(cwd.rglob(".*.part")) and not (cwd / "media" / ".work").exists()
    return folder


@pytest.fixture(scope="module")
def written(lesson_files: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The folder ``attnvid exercises`` writes for four lessons: written once per run, shared by
    the xdist workers."""
    names = ("default", "three-contexts", "one-decimal", "long-words")

    def make(folder: Path) -> None:
        for name in names:
            (folder / name).mkdir()
            run_exercises(folder / name, "--lesson", lesson_files[name], "--seed", "5", "--count", "12")

    folder = made_once(tmp_path_factory, "exercise-written", make)
    return {name: next((folder / name).rglob("exercises.pdf")).parent for name in names}


def _plain(text: str) -> str:
    """HTML text as a reader reads it (tags dropped, entities decoded, spaces collapsed)."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())


def _lines(ex: Exercise) -> str:
    return " ".join(" ".join(w.text for w in ex.solution).split())


@pytest.mark.parametrize("name", ["default", "three-contexts", "one-decimal", "long-words"])
def test_gift_read_back_by_a_gift_parser(name: str, written: dict[str, Path], lesson_files: dict[str, str]) -> None:
    from pygiftparser import parser
    from pygiftparser.utils import transformSpecials as unescape

    items = exercises_of(lesson_files[name], 5, 12)
    questions = parser.parseFile(io.StringIO((written[name] / "quiz.gift").read_text(encoding="utf-8")))
    assert len(questions) == len(items)
    for q, ex in zip(questions, items, strict=True):
        assert q.valid, q.source
        assert unescape(q.title) == f"Q{ex.number:02d} {ex.title}" and q.markup == "html"
        assert " ".join(ex.prompt.split()) in _plain(unescape(q.text))
        assert all(" ".join(g.split()) in _plain(unescape(q.text)) for g in ex.givens)
        assert _lines(ex) in _plain(unescape(q.generalFeedback))
        answers = q.answers.answers
        if ex.numerical:
            assert type(q.answers).__name__ == "NumericAnswerSet" and len(answers) == 1
            assert answers[0].value == num(ex.answer_text) and answers[0].tolerance == ex.tolerance
            continue
        assert type(q.answers).__name__ == "SelectSet"
        got = [(unescape(a.answer), a.fraction, unescape(a.feedback)) for a in answers]
        assert got == [(c.text, 0 if c.mistake else 100,
                        f"Not quite: this is what you get if you {c.mistake}." if c.mistake else "Right.")
                       for c in ex.choices]


@pytest.mark.parametrize("name", ["default", "three-contexts", "one-decimal", "long-words"])
def test_moodle_xml_read_back(name: str, written: dict[str, Path], lesson_files: dict[str, str]) -> None:
    items = exercises_of(lesson_files[name], 5, 12)
    root = ET.parse(written[name] / "quiz.xml").getroot()
    assert root.tag == "quiz"
    questions = [q for q in root.findall("question") if q.get("type") != "category"]
    assert len(questions) == len(items)
    for q, ex in zip(questions, items, strict=True):
        assert q.findtext("name/text") == f"Q{ex.number:02d} {ex.title}"
        assert q.find("questiontext").get("format") == "html"  # type: ignore[union-attr]
        text = _plain(q.findtext("questiontext/text") or "")
        assert " ".join(ex.prompt.split()) in text and all(" ".join(g.split()) in text for g in ex.givens)
        assert _lines(ex) in _plain(q.findtext("generalfeedback/text") or "")
        answers = q.findall("answer")
        if ex.numerical:
            assert q.get("type") == "numerical" and len(answers) == 1
            assert answers[0].get("fraction") == "100"
            assert float(answers[0].findtext("text") or "") == num(ex.answer_text)
            assert float(answers[0].findtext("tolerance") or "") == ex.tolerance
            continue
        assert q.get("type") == "multichoice" and q.findtext("single") == "true"
        got = [(_plain(a.findtext("text") or ""), a.get("fraction"), _plain(a.findtext("feedback/text") or ""))
               for a in answers]
        assert got == [(c.text, "0" if c.mistake else "100",
                        f"Not quite: this is what you get if you {c.mistake}." if c.mistake else "Right.")
                       for c in ex.choices]


def test_same_seed_same_bytes_other_seed_other_questions(tmp_path: Path) -> None:
    a = run_exercises(tmp_path / "a" if (tmp_path / "a").mkdir() is None else tmp_path, "--seed", "3")
    b = run_exercises(tmp_path / "b" if (tmp_path / "b").mkdir() is None else tmp_path, "--seed", "3")
    c = run_exercises(tmp_path / "c" if (tmp_path / "c").mkdir() is None else tmp_path, "--seed", "4")
    for f in ("exercises.pdf", "quiz.gift", "quiz.xml"):
        assert (a / f).read_bytes() == (b / f).read_bytes(), f
        assert (a / f).read_bytes() != (c / f).read_bytes(), f
    assert a.name == "seed-3" and c.name == "seed-4"


def test_a_failed_write_leaves_the_previous_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while the files are written: the folder of the last good run is left as it was,
    and no temporary file stays behind."""
    from click.testing import CliRunner

    import attnvid.publish.quiz
    from attnvid.commands.exercises import exercises

    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(exercises, ["--seed", "2"]).exit_code == 0
    folder = tmp_path / "media" / "exercises" / "seed-2"
    before = {p.name: p.read_bytes() for p in folder.iterdir()}

    def interrupted(*args: Any) -> bytes:
        raise KeyboardInterrupt

    monkeypatch.setattr(attnvid.publish.quiz, "moodle_xml", interrupted)
    assert CliRunner().invoke(exercises, ["--seed", "2", "--count", "3"]).exit_code != 0
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert CliRunner().invoke(exercises, ["--seed", "9"]).exit_code != 0
    assert not (tmp_path / "media" / "exercises" / "seed-9").exists()
    assert not [p for p in (tmp_path / "media").rglob("*") if p.name.startswith(".") and p.name != ".attnvid.lock"]


def test_bad_count_seed_or_lesson_writes_nothing(tmp_path: Path) -> None:
    for args in (["--count", "0"], ["--count", str(COUNT_LIMITS[1] + 1)], ["--seed", "-3"], ["--seed", "x"],
                 ["--lesson", "no-such-lesson"]):
        r = subprocess.run([ATTNVID, "exercises", *args], cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert r.returncode == 2 and r.stdout == "", (args, r.stderr)
        assert len(r.stderr.splitlines()) == 1 and r.stderr.startswith("attnvid: error: "), (args, r.stderr)
    assert not (tmp_path / "media").exists()


def _pdf_text(pdf: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("name", ["default", "three-contexts", "one-decimal", "long-words"])
def test_sheet_has_the_questions_then_the_key_inside_its_pages(name: str, written: dict[str, Path],
                                                              lesson_files: dict[str, str]) -> None:
    from attnvid.publish.handout import MARGIN, PAGE_H, PAGE_W

    pdf = written[name] / "exercises.pdf"
    items = exercises_of(lesson_files[name], 5, 12)
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    text = re.sub(r"^.*: (exercises|answer key)\n+\d+\n", "", text, flags=re.M)  # the footers, between pages
    questions, key = (" ".join(part.split()) for part in text.split("Answer key", 1))
    for ex in items:
        assert " ".join(ex.prompt.split()) in questions, ex.prompt
        assert all(" ".join(g.split()) in questions for g in ex.givens)
        assert f"Answer: {ex.answer_text}" not in questions
        assert f"{ex.number}. {ex.title}" in key and _lines(ex) in key
        assert f"Answer: {ex.answer_text}" in key or re.search(rf"Answer: [a-h]\)\s+{re.escape(ex.answer_text)}", key)
        for c in ex.choices:
            if c.mistake:
                assert f"{c.text}: {c.mistake}" in key
    # every word inside the text area of its page
    bbox = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    pages = re.findall(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', bbox, re.S)
    assert pages
    for w, h, body in pages:
        assert float(w) == pytest.approx(PAGE_W, abs=1) and float(h) == pytest.approx(PAGE_H, abs=1)
        for x0, y0, x1, y1, word in re.findall(
                r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>', body):
            assert float(x0) >= MARGIN - 1 and float(x1) <= PAGE_W - MARGIN + 1, f"{word} leaves the text width"
            assert float(y0) >= MARGIN / 2 - 12 and float(y1) <= PAGE_H - MARGIN / 2 + 4, f"{word} leaves the page"


# The page's self-check ------------------------------------------------------------------------------
def page_with_self_check(folder: Path, spec: str) -> tuple[Path, tuple[Exercise, ...], list[dict[str, Any]]]:
    """The lecture page of ``spec``'s lesson, from a manifest without video (nothing rendered)."""
    from attnvid.publish.page import lecture_page, write_page_assets
    from attnvid.publish.quiz import write_exercise_files
    from attnvid.publish.selfcheck import self_check_section
    from scenes.lecture import LECTURE

    lesson = find_lesson(Path(spec) if "/" in spec else spec)
    titles = [f"{numbered(c.__name__, c.TITLE)} — {s}" if c.TITLE else s for c in LECTURE for s in c.section_names()]
    chapters = [{"title": t, "start_s": 2.0 * k, "end_s": 2.0 * (k + 1)} for k, t in enumerate(titles)]
    items = exercises_of(spec, 0)
    files = write_exercise_files(folder, lesson.title, items, 0, lesson.decimals)
    manifest = {"title": lesson.title, "video": "lecture.mp4", "duration_s": 2.0 * len(chapters), "chapters": chapters,
                "posters": [], "captions": [], "parts": [], "exercises": files}
    page = folder / "index.html"
    page.write_text(lecture_page(manifest, lesson.title, [], self_check_section(items, chapters, files)),
                    encoding="utf-8")
    write_page_assets(folder)
    return page, items, chapters


def test_self_check_section_is_offline_and_links_its_chapters(tmp_path: Path) -> None:
    page, items, chapters = page_with_self_check(tmp_path, "default")
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"(src|href)=\"(https?:)?//", text)
    assert text.count('class="exercise"') == len(items)
    for ex in items:
        k = int(re.search(rf'id="exercise-{ex.number}".*?data-chapter="(\d+)"', text, re.S).group(1))  # type: ignore[union-attr]
        assert chapters[k]["title"].endswith(f" — {ex.section}")


CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


def _drive(page: Any, items: tuple[Exercise, ...], chapters: list[dict[str, Any]]) -> None:
    """Answer every question wrong, then right; the verdicts, the worked solutions and a chapter link."""
    for ex in items:
        card = page.locator(f"#exercise-{ex.number}")
        if ex.numerical:
            wrong = show(num(ex.answer_text) + 3 * ex.tolerance, ex.decimals + 1)
            card.locator("input.answer").fill(wrong)
        else:
            card.locator("input[data-right='0']").first.check()
        card.locator("button.check").click()
        verdict = card.locator(".verdict")
        assert "wrong" in (verdict.get_attribute("class") or ""), ex.kind
        assert verdict.inner_text().startswith("Not quite")
        worked = card.locator("details.worked")
        assert worked.evaluate("d => d.open") and worked.locator("ol li").first.is_visible()
        assert worked.locator("ol").inner_text().split("\n")[0] == ex.solution[0].text
        if ex.numerical:  # the answer as a student types it: the edge of the tolerance, a plain minus
            card.locator("input.answer").fill(show(num(ex.answer_text) - 0.9 * ex.tolerance, ex.decimals + 2))
        else:
            card.locator("input[data-right='1']").check()
        card.locator("button.check").click()
        assert "right" in (verdict.get_attribute("class") or "").split(), ex.kind
        assert verdict.inner_text() == f"Right: {ex.answer_text}."
    ex = items[4]
    page.locator(f"#exercise-{ex.number} button.chapter").click()
    k = next(i for i, c in enumerate(chapters) if c["title"].endswith(ex.section))
    assert page.evaluate("lecture.state().current") == k


@pytest.mark.slow
@pytest.mark.parametrize("name", ["default", "three-contexts"])
def test_self_check_in_headless_chromium(name: str, tmp_path: Path, lesson_files: dict[str, str]) -> None:
    from playwright.sync_api import sync_playwright

    page_file, items, chapters = page_with_self_check(tmp_path, lesson_files[name])
    errors: list[str] = []
    requests: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("request", lambda r: requests.append(r.url))
            page.goto(page_file.resolve().as_uri())
            _drive(page, items, chapters)
            page.locator("#self-check").screenshot(path=str(tmp_path / "self-check.png"))
        finally:
            browser.close()
    assert not errors, errors
    assert all(u.startswith(("file://", "data:", "blob:")) for u in requests), requests


@pytest.mark.render
def test_lecture_folder_holds_the_exercises_and_the_page_checks_them(tmp_path: Path) -> None:
    """A one-scene lecture (DotProducts, rendered): its folder and manifest hold the exercise
    files, the same bytes as ``attnvid exercises`` with seed 0; the page's self-check has every
    question, and only the dot products link a chapter (the other scenes are not in this lecture)."""
    default = (Path(__file__).parents[1] / "attncore" / "lessons" / "default.toml").read_text(encoding="utf-8")
    lesson = tmp_path / "one.toml"
    lesson.write_text(default.replace('title = "One word, two contexts"', 'title = "One scene"')
                      + '\n[[lecture.parts]]\ntitle = "Scores"\nscenes = ["DotProducts"]\n', encoding="utf-8")
    r = subprocess.run([ATTNVID, "lecture", "--lesson", str(lesson), "--jobs", "1"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-2000:]
    folder = tmp_path / r.stdout.strip().splitlines()[-1]
    m = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert m["exercises"] == {"sheet": "exercises.pdf", "gift": "quiz.gift", "moodle_xml": "quiz.xml", "count": 10,
                              "seed": 0}
    alone = run_exercises(tmp_path, "--lesson", str(lesson))
    for f in ("exercises.pdf", "quiz.gift", "quiz.xml"):
        assert (folder / f).read_bytes() == (alone / f).read_bytes(), f
    page = (folder / "index.html").read_text(encoding="utf-8")
    assert page.count('<article class="exercise"') == 10
    links = re.findall(r'data-kind="(\w+)".*?(?:data-chapter="(\d+)"|Explained in)', page, re.S)
    assert [k for k, chapter in links if chapter] == ["dot_product"]
    assert m["chapters"][0]["title"].endswith(PLACES["dot_product"][1])


# In the lesson's language ---------------------------------------------------------------------
def test_french_exercises_write_commas_and_the_quiz_keeps_points(tmp_path: Path) -> None:
    """The built-in French lesson's exercises show 0,26 in every text a student reads (questions,
    options, worked lines, the sheet), while the worked claims and the GIFT and Moodle numerical
    answers keep the '.' that code and Moodle parse; the same numbers as in English."""
    from pygiftparser import parser

    from attncore.i18n import use
    from attnvid.publish.quiz import gift_text, moodle_xml

    trace = trace_lesson(find_lesson("souris"))
    english = make_exercises(trace, 20, 0)
    with use("fr"):
        french = make_exercises(trace, 20, 0)
        gift = gift_text("souris", french)
        xml = moodle_xml("souris", french).decode()
    point, comma = re.compile(r"\d\.\d"), re.compile(r"\d,\d")
    commas = 0
    for en, fr in zip(english, french, strict=True):
        assert (fr.kind, fr.where, fr.answer, fr.decimals) == (en.kind, en.where, en.answer, en.decimals)
        assert fr.title != en.title and fr.prompt != en.prompt, "the question is in French"
        texts = [fr.prompt, *fr.givens, fr.answer_text, *(c.text for c in fr.choices), *(w.text for w in fr.solution)]
        assert not [t for t in texts if point.search(t)], f"{fr.kind}: a '.' number in {texts}"
        commas += sum(bool(comma.search(t)) for t in texts)
        assert [c.mistake for c in fr.choices if c.mistake] != [c.mistake for c in en.choices if c.mistake] \
            or not fr.choices, "the named mistakes are in French"
        for w_en, w_fr in zip(en.solution, fr.solution, strict=True):
            assert w_fr.checks == w_en.checks, "the worked claims are the same, '.' numbers"
            # French sets a space before ';' (the catalogue's clause separator); English does not
            assert re.search(r"\S;", w_fr.text) is None, w_fr.text
            for expr, result in w_fr.checks:
                assert show(evaluate(expr), decimals_of(result)) == result
        if fr.numerical:
            assert fr.answer_number == en.answer_number, "a number field reads '.'"
    assert commas > 20
    numerical = [ex for ex in french if ex.numerical]
    assert numerical
    questions = parser.parseFile(io.StringIO(gift))
    for q, ex in zip(questions, french, strict=True):
        assert q.valid, q.source
        if ex.numerical:
            (answer,) = q.answers.answers
            assert answer.value == num(ex.answer_number) and f"{{#{ex.answer_number}:{ex.tolerance_text}#" in gift
            assert "." in ex.answer_number and ex.answer_text == ex.answer_number.replace(".", ",")
    answers = [a.findtext("text") for q in ET.fromstring(xml) if q.get("type") == "numerical" for a in q.iter("answer")]
    assert answers == [ex.answer_number for ex in numerical]
    # the command writes the lesson's language
    folder = run_exercises(tmp_path, "--lesson", "souris")
    assert "Réponse" in (folder / "quiz.gift").read_text(encoding="utf-8")
    assert "Exercices" in _pdf_text(folder / "exercises.pdf")
