"""Claims as data (issue 12): every claim of the lecture holds, checked here by evaluators
written from the kinds' definitions (not attncore's), over values recomputed in plain
Python (tests/reference.py); and the lecture says every claim of a section in that section.

Lessons: the built-in ones, the bounds lessons and seeded random lessons of
test_lesson_scenes (1, 2 and 3 decimals).
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest
import reference as ref
from conftest import built_scene
from test_lesson_scenes import lesson_toml, random_lesson

from attncore import LessonTrace, builtin_lesson, builtin_lessons, parse_lesson, trace_lesson
from attncore.claims import KINDS, Claim, lesson_claims
from attncore.lesson import tomllib

BOUNDS = {"smallest": (1, 2, 2, 1), "largest": (3, 8, 8, 4), "long-narrow": (2, 8, 2, 2), "short-wide": (3, 2, 8, 1),
          "three-heads": (1, 5, 6, 3)}


def generated(n_ctx: int, n_tok: int, d: int, heads: int, seed: int = 1, decimals: int = 2) -> LessonTrace:
    return trace_lesson(parse_lesson(tomllib.loads(lesson_toml(n_ctx, n_tok, d, heads, seed, decimals)), "gen.toml"))


#: The two sentences of the near-tie lessons (below and NEAR_TIE), after their vocabulary.
PETS_DESK = """
[[contexts]]
name = "pets"
sentence = "cat and dog like mouse"
focus = "mouse"
leans = "animal"
[[contexts]]
name = "desk"
sentence = "keyboard and screen need mouse"
focus = "mouse"
leans = "tech"
[projections]
seed = 5
d_v = 2
"""
#: W_Q and W_K set by hand, the same block for both heads: the heads agree exactly, "mouse" gives
#: 0.9 to “cat” and “dog” in each, and training (of W_V and W_O only) cannot move the attention rows.
AGREE = """
title = "Heads that agree"
dimensions = ["animal", "tech", "grammar", "other"]
decimals = 1
[vocabulary]
mouse = [2, 2, 0, 0]
cat = [3, 0, 0, 1]
dog = [2.9, 0, 0, 1]
and = [0, 0, 2, 0]
like = [0, 0, 1.5, 0]
keyboard = [0, 3, 0, 1]
screen = [0, 2.9, 0, 1]
need = [0, 0, 1.5, 0]
""" + PETS_DESK + """W_Q = [[1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 0, 0], [0, 0, 0, 0]]
W_K = [[1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 0, 0], [1, 1, 1, 1]]
"""


def agree_trace(text: str = AGREE) -> LessonTrace:
    return trace_lesson(parse_lesson(tomllib.loads(text), "agree.toml"))


LESSONS: dict[str, Callable[[], LessonTrace]] = {
    **{f"builtin-{name}": (lambda name=name: trace_lesson(builtin_lesson(name))) for name in builtin_lessons()},
    "hand-set-heads-agree": agree_trace,
    **{f"bounds-{k}-dec{dec}": (lambda s=s, dec=dec: generated(*s, decimals=dec))
       for k, s in BOUNDS.items() for dec in (1, 2, 3)},
    **{f"random-{e}": (lambda e=e: generated(*random_lesson(e))) for e in range(12)},
}


# -- plain-Python values the claims rest on -------------------------------------------------
def shown(x: float, decimals: int) -> Decimal:
    """What the screen shows: half away from zero."""
    return Decimal(repr(float(x))).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)


def numbers_in(text: str) -> list[Decimal]:
    return [Decimal(m.replace("−", "-")) for m in re.findall(r"[−-]?\d+\.\d+|[−-]?\d+", text)]


def vector(trace: LessonTrace, word: str) -> list[float]:
    return [float(v) for v in trace.lesson.vector(word)]


def weights(trace: LessonTrace, name: str) -> list[list[float]]:
    return [[float(v) for v in row] for row in getattr(trace.weights, name)]


def later_row(trace: LessonTrace, c: int, stage: str, i: int, x: list[list[float]]) -> list[float] | None:
    """The rows of the later steps (projections, heads, mask, positions), from the reference."""
    w = {n: weights(trace, n) for n in ("W_Q", "W_K", "W_V", "W_O")}
    if stage == "projected_attention":
        return ref.attention(ref.matmul(x, w["W_Q"]), ref.matmul(x, w["W_K"]), ref.matmul(x, w["W_V"]))[0][i]
    if stage.startswith("head:"):
        return ref.multi_head(x, w["W_Q"], w["W_K"], w["W_V"], w["W_O"], trace.lesson.heads).weights[int(stage[5:])][i]
    if stage == "causal_attention":
        return ref.causal_attention(x, x, x)[0][i]
    if stage.startswith("snapshot:"):  # the training record itself: nothing to recompute
        assert trace.training is not None and i == trace.lesson.contexts[c].focus_index
        return [float(v) for v in trace.training.snapshots[c][int(stage[9:])]]
    order = list(trace.contexts[c].positional.shuffled_order)
    if stage in ("positional_output", "shuffled_positional_output", "shuffled_output"):
        if stage != "positional_output":
            x, i = [x[k] for k in order], order.index(i)
        if stage != "shuffled_output":
            pe = ref.sinusoidal_encoding(len(x), len(x[0]))
            x = [[a + b for a, b in zip(r, p)] for r, p in zip(x, pe)]
        return ref.attention(x, x, x)[1][i]
    return None


def row_of(trace: LessonTrace, c: int, stage: str, i: int) -> list[float]:
    """Row ``i`` of a matrix of context ``c``, recomputed from the lesson's vectors."""
    ctx = trace.lesson.contexts[c]
    x = [vector(trace, t) for t in ctx.tokens]
    later = later_row(trace, c, stage, i, x)
    if later is not None:
        return later
    s = ref.scores(x, x)
    if stage == "scores":
        return s[i]
    if stage == "unscaled_attention":
        return ref.softmax(s)[i]
    weights, out = ref.attention(x, x, x)
    if stage == "attention":
        return weights[i]
    if stage == "output":
        return out[i]
    raise AssertionError(f"no reference for stage {stage!r}: add one")


