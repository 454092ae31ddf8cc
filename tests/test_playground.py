"""The "Try it" panel (issue 27) in Debian's Chromium: the video's numbers, live.

The page is built without rendering (the panel writer with a small manifest). For the
built-in lessons, the largest lesson at the bounds and a three-context lesson with one
decimal, every number the panel shows for the lesson's own inputs equals ``attnvid values
--json`` (the real command) at the shown decimals, and equals attncore's steps on the same
inputs in every setting; then random edits (cells, sentences, focus, every toggle, each
head) are each compared with attncore run on the lesson edited the same way (its weights
held fixed, as the panel holds them). The page must throw nothing and ask the network for
nothing. The panel's rounding is compared with ``attncore.fmt`` and its matrix product
with numpy's, bit for bit.
"""

from __future__ import annotations

import json
import math
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from attncore import Lesson, fmt, trace_lesson
from attncore.lesson import EXP_LIMIT, find_lesson, load_lesson
from attncore.steps import (
    add_positions,
    causal_mask,
    concat_heads,
    masked_scores,
    masked_softmax,
    mix,
    product,
    project,
    scale,
    scores,
    sinusoidal_encoding,
    softmax,
    split_heads,
)
from attncore.trace import LessonTrace
from attnvid.publish.page import lecture_page, write_page_assets
from attnvid.publish.playground import SIGNIFICANT, STEPS, playground_page, playground_panel

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
SCENES = ["TitleCard", "Embeddings", "SimplifiedAttention", "DotProducts", "Scaling", "Softmax", "ReadingAttention",
          "MixingValues", "TwoContexts", "LearningTheWeights", "LearnedProjections", "ChangingDimension", "MultiHead",
          "CausalMask", "WordOrder"]
LESSONS = ["default", "bank", "souris", "largest", "three"]
EDITS_PER_LESSON = 12  # 60 random edits in all


def three_context_toml() -> str:
    """Three sentences, one decimal, values in tenths (products land on ties at the shown decimals),
    four heads of one dimension each."""
    rng = random.Random(27)
    words = ["cat", "mouse", "keyboard", "and", "are", "friends", "useful", "small"]
    vocab = "\n".join(f"{w} = [{', '.join(str(rng.randint(-12, 15) / 10) for _ in range(4))}]" for w in words)
    sentences = ["cat and mouse are friends", "keyboard and mouse are useful", "small mouse"]
    ctxs = "".join(f'[[contexts]]\nsentence = "{s}"\nfocus = "mouse"\n' for s in sentences)
    return (f'title = "Three contexts"\ndimensions = ["animal", "tech", "grammar", "other"]\ndecimals = 1\n'
            f"[vocabulary]\n{vocab}\n{ctxs}[heads]\ncount = 4\n")  # heads of size 1: products with one column


def small_manifest() -> dict[str, Any]:
    """A lecture's manifest without a render: two chapters per scene, five seconds each."""
    sections, chapters = [], []
    for k, scene in enumerate(s for s in SCENES for _ in range(2)):
        sections.append({"scene": scene, "title": f"section {k}", "path": "", "poster": "", "start_s": 5.0 * k,
                         "end_s": 5.0 * k + 5})
        chapters.append({"title": f"{scene} — section {k}", "start_s": 5.0 * k, "end_s": 5.0 * k + 5})
    return {"video": "lecture.mp4", "duration_s": 5.0 * len(chapters), "chapters": chapters, "sections": sections,
            "posters": [], "parts": [], "playground": "playground.html"}


