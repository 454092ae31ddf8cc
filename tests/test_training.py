"""Numeric tier for ``attncore.training`` and ``attncore.senses``: weights that are learned (issue #13).

- the hand-derived gradients against central finite differences, for 1 to 4 heads;
- the batched loss against a sentence-by-sentence computation with the plain-Python
  reference (no padding, no numpy);
- the data set: generated from the lesson only, every label carried by a word;
- the claims, with weights forced to "trained" (the lessons' default stays
  ``DEFAULT_WEIGHTS``): for the built-in lessons and for generated lessons at the bounds,
  recomputed here from the trace itself, not read from the training record;
- what is shown is what computes: the numbers on screen, multiplied out, give the trace;
- lessons that cannot meet the claims say so.
"""

from __future__ import annotations

import json
import math
import random
import time
import tomllib
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
import reference as ref
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from attncore import (
    DEFAULT_WEIGHTS,
    Lesson,
    builtin_lesson,
    builtin_lessons,
    default_lesson,
    parse_lesson,
    trace_lesson,
)
from attncore.display import format_matrix
from attncore.senses import strongest_dimension, training_set
from attncore.trace import LessonTrace
from attncore.training import (
    ATTENTION_CLAIM,
    LOSS_CLAIM,
    TRAINED,
    loss_and_gradients,
    make_batch,
    train_lesson,
)
from attncore.weights import make_weights

# --------------------------------------------------------------------------------------
# Lessons
# --------------------------------------------------------------------------------------
DIMS = ["nature", "finance", "animal", "place", "grammar", "colour", "size", "other"]
SENSE_WORDS = ["river", "money", "dog"]
FILLERS = ["the", "we", "sat", "on", "at", "über", "café", "old"]


def sense_lesson(n_ctx: int, n_tok: int, d: int, heads: int, seed: int = 1, decimals: int = 2) -> Lesson:
    """A lesson built like the hand-made ones, with ``weights = "trained"``.

    "bank" is 2 in every sense dimension (ambiguous on purpose), each context has one
    word that is 3 in its sense, the other words are 0 in the sense dimensions and
    strongest (2) in another one, like "and"/"are". Words and places are seeded.
    """
    rng = random.Random(seed)
    dims = DIMS[:d]
    leans = [dims[c % d] for c in range(n_ctx)]
    lean_ix = sorted({dims.index(x) for x in leans})
    free = [j for j in range(d) if j not in lean_ix]
    shared = {free[-1]: 0.5} if free else {}  # like "other" = 0.5 in cat, mouse and keyboard

    def vec(strong: dict[int, float]) -> list[float]:
        v = [0.0] * d
        for j, x in {**shared, **strong}.items():
            v[j] = x
        return v

    vocab = {"bank": vec({j: 2.0 for j in lean_ix})}
    for c in range(n_ctx):
        vocab[SENSE_WORDS[c]] = vec({dims.index(leans[c]): 3.0})
    for w in FILLERS:
        v = [0.0 if j in lean_ix else rng.choice([0.0, 0.5, 1.0]) for j in range(d)]
        if free:
            v[rng.choice(free)] = 2.0
        vocab[w] = v
    contexts = []
    for c in range(n_ctx):
        toks = rng.sample(FILLERS, n_tok)
        where = rng.sample(range(n_tok), 2)
        toks[where[0]], toks[where[1]] = "bank", SENSE_WORDS[c]
        contexts.append({"name": f"ctx{c}", "sentence": " ".join(toks), "focus": "bank", "leans": leans[c]})
    data = {
        "title": f"Senses {n_ctx}x{n_tok}x{d}x{heads}", "dimensions": dims, "decimals": decimals,
        "vocabulary": vocab, "contexts": contexts,
        "projections": {"weights": "trained", "seed": seed, "d_v": min(d + 1, 8)}, "heads": {"count": heads},
    }
    return parse_lesson(data, f"senses-{n_ctx}x{n_tok}x{d}x{heads}-{seed}.toml")


def trained(name: str) -> Lesson:
    return builtin_lesson(name).with_weights("trained")


# --------------------------------------------------------------------------------------
# The claims, recomputed from the trace (independent of the training record)
# --------------------------------------------------------------------------------------
def carries(lesson: Lesson, word: str) -> str | None:
    """The dimension that is strictly the largest in the word's vector, if any."""
    v = lesson.vector(word)
    top = max(v)
    return lesson.dimensions[v.index(top)] if v.count(top) == 1 else None


