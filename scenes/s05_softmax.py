"""Step 5, softmax row by row: scaled scores become weights that sum to 1.

After this scene the viewer can follow the softmax of one row (exponentiate every
scaled score, add the exponentials, divide each by that sum), has checked that the
weights add up to 1, and can read the attention matrix A with its convention: row =
query (the word being updated), column = key (the word it looks at).

Shows from the attncore trace (context 0): the focus row of ``scaled``,
``softmax_exps(i)`` and ``softmax_total(i)``, the focus row of ``attention`` and then
the whole ``attention`` matrix (rounded so each displayed row sums to exactly 1), and
each row's sum ``row_sums()``.
"""

from __future__ import annotations

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
    TransformFromCopy,
    VGroup,
    Write,
)

from attncore import round_rows_to_one
from scenes.base import LessonScene
from scenes.components import (
    HeatLegend,
    Num,
    NumberGrid,
    Source,
    axis_titles,
    centre_on_baseline,
    label,
    label_width,
    row_total,
    strip,
    text_size,
    token_matrix,
)
from scenes.layout import LABEL_ROOM, WORD_MATRIX_AREA
from scenes.theme import TIME

AREA = WORD_MATRIX_AREA

# --- the scene ----------------------------------------------------------------------------


class Softmax(LessonScene):
    TITLE = "5 · Softmax"
    STAGE = 3
    FORMULA = "A = softmax(X·Xᵀ / √d)"
    SECTIONS = (
        ("Exponentiate the scores", "exponentiate"),
        ("Divide by the sum", "normalise"),
        ("The attention matrix", "attention_matrix"),
    )

    def exponentiate(self) -> None:
        ctx = self.ctx(0)
        n, i = ctx.n, ctx.focus_index
        self.shown = round_rows_to_one(ctx.attention, self.dec)
        names = ["score / √d", "exp(score)", "exp ÷ sum"]
        name_w = max(label(t, "body").width for t in names)
        total = Num(ctx.softmax_total(i), self.dec, Source(0, "softmax_total", (), (i,)), size="body", color=self.theme["accent"])
        self.check_num = Num(
            self.ctx(0).row_sums()[i], self.dec, row_total(0, i), size="body", color=self.theme["positive"]
        )
        # The sum and the check go right of their rows when that leaves the cells wide
        # enough; otherwise (long totals, many words) under the rows' right end.
        side_w = max(label("sum =", "body").width + 0.18 + m.width for m in (total, self.check_num)) + 0.4
        x0 = self.content.left + name_w + 0.3
        self.side = (self.content.right - side_w - 0.45 - x0) / n >= 0.95
        right_room = side_w + 0.45 if self.side else 0.0
        cw = min(1.3, (self.content.right - right_room - x0) / n)
        ch = 0.6
        ys = [0.9, -0.6, -2.1] if self.side else [1.0, -0.3, -1.85]
        self.r1 = strip(
            ctx.scaled[i], self.dec, lambda _, j: Source(0, "scaled", (i, j)), self.theme,
            cell_w=cw, cell_h=ch, col_labels=ctx.tokens,
        )
        self.r2 = strip(
            ctx.softmax_exps(i), self.dec, lambda _, j: Source(0, "softmax_exps", (j,), (i,)), self.theme,
            cell_w=cw, cell_h=ch,
        )
        self.r3 = strip(
            ctx.attention[i], self.dec, lambda _, j: Source(0, "attention", (i, j), rows_to_one=True), self.theme,
            cell_w=cw, cell_h=ch, heat=True,
        )
        rows = (self.r1, self.r2, self.r3)
        # Centre rows + the sums beside them: leave half the spare room on each side.
        spare = (self.content.right - right_room) - (x0 + n * cw)
        for g, y in zip(rows, ys):
            g.shift([x0 + spare / 2 - g.cells.get_left()[0], y - g.cells.get_y(), 0])
        self.row_names = VGroup()
        for g, t in zip(rows, names):
            nm = label(t, "body", self.theme["muted"])
            centre_on_baseline(nm, g.cells.get_center())
            nm.next_to(g.cells, LEFT, buff=0.3, coor_mask=np.array([1, 0, 0]))
            self.row_names.add(nm)
        self.r1.col_labels[i].set_color(self.theme["query"])
        intro = label(f"The row of “{ctx.focus}”: how much it attends to each word", "label", self.theme["query"])
        intro.move_to([0, AREA.top - 0.15, 0])
        self.intro = intro
        k = max(range(n), key=lambda c: ctx.scaled[i, c])
        self.narrate(
            f"Softmax works on one row at a time. Take the scaled scores of “{ctx.focus}”. "
            "First, exponentiate each one: every score becomes positive, and large scores grow much faster: "
            f"{self.r1.entry(0, k).text} becomes {self.r2.entry(0, k).text}. Then add the exponentials up: "
            f"{total.text}."
        )

        self.play(FadeIn(intro), FadeIn(self.r1.cells), Write(self.r1.col_labels), FadeIn(self.row_names[0]), run_time=TIME.write)
        self.play(LaggedStart(*(FadeIn(e) for e in self.r1.entries), lag_ratio=0.1))
        self.note = self.say("Start from the scaled scores of one query word.")

        # exp of every score: positive, and the larger scores pull far ahead.
        self.play(FadeIn(self.r2.cells), FadeIn(self.row_names[1]), run_time=TIME.fade)
        self.play(
            LaggedStart(*(TransformFromCopy(self.r1.entry(0, j), self.r2.entry(0, j)) for j in range(n)), lag_ratio=0.15),
            run_time=2 * TIME.transform,
        )
        self.note = self.say("Exponentiate: every score turns positive, large scores grow fastest.", self.note)

        # Their sum, beside the row.
        sum_line = VGroup(label("sum =", "body", self.theme["accent"]), total).arrange(RIGHT, buff=0.18)
        self._place_beside(sum_line, self.r2)
        self.total, self.sum_line = total, sum_line
        self.play(FadeIn(sum_line[0]), TransformFromCopy(self.r2.entries, total), run_time=TIME.transform)
        self.hold(1)
        self.note = self.say("Add the exponentials of the row together.", self.note)

    def _place_beside(self, m: VGroup, row: NumberGrid) -> None:
        if self.side:
            m.next_to(row.cells, RIGHT, buff=0.45)
        else:
            m.next_to(row.cells, DOWN, buff=0.22).align_to(row.cells, RIGHT)

    def normalise(self) -> None:
        ctx = self.ctx(0)
        n, i = ctx.n, ctx.focus_index
        check_num = self.check_num
        k = max(range(n), key=lambda c: self.shown[i, c])
        self.narrate(
            f"Now divide each exponential by that sum. “{ctx.tokens[k]}” gets {self.r3.entry(0, k).text}: "
            f"that is how much “{ctx.focus}” attends to it. The weights are all positive, "
            f"and together they add up to {check_num.text}."
        )
        self.play(FadeIn(self.r3.cells), FadeIn(self.row_names[2]), run_time=TIME.fade)
        self.play(
            LaggedStart(
                *(TransformFromCopy(VGroup(self.r2.entry(0, j), self.total), self.r3.entry(0, j)) for j in range(n)),
                lag_ratio=0.2,
            ),
            run_time=2.2 * TIME.transform,
        )
        self.hold(n)
        self.note = self.say("Divide each exponential by the sum: these are the attention weights.", self.note)
        # The check: the weights shown add up to 1.
        check = VGroup(label("sum =", "body", self.theme["positive"]), check_num, label("✓", "body", self.theme["positive"]))
        check.arrange(RIGHT, buff=0.18)
        self._place_beside(check, self.r3)
        self.play(FadeIn(check[0]), TransformFromCopy(self.r3.entries, check_num), run_time=TIME.transform)
        self.play(FadeIn(check[2], scale=1.5), run_time=TIME.fade)
        self.check = check
        self.note = self.say("The weights are positive and add up to one.", self.note)

    def attention_matrix(self) -> None:
        ctx = self.ctx(0)
        n, i = ctx.n, ctx.focus_index
        self.narrate(
            "Doing the same for every row gives the attention matrix A. Read it like this: a row is a query, "
            "the word being updated; a column is a key, the word it looks at. Every row sums to one."
        )
        # Keep the weight row: it becomes row i of the attention matrix.
        self.play(
            *(FadeOut(m) for m in (self.intro, self.r1, self.r2, self.row_names, self.sum_line, self.check)),
            run_time=TIME.fade,
        )
        # The convention, in the colours of the row and column labels.
        conv = VGroup(
            label("row = query (the word being updated)", "label", self.theme["query"]),
            label("column = key (the word it looks at)", "label", self.theme["key"]),
        ).arrange(RIGHT, buff=0.8)
        if conv.width > 13.4:
            conv.arrange(DOWN, buff=0.12)
        conv.move_to([0, AREA.top - conv.height / 2, 0])

        # Room: row labels, n columns, a gap, the row sums, a gap, the legend.
        legend_w = 1.3
        row_w = label_width(ctx.tokens)
        cw = min(1.35, (13.7 - row_w - 0.2 - 0.35 - legend_w - 0.4) / (n + 1))
        top = conv.get_bottom()[1] - 0.2
        ch = min(0.7, (top - LABEL_ROOM - AREA.bottom) / n)
        A = token_matrix(
            ctx.attention, self.dec, lambda r, c: Source(0, "attention", (r, c), rows_to_one=True), self.theme,
            ctx.tokens, cell_w=cw, cell_h=ch, heat=True,
        )
        axes = axis_titles(A, self.theme)
        sums = VGroup()
        for r in range(n):
            src = row_total(0, r)
            s = Num(self.ctx(0).row_sums()[r], self.dec, src, size=text_size(cw, ch), color=self.theme["positive"])
            if s.width > cw * 0.92:
                s.scale_to_fit_width(cw * 0.92)
            s.move_to(A.cell(r, n - 1).get_center() + RIGHT * (cw + 0.35))
            sums.add(s)
        sum_head = label("sum", "label", self.theme["positive"])
        sum_head.move_to([sums.get_x(), min(lab.get_y() for lab in A.col_labels), 0])
        legend = HeatLegend(self.theme, height=min(2.4, n * ch))
        legend.next_to(sums, RIGHT, buff=0.5).set_y(A.cells.get_y())
        block = VGroup(A, axes, sums, sum_head, legend)
        block.move_to([0, (top + AREA.bottom) / 2, 0])

        self.play(
            LaggedStart(FadeIn(VGroup(conv[0], A.row_labels, axes[0])), FadeIn(VGroup(conv[1], A.col_labels, axes[1])), lag_ratio=0.5),
            run_time=TIME.transform,
        )
        self.play(
            FadeIn(VGroup(*(A.row(r) for r in range(n) if r != i))),
            ReplacementTransform(self.r3.cells, A.row(i)),
            ReplacementTransform(self.r3.entries, A.row_entries(i)),
            run_time=TIME.transform,
        )
        self.note = self.say("The row we computed is one row of the attention matrix A.", self.note)
        others = [r for r in range(n) if r != i]
        self.play(
            LaggedStart(*(FadeIn(A.row_entries(r)) for r in others), lag_ratio=0.2), FadeIn(legend), run_time=TIME.transform
        )
        self.note = self.say("Each row of A is the softmax of one query word's scores.", self.note)
        box = SurroundingRectangle(VGroup(sums, sum_head), color=self.theme["positive"], buff=0.14)
        self.play(
            FadeIn(sum_head),
            LaggedStart(*(TransformFromCopy(A.row_entries(r), sums[r]) for r in range(n)), lag_ratio=0.1),
            run_time=TIME.transform,
        )
        self.play(Create(box), run_time=TIME.fade)
        self.note = self.say("Every row sums to one: each word shares out its attention.", self.note)
        self.hold()


