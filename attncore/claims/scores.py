"""The claims on the scores and the weights they become: the largest dot product of the focus
row, what scaling by √d does to the largest weight, and a softmax row that sums to 1. "The
largest" is decided by the exact values of the trace (a tie goes to the word that comes first).
"""

from __future__ import annotations

import numpy as np

from ..display import fmt, plain
from ..i18n import N_, _
from ..lexicon import spec
from ..trace import LessonTrace
from .model import Claim
from .wording import argmax, quote, who

# --- Dot products --------------------------------------------------------------------------------


def dot_products_claims(trace: LessonTrace) -> list[Claim]:
    ctx, dec = trace.contexts[0], trace.decimals
    i, n = ctx.focus_index, ctx.n
    out = []
    others = [k for k in range(n) if k != i]
    if others:
        j = argmax(ctx.scores[i], others)
        out.append(Claim("DotProducts", "One score, term by term", "largest",
                         {"context": 0, "stage": "scores", "row": i, "column": j, "others": True},
                         {"score": float(ctx.scores[i, j])},
                         _("Take {word} and {other}, the word it matches most among the others.").format(
                             word=quote(ctx.tokens[i]), other=quote(ctx.tokens[j]))))
    best = argmax(ctx.scores[i], range(n))
    args = {"context": 0, "stage": "scores", "row": i, "column": best, "others": False}
    values = {"score": float(ctx.scores[i, best])}
    sec, focus, score = "A similarity, not yet a weight", quote(ctx.tokens[i]), fmt(ctx.scores[i, best], dec)
    return out + [
        Claim("DotProducts", sec, "largest", args, values,
              who(ctx, best, N_("In the row of {focus}, the largest score, {score}, is with itself."),
                   N_("In the row of {focus}, the largest score, {score}, is with {word}."), focus=focus, score=score)),
        Claim("DotProducts", sec, "largest", args, values,
              who(ctx, best, N_("In the row of {focus}, the largest score is with itself."),
                   N_("In the row of {focus}, the largest score is with {word}."), focus=focus), "caption"),
    ]


# --- Scaling -------------------------------------------------------------------------------------


def scaling_claims(trace: LessonTrace) -> list[Claim]:
    ctx, dec = trace.contexts[0], trace.decimals
    fi, n = ctx.focus_index, ctx.n
    raw = ctx.unscaled_attention[fi]
    p = argmax(raw, range(n))
    at = {"context": 0, "stage": "unscaled_attention", "row": fi, "column": p}
    sec = "Softmax without scaling"
    out = [Claim("Scaling", sec, "largest", {**at, "others": False}, {"weight": float(raw[p])},
                 who(ctx, p, N_("Without the division, {focus} would give {weight} of its attention to itself."),
                      N_("Without the division, {focus} would give {weight} of its attention to {word}."),
                      focus=quote(ctx.focus), weight=fmt(raw[p], dec)))]
    if raw[p] > 0.5:
        words = {"most of": spec("share", context=0, stage="unscaled_attention", row=fi, columns=[p])}
        out.append(Claim("Scaling", sec, "most_of", {**at, "words": words}, {"weight": float(raw[p])},
                         _("Without scaling, one word takes most of the weight."), "caption"))
    else:
        out.append(Claim("Scaling", sec, "largest", {**at, "others": False}, {"weight": float(raw[p])},
                         _("Without scaling, the largest score takes the biggest share."), "caption"))
    w = ctx.attention[fi]
    q = argmax(w, range(n))
    at = {"context": 0, "stage": "attention", "row": fi, "column": q}
    sec = "Softmax with scaling"
    if fmt(w[q], dec) != fmt(1.0, dec):
        out.append(Claim("Scaling", sec, "keeps_share", at, {"weight": float(w[q])},
                         (_("With it, {focus} itself gets {weight} and the other words keep a share") if q == fi else
                          _("With it, {word} gets {weight} and the other words keep a share")).format(
                             focus=quote(ctx.focus), word=quote(ctx.tokens[q]), weight=fmt(w[q], dec))))
    else:
        words = {"most of": spec("share", context=0, stage="attention", row=fi, columns=[q])}
        out.append(Claim("Scaling", sec, "most_of", {**at, "words": words}, {"weight": float(w[q])},
                         who(ctx, q, N_("With it, itself still gets {weight}: these scores are so far apart that "
                                         "even scaled, one word takes most of the weight"),
                              N_("With it, {word} still gets {weight}: these scores are so far apart that "
                                 "even scaled, one word takes most of the weight"), weight=fmt(w[q], dec))))
    if float(plain(w[q], dec)) < float(plain(raw[p], dec)):
        out.append(Claim("Scaling", sec, "flatter", {"context": 0, "row": fi},
                         {"largest_scaled": float(w[q]), "largest_unscaled": float(raw[p])},
                         _("With scaling, the weight is shared more evenly among the words."), "caption"))
    return out


# --- Softmax -------------------------------------------------------------------------------------


def softmax_claims(trace: LessonTrace) -> list[Claim]:
    ctx = trace.contexts[0]
    fi = ctx.focus_index
    every = {"context": 0, "stage": "attention", "rows": list(range(ctx.n))}
    sums = {"largest_error": float(np.abs(ctx.attention.sum(axis=1) - 1).max())}
    return [
        Claim("Softmax", "Divide by the sum", "rows_sum_to_one", {"context": 0, "stage": "attention", "rows": [fi]},
              {"sum": float(ctx.attention[fi].sum())}, _("The weights are positive and add up to one."), "caption"),
        Claim("Softmax", "The attention matrix", "rows_sum_to_one", every, sums, _("Every row sums to one.")),
        Claim("Softmax", "The attention matrix", "rows_sum_to_one", every, sums,
              _("Every row sums to one: each word shares out its attention."), "caption"),
    ]
