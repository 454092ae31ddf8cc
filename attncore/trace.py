"""Every intermediate of every step, per context, in one frozen record.

Scenes read only from here; the ``values`` command prints it; tests check it against an
independent reference. Arrays are read-only so that nothing downstream can alter them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .lesson import Context, Lesson, default_lesson
from .steps import Matrix, attention, multi_head_attention, project, scale, scores, softmax
from .training import TrainingTrace
from .weights import Weights, make_weights

__all__ = [
    "ContextTrace",
    "HeadTrace",
    "LessonTrace",
    "MultiHeadTrace",
    "ProjectedTrace",
    "ReshapedTrace",
    "trace_lesson",
]


def _frozen(m: Matrix) -> Matrix:
    a = np.array(m, dtype=np.float64)  # a private copy
    a.setflags(write=False)
    return a


@dataclass(frozen=True)
class ProjectedTrace:
    """Learned projections ``Q = X·W_Q``, ``K = X·W_K``, ``V = X·W_V`` and their attention."""

    W_Q: Matrix  # (d, d)
    W_K: Matrix  # (d, d)
    W_V: Matrix  # (d, d)
    Q: Matrix  # (n, d)
    K: Matrix  # (n, d)
    V: Matrix  # (n, d)
    scores: Matrix  # (n, n)
    scaled: Matrix  # (n, n)
    attention: Matrix  # (n, n)
    output: Matrix  # (n, d)


@dataclass(frozen=True)
class ReshapedTrace:
    """A value map ``W_V`` (d, d_v) that changes the dimension; attention as projected."""

    W_V: Matrix  # (d, d_v)
    V: Matrix  # (n, d_v)
    output: Matrix  # (n, d_v)


@dataclass(frozen=True)
class HeadTrace:
    """One head: its column blocks of W_Q/W_K/W_V (d, d_h) and what it computes."""

    W_Q: Matrix  # (d, d_h)
    W_K: Matrix  # (d, d_h)
    W_V: Matrix  # (d, d_h)
    Q: Matrix  # (n, d_h)
    K: Matrix  # (n, d_h)
    V: Matrix  # (n, d_h)
    scores: Matrix  # (n, n)
    scaled: Matrix  # (n, n)
    attention: Matrix  # (n, n)
    output: Matrix  # (n, d_h)


@dataclass(frozen=True)
class MultiHeadTrace:
    heads: tuple[HeadTrace, ...]
    concat: Matrix  # (n, d)
    W_O: Matrix  # (d, d)
    output: Matrix  # (n, d)


@dataclass(frozen=True)
class ContextTrace:
    """Every step for one sentence, in lecture order."""

    context: Context
    dimensions: tuple[str, ...]
    embeddings: Matrix  # (n, d)  X, one row per token
    scores: Matrix  # (n, n)  X·Xᵀ
    scaled: Matrix  # (n, n)  X·Xᵀ/√d
    attention: Matrix  # (n, n)  softmax rows (row = query word, column = key word)
    unscaled_attention: Matrix  # (n, n)  softmax without the /√d, to show why we scale
    output: Matrix  # (n, d)  A·X
    projected: ProjectedTrace
    reshaped: ReshapedTrace
    multi_head: MultiHeadTrace

    @property
    def tokens(self) -> tuple[str, ...]:
        return self.context.tokens

    @property
    def focus(self) -> str:
        return self.context.focus

    @property
    def focus_index(self) -> int:
        return self.context.focus_index

    @property
    def n(self) -> int:
        return len(self.context.tokens)

    @property
    def d(self) -> int:
        return len(self.dimensions)

    # Worked examples the video shows term by term -------------------------------------
    # ``stage`` names which attention: "simple" (Q = K = V = X), "projected", "reshaped"
    # (projected attention with the dimension-changing W_V) or "head:k" (head k, from 0).
    def _stage(self, stage: str) -> tuple[Matrix, Matrix, Matrix, Matrix, Matrix]:
        """(Q, K, V, scaled scores, attention) of a stage."""
        if stage == "simple":
            x = self.embeddings
            return x, x, x, self.scaled, self.attention
        if stage == "projected":
            p = self.projected
            return p.Q, p.K, p.V, p.scaled, p.attention
        if stage == "reshaped":
            p = self.projected
            return p.Q, p.K, self.reshaped.V, p.scaled, p.attention
        if stage.startswith("head:"):
            h = self.multi_head.heads[int(stage[5:])]
            return h.Q, h.K, h.V, h.scaled, h.attention
        raise ValueError(f"unknown stage {stage!r}; use simple, projected, reshaped or head:k")

    @property
    def sqrt_d(self) -> float:
        """The scaling factor √d of the simplified attention."""
        return math.sqrt(self.d)

    def dot_terms(self, i: int, j: int, stage: str = "simple") -> Matrix:
        """The products ``Q[i, k] · K[j, k]`` whose sum is the score ``[i, j]``. Shape (d_k,)."""
        q, k, _, _, _ = self._stage(stage)
        return _frozen(q[i] * k[j])

    def softmax_exps(self, i: int, stage: str = "simple", unscaled: bool = False) -> Matrix:
        """``exp`` of each scaled score of row ``i`` (of the raw scores if ``unscaled``). Shape (n,).

        The first step of the softmax as the video shows it: dividing by the row's sum
        (:meth:`softmax_total`) gives the attention row.
        """
        if unscaled:
            if stage != "simple":
                raise ValueError("unscaled exponentials exist for the simple stage only")
            row = self.scores[i]
        else:
            row = self._stage(stage)[3][i]
        return _frozen(np.exp(row))

    def softmax_total(self, i: int, stage: str = "simple", unscaled: bool = False) -> float:
        """The sum of :meth:`softmax_exps` of row ``i``: the softmax's denominator."""
        return float(self.softmax_exps(i, stage, unscaled).sum())

    def row_sums(self, stage: str = "simple") -> Matrix:
        """The sum of every attention row, shape (n,): 1 up to rounding (the on-screen check)."""
        return _frozen(self._stage(stage)[4].sum(axis=1))

    def weighted_values(self, i: int, stage: str = "simple") -> Matrix:
        """``A[i, j] · V[j]`` for every j: the terms whose sum is output row ``i``. Shape (n, d_v)."""
        _, _, v, _, a = self._stage(stage)
        return _frozen(a[i][:, None] * v)


