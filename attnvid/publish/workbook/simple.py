"""The steps before learned weights as sheets: embeddings, dot products, scaling, softmax, mixing, two contexts.

One sheet per step, every context stacked on it (the two contexts side by side on the
last). Each formula references the sheet of the step before, as the lecture builds each
step on the last; the defined names (``Scores_1``, ``Attention_2``...) mark the matrices.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from openpyxl.utils import get_column_letter

from attncore import ContextTrace, decimals_needed, product_decimals, worked_softmax_decimals
from attncore.i18n import N_, _, pgettext

from ...catalog import numbered, scene_number
from .formulas import dot, exp, pick, product, softmax_weight, total
from .grid import Block, Book, Matrix, Sheet, addr
from .inputs import context_heading, dim_labels, token_labels

__all__ = ["best_partner", "simplified_sheets", "stack_contexts"]

# Translators: sheet names of the workbook: at most 31 characters, none of : \ / ? * [ ]
EMB, DOT, SCALE, SOFT, MIX, TWO = (N_("Embeddings"), N_("Dot products"), N_("Scaling"), N_("Softmax"), N_("Mixing"),
                                   N_("Two contexts"))


def simplified_sheets(book: Book) -> None:
    """The steps from Embeddings to TwoContexts (SimplifiedAttention, Q = K = V = X, is a note on the first;
    ReadingAttention is the focus rows)."""
    for sheet in (_embeddings, _dot_products, _scaling, _softmax, _mixing, _two_contexts):
        sheet(book)


def stack_contexts(book: Book, s: Sheet, row: int, one: Callable[[Sheet, int, int], int]) -> None:
    """Stack the contexts on ``s`` from ``row``: ``one(s, c, row) -> next row`` places context ``c``."""
    for c in range(len(book.trace.contexts)):
        row = context_heading(s, row, book.trace, c)
        row = one(s, c, row)
    s.finish()


def _dims_colours(book: Book) -> list[str]:
    return [book.palette.dim(d) for d in book.trace.lesson.dimensions]


def _embeddings(book: Book) -> None:
    s = book.sheet(_(EMB), _("Steps {step}-{next}. Each sentence's X, looked up in the vocabulary by word and "
                             "dimension.")
                   .format(step=scene_number("Embeddings"), next=scene_number("SimplifiedAttention")))
    here = s.title
    # Translators: Vocabulary, Words and Dimensions are the names the formulas use: keep them as they are.
    s.title_band(numbered("Embeddings", _("Embeddings")),
                 _("A sentence is the vocabulary rows of its words: X[word, dimension] = "
                   "INDEX(Vocabulary, MATCH(word, Words, 0), MATCH(dimension, Dimensions, 0))"))
    s.text(3, 1, numbered("SimplifiedAttention", _("Self-attention, simplified: for now the queries, keys and values "
                                                   "are these rows themselves (Q = K = V = X).")), italic=True)

    def one(s: Sheet, c: int, row: int) -> int:
        ct = book.trace.contexts[c]
        top = row + 2

        def f(i: int, j: int) -> str:
            return pick(f"$A{top + i}", f"{get_column_letter(2 + j)}${top - 1}")

        m = Matrix(_("X ({n}×{d}): one row per word").format(n=ct.n, d=ct.d), token_labels(book, c, here),
                   dim_labels(book, here), f,
                   ct.embeddings, decimals_needed(ct.embeddings, book.trace.decimals), header=_dims_colours(book),
                   name=f"X_{c + 1}", focus_row=ct.focus_index)
        return s.matrix(row, 1, m).bottom + 2

    stack_contexts(book, s, 4, one)


def best_partner(ct: ContextTrace) -> int:
    """The word the focus word scores highest with among the others: the score the video works out."""
    i = ct.focus_index
    return max((k for k in range(ct.n) if k != i), key=lambda k: float(ct.scores[i, k]))


def _dot_products(book: Book) -> None:
    s = book.sheet(_(DOT), _("Step {step}. One score worked out term by term, then every score S = X·Xᵀ.")
                   .format(step=scene_number("DotProducts")))
    here = s.title
    s.title_band(numbered("DotProducts", _("Dot products")),
                 _("S = X·Xᵀ: the score of word i with word j is Σ X[i, k]·X[j, k] = "
                   "SUMPRODUCT(row i, row j). A similarity, not yet a weight."))
    dec = book.trace.decimals

    def one(s: Sheet, c: int, row: int) -> int:
        ct, x, k = book.trace.contexts[c], book[f"X_{c + 1}"], c + 1
        i, j = ct.focus_index, best_partner(ct)
        toks, top = token_labels(book, c, here), row + 2

        def term(r: int, col: int) -> str:
            if col < 2:
                return f"={x.cell(i if col == 0 else j, r, here)}"
            return f"={addr(top + r, 2)}*{addr(top + r, 3)}"

        vals = np.column_stack([ct.embeddings[i], ct.embeddings[j], ct.dot_terms(i, j)])
        # as the video shows them: the factors as typed, the products and their sum with all their digits
        x_dec = decimals_needed(ct.embeddings, dec)
        p_dec = product_decimals(x_dec, dec)
        w = s.matrix(row, 1, Matrix(_("One score, term by term: {word} · {other}").format(word=ct.tokens[i],
                                                                                          other=ct.tokens[j]),
                                    dim_labels(book, here), [toks[i], toks[j], _("product")], term, vals, dec,
                                    header=["query", "key", "muted"],
                                    cell_decimals=lambda _r, col: p_dec if col == 2 else x_dec))
        terms = book.define(f"Dot_terms_{k}", w.columns(2, 3))
        s.row_below(terms, _("score = sum"), lambda _r: total(terms.area(here)), [ct.scores[i, j]], p_dec,
                    name=f"Dot_score_{k}", label_col=1)
        m = Matrix(_("Scores S = X·Xᵀ (row = query word, column = key word)"), toks, toks,
                   lambda a, b: dot(x.row(a, here), x.row(b, here)), ct.scores, dec, header="key", name=f"Scores_{k}",
                   focus_row=i)
        sb = s.matrix(row, w.right + 2, m)
        return max(w.bottom + 1, sb.bottom) + 2

    stack_contexts(book, s, 4, one)


def _scaling(book: Book) -> None:
    s = book.sheet(_(SCALE), _("Step {step}. S/√d, and the softmax with and without the scaling.")
                   .format(step=scene_number("Scaling")))
    here = s.title
    s.title_band(numbered("Scaling", _("Scaling")),
                 _("Divide every score by √d (d = the number of dimensions) so that the softmax does "
                   "not become too sharp as d grows; compare the two softmaxes."))
    dec, p = book.trace.decimals, book.palette
    s.put(4, 1, "√d =", font=p.ink(bold=True))
    s.put(4, 2, "=SQRT(d_model)", cached=math.sqrt(book.trace.lesson.d), decimals=dec, border=True)
    book.define("sqrt_d", Block(here, 4, 2, 1, 1))

    def one(s: Sheet, c: int, row: int) -> int:
        ct, sc, k = book.trace.contexts[c], book[f"Scores_{c + 1}"], c + 1
        toks, fi = token_labels(book, c, here), ct.focus_index
        scaled = s.matrix(
            row,
            1,
            Matrix(
                _("Scaled scores S/√d"),
                toks,
                toks,
                lambda i, j: f"={sc.cell(i, j, here)}/sqrt_d",
                ct.scaled,
                dec,
                header="key",
                name=f"Scaled_{k}",
                focus_row=fi,
            ),
        )
        with_ = s.matrix(row, scaled.right + 2, Matrix(
            _("With scaling: softmax(S/√d)"), toks, toks,
            lambda i, j: softmax_weight(scaled.cell(i, j, here), scaled.row(i, here)),
            ct.attention, dec, header="key", name=f"Scaled_attention_{k}", heat=True, focus_row=fi))
        without = s.matrix(
            row,
            with_.right + 2,
            Matrix(
                _("Without scaling: softmax(S)"),
                toks,
                toks,
                lambda i, j: softmax_weight(sc.cell(i, j, here), sc.row(i, here)),
                ct.unscaled_attention,
                dec,
                header="muted",
                name=f"Unscaled_attention_{k}",
                heat=True,
                focus_row=fi,
            ),
        )
        return without.bottom + 2

    stack_contexts(book, s, 6, one)


def _softmax(book: Book) -> None:
    s = book.sheet(_(SOFT), _("Steps {step}-{next}. The focus word's row worked out (exponentials, their sum, the "
                              "division), then the whole attention matrix.")
                   .format(step=scene_number("Softmax"), next=scene_number("ReadingAttention")))
    s.title_band(numbered("Softmax", _("Softmax")),
                 _("Exponentiate, divide by the row's sum: every row becomes weights that sum to 1. "
                   "Row = the word being updated (query), column = the word it looks at (key)."))
    stack_contexts(book, s, 4, _softmax_context)


def _softmax_context(s: Sheet, c: int, row: int) -> int:
    book, here = s.book, s.title
    ct, sc, k, dec = book.trace.contexts[c], book[f"Scaled_{c + 1}"], c + 1, book.trace.decimals
    toks, i, n = token_labels(book, c, here), ct.focus_index, ct.n
    top, sum_cell = row + 2, addr(row + 3, 2 + n, absolute=True)

    def worked(r: int, j: int) -> str:
        if r == 0:
            return f"={sc.cell(i, j, here)}"
        return exp(addr(top, 2 + j)) if r == 1 else f"={addr(top + 1, 2 + j)}/{sum_cell}"

    vals = np.vstack([ct.scaled[i], ct.softmax_exps(i), ct.attention[i]])
    # the video's digits: scores and exponentials with the decimals that make the row redoable
    row_dec = (*worked_softmax_decimals(ct.scaled[i], dec), dec)
    w = s.matrix(row, 1, Matrix(_("The row of {word}, worked out").format(word=ct.focus),
                                [_("scaled score"), _("exp(score)"), _("÷ sum = weight")],
                                toks, worked, vals, dec, header="key", cell_decimals=lambda r, _c: row_dec[r]))
    book.define(f"Worked_scores_{k}", Block(here, top, 2, 1, n))
    book.define(f"Worked_exps_{k}", Block(here, top + 1, 2, 1, n))
    book.define(f"Worked_weights_{k}", Block(here, top + 2, 2, 1, n))
    s.column_beside(Block(here, top + 1, 2, 1, n), pgettext("the header of a row's sum", "sum"),
                    lambda _r: total(f"{addr(top + 1, 2)}:{addr(top + 1, 1 + n)}"),
                    [ct.softmax_total(i)], row_dec[1], name=f"Worked_total_{k}", colour="accent")
    row = w.bottom + 2
    exps = np.vstack([ct.softmax_exps(a) for a in range(n)])
    e = s.matrix(row, 1, Matrix(_("Exponentials exp(S/√d)"), toks, toks, lambda a, b: exp(sc.cell(a, b, here)), exps,
                                dec,
                                header="key", name=f"Exps_{k}", focus_row=i))
    sums = s.column_beside(e, _("row sum"), lambda a: total(e.row(a, here)), [ct.softmax_total(a) for a in range(n)],
                           dec,
                           name=f"Exp_sums_{k}", colour="accent")
    a = s.matrix(row, sums.right + 2, Matrix(
        _("Attention A: exponential ÷ row sum"), toks, toks,
        lambda a, b: f"={e.cell(a, b, here)}/{sums.cell(a, 0, here)}",
        ct.attention, dec, header="key", name=f"Attention_{k}", heat=True, focus_row=i))
    s.column_beside(a, _("Σ row"), lambda r: total(a.row(r, here)), ct.row_sums(), dec, name=f"Row_sums_{k}")
    return a.bottom + 2


def _mixing(book: Book) -> None:
    s = book.sheet(_(MIX), _("Step {step}. Output = A·X: the focus word's output as a weighted sum, then every output.")
                   .format(step=scene_number("MixingValues")))
    here = s.title
    s.title_band(
        numbered("MixingValues", _("Mixing the values")),
        _(
            "Output = A·V with V = X for now: a word's output is every word's vector "
            "weighted by its attention, summed. Output[i, dimension] = "
            "MMULT(row i of A, column of X)."
        ),
    )
    dec = book.trace.decimals

    def one(s: Sheet, c: int, row: int) -> int:
        ct, a, x, k = book.trace.contexts[c], book[f"Attention_{c + 1}"], book[f"X_{c + 1}"], c + 1
        toks, dims, fi = token_labels(book, c, here), dim_labels(book, here), ct.focus_index
        wv = s.matrix(row, 1, Matrix(
            _("{word}: attention weight × vector of each word").format(word=ct.focus), toks, dims,
            lambda j, m: f"={a.cell(fi, j, here)}*{x.cell(j, m, here)}", ct.weighted_values(fi), dec,
            header=_dims_colours(book), name=f"Weighted_values_{k}"))
        s.row_below(wv, _("sum: output of {word}").format(word=ct.focus), lambda m: total(wv.col(m, here)),
                    ct.output[fi], dec, name=f"Focus_sum_{k}")
        out = s.matrix(row, wv.right + 2, Matrix(
            _("Output A·X"), toks, dims, lambda i, m: product(a.row(i, here), x.col(m, here)), ct.output, dec,
            header=_dims_colours(book), name=f"Output_{k}", focus_row=fi))
        return max(wv.bottom + 1, out.bottom) + 2

    stack_contexts(book, s, 4, one)


def _two_contexts(book: Book) -> None:
    s = book.sheet(_(TWO), _("Step {step}. The focus word in every context: same input, different outputs, where each "
                             "leans.").format(step=scene_number("TwoContexts")))
    s.title_band(numbered("TwoContexts", _("Side by side")),
                 _("The same input vector, different outputs: the vocabulary did not change, "
                   "only how attention combined it."))
    col = 1
    for c in range(len(book.trace.contexts)):
        col = _two_contexts_one(s, c, col) + 2
    s.finish()


def _two_contexts_one(s: Sheet, c: int, col: int) -> int:
    """Context ``c`` from column ``col``: input and output of its focus word, its lean, its attention row."""
    book, here = s.book, s.title
    ct, k, dec, dims = book.trace.contexts[c], c + 1, book.trace.decimals, book.trace.lesson.dimensions
    x, o, a, fi = book[f"X_{k}"], book[f"Output_{k}"], book[f"Attention_{k}"], ct.focus_index
    s.text(4, col, _("«{name}»: {sentence}").format(name=ct.context.name, sentence=ct.context.sentence), bold=True,
           size=12)
    vals = np.column_stack([ct.embeddings[fi], ct.output[fi]])
    v = s.matrix(5, col, Matrix(ct.focus, dim_labels(book, here), [_("input"), _("output")],
                                lambda r, j: f"={(x if j == 0 else o).cell(fi, r, here)}", vals, dec,
                                header=["muted", "output"]))
    book.define(f"Focus_input_{k}", v.columns(0, 1))
    out = book.define(f"Focus_output_{k}", v.columns(1, 2))
    p, lean_row = book.palette, v.bottom + 1
    # Translators: the label of the dimension a word's output leans to ("leans: animal").
    s.put(lean_row, col, _("leans"), font=p.ink(bold=True))
    column = out.area(here)
    s.put(lean_row, out.left, f"=INDEX(Dimensions,MATCH(MAX({column}),{column},0))",
          cached=dims[int(np.argmax(ct.output[fi]))], font=p.ink(bold=True), fill=p.fill(p["accent"]), align=p.centre())
    book.define(f"Leans_{k}", Block(here, lean_row, out.left, 1, 1))
    att = s.matrix(lean_row + 2, col, Matrix(
        _("what {word} attends to").format(word=ct.focus), [ct.focus], token_labels(book, c, here),
        lambda _r, j: f"={a.cell(fi, j, here)}",
        ct.attention[fi][None, :], dec, header="key", heat=True, name=f"Focus_attention_{k}"))
    return max(v.right, att.right)
