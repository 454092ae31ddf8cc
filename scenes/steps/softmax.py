"""Softmax row by row: scaled scores become weights that sum to 1.

After this scene the viewer can follow the softmax of one row (exponentiate every
scaled score, add the exponentials, divide each by that sum), has checked that the
weights add up to 1, and can read the attention matrix A with its convention: row =
query (the word being updated), column = key (the word it looks at).

Shows from the attncore trace (context 0): the focus row of ``scaled``,
``softmax_exps(i)`` and ``softmax_total(i)``, the focus row of ``attention`` and then
the whole ``attention`` matrix, and each row's sum ``row_sums()``. Every step can be
redone from the numbers shown: the scores carry the decimals their exponentials need,
the exponentials those the division needs (``attncore.softmax_decimals``), and a sum
that its rounded parts do not add up to is marked ``≈`` (``attncore.adds_up``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    Create,
    FadeIn,
    FadeOut,
    LaggedStart,
    ReplacementTransform,
    SurroundingRectangle,
    Text,
    TransformFromCopy,
    VGroup,
    Write,
)

from attncore import ContextTrace, adds_up, round_matrix, shown_sum
from attncore.i18n import N_, _, pgettext, quoted
from scenes.base import LessonScene
from scenes.components import (
    EXP_ROW_NOTE,
    HeatLegend,
    Num,
    NumberGrid,
    Source,
    approx_note,
    axis_titles,
    centre_on_baseline,
    edge_through,
    exp_row_marked,
    exp_row_name,
    ink_corners,
    label,
    label_extent,
    label_width,
    row_total,
    softmax_row_decimals,
    strip,
    sum_head,
    text_size,
    token_header_room,
    token_matrix,
)
from scenes.layout import (
    CONTENT,
    GROUP_BUFF,
    ITEM_BUFF,
    LABEL_BUFF,
    LABEL_ROOM,
    MED_LARGE_BUFF,
    MED_SMALL_BUFF,
    SMALL_BUFF,
    WORD_MATRIX_AREA,
    Box,
)
from scenes.theme import LAG, TIME, Theme

AREA = WORD_MATRIX_AREA

# -- one row's softmax -------------------------------------------------------------------------
#: The names of the three rows, left of them.
# Translators: names of the rows of a worked softmax: keep "√d", "exp", "/" and "÷".
ROW_NAMES = (N_("score / √d"), N_("exp(score)"), N_("exp ÷ sum"))
#: Between "sum =" and its number; and the room kept right of the widest sum.
SUM_BUFF, SUM_ROOM = 0.18, 0.4
#: Between a row's name and its cells.
NAME_BUFF = 0.3
#: Between a row and the sum beside it, or above the sum under it.
SIDE_BUFF, UNDER_BUFF = 0.45, 0.22
#: The sums stand beside the rows only when that leaves cells this wide; cells are at
#: most MAX_ROW_CELL_W wide and ROW_H high.
MIN_CELL_W, MAX_ROW_CELL_W, ROW_H = 0.95, 1.3, 0.6
#: The rows' heights: from SIDE_TOP, SIDE_PITCH apart with the sums beside them; from 1,
#: UNDER_PITCH apart with the sums under them (the third a MED_SMALL_BUFF lower again,
#: clear of the sum under the second).
SIDE_TOP, SIDE_PITCH, UNDER_PITCH = 0.9, 1.5, 1.3

# -- the attention matrix ----------------------------------------------------------------------
#: Between the two halves of the convention on one line; between its lines when stacked.
CONVENTION_BUFF, LINE_BUFF = 0.8, 0.12
#: The equation keeps LABEL_BUFF inside the content box on each side.
BAND: Box = CONTENT.inset(left=LABEL_BUFF, right=LABEL_BUFF)
#: The heat legend with the gap before it, when the cells are sized.
LEGEND_ROOM = 1.7
#: The largest cells of A, and the legend's full height.
MAX_CELL_W, MAX_CELL_H, LEGEND_H = 1.35, 0.7, 2.4
#: A NumberGrid fills 92 % of a cell with its number: the row sums beside A do the same.
CELL_FILL = 0.92
#: The outline of the column of sums, off its numbers.
SUMS_BOX_BUFF = 0.14

# -- pacing ------------------------------------------------------------------------------------
#: Lags of LaggedStart: numbers of a row, rows, and the convention's two halves.
#: Every weight is a division of its own: this many transforms long.
DIVIDE = 2.2
#: The ✓ pops in from this scale.
POP = 1.5


# -- 1, 2: one row -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SoftmaxRows:
    """The three rows of the focus word's softmax, their names, and the two sums."""

    scaled: NumberGrid  # (1, n) the focus row of ``scaled``, the words over it
    exps: NumberGrid  # (1, n) softmax_exps(i)
    weights: NumberGrid  # (1, n) the focus row of ``attention``, heat-coloured
    names: VGroup  # ROW_NAMES, one left of each row
    intro: Text
    total: Num  # softmax_total(i)
    check_num: Num  # row_sums()[i]: the check that the weights add up to 1
    sum_line: VGroup  # "sum =", total: beside (or under) the exponentials
    check: VGroup  # "sum =", check_num, "✓": beside (or under) the weights

    @property
    def rows(self) -> tuple[NumberGrid, NumberGrid, NumberGrid]:
        return self.scaled, self.exps, self.weights


