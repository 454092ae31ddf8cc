"""Multi-head attention: several heads, each in its own d/h columns, in parallel.

After this scene the viewer knows that multi-head attention splits the columns of Q, K
and V into h blocks of d/h, runs the same attention in every block at the same time (one
attention matrix per head, each with its own pattern), joins the heads' outputs side by
side and mixes them with W_O. Closing thought: attention mixes information across words
and reshapes the space it lives in.

Shows from the attncore trace, context 0: ``projected.Q``/``K``/``V`` (shapes; drawn as
tiles coloured by head when their numbers do not fit), ``multi_head.heads.k.attention``
for every head k, ``multi_head.heads.k.output``,
``multi_head.concat``, ``multi_head.W_O`` and ``multi_head.output`` with their shapes.
"""

from __future__ import annotations

from typing import Any

from manim import (
    LEFT,
    Create,
    FadeIn,
    FadeOut,
    LaggedStart,
    ReplacementTransform,
    TransformFromCopy,
    VGroup,
)

from attncore.i18n import N_, _, quoted
from scenes.base import LessonScene
from scenes.components import (
    row_transfer,
)
from scenes.layout import DRIFT
from scenes.steps.multi_head_layout import (
    Heads,
    Joined,
    Split,
    heads_layout,
    joined_layout,
    n_heads,
    split_layout,
)
from scenes.theme import LAG, TIME

# -- pacing ----------------------------------------------------------------------------------
#: lag_ratio of Q, K, V coming in and of the head bars.
BLOCK_LAG, BAR_LAG = 0.25, LAG.step

