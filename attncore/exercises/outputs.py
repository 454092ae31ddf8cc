"""The exercises on the output: one entry of the weighted sum, and which sense the output
leans to, and by how much.

Each builder works as :mod:`attncore.exercises.common` says.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..display import fmt, shown_value
from ..i18n import _
from ..trace import ContextTrace, LessonTrace
from . import common
from .model import Choice, Exercise, Work, choices, token

# --- One entry of the weighted sum ---------------------------------------------------------------


def _mix_work(ct: ContextTrace, i: int, k: int, ad: int, xd: int, dec: int) -> tuple[list[Work], str]:
    lines, products = [], []
    for w, a, x in zip(ct.tokens, ct.attention[i], ct.embeddings[:, k]):
        p = shown_value(float(a), ad) * float(x)
        products.append(p)
        lines.append(
            Work(common.word_line(common.q(w)), ((f"{token(float(a), ad)} * {token(float(x), xd)}", fmt(p, ad + xd)),))
        )
    out = fmt(sum(products), dec)
    lines.append(Work(_("Add the products:"), ((" + ".join(token(p, ad + xd) for p in products), out),)))
    return lines, out


def weighted_sum(trace: LessonTrace, cand: tuple[int, ...], rng: random.Random, number: int) -> Exercise | None:
    c, i, k = cand
    ct, dec = trace.contexts[c], trace.decimals
    a, x = ct.attention, ct.embeddings
    xd = common.input_decimals(x, dec)
    value = float(ct.output[i, k])
    want = fmt(value, dec)
    for extra in range(common.MAX_EXTRA + 1):
        work, out = _mix_work(ct, i, k, dec + extra, xd, dec)
        if out == want:
            break
    else:
        return None
    i2, k2 = common.other_position(rng, ct.tokens, i), rng.choice([m for m in range(ct.d) if m != k])
    mistakes = [
        common.named_mistake("used the wrong row", None if i2 is None else float(a[i2] @ x[:, k]), dec),
        common.named_mistake("used the column of the attention matrix", float(a[:, i] @ x[:, k]), dec),
        common.named_mistake("left out the weights", float(x[:, k].sum()), dec),
        common.named_mistake("took the plain average", float(x[:, k].mean()), dec),
        common.named_mistake("used the wrong dimension", float(ct.output[i, k2]), dec),
    ]
    options = choices(rng, Choice(want, "", value), mistakes)
    if options is None:
        return None
    ad = dec + extra
    dim = ct.dimensions[k]
    givens = [_("attention (row = query word, column = key word), columns {words}").format(
        words=common.names_text([common.q(w) for w in ct.tokens]))]
    givens += [common.labelled_numbers(common.q(w), common.row_text(r, ad)) for w, r in zip(ct.tokens, a)]
    givens += [_("value vectors V = X, dimensions {dimensions}").format(dimensions=common.names_text(ct.dimensions))]
    givens += [common.labelled_numbers(common.q(w), common.vector_text(r, xd)) for w, r in zip(ct.tokens, x)]
    prompt = _(
        "In {sentence}, the output of {word} is its attention row times the value vectors. "
        "What is its value in the dimension {dimension}?"
    ).format(sentence=common.sentence_text(ct), word=common.q(ct.tokens[i]), dimension=common.q(dim))
    return common.make_exercise(
        "weighted_sum", number, c, {"row": i, "dimension": k}, prompt, givens, want, value, dec, work, options
    )


# --- Which sense the output leans to -------------------------------------------------------------


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


def leans(trace: LessonTrace, cand: tuple[int, ...], rng: random.Random, number: int) -> Exercise | None:
    (c,) = cand
    ct, dec = trace.contexts[c], trace.decimals
    dims = ct.dimensions
    f = ct.focus_index
    lean = _lean(ct.output[f], dims, dec)
    if lean is None:
        return None
    dim, margin, text = lean
    i2 = common.other_position(rng, ct.tokens, f)
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
    xd = common.input_decimals(ct.embeddings, dec)
    row = [shown_value(float(x), dec) for x in ct.output[f]]
    second = sorted(row)[-2]
    second_dim = dims[row.index(second)]
    givens = [
        _("dimensions: {dimensions}").format(dimensions=common.names_text(dims)),
        _("input of {word}: {vector}").format(word=common.q(ct.focus), vector=common.vector_text(ct.embeddings[f], xd)),
        _("outputs after attention:"),
    ] + [common.labelled_numbers(common.q(w), common.vector_text(r, dec)) for w, r in zip(ct.tokens, ct.output)]
    prompt = _("In {sentence}, to which dimension does the output of {word} lean, and by how much over the next "
               "largest?").format(sentence=common.sentence_text(ct), word=common.q(ct.focus))
    work = [Work(_("The output of {word} (its row of outputs, not its input): {vector}").format(
                word=common.q(ct.focus), vector=common.vector_text(ct.output[f], dec))),
            Work(_("Largest: {dimension} {value}; next: {other} {other_value}; the margin:").format(
                dimension=dim, value=fmt(max(row), dec), other=second_dim, other_value=fmt(second, dec)),
                 ((f"{token(max(row), dec)} - {token(second, dec)}", fmt(margin, dec)),))]
    return common.make_exercise("leans", number, c, {"row": f}, prompt, givens, text, margin, dec, work, options)
