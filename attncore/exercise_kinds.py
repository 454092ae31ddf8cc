"""The kinds of exercise, one builder each, in lecture order (:data:`KINDS`).

A builder takes a candidate (context, then the positions it is about) and returns an
:class:`~attncore.exercises.Exercise`, or None when that candidate gives no clean
question: wrong options that would read like the answer, a total of zero, a worked
solution that cannot be redone from its shown numbers within :data:`MAX_EXTRA` extra
decimals. Every wrong option is the exact value a named mistake (:data:`MISTAKES`) gives,
shown at the answer's decimals.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .display import decimals_needed, fmt
from .exercises import Choice, Exercise, Kind, Work, choices, plain, shown_value, token
from .i18n import N_, _, ngettext, pgettext, quoted
from .lesson_model import EXP_LIMIT
from .trace import ContextTrace, LessonTrace

__all__ = ["KINDS", "MISTAKES", "PLACES"]

#: The most decimals a given number gets beyond the lesson's, so that a worked step redoes exactly.
MAX_EXTRA = 4

# Translators: a named mistake is shown after a wrong option ("0.26: forgot √d") and completes
# the sentence "Not quite: this is what you get if you {mistake}.": translate it as a phrase
# that reads right in both places (e.g. French « oublié √d », German „√d vergessen“).
#: The named mistakes, by kind (the text of each wrong option's tag; an option carries it
#: translated into the viewer's language).
MISTAKES = {
    "dot_product": (N_("used the wrong row"), N_("added instead of multiplying"), N_("forgot a term"),
                    N_("multiplied the sums")),
    "scaled_score": (N_("forgot √d"), N_("divided by d"), N_("multiplied by √d"), N_("divided by 2")),
    "attention_weight": (N_("forgot √d"), N_("divided by d"), N_("took the softmax over the column"),
                         N_("used the wrong row"), N_("forgot the exponential")),
    "weighted_sum": (N_("used the wrong row"), N_("used the column of the attention matrix"), N_("left out the weights"),
                     N_("took the plain average"), N_("used the wrong dimension")),
    "leans": (N_("read the input vector"), N_("read another word's output"),
              N_("took the margin over the smallest value"), N_("read the other context")),
    "causal_mask": (N_("hid the words before it"), N_("hid the word itself too"), N_("hid nothing"),
                    N_("hid every other word")),
    "projection": (N_("used a row of W_Q instead of a column"), N_("used the wrong word's row"),
                   N_("used the wrong column"), N_("forgot a term")),
    "head_shape": (N_("forgot to split into heads"), N_("took the shape of W_Q's block"), N_("transposed it"),
                   N_("took the number of heads as the width"), N_("multiplied d by h"),
                   N_("took the attention matrix"), N_("took one head's width"), N_("took the heads as the rows")),
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

MINUS = "\u2212"


def q(word: str) -> str:
    """A lesson word in the viewer's quotation marks."""
    return quoted(word)


def _numbers_sep() -> str:
    # Translators: between the numbers of a vector, "(0.5, 1.5)"; where the decimal sign is a
    # comma, a semicolon keeps them apart ("(0,5 ; 1,5)").
    return pgettext("between numbers", ", ")


def _words_sep() -> str:
    # Translators: between the words or dimension names of a list, "animal, tech, grammar".
    return pgettext("between words", ", ")


def _names(names: Sequence[str]) -> str:
    return _words_sep().join(names)


def _vector(v: Sequence[float], decimals: int) -> str:
    return "(" + _numbers_sep().join(fmt(x, decimals) for x in v) + ")"


def _row(v: Sequence[float], decimals: int) -> str:
    return _numbers_sep().join(fmt(x, decimals) for x in v)


def _labelled(word: str, numbers: str) -> str:
    """A word and its numbers, one given: "“cat”: (0.5, 1.5)"."""
    return _("{word}: {numbers}").format(word=word, numbers=numbers)


def _word_line(word: str) -> str:
    """The label of a worked line about one word: "“cat”:"."""
    return _("{word}:").format(word=word)