def claim_failures(trace: LessonTrace) -> list[str]:
    """Every claim of issue #13 that the trace does not meet, computed from its matrices."""
    lesson, out = trace.lesson, []
    record = trace.training
    assert record is not None
    labelled = [c for c in trace.contexts if c.context.leans is not None]
    if not labelled:
        out.append("no context with leans")
    for c in labelled:
        f, sense = c.focus_index, c.context.leans
        cols = [j for j, t in enumerate(c.tokens) if t != c.focus and carries(lesson, t) == sense]
        if not cols:
            out.append(f"{c.context.name}: no word carries {sense}")
            continue
        simple = sum(c.attention[f, j] for j in cols)
        single = sum(c.projected.attention[f, j] for j in cols)
        heads = [sum(h.attention[f, j] for j in cols) for h in c.multi_head.heads]
        if not (single >= ATTENTION_CLAIM and single > simple):
            out.append(f"{c.context.name}: single head {single:.3f} (simplified {simple:.3f})")
        if not any(a >= ATTENTION_CLAIM and a > simple for a in heads):
            out.append(f"{c.context.name}: heads {heads}")
        for what, row in (("single", c.projected.output[f]), ("multi", c.multi_head.output[f])):
            best = [lesson.dimensions[k] for k in range(lesson.d) if row[k] == row.max()]
            if best != [sense]:
                out.append(f"{c.context.name}: {what}-head readout {best}, not {sense}")
    if not record.rounded_loss <= LOSS_CLAIM * record.loss[0]:
        out.append(f"loss {record.loss[0]:.3f} -> {record.rounded_loss:.3f}")
    return out


# --------------------------------------------------------------------------------------
# The gate: the lessons' effective weights are the default's
# --------------------------------------------------------------------------------------
def test_default_weights_are_the_documented_constant() -> None:
    assert DEFAULT_WEIGHTS in ("random", "trained")
    for name in builtin_lessons():
        lesson = builtin_lesson(name)
        assert lesson.projections.weights == DEFAULT_WEIGHTS
        w = make_weights(lesson)
        assert (w.training is None) == (DEFAULT_WEIGHTS == "random"), name
    if DEFAULT_WEIGHTS == "random":  # the frames being compared must not move
        w = trace_lesson().weights
        assert "untrained" in w.provenance.lower()
        assert all(np.array_equal(m * 2, np.round(m * 2)) for m in (w.W_Q, w.W_K, w.W_V, w.W_O))


def test_an_explicit_choice_in_the_file_wins_over_the_default() -> None:
    text = (Path(__file__).parent / "bad_lessons" / "unknown_key.toml").read_text(encoding="utf-8")
    base = tomllib.loads(text.replace('colour = "red"\n', ""))  # a valid lesson once the bad key is gone
    for kind in ("trained", "random"):
        lesson = parse_lesson({**base, "projections": {"weights": kind}}, "x.toml")
        assert lesson.projections.weights == kind
        assert (make_weights(lesson).training is None) == (kind == "random")


# --------------------------------------------------------------------------------------
# Gradients and loss
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize(("d", "heads"), [(2, 1), (4, 2), (6, 3), (8, 4), (4, 4)])
def test_gradients_match_finite_differences(d: int, heads: int) -> None:
    lesson = sense_lesson(3 if d > 2 else 2, 6, d, heads, seed=d)
    examples = training_set(lesson)
    rng = np.random.default_rng(d)
    batch = make_batch(lesson, [examples[i] for i in rng.choice(len(examples), size=8, replace=False)])
    params = {n: np.eye(d) + rng.normal(0.0, 0.4, (d, d)) for n in TRAINED}
    _, grads = loss_and_gradients(params, batch, heads)
    eps = 1e-6
    for name in TRAINED:
        numeric = np.zeros((d, d))
        for i in range(d):
            for j in range(d):
                up = {k: v.copy() for k, v in params.items()}
                down = {k: v.copy() for k, v in params.items()}
                up[name][i, j] += eps
                down[name][i, j] -= eps
                numeric[i, j] = (
                    loss_and_gradients(up, batch, heads)[0] - loss_and_gradients(down, batch, heads)[0]
                ) / (2 * eps)
        err = np.max(np.abs(numeric - grads[name]))
        assert err <= 1e-7 + 1e-5 * np.max(np.abs(numeric)), f"{name}: max |numeric - analytic| = {err:.3g}"
        assert np.max(np.abs(grads[name])) > 1e-6, f"{name}: a zero gradient checks nothing"


