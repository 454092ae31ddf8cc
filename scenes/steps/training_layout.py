"""The layout of the training scene (:mod:`scenes.steps.training`): what it reads of the trace's
training history, the task, the loss, the attention row during training, trained against
simplified: records of what stands where, built before anything moves.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    SurroundingRectangle,
    Text,
    VGroup,
)

from attncore import LessonTrace, TrainingTrace, adds_up
from attncore.i18n import _, list_of, pgettext, quoted
from attncore.training import ATTENTION_CLAIM, SenseClaim, alternatives, asked_words
from scenes.components import (
    CELL_H_MIN,
    ColumnStyle,
    Grid,
    LossCurve,
    Num,
    Provenance,
    Source,
    TokenRow,
    arrow,
    column_labels,
    column_labels_height,
    fit_numbers,
    label,
    label_width,
    number_cell_width,
    one_line_header,
    trace_grid,
    wrap_token_row,
    wrapped_text,
)
from scenes.layout import GROUP_BUFF, ITEM_BUFF, LABEL_BUFF, MED_LARGE_BUFF, SMALL_BUFF, Box
from scenes.theme import Theme

#: The arrow from a sentence to its sense.
ARROW_LENGTH = MED_LARGE_BUFF + ITEM_BUFF
#: A training target's whole weight on one sense (an example with a clue; without one it splits evenly).
WHOLE = 1.0
#: Snapshot and comparison cells: at most CELL_H_MAX tall and the widest "small" word times HISTORY_WORD_W
#: (snapshots) or COMPARE_WORD_W (strips) wide; the loss chart's dots pop in from DOT_POP.
CELL_H_MAX, HISTORY_WORD_W, COMPARE_WORD_W, DOT_POP = 0.5, 1.0, 1.1, 1.5

# -- reading the trace ----------------------------------------------------------------------
def history(trace: LessonTrace) -> TrainingTrace | None:
    """The training record when there is a history to show (a loss curve), else None:
    seeded random weights, or trained weights asked for by a lesson that states no sense."""
    t = trace.training
    return t if t is not None and len(t.loss) >= 2 and t.snapshots else None


def sense_positions(trace: LessonTrace, c: int) -> tuple[int, ...]:
    """The other words of context ``c`` that carry its sense (its ``leans``), as the trace has them."""
    return trace.contexts[c].causal.mask_cost.sense_positions


def claim_of(trace: LessonTrace, c: int) -> tuple[int, SenseClaim] | None:
    """(index in ``training.claims``, claim) of context ``c``; None without training or ``leans``."""
    t = trace.training
    if t is None or trace.contexts[c].context.leans is None:
        return None
    k = [i for i, ctx in enumerate(trace.contexts) if ctx.context.leans is not None].index(c)
    return (k, t.claims[k]) if k < len(t.claims) else None


def quoted_words(words: Sequence[str]) -> str:
    """The words in quotation marks, listed: “cat” and “dog”."""
    return list_of([quoted(w) for w in words])


def focus_words(trace: LessonTrace) -> str:
    """The focus word(s) of the lesson, quoted once each."""
    return quoted_words(list(dict.fromkeys(c.focus for c in trace.contexts)))


def widest_word(trace: LessonTrace, least: float) -> float:
    """A column width that holds every word of the lesson's sentences as a column label, or ``least``."""
    return max(least, max(label_width(c.tokens, "small") for c in trace.contexts) + SMALL_BUFF)


def mark_sense(trace: LessonTrace, c: int, theme: Theme, words: VGroup, columns: Callable[[int], VGroup]) -> VGroup:
    """Outlines of the columns (``columns(j)``) of the words that carry context ``c``'s sense, on
    the cells' edges so that no neighbouring number is covered; those words take the sense's colour."""
    leans = trace.contexts[c].context.leans
    colour = theme.dim(leans) if leans else theme["accent"]
    marks = VGroup()
    for j in sense_positions(trace, c):
        words[j].set_color(colour)
        marks.add(SurroundingRectangle(columns(j), color=colour, buff=0, stroke_width=5))
    return marks


@dataclass(frozen=True)
class Cells:
    """The cells of a group of grids: their size, numbers (at ``size``) or colour tiles, and the style
    of the words over them (one line, issue 24: upright, or turned, or clipped: see compare_cells)."""

    width: float
    height: float
    numbers: bool
    size: str
    words: ColumnStyle = "staggered"


