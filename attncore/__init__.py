"""attncore: every step of self-attention for a small, readable example (pure numpy).

This package never imports manim; the scenes draw what it computes.
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
    "LIMITS", "AttentionResult", "builtin_lesson", "builtin_lessons", "Context", "ContextTrace", "HeadTrace", "Lesson", "LessonError",
    "LessonTrace", "MultiHeadResult", "MultiHeadTrace", "ProjectedTrace", "ProjectionSpec",
    "ReshapedTrace", "Weights", "attention", "concat_heads", "decimals_needed", "default_lesson", "find_lesson", "fmt", "format_matrix",
    "load_lesson", "make_weights", "mix", "multi_head_attention", "parse_lesson", "project",
    "round_matrix", "shown_sum", "adds_up", "exp_operand_decimals", "exp_as_shown", "quotient_decimals", "softmax_decimals", "WORKED_EXTRA_DECIMALS", "worked_softmax_decimals", "product_decimals", "quotient_as_shown", "scale", "scores", "softmax", "split_heads", "trace_lesson",
    "DEFAULT_WEIGHTS", "WEIGHTS", "TrainingSpec", "TrainedWeights", "TrainingTrace", "train_lesson",
    "CausalResult", "CausalTrace", "MaskCost", "PositionalTrace", "add_positions", "causal_attention", "causal_mask",
    "masked_scores", "masked_softmax", "shuffled_order", "sinusoidal_encoding",
]
