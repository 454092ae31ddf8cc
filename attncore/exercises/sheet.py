"""A sheet of exercises: :data:`KINDS` lists every kind in lecture order (its name, its
candidates in a lesson, its builder), and :func:`make_exercises` draws them round after
round with a seeded generator.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..trace import LessonTrace
from . import common
from .masking import causal_mask
from .model import COUNT_LIMITS, Builder, Exercise, Kind
from .outputs import leans, weighted_sum
from .projections import head_shape, head_shapes, projection
from .scores import dot_product, scaled_score
from .softmax import attention_weight, exponential, row_sum

__all__ = ["KINDS", "make_exercises"]


#: Every kind in lecture order: (name, its candidates, its builder).
KINDS: tuple[Kind, ...] = (
    ("dot_product", common.nonzero_pairs, dot_product),
    ("scaled_score", common.nonzero_pairs, scaled_score),
    ("exponential", common.cells, exponential),
    ("row_sum", common.rows, row_sum),
    ("attention_weight", common.cells, attention_weight),
    ("weighted_sum", common.entries, weighted_sum),
    ("leans", common.focus_rows, leans),
    ("projection", common.entries, projection),
    ("head_shape", head_shapes, head_shape),
    ("causal_mask", common.rows, causal_mask),
)


def make_exercises(trace: LessonTrace, count: int = 10, seed: int = 0,
                   kinds: Sequence[Kind] | None = None) -> tuple[Exercise, ...]:
    """``count`` exercises on the lesson of ``trace`` (a :class:`~attncore.trace.LessonTrace`).

    The kinds come in lecture order, round after round, each on a candidate (context,
    words, columns...) drawn with ``random.Random(seed)``; a candidate already asked, or
    one that cannot give a clean question, is passed over. Fewer than ``count`` only when
    the lesson has no more distinct questions.
    """
    lo, hi = COUNT_LIMITS
    if not lo <= count <= hi:
        raise ValueError(f"count must be between {lo} and {hi}, not {count}")
    rng = random.Random(seed)
    table = list(kinds if kinds is not None else KINDS)
    pools = {name: _shuffled(candidates(trace), rng) for name, candidates, _ in table}
    out: list[Exercise] = []
    while len(out) < count:
        made = 0
        for name, _, build in table:
            if len(out) == count:
                break
            ex = _next_of(pools[name], build, trace, rng, len(out) + 1)
            if ex is not None:
                out.append(ex)
                made += 1
        if made == 0:
            break
    return tuple(out)


def _shuffled(items: list[tuple[int, ...]], rng: random.Random) -> list[tuple[int, ...]]:
    items = list(items)
    rng.shuffle(items)
    return items


def _next_of(pool: list[tuple[int, ...]], build: Builder, trace: LessonTrace, rng: random.Random,
             number: int) -> Exercise | None:
    """The first candidate of ``pool`` that makes an exercise (used candidates are removed)."""
    while pool:
        ex = build(trace, pool.pop(0), rng, number)
        if ex is not None:
            return ex
    return None
