"""Self-attention simplified: every word looks at every word of its sentence.

After this scene the viewer knows the plan: each word will be updated by looking at all
words of its own sentence (itself included), and, for now, with no learned weights, the
queries, keys and values are simply the embeddings (Q = K = V = X).

Shows from the attncore trace: the tokens and ``embeddings`` (X) of the first context.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    AnimationGroup,
    ArcBetweenPoints,
    Arrow,
    Create,
    FadeIn,
    FadeOut,
    GrowArrow,
    LaggedStart,
    Line,
    Mobject,
    Text,
    VGroup,
    VMobject,
)

from attncore import ContextTrace, decimals_needed
from attncore.i18n import N_, _, pgettext, quoted
from scenes.base import LessonScene
from scenes.components import (
    NumberGrid,
    Source,
    TokenRow,
    arrow,
    column_labels,
    column_labels_height,
    fitted_token_row,
    label,
    label_width,
    one_line_cell_width,
)
from scenes.layout import CONTENT, DRIFT, GROUP_BUFF, ITEM_BUFF, MED_SMALL_BUFF, SMALL_BUFF
from scenes.theme import LAG, STROKE, TIME, Theme

# -- the arcs ------------------------------------------------------------------------------
#: An arc to another word bends by ARC_ANGLE (radians); the loop of a word onto itself
#: turns by LOOP_ANGLE, its feet MED_SMALL_BUFF either side of the word's top.
ARC_ANGLE, LOOP_ANGLE = np.pi / 2.5, -np.pi * 1.2
#: The arcs of the focus word are drawn 3 wide, those of the other words thinner.
OTHER_ARC_W = STROKE.thin
#: Token sizes tried for the sentence on one line, largest first; words too long for all of
#: them wrap to two lines LINE_GAP apart, the room of the arcs between the lines.
TOKEN_SIZES = ("body", "label", "small")
LINE_GAP = 0.8

# -- X and its three roles (scene units) ---------------------------------------------------
#: The sentence under the title, and X under the sentence, are this far apart.
ROW_GAP = 0.45
#: X's cells: at most CELL_W wide and CELL_H tall; all its columns fit X_W, its rows and
#: column names X_H.
CELL_W, CELL_H, X_W, X_H = 1.1, 0.45, 5.2, 3.2
#: Rows lower than ROW_LEAST (their words would touch) take the height down to the caption, less
#: X_NAME_ROOM for the "X" under the table.
ROW_LEAST, X_NAME_ROOM = 0.32, 0.7
#: X stands X_LEFT from the frame's left edge, the roles ARROW_ROOM right of X.
X_LEFT, ARROW_ROOM = 1.4, 1.1

# -- pacing --------------------------------------------------------------------------------
#: Drawing a set of arcs takes ARCS_WRITES × TIME.write.
ARCS_WRITES = 1.5
#: lag_ratio of the words, of the focus word's arcs, of the other words' arcs, of the roles.
WORD_LAG, ARC_LAG, OTHER_LAG, ROLE_LAG = 0.12, LAG.item, LAG.quick, LAG.half


def word_lines(row: TokenRow) -> list[int]:
    """The line of each word of ``row``: 0 the top line, 1 the next (of a wrapped row)."""
    ys = [round(float(b.get_center()[1]), 3) for b in row.boxes]
    tops = sorted(set(ys), reverse=True)
    return [tops.index(y) for y in ys]


def arc(row: TokenRow, i: int, j: int, lines: Sequence[int]) -> VMobject:
    """The arc from word ``i`` to word ``j``: over the top line (a loop onto itself), under the
    bottom line of a wrapped row, straight across the gap between two lines."""
    a, b = row.boxes[i], row.boxes[j]
    up = lines[i] == 0  # on the top line the arcs bulge up, clear of the line under it
    if lines[i] != lines[j]:
        return Line(a.get_bottom() if up else a.get_top(), b.get_top() if up else b.get_bottom())
    foot, flip = (a.get_top(), 1) if up else (a.get_bottom(), -1)
    if j == i:
        return ArcBetweenPoints(foot + LEFT * MED_SMALL_BUFF, foot + RIGHT * MED_SMALL_BUFF, angle=flip * LOOP_ANGLE)
    end = b.get_top() if up else b.get_bottom()
    return ArcBetweenPoints(foot, end, angle=flip * (-ARC_ANGLE if j > i else ARC_ANGLE))


def arcs(row: TokenRow, i: int, colour: str, width: float = 3) -> VGroup:
    """Arcs from word ``i`` to every word of the row (a loop onto itself)."""
    lines = word_lines(row)
    return VGroup(*(arc(row, i, j, lines).set_stroke(colour, width) for j in range(len(row.boxes))))


@dataclass(frozen=True)
class Role:
    """One role X plays for now: "Q = X" over what it means."""

    head: Text  # "Q = X", in the role's colour
    group: VGroup  # head and meaning


@dataclass(frozen=True)
class Roles:
    """X (the embeddings of context 0) on the left, its three roles right of it, arrows between."""

    grid: NumberGrid  # (n, d) X: one row per word, one column per named dimension
    x_name: Text  # "X", under the grid
    roles: list[Role]  # query, key, value, stacked right of X
    arrows: list[Arrow]  # from X to each role


def _roles(theme: Theme) -> tuple[list[Role], VGroup]:
    """The three roles, stacked (not placed)."""
    roles: list[Role] = []
    for role, letter, meaning in (
        ("query", "Q", _("query: what a word looks for")),
        ("key", "K", _("key: what a word offers")),
        ("value", "V", _("value: what a word passes on")),
    ):
        head = label(f"{letter} = X", "formula", theme[role], weight="BOLD")
        text = label(meaning, "label", theme["muted"])
        roles.append(Role(head, VGroup(head, text).arrange(DOWN, aligned_edge=LEFT, buff=SMALL_BUFF)))
    return roles, VGroup(*(r.group for r in roles)).arrange(DOWN, aligned_edge=LEFT, buff=GROUP_BUFF)


def _x_cells(ctx: ContextTrace, dims: list[str], above: Mobject, roles_w: float) -> tuple[float, float]:
    """X's cell width and height. Dimension names never shrink and stay on one line: columns as
    wide as the names need side by side where X and the roles still fit the content box, else
    the names turned (issue 24: staggered on two lines they read as a staircase; bank, maus,
    raton, souris and the largest lessons had one), the rows giving up the room they take, and
    taking the room down to the caption when they would be too low for their words."""
    cell_w = min(CELL_W, X_W / len(dims))
    wide = one_line_cell_width(dims)
    room = CONTENT.width - roles_w - ARROW_ROOM - label_width(ctx.tokens, "label") - ITEM_BUFF
    if cell_w < wide and wide * len(dims) <= room:
        cell_w = wide
    extra = column_labels_height(dims, cell_w, style="turned") - column_labels_height(dims[:1], cell_w)
    free = float(above.get_bottom()[1]) - ROW_GAP - CONTENT.bottom - X_NAME_ROOM
    x_h = X_H if (X_H - extra) / (ctx.n + 1) >= ROW_LEAST else max(X_H, free)
    return cell_w, min(CELL_H, (x_h - extra) / (ctx.n + 1))


def x_and_roles(ctx: ContextTrace, dims: list[str], above: Mobject, theme: Theme, dec: int) -> Roles:
    """X under ``above`` (the sentence where it stands, or the title when the sentence has gone),
    near the left edge; the roles right of it, in the frame."""
    roles, stack = _roles(theme)
    cell_w, rows_h = _x_cells(ctx, dims, above, float(stack.width))
    grid = NumberGrid(
        ctx.embeddings, decimals_needed(ctx.embeddings, dec), lambda r, k: Source(0, "embeddings", (r, k)), theme,
        row_labels=list(ctx.tokens), cell_w=cell_w, cell_h=rows_h,
    )
    grid.set_column_labels(column_labels(grid, dims, theme, [theme.dim(d) for d in dims], style="turned"))
    x_name = label("X", "formula", theme["text"], weight="BOLD")
    grid.next_to(above, DOWN, buff=ROW_GAP).to_edge(LEFT, buff=X_LEFT)
    x_name.next_to(grid.body(), DOWN, buff=ITEM_BUFF)
    low = CONTENT.bottom - float(x_name.get_bottom()[1])
    if low > 0:  # a tall X (eight words) rises into the gap under the sentence, clear of the caption
        VGroup(grid, x_name).shift(UP * min(low, ROW_GAP - ITEM_BUFF))
    stack.next_to(grid, RIGHT, buff=ARROW_ROOM).match_y(grid.body())
    # Wide lessons (many dimensions): slide everything left to keep the roles inside.
    overflow = stack.get_right()[0] - CONTENT.right
    if overflow > 0:
        for m in (grid, x_name, stack):
            m.shift(LEFT * overflow)
    arrows = [arrow(grid.body().get_right(), r.head.get_left(), theme[k])
              for r, k in zip(roles, ("query", "key", "value"))]
    return Roles(grid, x_name, roles, arrows)


# --- the scene ----------------------------------------------------------------------------


class SimplifiedAttention(LessonScene):
    TITLE = N_("Self-attention, simplified")
    STAGE = 0
    FORMULA = "Q = K = V = X"
    SECTIONS = (
        (N_("Every word looks at every word"), "every_word_looks"),
        (N_("No learned weights yet"), "no_weights_yet"),
    )

    row: TokenRow

    def every_word_looks(self) -> None:
        ctx = self.ctx(0)
        i = ctx.focus_index
        # Translators: {words} is every word of the sentence in quotes, separated by commas.
        self.narrate(_(
            "Self-attention lets every word look at every word of its own sentence, itself included, "
            "and decide how much each one matters to it. {focus} looks at {words}. And every other word does the same."
        ).format(focus=quoted(ctx.focus), words=pgettext("list separator", ", ").join(quoted(t) for t in ctx.tokens)))
        # The sentence an item gap below the middle of the frame, the arcs over it.
        self.row = fitted_token_row(ctx.tokens, self.theme, CONTENT.width, TOKEN_SIZES, focus=i,
                                    line_buff=LINE_GAP).move_to(DOWN * ITEM_BUFF)
        mine = arcs(self.row, i, self.theme["accent"])
        others = VGroup(*(arcs(self.row, k, self.theme["muted"], OTHER_ARC_W) for k in range(ctx.n) if k != i))
        self.play(LaggedStart(*(FadeIn(w, shift=DOWN * DRIFT) for w in self.row), lag_ratio=WORD_LAG))
        self.play(LaggedStart(*(Create(a) for a in mine), lag_ratio=ARC_LAG), run_time=TIME.write * ARCS_WRITES)
        self.note = self.say(
            _("{word} looks at every word of its sentence, itself included.").format(word=quoted(ctx.focus))
        )
        self.play(FadeOut(mine), LaggedStart(*(Create(a) for a in others), lag_ratio=OTHER_LAG),
                  run_time=TIME.write * ARCS_WRITES)
        self.note = self.say(_("And so does every other word: attention compares all pairs."), self.note)
        self.play(FadeOut(others), run_time=TIME.fade)

    def no_weights_yet(self) -> None:
        ctx = self.ctx(0)
        self.narrate(_(
            "In a trained transformer, learned weight matrices turn each word into a query, a key and a value. "
            "To see the mechanism first, we use no weights at all: the queries, the keys and the values "
            "are simply the embeddings X."
        ))
        dims = list(self.lesson.dimensions)
        if max(word_lines(self.row)) == 0:
            self.play(self.row.animate.next_to(self.title, DOWN, buff=ROW_GAP).set_x(0), run_time=TIME.transform)
            above: Mobject = self.row
        else:  # a wrapped sentence would leave X no room: X's row labels carry its words, X takes its place
            self.play(FadeOut(self.row, shift=UP * DRIFT), run_time=TIME.fade)
            above = self.title
        # One X, and the three roles it plays for now.
        lay = x_and_roles(ctx, dims, above, self.theme, self.dec)
        self.play(FadeIn(lay.grid), FadeIn(lay.x_name), run_time=TIME.write)
        self.hold(ctx.n * len(dims))
        self.play(LaggedStart(*(AnimationGroup(GrowArrow(a), FadeIn(r.group, shift=RIGHT * DRIFT))
                                for a, r in zip(lay.arrows, lay.roles)), lag_ratio=ROLE_LAG),
                  run_time=TIME.write * 2)
        self.note = self.say(
            _("No learned weights yet: queries, keys and values are the embeddings themselves."), self.note
        )

        self.hold()