class MultiHead(LessonScene):
    TITLE = N_("Multi-head attention")
    STAGE = 6
    FORMULA = '"MultiHead"(X) = "concat"("heads") W_O'
    SECTIONS = (
        (N_("Split into heads"), "split_into_heads"),
        (N_("One attention per head, in parallel"), "attention_per_head"),
        (N_("Concatenate and project"), "concat_and_project"),
    )

    split: Split
    heads: Heads

    @property
    def h(self) -> int:
        return n_heads(self.ctx(0))

    # -- section 1 ------------------------------------------------------------------------
    def _split_words(self) -> str:
        """What splitting into heads means, for one head or several."""
        if self.h > 1:
            return _("Multi-head attention splits Q, K and V by columns: "
                     "each head gets its own smaller subspace of d over h dimensions.")
        return _("Multi-head attention splits Q, K and V by columns, one block per head. "
                 "With a single head, the block is all d columns.")

    def split_into_heads(self) -> None:
        self.narrate(self._split_words())
        lay = split_layout(self.trace, self.theme, self.content, self.dec)
        self.play(LaggedStart(*(FadeIn(b) for b in lay.blocks), lag_ratio=BLOCK_LAG), run_time=TIME.write)
        self.note = self.say(_("The same Q, K and V as before, one row per word."))
        self.play(LaggedStart(*(Create(b) for b in lay.bars), lag_ratio=BAR_LAG), FadeIn(lay.legend),
                  run_time=TIME.transform)
        self.note = self.say(_("Each head takes its own block of columns: h heads, d/h columns each."), self.note)
        self.split = lay

    # -- section 2 ------------------------------------------------------------------------
    def attention_per_head(self) -> None:
        lay = heads_layout(self.trace, self.theme, self.content, self.dec)
        self.narrate(self._per_head_words())
        self._shrink_to_strip(lay)
        self._heads_in_parallel(lay)
        self.hold(self.ctx(0).n * self.h)
        self.note = self.say(
            _("Every head runs the same attention in its own columns, all at the same time."), self.note
        )
        if self.h > 1:
            self.note = self.say(self.claims("heads_differ", "caption")[0].text, self.note)
        else:
            self.note = self.say(_("With one head, this is the attention of the learned projections."), self.note)
        self.heads = lay

    def _shrink_to_strip(self, lay: Heads) -> None:
        """Q, K, V move up into the strip; their big versions and labels leave."""
        blocks = self.split.blocks
        self.play(
            *(ReplacementTransform(b.grid.cells, s.tiles.cells) for b, s in zip(blocks, lay.small)),
            *(FadeIn(s.name) for s in lay.small),
            *(FadeOut(VGroup(b.labels(), b.grid.entries)) for b in blocks),
            *(FadeOut(b.grid.row_labels) for b in blocks[:1]),
            FadeOut(self.split.bars), FadeOut(self.split.legend),
            run_time=TIME.transform,
        )
        self.remove(*blocks, *(s.tiles.cells for s in lay.small))
        self.add(lay.strip)

    def _heads_in_parallel(self, lay: Heads) -> None:
        """Every head at once: its Q and K column blocks become its attention matrix."""
        d_h = self.ctx(0).d // self.h
        q_small, k_small = lay.small[0].tiles, lay.small[1].tiles
        anims: list[Any] = []
        for k, g in enumerate(lay.maps):
            block = VGroup(*(q_small.column(j) for j in range(k * d_h, (k + 1) * d_h)),
                           *(k_small.column(j) for j in range(k * d_h, (k + 1) * d_h)))
            anims.append(TransformFromCopy(block, g.cells))
        self.play(*anims, *(FadeIn(t) for t in lay.titles), run_time=TIME.transform)
        self.play(
            *(FadeIn(VGroup(g.entries, c)) for g, c in zip(lay.maps, lay.cols)),
            FadeIn(lay.maps[0].row_labels), *(Create(f) for f in lay.frames), FadeIn(lay.readouts),
            run_time=TIME.fade,
        )
        self.remove(*(g.cells for g in lay.maps), *(g.entries for g in lay.maps), lay.maps[0].row_labels)
        self.add(*lay.maps)
        self.bring_to_front(lay.readouts)  # the focus row's outline over the tiles

    def _per_head_words(self) -> str:
        """Every head in parallel; what the focus word finds in each head (the claims)."""
        ctx = self.ctx(0)
        learned = self._learned_heads_words()
        if learned:
            return _("All heads run the same attention in parallel, each in its own subspace.") + " " + learned
        if self.h == 1:
            return _("The single head runs attention on all the columns: "
                     "with one head, this is the attention of the learned projections.")
        first, second = (c.text for c in self.claims("largest"))
        # Translators: {first} and {second} say where the first and the second head look most.
        return (_("All heads run the same attention in parallel, each in its own subspace.") + " "
                + _("In the row of {word}, each head finds its own pattern: {first}, {second}.").format(
                    word=quoted(ctx.focus), first=first, second=second))

    def _learned_heads_words(self) -> str:
        """With trained weights whose claims hold: what each head learned (the claims), from its focus row as shown."""
        said = [c.text for c in self.claims() if c.kind in ("share", "spread")]
        if not said:
            return ""
        text = "; ".join(said) if self.h > 1 else said[0]
        # Translators: {findings} says what each head learned to find.
        return _("In the row of {word}, {findings}.").format(word=quoted(self.ctx(0).focus), findings=text)

    # -- section 3 ------------------------------------------------------------------------
    def _joined_words(self) -> str:
        """Joining the heads and mixing them with W_O; the closing thought."""
        joined = (
            _("Each head mixes its own columns of V. The outputs are concatenated, back to d columns, "
              "and one more weight matrix, W_O, mixes the heads.")
            if self.h > 1 else
            _("The head mixes the columns of V. With one head there is nothing to join, "
              "but one more weight matrix, W_O, still mixes the result.")
        )
        return joined + " " + _("Attention mixes information across words, and reshapes the space it lives in.")

    def concat_and_project(self) -> None:
        self.narrate(self._joined_words())
        lay = joined_layout(self.trace, self.theme, self.content, self.dec)
        self.play(FadeOut(self.heads.strip), FadeOut(self.heads.extras()), run_time=TIME.fade)
        self.play(*(ReplacementTransform(m, o.grid) for m, o in zip(self.heads.maps, lay.outs)),
                  *(FadeIn(o.labels()) for o in lay.outs), run_time=TIME.transform)
        self.note = self.say(_("Each head mixes its own d/h columns of V: an output of size d/h."), self.note)
        self._join(lay)
        self.note = self.say(_("Side by side, the head outputs form one matrix of size n×d again."), self.note)
        self.play(FadeIn(lay.dot), FadeIn(lay.w_o, shift=LEFT * DRIFT), run_time=TIME.fade)
        self.play(FadeIn(lay.eq), row_transfer(lay.concat.grid, lay.output.grid), FadeIn(lay.output.labels()))
        self.hold(self.ctx(0).n * self.ctx(0).d // 2)
        self.note = self.say(
            _("Attention mixes information across words and reshapes the space it lives in."), self.note
        )
        self.hold()

    def _join(self, lay: Joined) -> None:
        """The heads' outputs slide together into one n×d matrix, concat."""
        concat, outs = lay.concat, lay.outs
        self.play(
            ReplacementTransform(VGroup(*(o.grid.cells for o in outs)), concat.grid.cells),
            FadeOut(VGroup(*(o.grid.entries for o in outs))),
            FadeIn(concat.grid.row_labels),
            ReplacementTransform(VGroup(*(o.labels() for o in outs)), concat.labels()),
            run_time=TIME.transform,
        )
        self.remove(*outs, concat.grid.cells, concat.grid.row_labels, concat.labels())
        self.add(concat)
