"""Side by side, the headline: the same word gets a different vector in a different sentence.

After this scene the viewer has seen the whole point of self-attention at a glance: the focus
word (``mouse``) enters every sentence with the *same* input vector, attention mixes in the
words around it, and it leaves with an output that leans toward the sentence's meaning
(``animal`` next to ``cat``, ``tech`` next to ``keyboard``). The embedding table did not change.

Shows from the attncore trace, for every context side by side (one to three): the focus
word's ``embeddings`` row (its input) and ``output`` row, as bars on one common scale; its
``attention`` row tints the words of its sentence (colour only, no number).

Layout adapts: bars as tall as the room allows; long sentences wrap; in dense lessons the words
get smaller and only the numbers that fit on one line stay; one legend names the dimensions
when their names would not keep one line under the bars.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from manim import (
    DOWN,
    UP,
    Create,
    FadeIn,
    GrowArrow,
    LaggedStart,
    Text,
    TransformFromCopy,
    VGroup,
)

from attncore.i18n import N_, _, list_of, quoted
from scenes.base import LessonScene
from scenes.components import (
    arrow,
    grow_bars,
    tint_tokens,
)
from scenes.layout import (
    DRIFT,
    SMALL_BUFF,
)
from scenes.steps.two_contexts_layout import (
    WINNER_STROKE,
    Board,
    arrow_tag,
    board,
    sign_between,
    winners,
)
from scenes.theme import LAG, TIME

# -- pacing --------------------------------------------------------------------------------
#: How far numbers rise.
RISE = SMALL_BUFF
#: lag_ratio of the sentences; of the "=" and "≠" between panels, which pop in at POP.
SENTENCE_LAG, SIGN_LAG, POP = LAG.slow, LAG.step, 1.4
#: The input bars flowing into the outputs take a little longer than a transform.
SLOW = 1.3


# --- the scene ----------------------------------------------------------------------------
class TwoContexts(LessonScene):
    TITLE = N_("Side by side")
    STAGE = 4
    FORMULA = r'"Output" = "softmax"(X X^T \/ sqrt(d)) X'
    SECTIONS = (
        (N_("Same word, same input vector"), "same_input"),
        (N_("Attention mixes in the sentence"), "mix_in_context"),
        (N_("Different contexts, different outputs"), "different_outputs"),
    )

    board: Board
    note: Text

    # -- 1 -------------------------------------------------------------------------------
    def _who(self) -> str:
        """The focus word, quoted, when every context shares it (it should)."""
        focus = {c.focus for c in self.trace.contexts}
        return quoted(self.ctx(0).focus) if len(focus) == 1 else _("the focus word")

    def same_input(self) -> None:
        ctxs = self.trace.contexts
        self.board = b = board(ctxs, list(self.lesson.dimensions), self.theme, self.dec)
        same = self.claim("same_vector")  # only when every sentence has the same focus word
        # Translators: {same} is a sentence about the focus word's input vector (or "Each focus word starts from its
        # own row").
        self.narrate(
            _("Now the sentences side by side. {same}: the embedding table does not depend on the sentence.").format(
                same=same.text if same else _("Each focus word starts from its own row")
            )
        )
        self.play(FadeIn(VGroup(*(p.box for p in b.panels))), run_time=TIME.fade)
        self.play(
            LaggedStart(*(FadeIn(p.sentence, shift=DOWN * DRIFT) for p in b.panels), lag_ratio=SENTENCE_LAG),
            run_time=TIME.write,
        )
        self.play(
            *(FadeIn(p.input.baseline) for p in b.panels),
            *(grow_bars(p.input) for p in b.panels),
            *(FadeIn(p.input.nums, shift=UP * RISE) for p in b.panels),
            *(FadeIn(p.input_tag) for p in b.panels if p.input_tag is not None),
            run_time=TIME.transform,
        )
        self.hold(len(ctxs) * len(self.lesson.dimensions))
        # "=" between neighbouring panels when the focus word's input is the same (it should be).
        y = b.y_in + b.bar_h / 2
        inputs = [ctx.embeddings[ctx.focus_index] for ctx in ctxs]
        equals = [sign_between(b, c, "=" if np.array_equal(u, v) else "≠", y, self.theme)
                  for c, (u, v) in enumerate(zip(inputs, inputs[1:]))]
        if equals:
            self.play(LaggedStart(*(FadeIn(e, scale=POP) for e in equals), lag_ratio=SIGN_LAG), run_time=TIME.fade)
        same = self.claim("same_vector", "caption")
        self.note = self.say(same.text if same else _("Each focus word starts from its row of the embedding table."))

    # -- 2 -------------------------------------------------------------------------------
    def mix_in_context(self) -> None:
        ctxs, b = self.trace.contexts, self.board
        looks = [c.text for c in self.claims("largest")]  # per sentence, the other word it attends to most
        lit = list_of(looks) if looks else _("its neighbours")
        # Translators: {who} is the quoted focus word (or "the focus word"); {lit} says which words it looks at most.
        self.narrate(_("Attention lights up the words that matter to {who}: besides itself, it looks most at {lit}. "
                       "Their vectors flow into the output.").format(who=self._who(), lit=lit))
        top, bottom = b.arrow_span
        arrows = [arrow([p.input.baseline.get_x(), top, 0], [p.input.baseline.get_x(), bottom, 0],
                        self.theme["accent"], buff=0) for p in b.panels]
        arrow_tags = [arrow_tag(_("attention"), a, p.box, self.theme) for a, p in zip(arrows, b.panels)]
        # The words light up by how much the focus word attends to them ...
        tints: list[Any] = [t for p, ctx in zip(b.panels, ctxs)
                            for t in tint_tokens(p.sentence, ctx.attention[ctx.focus_index], self.theme)]
        self.play(*tints, run_time=TIME.transform)
        self.note = self.say(_("Each sentence lights up where {who} looks.").format(who=self._who()), self.note)
        # ... and the input flows through attention into the output.
        self.play(*(GrowArrow(a) for a in arrows), *(FadeIn(t) for t in arrow_tags), run_time=TIME.fade)
        self.play(
            *(TransformFromCopy(p.input.bars, p.output.bars) for p in b.panels),
            *(TransformFromCopy(p.input.baseline, p.output.baseline) for p in b.panels),
            run_time=TIME.transform * SLOW,
        )
        self.play(
            *(FadeIn(p.output.nums, shift=UP * RISE) for p in b.panels),
            *(FadeIn(p.names) for p in b.panels if len(p.names)),
            *([FadeIn(b.legend)] if len(b.legend) else []),
            *(FadeIn(p.output_tag) for p in b.panels if p.output_tag is not None),
            run_time=TIME.fade,
        )
        self.hold(len(ctxs) * len(self.lesson.dimensions))
        self.note = self.say(_("Attention mixes in the vectors of the words it looks at."), self.note)

    # -- 3 -------------------------------------------------------------------------------
    def different_outputs(self) -> None:
        ctxs, b = self.trace.contexts, self.board
        dims = list(self.lesson.dimensions)
        differ = self.claim("differ")  # whether the outputs shown differ (two sentences or more)
        said = "; ".join(c.text for c in self.claims("leans"))  # per sentence: where its output is largest
        # Translators: {differ} says whether the outputs differ (or "Look at the output of ..."); {leans} where each
        # leans.
        self.narrate(
            _("{differ}: {leans}. The embedding table did not change; only how the information was combined.").format(
                differ=differ.text if differ else _("Look at the output of {who}").format(who=self._who()), leans=said
            )
        )
        won = winners(b, ctxs, dims, self.theme)
        strokes = [p.box.animate.set_stroke(colour, width=WINNER_STROKE) for p, colour in zip(b.panels, won.colours)]
        y = b.y_out + b.bar_h / 2
        unequal = [sign_between(b, c, "≠", y, self.theme)
                   for c, (w, v) in enumerate(zip(won.names, won.names[1:])) if w != v]
        self.play(*(Create(mk) for mk in won.marks), *strokes, run_time=TIME.transform)
        if unequal:
            self.play(LaggedStart(*(FadeIn(e, scale=POP) for e in unequal), lag_ratio=SIGN_LAG), run_time=TIME.fade)
        self.note = self.say(self.claims("leans", "caption")[0].text, self.note)
        self.note = self.say(_("The embedding table did not change, only how information was combined."), self.note)
        self.hold()
