"""What the numbers of a valid lesson produce, checked: the exponentials the softmax
scene shows fit a cell, and each context's ``leans`` is what its focus word's output does.

Pure numpy over the simplified step (Q = K = V = X); used by :func:`attncore.lesson_parse.parse_lesson`.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass

import numpy as np

from .display import decimals_needed, fmt, round_matrix
from .glyphs import describe, undrawable
from .lesson_model import EXP_LIMIT, LEAN_MARGIN, SCORE_LIMIT, Lesson, error_at, toml_key
from .steps import attention

__all__ = ["check_decimals", "check_exponentials", "check_fonts", "check_leans", "lesson_warnings"]


def _focus_step(lesson: Lesson, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(scaled scores (n,), output (d,)) of context ``k``'s focus word in the simplified step, Q = K = V = X."""
    ctx = lesson.contexts[k]
    x = np.array([lesson.vector(t) for t in ctx.tokens], dtype=np.float64)  # (n, d)
    r = attention(x, x, x)
    return r.scaled[ctx.focus_index], r.output[ctx.focus_index]


def check_exponentials(src: str, lesson: Lesson) -> None:
    """The softmax scene exponentiates the first context's focus row: each exponential must fit a cell."""
    ctx = lesson.contexts[0]
    scaled, _ = _focus_step(lesson, 0)
    j = int(np.argmax(scaled))
    if scaled[j] <= SCORE_LIMIT:
        return
    other = ctx.tokens[j]
    words = f"vocabulary.{toml_key(ctx.focus)}" + ("" if other == ctx.focus else f" or vocabulary.{toml_key(other)}")
    raise error_at(src, "contexts[1]",
               f"the scaled score of {ctx.focus!r} with {other!r} is {scaled[j]:.2f}, so the softmax scene would show "
               f"its exponential, {math.exp(scaled[j]):.3g}, too long for a cell",
               f"keep the first context's focus-word scores x·y/√d at most {SCORE_LIMIT:.1f} (exponentials under "
               f"{EXP_LIMIT:,}): use smaller values in {words}")


@dataclass(frozen=True)
class _Lean:
    """How the focus word's output (simplified step) compares the claimed dimension with the strongest other."""

    margin: float  # claimed minus strongest other, exact
    contradicted: bool  # the screen shows the other one larger (at the lesson's decimals)
    other: str  # the strongest other dimension
    shown: str  # both values as the screen shows them


def _lean(lesson: Lesson, k: int) -> _Lean:
    ctx = lesson.contexts[k]
    assert ctx.leans is not None
    _, out = _focus_step(lesson, k)
    c = lesson.dimensions.index(ctx.leans)
    o = max((j for j in range(lesson.d) if j != c), key=lambda j: out[j])
    claimed, other = round_matrix([out[c], out[o]], lesson.decimals)
    shown = f"{ctx.leans} {fmt(out[c], lesson.decimals)}, {lesson.dimensions[o]} {fmt(out[o], lesson.decimals)}"
    return _Lean(float(out[c] - out[o]), bool(other > claimed), lesson.dimensions[o], shown)


def check_leans(src: str, lesson: Lesson, k: int) -> None:
    """A context's ``leans`` must be what its focus word's output (simplified step) does on screen;
    a tie at the shown decimals is only too small to see (a warning, :func:`lesson_warnings`)."""
    ctx = lesson.contexts[k]
    if ctx.leans is None:
        return
    lean = _lean(lesson, k)
    actual, shown = lean.other, lean.shown
    if lean.contradicted:
        raise error_at(
            src,
            f"contexts[{k + 1}].leans",
            f'{ctx.leans!r} is contradicted: in "{ctx.sentence}" the output of {ctx.focus!r} leans {actual!r} '
            f'({shown})',
            f'write leans = "{actual}", or make the other words of the sentence stronger in {ctx.leans!r}',
        )


def lesson_warnings(lesson: Lesson) -> list[str]:
    """One line per claim that holds but not visibly: a ``leans`` margin under :data:`LEAN_MARGIN`."""
    out = []
    for k, ctx in enumerate(lesson.contexts):
        if ctx.leans is None:
            continue
        lean = _lean(lesson, k)
        if lean.margin < LEAN_MARGIN:
            out.append(
                f"{lesson.source}: contexts[{k + 1}].leans: {ctx.focus!r} leans {ctx.leans!r} by only "
                f"{max(lean.margin, 0):.2f} ({lean.shown}), under the {LEAN_MARGIN} a viewer can see; make the other "
                "words of "
                f'"{ctx.sentence}" stronger in {ctx.leans!r}'
            )
    return out


def check_decimals(src: str, lesson: Lesson) -> None:
    """Every number the lesson types must show exactly at its ``decimals``: a vector value
    0.25 shown as 0.3 (decimals = 1) would make every sum built on it impossible to redo
    from the screen. The same for explicit weight matrices."""
    dec = lesson.decimals
    typed: list[tuple[str, list[float]]] = [(f"vocabulary.{toml_key(w)}", list(v)) for w, v in lesson.vocabulary]
    typed += [(f"projections.{name}", [x for row in m for x in row]) for name, m in lesson.projections.explicit]
    for where, values in typed:
        for x in values:
            need = decimals_needed([x], 3)
            if need > dec:
                shown = fmt(x, dec)
                raise error_at(
                    src,
                    where,
                    f"{x:g} needs {need} decimals, but decimals = {dec} would show it as {shown} "
                    "and no sum built on it could be redone from the screen",
                    f"set decimals = {need}, or write {shown} instead of {x:g}",
                )


def check_fonts(src: str, lesson: Lesson) -> None:
    """Every text of the lesson that a frame shows is drawable by an installed font
    (:mod:`attncore.glyphs`): a word in a script none covers is refused here, named, rather than
    drawn as empty boxes (or nothing) in every scene."""
    shown = [("title", lesson.title)]
    shown += [(f"dimensions[{k}]", name) for k, name in enumerate(lesson.dimensions)]
    shown += [(f"vocabulary.{toml_key(word)}", word) for word, _ in lesson.vocabulary]
    shown += [(f"contexts[{k + 1}].name", c.name) for k, c in enumerate(lesson.contexts)]
    shown += [(f"lecture.parts[{k + 1}].title", p.title) for k, p in enumerate(lesson.lecture)]
    shown += [(f"narration.{toml_key(slug)}", text) for slug, text in lesson.narration]
    for where, text in shown:
        c = undrawable(text)
        if c is None:
            continue
        fix = ("install an outline font that has it (Debian/Ubuntu: sudo apt-get install fonts-symbola; colour "
               "emoji fonts are not drawn) or write a word instead" if unicodedata.category(c) == "So" else
               "install a font for its script (Debian/Ubuntu: sudo apt-get install fonts-noto-core) or write "
               "it in a script the installed fonts cover (fc-list :lang=<code> lists them)")
        raise error_at(src, where, f"no installed font draws {describe(c)} of {text!r}", fix)
