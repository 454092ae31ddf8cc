"""Scaling: every score is divided by √d before the softmax.

After this scene the viewer knows what d and √d are in the lesson, has seen the score
matrix turn into the scaled matrix, and has seen why: without the division the softmax
of the focus word's row is sharper (more of the weight on a single word), because dot
products grow with the number of dimensions.

Shows from the attncore trace (context 0): ``d`` and ``sqrt_d``, ``scores`` (S) turning
into ``scaled`` (S/√d), and the focus row of ``unscaled_attention`` (softmax of S)
beside the same row of ``attention`` (softmax of S/√d), each weight rounded on its own
(``attncore.fmt``), as everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    AnimationGroup,
    Create,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    LaggedStart,
    Text,
    TransformFromCopy,
    VGroup,
    Write,
)

from attncore import (
    WORKED_EXTRA_DECIMALS,
    ContextTrace,
    fmt,
    quotient_as_shown,
    quotient_decimals,
)
from attncore.i18n import N_, _, pgettext, quoted
from scenes.base import LessonScene
from scenes.components import (
    Num,
    NumberGrid,
    Source,
    WeightBars,
    axis_titles,
    bar_words_depth,
    fit_token_cells,
    label,
    label_width,
    readable_cell_width,
    token_matrix,
)
from scenes.layout import (
    CONTENT,
    DRIFT,
    GROUP_BUFF,
    ITEM_BUFF,
    LABEL_BUFF,
    LABEL_ROOM,
    MED_LARGE_BUFF,
    MED_SMALL_BUFF,
    WORD_MATRIX_AREA,
)
from scenes.theme import LAG, TIME, Theme

#: Where the word matrices of dot products, scaling and softmax go (the content box, a little lower).
AREA = WORD_MATRIX_AREA

# -- the division (scene units) ------------------------------------------------------------
#: The d, √d panel takes the content right of this x; the score matrix, the rest.
PANEL_LEFT = 2.5
#: The score matrix's widest cell.
CELL_W_MAX = 1.3
#: Between a sign ("d =", "÷") and its number: a little tighter than ITEM_BUFF.
SIGN_BUFF, DIVISOR_BUFF = 0.18, 0.08
#: Between the panel's lines, and between its two columns of dimension names; between
#: two lines of names.
PANEL_GAP, NAME_LINE_GAP = 0.4, 0.22
#: The "÷ √d" beside each row: √d at three quarters of its size; it slides off leftwards.
DIVISOR_SCALE, DIVISOR_DRIFT = 0.75, 0.3

# -- the two charts (scene units) ----------------------------------------------------------
#: A bar's widest column; a weight of 1 is BAR_H tall.
COL_W_MAX, BAR_H = 1.15, 2.8
#: The baseline leaves WORDS_ROOM above the content's bottom for the words under the bars
#: (on two lines when long); the chart titles are centred at HEAD_Y, over the bars.
WORDS_ROOM, HEAD_Y = 0.75, 1.4
#: Between a chart's title and the line under it.
HEAD_BUFF = 0.12

# -- pacing --------------------------------------------------------------------------------
#: lag_ratio of a cascade of rows, names or bars; of the divisors; of the rows turning.
CASCADE_LAG, DIVISOR_LAG, TURN_LAG = LAG.quick, 0.08, LAG.step


# --- layout: pure functions that build and place, returning typed records -----------------


@dataclass(frozen=True)
class Divisor:
    """A "÷ √d" right of one row of S."""

    sign: Text  # "÷"
    value: Num  # sqrt_d, smaller
    group: VGroup  # both, as placed


@dataclass(frozen=True)
class Division:
    """S on the left, d and √d on the right, and what turns S into S/√d."""

    scores: NumberGrid  # (n, n) S: row = query word, column = key word
    axes: VGroup  # "query ↓" and "key →"
    d_line: VGroup  # "d = <d> dimensions"
    names: VGroup  # the dimension names, in one or two columns
    sqrt_line: VGroup  # "√d = <sqrt_d>"
    sqrt_num: Num  # sqrt_d in sqrt_line
    panel: VGroup  # d_line, names, sqrt_line
    scaled: NumberGrid  # (n, n) S/√d, over S: its numbers replace S's (≈ where not redoable)
    operand_decimals: int  # of S and √d: enough that each shown score ÷ shown √d is the shown S/√d, if it can be
    divisors: tuple[Divisor, ...]  # one per row of S


def _panel(ctx: ContextTrace, dims: list[str], theme: Theme, op_dec: int, *,
           compact: bool = False) -> tuple[VGroup, VGroup, VGroup, Num, VGroup]:
    """d_line, names, sqrt_line, sqrt_num and the panel of all three (not placed); ``compact``:
    "dimensions" under "d = 8" rather than after it, for a narrower panel."""
    d_line = VGroup(
        # Translators: after "d = 3": the number of dimensions of a word vector.
        label("d =", "body"), Num(ctx.d, 0, Source(0, "d"), size="body"),
        label(pgettext("d = ...", "dimensions"), "body", theme["muted"]),
    ).arrange(RIGHT, buff=SIGN_BUFF)
    if compact:
        d_line[2].next_to(d_line[0], DOWN, buff=NAME_LINE_GAP, aligned_edge=LEFT)
    names = VGroup(*(label(m, "small", theme.dim(m)) for m in dims))
    cols = 2 if len(dims) > 3 else 1
    names.arrange_in_grid(cols=cols, buff=(PANEL_GAP, NAME_LINE_GAP), col_alignments="l" * cols)
    sqrt_num = Num(ctx.sqrt_d, op_dec, Source(0, "sqrt_d"), size="body", color=theme["accent"])
    sqrt_line = VGroup(label("√d =", "body", theme["accent"]), sqrt_num).arrange(RIGHT, buff=SIGN_BUFF)
    panel = VGroup(d_line, names, sqrt_line).arrange(DOWN, buff=PANEL_GAP, aligned_edge=LEFT)
    return d_line, names, sqrt_line, sqrt_num, panel


def _score_cells(ctx: ContextTrace, need: float, panel_w: float) -> tuple[float, float, float]:
    """(cell width, cell height, the panel's left edge): the panel from PANEL_LEFT, or, where
    S's cells would then be narrower than ``need`` (long words as row labels take the room),
    a panel ``panel_w`` wide against the content's right edge and the row labels measured at
    the size they are drawn."""
    room_w = PANEL_LEFT - MED_LARGE_BUFF - CONTENT.left - label_width(ctx.tokens) - ITEM_BUFF
    cw, ch = fit_token_cells(ctx.tokens, room_w, AREA.height, LABEL_ROOM, max_w=CELL_W_MAX)
    if cw >= need:
        return cw, ch, PANEL_LEFT
    panel_left = max(PANEL_LEFT, CONTENT.right - panel_w)
    room_w = panel_left - MED_LARGE_BUFF - CONTENT.left - label_width(ctx.tokens, "label") - ITEM_BUFF
    return (*fit_token_cells(ctx.tokens, room_w, AREA.height, LABEL_ROOM, max_w=CELL_W_MAX), panel_left)


def division(ctx: ContextTrace, dims: list[str], theme: Theme, dec: int) -> Division:
    """S left of the panel, the panel centred right of it on S's cells, S/√d over S."""
    n = ctx.n
    # S and √d carry the decimals that make every division redoable from the screen (at
    # most one more than the lesson's); a scaled score that still is not is marked ≈.
    op_dec = quotient_decimals(ctx.scores, ctx.sqrt_d, dec, dec + WORKED_EXTRA_DECIMALS)
    # d: the number of named dimensions; √d: the divisor.
    approx = [[not quotient_as_shown(ctx.scores[r, c], ctx.sqrt_d, op_dec, dec) for c in range(n)] for r in range(n)]
    need = max(readable_cell_width(ctx.scores, op_dec),
               readable_cell_width(ctx.scaled, dec),
               readable_cell_width(ctx.scaled[np.array(approx)], dec, approx=True) if any(map(any, approx)) else 0.0)
    d_line, names, sqrt_line, sqrt_num, panel = _panel(ctx, dims, theme, op_dec)
    cw, ch, panel_left = _score_cells(ctx, need, float(panel.width))
    if panel_left != PANEL_LEFT:  # crowded: the narrower panel
        d_line, names, sqrt_line, sqrt_num, panel = _panel(ctx, dims, theme, op_dec, compact=True)
        cw, ch, panel_left = _score_cells(ctx, need, float(panel.width))
    S = token_matrix(
        ctx.scores, op_dec, lambda r, c: Source(0, "scores", (r, c)), theme, ctx.tokens, cell_w=cw, cell_h=ch
    )
    axes = axis_titles(S, theme)
    VGroup(S, axes).move_to(((CONTENT.left + panel_left - MED_LARGE_BUFF) / 2, AREA.centre_y, 0))
    CONTENT.keep_inside(VGroup(S, axes))  # "query ↓" may reach further left than short row labels
    panel.move_to(((panel_left + CONTENT.right) / 2, S.cells.get_center()[1], 0))

    T = token_matrix(ctx.scaled, dec, lambda r, c: Source(0, "scaled", (r, c)), theme, ctx.tokens, cell_w=cw, cell_h=ch,
                     approx=lambda r, c: approx[r][c])
    T.move_to(S)
    divisors = []
    for r in range(n):
        sign, value = label("÷", "small", theme["accent"]), sqrt_num.copy().scale(DIVISOR_SCALE)
        group = VGroup(sign, value).arrange(RIGHT, buff=DIVISOR_BUFF)
        divisors.append(Divisor(sign, value, group.next_to(S.row(r), RIGHT, buff=LABEL_BUFF)))
    return Division(S, axes, d_line, names, sqrt_line, sqrt_num, panel, T, op_dec, tuple(divisors))


@dataclass(frozen=True)
class Chart:
    """The focus word's row of one attention matrix as bars, with a title."""

    bars: WeightBars  # one bar per key word, the focus word in the query colour
    head: VGroup  # the title and, under it, what it shows


def focus_chart(ctx: ContextTrace, matrix: str, x_left: float, x_right: float, title: str, sub: str,
                theme: Theme, dec: int) -> Chart:
    """The focus row of ``matrix`` (an attention matrix of the trace) as bars between ``x_left`` and
    ``x_right``; turned words under the bars take their room from the bars' height (the same in
    both charts: they show the same words) and, reaching left of the first bar, from the columns'
    width."""
    i = ctx.focus_index
    col_w = min(COL_W_MAX, 6 / ctx.n)
    words_room = max(WORDS_ROOM, bar_words_depth(ctx.tokens, col_w))
    for _attempt in range(2):
        bars = WeightBars(
            getattr(ctx, matrix)[i], ctx.tokens, dec, lambda k: Source(0, matrix, (i, k)), theme,
            col_w=col_w, height=BAR_H - (words_room - WORDS_ROOM),
        )
        excess = float(bars.width) - (x_right - x_left)
        if excess <= 0:
            break
        col_w -= excess / ctx.n
    bars.words[i].set_color(theme["query"])
    base_y = CONTENT.bottom + words_room
    move = np.array([(x_left + x_right) / 2 - bars.baseline.get_center()[0], base_y - bars.baseline.get_y(), 0])
    # Centred on its baseline; words turned under the first bars may need it further right.
    move[0] += max(0.0, x_left - (float(bars.get_left()[0]) + move[0]))
    bars.shift(move)
    bars.outline.shift(move)  # drawn later, not one of the chart's parts
    head = VGroup(label(title, "label", theme["text"]), label(sub, "small", theme["muted"]))
    head.arrange(DOWN, buff=HEAD_BUFF).move_to(((x_left + x_right) / 2, HEAD_Y, 0))
    return Chart(bars, head)


@dataclass(frozen=True)
class Comparison:
    """Two charts side by side, same height scale, the same words in the same order."""

    intro: Text  # what the charts show, under the header
    unscaled: Chart  # softmax(S), left
    scaled: Chart  # softmax(S / √d), right


def comparison(ctx: ContextTrace, theme: Theme, dec: int) -> Comparison:
    intro = label(_("How much {word} attends to each word").format(word=quoted(ctx.focus)), "label", theme["query"])
    intro.move_to((0, CONTENT.top - MED_SMALL_BUFF, 0))
    return Comparison(
        intro,
        focus_chart(
            ctx, "unscaled_attention", CONTENT.left, -GROUP_BUFF, "softmax(S)", _("without scaling"), theme, dec
        ),
        focus_chart(ctx, "attention", GROUP_BUFF, CONTENT.right, "softmax(S / √d)", _("with scaling"), theme, dec),
    )


# --- the scene ----------------------------------------------------------------------------


class Scaling(LessonScene):
    TITLE = N_("Scaling")
    STAGE = 2
    FORMULA = r"X X^T \/ sqrt(d)"
    SECTIONS = (
        (N_("Divide every score by √d"), "divide"),
        (N_("Softmax without scaling"), "without"),
        (N_("Softmax with scaling"), "with_scaling"),
    )

    division: Division
    comparison: Comparison

    def divide(self) -> None:
        ctx = self.ctx(0)
        n = ctx.n
        lay = self.division = division(ctx, list(self.lesson.dimensions), self.theme, self.dec)
        S, T = lay.scores, lay.scaled
        # Left: the score matrix of the previous step. Right: d and √d.
        self.narrate(
            _("Before the softmax, every score is divided by the square root of d, the number of dimensions. "
              "Dot products grow with d. Here d is {d}, so we divide by {sqrt_d}.").format(
                d=fmt(ctx.d, 0), sqrt_d=fmt(ctx.sqrt_d, lay.operand_decimals))
            + self._approx_quotients(ctx)
        )
        self.play(FadeIn(S.cells), Write(S.row_labels), Write(S.col_labels), FadeIn(lay.axes), run_time=TIME.write)
        self.play(LaggedStart(*(FadeIn(S.row_entries(r)) for r in range(n)), lag_ratio=CASCADE_LAG))
        self.note = self.say(_("The scores S of the previous step, one row per query word."))
        self.play(FadeIn(lay.d_line), LaggedStart(*(FadeIn(m) for m in lay.names), lag_ratio=CASCADE_LAG))
        self.note = self.say(_("d is the number of dimensions of every word vector."), self.note)
        self.play(self.light_formula("sqrt(d)"), FadeIn(lay.sqrt_line, shift=LEFT * DRIFT))
        self.hold(1)

        # Every score is divided by √d: a "÷ √d" beside every row, then each score rolls
        # over into its scaled value, row by row.
        self.play(
            LaggedStart(*(AnimationGroup(FadeIn(dv.sign), TransformFromCopy(lay.sqrt_num, dv.value))
                          for dv in lay.divisors), lag_ratio=DIVISOR_LAG),
            run_time=TIME.transform,
        )
        self.play(
            LaggedStart(
                *(
                    AnimationGroup(
                        *(FadeOut(S.entry(r, c), shift=UP * DRIFT) for c in range(n)),
                        *(FadeIn(T.entry(r, c), shift=UP * DRIFT) for c in range(n)),
                        FadeOut(lay.divisors[r].group, shift=LEFT * DIVISOR_DRIFT),
                    )
                    for r in range(n)
                ),
                lag_ratio=TURN_LAG,
            ),
            run_time=2 * TIME.transform,
        )
        self.hold(2 * n)
        self.note = self.say(_("Every score is divided by the same number: √d."), self.note)

    def _approx_quotients(self, ctx: ContextTrace) -> str:
        """Why some scaled scores are marked ≈, when some are ("" when every division can be redone)."""
        T = self.division.scaled
        if not any(T.entry(r, c).approx for r in range(ctx.n) for c in range(ctx.n)):
            return ""
        root = round(ctx.sqrt_d) ** 2 != ctx.d
        if root:
            return " " + _("A scaled score marked approximate is that of the exact division: the square root of {d} "
                           "has no exact decimal form, so dividing the numbers shown can differ in the last digit."
                           ).format(d=fmt(ctx.d, 0))
        return " " + _("A scaled score marked approximate is that of the exact division: the scores shown are rounded, "
                       "so dividing the numbers shown can differ in the last digit.")

    def _show(self, chart: Chart) -> None:
        bars = chart.bars
        self.play(FadeIn(chart.head), Create(bars.baseline), FadeIn(bars.words), run_time=TIME.fade)
        self.play(
            LaggedStart(*(GrowFromEdge(b, DOWN) for b in bars.bars), lag_ratio=CASCADE_LAG),
            LaggedStart(*(FadeIn(m, shift=UP * DRIFT) for m in bars.nums), lag_ratio=CASCADE_LAG),
            run_time=TIME.transform,
        )
        peak = bars.peak
        self.play(Create(bars.outline), bars.bars[peak].animate.set_fill(self.theme["accent"]))
        self.hold(len(bars.nums))

    def without(self) -> None:
        ctx = self.ctx(0)
        lay = self.comparison = comparison(ctx, self.theme, self.dec)
        self.narrate(_("Softmax, the next step, turns scores into weights that add up to one.") + " "
                     + self.claims("largest")[0].text)
        div = self.division
        self.play(
            FadeOut(div.scores.cells), FadeOut(div.scores.row_labels), FadeOut(div.scores.col_labels),
            FadeOut(div.scaled.entries), FadeOut(div.axes), FadeOut(div.panel), self.light_formula(None),
            run_time=TIME.fade,
        )
        self.play(FadeIn(lay.intro))
        self.note = self.say(_("Softmax (next step) turns a row of scores into weights that sum to one."), self.note)
        self._show(lay.unscaled)
        self.note = self.say(self.claims(where="caption")[0].text, self.note)

    def with_scaling(self) -> None:
        said = self.claims()[0]  # "keeps a share" only when the shown weight is under 1
        # Translators: {claim} is a sentence on the weights with scaling, without its final full stop.
        self.narrate(
            _("{claim}: scaling keeps the softmax from becoming too sharp.").format(claim=said.text)
            if said.kind == "keeps_share"
            # Translators: {claim} is a sentence on the weights with scaling, without its final full stop.
            else _("{claim}. Scaling keeps the softmax from becoming too sharp as d grows.").format(claim=said.text)
        )
        self._show(self.comparison.scaled)
        for shown in self.claims("flatter", "caption"):
            self.note = self.say(shown.text, self.note)
        self.note = self.say(
            _("Dot products grow with d: scaling keeps the softmax from becoming too sharp."), self.note
        )

        self.hold()


__all__ = ["Scaling"]