def name_of(trace: LessonTrace, c: int, j: int) -> str:
    ctx = trace.lesson.contexts[c]
    return "itself" if j == ctx.focus_index else f"“{ctx.tokens[j]}”"


# -- one evaluator per kind, from its definition --------------------------------------------
def strong_in(cl: Claim, t: LessonTrace) -> None:
    v, k = vector(t, cl.args["word"]), t.lesson.dimensions.index(cl.args["dimension"])
    assert v[k] > 0 and all(abs(x) <= v[k] / 3 for i, x in enumerate(v) if i != k)
    clearest_example(cl, t)


def strongest_in(cl: Claim, t: LessonTrace) -> None:
    v, k = vector(t, cl.args["word"]), t.lesson.dimensions.index(cl.args["dimension"])
    assert v[k] > 0 and all(abs(x) < v[k] for i, x in enumerate(v) if i != k)
    clearest_example(cl, t)


def clearest_example(cl: Claim, t: LessonTrace) -> None:
    """The word is no focus word and has the largest margin of any word of the sentences."""
    focus = {c.focus for c in t.lesson.contexts}
    word, k = cl.args["word"], t.lesson.dimensions.index(cl.args["dimension"])
    assert word not in focus, "the example is the ambiguous focus word"

    def margin(w: str, m: int) -> float:
        v = vector(t, w)
        return v[m] - max((abs(x) for i, x in enumerate(v) if i != m), default=0.0)

    words = {w for c in t.lesson.contexts for w in c.tokens} - focus
    assert margin(word, k) >= max(margin(w, m) for w in words for m in range(t.lesson.d)) - 1e-12
    assert f"“{word}”" in cl.text and cl.args["dimension"] in cl.text
    if cl.where == "narration":
        assert Decimal(repr(vector(t, word)[k])) in numbers_in(cl.text)


def strong_in_each(cl: Claim, t: LessonTrace) -> None:
    v, dims = vector(t, cl.args["word"]), list(t.lesson.dimensions)
    named = [dims.index(d) for d in cl.args["dimensions"]]
    top = max(abs(x) for x in v)
    assert len(named) >= 2
    for k in named:
        assert v[k] > 0 and v[k] >= top * 2 / 3 and all(v[k] >= abs(v[i]) for i in range(len(v)) if i not in named)


def same_vector(cl: Claim, t: LessonTrace) -> None:
    word = cl.args["word"]
    rows = [t.contexts[c].embeddings[t.contexts[c].tokens.index(word)].tolist() for c in cl.args["contexts"]]
    assert rows and all(r == vector(t, word) for r in rows)


def largest(cl: Claim, t: LessonTrace) -> None:
    a = cl.args
    row = row_of(t, a["context"], a["stage"], a["row"])
    # under the causal mask a row ranks the words the mask leaves (itself and those before): a masked
    # word's exact 0 is no tie with an earlier word's weight under the shown unit
    kept = a["row"] + 1 if a["stage"] == "causal_attention" else len(row)
    among = [j for j in range(kept) if not (a["others"] and j == a["row"])]
    assert a["column"] in among and row[a["column"]] >= max(row[j] for j in among) - 1e-12
    tokens = t.lesson.contexts[a["context"]].tokens
    # the words the text names, but the row's (unless the column is another place of the row's own word:
    # "the cat saw the cat", the second "cat" ranked by the first, is named)
    own = {tokens[a["row"]]} if tokens[a["column"]] != tokens[a["row"]] or a["column"] == a["row"] else set()
    named = set(re.findall(r"“([^”]*)”", cl.text)) - own
    # the column's word, and on a tie the words whose weight is exactly the same (all of them)
    tied = {tokens[j] for j in among if abs(row[j] - row[a["column"]]) <= 1e-12}
    assert named <= tied and ("itself" not in cl.text or a["column"] == a["row"])
    assert len(named) <= 1 or named == tied - own, "a tie names every tied word"
    assert named or "itself" in cl.text or cl.where == "caption", "a narration names the word it ranks"
    said = numbers_in(cl.text)
    unit = Decimal(1).scaleb(-t.decimals)
    if f"under {unit}" in cl.text:  # a positive weight that shows as zero (attncore.display.said)
        assert row[a["column"]] > 0 and shown(row[a["column"]], t.decimals) == 0
    else:
        assert not said or shown(row[a["column"]], t.decimals) in said


def runner_up(cl: Claim, t: LessonTrace) -> None:
    a = cl.args
    w = row_of(t, a["context"], a["stage"], a["row"])
    first, second, tied = a["first"], a["second"], a.get("tied", [])
    rest = [j for j in range(len(w)) if j not in (first, second, *tied)]
    assert w[first] == max(w) and all(w[second] >= w[j] for j in rest)
    # every word shown with the second's weight is named with it (unless the focus word is one of them)
    equal = [
        j for j in range(len(w)) if j not in (first, second) and shown(w[j], t.decimals) == shown(w[second], t.decimals)
    ]
    if not a["about_as_much"] and a["row"] not in (second, *equal) and len(equal) <= 2:
        assert sorted(tied) == sorted(equal), (tied, equal)
        assert all(name_of(t, a["context"], j) in cl.text for j in tied)
    else:
        assert not tied, f"{tied} named with the second where the rule names none"
    assert a["about_as_much"] == (w[second] >= 0.8 * w[first])
    if rest:
        top = max(w[j] for j in rest)
        assert a["rest"] == ("barely" if top < 0.05 else "a little" if top < 0.2 else "still")
        assert ("barely count" in cl.text) == (a["rest"] == "barely")
        assert ("count a little" in cl.text) == (a["rest"] == "a little")
        assert ("still count" in cl.text) == (a["rest"] == "still")
    assert ("mostly" in cl.text) == (not a["about_as_much"] and w[first] > 0.5)
    assert name_of(t, a["context"], first) in cl.text and name_of(t, a["context"], second) in cl.text
    assert ("about as much" in cl.text) == a["about_as_much"]


def most_of(cl: Claim, t: LessonTrace) -> None:
    a = cl.args
    assert row_of(t, a["context"], a["stage"], a["row"])[a["column"]] > 0.5