class Built:
    """The lessons' pages, built when a test first asks for one; ``attnvid values --json`` of
    every lesson is started at once on the first request for one and read when needed."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.entries: dict[str, dict[str, Any]] = {}
        self.procs: dict[str, subprocess.Popen[str]] = {}
        self.values: dict[str, dict[str, Any]] = {}

    def spec(self, name: str) -> str:
        if name not in ("largest", "three"):
            return name
        path = self.folder / f"{name}.toml"
        if not path.exists():
            from test_lesson_scenes import bounds_toml

            path.write_text(bounds_toml("largest") if name == "largest" else three_context_toml(), encoding="utf-8")
        return str(path)

    def __getitem__(self, name: str) -> dict[str, Any]:
        if name not in self.entries:
            spec = self.spec(name)
            lesson = find_lesson(spec) if spec == name else load_lesson(spec)
            trace = trace_lesson(lesson)
            page = self.folder / name
            page.mkdir()
            manifest = small_manifest()
            (page / "index.html").write_text(
                lecture_page(manifest, lesson.title, [], panel=playground_panel(trace, manifest)), encoding="utf-8"
            )
            (page / "playground.html").write_text(playground_page(trace, manifest), encoding="utf-8")
            write_page_assets(page)
            self.entries[name] = {"lesson": lesson, "trace": trace, "dir": page}
        return self.entries[name]

    def values_json(self, name: str) -> dict[str, Any]:
        if not self.procs:
            for n in LESSONS:
                self.procs[n] = subprocess.Popen(
                    [sys.executable, "-m", "attnvid", "values", "--json", "--lesson", self.spec(n)],
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                )
        if name not in self.values:
            stdout, stderr = self.procs[name].communicate(timeout=180)
            assert self.procs[name].returncode == 0, stderr
            self.values[name] = json.loads(stdout)
        return self.values[name]

    def close(self) -> None:
        for proc in self.procs.values():
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    b = Built(tmp_path_factory.mktemp("playground"))
    yield b
    b.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        yield b
        b.close()


class Page:
    """One page of the panel, with every page error and request recorded."""

    def __init__(self, browser: Any, path: Path, width: int = 1280) -> None:
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page = browser.new_page(viewport={"width": width, "height": 900})
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.goto(path.resolve().as_uri())
        self.page.wait_for_function("window.playground !== undefined")

    def close(self) -> None:
        self.page.close()
        assert not self.errors, self.errors
        assert all(u.startswith("file://") for u in self.requests), self.requests

    def state(self) -> dict[str, Any]:
        return dict(self.page.evaluate("playground.state()"))

    def message(self) -> dict[str, Any]:
        return dict(self.page.evaluate("playground.message()"))

    def numbers(self) -> list[list[Any]]:
        return list(self.page.evaluate("""() => [...document.querySelectorAll('#playground [data-matrix]')].map(e => [
            e.dataset.matrix, Number(e.dataset.context), Number(e.dataset.row),
            e.dataset.col === undefined ? null : Number(e.dataset.col),
            e.dataset.head === undefined ? null : Number(e.dataset.head), e.dataset.value,
            e.tagName === 'INPUT' ? e.value : e.textContent])"""))

    def control(self, name: str) -> Any:
        return self.page.locator(f'#playground [data-control="{name}"]')

    def setting(self, weights: str, scaled: bool = True, causal: bool = False, positions: bool = False) -> None:
        self.control("weights").select_option(weights)
        for name, on in (("scaled", scaled), ("causal", causal), ("positions", positions)):
            self.control(name).set_checked(on)


# --- what attncore computes for a lesson in a setting -----------------------------------------


def with_weights(lesson: Lesson, trace: LessonTrace) -> Lesson:
    """``lesson`` with its trained (or drawn) weights written in, so that a trace of an edited
    copy uses the very weights the panel holds fixed, without training again."""
    w = trace.weights
    explicit = tuple((name, tuple(tuple(float(v) for v in row) for row in m)) for name, m in
                     (("W_Q", w.W_Q), ("W_K", w.W_K), ("W_V", w.W_V), ("W_O", w.W_O), ("W_V_reshape", w.W_V_reshape)))
    return replace(lesson, projections=replace(lesson.projections, explicit=explicit, weights="random"))


def edited(base: Lesson, state: dict[str, Any]) -> Lesson:
    """The lesson as the panel's state has it: vocabulary, sentences and focus words."""
    contexts = tuple(replace(c, tokens=tuple(s["tokens"]), focus=s["focus"])
                     for c, s in zip(base.contexts, state["contexts"], strict=True))
    vocabulary = tuple((w, tuple(float(x) for x in v)) for w, v in state["vocabulary"])
    return replace(base, vocabulary=vocabulary, contexts=contexts)


Key = tuple[str, int, int | None, int | None]  # (matrix, row, col, head)


