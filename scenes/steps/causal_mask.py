"""The causal mask: a word may look only at itself and the words before it.

After this scene the viewer knows why a model that writes a sentence word by word masks
its scores (the words after the current one do not exist yet), how the mask works (the
scores above the diagonal become −∞, whose exponential is 0, so the softmax shares each
row among the words up to the query and every row still sums to 1), that the focus word
still finds the words before it that carry its sense ("mouse" still finds "cat" and
"keyboard"), and what the mask costs when such a word comes after the focus word.

Shows from the attncore trace: ``scaled`` and ``causal.masked`` (context 0; "−∞" through
``attncore.display.fmt_masked``), the focus row's ``softmax_exps(i, "causal")``, their sum
``softmax_total(i, "causal")``, ``causal.attention``
and ``row_sums("causal")``; then for every context the focus word's ``attention`` and
``causal.attention`` rows and ``causal.mask_cost`` (its attention on the words that carry
the sense, without and with the mask).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    FadeIn,
    FadeOut,
    LaggedStart,
    SurroundingRectangle,
    Text,
    TransformFromCopy,
    VGroup,
    VMobject,
)

from attncore import ContextTrace, adds_up, shown_sum
from attncore.claims import Claim
from attncore.i18n import N_, _, list_of, ngettext, pgettext, quoted
from scenes.base import LessonScene
from scenes.components import (
    COMPACT_SIZES,
    EXP_ROW_NOTE,
    PREFERRED_STYLES,
    ColumnStyle,
    CompareRow,
    MaskOver,
    Num,
    NumberGrid,
    Source,
    approx_note,
    at_top,
    axis_titles,
    below,
    cell_outline,
    centre_in,
    compare_rows,
    exp_row_marked,
    exp_row_name,
    fit_token_cells,
    label,
    label_width,
    lift_entries,
    mask_edge,
    number_cell_width,
    one_line_header,
    row_total,
    softmax_row_decimals,
    sum_head,
    text_size,
    token_matrix,
    turned_reach,
    which_sentence,
)
from scenes.layout import GROUP_BUFF, ITEM_BUFF, LABEL_BUFF, LABEL_ROOM, SMALL_BUFF, Box
from scenes.theme import LAG, TIME, Theme

STAGE = "causal"  # the attncore stage of the masked softmax (ContextTrace.softmax_exps etc.)


# -- sources and colours ----------------------------------------------------------------------
def masked_source(ctx: ContextTrace, c: int, i: int, j: int) -> Source:
    """A score of the mask's matrix: the masked score where the word may look, else the
    scaled score the mask is about to hide (both are the same number where visible)."""
    return Source(c, "causal.masked", (i, j)) if ctx.causal.mask[i, j] else Source(c, "scaled", (i, j))


def key_colours(ctx: ContextTrace, theme: Theme) -> list[str]:
    """Column-label colours of the focus row: the focus word as query, the words after it muted."""
    f = ctx.focus_index
    return [theme["query"] if j == f else theme["muted"] if j > f else theme["key"] for j in range(ctx.n)]


# -- 1: the mask over the scores -------------------------------------------------------------
#: The cells of the score matrices (steps 1 and 3): at most this wide and tall.
GRID_CELL_W_MAX, GRID_CELL_H_MAX = 1.2, 0.6
#: The cells of the stacked context blocks (steps 4 and 5): at most this wide.
BLOCK_CELL_W_MAX = 1.3

@dataclass(frozen=True)
class MaskedScores:
    intro: Text
    grid: NumberGrid  # the scaled scores, without those the mask hides
    future: VGroup  # the scores the mask hides, lifted out of the grid
    axes: VGroup
    mask: MaskOver


def masked_scores_layout(ctx: ContextTrace, dec: int, theme: Theme, box: Box) -> MaskedScores:
    intro = at_top(
        label(_("Each word may look only at itself and at the words before it"), "label", theme["query"]), box
    )
    room = below(intro, box)
    row_w = label_width(ctx.tokens, "body") + LABEL_BUFF
    cw, ch = fit_token_cells(ctx.tokens, room.width - 2 * row_w, room.height, LABEL_ROOM,
                             max_w=GRID_CELL_W_MAX, max_h=GRID_CELL_H_MAX)
    grid = token_matrix(ctx.scaled, dec, lambda i, j: masked_source(ctx, 0, i, j), theme, ctx.tokens,
                        cell_w=cw, cell_h=ch)
    axes = axis_titles(grid, theme)
    centre_in(VGroup(grid, axes), room).shift(RIGHT * (room.centre_x - grid.cells.get_x()))
    mask = MaskOver(grid, ctx.causal.masked, dec, lambda i, j: Source(0, "causal.masked", (i, j)), theme,
                    size=text_size(cw, ch))
    future = lift_entries(grid, mask.hidden)
    return MaskedScores(intro, grid, future, axes, mask)


# -- 2: the softmax of the focus row ---------------------------------------------------------
@dataclass(frozen=True)
class FocusRow:
    intro: Text
    grid: NumberGrid  # rows: masked scores, their exponentials, the weights
    mask: MaskOver  # over the first row
    total: VGroup  # "sum =" and the sum of the exponentials, beside the second row
    check: VGroup  # "sum =", the sum of the weights and a tick, beside the third row


def focus_rows(ctx: ContextTrace, dec: int, theme: Theme) -> list[CompareRow]:
    """Scores, exponentials, weights; the first two with the decimals that make each step
    redoable from the numbers shown (:func:`attncore.softmax_decimals`)."""
    f = ctx.focus_index
    x_dec, e_dec = softmax_row_decimals(ctx.causal.masked[f], dec)
    return [
        CompareRow(
            _("score / √d"), ctx.scaled[f], lambda j: masked_source(ctx, 0, f, j), theme["muted"], decimals=x_dec
        ),
        CompareRow(
            exp_row_name(ctx.causal.masked[f], dec),
            ctx.softmax_exps(f, STAGE),
            lambda j: Source(0, "softmax_exps", (j,), (f, STAGE)),
            theme["muted"],
            decimals=e_dec,
        ),
        CompareRow(
            _("exp ÷ sum"),
            ctx.causal.attention[f],
            lambda j: Source(0, "causal.attention", (f, j)),
            theme["muted"],
            heat=True,
        ),
    ]


#: The height of the focus row's cells; their width at most ROW_CELL_W_MAX.
ROW_H, ROW_CELL_W_MAX = 0.7, 1.4


def number_size(values: np.ndarray, dec: int, cw: float) -> str:
    """The largest number size at which every value fits a cell ``cw`` wide (else the smallest)."""
    return next((s for s in ("body", "cell") if number_cell_width(values, dec, s) <= cw), "small")


def focus_row_layout(ctx: ContextTrace, dec: int, theme: Theme, box: Box) -> FocusRow:
    f, n = ctx.focus_index, ctx.n
    intro = at_top(
        label(
            _("The row of {word}: the softmax runs over what the mask leaves").format(word=quoted(ctx.focus)),
            "label",
            theme["query"],
        ),
        box,
    )
    x_dec, e_dec = softmax_row_decimals(ctx.causal.masked[f], dec)
    exps, weights = ctx.softmax_exps(f, STAGE), ctx.causal.attention[f]
    summed = Num(ctx.softmax_total(f, STAGE), e_dec, Source(0, "softmax_total", (), (f, STAGE)), size="body",
                 color=theme["accent"], approx=not adds_up(exps, ctx.softmax_total(f, STAGE), e_dec))
    total = VGroup(label(sum_head(pgettext("before a row's sum", "sum ="), summed.approx), "body", theme["accent"]),
                   summed).arrange(RIGHT, buff=ITEM_BUFF)
    one = Num(ctx.row_sums(STAGE)[f], dec, row_total(0, f, STAGE), size="body", color=theme["positive"],
              approx=not adds_up(weights, ctx.row_sums(STAGE)[f], dec))
    check = VGroup(label(sum_head(pgettext("before a row's sum", "sum ="), one.approx), "body", theme["positive"]),
                   one, label("✓", "body", theme["positive"])).arrange(RIGHT, buff=ITEM_BUFF)
    rows = focus_rows(ctx, dec, theme)
    shown = np.vstack([ctx.scaled[f], exps])
    names_w = label_width([r.name for r in rows], "body") + LABEL_BUFF
    # The sums go beside their rows when the cells can still show every number at a
    # readable size; otherwise under the grid, and the cells take the whole width.
    side = max(total.width, check.width) + GROUP_BUFF
    beside = number_cell_width(shown, max(x_dec, e_dec), "small") <= (box.width - names_w - side) / n
    room = box.width - names_w - (side if beside else 0)
    cw = min(ROW_CELL_W_MAX, room / n)
    size = number_size(shown, max(x_dec, e_dec), cw)
    lsize = "body" if size == "body" else "label"
    # the words on one line (issue 24): columns as wide as they need where the room allows, else turned
    cw, lsize, style = one_line_header([ctx.tokens], cw, room, n, lsize, lsize, "staggered", smaller=())
    if style == "turned":  # the last word rises right of its column: the cells leave it the room
        cw = min(cw, 2 * (room - turned_reach(ctx.tokens, cw, lsize)) / (2 * n - 1))
    grid = compare_rows(rows, ctx.tokens, dec, theme, cell_w=cw, cell_h=ROW_H, size=size, label_size=lsize,
                        column_colours=key_colours(ctx, theme), column_style=style)
    if beside:
        total.next_to(grid.cell(1, n - 1), RIGHT, buff=GROUP_BUFF)
        check.next_to(grid.cell(2, n - 1), RIGHT, buff=GROUP_BUFF)
    else:
        VGroup(total, check).arrange(RIGHT, buff=GROUP_BUFF).next_to(grid.cells, DOWN, buff=GROUP_BUFF)
        VGroup(total, check).align_to(grid.cells, RIGHT)
    centre_in(VGroup(grid, total, check), below(intro, box))
    values = np.vstack([ctx.causal.masked[f], ctx.softmax_exps(f, STAGE), ctx.causal.attention[f]])
    mask = MaskOver(grid, values, dec, lambda i, j: Source(0, "causal.masked", (f, j)), theme,
                    size=size, visible=np.tile(ctx.causal.mask[f], (3, 1)))
    lift_entries(grid, mask.hidden)
    return FocusRow(intro, grid, mask, total, check)


# -- 3: every row ----------------------------------------------------------------------------
@dataclass(frozen=True)
class MaskedAttention:
    intro: Text
    grid: NumberGrid
    axes: VGroup
    edge: VMobject
    sums: VGroup
    sum_head: Text
    focus: SurroundingRectangle


def masked_attention_layout(ctx: ContextTrace, dec: int, theme: Theme, box: Box) -> MaskedAttention:
    n, f = ctx.n, ctx.focus_index
    intro = at_top(label(_("Every row: the softmax of the scores the mask leaves"), "label", theme["text"]), box)
    room = below(intro, box)
    row_w = label_width(ctx.tokens, "body") + LABEL_BUFF
    cw, ch = fit_token_cells(ctx.tokens, room.width - 2 * row_w, room.height, LABEL_ROOM, more_cols=1,
                             max_w=GRID_CELL_W_MAX, max_h=GRID_CELL_H_MAX)
    grid = token_matrix(ctx.causal.attention, dec, lambda i, j: Source(0, "causal.attention", (i, j)),
                        theme, ctx.tokens, cell_w=cw, cell_h=ch, heat=True)
    axes = axis_titles(grid, theme)
    sums = VGroup(
        *(
            Num(
                ctx.row_sums(STAGE)[i],
                dec,
                row_total(0, i, STAGE),
                size=text_size(cw, ch),
                color=theme["positive"],
                approx=not adds_up(ctx.causal.attention[i], ctx.row_sums(STAGE)[i], dec),
            ).next_to(grid.cell(i, n - 1), RIGHT, buff=GROUP_BUFF)
            for i in range(n)
        )
    )
    sum_head = label(pgettext("column head: each row's sum", "sum"), "label", theme["positive"])
    sum_head.move_to(sums).align_to(grid.col_labels, DOWN)
    centre_in(VGroup(grid, axes, sums, sum_head), room)
    edge = mask_edge(grid, ctx.causal.mask, theme)
    focus = SurroundingRectangle(VGroup(grid.row(f), grid.row_labels[f]), color=theme["query"], buff=SMALL_BUFF / 2)
    return MaskedAttention(intro, grid, axes, edge, sums, sum_head, focus)


# -- 4 and 5: every context, without and with the mask ---------------------------------------
@dataclass(frozen=True)
class ContextBlock:
    grid: NumberGrid  # the focus word's weights, row 0 without the mask, row 1 with it; words as columns
    edge: VMobject  # the mask's edge on row 1
    senses: tuple[VGroup, VGroup]  # outlines of the cells of the words that carry the sense, row 0 and row 1
    cost: VGroup  # the two sums of mask_cost and their head (empty when the context states no sense)

    def whole(self) -> VGroup:
        return VGroup(self.grid, self.edge, *self.senses, self.cost)




def context_rows(ctx: ContextTrace, c: int, dec: int, theme: Theme) -> list[CompareRow]:
    f = ctx.focus_index
    return [
        CompareRow(_("no mask"), ctx.attention[f], lambda j: Source(c, "attention", (f, j)), theme["muted"], heat=True),
        CompareRow(_("with the mask"), ctx.causal.attention[f],
                   lambda j: Source(c, "causal.attention", (f, j)), theme["text"], heat=True),
    ]


def sense_colour(ctx: ContextTrace, theme: Theme) -> str:
    leans = ctx.context.leans
    return theme.dim(leans) if leans is not None else theme["accent"]


def cost_head(ctx: ContextTrace) -> str:
    words = sorted({ctx.tokens[j] for j in ctx.causal.mask_cost.sense_positions})
    # Translators: over the focus word's attention on one word of the sentence.
    return _("on {word}").format(word=quoted(words[0])) if len(words) == 1 else _("on its sense words")


def cost_column(ctx: ContextTrace, c: int, dec: int, theme: Theme, grid: NumberGrid, size: str) -> VGroup:
    """The focus word's attention on the words of its sense, without and with the mask, right of the rows."""
    cost = ctx.causal.mask_cost
    if not cost.sense_positions:
        return VGroup()
    colour = sense_colour(ctx, theme)
    f, js = ctx.focus_index, list(cost.sense_positions)
    nums = VGroup(Num(cost.unmasked, dec, Source(c, "causal.mask_cost.unmasked"), size=size, color=colour,
                      approx=not adds_up(ctx.attention[f, js], cost.unmasked, dec)),
                  Num(cost.causal, dec, Source(c, "causal.mask_cost.causal"), size=size, color=colour,
                      approx=not adds_up(ctx.causal.attention[f, js], cost.causal, dec)))
    for i, num in enumerate(nums):
        num.next_to(grid.cell(i, ctx.n - 1), RIGHT, buff=GROUP_BUFF)
    head = label(cost_head(ctx), "small", colour).next_to(nums, UP, buff=SMALL_BUFF)
    head.align_to(nums, LEFT)
    return VGroup(head, nums)


