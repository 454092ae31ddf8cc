"""How the claims word what they point at, shared by every topic: a word in quotes, a list of
words, which sentence or which head, the word a row gives most weight to (the first one on
a tie, every tied word where that matters), and the thresholds said in words.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..display import fmt
from ..i18n import N_, _, list_of, pgettext, quoted
from ..lexicon import LEXICON
from ..trace import ContextTrace, LessonTrace

#: English ordinal words (kept for the scenes that still use them; the claims say which sentence
#: through whole translated phrases, see :func:`inside_sentence`).
ORDINALS = ("first", "second", "third", "fourth")

#: A head "learned to find" (or "looks at") words when its focus row puts at least this much on them.
HEAD_FINDS = 0.5

#: Position vectors are "about as large as the word vectors" from this ratio of mean lengths (the lexicon's).
AS_LARGE = LEXICON["about as large"].lo

#: The share of attention the training claim asks for, in words (a caption holds no digit;
#: English keys: translate with ``_`` where they are said).
SHARE_WORDS = {0.5: N_("half"), 0.25: N_("a quarter"), 1 / 3: N_("a third")}


def quote(word: str) -> str:
    return quoted(word)


def quoted_list(words: Sequence[str]) -> str:
    return list_of([quoted(w) for w in words])


def who(ctx: ContextTrace, j: int, itself: str, other: str, **fields: str) -> str:
    """``itself`` when word ``j`` is the focus word, else ``other`` with ``{word}`` = word ``j``
    (two whole sentence templates, translated), filled with ``fields``."""
    if j == ctx.focus_index:
        return _(itself).format(**fields)
    return _(other).format(word=quote(ctx.tokens[j]), **fields)


def inside_sentence(c: int, m: int) -> str:
    """Which sentence, inside a sentence: "in the first sentence", "in the second" ... ("in its sentence")."""
    if m == 1:
        return pgettext("which sentence, inside a clause", "in its sentence")
    return (pgettext("which sentence, inside a clause", "in the first sentence") if c == 0 else
            pgettext("which sentence, inside a clause", "in the second") if c == 1 else
            pgettext("which sentence, inside a clause", "in the third") if c == 2 else
            pgettext("which sentence, inside a clause", "in the fourth") if c == 3 else
            pgettext("which sentence, inside a clause", "in the next"))


def sentence_opening(c: int, m: int) -> str:
    """Context ``c`` of ``m``: "In the first sentence", ... ("In its sentence" when alone)."""
    if m == 1:
        return pgettext("which sentence, opening a clause", "In its sentence")
    return (pgettext("which sentence, opening a clause", "In the first sentence") if c == 0 else
            pgettext("which sentence, opening a clause", "In the second sentence") if c == 1 else
            pgettext("which sentence, opening a clause", "In the third sentence") if c == 2 else
            pgettext("which sentence, opening a clause", "In the fourth sentence") if c == 3 else
            pgettext("which sentence, opening a clause", "In the next sentence"))


def head_subject(k: int, h: int) -> str:
    """Head ``k`` of ``h`` as the subject of a sentence: "the first head", ... ("the head" when alone)."""
    if h == 1:
        return pgettext("a head of multi-head attention, as a subject", "the head")
    if k < 4:
        return (pgettext("a head of multi-head attention, as a subject", "the first head") if k == 0 else
                pgettext("a head of multi-head attention, as a subject", "the second head") if k == 1 else
                pgettext("a head of multi-head attention, as a subject", "the third head") if k == 2 else
                pgettext("a head of multi-head attention, as a subject", "the fourth head"))
    return pgettext("a head of multi-head attention, as a subject", "the head {n}").format(n=fmt(k + 1, 0))


def and_at(groups: Sequence[str]) -> str:
    """Groups of words a word looks at: "“cat” and at “mouse”"."""
    out = groups[0]
    for more in groups[1:]:
        # Translators: joins two groups of words the focus word looks at ("looks at “cat” and at “mouse”")
        out = _("{words} and at {more}").format(words=out, more=more)
    return out


def argmax(row: np.ndarray, among: Sequence[int]) -> int:
    return max(among, key=lambda j: float(row[j]))


def tied_words(ctx: ContextTrace, row: np.ndarray, among: Sequence[int], j: int) -> list[str]:
    """The words of ``among`` whose weight equals word ``j``'s, ``j``'s first, each once: on
    a tie (words with the same vector), naming only the first would be arbitrary."""
    tied = [j, *(k for k in among if k != j and np.isclose(row[k], row[j], rtol=0.0, atol=1e-12))]
    return list(dict.fromkeys(ctx.tokens[k] for k in tied))


def focus_words(trace: LessonTrace) -> str:
    return quoted_list(list(dict.fromkeys(c.focus for c in trace.contexts)))


def senses_of(trace: LessonTrace, c: int) -> list[int]:
    return list(trace.contexts[c].causal.mask_cost.sense_positions)


def has_history(trace: LessonTrace) -> bool:
    t = trace.training
    return t is not None and len(t.loss) >= 2 and bool(t.snapshots)


def movement(a: float, b: float) -> str:
    return "rises" if b > a else "falls" if b < a else "stays"
