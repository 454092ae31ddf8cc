"""The render cache key: what changes re-renders, what does not.

The key of a scene covers its own file, the shared scene modules, attncore, the lesson,
quality, format, voice and versions. Tested on a copy of the source tree, so that files
can be edited freely, and end to end with a real render.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import ATTNVID, ROOT

import scenes.cli.engine as engine


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of scenes/ and attncore/ that the key is computed from."""
    for d in ("scenes", "attncore"):
        shutil.copytree(ROOT / d, tmp_path / d, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(engine, "SCENES_DIR", tmp_path / "scenes")
    monkeypatch.setattr(engine, "ATTNCORE_DIR", tmp_path / "attncore")
    return tmp_path


def keys(tree: Path, lesson: str = "L", quality: str = "low", fmt: str = "mp4", voice: str = "none") -> dict[str, str]:
    files = sorted((tree / "scenes").glob("s[0-9][0-9]_*.py"))
    assert len(files) >= 11
    return {f.name: engine.cache_key(f, lesson, quality, fmt, voice) for f in files}


def edit(path: Path) -> None:
    path.write_text(path.read_text(encoding="utf-8") + "\n# a one-line change\n", encoding="utf-8")


def test_no_change_same_key(tree: Path) -> None:
    assert keys(tree) == keys(tree)


def test_changing_one_scene_changes_only_its_key(tree: Path) -> None:
    before = keys(tree)
    edit(tree / "scenes" / "s05_softmax.py")
    after = keys(tree)
    changed = {k for k in before if before[k] != after[k]}
    assert changed == {"s05_softmax.py"}


@pytest.mark.parametrize("shared", ["scenes/components.py", "scenes/theme.py", "scenes/base.py", "attncore/steps.py",
                                    "attncore/lessons/default.toml"])
def test_changing_a_shared_file_changes_every_key(tree: Path, shared: str) -> None:
    before = keys(tree)
    edit(tree / shared)
    after = keys(tree)
    if shared.endswith(".toml"):
        # Lesson data reaches the key through the lesson itself (next test), not the file.
        return
    assert all(before[k] != after[k] for k in before)


@pytest.mark.parametrize("field", ["lesson", "quality", "fmt", "voice"])
def test_lesson_quality_format_and_voice_are_in_the_key(tree: Path, field: str) -> None:
    base = keys(tree)
    other = keys(tree, **{field: {"lesson": "L2", "quality": "high", "fmt": "webm", "voice": "espeak|x"}[field]})
    assert all(base[k] != other[k] for k in base)


def test_a_lesson_value_changes_the_key() -> None:
    from attncore import builtin_lesson, parse_lesson
    from attncore.lesson import tomllib  # the same parser the loader uses

    text = (ROOT / "attncore" / "lessons" / "default.toml").read_text(encoding="utf-8")
    a = builtin_lesson("default")
    b = parse_lesson(tomllib.loads(text.replace("cat         = [3,", "cat         = [2.5,")), source="built-in")
    assert repr(a) != repr(b)
    f = ROOT / "scenes" / "s01_embeddings.py"
    assert engine.cache_key(f, repr(a), "low", "mp4") != engine.cache_key(f, repr(b), "low", "mp4")


@pytest.mark.render
def test_rerender_only_when_inputs_change(tmp_path: Path) -> None:
    """End to end: a second render is served from the cache; a lesson change re-renders."""
    lesson = tmp_path / "mine.toml"
    lesson.write_text((ROOT / "attncore" / "lessons" / "default.toml").read_text(encoding="utf-8"), encoding="utf-8")

    def render() -> str:
        r = subprocess.run([ATTNVID, "render", "SimplifiedAttention", "--lesson", str(lesson)], cwd=tmp_path,
                           capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stderr
        return r.stderr

    first = render()
    assert "rendered" in first
    video = tmp_path / "media" / "mine" / "scenes" / "low" / "02_SimplifiedAttention.mp4"
    stamp = video.stat().st_mtime_ns
    second = render()
    assert "unchanged, not rendered" in second and video.stat().st_mtime_ns == stamp
    lesson.write_text(lesson.read_text(encoding="utf-8").replace("cat         = [3,", "cat         = [2.5,"), encoding="utf-8")
    third = render()
    assert "rendered in" in third and video.stat().st_mtime_ns != stamp
