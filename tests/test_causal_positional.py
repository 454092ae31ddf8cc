"""Numeric tier for issue #15: the causal mask, and why attention needs positions.

- ``causal_attention``, ``masked_softmax`` and ``sinusoidal_encoding`` against the
  plain-Python reference (``reference.causal_attention`` renormalises each row over its
  first ``i + 1`` scores without any −∞; ``reference.sinusoidal_encoding`` is the formula
  column by column), on generated matrices and on the traces of the built-in lessons and
  of generated lessons;
- properties: rows sum to 1, the upper triangle is exactly 0, the first row is one-hot
  on itself, no NaN and no warning; the shuffled sentence gives the focus word the same
  output without positions and a different one with them;
- what the mask costs the focus word when the word that carries the sense comes after it.
"""

from __future__ import annotations

import contextlib
import math
import random
import warnings
from collections.abc import Callable

import numpy as np
import pytest
import reference as ref
from hypothesis import given, settings
from hypothesis import strategies as st
from test_training import sense_lesson

from attncore import (
    ContextTrace,
    Lesson,
    LessonError,
    LessonTrace,
    builtin_lesson,
    causal_attention,
    causal_mask,
    fmt,
    masked_scores,
    masked_softmax,
    parse_lesson,
    round_matrix,
    shuffled_order,
    sinusoidal_encoding,
    softmax,
    trace_lesson,
)

TOL = 1e-12
SETTINGS = settings(max_examples=100, deadline=None)
BUILTIN = ("default", "bank", "souris")

moderate = st.floats(min_value=-2.0, max_value=2.0, allow_nan=False, allow_infinity=False)


def matrices(rows: int, cols: int) -> st.SearchStrategy[np.ndarray]:
    return st.lists(st.lists(moderate, min_size=cols, max_size=cols), min_size=rows, max_size=rows).map(
        lambda m: np.array(m, dtype=np.float64)
    )


def assert_close(actual: np.ndarray, expected: ref.Matrix, what: str = "") -> None:
    exp = np.array(expected, dtype=np.float64)
    assert actual.shape == exp.shape, f"{what}: shape {actual.shape} != reference {exp.shape}"
    err = float(np.max(np.abs(actual - exp)))
    assert err <= TOL, f"{what}: max |attncore - reference| = {err:.3g} > {TOL}"


def plus(a: ref.Matrix, b: ref.Matrix) -> ref.Matrix:
    return [[u + v for u, v in zip(ra, rb, strict=True)] for ra, rb in zip(a, b, strict=True)]


# --------------------------------------------------------------------------------------
# Lessons: the built-in ones and generated ones
# --------------------------------------------------------------------------------------
WORDS = ["river", "bank", "café", "the", "über", "sat", "on", "deposit", "at", "steep", "fish", "loan"]
DIMS = ["nature", "finance", "grammar", "place", "action", "colour", "size", "other"]


def random_lesson(seed: int) -> Lesson:
    """Halves from −2 to 3 like a hand-made lesson; words may repeat; the focus anywhere.

    Sizes span the lesson limits (2-8 words, 2-8 dimensions, 1-3 contexts); about one
    context in four has no ``leans``.
    """
    rng = random.Random(seed)
    d, n_tok, n_ctx = rng.randint(2, 8), rng.randint(2, 8), rng.randint(1, 3)
    dims = DIMS[:d]
    words = rng.sample(WORDS, min(len(WORDS), rng.randint(2, n_tok + 2)))
    values = [x / 2 for x in range(-4, 7)]
    vocab = {w: [rng.choice(values) for _ in range(d)] for w in words}
    contexts: list[dict[str, str]] = []
    wants_leans = []
    for c in range(n_ctx):
        toks = [rng.choice(words) for _ in range(n_tok)]
        contexts.append({"name": f"ctx{c}", "sentence": " ".join(toks), "focus": rng.choice(toks)})
        wants_leans.append(rng.random() < 0.75)
    data = {"title": f"Random {seed}", "dimensions": dims, "decimals": rng.randint(0, 3), "vocabulary": vocab,
            "contexts": contexts, "projections": {"weights": "random", "seed": seed, "d_v": 3},
            "heads": {"count": 1}}
    # A lesson's `leans` must agree with the focus word's output (the validator checks
    # it), so the claim is the output's clear strongest dimension, where it has one.
    unclaimed = trace_lesson(parse_lesson(data, f"random-{seed}.toml"))
    for ctx, wants, c in zip(contexts, wants_leans, unclaimed.contexts, strict=True):
        out = np.sort(c.output[c.focus_index])[::-1]
        if wants and (len(out) < 2 or out[0] - out[1] > 0.5):
            ctx["leans"] = dims[int(np.argmax(c.output[c.focus_index]))]
    return parse_lesson(data, f"random-{seed}.toml")


