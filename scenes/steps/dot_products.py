"""Dot products: the score of two words is the dot product of their vectors.

After this scene the viewer can compute one score by hand (multiply the two vectors
dimension by dimension, add the products), knows that the score matrix ``S = X·Xᵀ`` has
one row per query word and one column per key word, and knows that a raw score is a
similarity, not yet a weight.

Shows from the attncore trace (context 0): ``embeddings`` rows of the focus word and of
the word it scores highest with, ``dot_terms(i, j)`` (the products), ``scores`` (S).
The products and their sum carry twice the decimals of the vectors (at least the
lesson's), so that 0.5 × 0.5 shows 0.25 and the sum is the sum of the products shown.
"""

from __future__ import annotations

from dataclasses import dataclass

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    Create,
    FadeIn,
    FadeOut,
    Indicate,
    LaggedStart,
    Line,
    ReplacementTransform,
    SurroundingRectangle,
    Text,
    Transform,
    TransformFromCopy,
    VGroup,
    Write,
)

from attncore import ContextTrace, adds_up, decimals_needed, product_decimals
from attncore.i18n import N_, _, pgettext, quoted
from scenes.base import LessonScene
from scenes.components import (
    NumberGrid,
    Source,
    axis_titles,
    column_labels,
    fit_token_cells,
    label,
    label_extent,
    label_width,
    labelled_row_outline,
    readable_cell_width,
    text_size,
    token_matrix,
)
from scenes.layout import (
    GROUP_BUFF,
    ITEM_BUFF,
    LABEL_ROOM,
    MED_SMALL_BUFF,
    SMALL_BUFF,
    TINY_BUFF,
    WORD_MATRIX_AREA,
)
from scenes.theme import LAG, STROKE, TIME, Theme

#: Where the word matrices of dot products, scaling and softmax go (the content box, a little lower).
AREA = WORD_MATRIX_AREA

# -- the worked example (scene units) ------------------------------------------------------
#: A cell of the worked example: wide enough for a signed number in body type. The score
#: matrix beside it has cells no wider, so that the sum moves into a cell of its own size.
CELL_W = 1.0
#: The tallest row of the worked example, and the height its rows leave to the column
#: heads above them and to the rule and the sum below them.
CELL_H_MAX, HEADS_AND_SUM_H = 0.6, 1.6
#: The least gap between two columns of the worked example: room for a "×" or an "=".
SIGN_GAP = 0.6
#: The rule under the products sits just below their cells.
RULE_DROP = 0.14
#: The sum's outline: heavier than a cell's (1.5), lighter than the target cell's (4).
SUM_STROKE = STROKE.rule
#: The numbers of the two vectors fade in row after row, LABEL_LAG apart.
LABEL_LAG = LAG.item

# -- the whole matrix, once the worked example is gone -------------------------------------
#: Its tallest cell; cells are at most twice as wide as tall.
BIG_CELL_H = 0.7
#: Filling it row by row: the row's word swells a little (less than Manim's default,
#: 1.2) and each new number grows in from ENTRY_SCALE of its size.
INDICATE_SCALE, ENTRY_SCALE = 1.1, 0.6
#: The outline of the focus word's row keeps a little clear of its cells and its word.
ROW_BOX_BUFF = 0.12

# -- pacing (seconds) ----------------------------------------------------------------------
#: One dimension of the walk takes at most STEP_MAX, and all of them WALK_S at most.
STEP_MAX, WALK_S = 1.05, 5
#: Of each step: the outline moves (a third), the product forms, then a short rest.
PRODUCT_SHARE, REST_SHARE = 0.57, 0.1
#: Filling the matrix: a row takes at most ROW_S, all rows ROWS_S at most; each new
#: number fades in ENTRY_LAG after the one before.
ROW_S, ROWS_S, ENTRY_LAG = 0.7, 4.2, 0.12


# --- layout: pure functions that build and place, returning typed records -----------------


@dataclass(frozen=True)
class Pair:
    """The two words of the worked example."""

    i: int  # the query word: the focus word of context 0
    j: int  # the key word: the one it scores highest with among the others