def small_weights(cl: Claim, t: LessonTrace) -> None:
    a = cl.args
    w = row_of(t, a["context"], a["stage"], a["row"])
    assert a["columns"] and all(w[j] < 0.1 for j in a["columns"])


def keeps_share(cl: Claim, t: LessonTrace) -> None:
    a = cl.args
    assert shown(row_of(t, a["context"], a["stage"], a["row"])[a["column"]], t.decimals) < 1


def flatter(cl: Claim, t: LessonTrace) -> None:
    c, i = cl.args["context"], cl.args["row"]
    assert shown(max(row_of(t, c, "attention", i)), t.decimals) < shown(
        max(row_of(t, c, "unscaled_attention", i)), t.decimals
    )


def rows_sum_to_one(cl: Claim, t: LessonTrace) -> None:
    a = cl.args
    assert a["rows"] and all(
        math.isclose(sum(row_of(t, a["context"], a["stage"], r)), 1.0, abs_tol=1e-9) for r in a["rows"]
    )


def leans(cl: Claim, t: LessonTrace) -> None:
    dims = list(t.lesson.dimensions)
    for c, dim in zip(cl.args["contexts"], cl.args["dimensions"], strict=True):
        out = row_of(t, c, cl.args["stage"], t.lesson.contexts[c].focus_index)
        assert out[dims.index(dim)] >= max(out) - 1e-9, f"context {c} leans {dims[out.index(max(out))]}, not {dim}"
        assert dim in cl.text or cl.where == "caption"
        assert set(numbers_in(cl.text)) <= {shown(v, t.decimals) for v in out}, "a number the output does not show"


def differ(cl: Claim, t: LessonTrace) -> None:
    a = cl.args
    rows = {tuple(shown(x, t.decimals) for x in row_of(t, c, a["stage"], t.lesson.contexts[c].focus_index))
            for c in a["contexts"]}
    assert (len(rows) > 1) == a["differ"] and len(a["contexts"]) > 1


def share_value(t: LessonTrace, c: int, stage: str, cols: list[int], parts: str) -> Decimal:
    row = row_of(t, c, stage, t.lesson.contexts[c].focus_index)
    if parts == "shown":
        return sum((shown(row[j], t.decimals) for j in cols), Decimal(0))
    return shown(math.fsum(row[j] for j in cols), t.decimals)


def change(cl: Claim, t: LessonTrace) -> None:
    a = cl.args
    path = a.get("through") or [a["from"], a["to"]]
    assert path[0] == a["from"] and path[-1] == a["to"]
    # "under 0.1": a positive share that shows as 0.0 (attncore.display.said) reads as what it shows
    said = numbers_in(re.sub(r"under \d+\.\d+", "0", cl.text))
    for c, cols, want in zip(a["contexts"], a["columns"], a["change"], strict=True):
        vals = [share_value(t, c, s, cols, a.get("parts", "exact")) for s in path]
        assert "under " not in cl.text or 0 in vals, "'under' said of a share that does not show as zero"
        assert want == ("rises" if vals[-1] > vals[0] else "falls" if vals[-1] < vals[0] else "stays")
        if a.get("steady"):
            assert all(y >= x for x, y in zip(vals, vals[1:])), f"falls on the way: {vals}"
        if said:
            assert said == [vals[0], vals[-1]] or said == [vals[-1], vals[0]] or set(said) <= {vals[0], vals[-1]}, said
        if a.get("top"):
            f = t.lesson.contexts[c].focus_index
            to = row_of(t, c, a["to"], f)
            assert to[cols[0]] >= max(to) - 1e-12, "the example is not where the row is largest"
        if a.get("widest"):
            f = t.lesson.contexts[c].focus_index
            one, two = row_of(t, c, a["from"], f), row_of(t, c, a["to"], f)
            assert abs(two[cols[0]] - one[cols[0]]) >= max(abs(q - p) for p, q in zip(one, two)) - 1e-12
            assert t.lesson.dimensions[cols[0]] in cl.text or cl.where == "caption"
    assert "more and more" not in cl.text or (a.get("steady") and set(a["change"]) == {"rises"})
    assert "rises" not in cl.text or a["change"] == ["rises"]
    assert "falls" not in cl.text or a["change"] == ["falls"]


def share(cl: Claim, t: LessonTrace) -> None:
    a = cl.args
    for c, cols in zip(a["contexts"], a["columns"], strict=True):
        f, parts = t.lesson.contexts[c].focus_index, a.get("parts", "exact")
        row = row_of(t, c, a["stage"], f)
        got = math.fsum(float(shown(row[j], t.decimals)) if parts == "shown" else row[j] for j in cols)
        assert cols and got >= a["least"] - 1e-12, (got, a["least"])
        if a.get("above"):
            assert got > math.fsum(row_of(t, c, a["above"], f)[j] for j in cols)
        assert set(numbers_in(cl.text)) <= {shown(got, t.decimals)}
    assert "half" not in cl.text or a["least"] >= 0.5


def spread(cl: Claim, t: LessonTrace) -> None:
    a = cl.args
    assert max(row_of(t, a["context"], a["stage"], a["row"])) < a["most"]


def same_row(cl: Claim, t: LessonTrace) -> None:
    a = cl.args
    assert a["contexts"]
    for c in a["contexts"]:
        f = t.lesson.contexts[c].focus_index
        one, two = ([shown(v, t.decimals) for v in row_of(t, c, s, f)] for s in (a["stage"], a["other"]))
        assert (one == two) == a["same"], (c, one, two)


def heads_differ(cl: Claim, t: LessonTrace) -> None:
    c = cl.args["context"]
    x = [vector(t, w) for w in t.lesson.contexts[c].tokens]
    w = {n: weights(t, n) for n in ("W_Q", "W_K", "W_V", "W_O")}
    heads = ref.multi_head(x, w["W_Q"], w["W_K"], w["W_V"], w["W_O"], t.lesson.heads).weights
    seen = {tuple(shown(v, t.decimals) for row in m for v in row) for m in heads}
    assert (len(seen) > 1) == cl.args["differ"]


