"""The lecture: every scene in order. The one list that feeds the renderer, the lecture
and the tests (``attnvid list`` prints it)."""

from __future__ import annotations

from attncore.i18n import N_
from scenes.base import LessonScene
from scenes.s00_title import TitleCard
from scenes.s01_embeddings import Embeddings
from scenes.s02_simplified import SimplifiedAttention
from scenes.s03_dot_products import DotProducts
from scenes.s04_scaling import Scaling
from scenes.s05_softmax import Softmax
from scenes.s06_reading import ReadingAttention
from scenes.s07_mixing import MixingValues
from scenes.s08_two_contexts import TwoContexts
from scenes.s09_projections import LearnedProjections
from scenes.s09_training import LearningTheWeights
from scenes.s10_dimension import ChangingDimension
from scenes.s11_multi_head import MultiHead
from scenes.s13_causal_mask import CausalMask
from scenes.s14_word_order import WordOrder

#: The title card first (number 0: its file is 00_TitleCard), then the steps from 1.
LECTURE: tuple[type[LessonScene], ...] = (
    TitleCard,
    Embeddings,
    SimplifiedAttention,
    DotProducts,
    Scaling,
    Softmax,
    ReadingAttention,
    MixingValues,
    TwoContexts,
    LearningTheWeights,
    LearnedProjections,
    ChangingDimension,
    MultiHead,
    CausalMask,
    WordOrder,
)

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
    """The scene's file relative to the repository root, e.g. ``scenes/s01_embeddings.py``."""
    return "scenes/" + cls.__module__.rsplit(".", 1)[-1] + ".py"


def find_scene(name: str) -> type[LessonScene]:
    for cls in LECTURE:
        if name in (cls.__name__, cls.__module__.rsplit(".", 1)[-1]):
            return cls
    raise KeyError(name)