def generated_lessons() -> list[Lesson]:
    """Random lessons, and the sense lessons of ``test_training`` (one word carries the
    sense, before or after the focus word), with seeded random weights (no training)."""
    sense = [sense_lesson(n_ctx, n_tok, d, 1, seed).with_weights("random")
             for seed, (n_ctx, n_tok, d) in enumerate([(1, 2, 2), (3, 8, 8), (2, 5, 4), (3, 3, 6), (2, 8, 3)])]
    return valid_random_lessons(40) + sense


def valid_random_lessons(count: int) -> list[Lesson]:
    """The first ``count`` random lessons the validator accepts (some draws exceed its
    bound on the exponentials the softmax scene shows; those are not lessons)."""
    out: list[Lesson] = []
    seed = 0
    while len(out) < count:
        with contextlib.suppress(LessonError):
            out.append(random_lesson(seed))
        seed += 1
    assert seed < 2 * count, "the generator should mostly make valid lessons"
    return out


def traced(lesson: Lesson) -> LessonTrace:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an overflow or invalid-value warning is a failure
        return trace_lesson(lesson)


BUILTIN_TRACES = {name: traced(builtin_lesson(name)) for name in BUILTIN}
GENERATED_TRACES = [traced(lesson) for lesson in generated_lessons()]
ALL_CONTEXTS = [(f"{name}/{c.context.name}", c) for name, t in BUILTIN_TRACES.items() for c in t.contexts] + [
    (f"{t.lesson.source}/{c.context.name}", c) for t in GENERATED_TRACES for c in t.contexts
]
CONTEXT_IDS = [where for where, _ in ALL_CONTEXTS]
CONTEXTS = [c for _, c in ALL_CONTEXTS]


# --------------------------------------------------------------------------------------
# The reference itself, on hand-computed numbers
# --------------------------------------------------------------------------------------
def test_reference_causal_attention_by_hand() -> None:
    # X = [[1, 0], [0, 1], [1, 1]]: row 0 sees itself; row 1 softmax(0, 1/√2); row 2 all three.
    x = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
    r = 1 / math.sqrt(2)
    w, out = ref.causal_attention(x, x, x)
    assert w[0] == [1.0, 0.0, 0.0]
    e = math.exp(r)
    assert w[1] == pytest.approx([1 / (1 + e), e / (1 + e), 0.0], abs=1e-15)
    total = 2 * math.exp(r) + math.exp(2 * r)
    assert w[2] == pytest.approx([math.exp(r) / total, math.exp(r) / total, math.exp(2 * r) / total], abs=1e-15)
    assert out[0] == [1.0, 0.0]


def test_reference_sinusoidal_encoding_by_hand() -> None:
    pe = ref.sinusoidal_encoding(3, 5)
    assert pe[0] == [0.0, 1.0, 0.0, 1.0, 0.0]  # position 0: sin 0, cos 0, ...
    assert pe[1][0] == math.sin(1) and pe[1][1] == math.cos(1)
    assert pe[2][2] == pytest.approx(math.sin(2 / 10000 ** (2 / 5)), abs=1e-15)
    assert pe[2][3] == pytest.approx(math.cos(2 / 10000 ** (2 / 5)), abs=1e-15)
    assert pe[2][4] == pytest.approx(math.sin(2 / 10000 ** (4 / 5)), abs=1e-15)  # odd d: a last sine alone


