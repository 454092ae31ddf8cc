"""A lecturer adds a language alone (issue 47): Italian, which the lecture does not ship.

In a copy of the catalogues (``$ATTNCORE_LOCALE_DIR``, never the package's own folder):
``python -m attncore.locale init it`` writes every message with its translator comment,
``check`` counts what is translated and names a wrong placeholder, ``compile`` builds the
``.mo``, and a lesson in Italian is then drawn in Italian with Italian numbers (a decimal
comma), read back by tesseract from a 480p frame and from the scene's own texts. The same
with the lesson's own catalogue beside it (``pesca.toml`` and ``pesca.it.po``), read as it is.
Untranslated messages stay English with one warning naming the count; a code CLDR does not
know is refused in one line; a CLDR language without a catalogue gets one warning.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import ATTNVID, ROOT

from attncore.i18n import LOCALE_DIR, LOCALE_ENV, forget_catalogues
from attnstage.settings import SceneSettings, env_name

#: The Italian lesson: one word, two senses (the fruit, the sport), decimals that need a comma.
PESCA = """title = "{title}"
language = "it"
dimensions = ["frutto", "sport", "grammatica", "altro"]
decimals = 1

[vocabulary]
la      = [0, 0, 2, 0]
pesca   = [2.5, 2.5, 0, 0.5]
matura  = [4, 0, 0, 0.5]
"è"     = [0, 0, 1.5, 0.5]
di      = [0, 0, 2, 0.5]
notte   = [0, 2, 0, 1]
in      = [0, 0, 2, 0]
mare    = [0, 4, 0, 0.5]

[[contexts]]
name = "frutto"
sentence = "la pesca è matura"
focus = "pesca"
leans = "frutto"

[[contexts]]
name = "sport"
sentence = "la pesca di notte in mare"
focus = "pesca"
leans = "sport"
"""

#: A few messages translated, each one a frame shows (the title card's subtitle, the embeddings
#: scene's title, header and caption).
ITALIAN = {
    "Self-attention, step by step": "Auto-attenzione, passo dopo passo",
    "Embeddings": "Incorporamenti",
    "Words become vectors": "Le parole diventano vettori",
    "Each word is a row of numbers; each column is a named dimension.":
        "Ogni parola è una riga di numeri; ogni colonna è una dimensione con un nome.",
}


def locale(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "attncore.locale", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=300)


def translate(po: Path, messages: dict[str, str], broken: str = "") -> None:
    """Fill ``messages`` into the catalogue ``po`` (Babel's reader and writer, as a translator's
    editor would); ``broken``: one more message whose first placeholder is misspelt."""
    from babel.messages.pofile import read_po, write_po

    with po.open("rb") as f:
        cat = read_po(f, locale="it")
    for msgid, text in messages.items():
        cat[msgid].string = text
    if broken:
        cat[broken].string = re.sub(r"\{(\w+)\}", r"{\1_it}", broken, count=1)
    with po.open("wb") as f:
        write_po(f, cat, width=0, include_lineno=False)


@pytest.fixture()
def copy_of_locale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the package's catalogues, read instead of them (:data:`attncore.i18n.LOCALE_ENV`)."""
    folder = tmp_path / "locale"
    shutil.copytree(LOCALE_DIR, folder, ignore=shutil.ignore_patterns("*.mo", "__pycache__", "*.py"))
    monkeypatch.setenv(LOCALE_ENV, str(folder))
    forget_catalogues()
    yield folder
    forget_catalogues()


def frame_480p(cls: type, lesson: Path, monkeypatch: pytest.MonkeyPatch, png: Path) -> tuple[Any, list[str]]:
    """The last frame of ``cls`` built for ``lesson`` at 480p (Manim's camera, no video), saved
    to ``png``; and every text on screen then, as the scene made it."""
    from scenes.inspect import build, visible_texts

    monkeypatch.setenv(env_name("lesson"), str(lesson))
    built = build(cls, frames=True)
    cp = built.checkpoints[-1]
    assert cp.image is not None and cp.image.size == (854, 480)
    cp.image.convert("RGB").save(png)
    return built, [s.mob.text for s in visible_texts(cp)]  # as Manim keeps them: without spaces


def bare(text: str) -> str:
    return "".join(text.split())


def ocr(png: Path) -> str:
    if shutil.which("tesseract") is None:
        pytest.fail("tesseract is not installed: bash .ci/setup --tests installs it (and tesseract-ocr-ita)")
    # tesseract reads the small digits of a 480p frame as dark on light, three times the size
    from PIL import Image, ImageOps

    big = png.with_name(png.stem + "_ocr.png")
    with Image.open(png) as im:
        ImageOps.invert(im.convert("L")).resize((im.width * 3, im.height * 3), Image.Resampling.LANCZOS).save(big)
    r = subprocess.run(["tesseract", str(big), "stdout", "-l", "ita"], capture_output=True, text=True, check=True,
                       env={**os.environ, "OMP_THREAD_LIMIT": "1"})
    return " ".join(r.stdout.split())