def _input_decimals(m: Any, dec: int) -> int:
    """Decimals that show every typed input exactly (never more than the lesson's)."""
    return decimals_needed(m, dec)


def _exercise(kind: str, number: int, context: int, where: dict[str, Any], prompt: str, givens: Sequence[str],
              answer_text: str, answer: float | None, decimals: int, solution: Sequence[Work],
              options: tuple[Choice, ...] = ()) -> Exercise:
    scene, section = PLACES[kind]
    return Exercise(number=number, kind=kind, title=_(TITLES[kind]), scene=scene, section=section, context=context,
                    where=where, prompt=prompt, givens=tuple(givens), answer_text=answer_text, answer=answer,
                    decimals=decimals, choices=options, solution=tuple(solution))


def _mistake(name: str, value: float | None, decimals: int) -> Choice:
    if value is None or not math.isfinite(value):
        return Choice("", _(name), float("nan"))
    return Choice(fmt(value, decimals), _(name), float(value))


def _other(rng: random.Random, tokens: Sequence[str], i: int) -> int | None:
    """Another position whose word differs from word ``i`` (seeded), or None."""
    others = [k for k, t in enumerate(tokens) if t != tokens[i]]
    return rng.choice(others) if others else None


def _softmax(row: np.ndarray) -> np.ndarray:
    e = np.exp(row - row.max())
    return np.asarray(e / e.sum())


def _sentence(ct: ContextTrace) -> str:
    return q(ct.context.sentence)


# 1. A dot product, term by term ---------------------------------------------------------
def _pairs(trace: LessonTrace) -> list[tuple[int, ...]]:
    return [(c, i, j) for c, ct in enumerate(trace.contexts) for i in range(ct.n) for j in range(ct.n)
            if ct.tokens[i] != ct.tokens[j]]


def dot_product(trace: LessonTrace, cand: tuple[int, ...], rng: random.Random, number: int) -> Exercise | None:
    c, i, j = cand
    ct, dec = trace.contexts[c], trace.decimals
    x = ct.embeddings
    xd = _input_decimals(x, dec)
    ad = max(dec, 2 * xd)  # every product of two inputs shows exactly
    s = float(ct.scores[i, j])
    terms = " + ".join(f"{token(a, xd)} * {token(b, xd)}" for a, b in zip(x[i], x[j]))
    i2 = _other(rng, ct.tokens, i)
    mistakes = [
        _mistake("used the wrong row", None if i2 is None else float(x[i2] @ x[j]), ad),
        _mistake("added instead of multiplying", float(x[i].sum() + x[j].sum()), ad),
        _mistake("forgot a term", s - float(x[i, -1] * x[j, -1]), ad),
        _mistake("multiplied the sums", float(x[i].sum() * x[j].sum()), ad),
    ]
    answer = Choice(fmt(s, ad), "", s)
    options = choices(rng, answer, mistakes)
    if options is None:
        return None
    givens = [_("dimensions: {dimensions}").format(dimensions=_names(ct.dimensions)),
              _labelled(q(ct.tokens[i]), _vector(x[i], xd)), _labelled(q(ct.tokens[j]), _vector(x[j], xd))]
    prompt = _("In {sentence}, what is the score of {word} looking at {other}: the dot product of their vectors?").format(
        sentence=_sentence(ct), word=q(ct.tokens[i]), other=q(ct.tokens[j]))
    work = [Work(_("Multiply the vectors entry by entry and add the products:"), ((terms, answer.text),))]
    return _exercise("dot_product", number, c, {"row": i, "column": j}, prompt, givens, answer.text, s, ad, work,
                     options)


# 2. A scaled score ------------------------------------------------------------------------
def _nonzero_pairs(trace: LessonTrace) -> list[tuple[int, ...]]:
    return [(c, i, j) for c, i, j in _pairs(trace) if abs(trace.contexts[c].scores[i, j]) > 1e-9]


