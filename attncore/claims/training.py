"""The claims on how the weights are learned: the loss, the focus row at training's snapshots,
and the trained row against the simplified one.
"""

from __future__ import annotations

from typing import Any

from ..display import fmt, said, shown_value
from ..i18n import N_, _, ngettext
from ..lexicon import LEXICON, measure, spec
from ..trace import LessonTrace, trace_row
from ..training import ATTENTION_CLAIM
from .model import Claim, share_of
from .wording import SHARE_WORDS, and_at, focus_words, has_history, movement, quote, quoted_list, senses_of


def _loss(trace: LessonTrace) -> list[Claim]:
    t, dec = trace.training, trace.decimals
    if t is None or not has_history(trace):
        return []
    falls = bool(t.loss[-1] < t.loss[0])
    steps = ngettext("Then {n} step of Adam.", "Then {n} steps of Adam.", t.steps).format(n=fmt(t.steps, 0))
    if t.rounding_steps:
        # Translators: {more} is a number of further steps of Adam
        steps = ngettext("Then {n} step of Adam, and {more} more so that the rounded weights still answer right.",
                         "Then {n} steps of Adam, and {more} more so that the rounded weights still answer right.",
                         t.steps).format(n=fmt(t.steps, 0), more=fmt(t.rounding_steps, 0))
    args, values = {"falls": falls, "steps": t.steps}, {"first": float(t.loss[0]), "last": float(t.loss[-1])}
    sec = "The loss, step by step"
    loss = (_("The loss, how far the answers are from the right senses, falls from {first} to {last}.") if falls else
            _("The loss, how far the answers are from the right senses, goes from {first} to {last}."))
    return [Claim("LearningTheWeights", sec, "loss_falls", args, values, steps),
            Claim("LearningTheWeights", sec, "loss_falls", args, values,
                  loss.format(first=said(t.loss[0], dec), last=said(t.loss[-1], dec))),
            Claim("LearningTheWeights", sec, "loss_falls", args, values,
                  _("The loss falls as the weights change; the dots mark the steps shown next.") if falls else
                  _("The loss does not fall as the weights change; the dots mark the steps shown next."), "caption")]


def _row_moves(trace: LessonTrace) -> list[Claim]:
    t, dec, sec = trace.training, trace.decimals, "The attention row moves"
    if t is None or not has_history(trace):
        return []
    k = len(t.snapshot_steps) - 1
    path = [f"snapshot:{i}" for i in range(k + 1)]
    ctxs = [c for c in range(len(trace.contexts)) if senses_of(trace, c)]
    if not ctxs:
        rows = [[tuple(fmt(x, dec) for x in trace_row(trace, c, s, ctx.focus_index)) for s in (path[0], path[-1])]
                for c, ctx in enumerate(trace.contexts)]
        moved = [c for c, (a, b) in enumerate(rows) if a != b]
        same = {"stage": path[0], "other": path[-1]}
        return [Claim("LearningTheWeights", sec, "same_row", {**same, "contexts": moved, "same": False}, {},
                      _("The row changes as the weights change."), "caption") if moved else
                Claim("LearningTheWeights", sec, "same_row", {**same, "contexts": list(range(len(rows))), "same": True},
                      {}, _("The row stays as it was."), "caption")]
    if not t.attention_trained:  # W_Q and W_K set by hand: the rows cannot move; say so, not "from 0.9 to 0.9"
        fixed: dict[str, Any] = {"stage": path[0], "other": path[-1], "contexts": list(range(len(trace.contexts))),
                                 "same": True}
        return [Claim("LearningTheWeights", sec, "same_row", fixed, {},
                      _("W_Q and W_K are set by hand and do not learn, so the row stays as it was at every step.")),
                Claim("LearningTheWeights", sec, "same_row", fixed, {}, _("The row stays as it was."), "caption")]
    out, ups, steady = [], [], True
    for c in ctxs:
        f, cols = trace.contexts[c].focus_index, senses_of(trace, c)
        vals = [share_of(trace_row(trace, c, s, f), cols, dec, "shown") for s in path]
        ups.append(movement(vals[0], vals[-1]))
        steady = steady and all(shown_value(y, dec) >= shown_value(x, dec) for x, y in zip(vals, vals[1:]))
        who = quoted_list([trace.contexts[c].tokens[j] for j in cols])
        out.append(Claim("LearningTheWeights", sec, "change",
                         {"contexts": [c], "columns": [cols], "from": path[0], "to": path[-1], "parts": "shown",
                          "change": [ups[-1]]}, {"first": vals[0], "last": vals[-1]},
                         # Translators: a fragment: the focus word's share of attention on the words of its sense
                         (_("on {words} from {first} to {last}") if ups[-1] != "stays" else
                          # Translators: a fragment like "on “cat” from 0.2 to 0.6", when the share shown did not move
                          _("on {words} not at all ({first})")).format(words=who, first=fmt(vals[0], dec),
                                                                        last=fmt(vals[-1], dec))))
    whos = [quoted_list([trace.contexts[c].tokens[j] for j in senses_of(trace, c)]) for c in ctxs]
    focus = focus_words(trace)
    if all(u == "rises" for u in ups) and _several_words(trace, ctxs):
        # groups of several words joined by "and at" read as one list (issue 24): said by what they are
        text = (_("Step by step, {focus} looks more and more at the words of its sense.") if steady
                else _("By the last step, {focus} looks at the words of its sense more than at first."))
        text = text.format(focus=focus)
    elif all(u == "rises" for u in ups):
        # Translators: {words} lists the groups of words, e.g. "“cat” and at “mouse”" (see the next message)
        text = (_("Step by step, {focus} looks more and more at {words}.") if steady
                else _("By the last step, {focus} looks at {words} more than at first.")).format(
            focus=focus, words=and_at(whos))
    else:
        # Translators: {changes} lists "more at “cat”", "no more at “mouse”" (the next messages), joined by commas
        text = _("Step by step, {focus} looks {changes}.").format(focus=focus, changes=", ".join(
            (_("more at {words}") if u == "rises" else _("no more at {words}")).format(words=w) for u, w in zip(ups,
                                                                                                                whos)))
    args = {"contexts": ctxs, "columns": [senses_of(trace, c) for c in ctxs], "from": path[0], "to": path[-1],
            "through": path, "parts": "shown", "change": ups, "steady": steady and all(u == "rises" for u in ups)}
    return [*out, Claim("LearningTheWeights", sec, "change", args, {}, text, "caption")]