def row_names(ctx: ContextTrace, dec: int) -> tuple[str, str, str]:
    """:data:`ROW_NAMES`, the exponentials' marked ``≈`` when one is not exp of its score as shown."""
    return _(ROW_NAMES[0]), exp_row_name(ctx.scaled[ctx.focus_index], dec), _(ROW_NAMES[2])


def row_grids(ctx: ContextTrace, theme: Theme, dec: int, cw: float) -> tuple[NumberGrid, NumberGrid, NumberGrid]:
    """The focus row's scaled scores, exponentials and weights, in cells ``cw`` wide (not placed).

    The scores and the exponentials carry the decimals that make each step redoable
    (:func:`attncore.softmax_decimals`); an exponential that is still not the exponential
    of its score as shown marks the row's name ``≈`` (:func:`row_names`)."""
    i = ctx.focus_index
    x_dec, e_dec = softmax_row_decimals(ctx.scaled[i], dec)
    return (
        strip(ctx.scaled[i], x_dec, lambda _, j: Source(0, "scaled", (i, j)), theme,
              cell_w=cw, cell_h=ROW_H, col_labels=ctx.tokens, col_style="turned"),
        strip(ctx.softmax_exps(i), e_dec, lambda _, j: Source(0, "softmax_exps", (j,), (i,)), theme,
              cell_w=cw, cell_h=ROW_H),
        strip(ctx.attention[i], dec, lambda _, j: Source(0, "attention", (i, j)), theme,
              cell_w=cw, cell_h=ROW_H, heat=True),
    )


def row_heights(words_h: float, side: bool, top: float, bottom: float, under_h: float) -> list[float]:
    """The rows' centres: the usual ones, lower where the words over the first row (``words_h``
    above its cells: turned over narrow columns, they rise higher than a line) would reach
    ``top``; the lower two then close up, the last (and its sum's line, ``under_h`` tall with
    its gap, when the sums go under the rows) no lower than ``bottom``."""
    ys = [SIDE_TOP - k * SIDE_PITCH for k in range(3)] if side else [1, 1 - UNDER_PITCH,
                                                                      1 - 2 * UNDER_PITCH - MED_SMALL_BUFF]
    drop = max(0.0, ys[0] + ROW_H / 2 + words_h - top)
    if not drop:
        return ys
    under_h = 0.0 if side else under_h  # beside their rows, the sums take no height
    y0, y2 = ys[0] - drop, max(ys[2] - drop, bottom + under_h + ROW_H / 2)
    # The second row keeps its sum's line clear of the third.
    return [y0, max(ys[1] - drop, y2 + ROW_H + under_h + LINE_BUFF), y2]


