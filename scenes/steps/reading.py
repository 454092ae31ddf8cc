"""Reading the attention matrix: a row says where one word looks, and how much.

After this scene the viewer reads the attention matrix the right way round (row = the
word being updated, the query; column = the word it looks at, the key) and can say, for
the focus word, which words matter to it and roughly how much: the row is lifted out of
the matrix as bars, then laid over the sentence as arcs whose thickness is the weight.

Shows from the attncore trace: ``attention`` of the first context, every weight as
``fmt`` rounds it (equal weights look equal; a row's shown weights may add up to a
hundredth more or less than 1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Animation,
    AnimationGroup,
    ArcBetweenPoints,
    Create,
    FadeIn,
    FadeOut,
    GrowFromEdge,
    LaggedStart,
    Rectangle,
    ReplacementTransform,
    SurroundingRectangle,
    Text,
    TransformFromCopy,
    VGroup,
    Write,
)

from attncore import ContextTrace, fmt, round_matrix
from attncore.i18n import N_, _, quoted
from scenes.base import LessonScene
from scenes.components import (
    HeatLegend,
    Num,
    NumberGrid,
    Source,
    TokenRow,
    column_labels,
    fit_cells,
    ink_on_heat,
    label,
    label_width,
    labelled_row_outline,
    readable_cell_width,
)
from scenes.layout import (
    CONTENT,
    DRIFT,
    ITEM_BUFF,
    LABEL_BUFF,
    MED_SMALL_BUFF,
    SMALL_BUFF,
    TINY_BUFF,
    WORD_MATRIX_AREA,
    Box,
)
from scenes.theme import LAG, STROKE, TIME, Theme

# -- 1: the matrix -----------------------------------------------------------------------------
#: The matrix fits GRID_W × GRID_H with cells at most MAX_CELL_W × MAX_CELL_H ...
GRID_W, GRID_H, MAX_CELL_W, MAX_CELL_H = 6.2, 4.3, 1.25, 0.7
#: ... centred left of the middle (room for the legend and the convention on its right),
#: its top (column names included) no higher than GRID_TOP.
GRID_CENTRE = LEFT * 2.5 + DOWN * 0.4
GRID_TOP = 2.3
#: The legend's full height (shorter beside a shorter matrix).
LEGEND_H = 2.4
#: Between the matrix and the legend; from the frame's left edge once the matrix steps aside.
SIDE_BUFF = 0.45
#: The legend's width with its gap on the left (a HeatLegend with its labels).
LEGEND_ROOM = 1.4
#: Between the legend and the convention, and between the convention's two blocks.
CONVENTION_BUFF, CONVENTION_GAP = 0.7, 0.55
#: The convention stays inside this box (its right edge only matters).
CONVENTION_ROOM: Box = CONTENT.inset(right=TINY_BUFF)
#: The convention's texts slide in from this far right.
SLIDE = DRIFT
#: The outline of the one cell read, just off it.
CELL_MARK_BUFF = 0.02

# -- 2: one row as bars ------------------------------------------------------------------------
#: The other rows step back: cells, outlines and text at these opacities.
FAINT_FILL, FAINT_STROKE, FAINT_TEXT = 0.3, 0.5, 0.6
#: Between the matrix and the words of the bars; the bars' numbers end SMALL_BUFF inside
#: the content box, NUMBER_ROOM after the longest bar.
BARS_BUFF, NUMBER_ROOM = 0.9, 0.85
BARS_RIGHT = CONTENT.inset(right=SMALL_BUFF).right
#: Bars BAR_SHARE of their pitch high; the pitch at most MAX_PITCH, all of them within BARS_H.
MAX_PITCH, BARS_H, BAR_SHARE = 0.62, 4.2, 0.62
#: The least length of a bar, so that a weight of 0 still shows where it is.
MIN_BAR = 0.02
#: Between the bars and their heading.
HEAD_BUFF = 0.3

# -- 3: over the sentence ----------------------------------------------------------------------
#: The sentence keeps MED_SMALL_BUFF inside the content box, SENTENCE_DROP under the middle.
SENTENCE: Box = CONTENT.inset(left=MED_SMALL_BUFF, right=MED_SMALL_BUFF)
SENTENCE_DROP = 1.15
#: The bars stand BASE_BUFF over the words and reach NUMBER_RISE under BARS_TOP (their numbers over them).
BASE_BUFF, NUMBER_RISE = 0.12, 0.45
BARS_TOP = CONTENT.inset(top=MED_SMALL_BUFF).top
#: A bar is WORD_SHARE of its word's box wide, at most MAX_BAR_W.
MAX_BAR_W, WORD_SHARE = 0.55, 0.6
#: The arcs leave and reach the boxes ARC_BUFF under them and sag SAG_PER_UNIT per unit of
#: chord plus SAG_MIN, never below the word matrices' area (above the caption).
ARC_BUFF, SAG_PER_UNIT, SAG_MIN = 0.06, 0.25, 0.35
#: An arc: ARC_W thick plus 14 per unit of weight; FAINTEST opacity for a weight of 0, full
#: for the largest; its tip TIP long plus TIP_PER_WEIGHT per unit of weight.
ARC_W, FAINTEST, TIP, TIP_PER_WEIGHT = STROKE.thin, 0.25, 0.12, 0.2

# -- pacing ------------------------------------------------------------------------------------
#: Lags of LaggedStart: rows of the matrix, bars and arcs.
#: The rows, the bars' move onto the sentence and the arcs take half as long again.
SLOW = 1.5


def weight_source(i: int, j: int) -> Source:
    return Source(0, "attention", (i, j))


# -- 1 -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MatrixView:
    """The attention matrix (heat-coloured) and its legend."""

    grid: NumberGrid  # (n, n): query words on the rows, key words over the columns
    legend: HeatLegend
    shown: np.ndarray  # (n, n) the weights as displayed (each as fmt rounds it)
    wrap: bool  # the convention beside it on narrower lines (long words)


def _matrix(ctx: ContextTrace, theme: Theme, dec: int, cell_w: float, cell_h: float) -> NumberGrid:
    n, a = ctx.n, ctx.attention
    grid = NumberGrid(
        a, dec, weight_source, theme, row_labels=list(ctx.tokens),
        cell_w=cell_w, cell_h=cell_h, fill=lambda i, j: theme.heat(a[i, j]), row_colours=[theme["query"]] * n,
    )
    # column labels that never shrink: turned on one line if they would touch (issue 24: not a staircase)
    grid.set_column_labels(column_labels(grid, ctx.tokens, theme, [theme["key"]] * n, size="label", style="turned"))
    ink_on_heat(grid, a, theme)
    return grid


def matrix_view(ctx: ContextTrace, theme: Theme, dec: int) -> MatrixView:
    """The matrix in GRID_W × GRID_H, centred at GRID_CENTRE, no higher than GRID_TOP; where long
    words (row labels, turned column labels) would take it out of the area or into the legend and
    convention's room on its right, with smaller cells, and moved back inside."""
    n, a = ctx.n, ctx.attention
    shown = round_matrix(a, dec)
    cell_w, cell_h = fit_cells(n, n, GRID_W, GRID_H, max_w=MAX_CELL_W, max_h=MAX_CELL_H)
    room_h = GRID_TOP - WORD_MATRIX_AREA.bottom
    room_w = CONTENT.right - convention_width(theme) - CONVENTION_BUFF - LEGEND_ROOM - CONTENT.left
    wrap = room_w - label_width(ctx.tokens, "label") - ITEM_BUFF < n * readable_cell_width(a, dec)
    if wrap:  # the convention's long lines on two, so that the numbers stay readable
        room_w = CONTENT.right - convention_width(theme, wrap=True) - CONVENTION_BUFF - LEGEND_ROOM - CONTENT.left
    for _attempt in range(3):
        grid = _matrix(ctx, theme, dec, cell_w, cell_h)
        body_w = float(grid.body().get_right()[0] - grid.get_left()[0])
        if grid.height <= room_h and body_w <= room_w:
            break
        # Only the cells shrink: shrink them by all of the overshoot.
        cell_h -= max(0.0, float(grid.height) - room_h) / n
        cell_w -= max(0.0, body_w - room_w) / n
    grid.move_to(GRID_CENTRE)
    if grid.get_top()[1] > GRID_TOP:
        grid.shift(DOWN * (grid.get_top()[1] - GRID_TOP))
    grid.shift(RIGHT * max(0.0, CONTENT.left - float(grid.get_left()[0]))
               + UP * max(0.0, WORD_MATRIX_AREA.bottom - float(grid.get_bottom()[1])))
    legend = HeatLegend(theme, height=min(LEGEND_H, grid.body().height))
    legend.next_to(grid.body(), RIGHT, buff=SIDE_BUFF)
    return MatrixView(grid, legend, shown, wrap)