def worked_pair(ctx: ContextTrace) -> Pair:
    """The focus word and the word it matches most among the others: the example worth working out."""
    i = ctx.focus_index
    return Pair(i, max((k for k in range(ctx.n) if k != i), key=lambda k: ctx.scores[i, k]))


@dataclass(frozen=True)
class WorkedExample:
    """Left of the frame: the two vectors side by side, their products, then the sum."""

    a: NumberGrid  # (d, 1) embedding of word i, one row per named dimension (labelled)
    b: NumberGrid  # (d, 1) embedding of word j
    products: NumberGrid  # (d, 1) dot_terms(i, j): a[r] · b[r]
    signs: VGroup  # "×" and "=" of every row, two per row in row order
    rule: Line  # under the products
    total: NumberGrid  # (1, 1) the sum of the products: scores[i, j]
    total_label: Text  # "sum", left of the total
    group: VGroup  # all of the above, as placed

    def row_signs(self, r: int) -> VGroup:
        """The "×" and "=" of row ``r``."""
        return VGroup(*self.signs.submobjects[2 * r : 2 * r + 2])


def worked_example(ctx: ContextTrace, pair: Pair, dims: list[str], theme: Theme, dec: int) -> WorkedExample:
    """The worked example, its left edge on the content box's, a little above the area's centre."""
    i, j, d = pair.i, pair.j, ctx.d
    cw = CELL_W
    ch = min(CELL_H_MAX, (AREA.height - HEADS_AND_SUM_H) / d)
    size = text_size(cw, ch)
    lsize = "body" if size == "body" else "label"
    # Translators: the title of the column of products of two vectors, dimension by dimension.
    heads = [ctx.tokens[i], ctx.tokens[j], pgettext("column of products", "product")]
    head_w = [label_extent(h, lsize)[0] for h in heads]
    # Wide enough for the heads of two neighbouring columns, and for a sign between them.
    gap = max(SIGN_GAP, max(head_w[0] + head_w[1], head_w[1] + head_w[2]) / 2 - cw + ITEM_BUFF)
    x_dec = decimals_needed(ctx.embeddings, dec)
    p_dec = product_decimals(x_dec, dec)
    a = NumberGrid(
        ctx.embeddings[i][:, None], x_dec, lambda r, c: Source(0, "embeddings", (i, r)), theme,
        row_labels=dims, row_colours=[theme.dim(m) for m in dims], cell_w=cw, cell_h=ch, size=size, label_size=lsize,
    )
    b = NumberGrid(
        ctx.embeddings[j][:, None], x_dec, lambda r, c: Source(0, "embeddings", (j, r)), theme,
        cell_w=cw, cell_h=ch, size=size, label_size=lsize,
    )
    p = NumberGrid(
        ctx.dot_terms(i, j)[:, None], p_dec, lambda r, c: Source(0, "dot_terms", (r,), (i, j)), theme,
        cell_w=cw, cell_h=ch, size=size, label_size=lsize,
    )
    for g, head, colour in ((a, heads[0], "query"), (b, heads[1], "key"), (p, heads[2], "muted")):
        g.set_column_labels(column_labels(g, [head], theme, [theme[colour]], size=lsize))
    b.shift(a.cell(0, 0).get_center() - b.cell(0, 0).get_center() + RIGHT * (cw + gap))
    p.shift(b.cell(0, 0).get_center() - p.cell(0, 0).get_center() + RIGHT * (cw + gap))
    signs = VGroup()
    for r in range(d):
        for left, sign in ((a, "×"), (b, "=")):
            signs.add(label(sign, lsize, theme["muted"]).move_to(left.cell(r, 0).get_right() + RIGHT * gap / 2))
    rule = Line(
        p.cells.get_corner(DOWN + LEFT), p.cells.get_corner(DOWN + RIGHT), stroke_color=theme["text"], stroke_width=2
    )
    rule.shift(DOWN * RULE_DROP)
    total = NumberGrid(
        ctx.scores[i : i + 1, j : j + 1], p_dec, lambda r, c: Source(0, "scores", (i, j)), theme,
        cell_w=cw, cell_h=ch, size=size, approx=lambda r, c: not adds_up(ctx.dot_terms(i, j), ctx.scores[i, j], p_dec),
    )
    total.cells.set_stroke(theme["accent"], width=SUM_STROKE)
    total.entries.set_color(theme["accent"])
    total.next_to(rule, DOWN, buff=ITEM_BUFF)
    # Translators: the label of the sum of the products (the score), left of it.
    total_label = label(pgettext("sum of products", "sum"), lsize, theme["accent"]).next_to(
        total.cells, LEFT, buff=MED_SMALL_BUFF
    )
    group = VGroup(a, b, p, signs, rule, total, total_label)
    group.next_to((AREA.left, 0, 0), RIGHT, buff=0)
    group.set_y(AREA.centre_y + SMALL_BUFF)
    return WorkedExample(a, b, p, signs, rule, total, total_label, group)


