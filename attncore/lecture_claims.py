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

from .claims import LITTLE, SMALL, STRONG_SHARE, Claim, holds, stage_row
from .display import decimals_needed, fmt, plain
from .later_claims import LATER_BUILDERS, _quoted, _tied_words
from .lexicon import pick, spec

if TYPE_CHECKING:
    from .trace import ContextTrace, LessonTrace

__all__ = ["ORDINALS", "clearest_word", "lesson_claims", "section_claims", "sentence_words"]

ORDINALS = ("first", "second", "third", "fourth")


def _q(word: str) -> str:
    return f"“{word}”"


def _listed(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _who(ctx: ContextTrace, j: int) -> str:
    """Word ``j`` of the focus word's sentence: "itself" when it is the focus word."""
    return "itself" if j == ctx.focus_index else _q(ctx.tokens[j])


def _argmax(values: Sequence[float] | np.ndarray, among: Sequence[int]) -> int:
    """The index among ``among`` with the largest value, the first one on a tie."""
    return max(among, key=lambda j: float(values[j]))


def _where(c: int, m: int) -> str:
    """Which sentence, inside a sentence: "in the first sentence", "in the second" ... ("in its sentence")."""
    if m == 1:
        return "in its sentence"
    return f"in the {ORDINALS[c] if c < len(ORDINALS) else 'next'}" + (" sentence" if c == 0 else "")


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
    shown = fmt(v[k], emb_dec)

    def claim(kind: str, text: str, where: str = "narration") -> Claim:
        return Claim("Embeddings", "Reading a vector", kind, args, values, text, where)

    if other <= LITTLE * v[k]:
        return [claim("strong_in", f"Take {_q(word)}: it has {shown} in {dim} and little anywhere else, "
                                   f"so its vector says: this word is about {dim}."),
                claim("strong_in", f"{_q(word)} is strong in {dim} and weak elsewhere.", "caption")]
    return [claim("strongest_in", f"Take {_q(word)}: its largest value, {shown}, is in {dim}, so its vector says: "
                                  f"this word is more about {dim} than about anything else."),
            claim("strongest_in", f"{_q(word)} is strongest in {dim}.", "caption")]


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
        out += [Claim("Embeddings", sec, "strong_in_each", args, values, f"Its vector is strong in {_listed(strong)} at once."),
                Claim("Embeddings", sec, "strong_in_each", args, values,
                      f"{_q(focus)} has one vector, strong in {_listed(strong)}: which meaning is meant?", "caption")]
    where = [c for c, ctx in enumerate(trace.contexts) if focus in ctx.tokens]
    quoted = _listed([_q(trace.contexts[c].context.sentence) for c in where])
    text = (f"The sentences {quoted} use exactly the same vector for it." if len(where) > 1
            else f"The sentence {quoted} uses this vector for it.")
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
                         f"Take {_q(ctx.tokens[i])} and {_q(ctx.tokens[j])}, the word it matches most among the others."))
    best = _argmax(ctx.scores[i], range(n))
    args = {"context": 0, "stage": "scores", "row": i, "column": best, "others": False}
    values = {"score": float(ctx.scores[i, best])}
    sec, row = "A similarity, not yet a weight", f"In the row of {_q(ctx.tokens[i])}, the largest score"
    return out + [
        Claim("DotProducts", sec, "largest", args, values, f"{row}, {fmt(ctx.scores[i, best], dec)}, is with {_who(ctx, best)}."),
        Claim("DotProducts", sec, "largest", args, values, f"{row} is with {_who(ctx, best)}.", "caption"),
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
                 f"Without the division, {_q(ctx.focus)} would give {fmt(raw[p], dec)} of its attention to {_who(ctx, p)}.")]
    if raw[p] > 0.5:
        words = {"most of": spec("share", context=0, stage="unscaled_attention", row=fi, columns=[p])}
        out.append(Claim("Scaling", sec, "most_of", {**at, "words": words}, {"weight": float(raw[p])},
                         "Without scaling, one word takes most of the weight.", "caption"))
    else:
        out.append(Claim("Scaling", sec, "largest", {**at, "others": False}, {"weight": float(raw[p])},
                         "Without scaling, the largest score takes the biggest share.", "caption"))
    w = ctx.attention[fi]
    q = _argmax(w, range(n))
    at = {"context": 0, "stage": "attention", "row": fi, "column": q}
    sec = "Softmax with scaling"
    if fmt(w[q], dec) != fmt(1.0, dec):
        out.append(Claim("Scaling", sec, "keeps_share", at, {"weight": float(w[q])},
                         f"With it, {_q(ctx.focus) + ' itself' if q == fi else _q(ctx.tokens[q])} gets {fmt(w[q], dec)} "
                         "and the other words keep a share"))
    else:
        words = {"most of": spec("share", context=0, stage="attention", row=fi, columns=[q])}
        out.append(Claim("Scaling", sec, "most_of", {**at, "words": words}, {"weight": float(w[q])},
                         f"With it, {_who(ctx, q)} still gets {fmt(w[q], dec)}: these scores are so far apart that "
                         "even scaled, one word takes most of the weight"))
    if float(plain(w[q], dec)) < float(plain(raw[p], dec)):
        out.append(Claim("Scaling", sec, "flatter", {"context": 0, "row": fi},
                         {"largest_scaled": float(w[q]), "largest_unscaled": float(raw[p])},
                         "With scaling, the weight is shared more evenly among the words.", "caption"))
    return out


