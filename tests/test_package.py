"""The attnvid package: its layers, and the size of its parts.

- ``import attnvid`` and the ground floor the scenes stand on (attnstage: the settings, the
  speech's voices and captions) load neither manim nor the scenes;
- the scenes import nothing of attnvid, the application, which reaches them only through
  its catalogue (``attnvid/catalog.py``);
- nothing imports the old places (``scenes.cli``, ``scenes.narration``);
- no function in attnvid, scenes or attncore is over 60 lines, no module over 600.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

MANIM_FREE = ("attnvid", "attnstage", "attnstage.settings", "attnstage.speech", "attnstage.speech.voices",
              "attnstage.speech.captions")
MAX_FUNCTION_LINES = 60
MAX_MODULE_LINES = 600


def python_files(*folders: str) -> list[Path]:
    return sorted(p for d in folders for p in (ROOT / d).rglob("*.py") if "__pycache__" not in p.parts)


def imported_modules(path: Path) -> set[str]:
    """Absolute module names ``path`` imports (relative imports resolved against its package)."""
    package = path.relative_to(ROOT).with_suffix("").parts[:-1]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = list(package[: len(package) - node.level + 1]) if node.level else []
            module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            out.add(module)
            out |= {f"{module}.{a.name}" for a in node.names}
    return out


def loads_manim_or_scenes(modules: tuple[str, ...]) -> str:
    """The stderr of a fresh Python that imports ``modules`` and fails if manim or a scene came with them."""
    code = (f"import sys; import {', '.join(modules)}; "
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('manim', 'scenes')); "
            "assert not bad, bad")
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True).stderr


def test_manim_free_modules_load_neither_manim_nor_scenes() -> None:
    assert loads_manim_or_scenes(MANIM_FREE) == ""


def test_the_check_above_can_fail() -> None:
    assert "AssertionError: ['manim'" in loads_manim_or_scenes((*MANIM_FREE, "manim"))


@pytest.mark.parametrize("path", python_files("scenes"), ids=lambda p: str(p.relative_to(ROOT)))
def test_scenes_import_nothing_of_attnvid(path: Path) -> None:
    used = {m for m in imported_modules(path) if m.split(".")[0] == "attnvid"}
    assert not used, f"{path.name} imports the application: {sorted(used)}"


@pytest.mark.parametrize("path", [p for p in python_files("attnvid") if p.name != "catalog.py"],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_the_application_reaches_the_scenes_only_through_the_catalogue(path: Path) -> None:
    used = {m for m in imported_modules(path) if m.split(".")[0] == "scenes"}
    assert not used, f"{path.name} imports {sorted(used)}: ask attnvid.catalog instead"


@pytest.mark.parametrize("path", python_files("attnvid", "attnstage", "scenes", "tests", "benchmarks"),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_imports_the_old_places(path: Path) -> None:
    old = {m for m in imported_modules(path) if m.startswith(("scenes.cli", "scenes.narration"))}
    assert not old, f"{path.name} imports {sorted(old)}: the application is attnvid/ now"


@pytest.mark.parametrize("path", python_files("attnvid", "scenes", "attncore", "attnstage"),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_functions_and_modules_stay_short(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= MAX_MODULE_LINES, f"{path.name}: over {MAX_MODULE_LINES} lines"
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            assert node.end_lineno is not None
            n = node.end_lineno - first + 1
            assert n <= MAX_FUNCTION_LINES, f"{path.name}: {node.name} is {n} lines (split it into named helpers)"


# -- numbers in scene code (issue 11) ------------------------------------------------------------
#: Float literals a scene may write inside its code: the origin of a coordinate and a
#: guard against division by zero. Every other number is a named constant at the top
#: of its file (or in scenes/layout.py, scenes/theme.py), with a comment giving its reason.
ALLOWED_IN_CODE = {0.0, 1e-9}


def literals_in_code(text: str) -> list[tuple[int, float]]:
    """(line, value) of every float literal of ``text`` that is not the value of a named
    module-level constant (an UPPER_CASE assignment)."""
    tree = ast.parse(text)
    named: set[int] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [n for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
            if names and all(n.id.lstrip("_").isupper() for n in names) and node.value is not None:
                named |= {id(c) for c in ast.walk(node.value)}
    return [(c.lineno, c.value) for c in ast.walk(tree)
            if isinstance(c, ast.Constant) and isinstance(c.value, float) and id(c) not in named]


@pytest.mark.parametrize("path", sorted((ROOT / "scenes" / "steps").glob("[a-z]*.py")), ids=lambda p: p.name)
def test_scene_code_names_its_numbers(path: Path) -> None:
    bare = [(line, v) for line, v in literals_in_code(path.read_text(encoding="utf-8")) if v not in ALLOWED_IN_CODE]
    assert not bare, f"{path.name}: float literals in code (name them as constants with their reason): {bare}"


def test_the_literal_check_can_fail() -> None:
    code = "GAP = 0.3\n\ndef f(x):\n    return x.shift(0.25 * GAP)\n"
    assert literals_in_code(code) == [(4, 0.25)]
