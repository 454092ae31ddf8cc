"""What an exercise is: the :class:`Exercise` record, its :class:`Choice` options and
:class:`Work` lines, how their numbers are written (for code, :func:`token` and :func:`plain`;
for a reader, :func:`pretty`), and :func:`choices`, which picks the wrong options. Pure Python.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import display
from ..display import MINUS
from ..i18n import number, pgettext, unnumber
from ..trace import LessonTrace

__all__ = [
    "Builder",
    "COUNT_LIMITS",
    "Choice",
    "Exercise",
    "Kind",
    "Work",
    "choices",
    "localized",
    "machine",
    "plain",
    "pretty",
    "token",
]

#: How many exercises one sheet may hold (``attnvid exercises --count``).
COUNT_LIMITS = (1, 40)


@dataclass(frozen=True)
class Choice:
    """One option of a multiple-choice question: its text as shown, and the mistake that
    gives it ("" for the right answer)."""

    text: str
    mistake: str = ""
    value: float | None = None  # the exact number behind it, when it is a number

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "mistake": self.mistake, "value": self.value}


@dataclass(frozen=True)
class Work:
    """One line of a worked solution: a label, then arithmetic claims ``expr = result``.

    ``expr`` is plain arithmetic on numbers shown before (``+ - * /``, parentheses,
    ``sqrt(n)``, ``exp(x)``); ``result`` is its value as shown (:func:`fmt` at as many
    decimals as ``result`` has). ``text`` is what a reader sees.
    """

    label: str
    checks: tuple[tuple[str, str], ...] = ()
    text: str = field(init=False, compare=False)

    def __post_init__(self) -> None:
        # A result is written as the viewer's language writes it (``fmt``: 0,26 in French); the
        # claims keep the '.' form code parses, and the text shows both sides in the language.
        checks = tuple((e, machine(r)) for e, r in self.checks)
        object.__setattr__(self, "checks", checks)
        # Translators: see "clause separator" in the scenes (French sets a space before ';').
        sums = pgettext("clause separator", "; ").join(f"{pretty(e)} = {localized(r)}" for e, r in checks)
        object.__setattr__(self, "text", f"{self.label} {sums}".strip() if sums else self.label)

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "label": self.label, "checks": [list(c) for c in self.checks]}


@dataclass(frozen=True)
class Exercise:
    """One question, its answer and its worked solution."""

    number: int  # from 1, in the sheet's order
    kind: str  # one of attncore.exercises.KINDS
    title: str  # what it practises, e.g. "A dot product, term by term"
    scene: str  # the lecture scene that explains it (a class name, as `attnvid list` names it)
    section: str  # the section of that scene (its title)
    context: int  # the context it is about, from 0
    where: dict[str, Any]  # what it is about: row, column, dimension... (positions from 0)
    prompt: str
    givens: tuple[str, ...]  # the numbers it gives, one line each
    answer_text: str  # the answer as shown
    answer: float | None  # the exact value behind it (None when it is not a number)
    decimals: int  # of the answer as shown; the tolerance is half a unit of the last one
    choices: tuple[Choice, ...] = ()  # () for a numerical question; else every option, the right one included
    solution: tuple[Work, ...] = field(default=())

    @property
    def numerical(self) -> bool:
        return not self.choices

    @property
    def tolerance(self) -> float:
        """Half a unit in the last shown decimal (accepted either side of the answer as shown)."""
        return 0.5 * 10.0 ** -self.decimals

    @property
    def tolerance_text(self) -> str:
        return f"{self.tolerance:.{self.decimals + 1}f}"

    @property
    def answer_number(self) -> str:
        """The answer as shown, with an ASCII minus and a decimal point whatever the viewer's
        language (for importers and number fields)."""
        if self.numerical and self.answer is not None:
            return display.plain(self.answer, self.decimals).replace(MINUS, "-")
        return self.answer_text.replace(MINUS, "-")

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number, "kind": self.kind, "title": self.title, "scene": self.scene,
            "section": self.section, "context": self.context, "where": self.where, "prompt": self.prompt,
            "givens": list(self.givens), "answer_text": self.answer_text, "answer": self.answer,
            "decimals": self.decimals, "tolerance": self.tolerance, "numerical": self.numerical,
            "choices": [c.to_json() for c in self.choices], "solution": [w.to_json() for w in self.solution],
        }


def token(x: float, decimals: int) -> str:
    """``x`` as shown, written for an expression: ASCII minus, a negative in parentheses, a
    decimal point (expressions are parsed; :func:`pretty` writes them in the viewer's language)."""
    s = plain(x, decimals)
    return f"({s})" if s.startswith("-") else s


def plain(x: float, decimals: int) -> str:
    """``x`` as shown, with an ASCII minus, a decimal point and no parentheses (inside ``exp(...)``)."""
    return display.plain(x, decimals).replace(MINUS, "-")


_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def localized(text: str) -> str:
    """Every number of ``text`` (written with a decimal point) as the viewer's language writes it."""
    return _NUMBER.sub(lambda m: number(m.group(0)), text)


def machine(text: str) -> str:
    """A number as :func:`~attncore.display.fmt` wrote it in the viewer's language, back in the
    '.' form code parses (digit grouping dropped).

    >>> from attncore.i18n import use
    >>> with use("de"):
    ...     machine("\u22121.234,50")
    '\u22121234.50'
    """
    return unnumber(text)


_SQRT = re.compile(r"sqrt\((\d+)\)")


def pretty(expr: str) -> str:
    """An expression as a reader sees it: × for ``*``, a real minus, √d.

    >>> pretty("(-1.5) * 2 + sqrt(4)")
    '(−1.5) × 2 + √4'
    """
    return localized(_SQRT.sub(r"√\1", expr).replace("*", "×").replace("-", MINUS))


#: A kind's builder: (trace, candidate, rng, number) -> an exercise, or None when this
#: candidate cannot make one (its wrong options would coincide with the answer...).
Builder = Callable[["LessonTrace", tuple[int, ...], random.Random, int], "Exercise | None"]


#: A kind: (its name, its candidates in a lesson, its builder).
Kind = tuple[str, Callable[["LessonTrace"], list[tuple[int, ...]]], Builder]


def choices(
    rng: random.Random, answer: Choice, mistakes: Sequence[Choice], wrong: int = 3
) -> tuple[Choice, ...] | None:
    """The right option and up to ``wrong`` mistakes, in a seeded order; None when fewer than
    two mistakes differ, as shown, from the answer and from each other."""
    seen = {answer.text}
    picked: list[Choice] = []
    pool = list(mistakes)
    rng.shuffle(pool)
    for m in pool:
        if m.text in seen or (m.value is not None and not math.isfinite(m.value)):
            continue
        seen.add(m.text)
        picked.append(m)
        if len(picked) == wrong:
            break
    if len(picked) < 2:
        return None
    out = [answer, *picked]
    rng.shuffle(out)
    return tuple(out)