@dataclass(frozen=True)
class Convention:
    """Row = the word being updated, column = the word it looks at: outlined, and in words."""

    row_box: SurroundingRectangle  # the focus word's row with its label
    col_box: SurroundingRectangle  # the column of the word it looks at most, with its label
    cell: SurroundingRectangle  # where they cross
    row_text: VGroup
    col_text: VGroup

    def marks(self) -> VGroup:
        return VGroup(self.row_box, self.col_box, self.cell)


def convention_width(theme: Theme, wrap: bool = False) -> float:
    """The width of the convention's texts (:func:`convention`)."""
    return max(float(explained(*texts, theme["text"], theme, wrap=wrap).width) for texts in _convention_texts())


def _convention_texts() -> tuple[tuple[str, str, str], tuple[str, str, str]]:
    # Translators: three lines beside the attention matrix: "row" / "the word being updated" / "its query".
    row = (_("row"), _("the word being updated"), _("its query"))
    # Translators: three lines beside the attention matrix: "column" / "the word it looks at" / "its key".
    col = (_("column"), _("the word it looks at"), _("its key"))
    return row, col


def _halves(text: str) -> list[str]:
    """``text`` in two lines, broken at the space nearest its middle (one line without a space)."""
    spaces = [k for k, ch in enumerate(text) if ch == " "]
    if not spaces:
        return [text]
    k = min(spaces, key=lambda k: abs(2 * k - len(text)))
    return [text[:k], text[k + 1 :]]