def _root(d: int, decimals: int) -> tuple[str, float, str]:
    """√d as shown (an integer when d is a square), the number shown, and that number in an expression."""
    r = math.sqrt(d)
    rd = 0 if r == round(r) else decimals
    return fmt(r, rd), shown_value(r, rd), plain(r, rd)


def scaled_score(trace: LessonTrace, cand: tuple[int, ...], rng: random.Random, number: int) -> Exercise | None:
    c, i, j = cand
    ct, dec = trace.contexts[c], trace.decimals
    sd = max(dec, 2 * _input_decimals(ct.embeddings, dec))
    s, d = float(ct.scores[i, j]), ct.d
    want = fmt(s / math.sqrt(d), dec)
    for extra in range(MAX_EXTRA + 1):
        root_text, root, root_expr = _root(d, dec + extra)
        if fmt(s / root, dec) == want:
            break
    else:
        return None
    mistakes = [_mistake("forgot √d", s, dec), _mistake("divided by d", s / d, dec),
                _mistake("multiplied by √d", s * math.sqrt(d), dec), _mistake("divided by 2", s / 2, dec)]
    value = s / math.sqrt(d)
    options = choices(rng, Choice(want, "", value), mistakes)
    if options is None:
        return None
    prompt = _("In {sentence}, the score of {word} looking at {other} is {score}, with d = {d} dimensions. "
               "What is the scaled score?").format(sentence=_sentence(ct), word=q(ct.tokens[i]),
                                                   other=q(ct.tokens[j]), score=fmt(s, sd), d=d)
    work = [Work("√d =", ((f"sqrt({d})", root_text),)),
            Work(_("Divide the score by √d:"), ((f"{token(s, sd)} / {root_expr}", want),))]
    return _exercise("scaled_score", number, c, {"row": i, "column": j}, prompt,
                     [_("score: {score}").format(score=fmt(s, sd)), f"d = {d}"], want, value, dec, work, options)


# 3. An exponential -------------------------------------------------------------------------
def _cells(trace: LessonTrace) -> list[tuple[int, ...]]:
    return [(c, i, j) for c, ct in enumerate(trace.contexts) for i in range(ct.n) for j in range(ct.n)
            if math.exp(float(ct.scaled[i, j])) <= EXP_LIMIT]  # one a student can write down (not e^62)


def exponential(trace: LessonTrace, cand: tuple[int, ...], rng: random.Random, number: int) -> Exercise | None:
    c, i, j = cand
    ct, dec = trace.contexts[c], trace.decimals
    s = float(ct.scaled[i, j])
    want = fmt(math.exp(s), dec)
    sd = next((dec + k for k in range(MAX_EXTRA + 1) if fmt(math.exp(shown_value(s, dec + k)), dec) == want), None)
    if sd is None:
        return None
    prompt = _("In {sentence}, the scaled score of {word} looking at {other} is {score}. What is its exponential, "
               "the first step of the softmax?").format(sentence=_sentence(ct), word=q(ct.tokens[i]),
                                                         other=q(ct.tokens[j]), score=fmt(s, sd))
    work = [Work(_("e to the power of the scaled score:"), ((f"exp({plain(s, sd)})", want),))]
    return _exercise("exponential", number, c, {"row": i, "column": j}, prompt,
                     [_("scaled score: {score}").format(score=fmt(s, sd))], want, math.exp(s), dec, work)


# 4. A row's sum of exponentials ---------------------------------------------------------------
def _rows(trace: LessonTrace) -> list[tuple[int, ...]]:
    return [(c, i) for c, ct in enumerate(trace.contexts) for i in range(ct.n)
            if float(np.exp(ct.scaled[i]).sum()) <= EXP_LIMIT]  # sums a student can write down (_cells)


def _exp_lines(tokens: Sequence[str], row: Sequence[float], sd: int, ed: int) -> tuple[list[Work], list[float]]:
    """One line per word: e to its shown scaled score, shown at ``ed``; the shown exponentials."""
    lines, shown = [], []
    for w, s in zip(tokens, row):
        e = math.exp(shown_value(s, sd))
        lines.append(Work(_word_line(q(w)), ((f"exp({plain(s, sd)})", fmt(e, ed)),)))
        shown.append(shown_value(e, ed))
    return lines, shown