def kl(target: tuple[float, ...], logits: list[float]) -> float:
    top = max(logits)
    log_total = top + math.log(sum(math.exp(z - top) for z in logits))
    return sum(t * (math.log(t) - (z - log_total)) for t, z in zip(target, logits) if t > 0)


@pytest.mark.parametrize("heads", [1, 2, 4])
def test_batched_loss_equals_the_loss_of_each_sentence_on_its_own(heads: int) -> None:
    # Padding, masking and the batch axis must change nothing: every sentence is computed
    # here alone, with the plain-Python reference.
    lesson = sense_lesson(3, 7, 8, heads, seed=3)
    examples = training_set(lesson)
    rng = np.random.default_rng(heads)
    params = {n: np.eye(8) + rng.normal(0.0, 0.4, (8, 8)) for n in TRAINED}
    loss, _ = loss_and_gradients(params, make_batch(lesson, examples), heads)
    w = {n: m.tolist() for n, m in params.items()}
    total = 0.0
    for e in examples:
        x = [list(lesson.vector(t)) for t in e.tokens]
        _, single = ref.attention(ref.matmul(x, w["W_Q"]), ref.matmul(x, w["W_K"]), ref.matmul(x, w["W_V"]))
        multi = ref.multi_head(x, w["W_Q"], w["W_K"], w["W_V"], w["W_O"], heads).output
        total += (kl(e.target, single[e.focus_index]) + kl(e.target, multi[e.focus_index])) / 2
    assert loss == pytest.approx(total / len(examples), rel=1e-12, abs=1e-12)


# --------------------------------------------------------------------------------------
# The data set
# --------------------------------------------------------------------------------------
def test_strongest_dimension_needs_a_strict_winner() -> None:
    assert strongest_dimension([3, 0, 0, 0.5]) == 0
    assert strongest_dimension([2, 2, 0, 0.5]) is None
    assert strongest_dimension([0.5, 0, 0.5, 1]) == 3


def test_training_set_of_the_default_lesson() -> None:
    lesson = trained("default")
    examples = training_set(lesson)
    assert examples == training_set(lesson), "deterministic"
    by_sentence = {(e.sentence, e.label) for e in examples}
    # the contexts themselves, a swap of same-sense words, a sub-sentence, a sentence without a clue
    for pair in [("cat and mouse are friends", "animal"), ("keyboard and mouse are useful", "tech"),
                 ("cat and mouse are useful", "animal"), ("keyboard mouse", "tech"),
                 ("and mouse are friends", "animal or tech")]:
        assert pair in by_sentence, pair
    senses = {"animal", "tech"}
    for e in examples:
        assert e.tokens[e.focus_index] == "mouse" and e.tokens.count("mouse") == 1
        assert all(t in dict(lesson.vocabulary) for t in e.tokens)
        assert sum(e.target) == pytest.approx(1.0)
        carried = {carries(lesson, t) for t in e.tokens if t != "mouse"}
        if e.label in senses:  # the label is carried by a word of the sentence: nothing invented
            assert e.target[lesson.dimensions.index(e.label)] == 1.0
            assert e.label in carried, e.sentence
        else:
            assert e.label == "animal or tech" and not carried & senses, e.sentence
            assert e.target == (0.5, 0.5, 0.0, 0.0)
    assert len(examples) == len({(e.tokens, e.target) for e in examples}), "no duplicates"


def test_training_examples_of_the_file_are_trained_on() -> None:
    data = tomllib.loads((resources.files("attncore") / "lessons" / "default.toml").read_text(encoding="utf-8"))
    data["projections"]["weights"] = "trained"
    data["training"] = {"steps": 120, "seed": 3, "learning_rate": 0.1,
                        "examples": [{"sentence": "mouse and cat", "focus": "mouse", "leans": "animal"}]}
    lesson = parse_lesson(data, "extra.toml")
    assert ("mouse and cat", "animal") in {(e.sentence, e.label) for e in training_set(lesson)}
    record = trace_lesson(lesson).training
    assert record is not None and record.steps == 120 and record.seed == 3 and record.learning_rate == 0.1
    assert len(record.loss) == 120 + record.rounding_steps + 1


