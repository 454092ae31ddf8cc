"""The claims of the whole lecture, in its order: :data:`BUILDERS` lists one builder per scene
(each in the module of its topic); :func:`lesson_claims` returns every claim, each checked by
its evaluator, and a scene finds its own with :func:`section_claims` and says their ``text``
(the words around a claim are not factual: "Now look at ...").
"""

from __future__ import annotations

from ..i18n import language
from ..trace import LessonTrace
from .embeddings import embeddings_claims
from .evaluators import holds
from .heads import multi_head_claims
from .masking import causal_claims
from .mixing import mixing_claims, reading_claims, two_contexts_claims
from .model import Claim
from .positions import word_order_claims
from .projections import dimension_claims, projections_claims
from .scores import dot_products_claims, scaling_claims, softmax_claims
from .training import training_claims

__all__ = ["BUILDERS", "lesson_claims", "section_claims"]

#: One builder per scene, in the lecture's order.
BUILDERS = (embeddings_claims, dot_products_claims, scaling_claims, softmax_claims, reading_claims, mixing_claims,
            two_contexts_claims, training_claims, projections_claims, dimension_claims, multi_head_claims,
            causal_claims, word_order_claims)

_CACHE: dict[tuple[int, str], tuple[LessonTrace, tuple[Claim, ...]]] = {}


def lesson_claims(trace: LessonTrace) -> tuple[Claim, ...]:
    """Every claim of the lecture for ``trace``, in lecture order, each checked (computed once per
    trace and language: the texts are in the current language, :func:`attncore.i18n.language`)."""
    key = (id(trace), language())
    hit = _CACHE.get(key)
    if hit is None or hit[0] is not trace:
        claims = tuple(c for build in BUILDERS for c in build(trace))
        holds(claims, trace)
        if len(_CACHE) > 8:
            _CACHE.clear()
        hit = _CACHE[key] = (trace, claims)
    return hit[1]


def section_claims(trace: LessonTrace, scene: str, section: str, kind: str | None = None,
                   where: str = "narration") -> list[Claim]:
    """The claims of one section (said, or ``where="caption"`` shown), of one ``kind`` if given."""
    return [c for c in lesson_claims(trace) if c.scene == scene and c.section == section and c.where == where
            and (kind is None or c.kind == kind)]
