"""Embeddings: every word is a vector whose columns have names.

After this scene the viewer can read a word vector dimension by dimension, and has
noticed that the focus word (``mouse``) is strong in two dimensions at once: on its
own, its vector cannot tell which meaning is meant.

Shows from the attncore trace: ``embeddings`` (X) of every context, one row per word.
"""

from __future__ import annotations

from dataclasses import dataclass

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Arrow,
    Create,
    FadeIn,
    FadeOut,
    GrowArrow,
    LaggedStart,
    Mobject,
    SurroundingRectangle,
    VGroup,
    Write,
)

from attncore import LessonTrace, decimals_needed
from attncore.i18n import N_, _, list_of, quoted
from scenes.base import LessonScene
from scenes.components import (
    STAGGER_GAP,
    NumberGrid,
    Source,
    TokenRow,
    arrow,
    boxes_touch,
    column_labels,
    column_labels_height,
    fitted_token_row,
    label_width,
    one_line_header,
    wrap_token_row,
)
from scenes.layout import CONTENT, DRIFT, FRAME_MARGIN, FRAME_X, LABEL_BUFF, Box
from scenes.theme import LAG, TIME, Theme

# -- the table of word vectors (scene units) -----------------------------------------------
#: The sentence sits this far under the title, the table this far under the sentence.
SENTENCE_DROP, TABLE_DROP = 0.45, 0.55
#: The room the table takes under the sentence besides its rows (the gap and the column
#: names), and the lowest the table may reach: just above the caption (top at -3.35).
TABLE_HEAD_ROOM, TABLE_BOTTOM = 0.9, -3.3
#: A cell: wide enough for a signed number; rows at most CELL_H_MAX tall.
CELL_W, CELL_H_MAX = 1.25, 0.5
#: An outline hugs its row: a little closer than TINY_BUFF.
ROW_BOX_BUFF = 0.04
#: Rows lower than READABLE_ROW_H bring the digits onto the grid lines at "cell" size: the
#: table then takes the sentence's place (the sentence fades out first), and rows lower
#: than that again take "small" digits, readable down to SMALL_ROW_H (the lesson limit
#: LIMITS["sentence_words"] keeps every table above it).
READABLE_ROW_H, SMALL_ROW_H = 0.32, 0.28

#: Sizes tried for the sentence on one line, largest first; too long for all, it wraps in WRAPPED_SIZE.
SENTENCE_SIZES, WRAPPED_SIZE = ("body", "label", "small"), "label"

# -- one word, two meanings ----------------------------------------------------------------
#: The table moves right, MOVED_BUFF from the frame's edge and centred a little below the
#: middle; the sentences sit SENTENCE_GAP apart, ARROW_ROOM left of the table.
MOVED_BUFF, MOVED_Y = 0.6, -0.3
SENTENCE_GAP, ARROW_ROOM = 0.9, 1.2
#: Sentences scaled below this to fit left of a wide table would be unreadable: the table
#: then keeps only the focus word's row, and the sentences stack under it at full size.
MIN_SENTENCE_SCALE = 0.8

# -- pacing --------------------------------------------------------------------------------
#: lag_ratio of the words of the sentence, of the table's rows, of the sentences and arrows.
WORD_LAG, ROW_LAG, SENTENCE_LAG = LAG.item, LAG.step, LAG.slow


# --- layout: pure functions that build and place, returning typed records -----------------


@dataclass(frozen=True)
class VocabRow:
    """One distinct word of the lesson's sentences, where it first occurs."""

    word: str
    context: int  # index of the first sentence containing it
    row: int  # its row in that sentence's embeddings


def vocab_rows(trace: LessonTrace) -> list[VocabRow]:
    """Each distinct word of the lesson's sentences once, in order of first appearance."""
    seen: dict[str, VocabRow] = {}
    for c, ctx in enumerate(trace.contexts):
        for i, tok in enumerate(ctx.tokens):
            seen.setdefault(tok, VocabRow(tok, c, i))
    return list(seen.values())


