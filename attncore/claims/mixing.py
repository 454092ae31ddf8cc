"""The claims on reading the weights and mixing the values: where the focus word looks most and
next (with every word shown with the second's weight), what its output keeps, and how the
outputs of two contexts differ.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..display import fmt, said
from ..i18n import N_, _, pgettext
from ..lexicon import pick, spec
from ..trace import ContextTrace, LessonTrace, stage_row
from .model import MOST_TIED, SMALL, Claim
from .wording import argmax, inside_sentence, quote, quoted_list, tied_words, who

# --- Reading the attention matrix ----------------------------------------------------------------


def shown_ties(w: Any, order: Sequence[int], second: int, focus: int, decimals: int) -> list[int]:
    """The words after the runner-up ``second`` (in ``order``) shown with its weight: at most
    :data:`MOST_TIED` of them, and none when the focus word is among them ("then at itself and
    “cat”" has no sentence) or when more are (seven words at 0.1 are no runner-up: ``second``
    alone is named, as before)."""
    tied = [j for j in order[2:] if fmt(float(w[j]), decimals) == fmt(float(w[second]), decimals)]
    return [] if focus in tied or second == focus or len(tied) > MOST_TIED else tied


def describe_focus(ctx: ContextTrace, decimals: int,
                   stage: str = "attention") -> tuple[str, dict[str, Any], dict[str, float]]:
    """(text, args, values) of a ``runner_up`` claim: where the focus word looks most, then second,
    in calibrated words (:mod:`attncore.lexicon`).

    "“mouse” looks mostly at itself, then at “cat”; the others barely count." ("mostly": more
    than half; "about as much": the second at least 0.8 of the first; "barely count", "count a
    little", "still count": the largest of the rest under 0.05, under 0.2, from 0.2.)
    """
    fi = ctx.focus_index
    w = stage_row(ctx, stage, fi)
    order = sorted(range(ctx.n), key=lambda j: -float(w[j]))  # stable: a tie keeps sentence order
    first, second = order[0], order[1] if ctx.n > 1 else order[0]
    where = {"context": 0, "stage": stage, "row": fi}
    ratio = float(w[second] / w[first]) if w[first] > 0 else 0.0
    about = ctx.n > 1 and pick(ratio, "about as much") is not None
    words: dict[str, Any] = {}
    # which of the two words is the focus word itself: 0 (the first), 1 (the second) or neither
    me = 0 if first == fi else 1 if second == fi and ctx.n > 1 else None
    looks: tuple[str, ...]
    if about:
        words["about as much"] = spec("ratio", **where, columns=[first, second])
        looks = (N_("{focus} looks at itself and {second} about as much"),
                 N_("{focus} looks at {first} and itself about as much"),
                 N_("{focus} looks at {first} and {second} about as much"))
    else:
        mostly = pick(float(w[first]), "mostly") is not None
        if mostly:
            words["mostly"] = spec("share", **where, columns=[first])
        if ctx.n == 1:
            looks = (N_("{focus} looks mostly at itself"),) if mostly else (N_("{focus} looks most at itself"),)
        elif mostly:
            looks = (N_("{focus} looks mostly at itself, then at {second}"),
                     N_("{focus} looks mostly at {first}, then at itself"),
                     N_("{focus} looks mostly at {first}, then at {second}"))
        else:
            looks = (N_("{focus} looks most at itself, then at {second}"),
                     N_("{focus} looks most at {first}, then at itself"),
                     N_("{focus} looks most at {first}, then at {second}"))
    # Words shown with the runner-up's very weight are named with it ("then at “cat” and “dog”",
    # both 0.2): naming one of two equal numbers would read as a difference the frame does not show.
    tied = [] if about else shown_ties(w, order, second, fi, decimals)
    text = _(looks[2 if me is None else me]).format(focus=quote(ctx.focus), first=quote(ctx.tokens[first]),
                                                      second=quoted_list([ctx.tokens[j] for j in (second, *tied)]))
    rest = [j for j in order[2:] if j not in tied]
    largest_rest = max((float(w[j]) for j in rest), default=0.0)
    said = pick(largest_rest, "barely count", "count a little", "still count") if rest else None
    if said:
        words[said] = spec("largest", **where, columns=rest)
    ends = {"barely count": N_("{looks}; the others barely count."),
            "count a little": N_("{looks}; the others count a little."),
            "still count": N_("{looks}; the others still count."),
            # Translators: {looks} is the sentence so far ("“mouse” looks mostly at itself, then at “cat”")
            "": N_("{looks}.")}
    text = _(ends[said or ""]).format(looks=text)
    args = {**where, "first": first, "second": second, "tied": tied, "about_as_much": about,
            "rest": {"barely count": "barely", "count a little": "a little", "still count": "still"}.get(said or "",
                                                                                                         "none"),
            "words": words}
    return text, args, {"first": float(w[first]), "second": float(w[second]), "largest_rest": largest_rest}


def reading_claims(trace: LessonTrace) -> list[Claim]:
    ctx, dec = trace.contexts[0], trace.decimals
    fi = ctx.focus_index
    w = ctx.attention[fi]
    top = argmax(w, range(ctx.n))
    text, args, values = describe_focus(ctx, dec)
    sec = "Where the word looks"
    return [
        Claim(
            "ReadingAttention",
            "One row: one word's attention",
            "largest",
            {"context": 0, "stage": "attention", "row": fi, "column": top, "others": False},
            {"weight": float(w[top])},
            # Translators: "the longest" bar of the row: its weight, and the word it goes to
            who(
                ctx,
                top,
                N_("The longest, {weight}, goes to itself."),
                N_("The longest, {weight}, goes to {word}."),
                weight=fmt(w[top], dec),
            ),
        ),
        Claim(
            "ReadingAttention",
            "One row: one word's attention",
            "rows_sum_to_one",
            {"context": 0, "stage": "attention", "rows": [fi]},
            {"sum": float(w.sum())},
            _("The weights add up to one."),
        ),
        Claim("ReadingAttention", sec, "runner_up", args, values, text),
        Claim("ReadingAttention", sec, "runner_up", args, values, text, "caption"),
    ]


# --- Mixing the values ---------------------------------------------------------------------------


def mixing_claims(trace: LessonTrace) -> list[Claim]:
    ctx, dec = trace.contexts[0], trace.decimals
    fi, n = ctx.focus_index, ctx.n
    w = ctx.attention[fi]
    row = {"context": 0, "stage": "attention", "row": fi}
    j0 = argmax(w, range(n))
    me, fields = j0 == fi, {"word": quote(ctx.tokens[j0]), "weight": fmt(w[j0], dec)}
    sec = "Weight times vector"
    if w[j0] > 0.5:
        words = {"most of": spec("share", **row, columns=[j0])}
        out = [Claim("MixingValues", sec, "most_of", {**row, "column": j0, "words": words}, {"weight": float(w[j0])},
                     (_("{word} itself, weighted {weight}, keeps most of its vector") if me else
                      _("{word}, weighted {weight}, keeps most of its vector")).format(**fields))]
    else:
        out = [Claim("MixingValues", sec, "largest", {**row, "column": j0, "others": False}, {"weight": float(w[j0])},
                     (_("{word} itself has the largest weight, {weight}") if me else
                      _("{word} has the largest weight, {weight}")).format(**fields))]
    tiny = [j for j in range(n) if pick(float(w[j]), "tiny weights")]
    if tiny:
        words = {"tiny weights": spec("largest", **row, columns=tiny)}
        out.append(Claim("MixingValues", sec, "small_weights", {**row, "columns": tiny, "words": words},
                         {ctx.tokens[j]: float(w[j]) for j in tiny}, _("words with tiny weights almost vanish")))
    others = [j for j in range(n) if j != fi]
    sec = "Its own vector plus its neighbours'"
    if others:
        b = argmax(w, others)
        out.append(Claim("MixingValues", sec, "largest", {**row, "column": b, "others": True}, {"weight": float(w[b])},
                         _("{own} times its own vector, plus {weight} times {word}").format(
                             own=fmt(w[fi], dec), weight=said(w[b], dec), word=quote(ctx.tokens[b]))))
        rest = [j for j in others if j != b]
        if rest and all(w[j] < SMALL for j in rest):
            words = {"a little of the rest": spec("largest", **row, columns=rest)}
            out.append(Claim("MixingValues", sec, "small_weights", {**row, "columns": rest, "words": words},
                             {ctx.tokens[j]: float(w[j]) for j in rest},
                             _("plus a little of the rest")))
    return out


# --- Two contexts --------------------------------------------------------------------------------


def _leans_in(trace: LessonTrace, c: int) -> Claim:
    """Where the focus word's output of context ``c`` leans (its largest dimension), said of that sentence."""
    ctx, dims, m = trace.contexts[c], trace.lesson.dimensions, len(trace.contexts)
    o = ctx.output[ctx.focus_index]
    k = int(np.argmax(o))
    return Claim("TwoContexts", "Different contexts, different outputs", "leans",
                 {"contexts": [c], "dimensions": [dims[k]], "stage": "output"}, {"value": float(o[k])},
                 # Translators: {where} is "in the first sentence", "in the second"...;
                 # {dimension} a dimension's name
                 _("{where} it leans {dimension}, at {value}").format(where=inside_sentence(c, m), dimension=dims[k],
                                                                      value=fmt(o[k], trace.decimals)))


def two_contexts_claims(trace: LessonTrace) -> list[Claim]:
    ctxs, dec, m = trace.contexts, trace.decimals, len(trace.contexts)
    out = []
    if len({c.focus for c in ctxs}) == 1:
        args, focus = {"word": ctxs[0].focus, "contexts": list(range(m))}, quote(ctxs[0].focus)
        out += [Claim("TwoContexts", "Same word, same input vector", "same_vector", args, {},
                      (_("In each sentence, {focus} starts from exactly the same vector") if m > 1 else
                       _("In its sentence, {focus} starts from exactly the same vector")).format(focus=focus)),
                Claim("TwoContexts", "Same word, same input vector", "same_vector", args, {},
                      (_("In every sentence, {focus} starts from the same embedding vector.") if m > 1 else
                       _("In its sentence, {focus} starts from the same embedding vector.")).format(focus=focus),
                      "caption")]
    for c, ctx in enumerate(ctxs):
        fi = ctx.focus_index
        others = [j for j in range(ctx.n) if j != fi]
        if others:
            j = argmax(ctx.attention[fi], others)
            out.append(Claim("TwoContexts", "Attention mixes in the sentence", "largest",
                             {"context": c, "stage": "attention", "row": fi, "column": j, "others": True},
                             {"weight": float(ctx.attention[fi, j])},
                             # Translators: the words a focus word looks at most, and in which sentence
                             # ("“cat” in the first sentence")
                             _("{words} {where}").format(words=quoted_list(tied_words(ctx, ctx.attention[fi], others,
                                                                                      j)),
                                                         where=inside_sentence(c, m))))
    sec = "Different contexts, different outputs"
    shown = {tuple(fmt(x, dec) for x in ctx.output[ctx.focus_index]) for ctx in ctxs}
    one = len({c.focus for c in ctxs}) == 1
    if m > 1:
        if len(shown) > 1:
            text = (_("So the outputs of {focus} differ") if one else _("So the outputs of the focus word differ"))
        else:
            text = (_("So do the outputs of {focus} differ? At this precision they look the same") if one else
                    _("So do the outputs of the focus word differ? At this precision they look the same"))
        out.append(Claim("TwoContexts", sec, "differ", {"contexts": list(range(m)), "stage": "output",
                                                        "differ": len(shown) > 1},
                         {}, text.format(focus=quote(ctxs[0].focus))))
    leans = [_leans_in(trace, c) for c in range(m)]
    out += leans
    won = [str(cl.args["dimensions"][0]) for cl in leans]
    if len(set(won)) == 1:
        text = _("Same input, and here every output leans {dimension}.").format(dimension=won[0])
    elif len(won) == 2:
        text = _("Same input, different outputs: {dimension}-like here, {other}-like there.").format(
            dimension=won[0], other=won[1])
    else:
        # Translators: {dimensions} lists "animal-like", "tech-like"... (the next message), separated as a list is
        text = _("Same input, different outputs: {dimensions}.").format(
            dimensions=pgettext("separator of a list of outputs", ", ").join(
                _("{dimension}-like").format(dimension=w) for w in won))
    out.append(Claim("TwoContexts", sec, "leans", {"contexts": list(range(m)), "dimensions": won, "stage": "output"},
                     {}, text, "caption"))
    return out
