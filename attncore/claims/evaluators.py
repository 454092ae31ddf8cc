"""One evaluator per kind of claim (:data:`EVALUATORS`): None when the claim holds for the
trace, else one line saying why not; :func:`check` adds the calibrated words
(:mod:`attncore.lexicon`), :func:`holds` checks a list before a scene may use it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..display import fmt, plain, shown_value
from ..lexicon import check_words, pick
from ..trace import LessonTrace, stage_row, trace_row
from ..training import check_claims
from .model import KINDS, LITTLE, MOST_TIED, SMALL, STRONG_SHARE, Claim, share_of

__all__ = ["EVALUATORS", "check", "holds"]


def _vector(trace: LessonTrace, word: str) -> np.ndarray:
    return np.asarray(trace.lesson.vector(word), dtype=np.float64)


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
    weak = [
        dims[k]
        for k in named
        if not (v[k] > 0 and v[k] >= STRONG_SHARE * np.abs(v).max() and v[k] >= max(rest, default=0))
    ]
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
    if a["rest"] != {"barely count": "barely", "count a little": "a little", "still count": "still"}.get(
        said or "", "none"
    ):
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
    shown = {
        tuple(fmt(x, trace.decimals) for x in stage_row(trace.contexts[c], a["stage"], trace.contexts[c].focus_index))
        for c in a["contexts"]
    }
    return None if (len(shown) > 1) == a["differ"] else f"the shown outputs {'do not ' if a['differ'] else ''}differ"


def _change(claim: Claim, trace: LessonTrace) -> str | None:
    a, dec = claim.args, trace.decimals
    path = list(a.get("through") or (a["from"], a["to"]))
    for c, cols, want in zip(a["contexts"], a["columns"], a["change"], strict=True):
        f = trace.contexts[c].focus_index
        rows = [trace_row(trace, c, s, f) for s in path]
        vals = [shown_value(share_of(r, cols, dec, a.get("parts", "exact")), dec) for r in rows]
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
    heads = {
        tuple(fmt(x, dec) for x in np.asarray(h.attention).ravel())
        for h in trace.contexts[a["context"]].multi_head.heads
    }
    return None if (len(heads) > 1) == a["differ"] else f"the heads {'do not ' if a['differ'] else ''}differ"


def _loss_falls(claim: Claim, trace: LessonTrace) -> str | None:
    t, a = trace.training, claim.args
    if t is None or len(t.loss) != t.steps + t.rounding_steps + 1 or a["steps"] != t.steps:
        return "no such training history"
    return None if (t.loss[-1] < t.loss[0]) == a["falls"] else f"the loss goes from {t.loss[0]} to {t.loss[-1]}"


def _learned(claim: Claim, trace: LessonTrace) -> str | None:
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
    return EVALUATORS[claim.kind](claim, trace) or check_words(claim.text, claim.args.get("words", {}), trace)


def holds(claims: Sequence[Claim], trace: LessonTrace) -> Sequence[Claim]:
    """``claims``, after checking that every one holds (a claim that does not is a bug: raise)."""
    for c in claims:
        why = check(c, trace)
        if why is not None:
            raise AssertionError(f"{c.scene} / {c.section}: {c.kind} claim {c.text!r} does not hold: {why}")
    return claims