def _several_words(trace: LessonTrace, ctxs: list[int]) -> bool:
    """Whether the sense of some context of ``ctxs`` is told by more than one word."""
    return any(len(senses_of(trace, c)) > 1 for c in ctxs)


def _verdict(trace: LessonTrace) -> list[Claim]:
    t, dec, sec = trace.training, trace.decimals, "Trained row against the simplified one"
    if t is None or not has_history(trace):
        return []
    out, m = [], len(trace.contexts)
    ctxs = [c for c in range(m) if trace.contexts[c].context.leans is not None and senses_of(trace, c)]
    several = len({x.focus for x in trace.contexts}) > 1
    for n, c in enumerate(ctxs):
        ctx, cols = trace.contexts[c], senses_of(trace, c)
        f = ctx.focus_index
        was, now = (share_of(trace_row(trace, c, s, f), cols, dec) for s in ("attention", "projected_attention"))
        fields = {"focus": quote(ctx.focus), "now": fmt(now, dec), "words": quoted_list([ctx.tokens[j] for j in cols]),
                  "was": said(was, dec)}
        if n == 0:
            text = _("{focus} gives {now} to {words}, against {was} in the simplified step").format(**fields)
        elif several:
            text = _("{focus} gives {now} to {words}, against {was}").format(**fields)
        else:
            # Translators: a fragment that follows "“mouse” gives 0.71 to “cat”, against 0.40 in the simplified step"
            text = _("{now} to {words}, against {was}").format(**fields)
        out.append(Claim("LearningTheWeights", sec, "change",
                         {"contexts": [c], "columns": [cols], "from": "attention", "to": "projected_attention",
                          "change": [movement(shown_value(was, dec), shown_value(now, dec))]},
                         {"simplified": was, "trained": now}, text))
    if not t.claims_hold:
        return out + [Claim("LearningTheWeights", sec, "learned", {"holds": False}, {},
                            _("Training did not get there: {reason}.").format(reason=t.reason))]
    where = spec("share", contexts=ctxs, columns=[senses_of(trace, c) for c in ctxs], stage="projected_attention")
    shares = measure(where, trace)
    # the calibrated word every context's share fits ("almost all", "at least half"), else "most of"
    phrase = next((p for p in ("almost all", "at least half", "most of") if all(LEXICON[p].fits(x) for x in shares)),
                  None)
    least = SHARE_WORDS.get(ATTENTION_CLAIM, "most")
    amount = phrase if phrase is not None and phrase != "at least half" else f"at least {least}"  # a key of _AMOUNTS
    args = {"contexts": ctxs, "columns": [senses_of(trace, c) for c in ctxs], "stage": "projected_attention",
            "least": ATTENTION_CLAIM, "above": "attention", "words": {phrase: where} if phrase else {}}
    groups = [quoted_list([trace.contexts[c].tokens[j] for j in senses_of(trace, c)]) for c in ctxs]
    if amount not in _AMOUNTS:  # ATTENTION_CLAIM is 0.5: "at least half"; another share needs its sentences
        raise ValueError(f"no sentences for {amount!r}: add them to _AMOUNTS")
    said_amount, trained_one, trained_each, trained_one_sense, trained_each_sense = _AMOUNTS[amount]
    if not t.attention_trained:  # W_Q and W_K set by hand: the row is theirs, not training's
        caption = _(_HAND_SET[amount][several]).format(focus=focus_words(trace))
    elif len(ctxs) > 2 or _several_words(trace, ctxs):
        # three groups, or groups of several words, joined by "and" read as one list of words in one
        # sentence ("to “white” and “fish” and “steel” and “beams”", issue 24): the sense words,
        # outlined on screen in each sentence, are named by what they are
        caption = _(trained_each_sense if several else trained_one_sense).format(focus=focus_words(trace))
    else:
        words = groups[0] if len(groups) == 1 else _("{words} and {more}").format(words=groups[0], more=groups[1])
        caption = _(trained_each if several else trained_one).format(focus=focus_words(trace), words=words)
    return out + [Claim("LearningTheWeights", sec, "share", args, {}, _(said_amount)),
                  Claim("LearningTheWeights", sec, "share", args, {}, caption, "caption")]


