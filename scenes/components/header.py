"""The header every scene shows: the pipeline marker and the formula of the step."""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, UP, Line, MarkupText, Text, VGroup

from attncore.i18n import pgettext

from ..theme import Theme
from .text import label, text_baseline
from .typeset import Formula

__all__ = ["PIPELINE", "MATH_STAGES", "PipelineMarker", "Formula"]

#: The pipeline the lecture walks through, shown in every scene's header: typeset
#: maths (Typst source) for the stages in MATH_STAGES, words for the others.
PIPELINE = ["X", "X X^T", "\\/ sqrt(d)", "softmax", "A V", "projections", "heads"]
MATH_STAGES = frozenset({0, 1, 2, 4})


def stage_name(k: int) -> str:
    """Stage ``k`` of :data:`PIPELINE` as the viewer reads it (the words translated)."""
    if PIPELINE[k] == "projections":
        # Translators: a stage of the pipeline in every scene's header (the learned Q, K, V projections).
        return pgettext("pipeline", "projections")
    if PIPELINE[k] == "heads":
        # Translators: a stage of the pipeline in every scene's header (multi-head attention).
        return pgettext("pipeline", "heads")
    return PIPELINE[k]


def _stage(k: int, colour: str, lit: bool) -> Text | Formula:
    if k in MATH_STAGES:
        return Formula(PIPELINE[k], Theme(), size="pipeline", colour=colour)
    return label(stage_name(k), "pipeline", colour, weight="BOLD" if lit else "NORMAL")


class PipelineMarker(VGroup):
    """``X → X Xᵀ → /√d → softmax → A V → projections → heads`` with the current stage lit."""

    def __init__(self, current: int, theme: Theme) -> None:
        super().__init__()
        self.stages = VGroup()
        self.underline: Line | None = None
        parts: list[Text | MarkupText | Formula] = []  # stages, each but the last followed by an arrow
        for k in range(len(PIPELINE)):
            colour = theme["accent"] if k == current else theme["muted"]
            t = _stage(k, colour, k == current)
            self.stages.add(t)
            parts.append(t)
            if k < len(PIPELINE) - 1:
                parts.append(label("→", "pipeline", theme["muted"]))
        self.add(*parts)
        self.arrange(RIGHT, buff=0.14)
        line = text_baseline(parts[-1])  # words and typeset stages on one baseline
        for stage in parts[::2]:
            stage.shift(UP * (line - text_baseline(stage)))
        if 0 <= current < len(PIPELINE):
            cur = self.stages[current]
            self.underline = Line(
                cur.get_corner(DOWN + LEFT), cur.get_corner(DOWN + RIGHT), stroke_color=theme["accent"], stroke_width=3
            ).shift(DOWN * 0.07)
            self.add(self.underline)

