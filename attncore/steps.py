"""One function per step of self-attention, in the order the lecture shows them.

Shapes use named dimensions: ``n`` tokens, ``d`` model size, ``d_k`` query/key size,
``d_v`` value size, ``h`` heads, ``d_h = d / h`` head size. Every function checks its
inputs and raises ``ValueError`` naming the problem, so that a bad lesson fails with a
readable message instead of a silent NaN on screen.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

Matrix = NDArray[np.float64]

__all__ = [
    "Matrix",
    "AttentionResult",
    "as_matrix",
    "scores",
    "scale",
    "softmax",
    "mix",
    "project",
    "attention",
    "split_heads",
    "concat_heads",
    "multi_head_attention",
    "MultiHeadResult",
    "causal_mask",
    "masked_scores",
    "masked_softmax",
    "causal_attention",
    "CausalResult",
    "sinusoidal_encoding",
    "add_positions",
    "shuffled_order",
]


def as_matrix(value: ArrayLike, name: str) -> Matrix:
    """Return ``value`` as a finite, non-empty 2-D float array or raise ``ValueError``."""
    try:
        raw = np.asarray(value)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must contain only numbers ({exc})") from None
    if raw.dtype.kind not in "iuf":  # text, booleans, None, ragged lists: not numbers
        raise ValueError(f"{name} must contain only numbers, got {raw.dtype.name} values")
    m = raw.astype(np.float64)
    if m.ndim != 2:
        raise ValueError(f"{name} must be a 2-D matrix, got shape {m.shape}")
    if m.size == 0:
        raise ValueError(f"{name} is empty (shape {m.shape}); it needs at least one row and column")
    if not np.all(np.isfinite(m)):
        raise ValueError(f"{name} contains NaN or infinity")
    return m


def _check_inner(a: Matrix, a_name: str, b: Matrix, b_name: str, a_axis: int, b_axis: int) -> None:
    if a.shape[a_axis] != b.shape[b_axis]:
        raise ValueError(
            f"shape mismatch: {a_name} has shape {a.shape} and {b_name} has shape {b.shape}"
        )


# 1. Dot products ------------------------------------------------------------------------
def scores(q: ArrayLike, k: ArrayLike) -> Matrix:
    """Raw similarity of every query with every key: ``Q · Kᵀ``.

    Parameters
    ----------
    q : (n_q, d_k) queries.
    k : (n_k, d_k) keys.

    Returns
    -------
    (n_q, n_k) matrix; cell ``[i, j]`` is how well token ``i`` matches token ``j``.

    Examples
    --------
    >>> scores([[1.0, 2.0]], [[3.0, 4.0], [0.0, 1.0]]).tolist()
    [[11.0, 2.0]]
    """
    qm, km = as_matrix(q, "Q"), as_matrix(k, "K")
    _check_inner(qm, "Q", km, "K", 1, 1)
    return product(qm, km.T)  # (n_q, d_k) · (d_k, n_k) -> (n_q, n_k)


def product(a: Matrix, b: Matrix) -> Matrix:
    """``a · b``, each entry summed in index order, one rounded product after another.

    numpy's ``@`` hands the product to BLAS, whose kernel (and so its order of additions and its
    fused multiply-adds) OpenBLAS picks by the CPU: the last bit of a score, and the rounding of a
    score that lies on a tie such as 0.125, could differ between two machines. This order is the
    same on every CPU, and the page (``playground.js``) sums in it too.

    >>> product(np.array([[1.0, 2.0]]), np.array([[3.0], [4.0]])).tolist()
    [[11.0]]
    """
    out: Matrix = np.zeros((a.shape[0], b.shape[1]))
    for t in range(a.shape[1]):
        out = out + a[:, t : t + 1] * b[t : t + 1, :]  # (n, 1) · (1, m): no fused multiply-add
    return out


# 2. Scaling -----------------------------------------------------------------------------
def scale(s: ArrayLike, d_k: int) -> Matrix:
    """Divide scores by ``√d_k`` so their spread does not grow with the dimension.

    >>> scale([[4.0, 2.0]], 4).tolist()
    [[2.0, 1.0]]
    """
    sm = as_matrix(s, "scores")
    if isinstance(d_k, bool) or not isinstance(d_k, (int, np.integer)) or d_k < 1:
        raise ValueError(f"d_k must be a positive whole number, got {d_k!r}")
    return sm / math.sqrt(d_k)  # (n_q, n_k)


# 3. Softmax -----------------------------------------------------------------------------
def softmax(s: ArrayLike) -> Matrix:
    """Row-wise softmax, numerically stable (the row maximum is subtracted first).

    Every row of the result is positive and sums to 1.

    >>> softmax([[0.0, 0.0]]).round(4).tolist()
    [[0.5, 0.5]]
    """
    sm = as_matrix(s, "scores")
    with np.errstate(over="ignore"):  # a spread beyond the float range gives -inf: exp(-inf) = 0
        shifted = sm - sm.max(axis=1, keepdims=True)  # largest entry per row becomes 0: no overflow
    e: Matrix = np.exp(shifted)  # (n_q, n_k), each in (0, 1]
    out: Matrix = e / e.sum(axis=1, keepdims=True)  # (n_q, n_k), rows sum to 1
    return out


# 4. Mixing ------------------------------------------------------------------------------
def mix(a: ArrayLike, v: ArrayLike) -> Matrix:
    """Weighted average of value rows: ``A · V``.

    Parameters
    ----------
    a : (n_q, n_k) attention weights.
    v : (n_k, d_v) values.

    Returns
    -------
    (n_q, d_v): row ``i`` is ``Σ_j A[i, j] · V[j]``.
    """
    am, vm = as_matrix(a, "attention"), as_matrix(v, "V")
    _check_inner(am, "attention", vm, "V", 1, 0)
    return product(am, vm)  # (n_q, n_k) · (n_k, d_v) -> (n_q, d_v)


# 5. Projection --------------------------------------------------------------------------
def project(x: ArrayLike, w: ArrayLike, name: str = "W") -> Matrix:
    """Learned linear map of every token: ``X · W``.

    x : (n, d_in), w : (d_in, d_out) -> (n, d_out).
    """
    xm, wm = as_matrix(x, "X"), as_matrix(w, name)
    _check_inner(xm, "X", wm, name, 1, 0)
    return product(xm, wm)  # (n, d_in) · (d_in, d_out) -> (n, d_out)


@dataclass(frozen=True)
class AttentionResult:
    """Everything one attention head computes, in step order."""

    scores: Matrix  # (n_q, n_k)  Q·Kᵀ
    scaled: Matrix  # (n_q, n_k)  Q·Kᵀ/√d_k
    weights: Matrix  # (n_q, n_k)  softmax rows
    output: Matrix  # (n_q, d_v)  A·V


# 6. Single-head attention ---------------------------------------------------------------
def attention(q: ArrayLike, k: ArrayLike, v: ArrayLike) -> AttentionResult:
    """Scaled dot-product attention, returning the weights as well as the output.

    ``softmax(Q·Kᵀ/√d_k) · V`` with q (n_q, d_k), k (n_k, d_k), v (n_k, d_v).
    With ``Q = K = V = X`` this is the simplified attention of the first steps.
    """
    qm, km, vm = as_matrix(q, "Q"), as_matrix(k, "K"), as_matrix(v, "V")
    if km.shape[0] != vm.shape[0]:
        raise ValueError(f"K has {km.shape[0]} rows but V has {vm.shape[0]}; they must match")
    s = scores(qm, km)  # (n_q, n_k)
    sc = scale(s, qm.shape[1])  # (n_q, n_k)
    a = softmax(sc)  # (n_q, n_k)
    return AttentionResult(scores=s, scaled=sc, weights=a, output=mix(a, vm))


# 7. Heads -------------------------------------------------------------------------------
def _check_heads(d: int, h: int) -> int:
    if isinstance(h, bool) or not isinstance(h, (int, np.integer)) or h < 1:
        raise ValueError(f"the number of heads must be a positive whole number, got {h!r}")
    if d % h:
        raise ValueError(f"d = {d} is not divisible by h = {h} heads; choose h dividing {d}")
    return d // h


def split_heads(m: ArrayLike, h: int, name: str = "matrix") -> list[Matrix]:
    """Split the columns of ``m`` (rows, d) into ``h`` blocks of (rows, d/h), one per head."""
    mm = as_matrix(m, name)
    d_h = _check_heads(mm.shape[1], h)
    return [mm[:, i * d_h : (i + 1) * d_h] for i in range(h)]


def concat_heads(parts: list[Matrix]) -> Matrix:
    """Join per-head outputs (n, d_h) side by side into (n, h·d_h)."""
    if not parts:
        raise ValueError("concat_heads needs at least one head output")
    mats = [as_matrix(p, f"head {i + 1} output") for i, p in enumerate(parts)]
    rows = {m.shape[0] for m in mats}
    if len(rows) != 1:
        raise ValueError(f"head outputs have different numbers of rows: {sorted(rows)}")
    return np.hstack(mats)


@dataclass(frozen=True)
class MultiHeadResult:
    """Per-head results, their concatenation and the final projection."""

    heads: tuple[AttentionResult, ...]
    concat: Matrix  # (n, d)
    output: Matrix  # (n, d)  concat · W_O


def multi_head_attention(
    x: ArrayLike, w_q: ArrayLike, w_k: ArrayLike, w_v: ArrayLike, w_o: ArrayLike, h: int
) -> MultiHeadResult:
    """Multi-head attention with ``h`` heads of size ``d_h = d / h``.

    ``W_Q, W_K, W_V`` are (d, d); head ``i`` uses their column block ``i`` (d, d_h), so it
    works in its own d_h-dimensional subspace and scales by ``√d_h``. Head outputs
    (n, d_h) are concatenated to (n, d) and projected by ``W_O`` (d, d).
    """
    xm = as_matrix(x, "X")
    d = xm.shape[1]
    _check_heads(d, h)
    for name, w in (("W_Q", w_q), ("W_K", w_k), ("W_V", w_v), ("W_O", w_o)):
        wm = as_matrix(w, name)
        if wm.shape != (d, d):
            raise ValueError(f"{name} must have shape ({d}, {d}) for multi-head, got {wm.shape}")
    q = project(xm, w_q, "W_Q")  # (n, d)
    k = project(xm, w_k, "W_K")  # (n, d)
    v = project(xm, w_v, "W_V")  # (n, d)
    heads = tuple(
        attention(qh, kh, vh)  # each (n, d_h)
        for qh, kh, vh in zip(split_heads(q, h), split_heads(k, h), split_heads(v, h))
    )
    concat = concat_heads([r.output for r in heads])  # (n, d)
    return MultiHeadResult(heads=heads, concat=concat, output=project(concat, w_o, "W_O"))


# 8. The causal mask ---------------------------------------------------------------------
def causal_mask(n: int) -> NDArray[np.bool_]:
    """Which words each word may look at when a sentence is read left to right.

    Returns
    -------
    (n, n) booleans; ``[i, j]`` is True when ``j <= i``: word ``i`` (query) sees itself
    and the words before it (keys), never a word after it. True on and below the diagonal.

    >>> causal_mask(3).astype(int).tolist()
    [[1, 0, 0], [1, 1, 0], [1, 1, 1]]
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"the number of tokens must be a positive whole number, got {n!r}")
    return np.tril(np.ones((n, n), dtype=np.bool_))  # (n, n)