def row_sum(trace: LessonTrace, cand: tuple[int, ...], rng: random.Random, number: int) -> Exercise | None:
    c, i = cand
    ct, dec = trace.contexts[c], trace.decimals
    row = [float(v) for v in ct.scaled[i]]
    total = float(np.exp(ct.scaled[i]).sum())
    want = fmt(total, dec)
    for extra in range(MAX_EXTRA + 1):
        sd = ed = dec + extra
        lines, shown = _exp_lines(ct.tokens, row, sd, ed)
        if fmt(sum(shown), dec) == want:
            break
    else:
        return None
    adds = " + ".join(plain(e, ed) for e in shown)
    work = [*lines, Work(_("Add them:"), ((adds, want),))]
    prompt = _("In {sentence}, the scaled scores of {word}'s row are given. What is the sum of their exponentials, "
               "the softmax's denominator?").format(sentence=_sentence(ct), word=q(ct.tokens[i]))
    givens = [_labelled(q(w), fmt(s, sd)) for w, s in zip(ct.tokens, row)]
    return _exercise("row_sum", number, c, {"row": i}, prompt, givens, want, total, dec, work)


# 5. One attention weight ------------------------------------------------------------------------
def _weight_work(ct: ContextTrace, i: int, j: int, dec: int, extra: int) -> tuple[list[Work], str]:
    """Scale, exponentiate, add, divide: the worked lines at ``dec + extra`` decimals, and the weight shown."""
    k = dec + extra
    sd = max(dec, 2 * _input_decimals(ct.embeddings, dec))
    root_text, root, root_expr = _root(ct.d, k)
    lines = [Work("√d =", ((f"sqrt({ct.d})", root_text),))]
    exps = []
    for w, s in zip(ct.tokens, ct.scores[i]):
        scaled = shown_value(float(s) / root, k)
        e = shown_value(math.exp(scaled), k)
        exps.append(e)
        lines.append(Work(_word_line(q(w)), ((f"{token(float(s), sd)} / {root_expr}", fmt(scaled, k)),
                                             (f"exp({plain(scaled, k)})", fmt(e, k)))))
    total = shown_value(sum(exps), k)
    weight = fmt(exps[j] / total, dec)
    lines.append(Work(_("Add the exponentials:"), ((" + ".join(plain(e, k) for e in exps), fmt(total, k)),)))
    lines.append(Work(_("Divide {word}'s by the sum:").format(word=q(ct.tokens[j])),
                      ((f"{plain(exps[j], k)} / {plain(total, k)}", weight),)))
    return lines, weight


def _weight_mistakes(ct: ContextTrace, i: int, j: int, rng: random.Random, dec: int) -> list[Choice]:
    s, raw = ct.scaled, ct.scores
    i2 = _other(rng, ct.tokens, i)
    col = np.exp(s[:, j] - s[:, j].max())
    plain = float(s[i].sum())
    return [
        _mistake("forgot √d", float(_softmax(raw[i])[j]), dec),
        _mistake("divided by d", float(_softmax(raw[i] / ct.d)[j]), dec),
        _mistake("took the softmax over the column", float(col[i] / col.sum()), dec),
        _mistake("used the wrong row", None if i2 is None else float(ct.attention[i2, j]), dec),
        _mistake("forgot the exponential", float(s[i, j]) / plain if abs(plain) > 1e-9 else None, dec),
    ]


