"""The claims of scenes 10 to 14 (projections, dimension, heads, mask, word order); those of
scene 9 (training) are :mod:`attncore.training_claims`, which uses the helpers here.

Continues :mod:`attncore.lecture_claims` (which lists these builders in the lecture's
order); pure Python over the trace. How examples are picked:

- "now gives X to W", "still finds W", "looks most at W": W is the word with the largest
  exact weight of the row (the first one on a tie; "still finds" names every tied word);
- a share that "rises", "falls" or "stays" is judged on the numbers as shown; "more and
  more" only when it never falls from one training snapshot to the next;
- "shuffling changes the output ... in D": D is the dimension where the two outputs differ
  most; a lean "with positions" is the largest entry of the output with positions;
- a statement that does not hold is reworded or not made.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from .claims import Claim, share_of, trace_row
from .display import fmt, plain, said
from .i18n import N_, _, list_of, pgettext, quoted
from .lexicon import LEXICON, measure, pick, spec

if TYPE_CHECKING:
    from .trace import ContextTrace, LessonTrace

__all__ = ["AS_LARGE", "HEAD_FINDS", "LATER_BUILDERS", "SHARE_WORDS"]

#: A head "learned to find" (or "looks at") words when its focus row puts at least this much on them.
HEAD_FINDS = 0.5
#: Position vectors are "about as large as the word vectors" from this ratio of mean lengths (the lexicon's).
AS_LARGE = LEXICON["about as large"].lo
#: The share of attention the training claim asks for, in words (a caption holds no digit;
#: English keys: translate with ``_`` where they are said).
SHARE_WORDS = {0.5: N_("half"), 0.25: N_("a quarter"), 1 / 3: N_("a third")}


def _q(word: str) -> str:
    return quoted(word)


def _quoted(words: Sequence[str]) -> str:
    return list_of([quoted(w) for w in words])


def _who(ctx: ContextTrace, j: int, itself: str, other: str, **fields: str) -> str:
    """``itself`` when word ``j`` is the focus word, else ``other`` with ``{word}`` = word ``j``
    (two whole sentence templates, translated), filled with ``fields``."""
    if j == ctx.focus_index:
        return _(itself).format(**fields)
    return _(other).format(word=_q(ctx.tokens[j]), **fields)


def _sentence(c: int, m: int) -> str:
    """Context ``c`` of ``m``: "In the first sentence", ... ("In its sentence" when alone)."""
    if m == 1:
        return pgettext("which sentence, opening a clause", "In its sentence")
    return (pgettext("which sentence, opening a clause", "In the first sentence") if c == 0 else
            pgettext("which sentence, opening a clause", "In the second sentence") if c == 1 else
            pgettext("which sentence, opening a clause", "In the third sentence") if c == 2 else
            pgettext("which sentence, opening a clause", "In the fourth sentence") if c == 3 else
            pgettext("which sentence, opening a clause", "In the next sentence"))


def _head(k: int, h: int) -> str:
    """Head ``k`` of ``h`` as the subject of a sentence: "the first head", ... ("the head" when alone)."""
    if h == 1:
        return pgettext("a head of multi-head attention, as a subject", "the head")
    if k < 4:
        return (pgettext("a head of multi-head attention, as a subject", "the first head") if k == 0 else
                pgettext("a head of multi-head attention, as a subject", "the second head") if k == 1 else
                pgettext("a head of multi-head attention, as a subject", "the third head") if k == 2 else
                pgettext("a head of multi-head attention, as a subject", "the fourth head"))
    return pgettext("a head of multi-head attention, as a subject", "the head {n}").format(n=fmt(k + 1, 0))


def _and_at(groups: Sequence[str]) -> str:
    """Groups of words a word looks at: "“cat” and at “mouse”"."""
    out = groups[0]
    for more in groups[1:]:
        # Translators: joins two groups of words the focus word looks at ("looks at “cat” and at “mouse”")
        out = _("{words} and at {more}").format(words=out, more=more)
    return out


def _argmax(row: np.ndarray, among: Sequence[int]) -> int:
    return max(among, key=lambda j: float(row[j]))


def _tied_words(ctx: ContextTrace, row: np.ndarray, among: Sequence[int], j: int) -> list[str]:
    """The words of ``among`` whose weight equals word ``j``'s, ``j``'s first, each once: on
    a tie (words with the same vector), naming only the first would be arbitrary."""
    tied = [j, *(k for k in among if k != j and np.isclose(row[k], row[j], rtol=0.0, atol=1e-12))]
    return list(dict.fromkeys(ctx.tokens[k] for k in tied))


def _focus_words(trace: LessonTrace) -> str:
    return _quoted(list(dict.fromkeys(c.focus for c in trace.contexts)))


def _senses(trace: LessonTrace, c: int) -> list[int]:
    return list(trace.contexts[c].causal.mask_cost.sense_positions)


def _history(trace: LessonTrace) -> bool:
    t = trace.training
    return t is not None and len(t.loss) >= 2 and bool(t.snapshots)


def _val(x: float, dec: int) -> float:
    """``x`` as shown (the screen's minus sign read back)."""
    return float(plain(x, dec).replace("−", "-"))


def _moved(a: float, b: float) -> str:
    return "rises" if b > a else "falls" if b < a else "stays"


# --- 10 · Learned projections ----------------------------------------------------------------


def projections_claims(trace: LessonTrace) -> list[Claim]:
    ctx, dec, t = trace.contexts[0], trace.decimals, trace.training
    f, sec = ctx.focus_index, "A new attention pattern"
    new, old = ctx.projected.attention[f], ctx.attention[f]
    j = _argmax(new, range(ctx.n))
    out = [Claim("LearnedProjections", sec, "change",
                 {"contexts": [0], "columns": [[j]], "from": "attention", "to": "projected_attention", "top": True,
                  "change": [_moved(_val(old[j], dec), _val(new[j], dec))], "variant": "numbers"},
                 {"before": float(old[j]), "now": float(new[j])},
                 _who(ctx, j, N_("{focus} now gives {now} to itself, against {before} before"),
                      N_("{focus} now gives {now} to {word}, against {before} before"),
                      focus=_q(ctx.focus), now=fmt(new[j], dec), before=said(old[j], dec))),
           Claim("LearnedProjections", sec, "largest",
                 {"context": 0, "stage": "projected_attention", "row": f, "column": j, "others": False,
                  "variant": "tiles"}, {"weight": float(new[j])},
                 _who(ctx, j, N_("In the row of {focus}, the most attention now goes to itself"),
                      N_("In the row of {focus}, the most attention now goes to {word}"), focus=_q(ctx.focus)))]
    cols = _senses(trace, 0)
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
    return out + [learned, Claim("LearnedProjections", sec, "share", args, {},
                                 _("{share} of its attention goes to {words}").format(
                                     share=fmt(share_of(new, cols, dec), dec), words=_quoted([ctx.tokens[k] for k in cols])))]


# --- 11 · Changing the dimension --------------------------------------------------------------


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


# --- 12 · Multi-head -------------------------------------------------------------------------


def _learned_heads(trace: LessonTrace) -> list[Claim]:
    ctx, dec = trace.contexts[0], trace.decimals
    f, cols, h = ctx.focus_index, _senses(trace, 0), len(ctx.multi_head.heads)
    out, sec = [], "One attention per head, in parallel"
    words = _quoted([ctx.tokens[j] for j in cols])
    # the attention rows are learned only when W_Q or W_K is; set by hand, a head "looks mostly at"
    phrase = "learned to find" if trace.training is not None and trace.training.attention_trained else "mostly"
    for k, head in enumerate(ctx.multi_head.heads):
        row, stage = np.asarray(head.attention[f]), f"head:{k}"
        name = _head(k, h)
        share = share_of(row, cols, dec, "shown")
        j = _argmax(row, range(ctx.n))
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
            out.append(Claim("MultiHead", sec, "share", {"contexts": [0], "columns": [[j]], "stage": stage,
                                                        "least": HEAD_FINDS, "parts": "shown"}, {"weight": float(row[j])},
                             _who(ctx, j, N_("{head} looks at itself"), N_("{head} looks at {word}"), head=name)))
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
        out.append(replace(c, args={x: v for x, v in c.args.items() if x != "words"},
                           # Translators: follows "the first head learned to find “cat” (0.9); "
                           text=_("{head} too ({share})").format(head=_head(k, h), share=fmt(c.values["share"], dec)))
                   if alike else c)
    return out


def multi_head_claims(trace: LessonTrace) -> list[Claim]:
    ctx, t = trace.contexts[0], trace.training
    f, h, sec = ctx.focus_index, len(ctx.multi_head.heads), "One attention per head, in parallel"
    if t is not None and t.trained and t.claims_hold and _senses(trace, 0):
        out = _learned_heads(trace)
    elif h > 1:
        out = []
        for k in range(2):
            row = np.asarray(ctx.multi_head.heads[k].attention[f])
            j = _argmax(row, range(ctx.n))
            text = (_who(ctx, j, N_("{focus} looks most at itself in the first head"),
                         N_("{focus} looks most at {word} in the first head"), focus=_q(ctx.focus)) if k == 0
                    # Translators: a fragment that follows "“mouse” looks most at “cat” in the first head, "
                    else _who(ctx, j, N_("at itself in the second"), N_("at {word} in the second")))
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
        focus = _q(ctx.focus)
        text = {"different patterns": _("Different heads, different patterns: the rows of {focus} differ."),
                "differ a little": _("The heads differ a little in the row of {focus}."),
                "the same pattern": _("Here the heads agree: the same pattern in the row of {focus}.")}[
            phrase or "differ a little"].format(focus=focus)
        out.append(Claim("MultiHead", sec, "heads_differ", {"context": 0, "differ": differ,
                                                             "words": {phrase: where} if phrase else {}},
                         {"gap": gap}, text, "caption"))
    return out


# --- 13 · The causal mask --------------------------------------------------------------------


def _finds(trace: LessonTrace) -> list[Claim]:
    dec, m, out = trace.decimals, len(trace.contexts), []
    sec = "Both contexts under the mask"
    for c, ctx in enumerate(trace.contexts):
        f = ctx.focus_index
        if f == 0:
            continue
        row = ctx.causal.attention[f]
        j = _argmax(row, range(f))
        tied = _tied_words(ctx, row, range(f), j)
        at = {"context": c, "stage": "causal_attention", "row": f, "column": j, "others": True}
        if pick(float(row[j]), "finds"):
            cols = [k for k in range(f) if ctx.tokens[k] in tied]
            words = {"finds": spec("each", context=c, stage="causal_attention", row=f, columns=cols)}
            out.append(Claim("CausalMask", sec, "largest", {**at, "words": words}, {"weight": float(row[j])},
                             (_("{focus} still finds {words}, {weight} each") if len(tied) > 1 else
                              _("{focus} still finds {words}, {weight}")).format(
                                 focus=_q(ctx.focus), words=_quoted(tied), weight=fmt(row[j], dec))))
        else:
            out.append(Claim("CausalMask", sec, "largest", at, {"weight": float(row[j])},
                             _("the words before {focus} get little: the most, {weight}, goes to {words}").format(
                                 focus=_q(ctx.focus), weight=said(float(row[j]), dec), words=_quoted(tied))))
    found = [x for x in out if "finds" in x.args.get("words", {})]
    if out and len(found) == m:  # every sentence's focus word finds a word before it
        first = out[0]
        every = spec("each", contexts=[x.args["context"] for x in found], stage="causal_attention",
                     columns=[x.args["words"]["finds"]["columns"] for x in found])
        text = (_("{focus} still finds the words before it.").format(focus=_q(trace.contexts[0].focus))
                if len({x.focus for x in trace.contexts}) == 1 else _("The focus word still finds the words before it."))
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
            j = _argmax(ctx.attention[f], later)
            w = float(ctx.attention[f, j])
            # a positive weight that shows as zero is said "under 0.1", never "its 0.0"
            gone = _("its {weight} of the attention is gone") if _val(w, dec) != 0 or w == 0 else \
                _("the little attention it got, {weight}, is gone")
            cols, text = [j], gone.format(weight=said(w, dec))
        else:
            a, b = said(float(cost.unmasked), dec), said(float(cost.causal), dec)
            moved = _moved(_val(cost.unmasked, dec), _val(cost.causal, dec))
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
                          "change": [_moved(_val(was, dec), _val(now, dec))]},
                         {"unmasked": was, "causal": now}, text))
    return out


