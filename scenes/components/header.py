"""The header every scene shows: the pipeline marker and the formula of the step."""

from __future__ import annotations

from manim import DOWN, LEFT, RIGHT, Line, VGroup, VMobject

from ..theme import FONT, SIZE, Theme
from .text import LightText, label

__all__ = ["PIPELINE", "PipelineMarker", "Formula"]

#: The pipeline the lecture walks through, shown in every scene's header.
PIPELINE = ["X", "X·Xᵀ", "/√d", "softmax", "A·V", "projections", "heads"]


class PipelineMarker(VGroup):
    """``X → X·Xᵀ → /√d → softmax → A·V → projections → heads`` with the current stage lit."""

    def __init__(self, current: int, theme: Theme) -> None:
        super().__init__()
        self.stages = VGroup()
        self.underline: Line | None = None
        parts: list[VMobject] = []
        for k, stage in enumerate(PIPELINE):
            colour = theme["accent"] if k == current else theme["muted"]
            t = label(stage, "pipeline", colour, weight="BOLD" if k == current else "NORMAL")
            self.stages.add(t)
            parts.append(t)
            if k < len(PIPELINE) - 1:
                parts.append(label("→", "pipeline", theme["grid"]))
        self.add(*parts)
        self.arrange(RIGHT, buff=0.14)
        if 0 <= current < len(PIPELINE):
            cur = self.stages[current]
            self.underline = Line(cur.get_corner(DOWN + LEFT), cur.get_corner(DOWN + RIGHT), stroke_color=theme["accent"],
                                  stroke_width=3).shift(DOWN * 0.07)
            self.add(self.underline)


class Formula(LightText):
    """The formula of the current step, with one term in the accent colour.

    ``Formula("A = softmax(X·Xᵀ / √d)", theme, highlight="softmax")``. Build the same
    formula with another ``highlight`` and ``Transform`` into it to move the light.
    """

    def __init__(self, text: str, theme: Theme, highlight: str | None = None, size: str = "formula") -> None:
        t2c = {highlight: theme["accent"]} if highlight else {}
        super().__init__(text, font=FONT, font_size=SIZE[size], color=theme["text"], t2c=t2c)
        self.formula = text