def attention_weight(trace: LessonTrace, cand: tuple[int, ...], rng: random.Random, number: int) -> Exercise | None:
    c, i, j = cand
    ct, dec = trace.contexts[c], trace.decimals
    a = float(ct.attention[i, j])
    want = fmt(a, dec)
    for extra in range(MAX_EXTRA + 1):
        work, weight = _weight_work(ct, i, j, dec, extra)
        if weight == want:
            break
    else:
        return None
    options = choices(rng, Choice(want, "", a), _weight_mistakes(ct, i, j, rng, dec))
    if options is None:
        return None
    sd = max(dec, 2 * _input_decimals(ct.embeddings, dec))
    givens = [f"d = {ct.d}", _("scores X·Xᵀ (row = query word, column = key word), columns {words}").format(
        words=_names([q(w) for w in ct.tokens]))] + [_labelled(q(w), _row(r, sd)) for w, r in zip(ct.tokens, ct.scores)]
    prompt = _("In {sentence}, how much attention does {word} give to {other}? Scale its row of scores by √d, "
               "then take the softmax of the row.").format(sentence=_sentence(ct), word=q(ct.tokens[i]),
                                                          other=q(ct.tokens[j]))
    return _exercise("attention_weight", number, c, {"row": i, "column": j}, prompt, givens, want, a, dec, work,
                     options)


# 6. One entry of the weighted sum --------------------------------------------------------------
def _entries(trace: LessonTrace) -> list[tuple[int, ...]]:
    """(context, word, dimension) whose column of X has at least two non-zero values: a sum worth adding."""
    return [(c, i, k) for c, ct in enumerate(trace.contexts) for i in range(ct.n) for k in range(ct.d)
            if np.count_nonzero(ct.embeddings[:, k]) >= 2]


def _mix_work(ct: ContextTrace, i: int, k: int, ad: int, xd: int, dec: int) -> tuple[list[Work], str]:
    lines, products = [], []
    for w, a, x in zip(ct.tokens, ct.attention[i], ct.embeddings[:, k]):
        p = shown_value(float(a), ad) * float(x)
        products.append(p)
        lines.append(Work(_word_line(q(w)), ((f"{token(float(a), ad)} * {token(float(x), xd)}", fmt(p, ad + xd)),)))
    out = fmt(sum(products), dec)
    lines.append(Work(_("Add the products:"), ((" + ".join(token(p, ad + xd) for p in products), out),)))
    return lines, out


def weighted_sum(trace: LessonTrace, cand: tuple[int, ...], rng: random.Random, number: int) -> Exercise | None:
    c, i, k = cand
    ct, dec = trace.contexts[c], trace.decimals
    a, x = ct.attention, ct.embeddings
    xd = _input_decimals(x, dec)
    value = float(ct.output[i, k])
    want = fmt(value, dec)
    for extra in range(MAX_EXTRA + 1):
        work, out = _mix_work(ct, i, k, dec + extra, xd, dec)
        if out == want:
            break
    else:
        return None
    i2, k2 = _other(rng, ct.tokens, i), rng.choice([m for m in range(ct.d) if m != k])
    mistakes = [
        _mistake("used the wrong row", None if i2 is None else float(a[i2] @ x[:, k]), dec),
        _mistake("used the column of the attention matrix", float(a[:, i] @ x[:, k]), dec),
        _mistake("left out the weights", float(x[:, k].sum()), dec),
        _mistake("took the plain average", float(x[:, k].mean()), dec),
        _mistake("used the wrong dimension", float(ct.output[i, k2]), dec),
    ]
    options = choices(rng, Choice(want, "", value), mistakes)
    if options is None:
        return None
    ad = dec + extra
    dim = ct.dimensions[k]
    givens = [_("attention (row = query word, column = key word), columns {words}").format(
        words=_names([q(w) for w in ct.tokens]))]
    givens += [_labelled(q(w), _row(r, ad)) for w, r in zip(ct.tokens, a)]
    givens += [_("value vectors V = X, dimensions {dimensions}").format(dimensions=_names(ct.dimensions))]
    givens += [_labelled(q(w), _vector(r, xd)) for w, r in zip(ct.tokens, x)]
    prompt = _("In {sentence}, the output of {word} is its attention row times the value vectors. "
               "What is its value in the dimension {dimension}?").format(sentence=_sentence(ct), word=q(ct.tokens[i]),
                                                                         dimension=q(dim))
    return _exercise("weighted_sum", number, c, {"row": i, "dimension": k}, prompt, givens, want, value, dec, work,
                     options)


