"""Which words carry which sense, and the sentences the weights are trained on.

The design (what a word *carries*, the four kinds of generated sentence and why the
"no clue" ones are there) is stated in :mod:`attncore.training`. Everything here is
generated from the lesson alone: its vocabulary, its contexts with ``leans`` and its
``[[training.examples]]``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .lesson import Context, Lesson

__all__ = ["MAX_VARIANTS", "Example", "labelled_sentences", "sense_positions", "strongest_dimension", "training_set"]

MAX_VARIANTS = 48  # generated sentences per labelled sentence, before the "no clue" ones


def strongest_dimension(vector: Sequence[float]) -> int | None:
    """Index of the strictly largest entry of ``vector``; None on a tie.

    >>> strongest_dimension([3, 0, 0, 0.5]), strongest_dimension([2, 2, 0, 0.5])
    (0, None)
    """
    v = np.asarray(vector, dtype=np.float64)
    k = int(np.argmax(v))
    return k if int(np.sum(v == v[k])) == 1 else None


def _carries(lesson: Lesson, word: str) -> int | None:
    return strongest_dimension(lesson.vector(word))


def sense_positions(lesson: Lesson, context: Context) -> tuple[int, ...]:
    """Positions of the other words of ``context`` that carry its sense (``leans``).

    "Other" means any word but the focus word; () when the context has no ``leans``.
    """
    if context.leans is None:
        return ()
    k = lesson.dimensions.index(context.leans)
    return tuple(
        j for j, t in enumerate(context.tokens) if t != context.focus and _carries(lesson, t) == k
    )


@dataclass(frozen=True)
class Example:
    """One training sentence: its words, where the focus word is, and the target."""

    tokens: tuple[str, ...]
    focus_index: int
    target: tuple[float, ...]  # (d,) probabilities over the dimensions
    label: str  # the target in words: "animal", or "animal or tech" for an even split

    @property
    def sentence(self) -> str:
        return " ".join(self.tokens)


def labelled_sentences(lesson: Lesson) -> tuple[Context, ...]:
    """The sentences whose sense the lesson states: contexts with ``leans``, then examples."""
    return tuple(c for c in lesson.contexts if c.leans is not None) + lesson.training.examples


def _senses(lesson: Lesson) -> dict[str, tuple[int, ...]]:
    """For each focus word, the dimensions the lesson gives it as senses (sorted)."""
    out: dict[str, set[int]] = {}
    for c in labelled_sentences(lesson):
        assert c.leans is not None
        out.setdefault(c.focus, set()).add(lesson.dimensions.index(c.leans))
    return {w: tuple(sorted(s)) for w, s in out.items()}


def _variants(lesson: Lesson, c: Context) -> list[tuple[str, ...]]:
    """The sentence, its one-word swaps, its sub-sentences that keep a word of the sense."""
    toks, f = list(c.tokens), c.focus_index
    out = [tuple(toks)]
    for i, t in enumerate(toks):  # swaps
        k = _carries(lesson, t)
        if i == f or k is None:
            continue
        for w, _ in lesson.vocabulary:
            if w not in (t, c.focus) and _carries(lesson, w) == k:
                out.append(tuple(toks[:i] + [w] + toks[i + 1 :]))
    sense = set(sense_positions(lesson, c))
    others = [j for j in range(len(toks)) if j != f]
    for r in range(1, len(others)):  # sub-sentences, shortest first
        for keep in itertools.combinations(others, r):
            if sense & set(keep):
                out.append(tuple(toks[j] for j in sorted((*keep, f))))
    return list(dict.fromkeys(out))[:MAX_VARIANTS]


def training_set(lesson: Lesson) -> tuple[Example, ...]:
    """The labelled sentences generated from ``lesson`` (see the module docstring)."""
    d, dims, senses = lesson.d, lesson.dimensions, _senses(lesson)
    found: dict[tuple[tuple[str, ...], int, tuple[float, ...]], Example] = {}
    for c in labelled_sentences(lesson):
        assert c.leans is not None
        one_hot = tuple(1.0 if k == dims.index(c.leans) else 0.0 for k in range(d))
        own = senses[c.focus]
        split = tuple(1.0 / len(own) if k in own else 0.0 for k in range(d))
        for toks in _variants(lesson, c):
            fi = toks.index(c.focus)
            found.setdefault((toks, fi, one_hot), Example(toks, fi, one_hot, c.leans))
            if len(own) < 2:
                continue
            bare = tuple(t for t in toks if t == c.focus or _carries(lesson, t) not in own)
            fb = bare.index(c.focus)
            found.setdefault((bare, fb, split), Example(bare, fb, split, " or ".join(dims[k] for k in own)))
    return tuple(found.values())