def expected(lesson: Lesson, state: dict[str, Any]) -> dict[Key, float]:
    """Every number the panel shows in ``state``, by attncore's steps; where the setting is a
    stage of attncore's trace, the trace itself is checked to hold the same values."""
    trace = trace_lesson(lesson)
    c = state["context"]
    ctx, ct = lesson.contexts[c], trace.contexts[c]
    f, n, d = ctx.focus_index, len(ctx.tokens), lesson.d
    w = trace.weights
    out: dict[Key, float] = {}

    def put(name: str, m: Any, head: int | None = None) -> None:
        for (i, j), v in np.ndenumerate(np.asarray(m)):
            out[(name, i, j, head)] = float(v)

    x = np.array([lesson.vector(t) for t in ctx.tokens])
    put("embeddings", x)
    xin = add_positions(x) if state["positions"] else x
    if state["positions"]:
        put("encoding", sinusoidal_encoding(n, d))
        put("inputs", xin)

    def attend(q: Any, k: Any, v: Any) -> tuple[Any, ...]:
        s = scores(q, k)
        sc = scale(s, q.shape[1]) if state["scaled"] else s
        m = masked_scores(sc, causal_mask(n)) if state["causal"] else sc
        a = masked_softmax(m) if state["causal"] else softmax(m)
        return q, k, v, s, sc, m, a, mix(a, v)

    weights, head = state["weights"], None
    if weights == "simple":
        q, k, v, s, sc, m, a, o = attend(xin, xin, xin)
        output = o
    else:
        qf, kf, vf = project(xin, w.W_Q, "W_Q"), project(xin, w.W_K, "W_K"), project(xin, w.W_V, "W_V")
        if weights == "trained":
            q, k, v, s, sc, m, a, o = attend(qf, kf, vf)
            output = o
            mats = (w.W_Q, w.W_K, w.W_V)
        else:
            head = state["head"]
            heads = [attend(qh, kh, vh) for qh, kh, vh in
                     zip(split_heads(qf, lesson.heads), split_heads(kf, lesson.heads), split_heads(vf, lesson.heads))]
            q, k, v, s, sc, m, a, o = heads[head]
            concat = concat_heads([h[-1] for h in heads])
            output = project(concat, w.W_O, "W_O")
            put("concat", concat)
            put("W_O", w.W_O)
            mats = tuple(split_heads(wm, lesson.heads)[head] for wm in (w.W_Q, w.W_K, w.W_V))
            _check_heads(ct, heads, output, state)
        for name, wm in zip(("W_Q", "W_K", "W_V"), mats):
            put(name, wm, head)
        for name, mm in (("Q", q), ("K", k), ("V", v)):
            put(name, mm, head)
    put("scores", s, head)
    if state["scaled"]:
        put("scaled", sc, head)
    if state["causal"]:
        put("masked", m, head)
    put("attention", a, head)
    put("output", o, head)
    put("output", output)  # the focus word's bars, and the multi-head output (after W_O)
    exps = np.exp(m[f])
    for j, e in enumerate(exps):
        out[("exp", f, j, head)] = float(e)
    out[("sum", f, None, head)] = float(exps.sum())
    put("weighted", a[f][:, None] * v, head)
    row = output[f]
    best = int(np.argmax(row))
    out[("lean", f, best, None)] = float(row[best] - max(row[j] for j in range(d) if j != best))
    _check_stage(ct, state, s, sc, m, a, o)
    return out


def _check_stage(ct: Any, state: dict[str, Any], s: Any, sc: Any, m: Any, a: Any, o: Any) -> None:
    """Where the setting is one of the trace's stages, the steps composed here are the trace's, bit for bit."""
    simple, scaled = state["weights"] == "simple", state["scaled"]
    causal, positions = state["causal"], state["positions"]
    if simple and not causal and not positions:
        if scaled:
            pairs = [(s, ct.scores), (sc, ct.scaled), (a, ct.attention), (o, ct.output)]
        else:
            pairs = [(a, ct.unscaled_attention)]
    elif simple and causal and not positions and scaled:
        pairs = [(m, ct.causal.masked), (a, ct.causal.attention), (o, ct.causal.output)]
    elif simple and positions and not causal and scaled:
        pairs = [(sc, ct.positional.scaled), (a, ct.positional.attention), (o, ct.positional.output)]
    elif state["weights"] == "trained" and scaled and not causal and not positions:
        p = ct.projected
        pairs = [(s, p.scores), (sc, p.scaled), (a, p.attention), (o, p.output)]
    else:
        pairs = []
    for got, want in pairs:
        assert np.array_equal(got, want), "the composed steps differ from attncore's trace"


