"""Every intermediate of every step, per context, in one frozen record.

Scenes read only from here; the ``values`` command prints it; tests check it against an
independent reference. Arrays are read-only so that nothing downstream can alter them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .i18n import use
from .lesson import Context, Lesson, default_lesson
from .senses import sense_positions
from .steps import (
    Matrix,
    add_positions,
    attention,
    causal_attention,
    mix,
    multi_head_attention,
    project,
    scale,
    scores,
    shuffled_order,
    sinusoidal_encoding,
    softmax,
)
from .training import TrainingTrace
from .weights import Weights, make_weights

__all__ = [
    "CausalTrace",
    "ContextTrace",
    "HeadTrace",
    "LessonTrace",
    "MaskCost",
    "MultiHeadTrace",
    "PositionalTrace",
    "ProjectedTrace",
    "ReshapedTrace",
    "stage_row",
    "trace_lesson",
    "trace_row",
]


def _frozen(m: Matrix) -> Matrix:
    a = np.array(m, dtype=np.float64)  # a private copy
    a.setflags(write=False)
    return a


def _frozen_mask(m: NDArray[np.bool_]) -> NDArray[np.bool_]:
    a = np.array(m, dtype=np.bool_)  # a private copy
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
class MaskCost:
    """What the causal mask does to the focus word's attention on the words that carry the sense.

    A sense word after the focus word is hidden from it: "mouse and cat are friends"
    read left to right gives "mouse" nothing to look at but itself.
    """

    sense_positions: tuple[int, ...]  # (s,) the other words carrying the context's ``leans``; () without leans
    hidden_positions: tuple[int, ...]  # (h ≤ s,) those after the focus word: the mask hides them from it
    unmasked: float  # focus word's attention on the sense words, simplified step (sum of s weights)
    causal: float  # the same under the causal mask; 0 when every sense word comes after

    @property
    def lost(self) -> float:
        """``unmasked - causal``; negative when the mask leaves fewer words to share the attention."""
        return self.unmasked - self.causal


@dataclass(frozen=True)
class CausalTrace:
    """The simplified step (Q = K = V = X) under the causal mask: a word reads itself and the words before it."""

    mask: NDArray[np.bool_]  # (n, n)  True on and below the diagonal: key j ≤ query i
    masked: Matrix  # (n, n)  X·Xᵀ/√d with −∞ above the diagonal (what the softmax receives)
    attention: Matrix  # (n, n)  softmax rows renormalised over j ≤ i; exactly 0 above the diagonal
    output: Matrix  # (n, d)  A·X
    mask_cost: MaskCost  # the focus word's attention on the sense words, with and without the mask


@dataclass(frozen=True)
class PositionalTrace:
    """Why attention needs positions: the sentence shuffled, without and with the sinusoidal encoding."""

    encoding: Matrix  # (n, d)  PE[p, 2i] = sin(p/10000^(2i/d)), PE[p, 2i+1] = cos(...); p from 0
    inputs: Matrix  # (n, d)  X + PE
    scaled: Matrix  # (n, n)  (X+PE)·(X+PE)ᵀ/√d
    attention: Matrix  # (n, n)  softmax rows of the scaled scores
    output: Matrix  # (n, d)  A·(X + PE)
    shuffled_order: tuple[int, ...]  # (n,) original position of each word of the shuffled sentence
    shuffled_tokens: tuple[str, ...]  # (n,) the words in the shuffled order
    shuffled_focus_index: int  # where the focus word is in the shuffled sentence
    shuffled_attention: Matrix  # (n, n)  simplified attention of the shuffled sentence, no positions
    shuffled_output: Matrix  # (n, d)  its output; the focus row equals the original one
    shuffled_positional_attention: Matrix  # (n, n)  the shuffled sentence with positions, X[order] + PE
    shuffled_positional_output: Matrix  # (n, d)  its output; the focus row differs from ``output``'s

    @property
    def shuffled_focus_output(self) -> Matrix:
        """The focus word's output in the shuffled sentence, without positions. Shape (d,)."""
        return _frozen(self.shuffled_output[self.shuffled_focus_index])

    @property
    def shuffled_positional_focus_output(self) -> Matrix:
        """The focus word's output in the shuffled sentence, with positions. Shape (d,)."""
        return _frozen(self.shuffled_positional_output[self.shuffled_focus_index])


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
    causal: CausalTrace  # the simplified step under the causal mask
    positional: PositionalTrace  # positions added, and the sentence shuffled

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
    # (projected attention with the dimension-changing W_V), "head:k" (head k, from 0),
    # "causal" (simple, masked: −∞ scores above the diagonal) or "positional" (Q = K = V = X + PE).
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
        if stage == "causal":
            x = self.embeddings
            return x, x, x, self.causal.masked, self.causal.attention
        if stage == "positional":
            xp = self.positional.inputs
            return xp, xp, xp, self.positional.scaled, self.positional.attention
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
                    "causal": _causal_json(c.causal),
                    "positional": _positional_json(c.positional),
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
    out2 = mix(proj.weights, v2)  # (n, n) · (n, d_v) -> (n, d_v)
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
        causal=_trace_causal(lesson, ctx, x, simple.weights),
        positional=_trace_positional(ctx, x),
    )