def loss_falls(cl: Claim, t: LessonTrace) -> None:
    r = t.training
    assert r is not None and len(r.loss) == r.steps + r.rounding_steps + 1 and cl.args["steps"] == r.steps
    assert (r.loss[-1] < r.loss[0]) == cl.args["falls"]
    said = numbers_in(cl.text)
    steps = [Decimal(r.steps), *([Decimal(r.rounding_steps)] if r.rounding_steps else [])]
    unit = Decimal(1).scaleb(-t.decimals)
    # a positive loss that shows as 0 is said "under" one unit of the last decimal
    under = shown(r.loss[-1], t.decimals) == 0 and r.loss[-1] > 0
    last = unit if under else shown(r.loss[-1], t.decimals)
    assert not said or said in (steps, [shown(r.loss[0], t.decimals), last]), said
    assert (f"under {unit}" in cl.text) == (under and bool(said) and said != steps)
    assert ("falls" in cl.text or "fall" not in cl.text.replace("does not fall", "")) and (
        "falls" not in cl.text or cl.args["falls"])


def learned(cl: Claim, t: LessonTrace) -> None:
    """From the definition: every context with a sense, trained attention and a head, outputs, the loss."""
    r = t.training
    assert r is not None
    ok = r.rounded_loss <= 0.25 * r.loss[0]
    w = {n: weights(t, n) for n in ("W_Q", "W_K", "W_V", "W_O")}
    for c, ctx in enumerate(t.lesson.contexts):
        if ctx.leans is None:
            continue
        cols = list(t.contexts[c].causal.mask_cost.sense_positions)
        f, x = ctx.focus_index, [vector(t, tok) for tok in ctx.tokens]
        simple = math.fsum(row_of(t, c, "attention", f)[j] for j in cols)
        one = ref.attention(ref.matmul(x, w["W_Q"]), ref.matmul(x, w["W_K"]), ref.matmul(x, w["W_V"]))
        multi = ref.multi_head(x, w["W_Q"], w["W_K"], w["W_V"], w["W_O"], t.lesson.heads)

        k = t.lesson.dimensions.index(ctx.leans)
        shares = [math.fsum(row[j] for j in cols) for row in (one[0][f], *(h[f] for h in multi.weights))]
        looks = [a >= 0.5 and a > simple for a in shares]
        outs = (one[1][f], multi.output[f])
        ok = ok and bool(cols) and looks[0] and any(looks[1:])
        ok = ok and all(all(o[k] > v for i, v in enumerate(o) if i != k) for o in outs)
    assert ok == cl.args["holds"]
    assert cl.args["holds"] or "short" in cl.text or "not get there" in cl.text


def value_size(cl: Claim, t: LessonTrace) -> None:
    w = weights(t, "W_V_reshape")
    d, d_v = len(w), len(w[0])
    assert cl.args["compare"] == ("more" if d_v > d else "fewer" if d_v < d else "same")
    assert ("square" not in cl.text.replace("not square", "")) or d == d_v
    assert "not square" not in cl.text or d != d_v


def size_ratio(cl: Claim, t: LessonTrace) -> None:
    c = cl.args["context"]
    x = [vector(t, w) for w in t.lesson.contexts[c].tokens]
    pe = ref.sinusoidal_encoding(len(x), len(x[0]))
    mean = [math.fsum(math.sqrt(math.fsum(v * v for v in r)) for r in m) / len(x) for m in (pe, x)]  # mean lengths
    ratio = mean[0] / mean[1] if mean[1] else math.inf  # all-zero word vectors: any position is larger
    want = "about as large" if 0.8 <= ratio <= 1.25 else "smaller than" if ratio < 0.8 else "larger than"
    assert cl.args["compare"] == want and want in cl.text, (ratio, cl.text)


EVALUATE: dict[str, Callable[[Claim, LessonTrace], None]] = {
    "strong_in": strong_in,
    "strongest_in": strongest_in,
    "strong_in_each": strong_in_each,
    "same_vector": same_vector,
    "largest": largest,
    "runner_up": runner_up,
    "most_of": most_of,
    "small_weights": small_weights,
    "keeps_share": keeps_share,
    "flatter": flatter,
    "rows_sum_to_one": rows_sum_to_one,
    "leans": leans,
    "differ": differ,
    "change": change,
    "share": share,
    "spread": spread,
    "same_row": same_row,
    "heads_differ": heads_differ,
    "loss_falls": loss_falls,
    "learned": learned,
    "value_size": value_size,
    "size_ratio": size_ratio,
}


def test_every_kind_has_an_evaluator_here() -> None:
    assert set(EVALUATE) == set(KINDS)


@pytest.mark.parametrize("name", list(LESSONS))
def test_every_claim_holds(name: str) -> None:
    trace = LESSONS[name]()
    claims = lesson_claims(trace)
    assert claims
    for cl in claims:
        try:
            EVALUATE[cl.kind](cl, trace)
        except AssertionError as exc:
            raise AssertionError(f"{name}: {cl.scene} / {cl.section}: {cl.kind} {cl.text!r} is false: {exc}") from None


@pytest.mark.parametrize("name", list(LESSONS))
def test_no_claim_says_zero_where_its_numbers_are_not(name: str) -> None:
    """Issue 24: a positive quantity is never said as 0.00 (or 0.0), which reads as "none": a
    sentence that holds a number written as zero must rest on a value that is exactly zero."""
    for cl in lesson_claims(LESSONS[name]()):
        zeros = [m for m in re.findall(r"[−-]?\d+\.\d+", cl.text) if Decimal(m.replace("−", "-")) == 0]
        if zeros:
            assert any(float(v) == 0 for v in cl.values.values()), \
                f"{name}: {cl.scene} / {cl.section}: {cl.text!r} says {zeros[0]} of {dict(cl.values)}"


def test_claims_name_real_sections() -> None:
    from scenes.lecture import LECTURE

    sections = {(cls.__name__, s) for cls in LECTURE for s in cls.section_names()}
    for name in ("builtin-default", "bounds-largest-dec1", "random-1"):
        for cl in lesson_claims(LESSONS[name]()):
            assert (cl.scene, cl.section) in sections, cl
            assert cl.where in ("narration", "caption")