@dataclass(frozen=True)
class LessonTrace:
    lesson: Lesson
    weights: Weights
    contexts: tuple[ContextTrace, ...]

    @property
    def decimals(self) -> int:
        return self.lesson.decimals

    @property
    def training(self) -> TrainingTrace | None:
        """How the weights were trained (None when they are seeded random)."""
        return self.weights.training

    def to_json(self) -> dict[str, Any]:
        """Exact values (full float precision), matrices as lists of rows."""

        def m(a: Matrix) -> list[list[float]]:
            return [[float(v) for v in row] for row in a]

        training = {} if self.training is None else {"training": self.training.to_json()}
        return {
            "title": self.lesson.title,
            "dimensions": list(self.lesson.dimensions),
            "weights_provenance": self.weights.provenance,
            **training,  # only when the weights are trained: the history of their training
            "contexts": [
                {
                    "name": c.context.name,
                    "tokens": list(c.tokens),
                    "focus": c.focus,
                    "embeddings": m(c.embeddings),
                    "scores": m(c.scores),
                    "scaled": m(c.scaled),
                    "attention": m(c.attention),
                    "output": m(c.output),
                    "projected": {
                        k: m(getattr(c.projected, k))
                        for k in ("W_Q", "W_K", "W_V", "Q", "K", "V", "attention", "output")
                    },
                    "reshaped": {k: m(getattr(c.reshaped, k)) for k in ("W_V", "V", "output")},
                    "multi_head": {
                        "heads": [
                            {k: m(getattr(h, k)) for k in ("W_Q", "W_K", "W_V", "attention", "output")}
                            for h in c.multi_head.heads
                        ],
                        "concat": m(c.multi_head.concat),
                        "W_O": m(c.multi_head.W_O),
                        "output": m(c.multi_head.output),
                    },
                }
                for c in self.contexts
            ],
        }


def _trace_context(lesson: Lesson, ctx: Context, w: Weights) -> ContextTrace:
    x = np.array([lesson.vector(t) for t in ctx.tokens], dtype=np.float64)  # (n, d)
    d = lesson.d
    # Steps 2-7: simplified attention, Q = K = V = X.
    simple = attention(x, x, x)
    unscaled = softmax(scores(x, x))  # what the softmax would give without /√d
    # Step 9: learned projections.
    q, k, v = project(x, w.W_Q, "W_Q"), project(x, w.W_K, "W_K"), project(x, w.W_V, "W_V")
    proj = attention(q, k, v)
    # Step 10: a value map that changes the dimension (attention weights as projected).
    v2 = project(x, w.W_V_reshape, "W_V")
    out2 = proj.weights @ v2  # (n, n) · (n, d_v) -> (n, d_v)
    # Step 11: multi-head on the same projections, split into column blocks.
    mh = multi_head_attention(x, w.W_Q, w.W_K, w.W_V, w.W_O, lesson.heads)
    d_h = d // lesson.heads
    heads = []
    for i, r in enumerate(mh.heads):
        cols = slice(i * d_h, (i + 1) * d_h)
        heads.append(
            HeadTrace(
                W_Q=_frozen(w.W_Q[:, cols]), W_K=_frozen(w.W_K[:, cols]), W_V=_frozen(w.W_V[:, cols]),
                Q=_frozen(q[:, cols]), K=_frozen(k[:, cols]), V=_frozen(v[:, cols]),
                scores=_frozen(r.scores), scaled=_frozen(r.scaled),
                attention=_frozen(r.weights), output=_frozen(r.output),
            )
        )
    assert np.allclose(scale(scores(x, x), d), simple.scaled)
    return ContextTrace(
        context=ctx,
        dimensions=lesson.dimensions,
        embeddings=_frozen(x),
        scores=_frozen(simple.scores),
        scaled=_frozen(simple.scaled),
        attention=_frozen(simple.weights),
        unscaled_attention=_frozen(unscaled),
        output=_frozen(simple.output),
        projected=ProjectedTrace(
            W_Q=w.W_Q, W_K=w.W_K, W_V=w.W_V, Q=_frozen(q), K=_frozen(k), V=_frozen(v),
            scores=_frozen(proj.scores), scaled=_frozen(proj.scaled),
            attention=_frozen(proj.weights), output=_frozen(proj.output),
        ),
        reshaped=ReshapedTrace(W_V=w.W_V_reshape, V=_frozen(v2), output=_frozen(out2)),
        multi_head=MultiHeadTrace(
            heads=tuple(heads), concat=_frozen(mh.concat), W_O=w.W_O, output=_frozen(mh.output)
        ),
    )


def trace_lesson(lesson: Lesson | None = None) -> LessonTrace:
    """Compute every step of the lesson (the built-in one when ``lesson`` is None)."""
    lesson = lesson or default_lesson()
    w = make_weights(lesson)
    return LessonTrace(
        lesson=lesson, weights=w, contexts=tuple(_trace_context(lesson, c, w) for c in lesson.contexts)
    )
