"""The lesson model: named dimensions, word vectors, contexts and settings, and their bounds.

Read from a TOML file by :mod:`attncore.lesson` (parsing in :mod:`attncore.lesson_parse`,
checks of what the numbers produce in :mod:`attncore.lesson_checks`). Every problem is a
:class:`LessonError`, a ``ValueError`` whose message names the file, the field and the fix
in one line.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from dataclasses import dataclass, field, replace
from pathlib import Path

from .i18n import lesson_catalogue

__all__ = [
    "DEFAULT_WEIGHTS",
    "EXP_LIMIT",
    "LEAN_MARGIN",
    "LIMITS",
    "SCORE_LIMIT",
    "VALUE_LIMIT",
    "WEIGHTS",
    "Context",
    "LecturePart",
    "Lesson",
    "LessonError",
    "ProjectionSpec",
    "TrainingSpec",
    "error_at",
    "toml_key",
]

#: Bounds within which the scenes stay readable (checked by looking at rendered frames).
LIMITS: dict[str, tuple[int, int]] = {
    "contexts": (1, 3),
    "tokens": (2, 8),
    "dimensions": (2, 8),
    "heads": (1, 4),
    "decimals": (1, 3),  # 0 would show attention weights as 0 or 1
    # different words the sentences use together: the rows of scene 1's embedding table,
    # which takes the first sentence's room and smaller digits from 12 rows on
    "sentence_words": (2, 15),
    "d_v": (1, 8),
    "training_steps": (1, 2000),  # Adam steps; the largest lesson at the bounds trains 300 in about a second
    "training_examples": (0, 16),  # extra labelled sentences under [[training.examples]]
    # a word's length in characters, a wide (Chinese) character counting two: every scene lays
    # out eight such words in a row, as labels of a matrix and under bars (issue 24; the scenes
    # are checked at the bounds with words this long, tests/test_lesson_scenes.py)
    "word_chars": (1, 12),
}

#: The largest magnitude of a number a lesson types (vocabulary and explicit weight
#: matrices). Every product the trace forms from such numbers stays far inside the float
#: range (a score X·Xᵀ is at most 8 · 10 · 10 = 800, so the exponential of any scaled
#: score at most e^283), and the softmax subtracts each row's largest score before
#: exponentiating: nothing ``trace_lesson`` computes can overflow.
VALUE_LIMIT = 10.0
#: The exponentials the softmax scene shows (the first context's focus row, ``exp(score / √d)``)
#: stay under this: at 8 words and 3 decimals a cell shows 81873.000 readably but not
#: 881682.492 (``scenes.inspect.unreadable_numbers``).
EXP_LIMIT = 100_000
#: The largest scaled score ``x·y/√d`` of the first context's focus word: ``ln(EXP_LIMIT)``, about 11.5.
SCORE_LIMIT = math.log(EXP_LIMIT)
#: A ``leans`` claim holds visibly when the claimed dimension of the focus word's output
#: beats every other by at least this much (simplified step, Q = K = V = X); a smaller
#: margin is a warning: two decimals on screen would barely tell the dimensions apart.
LEAN_MARGIN = 0.5

#: How the projection weights of steps 9-11 are obtained: trained on the lesson's own
#: question (``attncore.training``) or drawn from the seeded generator (``attncore.weights``).
WEIGHTS = ("trained", "random")
#: What a lesson gets when its ``[projections]`` says nothing.
DEFAULT_WEIGHTS = "trained"  # learned on the lesson's own question; write weights = "random" for seeded halves


class LessonError(ValueError):
    """A lesson file that cannot be used; the message is one line for the user."""


@dataclass(frozen=True)
class Context:
    """One sentence: its tokens (split on white space) and the word we follow."""

    name: str
    tokens: tuple[str, ...]
    focus: str
    leans: str | None = None  # the dimension the focus word's output should lean to (a claim)

    @property
    def sentence(self) -> str:
        return " ".join(self.tokens)

    @property
    def focus_index(self) -> int:
        return self.tokens.index(self.focus)


@dataclass(frozen=True)
class ProjectionSpec:
    """How the learned-projection weights are obtained: trained, or drawn from a seed;
    matrices given explicitly in the file are used as they are (and not trained)."""

    seed: int | None = 7
    d_v: int = 3
    explicit: tuple[tuple[str, tuple[tuple[float, ...], ...]], ...] = ()
    weights: str = DEFAULT_WEIGHTS  # one of WEIGHTS

    def matrix(self, name: str) -> tuple[tuple[float, ...], ...] | None:
        return dict(self.explicit).get(name)


@dataclass(frozen=True)
class TrainingSpec:
    """How ``attncore.training`` learns the weights when ``[projections] weights = "trained"``."""

    steps: int = 300  # Adam steps on the unrounded weights
    seed: int = 0  # of the small noise added to the starting weights
    learning_rate: float = 0.05
    examples: tuple[Context, ...] = ()  # extra labelled sentences (each has ``leans``)


@dataclass(frozen=True)
class LecturePart:
    """One ``[[lecture.parts]]`` entry: a title and the scenes it holds, as the file names them.

    Whether the names are scenes of the lecture (and each is named once, in lecture order)
    is checked by the application, which knows the scenes (``attnvid.catalog.lecture_parts``).
    """

    title: str
    scenes: tuple[str, ...]


@dataclass(frozen=True)
class Lesson:
    """A whole lesson. Vectors are tuples so that the lesson is immutable and hashable."""

    title: str
    dimensions: tuple[str, ...]
    vocabulary: tuple[tuple[str, tuple[float, ...]], ...]
    contexts: tuple[Context, ...]
    decimals: int = 2
    projections: ProjectionSpec = field(default_factory=ProjectionSpec)
    heads: int = 2
    theme: tuple[tuple[str, str], ...] = ()
    #: ``[theme] style``: "light" or "dark" ("" when the lesson does not say: dark, unless ``--theme`` says)
    style: str = ""
    #: Where the lesson was read from ("built-in", or its file's path). Not in ``repr`` either: no
    #: frame shows it, so the same lesson from a file, moved, or built in, renders the same scenes
    #: (the repr is the lesson's part of every cache key, attnvid.render.cache).
    source: str = field(default="built-in", repr=False)
    language: str = "en"  # of the narration voice (an espeak-ng language code)
    training: TrainingSpec = field(default_factory=TrainingSpec)
    #: ``[narration]``: (section slug, text with placeholders) replacing what a section says
    narration: tuple[tuple[str, str], ...] = ()
    #: ``[lecture]``: the parts the lesson's lecture is made of (empty: the default parts).
    #: Not in ``repr``: the repr is the lesson's part of every scene's cache key, and which
    #: scenes a lecture holds changes how none of them renders.
    lecture: tuple[LecturePart, ...] = field(default=(), repr=False)
    #: ``[selfcheck] in_video``: the self-check's questions also appear in the player, at the end of
    #: the chapter that explains each (the page's, not the video's: not in ``repr`` either).
    in_video_questions: bool = field(default=False, repr=False)

    @property
    def d(self) -> int:
        return len(self.dimensions)

    @property
    def catalogue(self) -> str:
        """The lesson's own catalogue for its language, ``<stem>.<code>.po`` beside its file
        (``pesca.it.po`` for ``pesca.toml`` in Italian), "" when it has none."""
        return lesson_catalogue(self.source, self.language)

    def vector(self, word: str) -> tuple[float, ...]:
        return dict(self.vocabulary)[word]

    def with_weights(self, weights: str) -> Lesson:
        """This lesson with ``[projections] weights`` set to ``weights`` ("trained" or "random")."""
        if weights not in WEIGHTS:
            raise ValueError(f"weights must be one of {', '.join(WEIGHTS)}, got {weights!r}")
        return replace(self, projections=replace(self.projections, weights=weights))

    @property
    def slug(self) -> str:
        """A folder-safe name for this lesson's outputs (``default`` for the built-in)."""
        if self.source == "built-in":
            return "default"
        stem = Path(self.source).stem
        ascii_stem = unicodedata.normalize("NFKD", stem).encode("ascii", "ignore").decode()
        return re.sub(r"[^A-Za-z0-9_-]+", "-", ascii_stem).strip("-").lower() or "lesson"


def error_at(src: str, where: str, problem: str, fix: str) -> LessonError:
    """The one-line error for field ``where`` of file ``src``: ``src: where: problem; fix``."""
    return LessonError(f"{src}: {where}: {problem}; {fix}")


def toml_key(word: str) -> str:
    """``word`` as a TOML key: bare when TOML allows it, quoted otherwise (``"piñata"``, ``"l'écran"``)."""
    return word if re.fullmatch(r"[A-Za-z0-9_-]+", word) else json.dumps(word, ensure_ascii=False)
