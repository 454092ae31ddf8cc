"""One function per step of self-attention, in the order the lecture shows them.

Shapes use named dimensions: ``n`` tokens, ``d`` model size, ``d_k`` query/key size,
``d_v`` value size, ``h`` heads, ``d_h = d / h`` head size. Every function checks its
inputs and raises ``ValueError`` naming the problem, so that a bad lesson fails with a
readable message instead of a silent NaN on screen.
"""

from __future__ import annotations

import math
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
    return qm @ km.T  # (n_q, d_k) · (d_k, n_k) -> (n_q, n_k)


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
    return am @ vm  # (n_q, n_k) · (n_k, d_v) -> (n_q, d_v)


# 5. Projection --------------------------------------------------------------------------
def project(x: ArrayLike, w: ArrayLike, name: str = "W") -> Matrix:
    """Learned linear map of every token: ``X · W``.

    x : (n, d_in), w : (d_in, d_out) -> (n, d_out).
    """
    xm, wm = as_matrix(x, "X"), as_matrix(w, name)
    _check_inner(xm, "X", wm, name, 1, 0)
    return xm @ wm  # (n, d_in) · (d_in, d_out) -> (n, d_out)


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