def masked_scores(s: ArrayLike, mask: ArrayLike) -> Matrix:
    """Scores with ``−∞`` wherever ``mask`` is False, so that the softmax gives them weight 0.

    Parameters
    ----------
    s : (n_q, n_k) scores (in the lecture, the scaled scores).
    mask : (n_q, n_k) booleans, True where query ``i`` may look at key ``j``; every row
        needs at least one True (a word with nothing to look at has no attention row).

    Returns
    -------
    (n_q, n_k): ``s[i, j]`` where allowed, ``-inf`` elsewhere.

    >>> masked_scores([[1.0, 2.0], [3.0, 4.0]], causal_mask(2)).tolist()
    [[1.0, -inf], [3.0, 4.0]]
    """
    sm = as_matrix(s, "scores")
    mm = np.asarray(mask)
    if mm.dtype != np.bool_:
        raise ValueError(f"the mask must be booleans (True = may look), got {mm.dtype.name} values")
    if mm.shape != sm.shape:
        raise ValueError(f"shape mismatch: scores have shape {sm.shape} and the mask has shape {mm.shape}")
    blind = np.flatnonzero(~mm.any(axis=1))
    if blind.size:
        raise ValueError(f"mask row {int(blind[0])} hides every key; each query needs at least one key to look at")
    out: Matrix = np.where(mm, sm, -np.inf)  # (n_q, n_k)
    return out


