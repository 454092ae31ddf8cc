"""Weights that are learned: the projections of steps 9-11 trained on the lesson's own question.

The task
    *Which sense does the focus word have in this sentence?* The answer is a dimension
    of the lesson (``leans`` of a context, e.g. ``animal`` for "cat and mouse are
    friends"). The model reads it off the focus word's **output** in the named
    dimensions: the predicted sense is the dimension in which that output is largest, and
    the probabilities are ``softmax(output)`` over the dimensions. Nothing is added on
    top of attention, so what the viewer reads on the output bars is the prediction.

The data set (:mod:`attncore.senses`; built from the lesson only, no meaning is invented)
    A word *carries* a sense when that sense is its strongest dimension (strictly larger
    than every other entry of its vector); "cat" carries ``animal``, "mouse" (2, 2)
    carries none. From every context that has ``leans``, and every
    ``[[training.examples]]`` sentence, we generate:

    1. the sentence itself, labelled with its sense;
    2. *swaps*: one word (never the focus word) replaced by another word of the
       vocabulary that carries the same strongest dimension ("and" <-> "are",
       "friends" <-> "useful"): the word that carries the sense is still there, so the
       label stands;
    3. *sub-sentences*: the focus word and any subset of the other words, in order,
       that keeps at least one word carrying the sense ("cat mouse", "cat and mouse");
    4. *no clue*: each of those with every word that carries one of the focus word's
       senses removed ("and mouse are friends"). Its target is an equal split between
       the senses the lesson gives the focus word ("animal or tech"): with nothing
       that carries a sense, the sentence does not say. Without these, a model could
       learn a default ("tech unless an animal word is present") and never look at
       "keyboard"; with them, every sense has to be found by attention.

    At most :data:`attncore.senses.MAX_VARIANTS` sentences per labelled sentence (1-3 in that order);
    duplicates are dropped. A focus word with a single sense gets no *no clue* sentences.

The model
    Exactly the one of the lecture. Single head (step 9): ``Q = X·W_Q``, ``K = X·W_K``,
    ``V = X·W_V``, ``softmax(Q·Kᵀ/√d)·V``. Multi-head (step 11): the same three matrices
    split into column blocks, one per head, each scaled by ``√d_h``; the heads
    concatenated and multiplied by ``W_O``. Both readouts are trained together: the loss
    is the mean of the two. ``W_V_reshape`` (step 10, d -> d_v) has no named output
    dimensions to read, so it is not trained (the provenance line says so). Matrices set
    by hand in the lesson file are used as they are and not trained.

The loss
    Cross-entropy of ``softmax(output of the focus word)`` against the target, less its
    smallest possible value (0 for a one-sense target, ln 2 for an even split), so that a
    perfect readout scores 0. This is the KL divergence; its gradients are those of the
    cross-entropy, derived by hand in :func:`loss_and_gradients` and checked against
    finite differences in the tests.

The optimiser
    Adam (β₁ = 0.9, β₂ = 0.999), ``steps`` full-batch steps, from ``W = I`` plus seeded
    normal noise of standard deviation :data:`INIT_NOISE`: training *starts* from the
    simplified attention of steps 2-8 (Q = K = V = X) and moves away from it.

Rounding
    What is shown is what computes: the trained weights are rounded to the lesson's
    ``decimals`` (:func:`attncore.display.round_matrix`, the rounding of the screen) and the
    trace uses exactly those. If the claims hold before rounding but not after, training
    continues with rounding-aware steps (gradient at the rounded weights, applied to the
    unrounded ones) until they hold again on the rounded weights, at most ``steps`` more.

The claims (checked on the rounded weights, recorded in :class:`TrainingTrace`)
    In every context with ``leans``: the focus word puts at least :data:`ATTENTION_CLAIM`
    of its attention on the other words that carry the sense, more than the simplified
    step did; at least one head does the same; both readouts name the sense. The loss
    falls to at most :data:`LOSS_CLAIM` of its start. When a lesson cannot meet them,
    ``claims_hold`` is False and ``reason`` says why, in one line.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .display import round_matrix
from .i18n import _, ngettext, number, pgettext, quoted, use
from .lesson import Context, Lesson
from .senses import Example, labelled_sentences, sense_positions, strongest_dimension, training_set
from .steps import Matrix, attention, multi_head_attention

__all__ = [
    "ATTENTION_CLAIM",
    "INIT_NOISE",
    "LOSS_CLAIM",
    "TRAINED",
    "Batch",
    "SenseClaim",
    "TrainedWeights",
    "TrainingTrace",
    "check_claims",
    "loss_and_gradients",
    "make_batch",
    "train_lesson",
    "untrained_record",
]

ATTENTION_CLAIM = 0.5  # share of the focus word's attention on the words that carry its sense
LOSS_CLAIM = 0.25  # the final loss is at most this share of the first
INIT_NOISE = 0.05  # std of the seeded noise added to W = I at the start
#: When the focus word's attention row is kept, as shares of ``steps``: it moves most at
#: the start, so the snapshots are closer together there (300 steps: 0, 5, 10, 25, 50, 100, 300).
SNAPSHOTS = (0.0, 1 / 60, 1 / 30, 1 / 12, 1 / 6, 1 / 3, 1.0)
TRAINED = ("W_Q", "W_K", "W_V", "W_O")  # in this order everywhere (noise is drawn in it)
_ADAM = (0.9, 0.999, 1e-8)  # β₁, β₂, ε


def _frozen(m: Matrix) -> Matrix:
    a = np.array(m, dtype=np.float64)  # a private copy
    a.setflags(write=False)
    return a


# --------------------------------------------------------------------------------------
# Batches
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Batch:
    """Sentences padded to the longest one, for full-batch training."""

    x: Matrix  # (B, N, d)  embeddings, zero rows after the end of a sentence
    mask: NDArray[np.bool_]  # (B, N)  True where there is a word
    focus: NDArray[np.intp]  # (B,)  position of the focus word
    target: Matrix  # (B, d)  target probabilities
    entropy: Matrix  # (B,)  entropy of each target: the smallest cross-entropy possible


def make_batch(lesson: Lesson, examples: Sequence[Example]) -> Batch:
    """Stack ``examples`` (at least one) into a :class:`Batch`."""
    if not examples:
        raise ValueError("make_batch needs at least one example")
    b, n, d = len(examples), max(len(e.tokens) for e in examples), lesson.d
    x = np.zeros((b, n, d))
    mask = np.zeros((b, n), dtype=bool)
    for i, e in enumerate(examples):
        x[i, : len(e.tokens)] = [lesson.vector(t) for t in e.tokens]
        mask[i, : len(e.tokens)] = True
    target = np.array([e.target for e in examples], dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        entropy = -np.where(target > 0, target * np.log(target), 0.0).sum(axis=1)
    focus = np.array([e.focus_index for e in examples], dtype=np.intp)
    return Batch(x=x, mask=mask, focus=focus, target=target, entropy=entropy)


# --------------------------------------------------------------------------------------
# Forward and backward, by hand
# --------------------------------------------------------------------------------------
_Backward = Callable[[Matrix], tuple[Matrix, Matrix, Matrix]]


def _attend(q: Matrix, k: Matrix, v: Matrix, mask: NDArray[np.bool_], h: int) -> tuple[Matrix, Matrix, _Backward]:
    """The focus word's row of ``h``-head attention, batched, and its backward pass.

    q (B, d) the focus word's query; k, v (B, N, d). Head i uses columns
    ``i·d_h .. (i+1)·d_h`` as ``steps.split_heads`` does and scales by ``√d_h``.
    Returns the concatenated head outputs (B, d), the weights (B, h, N) and a function
    mapping ∂L/∂output (B, d) to (∂L/∂q (B, d), ∂L/∂K (B, N, d), ∂L/∂V (B, N, d)).
    """
    b, n, d = k.shape
    d_h = d // h
    qh, kh, vh = q.reshape(b, h, d_h), k.reshape(b, n, h, d_h), v.reshape(b, n, h, d_h)
    s = np.einsum("bhe,bnhe->bhn", qh, kh) / math.sqrt(d_h)  # (B, h, N) scaled scores
    s = np.where(mask[:, None, :], s, -np.inf)  # padding gets no attention
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    a = e / e.sum(axis=-1, keepdims=True)  # (B, h, N) softmax rows
    out = np.einsum("bhn,bnhe->bhe", a, vh).reshape(b, d)  # (B, d) heads side by side

    def backward(d_out: Matrix) -> tuple[Matrix, Matrix, Matrix]:
        g = d_out.reshape(b, h, d_h)  # (B, h, d_h)
        d_v = np.einsum("bhn,bhe->bnhe", a, g).reshape(b, n, d)  # out = Σ_n a·v
        d_a = np.einsum("bnhe,bhe->bhn", vh, g)  # (B, h, N)
        d_s = a * (d_a - (a * d_a).sum(axis=-1, keepdims=True)) / math.sqrt(d_h)  # softmax, then /√d_h
        d_q = np.einsum("bhn,bnhe->bhe", d_s, kh).reshape(b, d)
        d_k = np.einsum("bhn,bhe->bnhe", d_s, qh).reshape(b, n, d)
        return d_q, d_k, d_v

    return out, a, backward


def _readout_loss(logits: Matrix, batch: Batch) -> tuple[float, Matrix]:
    """Mean KL(target ‖ softmax(logits)) over the batch, and its gradient (B, d)."""
    z = logits - logits.max(axis=1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=1, keepdims=True))  # (B, d)
    b = len(batch.target)
    loss = float(np.mean(-(batch.target * log_p).sum(axis=1) - batch.entropy))
    return loss, (np.exp(log_p) - batch.target) / b  # ∂/∂logits of the mean cross-entropy


def _forward(params: Mapping[str, Matrix], batch: Batch, heads: int) -> tuple[Matrix, Matrix]:
    """The focus word's single-head output and multi-head output, both (B, d)."""
    xf = batch.x[np.arange(len(batch.focus)), batch.focus]  # (B, d)
    q, k, v = xf @ params["W_Q"], batch.x @ params["W_K"], batch.x @ params["W_V"]
    one, _, _ = _attend(q, k, v, batch.mask, 1)
    multi, _, _ = _attend(q, k, v, batch.mask, heads)
    return one, multi @ params["W_O"]


