"""Claims in every shipped language: the same facts, translated sentences.

For each language of :data:`attncore.i18n.LANGUAGES`, the claims of every built-in lesson,
built under ``use(lang)`` from the catalogues in ``attncore/locale``, have the kinds, args,
values and places of the English ones, only their texts differ; every claim passes
:func:`attncore.claims.check` (its evaluator and the calibrated words found in the translated
text); and a text whose English declares a calibrated phrase says that phrase's translation.
The translated phrases of a language never lie inside one another (so a text's phrases are
found one by one, as in English).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest
from test_claims import LESSONS

from attncore import builtin_lesson
from attncore.claims import Claim, check, lesson_claims
from attncore.i18n import LANGUAGES, use
from attncore.lexicon import LEXICON, phrase_in, phrases_in

OTHERS = [lang for lang in LANGUAGES if lang != "en"]
#: The built-in lessons, and generated ones whose numbers take the other branches of the wording
#: (three heads, one decimal, a long narrow lesson, random ones).
SAMPLE = [name for name in LESSONS if name.startswith("builtin-")] + [
    "bounds-three-heads-dec2", "bounds-smallest-dec1", "bounds-long-narrow-dec3", "random-3", "random-7",
    "hand-set-heads-agree"]


def _inside(p: str, q: str, lang: str) -> bool:
    """Whether phrase ``p`` is found in phrase ``q`` as :func:`attncore.lexicon.phrases_in` finds it."""
    if lang == "zh":
        return p in q
    return re.search(rf"(?<![\w-]){re.escape(p)}(?![\w-])", q, re.IGNORECASE) is not None


@pytest.mark.parametrize("lang", OTHERS)
def test_every_phrase_is_translated_and_none_lies_inside_another(lang: str) -> None:
    said = {p: phrase_in(p, lang) for p in LEXICON}
    assert all(said[p] and said[p] != p for p in LEXICON), {p: s for p, s in said.items() if not s or s == p}
    assert len(set(said.values())) == len(said), "two phrases share a translation"
    clashes = [(p, q) for p in said for q in said if p != q and _inside(said[p], said[q], lang)]
    assert not clashes, [(said[p], said[q]) for p, q in clashes]
    for p in LEXICON:  # each translation is found as itself, and as nothing else
        assert phrases_in(said[p], lang) == [p], (p, said[p])


def _facts(claims: Sequence[Claim]) -> list[tuple[str, ...]]:
    return [(c.scene, c.section, c.kind, repr(dict(c.args)), repr(dict(c.values)), c.where) for c in claims]


@pytest.mark.parametrize("lesson", SAMPLE)
@pytest.mark.parametrize("lang", OTHERS)
def test_translated_claims_state_the_same_facts(lang: str, lesson: str) -> None:
    trace = LESSONS[lesson]()
    with use("en"):
        english = lesson_claims(trace)
    with use(lang):
        translated = lesson_claims(trace)  # checked as it is built (holds)
        for c in translated:
            assert check(c, trace) is None, (lang, c.scene, c.section, c.text, check(c, trace))
    assert _facts(translated) == _facts(english)
    for en, tr in zip(english, translated, strict=True):
        where = f"{lang}: {lesson}: {en.scene} / {en.section}: {en.text!r} -> {tr.text!r}"
        assert tr.text != en.text or not re.search(r"[A-Za-z]{4}", en.text), f"{where}: not translated"
        # the phrases the English says, the translation says (and no other)
        assert set(phrases_in(tr.text, lang)) == set(phrases_in(en.text, "en")), where
        for p in phrases_in(en.text, "en"):
            assert (phrase_in(p, lang) in tr.text if lang == "zh"
                    else phrase_in(p, lang).lower() in tr.text.lower()), f"{where}: {p!r} is not said"
    with use("en"):
        assert lesson_claims(trace) == english  # the English ones are unchanged (and cached apart)


def test_the_recording_script_follows_the_lessons_language() -> None:
    from attnvid.commands.script import compose_script

    lesson = builtin_lesson("souris")  # French
    text = compose_script(lesson, [(1, "Embeddings", [("Reading a vector", "Prenons « chat ».")])])
    assert text.startswith(f"# Script d’enregistrement\u00a0: {lesson.title}\n"), text
    assert "`--voice recorded:FOLDER`" in text and "Record one" not in text
    assert "### Embeddings__reading-a-vector.wav" in text and "Prenons « chat »." in text
    english = compose_script(builtin_lesson("default"), [(1, "Embeddings", [("Reading a vector", "Take “cat”.")])])
    assert english.startswith("# Recording script: ") and "*Reading a vector*" in english