@dataclass(frozen=True)
class ScoreMatrix:
    """The score matrix S of context 0, its axis titles, and the outline of cell (i, j)."""

    grid: NumberGrid  # (n, n) scores: row = query word, column = key word
    axes: VGroup  # "query ↓" and "key →"
    target: SurroundingRectangle  # outline of the worked pair's cell (i, j)
    readable: bool = True  # its cells hold readable numbers (not beside the worked example of long words)


def _score_grid(ctx: ContextTrace, theme: Theme, dec: int, cell_w: float, cell_h: float) -> tuple[NumberGrid, VGroup]:
    grid = token_matrix(ctx.scores, dec, lambda r, c: Source(0, "scores", (r, c)), theme, ctx.tokens,
                        cell_w=cell_w, cell_h=cell_h)
    return grid, axis_titles(grid, theme)


def _outline(grid: NumberGrid, pair: Pair, theme: Theme) -> SurroundingRectangle:
    return SurroundingRectangle(grid.cell(pair.i, pair.j), color=theme["accent"], buff=0, stroke_width=4)


def matrix_beside(worked: WorkedExample, ctx: ContextTrace, pair: Pair, theme: Theme, dec: int) -> ScoreMatrix:
    """The (still empty) score matrix in the room right of the worked example, at the content's right edge."""
    room_w = AREA.right - (worked.group.get_right()[0] + GROUP_BUFF) - label_width(ctx.tokens) - ITEM_BUFF
    for _attempt in range(3):
        cw, ch = fit_token_cells(ctx.tokens, room_w, AREA.height, LABEL_ROOM, max_w=CELL_W)
        grid, axes = _score_grid(ctx, theme, dec, cw, ch)
        block = VGroup(grid, axes)
        block.shift(RIGHT * (AREA.right - block.get_right()[0]))
        # Axis titles longer than the row labels (German "Schlüssel →") must not reach the worked example.
        overlap = worked.group.get_right()[0] + ITEM_BUFF - block.get_left()[0]
        if overlap <= 0:
            break
        room_w = ctx.n * cw - overlap  # narrower cells, by the overlap in all
    block.set_y(AREA.centre_y)
    return ScoreMatrix(
        grid, axes, _outline(grid, pair, theme), cw >= readable_cell_width(ctx.scores[pair.i, pair.j], dec)
    )


def matrix_alone(ctx: ContextTrace, pair: Pair, theme: Theme, dec: int) -> ScoreMatrix:
    """The score matrix in the whole width (less a worked cell's width of margin), centred,
    the worked pair's score and words in the accent colour."""
    cw, ch = fit_token_cells(ctx.tokens, AREA.width - CELL_W - label_width(ctx.tokens), AREA.height, LABEL_ROOM,
                             max_w=2 * BIG_CELL_H, max_h=BIG_CELL_H)
    grid, axes = _score_grid(ctx, theme, dec, cw, ch)
    VGroup(grid, axes).move_to((0, AREA.centre_y, 0))
    for mob in (grid.entry(pair.i, pair.j), grid.row_labels[pair.i], grid.col_labels[pair.j]):
        mob.set_color(theme["accent"])
    return ScoreMatrix(grid, axes, _outline(grid, pair, theme))


