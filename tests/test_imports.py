"""The import graph of attncore, attnstage, scenes, attnvid and benchmarks: no circle, no
import inside a function but the one loader, and each room in its place.

- no module imports itself, and no set of modules imports each other in a circle; no two
  packages either (the package graph: each import between two modules is an edge between
  the first two packages on their ways down from where they part, ``scenes -> attnvid``
  for ``scenes.base -> attnvid.catalog``; a package and its own subpackages are no circle);
- no import of a project module inside a function, but in :data:`LOADER` (the catalogue:
  the application's one door into Manim's world, which imports the scenes, and the renderer
  that draws them, when first asked, so that a command that draws nothing never loads
  Manim). Every other import runs when its module is imported, so the graph below is the
  whole truth about who needs whom;
- attncore imports neither attnstage, the scenes nor the application; attnstage (the
  settings, the palette and the speech) imports neither the scenes nor the application; the
  scenes never import the application; rendering never uses publishing, and publishing never
  the commands; nothing imports the benchmarks;
- at most :data:`MAX_TOP_MODULES` modules sit directly in ``attnvid/``: the rest live in
  a room (``render/``, ``publish/``, ``commands/``).

The graph is read from the source with :mod:`ast`, nothing is imported (no manim). An
edge is every ``import`` or ``from ... import`` of a project module, inside a function
(the loader's) or not, those under ``if TYPE_CHECKING:`` included: for types, mypy
follows them and a reader needs the other module to read this one.
``from X import Y`` is an edge to ``X.Y`` when that is a module, else to ``X``. Importing
``X.Y`` also runs ``X/__init__.py``: what a room reaches counts those, the circles do
not (a package that imports its own modules is not a circle). The benchmarks are scripts
(``python benchmarks/render_bench.py``): Python puts their folder first on ``sys.path``,
so they import each other by bare name (``from common import ROOT``), read here as
``benchmarks.common``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import ROOT

PACKAGES = ("attncore", "attnstage", "scenes", "attnvid", "benchmarks")
#: Folders of scripts, not packages: a bare ``import name`` there names a script beside it.
SCRIPTS = ("benchmarks",)
#: The one module that may import project modules inside functions (see the module doc).
LOADER = "attnvid.catalog"
#: Modules directly in attnvid/ (``__init__``, ``__main__``, ``cli`` and the helpers the
#: rooms share); every other module belongs in a room.
MAX_TOP_MODULES = 12
#: What each part never imports, directly or through other modules.
NEVER = {
    "attncore": ("scenes", "attnvid", "attnstage", "benchmarks"),
    "attnstage": ("scenes", "attnvid", "benchmarks"),
    "scenes": ("attnvid", "benchmarks"),
    "attnvid": ("benchmarks",),
    "attnvid.render": ("attnvid.publish", "attnvid.commands", "attnvid.cli"),
    "attnvid.publish": ("attnvid.commands", "attnvid.cli"),
}

Graph = dict[str, set[str]]


@dataclass(frozen=True)
class Import:
    """One import statement's target, and whether it counts as an edge of the graph."""

    names: tuple[str, ...]  # absolute candidates: ``X.Y`` first when ``from X import Y``, then ``X``
    module_level: bool  # outside every function (``if TYPE_CHECKING:`` included)
    line: int


