"""A lesson's own words: the ``[narration]`` table, its placeholders and the section slugs.

A lecturer may replace what a section says by writing, under ``[narration]``, the
section's slug (its title in lower case with dashes, as in the recording names:
``divide-by-the-sum``) and the text to say. The text may name numbers of the trace in
braces; they are filled in with the lesson's display rule, so the sentence says the
number the screen shows:

``{CONTEXT.MATRIX.ROW.COLUMN}``
    one entry of a matrix of the trace. ``CONTEXT`` is the context's name or its number
    from 1; ``ROW`` a word of its sentence (or its position from 1); ``COLUMN`` a word
    of the sentence for ``scores``, ``scaled``, ``exp``, ``attention`` and
    ``projected_attention``, a dimension name for ``embeddings`` and ``output``, a number
    from 1 for ``Q``, ``K``, ``V`` and ``projected_output`` (a word or dimension may
    also be given by its number). ``exp`` is the exponential of a scaled score, as the
    softmax scene shows it; attention weights are rounded so that each row sums to 1.
``{CONTEXT.sum.ROW}``
    the sum of the exponentials of ``ROW``'s scaled scores (the softmax's denominator).
``{CONTEXT.focus}``, ``{CONTEXT.sentence}``, ``{CONTEXT.name}``, ``{CONTEXT.leans}``
    words of the context.
``{d}``, ``{sqrt_d}``
    the number of dimensions and √d.
``{{`` and ``}}``
    a brace.

Pure Python over the trace (no manim): :func:`check_template` validates a text when the
lesson is read, :func:`narration_override` gives the scenes the filled-in text. The
grammar and the checks need only the lesson and live in :mod:`attncore.narration_parse`
(the lesson's parser uses them before any trace exists); this module fills the
placeholders in from the trace, and re-exports those names.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .display import decimals_needed, fmt
from .narration_parse import (
    MATRICES,
    WORDS,
    NarrationError,
    Placeholder,
    check_template,
    placeholders,
    section_slug,
    substitute,
)

if TYPE_CHECKING:
    from .lesson_model import Lesson
    from .trace import ContextTrace, LessonTrace

__all__ = [
    "MATRICES",
    "WORDS",
    "NarrationError",
    "check_template",
    "fill",
    "narration_override",
    "placeholders",
    "section_slug",
]


def _number(ref: Placeholder, c: ContextTrace, decimals: int) -> str:
    i, j = ref.row, ref.column
    if ref.name == "attention":
        return fmt(float(c.attention[i, j]), decimals)
    if ref.name == "projected_attention":
        return fmt(float(c.projected.attention[i, j]), decimals)
    if ref.name == "exp":
        return fmt(float(c.softmax_exps(i)[j]), decimals)
    if ref.name == "embeddings":
        return fmt(float(c.embeddings[i, j]), decimals_needed(c.embeddings, decimals))
    source = {"scores": c.scores, "scaled": c.scaled, "output": c.output, "Q": c.projected.Q,
              "K": c.projected.K, "V": c.projected.V, "projected_output": c.projected.output}[ref.name]
    return fmt(float(source[i, j]), decimals)


def _value(ref: Placeholder, trace: LessonTrace) -> str:
    dec = trace.decimals
    if ref.kind == "lesson":
        d = trace.lesson.d
        return str(d) if ref.name == "d" else fmt(math.sqrt(d), dec)
    c = trace.contexts[ref.context]
    if ref.kind == "word":
        ctx = c.context
        return {"focus": ctx.focus, "sentence": ctx.sentence, "name": ctx.name, "leans": ctx.leans or ""}[ref.name]
    if ref.kind == "sum":
        return fmt(c.softmax_total(ref.row), dec)
    return _number(ref, c, dec)


def fill(text: str, trace: LessonTrace) -> str:
    """``text`` with every placeholder replaced by its value in ``trace`` (see the module doc)."""
    return substitute(text, trace.lesson, lambda ref: _value(ref, trace))


def narration_override(lesson: Lesson, trace: LessonTrace, scene_name: str, section_title: str) -> str | None:
    """The lecturer's text for a section (placeholders filled in), or None to keep the scene's own.

    ``scene_name`` is not needed to find the text today (section slugs are unique in the
    lecture, a test says so) but is part of the hook so that scenes need not change if a
    slug ever repeats.
    """
    text = dict(lesson.narration).get(section_slug(section_title))
    return None if text is None else fill(text, trace)
