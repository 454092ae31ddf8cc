"""``attnvid doctor``: every part present here; a hidden part is named with its fix and fails.

A part is hidden the way a lecturer's machine lacks it: a PATH whose folder holds every
program of the real PATH except the hidden ones.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import ATTNVID

NAMES = [
    "python",
    "packages",
    "manim",
    "cairo",
    "pango",
    "build libraries",
    "math",
    "fonts",
    "CJK font",
    "espeak-ng",
    "piper",
    "piper voice",
    "voice language",
    "disk",
    "media",
]


def run(*args: str, cwd: Path, path: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if path is not None:
        env["PATH"] = path
    return subprocess.run([ATTNVID, *args], cwd=cwd, capture_output=True, text=True, timeout=300, env=env)


def path_without(tmp: Path, *hidden: str) -> str:
    """A PATH with every program of the current one except ``hidden`` (symlinks in one folder)."""
    folder = tmp / "bin"
    folder.mkdir()
    for d in os.environ["PATH"].split(os.pathsep):
        if not os.path.isdir(d):
            continue
        for name in os.listdir(d):
            src = Path(d) / name
            if name in hidden or (folder / name).exists() or not os.access(src, os.X_OK) or src.is_dir():
                continue
            (folder / name).symlink_to(src)
    return str(folder)


def lines(r: subprocess.CompletedProcess[str]) -> dict[str, str]:
    """{check name: its line} from doctor's stdout."""
    out = {}
    for line in r.stdout.splitlines():
        status, _, rest = line.partition(" ")
        out[rest.strip().split(":")[0]] = line
    return out


@pytest.fixture()
def mount(tmp_path: Path) -> Iterator[list[Path]]:
    """Mount points made by the test, unmounted afterwards."""
    made: list[Path] = []
    yield made
    for p in made:
        subprocess.run(["umount", "-l", str(p)], check=False)


@pytest.mark.slow
def test_doctor_passes_here_with_every_line_ok(tmp_path: Path) -> None:
    r = run("doctor", "--voice", "espeak", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    found = lines(r)
    assert list(found) == NAMES
    for line in found.values():
        assert line.startswith("ok "), line
    assert "LaTeX is not needed" in found["math"] and "typeset by Typst in DejaVu Math TeX Gyre" in found["math"]
    assert "DejaVu Sans, DejaVu Sans Mono" in found["fonts"]
    assert "Traceback" not in r.stderr and "every needed part is present" in r.stderr
    assert not (tmp_path / "media").exists(), "doctor only tries media/, it does not create it"


@pytest.mark.slow
def test_missing_espeak_is_a_warning_unless_the_voice_needs_it(tmp_path: Path) -> None:
    path = path_without(tmp_path, "espeak-ng", "espeak")
    r = run("doctor", cwd=tmp_path, path=path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert lines(r)["espeak-ng"] == ("warning  espeak-ng: not installed (needed only for --voice espeak); "
                                     "fix: apt-get install -y espeak-ng")
    r = run("doctor", "--voice", "espeak", cwd=tmp_path, path=path)
    assert r.returncode == 1
    line = "espeak-ng: not installed; fix: apt-get install -y espeak-ng"
    assert lines(r)["espeak-ng"] == f"missing  {line}"
    assert "missing espeak-ng" in r.stderr
    # render meets the same missing part: the same line, before anything is written
    r = run("render", "SimplifiedAttention", "--voice", "espeak", cwd=tmp_path, path=path)
    assert r.returncode == 1
    assert r.stderr == f"attnvid: error: {line}\n"
    assert not (tmp_path / "media").exists()


@pytest.mark.slow
def test_hidden_fontconfig_is_named_with_its_fix(tmp_path: Path) -> None:
    r = run("doctor", cwd=tmp_path, path=path_without(tmp_path, "fc-match", "fc-list"))
    assert r.returncode == 1
    assert lines(r)["fonts"] == ("missing  fonts: fc-match/fc-list (fontconfig) not found; "
                                 "fix: apt-get install -y fontconfig")
    assert sum(line.startswith("missing") for line in r.stdout.splitlines()) == 1, r.stdout


@pytest.mark.slow
def test_hidden_pkg_config_is_named_with_its_fix(tmp_path: Path) -> None:
    r = run("doctor", cwd=tmp_path, path=path_without(tmp_path, "pkg-config", "pkgconf"))
    assert r.returncode == 1
    assert lines(r)["build libraries"] == ("missing  build libraries: pkg-config is not installed; "
                                           "fix: apt-get install -y pkg-config libcairo2-dev libpango1.0-dev")


@pytest.mark.slow
def test_read_only_media_is_missing_and_a_tiny_disk_only_warns(tmp_path: Path, mount: list[Path]) -> None:
    ro, small = tmp_path / "ro", tmp_path / "small"
    for p, opts in ((ro, "ro,size=300k"), (small, "size=300k")):
        p.mkdir()
        subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(p)], check=True)
        mount.append(p)
    r = run("doctor", "--media", str(ro), cwd=tmp_path)
    assert r.returncode == 1
    assert lines(r)["media"] == (f"missing  media: {ro} is on a read-only file system; "
                                 "fix: render into a writable folder with --media DIR")
    r = run("doctor", "--media", str(small), cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert lines(r)["disk"].startswith(f"warning  disk: 0.0 GB free for {small} (under 1 GB")
    assert lines(r)["media"] == f"ok       media: {small} is writable"
    assert os.listdir(small) == [], "the write test leaves nothing behind"


def test_tex_mobjects_in_a_scene_are_found(tmp_path: Path) -> None:
    from attnvid.render.runtime import tex_users

    (tmp_path / "s99_formula.py").write_text("from manim import MathTex, Text\nfrom manim import VGroup\n")
    (tmp_path / "s98_plain.py").write_text('"""Tex and MathTex in prose only."""\nfrom manim import Text\n')
    assert tex_users(tmp_path) == ["s99_formula.py: MathTex"]
    assert tex_users() == [], "the lecture draws every formula with Pango"


def test_doctor_checks_the_theme_fonts() -> None:
    from attnvid.render.runtime import FONTS
    from scenes.theme import FONT, MONO

    assert (FONT, MONO) == FONTS


def test_math_check_names_a_missing_typst_or_maths_font(monkeypatch: pytest.MonkeyPatch) -> None:
    """Formulas are typeset by Typst: without the package, or without its maths font, the
    ``math`` check (doctor, and every render's runtime check) fails with the fix."""
    import sys

    import typst

    from attnvid.render import runtime

    monkeypatch.setitem(sys.modules, "typst", None)  # import typst now raises ImportError
    c = runtime.check_math()
    assert not c.ok and c.needed and "typst package cannot be imported" in c.detail and c.fix == runtime.SETUP
    monkeypatch.setitem(sys.modules, "typst", typst)
    monkeypatch.setattr(runtime, "MATH_FONT", "No Such Maths")  # a font Typst does not find
    c = runtime.check_math()
    assert not c.ok and "No Such Maths" in c.detail and c.fix == "apt-get install -y fonts-dejavu-extra"
    runtime.require_runtime.cache_clear()
    with pytest.raises(runtime.UserError, match="math: Typst does not find the maths font"):
        runtime.require_runtime("none")
    runtime.require_runtime.cache_clear()