def _as_masked_scores(value: ArrayLike) -> Matrix:
    """:func:`as_matrix` for scores in which ``−∞`` marks a masked key; each row keeps a finite one."""
    try:
        raw = np.asarray(value)
    except (TypeError, ValueError):
        return as_matrix(value, "scores")  # not a matrix of numbers: as_matrix says why
    if raw.dtype.kind != "f":  # whole numbers cannot be −∞: the ordinary checks
        return as_matrix(raw, "scores")
    hidden = np.isneginf(raw)
    sm = as_matrix(np.where(hidden, 0.0, raw), "scores")  # NaN, +∞, shape and emptiness checked here
    blind = np.flatnonzero(hidden.all(axis=1))
    if blind.size:
        raise ValueError(f"scores row {int(blind[0])} is masked entirely (all −∞); it needs at least one finite score")
    sm[hidden] = -np.inf
    return sm


def masked_softmax(s: ArrayLike) -> Matrix:
    """Row-wise softmax of scores in which ``−∞`` marks a masked key: its weight is exactly 0.

    The remaining entries of each row are renormalised among themselves, so every row
    still sums to 1. Each row needs at least one finite score. On scores without ``−∞``
    this computes exactly what :func:`softmax` computes, with no NaN and no warning.

    >>> masked_softmax([[0.0, float("-inf")], [0.0, 0.0]]).tolist()
    [[1.0, 0.0], [0.5, 0.5]]
    """
    sm = _as_masked_scores(s)
    top = sm.max(axis=1, keepdims=True)  # (n_q, 1), finite: every row has a finite score
    with np.errstate(over="ignore"):  # as in softmax: a spread beyond the float range gives -inf
        shifted = sm - top  # (n_q, n_k); -inf - finite = -inf, never -inf - (-inf) = NaN
    e: Matrix = np.exp(shifted)  # (n_q, n_k); exp(-inf) = 0 exactly, without a warning
    out: Matrix = e / e.sum(axis=1, keepdims=True)  # (n_q, n_k), rows sum to 1
    return out