def explained(head: str, what: str, role: str, colour: str, theme: Theme, *, wrap: bool = False) -> VGroup:
    """``head`` (bold, in ``colour``) over what it is and its role; ``wrap``: what it is on two
    lines (beside a matrix that long words make wide)."""
    return VGroup(
        label(head, "body", colour, weight="BOLD"),
        *(label(line, "label", theme["text"]) for line in (_halves(what) if wrap else [what])),
        label(role, "label", theme["muted"]),
    ).arrange(DOWN, aligned_edge=LEFT, buff=SMALL_BUFF)


def convention(view: MatrixView, fi: int, j_star: int, theme: Theme) -> Convention:
    grid = view.grid
    row_box = labelled_row_outline(grid, fi, theme["query"], TINY_BUFF)
    # A turned word reaches past its column: the outline would cut through it, so it stops under it.
    word = grid.col_labels[j_star]
    col_box = SurroundingRectangle(VGroup(grid.column(j_star), *([] if getattr(word, "turned", 0.0) else [word])),
                                   color=theme["key"], buff=TINY_BUFF, stroke_width=4)
    row, col = _convention_texts()
    row_text = explained(*row, theme["query"], theme, wrap=view.wrap)
    col_text = explained(*col, theme["key"], theme, wrap=view.wrap)
    texts = VGroup(row_text, col_text).arrange(DOWN, aligned_edge=LEFT, buff=CONVENTION_GAP)
    texts.next_to(view.legend, RIGHT, buff=CONVENTION_BUFF).match_y(grid.body())
    if texts.get_right()[0] > CONVENTION_ROOM.right:
        texts.shift(LEFT * (texts.get_right()[0] - CONVENTION_ROOM.right))
    cell = SurroundingRectangle(grid.cell(fi, j_star), color=theme["accent"], buff=CELL_MARK_BUFF, stroke_width=5)
    return Convention(row_box, col_box, cell, row_text, col_text)


