"""The authoring API (issue 50): what a lecturer may import is named (``__all__`` of
``attncore`` and ``scenes.components``), on the API pages (``docs/api/``), and every public
component has a docstring whose example is a small scene that builds; a scene file of the
lecturer's own loads by path (:func:`attnvid.catalog.load_scene_file`) or says in one line
why not; the tutorial's scene shows the trace's numbers; a foreign ``scenes`` is named.

The renders (plain ``manim``, ``attnvid render``, ``attnvid preview``, a wheel) are in
``test_own_scene.py``."""

from __future__ import annotations

import inspect
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import ATTNVID, ROOT

import attncore
import scenes.components as components
from attnvid.catalog import load_scene_file
from attnvid.errors import UserError

EXAMPLE = ROOT / "docs" / "examples" / "own_scene.py"
API_PAGES = sorted((ROOT / "docs" / "api").glob("*.md"))
#: Public names that are not drawn (a source, a lookup, a box's measures, gaps): documented, no picture.
NOT_DRAWN = {"Source", "resolve", "CONTENT", "TINY_BUFF", "LABEL_BUFF", "ITEM_BUFF", "GROUP_BUFF", "DRIFT"}
#: Public components whose example is on the components page, not in their docstring: the
#: README's storyboards are stamped with scenes/theme.py's bytes (media/readme/make.py).
EXAMPLE_ON_PAGE = {"Theme"}
COMPONENTS_PAGE = ROOT / "docs" / "api" / "components.md"
MANIM_BLOCK = re.compile(r"^( *)\.\. manim:: (\w+)\n((?:\1    :[\w_]+:.*\n)*)\n((?:\1    .*\n|\n)+)", re.M)


def examples(name: str) -> list[tuple[str, str, str]]:
    """(class name, options, code) of every ``.. manim::`` example of the public component ``name``:
    in its docstring, or for :data:`EXAMPLE_ON_PAGE` on the components page, under its heading."""
    if name in EXAMPLE_ON_PAGE:
        page = COMPONENTS_PAGE.read_text(encoding="utf-8")
        doc = page[page.index(f".. autoclass:: scenes.theme.{name}"):]
    else:
        doc = inspect.getdoc(getattr(components, name)) or ""
    return [(m[2], m[3], textwrap.dedent(m[4])) for m in MANIM_BLOCK.finditer(doc + "\n")]


def test_public_names_exist_with_docstrings() -> None:
    for module in (attncore, components):
        assert len(module.__all__) == len(set(module.__all__)), f"{module.__name__}.__all__ names a name twice"
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isclass(obj) or inspect.isfunction(obj):
                assert inspect.getdoc(obj), f"{module.__name__}.{name} has no docstring"
    assert len(components.__all__) <= 25, "the public components stay a small set"


def test_every_public_name_is_on_the_api_pages() -> None:
    pages = "\n".join(p.read_text(encoding="utf-8") for p in API_PAGES)
    for module in (attncore, components):
        missing = [n for n in module.__all__ if not re.search(rf"\b{n}\b", pages)]
        assert not missing, f"{module.__name__}: not on docs/api/: {missing}"


def test_every_drawn_component_has_a_small_example() -> None:
    for name in sorted(set(components.__all__) - NOT_DRAWN):
        found = examples(name)
        assert len(found) == 1, f"{name}: its docstring needs one '.. manim::' example"
        cls, options, code = found[0]
        assert ":quality: low" in options and ":save_last_frame:" in options, f"{name}: low quality, last frame only"
        assert f"class {cls}(Scene)" in code and re.search(rf"\b{name}\b", code), f"{name}: the example draws {name}"