# -- 1: the task --------------------------------------------------------------------------
@dataclass(frozen=True)
class SenseRow:
    """A sentence, an arrow, the sense it states."""

    words: TokenRow
    to: Arrow
    sense: Text


@dataclass(frozen=True)
class TaskLayout:
    """The question, one row per labelled sentence (words → sense), a few generated examples."""

    question: VGroup  # the task, wrapped
    rows: tuple[SenseRow, ...]
    examples: VGroup  # a heading and a few generated sentences with their targets; empty without training
    note: VGroup  # the provenance line when the weights were not trained; else empty


def question_text(trace: LessonTrace) -> tuple[str, str]:
    """(the question, how it is answered): the training task's two sentences, or the same
    question asked of the lesson's sentences when nothing was trained."""
    t = history(trace)
    if t is not None:
        question, _sep, rule = re.split(r"(?<=[?？])(\s*)", t.task, maxsplit=1)
        return question, rule
    return _("Which sense does {word} have in each sentence?").format(
        word=asked_words(c.focus for c in trace.contexts)
    ), ""


def sense_rows(trace: LessonTrace, theme: Theme, width: float) -> tuple[SenseRow, ...]:
    """One row per sentence that states a sense (every sentence when none does): its words,
    the focus word outlined, → the sense (``?`` when not stated); the arrows in one column."""
    cs = [c for c, ctx in enumerate(trace.contexts) if ctx.context.leans is not None] or range(len(trace.contexts))
    senses = []
    for c in cs:
        leans = trace.contexts[c].context.leans
        senses.append(label(leans or "?", "body", theme.dim(leans) if leans else theme["muted"], weight="BOLD"))
    room = width - max(s.width for s in senses) - 2 * ITEM_BUFF - ARROW_LENGTH
    words = [wrap_token_row(TokenRow(trace.contexts[c].tokens, theme, focus=trace.contexts[c].focus_index,
                                     size="label"), room) for c in cs]
    VGroup(*words).arrange(DOWN, buff=ITEM_BUFF, aligned_edge=LEFT)
    right = max(w.get_right()[0] for w in words)
    rows = []
    for w, sense in zip(words, senses, strict=True):
        start = np.array([right + ITEM_BUFF, w.get_center()[1], 0.0])
        to = arrow(start, start + RIGHT * ARROW_LENGTH, theme["muted"], buff=0)
        rows.append(SenseRow(w, to, sense.next_to(to, RIGHT, buff=ITEM_BUFF)))
    return tuple(rows)


def example_lines(trace: LessonTrace, theme: Theme) -> VGroup:
    """Two generated training sentences: the shortest with one sense, the first without a clue."""
    t = history(trace)
    if t is None:
        return VGroup()
    one = [e for e in t.examples if max(e.target) == WHOLE]  # one sense; the others split evenly (no clue)
    none = [e for e in t.examples if max(e.target) < WHOLE]
    picked = ([min(one, key=lambda e: len(e.tokens))] if one else []) + none[:1]
    head = label(_("and sentences generated from them, e.g."), "small", theme["muted"])
    dims = trace.lesson.dimensions
    lines = [label(f"{e.sentence}  →  {alternatives([dims[k] for k, v in enumerate(e.target) if v == max(e.target)])}",
                   "small", theme["text"]) for e in picked]
    return VGroup(head, *lines).arrange(DOWN, buff=SMALL_BUFF, aligned_edge=LEFT)


def task_layout(trace: LessonTrace, theme: Theme, box: Box) -> TaskLayout:
    question, rule = question_text(trace)
    q = VGroup(wrapped_text(question, "body", theme["text"], box.width))
    if rule:
        q.add(wrapped_text(rule, "label", theme["muted"], box.width))
    q.arrange(DOWN, buff=SMALL_BUFF, aligned_edge=LEFT)
    rows = sense_rows(trace, theme, box.width)
    examples = example_lines(trace, theme)
    note = VGroup()
    if trace.training is None or history(trace) is None:
        note.add(Provenance(trace.weights.provenance, theme, max_width=box.width))
    parts = [q, VGroup(*(VGroup(r.words, r.to, r.sense) for r in rows))]
    parts += [m for m in (examples, note) if len(m)]
    whole = VGroup(*parts).arrange(DOWN, buff=GROUP_BUFF, aligned_edge=LEFT)
    if whole.height > box.height:
        whole.scale_to_fit_height(box.height)
    whole.move_to(box.centre)
    return TaskLayout(q, rows, examples, note)


