"""The claims on multi-head attention: what each head finds (a head "learned to find" words
when its focus row puts at least :data:`~attncore.claims.wording.HEAD_FINDS` on them), and
whether the heads differ.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..display import fmt
from ..i18n import N_, _
from ..lexicon import measure, pick, spec
from ..trace import LessonTrace
from .model import Claim, share_of
from .wording import HEAD_FINDS, argmax, head_subject, quote, quoted_list, senses_of, who


def _learned_heads(trace: LessonTrace) -> list[Claim]:
    ctx, dec = trace.contexts[0], trace.decimals
    f, cols, h = ctx.focus_index, senses_of(trace, 0), len(ctx.multi_head.heads)
    out, sec = [], "One attention per head, in parallel"
    words = quoted_list([ctx.tokens[j] for j in cols])
    # the attention rows are learned only when W_Q or W_K is; set by hand, a head "looks mostly at"
    phrase = "learned to find" if trace.training is not None and trace.training.attention_trained else "mostly"
    for k, head in enumerate(ctx.multi_head.heads):
        row, stage = np.asarray(head.attention[f]), f"head:{k}"
        name = head_subject(k, h)
        share = share_of(row, cols, dec, "shown")
        j = argmax(row, range(ctx.n))
        if share >= HEAD_FINDS and pick(share_of(row, cols, dec), phrase):
            found = {phrase: spec("share", contexts=[0], columns=[cols], stage=stage)}
            # Translators: {head} is "the first head", "the head"...
            text = (_("{head} learned to find {words} ({share})") if phrase == "learned to find" else
                    # Translators: {head} is "the first head", "the head"...; W_Q and W_K were set by hand
                    _("{head} looks mostly at {words} ({share})"))
            out.append(Claim("MultiHead", sec, "share", {"contexts": [0], "columns": [cols], "stage": stage,
                                                        "least": HEAD_FINDS, "parts": "shown", "words": found},
                             {"share": share}, text.format(head=name, words=words, share=fmt(share, dec))))
        elif share_of(row, [j], dec, "shown") >= HEAD_FINDS:
            out.append(
                Claim(
                    "MultiHead",
                    sec,
                    "share",
                    {"contexts": [0], "columns": [[j]], "stage": stage, "least": HEAD_FINDS, "parts": "shown"},
                    {"weight": float(row[j])},
                    who(ctx, j, N_("{head} looks at itself"), N_("{head} looks at {word}"), head=name),
                )
            )
        else:
            out.append(Claim("MultiHead", sec, "spread", {"context": 0, "stage": stage, "row": f, "most": HEAD_FINDS},
                             {"largest": float(row.max())},
                             _("{head} spreads its attention: nothing readable").format(head=name)))
    return _heads_too(out, trace)


def _heads_too(said: list[Claim], trace: LessonTrace) -> list[Claim]:
    """A head that finds the same words as the first head, at the same shown share, is said
    briefly ("the second head too (0.9)"), so that heads which agree are not listed at length;
    its claim still checks its own row."""
    first, dec, h = said[0], trace.decimals, len(said)
    out = [first]
    for k, c in enumerate(said[1:], start=1):
        # a head that looks at one word past HEAD_FINDS without a phrase that fits its share (the
        # elif branch of _learned_heads) records the word's weight, not a share: never "too"
        alike = (c.kind == first.kind == "share" and c.args["columns"] == first.args["columns"]
                 and "share" in c.values and "share" in first.values
                 and fmt(c.values["share"], dec) == fmt(first.values["share"], dec))
        out.append(
            replace(
                c,
                args={x: v for x, v in c.args.items() if x != "words"},
                # Translators: follows "the first head learned to find “cat” (0.9); "
                text=_("{head} too ({share})").format(head=head_subject(k, h), share=fmt(c.values["share"], dec)),
            )
            if alike
            else c
        )
    return out


def multi_head_claims(trace: LessonTrace) -> list[Claim]:
    ctx, t = trace.contexts[0], trace.training
    f, h, sec = ctx.focus_index, len(ctx.multi_head.heads), "One attention per head, in parallel"
    if t is not None and t.trained and t.claims_hold and senses_of(trace, 0):
        out = _learned_heads(trace)
    elif h > 1:
        out = []
        for k in range(2):
            row = np.asarray(ctx.multi_head.heads[k].attention[f])
            j = argmax(row, range(ctx.n))
            text = (who(ctx, j, N_("{focus} looks most at itself in the first head"),
                         N_("{focus} looks most at {word} in the first head"), focus=quote(ctx.focus)) if k == 0
                    # Translators: a fragment that follows "“mouse” looks most at “cat” in the first head, "
                    else who(ctx, j, N_("at itself in the second"), N_("at {word} in the second")))
            out.append(Claim("MultiHead", sec, "largest", {"context": 0, "stage": f"head:{k}", "row": f, "column": j,
                                                          "others": False}, {"weight": float(row[j])}, text))
    else:
        return []
    if h > 1:
        differ = len({tuple(fmt(x, trace.decimals) for x in np.asarray(hd.attention).ravel())
                      for hd in ctx.multi_head.heads}) > 1
        where = spec("heads", context=0)
        gap = measure(where, trace)[0]
        phrase = pick(gap, "different patterns", "differ a little", "the same pattern")
        focus = quote(ctx.focus)
        text = {"different patterns": _("Different heads, different patterns: the rows of {focus} differ."),
                "differ a little": _("The heads differ a little in the row of {focus}."),
                "the same pattern": _("Here the heads agree: the same pattern in the row of {focus}.")}[
            phrase or "differ a little"].format(focus=focus)
        out.append(Claim("MultiHead", sec, "heads_differ", {"context": 0, "differ": differ,
                                                             "words": {phrase: where} if phrase else {}},
                         {"gap": gap}, text, "caption"))
    return out