@pytest.mark.parametrize("name", sorted(set(components.__all__) - NOT_DRAWN))
def test_every_example_builds(name: str) -> None:
    """The examples run as the ``manim`` directive runs them (``from manim import *`` first),
    here without writing a picture (the docs build renders them)."""
    from manim import tempconfig

    ((cls, _, code),) = examples(name)
    namespace: dict[str, object] = {}
    with tempconfig({"dry_run": True, "quality": "low_quality", "disable_caching": True, "verbosity": "ERROR"}):
        exec(f"from manim import *\n{code}\n_scene = {cls}()\n_scene.render()\n", namespace)  # noqa: S102
    assert namespace["_scene"].mobjects, f"{name}: the example draws nothing"  # type: ignore[attr-defined]


# -- the loader ---------------------------------------------------------------------------------
def test_the_tutorial_scene_loads_once_under_a_private_name() -> None:
    cls = load_scene_file(EXAMPLE)
    assert cls.__name__ == "WhereOneWordLooks" and cls.__module__.startswith("_attnvid_scene_")
    assert load_scene_file(str(EXAMPLE)) is cls, "a second load is the same class"
    assert cls.own_lesson() == str(EXAMPLE.parent / "own_lesson.toml")


@pytest.mark.parametrize(
    "text, says",
    [
        (None, "no such scene file; give the path of a .py file"),
        ("x = 1\n", "no scene class; define one subclass of scenes.base.LessonScene in it"),
        ("def f(:\n", ":1: syntax error (invalid syntax); fix the line"),
        (
            "import no_such_module_here\n",
            "importing it failed (ModuleNotFoundError: No module named 'no_such_module_here')",
        ),
        (
            "from scenes.base import LessonScene\nclass A(LessonScene): pass\nclass B(LessonScene): pass\n",
            "2 scene classes (A, B); keep one scene class per file",
        ),
    ],
)
def test_a_bad_scene_file_is_one_line(tmp_path: Path, text: str | None, says: str) -> None:
    path = tmp_path / "mine.py"
    if text is not None:
        path.write_text(text, encoding="utf-8")
    with pytest.raises(UserError) as exc:
        load_scene_file(path)
    assert says in str(exc.value) and "\n" not in str(exc.value)
    assert not [m for m in sys.modules if m.startswith("_attnvid_scene_") and getattr(sys.modules[m], "__file__", "")
                == str(path.resolve())], "a failed load leaves no half module behind"


def test_the_tutorial_scene_shows_the_trace(tmp_path: Path) -> None:
    """Every number on screen equals the trace of the scene's own lesson (the lecture's own check)."""
    from scenes.components import Num
    from scenes.inspect import build, expected_text

    scene = build(load_scene_file(EXAMPLE))
    assert scene.lesson.title == "Where does the dog look?", "the lesson its LESSON names"
    assert [cp.section for cp in scene.checkpoints] == ["The sentence", "Where one word looks"]
    nums = {id(m): m for cp in scene.checkpoints for top in cp.mobjects for m in top.get_family() if isinstance(m, Num)}
    ctx = scene.trace.contexts[0]
    assert len(nums) == ctx.n, "one weight per word"
    for num in nums.values():
        assert num.source is not None and num.source.name == "attention"
        assert num.text == expected_text(scene.trace, num)
    assert scene.theme["weight"] == "#ff9f1c", "the lesson's own colours"
    peak = max(range(ctx.n), key=lambda j: ctx.attention[ctx.focus_index, j])
    said = " ".join(n.text for n in scene.narrations)
    assert attncore.fmt(ctx.attention[ctx.focus_index, peak], 2) in said and ctx.tokens[peak] in said


# -- a foreign ``scenes`` -----------------------------------------------------------------------
def test_a_foreign_scenes_package_is_named_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "scenes").mkdir()
    (tmp_path / "scenes" / "__init__.py").write_text("", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    r = subprocess.run([ATTNVID, "render", str(EXAMPLE)], cwd=tmp_path, env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == (f"attnvid: error: the package 'scenes' Python imports is {tmp_path / 'scenes'}, not attnvid's "
                        f"({ROOT / 'scenes'}); rename or move that folder, or run from another folder\n")
