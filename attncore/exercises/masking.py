"""The exercise on the causal mask: which words it hides from a row.

Each builder works as :mod:`attncore.exercises.common` says.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..i18n import _, pgettext
from ..trace import LessonTrace
from . import common
from .model import Choice, Exercise, Work, choices


def _words(tokens: Sequence[str], positions: Sequence[int]) -> str:
    # Translators: a word of the sentence and its position in it, "“cat” (2)".
    named = [_("{word} ({position})").format(word=common.q(tokens[p]), position=p + 1) for p in positions]
    return common.names_text(named) or pgettext("no words", "none")


def causal_mask(trace: LessonTrace, cand: tuple[int, ...], rng: random.Random, number: int) -> Exercise | None:
    c, i = cand
    ct = trace.contexts[c]
    n, toks = ct.n, ct.tokens
    hidden = list(range(i + 1, n))
    wrong = [("hid the words before it", list(range(i))), ("hid the word itself too", list(range(i, n))),
             ("hid nothing", []), ("hid every other word", [p for p in range(n) if p != i])]
    options = choices(rng, Choice(_words(toks, hidden)), [Choice(_words(toks, s), _(m)) for m, s in wrong])
    if options is None:
        return None
    prompt = _(
        "In {sentence}, under the causal mask, which words does {word} (word {i}) not see? "
        "(Words by their position from 1.)"
    ).format(sentence=common.sentence_text(ct), word=common.q(toks[i]), i=i + 1)
    work = [Work(_("A word sees itself and the words before it: the mask sets the scores of the words after it "
                   "to −∞, and exp(−∞) = 0, so their weights are 0.")),
            Work(_("{word} is word {i} of {n}: hidden are {words}.").format(word=common.q(toks[i]), i=i + 1, n=n,
                                                                            words=_words(toks, hidden)))]
    return common.make_exercise("causal_mask", number, c, {"row": i, "hidden": hidden}, prompt,
                     [_("the sentence, word by word: {words}").format(words=_words(toks, range(n)))],
                     _words(toks, hidden), None, 0, work, options)
