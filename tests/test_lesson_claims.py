"""Numeric tier: the four claims of the lesson (shared LESSON.md) hold for the
built-in lesson, and its trace is frozen, deterministic and honestly labelled."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import numpy as np
import pytest

from attncore import ContextTrace, LessonTrace, trace_lesson

STRONG = 2.0  # "strong" in a dimension
WEAK = 1.0  # "weak": every |value| at most this
MARGIN = 0.5  # a lean visible on screen at two decimals


@pytest.fixture(scope="module")
def trace() -> LessonTrace:
    return trace_lesson()


def context(trace: LessonTrace, name: str) -> ContextTrace:
    matches = [c for c in trace.contexts if c.context.name == name]
    assert len(matches) == 1, f"no single context named {name!r}"
    return matches[0]


def vec(trace: LessonTrace, word: str) -> dict[str, float]:
    return dict(zip(trace.lesson.dimensions, trace.lesson.vector(word), strict=True))


def test_the_running_example_is_the_one_of_the_lesson(trace: LessonTrace) -> None:
    assert [c.context.name for c in trace.contexts] == ["animal", "tech"]
    assert context(trace, "animal").tokens == ("cat", "and", "mouse", "are", "friends")
    assert context(trace, "tech").tokens == ("keyboard", "and", "mouse", "are", "useful")
    assert {"animal", "tech", "grammar"} <= set(trace.lesson.dimensions)
    assert all(c.focus == "mouse" for c in trace.contexts)


# Claim 1 --------------------------------------------------------------------------------
def test_claim1_mouse_same_vector_in_both_contexts_and_ambiguous(trace: LessonTrace) -> None:
    rows = [c.embeddings[c.focus_index] for c in trace.contexts]
    assert len(rows) == 2
    assert np.array_equal(rows[0], rows[1])
    assert np.array_equal(rows[0], np.array(trace.lesson.vector("mouse")))
    mouse = vec(trace, "mouse")
    assert mouse["animal"] >= STRONG
    assert mouse["tech"] >= STRONG


# Claim 2 --------------------------------------------------------------------------------
def test_claim2_cat_animal_keyboard_tech(trace: LessonTrace) -> None:
    cat, keyboard = vec(trace, "cat"), vec(trace, "keyboard")
    assert cat["animal"] >= STRONG
    assert max(cat, key=lambda k: abs(cat[k])) == "animal"
    assert keyboard["tech"] >= STRONG
    assert max(keyboard, key=lambda k: abs(keyboard[k])) == "tech"


@pytest.mark.parametrize("word", ["and", "are"])
def test_claim2_function_words_mostly_grammar(trace: LessonTrace, word: str) -> None:
    v = vec(trace, word)
    assert v["grammar"] > 0
    others = [abs(x) for k, x in v.items() if k != "grammar"]
    assert v["grammar"] > max(others), f"{word}: {v}"


@pytest.mark.parametrize("word", ["friends", "useful"])
def test_claim2_last_words_weak_everywhere(trace: LessonTrace, word: str) -> None:
    v = vec(trace, word)
    assert all(abs(x) <= WEAK for x in v.values()), f"{word}: {v}"


# Claim 3 --------------------------------------------------------------------------------
def test_claim3_vocabulary_values_are_small_and_round(trace: LessonTrace) -> None:
    values = [x for _word, v in trace.lesson.vocabulary for x in v]
    assert values
    for x in values:
        assert round(x * 10) == pytest.approx(x * 10, abs=1e-9), f"{x} has more than one decimal"
    # and, being so, every embedding in the trace is exactly what the lesson file says
    for c in trace.contexts:
        assert c.embeddings.tolist() == [list(trace.lesson.vector(t)) for t in c.tokens]


# Claim 4 --------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "lean", "other"), [("animal", "animal", "tech"), ("tech", "tech", "animal")])
def test_claim4_mouse_output_leans_with_its_context(trace: LessonTrace, name: str, lean: str, other: str) -> None:
    c = context(trace, name)
    dims = list(trace.lesson.dimensions)
    out = c.output[c.focus_index]
    i_lean, i_other = dims.index(lean), dims.index(other)
    assert out[i_lean] - out[i_other] >= MARGIN, f"{name}: mouse output {out}"
    pair = [dims.index("animal"), dims.index("tech")]
    assert pair[int(np.argmax(out[pair]))] == i_lean
    # the difference survives the rounding used on screen
    dec = trace.decimals
    assert round(out[i_lean], dec) - round(out[i_other], dec) >= MARGIN


def test_claim4_same_input_different_output(trace: LessonTrace) -> None:
    a, b = (c.output[c.focus_index] for c in trace.contexts)
    assert not np.allclose(a, b)


# The trace itself -----------------------------------------------------------------------
def arrays(obj: object, path: str = "trace") -> Iterator[tuple[str, np.ndarray]]:
    """Every numpy array reachable from a trace, with a readable path."""
    if isinstance(obj, np.ndarray):
        yield path, obj
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from arrays(getattr(obj, f.name), f"{path}.{f.name}")
    elif isinstance(obj, tuple):
        for i, item in enumerate(obj):
            yield from arrays(item, f"{path}[{i}]")


def test_trace_arrays_are_read_only(trace: LessonTrace) -> None:
    found = list(arrays(trace))
    assert len(found) > 50  # every context, every step, every head, the weights
    for path, a in found:
        assert not a.flags.writeable, path
        before = a.copy()
        with pytest.raises(ValueError, match="read-only"):
            a[(0,) * a.ndim] = 123.0
        assert np.array_equal(a, before), path


def test_trace_arrays_do_not_share_memory_with_writable_arrays(trace: LessonTrace) -> None:
    # a read-only view of a writable array could still change underneath the scenes
    for path, a in arrays(trace):
        base = a
        while isinstance(base.base, np.ndarray):
            base = base.base
            assert not base.flags.writeable, f"{path} is a view of a writable array"


def test_weights_identical_across_contexts(trace: LessonTrace) -> None:
    w = trace.weights
    for c in trace.contexts:
        p = c.projected
        assert np.array_equal(p.W_Q, w.W_Q) and np.array_equal(p.W_K, w.W_K) and np.array_equal(p.W_V, w.W_V)
        assert np.array_equal(c.reshaped.W_V, w.W_V_reshape)
        assert np.array_equal(c.multi_head.W_O, w.W_O)
        d_h = c.d // len(c.multi_head.heads)
        for i, h in enumerate(c.multi_head.heads):
            cols = slice(i * d_h, (i + 1) * d_h)
            assert np.array_equal(h.W_Q, w.W_Q[:, cols])
            assert np.array_equal(h.W_K, w.W_K[:, cols])
            assert np.array_equal(h.W_V, w.W_V[:, cols])
    first, *rest = trace.contexts
    for c in rest:
        for (pa, a), (pb, b) in zip(arrays(first.projected), arrays(c.projected), strict=True):
            if pa.split(".")[-1].startswith("W_"):
                assert pa == pb and np.array_equal(a, b), pa


def test_same_lesson_traced_twice_is_identical(trace: LessonTrace) -> None:
    again = trace_lesson(trace.lesson)
    fresh = trace_lesson()
    for other in (again, fresh):
        pairs = list(zip(arrays(trace), arrays(other), strict=True))
        assert len(pairs) > 50
        for (pa, a), (pb, b) in pairs:
            assert pa == pb
            assert a.shape == b.shape and np.array_equal(a, b), pa
    assert trace.weights.provenance == fresh.weights.provenance


@pytest.fixture(scope="module")
def random_trace(trace: LessonTrace) -> LessonTrace:
    """The default lesson with ``[projections] weights = "random"``: seeded halves."""
    return trace_lesson(trace.lesson.with_weights("random"))


def test_provenance_is_one_honest_line_naming_the_seed(random_trace: LessonTrace) -> None:
    prov = random_trace.weights.provenance
    assert prov.strip()
    assert "\n" not in prov
    seed = random_trace.lesson.projections.seed
    assert seed is not None
    assert f"seed {seed}" in prov
    assert "untrained" in prov.lower()


def test_weights_are_halves_in_unit_range(random_trace: LessonTrace) -> None:
    # what the provenance line promises: drawn and rounded to halves
    w = random_trace.weights
    for m in (w.W_Q, w.W_K, w.W_V, w.W_V_reshape, w.W_O):
        assert np.array_equal(m * 2, np.round(m * 2))
        assert np.all(np.abs(m) <= 1)
    assert w.W_V_reshape.shape == (random_trace.lesson.d, random_trace.lesson.projections.d_v)


def test_trained_provenance_is_one_honest_line_naming_the_training(trace: LessonTrace) -> None:
    # the default lesson is trained: the line says how, with which seeds, and what was not trained
    assert trace.lesson.projections.weights == "trained" and trace.training is not None
    prov, t = trace.weights.provenance, trace.training
    assert prov.strip() and "\n" not in prov
    assert prov.startswith("Trained") and f"{t.steps} steps" in prov and f"seed {t.seed}" in prov
    assert f"seed {trace.lesson.projections.seed}" in prov  # the W_V that changes the dimension is still drawn
    assert "not trained" in prov and "untrained" not in prov.lower()


def test_trained_weights_are_shown_at_the_lessons_decimals(trace: LessonTrace) -> None:
    # W_Q, W_K, W_V, W_O are trained and rounded to the lesson's decimals; the dimension-changing W_V stays halves
    w, scale = trace.weights, 10 ** trace.decimals
    for m in (w.W_Q, w.W_K, w.W_V, w.W_O):
        assert np.allclose(m * scale, np.round(m * scale), atol=1e-9)
    assert np.array_equal(w.W_V_reshape * 2, np.round(w.W_V_reshape * 2))
    assert w.W_V_reshape.shape == (trace.lesson.d, trace.lesson.projections.d_v)
