"""Step 9, learned projections: Q = X·W_Q, K = X·W_K, V = X·W_V.

After this scene the viewer knows that the attention mechanism itself (dot products,
scaling, softmax, mixing) never changes: what a model learns are three matrices that
project every word before attention. Q and K decide what is compared, V decides what is
passed on. The viewer also knows how *these* weights were obtained (the provenance line)
and sees that new projections give a new attention pattern.

Shows from the attncore trace, context 0: ``embeddings`` (X), ``projected.W_Q``,
``projected.W_K``, ``projected.W_V`` and the products ``projected.Q``, ``projected.K``,
``projected.V`` with their shapes; ``projected.attention`` (rows rounded to one) next to
the simplified ``attention``; ``trace.weights.provenance`` as its own text element.

"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Create,
    DashedLine,
    FadeIn,
    FadeOut,
    GrowArrow,
    Indicate,
    ReplacementTransform,
    RoundedRectangle,
    SurroundingRectangle,
    VGroup,
    Write,
)

from attncore import decimals_needed, round_rows_to_one
from scenes.base import LessonScene
from scenes.components import (
    EQ_BUFF,
    Grid,
    MatrixBlock,
    NumberGrid,
    Provenance,
    ShapeLabel,
    Source,
    Tiles,
    arrange_equation,
    arrow,
    cap_centre,
    centre_on_baseline,
    column_labels,
    column_labels_height,
    fit_numbers,
    fit_row,
    heat_fill,
    label,
    label_width,
    named_block,
    number_cell_width,
    operator,
    role_fill,
    row_transfer,
    trace_grid,
)
from scenes.theme import TIME

# --- the scene ---------------------------------------------------------------------------

ROLES = ("Q", "K", "V")
ROLE_NAME = {"Q": "query", "K": "key", "V": "value"}


class LearnedProjections(LessonScene):
    TITLE = "9 · Learned projections"
    STAGE = 5
    FORMULA = "Q = X·W_Q   K = X·W_K   V = X·W_V"
    SECTIONS = (
        ("Queries, keys and values", "queries_keys_values"),
        ("What is learned, what is fixed", "learned_and_fixed"),
        ("A new attention pattern", "new_pattern"),
    )

    # -- building blocks ----------------------------------------------------------------
    def _role_block(self, grid: Grid, role: str, name: str, src: str, shape: tuple[int, ...], sym: str) -> MatrixBlock:
        return named_block(grid, name, self.theme[ROLE_NAME[role]], shape, Source(0, src), sym, self.theme)

    def _layout(self) -> None:
        """Cell sizes for the product row X · W = R; below it the provenance (left) and the
        shelf (right) where finished products wait as tile pictures."""
        ctx = self.ctx(0)
        p = ctx.projected
        n, d = ctx.n, ctx.d
        self.dec_x = decimals_needed(ctx.embeddings, self.dec)
        self.dec_w = decimals_needed(np.vstack([p.W_Q, p.W_K, p.W_V]), self.dec)
        results = np.vstack([p.Q, p.K, p.V])
        self.tile_w, self.tile_h = min(0.2, 1.0 / d), min(0.17, 0.9 / n)
        self.shelf_item_w = 0.45 + d * self.tile_w
        self.shelf_w = 3 * self.shelf_item_w + 2 * 0.35
        rows_w = label_width(ctx.tokens, "label") + 0.2
        fixed = rows_w + 2 * (operator("=", self.theme).width + 2 * EQ_BUFF)
        mats = [(ctx.embeddings, self.dec_x), (np.vstack([p.W_Q, p.W_K, p.W_V]), self.dec_w), (results, self.dec)]
        self.fit = fit_numbers(mats, [d, d, d], self.content.width, fixed, give_up=[0, 1])
        overhead = 0.6 + 0.65 + 0.35 + max(0.6, n * self.tile_h)  # name; shape and symbol; gap; strip
        self.cell_h = min(0.5, max(0.3, (self.content.height - overhead) / max(n, d)))

    def _grid(self, path: str, dec: int, k: int, colour: str, rows: Sequence[str] | None = None) -> Grid:
        """Matrix ``k`` of the product row: numbers, or tiles in its role colour."""
        cw, numbers = self.fit[k]
        return trace_grid(self.trace, path, dec, self.theme, cell_w=cw, cell_h=self.cell_h, numbers=numbers,
                          tiles=colour, size=self.fit.size, row_labels=rows)

    def _shelf_item(self, role: str, values: np.ndarray, slot: int) -> VGroup:
        colour = self.theme[ROLE_NAME[role]]
        tiles = Tiles(*values.shape, role_fill(values, colour), self.theme, cell_w=self.tile_w, cell_h=self.tile_h,
                      stroke_width=0.8)
        name = label(role, "label", colour, weight="BOLD")
        right = self.content.right - (len(ROLES) - 1 - slot) * (self.shelf_item_w + 0.35)
        tiles.move_to([right - tiles.width / 2, self.shelf_y, 0])
        centre_on_baseline(name, tiles.get_center()).next_to(tiles, LEFT, buff=0.15, coor_mask=np.array([1, 0, 0]))
        return VGroup(name, tiles)

    # -- section 1 ------------------------------------------------------------------------
    def _provenance_words(self) -> str:
        """How the weights were obtained, said in words (the seed's digits stay on screen)."""
        spec = self.lesson.projections
        names = ("W_Q", "W_K", "W_V", "W_V_reshape", "W_O")
        given = [nm for nm in names if spec.matrix(nm) is not None]
        if len(given) == len(names):
            return "Ours were set by hand in the lesson file, not trained; a real model learns them from data."
        if given:
            return (f"Ours are not trained: {', '.join(given)} set by hand, the others drawn at random "
                    "from a fixed seed. A real model learns them from data.")
        return "Ours are untrained, drawn at random from a fixed seed; a real model learns them from data."

    def queries_keys_values(self) -> None:
        ctx = self.ctx(0)
        p = ctx.projected
        self.narrate(
            "Queries, keys and values now come from their own weight matrices. "
            f"{self._provenance_words()} "
            "Q is X times W_Q, K is X times W_K, V is X times W_V."
        )
        self._layout()
        x_grid = self._grid("embeddings", self.dec_x, 0, self.theme["text"], ctx.tokens)
        x_block = MatrixBlock(
            x_grid, label("X", "label", self.theme["text"], weight="BOLD"),
            ShapeLabel(ctx.embeddings.shape, Source(0, "embeddings")), label("n×d", "small", self.theme["muted"]),
        )
        dot, eq = operator("·", self.theme), operator("=", self.theme)
        ws: dict[str, MatrixBlock] = {}
        rs: dict[str, MatrixBlock] = {}
        for role in ROLES:
            colour = self.theme[ROLE_NAME[role]]
            w = getattr(p, "W_" + role)
            r = getattr(p, role)
            ws[role] = self._role_block(self._grid(f"projected.W_{role}", self.dec_w, 1, colour), role,
                                        f"W_{role}", f"projected.W_{role}", w.shape, "d×d")
            rs[role] = self._role_block(self._grid(f"projected.{role}", self.dec, 2, colour), role,
                                        role, f"projected.{role}", r.shape, "n×d")
        row = arrange_equation([x_block, dot, ws["Q"], eq, rs["Q"]])
        # Provenance sits under the row; centre both in the room left of the shelf.
        self.provenance = Provenance(self.trace.weights.provenance, self.theme,
                                     max_width=self.content.width - self.shelf_w - 0.5)
        # Row on top, then a strip: provenance on the left, the shelf on the right.
        strip_h = max(self.provenance.height, ctx.n * self.tile_h)
        factor = min(1.0, (self.content.height - 0.35 - strip_h) / row.height,
                     (self.content.width) / row.width)
        if factor < 1.0:
            row.scale(factor)
        top = self.content.centre_y + (row.height + 0.35 + strip_h) / 2
        row.move_to([0, top - row.height / 2, 0])
        strip_top = row.get_bottom()[1] - 0.35
        self.shelf_y = strip_top - strip_h / 2
        self.provenance.move_to([0, self.shelf_y, 0]).align_to([self.content.left, 0, 0], LEFT)
        for role in ("K", "V"):  # the later products take the same places
            for new, old in ((ws[role], ws["Q"]), (rs[role], rs["Q"])):
                new.scale(factor)
                new.shift(old.body().get_center() - new.body().get_center())
                new.place_labels(cap_centre(old.title), old.shape.get_center()[1])

        self.play(FadeIn(x_block), run_time=TIME.fade)
        self.play(FadeIn(ws["Q"], shift=LEFT * 0.2), FadeIn(dot), Write(self.provenance), run_time=TIME.write)
        self.hold(ctx.d)
        self.play(Indicate(ws["Q"].grid.body(), color=self.theme["query"], scale_factor=1.03), FadeIn(eq))
        self.play(row_transfer(x_grid, rs["Q"].grid), FadeIn(rs["Q"].labels()))
        self.note = self.say("Queries: Q = X·W_Q, one row per word, what that word is looking for.")
        self.shelf: dict[str, VGroup] = {}
        captions = {
            "K": "Keys: K = X·W_K, what each word offers to be matched against.",
            "V": "Values: V = X·W_V, what each word passes on once it is chosen.",
        }
        for prev, role in (("Q", "K"), ("K", "V")):
            self._to_shelf(prev, rs[prev], ROLES.index(prev), ReplacementTransform(ws[prev], ws[role]))
            self.play(row_transfer(x_grid, rs[role].grid), FadeIn(rs[role].labels()))
            self.note = self.say(captions[role], self.note)
        self.x_block, self.ops, self.w_last, self.r_last = x_block, VGroup(dot, eq), ws["V"], rs["V"]

    def _to_shelf(self, role: str, block: MatrixBlock, slot: int, *also: Any) -> None:
        """The finished product shrinks to its tile picture on the shelf (with ``also`` playing)."""
        item = self._shelf_item(role, getattr(self.ctx(0).projected, role), slot)
        self.shelf[role] = item
        self.play(
            ReplacementTransform(block.grid.cells, item[1].cells),
            ReplacementTransform(block.title, item[0]),
            FadeOut(VGroup(block.grid.entries, block.shape, block.sym)),
            *also,
            run_time=TIME.transform,
        )
        self.remove(block, item[1].cells, item[0])
        self.add(item)

    # -- section 2 ------------------------------------------------------------------------
    def learned_and_fixed(self) -> None:
        ctx = self.ctx(0)
        p = ctx.projected
        self.narrate(
            "Dot products, scaling, softmax and mixing stay the same. "
            "What is learned are the projections: Q and K decide what is compared, V what is passed on."
        )
        self.play(FadeOut(VGroup(self.x_block, self.ops, self.w_last, self.provenance)), run_time=TIME.fade)
        self._to_shelf("V", self.r_last, 2)
        n, d = ctx.n, ctx.d
        tw, th = min(0.28, 1.3 / d), min(0.22, 1.2 / n)
        y_top, y_bot = 0.75, -1.75
        x_learned = -5.0

        def tiles_for(role: str) -> Tiles:
            values = getattr(p, role)
            return Tiles(n, d, role_fill(values, self.theme[ROLE_NAME[role]]), self.theme, cell_w=tw, cell_h=th)

        target = {r: tiles_for(r) for r in ROLES}
        target["Q"].move_to([x_learned - 0.2 - d * tw / 2 - 0.05, y_top, 0])
        target["K"].move_to([x_learned + 0.2 + d * tw / 2 + 0.05, y_top, 0])
        target["V"].move_to([x_learned, y_bot, 0])
        names = {}
        for r in ROLES:
            names[r] = label(r, "label", self.theme[ROLE_NAME[r]], weight="BOLD")
            centre_on_baseline(names[r], target[r].get_top() + UP * 0.3)
        self.play(
            *(ReplacementTransform(self.shelf[r][1], target[r]) for r in ROLES),
            *(ReplacementTransform(self.shelf[r][0], names[r]) for r in ROLES),
            run_time=TIME.transform,
        )
        qk = VGroup(target["Q"], target["K"], names["Q"], names["K"])
        qk_frame = SurroundingRectangle(qk, color=self.theme["grid"], buff=0.15, corner_radius=0.08)
        compare_note = label("decide what is compared", "small", self.theme["text"]).next_to(qk_frame, DOWN, buff=0.15)
        pass_note = label("decides what is passed on", "small", self.theme["text"]).next_to(target["V"], DOWN, buff=0.2)
        learned = label("learned", "label", self.theme["accent"], weight="BOLD")
        centre_on_baseline(learned, [x_learned, self.content.top - 0.2, 0])
        fixed = label("fixed", "label", self.theme["muted"], weight="BOLD")
        centre_on_baseline(fixed, [1.5, self.content.top - 0.2, 0])
        divider = DashedLine([-2.75, self.content.top - 0.05, 0], [-2.75, self.content.bottom + 0.4, 0], color=self.theme["grid"])

        def box(lines: Sequence[str], centre: Any) -> VGroup:
            text = VGroup(*(label(t, "small", self.theme["muted"]) for t in lines)).arrange(DOWN, buff=0.12)
            frame = RoundedRectangle(corner_radius=0.1, width=text.width + 0.5, height=text.height + 0.35,
                                     stroke_color=self.theme["muted"], stroke_width=2, fill_color=self.theme["panel"],
                                     fill_opacity=1)
            return VGroup(frame, text.move_to(frame)).move_to(centre)

        compare = box(["dot products", "scaling", "softmax"], [-0.75, y_top, 0])
        shown = round_rows_to_one(p.attention, self.dec)
        a_tiles = Tiles(n, n, heat_fill(shown, self.theme), self.theme, cell_w=min(0.24, 1.3 / n), cell_h=th)
        a_tiles.move_to([2.35, y_top, 0])
        a_name = label("A", "label", self.theme["accent"], weight="BOLD")
        centre_on_baseline(a_name, a_tiles.get_top() + UP * 0.3)
        mixing = box(["mixing", "A·V"], [2.35, y_bot, 0])
        out_tiles = Tiles(n, d, role_fill(p.output, self.theme["output"]), self.theme, cell_w=tw, cell_h=th)
        out_tiles.move_to([5.35, y_bot, 0])
        out_name = label("output", "label", self.theme["output"], weight="BOLD")
        centre_on_baseline(out_name, out_tiles.get_top() + UP * 0.3)
        arrows = [
            arrow([qk_frame.get_right()[0], y_top, 0], compare.get_left(), self.theme["muted"]),
            arrow(compare.get_right(), a_tiles.get_left(), self.theme["muted"]),
            arrow(a_tiles.get_bottom(), mixing.get_top(), self.theme["muted"]),
            arrow(target["V"].get_right(), mixing.get_left(), self.theme["muted"]),
            arrow(mixing.get_right(), out_tiles.get_left(), self.theme["muted"]),
        ]
        self.play(Create(qk_frame), FadeIn(learned), FadeIn(fixed), Create(divider), run_time=TIME.fade)
        self.play(GrowArrow(arrows[0]), FadeIn(compare), run_time=TIME.fade)
        self.play(GrowArrow(arrows[1]), FadeIn(a_tiles), FadeIn(a_name), run_time=TIME.fade)
        self.play(GrowArrow(arrows[2]), GrowArrow(arrows[3]), FadeIn(mixing), run_time=TIME.fade)
        self.play(GrowArrow(arrows[4]), FadeIn(out_tiles), FadeIn(out_name), run_time=TIME.fade)
        self.note = self.say("The mechanism stays fixed: dot products, scaling, softmax, mixing.", self.note)
        self.play(FadeIn(compare_note), FadeIn(pass_note), run_time=TIME.fade)
        self.note = self.say("What a model learns are the projections W_Q, W_K and W_V.", self.note)
        self.a_tiles = a_tiles
        self.diagram = VGroup(
            qk_frame, compare_note, pass_note, learned, fixed, divider, compare, a_name, mixing, out_tiles, out_name,
            *arrows, *target.values(), *names.values(),
        )

    # -- section 3 ------------------------------------------------------------------------
    def _pattern_words(self, big: Grid, small: Grid) -> str:
        """The focus row in both maps: where it now looks most, and what that word got before."""
        ctx = self.ctx(0)
        f = ctx.focus_index
        shown = round_rows_to_one(ctx.projected.attention, self.dec)
        j = int(np.argmax(shown[f]))
        who = "itself" if j == f else f"“{ctx.tokens[j]}”"
        if isinstance(big, NumberGrid) and isinstance(small, NumberGrid):
            text = f"“{ctx.focus}” now gives {big.entry(f, j).text} to {who}, against {small.entry(f, j).text} before."
        else:
            text = f"In the row of “{ctx.focus}”, the most attention now goes to {who}."
        return text + " A new pattern, but untrained weights make it arbitrary."

    def new_pattern(self) -> None:
        ctx = self.ctx(0)
        n = ctx.n
        rows_w = label_width(ctx.tokens, "label") + 0.2
        # Big map (learned projections) and small map (simplified) share their rows.
        room = self.content.width - rows_w - 0.9
        need_big = number_cell_width(ctx.projected.attention, self.dec, "cell") + 0.06
        need_small = number_cell_width(ctx.attention, self.dec, "small")
        (big_w, big_nums), (small_w, small_nums) = fit_row([need_big, need_small], [n, n], room, 0.0, give_up=[1, 0])
        if not small_nums:
            small_w = min(0.4, room / n - big_w) if big_nums else small_w
        if big_nums:  # spare room widens the big map (up to a quarter), so word labels fit above it
            big_w = max(big_w, min(need_big * 1.25, room / n - small_w))
        overhead = 0.8 + max(column_labels_height(ctx.tokens, big_w), column_labels_height(ctx.tokens, small_w))
        ch = min(0.55, max(0.3, (self.content.height - overhead) / n))
        big = trace_grid(self.trace, "projected.attention", self.dec, self.theme, heat=True, numbers=big_nums,
                         cell_w=big_w, cell_h=ch, row_labels=ctx.tokens)
        small = trace_grid(self.trace, "attention", self.dec, self.theme, heat=True, numbers=small_nums,
                           cell_w=small_w, cell_h=ch, size="small")
        small.next_to(big.body(), RIGHT, buff=0.9).align_to(big.body(), UP)
        big_cols = column_labels(big, ctx.tokens, self.theme)
        small_cols = column_labels(small, ctx.tokens, self.theme)
        maps = VGroup(big, small, big_cols, small_cols)
        title_big = label("with learned projections", "label", self.theme["accent"])
        title_small = label("simplified, Q = K = X", "label", self.theme["muted"])
        cap_y = max(big_cols.get_top()[1], small_cols.get_top()[1]) + 0.3
        # Centre everything in the content box (maps first, then titles above their columns).
        maps_top = cap_y + 0.2
        group_h = maps_top - maps.get_bottom()[1]
        dy = (self.content.top - (self.content.height - group_h) / 2) - maps_top
        dx = -(maps.get_left()[0] + maps.get_right()[0]) / 2
        maps.shift([dx, dy, 0])
        cap_y += dy
        centre_on_baseline(title_big, [big.body().get_center()[0], cap_y, 0])
        centre_on_baseline(title_small, [small.body().get_center()[0], cap_y, 0])
        if title_small.get_left()[0] < title_big.get_right()[0] + 0.2:
            title_small.shift(RIGHT * (title_big.get_right()[0] + 0.2 - title_small.get_left()[0]))
        if title_small.get_right()[0] > self.content.right:
            title_small.shift(LEFT * (title_small.get_right()[0] - self.content.right))

        self.narrate(self._pattern_words(big, small))
        self.play(FadeOut(self.diagram), run_time=TIME.fade)
        anims: list[Any] = [ReplacementTransform(self.a_tiles.cells, big.cells), FadeIn(big_cols), FadeIn(title_big)]
        if isinstance(big, NumberGrid):
            anims.append(FadeIn(big.row_labels))
        self.play(*anims, run_time=TIME.transform)
        if isinstance(big, NumberGrid):
            self.play(FadeIn(big.entries), run_time=TIME.fade)
        self.remove(big.cells, big.entries, big.row_labels)
        self.add(big)
        self.hold(n)
        self.play(FadeIn(small, shift=LEFT * 0.3), FadeIn(small_cols), FadeIn(title_small), run_time=TIME.transform)
        f = ctx.focus_index
        boxes = VGroup(
            SurroundingRectangle(big.row(f), color=self.theme["accent"], buff=0.03),
            SurroundingRectangle(small.row(f), color=self.theme["accent"], buff=0.03),
        )
        self.play(Create(boxes), run_time=TIME.fade)
        self.note = self.say("Same mechanism, new projections: a new pattern of who attends to whom.", self.note)
        self.hold()

