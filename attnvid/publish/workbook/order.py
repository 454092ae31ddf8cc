"""Reading order as sheets: the causal mask, and positions (why attention needs them).

The causal mask hides the words after a word: row i of the attention is the softmax of
its first i + 1 scaled scores (a range that grows by one cell per row), and 0 beyond. A
spreadsheet has no −∞, so the masked scores show "−∞" as text and the weights they would
give are the constant 0.

Positions: the sinusoidal encoding is a formula per cell (SIN and COS of the position over
10000^(2i/d)), added to X; the sentence shuffled (the focus word and the first other word
change places) gives the focus word the same output without positions and another with.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from attncore import ContextTrace, add_positions, scale, scores
from attncore.display import MINUS_INFINITY
from attncore.i18n import N_, _

from .formulas import dot, encoding, product, softmax_weight
from .grid import Block, Book, Linked, Matrix, Sheet
from .inputs import dim_labels, token_labels
from .simple import stack_contexts

__all__ = ["order_sheets"]

# Translators: sheet names of the workbook: at most 31 characters, none of : \ / ? * [ ]
CAUSAL, POS = N_("Causal mask"), N_("Positions")


def order_sheets(book: Book) -> None:
    _causal(book)
    _positions(book)


def _causal(book: Book) -> None:
    s = book.sheet(_(CAUSAL), _("The causal mask: a word looks only at itself and the words before it."))
    here = s.title
    s.title_band(_("The causal mask"), _("Read left to right, a word may look only at itself and the words before it: "
                                         "the scores after it become −∞, so their weights are 0; each row's softmax "
                                         "runs over the rest."))
    dec = book.trace.decimals

    def one(s: Sheet, c: int, row: int) -> int:
        ct, k = book.trace.contexts[c], c + 1
        sc, x, toks, fi = book[f"Scaled_{k}"], book[f"X_{k}"], token_labels(book, c, here), ct.focus_index
        masked = s.matrix(row, 1, Matrix(
            _("Masked scores S/√d"), toks, toks, lambda i, j: f"={sc.cell(i, j, here)}" if j <= i else MINUS_INFINITY,
            ct.causal.masked, dec, header="key", name=f"Causal_masked_{k}", focus_row=fi))

        def weight(i: int, j: int) -> str | float:
            seen = masked.columns(0, i + 1).row(i, here)  # the scores word i may see
            return softmax_weight(masked.cell(i, j, here), seen) if j <= i else 0.0

        a = s.matrix(
            row,
            masked.right + 2,
            Matrix(
                _("Attention under the mask"),
                toks,
                toks,
                weight,
                ct.causal.attention,
                dec,
                header="key",
                name=f"Causal_attention_{k}",
                heat=True,
                focus_row=fi,
            ),
        )
        out = s.matrix(row, a.right + 2, Matrix(
            _("Output A·X"), toks, dim_labels(book, here), lambda i, j: product(a.row(i, here), x.col(j, here)),
            ct.causal.output, dec, header=[book.palette.dim(d) for d in book.trace.lesson.dimensions],
            name=f"Causal_output_{k}", focus_row=fi))
        return _mask_cost(s, c, out.bottom + 2, book[f"Attention_{k}"], a)

    stack_contexts(book, s, 4, one)


def _mask_cost(s: Sheet, c: int, row: int, unmasked: Block, masked: Block) -> int:
    """The focus word's attention on the words that carry its sense, without and with the mask."""
    book, ct, here = s.book, s.book.trace.contexts[c], s.title
    cost, fi, p = ct.causal.mask_cost, ct.focus_index, s.palette
    if not cost.sense_positions:
        return row
    words = ", ".join(ct.tokens[j] for j in cost.sense_positions)
    s.text(
        row,
        1,
        _("{word}'s attention on the words that carry its sense ({words}):").format(word=ct.focus, words=words),
        bold=True,
    )
    for r, (label, block, value, name) in enumerate(((_("without the mask"), unmasked, cost.unmasked, "unmasked"),
                                                     (_("with the mask"), masked, cost.causal, "causal")), row + 1):
        s.put(r, 1, label, font=p.ink())
        cells = "+".join(block.cell(fi, j, here) for j in cost.sense_positions)
        s.put(r, 2, f"={cells}", cached=value, decimals=book.trace.decimals, border=True)
        book.define(f"Mask_cost_{name}_{c + 1}", Block(here, r, 2, 1, 1))
    return row + 4


def _positions(book: Book) -> None:
    s = book.sheet(_(POS), _("Word order: shuffled, the focus word's output does not change; with positions added, it "
                             "does."))
    s.title_band(
        _("Word order and positions"),
        _(
            "Attention alone ignores word order: shuffle the sentence and the focus "
            "word's output stays the same. The sinusoidal encoding PE, added to X, "
            "gives each position its own vector."
        ),
    )
    stack_contexts(book, s, 4, _positions_context)


