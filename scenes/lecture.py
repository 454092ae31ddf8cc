"""The lecture: every scene in order (the order of :data:`scenes.order.ORDER`, which numbers
them). The one list that feeds the renderer, the lecture and the tests (``attnvid list`` prints it)."""

from __future__ import annotations

from attncore.i18n import N_
from scenes.base import LessonScene
from scenes.order import ORDER
from scenes.steps.causal_mask import CausalMask
from scenes.steps.dimension import ChangingDimension
from scenes.steps.dot_products import DotProducts
from scenes.steps.embeddings import Embeddings
from scenes.steps.mixing import MixingValues
from scenes.steps.multi_head import MultiHead
from scenes.steps.projections import LearnedProjections
from scenes.steps.reading import ReadingAttention
from scenes.steps.scaling import Scaling
from scenes.steps.simplified import SimplifiedAttention
from scenes.steps.softmax import Softmax
from scenes.steps.title import TitleCard
from scenes.steps.training import LearningTheWeights
from scenes.steps.two_contexts import TwoContexts
from scenes.steps.word_order import WordOrder

_SCENES: dict[str, type[LessonScene]] = {cls.__name__: cls for cls in (
    TitleCard, Embeddings, SimplifiedAttention, DotProducts, Scaling, Softmax, ReadingAttention, MixingValues,
    TwoContexts, LearningTheWeights, LearnedProjections, ChangingDimension, MultiHead, CausalMask, WordOrder)}
#: In the order of :data:`scenes.order.ORDER`: the title card first (number 0: its file is
#: 00_TitleCard), then the steps from 1, each numbered on screen by its place here.
LECTURE: tuple[type[LessonScene], ...] = tuple(_SCENES[name] for name in ORDER)

#: The lecture's default parts, each meant to stay under six minutes of video (viewers'
#: engagement drops after about six minutes: Guo, Kim & Rubin, 2014). Every scene is in
#: exactly one part, in lecture order. The titles are ids (English, marked for translation):
#: translate them with ``_`` where a viewer reads them.
PARTS: tuple[tuple[str, tuple[type[LessonScene], ...]], ...] = (
    (N_("The core mechanism"), LECTURE[:9]),
    (N_("Learned weights and heads"), LECTURE[9:13]),
    (N_("Decoders and positions"), LECTURE[13:]),
)



def scene_file(cls: type[LessonScene]) -> str:
    """The scene's file relative to the repository root, e.g. ``scenes/steps/embeddings.py``."""
    return cls.__module__.replace(".", "/") + ".py"


def find_scene(name: str) -> type[LessonScene]:
    for cls in LECTURE:
        if name in (cls.__name__, cls.__module__.rsplit(".", 1)[-1]):
            return cls
    raise KeyError(name)
