"""The claims of the lecture, scene by scene, with the examples picked by computed criteria.

Pure Python over the trace (no manim). Each builder returns the :class:`~attncore.claims.Claim`
records of one scene; :func:`lesson_claims` returns them all, in lecture order, each
checked by its evaluator. A scene finds its own with :func:`section_claims` and says
their ``text``; the words around a claim are not factual ("Now look at ...").

How examples are picked:

- the clearest word of a dimension: the largest margin of its value over its other
  |values|, among the sentences' words, never a focus word;
- "the largest", "then at": the exact values of the trace decide (a tie goes to the
  word that comes first), not their rounded display;
- a statement that does not hold is reworded ("strongest in" instead of "little
  anywhere else") or not made.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .claims import LITTLE, MOST_TIED, SMALL, STRONG_SHARE, Claim, holds, stage_row
from .display import decimals_needed, fmt, plain, said
from .i18n import N_, _, language, list_of, pgettext
from .later_claims import LATER_BUILDERS, _q, _quoted, _tied_words, _who
from .lexicon import pick, spec
from .training_claims import training_claims

if TYPE_CHECKING:
    from .trace import ContextTrace, LessonTrace

__all__ = ["ORDINALS", "clearest_word", "lesson_claims", "section_claims", "sentence_words"]

#: English ordinal words (kept for the scenes that still use them; the claims say which sentence
#: through whole translated phrases, see :func:`_where`).
ORDINALS = ("first", "second", "third", "fourth")


def _argmax(values: Sequence[float] | np.ndarray, among: Sequence[int]) -> int:
    """The index among ``among`` with the largest value, the first one on a tie."""
    return max(among, key=lambda j: float(values[j]))


def _where(c: int, m: int) -> str:
    """Which sentence, inside a sentence: "in the first sentence", "in the second" ... ("in its sentence")."""
    if m == 1:
        return pgettext("which sentence, inside a clause", "in its sentence")
    return (pgettext("which sentence, inside a clause", "in the first sentence") if c == 0 else
            pgettext("which sentence, inside a clause", "in the second") if c == 1 else
            pgettext("which sentence, inside a clause", "in the third") if c == 2 else
            pgettext("which sentence, inside a clause", "in the fourth") if c == 3 else
            pgettext("which sentence, inside a clause", "in the next"))


# --- 1 · Embeddings ------------------------------------------------------------------------


def sentence_words(trace: LessonTrace) -> list[str]:
    """Every distinct word of the sentences, in order of first appearance (the rows of the embedding table)."""
    seen: dict[str, None] = {}
    for c in trace.contexts:
        for t in c.tokens:
            seen.setdefault(t, None)
    return list(seen)


def clearest_word(trace: LessonTrace) -> tuple[str, str] | None:
    """(word, dimension) with the largest margin of the value over the word's other |values|,
    among the sentences' words that are no focus word; None when no word is strongest anywhere.
    A tie goes to the earlier dimension, then the earlier word."""
    focus = {c.focus for c in trace.contexts}
    dims = trace.lesson.dimensions
    best: tuple[float, str, str] | None = None
    for k, dim in enumerate(dims):
        for w in sentence_words(trace):
            if w in focus:
                continue
            v = np.asarray(trace.lesson.vector(w), dtype=np.float64)
            margin = float(v[k] - (np.abs(np.delete(v, k)).max() if len(dims) > 1 else 0.0))
            if v[k] > 0 and margin > 0 and (best is None or margin > best[0]):
                best = (margin, w, dim)
    return None if best is None else (best[1], best[2])


def _reading_a_vector(trace: LessonTrace, emb_dec: int) -> list[Claim]:
    picked = clearest_word(trace)
    if picked is None:
        return []
    word, dim = picked
    v = np.asarray(trace.lesson.vector(word), dtype=np.float64)
    k = trace.lesson.dimensions.index(dim)
    other = float(np.abs(np.delete(v, k)).max()) if len(v) > 1 else 0.0
    elsewhere = spec("elsewhere", word=word, dimensions=[dim])
    words = {"little anywhere else": elsewhere, "weak elsewhere": elsewhere,
             "strong in": spec("strength", word=word, dimensions=[dim])}
    args, values = {"word": word, "dimension": dim, "words": words}, {"value": float(v[k]), "largest_other": other}
    fields = {"word": _q(word), "value": fmt(v[k], emb_dec), "dimension": dim}

    def claim(kind: str, text: str, where: str = "narration") -> Claim:
        return Claim("Embeddings", "Reading a vector", kind, args, values, text, where)

    if other <= LITTLE * v[k]:
        # Translators: {dimension} is a dimension's name in the lesson ("animal")
        return [claim("strong_in", _("Take {word}: it has {value} in {dimension} and little anywhere else, "
                                     "so its vector says: this word is about {dimension}.").format(**fields)),
                claim("strong_in", _("{word} is strong in {dimension} and weak elsewhere.").format(**fields), "caption")]
    return [claim("strongest_in", _("Take {word}: its largest value, {value}, is in {dimension}, so its vector says: "
                                    "this word is more about {dimension} than about anything else.").format(**fields)),
            claim("strongest_in", _("{word} is strongest in {dimension}.").format(**fields), "caption")]


def strong_dimensions(v: np.ndarray, dims: Sequence[str]) -> list[str]:
    """The dimensions a vector is strong in: positive, at least half its largest |value|, and
    the largest |values| of the vector (no dimension left out has a larger one)."""
    order = sorted(range(len(dims)), key=lambda k: -abs(float(v[k])))
    strong: list[str] = []
    for k in order:
        if not (v[k] > 0 and v[k] >= STRONG_SHARE * np.abs(v).max()):
            break
        strong.append(dims[k])
    return [d for d in dims if d in strong]


def _two_meanings(trace: LessonTrace) -> list[Claim]:
    focus = trace.contexts[0].focus
    dims = trace.lesson.dimensions
    v = np.asarray(trace.lesson.vector(focus), dtype=np.float64)
    strong = strong_dimensions(v, dims)
    sec = "One word, two meanings"
    out = []
    if len(strong) >= 2:
        args = {"word": focus, "dimensions": strong, "words": {"strong in": spec("strength", word=focus, dimensions=strong)}}
        values = {d: float(v[dims.index(d)]) for d in strong}
        # Translators: {dimensions} lists dimensions' names in the lesson ("animal and tech")
        out += [Claim("Embeddings", sec, "strong_in_each", args, values,
                      _("Its vector is strong in {dimensions} at once.").format(dimensions=list_of(strong))),
                Claim("Embeddings", sec, "strong_in_each", args, values,
                      _("{word} has one vector, strong in {dimensions}: which meaning is meant?").format(
                          word=_q(focus), dimensions=list_of(strong)), "caption")]
    where = [c for c, ctx in enumerate(trace.contexts) if focus in ctx.tokens]
    quoted = _quoted([trace.contexts[c].context.sentence for c in where])
    text = (_("The sentences {sentences} use exactly the same vector for it.") if len(where) > 1
            else _("The sentence {sentences} uses this vector for it.")).format(sentences=quoted)
    out.append(Claim("Embeddings", sec, "same_vector", {"word": focus, "contexts": where}, {}, text))
    return out


def embeddings_claims(trace: LessonTrace) -> list[Claim]:
    words = sentence_words(trace)
    emb_dec = decimals_needed([trace.lesson.vector(w) for w in words], trace.decimals)
    return _reading_a_vector(trace, emb_dec) + _two_meanings(trace)


# --- 3 · Dot products ----------------------------------------------------------------------


def dot_products_claims(trace: LessonTrace) -> list[Claim]:
    ctx, dec = trace.contexts[0], trace.decimals
    i, n = ctx.focus_index, ctx.n
    out = []
    others = [k for k in range(n) if k != i]
    if others:
        j = _argmax(ctx.scores[i], others)
        out.append(Claim("DotProducts", "One score, term by term", "largest",
                         {"context": 0, "stage": "scores", "row": i, "column": j, "others": True},
                         {"score": float(ctx.scores[i, j])},
                         _("Take {word} and {other}, the word it matches most among the others.").format(
                             word=_q(ctx.tokens[i]), other=_q(ctx.tokens[j]))))
    best = _argmax(ctx.scores[i], range(n))
    args = {"context": 0, "stage": "scores", "row": i, "column": best, "others": False}
    values = {"score": float(ctx.scores[i, best])}
    sec, focus, score = "A similarity, not yet a weight", _q(ctx.tokens[i]), fmt(ctx.scores[i, best], dec)
    return out + [
        Claim("DotProducts", sec, "largest", args, values,
              _who(ctx, best, N_("In the row of {focus}, the largest score, {score}, is with itself."),
                   N_("In the row of {focus}, the largest score, {score}, is with {word}."), focus=focus, score=score)),
        Claim("DotProducts", sec, "largest", args, values,
              _who(ctx, best, N_("In the row of {focus}, the largest score is with itself."),
                   N_("In the row of {focus}, the largest score is with {word}."), focus=focus), "caption"),
    ]


# --- 4 · Scaling ---------------------------------------------------------------------------


def scaling_claims(trace: LessonTrace) -> list[Claim]:
    ctx, dec = trace.contexts[0], trace.decimals
    fi, n = ctx.focus_index, ctx.n
    raw = ctx.unscaled_attention[fi]
    p = _argmax(raw, range(n))
    at = {"context": 0, "stage": "unscaled_attention", "row": fi, "column": p}
    sec = "Softmax without scaling"
    out = [Claim("Scaling", sec, "largest", {**at, "others": False}, {"weight": float(raw[p])},
                 _who(ctx, p, N_("Without the division, {focus} would give {weight} of its attention to itself."),
                      N_("Without the division, {focus} would give {weight} of its attention to {word}."),
                      focus=_q(ctx.focus), weight=fmt(raw[p], dec)))]
    if raw[p] > 0.5:
        words = {"most of": spec("share", context=0, stage="unscaled_attention", row=fi, columns=[p])}
        out.append(Claim("Scaling", sec, "most_of", {**at, "words": words}, {"weight": float(raw[p])},
                         _("Without scaling, one word takes most of the weight."), "caption"))
    else:
        out.append(Claim("Scaling", sec, "largest", {**at, "others": False}, {"weight": float(raw[p])},
                         _("Without scaling, the largest score takes the biggest share."), "caption"))
    w = ctx.attention[fi]
    q = _argmax(w, range(n))
    at = {"context": 0, "stage": "attention", "row": fi, "column": q}
    sec = "Softmax with scaling"
    if fmt(w[q], dec) != fmt(1.0, dec):
        out.append(Claim("Scaling", sec, "keeps_share", at, {"weight": float(w[q])},
                         (_("With it, {focus} itself gets {weight} and the other words keep a share") if q == fi else
                          _("With it, {word} gets {weight} and the other words keep a share")).format(
                             focus=_q(ctx.focus), word=_q(ctx.tokens[q]), weight=fmt(w[q], dec))))
    else:
        words = {"most of": spec("share", context=0, stage="attention", row=fi, columns=[q])}
        out.append(Claim("Scaling", sec, "most_of", {**at, "words": words}, {"weight": float(w[q])},
                         _who(ctx, q, N_("With it, itself still gets {weight}: these scores are so far apart that "
                                         "even scaled, one word takes most of the weight"),
                              N_("With it, {word} still gets {weight}: these scores are so far apart that "
                                 "even scaled, one word takes most of the weight"), weight=fmt(w[q], dec))))
    if float(plain(w[q], dec)) < float(plain(raw[p], dec)):
        out.append(Claim("Scaling", sec, "flatter", {"context": 0, "row": fi},
                         {"largest_scaled": float(w[q]), "largest_unscaled": float(raw[p])},
                         _("With scaling, the weight is shared more evenly among the words."), "caption"))
    return out


# --- 5 · Softmax ---------------------------------------------------------------------------


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


# --- 6 · Reading the attention matrix ------------------------------------------------------


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
    text = _(looks[2 if me is None else me]).format(focus=_q(ctx.focus), first=_q(ctx.tokens[first]),
                                                      second=_quoted([ctx.tokens[j] for j in (second, *tied)]))
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
            "rest": {"barely count": "barely", "count a little": "a little", "still count": "still"}.get(said or "", "none"),
            "words": words}
    return text, args, {"first": float(w[first]), "second": float(w[second]), "largest_rest": largest_rest}


def reading_claims(trace: LessonTrace) -> list[Claim]:
    ctx, dec = trace.contexts[0], trace.decimals
    fi = ctx.focus_index
    w = ctx.attention[fi]
    top = _argmax(w, range(ctx.n))
    text, args, values = describe_focus(ctx, dec)
    sec = "Where the word looks"
    return [
        Claim("ReadingAttention", "One row: one word's attention", "largest",
              {"context": 0, "stage": "attention", "row": fi, "column": top, "others": False},
              {"weight": float(w[top])},
              # Translators: "the longest" bar of the row: its weight, and the word it goes to
              _who(ctx, top, N_("The longest, {weight}, goes to itself."), N_("The longest, {weight}, goes to {word}."),
                   weight=fmt(w[top], dec))),
        Claim("ReadingAttention", "One row: one word's attention", "rows_sum_to_one",
              {"context": 0, "stage": "attention", "rows": [fi]}, {"sum": float(w.sum())}, _("The weights add up to one.")),
        Claim("ReadingAttention", sec, "runner_up", args, values, text),
        Claim("ReadingAttention", sec, "runner_up", args, values, text, "caption"),
    ]


# --- 7 · Mixing the values -----------------------------------------------------------------


def mixing_claims(trace: LessonTrace) -> list[Claim]:
    ctx, dec = trace.contexts[0], trace.decimals
    fi, n = ctx.focus_index, ctx.n
    w = ctx.attention[fi]
    row = {"context": 0, "stage": "attention", "row": fi}
    j0 = _argmax(w, range(n))
    me, fields = j0 == fi, {"word": _q(ctx.tokens[j0]), "weight": fmt(w[j0], dec)}
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
        b = _argmax(w, others)
        out.append(Claim("MixingValues", sec, "largest", {**row, "column": b, "others": True}, {"weight": float(w[b])},
                         _("{own} times its own vector, plus {weight} times {word}").format(
                             own=fmt(w[fi], dec), weight=said(w[b], dec), word=_q(ctx.tokens[b]))))
        rest = [j for j in others if j != b]
        if rest and all(w[j] < SMALL for j in rest):
            words = {"a little of the rest": spec("largest", **row, columns=rest)}
            out.append(Claim("MixingValues", sec, "small_weights", {**row, "columns": rest, "words": words},
                             {ctx.tokens[j]: float(w[j]) for j in rest},
                             _("plus a little of the rest")))
    return out


# --- 8 · Two contexts ----------------------------------------------------------------------


def two_contexts_claims(trace: LessonTrace) -> list[Claim]:
    ctxs, dec, m = trace.contexts, trace.decimals, len(trace.contexts)
    dims = trace.lesson.dimensions
    out = []
    if len({c.focus for c in ctxs}) == 1:
        args, focus = {"word": ctxs[0].focus, "contexts": list(range(m))}, _q(ctxs[0].focus)
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
            j = _argmax(ctx.attention[fi], others)
            out.append(Claim("TwoContexts", "Attention mixes in the sentence", "largest",
                             {"context": c, "stage": "attention", "row": fi, "column": j, "others": True},
                             {"weight": float(ctx.attention[fi, j])},
                             # Translators: the words a focus word looks at most, and in which sentence
                             # ("“cat” in the first sentence")
                             _("{words} {where}").format(words=_quoted(_tied_words(ctx, ctx.attention[fi], others, j)),
                                                         where=_where(c, m))))
    sec = "Different contexts, different outputs"
    shown = {tuple(fmt(x, dec) for x in ctx.output[ctx.focus_index]) for ctx in ctxs}
    one = len({c.focus for c in ctxs}) == 1
    if m > 1:
        if len(shown) > 1:
            text = (_("So the outputs of {focus} differ") if one else _("So the outputs of the focus word differ"))
        else:
            text = (_("So do the outputs of {focus} differ? At this precision they look the same") if one else
                    _("So do the outputs of the focus word differ? At this precision they look the same"))
        out.append(Claim("TwoContexts", sec, "differ", {"contexts": list(range(m)), "stage": "output", "differ": len(shown) > 1},
                         {}, text.format(focus=_q(ctxs[0].focus))))
    won = []
    for c, ctx in enumerate(ctxs):
        o = ctx.output[ctx.focus_index]
        k = int(np.argmax(o))
        won.append(dims[k])
        out.append(Claim("TwoContexts", sec, "leans", {"contexts": [c], "dimensions": [dims[k]], "stage": "output"},
                         {"value": float(o[k])},
                         # Translators: {where} is "in the first sentence", "in the second"...; {dimension} a dimension's name
                         _("{where} it leans {dimension}, at {value}").format(where=_where(c, m), dimension=dims[k],
                                                                            value=fmt(o[k], dec))))
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


# --- the lecture ---------------------------------------------------------------------------

BUILDERS = (embeddings_claims, dot_products_claims, scaling_claims, softmax_claims, reading_claims, mixing_claims,
            two_contexts_claims, training_claims, *LATER_BUILDERS)

_CACHE: dict[tuple[int, str], tuple[LessonTrace, tuple[Claim, ...]]] = {}


def lesson_claims(trace: LessonTrace) -> tuple[Claim, ...]:
    """Every claim of the lecture for ``trace``, in lecture order, each checked (computed once per
    trace and language: the texts are in the current language, :func:`attncore.i18n.language`)."""
    key = (id(trace), language())
    hit = _CACHE.get(key)
    if hit is None or hit[0] is not trace:
        claims = tuple(c for build in BUILDERS for c in build(trace))
        holds(claims, trace)
        if len(_CACHE) > 8:
            _CACHE.clear()
        hit = _CACHE[key] = (trace, claims)
    return hit[1]


def section_claims(trace: LessonTrace, scene: str, section: str, kind: str | None = None,
                   where: str = "narration") -> list[Claim]:
    """The claims of one section (said, or ``where="caption"`` shown), of one ``kind`` if given."""
    return [c for c in lesson_claims(trace) if c.scene == scene and c.section == section and c.where == where
            and (kind is None or c.kind == kind)]