# --------------------------------------------------------------------------------------
# attncore == reference, generated matrices
# --------------------------------------------------------------------------------------
@SETTINGS
@given(data=st.data(), n=st.integers(1, 8), d_k=st.integers(1, 6), d_v=st.integers(1, 6))
def test_causal_attention_matches_reference(data: st.DataObject, n: int, d_k: int, d_v: int) -> None:
    q, k = data.draw(matrices(n, d_k), label="Q"), data.draw(matrices(n, d_k), label="K")
    v = data.draw(matrices(n, d_v), label="V")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = causal_attention(q, k, v)
    w, out = ref.causal_attention(q.tolist(), k.tolist(), v.tolist())
    assert_close(r.weights, w, "weights")
    assert_close(r.output, out, "output")
    scaled = ref.scale(ref.scores(q.tolist(), k.tolist()), d_k)
    assert_close(r.scaled, scaled, "scaled")
    below = np.tril(np.ones((n, n), dtype=bool))
    assert np.all(np.isneginf(r.masked[~below]))
    assert np.array_equal(r.masked[below], r.scaled[below])


@SETTINGS
@given(n=st.integers(1, 8), d=st.integers(1, 8))
def test_sinusoidal_encoding_matches_reference(n: int, d: int) -> None:
    assert_close(sinusoidal_encoding(n, d), ref.sinusoidal_encoding(n, d), f"n={n} d={d}")


