"""Mixing the values: ``Output = A·V``, with ``V = X`` for now.

After this scene the viewer knows what attention *does* with its weights: the focus
word's output is a weighted sum of the value vectors of its sentence (each word's vector
times how much the focus word attends to it, then added up, dimension by dimension), so
the output of ``mouse`` is its own vector plus a share of the vectors it attends to, a
weighted average of the inputs.

Shows from the attncore trace (first context): the focus word's ``attention`` row
(each weight as ``fmt`` rounds it), ``embeddings`` (V = X), ``weighted_values(i)``
(the terms ``A[i, j] · V[j]``) and the ``output`` row of the focus word.

Layout adapts to the lesson: when V and the terms cannot both stand side by side at a
readable size (many dimensions, long numbers), each row of V turns into its weighted row
in place; the bar charts of the last section shrink until they fit.
"""

from __future__ import annotations

from typing import cast

import numpy as np
from manim import (
    Animation,
    AnimationGroup,
    Create,
    FadeIn,
    FadeOut,
    FadeTransform,
    LaggedStart,
    ReplacementTransform,
    SurroundingRectangle,
    TransformFromCopy,
    VGroup,
    Write,
)

from attncore import decimals_needed, fmt, round_matrix
from attncore.i18n import N_, _, pgettext, quoted
from scenes.base import LessonScene
from scenes.components import (
    grow_bars,
)
from scenes.steps.mixing_layout import (
    MARK_BUFF,
    SLIDING_OPACITY,
    RecipeInput,
    equation_layout,
    fitted_recipe,
    focus_strip,
    sum_marks,
)
from scenes.theme import LAG, TIME

# -- pacing: factors of TIME's durations, lags of LaggedStart -----------------------------------
#: The weights fly from the row into the column; the values come in row after row.
ACROSS = 1.5
#: Many pieces move at once (every column's terms, the parts of the recipe).
MANY = 1.3
#: The other rows are multiplied one after the other.
ROW_BY_ROW = 1.6



