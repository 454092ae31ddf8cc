"""Word order: attention alone does not see it; positional encodings add it.

After this scene the viewer knows that self-attention without positions ignores word
order: shuffle the sentence and the focus word's output is the same, to the last digit
shown (each word is compared with every word wherever it stands, and the weighted sum
does not care about order). Adding a position vector to every word (the sinusoidal
encoding, PE[p, 2i] = sin(p / 10000^(2i/d)), PE[p, 2i+1] = cos(…)) makes the outputs of
the sentence and of its shuffled copy differ. And, honestly: with a d this small the
encoding is as large as the embeddings and moves the meaning too (in the default lesson
"mouse" in the tech sentence then leans animal); real models use d in the hundreds and
learn how to use the positions. The scene does not call the output with positions better.

Shows from the attncore trace, for every context: ``positional.shuffled_tokens`` and
``shuffled_order`` (the shuffled sentence), the focus word's ``output`` row beside
``positional.shuffled_focus_output``, the encoding ``positional.encoding`` (context 0),
then ``positional.output`` (focus row) beside ``positional.shuffled_positional_focus_output``,
and finally ``output`` beside ``positional.output`` with the dimension each leans to.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    Create,
    FadeIn,
    LaggedStart,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
)

from attncore import ContextTrace, LessonTrace, fmt
from attncore.i18n import N_, _, pgettext, quoted
from scenes.base import LessonScene
from scenes.components import (
    COMPACT_SIZES,
    POSITIONAL_ENCODING,
    PREFERRED_STYLES,
    ColumnStyle,
    CompareRow,
    Definition,
    NumberGrid,
    Source,
    TokenRow,
    at_top,
    below,
    cell_outline,
    centre_in,
    centre_on_baseline,
    column_labels,
    column_labels_height,
    compare_rows,
    fit_cells,
    label,
    label_width,
    number_cell_width,
    one_line_cell_width,
    text_size,
    trace_grid,
    wrap_token_row,
)
from scenes.layout import DRIFT, GROUP_BUFF, ITEM_BUFF, LABEL_BUFF, LABEL_ROOM, SMALL_BUFF, Box
from scenes.theme import LAG, TIME, Theme

#: Token sizes tried for the sentences, largest first.
TOKEN_SIZES = ("body", "label", "small")
#: The cells of the paired rows (steps 2, 4, 5) at most PAIR_CELL_W wide; those of the
#: encoding table (step 3) at most ENCODING_CELL_W wide and ENCODING_CELL_H tall.
PAIR_CELL_W, ENCODING_CELL_W, ENCODING_CELL_H = 1.5, 1.4, 0.55
#: The least room between a focus word and its outline in the encoding table.
OUTLINE_BUFF_MIN = 0.03


# -- 1: the sentence shuffled ----------------------------------------------------------------
def order_names() -> tuple[str, str]:
    """The names of a sentence in its order and of its shuffled copy, as row labels and heads."""
    return (pgettext("the sentence in its order", "sentence"), pgettext("the sentence shuffled", "shuffled"))


@dataclass(frozen=True)
class Shuffle:
    originals: tuple[TokenRow, ...]  # one per context shown (the first ones), in its order
    shuffled: tuple[TokenRow, ...]  # the same words in the shuffled order
    tags: VGroup  # "sentence" / "shuffled" left of the rows


def shuffle_pairs(
    ctxs: Sequence[ContextTrace], theme: Theme, size: str, width: float
) -> list[tuple[TokenRow, TokenRow]]:
    """Each sentence and its shuffled copy in words of ``size``, wrapped to ``width``."""
    return [
        (
            wrap_token_row(TokenRow(c.tokens, theme, c.focus_index, size), width),
            wrap_token_row(
                TokenRow(c.positional.shuffled_tokens, theme, c.positional.shuffled_focus_index, size), width
            ),
        )
        for c in ctxs
    ]


def pairs(rows: Sequence[tuple[TokenRow, TokenRow]], gap: float) -> VGroup:
    """Each sentence ``gap`` over its shuffled copy, the contexts a group gap apart (not yet placed)."""
    return VGroup(*(VGroup(a, b).arrange(DOWN, buff=gap) for a, b in rows)).arrange(DOWN, buff=GROUP_BUFF)


def shuffle_layout(ctxs: Sequence[ContextTrace], theme: Theme, box: Box) -> Shuffle:
    """Each sentence over its shuffled copy, the contexts one under the other, in the largest words
    that fit. Sentences of long words (German's) wrap: when not every context then fits even in
    the smallest words, only the first ones are shown (the narration follows the first sentence;
    the next section compares every context), each a group gap over its copy (wrapped lines an
    item gap apart would read as one block)."""
    names = order_names()
    tag_w = label_width(names, "label") + ITEM_BUFF
    candidates = ((count, size) for count in range(len(ctxs), 0, -1) for size in TOKEN_SIZES)
    for count, size in candidates:
        rows = shuffle_pairs(ctxs[:count], theme, size, box.width - 2 * tag_w)
        gap = ITEM_BUFF if count == len(ctxs) else GROUP_BUFF
        if pairs(rows, gap).height <= box.height:
            break
    centre_in(pairs(rows, gap), box)
    tags = VGroup()
    for a, b in rows:
        for row, text in ((a, names[0]), (b, names[1])):
            tags.add(label(text, "label", theme["muted"]).next_to(row, LEFT, buff=ITEM_BUFF))
    return Shuffle(tuple(a for a, _ in rows), tuple(b for _, b in rows), tags)


def moves(ctx: ContextTrace, original: TokenRow, shuffled: TokenRow) -> list[TransformFromCopy]:
    """Every word of the sentence flies to its place in the shuffled sentence."""
    order = ctx.positional.shuffled_order
    return [TransformFromCopy(original[order[p]], shuffled[p]) for p in range(ctx.n)]


# -- 2, 4, 5: two rows per context -----------------------------------------------------------
@dataclass(frozen=True)
class PairBlock:
    grid: NumberGrid  # two rows of the focus word's output, the dimensions as columns
    tags: VGroup  # words right of the rows ("same", "differs", a dimension name)

    def whole(self) -> VGroup:
        return VGroup(self.grid, self.tags)


#: A tag right of a row: (row, text, colour).
Tag = tuple[int, str, str]


@dataclass(frozen=True)
class PairSpec:
    """What one context's block shows: its two rows (long and short names) and its tags."""

    rows: tuple[CompareRow, CompareRow]
    short_names: tuple[str, str]
    tags: tuple[Tag, ...]


def pair_block(
    spec: PairSpec,
    dims: Sequence[str],
    dec: int,
    theme: Theme,
    cw: float,
    sizes: tuple[str, str, float],
    short: bool,
    style: ColumnStyle = "turned",
    header: bool = True,
) -> PairBlock:
    """The two rows of one context; the dimension names over them only with ``header`` (the
    blocks under the first share its columns, cells aligned, and need none)."""
    lsize, nsize, ch = sizes
    rows = [CompareRow(n, r.values, r.source, r.colour) for r, n in zip(spec.rows, spec.short_names)] if short \
        else list(spec.rows)
    grid = compare_rows(rows, dims if header else (), dec, theme, cell_w=cw, cell_h=ch, size=nsize, label_size=lsize,
                        column_colours=[theme.dim(d) for d in dims], column_style=style)
    tags = VGroup(*(label(text, lsize, colour).next_to(grid.cell(i, len(dims) - 1), RIGHT, buff=GROUP_BUFF)
                    for i, text, colour in spec.tags))
    return PairBlock(grid, tags)


def pair_width(specs: Sequence[PairSpec], dims: Sequence[str], dec: int, box: Box,
               sizes: tuple[str, str, float], short: bool) -> tuple[float, bool]:
    """The cell width at which the rows, their names and tags fit across ``box``, and whether
    the numbers fit such cells at these sizes."""
    lsize, nsize, _ch = sizes
    names = [n for s in specs for n in (s.short_names if short else (s.rows[0].name, s.rows[1].name))]
    tags = label_width([t for s in specs for _row, t, _colour in s.tags], lsize) + GROUP_BUFF
    cw = min(PAIR_CELL_W, (box.width - label_width(names, lsize) - LABEL_BUFF - tags) / len(dims))
    need = number_cell_width(np.array([r.values for s in specs for r in s.rows]), dec, nsize)
    return cw, cw >= need


def stack_blocks(blocks: Sequence[PairBlock], box: Box) -> float:
    """Stack the blocks, their cells aligned on the left, centred in ``box``; their height."""
    stack = VGroup(*(b.whole() for b in blocks)).arrange(DOWN, buff=GROUP_BUFF)
    for b in blocks:
        b.whole().shift(RIGHT * (blocks[0].grid.cells.get_left()[0] - b.grid.cells.get_left()[0]))
    centre_in(stack, box)
    return float(stack.height)


def pairs_layout(
    specs: Sequence[PairSpec], dims: Sequence[str], dec: int, theme: Theme, box: Box
) -> tuple[PairBlock, ...]:
    """One block per context, stacked; the largest sizes (the sentences as names if they fit) that fit
    ``box``, the dimension names turned where they would touch (clipped if turned ones fit nowhere)."""
    blocks: tuple[PairBlock, ...] = ()
    for style in PREFERRED_STYLES:
        for short in (False, True):
            for sizes in COMPACT_SIZES:
                cw, fits = pair_width(specs, dims, dec, box, sizes, short)
                if not fits:
                    continue
                blocks = tuple(pair_block(s, dims, dec, theme, cw, sizes, short, style, i == 0)
                               for i, s in enumerate(specs))
                if stack_blocks(blocks, box) <= box.height:
                    return blocks
    if not blocks:  # nothing fits across: the smallest sizes, the numbers shrunk to their cells
        cw, _fits = pair_width(specs, dims, dec, box, COMPACT_SIZES[-1], True)
        blocks = tuple(pair_block(s, dims, dec, theme, cw, COMPACT_SIZES[-1], True, "turned", i == 0)
                       for i, s in enumerate(specs))
    stack_blocks(blocks, box)
    return blocks


def focus_row(values: np.ndarray, name: str, source: Callable[[int], Source], colour: str) -> CompareRow:
    return CompareRow(name, values, source, colour)


def row_source(c: int, path: str, row: int | None) -> Callable[[int], Source]:
    """Entry k of row ``row`` of the trace matrix at ``path`` (entry k of the vector there when ``row`` is None)."""
    return lambda k: Source(c, path, (k,) if row is None else (row, k))


def same_or_not(a: np.ndarray, b: np.ndarray, dec: int, theme: Theme) -> Tag:
    """"= same" when the two rows show the same digits, else "≠ differs"."""
    same = [fmt(x, dec) for x in a] == [fmt(x, dec) for x in b]
    return (1, _("= same"), theme["positive"]) if same else (1, _("≠ differs"), theme["negative"])


def shuffled_specs(ctxs: Sequence[ContextTrace], dec: int, theme: Theme, positions: bool) -> list[PairSpec]:
    """The focus word's output in the sentence and in the shuffled one, without or with positions."""
    out = []
    for c, ctx in enumerate(ctxs):
        f, p, plus = ctx.focus_index, ctx.positional, " + PE" if positions else ""
        a = p.output[f] if positions else ctx.output[f]
        b = p.shuffled_positional_focus_output if positions else p.shuffled_focus_output
        path_a = "positional.output" if positions else "output"
        path_b = "positional.shuffled_positional_focus_output" if positions else "positional.shuffled_focus_output"
        rows = (focus_row(a, " ".join(ctx.tokens) + plus, row_source(c, path_a, f), theme["text"]),
                focus_row(b, " ".join(p.shuffled_tokens) + plus, row_source(c, path_b, None), theme["text"]))
        out.append(PairSpec(rows, (order_names()[0] + plus, order_names()[1] + plus),
                            (same_or_not(a, b, dec, theme),)))
    return out


def lean(values: np.ndarray) -> int:
    """The dimension the output leans to: its largest entry."""
    return int(np.argmax(values))


def lean_specs(ctxs: Sequence[ContextTrace], theme: Theme) -> list[PairSpec]:
    """The focus word's output without and with positions (the sentence in its order), each with its lean."""
    out = []
    for c, ctx in enumerate(ctxs):
        f, dims = ctx.focus_index, ctx.dimensions
        a, b = ctx.output[f], ctx.positional.output[f]
        sentence = " ".join(ctx.tokens)
        rows = (focus_row(a, sentence, row_source(c, "output", f), theme["text"]),
                focus_row(b, sentence + " + PE", row_source(c, "positional.output", f), theme["text"]))
        tags = tuple((i, dims[lean(v)], theme.dim(dims[lean(v)])) for i, v in enumerate((a, b)))
        out.append(PairSpec(rows, (_("no positions"), _("with positions")), tags))
    return out


def lean_outlines(blocks: Sequence[PairBlock], ctxs: Sequence[ContextTrace], theme: Theme) -> VGroup:
    """An outline around the largest entry of every row: where it leans."""
    out = VGroup()
    for b, ctx in zip(blocks, ctxs):
        for i, v in enumerate((ctx.output[ctx.focus_index], ctx.positional.output[ctx.focus_index])):
            out.add(cell_outline(b.grid, i, lean(v), theme.dim(ctx.dimensions[lean(v)])))
    return out


# -- 3: the encoding -------------------------------------------------------------------------
@dataclass(frozen=True)
class Encoding:
    formula: Definition
    grid: NumberGrid  # PE of context 0: one row per position, labelled by the word there
    heads: VGroup  # "sentence" over the row labels, "shuffled" over the words right of the grid
    shuffled: VGroup  # the words of the shuffled sentence, right of the rows they take
    focus: VGroup  # the focus word's row in each order, outlined


def encoding_layout(trace: LessonTrace, dec: int, theme: Theme, box: Box) -> Encoding:
    ctx = trace.contexts[0]
    p, f, dims = ctx.positional, ctx.focus_index, ctx.dimensions
    formula = at_top(Definition(POSITIONAL_ENCODING, theme), box)
    room = below(formula, box)
    names = order_names()
    words_w = label_width([*ctx.tokens, *names], "label") + GROUP_BUFF
    # columns wide enough for the dimension names side by side where the room allows (German's
    # "Grammatik" climbed a second line over 1.4-unit columns), else the names smaller, else turned
    upright = one_line_cell_width(dims, "label")
    widest = max(ENCODING_CELL_W, upright)
    cw = min(widest, (room.width - 2 * words_w) / ctx.d)
    lsize = "label" if upright <= cw else "small"
    header = max(LABEL_ROOM, column_labels_height(dims, cw, lsize, "turned") + SMALL_BUFF)
    cw, ch = fit_cells(ctx.n, ctx.d, room.width - 2 * words_w, room.height - header, max_w=widest,
                       max_h=ENCODING_CELL_H)
    grid = trace_grid(trace, "positional.encoding", dec, theme, cell_w=cw, cell_h=ch, size=text_size(cw, ch),
                      row_labels=list(ctx.tokens))
    assert isinstance(grid, NumberGrid)
    grid.set_column_labels(column_labels(grid, dims, theme, [theme.dim(d) for d in dims], size=lsize, style="turned"))
    grid.row_labels[f].set_color(theme["query"])
    words = [label(w, "label", theme["query"] if r == p.shuffled_focus_index else theme["text"])
             for r, w in enumerate(p.shuffled_tokens)]
    for r, w in enumerate(words):
        centre_on_baseline(w, grid.cell(r, ctx.d - 1).get_center())
        w.next_to(grid.cell(r, ctx.d - 1), RIGHT, buff=GROUP_BUFF, coor_mask=np.array([1, 0, 0]))
    shuffled = VGroup(*words)
    heads = VGroup(label(names[0], "small", theme["muted"]).next_to(grid.row_labels, DOWN, buff=ITEM_BUFF),
                   label(names[1], "small", theme["muted"]).next_to(shuffled, DOWN, buff=ITEM_BUFF))
    heads[0].align_to(grid.row_labels, RIGHT)
    heads[1].align_to(shuffled, LEFT)
    centre_in(VGroup(grid, shuffled, heads), room)
    # the outlines keep inside their rows: on short rows they would cross the words above and below
    buff = min(SMALL_BUFF, max(OUTLINE_BUFF_MIN, (ch - grid.row_labels[f].height) / 2))
    focus = VGroup(SurroundingRectangle(grid.row_labels[f], color=theme["query"], buff=buff),
                   SurroundingRectangle(shuffled[p.shuffled_focus_index], color=theme["query"], buff=buff))
    return Encoding(formula, grid, heads, shuffled, focus)


# -- narration -------------------------------------------------------------------------------
def swap_words(ctx: ContextTrace) -> str:
    """The shuffle of the first sentence, in words."""
    p = ctx.positional
    if p.shuffled_order == tuple(range(ctx.n)):
        return _("Every word of {sentence} is {word}: no order to change.").format(
            sentence=quoted(ctx.context.sentence), word=quoted(ctx.focus))
    other = ctx.tokens[p.shuffled_focus_index]
    # Translators: {word} and {other} are quoted words; {sentence} and {shuffled} quoted sentences.
    return _("Swap {word} and {other}: {sentence} becomes {shuffled}. The same words, in another order.").format(
        word=quoted(ctx.focus), other=quoted(other), sentence=quoted(ctx.context.sentence),
        shuffled=quoted(" ".join(p.shuffled_tokens)))


# -- the scene -------------------------------------------------------------------------------
class WordOrder(LessonScene):
    TITLE = N_("Word order")
    STAGE = 0
    FORMULA = r'"Output" = "softmax"(X X^T \/ sqrt(d)) X'
    SECTIONS = (
        (N_("Shuffle the sentence"), "shuffle"),
        (N_("The same output in any order"), "same_output"),
        (N_("Add the positions"), "add_positions"),
        (N_("Now the order counts"), "order_counts"),
        (N_("What the numbers show"), "what_the_numbers_show"),
    )

    def shuffle(self) -> None:
        ctxs = self.trace.contexts
        lay = shuffle_layout(ctxs, self.theme, self.content)
        self.narrate(swap_words(ctxs[0]))
        self.play(LaggedStart(*(FadeIn(r, shift=DOWN * DRIFT) for r in lay.originals), lag_ratio=LAG.slow),
                  FadeIn(VGroup(*lay.tags[0::2])), run_time=TIME.write)
        self.play(LaggedStart(*(a for ctx, a_row, b_row in zip(ctxs, lay.originals, lay.shuffled)
                                for a in moves(ctx, a_row, b_row)),
                              lag_ratio=LAG.trickle), FadeIn(VGroup(*lay.tags[1::2])), run_time=2 * TIME.transform)
        self.note = self.say(_("The same words in another order."))

    def same_output(self) -> None:
        ctxs, m = self.trace.contexts, len(self.trace.contexts)
        blocks = pairs_layout(shuffled_specs(ctxs, self.dec, self.theme, False), ctxs[0].dimensions, self.dec,
                              self.theme, self.content)
        same, lean_claim = self.claims("same_row")[0], self.claims("leans")[0]
        # Translators: {same} says the shuffled output is the same; {lean} where the output leans.
        self.narrate((_(
            "Attention compares every word with every word, wherever it stands, and a sum does not care about order. "
            "{same}: {lean}, and likewise in every sentence. Attention alone does not see word order.") if m > 1 else _(
            "Attention compares every word with every word, wherever it stands, and a sum does not care about order. "
            "{same}: {lean}. Attention alone does not see word order.")).format(same=same.text, lean=lean_claim.text))
        self._show_pairs(blocks)
        self.note = self.say(self.claims("same_row", "caption")[0].text, self.note)

    def _show_pairs(self, blocks: Sequence[PairBlock], outlines: VGroup | None = None) -> None:
        self.clear_content()
        self.add(*(b.grid.cells for b in blocks))  # cells first: the numbers land on them
        self.play(*(FadeIn(VGroup(b.grid.col_labels, b.grid.row_labels[0], b.grid.row_entries(0))) for b in blocks),
                  run_time=TIME.fade)
        self.play(*(FadeIn(VGroup(b.grid.row_labels[1], b.grid.row_entries(1))) for b in blocks),
                  run_time=TIME.transform)
        self.play(*(FadeIn(b.tags, shift=LEFT * DRIFT) for b in blocks),
                  *([Create(outlines)] if outlines is not None else []), run_time=TIME.fade)
        self.hold(sum(2 * c.d for c in self.trace.contexts))

    def add_positions(self) -> None:
        lay = encoding_layout(self.trace, self.dec, self.theme, self.content)
        ctx = self.ctx(0)
        self.narrate(_(
            "So we add to each word a vector that says only where it stands: sines and cosines of its position. "
            "Shuffled, {word} stands elsewhere, and gets another row.").format(word=quoted(ctx.focus)))
        self.clear_content()
        self.play(
            FadeIn(lay.formula),
            self.light_formula(None, r'''"Output" = "softmax"(X' X'^T \/ sqrt(d)) X', quad X' = X + "PE"'''),
            run_time=TIME.write,
        )
        self.play(FadeIn(lay.grid), run_time=TIME.transform)
        self.play(FadeIn(lay.shuffled), FadeIn(lay.heads), Create(lay.focus), run_time=TIME.fade)
        self.hold(ctx.n * ctx.d)
        self.note = self.say(_("Each position adds its own vector: the row of the place where the word stands."))

    def order_counts(self) -> None:
        ctxs = self.trace.contexts
        blocks = pairs_layout(shuffled_specs(ctxs, self.dec, self.theme, True), ctxs[0].dimensions, self.dec,
                              self.theme, self.content)
        self.narrate(" ".join(c.text for c in self.claims()))
        self._show_pairs(blocks)
        self.note = self.say(self.claims(where="caption")[0].text, self.note)

    def what_the_numbers_show(self) -> None:
        ctxs = self.trace.contexts
        blocks = pairs_layout(lean_specs(ctxs, self.theme), ctxs[0].dimensions, self.dec, self.theme, self.content)
        self.narrate(self._lean_words())
        self._show_pairs(blocks, lean_outlines(blocks, ctxs, self.theme))
        self.note = self.say(self.claims(where="caption")[0].text, self.note)

    def _lean_words(self) -> str:
        """How the lean of the focus word moves when the positions are added (the claims), and why."""
        said = [c for c in self.claims() if c.kind != "size_ratio"]
        per: dict[int, list[str]] = {}
        stays: dict[int, bool] = {}  # the lean stays (a value moves instead): "still leans ..., yet ..."
        for c in said:
            k = c.args["contexts"][0]
            texts = per.setdefault(k, [])
            stays[k] = stays.get(k, False) or c.kind == "change"
            if c.text not in texts:
                texts.append(c.text)
        # Translators: {before} says where the output leaned without positions; {after} where it leans with them.
        moved = N_("{before}; {after}.")
        # Translators: {before} says the output still leans the same way; {after} which value moves.
        kept = N_("{before}, yet {after}.")
        moves = " ".join(_(kept if stays[k] else moved).format(before=t[0], after=", ".join(t[1:]))
                         for k, t in per.items())
        # Translators: {sizes} compares the position vectors with the word vectors.
        return _("{moves} That is not a better meaning: with d this small, {sizes}. "
                 "Real models use d in the hundreds, and learn how to use the positions.").format(
                     moves=moves, sizes=self.claims("size_ratio")[0].text)
