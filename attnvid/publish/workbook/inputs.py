"""The Inputs sheet: what a student types (vocabulary, sentences, weights), and the labels
every other sheet takes from it.

Only this sheet holds typed numbers (in the "Input" cell style); the sentences are typed
words too, so a student can try another word of the vocabulary in a sentence. Labels on
other sheets are formulas pointing here, so a renamed word or dimension follows.
"""

from __future__ import annotations

import numpy as np

from attncore import LessonTrace, decimals_needed
from attncore.i18n import N_, _

from ...catalog import scene_number
from .grid import Block, Book, Linked, Matrix, Sheet

__all__ = ["INPUTS", "context_heading", "dim_labels", "inputs_sheet", "token_labels"]

# Translators: a sheet name of the workbook: at most 31 characters, none of : \ / ? * [ ]
INPUTS = N_("Inputs")
_SHOWN_DECIMALS = 6  # typed values are shown as typed, up to this many decimals


def token_labels(book: Book, c: int, here: str) -> list[Linked]:
    """The words of context ``c`` as labels linked to the sentence typed on the Inputs sheet."""
    tokens = book[f"Tokens_{c + 1}"]
    words = book.trace.contexts[c].tokens
    return [Linked(f"={tokens.cell(0, j, here)}", w) for j, w in enumerate(words)]


def dim_labels(book: Book, here: str) -> list[Linked]:
    """The dimension names as labels linked to the vocabulary's header."""
    dims = book["Dimensions"]
    return [Linked(f"={dims.cell(0, j, here)}", name) for j, name in enumerate(book.trace.lesson.dimensions)]


def context_heading(sheet: Sheet, row: int, trace: LessonTrace, c: int, col: int = 1) -> int:
    """"Context 1 «animal»: cat and mouse are friends (focus: mouse)" at ``row``; the next free row."""
    ctx = trace.contexts[c].context
    sheet.text(row, col, _("Context {n} «{name}»: {sentence}   (focus: {focus})").format(
        n=c + 1, name=ctx.name, sentence=ctx.sentence, focus=ctx.focus), bold=True, size=12)
    return row + 1


def inputs_sheet(book: Book, trace: LessonTrace) -> None:
    s = book.sheet(_(INPUTS), _("What you type: the vocabulary, the sentences and the weights (the orange cells)."))
    s.title_band(_("Inputs: type here"),
                 _("Orange cells are inputs: change one and every sheet recomputes. Everything else in the workbook is "
                   "a formula."))
    row = _vocabulary(s, trace, 4)
    row = _sentences(s, trace, row + 1)
    row = _weights(s, trace, row + 1)
    _sizes(s, trace, row + 1)
    s.finish()


def _vocabulary(s: Sheet, trace: LessonTrace, row: int) -> int:
    lesson, p = trace.lesson, s.palette
    s.text(row, 1, _("Vocabulary: one row per word, one column per named dimension"), bold=True, size=12)
    s.put(row + 1, 1, _("word"), font=p.ink(bold=True), align=p.centre())
    for j, name in enumerate(lesson.dimensions):
        s.put(row + 1, 2 + j, name, font=p.ink(bold=True), fill=p.fill(p.dim(name)), align=p.centre(), border=True)
    book = s.book
    book.define("Dimensions", Block(s.title, row + 1, 2, 1, lesson.d))
    values = np.array([v for _, v in lesson.vocabulary])
    dec = decimals_needed(values, _SHOWN_DECIMALS)
    for i, (word, vec) in enumerate(lesson.vocabulary):
        s.put(row + 2 + i, 1, word, font=p.ink(bold=True))
        for j, v in enumerate(vec):
            s.put(row + 2 + i, 2 + j, v, decimals=dec, named="Input")
    book.define("Words", Block(s.title, row + 2, 1, len(lesson.vocabulary), 1))
    book.define("Vocabulary", Block(s.title, row + 2, 2, len(lesson.vocabulary), lesson.d))
    return row + 2 + len(lesson.vocabulary)