# --- 5 · Softmax ---------------------------------------------------------------------------


def softmax_claims(trace: LessonTrace) -> list[Claim]:
    ctx = trace.contexts[0]
    fi = ctx.focus_index
    every = {"context": 0, "stage": "attention", "rows": list(range(ctx.n))}
    sums = {"largest_error": float(np.abs(ctx.attention.sum(axis=1) - 1).max())}
    return [
        Claim("Softmax", "Divide by the sum", "rows_sum_to_one", {"context": 0, "stage": "attention", "rows": [fi]},
              {"sum": float(ctx.attention[fi].sum())}, "The weights are positive and add up to one.", "caption"),
        Claim("Softmax", "The attention matrix", "rows_sum_to_one", every, sums, "Every row sums to one."),
        Claim("Softmax", "The attention matrix", "rows_sum_to_one", every, sums,
              "Every row sums to one: each word shares out its attention.", "caption"),
    ]


# --- 6 · Reading the attention matrix ------------------------------------------------------


def describe_focus(ctx: ContextTrace, stage: str = "attention") -> tuple[str, dict[str, Any], dict[str, float]]:
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
    if about:
        words["about as much"] = spec("ratio", **where, columns=[first, second])
        text = f"{_q(ctx.focus)} looks at {_who(ctx, first)} and {_who(ctx, second)} about as much"
    else:
        most = "mostly" if pick(float(w[first]), "mostly") else "most"
        if most == "mostly":
            words["mostly"] = spec("share", **where, columns=[first])
        text = f"{_q(ctx.focus)} looks {most} at {_who(ctx, first)}" + (f", then at {_who(ctx, second)}" if ctx.n > 1 else "")
    rest = order[2:]
    largest_rest = max((float(w[j]) for j in rest), default=0.0)
    said = pick(largest_rest, "barely count", "count a little", "still count") if rest else None
    if said:
        words[said] = spec("largest", **where, columns=rest)
    text += f"; the others {said}." if said else "."
    args = {**where, "first": first, "second": second, "about_as_much": about,
            "rest": {"barely count": "barely", "count a little": "a little", "still count": "still"}.get(said or "", "none"),
            "words": words}
    return text, args, {"first": float(w[first]), "second": float(w[second]), "largest_rest": largest_rest}


