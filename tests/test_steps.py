"""Numeric tier: every step of ``attncore.steps`` against the plain-Python reference,
plus the properties attention must have whatever the numbers.

Values are kept of moderate size (|x| <= 2, weights |w| <= 1) so that an absolute
tolerance of 1e-12 is far above rounding noise yet far below any formula error.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable

import numpy as np
import pytest
import reference as ref
from hypothesis import given, settings
from hypothesis import strategies as st

from attncore import (
    attention,
    concat_heads,
    mix,
    multi_head_attention,
    project,
    scale,
    scores,
    softmax,
    split_heads,
    trace_lesson,
)

TOL = 1e-12
SETTINGS = settings(max_examples=100, deadline=None)

moderate = st.floats(min_value=-2.0, max_value=2.0, allow_nan=False, allow_infinity=False)
small = st.floats(min_value=-1.0, max_value=1.0, allow_nan=False, allow_infinity=False)
dims = st.integers(min_value=1, max_value=6)


def matrices(rows: int, cols: int, elements: st.SearchStrategy[float] = moderate) -> st.SearchStrategy[np.ndarray]:
    return st.lists(
        st.lists(elements, min_size=cols, max_size=cols), min_size=rows, max_size=rows
    ).map(lambda m: np.array(m, dtype=np.float64))


def assert_close(actual: np.ndarray, expected: ref.Matrix, what: str = "") -> None:
    exp = np.array(expected, dtype=np.float64)
    assert actual.shape == exp.shape, f"{what}: shape {actual.shape} != reference {exp.shape}"
    err = float(np.max(np.abs(actual - exp)))
    assert err <= TOL, f"{what}: max |attncore - reference| = {err:.3g} > {TOL}"


def divisors(d: int) -> list[int]:
    return [h for h in range(1, d + 1) if d % h == 0]


# --------------------------------------------------------------------------------------
# The reference itself: a sanity check on hand-computed numbers
# --------------------------------------------------------------------------------------
def test_reference_on_hand_computed_example() -> None:
    # Q = K = V = [[1, 0], [0, 1]]: scores = I, scaled = I/√2, each row softmax(1/√2, 0).
    x = [[1.0, 0.0], [0.0, 1.0]]
    e = math.exp(1 / math.sqrt(2))
    w, out = ref.attention(x, x, x)
    assert w[0] == pytest.approx([e / (e + 1), 1 / (e + 1)], abs=1e-15)
    assert w[1] == pytest.approx([1 / (e + 1), e / (e + 1)], abs=1e-15)
    assert out == w  # V = I: the output is the weight matrix itself
    assert ref.matmul([[1, 2], [3, 4]], [[5], [6]]) == [[17.0], [39.0]]
    assert ref.transpose([[1, 2, 3]]) == [[1.0], [2.0], [3.0]]


# --------------------------------------------------------------------------------------
# attncore == reference, hypothesis-generated inputs
# --------------------------------------------------------------------------------------
@SETTINGS
@given(data=st.data(), n_q=dims, n_k=dims, d_k=dims, d_v=dims)
def test_single_steps_match_reference(data: st.DataObject, n_q: int, n_k: int, d_k: int, d_v: int) -> None:
    q = data.draw(matrices(n_q, d_k), label="Q")
    k = data.draw(matrices(n_k, d_k), label="K")
    v = data.draw(matrices(n_k, d_v), label="V")
    s = scores(q, k)
    assert_close(s, ref.scores(q.tolist(), k.tolist()), "scores")
    sc = scale(s, d_k)
    assert_close(sc, ref.scale(s.tolist(), d_k), "scale")
    a = softmax(sc)
    assert_close(a, ref.softmax(sc.tolist()), "softmax")
    assert_close(mix(a, v), ref.mix(a.tolist(), v.tolist()), "mix")
    assert_close(project(q, k.T), ref.matmul(q.tolist(), ref.transpose(k.tolist())), "project")


@SETTINGS
@given(data=st.data(), n_q=dims, n_k=dims, d_k=dims, d_v=dims)
def test_attention_matches_reference(data: st.DataObject, n_q: int, n_k: int, d_k: int, d_v: int) -> None:
    q = data.draw(matrices(n_q, d_k), label="Q")
    k = data.draw(matrices(n_k, d_k), label="K")
    v = data.draw(matrices(n_k, d_v), label="V")
    r = attention(q, k, v)
    w, out = ref.attention(q.tolist(), k.tolist(), v.tolist())
    assert_close(r.weights, w, "weights")
    assert_close(r.output, out, "output")
    assert_close(r.scores, ref.scores(q.tolist(), k.tolist()), "scores")
    assert_close(r.scaled, ref.scale(ref.scores(q.tolist(), k.tolist()), d_k), "scaled")


@st.composite
def multi_head_inputs(draw: st.DrawFn) -> tuple[np.ndarray, list[np.ndarray], int]:
    n = draw(st.integers(1, 6), label="n")
    d = draw(st.integers(1, 6), label="d")
    h = draw(st.sampled_from(divisors(d)), label="h")
    x = draw(matrices(n, d, small), label="X")
    ws = [draw(matrices(d, d, small), label=name) for name in ("W_Q", "W_K", "W_V", "W_O")]
    return x, ws, h


@SETTINGS
@given(inputs=multi_head_inputs())
def test_multi_head_matches_reference(inputs: tuple[np.ndarray, list[np.ndarray], int]) -> None:
    x, ws, h = inputs
    r = multi_head_attention(x, *ws, h)
    expected = ref.multi_head(x.tolist(), *(w.tolist() for w in ws), h)
    assert len(r.heads) == h
    for i, head in enumerate(r.heads):
        assert_close(head.weights, expected.weights[i], f"head {i} weights")
        assert_close(head.output, expected.head_outputs[i], f"head {i} output")
    assert_close(r.concat, expected.concat, "concat")
    assert_close(r.output, expected.output, "output")


# --------------------------------------------------------------------------------------
# attncore == reference, a seeded sweep over every shape up to 8
# --------------------------------------------------------------------------------------
def test_seeded_sweep_multi_head_matches_reference() -> None:
    rng = np.random.default_rng(2024)
    checked = 0
    for n in range(1, 9):
        for d in range(1, 9):
            for h in divisors(d):
                x = rng.uniform(-1, 1, (n, d))
                ws = [rng.uniform(-1, 1, (d, d)) for _ in range(4)]
                r = multi_head_attention(x, *ws, h)
                expected = ref.multi_head(x.tolist(), *(w.tolist() for w in ws), h)
                where = f"n={n} d={d} h={h}"
                for i, head in enumerate(r.heads):
                    assert head.output.shape == (n, d // h), where
                    assert_close(head.weights, expected.weights[i], f"{where} head {i} weights")
                assert_close(r.concat, expected.concat, f"{where} concat")
                assert_close(r.output, expected.output, f"{where} output")
                checked += 1
    assert checked == sum(len(divisors(d)) for d in range(1, 9)) * 8


def test_seeded_sweep_simplified_attention_matches_reference() -> None:
    rng = np.random.default_rng(7)
    for n in range(1, 9):
        for d in range(1, 9):
            x = rng.uniform(-2, 2, (n, d))
            r = attention(x, x, x)  # Q = K = V = X
            w, out = ref.attention(x.tolist(), x.tolist(), x.tolist())
            assert_close(r.weights, w, f"n={n} d={d} weights")
            assert_close(r.output, out, f"n={n} d={d} output")


def test_seeded_sweep_value_map_changing_dimension() -> None:
    # Q = X·W_Q, K = X·W_K (d -> d), V = X·W_V with W_V of shape (d, d_v): output is n×d_v.
    rng = np.random.default_rng(11)
    for n in range(1, 9):
        for d in range(1, 9):
            for d_v in (1, 2, 3, 5, 8):
                x = rng.uniform(-1, 1, (n, d))
                w_q, w_k = rng.uniform(-1, 1, (d, d)), rng.uniform(-1, 1, (d, d))
                w_v = rng.uniform(-1, 1, (d, d_v))
                v = project(x, w_v, "W_V")
                assert v.shape == (n, d_v)
                r = attention(project(x, w_q, "W_Q"), project(x, w_k, "W_K"), v)
                xl = x.tolist()
                w, out = ref.attention(ref.matmul(xl, w_q.tolist()), ref.matmul(xl, w_k.tolist()),
                                       ref.matmul(xl, w_v.tolist()))
                assert r.output.shape == (n, d_v)
                assert_close(r.weights, w, f"n={n} d={d} d_v={d_v} weights")
                assert_close(r.output, out, f"n={n} d={d} d_v={d_v} output")


def test_multi_head_reference_with_value_map_changing_dimension() -> None:
    # The reference handles W_V (d, d_v) and W_O (d_v, d): per-head value blocks of d_v/h.
    # attncore's multi-head takes square weights only, so this is checked head by head
    # with attncore's own single-head steps.
    rng = np.random.default_rng(5)
    n, d, d_v, h = 5, 4, 6, 2
    x = rng.uniform(-1, 1, (n, d))
    w_q, w_k = rng.uniform(-1, 1, (d, d)), rng.uniform(-1, 1, (d, d))
    w_v, w_o = rng.uniform(-1, 1, (d, d_v)), rng.uniform(-1, 1, (d_v, d))
    expected = ref.multi_head(x.tolist(), w_q.tolist(), w_k.tolist(), w_v.tolist(), w_o.tolist(), h)
    qs = split_heads(project(x, w_q, "W_Q"), h)
    ks = split_heads(project(x, w_k, "W_K"), h)
    vs = split_heads(project(x, w_v, "W_V"), h)
    outs = [attention(q, k, v).output for q, k, v in zip(qs, ks, vs)]
    for i, o in enumerate(outs):
        assert o.shape == (n, d_v // h)
        assert_close(o, expected.head_outputs[i], f"head {i}")
    concat = concat_heads(outs)
    assert_close(concat, expected.concat, "concat")
    assert_close(project(concat, w_o, "W_O"), expected.output, "output")
    with pytest.raises(ValueError, match=r"W_V must have shape \(4, 4\)"):
        multi_head_attention(x, w_q, w_k, w_v, w_o, h)


def test_default_lesson_trace_matches_reference() -> None:
    trace = trace_lesson()
    w = trace.weights
    h = trace.lesson.heads
    for c in trace.contexts:
        x = c.embeddings.tolist()
        wts, out = ref.attention(x, x, x)
        assert_close(c.scores, ref.scores(x, x), f"{c.context.name} scores")
        assert_close(c.scaled, ref.scale(ref.scores(x, x), c.d), f"{c.context.name} scaled")
        assert_close(c.attention, wts, f"{c.context.name} attention")
        assert_close(c.unscaled_attention, ref.softmax(ref.scores(x, x)), f"{c.context.name} unscaled")
        assert_close(c.output, out, f"{c.context.name} output")
        q, k, v = (ref.matmul(x, m.tolist()) for m in (w.W_Q, w.W_K, w.W_V))
        pw, pout = ref.attention(q, k, v)
        assert_close(c.projected.Q, q, "Q")
        assert_close(c.projected.attention, pw, "projected attention")
        assert_close(c.projected.output, pout, "projected output")
        v2 = ref.matmul(x, w.W_V_reshape.tolist())
        assert_close(c.reshaped.V, v2, "reshaped V")
        assert_close(c.reshaped.output, ref.mix(pw, v2), "reshaped output")
        mh = ref.multi_head(x, w.W_Q.tolist(), w.W_K.tolist(), w.W_V.tolist(), w.W_O.tolist(), h)
        for i, head in enumerate(c.multi_head.heads):
            assert_close(head.attention, mh.weights[i], f"head {i} attention")
            assert_close(head.output, mh.head_outputs[i], f"head {i} output")
        assert_close(c.multi_head.concat, mh.concat, "concat")
        assert_close(c.multi_head.output, mh.output, "multi-head output")


# --------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------
wide = st.floats(min_value=-1e300, max_value=1e300, allow_nan=False, allow_infinity=False)


@SETTINGS
@given(data=st.data(), n=dims, m=dims)
def test_softmax_rows_sum_to_one_and_are_probabilities(data: st.DataObject, n: int, m: int) -> None:
    s = data.draw(st.one_of(matrices(n, m), matrices(n, m, wide)), label="scores")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an overflow warning would be a failure too
        a = softmax(s)
    assert a.shape == (n, m)
    assert np.all(np.isfinite(a))
    assert np.all(a >= 0) and np.all(a <= 1)
    assert np.allclose(a.sum(axis=1), 1.0, rtol=0, atol=TOL)
    # the largest score of a row always gets the largest weight
    assert np.array_equal(a[np.arange(n), s.argmax(axis=1)], a.max(axis=1))


@SETTINGS
@given(data=st.data(), n=dims, m=dims)
def test_softmax_unchanged_by_adding_a_constant_to_a_row(data: st.DataObject, n: int, m: int) -> None:
    s = data.draw(matrices(n, m, st.floats(-10, 10)), label="scores")
    shift = data.draw(matrices(n, 1, st.floats(-100, 100)), label="shift per row")
    assert np.max(np.abs(softmax(s + shift) - softmax(s))) <= TOL


@SETTINGS
@given(data=st.data(), n=st.integers(1, 7), d=dims)
def test_permuting_tokens_permutes_simplified_attention(data: st.DataObject, n: int, d: int) -> None:
    x = data.draw(matrices(n, d), label="X")
    p = np.array(data.draw(st.permutations(range(n)), label="permutation"))
    r, rp = attention(x, x, x), attention(x[p], x[p], x[p])
    assert np.max(np.abs(rp.output - r.output[p])) <= TOL
    assert np.max(np.abs(rp.weights - r.weights[p][:, p])) <= TOL


@SETTINGS
@given(inputs=multi_head_inputs(), data=st.data())
def test_permuting_tokens_permutes_multi_head_output(
    inputs: tuple[np.ndarray, list[np.ndarray], int], data: st.DataObject
) -> None:
    x, ws, h = inputs
    p = np.array(data.draw(st.permutations(range(x.shape[0])), label="permutation"))
    r, rp = multi_head_attention(x, *ws, h), multi_head_attention(x[p], *ws, h)
    assert np.max(np.abs(rp.output - r.output[p])) <= TOL
    for head, head_p in zip(r.heads, rp.heads):
        assert np.max(np.abs(head_p.weights - head.weights[p][:, p])) <= TOL


def test_permutation_property_can_fail() -> None:
    # Guard: the property is not vacuous; with distinct tokens a permutation moves rows.
    x = np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
    p = np.array([2, 0, 1])
    out = attention(x, x, x).output
    assert not np.allclose(out[p], out)
    assert np.allclose(attention(x[p], x[p], x[p]).output, out[p], rtol=0, atol=TOL)


@SETTINGS
@given(data=st.data(), n=dims, d=dims)
def test_one_head_of_full_size_is_single_head_attention(data: st.DataObject, n: int, d: int) -> None:
    x = data.draw(matrices(n, d, small), label="X")
    w_q, w_k, w_v = (data.draw(matrices(d, d, small), label=name) for name in ("W_Q", "W_K", "W_V"))
    mh = multi_head_attention(x, w_q, w_k, w_v, np.eye(d), 1)
    single = attention(project(x, w_q), project(x, w_k), project(x, w_v))
    assert len(mh.heads) == 1
    assert np.max(np.abs(mh.heads[0].weights - single.weights)) <= TOL
    assert np.max(np.abs(mh.heads[0].scaled - single.scaled)) <= TOL  # scaled by √d, not √1
    assert np.max(np.abs(mh.output - single.output)) <= TOL


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        ([1e300, -1e300], [1.0, 0.0]),
        ([-1e300, 1e300, -1e300], [0.0, 1.0, 0.0]),
        ([1e300, 1e300], [0.5, 0.5]),
        ([-1e300, -1e300, -1e300, -1e300], [0.25, 0.25, 0.25, 0.25]),
        ([0.0, 1e5, -1e5], [0.0, 1.0, 0.0]),
        ([1e5, 1e5 - math.log(3)], [0.75, 0.25]),
        ([-1e5, -1e5 + math.log(3)], [0.25, 0.75]),
        ([710.0, 0.0], [1.0, math.exp(-710.0)]),  # exp(710) alone would overflow
    ],
)
def test_softmax_of_huge_scores_does_not_overflow(row: list[float], expected: list[float]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a = softmax([row])
    assert np.all(np.isfinite(a))
    assert a.sum() == pytest.approx(1.0, abs=TOL)
    assert a[0] == pytest.approx(expected, abs=1e-12)
    assert ref.softmax([row])[0] == pytest.approx(expected, abs=1e-12)


def test_attention_with_huge_scores_stays_finite() -> None:
    q = np.array([[1e150], [-1e150]])
    k = np.array([[1e150], [-1e150], [0.0]])
    v = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = attention(q, k, v)
    assert np.all(np.isfinite(r.weights)) and np.all(np.isfinite(r.output))
    assert np.allclose(r.weights.sum(axis=1), 1.0, rtol=0, atol=TOL)
    assert np.array_equal(r.output, v[:2])  # each query picks the key of its own sign


# --------------------------------------------------------------------------------------
# Input checks: a ValueError whose message names the problem
# --------------------------------------------------------------------------------------
X23 = np.ones((2, 3))
W44 = np.eye(4)
X_N4 = np.ones((3, 4))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: scores(X23, np.ones((2, 4))), r"shape mismatch: Q has shape \(2, 3\) and K has shape \(2, 4\)"),
        (lambda: mix(np.ones((2, 3)), np.ones((2, 2))), r"shape mismatch: attention has shape \(2, 3\) and V"),
        (lambda: project(X23, np.ones((2, 2)), "W_Q"), r"shape mismatch: X has shape \(2, 3\) and W_Q"),
        (lambda: attention(X23, X23, np.ones((3, 3))), "K has 2 rows but V has 3"),
        (lambda: attention(X23, np.ones((2, 2)), X23), "shape mismatch: Q .* and K"),
        (lambda: multi_head_attention(X_N4, W44, W44, W44, W44, 3), "d = 4 is not divisible by h = 3"),
        (lambda: split_heads(X_N4, 3), "d = 4 is not divisible by h = 3"),
        (
            lambda: multi_head_attention(X_N4, W44, W44, W44, W44, 0),
            "number of heads must be a positive whole number, got 0",
        ),
        (lambda: split_heads(X_N4, 0), "positive whole number, got 0"),
        (lambda: multi_head_attention(X_N4, W44, W44, W44, W44, -2), "positive whole number, got -2"),
        (lambda: multi_head_attention(X_N4, W44, W44, W44, W44, 2.0), "positive whole number, got 2.0"),
        (lambda: multi_head_attention(X_N4, W44, np.eye(3), W44, W44, 2), r"W_K must have shape \(4, 4\)"),
        (lambda: scale([[1.0]], 0), "d_k must be a positive whole number, got 0"),
        (lambda: scale([[1.0]], 2.5), "d_k must be a positive whole number, got 2.5"),
        (lambda: scores([[float("nan"), 1.0]], [[1.0, 1.0]]), "Q contains NaN"),
        (lambda: softmax([[1.0, float("nan")]]), "scores contains NaN"),
        (lambda: mix([[1.0]], [[float("nan")]]), "V contains NaN"),
        (lambda: scores([[1.0]], [[float("inf")]]), "K contains NaN or infinity"),
        (lambda: softmax([[float("-inf"), 0.0]]), "scores contains NaN or infinity"),
        (lambda: project([[1.0]], [[float("inf")]], "W_V"), "W_V contains NaN or infinity"),
        (lambda: scores(np.empty((0, 3)), np.ones((2, 3))), r"Q is empty \(shape \(0, 3\)\)"),
        (lambda: softmax([[]]), "scores is empty"),
        (lambda: mix(np.ones((2, 0)), np.ones((0, 2))), "attention is empty"),
        (lambda: multi_head_attention(np.empty((0, 4)), W44, W44, W44, W44, 2), "X is empty"),
        (lambda: scores([["cat", "dog"]], [[1.0, 2.0]]), "Q must contain only numbers"),
        (lambda: softmax([[1.0, {}]]), "scores must contain only numbers"),
        (lambda: attention([[1.0]], [[1.0]], [[1j]]), "V must contain only numbers"),
        (lambda: scores([1.0, 2.0], [[1.0, 2.0]]), r"Q must be a 2-D matrix, got shape \(2,\)"),
        (lambda: softmax(np.ones((2, 2, 2))), r"scores must be a 2-D matrix, got shape \(2, 2, 2\)"),
        (lambda: concat_heads([]), "needs at least one head output"),
        (lambda: concat_heads([np.ones((2, 1)), np.ones((3, 1))]), r"different numbers of rows: \[2, 3\]"),
    ],
)
def test_bad_input_raises_value_error_naming_the_problem(call: Callable[[], object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


def test_trace_worked_example_terms_add_up_to_the_trace() -> None:
    # The terms the video shows one by one (products, exponentials, weighted rows) must
    # add up to the matrices of the trace and agree with the reference.
    for c in trace_lesson().contexts:
        x = c.embeddings.tolist()
        scaled = ref.scale(ref.scores(x, x), c.d)
        for i in range(c.n):
            exps = c.softmax_exps(i)
            assert_close(exps[None, :], [[math.exp(s) for s in scaled[i]]], "softmax_exps")
            assert c.softmax_total(i) == pytest.approx(sum(math.exp(s) for s in scaled[i]), rel=1e-14)
            assert_close((exps / c.softmax_total(i))[None, :], [c.attention[i].tolist()], "exps / total")
            terms = c.weighted_values(i)
            assert terms.shape == (c.n, c.d)
            assert_close(terms.sum(axis=0)[None, :], [c.output[i].tolist()], "weighted values")
            for j in range(c.n):
                prods = c.dot_terms(i, j)
                assert prods.tolist() == [a * b for a, b in zip(x[i], x[j])]
                assert float(prods.sum()) == pytest.approx(c.scores[i, j], abs=TOL)


def test_the_product_sums_in_index_order_on_every_cpu() -> None:
    """attncore's product is the plain sum, left to right, of rounded products (what the page
    computes too), not BLAS's CPU-dependent order; and it is the product numpy gives, to rounding."""
    from attncore.steps import product

    rng = np.random.default_rng(3)
    for _ in range(50):
        n, k, m = rng.integers(1, 9, size=3)
        a, b = rng.normal(size=(n, k)), rng.normal(size=(k, m))
        got = product(a, b)
        for i in range(n):
            for j in range(m):
                s = 0.0
                for t in range(k):
                    s = s + float(a[i, t]) * float(b[t, j])
                assert got[i, j] == s
        assert np.allclose(got, a @ b, rtol=1e-12, atol=1e-12)