def softmax_rows(ctx: ContextTrace, theme: Theme, dec: int, box: Box) -> SoftmaxRows:
    """The rows, centred with the sums beside them when the cells stay wide enough."""
    n, i = ctx.n, ctx.focus_index
    name_w = max(label_extent(t, "body")[0] for t in row_names(ctx, dec))
    e_dec = softmax_row_decimals(ctx.scaled[i], dec)[1]
    total = Num(ctx.softmax_total(i), e_dec, Source(0, "softmax_total", (), (i,)), size="body", color=theme["accent"],
                approx=not adds_up(ctx.softmax_exps(i), ctx.softmax_total(i), e_dec))
    check_num = Num(ctx.row_sums()[i], dec, row_total(0, i), size="body", color=theme["positive"],
                    approx=not adds_up(ctx.attention[i], ctx.row_sums()[i], dec))
    # The sum and the check go right of their rows when that leaves the cells wide
    # enough; otherwise (long totals, many words) under the rows' right end.
    side_w = max(label(_("sum ="), "body").width + SUM_BUFF + m.width for m in (total, check_num)) + SUM_ROOM
    x0 = box.left + name_w + NAME_BUFF
    side = (box.right - side_w - SIDE_BUFF - x0) / n >= MIN_CELL_W
    right_room = side_w + SIDE_BUFF if side else 0
    cw = min(MAX_ROW_CELL_W, (box.right - right_room - x0) / n)
    rows = row_grids(ctx, theme, dec, cw)
    # Words turned over narrow columns reach right of the last cell (over the sums' room, which
    # is beside the rows under them): never past the box.
    reach = float(rows[0].col_labels.get_right()[0] - rows[0].cells.get_right()[0])
    for _attempt in range(3):  # narrower cells turn the words steeper: their reach changes
        if x0 + n * cw + reach <= box.right:
            break
        cw = (box.right - reach - x0) / n
        rows = row_grids(ctx, theme, dec, cw)
        reach = float(rows[0].col_labels.get_right()[0] - rows[0].cells.get_right()[0])
    intro = label(_("The row of {word}: how much it attends to each word").format(word=quoted(ctx.focus)), "label",
                  theme["query"])
    intro.move_to((0, AREA.top - LABEL_BUFF, 0))
    ys = row_heights(float(rows[0].col_labels.get_top()[1] - rows[0].cells.get_top()[1]), side,
                     float(intro.get_bottom()[1]) - LABEL_BUFF, box.bottom, label_extent("Hy", "body")[1] + UNDER_BUFF)
    # Centre rows + the sums beside them: leave half the spare room on each side.
    spare = (box.right - right_room) - (x0 + n * cw)
    left = x0 + spare / 2
    left -= max(0.0, left + n * cw + reach - box.right)
    for g, y in zip(rows, ys):
        g.shift((left - g.cells.get_left()[0], y - g.cells.get_y(), 0))
    names = VGroup()
    for g, t in zip(rows, row_names(ctx, dec)):
        nm = label(t, "body", theme["muted"])
        centre_on_baseline(nm, g.cells.get_center())
        nm.next_to(g.cells, LEFT, buff=NAME_BUFF, coor_mask=np.array([1, 0, 0]))
        names.add(nm)
    rows[0].col_labels[i].set_color(theme["query"])
    # Translators: before the sum of a row of numbers ("sum = 3.2").
    sum_line = VGroup(label(sum_head(_("sum ="), total.approx), "body", theme["accent"]), total).arrange(
        RIGHT, buff=SUM_BUFF
    )
    check = VGroup(label(sum_head(_("sum ="), check_num.approx), "body", theme["positive"]), check_num,
                   label("✓", "body", theme["positive"]))
    check.arrange(RIGHT, buff=SUM_BUFF)
    place_beside(sum_line, rows[1], side)
    place_beside(check, rows[2], side)
    return SoftmaxRows(*rows, names, intro, total, check_num, sum_line, check)


def place_beside(m: VGroup, row: NumberGrid, side: bool) -> None:
    """A sum right of its row, or under the row's right end."""
    if side:
        m.next_to(row.cells, RIGHT, buff=SIDE_BUFF)
    else:
        m.next_to(row.cells, DOWN, buff=UNDER_BUFF).align_to(row.cells, RIGHT)