def loss_and_gradients(
    params: Mapping[str, Matrix], batch: Batch, heads: int
) -> tuple[float, dict[str, Matrix]]:
    """The training loss and its gradient with respect to W_Q, W_K, W_V, W_O (each (d, d)).

    Loss = (single-head readout loss + multi-head readout loss) / 2, each the mean over
    the batch of KL(target ‖ softmax(output of the focus word)).
    """
    xf = batch.x[np.arange(len(batch.focus)), batch.focus]  # (B, d) the focus words
    q = xf @ params["W_Q"]  # (B, d)
    k = batch.x @ params["W_K"]  # (B, N, d)
    v = batch.x @ params["W_V"]  # (B, N, d)
    one, _, back_one = _attend(q, k, v, batch.mask, 1)  # (B, d)
    concat, _, back_multi = _attend(q, k, v, batch.mask, heads)  # (B, d)
    multi = concat @ params["W_O"]  # (B, d)
    loss_one, g_one = _readout_loss(one, batch)
    loss_multi, g_multi = _readout_loss(multi, batch)
    g_one, g_multi = g_one / 2, g_multi / 2  # the loss is the mean of the two
    dq1, dk1, dv1 = back_one(g_one)
    dq2, dk2, dv2 = back_multi(g_multi @ params["W_O"].T)
    grads = {
        "W_Q": xf.T @ (dq1 + dq2),  # q = xf · W_Q
        "W_K": np.einsum("bnc,bnd->cd", batch.x, dk1 + dk2),  # k = x · W_K
        "W_V": np.einsum("bnc,bnd->cd", batch.x, dv1 + dv2),  # v = x · W_V
        "W_O": concat.T @ g_multi,  # multi = concat · W_O
    }
    return (loss_one + loss_multi) / 2, grads