def causal_claims(trace: LessonTrace) -> list[Claim]:
    ctx, dec = trace.contexts[0], trace.decimals
    sec = "Every row still sums to one"
    every = {"context": 0, "stage": "causal_attention", "rows": list(range(ctx.n))}
    return [Claim("CausalMask", sec, "largest", {"context": 0, "stage": "causal_attention", "row": 0, "column": 0,
                                                "others": False}, {"weight": float(ctx.causal.attention[0, 0])},
                  _("{word}, the first word, sees only itself: weight {weight}").format(
                      word=_q(ctx.tokens[0]), weight=fmt(ctx.causal.attention[0, 0], dec))),
            # Translators: a fragment: the scene adds the sum, as shown ("every row still sums to 1.00")
            Claim("CausalMask", sec, "rows_sum_to_one", every, {}, _("every row still sums to")),
            Claim("CausalMask", sec, "rows_sum_to_one", every, {},
                  _("Right of the line: hidden, weight zero. Every row still sums to one."), "caption"),
            *_finds(trace), *_costs(trace)]


# --- 14 · Word order -------------------------------------------------------------------------


def _same_output(trace: LessonTrace) -> list[Claim]:
    ctx, dec, m = trace.contexts[0], trace.decimals, len(trace.contexts)
    out = ctx.output[ctx.focus_index]
    k = int(np.argmax(out))
    dim = trace.lesson.dimensions[k]
    args = {"contexts": list(range(m)), "stage": "output", "other": "shuffled_output", "same": True}
    sec = "The same output in any order"
    return [Claim("WordOrder", sec, "same_row", args, {},
                  _("So {focus} gets the same output, shuffled or not").format(focus=_q(ctx.focus))),
            Claim("WordOrder", sec, "leans", {"contexts": [0], "dimensions": [dim], "stage": "shuffled_output"},
                  # Translators: {dimension} is a dimension's name in the lesson ("0.58 animal in both")
                  {"value": float(out[k])}, _("{value} {dimension} in both").format(value=fmt(out[k], dec), dimension=dim)),
            Claim("WordOrder", sec, "same_row", args, {}, _("Shuffled or not: the same output, digit for digit."),
                  "caption")]


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
                             _("{where}, the digits stay the same.").format(where=_sentence(c, m))))
            continue
        moved.append(c)
        k = int(np.argmax(np.abs(a - b)))
        out.append(Claim("WordOrder", sec, "change",
                         {"contexts": [c], "columns": [[k]], "from": pair["stage"], "to": pair["other"], "widest": True,
                          "change": [_moved(_val(a[k], dec), _val(b[k], dec))]},
                         {"in_order": float(a[k]), "shuffled": float(b[k])},
                         _("{where}, {dimension}: {in_order} in order, {shuffled} shuffled.").format(
                             where=_sentence(c, m), dimension=dims[k], in_order=fmt(a[k], dec), shuffled=fmt(b[k], dec))))
    focus = _q(trace.contexts[0].focus)
    if moved:
        lead = [Claim("WordOrder", sec, "same_row", {**pair, "contexts": moved, "same": False}, {},
                      _("With positions, shuffling changes the output of {focus}.").format(focus=focus)),
                Claim("WordOrder", sec, "same_row", {**pair, "contexts": moved, "same": False}, {},
                      _("With positions, the order of the words counts."), "caption")]
    else:
        every = {**pair, "contexts": list(range(m)), "same": True}
        lead = [Claim("WordOrder", sec, "same_row", every, {},
                      _("With positions, shuffling could change the output of {focus}; at this precision it does not.").format(
                          focus=focus)),
                Claim("WordOrder", sec, "same_row", every, {},
                      _("With positions, the order could count; here the digits do not show it."), "caption")]
    return lead + out