# 7. Which sense the output leans to, and by how much -----------------------------------------
def _lean(v: Sequence[float], dims: Sequence[str], dec: int) -> tuple[str, float, str] | None:
    """(dimension, margin over the next largest, answer text) of a row as shown; None on a tie."""
    shown = [shown_value(float(x), dec) for x in v]
    order = sorted(range(len(shown)), key=lambda m: -shown[m])
    if shown[order[0]] == shown[order[1]]:
        return None
    margin = shown[order[0]] - shown[order[1]]
    return dims[order[0]], margin, _lean_text(dims[order[0]], margin, dec)


def _lean_text(dimension: str, margin: float, dec: int) -> str:
    # Translators: the answer "to which dimension does the output lean, and by how much": "animal, by 0.50".
    return _("{dimension}, by {margin}").format(dimension=dimension, margin=fmt(margin, dec))


def _lean_choice(name: str, v: Sequence[float] | None, dims: Sequence[str], dec: int, smallest: bool = False) -> Choice:
    if v is None:
        return Choice("", _(name), float("nan"))
    shown = [shown_value(float(x), dec) for x in v]
    top = max(range(len(shown)), key=lambda m: shown[m])
    other = min(shown) if smallest else sorted(shown)[-2]
    if not smallest and other == shown[top]:
        return Choice("", _(name), float("nan"))
    margin = shown[top] - other
    return Choice(_lean_text(dims[top], margin, dec), _(name), margin)


def _focus(trace: LessonTrace) -> list[tuple[int, ...]]:
    return [(c,) for c in range(len(trace.contexts))]


def leans(trace: LessonTrace, cand: tuple[int, ...], rng: random.Random, number: int) -> Exercise | None:
    (c,) = cand
    ct, dec = trace.contexts[c], trace.decimals
    dims = ct.dimensions
    f = ct.focus_index
    lean = _lean(ct.output[f], dims, dec)
    if lean is None:
        return None
    dim, margin, text = lean
    i2 = _other(rng, ct.tokens, f)
    others = [k for k in range(len(trace.contexts)) if k != c]
    c2 = rng.choice(others) if others else None
    mistakes = [
        _lean_choice("read the input vector", ct.embeddings[f], dims, dec),
        _lean_choice("read another word's output", None if i2 is None else ct.output[i2], dims, dec),
        _lean_choice("took the margin over the smallest value", ct.output[f], dims, dec, smallest=True),
        _lean_choice("read the other context", None if c2 is None else
                     trace.contexts[c2].output[trace.contexts[c2].focus_index], dims, dec),
    ]
    options = choices(rng, Choice(text, "", margin), mistakes)
    if options is None:
        return None
    xd = _input_decimals(ct.embeddings, dec)
    row = [shown_value(float(x), dec) for x in ct.output[f]]
    second = sorted(row)[-2]
    second_dim = dims[row.index(second)]
    givens = [_("dimensions: {dimensions}").format(dimensions=_names(dims)),
              _("input of {word}: {vector}").format(word=q(ct.focus), vector=_vector(ct.embeddings[f], xd)),
              _("outputs after attention:")] + [_labelled(q(w), _vector(r, dec)) for w, r in zip(ct.tokens, ct.output)]
    prompt = _("In {sentence}, to which dimension does the output of {word} lean, and by how much over the next "
               "largest?").format(sentence=_sentence(ct), word=q(ct.focus))
    work = [Work(_("The output of {word} (its row of outputs, not its input): {vector}").format(
                word=q(ct.focus), vector=_vector(ct.output[f], dec))),
            Work(_("Largest: {dimension} {value}; next: {other} {other_value}; the margin:").format(
                dimension=dim, value=fmt(max(row), dec), other=second_dim, other_value=fmt(second, dec)),
                 ((f"{token(max(row), dec)} - {token(second, dec)}", fmt(margin, dec)),))]
    return _exercise("leans", number, c, {"row": f}, prompt, givens, text, margin, dec, work, options)