@dataclass(frozen=True)
class CausalResult:
    """Attention under the causal mask, in step order."""

    scores: Matrix  # (n, n)  Q·Kᵀ
    scaled: Matrix  # (n, n)  Q·Kᵀ/√d_k
    masked: Matrix  # (n, n)  scaled, −∞ above the diagonal
    weights: Matrix  # (n, n)  softmax rows, exactly 0 above the diagonal
    output: Matrix  # (n, d_v)  A·V


# 9. Causal attention --------------------------------------------------------------------
def causal_attention(q: ArrayLike, k: ArrayLike, v: ArrayLike) -> CausalResult:
    """Scaled dot-product attention in which word ``i`` looks only at words ``0..i``.

    ``masked_softmax(mask(Q·Kᵀ/√d_k)) · V`` with q (n, d_k), k (n, d_k), v (n, d_v): one
    sentence attending to itself, so Q, K and V have the same number of rows ``n``. Row
    ``i`` of the weights is the softmax of the first ``i + 1`` scaled scores; the first
    word can only look at itself. With ``Q = K = V = X`` this is the simplified step with
    a causal mask.
    """
    qm, km, vm = as_matrix(q, "Q"), as_matrix(k, "K"), as_matrix(v, "V")
    if qm.shape[0] != km.shape[0]:
        raise ValueError(f"causal attention reads one sentence: Q has {qm.shape[0]} rows but K has {km.shape[0]}")
    if km.shape[0] != vm.shape[0]:
        raise ValueError(f"K has {km.shape[0]} rows but V has {vm.shape[0]}; they must match")
    s = scores(qm, km)  # (n, n)
    sc = scale(s, qm.shape[1])  # (n, n)
    masked = masked_scores(sc, causal_mask(qm.shape[0]))  # (n, n), −∞ above the diagonal
    a = masked_softmax(masked)  # (n, n)
    return CausalResult(scores=s, scaled=sc, masked=masked, weights=a, output=mix(a, vm))


