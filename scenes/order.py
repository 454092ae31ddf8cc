"""The lecture's running order, by scene class name: the one list whose positions are the
numbers a viewer reads ("5 · Softmax") and the numbers in the output names
(``05_Softmax.mp4``).

Manim-free and below every scene, so that a scene finds its own number when rendered on
its own (plain ``manim render scenes/steps/softmax.py Softmax``) and the application can number a
title without importing Manim; :mod:`scenes.lecture` builds ``LECTURE`` from this list.
No file name and no title carries a number.
"""

from __future__ import annotations

__all__ = ["ORDER", "number", "numbered"]

#: Every scene of the lecture, in order: the title card is 0, the steps count from 1.
ORDER: tuple[str, ...] = (
    "TitleCard",
    "Embeddings",
    "SimplifiedAttention",
    "DotProducts",
    "Scaling",
    "Softmax",
    "ReadingAttention",
    "MixingValues",
    "TwoContexts",
    "LearningTheWeights",
    "LearnedProjections",
    "ChangingDimension",
    "MultiHead",
    "CausalMask",
    "WordOrder",
)


def number(scene: str) -> int | None:
    """The scene's place in the lecture (0 for the title card), or None for a scene outside it."""
    return ORDER.index(scene) if scene in ORDER else None


def numbered(scene: str, title: str) -> str:
    """``title`` as the header shows it, "5 · Softmax": the scene's number in the lecture, then
    the title (already translated); a scene outside the lecture, or an empty title, unnumbered."""
    n = number(scene)
    return f"{n} · {title}" if n is not None and title else title