# 8. One entry of Q = X·W_Q -----------------------------------------------------------------------
def projection(trace: LessonTrace, cand: tuple[int, ...], rng: random.Random, number: int) -> Exercise | None:
    c, i, k = cand
    ct, dec = trace.contexts[c], trace.decimals
    x, w = ct.embeddings, ct.projected.W_Q
    xd, wd = _input_decimals(x, dec), _input_decimals(w, dec)
    pd = max(dec, xd + wd)
    value = float(ct.projected.Q[i, k])
    want = fmt(value, pd)
    terms = " + ".join(f"{token(float(a), xd)} * {token(float(b), wd)}" for a, b in zip(x[i], w[:, k]))
    if fmt(sum(shown_value(float(a), xd) * shown_value(float(b), wd) for a, b in zip(x[i], w[:, k])), pd) != want:
        return None
    i2, k2 = _other(rng, ct.tokens, i), rng.choice([m for m in range(ct.d) if m != k])
    mistakes = [
        _mistake("used a row of W_Q instead of a column", float(x[i] @ w[k, :]), pd),
        _mistake("used the wrong word's row", None if i2 is None else float(x[i2] @ w[:, k]), pd),
        _mistake("used the wrong column", float(x[i] @ w[:, k2]), pd),
        _mistake("forgot a term", value - float(x[i, -1] * w[-1, k]), pd),
    ]
    options = choices(rng, Choice(want, "", value), mistakes)
    if options is None:
        return None
    givens = [_("X, dimensions {dimensions}").format(dimensions=_names(ct.dimensions))]
    givens += [_labelled(q(t), _vector(r, xd)) for t, r in zip(ct.tokens, x)]
    givens += [_("W_Q ({d}×{d}), row r for input dimension r:").format(d=ct.d)]
    givens += [_("row {r} ({dimension}): {numbers}").format(r=r + 1, dimension=name, numbers=_row(row, wd))
               for r, (name, row) in enumerate(zip(ct.dimensions, w))]
    prompt = _("In {sentence}, Q = X·W_Q. What is entry {k} of {word}'s query, Q[{word}, {k}]?").format(
        sentence=_sentence(ct), k=k + 1, word=q(ct.tokens[i]))
    work = [Work(_("{word}'s row of X times column {k} of W_Q, entry by entry, added:").format(
        word=q(ct.tokens[i]), k=k + 1), ((terms, want),))]
    return _exercise("projection", number, c, {"row": i, "column": k}, prompt, givens, want, value, pd, work, options)


# 9. A multi-head shape -------------------------------------------------------------------------------
#: What a head-shape question asks for: (its name, its shape from (n, d, h, d_h)).
SHAPES: tuple[tuple[str, Callable[[int, int, int, int], tuple[int, int]]], ...] = (
    (N_("one head's queries Q_h"), lambda n, d, h, dh: (n, dh)),
    (N_("one head's attention matrix"), lambda n, d, h, dh: (n, n)),
    (N_("one head's output"), lambda n, d, h, dh: (n, dh)),
    (N_("the heads' outputs concatenated"), lambda n, d, h, dh: (n, d)),
)


def _shape(s: tuple[int, int]) -> str:
    return f"{s[0]}×{s[1]}"


def _shapes(trace: LessonTrace) -> list[tuple[int, ...]]:
    return [(c, what) for c in range(len(trace.contexts)) for what in range(len(SHAPES))]


