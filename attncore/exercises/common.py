"""What every kind of exercise shares: the named mistakes (:data:`MISTAKES`), where the
lecture explains each kind (:data:`PLACES`) and what it practises (:data:`TITLES`); the
candidates a kind draws from (pairs of words, cells, rows, entries); how a question writes
words, vectors and rows in the viewer's language; and :func:`make_exercise`, which fills the
record.

A kind's builder takes a candidate (context, then the positions it is about) and returns an
:class:`~attncore.exercises.Exercise`, or None when that candidate gives no clean question:
wrong options that would read like the answer, a total of zero, a worked solution that
cannot be redone from its shown numbers within :data:`MAX_EXTRA` extra decimals. Every wrong
option is the exact value a named mistake gives, shown at the answer's decimals.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..display import decimals_needed, fmt, shown_value
from ..i18n import N_, _, pgettext, quoted
from ..lesson_model import EXP_LIMIT
from ..trace import ContextTrace, LessonTrace
from .model import Choice, Exercise, Work, plain

#: The most decimals a given number gets beyond the lesson's, so that a worked step redoes exactly.
MAX_EXTRA = 4


# Translators: a named mistake is shown after a wrong option ("0.26: forgot √d") and completes
# the sentence "Not quite: this is what you get if you {mistake}.": translate it as a phrase
# that reads right in both places (e.g. French « oublié √d », German „√d vergessen“).
#: The named mistakes, by kind (the text of each wrong option's tag; an option carries it
#: translated into the viewer's language).
MISTAKES = {
    "dot_product": (
        N_("used the wrong row"),
        N_("added instead of multiplying"),
        N_("forgot a term"),
        N_("multiplied the sums"),
    ),
    "scaled_score": (N_("forgot √d"), N_("divided by d"), N_("multiplied by √d"), N_("divided by 2")),
    "attention_weight": (
        N_("forgot √d"),
        N_("divided by d"),
        N_("took the softmax over the column"),
        N_("used the wrong row"),
        N_("forgot the exponential"),
    ),
    "weighted_sum": (
        N_("used the wrong row"),
        N_("used the column of the attention matrix"),
        N_("left out the weights"),
        N_("took the plain average"),
        N_("used the wrong dimension"),
    ),
    "leans": (
        N_("read the input vector"),
        N_("read another word's output"),
        N_("took the margin over the smallest value"),
        N_("read the other context"),
    ),
    "causal_mask": (
        N_("hid the words before it"),
        N_("hid the word itself too"),
        N_("hid nothing"),
        N_("hid every other word"),
    ),
    "projection": (
        N_("used a row of W_Q instead of a column"),
        N_("used the wrong word's row"),
        N_("used the wrong column"),
        N_("forgot a term"),
    ),
    "head_shape": (
        N_("forgot to split into heads"),
        N_("took the shape of W_Q's block"),
        N_("transposed it"),
        N_("took the number of heads as the width"),
        N_("multiplied d by h"),
        N_("took the attention matrix"),
        N_("took one head's width"),
        N_("took the heads as the rows"),
    ),
}

#: Where the lecture explains each kind: (scene, section).
PLACES = {
    "dot_product": ("DotProducts", "One score, term by term"),
    "scaled_score": ("Scaling", "Divide every score by √d"),
    "exponential": ("Softmax", "Exponentiate the scores"),
    "row_sum": ("Softmax", "Exponentiate the scores"),
    "attention_weight": ("Softmax", "Divide by the sum"),
    "weighted_sum": ("MixingValues", "Adding them up"),
    "leans": ("TwoContexts", "Different contexts, different outputs"),
    "projection": ("LearnedProjections", "Queries, keys and values"),
    "head_shape": ("MultiHead", "Split into heads"),
    "causal_mask": ("CausalMask", "Only the words before"),
}

#: What each kind practises (translated where an exercise is made).
TITLES = {
    "dot_product": N_("A dot product, term by term"),
    "scaled_score": N_("A scaled score"),
    "exponential": N_("An exponential"),
    "row_sum": N_("A row's sum of exponentials"),
    "attention_weight": N_("One attention weight"),
    "weighted_sum": N_("One entry of the weighted sum"),
    "leans": N_("Which sense the output leans to"),
    "projection": N_("One entry of Q = X·W_Q"),
    "head_shape": N_("A multi-head shape"),
    "causal_mask": N_("What the causal mask hides"),
}


def q(word: str) -> str:
    """A lesson word in the viewer's quotation marks."""
    return quoted(word)