# -- the scene ---------------------------------------------------------------------------------
class MixingValues(LessonScene):
    TITLE = N_("Mixing the values")
    STAGE = 4
    FORMULA = '"Output" = A V'
    SECTIONS = (
        (N_("Weights and value vectors"), "weights_and_values"),
        (N_("Weight times vector"), "weight_times_vector"),
        (N_("Adding them up"), "adding_up"),
        (N_("Its own vector plus its neighbours'"), "own_plus_neighbours"),
    )

    # -- 1 -------------------------------------------------------------------------------
    def weights_and_values(self) -> None:
        ctx = self.ctx(0)
        n, fi = ctx.n, ctx.focus_index
        self.narrate(_("Now the weights are used. The row of {word} becomes a column: one weight per word. "
                       "Next to it are the values, for now just the embeddings.").format(word=quoted(ctx.tokens[fi])))
        strip = focus_strip(ctx, round_matrix(ctx.attention, self.dec), self.theme, self.dec)
        self.eq = eq = equation_layout(ctx, list(self.lesson.dimensions), self.theme, self.dec)
        self.play(FadeIn(strip), run_time=TIME.write)
        self.note = self.say(
            _("The weights: the row of {word} in the attention matrix.").format(word=quoted(ctx.tokens[fi]))
        )

        # ... turns into a column, one weight per word, beside the value vectors.
        self.play(
            *(ReplacementTransform(strip.entry(0, j), eq.weights.entry(j, 0)) for j in range(n)),
            *(ReplacementTransform(strip.cell(0, j), eq.weights.cell(j, 0)) for j in range(n)),
            *(ReplacementTransform(strip.col_labels[j], eq.weights.row_labels[j]) for j in range(n)),
            FadeOut(strip.row_labels), FadeIn(eq.h_weight),
            run_time=TIME.transform * ACROSS,
        )
        self.play(
            FadeIn(eq.values.cells), Write(eq.v_names), FadeIn(eq.h_value), FadeIn(eq.times),
            LaggedStart(*(FadeIn(eq.values.row_entries(j)) for j in range(n)), lag_ratio=LAG.item),
            run_time=TIME.write * ACROSS,
        )
        self.note = self.say(_("The values: for now V = X, each word's own vector."), self.note)

    # -- 2 -------------------------------------------------------------------------------
    def weight_times_vector(self) -> None:
        ctx, eq = self.ctx(0), self.eq
        n, fi = ctx.n, ctx.focus_index
        said = self.claims()  # the largest weight ("keeps most" when over a half), then the tiny ones if any
        j0 = said[0].args["column"]
        # Translators: {facts} are one or more clauses on the weights, separated by semicolons.
        self.narrate(_("Multiply each vector by its weight. {facts}.").format(
            facts=pgettext("clause separator", "; ").join(c.text for c in said)))
        if eq.in_place:
            # no room for both: each row of V turns into its weighted row where it stands
            self.play(ReplacementTransform(eq.h_value, eq.h_terms), run_time=TIME.fade)
            self.add(eq.terms.cells)
            self.remove(eq.values.cells)
        else:
            self.play(
                FadeIn(eq.equals), FadeIn(eq.terms.cells), Write(eq.t_names), FadeIn(eq.h_terms),
                run_time=TIME.fade,
            )

        def product(j: int) -> Animation:
            if eq.in_place:
                return ReplacementTransform(VGroup(eq.weights.entry(j, 0).copy(), eq.values.row_entries(j)),
                                            eq.terms.row_entries(j))
            return TransformFromCopy(VGroup(eq.weights.entry(j, 0), eq.values.row_entries(j)), eq.terms.row_entries(j))

        # The biggest weight's row first, its parts outlined; then the others together.
        marks = VGroup(
            SurroundingRectangle(eq.weights.cell(j0, 0), color=self.theme["accent"], buff=MARK_BUFF),
            SurroundingRectangle(eq.values.row(j0), color=self.theme["accent"], buff=MARK_BUFF),
        )
        if not eq.in_place:
            marks.add(SurroundingRectangle(eq.terms.row(j0), color=self.theme["accent"], buff=MARK_BUFF))
        self.play(Create(marks[0]), Create(marks[1]), run_time=TIME.fade)
        self.play(product(j0), *(Create(m) for m in marks[2:]), run_time=TIME.transform)
        self.note = self.say(
            _("Each word's vector, scaled by how much {word} attends to it.").format(word=quoted(ctx.tokens[fi])),
            self.note,
        )
        rest = [j for j in range(n) if j != j0]
        self.play(FadeOut(marks), LaggedStart(*(product(j) for j in rest), lag_ratio=LAG.step),
                  run_time=TIME.transform * ROW_BY_ROW)
        self.hold(len(rest) * ctx.d)

    # -- 3 -------------------------------------------------------------------------------
    def adding_up(self) -> None:
        ctx, eq = self.ctx(0), self.eq
        n, d, fi = ctx.n, ctx.d, ctx.focus_index
        dims = self.lesson.dimensions
        out = ctx.output[fi]
        k1, k2 = sorted(range(d), key=lambda k: -out[k])[:2] if d > 1 else (0, 0)
        template = (_("Then add the rows, dimension by dimension. The result is the output of {word}: "
                      "{value} in {dimension}.") if k2 == k1 else
                    _("Then add the rows, dimension by dimension. The result is the output of {word}: "
                      "{value} in {dimension} and {value2} in {dimension2}."))
        self.narrate(template.format(word=quoted(ctx.tokens[fi]), value=fmt(out[k1], self.dec), dimension=dims[k1],
                                     value2=fmt(out[k2], self.dec), dimension2=dims[k2]))
        self.sum = marks = sum_marks(eq, ctx.tokens[fi], self.theme)
        self.play(Create(marks.rule), FadeIn(marks.plus), FadeIn(eq.out.cells), FadeIn(marks.out_name),
                  run_time=TIME.fade)
        # Each column's terms slide down into the output cell, then merge into their sum.
        copies = [VGroup(*(eq.terms.entry(j, k).copy() for j in range(n))) for k in range(d)]
        self.play(
            LaggedStart(
                *(AnimationGroup(*(cast(Animation, c.animate.move_to(eq.out.cell(0, k)).set_opacity(SLIDING_OPACITY))
                                   for c in copies[k])) for k in range(d)),
                lag_ratio=LAG.step,
            ),
            run_time=TIME.transform * MANY,
        )
        self.play(*(FadeTransform(copies[k], eq.out.entry(0, k)) for k in range(d)), run_time=TIME.transform)
        self.remove(*copies)
        self.hold(d)
        self.note = self.say(
            _("Add the rows, dimension by dimension: the output of {word}.").format(word=quoted(ctx.tokens[fi])),
            self.note,
        )

    # -- 4 -------------------------------------------------------------------------------
    def _recipe_input(self) -> RecipeInput:
        """The focus word and the other word it attends to most (when there is one)."""
        ctx = self.ctx(0)
        fi, w = ctx.focus_index, self.eq.shown
        # the other word it attends to most, as the claim of the section names it
        rows = [fi] + [c.args["column"] for c in self.claims("largest", section="Its own vector plus its neighbours'")]
        max_abs = max(float(np.max(np.abs(v))) for v in [*(ctx.embeddings[j] for j in rows), ctx.output[fi]])
        return RecipeInput(ctx, list(self.lesson.dimensions), rows, w, max_abs, self.dec,
                           decimals_needed(ctx.embeddings, self.dec))

    def own_plus_neighbours(self) -> None:
        ctx, eq = self.ctx(0), self.eq
        n, fi, w = ctx.n, ctx.focus_index, eq.shown
        inp = self._recipe_input()
        rows = inp.rows
        said = self.claims()  # own vector plus the other word it attends to most; "a little of the rest" if small
        recipe_words = (pgettext("list separator", ", ").join(c.text for c in said) if said
                        else _("{weight} times its own vector").format(weight=fmt(w[fi], self.dec)))
        if n > len(rows) and not self.claims("small_weights"):
            # Translators: {recipe} lists what the output is made of ("0.6 times its own vector, 0.3 times ...").
            self.narrate(_("In short: {recipe}, plus the rest. Each output is a weighted average of the input vectors.")
                         .format(recipe=recipe_words))
        else:
            self.narrate(_("In short: {recipe}. Each output is a weighted average of the input vectors.")
                         .format(recipe=recipe_words))

        # Left: "w × word [bars]" for the focus word and the word it attends to most
        # (then "+ …" for the rest); right: "= [bars]" of the output.
        rec = fitted_recipe(inp, self.theme)
        charts = [t.bars for t in rec.terms]

        # The weights and value rows used fly into the new picture; the rest fades.
        gone = VGroup(eq.weights.cells, eq.weights.row_labels, eq.terms, eq.times, VGroup(self.sum.rule, self.sum.plus))
        gone.add(eq.h_weight, eq.h_terms, eq.out.cells, self.sum.out_name, eq.v_names)
        gone.add(*(eq.weights.entry(j, 0) for j in range(n) if j not in rows))
        if eq.in_place:
            moves: list[Animation] = [FadeIn(t.bars.nums) for t in rec.terms]
        else:
            gone.add(eq.values.cells, eq.equals, eq.h_value, eq.t_names)
            gone.add(*(eq.values.row_entries(j) for j in range(n) if j not in rows))
            moves = [ReplacementTransform(eq.values.row_entries(j), t.bars.nums) for t, j in zip(rec.terms, rows)]
        self.play(
            FadeOut(gone), *moves,
            *(ReplacementTransform(eq.weights.entry(j, 0), t.weight) for t, j in zip(rec.terms, rows)),
            ReplacementTransform(eq.out.entries, rec.out_bars.nums),
            run_time=TIME.transform * MANY,
        )
        self.play(
            *(FadeIn(t.signs()) for t in rec.terms),
            *(FadeIn(t.names) for t in rec.terms),
            *(FadeIn(c.baseline) for c in (*charts, rec.out_bars)),
            *(grow_bars(c) for c in (*charts, rec.out_bars)),
            FadeIn(rec.eq),
            FadeIn(rec.out_names),
            FadeIn(rec.out_cap),
            *([FadeIn(rec.rest)] if rec.rest is not None else []),
            run_time=TIME.transform * MANY,
        )
        self.hold(ctx.d)
        self.note = self.say(_("The output of {word} = its own vector plus the vectors it attends to.").format(
            word=quoted(ctx.tokens[fi])), self.note)
        self.note = self.say(_("Each output is a weighted average of the input vectors."), self.note)

        self.hold()