def head_shape(trace: LessonTrace, cand: tuple[int, ...], rng: random.Random, number: int) -> Exercise | None:
    c, what = cand
    ct = trace.contexts[c]
    n, d, h = ct.n, ct.d, len(ct.multi_head.heads)
    dh = d // h
    name, shape_of = SHAPES[what]
    shape = shape_of(n, d, h, dh)
    wrong = [("forgot to split into heads", (n, d)), ("took the shape of W_Q's block", (d, dh)),
             ("transposed it", (shape[1], shape[0])), ("took the number of heads as the width", (n, h)),
             ("multiplied d by h", (n, d * h)), ("took the attention matrix", (n, n)),
             ("took one head's width", (n, dh)), ("took the heads as the rows", (h, dh))]
    options = choices(rng, Choice(_shape(shape)), [Choice(_shape(s), _(m)) for m, s in wrong])
    if options is None:
        return None
    # (h > 1 as the English plural: "1 head", "2 heads", and "0 heads" never happens)
    prompt = ngettext("{sentence} has n = {n} words of d = {d} dimensions, and attention has h = {h} head. "
                      "What is the shape of {what} (rows × columns)?",
                      "{sentence} has n = {n} words of d = {d} dimensions, and attention has h = {h} heads. "
                      "What is the shape of {what} (rows × columns)?", h).format(
        sentence=_sentence(ct), n=n, d=d, h=h, what=_(name))
    lines = {0: _("Q_h = X·W_Q,h: one row per word, d_h = {dh} columns: {shape}."),
             1: _("Q_h·K_hᵀ: one row per query word, one column per key word: {shape}."),
             2: _("A_h·V_h: one row per word, d_h = {dh} columns: {shape}."),
             3: _("{h} outputs of {n}×{dh} side by side: {n}×{width} = {shape}.")}
    work = [Work(_("Each head works in d / h dimensions:"), ((f"{d} / {h}", str(dh)),)),
            Work(lines[what].format(dh=dh, shape=_shape(shape), h=h, n=n, width=h * dh))]
    return _exercise("head_shape", number, c, {"asks": name, "n": n, "d": d, "h": h}, prompt,
                     [f"n = {n}, d = {d}, h = {h}"], _shape(shape), None, 0, work, options)


# 10. What the causal mask hides ---------------------------------------------------------------------
def _words(tokens: Sequence[str], positions: Sequence[int]) -> str:
    # Translators: a word of the sentence and its position in it, "“cat” (2)".
    named = [_("{word} ({position})").format(word=q(tokens[p]), position=p + 1) for p in positions]
    return _names(named) or pgettext("no words", "none")


def causal_mask(trace: LessonTrace, cand: tuple[int, ...], rng: random.Random, number: int) -> Exercise | None:
    c, i = cand
    ct = trace.contexts[c]
    n, toks = ct.n, ct.tokens
    hidden = list(range(i + 1, n))
    wrong = [("hid the words before it", list(range(i))), ("hid the word itself too", list(range(i, n))),
             ("hid nothing", []), ("hid every other word", [p for p in range(n) if p != i])]
    options = choices(rng, Choice(_words(toks, hidden)), [Choice(_words(toks, s), _(m)) for m, s in wrong])
    if options is None:
        return None
    prompt = _("In {sentence}, under the causal mask, which words does {word} (word {i}) not see? "
               "(Words by their position from 1.)").format(sentence=_sentence(ct), word=q(toks[i]), i=i + 1)
    work = [Work(_("A word sees itself and the words before it: the mask sets the scores of the words after it "
                   "to −∞, and exp(−∞) = 0, so their weights are 0.")),
            Work(_("{word} is word {i} of {n}: hidden are {words}.").format(word=q(toks[i]), i=i + 1, n=n,
                                                                            words=_words(toks, hidden)))]
    return _exercise("causal_mask", number, c, {"row": i, "hidden": hidden}, prompt,
                     [_("the sentence, word by word: {words}").format(words=_words(toks, range(n)))],
                     _words(toks, hidden), None, 0, work, options)


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

#: Every kind in lecture order: (name, its candidates, its builder).
KINDS: tuple[Kind, ...] = (
    ("dot_product", _nonzero_pairs, dot_product),
    ("scaled_score", _nonzero_pairs, scaled_score),
    ("exponential", _cells, exponential),
    ("row_sum", _rows, row_sum),
    ("attention_weight", _cells, attention_weight),
    ("weighted_sum", _entries, weighted_sum),
    ("leans", _focus, leans),
    ("projection", _entries, projection),
    ("head_shape", _shapes, head_shape),
    ("causal_mask", _rows, causal_mask),
)
