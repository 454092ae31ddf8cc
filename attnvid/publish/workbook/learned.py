"""The learned steps as sheets: training history, projections, the dimension-changing W_V,
each head, and the concatenation with W_O.

The weights themselves are typed on the Inputs sheet (training runs in Python, in
``attncore.training``); here every number is a formula on them.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from openpyxl.chart import Reference, ScatterChart, Series

from attncore import HeadTrace, ProjectedTrace, TrainingTrace
from attncore.i18n import N_, _

from ...catalog import numbered, scene_number
from .formulas import dot, product, softmax_weight
from .grid import Block, Book, Matrix, Sheet
from .inputs import INPUTS, token_labels
from .simple import stack_contexts

__all__ = ["learned_sheets"]

# Translators: sheet names of the workbook: at most 31 characters, none of : \ / ? * [ ]
PROJ, DIM, MULTI, TRAIN = N_("Projections"), N_("Dimension"), N_("Multi-head"), N_("Training")
QKV = (("Q", "q", "query"), ("K", "k", "key"), ("V", "v", "value"))


def learned_sheets(book: Book) -> None:
    if book.trace.training is not None:
        _training(book)
    _projections(book)
    _dimension(book)
    for h in range(book.trace.lesson.heads):
        _head(book, h)
    _multi_head(book)


def _root_cell(s: Sheet, symbol: str, formula: str, value: float, name: str | None = None) -> tuple[str, str]:
    """"√d_k = 2.00" on row 4: the reference of the value cell (on this sheet) and ``symbol``."""
    p = s.palette
    s.put(4, 1, f"{symbol} =", font=p.ink(bold=True))
    s.put(4, 2, formula, cached=value, decimals=s.book.trace.decimals, border=True)
    if name:
        s.book.define(name, Block(s.title, 4, 2, 1, 1))
    return "$B$4", symbol


def _attend(s: Sheet, row: int, qkv: tuple[Block, Block, Block], root: tuple[str, str], t: ProjectedTrace | HeadTrace,
            names: str, c: int, out_colour: str) -> int:
    """Scores Q·Kᵀ, scaled, softmax and output A·V side by side from ``row``; the next free row.

    ``names`` prefixes the defined names (``Projected_`` gives ``Projected_scores_1``...).
    """
    (q, k, v), (root_cell, symbol) = qkv, root
    here, book, dec, fi = s.title, s.book, s.book.trace.decimals, s.book.trace.contexts[c].focus_index
    toks, n = token_labels(book, c, here), c + 1
    sc = s.matrix(row, 1, Matrix(_("Scores Q·Kᵀ"), toks, toks, lambda i, j: dot(q.row(i, here), k.row(j, here)),
                                 t.scores, dec, header="key", name=f"{names}scores_{n}", focus_row=fi))
    scl = s.matrix(row, sc.right + 2, Matrix(
        _("Scaled Q·Kᵀ ÷ {root}").format(root=symbol), toks, toks, lambda i, j: f"={sc.cell(i, j, here)}/{root_cell}",
        t.scaled, dec, header="key", name=f"{names}scaled_{n}", focus_row=fi))
    att = s.matrix(row, scl.right + 2, Matrix(
        _("Attention: softmax of each row"), toks, toks,
        lambda i, j: softmax_weight(scl.cell(i, j, here), scl.row(i, here)),
        t.attention, dec, header="key", name=f"{names}attention_{n}", heat=True, focus_row=fi))
    # Translators: a column header, output dimension 1, 2...: "out1"; keep it short.
    out_labels = [_("out{n}").format(n=j + 1) for j in range(v.n_cols)]
    out = s.matrix(row, att.right + 2, Matrix(
        _("Output A·V"), toks, out_labels, lambda i, j: product(att.row(i, here), v.col(j, here)), t.output, dec,
        header=out_colour, name=f"{names}output_{n}", focus_row=fi))
    return out.bottom + 2


def _times(left: Block, right: Block, here: str) -> Callable[[int, int], str]:
    """Cell [i, j] of ``left·right``: row i of ``left`` times column j of ``right``."""
    return lambda i, j: product(left.row(i, here), right.col(j, here))


def _columns(src: Block, first: int, here: str) -> Callable[[int, int], str]:
    """References to the columns of ``src`` from ``first`` on (a head's block of Q, K or V)."""
    return lambda i, j: f"={src.cell(i, first + j, here)}"


def _projections(book: Book) -> None:
    s = book.sheet(_(PROJ), _("Step {step}. Q = X·W_Q, K = X·W_K, V = X·W_V, and the same attention computed on them.")
                   .format(step=scene_number("LearnedProjections")))
    here = s.title
    s.title_band(numbered("LearnedProjections", _("Learned projections")),
                 _("Q = X·W_Q, K = X·W_K, V = X·W_V (the W are typed on the {inputs} "
                   "sheet); then the same mechanism: Q·Kᵀ, ÷ √d_k, softmax, A·V.").format(
        inputs=_(INPUTS)))
    s.text(3, 1, book.trace.weights.provenance, italic=True)
    root = _root_cell(s, "√d_k", "=SQRT(COLUMNS(W_K))", math.sqrt(book.trace.lesson.d), "sqrt_d_k")

    def one(s: Sheet, c: int, row: int) -> int:
        ct, x, n = book.trace.contexts[c], book[f"X_{c + 1}"], c + 1
        toks, col, blocks = token_labels(book, c, here), 1, []
        for name, letter, role in QKV:
            w = book[f"W_{name}"]
            b = s.matrix(row, col, Matrix(
                f"{name} = X·W_{name}", toks, [f"{letter}{j + 1}" for j in range(w.n_cols)],
                _times(x, w, here), getattr(ct.projected, name),
                book.trace.decimals, header=role, name=f"{name}_{n}", focus_row=ct.focus_index))
            blocks.append(b)
            col = b.right + 2
        return _attend(s, blocks[0].bottom + 2, (blocks[0], blocks[1], blocks[2]), root, ct.projected, "Projected_", c,
                       "value")

    stack_contexts(book, s, 6, one)


def _dimension(book: Book) -> None:
    s = book.sheet(_(DIM), _("Step {step}. A W_V of another shape: V = X·W_V and the output have d_v columns.")
                   .format(step=scene_number("ChangingDimension")))
    here = s.title
    d, d_v = book.trace.lesson.d, book["W_V_reshape"].n_cols
    s.title_band(numbered("ChangingDimension", _("Changing the dimension")), _(
        "A W_V of shape d×d_v ({d}×{d_v}, on the {inputs} sheet) maps every word to d_v numbers: V = X·W_V; the "
        "output A·V (A as in step {step}) has d_v columns.").format(d=d, d_v=d_v, inputs=_(INPUTS),
                                                             step=scene_number("LearnedProjections")))
    dec, w = book.trace.decimals, book["W_V_reshape"]

    def one(s: Sheet, c: int, row: int) -> int:
        ct, x, a, n = book.trace.contexts[c], book[f"X_{c + 1}"], book[f"Projected_attention_{c + 1}"], c + 1
        toks, fi = token_labels(book, c, here), ct.focus_index
        labels = [f"v{j + 1}" for j in range(d_v)]
        v = s.matrix(row, 1, Matrix(f"V = X·W_V ({ct.n}×{d_v})", toks, labels,
                                    lambda i, j: product(x.row(i, here), w.col(j, here)),
                                    ct.reshaped.V, dec, header="value", name=f"Reshaped_V_{n}", focus_row=fi))
        out = s.matrix(row, v.right + 2, Matrix(
            _("Output A·V ({n}×{d_v})").format(n=ct.n, d_v=d_v), toks, labels,
            lambda i, j: product(a.row(i, here), v.col(j, here)),
            ct.reshaped.output, dec, header="output", name=f"Reshaped_output_{n}", focus_row=fi))
        return out.bottom + 2

    stack_contexts(book, s, 4, one)


def _head(book: Book, h: int) -> None:
    lesson = book.trace.lesson
    d_h = lesson.d // lesson.heads
    # Translators: a sheet name of the workbook (at most 31 characters): "Head 1".
    first, title = h * d_h, _("Head {n}").format(n=h + 1)
    s = book.sheet(title, _("Step {step}. Head {n}: columns {first} to {last} of Q, K and V, its own attention and "
                            "output.").format(step=scene_number("MultiHead"), n=h + 1, first=first + 1,
                                              last=first + d_h))
    s.title_band(numbered("MultiHead", _("Head {n} of {heads}")).format(n=h + 1, heads=lesson.heads),
                 _("Head {n} works in its own subspace: columns {first} to {last} of Q, K and V (d_h = d/h = {d_h}); "
                   "its scores are divided by √d_h.").format(n=h + 1, first=first + 1, last=first + d_h, d_h=d_h))
    root = _root_cell(s, "√d_h", "=SQRT(d_head)", math.sqrt(d_h))
    colour = book.palette.head(h)

    def one(s: Sheet, c: int, row: int) -> int:
        ct, n = book.trace.contexts[c], c + 1
        ht, toks, col, blocks = ct.multi_head.heads[h], token_labels(book, c, title), 1, []
        for name, letter, role in QKV:
            src = book[f"{name}_{n}"]
            b = s.matrix(row, col, Matrix(
                _("{matrix} of head {n}").format(matrix=name, n=h + 1), toks,
                [f"{letter}{first + j + 1}" for j in range(d_h)],
                _columns(src, first, title), getattr(ht, name), book.trace.decimals,
                header=role, name=f"Head{h + 1}_{name}_{n}", focus_row=ct.focus_index))
            blocks.append(b)
            col = b.right + 2
        return _attend(s, blocks[0].bottom + 2, (blocks[0], blocks[1], blocks[2]), root, ht, f"Head{h + 1}_", c, colour)

    stack_contexts(book, s, 6, one)


def _multi_head(book: Book) -> None:
    s = book.sheet(_(MULTI), _("Step {step}. The heads' outputs side by side, then mixed by W_O.")
                   .format(step=scene_number("MultiHead")))
    here = s.title
    s.title_band(numbered("MultiHead", _("Multi-head")),
                 _("Concatenate the heads' outputs (n×d), then multiply by W_O (on the {inputs} "
                   "sheet): output = concat·W_O.").format(inputs=_(INPUTS)))
    lesson, dec, w_o = book.trace.lesson, book.trace.decimals, book["W_O"]
    d_h = lesson.d // lesson.heads
    colours = [book.palette.head(j // d_h) for j in range(lesson.d)]

    def one(s: Sheet, c: int, row: int) -> int:
        ct, n = book.trace.contexts[c], c + 1
        toks, heads = token_labels(book, c, here), [book[f"Head{h + 1}_output_{n}"] for h in range(lesson.heads)]
        cat = s.matrix(row, 1, Matrix(
            _("Concatenated heads"), toks, [f"h{j // d_h + 1}.{j % d_h + 1}" for j in range(lesson.d)],
            lambda i, j: f"={heads[j // d_h].cell(i, j % d_h, here)}", ct.multi_head.concat, dec, header=colours,
            name=f"Concat_{n}", focus_row=ct.focus_index))
        out = s.matrix(row, cat.right + 2, Matrix(
            _("Output concat·W_O"), toks, [f"o{j + 1}" for j in range(lesson.d)],
            lambda i, j: product(cat.row(i, here), w_o.col(j, here)), ct.multi_head.output, dec, header="output",
            name=f"Multihead_output_{n}", focus_row=ct.focus_index))
        return out.bottom + 2

    stack_contexts(book, s, 4, one)


def _training(book: Book) -> None:
    tr = book.trace.training
    assert tr is not None
    s = book.sheet(_(TRAIN), _("How the weights of steps {first} to {last} were learned: the task and the loss at "
                               "every step.").format(first=scene_number("LearnedProjections"),
                                                     last=scene_number("MultiHead")))
    s.title_band(_("How the weights were learned"), tr.task)
    s.text(3, 1, _("Training runs in Python (attncore.training); the weights it found are typed on the {inputs} sheet, "
                   "where you can change them.").format(inputs=_(INPUTS)), italic=True)
    p = s.palette
    top = _training_facts(s, tr) + 1
    for col, head in ((1, _("step")), (2, _("loss"))):
        s.put(top, col, head, font=p.ink(bold=True), fill=p.fill(p["weight"]), align=p.centre(), border=True)
    for k, value in enumerate(tr.loss):
        s.put(top + 1 + k, 1, k)
        s.put(top + 1 + k, 2, float(value), decimals=max(4, book.trace.decimals))
    book.define("Loss", Block(s.title, top + 1, 2, len(tr.loss), 1))
    _loss_chart(s, top, len(tr.loss))
    s.finish()


def _training_facts(s: Sheet, tr: TrainingTrace) -> int:
    """How the training ran and what it reached, one fact a row from row 4; the next free row."""
    p = s.palette

    def shown(x: float) -> float | str:
        return _("not measured") if math.isnan(x) else x

    loss_label = _("loss, rounded weights")
    facts: list[tuple[str, float | str]] = [
        (_("Adam steps"), tr.steps),
        (_("rounding-aware steps"), tr.rounding_steps),
        (_("learning rate"), tr.learning_rate),
        (_("seed"), tr.seed),
        (_("weights rounded to (decimals)"), tr.decimals),
        (loss_label, shown(tr.rounded_loss)),
        (_("accuracy, one head"), shown(tr.accuracy)),
        (_("accuracy, heads"), shown(tr.accuracy_heads)),
        (_("the claims hold"), _("yes") if tr.claims_hold else _("no: {reason}").format(reason=tr.reason)),
        (_("trained"), ", ".join(tr.trained)),
    ]
    for r, (label, value) in enumerate(facts, 4):
        s.put(r, 1, label, font=p.ink(bold=True))
        is_loss = label == loss_label and not isinstance(value, str)
        s.put(r, 2, value, font=p.ink(), measure=not isinstance(value, str), decimals=6 if is_loss else None)
    return 4 + len(facts)


def _loss_chart(s: Sheet, header_row: int, n: int) -> None:
    """Loss against step: a scatter chart with lines, so that the step axis is numeric."""
    chart = ScatterChart()
    chart.title = _("Loss while training")
    chart.x_axis.title, chart.y_axis.title = _("step"), _("loss")
    ys = Reference(s.ws, min_col=2, min_row=header_row, max_row=header_row + n)
    xs = Reference(s.ws, min_col=1, min_row=header_row + 1, max_row=header_row + n)
    series = Series(ys, xs, title_from_data=True)
    series.marker.symbol = "none"
    chart.series.append(series)
    chart.legend = None
    chart.x_axis.delete = chart.y_axis.delete = False  # openpyxl 3.1 hides the axes otherwise (in Excel)
    chart.height, chart.width = 8, 16
    s.ws.add_chart(chart, "D4")