# -- 2 -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RowBars:
    """The focus word's row lifted out of the matrix: one bar per word it looks at."""

    row_box: SurroundingRectangle  # the row in the matrix, outlined
    bars: VGroup  # Rectangle per word, as long as its weight
    nums: VGroup  # Num per word, after its bar
    names: VGroup  # the words, before the bars
    head: Text  # "“word” looks at"


def row_bars(ctx: ContextTrace, w: np.ndarray, grid: NumberGrid, theme: Theme, dec: int) -> RowBars:
    """Bars right of the matrix (where it stands now), centred on its rows."""
    n, fi = ctx.n, ctx.focus_index
    row_box = labelled_row_outline(grid, fi, theme["accent"], TINY_BUFF)
    left = grid.body().get_right()[0] + BARS_BUFF  # turned words may reach further, above the bars
    names = VGroup(*(label(t, "label", theme["key"]) for t in ctx.tokens))
    x0 = left + max(m.width for m in names) + ITEM_BUFF
    # the exact weights (``w`` is the row as shown): one too small to show reads <0.01, not 0.00
    nums = VGroup(*(Num(ctx.attention[fi, j], dec, weight_source(fi, j), size="cell", color=theme["text"])
                    for j in range(n)))
    # room for the number after the longest bar: NUMBER_ROOM, or more for a wider number (three decimals)
    length = BARS_RIGHT - max(NUMBER_ROOM, max(m.width for m in nums) + LABEL_BUFF) - x0
    pitch = min(MAX_PITCH, BARS_H / n)
    top = grid.body().get_center()[1] + pitch * (n - 1) / 2
    wmax = float(np.max(w))  # the weights add up to 1: the largest is at least 1/n
    bars = VGroup()
    for j in range(n):
        y = top - j * pitch
        bar = Rectangle(
            width=max(length * w[j] / wmax, MIN_BAR), height=pitch * BAR_SHARE, stroke_width=0,
            fill_color=theme.heat(ctx.attention[fi, j]), fill_opacity=1,
        )
        bar.move_to((x0 + bar.width / 2, y, 0))
        nums[j].next_to(bar, RIGHT, buff=LABEL_BUFF)
        names[j].move_to((x0 - ITEM_BUFF - names[j].width / 2, y, 0))
        bars.add(bar)
    # Translators: the title over the bars of the weights of one word's row.
    head = label(_("{word} looks at").format(word=quoted(ctx.tokens[fi])), "label", theme["accent"])
    head.next_to(bars, UP, buff=HEAD_BUFF).align_to(names, LEFT)
    return RowBars(row_box, bars, nums, names, head)


# -- 3 -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OverSentence:
    """The sentence with the row standing on it as bars, and arcs from the focus word."""

    row: TokenRow
    bars: VGroup  # Rectangle per word, as tall as its weight
    nums: VGroup  # Num per word, over its bar
    arcs: VGroup  # one per other word, as thick and bright as its weight


def sentence_bars(ctx: ContextTrace, w: np.ndarray, theme: Theme, dec: int) -> tuple[TokenRow, VGroup, VGroup]:
    n, fi = ctx.n, ctx.focus_index
    row = TokenRow(ctx.tokens, theme, focus=fi)
    if row.width > SENTENCE.width:
        row.scale_to_fit_width(SENTENCE.width)
    row.move_to(DOWN * SENTENCE_DROP)
    base = row.get_top()[1] + BASE_BUFF
    max_h = BARS_TOP - NUMBER_RISE - base
    wmax = float(np.max(w))
    bars, nums = VGroup(), VGroup()
    for j in range(n):
        box = row.boxes[j]
        h = max(max_h * w[j] / wmax, MIN_BAR)
        bar = Rectangle(width=min(MAX_BAR_W, box.width * WORD_SHARE), height=h, stroke_width=0,
                        fill_color=theme.heat(ctx.attention[fi, j]), fill_opacity=1)
        bar.move_to((box.get_center()[0], base + h / 2, 0))
        num = Num(ctx.attention[fi, j], dec, weight_source(fi, j), size="cell", color=theme["text"])
        num.next_to(bar, UP, buff=SMALL_BUFF)
        bars.add(bar)
        nums.add(num)
    return row, bars, nums