# 10. Positions --------------------------------------------------------------------------
def _positive(value: int, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{what} must be a positive whole number, got {value!r}")


def sinusoidal_encoding(n: int, d: int) -> Matrix:
    """The sinusoidal positional encoding of Vaswani et al. (2017), positions from 0.

    ``PE[p, 2i] = sin(p / 10000^(2i/d))`` and ``PE[p, 2i+1] = cos(p / 10000^(2i/d))``:
    each pair of columns turns at its own speed, the first pair fastest. With an odd
    ``d`` the last column is a sine without its cosine.

    Returns
    -------
    (n, d): row ``p`` is the vector added to the word at position ``p``.

    >>> sinusoidal_encoding(2, 3).round(4).tolist()
    [[0.0, 1.0, 0.0], [0.8415, 0.5403, 0.0022]]
    """
    _positive(n, "the number of positions")
    _positive(d, "d")
    p = np.arange(n, dtype=np.float64)[:, None]  # (n, 1) positions 0..n-1
    two_i = np.arange(0, d, 2, dtype=np.float64)  # (⌈d/2⌉,) the even columns 2i
    angles = p / 10000.0 ** (two_i / d)  # (n, ⌈d/2⌉)
    pe = np.empty((n, d), dtype=np.float64)  # (n, d)
    pe[:, 0::2] = np.sin(angles)  # columns 2i: (n, ⌈d/2⌉)
    pe[:, 1::2] = np.cos(angles[:, : d // 2])  # columns 2i+1: (n, ⌊d/2⌋)
    return pe


def add_positions(x: ArrayLike) -> Matrix:
    """``X + PE``: every word's vector plus the encoding of its position. (n, d) -> (n, d)."""
    xm = as_matrix(x, "X")
    return xm + sinusoidal_encoding(*xm.shape)  # (n, d) + (n, d)


def shuffled_order(tokens: Sequence[str], focus_index: int) -> tuple[int, ...]:
    """A fixed reordering of a sentence that moves its focus word: (n,) original positions.

    The focus word and the first word that differs from it change places ("cat and
    mouse are friends" becomes "mouse and cat are friends"); ``tokens[order[p]]`` is the
    word at position ``p`` of the shuffled sentence. The same sentence always gives the
    same order. When every word is the focus word, nothing can move: the identity.

    >>> shuffled_order(("cat", "and", "mouse"), 2), shuffled_order(("mouse", "cat"), 0)
    ((2, 1, 0), (1, 0))
    """
    n = len(tokens)
    if not 0 <= focus_index < n:
        raise ValueError(f"focus index {focus_index} is outside a sentence of {n} words")
    order = list(range(n))
    other = next((j for j in range(n) if tokens[j] != tokens[focus_index]), None)
    if other is not None:
        order[focus_index], order[other] = other, focus_index
    return tuple(order)
