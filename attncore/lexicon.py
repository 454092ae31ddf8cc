"""Calibrated words: each qualitative word the lecture says about numbers is a range of a
measurable quantity, stated once here (as climate reports define "likely" as 66-100 %).

A claim that uses one of these phrases names, in ``args["words"]``, the phrase and what it
measures (a :data:`Measure` spec: which row, which columns, which contexts); :func:`measure`
computes that quantity from the trace, and :func:`attncore.claims.check` fails a claim
whose text uses a phrase it does not declare, or whose measured quantity lies outside the
phrase's range. The claim builders pick their words with :func:`pick`, from the same table,
and say the numbers plainly (or say nothing) when no word fits. docs/reference/claims.md's table is
:func:`table`.

Pure Python over the trace; no Manim.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from .i18n import N_, language, translations
from .trace import LessonTrace, trace_row

__all__ = ["LEXICON", "Word", "fits", "measure", "phrase_in", "phrases_in", "pick", "spec", "table"]


@dataclass(frozen=True)
class Word:
    """``phrase`` fits a quantity ``x`` of kind ``quantity`` when ``lo <= x < hi`` (``hi_closed``:
    ``x <= hi``; ``lo_open``: ``lo < x``)."""

    phrase: str
    quantity: str  # one of QUANTITIES
    lo: float = -np.inf
    hi: float = np.inf
    lo_open: bool = False
    hi_closed: bool = False
    example: str = ""

    def fits(self, x: float) -> bool:
        above = x > self.lo if self.lo_open else x >= self.lo
        below = x <= self.hi if self.hi_closed else x < self.hi
        return bool(above and below)

    def range_text(self) -> str:
        lo = "" if self.lo == -np.inf else f"{_num(self.lo)} {'<' if self.lo_open else '≤'} "
        hi = "" if self.hi == np.inf else f" {'≤' if self.hi_closed else '<'} {_num(self.hi)}"
        return f"{lo}x{hi}"


def _num(x: float) -> str:
    return f"{x:.4g}"


#: What each kind of quantity is (the column "x is" of docs/reference/claims.md).
QUANTITIES: dict[str, str] = {
    "share": "the weights a row gives the named words, added (one word: its weight)",
    "each": "the smallest of the named words' weights in a row (each of them)",
    "largest": "the largest of the named words' weights in a row",
    "ratio": "the second word's weight over the first's, in the same row",
    "strength": "a word's value in a dimension over the largest |value| of its vector",
    "elsewhere": "a word's largest |value| in the other dimensions over its value in the named one",
    "length": "the mean length of the position vectors over the mean length of the word vectors",
    "heads": "the largest difference between two heads' weights in the focus word's row",
}

#: Every calibrated phrase. A phrase is found in a text as whole words.
LEXICON: dict[str, Word] = {w.phrase: w for w in (
    # Translators: a calibrated phrase (so are the next ones): every sentence that says it must
    # contain this translation word for word (a test checks it), and no phrase may lie inside another.
    Word(N_("almost all"), "share", 0.9, example="gives almost all of its attention to “cat”"),
    Word(N_("most of"), "share", 0.5, lo_open=True, example="keeps most of its vector"),
    Word(N_("mostly"), "share", 0.5, lo_open=True, example="looks mostly at itself"),
    Word(N_("at least half"), "share", 0.5, 0.9, example="at least half of its attention"),
    Word(N_("finds"), "each", 0.1, example="still finds “cat”"),
    Word(N_("learned to find"), "share", 0.5, example="the first head learned to find “cat”"),
    Word(N_("barely count"), "largest", -np.inf, 0.05, example="the others barely count"),
    Word(N_("count a little"), "largest", 0.05, 0.2, example="the others count a little"),
    Word(N_("still count"), "largest", 0.2, example="the others still count"),
    Word(N_("a little of the rest"), "largest", -np.inf, 0.2, example="plus a little of the rest"),
    Word(N_("tiny weights"), "largest", -np.inf, 0.05, example="words with tiny weights almost vanish"),
    Word(N_("about as much"), "ratio", 0.8, hi_closed=True, hi=1.0, example="looks at itself and “cat” about as much"),
    Word(N_("strong in"), "strength", 2 / 3, example="strong in animal and tech"),
    Word(N_("little anywhere else"), "elsewhere", -np.inf, 1 / 3, hi_closed=True, example="little anywhere else"),
    Word(N_("weak elsewhere"), "elsewhere", -np.inf, 1 / 3, hi_closed=True, example="weak elsewhere"),
    Word(N_("about as large"), "length", 0.8, 1.25, hi_closed=True, example="about as large as the word vectors"),
    Word(N_("smaller than"), "length", -np.inf, 0.8, example="smaller than the word vectors"),
    # hi_closed: word vectors all zero (a lesson may type them) make the ratio infinite: larger still
    Word(N_("larger than"), "length", 1.25, lo_open=True, hi_closed=True, example="larger than the word vectors"),
    Word(N_("different patterns"), "heads", 0.1, example="different heads, different patterns"),
    Word(N_("differ a little"), "heads", 0.05, 0.1, example="the heads differ a little"),
    Word(N_("the same pattern"), "heads", -np.inf, 0.05, example="every head finds the same pattern"),
)}
assert all(w.quantity in QUANTITIES for w in LEXICON.values())
# no phrase inside another, so that a text's phrases are found one by one (see phrases_in)
assert not any(p != q and p in q for p in LEXICON for q in LEXICON)



def phrase_in(phrase: str, lang: str | None = None) -> str:
    """``phrase`` (a key of :data:`LEXICON`) as the language ``lang`` (the current one when None)
    says it: its translation in the catalogue, never bracketed by :func:`~attncore.i18n.set_pseudo`."""
    lang = lang or language()
    return phrase if lang == "en" else translations(lang).gettext(phrase)


#: Languages written without spaces between words: a phrase is found anywhere in a text.
_UNSPACED = ("zh",)


@cache
def _patterns(lang: str, said: tuple[str, ...]) -> dict[str, re.Pattern[str]]:
    """Each phrase's pattern in ``lang``, where the phrases are ``said`` (their translations, in
    :data:`LEXICON`'s order: a lesson's own catalogue may say them otherwise), as whole words, in any case."""
    return {p: re.compile(re.escape(w) if lang in _UNSPACED else rf"(?<![\w-]){re.escape(w)}(?![\w-])", re.IGNORECASE)
            for p, w in zip(LEXICON, said, strict=True)}


def fits(phrase: str, x: float) -> bool:
    """Whether ``phrase`` may be said of the quantity ``x``."""
    return LEXICON[phrase].fits(float(x))


def pick(x: float, *phrases: str) -> str | None:
    """The first of ``phrases`` that fits ``x`` (None: no word fits; say the numbers)."""
    return next((p for p in phrases if fits(p, x)), None)


def phrases_in(text: str, lang: str | None = None) -> list[str]:
    """The calibrated phrases ``text`` (written in ``lang``, the current language when None) uses,
    each once, by their English key: a translated text is searched for each phrase's translation."""
    lang = lang or language()
    return [p for p, pat in _patterns(lang, tuple(phrase_in(p, lang) for p in LEXICON)).items() if pat.search(text)]