def _check_heads(ct: Any, heads: list[tuple[Any, ...]], output: Any, state: dict[str, Any]) -> None:
    if state["scaled"] and not state["causal"] and not state["positions"]:
        for h, t in zip(heads, ct.multi_head.heads, strict=True):
            assert np.array_equal(h[6], t.attention) and np.array_equal(h[7], t.output)
        assert np.array_equal(output, ct.multi_head.output)


def shown(x: float, decimals: int, matrix: str = "") -> str:
    """A number as the panel's ``data-value`` carries it: ``fmt`` with an ASCII minus; an
    exponential from ``EXP_LIMIT`` on with ``SIGNIFICANT`` digits and its power of ten."""
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if matrix in ("exp", "sum") and abs(x) >= EXP_LIMIT:
        d = Decimal(repr(x))
        power = d.adjusted()
        one = Decimal(1).scaleb(1 - SIGNIFICANT)
        mantissa = d.scaleb(-power).quantize(one, rounding=ROUND_HALF_UP)
        if mantissa >= 10:
            mantissa, power = (mantissa / 10).quantize(one, rounding=ROUND_HALF_UP), power + 1
        return f"{mantissa}e{power}"
    return fmt(x, decimals).replace("\u2212", "-")


SUPERSCRIPTS = str.maketrans("\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079", "0123456789")


def text_value(text: str) -> str:
    """What a number reads as on screen, written as its ``data-value`` is."""
    text = text.replace("\u2212", "-").replace("\u221e", "inf")
    if " \u00d7 10" in text:
        mantissa, power = text.split(" \u00d7 10")
        return f"{mantissa}e{power.translate(SUPERSCRIPTS)}"
    return text


def differences(p: Page, lesson: Lesson, state: dict[str, Any]) -> list[str]:
    """What the panel shows against what attncore computes for ``lesson`` in the panel's ``state``."""
    want = expected(lesson, state)
    dec, bad, seen = lesson.decimals, [], set()
    for matrix, context, row, col, head, value, text in p.numbers():
        key = (matrix, row, col, head)
        seen.add(key)
        where = f"{matrix}[{row},{col}] head {head} ({state['weights']}, scaled {state['scaled']}, " \
                f"causal {state['causal']}, positions {state['positions']})"
        if context != state["context"] or key not in want:
            bad.append(f"{where}: not expected in this setting")
        elif value != shown(want[key], dec, matrix):
            bad.append(f"{where}: shows {value}, attncore {shown(want[key], dec, matrix)} ({want[key]!r})")
        elif text_value(text) != value and not (matrix == "embeddings" and float(text_value(text)) == float(value)):
            bad.append(f"{where}: reads {text!r} but data-value is {value}")
    missing = sorted({k[0] for k in want} - {k[0] for k in seen})
    return bad + [f"not shown: {missing}"] * bool(missing)


# --- the tests ------------------------------------------------------------------------------------


def test_pages_are_offline_and_steps_are_named_as_in_the_lecture(built: Built) -> None:
    from scenes.lecture import LECTURE

    titles = {c.__name__: c.TITLE for c in LECTURE}  # numbered alike: scene_heading
    for _, title, scene, _ in STEPS:
        assert titles[scene] == title, f"the step of {scene} is titled {title!r}, the scene {titles[scene]!r}"
    assert [c.__name__ for c in LECTURE] == SCENES
    from attnvid.publish import playground
    from attnvid.publish.assemble import lecture_manifest
    js = (Path(playground.__file__).parent / "playground.js").read_text(encoding="utf-8")
    assert "heatInk(x)" in js and "contrast(hex(inks[0]), cell) >= 4.5" in js, (
        "the heat map's ink follows the video's rule"
    )

    assert lecture_manifest(built["default"]["lesson"], "low", 1.0, [], [], "none")["playground"] == "playground.html"
    for lesson in ("default", "largest"):
        for name in ("index.html", "playground.html"):
            text = (built[lesson]["dir"] / name).read_text(encoding="utf-8")
            assert not re.search(r"(src|href)=\"(https?:)?//", text), "the page must not load anything from the network"
            assert 'id="playground"' in text and "playground.html" in (
                text if name == "index.html" else "playground.html"
            )


