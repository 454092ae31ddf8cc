"""The exercises on projections and heads: one entry of Q = X·W_Q, and a multi-head shape.

Each builder works as :mod:`attncore.exercises.common` says.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..display import fmt, shown_value
from ..i18n import N_, _, ngettext
from ..trace import LessonTrace
from . import common
from .model import Choice, Exercise, Work, choices, token

# --- One entry of Q = X·W_Q ----------------------------------------------------------------------


def projection(trace: LessonTrace, cand: tuple[int, ...], rng: random.Random, number: int) -> Exercise | None:
    c, i, k = cand
    ct, dec = trace.contexts[c], trace.decimals
    x, w = ct.embeddings, ct.projected.W_Q
    xd, wd = common.input_decimals(x, dec), common.input_decimals(w, dec)
    pd = max(dec, xd + wd)
    value = float(ct.projected.Q[i, k])
    want = fmt(value, pd)
    terms = " + ".join(f"{token(float(a), xd)} * {token(float(b), wd)}" for a, b in zip(x[i], w[:, k]))
    if fmt(sum(shown_value(float(a), xd) * shown_value(float(b), wd) for a, b in zip(x[i], w[:, k])), pd) != want:
        return None
    i2, k2 = common.other_position(rng, ct.tokens, i), rng.choice([m for m in range(ct.d) if m != k])
    mistakes = [
        common.named_mistake("used a row of W_Q instead of a column", float(x[i] @ w[k, :]), pd),
        common.named_mistake("used the wrong word's row", None if i2 is None else float(x[i2] @ w[:, k]), pd),
        common.named_mistake("used the wrong column", float(x[i] @ w[:, k2]), pd),
        common.named_mistake("forgot a term", value - float(x[i, -1] * w[-1, k]), pd),
    ]
    options = choices(rng, Choice(want, "", value), mistakes)
    if options is None:
        return None
    givens = [_("X, dimensions {dimensions}").format(dimensions=common.names_text(ct.dimensions))]
    givens += [common.labelled_numbers(common.q(t), common.vector_text(r, xd)) for t, r in zip(ct.tokens, x)]
    givens += [_("W_Q ({d}×{d}), row r for input dimension r:").format(d=ct.d)]
    givens += [_("row {r} ({dimension}): {numbers}").format(r=r + 1, dimension=name, numbers=common.row_text(row, wd))
               for r, (name, row) in enumerate(zip(ct.dimensions, w))]
    prompt = _("In {sentence}, Q = X·W_Q. What is entry {k} of {word}'s query, Q[{word}, {k}]?").format(
        sentence=common.sentence_text(ct), k=k + 1, word=common.q(ct.tokens[i]))
    work = [Work(_("{word}'s row of X times column {k} of W_Q, entry by entry, added:").format(
        word=common.q(ct.tokens[i]), k=k + 1), ((terms, want),))]
    return common.make_exercise(
        "projection", number, c, {"row": i, "column": k}, prompt, givens, want, value, pd, work, options
    )


# --- A multi-head shape --------------------------------------------------------------------------


#: What a head-shape question asks for: (its name, its shape from (n, d, h, d_h)).
SHAPES: tuple[tuple[str, Callable[[int, int, int, int], tuple[int, int]]], ...] = (
    (N_("one head's queries Q_h"), lambda n, d, h, dh: (n, dh)),
    (N_("one head's attention matrix"), lambda n, d, h, dh: (n, n)),
    (N_("one head's output"), lambda n, d, h, dh: (n, dh)),
    (N_("the heads' outputs concatenated"), lambda n, d, h, dh: (n, d)),
)


def _shape(s: tuple[int, int]) -> str:
    return f"{s[0]}×{s[1]}"


def head_shapes(trace: LessonTrace) -> list[tuple[int, ...]]:
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
        sentence=common.sentence_text(ct), n=n, d=d, h=h, what=_(name))
    lines = {0: _("Q_h = X·W_Q,h: one row per word, d_h = {dh} columns: {shape}."),
             1: _("Q_h·K_hᵀ: one row per query word, one column per key word: {shape}."),
             2: _("A_h·V_h: one row per word, d_h = {dh} columns: {shape}."),
             3: _("{h} outputs of {n}×{dh} side by side: {n}×{width} = {shape}.")}
    work = [Work(_("Each head works in d / h dimensions:"), ((f"{d} / {h}", str(dh)),)),
            Work(lines[what].format(dh=dh, shape=_shape(shape), h=h, n=n, width=h * dh))]
    return common.make_exercise("head_shape", number, c, {"asks": name, "n": n, "d": d, "h": h}, prompt,
                     [f"n = {n}, d = {d}, h = {h}"], _shape(shape), None, 0, work, options)