class _Adam:
    """Adam on a dict of matrices, in place; only the names given are updated."""

    def __init__(self, names: Sequence[str], params: Mapping[str, Matrix], rate: float) -> None:
        self.names, self.rate, self.t = tuple(names), rate, 0
        self.m = {n: np.zeros_like(params[n]) for n in self.names}
        self.v = {n: np.zeros_like(params[n]) for n in self.names}

    def step(self, params: dict[str, Matrix], grads: Mapping[str, Matrix]) -> None:
        b1, b2, eps = _ADAM
        self.t += 1
        for n in self.names:
            g = grads[n]
            self.m[n] = b1 * self.m[n] + (1 - b1) * g
            self.v[n] = b2 * self.v[n] + (1 - b2) * g * g
            m_hat, v_hat = self.m[n] / (1 - b1**self.t), self.v[n] / (1 - b2**self.t)
            params[n] = params[n] - self.rate * m_hat / (np.sqrt(v_hat) + eps)


# --------------------------------------------------------------------------------------
# The claims
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SenseClaim:
    """Where the focus word of one context (with ``leans``) looks, and what is read off."""

    context: str  # the context's name
    sense: str  # its ``leans``
    sense_words: tuple[str, ...]  # the other words of the sentence that carry the sense
    simple: float  # attention of the focus word on them, simplified step (Q = K = V = X)
    trained: float  # the same with the trained single-head weights (as rounded)
    heads: tuple[float, ...]  # (h,) the same in each head of the multi-head step
    readout: str  # dimension where the single-head output of the focus word is largest ("" on a tie)
    readout_heads: str  # the same for the multi-head output (after W_O)

    @property
    def holds(self) -> bool:
        def looks(a: float) -> bool:
            return a >= ATTENTION_CLAIM and a > self.simple

        return (
            bool(self.sense_words) and looks(self.trained) and any(looks(a) for a in self.heads)
            and self.readout == self.sense == self.readout_heads
        )