SETTINGS = [("simple", True, False, False), ("simple", False, False, False), ("simple", True, True, False),
            ("simple", True, False, True), ("trained", True, False, False)]


def json_value(c: dict[str, Any], setting: tuple[str, bool, bool, bool], key: Key) -> float | None:
    """The value ``attnvid values --json`` has for a number the panel shows, when it has one."""
    matrix, row, col, head = key
    weights, scaled, causal, positions = setting
    if matrix == "embeddings":
        return float(c["embeddings"][row][col])
    table: dict[str, Any] | None = None
    if weights == "simple" and scaled and not causal and not positions:
        table = c
    elif weights == "simple" and causal and scaled and not positions:
        table = c["causal"]
    elif weights == "simple" and positions and scaled and not causal:
        table = c["positional"]
    elif weights == "trained" and scaled and not causal and not positions:
        table = c["projected"]
    elif weights.startswith("head:") and scaled and not causal and not positions:
        mh = c["multi_head"]
        table = mh["heads"][int(weights[5:])] if head is not None else mh
    if table is None or matrix not in table or col is None:
        return None
    return float(table[matrix][row][col])


@pytest.mark.slow
@pytest.mark.parametrize("name", LESSONS)
def test_the_lessons_numbers_are_the_videos(built: Built, browser: Any, name: str) -> None:
    """Every number shown for the lesson's own inputs, in every setting and context, is what
    ``attnvid values --json`` has (where it has it) and what attncore's steps give."""
    entry = built[name]
    lesson, trace = entry["lesson"], entry["trace"]
    base = with_weights(lesson, trace)
    values = built.values_json(name)
    p = Page(browser, entry["dir"] / ("index.html" if name == "default" else "playground.html"))
    settings = SETTINGS + [(f"head:{h}", True, False, False) for h in range(lesson.heads)]
    from_json = 0
    for c in range(len(lesson.contexts)):
        p.page.locator(f'#playground [data-control="context"][data-index="{c}"]').click()
        for setting in settings:
            p.setting(*setting)
            state = p.state()
            assert state["context"] == c
            bad = differences(p, base, state)
            assert not bad, f"{name}, context {c}: {bad[:5]}"
            for matrix, _, row, col, head, value, _ in p.numbers():
                v = json_value(values["contexts"][c], setting, (matrix, row, col, head))
                if v is not None:
                    assert value == shown(v, lesson.decimals), f"{name} {setting} {matrix}[{row},{col}]: {value} vs {v}"
                    from_json += 1
    assert from_json > 100 * len(lesson.contexts)
    p.close()


#: The first two edits of each lesson, so that every toggle and weight setting is among the edits.
FORCED = ["toggle scaled", "weights head:1", "toggle causal", "weights trained", "toggle positions", "weights head:0",
          "sentence", "focus", "toggle scaled", "weights simple"]