# --------------------------------------------------------------------------------------
# The built-in lessons, trained
# --------------------------------------------------------------------------------------
@pytest.fixture(scope="module", params=builtin_lessons())
def trained_trace(request: pytest.FixtureRequest) -> LessonTrace:
    return trace_lesson(trained(request.param))


def test_builtin_lessons_meet_the_claims_when_trained(trained_trace: LessonTrace) -> None:
    record = trained_trace.training
    assert record is not None
    assert claim_failures(trained_trace) == []
    assert record.claims_hold and record.reason == ""
    assert record.accuracy == 1.0 and record.accuracy_heads == 1.0


def test_the_record_agrees_with_the_trace(trained_trace: LessonTrace) -> None:
    record = trained_trace.training
    assert record is not None
    ctxs = [c for c in trained_trace.contexts if c.context.leans is not None]
    assert len(record.claims) == len(ctxs)
    for claim, c in zip(record.claims, ctxs, strict=True):
        f = c.focus_index
        cols = [j for j, t in enumerate(c.tokens) if t in claim.sense_words and t != c.focus]
        assert claim.context == c.context.name and claim.sense == c.context.leans
        assert claim.simple == pytest.approx(c.attention[f, cols].sum(), abs=1e-12)
        assert claim.trained == pytest.approx(c.projected.attention[f, cols].sum(), abs=1e-12)
        for a, h in zip(claim.heads, c.multi_head.heads, strict=True):
            assert a == pytest.approx(h.attention[f, cols].sum(), abs=1e-12)
    # the last attention row kept during training is the one the video shows
    assert record.snapshot_steps[0] == 0 and record.snapshot_steps[-1] == record.steps + record.rounding_steps
    assert list(record.snapshot_steps) == sorted(set(record.snapshot_steps)) and len(record.snapshot_steps) >= 6
    for snaps, c in zip(record.snapshots, trained_trace.contexts, strict=True):
        assert snaps.shape == (len(record.snapshot_steps), c.n)
        assert np.array_equal(snaps[-1], c.projected.attention[c.focus_index])
        assert np.allclose(snaps.sum(axis=1), 1.0)
    assert len(record.loss) == record.steps + record.rounding_steps + 1
    assert all(math.isfinite(v) for v in record.loss)


def test_what_is_shown_is_what_computes(trained_trace: LessonTrace) -> None:
    """Multiply the numbers on screen (as text) and you get the trace's numbers."""
    w, dec = trained_trace.weights, trained_trace.decimals
    shown = {}
    for name in TRAINED:
        m = getattr(w, name)
        text = format_matrix(m, dec)
        shown[name] = [[float(s.replace("\u2212", "-")) for s in row] for row in text]
        assert np.array_equal(np.array(shown[name]), m), f"{name} holds more digits than are shown"
    for c in trained_trace.contexts:
        x = c.embeddings.tolist()
        q, k, v = (ref.matmul(x, shown[n]) for n in ("W_Q", "W_K", "W_V"))
        weights, out = ref.attention(q, k, v)
        assert np.max(np.abs(c.projected.attention - np.array(weights))) <= 1e-12
        assert np.max(np.abs(c.projected.output - np.array(out))) <= 1e-12
        mh = ref.multi_head(x, shown["W_Q"], shown["W_K"], shown["W_V"], shown["W_O"], trained_trace.lesson.heads)
        assert np.max(np.abs(c.multi_head.output - np.array(mh.output))) <= 1e-12


def test_provenance_says_how_the_weights_were_obtained(trained_trace: LessonTrace) -> None:
    record, prov = trained_trace.training, trained_trace.weights.provenance
    assert record is not None
    assert "\n" not in prov
    if trained_trace.lesson.language != "en":  # said in the lesson's language, with the same numbers
        assert not prov.startswith("Trained for ")
        assert all(str(n) in prov for n in (record.steps, record.seed, len(record.examples)))
        return
    assert prov.startswith("Trained for ")
    assert f"{record.steps} steps of Adam" in prov and f"seed {record.seed}" in prov
    assert f"on {len(record.examples)} labelled sentences" in prov
    assert f"rounded to {trained_trace.decimals} decimals" in prov
    assert "changes the dimension" in prov and "not trained" in prov  # W_V_reshape is still drawn, and says so