def context_block(ctx: ContextTrace, c: int, dec: int, theme: Theme, cw: float, sizes: tuple[str, str, float],
                  style: ColumnStyle = "turned", peers: Sequence[Sequence[str]] = ()) -> ContextBlock:
    lsize, nsize, ch = sizes
    grid = compare_rows(context_rows(ctx, c, dec, theme), ctx.tokens, dec, theme, cell_w=cw, cell_h=ch, size=nsize,
                        label_size=lsize, column_colours=key_colours(ctx, theme), column_style=style,
                        column_peers=peers)
    visible = np.vstack([np.ones(ctx.n, dtype=bool), ctx.causal.mask[ctx.focus_index]])
    edge = mask_edge(grid, visible, theme, rows=[1])
    colour = sense_colour(ctx, theme)
    senses = tuple(VGroup(*(cell_outline(grid, i, j, colour) for j in ctx.causal.mask_cost.sense_positions))
                   for i in (0, 1))
    return ContextBlock(grid, edge, (senses[0], senses[1]), cost_column(ctx, c, dec, theme, grid, nsize))


def contexts_layout(ctxs: Sequence[ContextTrace], dec: int, theme: Theme, box: Box) -> tuple[ContextBlock, ...]:
    """One block per context, stacked, their cells aligned on the left; the largest sizes that fit,
    the words over the columns turned where they would touch (clipped where turned ones fit nowhere)."""
    side = max((label(cost_head(c), "small").width for c in ctxs if c.causal.mask_cost.sense_positions), default=0.0)
    names = label_width([_("no mask"), _("with the mask")], "body") + LABEL_BUFF
    cw = min(BLOCK_CELL_W_MAX, (box.width - names - side - GROUP_BUFF) / max(c.n for c in ctxs))
    blocks: tuple[ContextBlock, ...] = ()
    peers = [x.tokens for x in ctxs]  # every block's words over its columns alike
    for style, sizes in itertools.product(PREFERRED_STYLES, COMPACT_SIZES):
        blocks = tuple(context_block(ctx, c, dec, theme, cw, sizes, style, peers) for c, ctx in enumerate(ctxs))
        if sum(b.whole().height for b in blocks) + (len(blocks) - 1) * GROUP_BUFF <= box.height:
            break
    stack = VGroup(*(b.whole() for b in blocks)).arrange(DOWN, buff=GROUP_BUFF)
    for b in blocks:
        b.whole().shift(RIGHT * (blocks[0].grid.cells.get_left()[0] - b.grid.cells.get_left()[0]))
    stack.move_to(box.centre)
    return blocks