def random_edit(p: Page, rng: random.Random, lesson: Lesson, forced: str = "") -> str:
    """One random edit through the panel's controls (or the ``forced`` one); what it was."""
    state = p.state()
    kind = forced.split()[0] if forced else rng.choice(
        ["cell", "cell", "cell", "sentence", "focus", "toggle", "weights", "context"])
    dec = lesson.decimals
    if kind == "cell":
        toks = state["contexts"][state["context"]]["tokens"]
        i, k = rng.randrange(len(toks)), rng.randrange(lesson.d)
        v = rng.choice([rng.randint(-10 * 10**dec, 10 * 10**dec), rng.randint(-3 * 10**dec, 3 * 10**dec)]) / 10**dec
        text = f"{v:.{dec}f}".rstrip("0").rstrip(".").replace("-", rng.choice(["-", "\u2212"]))
        cell = p.page.locator(f'#playground input[data-matrix="embeddings"][data-row="{i}"][data-col="{k}"]')
        cell.fill(text)
        cell.press("Enter")
        return f"cell {toks[i]}.{k} = {text}"
    if kind == "sentence":
        words = [w for w, _ in lesson.vocabulary]
        others = {t for c, s in enumerate(state["contexts"]) if c != state["context"] for t in s["tokens"]}
        for _ in range(20):
            toks = [rng.choice(words) for _ in range(rng.randint(2, 8))]
            if len(others | set(toks)) <= 15:
                break
        else:  # the other sentences leave no room for new words: reuse theirs
            toks = [rng.choice(sorted(others)) for _ in range(rng.randint(2, 8))]
        box = p.control("sentence")
        box.fill(" ".join(toks))
        box.press("Enter")
        return f"sentence {' '.join(toks)}"
    if kind == "focus":
        toks = state["contexts"][state["context"]]["tokens"]
        p.control("focus").select_option(rng.choice(toks))
        return "focus"
    if kind == "toggle":
        name = forced.split()[1] if forced else rng.choice(["scaled", "causal", "positions"])
        p.control(name).click()
        return f"toggle {name}"
    if kind == "weights":
        option = (
            forced.split()[1]
            if forced
            else rng.choice(["simple", "trained"] + [f"head:{h}" for h in range(lesson.heads)])
        )
        p.control("weights").select_option(option)
        return f"weights {option}"
    c = rng.randrange(len(lesson.contexts))
    p.page.locator(f'#playground [data-control="context"][data-index="{c}"]').click()
    return f"context {c}"


@pytest.mark.slow
def test_random_edits_equal_attncore_on_the_edited_lesson(built: Built, browser: Any) -> None:
    rng = random.Random(2027)
    report, edits, kinds = [], 0, set()
    for k, name in enumerate(LESSONS):
        entry = built[name]
        base = with_weights(entry["lesson"], entry["trace"])
        p = Page(browser, entry["dir"] / "playground.html")
        for e in range(EDITS_PER_LESSON):
            what = random_edit(p, rng, base, FORCED[2 * k + e] if e < 2 else "")
            kinds.add(what.split()[0])
            kinds.add(what if what.startswith(("toggle", "weights")) else what.split()[0])
            state = p.state()
            assert not p.message()["error"], f"{name}: {what}: {p.message()['text']}"
            bad = differences(p, edited(base, state), state)
            report += [f"{name}: after {what}: {b}" for b in bad]
            edits += 1
        p.close()
    assert edits >= 50
    assert kinds >= {"cell", "sentence", "focus", "context", "toggle scaled", "toggle causal", "toggle positions",
                     "weights simple", "weights trained", "weights head:0", "weights head:1"}, kinds
    assert not report, f"{len(report)} differences: {report[:8]}"


FMT_VALUES = [0.125, -0.125, 4.625, 2.675, 1.005, 0.5, 1.5, 2.5, -2.5, 0.05, 0.15, 0.25, 0.35, 0.45, 9.995, -9.995,
              0.0005, 0.0015, 1e-7, -1e-7, 5e-324, -0.0, 0.0, 1e21, 1.5e16, 123456789.125, 0.1 + 0.2, 1 / 3, -2 / 3,
              0.07999999999999999, 0.9999999999999999, 99.995, 0.004999999999999999, 6.02e23, 2.5e-5]


@pytest.mark.slow
def test_the_one_rounding_rule_is_attncores(built: Built, browser: Any) -> None:
    """``fmt`` in the page against ``attncore.fmt``: ties, binary ties, tiny, huge and negative zero."""
    rng = random.Random(5)
    values = list(FMT_VALUES)
    values += [k / 2**e for k in range(-40, 41) for e in (1, 3, 4, 7)]  # exact binary ties
    values += [rng.randint(-10**6, 10**6) / 10**rng.randint(1, 5) for _ in range(3000)]  # decimal ties and near
    values += [rng.uniform(-1000, 1000) for _ in range(2000)]
    values += [math.exp(rng.uniform(-30, 12)) * rng.choice([-1, 1]) for _ in range(500)]
    p = Page(browser, built["default"]["dir"] / "playground.html")
    got = p.page.evaluate("vs => vs.map(v => [1, 2, 3].map(d => playground.fmt(v, d)))", values)
    big = [v for v in values if abs(v) >= EXP_LIMIT] + [EXP_LIMIT, 999999.5, 9999995.0, 1.5e300, 123456.5]
    big += [math.exp(rng.uniform(11.6, 709)) for _ in range(300)]  # exponentials the video never shows
    got_big = p.page.evaluate("vs => vs.map(v => playground.expPlain(v))", big)
    p.close()
    bad = [(v, d, g[d - 1], fmt(v, d)) for v, g in zip(values, got, strict=True) for d in (1, 2, 3)
           if g[d - 1] != fmt(v, d)]
    bad += [(v, g, shown(v, 2, "exp")) for v, g in zip(big, got_big, strict=True) if g != shown(v, 2, "exp")]
    assert not bad, bad[:10]
    assert len(big) > 100


