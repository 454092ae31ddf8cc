"""How the weights are learned: a task, a falling loss, an attention row that moves.

After this scene the viewer knows where the projection weights of the next steps come
from. They are trained on one question the lesson itself asks: *which sense does the
focus word have in this sentence?* ("mouse" next to "cat", "mouse" next to "keyboard").
The answer is read off the focus word's output (the dimension where it is largest);
the loss says how far that guess is from the right sense, and it falls as training
changes W_Q, W_K, W_V and W_O. While it falls, the focus word's attention row moves
toward the word that carries the sense, and ends sharper than in the simplified step.
When the lesson's weights were not trained (or W_Q and W_K were set by hand), the scene says
so plainly and shows the simplified row and the row of the weights used.

Shows from the attncore trace: ``trace.training.task``, a few ``training.examples``;
the curve of ``training.loss`` with its first and last values and ``snapshot_steps``;
the focus row at every snapshot, ``training.snapshots[c]``; the focus row of the simplified
``attention`` and of ``projected.attention`` per context;
the share of attention on the words that carry the sense, ``training.claims[i].simple``
and ``.trained``; ``claims_hold`` and ``reason`` decide what is said;
``trace.weights.provenance`` as its own text element.
"""

from __future__ import annotations

from manim import (
    DOWN,
    RIGHT,
    Create,
    FadeIn,
    GrowArrow,
    LaggedStart,
    Text,
    VGroup,
    Write,
)

from attncore import TrainingTrace
from attncore.claims import SHARE_WORDS
from attncore.i18n import N_, _, list_of, pgettext
from attncore.training import ATTENTION_CLAIM, asked_words
from scenes.base import LessonScene
from scenes.layout import DRIFT, SMALL_BUFF
from scenes.steps.training_layout import (
    DOT_POP,
    compare_layout,
    focus_words,
    history,
    history_layout,
    loss_layout,
    quoted_words,
    sense_positions,
    shortfall,
    task_layout,
)
from scenes.theme import LAG, TIME