# -- 3: the attention matrix -------------------------------------------------------------------


@dataclass(frozen=True)
class MatrixLayout:
    """A with its axis titles, the row sums beside it, the legend, and the convention over it."""

    convention: VGroup  # "row = query ...", "column = key ..."
    A: NumberGrid  # (n, n) attention
    axes: VGroup  # "query ↓", "key →"
    sums: VGroup  # Num: row_sums(), one beside each row
    sum_head: Text
    legend: HeatLegend


def convention(theme: Theme) -> VGroup:
    """The convention, in the colours of the row and column labels, at the top of AREA."""
    conv = VGroup(
        label(_("row = query (the word being updated)"), "label", theme["query"]),
        label(_("column = key (the word it looks at)"), "label", theme["key"]),
    ).arrange(RIGHT, buff=CONVENTION_BUFF)
    if conv.width > BAND.width:
        conv.arrange(DOWN, buff=LINE_BUFF)
    return conv.move_to((0, AREA.top - conv.height / 2, 0))


def row_sums(A: NumberGrid, ctx: ContextTrace, theme: Theme, dec: int, cw: float, ch: float) -> VGroup:
    """Each row's sum, in a column GROUP_BUFF right of the last column's cells."""
    n = ctx.n
    sums = VGroup()
    for r in range(n):
        s = Num(ctx.row_sums()[r], dec, row_total(0, r), size=text_size(cw, ch), color=theme["positive"],
                approx=not adds_up(ctx.attention[r], ctx.row_sums()[r], dec))
        if s.width > cw * CELL_FILL:
            s.scale_to_fit_width(cw * CELL_FILL)
        s.move_to(A.cell(r, n - 1).get_center() + RIGHT * (cw + GROUP_BUFF))
        sums.add(s)
    return sums


def clear_of_last_word(A: NumberGrid, column: VGroup) -> None:
    """Move ``column`` (the sums and their head) right until its outline keeps clear of the last
    column's word, which, turned over narrow columns, rises across it."""
    corners = ink_corners(A.col_labels[-1])
    box = SurroundingRectangle(column, buff=SUMS_BOX_BUFF)
    for _step in range(round(A.cell_w / SMALL_BUFF) * len(A.col_labels)):
        if not edge_through(box, corners):
            break
        VGroup(column, box).shift(RIGHT * SMALL_BUFF)


def matrix_layout(ctx: ContextTrace, theme: Theme, dec: int) -> MatrixLayout:
    """Room: row labels, n columns, a gap, the row sums, a gap, the legend; under the convention."""
    n = ctx.n
    conv = convention(theme)
    row_w = label_width(ctx.tokens)
    cw = min(MAX_CELL_W, (AREA.width - row_w - ITEM_BUFF - GROUP_BUFF - LEGEND_ROOM) / (n + 1))
    top = conv.get_bottom()[1] - ITEM_BUFF
    ch = min(MAX_CELL_H, (top - token_header_room(ctx.tokens, cw, MAX_CELL_H, LABEL_ROOM) - AREA.bottom) / n)
    for _attempt in range(3):
        A = token_matrix(
            ctx.attention, dec, lambda r, c: Source(0, "attention", (r, c)), theme,
            ctx.tokens, cell_w=cw, cell_h=ch, heat=True,
        )
        axes = axis_titles(A, theme)
        sums = row_sums(A, ctx, theme, dec, cw, ch)
        # Translators: the title of the column of row sums beside the attention matrix.
        sum_head = label(pgettext("column of row sums", "sum"), "label", theme["positive"])
        sum_head.move_to((sums.get_x(), min(lab.get_y() for lab in A.col_labels), 0))
        clear_of_last_word(A, VGroup(sums, sum_head))
        legend = HeatLegend(theme, height=min(LEGEND_H, n * ch))
        legend.next_to(sums, RIGHT, buff=MED_LARGE_BUFF).set_y(A.cells.get_y())
        whole = VGroup(A, axes, sums, sum_head, legend)
        # Axis titles or a legend wider than their room (German "Schlüssel →", "Gewicht"): narrower cells.
        overflow = whole.width - AREA.width
        if overflow <= 0:
            break
        cw -= overflow / (n + 1)
    whole.move_to((0, (top + AREA.bottom) / 2, 0))
    return MatrixLayout(conv, A, axes, sums, sum_head, legend)


