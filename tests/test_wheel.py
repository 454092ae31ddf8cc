"""A lecturer's ``pip install`` (issue 50): the wheel ``pip wheel .`` builds holds every package
(every module of each top-level package of the clone), the compiled catalogues, the built-in
lessons and the lecture page's scripts and styles; installed into a fresh virtual environment
and run in an empty folder outside the clone, ``attnvid render PATH``, plain Manim and
``attnvid preview PATH`` draw the tutorial's scene of one's own, and ``attnvid lecture`` makes a
lecture (a lesson whose ``[lecture]`` is the title card alone, to stay short).

The wheel itself is installed by pip into the new environment, with ``--no-deps``; its
dependencies (Manim, PyAV, numpy..., 1.2 GB with their compiled parts) come from this test's own
environment through a ``.pth`` file instead of from PyPI, so that the test is quick and offline.
``pip check`` in the new environment proves they satisfy what the wheel declares. No ``PYTHONPATH``
reaches the commands: every module they import comes from the new environment."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT

pytestmark = [pytest.mark.render, pytest.mark.slow]

#: Top-level folders of the clone that are not installed.
NOT_PACKAGES = {"tests", "docs", "benchmarks", "media"}
TINY_LESSON = """\
# A lesson whose lecture is the title card alone: the wheel test's lecture, in seconds.
title = "Tiny"
dimensions = ["animal", "tech"]
decimals = 2

[vocabulary]
cat = [3, 0]
mouse = [2, 2]
keyboard = [0, 3]

[[contexts]]
name = "animal"
sentence = "cat mouse"
focus = "mouse"

[heads]
count = 1

[[lecture.parts]]
title = "The title"
scenes = ["TitleCard"]
"""


def packages() -> list[str]:
    """The top-level packages of the clone: its folders with an ``__init__.py``."""
    return sorted(p.parent.name for p in ROOT.glob("*/__init__.py") if p.parent.name not in NOT_PACKAGES)


def git_files(pattern: str) -> list[str]:
    """The committed (or added) files of the clone matching ``pattern``, relative to it."""
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", pattern], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    return sorted(out.split())


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``pip wheel .`` in a copy of the clone's files (as a fresh clone has them: the build's own
    leftovers, ``build/`` and ``*.egg-info``, stay out of the clone)."""
    folder, source = tmp_path_factory.mktemp("wheel"), tmp_path_factory.mktemp("clone")
    for name in git_files("*"):
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, source / name)
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", ".", "-w", str(folder), "--no-deps", "-q"],
                       cwd=source, env=clean_env(), capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    (whl,) = folder.glob("attnvid-*.whl")
    return whl


def test_the_wheel_holds_every_package_and_its_data(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"attncore", "attnvid", "scenes"} <= set(packages())
    for package in packages():
        modules = [f for f in git_files(f"{package}/*.py") if "__pycache__" not in f]
        missing = [m for m in modules if m not in names]
        assert modules and not missing, f"{package}: not in the wheel: {missing}"
    catalogues = git_files("attncore/locale/*.po")
    assert catalogues and all(po[:-3] + ".mo" in names for po in catalogues), "every catalogue, compiled"
    for data in ("attncore/lessons/*.toml", "attnvid/publish/*.js", "attnvid/publish/*.css"):
        files = git_files(data)
        assert files and all(f in names for f in files), f"{data}: not all in the wheel"
    assert not [n for n in names if n.startswith(("tests/", "docs/", "media/"))]


def dependencies(folder: Path) -> Path:
    """A folder of links to everything installed in this test's environment but attnvid itself
    (its metadata, an editable install's finder and path files): what the wheel depends on."""
    folder.mkdir()
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        name = entry.name.lower()
        if not (name.startswith(("attnvid", "__editable__")) or name.endswith(".pth") or name in packages()):
            (folder / entry.name).symlink_to(entry)
    return folder


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel installed by pip (its dependencies: see the module doc)."""
    env_dir = tmp_path_factory.mktemp("venv") / "lecturer"
    subprocess.run([sys._base_executable, "-m", "venv", "--without-pip", str(env_dir)], check=True, timeout=300)
    python = env_dir / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    (Path(purelib) / "_dependencies.pth").write_text(f"{dependencies(env_dir.parent / 'dependencies')}\n",
                                                     encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index",
                        "-q", str(wheel)], env=clean_env(), capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    return env_dir


def clean_env() -> dict[str, str]:
    """This environment without ``PYTHONPATH`` (the clone's packages, for the suite) and attnvid's settings."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH" and not k.startswith("ATTNVID_")}


def in_venv(venv: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = clean_env()
    env["PATH"] = os.pathsep.join([str(venv / "bin"), "/usr/local/bin", "/usr/bin", "/bin"])
    env["VIRTUAL_ENV"] = str(venv)
    return subprocess.run([str(venv / "bin" / args[0]), *args[1:]], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=900)


def test_a_lecturer_installs_the_wheel_and_renders(venv: Path, tmp_path: Path) -> None:
    folder = tmp_path / "course"  # empty, outside the clone
    folder.mkdir()
    assert not folder.resolve().is_relative_to(ROOT)
    for name in ("own_scene.py", "own_lesson.toml"):
        shutil.copy(ROOT / "docs" / "examples" / name, folder / name)
    (folder / "tiny.toml").write_text(TINY_LESSON, encoding="utf-8")

    where = in_venv(venv, "python", "-c", "import attncore, attnvid, scenes; "
                    "from attnvid.render import _trace; "
                    "print(attncore.__file__, attnvid.__file__, scenes.__file__, _trace.__file__)", cwd=folder)
    assert where.returncode == 0, where.stderr  # the wheel holds the C outline tracer, built for this Python
    assert all(Path(p).is_relative_to(venv) for p in where.stdout.split()), where.stdout
    check = in_venv(venv, "python", "-m", "pip", "check", cwd=folder)
    assert check.returncode == 0, check.stdout + check.stderr

    r = in_venv(venv, "attnvid", "render", "own_scene.py", "--quality", "low", cwd=folder)
    assert r.returncode == 0, r.stderr
    video = folder / r.stdout.strip().splitlines()[-1]
    assert video.name == "00_WhereOneWordLooks.mp4" and video.stat().st_size > 10_000
    assert video.with_suffix(".vtt").is_file()

    r = in_venv(venv, "python", "-m", "manim", "render", "-ql", "--disable_caching", "own_scene.py", cwd=folder)
    assert r.returncode == 0, r.stderr[-2000:]
    assert list((folder / "media" / "videos").rglob("WhereOneWordLooks.mp4"))

    r = in_venv(venv, "attnvid", "preview", "own_scene.py", cwd=folder)
    assert r.returncode == 0, r.stderr
    assert Path(r.stdout.strip().splitlines()[-1]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    r = in_venv(venv, "attnvid", "lecture", "--quality", "low", "--lesson", "tiny.toml", cwd=folder)
    assert r.returncode == 0, r.stderr[-2000:]
    lecture = folder / r.stdout.strip().splitlines()[-1]
    assert lecture == folder / "media" / "tiny" / "lecture" / "low"
    for made in ("lecture.mp4", "index.html", "lecture.js", "manifest.json"):
        assert (lecture / made).is_file(), f"the lecture folder holds {made}"