def test_training_history_is_in_the_json(trained_trace: LessonTrace) -> None:
    data = json.loads(json.dumps(trained_trace.to_json()))
    t = data["training"]
    assert t["claims_hold"] is True and t["reason"] == ""
    assert t["loss"][0] > 4 * t["rounded_loss"]
    record = trained_trace.training
    assert record is not None
    assert [s["step"] for s in t["snapshots"]] == list(record.snapshot_steps)
    for k, snap in enumerate(t["snapshots"]):
        assert set(snap) == {"step", "attention"} and len(snap["attention"]) == len(trained_trace.contexts)
        for c, row in enumerate(snap["attention"]):
            assert row == [float(v) for v in record.snapshots[c][k]]
            assert abs(sum(row) - 1.0) < 1e-9, "an attention row sums to 1"
    assert trained_trace.contexts[0].focus in t["task"]
    assert {c["context"] for c in t["claims"]} == {c.context.name for c in trained_trace.contexts}


def test_snapshots_are_frozen(trained_trace: LessonTrace) -> None:
    record = trained_trace.training
    assert record is not None
    for s in record.snapshots:
        with pytest.raises(ValueError, match="read-only"):
            s[0, 0] = 1.0
    for name in TRAINED:
        assert not getattr(trained_trace.weights, name).flags.writeable


def test_training_is_deterministic_and_fast() -> None:
    lesson = trained("default")
    train_lesson.cache_clear()
    start = time.perf_counter()
    first = train_lesson(lesson)
    elapsed = time.perf_counter() - start
    train_lesson.cache_clear()
    second = train_lesson(lesson)
    assert first is not None and second is not None and first is not second
    for name in TRAINED:
        assert np.array_equal(getattr(first, name), getattr(second, name))
    assert first.record.loss == second.record.loss
    assert elapsed < 2.0, f"the default lesson took {elapsed:.2f} s to train"


def test_training_starts_from_the_simplified_attention() -> None:
    # W = I plus small noise: at step 0 the focus word looks about where it looked in step 6
    trace = trace_lesson(trained("default"))
    record = trace.training
    assert record is not None
    for snaps, c in zip(record.snapshots, trace.contexts, strict=True):
        assert np.max(np.abs(snaps[0] - c.attention[c.focus_index])) < 0.1


# --------------------------------------------------------------------------------------
# Generated lessons at the bounds
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("n_ctx", "n_tok", "d", "heads"),
    [(1, 2, 2, 1), (3, 8, 8, 4), (3, 2, 8, 1), (1, 5, 6, 3), (2, 8, 4, 2), (3, 4, 4, 4)],
    ids=["smallest", "largest", "short-wide", "three-heads", "long", "one-dim-heads"],
)
def test_generated_lessons_at_the_bounds_meet_the_claims(n_ctx: int, n_tok: int, d: int, heads: int) -> None:
    trace = trace_lesson(sense_lesson(n_ctx, n_tok, d, heads))
    assert trace.training is not None
    assert claim_failures(trace) == []
    assert trace.training.claims_hold and trace.training.reason == ""


def test_two_senses_in_two_dimensions_cannot_be_told_apart_and_the_trace_says_so() -> None:
    # d = 2, both dimensions senses: a score u·x that ranks "river" above "bank" (2, 2)
    # ranks "money" below it, so one of the two contexts must fail; the trace says which.
    trace = trace_lesson(sense_lesson(2, 8, 2, 2))
    record = trace.training
    assert record is not None and not record.claims_hold
    assert claim_failures(trace) != []
    assert "\n" not in record.reason and "of its attention to" in record.reason and "'ctx" in record.reason


@settings(max_examples=6, deadline=None, derandomize=True, phases=[Phase.explicit, Phase.generate])
@given(n_ctx=st.integers(1, 3), n_tok=st.integers(2, 8), d=st.sampled_from([2, 3, 4, 6, 8]),
       seed=st.integers(0, 10_000), decimals=st.integers(1, 3), data=st.data())
def test_random_lessons_record_their_claims_truthfully(n_ctx: int, n_tok: int, d: int, seed: int, decimals: int,
                                                       data: st.DataObject) -> None:
    heads = data.draw(st.sampled_from([h for h in range(1, 5) if d % h == 0]))
    trace = trace_lesson(sense_lesson(n_ctx, n_tok, d, heads, seed, decimals))
    record = trace.training
    assert record is not None
    assert record.claims_hold == (claim_failures(trace) == [])
    assert (record.reason == "") == record.claims_hold and "\n" not in record.reason
    for name in TRAINED:  # rounded to the lesson's decimals, whatever they are
        m = getattr(trace.weights, name)
        assert np.allclose(m, np.round(m, decimals), rtol=0, atol=1e-12)


