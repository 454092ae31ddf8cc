"""Shared fixtures: every lecture scene built once per test session (no video encoded)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ATTNVID = str(Path(sys.executable).parent / "attnvid")

_BUILT: dict[tuple[str, str], object] = {}


def built_scene(cls: type, lesson: str = "") -> object:
    """Build ``cls`` (cached per lesson) with checkpoints at every section end."""
    from attnvid.env import LESSON_ENV
    from scenes.inspect import build

    key = (cls.__name__, lesson)
    if key not in _BUILT:
        old = os.environ.get(LESSON_ENV)
        os.environ[LESSON_ENV] = lesson
        try:
            _BUILT[key] = build(cls)
        finally:
            if old is None:
                os.environ.pop(LESSON_ENV, None)
            else:
                os.environ[LESSON_ENV] = old
    return _BUILT[key]


@pytest.fixture(scope="session")
def lecture_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real low-quality lecture with the espeak voice, rendered once per test run.

    Under pytest-xdist every worker asks for it: the first renders it into the run's
    shared temporary folder under a file lock, the others wait and reuse it (the pattern
    pytest-xdist documents; its ``xdist_group`` marks do not group tests under pytest 9).
    """
    import fcntl
    import subprocess

    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # this run's, never an older run's
    with open(shared / "lecture.lock", "w", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        work, done = shared / "lecture", shared / "lecture.done"
        if not done.is_file():
            work.mkdir(exist_ok=True)
            r = subprocess.run([ATTNVID, "lecture", "--quality", "low", "--voice", "espeak"], cwd=work,
                               capture_output=True, text=True, timeout=1800)
            assert r.returncode == 0, r.stderr[-3000:]
            folder = Path(r.stdout.strip().splitlines()[-1])
            assert folder == Path("media/lecture/low"), "the last line is the lecture folder"
            done.write_text(str(folder), encoding="utf-8")
        return work / done.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def lecture() -> tuple[type, ...]:
    from scenes.lecture import LECTURE

    return LECTURE


@pytest.fixture(autouse=True)
def _quiet_manim_cwd(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    # Manim writes its text cache under ./media: keep tests out of the repository's media/.
    monkeypatch.chdir(tmp_path_factory.getbasetemp())