@SETTINGS
@given(data=st.data(), n=st.integers(1, 6), m=st.integers(1, 6))
def test_masked_softmax_is_softmax_over_the_unmasked_keys(data: st.DataObject, n: int, m: int) -> None:
    s = data.draw(matrices(n, m), label="scores")
    mask = np.array(data.draw(st.lists(st.lists(st.booleans(), min_size=m, max_size=m).filter(any),
                                       min_size=n, max_size=n), label="mask"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a = masked_softmax(masked_scores(s, mask))
    for i in range(n):
        keep = [j for j in range(m) if mask[i, j]]
        expected = ref.softmax([[s[i, j] for j in keep]])[0]
        assert_close(a[i, keep][None, :], [expected], f"row {i}")
        assert np.all(a[i, ~mask[i]] == 0.0)
    # without a mask, exactly the ordinary softmax
    assert np.array_equal(masked_softmax(s), softmax(s))


# --------------------------------------------------------------------------------------
# The traces == reference: built-in lessons and generated lessons
# --------------------------------------------------------------------------------------
def test_the_generated_lessons_cover_what_matters() -> None:
    # guard: the sweep below is not vacuous
    sizes = {(c.n, c.d) for c in CONTEXTS}
    assert {n for n, _ in sizes} == set(range(2, 9)) and {d for _, d in sizes} == set(range(2, 9))
    assert any(c.d % 2 for c in CONTEXTS), "an odd d"
    assert any(c.causal.mask_cost.hidden_positions for c in CONTEXTS), "a sense word after the focus word"
    assert any(len(set(c.tokens)) < c.n for c in CONTEXTS), "a repeated word"
    assert any(c.focus_index == 0 for c in CONTEXTS) and any(c.focus_index == c.n - 1 for c in CONTEXTS)


@pytest.mark.parametrize("c", CONTEXTS, ids=CONTEXT_IDS)
def test_causal_trace_matches_reference(c: ContextTrace) -> None:
    x = c.embeddings.tolist()
    w, out = ref.causal_attention(x, x, x)
    assert_close(c.causal.attention, w, "causal attention")
    assert_close(c.causal.output, out, "causal output")
    scaled = ref.scale(ref.scores(x, x), c.d)
    for i in range(c.n):
        for j in range(c.n):
            if j <= i:
                assert c.causal.mask[i, j] and abs(c.causal.masked[i, j] - scaled[i][j]) <= TOL
            else:
                assert not c.causal.mask[i, j] and c.causal.masked[i, j] == -math.inf


@pytest.mark.parametrize("c", CONTEXTS, ids=CONTEXT_IDS)
def test_positional_trace_matches_reference(c: ContextTrace) -> None:
    p, x = c.positional, c.embeddings.tolist()
    pe = ref.sinusoidal_encoding(c.n, c.d)
    xp = plus(x, pe)
    assert_close(p.encoding, pe, "encoding")
    assert_close(p.inputs, xp, "X + PE")
    w, out = ref.attention(xp, xp, xp)
    assert_close(p.scaled, ref.scale(ref.scores(xp, xp), c.d), "scaled")
    assert_close(p.attention, w, "attention")
    assert_close(p.output, out, "output")
    # the shuffled sentence, recomputed from its words (not from the trace's matrices)
    assert p.shuffled_tokens == tuple(c.tokens[j] for j in p.shuffled_order)
    vector = dict(zip(c.tokens, x))  # a word's vector (a repeated word has one vector)
    xs = [vector[t] for t in p.shuffled_tokens]
    w, out = ref.attention(xs, xs, xs)
    assert_close(p.shuffled_attention, w, "shuffled attention")
    assert_close(p.shuffled_output, out, "shuffled output")
    xsp = plus(xs, pe)  # each word gets the encoding of its new position
    w, out = ref.attention(xsp, xsp, xsp)
    assert_close(p.shuffled_positional_attention, w, "shuffled attention with positions")
    assert_close(p.shuffled_positional_output, out, "shuffled output with positions")


# --------------------------------------------------------------------------------------
# Properties of the causal mask
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("c", CONTEXTS, ids=CONTEXT_IDS)
def test_causal_rows_are_probabilities_over_the_words_so_far(c: ContextTrace) -> None:
    a = c.causal.attention
    assert np.all(np.isfinite(a)) and np.all(a >= 0)
    assert np.max(np.abs(a.sum(axis=1) - 1.0)) <= TOL
    assert np.all(a[np.triu_indices(c.n, k=1)] == 0.0), "exactly 0 above the diagonal"
    assert a[0].tolist() == [1.0] + [0.0] * (c.n - 1), "the first word sees only itself"
    assert np.array_equal(c.causal.mask, causal_mask(c.n))
    assert np.max(np.abs(a[-1] - c.attention[-1])) <= TOL, "the last word sees every word: no mask"
    assert np.max(np.abs(c.causal.output[0] - c.embeddings[0])) <= TOL, "so its output is its own vector"


@pytest.mark.parametrize("c", CONTEXTS, ids=CONTEXT_IDS)
def test_causal_rows_display_with_zeros_above_the_diagonal(c: ContextTrace) -> None:
    for decimals in range(4):
        shown = round_matrix(c.causal.attention, decimals)
        assert np.all(shown[np.triu_indices(c.n, k=1)] == 0.0)
        assert [fmt(v, decimals) for v in shown[0]] == [fmt(1, decimals)] + [fmt(0, decimals)] * (c.n - 1)


def test_masked_scores_and_softmax_of_huge_scores_stay_finite_and_quiet() -> None:
    s = np.array([[1e300, 5.0, -1e300], [-1e300, 1e300, 0.0], [1e300, -1e300, 1e300]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a = masked_softmax(masked_scores(s, causal_mask(3)))
    assert a.tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.5, 0.0, 0.5]]


# --------------------------------------------------------------------------------------
# Properties of positions: the shuffled sentence
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("c", CONTEXTS, ids=CONTEXT_IDS)
def test_the_shuffle_moves_the_focus_word(c: ContextTrace) -> None:
    p, f = c.positional, c.focus_index
    order = p.shuffled_order
    assert sorted(order) == list(range(c.n))
    assert order == shuffled_order(c.tokens, f), "deterministic"
    assert p.shuffled_tokens[p.shuffled_focus_index] == c.focus and order[p.shuffled_focus_index] == f
    others = [j for j in range(c.n) if c.tokens[j] != c.focus]
    if others:  # the focus word and the first other word change places, the rest stay
        assert p.shuffled_focus_index == others[0] != f
        assert [j for j in range(c.n) if order[j] != j] == sorted((f, others[0]))
        assert p.shuffled_tokens != c.tokens
    else:  # a sentence of one repeated word: nothing can move
        assert order == tuple(range(c.n))


@pytest.mark.parametrize("c", CONTEXTS, ids=CONTEXT_IDS)
def test_without_positions_the_shuffle_does_not_change_the_focus_output(c: ContextTrace) -> None:
    p, f = c.positional, c.focus_index
    order = list(p.shuffled_order)
    # Equal as real numbers; as floats, up to the order in which numpy adds the terms
    # (one unit in the last place at most on these lessons).
    assert np.max(np.abs(p.shuffled_focus_output - c.output[f])) <= TOL
    assert np.max(np.abs(p.shuffled_output - c.output[order])) <= TOL, "every row just moves with its word"
    assert np.max(np.abs(p.shuffled_attention - c.attention[order][:, order])) <= TOL


@pytest.mark.parametrize("c", CONTEXTS, ids=CONTEXT_IDS)
def test_with_positions_the_shuffle_changes_the_focus_output(c: ContextTrace) -> None:
    p, f = c.positional, c.focus_index
    if p.shuffled_tokens == c.tokens:
        assert len(set(c.tokens)) == 1  # only a sentence of one repeated word cannot be shuffled
        return
    assert np.max(np.abs(p.shuffled_positional_focus_output - p.output[f])) > 1e-6


@pytest.mark.parametrize("name", BUILTIN)
def test_builtin_lessons_show_the_same_focus_output_when_shuffled(name: str) -> None:
    # what a viewer reads: the same digits without positions, different digits with them
    trace = BUILTIN_TRACES[name]
    dec = trace.decimals
    for c in trace.contexts:
        p, f = c.positional, c.focus_index
        assert [fmt(v, dec) for v in p.shuffled_focus_output] == [fmt(v, dec) for v in c.output[f]]
        assert [fmt(v, dec) for v in p.shuffled_positional_focus_output] != [fmt(v, dec) for v in p.output[f]]


def test_default_lesson_shuffles_mouse_to_the_front() -> None:
    a, b = BUILTIN_TRACES["default"].contexts
    assert a.positional.shuffled_tokens == ("mouse", "and", "cat", "are", "friends")
    assert b.positional.shuffled_tokens == ("mouse", "and", "keyboard", "are", "useful")
    assert a.positional.shuffled_focus_index == b.positional.shuffled_focus_index == 0


# --------------------------------------------------------------------------------------
# What the mask costs: a sense word after the focus word
# --------------------------------------------------------------------------------------
def after_lesson() -> Lesson:
    """The default vocabulary, with "mouse" first: the word that decides its sense comes after it."""
    base = builtin_lesson("default")
    data = {
        "title": "Mouse first", "dimensions": list(base.dimensions),
        "vocabulary": {w: list(v) for w, v in base.vocabulary},
        "contexts": [
            {"name": "animal", "sentence": "mouse and cat are friends", "focus": "mouse", "leans": "animal"},
            {"name": "tech", "sentence": "mouse and keyboard are useful", "focus": "mouse", "leans": "tech"},
            {"name": "between", "sentence": "cat and mouse are friends cat", "focus": "mouse", "leans": "animal"},
        ],
        "projections": {"weights": "random"},
    }
    return parse_lesson(data, "mouse-first.toml")


def test_the_mask_hides_a_sense_word_that_comes_after_the_focus_word() -> None:
    first, second, between = traced(after_lesson()).contexts
    for c in (first, second):
        cost = c.causal.mask_cost
        assert cost.sense_positions == cost.hidden_positions == (2,)
        assert cost.causal == 0.0, "mouse is first: it sees only itself"
        assert cost.unmasked == c.attention[0, 2] > 0.2
        assert cost.lost == cost.unmasked
        assert c.causal.attention[0].tolist() == [1.0, 0.0, 0.0, 0.0, 0.0]
    # one "cat" before "mouse" and one after: the mask keeps only the first
    cost = between.causal.mask_cost
    assert cost.sense_positions == (0, 5) and cost.hidden_positions == (5,)
    assert cost.causal == between.causal.attention[2, 0] > 0
    assert cost.unmasked == pytest.approx(between.attention[2, 0] + between.attention[2, 5], abs=TOL)


def test_the_mask_costs_nothing_when_the_sense_word_comes_first() -> None:
    for c in BUILTIN_TRACES["default"].contexts:
        cost = c.causal.mask_cost
        assert cost.sense_positions == (0,) and cost.hidden_positions == ()
        # fewer words share the row: the sense word gets more, not less
        assert cost.causal > cost.unmasked and cost.lost < 0


@pytest.mark.parametrize("c", CONTEXTS, ids=CONTEXT_IDS)
def test_mask_cost_recomputed_from_the_reference(c: ContextTrace) -> None:
    cost, f = c.causal.mask_cost, c.focus_index
    lesson_vectors = {t: list(c.embeddings[i]) for i, t in enumerate(c.tokens)}
    leans = c.context.leans
    expected: tuple[int, ...] = ()
    if leans is not None:
        k = c.dimensions.index(leans)
        expected = tuple(j for j, t in enumerate(c.tokens) if t != c.focus
                         and max(lesson_vectors[t]) == lesson_vectors[t][k]
                         and lesson_vectors[t].count(lesson_vectors[t][k]) == 1)
    assert cost.sense_positions == expected
    assert cost.hidden_positions == tuple(j for j in expected if j > f)
    x = c.embeddings.tolist()
    unmasked, _ = ref.attention(x, x, x)
    causal, _ = ref.causal_attention(x, x, x)
    assert cost.unmasked == pytest.approx(sum(unmasked[f][j] for j in expected), abs=TOL)
    assert cost.causal == pytest.approx(sum(causal[f][j] for j in expected), abs=TOL)
    if expected and not cost.hidden_positions:  # nothing hidden: renormalising can only add
        assert cost.causal >= cost.unmasked - TOL


# --------------------------------------------------------------------------------------
# Input checks: a ValueError whose message names the problem
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: causal_mask(0), "number of tokens must be a positive whole number, got 0"),
        (lambda: causal_mask(True), "got True"),
        (lambda: masked_scores(np.ones((2, 2)), causal_mask(3)), r"scores have shape \(2, 2\) and the mask"),
        (lambda: masked_scores(np.ones((2, 2)), np.ones((2, 2))), "the mask must be booleans"),
        (
            lambda: masked_scores(np.ones((2, 2)), np.array([[True, False], [False, False]])),
            "mask row 1 hides every key",
        ),
        (lambda: masked_softmax([[-math.inf, -math.inf], [0.0, 1.0]]), "row 0 is masked entirely"),
        (lambda: masked_softmax([[math.inf, 0.0]]), "scores contains NaN or infinity"),
        (lambda: masked_softmax([[math.nan, 0.0]]), "scores contains NaN or infinity"),
        (lambda: masked_softmax([["a"]]), "scores must contain only numbers"),
        (lambda: masked_softmax([-math.inf, 0.0]), "must be a 2-D matrix"),
        (lambda: causal_attention(np.ones((2, 2)), np.ones((3, 2)), np.ones((3, 2))), "Q has 2 rows but K has 3"),
        (lambda: causal_attention(np.ones((2, 2)), np.ones((2, 2)), np.ones((3, 2))), "K has 2 rows but V has 3"),
        (lambda: sinusoidal_encoding(0, 4), "number of positions must be a positive whole number, got 0"),
        (lambda: sinusoidal_encoding(3, 2.0), "d must be a positive whole number, got 2.0"),  # type: ignore[arg-type]
        (lambda: shuffled_order(("a", "b"), 2), "focus index 2 is outside a sentence of 2 words"),
    ],
)
def test_bad_input_raises_value_error_naming_the_problem(call: Callable[[], object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()
