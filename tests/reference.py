"""An independent plain-Python reference for scaled dot-product attention.

Written from the formulas, not from ``attncore``: lists of lists, explicit loops,
``math.exp`` and ``math.sqrt`` only. Nothing here uses numpy, so an error in a numpy
formula of ``attncore`` (an axis, a transpose, a broadcast) cannot be repeated here.
Tests convert numpy arrays with ``.tolist()`` before calling these functions.

Shapes: ``n`` tokens, ``d`` model size, ``d_k`` query/key size, ``d_v`` value size,
``h`` heads.

>>> w, out = attention([[1.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]], [[2.0], [4.0]])
>>> round(w[0][0], 6), round(w[0][1], 6), round(out[0][0], 6)
(0.669762, 0.330238, 2.660477)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

Matrix = list[list[float]]

__all__ = [
    "Matrix",
    "MultiHead",
    "attention",
    "causal_attention",
    "columns",
    "hstack",
    "matmul",
    "mix",
    "multi_head",
    "scale",
    "scores",
    "sinusoidal_encoding",
    "softmax",
    "transpose",
]


def _copy(m: Sequence[Sequence[float]]) -> Matrix:
    """A fresh list of lists of floats; every row must have the same length."""
    rows = [[float(v) for v in row] for row in m]
    if not rows or not rows[0]:
        raise ValueError("reference: empty matrix")
    if any(len(r) != len(rows[0]) for r in rows):
        raise ValueError("reference: ragged matrix")
    return rows


def transpose(m: Sequence[Sequence[float]]) -> Matrix:
    """(r, c) -> (c, r)."""
    a = _copy(m)
    return [[a[i][j] for i in range(len(a))] for j in range(len(a[0]))]


def matmul(a: Sequence[Sequence[float]], b: Sequence[Sequence[float]]) -> Matrix:
    """(r, k) · (k, c) -> (r, c), one explicit sum of products per cell."""
    x, y = _copy(a), _copy(b)
    inner = len(x[0])
    if len(y) != inner:
        raise ValueError(f"reference: cannot multiply ({len(x)}, {inner}) by ({len(y)}, {len(y[0])})")
    out: Matrix = []
    for i in range(len(x)):
        row = []
        for j in range(len(y[0])):
            total = 0.0
            for t in range(inner):
                total += x[i][t] * y[t][j]
            row.append(total)
        out.append(row)
    return out


def scores(q: Sequence[Sequence[float]], k: Sequence[Sequence[float]]) -> Matrix:
    """(n_q, d_k), (n_k, d_k) -> (n_q, n_k): cell [i][j] = Σ_t q[i][t]·k[j][t]."""
    return matmul(q, transpose(k))


def scale(s: Sequence[Sequence[float]], d_k: int) -> Matrix:
    """Every score divided by √d_k."""
    root = math.sqrt(d_k)
    return [[v / root for v in row] for row in _copy(s)]


def softmax(s: Sequence[Sequence[float]]) -> Matrix:
    """Row-wise softmax; the row maximum is subtracted first so exp never overflows."""
    out: Matrix = []
    for row in _copy(s):
        top = max(row)
        exps = [math.exp(v - top) for v in row]
        total = 0.0
        for e in exps:
            total += e
        out.append([e / total for e in exps])
    return out


def mix(a: Sequence[Sequence[float]], v: Sequence[Sequence[float]]) -> Matrix:
    """(n_q, n_k) weights · (n_k, d_v) values -> (n_q, d_v)."""
    return matmul(a, v)


def attention(
    q: Sequence[Sequence[float]], k: Sequence[Sequence[float]], v: Sequence[Sequence[float]]
) -> tuple[Matrix, Matrix]:
    """``softmax(Q·Kᵀ/√d_k)`` and ``softmax(Q·Kᵀ/√d_k)·V``, as (weights, output)."""
    d_k = len(_copy(q)[0])
    weights = softmax(scale(scores(q, k), d_k))
    return weights, mix(weights, v)


def columns(m: Sequence[Sequence[float]], start: int, stop: int) -> Matrix:
    """Columns ``start`` to ``stop - 1`` of ``m``."""
    return [row[start:stop] for row in _copy(m)]


def hstack(parts: Sequence[Sequence[Sequence[float]]]) -> Matrix:
    """Join matrices with the same number of rows side by side."""
    mats = [_copy(p) for p in parts]
    out: Matrix = []
    for i in range(len(mats[0])):
        row: list[float] = []
        for m in mats:
            row.extend(m[i])
        out.append(row)
    return out


class MultiHead(NamedTuple):
    weights: list[Matrix]  # per head, (n, n)
    head_outputs: list[Matrix]  # per head, (n, d_v / h)
    concat: Matrix  # (n, d_v)
    output: Matrix  # (n, d_out) = concat · W_O


def multi_head(
    x: Sequence[Sequence[float]],
    w_q: Sequence[Sequence[float]],
    w_k: Sequence[Sequence[float]],
    w_v: Sequence[Sequence[float]],
    w_o: Sequence[Sequence[float]],
    h: int,
) -> MultiHead:
    """Multi-head attention with ``h`` heads.

    Q = X·W_Q, K = X·W_K, V = X·W_V; head ``i`` takes column block ``i`` of each (width
    d/h for Q and K, d_v/h for V), attends with scaling by √(d/h); the head outputs are
    concatenated and multiplied by W_O.
    """
    if h < 1:
        raise ValueError("reference: h must be at least 1")
    q, k, v = matmul(x, w_q), matmul(x, w_k), matmul(x, w_v)
    d, d_v = len(q[0]), len(v[0])
    if d % h or d_v % h:
        raise ValueError(f"reference: {h} heads do not divide d = {d} and d_v = {d_v}")
    d_h, dv_h = d // h, d_v // h
    weights, outputs = [], []
    for i in range(h):
        qh = columns(q, i * d_h, (i + 1) * d_h)
        kh = columns(k, i * d_h, (i + 1) * d_h)
        vh = columns(v, i * dv_h, (i + 1) * dv_h)
        w, o = attention(qh, kh, vh)  # scaled by √d_h inside, since qh has d_h columns
        weights.append(w)
        outputs.append(o)
    concat = hstack(outputs)
    return MultiHead(weights=weights, head_outputs=outputs, concat=concat, output=matmul(concat, w_o))


def causal_attention(
    q: Sequence[Sequence[float]], k: Sequence[Sequence[float]], v: Sequence[Sequence[float]]
) -> tuple[Matrix, Matrix]:
    """Attention in which row ``i`` looks only at keys ``0..i``, as (weights, output).

    Written without any −∞: row ``i`` is the ordinary softmax of its first ``i + 1``
    scaled scores, followed by zeros for the keys after it.
    """
    d_k = len(_copy(q)[0])
    scaled = scale(scores(q, k), d_k)
    weights: Matrix = []
    for i, row in enumerate(scaled):
        seen = softmax([row[: i + 1]])[0]  # the keys 0..i, renormalised among themselves
        weights.append(seen + [0.0] * (len(row) - i - 1))
    return weights, mix(weights, v)


def sinusoidal_encoding(n: int, d: int) -> Matrix:
    """(n, d): ``PE[p][c] = sin(p / 10000^(c/d))`` for even ``c`` and ``cos(p / 10000^((c-1)/d))`` for odd ``c``.

    The formula of Vaswani et al. (2017) column by column, positions from 0: columns
    ``2i`` and ``2i + 1`` share the angle ``p / 10000^(2i/d)``.
    """
    out: Matrix = []
    for p in range(n):
        row = []
        for c in range(d):
            two_i = c - c % 2  # the even column of this column's pair
            angle = p / 10000 ** (two_i / d)
            row.append(math.sin(angle) if c % 2 == 0 else math.cos(angle))
        out.append(row)
    return out