def _words(ws: Sequence[str]) -> str:
    return " and ".join(f"'{w}'" for w in ws)


def _claim(lesson: Lesson, c: Context, w: Mapping[str, Matrix]) -> SenseClaim:
    assert c.leans is not None
    x = np.array([lesson.vector(t) for t in c.tokens], dtype=np.float64)  # (n, d)
    f, cols = c.focus_index, list(sense_positions(lesson, c))
    simple = attention(x, x, x)  # what the trace computes in steps 2-7
    one = attention(x @ w["W_Q"], x @ w["W_K"], x @ w["W_V"])  # step 9
    multi = multi_head_attention(x, w["W_Q"], w["W_K"], w["W_V"], w["W_O"], lesson.heads)  # step 11
    dims = lesson.dimensions
    return SenseClaim(
        context=c.name, sense=c.leans, sense_words=tuple(c.tokens[j] for j in cols),
        simple=float(simple.weights[f, cols].sum()), trained=float(one.weights[f, cols].sum()),
        heads=tuple(float(r.weights[f, cols].sum()) for r in multi.heads),
        readout=_readout(dims, one.output[f]), readout_heads=_readout(dims, multi.output[f]),
    )


def _readout(dims: Sequence[str], row: Matrix) -> str:
    """The dimension in which ``row`` is strictly largest; "" on a tie (no single answer)."""
    k = strongest_dimension(row.tolist())
    return "" if k is None else dims[k]


def _why(c: SenseClaim, focus: str) -> str:
    """Why one context's claim fails, in words ("" when it holds)."""
    where, aim = (
        f"in '{c.context}'",
        f"at least {ATTENTION_CLAIM:.2f} and more than the simplified step's {c.simple:.2f}",
    )
    if not c.sense_words:
        return f"{where} no other word has {c.sense} as its strongest dimension, so no word carries that sense"
    if not (c.trained >= ATTENTION_CLAIM and c.trained > c.simple):
        return f"{where} '{focus}' gives {c.trained:.2f} of its attention to {_words(c.sense_words)}, not {aim}"
    if not any(a >= ATTENTION_CLAIM and a > c.simple for a in c.heads):
        best = max(c.heads)
        return f"{where} no head gives {_words(c.sense_words)} {aim} (the best gives {best:.2f})"
    if c.readout != c.sense or c.readout_heads != c.sense:
        one, heads = (r or "no single dimension" for r in (c.readout, c.readout_heads))
        return f"{where} the output of '{focus}' is largest in {one} (one head) and {heads} (heads), not {c.sense}"
    return ""