def reading_claims(trace: LessonTrace) -> list[Claim]:
    ctx, dec = trace.contexts[0], trace.decimals
    fi = ctx.focus_index
    w = ctx.attention[fi]
    top = _argmax(w, range(ctx.n))
    text, args, values = describe_focus(ctx)
    sec = "Where the word looks"
    return [
        Claim("ReadingAttention", "One row: one word's attention", "largest",
              {"context": 0, "stage": "attention", "row": fi, "column": top, "others": False},
              {"weight": float(w[top])}, f"The longest, {fmt(w[top], dec)}, goes to {_who(ctx, top)}."),
        Claim("ReadingAttention", "One row: one word's attention", "rows_sum_to_one",
              {"context": 0, "stage": "attention", "rows": [fi]}, {"sum": float(w.sum())}, "The weights add up to one."),
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
    who = f"{_q(ctx.tokens[j0])} itself" if j0 == fi else _q(ctx.tokens[j0])
    sec = "Weight times vector"
    if w[j0] > 0.5:
        words = {"most of": spec("share", **row, columns=[j0])}
        out = [Claim("MixingValues", sec, "most_of", {**row, "column": j0, "words": words}, {"weight": float(w[j0])},
                     f"{who}, weighted {fmt(w[j0], dec)}, keeps most of its vector")]
    else:
        out = [Claim("MixingValues", sec, "largest", {**row, "column": j0, "others": False}, {"weight": float(w[j0])},
                     f"{who} has the largest weight, {fmt(w[j0], dec)}")]
    tiny = [j for j in range(n) if pick(float(w[j]), "tiny weights")]
    if tiny:
        words = {"tiny weights": spec("largest", **row, columns=tiny)}
        out.append(Claim("MixingValues", sec, "small_weights", {**row, "columns": tiny, "words": words},
                         {ctx.tokens[j]: float(w[j]) for j in tiny}, "words with tiny weights almost vanish"))
    others = [j for j in range(n) if j != fi]
    sec = "Its own vector plus its neighbours'"
    if others:
        b = _argmax(w, others)
        out.append(Claim("MixingValues", sec, "largest", {**row, "column": b, "others": True}, {"weight": float(w[b])},
                         f"{fmt(w[fi], dec)} times its own vector, plus {fmt(w[b], dec)} times {_q(ctx.tokens[b])}"))
        rest = [j for j in others if j != b]
        if rest and all(w[j] < SMALL for j in rest):
            words = {"a little of the rest": spec("largest", **row, columns=rest)}
            out.append(Claim("MixingValues", sec, "small_weights", {**row, "columns": rest, "words": words},
                             {ctx.tokens[j]: float(w[j]) for j in rest}, "plus a little of the rest"))
    return out


# --- 8 · Two contexts ----------------------------------------------------------------------


def two_contexts_claims(trace: LessonTrace) -> list[Claim]:
    ctxs, dec, m = trace.contexts, trace.decimals, len(trace.contexts)
    dims = trace.lesson.dimensions
    out = []
    if len({c.focus for c in ctxs}) == 1:
        where = "In each sentence" if m > 1 else "In its sentence"
        args = {"word": ctxs[0].focus, "contexts": list(range(m))}
        out += [Claim("TwoContexts", "Same word, same input vector", "same_vector", args, {},
                      f"{where}, {_q(ctxs[0].focus)} starts from exactly the same vector"),
                Claim("TwoContexts", "Same word, same input vector", "same_vector", args, {},
                      f"{'In every sentence' if m > 1 else 'In its sentence'}, {_q(ctxs[0].focus)} starts from the same embedding vector.",
                      "caption")]
    for c, ctx in enumerate(ctxs):
        fi = ctx.focus_index
        others = [j for j in range(ctx.n) if j != fi]
        if others:
            j = _argmax(ctx.attention[fi], others)
            out.append(Claim("TwoContexts", "Attention mixes in the sentence", "largest",
                             {"context": c, "stage": "attention", "row": fi, "column": j, "others": True},
                             {"weight": float(ctx.attention[fi, j])},
                             f"{_quoted(_tied_words(ctx, ctx.attention[fi], others, j))} {_where(c, m)}"))
    sec = "Different contexts, different outputs"
    shown = {tuple(fmt(x, dec) for x in ctx.output[ctx.focus_index]) for ctx in ctxs}
    who = _q(ctxs[0].focus) if len({c.focus for c in ctxs}) == 1 else "the focus word"
    if m > 1:
        out.append(Claim("TwoContexts", sec, "differ", {"contexts": list(range(m)), "stage": "output", "differ": len(shown) > 1},
                         {}, f"So the outputs of {who} differ" if len(shown) > 1
                         else f"So do the outputs of {who} differ? At this precision they look the same"))
    won = []
    for c, ctx in enumerate(ctxs):
        o = ctx.output[ctx.focus_index]
        k = int(np.argmax(o))
        won.append(dims[k])
        out.append(Claim("TwoContexts", sec, "leans", {"contexts": [c], "dimensions": [dims[k]], "stage": "output"},
                         {"value": float(o[k])}, f"{_where(c, m)} it leans {dims[k]}, at {fmt(o[k], dec)}"))
    if len(set(won)) == 1:
        text = f"Same input, and here every output leans {won[0]}."
    elif len(won) == 2:
        text = f"Same input, different outputs: {won[0]}-like here, {won[1]}-like there."
    else:
        text = "Same input, different outputs: " + ", ".join(f"{w}-like" for w in won) + "."
    out.append(Claim("TwoContexts", sec, "leans", {"contexts": list(range(m)), "dimensions": won, "stage": "output"},
                     {}, text, "caption"))
    return out


# --- the lecture ---------------------------------------------------------------------------

BUILDERS = (embeddings_claims, dot_products_claims, scaling_claims, softmax_claims, reading_claims, mixing_claims,
            two_contexts_claims, *LATER_BUILDERS)

_CACHE: dict[int, tuple[LessonTrace, tuple[Claim, ...]]] = {}


def lesson_claims(trace: LessonTrace) -> tuple[Claim, ...]:
    """Every claim of the lecture for ``trace``, in lecture order, each checked (computed once per trace)."""
    hit = _CACHE.get(id(trace))
    if hit is None or hit[0] is not trace:
        claims = tuple(c for build in BUILDERS for c in build(trace))
        holds(claims, trace)
        if len(_CACHE) > 8:
            _CACHE.clear()
        hit = _CACHE[id(trace)] = (trace, claims)
    return hit[1]


def section_claims(trace: LessonTrace, scene: str, section: str, kind: str | None = None,
                   where: str = "narration") -> list[Claim]:
    """The claims of one section (said, or ``where="caption"`` shown), of one ``kind`` if given."""
    return [c for c in lesson_claims(trace) if c.scene == scene and c.section == section and c.where == where
            and (kind is None or c.kind == kind)]
