"""The settings a render is made with: one record (:mod:`attnstage.settings`), the only
reader and writer of ``ATTNVID_*``; a field added to it reaches a scene in another process
with no other change than the record, the place that sets it and the scene that reads it."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import fields, replace
from pathlib import Path

import pytest
from conftest import ROOT

from attnstage.settings import DEFAULTS, SceneSettings, env_name

#: The packages that may not name an ``ATTNVID_`` variable, but in the record's module.
PACKAGES = ("attncore", "attnstage", "attnvid", "scenes")
RECORD = ROOT / "attnstage" / "settings.py"


def test_every_field_has_a_default_and_crosses_the_environment_and_back() -> None:
    assert SceneSettings() == DEFAULTS == SceneSettings.from_environ({})
    given = SceneSettings(lesson="bank", voice="espeak;rate=160", style="light", language="fr", quality="medium",
                          text_cache="/tmp/texts", pseudo=True)
    environ = given.to_environ({})
    assert set(environ) == {env_name(f.name) for f in fields(SceneSettings)}
    assert env_name("style") == "ATTNVID_THEME" and environ["ATTNVID_THEME"] == "light"
    assert SceneSettings.from_environ(environ) == given
    assert SceneSettings.from_environ(DEFAULTS.to_environ({})) == DEFAULTS


def test_the_style_is_settled_by_the_option_then_the_lesson_then_the_default() -> None:
    assert SceneSettings().with_style("").style == "dark"
    assert SceneSettings().with_style("light").style == "light"
    assert SceneSettings(style="dark").with_style("light").style == "dark"


def python_files(package: str) -> list[Path]:
    return sorted(p for p in (ROOT / package).rglob("*.py") if "__pycache__" not in p.parts)


@pytest.mark.parametrize("package", PACKAGES)
def test_only_the_record_names_an_attnvid_variable(package: str) -> None:
    named = [f"{p.relative_to(ROOT)}:{n}" for p in python_files(package) if p != RECORD
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if "ATTNVID_" in line]
    assert not named, f"only attnstage/settings.py reads or writes ATTNVID_*: {named}"


def test_the_record_imports_only_the_standard_library() -> None:
    imports = re.findall(r"^(?:from|import) (\S+)", RECORD.read_text(encoding="utf-8"), re.M)
    assert all(m.split(".")[0] in sys.stdlib_module_names or m == "__future__" for m in imports), imports


#: Run with the copy of the record first on the path: the command line's option group builds the
#: record from the options' values (a ``--caption-size`` option's parameter), and a "worker" builds
#: the fixture scene in a process of its own with the record handed over, as the render engine does.
WORKER = """
import os, subprocess, sys
from attnvid.options import settings_from
env = settings_from({"caption_size": "large"}).to_environ(dict(os.environ))
build = ("from scenes.inspect import build; from setting_scene import SettingReader; "
         "print(build(SettingReader, mobjects=False).read_value)")
sys.exit(subprocess.run([sys.executable, "-c", build], env=env).returncode)
"""


@pytest.mark.slow  # two processes that import Manim and build a scene
def test_a_field_added_to_the_record_reaches_a_scene(tmp_path: Path) -> None:
    """The record's source gains one line (a field with its default); nothing else changes: the
    option group fills it from an option of its name, and a scene built in another process reads it."""
    copy = tmp_path / "record" / "attnstage"
    shutil.copytree(ROOT / "attnstage", copy, ignore=shutil.ignore_patterns("__pycache__"))
    text = RECORD.read_text(encoding="utf-8")
    last = "    pseudo: bool = False\n"
    assert last in text, "the record's last field moved: name it here"
    (copy / "settings.py").write_text(text.replace(last, last + '    caption_size: str = "medium"\n'), encoding="utf-8")
    path = f"{copy.parent}:{ROOT}:{ROOT / 'tests'}"
    env = {**SceneSettings().to_environ({}), "PATH": "/usr/bin:/bin", "PYTHONPATH": path}
    shown = subprocess.run([sys.executable, "-c", WORKER], env=env, cwd=tmp_path, capture_output=True, text=True,
                           timeout=300)
    assert shown.returncode == 0, shown.stderr[-2000:]
    assert shown.stdout.strip().splitlines()[-1] == "large"
    # The real record has no such field: the same scene reads its absence.
    plain = subprocess.run([sys.executable, "-c", WORKER.replace('"caption_size": "large"', "")],
                           env={**env, "PYTHONPATH": f"{ROOT}:{ROOT / 'tests'}"}, cwd=tmp_path,
                           capture_output=True, text=True, timeout=300)
    assert plain.returncode == 0 and plain.stdout.strip().splitlines()[-1] == "absent", plain.stderr[-2000:]


def test_the_command_line_builds_the_record_from_its_options(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--theme`` and ``--language`` take one road: into the record, with the voice and its rate."""
    from attnvid.options import settings_from

    params = {"lesson_path": None, "voice": "espeak", "rate": 160, "theme": "light", "language": "fr",
              "quality": "medium", "scenes": ()}
    settings = settings_from(params)
    assert params == {"scenes": ()}, "the options of the record are taken out of the command's parameters"
    assert replace(settings, text_cache="", pseudo=False) == SceneSettings(
        voice="espeak;rate=160", style="light", language="fr", quality="medium")
    # --language not given: the environment's language (a worker's, a caller's) is kept
    monkeypatch.setenv(env_name("language"), "de")
    assert settings_from({"language": None, "theme": None}).language == "de"


def test_the_styles_are_one_list_in_the_settings_the_palette_and_the_lesson_format() -> None:
    from attncore import lesson_parse
    from attnstage import palette, settings

    assert tuple(palette.STYLES) == settings.STYLES == lesson_parse.STYLES
    assert palette.DEFAULT_STYLE is settings.DEFAULT_STYLE
