"""Step 8, the headline: the same word gets a different vector in a different sentence.

After this scene the viewer has seen the whole point of self-attention at a glance: the
focus word (``mouse``) enters every sentence with the *same* input vector, attention
mixes in the words around it, and it leaves with an output that leans toward the
sentence's meaning (``animal`` next to ``cat``, ``tech`` next to ``keyboard``). The
embedding table did not change; only how information was combined.

Shows from the attncore trace, for every context side by side (one to three): the
focus word's ``embeddings`` row (its input) and ``output`` row, as bars on one common
scale; the focus word's ``attention`` row tints the words of its sentence (colour only,
no number).

Layout adapts to the lesson: bars as tall as the room allows; long sentences wrap; in
dense lessons (three contexts, many dimensions) the words get smaller, only the numbers
that fit on one line stay (the largest first) and one shared legend names the dimensions.
"""

from __future__ import annotations

import numpy as np
from manim import (
    DOWN,
    RIGHT,
    UP,
    Create,
    FadeIn,
    GrowArrow,
    LaggedStart,
    RoundedRectangle,
    Square,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
)

from attncore import decimals_needed, fmt
from scenes.base import LessonScene
from scenes.components import (
    ORDINALS,
    Source,
    TokenRow,
    VectorBars,
    arrow,
    boxes_touch,
    grow_bars,
    keep_inside,
    label,
    readable_numbers,
    stagger_levels,
    stagger_names,
    tint_tokens,
    wrap_token_row,
)
from scenes.layout import PANEL_AREA
from scenes.theme import TIME


