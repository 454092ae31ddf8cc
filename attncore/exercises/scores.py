"""The exercises on scores: a dot product, term by term, and a scaled score.

Each builder works as :mod:`attncore.exercises.common` says.
"""

from __future__ import annotations

import math
import random

from ..display import fmt
from ..i18n import _
from ..trace import LessonTrace
from . import common
from .model import Choice, Exercise, Work, choices, token

# --- A dot product, term by term -----------------------------------------------------------------


def dot_product(trace: LessonTrace, cand: tuple[int, ...], rng: random.Random, number: int) -> Exercise | None:
    c, i, j = cand
    ct, dec = trace.contexts[c], trace.decimals
    x = ct.embeddings
    xd = common.input_decimals(x, dec)
    ad = max(dec, 2 * xd)  # every product of two inputs shows exactly
    s = float(ct.scores[i, j])
    terms = " + ".join(f"{token(a, xd)} * {token(b, xd)}" for a, b in zip(x[i], x[j]))
    i2 = common.other_position(rng, ct.tokens, i)
    mistakes = [
        common.named_mistake("used the wrong row", None if i2 is None else float(x[i2] @ x[j]), ad),
        common.named_mistake("added instead of multiplying", float(x[i].sum() + x[j].sum()), ad),
        common.named_mistake("forgot a term", s - float(x[i, -1] * x[j, -1]), ad),
        common.named_mistake("multiplied the sums", float(x[i].sum() * x[j].sum()), ad),
    ]
    answer = Choice(fmt(s, ad), "", s)
    options = choices(rng, answer, mistakes)
    if options is None:
        return None
    givens = [
        _("dimensions: {dimensions}").format(dimensions=common.names_text(ct.dimensions)),
        common.labelled_numbers(common.q(ct.tokens[i]), common.vector_text(x[i], xd)),
        common.labelled_numbers(common.q(ct.tokens[j]), common.vector_text(x[j], xd)),
    ]
    prompt = _(
        "In {sentence}, what is the score of {word} looking at {other}: the dot product of their vectors?"
    ).format(sentence=common.sentence_text(ct), word=common.q(ct.tokens[i]), other=common.q(ct.tokens[j]))
    work = [Work(_("Multiply the vectors entry by entry and add the products:"), ((terms, answer.text),))]
    return common.make_exercise(
        "dot_product", number, c, {"row": i, "column": j}, prompt, givens, answer.text, s, ad, work, options
    )


# --- A scaled score ------------------------------------------------------------------------------


def scaled_score(trace: LessonTrace, cand: tuple[int, ...], rng: random.Random, number: int) -> Exercise | None:
    c, i, j = cand
    ct, dec = trace.contexts[c], trace.decimals
    sd = max(dec, 2 * common.input_decimals(ct.embeddings, dec))
    s, d = float(ct.scores[i, j]), ct.d
    want = fmt(s / math.sqrt(d), dec)
    for extra in range(common.MAX_EXTRA + 1):
        root_text, root, root_expr = common.square_root(d, dec + extra)
        if fmt(s / root, dec) == want:
            break
    else:
        return None
    mistakes = [
        common.named_mistake("forgot √d", s, dec),
        common.named_mistake("divided by d", s / d, dec),
        common.named_mistake("multiplied by √d", s * math.sqrt(d), dec),
        common.named_mistake("divided by 2", s / 2, dec),
    ]
    value = s / math.sqrt(d)
    options = choices(rng, Choice(want, "", value), mistakes)
    if options is None:
        return None
    prompt = _("In {sentence}, the score of {word} looking at {other} is {score}, with d = {d} dimensions. "
               "What is the scaled score?").format(sentence=common.sentence_text(ct), word=common.q(ct.tokens[i]),
                                                   other=common.q(ct.tokens[j]), score=fmt(s, sd), d=d)
    work = [Work("√d =", ((f"sqrt({d})", root_text),)),
            Work(_("Divide the score by √d:"), ((f"{token(s, sd)} / {root_expr}", want),))]
    return common.make_exercise("scaled_score", number, c, {"row": i, "column": j}, prompt,
                     [_("score: {score}").format(score=fmt(s, sd)), f"d = {d}"], want, value, dec, work, options)
