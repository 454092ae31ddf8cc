"""The claims on the causal mask: what the focus word still finds among the earlier words, and
what the mask costs it.
"""

from __future__ import annotations

from ..display import fmt, said, shown_value
from ..i18n import N_, _
from ..lexicon import pick, spec
from ..trace import LessonTrace, trace_row
from .model import Claim, share_of
from .wording import argmax, movement, quote, quoted_list, tied_words


def _finds(trace: LessonTrace) -> list[Claim]:
    dec, m, out = trace.decimals, len(trace.contexts), []
    sec = "Both contexts under the mask"
    for c, ctx in enumerate(trace.contexts):
        f = ctx.focus_index
        if f == 0:
            continue
        row = ctx.causal.attention[f]
        j = argmax(row, range(f))
        tied = tied_words(ctx, row, range(f), j)
        at = {"context": c, "stage": "causal_attention", "row": f, "column": j, "others": True}
        if pick(float(row[j]), "finds"):
            cols = [k for k in range(f) if ctx.tokens[k] in tied]
            words = {"finds": spec("each", context=c, stage="causal_attention", row=f, columns=cols)}
            out.append(Claim("CausalMask", sec, "largest", {**at, "words": words}, {"weight": float(row[j])},
                             (_("{focus} still finds {words}, {weight} each") if len(tied) > 1 else
                              _("{focus} still finds {words}, {weight}")).format(
                                 focus=quote(ctx.focus), words=quoted_list(tied), weight=fmt(row[j], dec))))
        else:
            out.append(Claim("CausalMask", sec, "largest", at, {"weight": float(row[j])},
                             _("the words before {focus} get little: the most, {weight}, goes to {words}").format(
                                 focus=quote(ctx.focus), weight=said(float(row[j]), dec), words=quoted_list(tied))))
    found = [x for x in out if "finds" in x.args.get("words", {})]
    if out and len(found) == m:  # every sentence's focus word finds a word before it
        first = out[0]
        every = spec("each", contexts=[x.args["context"] for x in found], stage="causal_attention",
                     columns=[x.args["words"]["finds"]["columns"] for x in found])
        text = (
            _("{focus} still finds the words before it.").format(focus=quote(trace.contexts[0].focus))
            if len({x.focus for x in trace.contexts}) == 1
            else _("The focus word still finds the words before it.")
        )
        out.append(Claim("CausalMask", sec, "largest", {**first.args, "words": {"finds": every}}, first.values,
                         text, "caption"))
    return out


def _costs(trace: LessonTrace) -> list[Claim]:
    dec, out = trace.decimals, []
    for c, ctx in enumerate(trace.contexts):
        cost, f = ctx.causal.mask_cost, ctx.focus_index
        cols = list(cost.sense_positions)
        if not cols:
            later = list(range(f + 1, ctx.n))
            if not later:
                continue
            j = argmax(ctx.attention[f], later)
            w = float(ctx.attention[f, j])
            # a positive weight that shows as zero is said "under 0.1", never "its 0.0"
            gone = _("its {weight} of the attention is gone") if shown_value(w, dec) != 0 or w == 0 else \
                _("the little attention it got, {weight}, is gone")
            cols, text = [j], gone.format(weight=said(w, dec))
        else:
            a, b = said(float(cost.unmasked), dec), said(float(cost.causal), dec)
            moved = movement(shown_value(cost.unmasked, dec), shown_value(cost.causal, dec))
            if cost.hidden_positions:
                change = {"stays": N_("the share of the sense words stays at {b}"),
                          "rises": N_("the share of the sense words rises from {a} to {b}"),
                          "falls": N_("the share of the sense words falls from {a} to {b}")}
            else:
                change = {"stays": N_("their share stays at {b}"), "rises": N_("their share rises from {a} to {b}"),
                          "falls": N_("their share falls from {a} to {b}")}
            text = _(change[moved]).format(a=a, b=b)
        was, now = (share_of(trace_row(trace, c, s, f), cols, dec) for s in ("attention", "causal_attention"))
        out.append(Claim("CausalMask", "What the mask costs", "change",
                         {"contexts": [c], "columns": [cols], "from": "attention", "to": "causal_attention",
                          "change": [movement(shown_value(was, dec), shown_value(now, dec))]},
                         {"unmasked": was, "causal": now}, text))
    return out


def causal_claims(trace: LessonTrace) -> list[Claim]:
    ctx, dec = trace.contexts[0], trace.decimals
    sec = "Every row still sums to one"
    every = {"context": 0, "stage": "causal_attention", "rows": list(range(ctx.n))}
    return [Claim("CausalMask", sec, "largest", {"context": 0, "stage": "causal_attention", "row": 0, "column": 0,
                                                "others": False}, {"weight": float(ctx.causal.attention[0, 0])},
                  _("{word}, the first word, sees only itself: weight {weight}").format(
                      word=quote(ctx.tokens[0]), weight=fmt(ctx.causal.attention[0, 0], dec))),
            # Translators: a fragment: the scene adds the sum, as shown ("every row still sums to 1.00")
            Claim("CausalMask", sec, "rows_sum_to_one", every, {}, _("every row still sums to")),
            Claim("CausalMask", sec, "rows_sum_to_one", every, {},
                  _("Right of the line: hidden, weight zero. Every row still sums to one."), "caption"),
            *_finds(trace), *_costs(trace)]
