"""The lecture in the students' language (issue 25): catalogues, numbers, and the frames read back.

- every catalogue translates every message of the template Babel extracts from the code, with
  the same placeholders and every plural form (and the check fails on a broken one);
- ``setup.py`` compiles the catalogues to ``.mo`` files that gettext reads back;
- numbers follow the language's decimal sign and grouping (Babel's CLDR data);
- the French and German lectures, read back by OCR (tesseract) at the last frame of every
  section: no English word is left on screen, every number has a decimal comma; and the
  layouts hold in every shipped language (German words are long, Chinese needs its font).
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import built_scene
from test_lesson_scenes import check_scene

from attncore import builtin_lesson, builtin_lessons
from attncore.catalogues import extract
from attncore.display import fmt, said
from attncore.i18n import (
    LANGUAGES,
    _,
    catalogue_path,
    compile_po,
    fields,
    list_of,
    ngettext,
    problems,
    quoted,
    use,
    viewer_language,
)
from scenes.inspect import visible_texts
from scenes.lecture import LECTURE

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = LANGUAGES[1:]
#: The built-in lesson of each language (the same story: one word, two senses).
BUILT_IN = {"en": "default", "fr": "souris", "de": "maus", "es": "raton", "zh": "pingguo"}


def _read(path: Path, lang: str) -> Any:
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        return read_po(f, locale=lang)


@pytest.fixture(scope="module")
def template() -> Any:
    return extract()


# -- catalogues ------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", SHIPPED)
def test_every_catalogue_is_complete(template: Any, lang: str) -> None:
    """Every message Babel extracts has a translation, not fuzzy, with the message's placeholders
    and as many plural forms as the language has."""
    assert len(template) > 300  # the lecture's text, not a handful
    cat = _read(catalogue_path(lang), lang)
    found = problems(cat, template)
    assert not found, f"{len(found)} problems, first: " + "\n".join(found[:15])


def test_french_elides_with_the_typographic_apostrophe() -> None:
    """French writes "l’attention", not "l'attention" (the lecture's words; a lesson's own words,
    like "l'écran", are the author's and stay as typed)."""
    cat = _read(catalogue_path("fr"), "fr")
    texts = [t for m in cat if m.id for t in (m.string if isinstance(m.string, tuple) else (m.string,))]
    straight = [t for t in texts if re.search(r"(?<=[^\W\d_])'(?=[^\W\d_])", t)]
    assert not straight, straight[:5]
    assert sum("’" in t for t in texts) > 100


def test_the_check_finds_a_missing_translation_and_a_broken_placeholder(template: Any) -> None:
    from babel.messages.catalog import Catalog

    msg = next(m for m in template if isinstance(m.id, str) and fields(m.id))
    plural = next(m for m in template if isinstance(m.id, tuple))
    cat = Catalog(locale="fr")
    broken = re.sub(r"\{([a-z_]+)\}", r"{\1x}", msg.id, count=1)
    cat.add(msg.id, broken, context=msg.context)
    cat.add(plural.id, (plural.id[0],), context=plural.context)  # French needs 2 forms
    found = problems(cat, template)
    assert any("placeholders" in p and repr(msg.id) in p for p in found)
    assert any("plural forms" in p for p in found)
    assert any("missing" in p for p in found)


def test_setup_compiles_the_catalogues_to_mo_files_gettext_reads(tmp_path: Path) -> None:
    """The build step that runs when the package is built or installed writes one .mo per .po."""
    import gettext
    import importlib.util

    from setuptools import Distribution

    spec = importlib.util.spec_from_file_location("attnvid_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    setup_py = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(setup_py)  # the project's setup.py (setup() runs only as __main__)

    dist = Distribution({"name": "attnvid", "packages": []})
    cmd = setup_py.BuildWithCatalogues(dist)
    cmd.initialize_options()
    cmd.build_lib = str(tmp_path)
    cmd.finalize_options()
    cmd.packages, cmd.py_modules, cmd.package_data = [], [], {}
    cmd.run()
    for lang in SHIPPED:
        mo = tmp_path / catalogue_path(lang).relative_to(ROOT).with_suffix(".mo")
        assert mo.read_bytes() == compile_po(catalogue_path(lang))
        t = gettext.GNUTranslations(io.BytesIO(mo.read_bytes()))
        with use(lang):
            assert t.gettext("under {number}") == _("under {number}") != "under {number}"


def test_no_mo_file_is_committed() -> None:
    tracked = subprocess.run(["git", "ls-files", "attncore/locale"], cwd=ROOT, capture_output=True, text=True).stdout
    if not tracked:  # not a git checkout (an unpacked sdist): nothing to ask
        return
    assert not [f for f in tracked.split() if f.endswith(".mo")]
    assert {f"attncore/locale/{lang}/LC_MESSAGES/attnvid.po" for lang in SHIPPED} <= set(tracked.split())


# -- numbers and words -----------------------------------------------------------------------


def test_numbers_follow_the_language() -> None:
    want = {"en": ("0.26", "−1234.50", "under 0.01"), "fr": ("0,26", "−1\u202f234,50", None),
            "de": ("0,26", "−1.234,50", None), "es": ("0,26", "−1.234,50", None), "zh": ("0.26", "−1,234.50", None)}
    for lang, (small, large, tiny) in want.items():
        with use(lang):
            assert fmt(0.256, 2) == small and fmt(-1234.5, 2) == large
            assert fmt(0.125, 2).endswith("13")  # rounding unchanged: half away from zero
            if tiny:
                assert said(0.001, 2) == tiny
            else:
                assert fmt(0.01, 2) in said(0.001, 2) and "under" not in said(0.001, 2)
    with use("fr"):
        assert quoted("chat") == "«\u00a0chat\u00a0»" and list_of(["a", "b", "c"]) == "a, b et c"  # no-break spaces
    with use("de"):
        assert quoted("Katze") == "„Katze“"


def test_plural_forms_follow_the_language(template: Any) -> None:
    plurals = [m for m in template if isinstance(m.id, tuple)]
    with use("fr"):  # French: 0 and 1 are singular (of a message whose forms differ: "{n} pas d’Adam" does not)
        plural = next(m for m in plurals if ngettext(*m.id, 1) != ngettext(*m.id, 2))
        assert ngettext(*plural.id, 0) == ngettext(*plural.id, 1)
    with use("zh"):
        assert ngettext(*plural.id, 1) == ngettext(*plural.id, 5)


def test_a_language_without_a_catalogue_is_shown_in_english_with_its_own_numbers() -> None:
    """Any CLDR language is a viewer language (its numbers are its own); without a catalogue its
    text is the code's English (issue 47: it used to be English throughout)."""
    assert [viewer_language(c) for c in ("it", "pt-br", "fr-be", "cmn", "de", "xx")] == [
        "it",
        "pt",
        "fr",
        "zh",
        "de",
        "en",
    ]
    with use("it"):
        assert _("under {number}") == "under {number}" and fmt(0.256, 2) == "0,26"
        assert list_of(["a", "b", "c"]) == "a, b and c"  # the English sentence keeps its English list


def test_every_language_has_a_built_in_lesson_of_its_own() -> None:
    assert set(BUILT_IN.values()) <= set(builtin_lessons())
    for lang, name in BUILT_IN.items():
        assert viewer_language(builtin_lesson(name).language) == lang
    zh = builtin_lesson("pingguo")
    assert all(" " in c.sentence for c in zh.contexts)  # words written with spaces between them


# -- messages to the author stay English -----------------------------------------------------


def test_help_errors_and_doctor_stay_english(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from attnvid.cli import cli as main

    runner = CliRunner()
    r = runner.invoke(main, ["render", "--help"])
    assert r.exit_code == 0 and "--language CODE" in r.output and "The language viewers see" in r.output
    r = runner.invoke(main, ["render", "NoSuchScene", "--language", "fr"])
    said_ = r.output + str(r.exception or "")
    assert r.exit_code != 0 and "unknown scene 'NoSuchScene'" in said_ and said_.isascii()
    r = runner.invoke(main, ["render", "--language", "xx"])
    assert getattr(r.exception, "code", None) == 2 and "'xx' is not a language code CLDR knows" in str(r.exception)
    r = runner.invoke(main, ["doctor", "--voice", "piper", "--language", "de", "--media", str(tmp_path)])
    lines = [line for line in r.output.splitlines() if line.startswith("missing  voice language")]
    assert lines == ["missing  voice language: only the English Piper voice (en_US-joe-medium) is bundled, not one "
                     "for German (de); fix: give a German (de) Piper model with --voice piper:MODEL.onnx, or use "
                     "--voice espeak"]


# -- the frames, read back --------------------------------------------------------------------

#: Words that may stay as they are in any language: the field's names and the matrices'.
ALLOWED = {"softmax", "exp", "concat", "max", "query", "key", "value"} - {"query", "key", "value"}
OCR = {"fr": "fra", "de": "deu", "es": "spa", "zh": "chi_sim"}


def _words(text: str) -> set[str]:
    """The words of ``text`` (three letters or more), lower case; a word in capitals is left out:
    tesseract reads the shading of heat-map cells as such ("RATE", "KIA"), and the lecture's
    English text is never written in capitals."""
    text = re.sub(r"\{[^{}]*\}", " ", text)
    return {w.lower() for w in re.findall(r"[^\W\d_]{3,}", text) if not w.isupper()}


@pytest.fixture(scope="module")
def english_words(template: Any) -> set[str]:
    return {w for m in template for s in ((m.id,) if isinstance(m.id, str) else m.id) for w in _words(s)}


def _language_words(lang: str, lesson: Any) -> set[str]:
    cat = _read(catalogue_path(lang), lang)
    words = {
        w for m in cat if m.id for s in ((m.string,) if isinstance(m.string, str) else m.string) for w in _words(s)
    }
    own = " ".join(
        [lesson.title, *lesson.dimensions, *(w for w, _v in lesson.vocabulary), *(c.name for c in lesson.contexts)]
    )
    return words | _words(own) | ALLOWED


def _rasterise(built: Any) -> list[Any]:
    """The frame at every checkpoint of a built scene, drawn by Manim's camera at 720p: tesseract
    misreads the small numbers of a 480p heat map, and the text is vector, so the layout build
    the other tests share (480p) draws as sharply at 720p."""
    from manim import Camera, ManimColor, tempconfig

    images = []
    with tempconfig({"quality": "medium_quality", "dry_run": True, "verbosity": "ERROR"}):
        camera = Camera(background_color=ManimColor(built.theme["background"]))
        for cp in built.checkpoints:
            camera.reset()
            camera.capture_mobjects(cp.mobjects)
            images.append(camera.get_image().copy())
    return images


def _ocr(image: Any, lang: str) -> str:
    buf = io.BytesIO()
    image.convert("RGB").save(buf, format="PNG")
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    r = subprocess.run(["tesseract", "stdin", "stdout", "-l", OCR[lang]], input=buf.getvalue(),
                       capture_output=True, env=env, check=True)
    return r.stdout.decode()


@pytest.mark.slow
@pytest.mark.parametrize("cls", LECTURE, ids=[c.__name__ for c in LECTURE])
@pytest.mark.parametrize("lang", ["fr", "de"])
def test_no_english_left_on_screen_and_decimal_commas(lang: str, cls: type, english_words: set[str]) -> None:
    """The last frame of every section of the French and German lectures, read by tesseract:
    no word of the English catalogue that is not also a word of the language (its catalogue,
    the lesson's own words, :data:`ALLOWED`), every number with a comma; and the layout holds."""
    if shutil.which("tesseract") is None:
        pytest.fail("tesseract is not installed: bash .ci/setup --tests installs it")
    name = BUILT_IN[lang]
    lesson = builtin_lesson(name)
    scene = built_scene(cls, name)  # the layout build, shared with the other tests of this run
    check_scene(scene, name)
    allowed = _language_words(lang, lesson)
    for cp, image in zip(scene.checkpoints, _rasterise(scene), strict=True):
        text = _ocr(image, lang)
        english = sorted(_words(text) & english_words - allowed)
        assert not english, f"{name}: {cls.__name__} / {cp.section}: English on screen: {english}\n{text}"
        # tesseract now and then reads a comma of a dense heat map as a point: a point number is
        # a misreading when the same number with a comma is a text of this frame (every number
        # text of the frame is checked to be the trace's, with its comma, by check_scene above)
        shown = {getattr(t.mob, "text", "") for t in visible_texts(cp)}
        points = [p for p in re.findall(r"(?<![\d,.])\d+\.\d+(?![\d,.])", text)
                  if not any(p.replace(".", ",") in t for t in shown)]
        assert not points, f"{name}: {cls.__name__} / {cp.section}: numbers with a decimal point: {points}\n{text}"


@pytest.mark.slow
@pytest.mark.parametrize("cls", LECTURE, ids=[c.__name__ for c in LECTURE])
@pytest.mark.parametrize("lang", ["es", "zh"])
def test_layouts_hold_in_spanish_and_chinese(lang: str, cls: type) -> None:
    check_scene(built_scene(cls, BUILT_IN[lang]), BUILT_IN[lang])


VIEWER_COMMANDS = ("render", "preview", "lecture", "batch", "storyboard", "workbook", "exercises", "script", "doctor")


@pytest.mark.parametrize("command", VIEWER_COMMANDS)
def test_every_command_that_writes_for_viewers_takes_language(command: str) -> None:
    from click.testing import CliRunner

    from attnvid.cli import cli

    r = CliRunner().invoke(cli, [command, "--help"])
    assert r.exit_code == 0 and "--language CODE" in r.output


def test_language_overrides_the_lesson_and_its_outputs_go_apart(tmp_path: Path) -> None:
    from attnstage.settings import SceneSettings
    from attnvid.lessons import get_lesson, output_root

    french = get_lesson(SceneSettings(lesson="souris"))
    assert french.language == "fr" and output_root(french, tmp_path) == tmp_path / "souris"
    settings = SceneSettings(lesson="souris", language="de")
    german = get_lesson(settings)
    assert german.language == "de" and german.vocabulary == french.vocabulary and repr(german) != repr(french)
    assert output_root(german, tmp_path, settings) == tmp_path / "souris" / "de"
    assert output_root(german, tmp_path, replace(settings, style="light")) == tmp_path / "souris" / "de" / "light"


def test_exercises_in_another_language(tmp_path: Path) -> None:
    """``--language`` on a command run in its own process: the default lesson's exercises in
    French (the sheet's text through pdftotext), written under fr/."""
    attnvid = str(Path(__import__("sys").executable).parent / "attnvid")
    r = subprocess.run([attnvid, "exercises", "--language", "fr", "--count", "2", "--media", str(tmp_path)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    folder = Path(r.stdout.strip().splitlines()[-1])
    assert folder.is_relative_to(tmp_path / "fr")
    text = subprocess.run(["pdftotext", str(folder / "exercises.pdf"), "-"], capture_output=True, text=True).stdout
    assert re.search(r"\d,\d", text) and not re.search(r"(?<![\d,.])\d+\.\d+(?![\d,.])", text), text[:500]
