"""Step 11, multi-head attention: several heads, each in its own d/h columns, in parallel.

After this scene the viewer knows that multi-head attention splits the columns of Q, K
and V into h blocks of d/h, runs the same attention in every block at the same time (one
attention matrix per head, each with its own pattern), joins the heads' outputs side by
side and mixes them with W_O. Closing thought: attention mixes information across words
and reshapes the space it lives in.

Shows from the attncore trace, context 0: ``projected.Q``/``K``/``V`` (shapes; drawn as
tiles coloured by head when their numbers do not fit), ``multi_head.heads.k.attention``
for every head k (rows rounded to one), ``multi_head.heads.k.output``,
``multi_head.concat``, ``multi_head.W_O`` and ``multi_head.output`` with their shapes.
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
    FadeIn,
    FadeOut,
    LaggedStart,
    Line,
    ReplacementTransform,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
)

from attncore import decimals_needed, round_rows_to_one
from scenes.base import LessonScene
from scenes.components import (
    EQ_BUFF,
    Grid,
    MatrixBlock,
    NumberGrid,
    ShapeLabel,
    Source,
    TileFill,
    Tiles,
    arrange_equation,
    centre_on_baseline,
    column_labels,
    column_labels_height,
    fit_numbers,
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

#: Head names without digits (plain labels may not contain any); LIMITS allows 1-4 heads.
HEAD_NAMES = ("first head", "second head", "third head", "fourth head")
ROLES = (("Q", "query"), ("K", "key"), ("V", "value"))


def head_name(k: int, h: int) -> str:
    return "one head" if h == 1 else HEAD_NAMES[k]


class MultiHead(LessonScene):
    TITLE = "11 · Multi-head attention"
    STAGE = 6
    FORMULA = "MultiHead(X) = concat(heads)·W_O"
    SECTIONS = (
        ("Split into heads", "split_into_heads"),
        ("One attention per head, in parallel", "attention_per_head"),
        ("Concatenate and project", "concat_and_project"),
    )

    # -- helpers --------------------------------------------------------------------------
    @property
    def h(self) -> int:
        return len(self.ctx(0).multi_head.heads)

    def _head_of(self, j: int) -> int:
        """The head that owns column j of a (n, d) matrix."""
        return j // (self.ctx(0).d // self.h)

    def _head_fill(self, values: np.ndarray) -> TileFill:
        """Tile fill of a (n, d) matrix whose column blocks take their head's colour."""
        m = float(np.max(np.abs(values))) or 1.0
        return lambda i, j: (self.theme.head(self._head_of(j)), 0.15 + 0.85 * abs(float(values[i, j])) / m)

    def _head_tiles(self, values: np.ndarray, cw: float, ch: float, rows: Sequence[str] | None = None) -> Tiles:
        """A (n, d) matrix as tiles whose column blocks take their head's colour."""
        n_rows, n_cols = values.shape
        return Tiles(n_rows, n_cols, self._head_fill(values), self.theme, cell_w=cw, cell_h=ch, row_labels=rows,
                     label_size="label")

    def _tint_heads(self, grid: NumberGrid) -> None:
        """Tint the column blocks of a numeric (n, d) grid with their head's colour."""
        for i in range(grid.n_rows):
            for j in range(grid.n_cols):
                grid.cell(i, j).set_fill(self.theme.head(self._head_of(j)), opacity=0.28)

    def _head_bars(self, grid: Grid) -> VGroup:
        """A coloured bar under each head's column block."""
        d_h = grid.n_cols // self.h
        y = grid.body().get_bottom()[1] - 0.09
        bars = VGroup()
        for k in range(self.h):
            left = grid.cell(0, k * d_h).get_left()[0] + 0.05
            right = grid.cell(0, (k + 1) * d_h - 1).get_right()[0] - 0.05
            bars.add(Line([left, y, 0], [right, y, 0], color=self.theme.head(k), stroke_width=6))
        return bars

    # -- section 1 ------------------------------------------------------------------------
    def split_into_heads(self) -> None:
        ctx = self.ctx(0)
        p = ctx.projected
        if self.h > 1:
            self.narrate(
                "Multi-head attention splits Q, K and V by columns: "
                "each head gets its own smaller subspace of d over h dimensions."
            )
        else:
            self.narrate(
                "Multi-head attention splits Q, K and V by columns, one block per head. "
                "With a single head, the block is all d columns."
            )
        n, d = ctx.n, ctx.d
        mats = [getattr(p, r) for r, _ in ROLES]
        rows_w = label_width(ctx.tokens, "label") + 0.2
        room = self.content.width
        gaps = 2 * 0.6
        fit = fit_numbers([(np.vstack(mats), self.dec)] * 3, [d] * 3, room, rows_w + gaps, give_up=[2, 1, 0],
                          sizes=("small",))
        numbers = fit.numbers
        items = VGroup()
        for k in range(self.h):
            swatch = Line(LEFT * 0.2, RIGHT * 0.2, color=self.theme.head(k), stroke_width=6)
            name = label(head_name(k, self.h), "label", self.theme.head(k))
            items.add(VGroup(swatch, name).arrange(RIGHT, buff=0.15))
        items.arrange(RIGHT, buff=0.55)
        note = label("each: d/h columns of Q, K and V", "label", self.theme["muted"])
        legend = VGroup(items, note).arrange(RIGHT, buff=0.55)
        if legend.width > room:
            legend.arrange(DOWN, buff=0.15)
        legend_h = legend.height + 0.35
        ch = min(0.45, max(0.28, (self.content.height - 1.2 - legend_h) / n))
        blocks: list[MatrixBlock] = []
        for k, ((role, colour_name), m) in enumerate(zip(ROLES, mats)):
            rows = ctx.tokens if k == 0 else None
            cw = fit[k].width if numbers else min(0.6, (room - rows_w - gaps) / (3 * d))
            grid = trace_grid(self.trace, f"projected.{role}", self.dec, self.theme, numbers=numbers,
                              tiles=self._head_fill(m), cell_w=cw, cell_h=ch, size="small", row_labels=rows)
            if isinstance(grid, NumberGrid):
                self._tint_heads(grid)
            blocks.append(named_block(grid, role, self.theme[colour_name], m.shape, Source(0, f"projected.{role}"),
                                      "n×d", self.theme, outline=False))
        row = arrange_equation(blocks, buff=0.6, shape_gap=0.32)
        row.move_to([0, (self.content.top + self.content.bottom + legend_h) / 2, 0])
        bars = VGroup(*(self._head_bars(b.grid) for b in blocks))
        # Legend under the row: one swatch and name per head, and what each head receives.
        legend.next_to(row, DOWN, buff=0.35)

        self.play(LaggedStart(*(FadeIn(b) for b in blocks), lag_ratio=0.25), run_time=TIME.write)
        self.note = self.say("The same Q, K and V as before, one row per word.")
        self.play(LaggedStart(*(Create(b) for b in bars), lag_ratio=0.2), FadeIn(legend), run_time=TIME.transform)
        self.note = self.say("Each head takes its own block of columns: h heads, d/h columns each.", self.note)
        self.blocks, self.bars, self.legend = blocks, bars, legend

    # -- section 2 ------------------------------------------------------------------------
    def attention_per_head(self) -> None:
        ctx = self.ctx(0)
        n, h = ctx.n, self.h
        d_h = ctx.d // h
        heads = ctx.multi_head.heads
        # A thin strip on top keeps Q, K, V in view; the heat maps fill the rest.
        th = min(0.15, 0.9 / n)
        tw = min(0.22, 1.4 / ctx.d)
        strip = VGroup()
        small: list[Tiles] = []
        for role, colour_name in ROLES:
            m = getattr(ctx.projected, role)
            t = self._head_tiles(m, tw, th)
            name = label(role, "label", self.theme[colour_name], weight="BOLD")
            small.append(t)
            strip.add(VGroup(name, t))
        for item in strip:
            centre_on_baseline(item[0], item[1].get_center()).next_to(item[1], LEFT, buff=0.15, coor_mask=np.array([1, 0, 0]))
        strip.arrange(RIGHT, buff=0.7).move_to([0, self.content.top - strip.height / 2 - 0.05, 0])

        rows_w = label_width(ctx.tokens, "label") + 0.2
        room = self.content.width
        gap = 0.55
        attn = [hd.attention for hd in heads]
        need = number_cell_width(np.vstack(attn), self.dec, "cell")
        fit = fit_numbers([(np.vstack(attn), self.dec)] * h, [n] * h, room, rows_w + gap * (h - 1),
                          give_up=list(range(h)), sizes=("cell",), tile_max=0.6)
        numbers = fit.numbers
        # Spare room widens the cells (up to a quarter), so that word labels fit above them.
        spare = (room - rows_w - gap * (h - 1)) / (n * h)
        cw = min(need * 1.25, spare) if numbers else min(c.width for c in fit.cells)
        top = strip.get_bottom()[1] - 0.4
        ch_min = 0.3  # row labels need it
        ch_guess = min(0.5, max(ch_min, (top - self.content.bottom - 0.7 - column_labels_height(ctx.tokens, cw)) / n))
        maps: list[Grid] = []
        for k in range(h):
            g = trace_grid(self.trace, f"multi_head.heads.{k}.attention", self.dec, self.theme, heat=True,
                           numbers=numbers, cell_w=cw, cell_h=ch_guess, row_labels=ctx.tokens if k == 0 else None,
                           size="cell")
            maps.append(g)
        for k in range(1, h):
            maps[k].next_to(maps[k - 1].body(), RIGHT, buff=gap).align_to(maps[0].body(), UP)
        cols = [column_labels(g, ctx.tokens, self.theme) for g in maps]
        titles = VGroup(*(label(head_name(k, h), "label", self.theme.head(k), weight="BOLD") for k in range(h)))
        grid_all = VGroup(*maps, *cols)
        title_y = grid_all.get_top()[1] + 0.3
        for k, t in enumerate(titles):
            centre_on_baseline(t, [maps[k].body().get_center()[0], title_y, 0])
        everything = VGroup(grid_all, titles)
        everything.shift(RIGHT * -(everything.get_left()[0] + everything.get_right()[0]) / 2)
        everything.shift(UP * ((top + self.content.bottom) / 2 - everything.get_center()[1]))
        frames = VGroup(*(SurroundingRectangle(g.body(), color=self.theme.head(k), buff=0.05) for k, g in enumerate(maps)))
        self.narrate(self._per_head_words(maps))

        # Q, K, V move up into the strip; their big versions and labels leave.
        self.play(
            *(ReplacementTransform(b.grid.cells, s.cells) for b, s in zip(self.blocks, small)),
            *(FadeIn(item[0]) for item in strip),
            *(FadeOut(VGroup(b.labels(), b.grid.entries)) for b in self.blocks),
            *(FadeOut(b.grid.row_labels) for b in self.blocks[:1]),
            FadeOut(self.bars), FadeOut(self.legend),
            run_time=TIME.transform,
        )
        self.remove(*self.blocks, *(s.cells for s in small))
        self.add(strip)
        # Every head at once: its Q and K column blocks become its attention matrix.
        q_small, k_small = small[0], small[1]
        anims: list[Any] = []
        for k in range(h):
            block = VGroup(*(q_small.column(j) for j in range(k * d_h, (k + 1) * d_h)),
                           *(k_small.column(j) for j in range(k * d_h, (k + 1) * d_h)))
            anims.append(TransformFromCopy(block, maps[k].cells))
        self.play(*anims, *(FadeIn(t) for t in titles), run_time=TIME.transform)
        self.play(
            *(FadeIn(VGroup(g.entries, c)) for g, c in zip(maps, cols)),
            FadeIn(maps[0].row_labels), *(Create(f) for f in frames),
            run_time=TIME.fade,
        )
        self.remove(*(g.cells for g in maps), *(g.entries for g in maps), maps[0].row_labels)
        self.add(*maps)
        self.hold(n * h)
        self.note = self.say("Every head runs the same attention in its own columns, all at the same time.", self.note)
        if h > 1:
            self.note = self.say("Different heads, different patterns of who attends to whom.", self.note)
        else:
            self.note = self.say("With one head, this is the attention of the learned projections.", self.note)
        self.strip, self.maps, self.map_extras = strip, maps, VGroup(*cols, titles, frames)

    def _per_head_words(self, maps: Sequence[Grid]) -> str:
        """Every head in parallel; where the focus word looks most in the first two heads."""
        ctx = self.ctx(0)
        f, heads = ctx.focus_index, ctx.multi_head.heads
        if self.h == 1:
            return ("The single head runs attention on all the columns: "
                    "with one head, this is the attention of the learned projections.")
        text = "All heads run the same attention in parallel, each in its own subspace. "
        top: list[tuple[int, str]] = []
        for k in range(2):
            j = int(np.argmax(round_rows_to_one(heads[k].attention, self.dec)[f]))
            top.append((j, maps[k].entry(f, j).text if isinstance(maps[k], NumberGrid) else ""))
        (j0, a0), (j1, a1) = top
        who = ["itself" if j == f else f"“{ctx.tokens[j]}”" for j in (j0, j1)]
        if not (a0 and a1):
            return text + f"In the row of “{ctx.focus}”, each head finds its own pattern."
        if j0 == j1:
            return text + f"“{ctx.focus}” gives {who[0]} {a0} in the {head_name(0, self.h)}, {a1} in the second."
        return text + f"“{ctx.focus}” gives {a0} to {who[0]} in the {head_name(0, self.h)}, {a1} to {who[1]} in the second."

    # -- section 3 ------------------------------------------------------------------------
    def concat_and_project(self) -> None:
        ctx = self.ctx(0)
        joined = (
            "Each head mixes its own columns of V. The outputs are concatenated, back to d columns, "
            "and one more weight matrix, W_O, mixes the heads. "
            if self.h > 1 else
            "The head mixes the columns of V. With one head there is nothing to join, "
            "but one more weight matrix, W_O, still mixes the result. "
        )
        self.narrate(joined + "Attention mixes information across words, and reshapes the space it lives in.")
        mh = ctx.multi_head
        n, d, h = ctx.n, ctx.d, self.h
        dec_o = decimals_needed(mh.W_O, self.dec)
        rows_w = label_width(ctx.tokens, "label") + 0.2
        room = self.content.width
        fixed = rows_w + 2 * (operator("=", self.theme).width + 2 * EQ_BUFF)
        ch = min(0.5, max(0.3, (self.content.height - 1.6) / max(n, d)))
        # Row: concat (head-coloured tiles: its numbers were just shown per head) · W_O = output.
        cw_c = min(0.5, room / (4 * d))
        fit = fit_numbers([(mh.W_O, dec_o), (mh.output, self.dec)], [d, d], room, fixed + d * cw_c, give_up=[0, 1],
                          sizes=("small",))
        concat = self._head_tiles(mh.concat, cw_c, ch, ctx.tokens)
        c_block = MatrixBlock(concat, label("concat", "label", self.theme["text"], weight="BOLD"),
                              ShapeLabel(mh.concat.shape, Source(0, "multi_head.concat")),
                              label("n×d", "small", self.theme["muted"]))
        w_grid = trace_grid(self.trace, "multi_head.W_O", dec_o, self.theme, numbers=fit[0].numbers,
                            tiles=role_fill(mh.W_O, self.theme["weight"], floor=0.15), cell_w=fit[0].width, cell_h=ch,
                            size="small")
        w_block = named_block(w_grid, "W_O", self.theme["weight"], mh.W_O.shape, Source(0, "multi_head.W_O"), "d×d",
                              self.theme)
        out_grid = trace_grid(self.trace, "multi_head.output", self.dec, self.theme, numbers=fit[1].numbers,
                              tiles=self._head_fill(mh.output), cell_w=fit[1].width, cell_h=ch, size="small")
        o_block = named_block(out_grid, "output", self.theme["output"], mh.output.shape, Source(0, "multi_head.output"),
                              "n×d", self.theme)
        dot, eq = operator("·", self.theme), operator("=", self.theme)
        row = arrange_equation([c_block, dot, w_block, eq, o_block])
        factor = min(1.0, room / row.width)
        if factor < 1.0:
            row.scale(factor)
        row.move_to([0, self.content.centre_y + 0.2, 0])

        # Per-head outputs, first where the heat maps were, side by side with a gap.
        outs: list[MatrixBlock] = []
        need_h = number_cell_width(np.vstack([hd.output for hd in mh.heads]), self.dec, "small")
        cw_h = min(need_h, (room - rows_w - 0.5 * (h - 1)) / d)
        for k, hd in enumerate(mh.heads):
            g = trace_grid(self.trace, f"multi_head.heads.{k}.output", self.dec, self.theme, cell_w=cw_h, cell_h=ch,
                           size="small")
            for rect in g.cells:
                rect.set_fill(self.theme.head(k), opacity=0.28)
            outs.append(MatrixBlock(g, label(head_name(k, h), "label", self.theme.head(k), weight="BOLD"),
                                    ShapeLabel(hd.output.shape, Source(0, f"multi_head.heads.{k}.output")),
                                    label("n×d/h", "small", self.theme["muted"])))
        out_row = arrange_equation(outs, buff=0.5)
        out_row.move_to(row).set_x(0)

        self.play(FadeOut(self.strip), FadeOut(self.map_extras), run_time=TIME.fade)
        self.play(*(ReplacementTransform(m, o.grid) for m, o in zip(self.maps, outs)),
                  *(FadeIn(o.labels()) for o in outs), run_time=TIME.transform)
        self.note = self.say("Each head mixes its own d/h columns of V: an output of size d/h.", self.note)
        self.play(
            ReplacementTransform(VGroup(*(o.grid.cells for o in outs)), concat.cells),
            FadeOut(VGroup(*(o.grid.entries for o in outs))),
            FadeIn(concat.row_labels),
            ReplacementTransform(VGroup(*(o.labels() for o in outs)), c_block.labels()),
            run_time=TIME.transform,
        )
        self.remove(*outs, concat.cells, concat.row_labels, c_block.labels())
        self.add(c_block)
        self.note = self.say("Side by side, the head outputs form one matrix of size n×d again.", self.note)
        self.play(FadeIn(dot), FadeIn(w_block, shift=LEFT * 0.2), run_time=TIME.fade)
        self.play(FadeIn(eq), row_transfer(concat, out_grid), FadeIn(o_block.labels()))
        self.hold(n * d // 2)
        self.note = self.say("Attention mixes information across words and reshapes the space it lives in.", self.note)
        self.hold()