def numbers_sep() -> str:
    # Translators: between the numbers of a vector, "(0.5, 1.5)"; where the decimal sign is a
    # comma, a semicolon keeps them apart ("(0,5 ; 1,5)").
    return pgettext("between numbers", ", ")


def words_sep() -> str:
    # Translators: between the words or dimension names of a list, "animal, tech, grammar".
    return pgettext("between words", ", ")


def names_text(names: Sequence[str]) -> str:
    return words_sep().join(names)


def vector_text(v: Sequence[float], decimals: int) -> str:
    return "(" + numbers_sep().join(fmt(x, decimals) for x in v) + ")"


def row_text(v: Sequence[float], decimals: int) -> str:
    return numbers_sep().join(fmt(x, decimals) for x in v)


def labelled_numbers(word: str, numbers: str) -> str:
    """A word and its numbers, one given: "“cat”: (0.5, 1.5)"."""
    return _("{word}: {numbers}").format(word=word, numbers=numbers)


def word_line(word: str) -> str:
    """The label of a worked line about one word: "“cat”:"."""
    return _("{word}:").format(word=word)


def input_decimals(m: Any, dec: int) -> int:
    """Decimals that show every typed input exactly (never more than the lesson's)."""
    return decimals_needed(m, dec)


def make_exercise(kind: str, number: int, context: int, where: dict[str, Any], prompt: str, givens: Sequence[str],
              answer_text: str, answer: float | None, decimals: int, solution: Sequence[Work],
              options: tuple[Choice, ...] = ()) -> Exercise:
    scene, section = PLACES[kind]
    return Exercise(number=number, kind=kind, title=_(TITLES[kind]), scene=scene, section=section, context=context,
                    where=where, prompt=prompt, givens=tuple(givens), answer_text=answer_text, answer=answer,
                    decimals=decimals, choices=options, solution=tuple(solution))


def named_mistake(name: str, value: float | None, decimals: int) -> Choice:
    if value is None or not math.isfinite(value):
        return Choice("", _(name), float("nan"))
    return Choice(fmt(value, decimals), _(name), float(value))


def other_position(rng: random.Random, tokens: Sequence[str], i: int) -> int | None:
    """Another position whose word differs from word ``i`` (seeded), or None."""
    others = [k for k, t in enumerate(tokens) if t != tokens[i]]
    return rng.choice(others) if others else None


def softmax_row(row: np.ndarray) -> np.ndarray:
    e = np.exp(row - row.max())
    return np.asarray(e / e.sum())


def sentence_text(ct: ContextTrace) -> str:
    return q(ct.context.sentence)


def square_root(d: int, decimals: int) -> tuple[str, float, str]:
    """√d as shown (an integer when d is a square), the number shown, and that number in an expression."""
    r = math.sqrt(d)
    rd = 0 if r == round(r) else decimals
    return fmt(r, rd), shown_value(r, rd), plain(r, rd)


def pairs(trace: LessonTrace) -> list[tuple[int, ...]]:
    return [(c, i, j) for c, ct in enumerate(trace.contexts) for i in range(ct.n) for j in range(ct.n)
            if ct.tokens[i] != ct.tokens[j]]


def nonzero_pairs(trace: LessonTrace) -> list[tuple[int, ...]]:
    return [(c, i, j) for c, i, j in pairs(trace) if abs(trace.contexts[c].scores[i, j]) > 1e-9]


def cells(trace: LessonTrace) -> list[tuple[int, ...]]:
    return [(c, i, j) for c, ct in enumerate(trace.contexts) for i in range(ct.n) for j in range(ct.n)
            if math.exp(float(ct.scaled[i, j])) <= EXP_LIMIT]  # one a student can write down (not e^62)


def rows(trace: LessonTrace) -> list[tuple[int, ...]]:
    return [(c, i) for c, ct in enumerate(trace.contexts) for i in range(ct.n)
            if float(np.exp(ct.scaled[i]).sum()) <= EXP_LIMIT]  # sums a student can write down (cells)


def entries(trace: LessonTrace) -> list[tuple[int, ...]]:
    """(context, word, dimension) whose column of X has at least two non-zero values: a sum worth adding."""
    return [(c, i, k) for c, ct in enumerate(trace.contexts) for i in range(ct.n) for k in range(ct.d)
            if np.count_nonzero(ct.embeddings[:, k]) >= 2]


def focus_rows(trace: LessonTrace) -> list[tuple[int, ...]]:
    return [(c,) for c in range(len(trace.contexts))]