def _trace_causal(lesson: Lesson, ctx: Context, x: Matrix, unmasked: Matrix) -> CausalTrace:
    """The simplified step under the causal mask, and what the mask does to the focus row."""
    r = causal_attention(x, x, x)  # Q = K = V = X, (n, n) weights
    f = ctx.focus_index
    sense = sense_positions(lesson, ctx)
    cost = MaskCost(
        sense_positions=sense,
        hidden_positions=tuple(j for j in sense if j > f),
        unmasked=float(sum(unmasked[f, j] for j in sense)),
        causal=float(sum(r.weights[f, j] for j in sense)),
    )
    return CausalTrace(
        mask=_frozen_mask(np.isfinite(r.masked)), masked=_frozen(r.masked),
        attention=_frozen(r.weights), output=_frozen(r.output), mask_cost=cost,
    )


def _trace_positional(ctx: Context, x: Matrix) -> PositionalTrace:
    """Attention of X + PE, and of the shuffled sentence without and with positions."""
    n, d = x.shape
    xp = add_positions(x)  # (n, d)
    with_pe = attention(xp, xp, xp)
    order = shuffled_order(ctx.tokens, ctx.focus_index)  # (n,)
    xs = x[list(order)]  # (n, d) the same rows, in the shuffled order
    shuffled = attention(xs, xs, xs)
    xsp = add_positions(xs)  # (n, d) each word gets the encoding of its new position
    shuffled_pe = attention(xsp, xsp, xsp)
    return PositionalTrace(
        encoding=_frozen(sinusoidal_encoding(n, d)), inputs=_frozen(xp), scaled=_frozen(with_pe.scaled),
        attention=_frozen(with_pe.weights), output=_frozen(with_pe.output),
        shuffled_order=order, shuffled_tokens=tuple(ctx.tokens[j] for j in order),
        shuffled_focus_index=order.index(ctx.focus_index),
        shuffled_attention=_frozen(shuffled.weights), shuffled_output=_frozen(shuffled.output),
        shuffled_positional_attention=_frozen(shuffled_pe.weights),
        shuffled_positional_output=_frozen(shuffled_pe.output),
    )


def _causal_json(c: CausalTrace) -> dict[str, Any]:
    """``causal`` of one context in ``to_json`` (the −∞ scores are left out: JSON has no infinity)."""
    cost = c.mask_cost
    return {
        "attention": _rows(c.attention),
        "output": _rows(c.output),
        "mask_cost": {
            "sense_positions": list(cost.sense_positions), "hidden_positions": list(cost.hidden_positions),
            "unmasked": cost.unmasked, "causal": cost.causal,
        },
    }


def _positional_json(p: PositionalTrace) -> dict[str, Any]:
    """``positional`` of one context in ``to_json``."""
    return {
        "encoding": _rows(p.encoding),
        "attention": _rows(p.attention),
        "output": _rows(p.output),
        "shuffled": {
            "tokens": list(p.shuffled_tokens), "order": list(p.shuffled_order),
            "focus_index": p.shuffled_focus_index,
            "attention": _rows(p.shuffled_attention), "output": _rows(p.shuffled_output),
            "attention_with_positions": _rows(p.shuffled_positional_attention),
            "output_with_positions": _rows(p.shuffled_positional_output),
        },
    }


def _rows(a: Matrix) -> list[list[float]]:
    """A matrix as a list of rows of Python floats (exact: JSON floats round-trip)."""
    return [[float(v) for v in row] for row in a]


def trace_lesson(lesson: Lesson | None = None) -> LessonTrace:
    """Compute every step of the lesson (the built-in one when ``lesson`` is None)."""
    lesson = lesson or default_lesson()
    with use(
        lesson.language, lesson.catalogue
    ):  # the words the trace keeps (how the weights were made) in the lesson's language
        w = make_weights(lesson)
        return LessonTrace(
            lesson=lesson, weights=w, contexts=tuple(_trace_context(lesson, c, w) for c in lesson.contexts)
        )


# --- reading one row of the trace by name (claims and calibrated words) ------------------------


def stage_row(c: ContextTrace, stage: str, row: int) -> np.ndarray:
    """Row ``row`` of a matrix of context ``c`` by name. Shape (n,) or (d,).

    ``scores``, ``attention`` (simplified), ``unscaled_attention`` (softmax without /√d),
    ``projected_attention``, ``head:k`` (head k's attention, from 0), ``causal_attention``;
    ``embeddings``, ``output``, ``positional_output`` (X + PE) and ``shuffled_output``
    (the shuffled sentence without positions; ``row`` counts in the original sentence),
    ``shuffled_positional_output`` (the same with positions).
    """
    if stage.startswith("head:"):
        return np.asarray(c.multi_head.heads[int(stage[5:])].attention[row])
    if stage in ("shuffled_output", "shuffled_positional_output"):
        p = c.positional
        rows = p.shuffled_output if stage == "shuffled_output" else p.shuffled_positional_output
        return np.asarray(rows[p.shuffled_order.index(row)])
    table = {
        "scores": c.scores, "attention": c.attention, "unscaled_attention": c.unscaled_attention,
        "projected_attention": c.projected.attention, "causal_attention": c.causal.attention,
        "embeddings": c.embeddings, "output": c.output, "positional_output": c.positional.output,
    }
    if stage not in table:
        raise ValueError(f"unknown stage {stage!r}")
    return np.asarray(table[stage][row])


def trace_row(trace: LessonTrace, c: int, stage: str, row: int) -> np.ndarray:
    """:func:`stage_row` of context ``c``, and ``snapshot:k``: the focus word's attention row at the
    k-th training snapshot (``row`` must be the focus word's)."""
    if stage.startswith("snapshot:"):
        t = trace.training
        if t is None or row != trace.contexts[c].focus_index:
            raise ValueError("a snapshot is the focus word's row of a trained lesson")
        return np.asarray(t.snapshots[c][int(stage[9:])])
    return stage_row(trace.contexts[c], stage, row)
