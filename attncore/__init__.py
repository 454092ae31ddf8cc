"""attncore: every step of self-attention for a small, readable example (pure numpy).

This package never imports manim; the scenes draw what it computes.

**What a lecturer may import** is ``__all__`` below: the lesson (read, found, checked),
one function per step of attention, :func:`trace_lesson` and the frozen records of every
intermediate it returns, the trained weights, and :func:`fmt` (how every number is shown).
The other names imported here are the lecture's own display rules, shared with the scenes,
and may change without notice.
"""

from __future__ import annotations

from .display import (
    WORKED_EXTRA_DECIMALS,
    adds_up,
    decimals_needed,
    exp_as_shown,
    exp_operand_decimals,
    fmt,
    format_matrix,
    product_decimals,
    quotient_as_shown,
    quotient_decimals,
    round_matrix,
    shown_sum,
    softmax_decimals,
    worked_softmax_decimals,
)
from .lesson import (
    DEFAULT_WEIGHTS,
    LIMITS,
    WEIGHTS,
    Context,
    Lesson,
    LessonError,
    ProjectionSpec,
    TrainingSpec,
    builtin_lesson,
    builtin_lessons,
    default_lesson,
    find_lesson,
    load_lesson,
    parse_lesson,
)
from .steps import (
    AttentionResult,
    CausalResult,
    MultiHeadResult,
    add_positions,
    attention,
    causal_attention,
    causal_mask,
    concat_heads,
    masked_scores,
    masked_softmax,
    mix,
    multi_head_attention,
    project,
    scale,
    scores,
    shuffled_order,
    sinusoidal_encoding,
    softmax,
    split_heads,
)
from .trace import (
    CausalTrace,
    ContextTrace,
    HeadTrace,
    LessonTrace,
    MaskCost,
    MultiHeadTrace,
    PositionalTrace,
    ProjectedTrace,
    ReshapedTrace,
    trace_lesson,
)
from .training import TrainedWeights, TrainingTrace, train_lesson
from .weights import Weights, make_weights

__all__ = [
    # the lesson
    "Lesson", "LessonError", "Context", "ProjectionSpec", "TrainingSpec", "LIMITS",
    "find_lesson", "load_lesson", "parse_lesson", "builtin_lesson", "builtin_lessons", "default_lesson",
    # the steps, one function each (shapes in their docstrings)
    "scores", "scale", "softmax", "mix", "attention", "AttentionResult",
    "project", "split_heads", "concat_heads", "multi_head_attention", "MultiHeadResult",
    "causal_mask", "masked_scores", "masked_softmax", "causal_attention", "CausalResult",
    "sinusoidal_encoding", "add_positions", "shuffled_order",
    # the trace: every intermediate of a lesson, as frozen records
    "trace_lesson", "LessonTrace", "ContextTrace", "ProjectedTrace", "ReshapedTrace", "MultiHeadTrace",
    "HeadTrace", "CausalTrace", "MaskCost", "PositionalTrace",
    # the weights, trained on the lesson or drawn from its seed
    "Weights", "make_weights", "WEIGHTS", "DEFAULT_WEIGHTS", "train_lesson", "TrainingTrace", "TrainedWeights",
    # how a number is shown
    "fmt", "round_matrix",
]