Measure = Mapping[str, Any]


def spec(quantity: str, **where: Any) -> dict[str, Any]:
    """What a phrase measures: ``spec("share", context=0, stage="attention", row=2, columns=[1])``;
    ``contexts=[...]`` with ``columns=[[...], ...]`` measures each context (every one must fit)."""
    assert quantity in QUANTITIES, quantity
    return {"quantity": quantity, **where}


def measure(m: Measure, trace: LessonTrace) -> list[float]:
    """The quantity ``m`` names, from the trace: one value per context it names."""
    q = m["quantity"]
    if q in ("share", "each", "largest", "ratio"):
        contexts = m.get("contexts", [m.get("context", 0)])
        columns = m["columns"] if "contexts" in m else [m["columns"]]
        out = []
        for c, cols in zip(contexts, columns, strict=True):
            row_index = m.get("row", trace.contexts[c].focus_index)
            row = np.asarray(trace_row(trace, c, m["stage"], row_index), dtype=np.float64)
            if q == "share":
                out.append(float(sum(row[j] for j in cols)))
            elif q == "each":
                out.append(float(min(row[j] for j in cols)))
            elif q == "largest":
                out.append(float(max(row[j] for j in cols)))
            else:
                first, second = cols
                out.append(float(row[second] / row[first]) if row[first] > 0 else np.inf)
        return out
    if q in ("strength", "elsewhere"):
        v = np.asarray(trace.lesson.vector(m["word"]), dtype=np.float64)
        dims = list(trace.lesson.dimensions)
        ks = [dims.index(d) for d in m["dimensions"]]
        if q == "strength":
            top = float(np.abs(v).max())
            return [float(v[k] / top) if top > 0 else 0.0 for k in ks]
        k = ks[0]
        others = np.abs(np.delete(v, k))
        return [float(others.max() / v[k]) if v[k] > 0 and others.size else (0.0 if v[k] > 0 else np.inf)]
    if q == "length":
        ctx = trace.contexts[m.get("context", 0)]
        pe = float(np.mean(np.linalg.norm(ctx.positional.encoding, axis=1)))
        words = float(np.mean(np.linalg.norm(ctx.embeddings, axis=1)))
        return [pe / words if words > 0 else np.inf]
    if q == "heads":
        ctx = trace.contexts[m.get("context", 0)]
        rows = [np.asarray(h.attention[ctx.focus_index], dtype=np.float64) for h in ctx.multi_head.heads]
        return [max((float(np.abs(a - b).max()) for i, a in enumerate(rows) for b in rows[i + 1:]), default=0.0)]
    raise ValueError(f"unknown quantity {q!r}")


def check_words(text: str, words: Mapping[str, Measure], trace: LessonTrace) -> str | None:
    """None when every calibrated phrase of ``text`` is declared in ``words`` and fits what it
    measures; else one line saying which does not."""
    for phrase in phrases_in(text):
        if phrase not in words:
            return f"says {phrase!r} without saying what it measures"
        word = LEXICON[phrase]
        m = words[phrase]
        if m["quantity"] != word.quantity:
            return f"{phrase!r} measures {word.quantity}, not {m['quantity']}"
        for x in measure(m, trace):
            if not word.fits(x):
                return f"{phrase!r} needs {word.range_text()} ({QUANTITIES[word.quantity]}); here x = {x:.4g}"
    return None


def table() -> str:
    """The table of calibrated words in docs/reference/claims.md (Markdown)."""
    rows = ["| phrase | x is | said when | example |", "|---|---|---|---|"]
    rows += [f"| {w.phrase} | {QUANTITIES[w.quantity]} | {w.range_text()} | {w.example} |" for w in LEXICON.values()]
    return "\n".join(rows)