def _lean(trace: LessonTrace, c: int, m: int) -> list[Claim]:
    ctx, dec, dims, sec = trace.contexts[c], trace.decimals, trace.lesson.dimensions, "What the numbers show"
    f = ctx.focus_index
    a, b = ctx.output[f], ctx.positional.output[f]
    before, after = int(np.argmax(a)), int(np.argmax(b))

    def lean(stage: str, k: int, text: str, values: dict[str, float]) -> Claim:
        return Claim("WordOrder", sec, "leans", {"contexts": [c], "dimensions": [dims[k]], "stage": stage}, values, text)

    if before == after:
        k = int(np.argmax(np.abs(b - a)))
        moved = _moved(_val(a[k], dec), _val(b[k], dec))
        still = _("{where}, {focus} still leans {dimension}").format(where=_sentence(c, m), focus=_q(ctx.focus),
                                                                      dimension=dims[after])
        return [lean("output", before, still, {"value": float(a[before])}),
                lean("positional_output", after, still, {"value": float(b[after])}),
                Claim("WordOrder", sec, "change",
                      {"contexts": [c], "columns": [[k]], "from": "output", "to": "positional_output", "widest": True,
                       "change": [moved]}, {"without": float(a[k]), "with": float(b[k])},
                      _("its {dimension} value moves from {a} to {b}").format(dimension=dims[k], a=fmt(a[k], dec),
                                                                              b=fmt(b[k], dec)) if moved != "stays"
                      else _("its {dimension} value stays at {a}").format(dimension=dims[k], a=fmt(a[k], dec)))]
    return [lean("output", before, _("{where}, {focus} leaned {dimension}").format(
                where=_sentence(c, m), focus=_q(ctx.focus), dimension=dims[before]), {"value": float(a[before])}),
            lean("positional_output", after,
                 _("with positions it leans {dimension}, {value} against {other_value} {other}").format(
                     dimension=dims[after], value=fmt(b[after], dec), other_value=fmt(b[before], dec), other=dims[before]),
                 {"value": float(b[after]), "before": float(b[before])})]


