"""What a claim is: the :class:`Claim` record, its :data:`KINDS`, and the thresholds the
builders and the evaluators share. Pure Python; no Manim.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..display import plain
from ..lexicon import LEXICON

__all__ = ["Claim", "KINDS", "LITTLE", "MOST_TIED", "SMALL", "STRONG_SHARE", "share_of"]

#: "little anywhere else": every other |value| of the word at most this share of it.
LITTLE = 1 / 3

#: "strong in": a value at least this share of the word's largest |value| (and positive): the lexicon's.
STRONG_SHARE = LEXICON["strong in"].lo

#: A weight that "barely counts", is "tiny", is "a little": under this.
SMALL = 0.1

#: The most words a runner-up claim names with the second for being shown with its weight
#: (:func:`attncore.claims.mixing.shown_ties`; more are no runner-up, and only the second is named).
MOST_TIED = 2


#: The kinds of claim and what each asserts (docs/reference/claims.md's table says the same).
KINDS: dict[str, str] = {
    "strong_in": "a word's value in a dimension is positive and every other |value| of it is at most a third of it",
    "strongest_in": "a word's value in a dimension is larger than every other |value| of it",
    "strong_in_each": (
        "a word's value in each named dimension (two or more) is positive, at least two thirds of its "
        "largest |value| and at least every |value| in the other dimensions"
    ),
    "same_vector": "a word has the same input vector in each named context",
    "largest": "an entry of a row (a score, a weight, an output) is the largest of the row (among the others)",
    "runner_up": (
        "the word a row gives most weight to, then the second (with every word shown with the second's "
        "weight); 'about as much', 'barely count', 'count a little', 'still count' as the lexicon says of "
        "the weights"
    ),
    "most_of": "a weight is more than one half",
    "small_weights": f"every named weight is under {SMALL}",
    "keeps_share": "the weight a word gets, as shown, is under 1: the other words keep a share",
    "flatter": "the largest weight of a row, as shown, is smaller with scaling than without",
    "rows_sum_to_one": "every named row of an attention matrix sums to 1",
    "leans": "a word's output is largest in the named dimension",
    "differ": "the focus word's outputs in the named contexts, as shown, differ (or, if so claimed, look the same)",
    "change": (
        "the focus word's weight on the named columns (their sum), or its output in a named dimension, goes, "
        "as shown, from one stage to another: rises, falls or stays, in each named context; 'steady': it never "
        "falls through the named stages; 'widest': that dimension is where the two rows differ most; 'top': that "
        "column is the largest at the "
        "second stage"
    ),
    "share": (
        "in each named context, the focus word's weights on the named columns add up to at least 'least' "
        "(and to more than at the stage 'above', if named)"
    ),
    "spread": "every weight of a row is under 'most': no word takes most of it",
    "same_row": (
        "the focus word's rows at two stages (its output in order and shuffled...), as shown, are the same "
        "digit for digit (or, if so claimed, differ), in each named context"
    ),
    "heads_differ": (
        "the attention matrices of a context's heads, as shown, are not all the same (or, if so claimed, are)"
    ),
    "loss_falls": (
        "the training loss after the last step is below its start (or, if so claimed, is not); "
        "the steps said are the steps taken"
    ),
    "learned": (
        "training's own check holds (or, if so claimed, fails): in each context with a sense, the trained "
        "focus word gives at least half its attention to the sense words and more than the simplified step, "
        "so does a head, both outputs lean the sense, and the loss fell to a quarter of its start"
    ),
    "value_size": (
        "the value size d_v of W_V (the one that changes the dimension) is larger than, smaller than or equal to d"
    ),
    "size_ratio": (
        "the mean length of the position vectors over that of the word vectors is what 'compare' says: "
        "'about as large', 'smaller than' or 'larger than' (the lexicon's ranges)"
    ),
}


@dataclass(frozen=True)
class Claim:
    """One factual statement of the lecture.

    ``where`` is ``"narration"`` (said) or ``"caption"`` (shown at the bottom of the frame).
    """

    scene: str  # scene class name, e.g. "Embeddings"
    section: str  # section title, e.g. "Reading a vector"
    kind: str  # one of KINDS
    args: Mapping[str, Any]  # what it is about: context index, words, dimensions, stage, row, columns
    values: Mapping[str, float]  # the exact numbers it rests on
    text: str  # the words said or shown
    where: str = "narration"

    def to_json(self) -> dict[str, Any]:
        return {"scene": self.scene, "section": self.section, "kind": self.kind, "args": dict(self.args),
                "values": {k: float(v) for k, v in self.values.items()}, "text": self.text, "where": self.where}


def share_of(row: np.ndarray, columns: Sequence[int], decimals: int, parts: str = "exact") -> float:
    """The sum of ``row`` over ``columns``: of the exact weights, or (``parts="shown"``) of the weights as shown."""
    if parts == "shown":
        return float(sum(float(plain(row[j], decimals)) for j in columns))
    return float(sum(float(row[j]) for j in columns))
