"""The claims on word order: without positions a shuffled sentence gives the same outputs;
with them the outputs change, most in the dimension where they differ most, and the lean
"with positions" is the largest entry of the output with positions.
"""

from __future__ import annotations

import numpy as np

from ..display import fmt, shown_value
from ..i18n import N_, _
from ..lexicon import measure, pick, spec
from ..trace import LessonTrace, trace_row
from .model import Claim
from .wording import movement, quote, sentence_opening


def _same_output(trace: LessonTrace) -> list[Claim]:
    ctx, dec, m = trace.contexts[0], trace.decimals, len(trace.contexts)
    out = ctx.output[ctx.focus_index]
    k = int(np.argmax(out))
    dim = trace.lesson.dimensions[k]
    args = {"contexts": list(range(m)), "stage": "output", "other": "shuffled_output", "same": True}
    sec = "The same output in any order"
    return [
        Claim(
            "WordOrder",
            sec,
            "same_row",
            args,
            {},
            _("So {focus} gets the same output, shuffled or not").format(focus=quote(ctx.focus)),
        ),
        Claim(
            "WordOrder",
            sec,
            "leans",
            {"contexts": [0], "dimensions": [dim], "stage": "shuffled_output"},
            # Translators: {dimension} is a dimension's name in the lesson ("0.58 animal in both")
            {"value": float(out[k])},
            _("{value} {dimension} in both").format(value=fmt(out[k], dec), dimension=dim),
        ),
        Claim(
            "WordOrder", sec, "same_row", args, {}, _("Shuffled or not: the same output, digit for digit."), "caption"
        ),
    ]


def _order_counts(trace: LessonTrace) -> list[Claim]:
    dec, m, dims = trace.decimals, len(trace.contexts), trace.lesson.dimensions
    sec, pair = "Now the order counts", {"stage": "positional_output", "other": "shuffled_positional_output"}
    out, moved = [], []
    for c, ctx in enumerate(trace.contexts):
        f = ctx.focus_index
        a, b = (trace_row(trace, c, s, f) for s in (pair["stage"], pair["other"]))
        if [fmt(x, dec) for x in a] == [fmt(x, dec) for x in b]:
            out.append(Claim("WordOrder", sec, "same_row", {**pair, "contexts": [c], "same": True}, {},
                             # Translators: {where} is "In the first sentence", "In its sentence"...
                             _("{where}, the digits stay the same.").format(where=sentence_opening(c, m))))
            continue
        moved.append(c)
        k = int(np.argmax(np.abs(a - b)))
        out.append(Claim("WordOrder", sec, "change",
                         {"contexts": [c], "columns": [[k]], "from": pair["stage"], "to": pair["other"], "widest": True,
                          "change": [movement(shown_value(a[k], dec), shown_value(b[k], dec))]},
                         {"in_order": float(a[k]), "shuffled": float(b[k])},
                         _("{where}, {dimension}: {in_order} in order, {shuffled} shuffled.").format(
                             where=sentence_opening(c, m), dimension=dims[k], in_order=fmt(a[k],
                                                                                           dec), shuffled=fmt(b[k],
                                                                                                              dec))))
    focus = quote(trace.contexts[0].focus)
    if moved:
        lead = [Claim("WordOrder", sec, "same_row", {**pair, "contexts": moved, "same": False}, {},
                      _("With positions, shuffling changes the output of {focus}.").format(focus=focus)),
                Claim("WordOrder", sec, "same_row", {**pair, "contexts": moved, "same": False}, {},
                      _("With positions, the order of the words counts."), "caption")]
    else:
        every = {**pair, "contexts": list(range(m)), "same": True}
        lead = [Claim("WordOrder", sec, "same_row", every, {},
                      _("With positions, shuffling could change the output of {focus}; "
                        "at this precision it does not.").format(focus=focus)),
                Claim("WordOrder", sec, "same_row", every, {},
                      _("With positions, the order could count; here the digits do not show it."), "caption")]
    return lead + out