@pytest.mark.slow
def test_the_matrix_product_is_attncores_bit_for_bit(built: Built, browser: Any) -> None:
    """The page's products against attncore's on the lesson's shapes, bit for bit (an order of
    additions of their own, the same on every CPU: numpy's BLAS picks its kernel by the CPU)."""
    rng = random.Random(9)
    cases = []
    for _ in range(400):
        n, k, m = rng.randint(2, 8), rng.randint(1, 8), rng.choice([1, 1, 2, 3, 4, 5, 6, 7, 8])
        dec = rng.randint(1, 3)
        a = np.array([[rng.randint(-10 * 10**dec, 10 * 10**dec) / 10**dec for _ in range(k)] for _ in range(n)])
        if rng.random() < 0.3:
            a = np.array([[rng.random() for _ in range(k)] for _ in range(n)])
        b = np.array([[rng.randint(-3 * 10**dec, 3 * 10**dec) / 10**dec for _ in range(m)] for _ in range(k)])
        cases.append((a.tolist(), b.tolist(), product(a, b).tolist()))
    p = Page(browser, built["default"]["dir"] / "playground.html")
    got = p.page.evaluate("cs => cs.map(([a, b]) => playground.matmul(a, b))", [c[:2] for c in cases])
    p.close()
    bad = [(c[0], c[1]) for c, g in zip(cases, got, strict=True) if g != c[2]]
    assert not bad, f"{len(bad)} of {len(cases)} products differ, e.g. {bad[0]}"


BAD_EDITS = [
    ("cell", "abc", "is not a number"),
    ("cell", "1e3", "is not a number"),
    ("cell", "11", "outside the lesson's range"),
    ("cell", "\u221210.5", "outside the lesson's range"),
    ("cell", "0.125", "needs 3 decimals"),
    ("sentence", "mouse", "the lesson allows 2 to 8"),
    ("sentence", "cat and mouse are friends and cat and mouse", "the lesson allows 2 to 8"),
    ("sentence", "cat and dog", "“dog” is not in the vocabulary"),
    ("sentence", "Cat and mouse", "did you mean “cat”"),
    ("sentence", "", "the lesson allows 2 to 8"),
]


@pytest.mark.slow
def test_bad_edits_get_a_message_and_change_nothing(built: Built, browser: Any) -> None:
    p = Page(browser, built["default"]["dir"] / "index.html")
    before = p.state()
    numbers = p.numbers()
    for kind, text, says in BAD_EDITS:
        box = (p.page.locator('#playground input[data-matrix="embeddings"][data-row="2"][data-col="1"]')
               if kind == "cell" else p.control("sentence"))
        box.fill(text)
        box.press("Enter")
        msg = p.message()
        assert msg["error"] and says in msg["text"], (text, msg)
        assert p.state() == before and p.numbers() == numbers, f"{text!r} changed the panel"
    p.close()
    # The largest lesson's sentences use 15 different words, as many as the lesson allows.
    p = Page(browser, built["largest"]["dir"] / "playground.html")
    used = {t for c in p.state()["contexts"] for t in c["tokens"]}
    spare = next(w for w, _ in p.state()["vocabulary"] if w not in used)
    first = p.state()["contexts"][0]["tokens"]
    box = p.control("sentence")
    box.fill(" ".join([spare] + first[1:]))
    box.press("Enter")
    msg = p.message()
    assert msg["error"] and "at most 15" in msg["text"], msg
    p.close()