class TwoContexts(LessonScene):
    TITLE = "8 · Side by side"
    STAGE = 4
    FORMULA = "Output = softmax(X·Xᵀ / √d) · X"
    SECTIONS = (
        ("Same word, same input vector", "same_input"),
        ("Attention mixes in the sentence", "mix_in_context"),
        ("Different contexts, different outputs", "different_outputs"),
    )

    def _layout(self) -> None:
        """Panels, sentences and both bar charts of every context, all on one scale."""
        ctxs = self.trace.contexts
        m = len(ctxs)
        dims = list(self.lesson.dimensions)
        d = len(dims)
        gap = 0.5 if m < 3 else 0.45
        self.col_w = w = min(6.75, (13.96 - (m - 1) * gap) / m)
        xs = [(k - (m - 1) / 2) * (w + gap) for k in range(m)]
        vecs = [c.embeddings[c.focus_index] for c in ctxs] + [c.output[c.focus_index] for c in ctxs]
        max_abs = max(float(np.max(np.abs(v))) for v in vecs)
        dec_x = decimals_needed(np.array([c.embeddings[c.focus_index] for c in ctxs]), self.dec)
        # Columns as wide as the panel allows, keeping room for the numbers of the outer
        # bars, which are wider than their bars when there are many dimensions. Digits are
        # monospaced: the longest text is the widest.
        shown = [fmt(v, dec_x) for c in ctxs for v in c.embeddings[c.focus_index]]
        shown += [fmt(v, self.dec) for c in ctxs for v in c.output[c.focus_index]]
        num_w = label(max(shown, key=len), "small", mono=True).width
        self.pitch = pitch = min(1.1, (w - 0.24) / d, (w - 0.24 - num_w) / (d - 1) if d > 1 else 1.1)
        bar_w, bar_gap = pitch * 0.66, pitch * 0.34

        self.panels, self.sentences, self.inputs, self.outputs, self.names = VGroup(), [], [], [], []
        self.tags: list[VGroup] = []
        name_texts = [[label(nm, "small", self.theme.dim(nm)) for nm in dims] for _ in ctxs]
        levels = stagger_levels([t.width for t in name_texts[0]], [k * pitch for k in range(d)])
        # Crowded names (many dimensions in narrow panels): one shared colour legend under
        # the panels instead of names under every chart.
        self.legend = VGroup()
        if levels > 2:
            for nm in dims:
                swatch = Square(0.2, stroke_width=0, fill_color=self.theme.dim(nm), fill_opacity=1)
                self.legend.add(VGroup(swatch, label(nm, "small", self.theme.dim(nm))).arrange(RIGHT, buff=0.1))
            self.legend.arrange(RIGHT, buff=0.35)
            if self.legend.width > 13.9:
                self.legend.arrange_in_grid(cols=(d + 1) // 2, buff=(0.35, 0.12))
            self.legend.move_to([0, PANEL_AREA.bottom + self.legend.height / 2 + 0.02, 0])
            names_h = 0.0
        else:
            names_h = levels * (name_texts[0][0].height + 0.12) + 0.02
        bottom = PANEL_AREA.bottom + (self.legend.height + 0.15 if len(self.legend) else 0.0)
        band = PANEL_AREA.top - bottom

        def charts(h: float, max_lines: int | None) -> list[tuple[VectorBars, VectorBars]]:
            out = []
            for c, ctx in enumerate(ctxs):
                fi = ctx.focus_index
                pair = (
                    VectorBars(
                        ctx.embeddings[fi], dims, dec_x, lambda k, c=c, fi=fi: Source(c, "embeddings", (fi, k)),
                        self.theme, max_abs=max_abs, height=h, bar_w=bar_w, gap=bar_gap,
                    ),
                    VectorBars(
                        ctx.output[fi], dims, self.dec, lambda k, c=c, fi=fi: Source(c, "output", (fi, k)),
                        self.theme, max_abs=max_abs, height=h, bar_w=bar_w, gap=bar_gap,
                    ),
                )
                for chart in pair:
                    readable_numbers(chart, max_lines=max_lines)
                out.append(pair)
            return out

        def reach(chart: VectorBars) -> tuple[float, float]:
            """How far the chart reaches above and below its baseline."""
            y = chart.baseline.get_y()
            return chart.get_top()[1] - y, y - chart.get_bottom()[1]

        # The tallest bars that fit: numbers and names do not scale with the bars, so
        # measure the built charts and shrink until everything fits in the band. If even
        # short bars do not fit (long sentences in narrow panels), compact the words and
        # the arrow and try again.
        compact = (
            ("label", 0.16, 0.75 if m < 3 else 0.6, 0.6, None),
            ("small", 0.1, 0.45, 0.4, None),
            ("small", 0.1, 0.45, 0.25, 1),  # and only the numbers that fit on one line
        )
        for size, line_buff, arrow_h, h_min, max_lines in compact:
            rows = [
                wrap_token_row(TokenRow(ctx.tokens, self.theme, focus=ctx.focus_index, size=size), w - 0.3, line_buff=line_buff)
                for ctx in ctxs
            ]
            sent_h = max(r.height for r in rows)

            def measure(h: float) -> tuple[float, list[tuple[VectorBars, VectorBars]], tuple[float, ...]]:
                pairs = charts(h, max_lines)  # noqa: B023 (used within this pass of the loop)
                reaches = (max(reach(p[0])[0] for p in pairs), max(reach(p[0])[1] for p in pairs),
                           max(reach(p[1])[0] for p in pairs), max(reach(p[1])[1] for p in pairs))
                total = 0.18 + sent_h + 0.25 + sum(reaches) + arrow_h + names_h + 0.2  # noqa: B023
                return total, pairs, reaches

            # the tallest bars that fit: bisect between h_min and 1.7 (numbers stacked over
            # crowded bars make the height of a chart grow in steps, not in proportion)
            h = 1.7
            total, pairs, reaches = measure(h)
            if total > band + 1e-6:
                lo_h, hi_h = h_min, h
                h = lo_h
                total, pairs, reaches = measure(h)
                if total <= band + 1e-6:
                    for _ in range(6):
                        mid = (lo_h + hi_h) / 2
                        t_mid, p_mid, r_mid = measure(mid)
                        if t_mid <= band + 1e-6:
                            lo_h, (h, total, pairs, reaches) = mid, (mid, t_mid, p_mid, r_mid)
                        else:
                            hi_h = mid
            up_in, down_in, up_out, down_out = reaches
            if total <= band + 1e-6:
                break
        self.bar_h = h
        y_in = PANEL_AREA.top - 0.18 - sent_h - 0.25 - up_in
        y_out = y_in - down_in - arrow_h - up_out
        self.arrow_span = (y_in - down_in - 0.08, y_out + up_out + 0.05)

        # "input" / "output" left of the bars when the panel has room: then the tags and the
        # bars are centred together
        tag_texts = [[label(t, "small", self.theme["muted"]) for t in ("input", "output")] for _ in range(m)]
        tag_w = max(t.width for t in tag_texts[0])
        chart_w = pairs[0][0].width
        with_tags = w - 0.4 >= chart_w + 0.25 + tag_w
        offset = (tag_w + 0.25) / 2 if with_tags else 0.0
        for c in range(m):
            panel = RoundedRectangle(
                corner_radius=0.18, width=w, height=band, stroke_color=self.theme["grid"], stroke_width=1.5,
                fill_color=self.theme["panel"], fill_opacity=0.55,
            ).move_to([xs[c], (PANEL_AREA.top + bottom) / 2, 0])
            row = rows[c].move_to([xs[c], PANEL_AREA.top - 0.18 - sent_h / 2, 0])
            inp, out = pairs[c]
            inp.shift([xs[c] + offset - inp.baseline.get_x(), y_in - inp.baseline.get_y(), 0])
            out.shift([xs[c] + offset - out.baseline.get_x(), y_out - out.baseline.get_y(), 0])
            if len(self.legend):
                names = VGroup()
            else:
                xs_bars = [float(b.get_x()) for b in out.bars]
                names = stagger_names(name_texts[c], xs_bars, y_out - down_out - 0.1, above=False)
                keep_inside(names, panel.get_left()[0] + 0.08, panel.get_right()[0] - 0.08)
            tags = VGroup()
            if with_tags:
                for chart, tag in zip((inp, out), tag_texts[c]):
                    tag.move_to([chart.get_left()[0] - 0.25 - tag_w / 2, chart.baseline.get_y() + h * 0.5, 0])
                    tags.add(tag)
            self.tags.append(tags)
            self.panels.add(panel)
            self.sentences.append(row)
            self.inputs.append(inp)
            self.outputs.append(out)
            self.names.append(names)
        self.y_in, self.y_out = y_in, y_out

    def _outline(self, inside: VGroup, colour: str) -> SurroundingRectangle:
        # inside its column when it can; around a number wider than the column (many
        # dimensions in a narrow panel) still clear of the digits
        buff = max(0.04, min(0.08, (self.pitch - inside.width) / 2 - 0.01))
        return SurroundingRectangle(inside, color=colour, buff=buff, corner_radius=0.08, stroke_width=4)

    # -- 1 -------------------------------------------------------------------------------
    def _who(self) -> str:
        """The focus word, quoted, when every context shares it (it should)."""
        focus = {c.focus for c in self.trace.contexts}
        return f"“{self.ctx(0).focus}”" if len(focus) == 1 else "the focus word"

    def _where(self, c: int) -> str:
        """Which panel: "in the first sentence", then "in the second" ... ("in its sentence" when alone)."""
        if len(self.trace.contexts) == 1:
            return "in its sentence"
        return f"in the {ORDINALS[c] if c < len(ORDINALS) else 'next'}" + (" sentence" if c == 0 else "")

    def same_input(self) -> None:
        self._layout()
        ctxs = self.trace.contexts
        where = "In each sentence" if len(ctxs) > 1 else "In its sentence"
        self.narrate(
            f"Now the sentences side by side. {where}, {self._who()} starts from exactly the same vector: "
            "the embedding table does not depend on the sentence."
        )
        self.play(FadeIn(self.panels), run_time=TIME.fade)
        self.play(
            LaggedStart(*(FadeIn(r, shift=DOWN * 0.2) for r in self.sentences), lag_ratio=0.3), run_time=TIME.write
        )
        self.play(
            *(FadeIn(v.baseline) for v in self.inputs),
            *(grow_bars(v) for v in self.inputs),
            *(FadeIn(v.nums, shift=UP * 0.1) for v in self.inputs),
            *(FadeIn(t[0]) for t in self.tags if len(t)),
            run_time=TIME.transform,
        )
        self.hold(len(ctxs) * len(self.lesson.dimensions))
        # "=" between neighbouring panels when the focus word's input is the same (it should be).
        self.equals = VGroup()
        for c in range(len(ctxs) - 1):
            a = ctxs[c].embeddings[ctxs[c].focus_index]
            b = ctxs[c + 1].embeddings[ctxs[c + 1].focus_index]
            sign = "=" if np.array_equal(a, b) else "≠"
            x = (self.panels[c].get_right()[0] + self.panels[c + 1].get_left()[0]) / 2
            self.equals.add(label(sign, "formula", self.theme["text"]).move_to([x, self.y_in + self.bar_h * 0.5, 0]))
        if len(self.equals):
            self.play(LaggedStart(*(FadeIn(e, scale=1.4) for e in self.equals), lag_ratio=0.2), run_time=TIME.fade)
        where = "In every sentence" if len(ctxs) > 1 else "In its sentence"
        self.note = self.say(f"{where}, {self._who()} starts from the same embedding vector.")

    # -- 2 -------------------------------------------------------------------------------
    def mix_in_context(self) -> None:
        ctxs = self.trace.contexts
        looks = []
        for c, ctx in enumerate(ctxs):
            fi, a = ctx.focus_index, ctx.attention[ctx.focus_index]
            others = [j for j in range(ctx.n) if j != fi]
            if others:
                j = max(others, key=lambda j: a[j])
                looks.append(f"“{ctx.tokens[j]}” {self._where(c)}")
        lit = ", ".join(looks[:-1]) + (" and " if len(looks) > 1 else "") + looks[-1] if looks else "its neighbours"
        self.narrate(
            f"Attention lights up the words that matter to {self._who()}: besides itself, mostly {lit}. "
            "Their vectors flow into the output."
        )
        self.arrows, self.arrow_labels = VGroup(), VGroup()
        for c in range(len(ctxs)):
            x = self.inputs[c].baseline.get_x()
            top, bottom = self.arrow_span
            arr = arrow([x, top, 0], [x, bottom, 0], self.theme["accent"], buff=0)
            tag = label("attention", "small", self.theme["accent"]).next_to(arr, RIGHT, buff=0.15)
            self.arrows.add(arr)
            self.arrow_labels.add(tag)
        # The words light up by how much the focus word attends to them ...
        tints = [a for c, ctx in enumerate(ctxs) for a in tint_tokens(self.sentences[c], ctx.attention[ctx.focus_index], self.theme)]
        self.play(*tints, run_time=TIME.transform)
        self.note = self.say(f"Each sentence lights up where {self._who()} looks.", self.note)
        # ... and the input flows through attention into the output.
        self.play(
            *(GrowArrow(a) for a in self.arrows), *(FadeIn(t) for t in self.arrow_labels), run_time=TIME.fade
        )
        self.play(
            *(TransformFromCopy(self.inputs[c].bars, self.outputs[c].bars) for c in range(len(ctxs))),
            *(TransformFromCopy(self.inputs[c].baseline, self.outputs[c].baseline) for c in range(len(ctxs))),
            run_time=TIME.transform * 1.3,
        )
        self.play(
            *(FadeIn(o.nums, shift=UP * 0.1) for o in self.outputs), *(FadeIn(n) for n in self.names if len(n)),
            *([FadeIn(self.legend)] if len(self.legend) else []),
            *(FadeIn(t[1]) for t in self.tags if len(t) > 1),
            run_time=TIME.fade,
        )
        self.hold(len(ctxs) * len(self.lesson.dimensions))
        self.note = self.say("Attention mixes in the vectors of the words it looks at.", self.note)

    # -- 3 -------------------------------------------------------------------------------
    def different_outputs(self) -> None:
        ctxs = self.trace.contexts
        dims = list(self.lesson.dimensions)
        leans = []
        for c, ctx in enumerate(ctxs):
            out = ctx.output[ctx.focus_index]
            k = int(np.argmax(out))
            leans.append(f"{self._where(c)} it leans {dims[k]}, at {fmt(out[k], self.dec)}")
        said = "; ".join(leans)
        self.narrate(
            f"So the outputs of {self._who()} differ: {said[0].lower() + said[1:]}. "
            "The embedding table did not change; only how the information was combined."
        )
        bare, named, strokes, winners = [], [], [], []
        for c, ctx in enumerate(ctxs):
            out = ctx.output[ctx.focus_index]
            k = int(np.argmax(out))
            winners.append(dims[k])
            colour = self.theme.dim(dims[k])
            o = self.outputs[c]
            inside = VGroup(o.bars[k], *(x for x in o.nums if x.source.index[-1] == k))
            bare.append(self._outline(inside, colour))
            # The name joins the outline only if it is no wider than its column and the
            # outline then keeps clear of the neighbours' names (a long one such as
            # "grammar" reaches into the next column).
            fits = len(self.names[c]) > 0 and self.names[c][k].width <= self.pitch - 0.1
            with_name = self._outline(VGroup(*inside, self.names[c][k]), colour) if fits else None
            others = [nm for j, nm in enumerate(self.names[c]) if j != k]
            clear = with_name is not None and not any(boxes_touch(with_name, nm, 0.06) for nm in others)
            named.append(with_name if clear else None)
            strokes.append(self.panels[c].animate.set_stroke(colour, width=3.5))
        # the same outline in every panel: with the names only where all of them can have it
        marks = VGroup(*(named if all(m is not None for m in named) else bare))
        self.unequal = VGroup()
        for c in range(len(ctxs) - 1):
            if winners[c] != winners[c + 1]:
                x = (self.panels[c].get_right()[0] + self.panels[c + 1].get_left()[0]) / 2
                self.unequal.add(label("≠", "formula", self.theme["text"]).move_to([x, self.y_out + self.bar_h * 0.5, 0]))
        self.play(*(Create(mk) for mk in marks), *strokes, run_time=TIME.transform)
        if len(self.unequal):
            self.play(LaggedStart(*(FadeIn(e, scale=1.4) for e in self.unequal), lag_ratio=0.2), run_time=TIME.fade)
        if len(set(winners)) == 1:
            text = f"Same input, and here every output leans {winners[0]}."
        elif len(winners) == 2:
            text = f"Same input, different outputs: {winners[0]}-like here, {winners[1]}-like there."
        else:
            text = "Same input, different outputs: " + ", ".join(f"{w}-like" for w in winners) + "."
        self.note = self.say(text, self.note)
        self.note = self.say("The embedding table did not change, only how information was combined.", self.note)
        self.hold()