def test_a_false_claim_is_caught() -> None:
    """The evaluators above reject claims made false on purpose (one break per kind used by the default lesson)."""
    trace = LESSONS["builtin-default"]()
    broken: list[Claim] = []
    for cl in lesson_claims(trace):
        a: dict[str, Any] = dict(cl.args)
        if cl.kind in ("largest", "most_of") and "column" in a:
            a["column"] = min(j for j in range(len(trace.contexts[a["context"]].tokens)) if j != a["column"])
        elif cl.kind in ("strong_in", "strongest_in"):
            a["dimension"] = "grammar"
        elif cl.kind == "runner_up":
            a["first"], a["second"] = a["second"], a["first"]
        elif cl.kind == "leans":
            a["dimensions"] = ["other"] * len(a["dimensions"])
        elif cl.kind == "small_weights":
            a["columns"] = [trace.contexts[0].focus_index]
        elif cl.kind == "strong_in_each":
            a["dimensions"] = ["animal", "grammar"]
        elif cl.kind == "rows_sum_to_one":
            a["stage"] = "scores"
        elif cl.kind == "differ":
            a["differ"] = not a["differ"]
        elif cl.kind == "change":
            a["change"] = ["falls" if c == "rises" else "rises" for c in a["change"]]
        elif cl.kind == "share":
            a["least"] = 1.0
        elif cl.kind == "same_row":
            a["same"] = not a["same"]
        elif cl.kind in ("heads_differ", "loss_falls", "learned"):
            key = {"heads_differ": "differ", "loss_falls": "falls", "learned": "holds"}[cl.kind]
            a[key] = not a[key]
        elif cl.kind == "value_size":
            a["compare"] = "same" if a["compare"] != "same" else "more"
        elif cl.kind == "size_ratio":
            a["compare"] = "larger than" if a["compare"] != "larger than" else "smaller than"
        else:
            continue
        broken.append(dataclasses.replace(cl, args=a))
    assert len({b.kind for b in broken}) >= 17
    for b in broken:
        with pytest.raises(AssertionError):
            EVALUATE[b.kind](b, trace)


FOURTEEN = """title = "Fourteen words"
dimensions = ["nature", "finance", "grammar", "place", "action", "colour", "size", "other"]
decimals = 1
[vocabulary]
"river" = [2.5, 0.0, 0.5, 3.0, 2.0, -2.0, 1.5, -0.5]
"bank" = [3.0, -2.0, -1.0, -1.5, 0.5, 1.5, -0.5, 1.0]
"café" = [2.0, -1.5, 2.5, -0.5, -2.0, -0.5, 1.0, 0.0]
"the" = [-1.0, 1.0, -1.0, -1.5, -1.0, 2.5, 2.5, 1.5]
"über" = [-1.0, -1.0, -2.0, -2.0, -0.5, -0.5, -1.0, -1.0]
"sat" = [0.0, 0.5, -0.5, 2.0, 3.0, 3.0, -0.5, -1.0]
"on" = [-0.5, 1.0, 0.0, -2.0, 0.5, 1.0, -1.0, -1.0]
"deposit" = [0.0, -1.5, 0.5, 0.0, 2.5, 2.5, -2.0, 2.5]
"at" = [3.0, 0.5, -1.5, 0.0, 0.5, 0.0, 1.5, 0.5]
"steep" = [-1.0, 1.5, 1.5, -1.0, -2.0, 0.0, -2.0, 0.5]
"fish" = [1.0, -2.0, 2.0, 1.0, 0.5, 1.0, 2.5, -2.0]
"loan" = [1.5, -2.0, -1.0, 2.5, -0.5, -1.5, -0.5, 1.5]
"water" = [0.5, 2.0, 0.5, 2.0, 0.0, 1.5, -1.5, 2.5]
"cash" = [0.5, 0.0, -2.0, 1.0, -1.5, -0.5, 0.5, 2.0]
[[contexts]]
name = "a"
sentence = "sat on the steep river bank"
focus = "bank"
[[contexts]]
name = "b"
sentence = "the loan at the bank"
focus = "bank"
[[contexts]]
name = "c"
sentence = "fish at the water bank"
focus = "bank"
"""


def test_the_fourteen_word_lesson_says_nothing_false() -> None:
    """The lesson of issue 12's report: 'at' is no clean example, and the scaled weight shows 1.0."""
    trace = trace_lesson(parse_lesson(tomllib.loads(FOURTEEN), "fourteen.toml"))
    claims = lesson_claims(trace)
    texts = " ".join(c.text for c in claims)
    assert "little anywhere else" not in texts and "keep a share" not in texts
    assert any(c.kind == "strongest_in" and c.args["word"] == "at" for c in claims)
    for cl in claims:
        EVALUATE[cl.kind](cl, trace)


# -- the lecture says its claims -------------------------------------------------------------
CLAIMED_SCENES = (
    "Embeddings",
    "DotProducts",
    "Scaling",
    "Softmax",
    "ReadingAttention",
    "MixingValues",
    "TwoContexts",
    "LearningTheWeights",
    "LearnedProjections",
    "ChangingDimension",
    "MultiHead",
    "CausalMask",
    "WordOrder",
)
#: Words that make a sentence a statement about this lesson's numbers: such a sentence must be a claim's.
RANKING = re.compile(
    r"\b(most|mostly|largest|longest|little anywhere|strong|strongest|leans?|leaned|same vector|then at|"
    r"barely|keep a share|tiny|a little of|still finds|rises|falls|more and more|more than|at least|"
    r"against \d|same output|learned to find|not square|happens to be square|instead of|fewer|longer|"
    r"shorter|as large|smaller than|changes|moves)\b"
)


#: Sentences with a ranking word that define a term and state nothing about this lesson's numbers.
DEFINITIONS = ("The answer is where the output is largest.",)


