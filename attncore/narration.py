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
lesson is read, :func:`narration_override` gives the scenes the filled-in text.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .display import decimals_needed, fmt

if TYPE_CHECKING:
    from .lesson import Context, Lesson
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

#: Matrices a placeholder can name, by what their columns are: the sentence's words,
#: the lesson's dimensions, or numbered components (a learned space has no names).
WORD_COLUMNS = ("scores", "scaled", "exp", "attention", "projected_attention")
DIMENSION_COLUMNS = ("embeddings", "output")
NUMBERED_COLUMNS = ("Q", "K", "V", "projected_output")
MATRICES = WORD_COLUMNS + DIMENSION_COLUMNS + NUMBERED_COLUMNS
#: The words of a context a placeholder can name.
WORDS = ("focus", "sentence", "name", "leans")
#: Placeholders that name the lesson, not a context.
LESSON_WIDE = ("d", "sqrt_d")

_FIELD = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")


class NarrationError(ValueError):
    """A text of ``[narration]`` that cannot be filled in; the message says what exists."""


def section_slug(text: str) -> str:
    """A section title as a file name part: ``Exponentials, then division`` -> ``exponentials-then-division``."""
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()


def placeholders(text: str) -> list[str]:
    """The placeholders of ``text`` in order (without braces); a lone brace is an error."""
    out = []
    for m in _FIELD.finditer(text):
        if m.group(0) in ("{{", "}}"):
            continue
        if m.group(1) is None:
            raise NarrationError(f"a lone {m.group(0)!r}: write {m.group(0) * 2} for a brace, or close the placeholder")
        out.append(m.group(1))
    return out


@dataclass(frozen=True)
class _Ref:
    """A placeholder resolved against the lesson: what to look up, by indices."""

    kind: str  # "number", "sum", "word" or "lesson"
    context: int = 0
    name: str = ""  # matrix, word field or lesson-wide name
    row: int = 0
    column: int = 0


def _pick(what: str, token: str, names: Sequence[str]) -> int:
    """The index of ``token`` among ``names`` (a name, or a number from 1)."""
    if token.isdigit() and 1 <= int(token) <= len(names):
        return int(token) - 1
    if token in names:
        return list(names).index(token)
    raise NarrationError(f"{token!r} is not {what}; use one of {', '.join(names)} (or a number from 1 to {len(names)})")


def _resolve(placeholder: str, lesson: Lesson) -> _Ref:
    parts = [p.strip() for p in placeholder.split(".")]
    if len(parts) == 1:
        if parts[0] in LESSON_WIDE:
            return _Ref("lesson", name=parts[0])
        raise NarrationError(f"{parts[0]!r} is not a placeholder; use {', '.join(LESSON_WIDE)} or CONTEXT.MATRIX.ROW.COLUMN")
    contexts: list[Context] = list(lesson.contexts)
    k = _pick("a context", parts[0], [c.name for c in contexts])
    ctx = contexts[k]
    what = parts[1]
    if what in WORDS:
        if len(parts) != 2:
            raise NarrationError(f"{{{parts[0]}.{what}}} takes nothing after it")
        return _Ref("word", k, what)
    if what == "sum":
        if len(parts) != 3:
            raise NarrationError("write {CONTEXT.sum.ROW}, ROW a word of the sentence")
        return _Ref("sum", k, what, _pick(f"a word of \"{ctx.sentence}\"", parts[2], ctx.tokens))
    if what not in MATRICES:
        raise NarrationError(f"{what!r} is not a matrix; use one of {', '.join(MATRICES)}, sum, or {', '.join(WORDS)}")
    if len(parts) != 4:
        raise NarrationError(f"write {{{parts[0]}.{what}.ROW.COLUMN}} (a row and a column)")
    row = _pick(f"a word of \"{ctx.sentence}\"", parts[2], ctx.tokens)
    if what in WORD_COLUMNS:
        col = _pick(f"a word of \"{ctx.sentence}\"", parts[3], ctx.tokens)
    elif what in DIMENSION_COLUMNS:
        col = _pick("a dimension", parts[3], lesson.dimensions)
    else:
        col = _pick(f"a column of {what}", parts[3], [str(i + 1) for i in range(lesson.d)])
    return _Ref("number", k, what, row, col)


def check_template(text: str, lesson: Lesson) -> None:
    """Raise :class:`NarrationError` naming the first placeholder of ``text`` that does not resolve."""
    for p in placeholders(text):
        try:
            _resolve(p, lesson)
        except NarrationError as exc:
            raise NarrationError(f"placeholder {{{p}}}: {exc}") from None


def _number(ref: _Ref, c: ContextTrace, decimals: int) -> str:
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


def _value(ref: _Ref, trace: LessonTrace) -> str:
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

    def one(m: re.Match[str]) -> str:
        if m.group(0) in ("{{", "}}"):
            return m.group(0)[0]
        if m.group(1) is None:
            raise NarrationError(f"a lone {m.group(0)!r}")
        return _value(_resolve(m.group(1), trace.lesson), trace)

    return _FIELD.sub(one, text)


def narration_override(lesson: Lesson, trace: LessonTrace, scene_name: str, section_title: str) -> str | None:
    """The lecturer's text for a section (placeholders filled in), or None to keep the scene's own.

    ``scene_name`` is not needed to find the text today (section slugs are unique in the
    lecture, a test says so) but is part of the hook so that scenes need not change if a
    slug ever repeats.
    """
    text = dict(lesson.narration).get(section_slug(section_title))
    return None if text is None else fill(text, trace)