# -- the scene ---------------------------------------------------------------------------------


class Softmax(LessonScene):
    TITLE = N_("Softmax")
    STAGE = 3
    FORMULA = r'A = "softmax"(X X^T \/ sqrt(d))'
    SECTIONS = (
        (N_("Exponentiate the scores"), "exponentiate"),
        (N_("Divide by the sum"), "normalise"),
        (N_("The attention matrix"), "attention_matrix"),
    )

    def exponentiate(self) -> None:
        ctx = self.ctx(0)
        n, i = ctx.n, ctx.focus_index
        self.rows = lay = softmax_rows(ctx, self.theme, self.dec, self.content)
        k = max(range(n), key=lambda c: ctx.scaled[i, c])
        self.narrate(
            _("Softmax works on one row at a time. Take the scaled scores of {word}. "
              "First, exponentiate each one: every score becomes positive, and large scores grow much faster: "
              "{score} becomes {exp}. Then add the exponentials up: {total}.").format(
                word=quoted(ctx.focus), score=lay.scaled.entry(0, k).text, exp=lay.exps.entry(0, k).spoken,
                total=lay.total.spoken) + self._approx_exps(ctx)
        )

        self.play(FadeIn(lay.intro), FadeIn(lay.scaled.cells), Write(lay.scaled.col_labels), FadeIn(lay.names[0]),
                  run_time=TIME.write)
        self.play(LaggedStart(*(FadeIn(e) for e in lay.scaled.entries), lag_ratio=LAG.quick))
        self.note = self.say(_("Start from the scaled scores of one query word."))

        # exp of every score: positive, and the larger scores pull far ahead.
        self.play(FadeIn(lay.exps.cells), FadeIn(lay.names[1]), run_time=TIME.fade)
        self.play(
            LaggedStart(*(TransformFromCopy(lay.scaled.entry(0, j), lay.exps.entry(0, j)) for j in range(n)),
                        lag_ratio=LAG.item),
            run_time=2 * TIME.transform,
        )
        self.note = self.say(_("Exponentiate: every score turns positive, large scores grow fastest."), self.note)

        # Their sum, beside the row.
        self.play(FadeIn(lay.sum_line[0]), TransformFromCopy(lay.exps.entries, lay.total), run_time=TIME.transform)
        self.hold(1)
        self.note = self.say(_("Add the exponentials of the row together."), self.note)

    def _approx_exps(self, ctx: ContextTrace) -> str:
        """The sentence on the sum of the exponentials, when it is marked ``≈``."""
        lay, i = self.rows, ctx.focus_index
        exps = " " + _(EXP_ROW_NOTE) if exp_row_marked(ctx.scaled[i], self.dec) else ""
        if not lay.total.approx:
            return exps
        return exps + " " + approx_note("exponentials shown", [shown_sum(ctx.softmax_exps(i), lay.total.decimals)],
                                 [ctx.softmax_total(i)])

    def _approx_rows(self, ctx: ContextTrace) -> str:
        """The sentence on the row sums marked ``≈``, when there are any."""
        rows = [r for r in range(ctx.n) if not adds_up(ctx.attention[r], ctx.row_sums()[r], self.dec)]
        if not rows:
            return ""
        return " " + approx_note("weights shown in some rows" if len(rows) > 1 else "weights shown in one row",
                                 [shown_sum(ctx.attention[r], self.dec) for r in rows],
                                 [ctx.row_sums()[r] for r in rows], "those sums are" if len(rows) > 1 else "its sum is")

    def normalise(self) -> None:
        ctx, lay = self.ctx(0), self.rows
        n, i = ctx.n, ctx.focus_index
        shown = round_matrix(ctx.attention, self.dec)
        k = max(range(n), key=lambda c: shown[i, c])
        template = (
            _("Now divide each exponential by that sum. {word} gets {weight}: that is how much {focus} attends to "
              "itself. The weights are all positive, and together they add up to {total}.") if k == i else
            _("Now divide each exponential by that sum. {word} gets {weight}: that is how much {focus} attends to "
              "it. The weights are all positive, and together they add up to {total}.")
        )
        self.narrate(
            template.format(word=quoted(ctx.tokens[k]), weight=lay.weights.entry(0, k).text, focus=quoted(ctx.focus),
                            total=lay.check_num.spoken)
            + (" " + approx_note("weights shown", [shown_sum(ctx.attention[i], self.dec)], [ctx.row_sums()[i]])
               if lay.check_num.approx else "")
        )
        self.play(FadeIn(lay.weights.cells), FadeIn(lay.names[2]), run_time=TIME.fade)
        self.play(
            LaggedStart(
                *(
                    TransformFromCopy(VGroup(lay.exps.entry(0, j), lay.total), lay.weights.entry(0, j))
                    for j in range(n)
                ),
                lag_ratio=LAG.step,
            ),
            run_time=DIVIDE * TIME.transform,
        )
        self.hold(n)
        self.note = self.say(_("Divide each exponential by the sum: these are the attention weights."), self.note)
        # The check: the weights shown add up to 1.
        self.play(FadeIn(lay.check[0]), TransformFromCopy(lay.weights.entries, lay.check_num), run_time=TIME.transform)
        self.play(FadeIn(lay.check[2], scale=POP), run_time=TIME.fade)
        self.note = self.say(self.claims("rows_sum_to_one", "caption")[0].text, self.note)

    def attention_matrix(self) -> None:
        ctx, rows = self.ctx(0), self.rows
        n, i = ctx.n, ctx.focus_index
        self.narrate(
            _("Doing the same for every row gives the attention matrix A. Read it like this: a row is a query, "
              "the word being updated; a column is a key, the word it looks at.") + " "
            + self.claims("rows_sum_to_one")[0].text + self._approx_rows(ctx)
        )
        # Keep the weight row: it becomes row i of the attention matrix.
        self.play(
            *(FadeOut(m) for m in (rows.intro, rows.scaled, rows.exps, rows.names, rows.sum_line, rows.check)),
            run_time=TIME.fade,
        )
        lay = matrix_layout(ctx, self.theme, self.dec)
        conv, A, axes = lay.convention, lay.A, lay.axes
        self.play(
            LaggedStart(FadeIn(VGroup(conv[0], A.row_labels, axes[0])), FadeIn(VGroup(conv[1], A.col_labels, axes[1])),
                        lag_ratio=LAG.half),
            run_time=TIME.transform,
        )
        self.play(
            FadeIn(VGroup(*(A.row(r) for r in range(n) if r != i))),
            ReplacementTransform(rows.weights.cells, A.row(i)),
            ReplacementTransform(rows.weights.entries, A.row_entries(i)),
            run_time=TIME.transform,
        )
        self.note = self.say(_("The row we computed is one row of the attention matrix A."), self.note)
        others = [r for r in range(n) if r != i]
        self.play(
            LaggedStart(*(FadeIn(A.row_entries(r)) for r in others), lag_ratio=LAG.step), FadeIn(lay.legend),
            run_time=TIME.transform,
        )
        self.note = self.say(_("Each row of A is the softmax of one query word's scores."), self.note)

        box = SurroundingRectangle(VGroup(lay.sums, lay.sum_head), color=self.theme["positive"], buff=SUMS_BOX_BUFF)
        self.play(
            FadeIn(lay.sum_head),
            LaggedStart(*(TransformFromCopy(A.row_entries(r), lay.sums[r]) for r in range(n)), lag_ratio=LAG.quick),
            run_time=TIME.transform,
        )
        self.play(Create(box), run_time=TIME.fade)
        self.note = self.say(self.claims("rows_sum_to_one", "caption")[0].text, self.note)
        self.hold()