@dataclass(frozen=True)
class Vocabulary:
    """The first sentence under the title, and the table of every word's vector under it."""

    sentence: TokenRow  # the words of context 0
    table: NumberGrid  # (words, d) one row per distinct word, one column per named dimension
    rows: tuple[VocabRow, ...]  # the word of each table row
    replaces_sentence: bool  # many words: the table stands where the sentence was (it fades out first)


def vocabulary(trace: LessonTrace, title: Mobject, theme: Theme, dec: int) -> Vocabulary:
    dims = list(trace.lesson.dimensions)
    sentence = fitted_token_row(trace.contexts[0].tokens, theme, CONTENT.width, SENTENCE_SIZES, wrap_size=WRAPPED_SIZE)
    sentence.next_to(title, DOWN, buff=SENTENCE_DROP).set_x(0)
    rows = vocab_rows(trace)
    x_all = [trace.contexts[v.context].embeddings[v.row] for v in rows]
    colours = [theme.dim(d) for d in dims]

    def build(head_room: float, cell_w: float = CELL_W) -> tuple[NumberGrid, float, bool]:
        cell_h = min(CELL_H_MAX, (sentence.get_bottom()[1] - head_room - TABLE_BOTTOM) / (len(rows) + 1))
        replaces = cell_h < READABLE_ROW_H
        if replaces:  # the room of the sentence too
            cell_h = min(CELL_H_MAX, (sentence.get_top()[1] + TABLE_DROP - head_room - TABLE_BOTTOM) / (len(rows) + 1))
        table = NumberGrid(
            x_all, decimals_needed(x_all, dec), lambda r, k: Source(rows[r].context, "embeddings", (rows[r].row, k)),
            theme, row_labels=[v.word for v in rows], col_labels=dims, col_colours=colours, cell_w=cell_w,
            cell_h=cell_h, size="cell" if cell_h >= READABLE_ROW_H else "small",
            label_size="label" if cell_h >= READABLE_ROW_H else "small",
        )
        return table, cell_h, replaces

    table, cell_h, replaces = build(TABLE_HEAD_ROOM)
    labs = table.col_labels
    if any(boxes_touch(labs[k], labs[k + 1], STAGGER_GAP) for k in range(len(labs) - 1)):
        # Names too long for their cells even shrunk ("technique" beside "grammaire"), or that would
        # keep less than a word space apart and read as one ("técnicagramática"): on one line
        # (issue 24: staggered on two, they read as a staircase), over columns as wide as they need
        # where the content box has the room, else turned, the rows lower by the room they take.
        size = "label" if cell_h >= READABLE_ROW_H else "small"
        room = CONTENT.width - 2 * (label_width([v.word for v in rows], size) + LABEL_BUFF)
        cell_w, size, style = one_line_header([dims], CELL_W, room, len(dims), size, size, "staggered", smaller=())
        extra = column_labels_height(dims, cell_w, size, style) - column_labels_height(dims[:1], cell_w, size)
        table, cell_h, replaces = build(TABLE_HEAD_ROOM + extra, cell_w)
        table.set_column_labels(column_labels(table, dims, theme, colours, size=size, style=style))
    if replaces:
        table.move_to(sentence.get_top()[1] * UP, aligned_edge=UP)
    else:
        table.next_to(sentence, DOWN, buff=TABLE_DROP)
    table.shift(RIGHT * (0 - table.body().get_center()[0]))
    # Long words (German's "Geldautomat") push the row labels past the frame's left edge: the
    # table then moves right, just enough for them (a table that fits stays centred on its cells).
    CONTENT.keep_inside(table)
    return Vocabulary(sentence, table, tuple(rows), replaces)


@dataclass(frozen=True)
class SharedVector:
    """Every sentence, the focus word outlined, an arrow from each to the one row they share."""

    box: SurroundingRectangle  # around the focus word's row and its label
    sentences: VGroup  # one TokenRow per context, stacked, left of the table (or under its one row)
    arrows: list[Arrow]  # one per sentence, to the row's label
    others: VGroup  # the rows that fade out when only the focus row stays (empty otherwise)
    kept: VGroup  # then the focus row (cells, numbers, word), moved up by ``lift``, under the
    lift: float  # column names, which move up by ``rise`` to the top of the content box
    rise: float


