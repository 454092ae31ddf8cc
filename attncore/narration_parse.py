"""The ``[narration]`` text as the lecturer writes it: its placeholders, the lesson's names
they resolve to, and the section slugs its keys are.

The grammar is in :mod:`attncore.narration`'s docstring. This module needs only the
lesson, not the trace: :mod:`attncore.lesson_parse` checks every text with
:func:`check_template` while the lesson is read, before any trace exists, and
:mod:`attncore.narration` fills the placeholders in from the trace through
:func:`substitute`. Apart, the imports go one way (``lesson_parse`` -> this module ->
``lesson_model``; ``narration`` -> ``trace`` -> ``lesson`` -> ``lesson_parse``); as one
module, reading a lesson imported the module whose types come from the trace, which is
computed from a lesson: a circle of seven modules (``tests/test_imports.py`` finds any).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .lesson_model import Context, Lesson

__all__ = [
    "MATRICES",
    "WORDS",
    "NarrationError",
    "Placeholder",
    "check_template",
    "placeholders",
    "resolve",
    "section_slug",
    "substitute",
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
class Placeholder:
    """A placeholder resolved against the lesson: what to look up, by indices (the trace gives the value)."""

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


def resolve(placeholder: str, lesson: Lesson) -> Placeholder:
    """What ``placeholder`` (without braces) names in ``lesson``; :class:`NarrationError` if nothing."""
    parts = [p.strip() for p in placeholder.split(".")]
    if len(parts) == 1:
        if parts[0] in LESSON_WIDE:
            return Placeholder("lesson", name=parts[0])
        raise NarrationError(
            f"{parts[0]!r} is not a placeholder; use {', '.join(LESSON_WIDE)} or CONTEXT.MATRIX.ROW.COLUMN"
        )
    contexts: list[Context] = list(lesson.contexts)
    k = _pick("a context", parts[0], [c.name for c in contexts])
    ctx = contexts[k]
    what = parts[1]
    if what in WORDS:
        if len(parts) != 2:
            raise NarrationError(f"{{{parts[0]}.{what}}} takes nothing after it")
        return Placeholder("word", k, what)
    if what == "sum":
        if len(parts) != 3:
            raise NarrationError("write {CONTEXT.sum.ROW}, ROW a word of the sentence")
        return Placeholder("sum", k, what, _pick(f"a word of \"{ctx.sentence}\"", parts[2], ctx.tokens))
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
    return Placeholder("number", k, what, row, col)


def check_template(text: str, lesson: Lesson) -> None:
    """Raise :class:`NarrationError` naming the first placeholder of ``text`` that does not resolve."""
    for p in placeholders(text):
        try:
            resolve(p, lesson)
        except NarrationError as exc:
            raise NarrationError(f"placeholder {{{p}}}: {exc}") from None


def substitute(text: str, lesson: Lesson, value: Callable[[Placeholder], str]) -> str:
    """``text`` with each placeholder replaced by ``value`` of what it names in ``lesson``,
    and ``{{``, ``}}`` by a brace; :class:`NarrationError` for a lone brace or a placeholder
    that names nothing."""

    def one(m: re.Match[str]) -> str:
        if m.group(0) in ("{{", "}}"):
            return m.group(0)[0]
        if m.group(1) is None:
            raise NarrationError(f"a lone {m.group(0)!r}")
        return value(resolve(m.group(1), lesson))

    return _FIELD.sub(one, text)