def arcs(row: TokenRow, w: np.ndarray, fi: int, theme: Theme) -> VGroup:
    """Arcs from the focus word to every other word, as thick and bright as the weight."""
    wmax = float(np.max(w))
    out = VGroup()
    start = row.boxes[fi].get_bottom() + DOWN * ARC_BUFF
    depth = start[1] - WORD_MATRIX_AREA.bottom
    for j in range(len(w)):
        if j == fi:
            continue
        end = row.boxes[j].get_bottom() + DOWN * ARC_BUFF
        chord = abs(end[0] - start[0])  # > 0: the boxes stand side by side
        # deep for a neighbour, flatter for a far word, always above the caption
        sag = min(depth, SAG_PER_UNIT * chord + SAG_MIN)
        angle = 4 * np.arctan(2 * sag / chord)
        arc = ArcBetweenPoints(start, end, angle=angle if end[0] > start[0] else -angle)
        opacity = FAINTEST + (1 - FAINTEST) * w[j] / wmax
        arc.set_stroke(theme["accent"], width=ARC_W + 14 * w[j], opacity=opacity)
        arc.add_tip(tip_length=TIP + TIP_PER_WEIGHT * w[j], tip_width=TIP + TIP_PER_WEIGHT * w[j])
        arc.tip.set_fill(theme["accent"], opacity=opacity).set_stroke(width=0)
        out.add(arc)
    return out


def over_sentence(ctx: ContextTrace, w: np.ndarray, theme: Theme, dec: int) -> OverSentence:
    row, bars, nums = sentence_bars(ctx, w, theme, dec)
    return OverSentence(row, bars, nums, arcs(row, w, ctx.focus_index, theme))


# -- the scene ---------------------------------------------------------------------------------