def _sentences(s: Sheet, trace: LessonTrace, row: int) -> int:
    p = s.palette
    s.text(row, 1, _("Sentences: one word per cell (type another word of the vocabulary to try another sentence)"),
           bold=True, size=12)
    row += 1
    for c, ct in enumerate(trace.contexts):
        s.put(row, 1, ct.context.name, font=p.ink(bold=True))
        for j, word in enumerate(ct.tokens):
            s.put(row, 2 + j, word, named="Input")
        s.text(row, 3 + ct.n, _("focus: word {i} ({word})").format(i=ct.focus_index + 1, word=ct.focus), italic=True)
        s.book.define(f"Tokens_{c + 1}", Block(s.title, row, 2, 1, ct.n))
        row += 1
    return row


def _weights(s: Sheet, trace: LessonTrace, row: int) -> int:
    w, lesson = trace.weights, trace.lesson
    s.text(row, 1, _("Weights of the learned projections (steps {first} to {last}), the same in every context")
           .format(first=scene_number("LearnedProjections"), last=scene_number("MultiHead")), bold=True, size=12)
    s.text(row + 1, 1, w.provenance, italic=True)
    dims = dim_labels(s.book, s.title)
    d, d_v = lesson.d, w.W_V_reshape.shape[1]
    square = [("W_Q", "q", "query"), ("W_K", "k", "key"), ("W_V", "v", "value")]
    col, top = 1, row + 3
    for name, letter, role in square:
        _weight(s, top, col, name, name, dims, [f"{letter}{j + 1}" for j in range(d)], getattr(w, name), role)
        col += d + 2
    top += d + 3
    _weight(s, top, 1, "W_O", _("W_O (mixes the concatenated heads)"), dims, [f"o{j + 1}" for j in range(d)], w.W_O,
            "weight")
    _weight(
        s,
        top,
        d + 3,
        "W_V_reshape",
        _("W_V of step {step} ({d}×{d_v}: changes the dimension)").format(step=scene_number("ChangingDimension"), d=d,
                                                                           d_v=d_v),
        dims,
        [f"v{j + 1}" for j in range(d_v)],
        w.W_V_reshape,
        "value",
    )
    return top + d + 2


def _weight(s: Sheet, row: int, col: int, name: str, title: str, rows: list[Linked], cols: list[str],
            values: np.ndarray, role: str) -> Block:
    dec = decimals_needed(values, _SHOWN_DECIMALS)
    return s.matrix(row, col, Matrix(title, rows, cols, None, values, dec, header=role, name=name))


def _sizes(s: Sheet, trace: LessonTrace, row: int) -> None:
    """d, h, d_h and d_v: the sizes the formulas divide by (the shapes are fixed in this workbook)."""
    lesson, p = trace.lesson, s.palette
    s.text(row, 1, _("Sizes (fixed: every sheet's shape follows them; change them in the lesson file)"), bold=True,
           size=12)
    d_v = trace.weights.W_V_reshape.shape[1]
    rows: list[tuple[str, str, str, float | str, float]] = [
        ("d_model", "d", _("the number of dimensions"), "=COLUMNS(Dimensions)", lesson.d),
        ("heads", "h", _("the number of heads"), float(lesson.heads), lesson.heads),
        ("d_head", "d_h", _("d / h, the size of a head"), "=d_model/heads", lesson.d // lesson.heads),
        ("d_v", "d_v", _("the size of step {step}'s values").format(step=scene_number("ChangingDimension")),
         "=COLUMNS(W_V_reshape)", d_v),
    ]
    for k, (name, symbol, text, value, cached) in enumerate(rows):
        r = row + 1 + k
        s.put(r, 1, symbol, font=p.ink(bold=True))
        s.put(r, 2, value, cached=cached if isinstance(value, str) else None, decimals=0, border=True)
        s.text(r, 3, text, italic=True)
        s.book.define(name, Block(s.title, r, 2, 1, 1))