@pytest.mark.slow
def test_keyboard_only_and_the_chapter_links(built: Built, browser: Any) -> None:
    """Tab, space and Enter reach and drive the controls without the page's presenter keys
    reacting; a step's link plays its chapter, a chapter's link shows its step."""
    p = Page(browser, built["default"]["dir"] / "index.html")
    page = p.page
    page.evaluate(
        "() => { window.plays = 0; lecture.video.play = () => { window.plays++; return Promise.resolve(); }; }"
    )
    page.locator('#playground [data-control="reset"]').focus()
    for _ in range(12):  # back through the controls to the causal mask
        if page.evaluate("document.activeElement.dataset.control") == "causal":
            break
        page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.dataset.control") == "causal"
    page.keyboard.press("Space")
    assert p.state()["causal"] is True
    assert page.evaluate("window.plays") == 0, "space reached the presenter keys"
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    assert p.state()["positions"] is True
    page.locator('#playground [data-control="context"][data-index="1"]').focus()
    page.keyboard.press("Space")  # a button of the panel, not the presenter's "go on"
    assert p.state()["context"] == 1 and page.evaluate("window.plays") == 0
    page.locator('#playground [data-control="focus"]').focus()
    page.keyboard.press("ArrowDown")  # the next focus word, not the next section
    assert p.state()["contexts"][1]["focus"] != "mouse" and page.evaluate("lecture.state().current") == 0
    cell = page.locator('#playground input[data-matrix="embeddings"][data-row="0"][data-col="0"]')
    cell.focus()
    page.keyboard.press("Control+A")
    page.keyboard.type("1.5")
    page.keyboard.press("Enter")
    state = p.state()
    assert dict(state["vocabulary"])[state["contexts"][1]["tokens"][0]][0] == 1.5
    assert page.evaluate("document.activeElement.dataset.matrix") == "embeddings", "the focus stays on the cell"
    # A step's link plays its chapter; a chapter's link turns on what its step needs.
    page.locator("#pg-step-softmax .pg-video").click()
    assert page.evaluate("window.plays") == 1
    softmax = SCENES.index("Softmax") * 2
    assert page.evaluate("lecture.state().current") == softmax
    page.locator("#chapters > li").nth(SCENES.index("MultiHead") * 2).locator(".pg-try").click()
    assert p.state()["weights"] == "heads"
    assert page.evaluate("document.activeElement.id") == "pg-title-heads"
    p.close()


@pytest.mark.slow
def test_phone_width_fits_and_screenshots(built: Built, browser: Any, tmp_path: Path) -> None:
    """At 375 px nothing is wider than the window (matrices scroll in their own boxes)."""
    for name, width in (("largest", 375), ("default", 375), ("default", 1280)):
        p = Page(browser, built[name]["dir"] / "playground.html", width)
        p.setting("head:0", causal=True, positions=True)
        assert p.page.evaluate("document.documentElement.scrollWidth") <= width
        p.page.screenshot(path=str(tmp_path / f"{name}-{width}.png"), full_page=True)
        p.close()


def test_a_light_lecture_gets_a_light_panel() -> None:
    """--theme light (issue 26): the panel takes the light style's colours, and its surfaces,
    the self-check's too, come from variables the light page sets (no dark box left on a
    light page)."""
    import attnvid.publish.selfcheck as selfcheck
    from attnvid.publish.page import LIGHT_CSS, LIGHT_LINK, LIGHT_PANEL_VARS
    from scenes.theme import LIGHT_ROLE, ROLE

    trace = trace_lesson()
    manifest = small_manifest()
    dark_page = playground_page(trace, manifest)
    light_page = playground_page(trace, {**manifest, "style": "light"})
    assert LIGHT_ROLE["animal"] in light_page and ROLE["animal"] not in light_page
    assert ROLE["animal"] in dark_page and LIGHT_LINK in light_page and LIGHT_LINK not in dark_page
    assert LIGHT_PANEL_VARS in LIGHT_CSS  # light.css, beside the page
    for source in (
        Path(selfcheck.__file__).with_name("playground.css"),
        Path(selfcheck.__file__).with_name("selfcheck.css"),
    ):
        css = source.read_text(encoding="utf-8")
        bare = re.findall(r"(?<!, )#[0-9a-fA-F]{6}\b(?!\))", css)  # a colour outside var(--x, fallback)
        assert not bare, f"{source.name}: colours not behind a variable: {bare}"
