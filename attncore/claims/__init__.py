"""Claims as data: every factual sentence the lecture says or shows, computed from the trace.

A scene never words a fact itself: it asks for the claims of its section and says their
``text``. Each :class:`Claim` names its ``kind`` (one of :data:`KINDS`), the ``args`` that
say what it is about (a context, a word, a dimension...), the exact ``values`` it rests
on, and the ``text`` that says it (numbers through :func:`attncore.display.fmt`). A
statement that does not hold for the lesson is not made: its builder words it otherwise or
leaves it out, and :func:`holds` checks every claim before a scene may use it (one
evaluator per kind).

The package: :mod:`.model` (the record, its kinds), :mod:`.evaluators` (one per kind),
:mod:`.wording` (how every builder words what it points at), one module of builders per
topic (:mod:`.embeddings`, :mod:`.scores`, :mod:`.mixing`, :mod:`.training`,
:mod:`.projections`, :mod:`.heads`, :mod:`.masking`, :mod:`.positions`) and
:mod:`.lecture`, which lists them in the lecture's order.

``attnvid values --json`` lists the claims; docs/reference/claims.md documents the kinds.
"""

from __future__ import annotations

from .embeddings import clearest_word, sentence_words
from .evaluators import check, holds
from .lecture import lesson_claims, section_claims
from .model import KINDS, LITTLE, MOST_TIED, SMALL, STRONG_SHARE, Claim, share_of
from .wording import ORDINALS, SHARE_WORDS

__all__ = [
    "KINDS",
    "LITTLE",
    "MOST_TIED",
    "ORDINALS",
    "SHARE_WORDS",
    "SMALL",
    "STRONG_SHARE",
    "Claim",
    "check",
    "clearest_word",
    "holds",
    "lesson_claims",
    "section_claims",
    "sentence_words",
    "share_of",
]