# -- the scene ------------------------------------------------------------------------------
class LearningTheWeights(LessonScene):
    TITLE = N_("How the weights are learned")
    STAGE = 5
    FORMULA = 'p = "softmax"("output")'
    #: The loss compares the prediction p with the right sense (KL divergence, 0 when right).
    LOSS_FORMULA = '"loss" = "KL"("target" parallel p)'
    SECTIONS = (
        (N_("Which sense is it?"), "the_task"),
        (N_("The loss, step by step"), "the_loss"),
        (N_("The attention row moves"), "row_moves"),
        (N_("Trained row against the simplified one"), "trained_vs_simplified"),
    )

    # -- 1 ------------------------------------------------------------------------------
    def _task_words(self) -> str:
        t = history(self.trace)
        labelled = [c for c, ctx in enumerate(self.trace.contexts) if ctx.context.leans is not None]
        # Translators: {sense} is a dimension name of the lesson (e.g. animal), {words} quoted words.
        pairs = [_("{sense} next to {words}").format(
                     sense=self.ctx(c).context.leans,
                     words=quoted_words([self.ctx(c).tokens[j] for j in sense_positions(self.trace, c)]))
                 for c in labelled if sense_positions(self.trace, c)]
        word = asked_words(c.focus for c in self.trace.contexts)  # several: "“café” or “the”", as the task asks
        # Translators: joins alternatives ("animal next to “cat”, or tech next to “keyboard”").
        said = (_("which sense does {word} have here: {choices}?").format(
                    word=word, choices=pgettext("joins alternatives", ", or ").join(pairs))
                if pairs else _("which sense does {word} have here?").format(word=word))
        if t is None:
            # Translators: {question} is a question ending in "?"; {provenance} how the weights were obtained.
            return _("How are weights like these learned? From a question such as {question} "
                     "This lesson's weights were not trained. {provenance}").format(
                         question=said, provenance=self.trace.weights.provenance)
        # Translators: {question} is a question ending in "?".
        return _("How are the weights learned? From a question the lesson asks: {question} "
                 "The answer is where the output is largest. "
                 "Training uses the lesson's own sentences and sentences generated from them.").format(question=said)

    def the_task(self) -> None:
        self.narrate(self._task_words())
        lay = task_layout(self.trace, self.theme, self.content)
        self.play(FadeIn(lay.question, shift=DOWN * DRIFT), run_time=TIME.write)
        for row in lay.rows:
            self.play(FadeIn(row.words), run_time=TIME.fade)
            self.play(GrowArrow(row.to), FadeIn(row.sense, shift=RIGHT * DRIFT), run_time=TIME.fade)
        if len(lay.examples):
            self.play(FadeIn(lay.examples), run_time=TIME.fade)
        if len(lay.note):
            self.play(Write(lay.note), run_time=TIME.write)
        focus = {c.focus for c in self.trace.contexts}
        who = focus_words(self.trace) if len(focus) == 1 else _("the outlined word")
        text = _("The task: which sense does {word} have here?").format(word=who)
        if history(self.trace) is None:
            text = _("These weights were not trained: no task was learned.")
        self.note: Text | None = self.say(text)

    # -- 2 ------------------------------------------------------------------------------
    def _loss_words(self, t: TrainingTrace) -> str:
        """How training starts (W_Q, W_K set by hand: their attention from the first step), then the claim."""
        names = list_of(t.trained) or _("no matrix (all are set by hand)")
        # Translators: {matrices} names weight matrices ("W_Q, W_K and W_V").
        start = (_("Training starts close to the simplified attention, not on it: {matrices} begin as the identity "
                   "plus a little noise.") if t.attention_trained else
                 _("Training does not start from the simplified attention: W_Q and W_K are set by hand and stay so, "
                   "and {matrices} begin as the identity plus a little noise."))
        return start.format(matrices=names) + " " + " ".join(c.text for c in self.claims("loss_falls"))

    def the_loss(self) -> None:
        t = history(self.trace)
        if t is None:
            self.narrate(_("A trained model would lower a loss step by step. "
                           "These weights were not trained, so there is no loss to show."))
            self.note = self.say(_("Not trained: there is no loss curve to show."), self.note)
            return
        self.narrate(self._loss_words(t))
        lay = loss_layout(self.trace, t, self.theme, self.content, self.dec)
        self._clear()
        self.play(self.light_formula("loss", self.LOSS_FORMULA), run_time=TIME.fade)
        self.play(Create(lay.chart.axes), FadeIn(lay.titles), FadeIn(lay.steps), run_time=TIME.fade)
        self.play(FadeIn(lay.values[0]), run_time=TIME.fade)
        self.play(Create(lay.chart.line), run_time=2 * TIME.transform)
        self.play(FadeIn(lay.values[1]), run_time=TIME.fade)
        self.play(
            LaggedStart(*(FadeIn(d, scale=DOT_POP) for d in lay.chart.dots), lag_ratio=LAG.step), run_time=TIME.fade
        )
        self.note = self.say(self.claims("loss_falls", "caption")[0].text, self.note)
        self.loss = lay

    # -- 3 ------------------------------------------------------------------------------
    def _moves_words(self) -> tuple[str, str]:
        """(narration, caption): the claims on the first and last snapshot of every context with sense words."""
        said = [c.text for c in self.claims("change")]
        caption = self.claims(where="caption")[0].text
        fixed = self.claims("same_row")  # W_Q and W_K set by hand: the rows do not move
        if not said and fixed:
            return (_("Each row is where {word} looks at one step of training.").format(word=focus_words(self.trace))
                    + " " + fixed[0].text, caption)
        if not said:
            return (_("Each row is the attention of the focus word at one step of training. "
                      "No other word of these sentences carries the sense, so there is no column to follow."), caption)
        # Translators: {moves} says how the weight on the sense words moves ("to “cat” from 0.2 to 0.6").
        return (_("Each row is where {word} looks at one step of training. Its weight moves {moves}.").format(
                    word=focus_words(self.trace), moves=pgettext("joins clauses", "; and ").join(said)), caption)

    def row_moves(self) -> None:
        t = history(self.trace)
        if t is None:
            self._simplified_only()
            return
        words, caption = self._moves_words()
        self.narrate(words)
        lay = history_layout(self.trace, t, self.theme, self.content, self.dec)
        self._clear()
        self.play(*(FadeIn(w) for w in lay.words), FadeIn(lay.heads), run_time=TIME.fade)
        for i in range(len(t.snapshot_steps)):
            row = [VGroup(g.row(i), g.row_entries(i)) for g in lay.grids]
            self.play(*(FadeIn(r, shift=DOWN * SMALL_BUFF) for r in row), FadeIn(lay.steps[i]), run_time=TIME.fade)
        self.play(*(Create(m) for m in lay.marks), run_time=TIME.fade)
        self.note = self.say(caption, self.note)

    def _simplified_only(self) -> None:
        """Without a history: the simplified row, from which a trained model would start."""
        self.narrate(_("Training would start from the simplified attention of the steps before. "
                       "Here is that row for every sentence."))
        self.compare = compare_layout(self.trace, self.theme, self.content, self.dec, self._learned_name())
        self._clear()
        for b in self.compare.blocks:
            self.play(FadeIn(b.words), FadeIn(b.simple), run_time=TIME.fade)
        self.note = self.say(_("Training would start here, from the simplified attention."), self.note)

    # -- 4 ------------------------------------------------------------------------------
    def _learned_name(self) -> str:
        """What the second row's weights are: trained, set by hand (W_Q, W_K, W_V given) or untrained."""
        t = history(self.trace)  # with W_Q and W_K set by hand (only W_V, W_O trained) the row is theirs
        if t is not None and t.attention_trained:
            return pgettext("weights, as a row label", "trained")
        given = t is not None or all(self.lesson.projections.matrix(nm) is not None for nm in ("W_Q", "W_K", "W_V"))
        return (
            pgettext("weights, as a row label", "set by hand")
            if given
            else pgettext("weights, as a row label", "untrained")
        )

    def _clear(self) -> None:  # the content and the caption out (the next caption comes in on its own)
        self.clear_content()
        self.note = None

    def _verdict(self) -> tuple[str, str]:
        """(narration, caption): the claim when training says it holds, else plainly what happened."""
        t = self.trace.training
        if t is None or history(self.trace) is None:
            caption = _("Not trained: this row is arbitrary.")
            # why was said with the provenance (section 1, translated); attncore's reason is `values`' English
            return (_("These weights were not trained, so the second row is arbitrary. "
                      "The next steps use them as they are."), caption)
        parts = [c.text for c in self.claims("change")]
        after = (
            _("After training, {changes}.") if t.attention_trained else _("With W_Q and W_K set by hand, {changes}.")
        )
        what = after.format(changes=pgettext("joins clauses", "; and ").join(parts)) if parts else ""
        verdict = " ".join(c.text for c in self.claims("share") + self.claims("learned"))
        if t.claims_hold:
            return f"{what} {verdict}", self.claims("share", "caption")[0].text
        least = _(SHARE_WORDS.get(ATTENTION_CLAIM, N_("most")))
        return f"{what} {verdict}", _("Not reached: {why}.").format(why=shortfall(t, least))

    def trained_vs_simplified(self) -> None:
        words, caption = self._verdict()
        self.narrate(words)
        if history(self.trace) is not None:
            self.compare = compare_layout(self.trace, self.theme, self.content, self.dec, self._learned_name())
            self._clear()
            self.play(*(FadeIn(VGroup(b.words, b.simple)) for b in self.compare.blocks), run_time=TIME.fade)
        self.play(*(FadeIn(b.learned, shift=DOWN * SMALL_BUFF) for b in self.compare.blocks), run_time=TIME.transform)
        shares = [b.shares for b in self.compare.blocks if len(b.shares)]
        if shares:
            self.play(FadeIn(self.compare.share_head), *(FadeIn(s) for s in shares), run_time=TIME.fade)
        self.play(*(Create(b.mark) for b in self.compare.blocks), run_time=TIME.fade)
        self.note = self.say(caption, self.note)
        self.hold()
