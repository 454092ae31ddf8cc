"""Parsing and validation of a lesson's TOML data: one short function per part of the file.

:func:`parse_lesson` turns parsed TOML into a :class:`~attncore.lesson_model.Lesson`; each
part raises a one-line :class:`~attncore.lesson_model.LessonError` naming the file, the
field and the fix.
"""

from __future__ import annotations

import difflib
import math
import re
import unicodedata
from dataclasses import dataclass, replace
from typing import Any

from .i18n import UnknownLanguage, breakable_words, cldr_language
from .lesson_checks import check_decimals, check_exponentials, check_fonts, check_leans
from .lesson_model import (
    DEFAULT_WEIGHTS,
    LIMITS,
    VALUE_LIMIT,
    WEIGHTS,
    Context,
    LecturePart,
    Lesson,
    LessonError,
    ProjectionSpec,
    TrainingSpec,
    error_at,
    toml_key,
)
from .narration_parse import NarrationError, check_template, section_slug

__all__ = ["parse_lesson"]

_TOP_KEYS = {
    "title",
    "language",
    "dimensions",
    "decimals",
    "vocabulary",
    "contexts",
    "projections",
    "heads",
    "theme",
    "training",
    "narration",
    "lecture",
    "selfcheck",
}
_CONTEXT_KEYS = {"name", "sentence", "focus", "leans"}
_PROJECTION_KEYS = {"weights", "seed", "d_v", "W_Q", "W_K", "W_V", "W_V_reshape", "W_O"}
_HEADS_KEYS = {"count"}
_TRAINING_KEYS = {"steps", "seed", "learning_rate", "examples"}
_EXAMPLE_KEYS = {"sentence", "focus", "leans"}
_LECTURE_KEYS = {"parts"}
_SELFCHECK_KEYS = {"in_video"}
_PART_KEYS = {"title", "scenes"}