# --- the scene ----------------------------------------------------------------------------


class DotProducts(LessonScene):
    TITLE = N_("Dot products")
    STAGE = 1
    FORMULA = "S = X X^T"
    SECTIONS = (
        (N_("One score, term by term"), "one_score"),
        (N_("Every pair of words"), "every_pair"),
        (N_("A similarity, not yet a weight"), "not_a_weight"),
    )

    pair: Pair
    worked: WorkedExample
    matrix: ScoreMatrix

    def one_score(self) -> None:
        ctx = self.ctx(0)
        pair = self.pair = worked_pair(ctx)
        i, j = pair.i, pair.j
        dims = list(self.lesson.dimensions)
        w = self.worked = worked_example(ctx, pair, dims, self.theme, self.dec)
        m = self.matrix = matrix_beside(w, ctx, pair, self.theme, self.dec)
        S = m.grid
        # The dimension that contributes most, cited with the very numbers on screen.
        k = max(range(ctx.d), key=lambda r: w.products.entry(r, 0).value)
        self.narrate(" ".join([
            _("The score of two words is the dot product of their vectors."),
            *(c.text for c in self.claims("largest")),
            # Translators: {dimension} is a dimension's name; {a}, {b}, {product}, {total} numbers;
            # {row}, {column} words.
            _("Multiply the two vectors dimension by dimension: in {dimension}, {a} times {b} gives {product}. "
              "Add the products: the sum, {total}, is the score in row {row}, column {column}.").format(
                dimension=dims[k], a=w.a.entry(k, 0).text, b=w.b.entry(k, 0).text, product=w.products.entry(k, 0).text,
                total=w.total.entry(0, 0).spoken, row=quoted(ctx.tokens[i]), column=quoted(ctx.tokens[j])),
        ]))
        # Right: the empty score matrix, its cell (i, j) waiting for the sum.
        self.play(FadeIn(S.cells), Write(S.row_labels), Write(S.col_labels), FadeIn(m.axes), run_time=TIME.write)
        self.play(
            Create(m.target),
            S.row_labels[i].animate.set_color(self.theme["accent"]),
            S.col_labels[j].animate.set_color(self.theme["accent"]),
        )
        self.note = self.say(_("Which score belongs in row {row}, column {column}?").format(
            row=quoted(ctx.tokens[i]), column=quoted(ctx.tokens[j])))

        # Left: the two vectors arrive, each word's embedding row, laid side by side.
        self.play(
            TransformFromCopy(S.row_labels[i], w.a.col_labels[0]),
            TransformFromCopy(S.col_labels[j], w.b.col_labels[0]),
            FadeIn(w.a.cells), FadeIn(w.b.cells), FadeIn(w.products.cells), Write(w.a.row_labels),
            FadeIn(w.products.col_labels),
            run_time=TIME.transform,
        )
        self.play(LaggedStart(*(FadeIn(VGroup(w.a.entry(r, 0), w.b.entry(r, 0))) for r in range(ctx.d)),
                              lag_ratio=LABEL_LAG))
        self.note = self.say(_("Put the two vectors side by side, dimension by dimension."), self.note)
        self._multiply(w)

        # Their sum is the score; it lands in its cell of S.
        self.play(Create(w.rule), FadeIn(w.total.cells), FadeIn(w.total_label), run_time=TIME.fade)
        self.play(TransformFromCopy(w.products.entries, w.total.entries), run_time=TIME.transform)
        S.entry(i, j).set_color(self.theme["accent"])
        if m.readable:
            self.play(TransformFromCopy(w.total.entries[0], S.entry(i, j)), run_time=TIME.transform)
        else:  # long words leave cells too narrow to read it in: it lands when the matrix grows (next section)
            self.play(Indicate(m.target, color=self.theme["accent"], scale_factor=INDICATE_SCALE))
        self.note = self.say(_("Multiply dimension by dimension, add the products: that sum is the score."), self.note)

    def _multiply(self, w: WorkedExample) -> None:
        """One product per dimension, one after the other, an outline walking down the rows."""
        d = w.a.n_rows
        accent = self.theme["accent"]
        focus_box = SurroundingRectangle(VGroup(w.a.row_labels[0], w.products.cell(0, 0)), color=accent, buff=TINY_BUFF)
        self.play(Create(focus_box), FadeIn(w.row_signs(0)), run_time=TIME.fade)
        step = min(STEP_MAX, WALK_S / d)
        for r in range(d):
            if r > 0:
                nxt = SurroundingRectangle(
                    VGroup(w.a.row_labels[r], w.products.cell(r, 0)), color=accent, buff=TINY_BUFF
                )
                nxt.match_width(focus_box, stretch=True).align_to(focus_box, RIGHT)
                self.play(Transform(focus_box, nxt), FadeIn(w.row_signs(r)), run_time=step / 3)
            self.play(TransformFromCopy(VGroup(w.a.entry(r, 0), w.b.entry(r, 0)), w.products.entry(r, 0)),
                      run_time=step * PRODUCT_SHARE)
            self.wait(step * REST_SHARE)
        self.play(FadeOut(focus_box), run_time=TIME.fade)

    def every_pair(self) -> None:
        ctx = self.ctx(0)
        n = ctx.n
        i, j = self.pair.i, self.pair.j
        old = self.matrix
        # The matrix takes the room the worked example leaves: rebuilt with larger cells.
        new = self.matrix = matrix_alone(ctx, self.pair, self.theme, self.dec)
        S = new.grid
        self.narrate(_(
            "Every word is compared with every word of its sentence in the same way. "
            "That fills the score matrix: one row per query word, one column per key word."
        ))
        self.play(FadeOut(self.worked.group), run_time=TIME.fade)
        self.play(
            ReplacementTransform(old.grid.cells, S.cells),
            ReplacementTransform(old.grid.row_labels, S.row_labels),
            ReplacementTransform(old.grid.col_labels, S.col_labels),
            ReplacementTransform(old.grid.entry(i, j), S.entry(i, j)),
            ReplacementTransform(old.axes, new.axes),
            ReplacementTransform(old.target, new.target),
            run_time=TIME.transform,
        )
        self.note = self.say(_("Every word is compared with every word of its sentence the same way."), self.note)
        for r in range(n):
            fresh = [S.entry(r, c) for c in range(n) if (r, c) != (i, j)]
            self.play(
                Indicate(S.row_labels[r], color=self.theme["accent"], scale_factor=INDICATE_SCALE),
                LaggedStart(*(FadeIn(e, scale=ENTRY_SCALE) for e in fresh), lag_ratio=ENTRY_LAG),
                run_time=min(ROW_S, ROWS_S / n),
            )
        self.hold(n)
        self.note = self.say(_("Row = the query word, column = the key word it is compared with."), self.note)

    def not_a_weight(self) -> None:
        i, j = self.pair.i, self.pair.j
        S = self.matrix.grid
        said = self.claims("largest")[0]  # the largest score of the row (attncore.claims)
        best = said.args["column"]
        self.narrate(said.text + " " + _("A raw score is a similarity, not yet a weight."))
        row_box = labelled_row_outline(S, i, self.theme["accent"], ROW_BOX_BUFF)
        self.play(
            FadeOut(self.matrix.target),
            S.entry(i, j).animate.set_color(self.theme["text"]),
            S.col_labels[j].animate.set_color(self.theme["key"]),
            Create(row_box),
        )
        best_box = _outline(S, Pair(i, best), self.theme)
        self.play(Create(best_box), S.entry(i, best).animate.set_color(self.theme["accent"]), run_time=TIME.fade)
        self.note = self.say(self.claims("largest", "caption")[0].text, self.note)
        self.note = self.say(_("A raw score is a similarity, not yet a weight."), self.note)

        self.hold()


__all__ = ["DotProducts"]