def _attend(s: Sheet, row: int, title: str, x: Block, toks: Sequence[Linked], values: tuple[np.ndarray, ...],
            prefix: str, c: int, focus: int) -> int:
    """Scaled scores, attention and output of Q = K = V = ``x`` side by side; the next free row.

    Defined as ``{prefix}scaled_{c + 1}``, ``{prefix}attention_...`` and ``{prefix}output_...``.
    """
    here, dec = s.title, s.book.trace.decimals
    dims = [s.palette.dim(d) for d in s.book.trace.lesson.dimensions]
    sc = s.matrix(row, 1, Matrix(_("{title}: scaled scores").format(title=title), toks, toks,
                                 lambda i, j: f"{dot(x.row(i, here), x.row(j, here))}/sqrt_d", values[0], dec,
                                 header="key", name=f"{prefix}scaled_{c + 1}", focus_row=focus))
    a = s.matrix(
        row,
        sc.right + 2,
        Matrix(
            _("attention"),
            toks,
            toks,
            lambda i, j: softmax_weight(sc.cell(i, j, here), sc.row(i, here)),
            values[1],
            dec,
            header="key",
            name=f"{prefix}attention_{c + 1}",
            heat=True,
            focus_row=focus,
        ),
    )
    out = s.matrix(row, a.right + 2, Matrix(_("output"), toks, dim_labels(s.book, here),
                                            lambda i, j: product(a.row(i, here), x.col(j, here)), values[2], dec,
                                            header=dims, name=f"{prefix}output_{c + 1}", focus_row=focus))
    return out.bottom + 2


def _positions_context(s: Sheet, c: int, row: int) -> int:
    book = s.book
    ct, k, dec = book.trace.contexts[c], c + 1, book.trace.decimals
    pos, x, here, fi = ct.positional, book[f"X_{k}"], s.title, ct.focus_index
    toks, dims = token_labels(book, c, here), dim_labels(book, here)
    colours = [book.palette.dim(d) for d in book.trace.lesson.dimensions]
    pe = s.matrix(row, 1, Matrix(_("PE: the encoding of each position (0, 1, ...)"), toks, dims,
                                 lambda i, j: encoding(i, j), pos.encoding, dec, header="muted", name=f"PE_{k}"))
    xp = s.matrix(row, pe.right + 2, Matrix(
        "X + PE", toks, dims, lambda i, j: f"={x.cell(i, j, here)}+{pe.cell(i, j, here)}",
        pos.inputs, dec, header=colours, name=f"Positional_inputs_{k}", focus_row=fi))
    row = _attend(s, xp.bottom + 2, _("In order, with positions"), xp, toks, (pos.scaled, pos.attention, pos.output),
                  "Positional_", c, fi)
    order, sfi = pos.shuffled_order, pos.shuffled_focus_index
    shuffled = [toks[j] for j in order]
    s.text(row, 1, _("Shuffled: {sentence}").format(sentence=" ".join(pos.shuffled_tokens)), bold=True)
    xs = s.matrix(row + 1, 1, Matrix(_("X, shuffled"), shuffled, dims, lambda i, j: f"={x.cell(order[i], j, here)}",
                                     ct.embeddings[list(order)], dec, header=colours, name=f"Shuffled_X_{k}",
                                     focus_row=sfi))
    xsp_values = add_positions(ct.embeddings[list(order)])
    xsp = s.matrix(row + 1, xs.right + 2, Matrix(
        _("X shuffled + PE"), shuffled, dims, lambda i, j: f"={xs.cell(i, j, here)}+{pe.cell(i, j, here)}",
        xsp_values, dec, header=colours, name=f"Shuffled_positional_inputs_{k}", focus_row=sfi))
    row = _attend(s, xs.bottom + 2, _("Shuffled, no positions"), xs, shuffled,
                  (ct.scaled[list(order)][:, list(order)], pos.shuffled_attention,
                   pos.shuffled_output), "Shuffled_", c, sfi)
    row = _attend(s, row, _("Shuffled, with positions"), xsp, shuffled,
                  (scale(scores(xsp_values, xsp_values), ct.d), pos.shuffled_positional_attention,
                   pos.shuffled_positional_output), "Shuffled_positional_", c, sfi)
    return _focus_outputs(s, c, row, ct)


def _focus_outputs(s: Sheet, c: int, row: int, ct: ContextTrace) -> int:
    """The focus word's output four ways: in order or shuffled, without or with positions."""
    book, k, pos, here = s.book, c + 1, ct.positional, s.title
    fi, sfi = ct.focus_index, pos.shuffled_focus_index
    ways = [(_("in order"), f"Output_{k}", fi, ct.output[fi]),
            (_("shuffled"), f"Shuffled_output_{k}", sfi, pos.shuffled_focus_output),
            (_("in order + PE"), f"Positional_output_{k}", fi, pos.output[fi]),
            (_("shuffled + PE"), f"Shuffled_positional_output_{k}", sfi, pos.shuffled_positional_focus_output)]
    blocks = [book[w[1]] for w in ways]
    m = Matrix(
        _("The output of {word}, four ways").format(word=ct.focus),
        [w[0] for w in ways],
        dim_labels(book, here),
        lambda i, j: f"={blocks[i].cell(ways[i][2], j, here)}",
        np.vstack([w[3] for w in ways]),
        book.trace.decimals,
        header=[book.palette.dim(d) for d in book.trace.lesson.dimensions],
        name=f"Focus_outputs_{k}",
    )
    return s.matrix(row, 1, m).bottom + 2