def shared_vector(trace: LessonTrace, table: NumberGrid, r: int, theme: Theme) -> SharedVector:
    """Placed around ``table`` where it stands (right of the frame)."""
    box = SurroundingRectangle(VGroup(table.row(r), table.row_labels[r]), color=theme["accent"], buff=ROW_BOX_BUFF)
    rows = [TokenRow(c.tokens, theme, focus=c.focus_index, size="label") for c in trace.contexts]
    sentences = VGroup(*rows).arrange(DOWN, buff=SENTENCE_GAP, aligned_edge=rows[0].start)  # where they start
    frame_left = -(FRAME_X - FRAME_MARGIN)  # the sentences may reach this close to the frame's edge
    room = table.get_left()[0] - ARROW_ROOM - frame_left
    if sentences.width > room:
        sentences.scale_to_fit_width(room)
    sentences.next_to(table, LEFT, buff=ARROW_ROOM).set_y(table.body().get_center()[1])
    arrows = [arrow(s.get_right(), table.row_labels[r].get_left(), theme["accent"]) for s in sentences]
    return SharedVector(box, sentences, arrows, VGroup(), VGroup(), 0, 0)


def fits_beside(trace: LessonTrace, table: NumberGrid) -> bool:
    """Whether the sentences fit left of ``table`` moved right at MIN_SENTENCE_SCALE or more."""
    widest = max(TokenRow(c.tokens, Theme(), size="label").width for c in trace.contexts)
    room = (
        (FRAME_X - MOVED_BUFF - table.width) - ARROW_ROOM + (FRAME_X - FRAME_MARGIN)
    )  # table left - arrows - frame left
    return room >= MIN_SENTENCE_SCALE * widest


def shared_row(trace: LessonTrace, table: NumberGrid, r: int, theme: Theme, box: Box) -> SharedVector:
    """For a table too wide to have the sentences beside it: the column names move to the top
    of ``box``, the focus row under them (the other rows fade), the sentences stacked under it."""
    n = len(table.row_labels)
    others = VGroup(*(VGroup(table.row(k), table.row_entries(k), table.row_labels[k]) for k in range(n) if k != r))
    kept = VGroup(table.row(r), table.row_entries(r), table.row_labels[r])
    rise = float(box.top - table.col_labels.get_top()[1])
    lift = float(table.row(0).get_center()[1] - table.row(r).get_center()[1]) + rise
    outline = SurroundingRectangle(kept.copy().shift(UP * lift), color=theme["accent"], buff=ROW_BOX_BUFF)
    rows = [TokenRow(c.tokens, theme, focus=c.focus_index, size="label") for c in trace.contexts]
    if any(row.width > box.width for row in rows):  # long words: wrapped lines keep a size shrinking would lose
        rows = [wrap_token_row(row, box.width) for row in rows]
    sentences = VGroup(*rows).arrange(DOWN, buff=SENTENCE_GAP / 2)
    room = (outline.get_bottom()[1] - SENTENCE_GAP / 2) - box.bottom
    if sentences.width > box.width or sentences.height > room:
        sentences.scale(min(box.width / sentences.width, room / sentences.height))
    sentences.move_to(((outline.get_bottom()[1] - SENTENCE_GAP / 2 + box.bottom) / 2) * UP).set_x(box.centre_x)
    return SharedVector(outline, sentences, [], others, kept, lift, rise)


# --- the scene ----------------------------------------------------------------------------