# -- 2: the loss ----------------------------------------------------------------------------
@dataclass(frozen=True)
class LossLayout:
    """The loss curve with its axis titles, the first and last step and the first and last loss."""

    chart: LossCurve
    titles: VGroup
    steps: VGroup  # Num: first and last step, under the x axis
    values: VGroup  # Num: loss at the first step (left of the y axis) and at the last (over the point)


def loss_layout(trace: LessonTrace, t: TrainingTrace, theme: Theme, box: Box, dec: int) -> LossLayout:
    last = len(t.loss) - 1
    k_last = len(t.snapshot_steps) - 1
    first_v = Num(t.loss[0], dec, Source(0, "training.loss", (0,)), size="label")
    last_v = Num(t.loss[last], dec, Source(0, "training.loss", (last,)), size="label")
    steps = VGroup(
        Num(t.snapshot_steps[0], 0, Source(0, "training.snapshot_steps", (0,)), size="small", color=theme["muted"]),
        Num(t.snapshot_steps[k_last], 0, Source(0, "training.snapshot_steps", (k_last,)), size="small",
            color=theme["muted"]),
    )
    x_title = label(_("training step"), "small", theme["muted"])
    y_title = label(_("loss: how far the answer is from the right sense"), "small", theme["muted"])
    side = first_v.width + ITEM_BUFF + MED_LARGE_BUFF
    height = box.height - y_title.height - x_title.height - steps.height - 2 * GROUP_BUFF - LABEL_BUFF
    chart = LossCurve(t.loss, theme, width=box.width - 2 * side, height=height,
                      marks=[s for s in t.snapshot_steps if s <= last])
    titles = chart.label_axis(x_title, y_title)
    chart.label_step(steps[0], t.snapshot_steps[0])
    chart.label_step(steps[1], t.snapshot_steps[k_last])
    first_v.next_to(chart.axes.c2p(0, t.loss[0]), LEFT, buff=ITEM_BUFF)
    chart.label_value(last_v, last, UP)
    whole = VGroup(chart, titles, steps, first_v, last_v)
    whole.move_to(box.centre)
    box.keep_inside(whole)
    return LossLayout(chart, titles, steps, VGroup(first_v, last_v))


# -- 3: the row during training ---------------------------------------------------------------
@dataclass(frozen=True)
class HistoryLayout:
    """Per context, the focus word's row at every snapshot (one grid row per snapshot)."""

    grids: tuple[Grid, ...]  # (k, n) heat grids
    words: tuple[VGroup, ...]  # the sentence over each grid's columns
    steps: VGroup  # Num: the step of each snapshot, left of the first grid
    heads: VGroup  # "step" over the column of steps
    marks: tuple[VGroup, ...]  # outlines of the columns of the words that carry the sense


def history_cells(trace: LessonTrace, t: TrainingTrace, box: Box, steps_w: float, dec: int) -> Cells:
    """The cells of the snapshot grids, side by side in ``box`` right of the steps."""
    m, k = len(trace.contexts), len(t.snapshot_steps)
    cols = [c.n for c in trace.contexts]
    overhang = label_width([trace.contexts[-1].tokens[-1]], "small") / 2  # the last word, centred on the last column
    fixed = steps_w + LABEL_BUFF + (m - 1) * MED_LARGE_BUFF + overhang
    fit = fit_numbers([(s, dec) for s in t.snapshots], cols, box.width, fixed, give_up=list(range(m)))
    cell_w = max(fit[0].width, min(widest_word(trace, HISTORY_WORD_W), (box.width - fixed) / sum(cols)))
    cell_w, _size, style = one_line_header(
        [c.tokens for c in trace.contexts], cell_w, box.width - fixed, sum(cols), "small", style="staggered"
    )
    words_h = max(column_labels_height(c.tokens, cell_w, "small", style) for c in trace.contexts)
    cell_h = min(CELL_H_MAX, (box.height - words_h - 2 * GROUP_BUFF) / k)
    return Cells(cell_w, cell_h, fit.numbers, fit.size, style)


