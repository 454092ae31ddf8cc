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


#: Test modules whose module-scoped fixture is expensive (a Dask cluster, LibreOffice's
#: recomputation of every workbook): all their tests run in one xdist process.
GROUPED_MODULES = ("test_batch", "test_workbook")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put the tests that share an expensive fixture in one xdist group (``--dist loadgroup``)."""
    for item in items:
        module = item.module.__name__ if isinstance(item, pytest.Function) and item.module else ""
        if "lecture_dir" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("lecture"))
        elif module in GROUPED_MODULES:
            item.add_marker(pytest.mark.xdist_group(module))


@pytest.fixture(scope="session")
def lecture_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real low-quality lecture with the espeak voice, rendered once per test session."""
    import subprocess

    work = tmp_path_factory.mktemp("lecture")
    r = subprocess.run([ATTNVID, "lecture", "--quality", "low", "--voice", "espeak"], cwd=work,
                       capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0, r.stderr[-3000:]
    folder = Path(r.stdout.strip().splitlines()[-1])
    assert folder == Path("media/lecture/low"), "the last line is the lecture folder"
    return work / folder


@pytest.fixture(scope="session")
def lecture() -> tuple[type, ...]:
    from scenes.lecture import LECTURE

    return LECTURE


@pytest.fixture(autouse=True)
def _quiet_manim_cwd(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    # Manim writes its text cache under ./media: keep tests out of the repository's media/.
    monkeypatch.chdir(tmp_path_factory.getbasetemp())