def _number(src: str, where: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise error_at(src, where, f"{value!r} is not a number", "write a number such as 1 or 0.5")
    if not math.isfinite(value):
        raise error_at(src, where, f"{value!r} is not a finite number", "use a finite value such as 0")
    return float(value)


def _value(src: str, where: str, value: Any) -> float:
    """A number the lesson types into a vector or a matrix: finite and within :data:`VALUE_LIMIT`."""
    x = _number(src, where, value)
    if abs(x) > VALUE_LIMIT:
        lim = f"{VALUE_LIMIT:g}"
        raise error_at(
            src,
            where,
            f"{x:g} is outside the supported range -{lim}..{lim}",
            f"use values between -{lim} and {lim}; small round numbers such as 3 or 0.5 keep every sum checkable",
        )
    return x


def _int_in(src: str, where: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise error_at(src, where, f"{value!r} is not a whole number", f"use a whole number from {lo} to {hi}")
    if not lo <= value <= hi:
        raise error_at(src, where, f"{value} is outside the supported range", f"use a whole number from {lo} to {hi}")
    return value


def _check_keys(src: str, where: str, table: dict[str, Any], allowed: set[str]) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        near = difflib.get_close_matches(unknown[0], sorted(allowed), n=1, cutoff=0.6)
        hint = f"did you mean {near[0]!r}? " if near else ""
        raise error_at(
            src, where, f"unknown key {unknown[0]!r}", f"{hint}use only {', '.join(sorted(allowed))}"
        )


def _matrix(src: str, where: str, value: Any, rows: int, cols: int) -> tuple[tuple[float, ...], ...]:
    if not isinstance(value, list) or len(value) != rows:
        raise error_at(src, where, f"must be a list of {rows} rows", f"give {rows} rows of {cols} numbers")
    out = []
    for i, row in enumerate(value):
        if not isinstance(row, list) or len(row) != cols:
            raise error_at(src, f"{where} row {i + 1}", f"must have {cols} numbers", f"give {cols} numbers per row")
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
        style=_style(src, data.get("theme", {})),
        source=source,
        language=top.language,
        training=_training(src, data.get("training", {}), top.dimensions, vocab_words),
        lecture=_lecture(src, data.get("lecture")),
        in_video_questions=_selfcheck(src, data.get("selfcheck", {})),
    )
    check_decimals(src, lesson)
    check_exponentials(src, lesson)
    for k in range(len(lesson.contexts)):
        check_leans(src, lesson, k)
    lesson = replace(lesson, narration=_narration(src, data.get("narration", {}), lesson))
    check_fonts(src, lesson)
    return lesson


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
            raise error_at(src, key, "is missing", f"add a '{key}' entry (see docs/reference/lesson.md)")
    title = data["title"]
    if not isinstance(title, str) or not title.strip():
        raise error_at(src, "title", "must be a non-empty text", 'write e.g. title = "One word, two contexts"')
    dims_raw = data["dimensions"]
    if not isinstance(dims_raw, list) or not all(isinstance(x, str) and x.strip() for x in dims_raw):
        raise error_at(src, "dimensions", "must be a list of names", 'write e.g. dimensions = ["animal", "tech"]')
    lo, hi = LIMITS["dimensions"]
    if not lo <= len(dims_raw) <= hi:
        raise error_at(
            src, "dimensions", f"has {len(dims_raw)} names, the limit is {lo} to {hi}", f"use {lo} to {hi} dimensions"
        )
    seen: set[str] = set()
    for name in dims_raw:
        if name in seen:
            raise error_at(src, "dimensions", f"name {name!r} appears twice", "give every dimension a different name")
        seen.add(name)
    if data.get("decimals") == 0 and not isinstance(data.get("decimals"), bool):
        raise error_at(src, "decimals", "0 would show every attention weight, a number between 0 and 1, as 0 or 1",
                       f"use decimals = 1 to {LIMITS['decimals'][1]}")
    decimals = _int_in(src, "decimals", data.get("decimals", 2), *LIMITS["decimals"])
    language = data.get("language", "en")
    if not isinstance(language, str) or not re.fullmatch(r"[a-z]{2,3}(-[a-z0-9]+)?", language):
        raise error_at(src, "language", f"{language!r} is not a language code", 'write e.g. language = "fr"')
    try:
        cldr_language(language)
    except UnknownLanguage:
        raise error_at(src, "language", f"{language!r} is not a language CLDR knows",
                       'write a language code such as "it", "pt" or "ar" (python -m attncore.locale init CODE '
                       "adds its catalogue)") from None
    return _TopLevel(title=title.strip(), dimensions=tuple(dims_raw), decimals=decimals, language=language)


def _decimal_comma_hint(vec: list[Any], d: int) -> str:
    """A hint when a vector has more values than dimensions and holds two whole numbers side by
    side: a decimal comma (``[3,5, 0, 0, 0.5]`` for 3.5, as Italian, French or German write it)
    makes two numbers of one in TOML."""
    whole = [isinstance(x, int) and not isinstance(x, bool) for x in vec]
    at = next((k for k in range(len(vec) - 1) if whole[k] and whole[k + 1] and vec[k + 1] >= 0), None)
    if len(vec) <= d or at is None:
        return ""
    a, b = vec[at], vec[at + 1]
    return f"; if {a},{b} is meant as {a}.{b}, write a decimal point: in TOML a comma separates two numbers"


def _vocabulary(src: str, vocab_raw: Any, dims: tuple[str, ...]) -> tuple[tuple[str, tuple[float, ...]], ...]:
    """``[vocabulary]``: one vector of ``len(dims)`` finite numbers per word."""
    d = len(dims)
    if not isinstance(vocab_raw, dict) or not vocab_raw:
        raise error_at(
            src, "vocabulary", "must be a table of word = [numbers]", "add e.g. cat = [3, 0, 0, 0.5] under [vocabulary]"
        )
    vocab: list[tuple[str, tuple[float, ...]]] = []
    for word, vec in vocab_raw.items():
        where = f"vocabulary.{word}"
        if not isinstance(vec, list):
            raise error_at(src, where, "must be a list of numbers", f"write {d} numbers, one per dimension")
        if len(vec) != d:
            raise error_at(src, where, f"has {len(vec)} values but there are {d} dimensions",
                           f"give exactly {d} numbers ({', '.join(dims)}){_decimal_comma_hint(vec, d)}")
        most = LIMITS["word_chars"][1]
        if word_chars(word) > most:
            raise error_at(
                src,
                where,
                f"is {word_chars(word)} characters long, longer than the {most} that fit the frames' columns",
                "use a shorter word or an abbreviation (a Chinese character counts as two)",
            )
        vocab.append((word, tuple(_value(src, where, v) for v in vec)))
    return tuple(vocab)


def word_chars(word: str) -> int:
    """The length of ``word`` as :data:`LIMITS` ``word_chars`` counts it: a wide (East Asian)
    character takes two columns."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in word)


def _sentence(src: str, where: str, table: dict[str, Any], vocab_words: set[str], what: str) -> Context:
    """The words and focus of a sentence (a context or a training example, ``what``).

    ``name`` and ``leans`` are left empty: the caller sets them.
    """
    for key in ("sentence", "focus"):
        if key not in table:
            raise error_at(src, f"{where}.{key}", "is missing", f"add {key} = \"...\" to this {what}")
        if not isinstance(table[key], str):
            raise error_at(src, f"{where}.{key}", "must be text", f'write {key} = "..."')
    tokens = tuple(table["sentence"].split())
    if not tokens:
        raise error_at(src, f"{where}.sentence", "is empty", "write a sentence of words from the vocabulary")
    lo_t, hi_t = LIMITS["tokens"]
    if not lo_t <= len(tokens) <= hi_t:
        raise error_at(
            src,
            f"{where}.sentence",
            f"has {len(tokens)} word{'s' if len(tokens) != 1 else ''}, the limit is {lo_t} to {hi_t}",
            f"use {lo_t} to {hi_t} words",
        )
    for tok in tokens:
        if tok not in vocab_words:
            raise error_at(
                src,
                f"{where}.sentence",
                f'word {tok!r} of "{table["sentence"]}" is not in the vocabulary',
                _word_hint(tok, vocab_words),
            )
    focus = table["focus"].strip()
    if focus not in tokens:
        same = _same_word(focus, set(tokens))
        fix = f"did you mean {same!r}? words are matched exactly" if same else "choose a word of the sentence"
        raise error_at(src, f"{where}.focus", f"{focus!r} is not a word of \"{table['sentence']}\"", fix)
    return Context(name="", tokens=tokens, focus=focus)


def _leans(src: str, where: str, table: dict[str, Any], dims: tuple[str, ...]) -> str | None:
    """The optional ``leans`` of a sentence: one of the dimensions."""
    leans = table.get("leans")
    if leans is not None and leans not in dims:
        same = _same_word(leans, set(dims)) if isinstance(leans, str) else None
        if same:
            raise error_at(src, f"{where}.leans", f"{leans!r} differs from the dimension {same!r} only in case",
                           f'write leans = "{same}"')
        near = difflib.get_close_matches(leans, list(dims), n=1, cutoff=0.75) if isinstance(leans, str) else []
        hint = f"did you mean {near[0]!r}? " if near else ""
        raise error_at(src, f"{where}.leans", f"{leans!r} is not a dimension", f"{hint}use one of {', '.join(dims)}")
    return leans


def _check_tables(src: str, key: str, raw: Any, limit: str, noun: str, fields: str) -> None:
    """``[[key]]``: a list of tables, as many as ``LIMITS[limit]`` allows (``noun`` counts them,
    ``fields`` says what each holds), or the one line that says so and how to fix it."""
    lo, hi = LIMITS[limit]
    if not isinstance(raw, list) or not all(isinstance(c, dict) for c in raw):
        raise error_at(src, key, f"must be a list of [[{key}]] tables", f"add [[{key}]] sections {fields}")
    if not lo <= len(raw) <= hi:
        raise error_at(
            src, key, f"has {len(raw)} {noun}, the limit is {lo} to {hi}", f"use {lo} to {hi} [[{key}]] sections"
        )


def _contexts(src: str, ctx_raw: Any, dims: tuple[str, ...], vocab_words: set[str]) -> tuple[Context, ...]:
    """``[[contexts]]``: one to three sentences, each with its focus word."""
    _check_tables(src, "contexts", ctx_raw, "contexts", "contexts", "with sentence and focus")
    contexts = []
    for i, c in enumerate(ctx_raw):
        named = c.get("name")
        # the context by its name where it has one: an author thinks "the bird sentence", not "contexts[1]"
        where = f"contexts[{i + 1}]" + (f" ({named})" if isinstance(named, str) and named.strip() else "")
        _check_keys(src, where, c, _CONTEXT_KEYS)
        ctx = _sentence(src, where, c, vocab_words, "context")
        name = c.get("name", f"context {i + 1}")
        if not isinstance(name, str) or not name.strip():
            raise error_at(src, f"{where}.name", "must be a non-empty text", 'write e.g. name = "animal"')
        contexts.append(replace(ctx, name=name, leans=_leans(src, where, c, dims)))
    distinct = list(dict.fromkeys(t for c in contexts for t in c.tokens))
    most = LIMITS["sentence_words"][1]
    if len(distinct) > most:
        raise error_at(
            src,
            "contexts",
            f"the sentences use {len(distinct)} different words, and the embedding table of "
            f"scene 1 shows at most {most} readably (one row each)",
            f"use at most {most} different words: repeat words across the sentences, or shorten them",
        )
    return tuple(contexts)


def _projections(src: str, proj_raw: Any, d: int) -> ProjectionSpec:
    """``[projections]``: trained or random weights, the seed, d_v and matrices set by hand."""
    if not isinstance(proj_raw, dict):
        raise error_at(src, "projections", "must be a table", "write a [projections] section")
    _check_keys(src, "projections", proj_raw, _PROJECTION_KEYS)
    weights = proj_raw.get("weights", DEFAULT_WEIGHTS)
    if weights not in WEIGHTS:
        raise error_at(
            src,
            "projections.weights",
            f"{weights!r} is not a way to obtain the weights",
            'write weights = "trained" or weights = "random"',
        )
    d_v = _int_in(src, "projections.d_v", proj_raw.get("d_v", 3), *LIMITS["d_v"])
    seed = proj_raw.get("seed", 7)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise error_at(src, "projections.seed", f"{seed!r} is not a non-negative whole number", "write e.g. seed = 7")
    shapes = {"W_Q": (d, d), "W_K": (d, d), "W_V": (d, d), "W_O": (d, d), "W_V_reshape": (d, d_v)}
    explicit = tuple(
        (k, _matrix(src, f"projections.{k}", proj_raw[k], *shapes[k])) for k in sorted(shapes) if k in proj_raw
    )
    return ProjectionSpec(seed=seed, d_v=d_v, explicit=explicit, weights=weights)


def _heads(src: str, heads_raw: Any, d: int) -> int:
    """``[heads]``: how many heads; they must divide the dimensions."""
    if not isinstance(heads_raw, dict):
        raise error_at(src, "heads", "must be a table", "write [heads] with count = 2")
    _check_keys(src, "heads", heads_raw, _HEADS_KEYS)
    heads = _int_in(src, "heads.count", heads_raw.get("count", 2), *LIMITS["heads"])
    if d % heads:
        divisors = [h for h in range(1, LIMITS["heads"][1] + 1) if d % h == 0]
        raise error_at(
            src,
            "heads.count",
            f"{heads} heads do not divide the {d} dimensions",
            f"use a count that divides {d}: {', '.join(map(str, divisors))}",
        )
    return heads


#: ``[theme] style``: the backgrounds a lesson may ask for (``--theme`` overrides it).
STYLES = ("dark", "light")


def _theme(src: str, theme_raw: Any) -> tuple[tuple[str, str], ...]:
    """``[theme]``: colours by role, as ``"#rrggbb"`` (and ``style``, read by :func:`_style`)."""
    if not isinstance(theme_raw, dict) or not all(isinstance(v, str) for v in theme_raw.values()):
        raise error_at(src, "theme", "must be a table of role = \"#rrggbb\"", 'write e.g. animal = "#e07a5f"')
    theme_raw = {k: v for k, v in theme_raw.items() if k != "style"}
    for role, colour in theme_raw.items():
        if not re.fullmatch(r"#[0-9A-Fa-f]{6}", colour):
            raise error_at(src, f"theme.{role}", f"{colour!r} is not a colour", 'write a hex colour such as "#e07a5f"')
    return tuple(theme_raw.items())


def _style(src: str, theme_raw: Any) -> str:
    """``[theme] style = "light"`` or ``"dark"``; "" when not given."""
    style = theme_raw.get("style", "") if isinstance(theme_raw, dict) else ""
    if style and style not in STYLES:
        raise error_at(src, "theme.style", f"{style!r} is not a style", 'write style = "light" or style = "dark"')
    return str(style)


def _training(src: str, raw: Any, dims: tuple[str, ...], vocab_words: set[str]) -> TrainingSpec:
    """``[training]``: steps, seed, learning rate and extra labelled sentences."""
    if not isinstance(raw, dict):
        raise error_at(src, "training", "must be a table", "write a [training] section")
    _check_keys(src, "training", raw, _TRAINING_KEYS)
    base = TrainingSpec()
    steps = _int_in(src, "training.steps", raw.get("steps", base.steps), *LIMITS["training_steps"])
    seed = raw.get("seed", base.seed)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise error_at(src, "training.seed", f"{seed!r} is not a non-negative whole number", "write e.g. seed = 0")
    rate = _number(src, "training.learning_rate", raw.get("learning_rate", base.learning_rate))
    if not 0 < rate <= 1:
        raise error_at(
            src,
            "training.learning_rate",
            f"{rate:g} is outside the supported range",
            "use a number above 0 and at most 1, e.g. 0.05",
        )
    ex_raw = raw.get("examples", [])
    _check_tables(src, "training.examples", ex_raw, "training_examples", "sentences", "with sentence, focus and leans")
    examples = []
    for i, e in enumerate(ex_raw):
        where = f"training.examples[{i + 1}]"
        _check_keys(src, where, e, _EXAMPLE_KEYS)
        ctx = _sentence(src, where, e, vocab_words, "example")
        if "leans" not in e:
            raise error_at(src, f"{where}.leans", "is missing", 'add leans = "..." (the sense of the focus word here)')
        examples.append(replace(ctx, name=f"example {i + 1}", leans=_leans(src, where, e, dims)))
    return TrainingSpec(steps=steps, seed=seed, learning_rate=rate, examples=tuple(examples))


def _lecture(src: str, raw: Any) -> tuple[LecturePart, ...]:
    """``[lecture]``: the lecture's parts, each a title and scene names (empty: the default parts)."""
    example = '[[lecture.parts]] with title = "..." and scenes = ["Embeddings", ...]'
    if raw is None:
        return ()
    if not isinstance(raw, dict):
        raise error_at(src, "lecture", "must be a table", f"write {example}")
    _check_keys(src, "lecture", raw, _LECTURE_KEYS)
    parts_raw = raw.get("parts")
    if parts_raw is None:
        raise error_at(src, "lecture.parts", "is missing", f"add {example}, or remove [lecture] for the default parts")
    if not isinstance(parts_raw, list) or not all(isinstance(p, dict) for p in parts_raw):
        raise error_at(src, "lecture.parts", "must be a list of [[lecture.parts]] tables", f"write {example}")
    if not parts_raw:
        raise error_at(src, "lecture.parts", "is empty", f"add {example}, or remove [lecture] for the default parts")
    parts = []
    for i, p in enumerate(parts_raw, 1):
        where = f"lecture.parts[{i}]"
        _check_keys(src, where, p, _PART_KEYS)
        title = p.get("title")
        if not isinstance(title, str) or not title.strip():
            raise error_at(src, f"{where}.title", "must be a non-empty text", 'write e.g. title = "The core mechanism"')
        scenes = p.get("scenes")
        if scenes is None:
            raise error_at(src, f"{where}.scenes", "is missing", 'add e.g. scenes = ["Embeddings", "DotProducts"]')
        if not isinstance(scenes, list) or not all(isinstance(s, str) and s.strip() for s in scenes):
            raise error_at(src, f"{where}.scenes", "must be a list of scene names",
                       'write e.g. scenes = ["Embeddings", "DotProducts"] (attnvid list shows the scenes)')
        if not scenes:
            raise error_at(src, f"{where}.scenes", "is empty", "name at least one scene, or remove this part")
        parts.append(LecturePart(" ".join(title.split()), tuple(s.strip() for s in scenes)))
    return tuple(parts)


def _selfcheck(src: str, raw: Any) -> bool:
    """``[selfcheck]``: ``in_video = true`` puts the self-check's questions in the player too."""
    if not isinstance(raw, dict):
        raise error_at(src, "selfcheck", "must be a table", "write [selfcheck] with in_video = true")
    _check_keys(src, "selfcheck", raw, _SELFCHECK_KEYS)
    value = raw.get("in_video", False)
    if not isinstance(value, bool):
        raise error_at(src, "selfcheck.in_video", f"{value!r} is not true or false", "write in_video = true or false")
    return value


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
        return (
            f"{fix}, written {same!r}: words are matched exactly"
            if same
            else f"{fix}, and add {toml_key(bare)} = [...] under [vocabulary]"
        )
    same = _same_word(tok, vocab_words)
    if same:
        return f"did you mean {same!r}? tokens are matched exactly; write {same!r} in the sentence"
    near = difflib.get_close_matches(tok, sorted(vocab_words), n=1, cutoff=0.75)
    if near:  # a slip of the keyboard ("fethers")
        return f"did you mean {near[0]!r}? or add {toml_key(tok)} = [...] under [vocabulary]"
    return f"add {toml_key(tok)} = [...] under [vocabulary]"


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
        raise error_at(src, "narration", "must be a table", 'write [narration] with e.g. divide-by-the-sum = "..."')
    out = []
    for slug, text in raw.items():
        where = f"narration.{toml_key(slug)}"
        if slug != section_slug(slug):
            raise error_at(
                src,
                where,
                "is not a section slug",
                f"write the section's title in lower case with dashes: {section_slug(slug) or 'divide-by-the-sum'}",
            )
        if not isinstance(text, str) or not text.strip():
            raise error_at(src, where, "must be a non-empty text", f'write {slug} = "what the section says"')
        try:
            check_template(text, lesson)
        except NarrationError as exc:
            raise LessonError(f"{src}: {where}: {exc}") from None
        out.append((slug, " ".join(breakable_words(text))))  # an author's no-break space holds
    return tuple(out)