#: What the trained focus word gives its sense words, by the amount said (the calibrated phrase
#: or "at least" the share training asks for): said; the caption for one focus word, for each;
#: the same when the sense words are "the words of its sense".
_AMOUNTS = {
    "almost all": (
        N_("Almost all of its attention, and more sharply than before."),
        N_("Trained, {focus} gives almost all of its attention to {words}."),
        N_("Trained, each focus word gives almost all of its attention to {words}."),
        N_("Trained, {focus} gives almost all of its attention to the words of its sense."),
        N_("Trained, each focus word gives almost all of its attention to the words of its sense.")),
    "at least half": (
        N_("At least half of its attention, and more sharply than before."),
        N_("Trained, {focus} gives at least half of its attention to {words}."),
        N_("Trained, each focus word gives at least half of its attention to {words}."),
        N_("Trained, {focus} gives at least half of its attention to the words of its sense."),
        N_("Trained, each focus word gives at least half of its attention to the words of its sense.")),
    "most of": (
        N_("Most of its attention, and more sharply than before."),
        N_("Trained, {focus} gives most of its attention to {words}."),
        N_("Trained, each focus word gives most of its attention to {words}."),
        N_("Trained, {focus} gives most of its attention to the words of its sense."),
        N_("Trained, each focus word gives most of its attention to the words of its sense.")),
}

#: The caption when W_Q and W_K were set by hand (only W_V and W_O trained), for one focus word and
#: for each: the row the sense words get is the hand-set projections', not training's.
_HAND_SET = {
    "almost all": (
        N_("With W_Q and W_K set by hand, {focus} gives almost all of its attention to the words of its sense."),
        N_(
            "With W_Q and W_K set by hand, each focus word gives almost all of its attention to the words of its sense."
        ),
    ),
    "at least half": (
        N_("With W_Q and W_K set by hand, {focus} gives at least half of its attention to the words of its sense."),
        N_(
            "With W_Q and W_K set by hand, each focus word gives at least half of its attention to the words of its "
            "sense."
        ),
    ),
    "most of": (
        N_("With W_Q and W_K set by hand, {focus} gives most of its attention to the words of its sense."),
        N_("With W_Q and W_K set by hand, each focus word gives most of its attention to the words of its sense."),
    ),
}


def training_claims(trace: LessonTrace) -> list[Claim]:
    return _loss(trace) + _row_moves(trace) + _verdict(trace)