# -- narration -------------------------------------------------------------------------------
def named(ctx: ContextTrace, js: Sequence[int]) -> str:
    """The words at ``js``, quoted; the focus word is "itself"."""
    # Translators: the focus word, in a list of the words it looks at.
    return list_of([quoted(ctx.tokens[j]) for j in js if j != ctx.focus_index]
                   + ([_("itself")] if ctx.focus_index in js else []))


def finds(ctx: ContextTrace, c: int, m: int, found: Sequence[Claim]) -> str:
    """What the focus word still finds under the mask (its claim, with the weight the screen shows)."""
    where = which_sentence(c, m)
    if ctx.focus_index == 0:
        # Translators: {where} is "In the first sentence" (or "In its sentence"); {word} the quoted focus word.
        return _("{where}, {word} comes first: it sees only itself.").format(where=where, word=quoted(ctx.focus))
    # Translators: {where} is "In the first sentence" (or "In its sentence"); {finding} what the focus word still finds.
    return _("{where}, {finding}.").format(
        where=where, finding=next(cl.text for cl in found if cl.args["context"] == c)
    )


def costs(ctx: ContextTrace, c: int, m: int, cost_claims: Sequence[Claim]) -> str:
    """What the mask costs the focus word: its claim, with the numbers the screen shows."""
    cost = ctx.causal.mask_cost
    said = [cl.text for cl in cost_claims if cl.args["contexts"] == [c]]
    where = which_sentence(c, m)
    if not cost.sense_positions:
        if not said:
            # Translators: {where} is "In the first sentence" (or "In its sentence"); {word} the quoted focus word.
            return _("{where}, {word} is the last word: the mask hides nothing from it.").format(
                where=where, word=quoted(ctx.focus))
        j = cost_claims[[cl.args["contexts"] for cl in cost_claims].index([c])].args["columns"][0][0]
        # Translators: {where} is "In the first sentence"; {cost} says how the focus word's weight changes.
        return _("{where}, {word} comes later: {cost}.").format(where=where, word=quoted(ctx.tokens[j]), cost=said[0])
    if cost.hidden_positions:
        n = len(cost.hidden_positions)
        hidden = list_of([quoted(ctx.tokens[j]) for j in cost.hidden_positions])
        # Translators: {where} is "In the first sentence"; {hidden} the quoted words the mask hides; {cost} how the
        # weight changes.
        return ngettext("{where}, {hidden} comes after {word}: the mask hides it, and {cost}.",
                        "{where}, {hidden} come after {word}: the mask hides them, and {cost}.", n).format(
            where=where, hidden=hidden, word=quoted(ctx.focus), cost=said[0])
    return _("{where}, the sense words come first: {cost}.").format(where=where, cost=said[0])