def history_layout(trace: LessonTrace, t: TrainingTrace, theme: Theme, box: Box, dec: int) -> HistoryLayout:
    steps = VGroup(*(Num(s, 0, Source(0, "training.snapshot_steps", (i,)), size="small", color=theme["muted"])
                     for i, s in enumerate(t.snapshot_steps)))
    step_head = label(pgettext("training step, over a column of step numbers", "step"), "small", theme["muted"])
    steps_w = max(steps.width, step_head.width)
    cells = history_cells(trace, t, box, steps_w, dec)
    grids = [trace_grid(trace, f"training.snapshots.{c}", dec, theme, cell_w=cells.width, cell_h=cells.height,
                        context=c, heat=True, numbers=cells.numbers, size=cells.size)
             for c in range(len(trace.contexts))]
    VGroup(*grids).arrange(RIGHT, buff=MED_LARGE_BUFF, aligned_edge=UP)
    words = tuple(
        column_labels(
            g, ctx.tokens, theme, [theme["key"]] * ctx.n, style=cells.words, peers=[c.tokens for c in trace.contexts]
        )
        for g, ctx in zip(grids, trace.contexts)
    )
    for i, s in enumerate(steps):  # right-aligned, as numbers in a column are
        s.next_to(grids[0].row(i), LEFT, buff=LABEL_BUFF)
    top = (min(w.get_bottom()[1] for w in words) + step_head.height if cells.words == "turned"  # where they start
           else max(w.get_top()[1] for w in words))
    step_head.next_to(steps, UP, buff=LABEL_BUFF).align_to(steps, RIGHT).set_y(top - step_head.height / 2)
    heads = VGroup(step_head)
    marks = [mark_sense(trace, c, theme, w, g.column) for c, (g, w) in enumerate(zip(grids, words))]
    whole = VGroup(*grids, *words, steps, heads, *marks)
    whole.move_to(box.centre)
    box.keep_inside(whole)
    return HistoryLayout(tuple(grids), words, steps, heads, tuple(marks))


# -- 4: trained against simplified ------------------------------------------------------------
@dataclass(frozen=True)
class CompareBlock:
    """One context: the focus row of the simplified step over the row of the weights used."""

    simple: Grid  # 1×n, row label "simplified"
    learned: Grid  # 1×n, row label "trained" (or what the weights are)
    words: VGroup  # the sentence over the columns
    shares: VGroup  # Num: share on the sense words, simplified then trained; empty without a claim
    mark: VGroup  # outlines of the sense words' columns


@dataclass(frozen=True)
class CompareLayout:
    blocks: tuple[CompareBlock, ...]
    share_head: VGroup  # the title over the shares (empty when no block has them)


def strip_cell_width(trace: LessonTrace, room: float) -> float:
    """The widest cells whose strips, and the sentence's last word centred over the last
    column, keep within ``room``: a long last word (German, say) reaches half its width past
    its column's centre, and would push the strips' row labels out of the frame."""
    reach = [(c.n, label_width([c.tokens[-1]], "small")) for c in trace.contexts]
    return min([room / max(n for n, _w in reach)] + [(room - w / 2) / (n - 1 / 2) for n, w in reach])


def compare_cells(trace: LessonTrace, box: Box, fixed: float, dec: int) -> Cells:
    """The cells of the strips, stacked in ``box`` beside ``fixed`` (row labels, shares)."""
    cell_w = min(widest_word(trace, COMPARE_WORD_W), strip_cell_width(trace, box.width - fixed))
    rows = [c.attention[c.focus_index] for c in trace.contexts] + [c.projected.attention[c.focus_index]
                                                                   for c in trace.contexts]
    m, n = len(trace.contexts), max(c.n for c in trace.contexts)
    cell_w, _size, style = one_line_header(
        [c.tokens for c in trace.contexts], cell_w, box.width - fixed, n, "small", style="staggered"
    )
    size = next((s for s in ("cell", "small") if max(number_cell_width(r, dec, s) for r in rows) <= cell_w), "")
    for words in (style, "clipped"):  # turned words that would leave the rows too low: clipped ones
        words_h = max(column_labels_height(c.tokens, cell_w, "small", words) for c in trace.contexts)
        cell_h = min(CELL_H_MAX, (box.height - m * words_h - (m - 1) * GROUP_BUFF) / (2 * m))
        if cell_h >= CELL_H_MIN:
            break
    return Cells(cell_w, cell_h, bool(size), size or "small", words)