def word_order_claims(trace: LessonTrace) -> list[Claim]:
    ctxs, m = trace.contexts, len(trace.contexts)
    moved = [c for c, x in enumerate(ctxs) if np.argmax(x.output[x.focus_index]) != np.argmax(x.positional.output[x.focus_index])]
    out = [cl for c in (moved or [0]) for cl in _lean(trace, c, m)]
    where = spec("length", context=0)
    ratio = measure(where, trace)[0]
    phrase = pick(ratio, "about as large", "smaller than", "larger than") or "about as large"
    args = {"context": 0, "compare": phrase, "words": {phrase: where}}
    out.append(Claim("WordOrder", "What the numbers show", "size_ratio", args, {"ratio": ratio},
                     _({"about as large": N_("the position vectors are about as large as the word vectors, on average"),
                        "smaller than": N_("the position vectors are smaller than the word vectors, on average"),
                        "larger than": N_("the position vectors are larger than the word vectors, on average")}[phrase])))
    if moved:
        caption = Claim("WordOrder", "What the numbers show", "leans", out[1].args, out[1].values,
                        _("With d this small, positions also move the meaning; real models use hundreds."), "caption")
    else:
        caption = Claim("WordOrder", "What the numbers show", "change", out[2].args, out[2].values,
                        _("With d this small, positions move the numbers; real models use hundreds.")
                        if out[2].args["change"] != ["stays"] else
                        _("Here positions barely move the numbers shown; real models use hundreds."), "caption")
    return _same_output(trace) + _order_counts(trace) + out + [caption]


LATER_BUILDERS: tuple[Any, ...] = (projections_claims, dimension_claims, multi_head_claims, causal_claims,
                                   word_order_claims)
