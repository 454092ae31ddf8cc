"""The claims on the learned projections and the value size: where the focus row now looks
most and what that word got before, and whether W_V changes the dimension.
"""

from __future__ import annotations

import numpy as np

from ..display import fmt, said, shown_value
from ..i18n import N_, _
from ..trace import LessonTrace
from .model import Claim, share_of
from .wording import argmax, movement, quote, quoted_list, senses_of, who

# --- Learned projections -------------------------------------------------------------------------


def projections_claims(trace: LessonTrace) -> list[Claim]:
    ctx, dec, t = trace.contexts[0], trace.decimals, trace.training
    f, sec = ctx.focus_index, "A new attention pattern"
    new, old = ctx.projected.attention[f], ctx.attention[f]
    j = argmax(new, range(ctx.n))
    out = [Claim("LearnedProjections", sec, "change",
                 {"contexts": [0], "columns": [[j]], "from": "attention", "to": "projected_attention", "top": True,
                  "change": [movement(shown_value(old[j], dec), shown_value(new[j], dec))], "variant": "numbers"},
                 {"before": float(old[j]), "now": float(new[j])},
                 who(ctx, j, N_("{focus} now gives {now} to itself, against {before} before"),
                      N_("{focus} now gives {now} to {word}, against {before} before"),
                      focus=quote(ctx.focus), now=fmt(new[j], dec), before=said(old[j], dec))),
           Claim("LearnedProjections", sec, "largest",
                 {"context": 0, "stage": "projected_attention", "row": f, "column": j, "others": False,
                  "variant": "tiles"}, {"weight": float(new[j])},
                 who(ctx, j, N_("In the row of {focus}, the most attention now goes to itself"),
                      N_("In the row of {focus}, the most attention now goes to {word}"), focus=quote(ctx.focus)))]
    cols = senses_of(trace, 0)
    if t is None or not t.trained or not cols:
        return out
    if not t.claims_hold:
        return out + [Claim("LearnedProjections", sec, "learned", {"holds": False}, {},
                            _("The training fell short, so read no meaning into it."))]
    learned = Claim("LearnedProjections", sec, "learned", {"holds": True}, {},
                    # Translators: a fragment ("W_Q and W_K learned: 0.71 of its attention goes to “cat”")
                    _("W_Q and W_K learned") if t.attention_trained else
                    # Translators: a fragment, like "W_Q and W_K learned": both were given in the lesson file
                    _("W_Q and W_K were set by hand, not learned"))
    if cols == [j]:
        return out + [learned]
    args = {"contexts": [0], "columns": [cols], "stage": "projected_attention", "least": 0.0}
    return out + [
        learned,
        Claim(
            "LearnedProjections",
            sec,
            "share",
            args,
            {},
            _("{share} of its attention goes to {words}").format(
                share=fmt(share_of(new, cols, dec), dec), words=quoted_list([ctx.tokens[k] for k in cols])
            ),
        ),
    ]


# --- Changing the dimension ----------------------------------------------------------------------


def dimension_claims(trace: LessonTrace) -> list[Claim]:
    d, d_v = np.asarray(trace.weights.W_V_reshape).shape
    compare = "more" if d_v > d else "fewer" if d_v < d else "same"
    args, values = {"compare": compare}, {"d": float(d), "d_v": float(d_v)}
    said = {
        "more": (N_("This one has more columns than rows, so every word gets a longer value vector, of size d_v."),
                 N_("This W_V has d rows and more columns, d_v: it is not square."),
                 N_("So every word gets a value vector V of size d_v instead of d.")),
        "fewer": (N_("This one has fewer columns than rows, so every word gets a shorter value vector, of size d_v."),
                  N_("This W_V has d rows but only d_v columns: it is not square."),
                  N_("So every word gets a value vector V of size d_v instead of d.")),
        "same": (N_("This one happens to be square, but any number of columns, d_v, would work."),
                 N_("This W_V happens to be square: d_v equals d, but it need not."),
                 N_("So every word gets a value vector V of size d_v, here equal to d.")),
    }[compare]
    sec = "A value map of another size"
    return [Claim("ChangingDimension", sec, "value_size", args, values, _(said[0])),
            Claim("ChangingDimension", sec, "value_size", args, values, _(said[1]), "caption"),
            Claim("ChangingDimension", sec, "value_size", args, values, _(said[2]), "caption")]
