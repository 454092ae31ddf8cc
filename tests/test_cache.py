"""The render cache key: what changes re-renders, what does not.

The key of a scene covers its own file, every other module of the scenes package (in
any subfolder), attncore, attnstage (settings, voices, captions), the attnvid modules a render
runs (Manim's settings), the lesson, quality, format, voice and versions. Tested on
a copy of the source tree, so that files can be edited freely, and end to end with a
real render.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import ATTNVID, ROOT

from attnvid.render import cache

PACKAGES = ("scenes", "attncore", "attnstage", "attnvid")


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of scenes/, attncore/, attnstage/ and attnvid/ that the key is computed from."""
    for d in PACKAGES:
        shutil.copytree(ROOT / d, tmp_path / d, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cache, "package_dir", lambda name: tmp_path / name)
    return tmp_path


def keys(tree: Path, lesson: str = "L", quality: str = "low", fmt: str = "mp4", voice: str = "none") -> dict[str, str]:
    found = sorted((tree / "scenes" / "steps").glob("[a-z]*.py"))
    files = [p for p in found if not any(p.stem.startswith(q.stem + "_") for q in found)]  # not the parts
    assert len(files) >= 11
    return {f.name: cache.cache_key(f, lesson, quality, fmt, voice) for f in files}


def edit(path: Path) -> None:
    path.write_text(path.read_text(encoding="utf-8") + "\n# a one-line change\n", encoding="utf-8")


def changed_keys(tree: Path, change: Path) -> set[str]:
    """The scenes whose key changes when ``change`` gets a one-line edit."""
    before = keys(tree)
    edit(change)
    after = keys(tree)
    return {k for k in before if before[k] != after[k]}


def test_no_change_same_key(tree: Path) -> None:
    assert keys(tree) == keys(tree)


def test_the_key_is_the_same_in_another_folder(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Files are named relative to their package, so a clone elsewhere reuses the renders."""
    copied = keys(tree)
    monkeypatch.setattr(cache, "package_dir", lambda name: ROOT / name)
    assert keys(ROOT) == copied


def test_changing_one_scene_changes_only_its_key(tree: Path) -> None:
    assert changed_keys(tree, tree / "scenes" / "steps" / "softmax.py") == {"softmax.py"}


def test_changing_a_part_of_a_scene_changes_only_its_key(tree: Path) -> None:
    """A scene split into parts (scenes/steps/mixing_layout.py for mixing.py): its key covers them."""
    assert changed_keys(tree, tree / "scenes" / "steps" / "mixing_layout.py") == {"mixing.py"}


def test_changing_the_palette_changes_every_key(tree: Path) -> None:
    before = keys(tree)
    edit(tree / "attnstage" / "palette.py")
    after = keys(tree)
    assert all(before[k] != after[k] for k in before)


def subfolder_module(tree: Path) -> Path:
    """A module in a subfolder of scenes (scenes/components/, created when it is still one file)."""
    folder = tree / "scenes" / "components"
    folder.mkdir(exist_ok=True)
    existing = sorted(p for p in folder.rglob("*.py") if p.name != "__init__.py")
    if existing:
        return existing[0]
    probe = folder / "probe.py"
    probe.write_text('"""A helper module in a subfolder of the scenes."""\n', encoding="utf-8")
    return probe


@pytest.mark.parametrize(
    "shared",
    [
        "scenes/components.py",
        "scenes/theme.py",
        "scenes/base.py",
        "scenes/inspect.py",
        "attncore/steps.py",
        "attncore/trace.py",
        "attnstage/speech/voices.py",
        "attnstage/speech/captions.py",
        "attnstage/settings.py",
        "attnvid/render/settings.py",
    ],
)
def test_changing_a_shared_module_changes_every_key(tree: Path, shared: str) -> None:
    path = tree / shared
    if not path.exists():  # a module that has become a package: its __init__.py
        path = path.with_suffix("") / "__init__.py"
    assert path.is_file(), f"{shared} moved: name its new place here"
    before = keys(tree)
    assert len(changed_keys(tree, path)) == len(before) >= 11


def test_changing_a_module_in_a_subfolder_of_scenes_changes_every_key(tree: Path) -> None:
    module = subfolder_module(tree)
    before = keys(tree)
    assert changed_keys(tree, module) == set(before), f"{module.relative_to(tree)} is not in the key"


def test_adding_a_module_in_a_subfolder_changes_every_key(tree: Path) -> None:
    before = keys(tree)
    nested = tree / "scenes" / "layout" / "deeper"
    nested.mkdir(parents=True, exist_ok=True)
    (nested / "grid.py").write_text("GAP = 0.25\n", encoding="utf-8")
    after = keys(tree)
    assert all(before[k] != after[k] for k in before)


def test_shared_files_reach_into_every_package_and_subfolder(tree: Path) -> None:
    module = subfolder_module(tree)
    names = {p.relative_to(tree).as_posix() for p in cache.shared_files()}
    assert module.relative_to(tree).as_posix() in names
    assert {
        "scenes/base.py",
        "attncore/steps.py",
        "attnstage/speech/voices.py",
        "attnstage/speech/captions.py",
        "attnstage/settings.py",
    } <= names
    assert not {n for n in names if n.startswith("scenes/steps/") and not n.endswith("__init__.py")}, \
        "another scene's file is in every key"


@pytest.mark.parametrize("app", ["attnvid/publish/page.py", "attnvid/commands/render.py", "attnvid/render/engine.py"])
def test_application_modules_that_draw_nothing_are_not_in_the_key(tree: Path, app: str) -> None:
    """The lecture page or a command's wording does not change a frame: no re-render."""
    assert changed_keys(tree, tree / app) == set()


@pytest.mark.parametrize("field", ["lesson", "quality", "fmt", "voice"])
def test_lesson_quality_format_and_voice_are_in_the_key(tree: Path, field: str) -> None:
    base = keys(tree)
    other = keys(tree, **{field: {"lesson": "L2", "quality": "high", "fmt": "webm", "voice": "espeak|x"}[field]})
    assert all(base[k] != other[k] for k in base)


def test_a_lesson_value_changes_the_key() -> None:
    """Lesson data reaches the key through the lesson itself, not through its file."""
    from attncore import builtin_lesson, parse_lesson
    from attncore.lesson import tomllib  # the same parser the loader uses

    text = (ROOT / "attncore" / "lessons" / "default.toml").read_text(encoding="utf-8")
    a = builtin_lesson("default")
    b = parse_lesson(tomllib.loads(text.replace("cat         = [3,", "cat         = [2.5,")), source="built-in")
    assert repr(a) != repr(b)
    f = ROOT / "scenes" / "steps" / "embeddings.py"
    assert cache.cache_key(f, repr(a), "low", "mp4") != cache.cache_key(f, repr(b), "low", "mp4")


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
    lesson.write_text(
        lesson.read_text(encoding="utf-8").replace("cat         = [3,", "cat         = [2.5,"), encoding="utf-8"
    )
    third = render()
    assert "rendered in" in third and video.stat().st_mtime_ns != stamp
