"""Learned projections: Q = X·W_Q, K = X·W_K, V = X·W_V.

After this scene the viewer knows that the attention mechanism itself (dot products,
scaling, softmax, mixing) never changes: what a model learns are three matrices that
project every word before attention. Q and K decide what is compared, V decides what is
passed on. The viewer also knows how *these* weights were obtained (the provenance line)
and sees that new projections give a new attention pattern.

Shows from the attncore trace, context 0: ``embeddings`` (X), ``projected.W_Q``,
``projected.W_K``, ``projected.W_V`` and the products ``projected.Q``, ``projected.K``,
``projected.V`` with their shapes; ``projected.attention`` next to the simplified
``attention``; ``trace.weights.provenance`` as its own text element.
"""

from __future__ import annotations

from typing import Any

from manim import (
    LEFT,
    Create,
    FadeIn,
    FadeOut,
    GrowArrow,
    Indicate,
    ReplacementTransform,
    VGroup,
    Write,
)

from attncore.i18n import N_, _, list_of, quoted
from attncore.senses import sense_positions
from scenes.base import LessonScene
from scenes.components import (
    MatrixBlock,
    NumberGrid,
    Picture,
    row_outline,
    row_transfer,
)
from scenes.layout import DRIFT
from scenes.steps.projections_layout import (
    INDICATE_SCALE,
    ROLES,
    Diagram,
    Products,
    Sizes,
    diagram_layout,
    maps_layout,
    product_sizes,
    products_layout,
    shelf_item,
)
from scenes.theme import TIME

# -- pacing ----------------------------------------------------------------------------------
#: How far the simplified map drifts as it fades in (W_Q drifts DRIFT).
MAP_DRIFT = 0.3


# --- the scene ---------------------------------------------------------------------------