def module_files(root: Path, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """Every module of ``packages`` under ``root``, by dotted name (a package by its own name)."""
    out = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")) if (root / package).is_dir() else []:
            if "__pycache__" in path.parts:
                continue
            parts = path.relative_to(root).with_suffix("").parts
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _statements(body: list[ast.AST], in_function: bool = False) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import statement in ``body``, at any depth, with whether it sits in a function."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, in_function
        inner = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for field in ("body", "orelse", "finalbody", "handlers"):
            yield from _statements(getattr(node, field, None) or [], in_function or inner)
        for case in getattr(node, "cases", None) or []:
            yield from _statements(case.body, in_function)


def imports(module: str, path: Path) -> list[Import]:
    """What ``module`` (at ``path``) imports, relative imports resolved against its package."""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    out = []
    for node, in_function in _statements(list(ast.parse(path.read_text(encoding="utf-8")).body)):
        names: list[tuple[str, ...]]
        if isinstance(node, ast.Import):
            names = [(a.name,) for a in node.names]
        else:
            base = package[: len(package) - node.level + 1] if node.level else []
            source = ".".join([*base, *(node.module.split(".") if node.module else [])])
            names = [(f"{source}.{a.name}", source) for a in node.names]
        if module.split(".")[0] in SCRIPTS and not getattr(
            node, "level", 0
        ):  # a script's bare import of a script beside it
            names = [(*n, *(f"{module.split('.')[0]}.{x}" for x in n)) for n in names]
        out += [Import(n, not in_function, node.lineno) for n in names]
    return out


def import_graph(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> Graph:
    """Module -> the modules of ``packages`` it imports, inside functions too (see the module doc)."""
    files = module_files(root, packages)
    graph: Graph = {}
    for module, path in files.items():
        targets = (next((n for n in i.names if n in files), None) for i in imports(module, path))
        graph[module] = {t for t in targets if t is not None}
    return graph


def function_level_imports(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES,
                           loader: str = LOADER) -> list[str]:
    """Every import of a module of ``packages`` inside a function, but in ``loader``: "path:line imports name"."""
    files = module_files(root, packages)
    return list(dict.fromkeys(f"{path.relative_to(root)}:{i.line} imports {name}"
                              for module, path in files.items() if module != loader
                              for i in imports(module, path) if not i.module_level
                              for name in [next((n for n in i.names if n in files), None)] if name is not None))


def package_of(module: str, files: dict[str, Path]) -> str:
    """The package a module belongs to (a package's ``__init__`` belongs to the package itself)."""
    return module if files[module].name == "__init__.py" else module.rpartition(".")[0] or module


def package_graph(graph: Graph, files: dict[str, Path]) -> Graph:
    """Package -> the packages it imports: for each edge between modules of two packages, one
    that is not inside the other, an edge between the first packages on their ways down from
    where they part (``scenes.components -> attnvid.speech`` is ``scenes -> attnvid``)."""
    out: Graph = {}
    for a, targets in graph.items():
        pa = package_of(a, files).split(".")
        out.setdefault(pa[0], set())
        for b in targets:
            pb = package_of(b, files).split(".")
            k = 0
            while k < min(len(pa), len(pb)) and pa[k] == pb[k]:
                k += 1
            if k == len(pa) or k == len(pb):  # the same package, or one inside the other
                continue
            x, y = ".".join(pa[: k + 1]), ".".join(pb[: k + 1])
            out.setdefault(x, set()).add(y)
            out.setdefault(y, set())
    return out


@dataclass(frozen=True)
class Circle:
    """Modules that import each other (a strongly connected component of the graph)."""

    way: tuple[str, ...]  # a shortest way round, from the first module back to it
    modules: tuple[str, ...]  # every module of the component, sorted

    def __str__(self) -> str:
        return f"{' -> '.join(self.way)} ({len(self.modules)} modules in the circle: {', '.join(self.modules)})"


def circles(graph: Graph) -> list[Circle]:
    """Each circle of ``graph``: one per strongly connected component of two or more
    modules, or of one module that imports itself (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    components: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = {stack.pop()}
            while v not in component:
                component.add(stack.pop())
            components.append(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [Circle(_way_round(graph, c), tuple(sorted(c))) for c in components
            if len(c) > 1 or next(iter(c)) in graph[next(iter(c))]]


def _way_round(graph: Graph, component: set[str]) -> tuple[str, ...]:
    """A shortest way from the component's first module back to itself, inside it."""
    start = min(component)
    came: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph[v] & component):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(came[path[-1]])
                    return (*reversed(path), start)
                if w not in came:
                    came[w] = v
                    nxt.append(w)
        frontier = nxt
    raise AssertionError(f"{sorted(component)} is not a circle")


def within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def reached(graph: Graph, start: str) -> dict[str, list[str]]:
    """Every module importing ``start`` runs, with the way there (packages of the modules
    reached included: importing ``X.Y`` runs ``X/__init__.py``)."""
    way = {start: [start]}
    todo = [start]
    while todo:
        v = todo.pop()
        parents = {".".join(v.split(".")[:k]) for k in range(1, v.count(".") + 1)}
        for w in sorted((graph[v] | parents) & graph.keys()):
            if w not in way:
                way[w] = [*way[v], w]
                todo.append(w)
    return way


# -- the tests on our tree -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def graph() -> Graph:
    return import_graph()


def test_the_graph_covers_the_packages(graph: Graph) -> None:
    assert {
        "attncore.lesson",
        "scenes.base",
        "attnvid.cli",
        "attnstage.speech.voices",
        "benchmarks.render_bench",
    } <= graph.keys()
    assert "attncore.lesson_parse" in graph["attncore.lesson"]
    assert "attnstage.speech.voices" in graph["scenes.base"]
    assert {"benchmarks.common", "benchmarks.watch_bench"} <= graph["benchmarks.render_bench"]  # bare script imports
    assert "scenes.lecture" in graph[LOADER]  # an import inside a function is an edge


def test_no_import_circle(graph: Graph) -> None:
    found = circles(graph)
    assert not found, "import circles (move the shared piece into a lower module):\n" + "\n".join(map(str, found))


def test_no_package_circle(graph: Graph) -> None:
    """Waits, like NEVER["scenes"], for the speech and the settings to move below the scenes
    (scenes -> attnvid -> scenes: the scenes import attnvid's speech, the catalogue the scenes)."""
    found = circles(package_graph(graph, module_files(ROOT)))
    assert not found, "package circles (move the shared piece into a lower package):\n" + "\n".join(map(str, found))


def test_no_import_inside_a_function_but_the_loader() -> None:
    found = function_level_imports()
    assert not found, (f"imports inside functions (import at the top of the module, and break a circle by moving "
                       f"what both sides need; only {LOADER} loads the scenes on demand):\n" + "\n".join(found))


@pytest.mark.parametrize("part", sorted(NEVER))
def test_each_part_imports_only_what_it_may(part: str) -> None:
    files = module_files(ROOT)
    direct = [*dict.fromkeys(f"{path.relative_to(ROOT)}:{i.line} imports {name}"
              for module, path in files.items() if within(module, part)
              for i in imports(module, path) for name in [next((n for n in i.names if n in files), i.names[-1])]
              if any(within(name, bad) for bad in NEVER[part]))]
    assert not direct, f"{part} never imports {', '.join(NEVER[part])}:\n" + "\n".join(direct)


@pytest.mark.parametrize("part", sorted(NEVER))
def test_each_part_reaches_only_what_it_may(part: str, graph: Graph) -> None:
    def bad(module: str) -> bool:
        return any(within(module, b) for b in NEVER[part])

    through = {" -> ".join(way) for start in graph if within(start, part)  # each way to the first forbidden module
               for way in reached(graph, start).values() if bad(way[-1]) and not any(map(bad, way[:-1]))}
    assert not through, f"{part} reaches {', '.join(NEVER[part])} through other modules:\n" + "\n".join(sorted(through))


def test_few_modules_sit_directly_in_attnvid() -> None:
    top = sorted(p.name for p in (ROOT / "attnvid").glob("*.py"))
    assert len(top) <= MAX_TOP_MODULES, (
        f"{len(top)} modules in attnvid/ (at most {MAX_TOP_MODULES}; move some into a room): {top}"
    )


# -- the checks can fail ---------------------------------------------------------------------------


def tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_a_circle_is_found_and_named(tmp_path: Path) -> None:
    root = tree(tmp_path, {
        "pkg/__init__.py": "from .a import A\n",
        "pkg/a.py": "from .b import B\nA = 1\n",
        "pkg/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import c\nB = 2\n",
        "pkg/c.py": "import pkg.a\n",
        "pkg/d.py": "from pkg import d\n",
        "pkg/e.py": "def later():\n    from . import a\n",
    })
    found = circles(import_graph(root, ("pkg",)))
    assert [c.way for c in found] == [("pkg.a", "pkg.b", "pkg.c", "pkg.a"), ("pkg.d", "pkg.d")]
    assert str(found[0]) == "pkg.a -> pkg.b -> pkg.c -> pkg.a (3 modules in the circle: pkg.a, pkg.b, pkg.c)"


def test_a_package_that_imports_its_modules_is_no_circle(tmp_path: Path) -> None:
    root = tree(tmp_path, {"pkg/__init__.py": "from .a import A\n", "pkg/a.py": "A = 1\n",
                           "pkg/sub/__init__.py": "from .. import a\n"})
    graph = import_graph(root, ("pkg",))
    assert graph == {"pkg": {"pkg.a"}, "pkg.a": set(), "pkg.sub": {"pkg.a"}}
    assert circles(graph) == []


def test_an_import_inside_a_function_is_an_edge_and_named(tmp_path: Path) -> None:
    root = tree(tmp_path, {
        "pkg/__init__.py": "", "pkg/a.py": "from .b import B\nA = 1\n",
        "pkg/b.py": "def late():\n    from .a import A\n    import json\n    return A\nB = 2\n",
        "pkg/loader.py": "def load():\n    from pkg import a\n",
    })
    graph = import_graph(root, ("pkg",))
    assert [c.way for c in circles(graph)] == [("pkg.a", "pkg.b", "pkg.a")]
    assert function_level_imports(root, ("pkg",), loader="pkg.loader") == ["pkg/b.py:2 imports pkg.a"]


def test_a_package_circle_is_found(tmp_path: Path) -> None:
    root = tree(tmp_path, {
        "app/__init__.py": "", "app/env.py": "", "app/cat.py": "def f():\n    from scenes.sub import base\n",
        "app/sub/__init__.py": "", "app/sub/x.py": "from .. import env\n",  # a package and its own: no circle
        "scenes/__init__.py": "", "scenes/sub/__init__.py": "", "scenes/sub/base.py": "from app import env\n",
    })
    files = module_files(root, ("app", "scenes"))
    pg = package_graph(import_graph(root, ("app", "scenes")), files)
    assert pg == {"app": {"scenes"}, "scenes": {"app"}}
    assert [c.way for c in circles(pg)] == [("app", "scenes", "app")]


def test_a_script_imports_the_script_beside_it(tmp_path: Path) -> None:
    root = tree(
        tmp_path, {"benchmarks/common.py": "import json\n", "benchmarks/run.py": "from common import x\nimport json\n"}
    )
    assert import_graph(root, ("benchmarks",)) == {"benchmarks.common": set(), "benchmarks.run": {"benchmarks.common"}}


def test_a_forbidden_module_is_reached_through_others(tmp_path: Path) -> None:
    root = tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/speech/__init__.py": "",
            "app/speech/v.py": "from .. import shared\n",
            "app/shared.py": "from app.render.engine import run\n",
            "app/render/__init__.py": "",
            "app/render/engine.py": "run = 1\n",
        },
    )
    way = reached(import_graph(root, ("app",)), "app.speech.v")
    assert way["app.render.engine"] == ["app.speech.v", "app.shared", "app.render.engine"]
    assert "app.render" in way and "app" in way