class Embeddings(LessonScene):
    TITLE = N_("Embeddings")
    STAGE = 0
    FORMULA = '"word" -> "vector" X'  # its words are translated where it is typeset (components.typeset)
    SECTIONS = (
        (N_("Words become vectors"), "words_become_vectors"),
        (N_("Reading a vector"), "reading_a_vector"),
        (N_("One word, two meanings"), "one_word_two_meanings"),
    )

    vocab: Vocabulary

    def words_become_vectors(self) -> None:
        dims = list(self.lesson.dimensions)
        # Translators: {dimensions} lists the lesson's dimension names ("animal, tech and size").
        self.narrate(_(
            "To compute with words, a model turns every word into a vector of numbers. "
            "In this lesson each column has a name: {dimensions}, so we can read a vector like a profile."
        ).format(dimensions=list_of(dims)))
        lay = self.vocab = vocabulary(self.trace, self.title, self.theme, self.dec)
        table = lay.table
        self.play(LaggedStart(*(FadeIn(w, shift=DOWN * DRIFT) for w in lay.sentence), lag_ratio=WORD_LAG))
        if lay.replaces_sentence:  # many words: the table needs the sentence's room
            self.play(FadeOut(lay.sentence, shift=UP * DRIFT), run_time=TIME.fade)
        self.play(FadeIn(table.cells), Write(table.col_labels), Write(table.row_labels), run_time=TIME.write)
        self.play(LaggedStart(*(FadeIn(table.row_entries(i)) for i in range(len(lay.rows))), lag_ratio=ROW_LAG))
        self.note = self.say(_("Each word is a row of numbers; each column is a named dimension."))

    def reading_a_vector(self) -> None:
        # The clearest word of a dimension (attncore.claims.clearest_word), e.g. "cat" for "animal".
        table, rows = self.vocab.table, self.vocab.rows
        said, shown = self.claims(), self.claims(where="caption")
        if not said:  # no word is strongest anywhere: nothing to single out
            self.narrate(_("Each number says how much of its dimension a word carries; "
                           "together, the numbers of a row are the word's profile."))
            self.hold()
            return
        self.narrate(said[0].text)
        word, dim = said[0].args["word"], said[0].args["dimension"]
        first = next(k for k, v in enumerate(rows) if v.word == word)
        box = SurroundingRectangle(table.row(first), color=self.theme.dim(dim), buff=ROW_BOX_BUFF)
        self.play(Create(box))
        self.note = self.say(shown[0].text, self.note)
        self.play(FadeOut(box), run_time=TIME.fade)

    def one_word_two_meanings(self) -> None:
        focus = self.ctx(0).focus
        table = self.vocab.table
        r = next(k for k, v in enumerate(self.vocab.rows) if v.word == focus)
        # Translators: {facts} are one or two sentences on the word's strongest dimensions.
        self.narrate(_(
            "Now look at {word}. {facts} On its own, the vector cannot tell which meaning is meant: "
            "the context has to decide."
        ).format(word=quoted(focus), facts=" ".join(c.text for c in self.claims())))
        # Table to the right, every sentence containing the focus word stacked on the left,
        # an arrow from each occurrence to the one row they share.
        if not self.vocab.replaces_sentence:
            self.play(FadeOut(self.vocab.sentence, shift=UP * DRIFT), run_time=TIME.fade)
        if fits_beside(self.trace, table):
            self.play(table.animate.to_edge(RIGHT, buff=MOVED_BUFF).set_y(MOVED_Y), run_time=TIME.transform)
            lay = shared_vector(self.trace, table, r, self.theme)
        else:  # a wide table: only the focus word's row stays, the sentences under it
            lay = shared_row(self.trace, table, r, self.theme, self.content)
            self.play(FadeOut(lay.others), run_time=TIME.fade)
            self.play(lay.kept.animate.shift(UP * lay.lift), table.col_labels.animate.shift(UP * lay.rise),
                      run_time=TIME.transform)
        self.play(Create(lay.box))
        self.play(LaggedStart(*(FadeIn(s) for s in lay.sentences), lag_ratio=SENTENCE_LAG))
        if lay.arrows:
            self.play(LaggedStart(*(GrowArrow(a) for a in lay.arrows), lag_ratio=SENTENCE_LAG))
        shown = self.claim("strong_in_each", "caption")
        self.note = self.say(
            shown.text if shown else _("{word} has one vector: which meaning is meant?").format(word=quoted(focus)),
            self.note,
        )

        self.hold()
