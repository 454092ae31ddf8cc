"""The exercises on the softmax: an exponential, a row's sum of exponentials, one attention
weight.

Each builder works as :mod:`attncore.exercises.common` says.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import numpy as np

from ..display import fmt, shown_value
from ..i18n import _
from ..trace import ContextTrace, LessonTrace
from . import common
from .model import Choice, Exercise, Work, choices, plain, token

# --- An exponential ------------------------------------------------------------------------------


def exponential(trace: LessonTrace, cand: tuple[int, ...], rng: random.Random, number: int) -> Exercise | None:
    c, i, j = cand
    ct, dec = trace.contexts[c], trace.decimals
    s = float(ct.scaled[i, j])
    want = fmt(math.exp(s), dec)
    sd = next(
        (dec + k for k in range(common.MAX_EXTRA + 1) if fmt(math.exp(shown_value(s, dec + k)), dec) == want), None
    )
    if sd is None:
        return None
    prompt = _("In {sentence}, the scaled score of {word} looking at {other} is {score}. What is its exponential, "
               "the first step of the softmax?").format(sentence=common.sentence_text(ct), word=common.q(ct.tokens[i]),
                                                         other=common.q(ct.tokens[j]), score=fmt(s, sd))
    work = [Work(_("e to the power of the scaled score:"), ((f"exp({plain(s, sd)})", want),))]
    return common.make_exercise("exponential", number, c, {"row": i, "column": j}, prompt,
                     [_("scaled score: {score}").format(score=fmt(s, sd))], want, math.exp(s), dec, work)


# --- A row's sum of exponentials -----------------------------------------------------------------


def _exp_lines(tokens: Sequence[str], row: Sequence[float], sd: int, ed: int) -> tuple[list[Work], list[float]]:
    """One line per word: e to its shown scaled score, shown at ``ed``; the shown exponentials."""
    lines, shown = [], []
    for w, s in zip(tokens, row):
        e = math.exp(shown_value(s, sd))
        lines.append(Work(common.word_line(common.q(w)), ((f"exp({plain(s, sd)})", fmt(e, ed)),)))
        shown.append(shown_value(e, ed))
    return lines, shown


def row_sum(trace: LessonTrace, cand: tuple[int, ...], rng: random.Random, number: int) -> Exercise | None:
    c, i = cand
    ct, dec = trace.contexts[c], trace.decimals
    row = [float(v) for v in ct.scaled[i]]
    total = float(np.exp(ct.scaled[i]).sum())
    want = fmt(total, dec)
    for extra in range(common.MAX_EXTRA + 1):
        sd = ed = dec + extra
        lines, shown = _exp_lines(ct.tokens, row, sd, ed)
        if fmt(sum(shown), dec) == want:
            break
    else:
        return None
    adds = " + ".join(plain(e, ed) for e in shown)
    work = [*lines, Work(_("Add them:"), ((adds, want),))]
    prompt = _("In {sentence}, the scaled scores of {word}'s row are given. What is the sum of their exponentials, "
               "the softmax's denominator?").format(sentence=common.sentence_text(ct), word=common.q(ct.tokens[i]))
    givens = [common.labelled_numbers(common.q(w), fmt(s, sd)) for w, s in zip(ct.tokens, row)]
    return common.make_exercise("row_sum", number, c, {"row": i}, prompt, givens, want, total, dec, work)


# --- One attention weight ------------------------------------------------------------------------


def _weight_work(ct: ContextTrace, i: int, j: int, dec: int, extra: int) -> tuple[list[Work], str]:
    """Scale, exponentiate, add, divide: the worked lines at ``dec + extra`` decimals, and the weight shown."""
    k = dec + extra
    sd = max(dec, 2 * common.input_decimals(ct.embeddings, dec))
    root_text, root, root_expr = common.square_root(ct.d, k)
    lines = [Work("√d =", ((f"sqrt({ct.d})", root_text),))]
    exps = []
    for w, s in zip(ct.tokens, ct.scores[i]):
        scaled = shown_value(float(s) / root, k)
        e = shown_value(math.exp(scaled), k)
        exps.append(e)
        lines.append(Work(common.word_line(common.q(w)), ((f"{token(float(s), sd)} / {root_expr}", fmt(scaled, k)),
                                             (f"exp({plain(scaled, k)})", fmt(e, k)))))
    total = shown_value(sum(exps), k)
    weight = fmt(exps[j] / total, dec)
    lines.append(Work(_("Add the exponentials:"), ((" + ".join(plain(e, k) for e in exps), fmt(total, k)),)))
    lines.append(Work(_("Divide {word}'s by the sum:").format(word=common.q(ct.tokens[j])),
                      ((f"{plain(exps[j], k)} / {plain(total, k)}", weight),)))
    return lines, weight


def _weight_mistakes(ct: ContextTrace, i: int, j: int, rng: random.Random, dec: int) -> list[Choice]:
    s, raw = ct.scaled, ct.scores
    i2 = common.other_position(rng, ct.tokens, i)
    col = np.exp(s[:, j] - s[:, j].max())
    plain = float(s[i].sum())
    return [
        common.named_mistake("forgot √d", float(common.softmax_row(raw[i])[j]), dec),
        common.named_mistake("divided by d", float(common.softmax_row(raw[i] / ct.d)[j]), dec),
        common.named_mistake("took the softmax over the column", float(col[i] / col.sum()), dec),
        common.named_mistake("used the wrong row", None if i2 is None else float(ct.attention[i2, j]), dec),
        common.named_mistake("forgot the exponential", float(s[i, j]) / plain if abs(plain) > 1e-9 else None, dec),
    ]


def attention_weight(trace: LessonTrace, cand: tuple[int, ...], rng: random.Random, number: int) -> Exercise | None:
    c, i, j = cand
    ct, dec = trace.contexts[c], trace.decimals
    a = float(ct.attention[i, j])
    want = fmt(a, dec)
    for extra in range(common.MAX_EXTRA + 1):
        work, weight = _weight_work(ct, i, j, dec, extra)
        if weight == want:
            break
    else:
        return None
    options = choices(rng, Choice(want, "", a), _weight_mistakes(ct, i, j, rng, dec))
    if options is None:
        return None
    sd = max(dec, 2 * common.input_decimals(ct.embeddings, dec))
    givens = [
        f"d = {ct.d}",
        _("scores X·Xᵀ (row = query word, column = key word), columns {words}").format(
            words=common.names_text([common.q(w) for w in ct.tokens])
        ),
    ] + [common.labelled_numbers(common.q(w), common.row_text(r, sd)) for w, r in zip(ct.tokens, ct.scores)]
    prompt = _(
        "In {sentence}, how much attention does {word} give to {other}? Scale its row of scores by √d, "
        "then take the softmax of the row."
    ).format(sentence=common.sentence_text(ct), word=common.q(ct.tokens[i]), other=common.q(ct.tokens[j]))
    return common.make_exercise(
        "attention_weight", number, c, {"row": i, "column": j}, prompt, givens, want, a, dec, work, options
    )