def focus_row_note(ctx: ContextTrace, lay: FocusRow, dec: int) -> str:
    """Why a sum of the focus row is marked ``≈`` (empty when neither is)."""
    f = ctx.focus_index
    out = ""
    total, check = cast(Num, lay.total[1]), cast(Num, lay.check[1])
    if exp_row_marked(ctx.causal.masked[f], dec):
        out += " " + _(EXP_ROW_NOTE)
    if total.approx:
        out += " " + approx_note("exponentials shown", [shown_sum(ctx.softmax_exps(f, STAGE), total.decimals)],
                                 [ctx.softmax_total(f, STAGE)])
    if check.approx:
        out += " " + approx_note("weights shown", [shown_sum(ctx.causal.attention[f], dec)], [ctx.row_sums(STAGE)[f]])
    return out


def rows_note(ctx: ContextTrace, dec: int) -> str:
    """Why some row sums of the masked attention are marked ``≈`` (empty when none is)."""
    rows = [i for i in range(ctx.n) if not adds_up(ctx.causal.attention[i], ctx.row_sums(STAGE)[i], dec)]
    if not rows:
        return ""
    many = len(rows) > 1
    return " " + approx_note("weights shown in some rows" if many else "weights shown in one row",
                             [shown_sum(ctx.causal.attention[i], dec) for i in rows],
                             [ctx.row_sums(STAGE)[i] for i in rows], "those sums are" if many else "its sum is")