# --------------------------------------------------------------------------------------
# Lessons that cannot meet the claims
# --------------------------------------------------------------------------------------
def small(contexts: list[dict[str, str]], **extra: object) -> Lesson:
    data = {
        "title": "x", "dimensions": ["animal", "tech", "grammar"],
        "vocabulary": {"cat": [3, 0, 0], "mouse": [2, 2, 0], "keyboard": [0, 3, 0], "and": [0, 0, 2]},
        "contexts": contexts, "projections": {"weights": "trained"}, "heads": {"count": 1}, **extra,
    }
    return parse_lesson(data, "small.toml")


def test_a_lesson_without_leans_keeps_its_random_weights_and_says_why() -> None:
    lesson = small([{"sentence": "cat and mouse", "focus": "mouse"}])
    w = make_weights(lesson)
    random_w = make_weights(lesson.with_weights("random"))
    for name in ("W_Q", "W_K", "W_V", "W_V_reshape", "W_O"):
        assert np.array_equal(getattr(w, name), getattr(random_w, name))
    assert w.training is not None and not w.training.claims_hold
    assert "nothing to train on" in w.training.reason
    assert "Not trained" in w.provenance and "\n" not in w.provenance
    assert trace_lesson(lesson).to_json()["training"]["rounded_loss"] is None


def test_a_sense_no_other_word_carries_is_reported() -> None:
    lesson = small([{"sentence": "cat and mouse", "focus": "mouse", "leans": "animal"},
                    {"sentence": "and mouse", "focus": "mouse", "leans": "tech"}])
    record = trace_lesson(lesson).training
    assert record is not None and not record.claims_hold
    assert "in 'context 2' no other word has tech as its strongest dimension" in record.reason


def test_examples_without_a_context_that_leans_train_but_claim_nothing() -> None:
    lesson = small([{"sentence": "cat and mouse", "focus": "mouse"}],
                   training={"examples": [{"sentence": "cat mouse", "focus": "mouse", "leans": "animal"},
                                          {"sentence": "keyboard mouse", "focus": "mouse", "leans": "tech"}]})
    trace = trace_lesson(lesson)
    assert trace.training is not None and trace.training.steps == 300 and trace.training.claims == ()
    assert not trace.training.claims_hold and "no context names the sense" in trace.training.reason
    assert trace.weights.provenance.startswith("Trained for ")


def test_hand_set_matrices_are_kept_and_named() -> None:
    w_q = [[1, 0, 0], [0, 1, 0], [0, 0, -1]]
    lesson = small([{"sentence": "cat and mouse", "focus": "mouse", "leans": "animal"},
                    {"sentence": "keyboard and mouse", "focus": "mouse", "leans": "tech"}])
    lesson = parse_lesson({**_as_data(lesson), "projections": {"weights": "trained", "W_Q": w_q}}, "hand.toml")
    trace = trace_lesson(lesson)
    assert trace.training is not None and trace.training.trained == ("W_K", "W_V", "W_O")
    assert np.array_equal(trace.weights.W_Q, np.array(w_q, dtype=float))
    assert trace.weights.provenance.startswith("W_Q set by hand; W_K, W_V, W_O trained for ")


def _as_data(lesson: Lesson) -> dict[str, object]:
    return {
        "title": lesson.title,
        "dimensions": list(lesson.dimensions),
        "vocabulary": {w: list(v) for w, v in lesson.vocabulary},
        "contexts": [
            {"name": c.name, "sentence": c.sentence, "focus": c.focus, **({"leans": c.leans} if c.leans else {})}
            for c in lesson.contexts
        ],
        "heads": {"count": lesson.heads},
    }


def test_default_lesson_object_is_untouched_by_with_weights() -> None:
    lesson = default_lesson()
    forced = lesson.with_weights("trained")
    assert lesson.projections.weights == DEFAULT_WEIGHTS and forced.projections.weights == "trained"
    assert forced.contexts == lesson.contexts and forced.vocabulary == lesson.vocabulary
    with pytest.raises(ValueError, match="weights must be one of trained, random"):
        lesson.with_weights("learned")