class LearnedProjections(LessonScene):
    TITLE = N_("Learned projections")
    STAGE = 5
    FORMULA = "Q = X W_Q quad K = X W_K quad V = X W_V"
    SECTIONS = (
        (N_("Queries, keys and values"), "queries_keys_values"),
        (N_("What is learned, what is fixed"), "learned_and_fixed"),
        (N_("A new attention pattern"), "new_pattern"),
    )

    sizes: Sizes
    products: Products
    shelf: dict[str, Picture]
    diagram: Diagram

    # -- section 1 ------------------------------------------------------------------------
    def _provenance_words(self) -> str:
        """How the weights were obtained, said in words (the seed's digits stay on screen)."""
        t = self.trace.training
        if t is not None and not t.examples:  # asked to be trained, but nothing to learn from
            return _("Ours are not trained: no sentence of the lesson states a sense to learn from.")
        if t is not None and t.trained:  # say on what they were trained, and whether it worked
            focus = self.ctx(0).focus
            if not t.claims_hold:
                return _("Ours were trained to tell which sense {word} has, but the training fell short.").format(
                    word=quoted(focus))
            if not t.attention_trained:  # Translators: {matrices} names trained weight matrices ("W_V and W_O")
                return _("W_Q and W_K are set by hand; {matrices} were trained on this lesson's own question: which "
                         "sense {word} has in each sentence.").format(matrices=list_of(t.trained), word=quoted(focus))
            return _(
                "Ours were trained on this lesson's own question: which sense {word} has in each sentence."
            ).format(word=quoted(focus))
        spec = self.lesson.projections
        names = ("W_Q", "W_K", "W_V", "W_V_reshape", "W_O")
        given = [nm for nm in names if spec.matrix(nm) is not None]
        if len(given) == len(names):
            return _("Ours were set by hand in the lesson file, not trained; a real model learns them from data.")
        if given:
            # Translators: {matrices} are names of weight matrices such as "W_Q, W_K".
            return _("Ours are not trained: {matrices} set by hand, the others drawn at random "
                     "from a fixed seed. A real model learns them from data.").format(matrices=", ".join(given))
        return _("Ours are untrained, drawn at random from a fixed seed; a real model learns them from data.")

    def _projection_words(self) -> str:
        """Where queries, keys and values come from now, and how these weights were obtained."""
        # Translators: {provenance} is a sentence or two on how the weights were obtained.
        return _("Queries, keys and values now come from their own weight matrices. {provenance} "
                 "Q is X times W_Q, K is X times W_K, V is X times W_V.").format(provenance=self._provenance_words())

    def queries_keys_values(self) -> None:
        ctx = self.ctx(0)
        self.narrate(self._projection_words())
        self.sizes = product_sizes(ctx, self.theme, self.content, self.dec)
        lay = self.products = products_layout(self.trace, self.theme, self.content, self.sizes, self.dec)
        x_grid, ws, rs = lay.x.grid, lay.ws, lay.rs
        self.play(FadeIn(lay.x), run_time=TIME.fade)
        self.play(FadeIn(ws["Q"], shift=LEFT * DRIFT), FadeIn(lay.dot), Write(lay.provenance), run_time=TIME.write)
        self.hold(ctx.d)
        self.play(Indicate(ws["Q"].grid.body(), color=self.theme["query"], scale_factor=INDICATE_SCALE), FadeIn(lay.eq))
        self.play(row_transfer(x_grid, rs["Q"].grid), FadeIn(rs["Q"].labels()))
        self.note = self.say(_("Queries: Q = X·W_Q, one row per word, what that word is looking for."))
        self.shelf = {}
        captions = {
            "K": _("Keys: K = X·W_K, what each word offers to be matched against."),
            "V": _("Values: V = X·W_V, what each word passes on once it is chosen."),
        }
        for prev, role in (("Q", "K"), ("K", "V")):
            self._to_shelf(prev, rs[prev], ROLES.index(prev), ReplacementTransform(ws[prev], ws[role]))
            self.play(row_transfer(x_grid, rs[role].grid), FadeIn(rs[role].labels()))
            self.note = self.say(captions[role], self.note)

    def _to_shelf(self, role: str, block: MatrixBlock, slot: int, *also: Any) -> None:
        """The finished product shrinks to its tile picture on the shelf (with ``also`` playing)."""
        item = shelf_item(getattr(self.ctx(0).projected, role), role, slot, self.sizes, self.theme, self.content,
                          self.products.shelf_y)
        self.shelf[role] = item
        assert block.title is not None and block.shape is not None and block.sym is not None
        self.play(
            ReplacementTransform(block.grid.cells, item.tiles.cells),
            ReplacementTransform(block.title, item.name),
            FadeOut(VGroup(block.grid.entries, block.shape, block.sym)),
            *also,
            run_time=TIME.transform,
        )
        self.remove(block, item.tiles.cells, item.name)
        self.add(item.group)

    # -- section 2 ------------------------------------------------------------------------
    def _mechanism_words(self) -> str:
        """What stays the same and what is learned."""
        return _("Dot products, scaling, softmax and mixing stay the same. "
                 "What is learned are the projections: Q and K decide what is compared, V what is passed on.")

    def learned_and_fixed(self) -> None:
        self.narrate(self._mechanism_words())
        done = self.products
        self.play(FadeOut(VGroup(done.x, VGroup(done.dot, done.eq), done.ws["V"], done.provenance)), run_time=TIME.fade)
        self._to_shelf("V", done.rs["V"], 2)
        lay = self.diagram = diagram_layout(self.ctx(0), self.theme, self.content, self.dec)
        lr = lay.learned
        self.play(
            *(ReplacementTransform(self.shelf[r].tiles, lr.tiles[r]) for r in ROLES),
            *(ReplacementTransform(self.shelf[r].name, lr.names[r]) for r in ROLES),
            run_time=TIME.transform,
        )
        self.play(Create(lr.frame), *(FadeIn(h) for h in lay.headings), Create(lay.divider), run_time=TIME.fade)
        self.play(GrowArrow(lay.arrows[0]), FadeIn(lay.compare), run_time=TIME.fade)
        self.play(GrowArrow(lay.arrows[1]), FadeIn(lay.a_tiles), FadeIn(lay.a_name), run_time=TIME.fade)
        self.play(GrowArrow(lay.arrows[2]), GrowArrow(lay.arrows[3]), FadeIn(lay.mixing), run_time=TIME.fade)
        self.play(GrowArrow(lay.arrows[4]), FadeIn(lay.out_tiles), FadeIn(lay.out_name), run_time=TIME.fade)
        self.note = self.say(_("The mechanism stays fixed: dot products, scaling, softmax, mixing."), self.note)
        self.play(FadeIn(lr.compare_note), FadeIn(lr.pass_note), run_time=TIME.fade)
        self.note = self.say(_("What a model learns are the projections W_Q, W_K and W_V."), self.note)

    # -- section 3 ------------------------------------------------------------------------
    def _pattern_words(self, numbers: bool) -> str:
        """The focus row in both maps (the claims): where it now looks most, and what that word got before;
        without ``numbers`` on the maps, only where it looks most."""
        said = next(c for c in self.claims() if c.args.get("variant") == ("numbers" if numbers else "tiles"))
        return said.text + "." + self._learned_words(self.claims("largest")[0].args["column"])

    def _learned_words(self, top: int) -> str:
        """What the weights did to the focus row (``top``: where it looks most): learned, fell short, or arbitrary."""
        t, ctx = self.trace.training, self.ctx(0)
        if t is None or not t.trained:
            return " " + _("A new pattern, but untrained weights make it arbitrary.")
        cols = list(sense_positions(self.lesson, ctx.context))
        if not t.claims_hold:
            return " " + _("The training fell short, so read no meaning into it.")
        if not cols:  # this sentence states no sense: the weights learned on the others
            return " " + _("A new pattern, learned on the lesson's other sentences.")
        words = list_of([quoted(ctx.tokens[j]) for j in cols])
        learned = self.claims("learned")[0].text
        if not t.attention_trained:  # W_Q and W_K set by hand: nothing here was learned
            shares = self.claims("share")
            return " " + (_("{learned}: {share}.").format(learned=learned, share=shares[0].text) if shares
                          else learned + ".")
        if cols == [top]:  # its number was just said
            # Translators: {learned} says which matrices learned (e.g. "W_Q and W_K learned"); {words} quoted words.
            return " " + _("{learned} this: {words} is the word that tells the sense of {focus}.").format(
                learned=learned, words=words, focus=quoted(ctx.focus))
        # Translators: {learned} says which matrices learned (e.g. "W_Q and W_K learned"); {share} is a sentence on the
        # weights.
        made = (_("{learned} to make {focus} look at the word that tells its sense: {share}.") if len(cols) == 1 else
                _("{learned} to make {focus} look at the words that tell its sense: {share}."))
        return " " + made.format(learned=learned, focus=quoted(ctx.focus), share=self.claims("share")[0].text)

    def new_pattern(self) -> None:
        ctx = self.ctx(0)
        lay = maps_layout(self.trace, self.theme, self.content, self.dec)
        big = lay.big
        self.narrate(self._pattern_words(isinstance(big, NumberGrid) and isinstance(lay.small, NumberGrid)))
        self.play(FadeOut(self.diagram.everything()), run_time=TIME.fade)
        anims: list[Any] = [ReplacementTransform(self.diagram.a_tiles.cells, big.cells), FadeIn(lay.big_cols),
                            FadeIn(lay.title_big)]
        if isinstance(big, NumberGrid):
            anims.append(FadeIn(big.row_labels))
        self.play(*anims, run_time=TIME.transform)
        if isinstance(big, NumberGrid):
            self.play(FadeIn(big.entries), run_time=TIME.fade)
        self.remove(big.cells, big.entries, big.row_labels)
        self.add(big)
        self.hold(ctx.n)
        self.play(FadeIn(lay.small, shift=LEFT * MAP_DRIFT), FadeIn(lay.small_cols), FadeIn(lay.title_small),
                  run_time=TIME.transform)
        f = ctx.focus_index
        boxes = VGroup(row_outline(big, f, self.theme["accent"]), row_outline(lay.small, f, self.theme["accent"]))
        self.play(Create(boxes), run_time=TIME.fade)
        self.note = self.say(_("Same mechanism, new projections: a new pattern of who attends to whom."), self.note)
        self.hold()
