"""The claims on the word vectors: the clearest word of a dimension (the largest margin of its
value over its other |values|, among the sentences' words, never a focus word), and the
focus word's one vector for two meanings.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..display import decimals_needed, fmt
from ..i18n import _, list_of
from ..lexicon import spec
from ..trace import LessonTrace
from .model import LITTLE, STRONG_SHARE, Claim
from .wording import quote, quoted_list


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
    fields = {"word": quote(word), "value": fmt(v[k], emb_dec), "dimension": dim}

    def claim(kind: str, text: str, where: str = "narration") -> Claim:
        return Claim("Embeddings", "Reading a vector", kind, args, values, text, where)

    if other <= LITTLE * v[k]:
        # Translators: {dimension} is a dimension's name in the lesson ("animal")
        return [
            claim(
                "strong_in",
                _(
                    "Take {word}: it has {value} in {dimension} and little anywhere else, "
                    "so its vector says: this word is about {dimension}."
                ).format(**fields),
            ),
            claim("strong_in", _("{word} is strong in {dimension} and weak elsewhere.").format(**fields), "caption"),
        ]
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
        args = {
            "word": focus,
            "dimensions": strong,
            "words": {"strong in": spec("strength", word=focus, dimensions=strong)},
        }
        values = {d: float(v[dims.index(d)]) for d in strong}
        # Translators: {dimensions} lists dimensions' names in the lesson ("animal and tech")
        out += [Claim("Embeddings", sec, "strong_in_each", args, values,
                      _("Its vector is strong in {dimensions} at once.").format(dimensions=list_of(strong))),
                Claim("Embeddings", sec, "strong_in_each", args, values,
                      _("{word} has one vector, strong in {dimensions}: which meaning is meant?").format(
                          word=quote(focus), dimensions=list_of(strong)), "caption")]
    where = [c for c, ctx in enumerate(trace.contexts) if focus in ctx.tokens]
    quoted = quoted_list([trace.contexts[c].context.sentence for c in where])
    text = (_("The sentences {sentences} use exactly the same vector for it.") if len(where) > 1
            else _("The sentence {sentences} uses this vector for it.")).format(sentences=quoted)
    out.append(Claim("Embeddings", sec, "same_vector", {"word": focus, "contexts": where}, {}, text))
    return out


def embeddings_claims(trace: LessonTrace) -> list[Claim]:
    words = sentence_words(trace)
    emb_dec = decimals_needed([trace.lesson.vector(w) for w in words], trace.decimals)
    return _reading_a_vector(trace, emb_dec) + _two_meanings(trace)