def _lean(trace: LessonTrace, c: int, m: int) -> list[Claim]:
    ctx, dec, dims, sec = trace.contexts[c], trace.decimals, trace.lesson.dimensions, "What the numbers show"
    f = ctx.focus_index
    a, b = ctx.output[f], ctx.positional.output[f]
    before, after = int(np.argmax(a)), int(np.argmax(b))

    def lean(stage: str, k: int, text: str, values: dict[str, float]) -> Claim:
        return Claim(
            "WordOrder", sec, "leans", {"contexts": [c], "dimensions": [dims[k]], "stage": stage}, values, text
        )

    if before == after:
        k = int(np.argmax(np.abs(b - a)))
        moved = movement(shown_value(a[k], dec), shown_value(b[k], dec))
        still = _("{where}, {focus} still leans {dimension}").format(
            where=sentence_opening(c, m), focus=quote(ctx.focus), dimension=dims[after]
        )
        return [lean("output", before, still, {"value": float(a[before])}),
                lean("positional_output", after, still, {"value": float(b[after])}),
                Claim("WordOrder", sec, "change",
                      {"contexts": [c], "columns": [[k]], "from": "output", "to": "positional_output", "widest": True,
                       "change": [moved]}, {"without": float(a[k]), "with": float(b[k])},
                      _("its {dimension} value moves from {a} to {b}").format(dimension=dims[k], a=fmt(a[k], dec),
                                                                              b=fmt(b[k], dec)) if moved != "stays"
                      else _("its {dimension} value stays at {a}").format(dimension=dims[k], a=fmt(a[k], dec)))]
    return [
        lean(
            "output",
            before,
            _("{where}, {focus} leaned {dimension}").format(
                where=sentence_opening(c, m), focus=quote(ctx.focus), dimension=dims[before]
            ),
            {"value": float(a[before])},
        ),
        lean(
            "positional_output",
            after,
            _("with positions it leans {dimension}, {value} against {other_value} {other}").format(
                dimension=dims[after], value=fmt(b[after], dec), other_value=fmt(b[before], dec), other=dims[before]
            ),
            {"value": float(b[after]), "before": float(b[before])},
        ),
    ]


def word_order_claims(trace: LessonTrace) -> list[Claim]:
    ctxs, m = trace.contexts, len(trace.contexts)
    moved = [
        c
        for c, x in enumerate(ctxs)
        if np.argmax(x.output[x.focus_index]) != np.argmax(x.positional.output[x.focus_index])
    ]
    out = [cl for c in (moved or [0]) for cl in _lean(trace, c, m)]
    where = spec("length", context=0)
    ratio = measure(where, trace)[0]
    phrase = pick(ratio, "about as large", "smaller than", "larger than") or "about as large"
    args = {"context": 0, "compare": phrase, "words": {phrase: where}}
    out.append(
        Claim(
            "WordOrder",
            "What the numbers show",
            "size_ratio",
            args,
            {"ratio": ratio},
            _(
                {
                    "about as large": N_("the position vectors are about as large as the word vectors, on average"),
                    "smaller than": N_("the position vectors are smaller than the word vectors, on average"),
                    "larger than": N_("the position vectors are larger than the word vectors, on average"),
                }[phrase]
            ),
        )
    )
    if moved:
        caption = Claim("WordOrder", "What the numbers show", "leans", out[1].args, out[1].values,
                        _("With d this small, positions also move the meaning; real models use hundreds."), "caption")
    else:
        caption = Claim("WordOrder", "What the numbers show", "change", out[2].args, out[2].values,
                        _("With d this small, positions move the numbers; real models use hundreds.")
                        if out[2].args["change"] != ["stays"] else
                        _("Here positions barely move the numbers shown; real models use hundreds."), "caption")
    return _same_output(trace) + _order_counts(trace) + out + [caption]