def check_claims(
    lesson: Lesson, weights: Mapping[str, Matrix], loss_start: float, loss_end: float
) -> tuple[tuple[SenseClaim, ...], str]:
    """The per-context claims with ``weights`` and the reason they fail ("" if they hold)."""
    ctxs = [c for c in lesson.contexts if c.leans is not None]
    claims = tuple(_claim(lesson, c, weights) for c in ctxs)
    reasons = [r for c, claim in zip(ctxs, claims) if (r := _why(claim, c.focus))]
    if not ctxs:
        reasons.append("no context names the sense of its focus word (leans), so there is no claim to check")
    if not loss_end <= LOSS_CLAIM * loss_start:
        reasons.append(f"the loss fell from {loss_start:.2f} to {loss_end:.2f}, not to a quarter of its start")
    return claims, "; ".join(reasons)


# --------------------------------------------------------------------------------------
# Training
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TrainingTrace:
    """The history of training, kept in the trace for the values command and the video."""

    task: str  # the question, in one line
    examples: tuple[Example, ...]  # the labelled sentences trained on
    steps: int  # Adam steps on the unrounded weights
    rounding_steps: int  # further rounding-aware steps needed for the claims to survive rounding
    seed: int  # of the noise added to W = I at the start
    learning_rate: float
    decimals: int  # the trained weights are rounded to this many decimals
    loss: tuple[float, ...]  # (steps + rounding_steps + 1,) loss after k updates, k = 0, 1, ...
    rounded_loss: float  # loss with the rounded weights, the ones shown and used
    accuracy: float  # share of one-sense sentences the single-head readout gets right (rounded weights)
    accuracy_heads: float  # the same for the multi-head readout
    snapshot_steps: tuple[int, ...]  # (k,) the steps at which the attention rows below were taken
    snapshots: tuple[Matrix, ...]  # per context, (k, n): the focus word's single-head attention row
    claims: tuple[SenseClaim, ...]  # one per context with ``leans``
    claims_hold: bool
    reason: str  # why the claims do not hold, one line; "" when they do
    trained: tuple[str, ...]  # the matrices trained (the others were set by hand)

    @property
    def attention_trained(self) -> bool:
        """Whether training can move the attention rows: W_Q or W_K is trained, not both set by hand."""
        return bool({"W_Q", "W_K"} & set(self.trained))

    def to_json(self) -> dict[str, Any]:
        """Every field as JSON values (NaN, for "not measured", as null)."""

        def num(x: float) -> float | None:
            return None if math.isnan(x) else float(x)

        return {
            "task": self.task,
            "examples": [
                {"sentence": e.sentence, "focus": e.tokens[e.focus_index], "target": e.label} for e in self.examples
            ],
            "steps": self.steps,
            "rounding_steps": self.rounding_steps,
            "seed": self.seed,
            "learning_rate": self.learning_rate,
            "decimals": self.decimals,
            "trained": list(self.trained),
            "loss": list(self.loss),
            "rounded_loss": num(self.rounded_loss),
            "accuracy": num(self.accuracy),
            "accuracy_heads": num(self.accuracy_heads),
            # one entry per snapshot step; "attention" holds, per context, the focus word's row
            "snapshots": [
                {"step": int(step), "attention": [[float(v) for v in s[k]] for s in self.snapshots]}
                for k, step in enumerate(self.snapshot_steps)
            ],
            "claims": [
                {
                    "context": c.context,
                    "sense": c.sense,
                    "sense_words": list(c.sense_words),
                    "simple": c.simple,
                    "trained": c.trained,
                    "heads": list(c.heads),
                    "readout": c.readout,
                    "readout_heads": c.readout_heads,
                }
                for c in self.claims
            ],
            "claims_hold": self.claims_hold,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class TrainedWeights:
    """The rounded trained matrices, the history, and the provenance line."""

    W_Q: Matrix  # (d, d)
    W_K: Matrix  # (d, d)
    W_V: Matrix  # (d, d)
    W_O: Matrix  # (d, d)
    record: TrainingTrace
    provenance: str


def alternatives(items: Sequence[str]) -> str:
    """Items as alternatives, in the viewer's language ("animal or tech", "animal ou technique")."""
    # Translators: joins alternatives, as in "animal or tech" (spaces included).
    return pgettext("alternatives", " or ").join(items)


def asked_words(focus: Iterable[str]) -> str:
    """Focus words as the task asks of them: quoted once each, as alternatives ("“café” or “the”")."""
    return alternatives([quoted(f) for f in dict.fromkeys(focus)])  # the lecture's quotation marks


def _task(lesson: Lesson) -> str:
    labelled = labelled_sentences(lesson)
    senses = list(dict.fromkeys(str(c.leans) for c in labelled))
    question = _("Which sense does {words} have in each sentence ({senses})?").format(
        words=asked_words(c.focus for c in labelled), senses=alternatives(senses))
    return question + " " + _("The answer is the dimension in which its output is largest.")


def _start(lesson: Lesson) -> tuple[dict[str, Matrix], tuple[str, ...]]:
    """W = I plus seeded noise for the trained matrices; hand-set ones as given."""
    d, spec = lesson.d, lesson.projections
    rng = np.random.default_rng(lesson.training.seed)
    params: dict[str, Matrix] = {}
    for name in TRAINED:
        noise = rng.normal(0.0, INIT_NOISE, size=(d, d))  # always drawn: hand-set ones don't shift the others
        given = spec.matrix(name)
        params[name] = np.array(given, dtype=np.float64) if given is not None else np.eye(d) + noise
    return params, tuple(n for n in TRAINED if spec.matrix(n) is None)


def _round(lesson: Lesson, params: Mapping[str, Matrix], trained: Sequence[str]) -> dict[str, Matrix]:
    return {n: round_matrix(m, lesson.decimals) if n in trained else m for n, m in params.items()}


def _focus_rows(lesson: Lesson, w: Mapping[str, Matrix]) -> list[Matrix]:
    """The focus word's single-head attention row in every context, (n,) each."""
    rows = []
    for c in lesson.contexts:
        x = np.array([lesson.vector(t) for t in c.tokens], dtype=np.float64)
        rows.append(attention(x @ w["W_Q"], x @ w["W_K"], x @ w["W_V"]).weights[c.focus_index])
    return rows


def _accuracy(lesson: Lesson, examples: Sequence[Example], w: Mapping[str, Matrix]) -> tuple[float, float]:
    one_sense = [e for e in examples if max(e.target) == 1.0]  # never empty: each labelled sentence is one
    batch = make_batch(lesson, one_sense)
    one, multi = _forward(w, batch, lesson.heads)
    right = batch.target.argmax(axis=1)
    return float(np.mean(one.argmax(axis=1) == right)), float(np.mean(multi.argmax(axis=1) == right))


def _provenance(t: TrainingTrace) -> str:
    """How the trained matrices were obtained, in one line."""
    fixed = [n for n in TRAINED if n not in t.trained]
    how = (
        ngettext("{n} step of Adam", "{n} steps of Adam", t.steps).format(n=t.steps)
        if not t.rounding_steps
        else _("{steps} steps of Adam and {rounding} rounding-aware steps").format(
            steps=t.steps, rounding=t.rounding_steps
        )
    )
    rounded = ngettext("rounded to {n} decimal", "rounded to {n} decimals", t.decimals).format(n=t.decimals)
    values = {
        "how": how,
        "n": len(t.examples),
        "rate": number(f"{t.learning_rate:g}"),
        "seed": t.seed,
        "rounded": rounded,
    }
    if fixed:
        return _(
            "{fixed} set by hand; {trained} trained for {how} on {n} labelled sentences generated from the "
            "lesson (learning rate {rate}, seed {seed}), starting from W = I plus a little noise; {rounded}."
        ).format(fixed=", ".join(fixed), trained=", ".join(t.trained), **values)
    return _("Trained for {how} on {n} labelled sentences generated from the lesson (learning rate {rate}, seed "
             "{seed}), starting from W = I plus a little noise; {rounded}.").format(**values)


def untrained_record(lesson: Lesson) -> TrainingTrace:
    """The record of a lesson that asks for trained weights but states no sense to learn."""
    return TrainingTrace(
        task="", examples=(), steps=0, rounding_steps=0, seed=lesson.training.seed,
        learning_rate=lesson.training.learning_rate, decimals=lesson.decimals, loss=(), rounded_loss=math.nan,
        accuracy=math.nan, accuracy_heads=math.nan, snapshot_steps=(), snapshots=(), claims=(), claims_hold=False,
        reason="no sentence of the lesson states the sense of its focus word (leans), so there is nothing to train on",
        trained=(),
    )


@lru_cache(maxsize=32)
def train_lesson(lesson: Lesson) -> TrainedWeights | None:
    """Train the projections of ``lesson`` on its sense task; None if it states no sense.

    Deterministic: the same lesson gives the same weights (cached, the arrays read-only);
    the words it keeps (the task, how the weights were made) are in the lesson's language.
    """
    with use(lesson.language, lesson.catalogue):
        return _train_lesson(lesson)


def _train_lesson(lesson: Lesson) -> TrainedWeights | None:
    examples = training_set(lesson)
    if not examples:
        return None
    spec, batch = lesson.training, make_batch(lesson, examples)
    params, trained = _start(lesson)
    adam = _Adam(trained, params, spec.learning_rate)
    snap_at = sorted({round(share * spec.steps) for share in SNAPSHOTS})
    losses: list[float] = []
    snaps: list[list[Matrix]] = []
    for t in range(spec.steps + 1):
        loss, grads = loss_and_gradients(params, batch, lesson.heads)
        losses.append(loss)
        if t in snap_at:
            snaps.append(_focus_rows(lesson, _round(lesson, params, trained)))
        if t < spec.steps:
            adam.step(params, grads)
    shown = _round(lesson, params, trained)
    claims, reason = check_claims(lesson, shown, losses[0], loss_and_gradients(shown, batch, lesson.heads)[0])
    extra = 0
    if reason and not check_claims(lesson, params, losses[0], losses[-1])[1]:
        while reason and extra < spec.steps:  # the rounding broke a claim: train on the rounded weights
            adam.step(params, loss_and_gradients(shown, batch, lesson.heads)[1])
            extra += 1
            shown = _round(lesson, params, trained)
            losses.append(loss_and_gradients(shown, batch, lesson.heads)[0])
            claims, reason = check_claims(lesson, shown, losses[0], losses[-1])
        snap_at.append(spec.steps + extra)
        snaps.append(_focus_rows(lesson, shown))
    accuracy = _accuracy(lesson, examples, shown)
    record = TrainingTrace(
        task=_task(lesson), examples=examples, steps=spec.steps, rounding_steps=extra, seed=spec.seed,
        learning_rate=spec.learning_rate, decimals=lesson.decimals, loss=tuple(losses),
        rounded_loss=loss_and_gradients(shown, batch, lesson.heads)[0],
        accuracy=accuracy[0], accuracy_heads=accuracy[1], snapshot_steps=tuple(snap_at),
        snapshots=tuple(_frozen(np.array([s[i] for s in snaps])) for i in range(len(lesson.contexts))),
        claims=claims, claims_hold=not reason, reason=reason, trained=trained,
    )
    w = {n: _frozen(m) for n, m in shown.items()}
    return TrainedWeights(W_Q=w["W_Q"], W_K=w["W_K"], W_V=w["W_V"], W_O=w["W_O"], record=record,
                          provenance=_provenance(record))
