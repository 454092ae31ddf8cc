"""Claims as data: every factual sentence the lecture says or shows, computed from the trace.

A scene never words a fact itself: it asks for the claims of its section and says their
``text``. Each :class:`Claim` names its ``kind`` (one of :data:`KINDS`), the ``args`` that
say what it is about (a context, a word, a dimension...), the exact ``values`` it rests
on, and the ``text`` that says it (numbers through :func:`attncore.display.fmt`). A
statement that does not hold for the lesson is not made: :mod:`attncore.lecture_claims`
words it otherwise or leaves it out, and :func:`holds` checks every claim before a scene
may use it (one evaluator per kind).

``attnvid values --json`` lists the claims; docs/reference/claims.md documents the kinds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .display import fmt, plain
from .lexicon import LEXICON, pick

if TYPE_CHECKING:
    from .trace import ContextTrace, LessonTrace

__all__ = [
    "KINDS",
    "LITTLE",
    "SMALL",
    "STRONG_SHARE",
    "Claim",
    "check",
    "holds",
    "share_of",
    "stage_row",
    "trace_row",
]

#: "little anywhere else": every other |value| of the word at most this share of it.
LITTLE = 1 / 3
#: "strong in": a value at least this share of the word's largest |value| (and positive): the lexicon's.
STRONG_SHARE = LEXICON["strong in"].lo
#: A weight that "barely counts", is "tiny", is "a little": under this.
SMALL = 0.1

#: The kinds of claim and what each asserts (docs/reference/claims.md's table says the same).
KINDS: dict[str, str] = {
    "strong_in": "a word's value in a dimension is positive and every other |value| of it is at most a third of it",
    "strongest_in": "a word's value in a dimension is larger than every other |value| of it",
    "strong_in_each": ("a word's value in each named dimension (two or more) is positive, at least two thirds of its "
                       "largest |value| and at least every |value| in the other dimensions"),
    "same_vector": "a word has the same input vector in each named context",
    "largest": "an entry of a row (a score, a weight, an output) is the largest of the row (among the others)",
    "runner_up": ("the word a row gives most weight to, then the second (with every word shown with the second's "
                  "weight); 'about as much', 'barely count', 'count a little', 'still count' as the lexicon says of "
                  "the weights"),
    "most_of": "a weight is more than one half",
    "small_weights": f"every named weight is under {SMALL}",
    "keeps_share": "the weight a word gets, as shown, is under 1: the other words keep a share",
    "flatter": "the largest weight of a row, as shown, is smaller with scaling than without",
    "rows_sum_to_one": "every named row of an attention matrix sums to 1",
    "leans": "a word's output is largest in the named dimension",
    "differ": "the focus word's outputs in the named contexts, as shown, differ (or, if so claimed, look the same)",
    "change": ("the focus word's weight on the named columns (their sum), or its output in a named dimension, goes, "
               "as shown, from one stage to another: rises, falls or stays, in each named context; 'steady': it never "
               "falls through the named stages; 'widest': that dimension is where the two rows differ most; 'top': that column is the largest at the "
               "second stage"),
    "share": ("in each named context, the focus word's weights on the named columns add up to at least 'least' "
              "(and to more than at the stage 'above', if named)"),
    "spread": "every weight of a row is under 'most': no word takes most of it",
    "same_row": ("the focus word's rows at two stages (its output in order and shuffled...), as shown, are the same "
                 "digit for digit (or, if so claimed, differ), in each named context"),
    "heads_differ": "the attention matrices of a context's heads, as shown, are not all the same (or, if so claimed, are)",
    "loss_falls": ("the training loss after the last step is below its start (or, if so claimed, is not); "
                   "the steps said are the steps taken"),
    "learned": ("training's own check holds (or, if so claimed, fails): in each context with a sense, the trained "
                "focus word gives at least half its attention to the sense words and more than the simplified step, "
                "so does a head, both outputs lean the sense, and the loss fell to a quarter of its start"),
    "value_size": "the value size d_v of W_V (the one that changes the dimension) is larger than, smaller than or equal to d",
    "size_ratio": ("the mean length of the position vectors over that of the word vectors is what 'compare' says: "
                   "'about as large', 'smaller than' or 'larger than' (the lexicon's ranges)"),
}


@dataclass(frozen=True)
class Claim:
    """One factual statement of the lecture.

    ``where`` is ``"narration"`` (said) or ``"caption"`` (shown at the bottom of the frame).
    """

    scene: str  # scene class name, e.g. "Embeddings"
    section: str  # section title, e.g. "Reading a vector"
    kind: str  # one of KINDS
    args: Mapping[str, Any]  # what it is about: context index, words, dimensions, stage, row, columns
    values: Mapping[str, float]  # the exact numbers it rests on
    text: str  # the words said or shown
    where: str = "narration"

    def to_json(self) -> dict[str, Any]:
        return {"scene": self.scene, "section": self.section, "kind": self.kind, "args": dict(self.args),
                "values": {k: float(v) for k, v in self.values.items()}, "text": self.text, "where": self.where}


# --- what a claim refers to ----------------------------------------------------------------


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


def share_of(row: np.ndarray, columns: Sequence[int], decimals: int, parts: str = "exact") -> float:
    """The sum of ``row`` over ``columns``: of the exact weights, or (``parts="shown"``) of the weights as shown."""
    if parts == "shown":
        return float(sum(float(plain(row[j], decimals)) for j in columns))
    return float(sum(float(row[j]) for j in columns))


def _vector(trace: LessonTrace, word: str) -> np.ndarray:
    return np.asarray(trace.lesson.vector(word), dtype=np.float64)


# --- one evaluator per kind: None when the claim holds, else why not ----------------------


def _strong_in(claim: Claim, trace: LessonTrace) -> str | None:
    v = _vector(trace, claim.args["word"])
    k = trace.lesson.dimensions.index(claim.args["dimension"])
    others = np.abs(np.delete(v, k))
    if v[k] <= 0 or (others.size and others.max() > LITTLE * v[k]):
        return f"{claim.args['word']} has {v[k]} in {claim.args['dimension']} and up to {others.max()} elsewhere"
    return None


def _strongest_in(claim: Claim, trace: LessonTrace) -> str | None:
    v = _vector(trace, claim.args["word"])
    k = trace.lesson.dimensions.index(claim.args["dimension"])
    others = np.abs(np.delete(v, k))
    return None if v[k] > 0 and (not others.size or v[k] > others.max()) else f"{v[k]} is not its largest |value|"


def _strong_in_each(claim: Claim, trace: LessonTrace) -> str | None:
    v = _vector(trace, claim.args["word"])
    dims = list(trace.lesson.dimensions)
    named = [dims.index(d) for d in claim.args["dimensions"]]
    rest = [abs(v[k]) for k in range(len(dims)) if k not in named]
    weak = [dims[k] for k in named if not (v[k] > 0 and v[k] >= STRONG_SHARE * np.abs(v).max() and v[k] >= max(rest, default=0))]
    return f"not strong in {weak}" if weak or len(named) < 2 else None


def _same_vector(claim: Claim, trace: LessonTrace) -> str | None:
    word = claim.args["word"]
    rows = [trace.contexts[c].embeddings[trace.contexts[c].tokens.index(word)] for c in claim.args["contexts"]]
    return None if all(np.array_equal(rows[0], r) for r in rows) else f"{word} has different vectors"


def _largest(claim: Claim, trace: LessonTrace) -> str | None:
    a = claim.args
    row = stage_row(trace.contexts[a["context"]], a["stage"], a["row"])
    among = [j for j in range(len(row)) if not (a.get("others") and j == a["row"])]
    if row[a["column"]] < max(row[j] for j in among):
        return f"{a['stage']}[{a['row']}, {a['column']}] = {row[a['column']]} is not the largest"
    return None


#: The most words a runner-up claim names with the second for being shown with its weight
#: (:func:`attncore.lecture_claims.shown_ties`; more are no runner-up, and only the second is named).
MOST_TIED = 2


def _runner_up(claim: Claim, trace: LessonTrace) -> str | None:
    a = claim.args
    w = stage_row(trace.contexts[a["context"]], a["stage"], a["row"])
    first, second, tied = a["first"], a["second"], a.get("tied", [])
    rest = [j for j in range(len(w)) if j not in (first, second, *tied)]
    if w[first] < max(w) or (rest and w[second] < max(w[j] for j in rest)):
        return "not the two largest weights in order"
    shown = [fmt(float(x), trace.decimals) for x in w]
    if any(shown[j] != shown[second] for j in tied):
        return "a word named with the second is not shown with its weight"
    equal = [j for j in rest if shown[j] == shown[second]]
    if equal and not a["about_as_much"] and a["row"] not in (second, *equal) and len(equal) <= MOST_TIED:
        return f"words {equal} are shown with the second's weight and not named"
    ratio = float(w[second] / w[first]) if w[first] > 0 else 0.0
    if a["about_as_much"] != (len(w) > 1 and pick(ratio, "about as much") is not None):
        return "'about as much' does not match the weights"
    said = pick(max(w[j] for j in rest), "barely count", "count a little", "still count") if rest else None
    if a["rest"] != {"barely count": "barely", "count a little": "a little", "still count": "still"}.get(said or "", "none"):
        return "what is said of the others does not match their weights"
    return None


def _most_of(claim: Claim, trace: LessonTrace) -> str | None:
    a = claim.args
    w = stage_row(trace.contexts[a["context"]], a["stage"], a["row"])[a["column"]]
    return None if w > 0.5 else f"{w} is not more than one half"


def _small_weights(claim: Claim, trace: LessonTrace) -> str | None:
    a = claim.args
    w = stage_row(trace.contexts[a["context"]], a["stage"], a["row"])
    big = [j for j in a["columns"] if w[j] >= SMALL]
    return None if a["columns"] and not big else f"weights {big} are not under {SMALL}"


def _keeps_share(claim: Claim, trace: LessonTrace) -> str | None:
    a = claim.args
    w = stage_row(trace.contexts[a["context"]], a["stage"], a["row"])[a["column"]]
    return None if fmt(w, trace.decimals) != fmt(1.0, trace.decimals) else f"{w} shows as 1"


def _flatter(claim: Claim, trace: LessonTrace) -> str | None:
    a = claim.args
    c = trace.contexts[a["context"]]
    scaled, unscaled = stage_row(c, "attention", a["row"]).max(), stage_row(c, "unscaled_attention", a["row"]).max()
    shown = float(plain(scaled, trace.decimals)) < float(plain(unscaled, trace.decimals))
    return None if shown else "the largest weight does not show smaller with scaling"


def _rows_sum_to_one(claim: Claim, trace: LessonTrace) -> str | None:
    a = claim.args
    c = trace.contexts[a["context"]]
    bad = [r for r in a["rows"] if abs(float(stage_row(c, a["stage"], r).sum()) - 1.0) > 1e-9]
    return None if not bad else f"rows {bad} do not sum to 1"


def _leans(claim: Claim, trace: LessonTrace) -> str | None:
    a = claim.args
    dims = list(trace.lesson.dimensions)
    for c, dim in zip(a["contexts"], a["dimensions"], strict=True):
        ctx = trace.contexts[c]
        out = stage_row(ctx, a["stage"], ctx.focus_index)
        if out[dims.index(dim)] < out.max():
            return f"context {c}: {a['stage']} is largest in {dims[int(np.argmax(out))]}, not {dim}"
    return None


def _differ(claim: Claim, trace: LessonTrace) -> str | None:
    a = claim.args
    shown = {tuple(fmt(x, trace.decimals) for x in stage_row(trace.contexts[c], a["stage"], trace.contexts[c].focus_index))
             for c in a["contexts"]}
    return None if (len(shown) > 1) == a["differ"] else f"the shown outputs {'do not ' if a['differ'] else ''}differ"


def _shown(x: float, decimals: int) -> float:
    return float(plain(x, decimals).replace("−", "-"))


def _change(claim: Claim, trace: LessonTrace) -> str | None:
    a, dec = claim.args, trace.decimals
    path = list(a.get("through") or (a["from"], a["to"]))
    for c, cols, want in zip(a["contexts"], a["columns"], a["change"], strict=True):
        f = trace.contexts[c].focus_index
        rows = [trace_row(trace, c, s, f) for s in path]
        vals = [_shown(share_of(r, cols, dec, a.get("parts", "exact")), dec) for r in rows]
        got = "rises" if vals[-1] > vals[0] else "falls" if vals[-1] < vals[0] else "stays"
        if got != want:
            return f"context {c}: the shown value {got} ({vals[0]} to {vals[-1]}), it does not {want[:-1]}"
        if a.get("steady") and any(y < x for x, y in zip(vals, vals[1:])):
            return f"context {c}: the shown value falls on the way ({vals})"
        if a.get("top") and rows[-1][cols[0]] < rows[-1].max():
            return f"context {c}: column {cols[0]} is not the largest at {path[-1]}"
        gap = np.abs(rows[-1] - rows[0])
        if a.get("widest") and gap[cols[0]] < gap.max():
            return f"context {c}: column {cols[0]} is not where the rows differ most"
    return None


def _share(claim: Claim, trace: LessonTrace) -> str | None:
    a, dec = claim.args, trace.decimals
    for c, cols in zip(a["contexts"], a["columns"], strict=True):
        f = trace.contexts[c].focus_index
        got = share_of(trace_row(trace, c, a["stage"], f), cols, dec, a.get("parts", "exact"))
        if not cols or got < a["least"]:
            return f"context {c}: a share of {got}, under {a['least']}"
        if a.get("above") and got <= share_of(trace_row(trace, c, a["above"], f), cols, dec, a.get("parts", "exact")):
            return f"context {c}: a share of {got}, not more than at {a['above']}"
    return None


def _spread(claim: Claim, trace: LessonTrace) -> str | None:
    a = claim.args
    w = trace_row(trace, a["context"], a["stage"], a["row"])
    return None if w.max() < a["most"] else f"a weight of {w.max()} is not under {a['most']}"


def _same_row(claim: Claim, trace: LessonTrace) -> str | None:
    a, dec = claim.args, trace.decimals
    for c in a["contexts"]:
        f = trace.contexts[c].focus_index
        one, two = ([fmt(x, dec) for x in trace_row(trace, c, s, f)] for s in (a["stage"], a["other"]))
        if (one == two) != a["same"]:
            return f"context {c}: the shown rows {'differ' if a['same'] else 'are the same'}"
    return None


def _heads_differ(claim: Claim, trace: LessonTrace) -> str | None:
    a, dec = claim.args, trace.decimals
    heads = {tuple(fmt(x, dec) for x in np.asarray(h.attention).ravel()) for h in trace.contexts[a["context"]].multi_head.heads}
    return None if (len(heads) > 1) == a["differ"] else f"the heads {'do not ' if a['differ'] else ''}differ"


def _loss_falls(claim: Claim, trace: LessonTrace) -> str | None:
    t, a = trace.training, claim.args
    if t is None or len(t.loss) != t.steps + t.rounding_steps + 1 or a["steps"] != t.steps:
        return "no such training history"
    return None if (t.loss[-1] < t.loss[0]) == a["falls"] else f"the loss goes from {t.loss[0]} to {t.loss[-1]}"


def _learned(claim: Claim, trace: LessonTrace) -> str | None:
    from .training import check_claims

    t, w = trace.training, trace.weights
    if t is None:
        return "the weights were not trained"
    weights = {"W_Q": w.W_Q, "W_K": w.W_K, "W_V": w.W_V, "W_O": w.W_O}
    holds_now = not check_claims(trace.lesson, weights, t.loss[0], t.rounded_loss)[1]
    return None if holds_now == t.claims_hold == claim.args["holds"] else "training's check says otherwise"


def _value_size(claim: Claim, trace: LessonTrace) -> str | None:
    d, d_v = np.asarray(trace.weights.W_V_reshape).shape
    got = "more" if d_v > d else "fewer" if d_v < d else "same"
    return None if got == claim.args["compare"] else f"W_V has {d} rows and {d_v} columns"


def _size_ratio(claim: Claim, trace: LessonTrace) -> str | None:
    c = trace.contexts[claim.args["context"]]
    lengths = [float(np.mean(np.linalg.norm(m, axis=1))) for m in (c.positional.encoding, c.embeddings)]
    ratio = lengths[0] / lengths[1] if lengths[1] > 0 else float("inf")
    said = pick(ratio, "about as large", "smaller than", "larger than")
    return None if said == claim.args["compare"] else f"the ratio of mean lengths is {ratio:.4g}: {said}"


EVALUATORS: dict[str, Callable[[Claim, LessonTrace], str | None]] = {
    "strong_in": _strong_in, "strongest_in": _strongest_in, "strong_in_each": _strong_in_each,
    "same_vector": _same_vector, "largest": _largest, "runner_up": _runner_up, "most_of": _most_of,
    "small_weights": _small_weights, "keeps_share": _keeps_share, "flatter": _flatter,
    "rows_sum_to_one": _rows_sum_to_one, "leans": _leans, "differ": _differ, "change": _change, "share": _share,
    "spread": _spread, "same_row": _same_row, "heads_differ": _heads_differ, "loss_falls": _loss_falls,
    "learned": _learned, "value_size": _value_size, "size_ratio": _size_ratio,
}
assert set(EVALUATORS) == set(KINDS)


def check(claim: Claim, trace: LessonTrace) -> str | None:
    """None when ``claim`` holds for ``trace`` and every calibrated word of its text is within
    its range (:mod:`attncore.lexicon`); else one line saying why not."""
    from .lexicon import check_words

    return EVALUATORS[claim.kind](claim, trace) or check_words(claim.text, claim.args.get("words", {}), trace)


def holds(claims: Sequence[Claim], trace: LessonTrace) -> Sequence[Claim]:
    """``claims``, after checking that every one holds (a claim that does not is a bug: raise)."""
    for c in claims:
        why = check(c, trace)
        if why is not None:
            raise AssertionError(f"{c.scene} / {c.section}: {c.kind} claim {c.text!r} does not hold: {why}")
    return claims