def lesson_path(name: str, tmp: Path) -> str:
    if name == "default":
        return ""
    path = tmp / f"{name}.toml"
    path.write_text(AGREE if name == "hand-set-heads-agree" else lesson_toml(*BOUNDS["largest"], decimals=1),
                    encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("lesson", ["default", pytest.param("bounds-largest-dec1", marks=pytest.mark.slow)])
@pytest.mark.parametrize("scene", CLAIMED_SCENES)
def test_each_section_says_its_claims(lesson: str, scene: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    says_its_claims(lesson, scene, tmp_path_factory)


@pytest.mark.parametrize("scene", ["LearningTheWeights", "LearnedProjections", "MultiHead"])
def test_hand_set_heads_that_agree_are_said_as_they_are(scene: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The scenes whose words depend on what training moved and on whether the heads agree."""
    says_its_claims("hand-set-heads-agree", scene, tmp_path_factory)


def says_its_claims(lesson: str, scene: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    from scenes.lecture import LECTURE

    path = lesson_path(lesson, tmp_path_factory.getbasetemp())
    cls = next(c for c in LECTURE if c.__name__ == scene)
    built: Any = built_scene(cls, path)
    said = {n.section: n.text for n in built.narrations}
    captions = [(s, t) for s, t in built.bottom_captions]
    claims = [c for c in lesson_claims(built.trace) if c.scene == scene]
    assert claims or lesson != "default", f"{scene} states no claim"
    variants = {cl.text for cl in claims if cl.args.get("variant")}  # one of them is said: numbers or tiles on screen
    assert not variants or any(v in " ".join(said.values()) for v in variants)
    for cl in claims:
        if cl.args.get("variant"):
            continue
        if cl.where == "narration":
            assert cl.text in said[cl.section], f"{cl.section}: {cl.text!r} is not said"
        else:
            assert (cl.section, cl.text) in captions, f"{cl.section}: {cl.text!r} is not shown"
    # and every sentence that ranks or qualifies this lesson's numbers is a claim's
    for section, text in [*said.items(), *captions]:
        texts = [c.text for c in claims if c.section == section]
        for sentence in re.split(r"(?<=[.?!])\s+", text):
            if RANKING.search(sentence.replace("(leans)", "")) and sentence not in DEFINITIONS:
                assert any(t in sentence for t in texts), f"{scene} / {section}: {sentence!r} is not a claim's"


def test_values_json_lists_the_claims() -> None:
    import json

    from click.testing import CliRunner

    from attnvid.commands.values import values

    r = CliRunner().invoke(values, ["--json"])
    assert r.exit_code == 0, r.output
    claims = json.loads(r.output)["claims"]
    expected = [c.to_json() for c in lesson_claims(LESSONS["builtin-default"]())]
    assert claims == json.loads(json.dumps(expected, ensure_ascii=False))
    assert all({"scene", "section", "kind", "args", "values", "text"} <= set(c) for c in claims)
    assert {c["kind"] for c in claims} <= set(KINDS)
    doc = (Path(__file__).parents[1] / "docs" / "reference" / "claims.md").read_text(encoding="utf-8")
    assert all(f"| `{kind}` |" in doc for kind in KINDS), "docs/reference/claims.md documents every kind"


# -- calibrated words (issue 24): each phrase a range of a measured quantity ----------------
#: The table of docs/reference/claims.md, written again here from its definitions (not read from attncore).
RANGES: dict[str, tuple[str, Callable[[float], bool]]] = {
    "almost all": ("share", lambda x: x >= 0.9),
    "most of": ("share", lambda x: x > 0.5),
    "mostly": ("share", lambda x: x > 0.5),
    "at least half": ("share", lambda x: 0.5 <= x < 0.9),
    "finds": ("each", lambda x: x >= 0.1),
    "learned to find": ("share", lambda x: x >= 0.5),
    "barely count": ("largest", lambda x: x < 0.05),
    "count a little": ("largest", lambda x: 0.05 <= x < 0.2),
    "still count": ("largest", lambda x: x >= 0.2),
    "a little of the rest": ("largest", lambda x: x < 0.2),
    "tiny weights": ("largest", lambda x: x < 0.05),
    "about as much": ("ratio", lambda x: 0.8 <= x <= 1.0),
    "strong in": ("strength", lambda x: x >= 2 / 3),
    "little anywhere else": ("elsewhere", lambda x: x <= 1 / 3),
    "weak elsewhere": ("elsewhere", lambda x: x <= 1 / 3),
    "about as large": ("length", lambda x: 0.8 <= x <= 1.25),
    "smaller than": ("length", lambda x: x < 0.8),
    "larger than": ("length", lambda x: x > 1.25),
    "different patterns": ("heads", lambda x: x >= 0.1),
    "differ a little": ("heads", lambda x: 0.05 <= x < 0.1),
    "the same pattern": ("heads", lambda x: x < 0.05),
}


def uses(text: str) -> set[str]:
    """The phrases of RANGES in ``text`` as whole words ("a little of the rest" is not also "a little")."""
    return {p for p in RANGES if re.search(rf"(?<![\w-]){re.escape(p)}(?![\w-])", text, re.IGNORECASE)}


def measured(m: dict[str, Any], t: LessonTrace) -> list[float]:
    """The quantity a claim's word measures, recomputed in plain Python (tests/reference.py)."""
    q = m["quantity"]
    if q in ("share", "each", "largest", "ratio"):
        contexts = m.get("contexts", [m.get("context", 0)])
        columns = m["columns"] if "contexts" in m else [m["columns"]]
        out = []
        for c, cols in zip(contexts, columns, strict=True):
            row = row_of(t, c, m["stage"], m.get("row", t.lesson.contexts[c].focus_index))
            picked = [row[j] for j in cols]
            if q == "ratio":
                out.append(picked[1] / picked[0] if picked[0] > 0 else math.inf)
            else:
                out.append({"share": math.fsum(picked), "each": min(picked), "largest": max(picked)}[q])
        return out
    if q in ("strength", "elsewhere"):
        v = vector(t, m["word"])
        ks = [t.lesson.dimensions.index(d) for d in m["dimensions"]]
        if q == "strength":
            return [v[k] / max(abs(x) for x in v) for k in ks]
        others = [abs(x) for i, x in enumerate(v) if i != ks[0]]
        return [max(others, default=0.0) / v[ks[0]] if v[ks[0]] > 0 else math.inf]
    c = m.get("context", 0)
    x = [vector(t, w) for w in t.lesson.contexts[c].tokens]
    if q == "length":
        pe = ref.sinusoidal_encoding(len(x), len(x[0]))
        mean = [math.fsum(math.sqrt(math.fsum(v * v for v in r)) for r in rows) / len(x) for rows in (pe, x)]
        return [mean[0] / mean[1]]
    assert q == "heads", q
    w = {n: weights(t, n) for n in ("W_Q", "W_K", "W_V", "W_O")}
    f = t.lesson.contexts[c].focus_index
    rows = [h[f] for h in ref.multi_head(x, w["W_Q"], w["W_K"], w["W_V"], w["W_O"], t.lesson.heads).weights]
    return [max((abs(a - b) for i, r in enumerate(rows) for s in rows[i + 1:] for a, b in zip(r, s)), default=0.0)]


@pytest.mark.parametrize("name", list(LESSONS))
def test_every_calibrated_word_is_within_its_range(name: str) -> None:
    """Every phrase of the table a claim says is declared with what it measures, and that
    quantity, recomputed here, lies in the phrase's range."""
    trace = LESSONS[name]()
    for cl in lesson_claims(trace):
        for phrase in uses(cl.text):
            where = f"{name}: {cl.scene} / {cl.section}: {cl.text!r}"
            spec = cl.args.get("words", {}).get(phrase)
            assert spec is not None, f"{where} says {phrase!r} without what it measures"
            quantity, ok = RANGES[phrase]
            assert spec["quantity"] == quantity, where
            for x in measured(spec, trace):
                assert ok(x), f"{where}: {phrase!r} said of {x:.4g}"


def test_the_table_here_is_attncores_and_the_docs() -> None:
    from attncore.lexicon import LEXICON, table

    assert set(RANGES) == set(LEXICON)
    for phrase, word in LEXICON.items():
        assert RANGES[phrase][0] == word.quantity, phrase
        for x in (-1.0, 0.0, 0.04999, 0.05, 0.0999, 0.1, 0.1999, 0.2, 0.4999, 0.5, 0.5001, 2 / 3 - 1e-9, 2 / 3,
                  0.7999, 0.8, 0.8999, 0.9, 1.0, 1.0001, 1.25, 1.2501, 3.0):
            assert RANGES[phrase][1](x) == word.fits(x), (phrase, x)
    doc = (Path(__file__).parents[1] / "docs" / "reference" / "claims.md").read_text(encoding="utf-8")
    assert table() in doc, (
        "docs/reference/claims.md's table of calibrated words is not attncore.lexicon.table(): paste it again"
    )


def _specs_of(quantity: str, t: LessonTrace) -> list[dict[str, Any]]:
    """Every quantity of that kind the trace offers (rows of the attention and of the heads, words, contexts)."""
    from attncore.lexicon import spec

    out: list[dict[str, Any]] = []
    for c, ctx in enumerate(t.contexts):
        f, n = ctx.focus_index, ctx.n
        for stage in ("attention", "unscaled_attention", "causal_attention"):
            if quantity == "ratio":
                out += [spec("ratio", context=c, stage=stage, row=f, columns=[a, b]) for a in range(n) for b in range(n)
                        if a != b]
            elif quantity in ("share", "each", "largest"):
                out += [spec(quantity, context=c, stage=stage, row=f, columns=[j]) for j in range(n)]
        if quantity in ("length", "heads"):
            out.append(spec(quantity, context=c))
    if quantity in ("strength", "elsewhere"):
        out += [spec(quantity, word=w, dimensions=[d]) for w, _ in t.lesson.vocabulary for d in t.lesson.dimensions]
    return out


def _scaled(k: float) -> LessonTrace:
    """A lesson whose word vectors are ``k`` times those of a generated one (position vectors
    about as large as the words at k = 0.5, larger at k = 0.2)."""
    text = re.sub(r'(?m)^("[^"]+" = )\[([^\]]*)\]',
                  lambda m: m.group(1) + "[" + ", ".join(str(float(v) * k) for v in m.group(2).split(",")) + "]",
                  lesson_toml(1, 4, 4, 1))
    return trace_lesson(parse_lesson(tomllib.loads(text), "scaled.toml"))


#: Lessons whose numbers reach the ranges the built-in ones do not: heads whose rows differ by
#: 0.088 (seed 16), position vectors about as large as the words, and larger.
EXTREMES: tuple[Callable[[], LessonTrace], ...] = (lambda: generated(2, 5, 6, 2, seed=16), lambda: _scaled(0.5),
                                                   lambda: _scaled(0.2))


@pytest.mark.parametrize("phrase", list(RANGES))
def test_a_word_said_outside_its_range_is_refused(phrase: str) -> None:
    """For each phrase: a claim that says it of a quantity outside its range fails attncore's
    check (naming the phrase), the same claim of a quantity inside passes, and saying it
    without what it measures fails."""
    from attncore.claims import check

    quantity, ok = RANGES[phrase]
    outside = inside = None
    for make in (LESSONS["builtin-default"], LESSONS["builtin-bank"], LESSONS["bounds-largest-dec2"],
                 LESSONS["bounds-three-heads-dec2"], LESSONS["random-3"], *EXTREMES):
        trace = make()
        for m in _specs_of(quantity, trace):
            xs = measured(m, trace)
            if not all(ok(x) for x in xs) and outside is None:
                outside = (trace, m)
            if all(ok(x) for x in xs) and inside is None:
                inside = (trace, m)
        if outside and inside:
            break
    assert outside and inside, f"no example inside and outside the range of {phrase!r}"
    base = next(c for c in lesson_claims(LESSONS["builtin-default"]()) if c.kind == "rows_sum_to_one")
    for (trace, m), fails in ((outside, True), (inside, False)):
        cl = dataclasses.replace(
            base, args={**base.args, "words": {phrase: m}}, text=f"Every row sums to one, {phrase}."
        )
        # the base claim holds for the default lesson only: check the words on their own elsewhere
        from attncore.lexicon import check_words

        why = check_words(cl.text, cl.args["words"], trace)
        assert (why is not None) == fails, (phrase, m, why)
        if fails:
            assert phrase in why
    trace = LESSONS["builtin-default"]()
    bare = dataclasses.replace(base, text=f"Every row sums to one, {phrase}.")
    why = check(bare, trace)
    assert why is not None and "without saying what it measures" in why


#: Two words the focus word gives 0.21 and 0.20: both shown 0.2 with one decimal.
NEAR_TIE = """
title = "A near tie, one decimal"
dimensions = ["animal", "tech", "grammar", "other"]
decimals = 1
[vocabulary]
mouse = [2, 2, 0, 0.5]
cat = [3, 0, 0, 0.5]
dog = [2.9, 0, 0, 0.6]
and = [0, 0, 2, 0]
like = [0, 0, 1.5, 1]
keyboard = [0, 3, 0, 0.5]
screen = [0, 2.9, 0, 0.6]
need = [0, 0, 1.5, 1]
""" + PETS_DESK


def test_words_shown_with_the_runner_ups_weight_are_named_with_it() -> None:
    """“cat” 0.21 and “dog” 0.20 both show 0.2: "then at “cat” and “dog”", and "the others" are
    the words left (0.01 each: they barely count); the claim naming “cat” alone is refused."""
    from attncore.claims import check

    trace = trace_lesson(parse_lesson(tomllib.loads(NEAR_TIE), "near-tie"))
    (claim,) = {c.text: c for c in lesson_claims(trace) if c.kind == "runner_up"}.values()
    assert claim.text == "“mouse” looks mostly at itself, then at “cat” and “dog”; the others barely count."
    assert check(claim, trace) is None
    alone = dataclasses.replace(claim, args={**claim.args, "tied": []})
    assert check(alone, trace) == "words [2] are shown with the second's weight and not named"


def test_heads_that_agree_are_said_to_agree_and_hand_set_weights_are_not_said_to_learn() -> None:
    """W_Q and W_K given in the lesson: no sentence says the attention learned or moved ("from 0.9
    to 0.9"); the heads' rows, recomputed here, are the same, and the second head is said briefly.
    Made to differ (the second head's key block changed), the heads are listed and said to differ."""
    trace = agree_trace()
    claims = lesson_claims(trace)
    assert [measured(spec, trace) for c in claims for spec in c.args.get("words", {}).values()
            if spec["quantity"] == "heads"] == [[0.0]]
    heads = [c.text for c in claims if c.scene == "MultiHead"]
    assert heads == ["the first head looks mostly at “cat” and “dog” (0.9)", "the second head too (0.9)",
                     "Here the heads agree: the same pattern in the row of “mouse”."]
    assert not [c.text for c in claims if re.search(r"\bfrom (\S+) to \1(?!\d)", c.text)]
    learned = [c.text for c in claims if re.search(r"\blearn", c.text) and c.scene != "LearningTheWeights"]
    assert learned == ["W_Q and W_K were set by hand, not learned"]
    (moves,) = [c for c in claims if c.section == "The attention row moves" and c.where == "narration"]
    assert moves.kind == "same_row" and "set by hand" in moves.text
    differ = agree_trace(AGREE.replace("[1, 1, 1, 1]]", "[1, 1, 0, 0]]"))
    heads = [c.text for c in lesson_claims(differ) if c.scene == "MultiHead"]
    assert not any(" too " in t for t in heads) and heads[-1].startswith("Different heads"), heads
    # scene 9: the row the sense words get is the hand-set projections', not training's
    (caption,) = [
        c.text for c in claims if c.scene == "LearningTheWeights" and c.kind == "share" and c.where == "caption"
    ]
    assert (
        caption == "With W_Q and W_K set by hand, “mouse” gives almost all of its attention to the words of its sense."
    )
    assert not [c.text for c in claims if c.scene == "LearningTheWeights" and c.text.startswith("Trained")]


def test_hand_set_attention_is_not_said_to_come_from_training(tmp_path: Path) -> None:
    """Scene 9 with W_Q and W_K set by hand (only W_V and W_O trained): training does not start near
    the simplified attention (the first step's row is the hand-set projections'), the compared row
    is labelled "set by hand", not "trained", and the verdict does not say "After training"."""
    from scenes.inspect import visible_texts
    from scenes.steps.training import LearningTheWeights

    path = lesson_path("hand-set-heads-agree", tmp_path)
    built: Any = built_scene(LearningTheWeights, path)
    said = " ".join(n.text for n in built.narrations)
    assert "Training does not start from the simplified attention: W_Q and W_K are set by hand" in said
    assert "close to the simplified attention" not in said and "After training" not in said
    assert "With W_Q and W_K set by hand, “mouse” gives 0.9 to “cat” and “dog”" in said
    shown = {s.mob.text for cp in built.checkpoints for s in visible_texts(cp)}  # Manim's texts drop spaces
    assert "setbyhand" in shown and "trained" not in shown, sorted(shown)
    from scenes.steps.projections import LearnedProjections

    said = " ".join(n.text for n in built_scene(LearnedProjections, path).narrations)
    assert "W_Q and W_K are set by hand; W_V and W_O were trained on this lesson's own question" in said
    assert "Ours were trained" not in said


#: Three quoted words or groups in a chain of "and" ("to “white” and “fish” and “steel” and
#: “beams”", "at “white” and “fish” and at “steel” and “beams”"): words of different sentences
#: read as one list (issue 24).
AND_CHAIN = re.compile(r"”(?: and (?:at )?“[^”]*”){2,}")


@pytest.mark.parametrize("name", [*LESSONS, "crane"])
def test_no_caption_chains_the_words_of_several_sentences(name: str) -> None:
    """A caption names the words of each sentence apart or by what they are ("the words of its
    sense"), never as one chain of "and"s across sentences; shown failing on the chain scene 9 made
    for two sentences of two sense words each (the near-tie and crane lessons)."""
    trace = crane_trace() if name == "crane" else LESSONS[name]()
    chained = [c.text for c in lesson_claims(trace) if AND_CHAIN.search(c.text)]
    assert not chained, chained


def crane_trace() -> LessonTrace:
    from test_multi_head import CRANE

    return trace_lesson(parse_lesson(tomllib.loads(CRANE), "crane.toml"))
