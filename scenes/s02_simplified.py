"""Step 2, self-attention simplified: every word looks at every word of its sentence.

After this scene the viewer knows the plan: each word will be updated by looking at all
words of its own sentence (itself included), and, for now, with no learned weights, the
queries, keys and values are simply the embeddings (Q = K = V = X).

Shows from the attncore trace: the tokens and ``embeddings`` (X) of the first context.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    AnimationGroup,
    ArcBetweenPoints,
    Create,
    FadeIn,
    FadeOut,
    GrowArrow,
    LaggedStart,
    VGroup,
)

from attncore import decimals_needed
from scenes.base import LessonScene
from scenes.components import NumberGrid, Source, TokenRow, arrow, column_labels, label
from scenes.theme import TIME


class SimplifiedAttention(LessonScene):
    TITLE = "2 · Self-attention, simplified"
    STAGE = 0
    FORMULA = "Q = K = V = X"
    SECTIONS = (
        ("Every word looks at every word", "every_word_looks"),
        ("No learned weights yet", "no_weights_yet"),
    )

    def _arcs(self, row: TokenRow, i: int, colour: str, width: float = 3.0) -> VGroup:
        """Arcs from word ``i`` to every word of the row (a loop onto itself)."""
        arcs = VGroup()
        start = row.boxes[i].get_top()
        for j, box in enumerate(row.boxes):
            if j == i:
                end = box.get_corner(UP) + np.array([0.25, 0, 0])
                a = ArcBetweenPoints(start + np.array([-0.25, 0, 0]), end, angle=-np.pi * 1.2)
            else:
                a = ArcBetweenPoints(start, box.get_top(), angle=-np.pi / 2.5 if j > i else np.pi / 2.5)
            a.set_stroke(colour, width)
            arcs.add(a)
        return arcs

    def every_word_looks(self) -> None:
        ctx = self.ctx(0)
        i = ctx.focus_index
        self.narrate(
            "Self-attention lets every word look at every word of its own sentence, itself included, "
            f"and decide how much each one matters to it. “{ctx.focus}” looks at "
            f"{', '.join(f'“{t}”' for t in ctx.tokens)}. And every other word does the same."
        )
        self.row = TokenRow(ctx.tokens, self.theme, focus=i).move_to(DOWN * 0.2)
        self.play(LaggedStart(*(FadeIn(w, shift=DOWN * 0.2) for w in self.row), lag_ratio=0.12))
        arcs = self._arcs(self.row, i, self.theme["accent"])
        self.play(LaggedStart(*(Create(a) for a in arcs), lag_ratio=0.15), run_time=TIME.write * 1.5)
        self.note = self.say(f"“{ctx.focus}” looks at every word of its sentence, itself included.")
        others = VGroup(*(self._arcs(self.row, k, self.theme["muted"], 1.5) for k in range(ctx.n) if k != i))
        self.play(FadeOut(arcs), LaggedStart(*(Create(a) for a in others), lag_ratio=0.1), run_time=TIME.write * 1.5)
        self.note = self.say("And so does every other word: attention compares all pairs.", self.note)
        self.play(FadeOut(others), run_time=TIME.fade)

    def no_weights_yet(self) -> None:
        ctx = self.ctx(0)
        self.narrate(
            "In a trained transformer, learned weight matrices turn each word into a query, a key and a value. "
            "To see the mechanism first, we use no weights at all: the queries, the keys and the values "
            "are simply the embeddings X."
        )
        dims = list(self.lesson.dimensions)
        dec = decimals_needed(ctx.embeddings, self.dec)
        self.play(self.row.animate.next_to(self.title, DOWN, buff=0.45).set_x(0), run_time=TIME.transform)
        # One X, and the three roles it plays for now.
        cell_w = min(1.1, 5.2 / len(dims))
        cell_h = min(0.45, 3.2 / (ctx.n + 1))
        grid = NumberGrid(
            ctx.embeddings, dec, lambda r, k: Source(0, "embeddings", (r, k)), self.theme,
            row_labels=list(ctx.tokens), cell_w=cell_w, cell_h=cell_h,
        )
        # Dimension names that never shrink: staggered when the columns are narrow.
        grid.add(column_labels(grid, dims, self.theme, [self.theme.dim(d) for d in dims]))
        x_name = label("X", "formula", self.theme["text"], weight="BOLD")
        grid.next_to(self.row, DOWN, buff=0.45).to_edge(LEFT, buff=1.4)
        x_name.next_to(grid.body(), DOWN, buff=0.2)
        roles = VGroup()
        for role, letter, meaning in (
            ("query", "Q", "query: what a word looks for"),
            ("key", "K", "key: what a word offers"),
            ("value", "V", "value: what a word passes on"),
        ):
            head = label(f"{letter} = X", "formula", self.theme[role], weight="BOLD")
            text = label(meaning, "label", self.theme["muted"])
            roles.add(VGroup(head, text).arrange(DOWN, aligned_edge=LEFT, buff=0.1))
        roles.arrange(DOWN, aligned_edge=LEFT, buff=0.35)
        roles.next_to(grid, RIGHT, buff=1.1).match_y(grid.body())
        # Wide lessons (many dimensions): slide everything left to keep the roles inside.
        overflow = roles.get_right()[0] - 6.8
        if overflow > 0:
            for m in (grid, x_name, roles):
                m.shift(LEFT * overflow)
        arrows = VGroup(*(arrow(grid.body().get_right(), r[0].get_left(), self.theme[k]) for r, k in zip(roles, ("query", "key", "value"))))
        self.play(FadeIn(grid), FadeIn(x_name), run_time=TIME.write)
        self.hold(ctx.n * len(dims))
        self.play(LaggedStart(*(AnimationGroup(GrowArrow(a), FadeIn(r, shift=RIGHT * 0.2)) for a, r in zip(arrows, roles)), lag_ratio=0.5), run_time=TIME.write * 2)
        self.note = self.say("No learned weights yet: queries, keys and values are the embeddings themselves.", self.note)
        self.hold()