class ReadingAttention(LessonScene):
    TITLE = N_("Reading the matrix")
    STAGE = 3
    FORMULA = r'A = "softmax"(X X^T \/ sqrt(d))'
    SECTIONS = (
        (N_("Row = query, column = key"), "the_matrix"),
        (N_("One row: one word's attention"), "one_row"),
        (N_("Where the word looks"), "where_it_looks"),
    )

    # -- 1 -------------------------------------------------------------------------------
    def the_matrix(self) -> None:
        ctx = self.ctx(0)
        n, fi = ctx.n, ctx.focus_index
        a = ctx.attention
        j_star = max((j for j in range(n) if j != fi), key=lambda j: a[fi, j]) if n > 1 else fi
        self.view = view = matrix_view(ctx, self.theme, self.dec)
        self.narrate(
            _(
                "This is the attention matrix. A row is the word being updated, its query; "
                "a column is the word it looks at, its key. {word} gives {weight} of its attention to {other}."
            ).format(
                word=quoted(ctx.tokens[fi]),
                weight=fmt(view.shown[fi, j_star], self.dec),
                other=quoted(ctx.tokens[j_star]),
            )
        )
        grid = view.grid
        self.play(FadeIn(grid.cells), Write(grid.row_labels), Write(grid.col_labels), run_time=TIME.write)
        self.play(
            LaggedStart(*(FadeIn(grid.row_entries(i)) for i in range(n)), lag_ratio=LAG.step),
            FadeIn(view.legend), run_time=TIME.write * SLOW,
        )
        self.hold(n * n)

        # The convention: row = the word being updated, column = the word it looks at.
        self.conv = conv = convention(view, fi, j_star, self.theme)
        self.play(Create(conv.row_box), FadeIn(conv.row_text, shift=LEFT * SLIDE), run_time=TIME.write)
        self.play(Create(conv.col_box), FadeIn(conv.col_text, shift=LEFT * SLIDE), run_time=TIME.write)
        self.play(Create(conv.cell), run_time=TIME.fade)
        self.note = self.say(
            _("This cell: how much {word} looks at {other}. Every row sums to one.").format(
                word=quoted(ctx.tokens[fi]), other=quoted(ctx.tokens[j_star]))
        )

    # -- 2 -------------------------------------------------------------------------------
    def _step_back(self, rows: list[int]) -> list[Animation]:
        """The other rows fade: faint cells, muted numbers and labels."""
        grid, muted = self.view.grid, self.theme["muted"]
        return [
            *(cast(Animation, grid.row(i).animate.set_fill(opacity=FAINT_FILL).set_stroke(opacity=FAINT_STROKE))
              for i in rows),
            *(cast(Animation, grid.row_entries(i).animate.set_color(muted).set_opacity(FAINT_TEXT)) for i in rows),
            *(cast(Animation, grid.row_labels[i].animate.set_color(muted).set_opacity(FAINT_TEXT)) for i in rows),
        ]

    def one_row(self) -> None:
        ctx, grid = self.ctx(0), self.view.grid
        n, fi = ctx.n, ctx.focus_index
        w = self.view.shown[fi]
        self.narrate(_("Lift out the row of {word}: one bar per word.").format(word=quoted(ctx.tokens[fi])) + " "
                     + " ".join(c.text for c in self.claims()))
        self.play(
            FadeOut(VGroup(self.conv.row_text, self.conv.col_text)), FadeOut(self.view.legend),
            FadeOut(self.conv.marks()), *self._step_back([i for i in range(n) if i != fi]),
            run_time=TIME.fade,
        )
        self.play(grid.animate.to_edge(LEFT, buff=SIDE_BUFF), run_time=TIME.transform)
        self.lifted = lay = row_bars(ctx, w, grid, self.theme, self.dec)
        self.play(Create(lay.row_box), run_time=TIME.fade)

        # The row, lifted out: one bar per word it looks at.
        self.play(FadeIn(lay.head), run_time=TIME.fade)
        self.play(
            LaggedStart(
                *(
                    AnimationGroup(
                        TransformFromCopy(grid.col_labels[j], lay.names[j]),
                        GrowFromEdge(lay.bars[j], LEFT),
                        TransformFromCopy(grid.entry(fi, j), lay.nums[j]),
                    )
                    for j in range(n)
                ),
                lag_ratio=LAG.item,
            ),
            run_time=TIME.transform * 2,
        )
        self.hold(n)
        self.note = self.say(
            _("The row of {word}: how much each word matters to it.").format(word=quoted(ctx.tokens[fi])), self.note
        )

    # -- 3 -------------------------------------------------------------------------------
    def where_it_looks(self) -> None:
        ctx, lifted = self.ctx(0), self.lifted
        n, fi = ctx.n, ctx.focus_index
        w = self.view.shown[fi]
        self.narrate(
            _("Over the sentence, a thicker arc means more attention.") + " " + self.claims("runner_up")[0].text
        )

        self.play(FadeOut(self.view.grid), FadeOut(lifted.row_box), FadeOut(lifted.head), run_time=TIME.fade)

        # The sentence, with the row standing on it as vertical bars.
        lay = over_sentence(ctx, w, self.theme, self.dec)
        self.play(
            *(ReplacementTransform(lifted.bars[j], lay.bars[j]) for j in range(n)),
            *(ReplacementTransform(lifted.nums[j], lay.nums[j]) for j in range(n)),
            *(ReplacementTransform(lifted.names[j], lay.row.words[j]) for j in range(n)),
            FadeIn(lay.row.boxes),
            run_time=TIME.transform * SLOW,
        )
        # bring the words back in front of their boxes
        self.remove(*lay.row.words)
        self.add(lay.row)

        # Arcs from the focus word to every other word, as thick and bright as the weight.
        self.play(LaggedStart(*(Create(a) for a in lay.arcs), lag_ratio=LAG.item), run_time=TIME.write * SLOW)
        self.note = self.say(self.claims("runner_up", "caption")[0].text, self.note)
        self.hold()