# -- the scene -------------------------------------------------------------------------------
class CausalMask(LessonScene):
    TITLE = N_("The causal mask")
    STAGE = 3
    FORMULA = r'"softmax"("mask"(X X^T \/ sqrt(d))) X'
    SECTIONS = (
        (N_("Only the words before"), "hide_the_future"),
        (N_("Softmax over what is left"), "focus_row"),
        (N_("Every row still sums to one"), "every_row"),
        (N_("Both contexts under the mask"), "both_contexts"),
        (N_("What the mask costs"), "mask_cost"),
    )

    def hide_the_future(self) -> None:
        ctx = self.ctx(0)
        lay = masked_scores_layout(ctx, self.dec, self.theme, self.content)
        self.narrate(_(
            "A model that writes a sentence word by word cannot look ahead: the words after the current one do not "
            "exist yet. So each word may look only at itself and the words before it. The mask sets every "
            "score above the diagonal to minus infinity."
        ))
        self.play(FadeIn(lay.intro), FadeIn(lay.grid), FadeIn(lay.future), FadeIn(lay.axes), run_time=TIME.write)
        self.note = self.say(_("The scaled scores X·Xᵀ / √d, as before."))
        self.play(FadeOut(lay.future), FadeIn(lay.mask.covers), FadeIn(lay.mask.marks), Create(lay.mask.edge),
                  self.light_formula("mask"), run_time=TIME.transform)
        self.note = self.say(_("Above the diagonal, the words after the query: their scores become −∞."), self.note)

    def focus_row(self) -> None:
        ctx, f = self.ctx(0), self.ctx(0).focus_index
        lay = focus_row_layout(ctx, self.dec, self.theme, self.content)
        g, seen = lay.grid, [j for j in range(ctx.n) if ctx.causal.mask[f, j]]
        # Translators: {total} and {check} are numbers as said; {words} the quoted words that get weight.
        self.narrate(_(
            "In the row of {word}, the exponential of minus infinity is zero: the later words get nothing. "
            "The other exponentials add up to {total}; divided by that sum, the weights go to "
            "{words}, and still add up to {check}."
        ).format(word=quoted(ctx.focus), total=lay.total[1].spoken, words=named(ctx, seen), check=lay.check[1].spoken)
            + focus_row_note(ctx, lay, self.dec))
        self.clear_content()
        self.add(g.cells)  # every cell first: the numbers then land on top of them
        self.play(FadeIn(lay.intro), FadeIn(g.col_labels), FadeIn(g.row_labels[0]),
                  FadeIn(VGroup(*(g.entry(0, j) for j in seen))), FadeIn(lay.mask), self.light_formula("softmax"),
                  run_time=TIME.write)
        sources = [g.entry(0, j) if j in seen else lay.mask.mark(0, j) for j in range(ctx.n)]
        self.play(FadeIn(g.row_labels[1]), LaggedStart(
            *(TransformFromCopy(sources[j], g.entry(1, j)) for j in range(ctx.n)), lag_ratio=LAG.item),
            run_time=2 * TIME.transform)
        self.play(FadeIn(lay.total[0]), TransformFromCopy(g.row_entries(1), lay.total[1]), run_time=TIME.transform)
        self.note = self.say(_("The exponential of −∞ is zero: the hidden words get nothing."))
        self.play(FadeIn(g.row_labels[2]), LaggedStart(
            *(TransformFromCopy(VGroup(g.entry(1, j), lay.total[1]), g.entry(2, j)) for j in range(ctx.n)),
            lag_ratio=LAG.item), run_time=2 * TIME.transform)
        self.play(FadeIn(lay.check[0]), TransformFromCopy(g.row_entries(2), lay.check[1]), FadeIn(lay.check[2]),
                  run_time=TIME.transform)
        self.note = self.say(_("The words up to the query share all the attention."), self.note)

    def every_row(self) -> None:
        ctx = self.ctx(0)
        lay = masked_attention_layout(ctx, self.dec, self.theme, self.content)
        g = lay.grid
        # Translators: {largest} is a sentence on the largest weight; "{sums} {number}" says every row adds up to that
        # number.
        self.narrate(
            _("Every row works the same way. {largest}. And {sums} {number}.").format(
                largest=self.claims("largest")[0].text, sums=self.claims("rows_sum_to_one")[0].text,
                number=lay.sums[-1].digits)
            + rows_note(ctx, self.dec)
        )
        self.clear_content()
        self.play(FadeIn(lay.intro), FadeIn(g.row_labels), FadeIn(g.col_labels), FadeIn(lay.axes), run_time=TIME.fade)
        self.play(LaggedStart(*(FadeIn(VGroup(g.row(i), g.row_entries(i))) for i in range(ctx.n)), lag_ratio=LAG.item),
                  run_time=TIME.transform)
        self.play(Create(lay.edge), Create(lay.focus), run_time=TIME.fade)
        self.play(FadeIn(lay.sum_head), LaggedStart(
            *(TransformFromCopy(g.row_entries(i), lay.sums[i]) for i in range(ctx.n)), lag_ratio=LAG.quick),
            run_time=TIME.transform)
        self.note = self.say(self.claims("rows_sum_to_one", "caption")[0].text)

    def both_contexts(self) -> None:
        ctxs, m = self.trace.contexts, len(self.trace.contexts)
        self.blocks = contexts_layout(ctxs, self.dec, self.theme, self.content)
        found = self.claims("largest")
        self.narrate(" ".join(finds(ctx, c, m, found) for c, ctx in enumerate(ctxs))
                     + " " + _("The mask hides only what comes later."))
        self.clear_content()
        self.add(*(b.grid.row(1) for b in self.blocks))
        self.play(
            *(FadeIn(VGroup(b.grid.col_labels, b.grid.row_labels[1], b.grid.row_entries(1))) for b in self.blocks),
            *(Create(b.edge) for b in self.blocks),
            self.light_formula(None),
            run_time=TIME.write,
        )
        # the cells the narration names ("still finds “fish”, 0.13"), when no sense outline marks them already
        named_cells = []
        for cl in found:
            c, b = cl.args["context"], self.blocks[cl.args["context"]]
            cols = cl.args.get("words", {}).get("finds", {}).get("columns", [cl.args["column"]])
            named_cells += [cell_outline(b.grid, 1, j, self.theme["accent"]) for j in cols
                            if j not in ctxs[c].causal.mask_cost.sense_positions]
        self.play(*(Create(b.senses[1]) for b in self.blocks), *(Create(o) for o in named_cells), run_time=TIME.fade)
        still = self.claims("largest", "caption")
        self.note = self.say(still[0].text if still else _("The mask hides only what comes later."))

    def mask_cost(self) -> None:
        ctxs, m = self.trace.contexts, len(self.trace.contexts)
        cost_claims = self.claims("change")
        self.narrate(" ".join(costs(ctx, c, m, cost_claims) for c, ctx in enumerate(ctxs))
                     + " " + _("Each word now takes in only what came before it."))
        self.add(*(b.grid.row(0) for b in self.blocks))
        self.play(*(FadeIn(VGroup(b.grid.row_labels[0], b.grid.row_entries(0))) for b in self.blocks),
                  run_time=TIME.transform)
        self.play(*(Create(b.senses[0]) for b in self.blocks), *(FadeIn(b.cost) for b in self.blocks),
                  run_time=TIME.fade)
        senses = any(c.causal.mask_cost.sense_positions for c in ctxs)
        self.note = self.say(_("Without the mask and with it: the share of the words that carry the sense.") if senses
                             else _("Without the mask and with it: the later words lose their share."), self.note)
