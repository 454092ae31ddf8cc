"""The lesson model: named dimensions, word vectors, contexts and settings.

A lesson is read from a TOML file (the built-in one is ``lessons/default.toml``).
Every problem raises :class:`LessonError`, a ``ValueError`` whose message names the
file, the field and the fix in one line.
"""

from __future__ import annotations

import json
import math
import re
import tomllib
import unicodedata
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from .display import fmt, round_matrix
from .narration import NarrationError, check_template, section_slug
from .steps import attention

__all__ = [
    "DEFAULT_WEIGHTS",
    "LIMITS",
    "WEIGHTS",
    "Context",
    "LecturePart",
    "Lesson",
    "LessonError",
    "ProjectionSpec",
    "TrainingSpec",
    "EXP_LIMIT",
    "LEAN_MARGIN",
    "SCORE_LIMIT",
    "VALUE_LIMIT",
    "builtin_lesson",
    "builtin_lessons",
    "default_lesson",
    "find_lesson",
    "lesson_warnings",
    "load_lesson",
    "parse_lesson",
]

#: Bounds within which the scenes stay readable (checked by looking at rendered frames).
LIMITS: dict[str, tuple[int, int]] = {
    "contexts": (1, 3),
    "tokens": (2, 8),
    "dimensions": (2, 8),
    "heads": (1, 4),
    "decimals": (0, 3),
    "d_v": (1, 8),
    "training_steps": (1, 2000),  # Adam steps; the largest lesson at the bounds trains 300 in about a second
    "training_examples": (0, 16),  # extra labelled sentences under [[training.examples]]
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

_TOP_KEYS = {
    "title", "language", "dimensions", "decimals", "vocabulary", "contexts", "projections", "heads", "theme", "training",
    "narration", "lecture",
}
_CONTEXT_KEYS = {"name", "sentence", "focus", "leans"}
_PROJECTION_KEYS = {"weights", "seed", "d_v", "W_Q", "W_K", "W_V", "W_V_reshape", "W_O"}
_HEADS_KEYS = {"count"}
_TRAINING_KEYS = {"steps", "seed", "learning_rate", "examples"}
_EXAMPLE_KEYS = {"sentence", "focus", "leans"}
_LECTURE_KEYS = {"parts"}
_PART_KEYS = {"title", "scenes"}


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
    source: str = "built-in"
    language: str = "en"  # of the narration voice (an espeak-ng language code)
    training: TrainingSpec = field(default_factory=TrainingSpec)
    #: ``[narration]``: (section slug, text with placeholders) replacing what a section says
    narration: tuple[tuple[str, str], ...] = ()
    #: ``[lecture]``: the parts the lesson's lecture is made of (empty: the default parts).
    #: Not in ``repr``: the repr is the lesson's part of every scene's cache key, and which
    #: scenes a lecture holds changes how none of them renders.
    lecture: tuple[LecturePart, ...] = field(default=(), repr=False)

    @property
    def d(self) -> int:
        return len(self.dimensions)

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


# --------------------------------------------------------------------------------------
# Parsing and validation
# --------------------------------------------------------------------------------------
def _err(src: str, where: str, problem: str, fix: str) -> LessonError:
    return LessonError(f"{src}: {where}: {problem}; {fix}")


def _number(src: str, where: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _err(src, where, f"{value!r} is not a number", "write a number such as 1 or 0.5")
    if not math.isfinite(value):
        raise _err(src, where, f"{value!r} is not a finite number", "use a finite value such as 0")
    return float(value)


def _value(src: str, where: str, value: Any) -> float:
    """A number the lesson types into a vector or a matrix: finite and within :data:`VALUE_LIMIT`."""
    x = _number(src, where, value)
    if abs(x) > VALUE_LIMIT:
        lim = f"{VALUE_LIMIT:g}"
        raise _err(src, where, f"{x:g} is outside the supported range -{lim}..{lim}",
                   f"use values between -{lim} and {lim}; small round numbers such as 3 or 0.5 keep every sum checkable")
    return x


def _int_in(src: str, where: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _err(src, where, f"{value!r} is not a whole number", f"use a whole number from {lo} to {hi}")
    if not lo <= value <= hi:
        raise _err(src, where, f"{value} is outside the supported range", f"use a whole number from {lo} to {hi}")
    return value


def _check_keys(src: str, where: str, table: dict[str, Any], allowed: set[str]) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise _err(
            src, where, f"unknown key {unknown[0]!r}", f"use only {', '.join(sorted(allowed))}"
        )


def _matrix(src: str, where: str, value: Any, rows: int, cols: int) -> tuple[tuple[float, ...], ...]:
    if not isinstance(value, list) or len(value) != rows:
        raise _err(src, where, f"must be a list of {rows} rows", f"give {rows} rows of {cols} numbers")
    out = []
    for i, row in enumerate(value):
        if not isinstance(row, list) or len(row) != cols:
            raise _err(src, f"{where} row {i + 1}", f"must have {cols} numbers", f"give {cols} numbers per row")
        out.append(tuple(_value(src, f"{where} row {i + 1}", v) for v in row))
    return tuple(out)


def parse_lesson(data: dict[str, Any], source: str = "built-in") -> Lesson:
    """Validate parsed TOML ``data`` and build a :class:`Lesson`.

    One function per part of the file, in the order a reader meets them; each raises a
    one-line :class:`LessonError` naming the file, the field and the fix.
    """
    src = source
    top = _top_level(src, data)
    vocab = _vocabulary(src, data["vocabulary"], top.dimensions)
    vocab_words = {w for w, _ in vocab}
    lesson = Lesson(
        title=top.title,
        dimensions=top.dimensions,
        vocabulary=vocab,
        contexts=_contexts(src, data["contexts"], top.dimensions, vocab_words),
        decimals=top.decimals,
        projections=_projections(src, data.get("projections", {}), len(top.dimensions)),
        heads=_heads(src, data.get("heads", {}), len(top.dimensions)),
        theme=_theme(src, data.get("theme", {})),
        source=source,
        language=top.language,
        training=_training(src, data.get("training", {}), top.dimensions, vocab_words),
        lecture=_lecture(src, data.get("lecture")),
    )
    _check_exponentials(src, lesson)
    for k in range(len(lesson.contexts)):
        _check_leans(src, lesson, k)
    return replace(lesson, narration=_narration(src, data.get("narration", {}), lesson))


@dataclass(frozen=True)
class _TopLevel:
    title: str
    dimensions: tuple[str, ...]
    decimals: int
    language: str


def _top_level(src: str, data: dict[str, Any]) -> _TopLevel:
    """Keys of the file, ``title``, ``dimensions``, ``decimals`` and ``language``."""
    _check_keys(src, "top level", data, _TOP_KEYS)
    for key in ("title", "dimensions", "vocabulary", "contexts"):
        if key not in data:
            raise _err(src, key, "is missing", f"add a '{key}' entry (see the README's lesson example)")
    title = data["title"]
    if not isinstance(title, str) or not title.strip():
        raise _err(src, "title", "must be a non-empty text", 'write e.g. title = "One word, two contexts"')
    dims_raw = data["dimensions"]
    if not isinstance(dims_raw, list) or not all(isinstance(x, str) and x.strip() for x in dims_raw):
        raise _err(src, "dimensions", "must be a list of names", 'write e.g. dimensions = ["animal", "tech"]')
    lo, hi = LIMITS["dimensions"]
    if not lo <= len(dims_raw) <= hi:
        raise _err(src, "dimensions", f"has {len(dims_raw)} names, the limit is {lo} to {hi}", f"use {lo} to {hi} dimensions")
    seen: set[str] = set()
    for name in dims_raw:
        if name in seen:
            raise _err(src, "dimensions", f"name {name!r} appears twice", "give every dimension a different name")
        seen.add(name)
    decimals = _int_in(src, "decimals", data.get("decimals", 2), *LIMITS["decimals"])
    language = data.get("language", "en")
    if not isinstance(language, str) or not re.fullmatch(r"[a-z]{2,3}(-[a-z0-9]+)?", language):
        raise _err(src, "language", f"{language!r} is not a language code", 'write e.g. language = "fr"')
    return _TopLevel(title=title.strip(), dimensions=tuple(dims_raw), decimals=decimals, language=language)


def _vocabulary(src: str, vocab_raw: Any, dims: tuple[str, ...]) -> tuple[tuple[str, tuple[float, ...]], ...]:
    """``[vocabulary]``: one vector of ``len(dims)`` finite numbers per word."""
    d = len(dims)
    if not isinstance(vocab_raw, dict) or not vocab_raw:
        raise _err(src, "vocabulary", "must be a table of word = [numbers]", "add e.g. cat = [3, 0, 0, 0.5] under [vocabulary]")
    vocab: list[tuple[str, tuple[float, ...]]] = []
    for word, vec in vocab_raw.items():
        where = f"vocabulary.{word}"
        if not isinstance(vec, list):
            raise _err(src, where, "must be a list of numbers", f"write {d} numbers, one per dimension")
        if len(vec) != d:
            raise _err(src, where, f"has {len(vec)} values but there are {d} dimensions", f"give exactly {d} numbers ({', '.join(dims)})")
        vocab.append((word, tuple(_value(src, where, v) for v in vec)))
    return tuple(vocab)


def _sentence(src: str, where: str, table: dict[str, Any], vocab_words: set[str], what: str) -> Context:
    """The words and focus of a sentence (a context or a training example, ``what``).

    ``name`` and ``leans`` are left empty: the caller sets them.
    """
    for key in ("sentence", "focus"):
        if key not in table:
            raise _err(src, f"{where}.{key}", "is missing", f"add {key} = \"...\" to this {what}")
        if not isinstance(table[key], str):
            raise _err(src, f"{where}.{key}", "must be text", f'write {key} = "..."')
    tokens = tuple(table["sentence"].split())
    if not tokens:
        raise _err(src, f"{where}.sentence", "is empty", "write a sentence of words from the vocabulary")
    lo_t, hi_t = LIMITS["tokens"]
    if not lo_t <= len(tokens) <= hi_t:
        raise _err(src, f"{where}.sentence", f"has {len(tokens)} word{'s' if len(tokens) != 1 else ''}, the limit is {lo_t} to {hi_t}", f"use {lo_t} to {hi_t} words")
    for tok in tokens:
        if tok not in vocab_words:
            raise _err(src, f"{where}.sentence", f"word {tok!r} of \"{table['sentence']}\" is not in the vocabulary", _word_hint(tok, vocab_words))
    focus = table["focus"].strip()
    if focus not in tokens:
        same = _same_word(focus, set(tokens))
        fix = f"did you mean {same!r}? words are matched exactly" if same else "choose a word of the sentence"
        raise _err(src, f"{where}.focus", f"{focus!r} is not a word of \"{table['sentence']}\"", fix)
    return Context(name="", tokens=tokens, focus=focus)


def _leans(src: str, where: str, table: dict[str, Any], dims: tuple[str, ...]) -> str | None:
    """The optional ``leans`` of a sentence: one of the dimensions."""
    leans = table.get("leans")
    if leans is not None and leans not in dims:
        raise _err(src, f"{where}.leans", f"{leans!r} is not a dimension", f"use one of {', '.join(dims)}")
    return leans


def _contexts(src: str, ctx_raw: Any, dims: tuple[str, ...], vocab_words: set[str]) -> tuple[Context, ...]:
    """``[[contexts]]``: one to three sentences, each with its focus word."""
    lo, hi = LIMITS["contexts"]
    if not isinstance(ctx_raw, list) or not all(isinstance(c, dict) for c in ctx_raw):
        raise _err(src, "contexts", "must be a list of [[contexts]] tables", "add [[contexts]] sections with sentence and focus")
    if not lo <= len(ctx_raw) <= hi:
        raise _err(src, "contexts", f"has {len(ctx_raw)} contexts, the limit is {lo} to {hi}", f"use {lo} to {hi} [[contexts]] sections")
    contexts = []
    for i, c in enumerate(ctx_raw):
        where = f"contexts[{i + 1}]"
        _check_keys(src, where, c, _CONTEXT_KEYS)
        ctx = _sentence(src, where, c, vocab_words, "context")
        name = c.get("name", f"context {i + 1}")
        if not isinstance(name, str) or not name.strip():
            raise _err(src, f"{where}.name", "must be a non-empty text", 'write e.g. name = "animal"')
        contexts.append(replace(ctx, name=name, leans=_leans(src, where, c, dims)))
    return tuple(contexts)


def _projections(src: str, proj_raw: Any, d: int) -> ProjectionSpec:
    """``[projections]``: trained or random weights, the seed, d_v and matrices set by hand."""
    if not isinstance(proj_raw, dict):
        raise _err(src, "projections", "must be a table", "write a [projections] section")
    _check_keys(src, "projections", proj_raw, _PROJECTION_KEYS)
    weights = proj_raw.get("weights", DEFAULT_WEIGHTS)
    if weights not in WEIGHTS:
        raise _err(src, "projections.weights", f"{weights!r} is not a way to obtain the weights", 'write weights = "trained" or weights = "random"')
    d_v = _int_in(src, "projections.d_v", proj_raw.get("d_v", 3), *LIMITS["d_v"])
    seed = proj_raw.get("seed", 7)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise _err(src, "projections.seed", f"{seed!r} is not a non-negative whole number", "write e.g. seed = 7")
    shapes = {"W_Q": (d, d), "W_K": (d, d), "W_V": (d, d), "W_O": (d, d), "W_V_reshape": (d, d_v)}
    explicit = tuple(
        (k, _matrix(src, f"projections.{k}", proj_raw[k], *shapes[k])) for k in sorted(shapes) if k in proj_raw
    )
    return ProjectionSpec(seed=seed, d_v=d_v, explicit=explicit, weights=weights)


def _heads(src: str, heads_raw: Any, d: int) -> int:
    """``[heads]``: how many heads; they must divide the dimensions."""
    if not isinstance(heads_raw, dict):
        raise _err(src, "heads", "must be a table", "write [heads] with count = 2")
    _check_keys(src, "heads", heads_raw, _HEADS_KEYS)
    heads = _int_in(src, "heads.count", heads_raw.get("count", 2), *LIMITS["heads"])
    if d % heads:
        divisors = [h for h in range(1, LIMITS["heads"][1] + 1) if d % h == 0]
        raise _err(src, "heads.count", f"{heads} heads do not divide the {d} dimensions", f"use a count that divides {d}: {', '.join(map(str, divisors))}")
    return heads


def _theme(src: str, theme_raw: Any) -> tuple[tuple[str, str], ...]:
    """``[theme]``: colours by role, as ``"#rrggbb"``."""
    if not isinstance(theme_raw, dict) or not all(isinstance(v, str) for v in theme_raw.values()):
        raise _err(src, "theme", "must be a table of role = \"#rrggbb\"", 'write e.g. animal = "#e07a5f"')
    for role, colour in theme_raw.items():
        if not re.fullmatch(r"#[0-9A-Fa-f]{6}", colour):
            raise _err(src, f"theme.{role}", f"{colour!r} is not a colour", 'write a hex colour such as "#e07a5f"')
    return tuple(theme_raw.items())


def _training(src: str, raw: Any, dims: tuple[str, ...], vocab_words: set[str]) -> TrainingSpec:
    """``[training]``: steps, seed, learning rate and extra labelled sentences."""
    if not isinstance(raw, dict):
        raise _err(src, "training", "must be a table", "write a [training] section")
    _check_keys(src, "training", raw, _TRAINING_KEYS)
    base = TrainingSpec()
    steps = _int_in(src, "training.steps", raw.get("steps", base.steps), *LIMITS["training_steps"])
    seed = raw.get("seed", base.seed)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise _err(src, "training.seed", f"{seed!r} is not a non-negative whole number", "write e.g. seed = 0")
    rate = _number(src, "training.learning_rate", raw.get("learning_rate", base.learning_rate))
    if not 0 < rate <= 1:
        raise _err(src, "training.learning_rate", f"{rate:g} is outside the supported range", "use a number above 0 and at most 1, e.g. 0.05")
    ex_raw = raw.get("examples", [])
    lo, hi = LIMITS["training_examples"]
    if not isinstance(ex_raw, list) or not all(isinstance(e, dict) for e in ex_raw):
        raise _err(src, "training.examples", "must be a list of [[training.examples]] tables", "add [[training.examples]] sections with sentence, focus and leans")
    if not lo <= len(ex_raw) <= hi:
        raise _err(src, "training.examples", f"has {len(ex_raw)} sentences, the limit is {lo} to {hi}", f"use {lo} to {hi} [[training.examples]] sections")
    examples = []
    for i, e in enumerate(ex_raw):
        where = f"training.examples[{i + 1}]"
        _check_keys(src, where, e, _EXAMPLE_KEYS)
        ctx = _sentence(src, where, e, vocab_words, "example")
        if "leans" not in e:
            raise _err(src, f"{where}.leans", "is missing", 'add leans = "..." (the sense of the focus word here)')
        examples.append(replace(ctx, name=f"example {i + 1}", leans=_leans(src, where, e, dims)))
    return TrainingSpec(steps=steps, seed=seed, learning_rate=rate, examples=tuple(examples))


def _lecture(src: str, raw: Any) -> tuple[LecturePart, ...]:
    """``[lecture]``: the lecture's parts, each a title and scene names (empty: the default parts)."""
    example = '[[lecture.parts]] with title = "..." and scenes = ["Embeddings", ...]'
    if raw is None:
        return ()
    if not isinstance(raw, dict):
        raise _err(src, "lecture", "must be a table", f"write {example}")
    _check_keys(src, "lecture", raw, _LECTURE_KEYS)
    parts_raw = raw.get("parts")
    if parts_raw is None:
        raise _err(src, "lecture.parts", "is missing", f"add {example}, or remove [lecture] for the default parts")
    if not isinstance(parts_raw, list) or not all(isinstance(p, dict) for p in parts_raw):
        raise _err(src, "lecture.parts", "must be a list of [[lecture.parts]] tables", f"write {example}")
    if not parts_raw:
        raise _err(src, "lecture.parts", "is empty", f"add {example}, or remove [lecture] for the default parts")
    parts = []
    for i, p in enumerate(parts_raw, 1):
        where = f"lecture.parts[{i}]"
        _check_keys(src, where, p, _PART_KEYS)
        title = p.get("title")
        if not isinstance(title, str) or not title.strip():
            raise _err(src, f"{where}.title", "must be a non-empty text", 'write e.g. title = "The core mechanism"')
        scenes = p.get("scenes")
        if scenes is None:
            raise _err(src, f"{where}.scenes", "is missing", 'add e.g. scenes = ["Embeddings", "DotProducts"]')
        if not isinstance(scenes, list) or not all(isinstance(s, str) and s.strip() for s in scenes):
            raise _err(src, f"{where}.scenes", "must be a list of scene names",
                       'write e.g. scenes = ["Embeddings", "DotProducts"] (attnvid list shows the scenes)')
        if not scenes:
            raise _err(src, f"{where}.scenes", "is empty", "name at least one scene, or remove this part")
        parts.append(LecturePart(" ".join(title.split()), tuple(s.strip() for s in scenes)))
    return tuple(parts)


def _key(word: str) -> str:
    """``word`` as a TOML key: bare when TOML allows it, quoted otherwise (``"piñata"``, ``"l'écran"``)."""
    return word if re.fullmatch(r"[A-Za-z0-9_-]+", word) else json.dumps(word, ensure_ascii=False)


def _same_word(word: str, words: set[str]) -> str | None:
    """The word of ``words`` that ``word`` differs from only by case or Unicode form, if any."""
    def norm(w: str) -> str:
        return unicodedata.normalize("NFC", w).casefold()

    matches = sorted(w for w in words if norm(w) == norm(word))
    return matches[0] if matches else None


def _word_hint(tok: str, vocab_words: set[str]) -> str:
    """What to do about a sentence word missing from the vocabulary, following the likely slip:
    punctuation kept on a word ("night."), a capital ("The" when "the" exists), or a new word."""
    bare = "".join(_strip_punctuation(tok))
    if bare and bare != tok:
        fix = f"remove the punctuation: {bare!r}"
        if bare in vocab_words:
            return fix
        same = _same_word(bare, vocab_words)
        return f"{fix}, written {same!r}: words are matched exactly" if same else f"{fix}, and add {_key(bare)} = [...] under [vocabulary]"
    same = _same_word(tok, vocab_words)
    if same:
        return f"did you mean {same!r}? tokens are matched exactly; write {same!r} in the sentence"
    return f"add {_key(tok)} = [...] under [vocabulary]"


def _strip_punctuation(tok: str) -> str:
    """``tok`` without the punctuation at its ends (an apostrophe inside ``l'écran`` stays)."""
    chars = list(tok)
    while chars and unicodedata.category(chars[-1]).startswith("P"):
        chars.pop()
    while chars and unicodedata.category(chars[0]).startswith("P"):
        chars.pop(0)
    return "".join(chars)


def _narration(src: str, raw: Any, lesson: Lesson) -> tuple[tuple[str, str], ...]:
    """``[narration]``: section slug = the text that section says instead, placeholders checked.

    Whether a slug names a section of the lecture is checked by the application, which
    knows the scenes (``attnvid.catalog.check_narration``); attncore does not.
    """
    if not isinstance(raw, dict):
        raise _err(src, "narration", "must be a table", 'write [narration] with e.g. divide-by-the-sum = "..."')
    out = []
    for slug, text in raw.items():
        where = f"narration.{_key(slug)}"
        if slug != section_slug(slug):
            raise _err(src, where, "is not a section slug", f"write the section's title in lower case with dashes: {section_slug(slug) or 'divide-by-the-sum'}")
        if not isinstance(text, str) or not text.strip():
            raise _err(src, where, "must be a non-empty text", f'write {slug} = "what the section says"')
        try:
            check_template(text, lesson)
        except NarrationError as exc:
            raise LessonError(f"{src}: {where}: {exc}") from None
        out.append((slug, " ".join(text.split())))
    return tuple(out)


# --------------------------------------------------------------------------------------
# What the numbers of a valid file produce: the exponentials on screen, the leans claims
# --------------------------------------------------------------------------------------
def _focus_step(lesson: Lesson, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(scaled scores (n,), output (d,)) of context ``k``'s focus word in the simplified step, Q = K = V = X."""
    ctx = lesson.contexts[k]
    x = np.array([lesson.vector(t) for t in ctx.tokens], dtype=np.float64)  # (n, d)
    r = attention(x, x, x)
    return r.scaled[ctx.focus_index], r.output[ctx.focus_index]


def _check_exponentials(src: str, lesson: Lesson) -> None:
    """The softmax scene exponentiates the first context's focus row: each exponential must fit a cell."""
    ctx = lesson.contexts[0]
    scaled, _ = _focus_step(lesson, 0)
    j = int(np.argmax(scaled))
    if scaled[j] <= SCORE_LIMIT:
        return
    other = ctx.tokens[j]
    words = f"vocabulary.{_key(ctx.focus)}" + ("" if other == ctx.focus else f" or vocabulary.{_key(other)}")
    raise _err(src, "contexts[1]",
               f"the scaled score of {ctx.focus!r} with {other!r} is {scaled[j]:.2f}, so the softmax scene would show "
               f"its exponential, {math.exp(scaled[j]):.3g}, too long for a cell",
               f"keep the first context's focus-word scores x·y/√d at most {SCORE_LIMIT:.1f} (exponentials under "
               f"{EXP_LIMIT:,}): use smaller values in {words}")


@dataclass(frozen=True)
class _Lean:
    """How the focus word's output (simplified step) compares the claimed dimension with the strongest other."""

    margin: float  # claimed minus strongest other, exact
    contradicted: bool  # the screen shows the other one larger (at the lesson's decimals)
    other: str  # the strongest other dimension
    shown: str  # both values as the screen shows them


def _lean(lesson: Lesson, k: int) -> _Lean:
    ctx = lesson.contexts[k]
    assert ctx.leans is not None
    _, out = _focus_step(lesson, k)
    c = lesson.dimensions.index(ctx.leans)
    o = max((j for j in range(lesson.d) if j != c), key=lambda j: out[j])
    claimed, other = round_matrix([out[c], out[o]], lesson.decimals)
    shown = f"{ctx.leans} {fmt(out[c], lesson.decimals)}, {lesson.dimensions[o]} {fmt(out[o], lesson.decimals)}"
    return _Lean(float(out[c] - out[o]), bool(other > claimed), lesson.dimensions[o], shown)


def _check_leans(src: str, lesson: Lesson, k: int) -> None:
    """A context's ``leans`` must be what its focus word's output (simplified step) does on screen;
    a tie at the shown decimals is only too small to see (a warning, :func:`lesson_warnings`)."""
    ctx = lesson.contexts[k]
    if ctx.leans is None:
        return
    lean = _lean(lesson, k)
    actual, shown = lean.other, lean.shown
    if lean.contradicted:
        raise _err(src, f"contexts[{k + 1}].leans",
                   f"{ctx.leans!r} is contradicted: in \"{ctx.sentence}\" the output of {ctx.focus!r} leans {actual!r} ({shown})",
                   f'write leans = "{actual}", or make the other words of the sentence stronger in {ctx.leans!r}')


def lesson_warnings(lesson: Lesson) -> list[str]:
    """One line per claim that holds but not visibly: a ``leans`` margin under :data:`LEAN_MARGIN`."""
    out = []
    for k, ctx in enumerate(lesson.contexts):
        if ctx.leans is None:
            continue
        lean = _lean(lesson, k)
        if lean.margin < LEAN_MARGIN:
            out.append(f"{lesson.source}: contexts[{k + 1}].leans: {ctx.focus!r} leans {ctx.leans!r} by only "
                       f"{max(lean.margin, 0):.2f} ({lean.shown}), under the {LEAN_MARGIN} a viewer can see; make the other words of "
                       f"\"{ctx.sentence}\" stronger in {ctx.leans!r}")
    return out


def load_lesson(path: str | Path) -> Lesson:
    """Read and validate a lesson file; every failure is a one-line :class:`LessonError`."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LessonError(f"{p}: file not found; check the path given to --lesson") from None
    except IsADirectoryError:
        raise LessonError(f"{p}: is a folder, not a file; give the path of a .toml lesson file") from None
    except PermissionError:
        raise LessonError(f"{p}: cannot be read (permission denied); make it readable") from None
    except UnicodeDecodeError:
        raise LessonError(f"{p}: is not UTF-8 text; save the lesson as UTF-8") from None
    except OSError as exc:
        raise LessonError(f"{p}: cannot be read ({exc.strerror}); check the file") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LessonError(_syntax_message(p, text, exc)) from None
    return parse_lesson(data, source=str(p))


def _syntax_message(p: Path, text: str, exc: tomllib.TOMLDecodeError) -> str:
    """One line for a TOML syntax error; a key TOML cannot take bare (``piñata = [...]``) is told to be quoted."""
    at = re.search(r"\(at line (\d+), column \d+\)", str(exc))
    lines = text.splitlines()
    if at and int(at.group(1)) <= len(lines):
        line = lines[int(at.group(1)) - 1]
        m = re.match(r"\s*([^\s=\[\]\"'#.]+(?:'[^\s=\[\]\"'#.]*)*)\s*=\s*(.*)", line)
        if m and not re.fullmatch(r"[A-Za-z0-9_-]+", m.group(1)):
            key, value = m.group(1), m.group(2).split("#")[0].strip()
            value = value if len(value) <= 40 else "[...]"
            return (f"{p}: line {at.group(1)}: TOML syntax error: the key {key} has characters a bare TOML key "
                    f"cannot have; quote it: {json.dumps(key, ensure_ascii=False)} = {value or '[...]'}")
    return f"{p}: TOML syntax error: {exc}; fix the syntax at that line"


def builtin_lessons() -> list[str]:
    """Names of the lessons shipped in the package (``default``, ``bank``, ``souris``...)."""
    files = resources.files("attncore").joinpath("lessons").iterdir()
    return sorted(f.name[:-5] for f in files if f.name.endswith(".toml"))


def builtin_lesson(name: str) -> Lesson:
    """A lesson shipped in the package, by name."""
    if name not in builtin_lessons():
        raise LessonError(f"{name}: no such built-in lesson; choose from {', '.join(builtin_lessons())} or give a .toml path")
    text = resources.files("attncore").joinpath(f"lessons/{name}.toml").read_text(encoding="utf-8")
    return parse_lesson(tomllib.loads(text), source="built-in" if name == "default" else f"{name}.toml")


def find_lesson(spec: str | Path | None) -> Lesson:
    """The lesson named by ``spec``: None or "" for the default, a built-in name, or a path."""
    if spec is None or str(spec) == "":
        return default_lesson()
    p = Path(spec)
    if not p.exists() and p.suffix == "":
        if str(spec) in builtin_lessons():
            return builtin_lesson(str(spec))
        raise LessonError(
            f"{spec}: no such file or built-in lesson; give a .toml path or one of {', '.join(builtin_lessons())}"
        )
    return load_lesson(p)


def default_lesson() -> Lesson:
    """The built-in lesson shipped in the package (``lessons/default.toml``)."""
    return builtin_lesson("default")