def compare_block(trace: LessonTrace, c: int, names: tuple[str, str], cells: Cells, theme: Theme,
                  dec: int) -> CompareBlock:
    ctx = trace.contexts[c]
    grids = [trace_grid(trace, path, dec, theme, cell_w=cells.width, cell_h=cells.height, context=c, heat=True,
                        row=ctx.focus_index, numbers=cells.numbers, size=cells.size, row_labels=[name])
             for path, name in zip(("attention", "projected.attention"), names)]
    grids[1].shift(grids[0].cell(0, 0).get_bottom() - grids[1].cell(0, 0).get_top())  # cell under cell
    words = column_labels(
        grids[0], ctx.tokens, theme, [theme["key"]] * ctx.n, style=cells.words, peers=[c.tokens for c in trace.contexts]
    )
    shares = VGroup()
    claim = claim_of(trace, c)
    if claim is not None and claim[1].sense_words:
        cols = sense_positions(trace, c)
        for g, part, row in zip(grids, ("simple", "trained"), (ctx.attention, ctx.projected.attention)):
            v = getattr(claim[1], part)  # ≈ when the weights shown on the sense words do not add up to it
            approx = cells.numbers and not adds_up(row[ctx.focus_index, cols], v, dec)
            shares.add(Num(v, dec, Source(c, f"training.claims.{claim[0]}.{part}"), size="cell", approx=approx).next_to(
                g.body(), RIGHT, buff=MED_LARGE_BUFF))
    mark = mark_sense(trace, c, theme, words, lambda j: VGroup(grids[0].column(j), grids[1].column(j)))
    return CompareBlock(grids[0], grids[1], words, shares, mark)


def compare_layout(trace: LessonTrace, theme: Theme, box: Box, dec: int, learned_name: str) -> CompareLayout:
    names = (_("simplified"), learned_name)
    share_head = VGroup()
    claims = [claim_of(trace, c) for c in range(len(trace.contexts))]
    if any(cl is not None and cl[1].sense_words for cl in claims):
        share_head.add(label(_("on the sense words"), "small", theme["muted"]))
    fixed = label_width(names, "label") + LABEL_BUFF + (share_head.width + MED_LARGE_BUFF if len(share_head) else 0)
    cells = compare_cells(trace, box, fixed, dec)
    blocks = [compare_block(trace, c, names, cells, theme, dec) for c in range(len(trace.contexts))]
    groups = [VGroup(b.words, b.simple, b.learned, b.shares, b.mark) for b in blocks]
    VGroup(*groups).arrange(DOWN, buff=GROUP_BUFF)
    for g, b in zip(groups, blocks):  # the cells of every block in one column
        g.shift(RIGHT * (blocks[0].simple.body().get_left()[0] - b.simple.body().get_left()[0]))
    shares = [b.shares for b in blocks if len(b.shares)]
    if shares:
        col_x = max(s.get_left()[0] for s in shares)
        for s in shares:
            s.align_to(np.array([col_x, 0, 0]), LEFT)
        share_head.next_to(shares[0], UP, buff=LABEL_BUFF).align_to(shares[0], LEFT)
        share_head.set_y(blocks[0].words.get_y())
    whole = VGroup(*groups, share_head)
    whole.move_to(box.centre)
    box.keep_inside(whole)
    return CompareLayout(tuple(blocks), share_head)


def shortfall(t: TrainingTrace, least: str) -> str:
    """The first claim that fails, in words without digits (the reason's numbers are said, not shown)."""
    for cl in t.claims:
        words = quoted_words(cl.sense_words)
        if not cl.sense_words:
            # Translators: {sense} is a dimension name of the lesson (e.g. animal).
            return _("no other word carries the sense {sense}").format(sense=cl.sense)
        if cl.trained < ATTENTION_CLAIM:
            # Translators: {least} is a share in words (e.g. "half"); {words} quoted words.
            return _("less than {least} of the attention goes to {words}").format(least=least, words=words)
        if cl.trained <= cl.simple:
            return _("{words} gets no more attention than in the simplified step").format(words=words)
        if not any(a >= ATTENTION_CLAIM and a > cl.simple for a in cl.heads):
            return _("no head gives {least} of its attention to {words}").format(least=least, words=words)
        if cl.readout != cl.sense or cl.readout_heads != cl.sense:
            return _("the output does not lean {sense}").format(sense=cl.sense)
    return _("the loss did not fall far enough")