def check_italian_frames(lesson: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The title card and the embeddings scene of ``lesson``, built at 480p: in Italian (OCR and
    the scene's texts), every number with a decimal comma."""
    from scenes.steps.embeddings import Embeddings
    from scenes.steps.title import TitleCard

    _built, texts = frame_480p(TitleCard, lesson, monkeypatch, tmp_path / "title_it.png")
    assert bare(ITALIAN["Self-attention, step by step"]) in texts
    assert bare("Self-attention, step by step") not in texts
    read = ocr(tmp_path / "title_it.png")
    assert "passo dopo passo" in read, read

    built, texts = frame_480p(Embeddings, lesson, monkeypatch, tmp_path / "embeddings_it.png")
    assert built.language == "it"
    assert bare("1 · Incorporamenti") in texts and not any("Embeddings" in t for t in texts), texts
    decimals = [t for t in texts if re.fullmatch(r"−?\d+[.,]\d", t)]
    assert decimals and all("," in t for t in decimals), texts  # 2,5 and 0,5, never 2.5
    assert "2,5" in decimals
    read = ocr(tmp_path / "embeddings_it.png")
    assert "Incorporamenti" in read, read
    assert re.search(r"\b[0-3],5\b", read) and not re.search(r"\b[0-3]\.5\b", read), read


def test_a_lecturer_adds_italian_in_a_copy_of_the_catalogues(copy_of_locale: Path, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    env = {**os.environ, LOCALE_ENV: str(copy_of_locale), "PYTHONPATH": str(ROOT)}
    r = locale("init", "it", env=env)
    assert r.returncode == 0, r.stderr
    po = copy_of_locale / "it" / "LC_MESSAGES" / "attnvid.po"
    pot = (copy_of_locale / "attnvid.pot").read_text(encoding="utf-8")
    text = po.read_text(encoding="utf-8")
    n = pot.count('\nmsgid "') - 1  # less the header's (msgid "")
    assert text.count('\nmsgid "') - 1 == n > 300  # every message of the template
    comments = [line for line in pot.splitlines() if line.startswith("#.")]
    assert comments and [line for line in text.splitlines() if line.startswith("#.")] == comments  # translator notes
    assert "Plural-Forms: nplurals=3;" in text  # CLDR's Italian plural rule (one, many, other)
    assert not (LOCALE_DIR / "it").exists()  # the package's own folder untouched

    r = locale("init", "it", env=env)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "exists" in r.stderr

    broken = next(m for m in re.findall(r'\nmsgid "([^"\n]*\{word\}[^"\n]*)"\nmsgstr', text))
    translate(po, ITALIAN, broken=broken)
    r = locale("check", env=env)
    assert r.returncode == 1
    assert f"it (Italian): {len(ITALIAN) + 1} of {n} messages translated, 1 wrong" in r.stdout, r.stdout
    assert re.search(r"it: placeholders \[[^]]*'word_it'[^]]*\] instead of \[[^]]*'word'[^]]*\]", r.stdout), r.stdout
    for lang in ("de", "es", "fr", "zh"):
        assert f"{lang} (" in r.stdout and f": {n} of {n} messages translated" in r.stdout
    translate(po, {broken: broken})  # fixed: kept in English words, placeholders right
    assert locale("check", env=env).stdout.count("wrong") == 0

    r = locale("compile", env=env)
    mo = po.with_suffix(".mo")
    assert r.returncode == 0 and str(mo) in r.stdout and mo.stat().st_mtime >= po.stat().st_mtime
    r = locale("update", env=env)
    assert r.returncode == 0 and r.stdout.count("unchanged") == 6, r.stdout  # the template and five catalogues

    lesson = tmp_path / "pesca.toml"
    lesson.write_text(PESCA.format(title="Pesca: frutto o sport?"), encoding="utf-8")
    forget_catalogues()
    check_italian_frames(lesson, tmp_path, monkeypatch)

    # the commands: one warning naming the count, and --language it on an English lesson
    r = subprocess.run(
        [ATTNVID, "script", "Embeddings", "--lesson", str(lesson)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    warn = (f"attnvid: warning: Italian catalogue translates {len(ITALIAN) + 1} of {n} messages; the rest are shown "
            "in English\n")
    assert r.returncode == 0 and r.stderr.startswith(warn) and r.stderr.count("warning") == 1, r.stderr
    assert "*Le parole diventano vettori*" in r.stdout and "*Reading a vector*" in r.stdout  # the rest: English
    r = subprocess.run([ATTNVID, "script", "Embeddings", "--language", "it"], capture_output=True, text=True, env=env,
                       cwd=tmp_path, timeout=300)
    assert r.returncode == 0 and r.stderr.startswith(warn) and r.stderr.count("warning") == 1, r.stderr
    assert "*Le parole diventano vettori*" in r.stdout


def test_a_lesson_carries_its_own_italian_catalogue(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``pesca.it.po`` beside ``pesca.toml``: read at run time, no compile step, no change to the
    package (which ships no Italian); it wins over the package's catalogue for that language."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    from attncore import load_lesson
    from attncore.i18n import _, use

    monkeypatch.delenv(LOCALE_ENV, raising=False)
    forget_catalogues()
    assert not (LOCALE_DIR / "it").exists()
    lesson = tmp_path / "pesca.toml"
    lesson.write_text(PESCA.format(title="Pesca: frutto o sport"), encoding="utf-8")
    cat = Catalog(locale="it")  # a translator's few lines: no header but the language, no .mo
    for msgid, text in ITALIAN.items():
        cat.add(msgid, text)
    with (tmp_path / "pesca.it.po").open("wb") as f:
        write_po(f, cat)
    loaded = load_lesson(lesson)
    assert loaded.catalogue == str(tmp_path / "pesca.it.po")
    with use(loaded.language, loaded.catalogue):
        assert _("Words become vectors") == "Le parole diventano vettori"
        assert _("Softmax") == "Softmax"  # untranslated: the English
    check_italian_frames(lesson, tmp_path, monkeypatch)
    assert not list(tmp_path.glob("*.mo")) and not (LOCALE_DIR / "it").exists()

    r = subprocess.run([ATTNVID, "values", "--lesson", str(lesson)], capture_output=True, text=True, cwd=tmp_path,
                       timeout=300)
    assert r.returncode == 0 and r.stderr.count("\n") == 1, r.stderr
    assert re.fullmatch(r"attnvid: warning: Italian catalogue translates 4 of \d+ messages; the rest are shown in "
                        r"English\n", r.stderr), r.stderr

    # the lesson's catalogue wins over the package's: French words of souris, the lesson's own French
    (tmp_path / "souris.toml").write_text((ROOT / "attncore" / "lessons" / "souris.toml").read_text(encoding="utf-8"),
                                          encoding="utf-8")
    fr = Catalog(locale="fr")
    fr.add("Words become vectors", "Les mots, des vecteurs")
    with (tmp_path / "souris.fr.po").open("wb") as f:
        write_po(f, fr)
    souris = load_lesson(tmp_path / "souris.toml")
    with use(souris.language, souris.catalogue):
        assert _("Words become vectors") == "Les mots, des vecteurs"
        assert _("Softmax") != "" and _("Embeddings") != "Embeddings"  # the rest: the package's French


@pytest.mark.parametrize(("args", "says"), [
    (["values", "--language", "xx"], "attnvid: error: --language: 'xx' is not a language code CLDR knows"),
    (["values", "--lesson", str(ROOT / "tests" / "bad_lessons" / "language_unknown.toml")],
     "language: 'xx' is not a language CLDR knows"),
])
def test_an_unknown_language_is_refused_in_one_line(args: list[str], says: str, tmp_path: Path) -> None:
    if args[1] == "--language":  # values takes no --language: script does, and every command that renders
        args = ["script", *args[1:]]
    r = subprocess.run([ATTNVID, *args], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1 and says in r.stderr, r.stderr
    assert not (tmp_path / "media").exists()


def test_a_language_without_a_catalogue_gets_one_warning_and_its_numbers(tmp_path: Path) -> None:
    """Arabic: CLDR knows it, nothing translates it: English words, Arabic's numbers, one warning."""
    r = subprocess.run(
        [ATTNVID, "script", "Embeddings", "--language", "ar"], capture_output=True, text=True, cwd=tmp_path, timeout=300
    )
    assert r.returncode == 0 and r.stderr.startswith(
        "attnvid: warning: no Arabic catalogue (ar): the lecture's text is shown in English, its numbers as Arabic "
        "writes them; to translate it: python -m attncore.locale init ar (docs/how-to/language.md)\n"), r.stderr
    assert r.stderr.count("warning") == 1 and "*Words become vectors*" in r.stdout
    from attncore.display import fmt
    from attncore.i18n import use

    with use("fa"):  # Persian's own digits (CLDR: arabext), its decimal sign
        assert fmt(2.5, 1) == "۲٫۵"
    with use("it"):
        assert fmt(1234.5, 1) == "1234,5" or fmt(1234.5, 1) == "1.234,5"


def test_the_locale_tool_answers_help_and_writes_nothing_on_an_unchanged_tree(copy_of_locale: Path) -> None:
    env = {**os.environ, LOCALE_ENV: str(copy_of_locale), "PYTHONPATH": str(ROOT)}
    r = locale("--help", env=env)
    assert r.returncode == 0 and "init CODE" in r.stdout and r.stderr == ""
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in copy_of_locale.rglob("*.po*")}
    r = locale("update", env=env)
    assert r.returncode == 0 and r.stdout.count("unchanged") == 5, r.stdout
    assert {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in copy_of_locale.rglob("*.po*")} == before
    r = subprocess.run([ATTNVID, "locale", "--help"], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0 and "init" in r.stdout and "check" in r.stdout
    r = subprocess.run([ATTNVID, "locale", "init", "xx"], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "'xx' is not a language code CLDR knows" in r.stderr


def test_a_hand_written_lesson_catalogue_gets_the_languages_plural_rule(tmp_path: Path) -> None:
    """A lesson's ``.po`` written by hand, no header at all: the plural rule is CLDR's for its
    language (Babel), so Italian's three forms (one, many, other) and Arabic's six fall right."""
    from attncore.i18n import ngettext, use

    (tmp_path / "pesca.toml").write_text(PESCA.format(title="Pesca"), encoding="utf-8")
    (tmp_path / "pesca.it.po").write_text(
        'msgid "{n} scene"\nmsgid_plural "{n} scenes"\nmsgstr[0] "{n} scena"\nmsgstr[1] "{n} di scene"\n'
        'msgstr[2] "{n} scene"\n', encoding="utf-8")
    from attncore import load_lesson

    lesson = load_lesson(tmp_path / "pesca.toml")
    with use(lesson.language, lesson.catalogue):
        assert [ngettext("{n} scene", "{n} scenes", n) for n in (1, 2, 1_000_000)] == [
            "{n} scena", "{n} scene", "{n} di scene"]
        assert ngettext("{n} section", "{n} sections", 2) == "{n} sections"  # not in it: English, English's rule
    forget_catalogues()


def test_a_translation_with_wrong_placeholders_is_shown_in_english_and_named(tmp_path: Path) -> None:
    """A lesson's catalogue whose translation renames a placeholder would fail when filled: it is
    left out (the English shown), and the one warning says so."""
    from attncore import load_lesson
    from attncore.i18n import _, language_warnings, use

    (tmp_path / "pesca.toml").write_text(PESCA.format(title="Pesca"), encoding="utf-8")
    (tmp_path / "pesca.it.po").write_text(
        'msgid "under {number}"\nmsgstr "sotto {numero}"\n\nmsgid "above {number}"\nmsgstr "sopra {number}"\n',
        encoding="utf-8")
    lesson = load_lesson(tmp_path / "pesca.toml")
    with use(lesson.language, lesson.catalogue):
        assert _("under {number}").format(number="0,01") == "under 0,01"
        assert _("above {number}").format(number="0,01") == "sopra 0,01"
    [warning] = language_warnings(lesson.language, lesson.catalogue)
    assert re.fullmatch(r"Italian catalogue translates 1 of \d+ messages \(1 more left out: its placeholders are "
                        r"wrong; python -m attncore.locale check names it\); the rest are shown in English", warning)
    forget_catalogues()


def test_an_edited_translation_renders_again(tmp_path: Path) -> None:
    """The render cache key covers the catalogues of the lesson's language (the lesson's own
    included): a corrected translation is not served from the cache; an English lesson's key
    is as it was."""
    from attncore import load_lesson
    from attnvid.render.jobs import plan

    lesson_path = tmp_path / "pesca.toml"
    lesson_path.write_text(PESCA.format(title="Pesca"), encoding="utf-8")
    po = tmp_path / "pesca.it.po"

    def key() -> str:
        (job,) = plan(load_lesson(lesson_path), SceneSettings(lesson=str(lesson_path)), ["TitleCard"], "mp4",
                      tmp_path / "media")
        return job.key

    no_catalogue = key()
    po.write_text(
        'msgid "Self-attention, step by step"\nmsgstr "Auto-attenzione, passo dopo passo"\n', encoding="utf-8"
    )
    first = key()
    po.write_text('msgid "Self-attention, step by step"\nmsgstr "Auto-attenzione, un passo alla volta"\n',
                  encoding="utf-8")
    assert len({no_catalogue, first, key()}) == 3
    assert key() == key()
