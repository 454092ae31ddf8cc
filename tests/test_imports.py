"""The import graph of attncore, scenes and attnvid: no circle, and each room in its place.

- no module imports itself, and no set of modules imports each other in a circle;
- attncore imports neither the scenes nor the application; the scenes may use attnvid's
  speech (and its environment names), never rendering, publishing or the commands;
  speech uses none of the other rooms, rendering never uses publishing, and publishing
  never the commands;
- at most :data:`MAX_TOP_MODULES` modules sit directly in ``attnvid/``: the rest live in
  a room (``render/``, ``speech/``, ``publish/``, ``commands/``).

The graph is read from the source with :mod:`ast`, nothing is imported (no manim). An
edge is an ``import`` or ``from ... import`` outside any function, those under
``if TYPE_CHECKING:`` included: they run when the module is imported, or, for types,
mypy follows them and a reader needs the other module to read this one. An import inside
a function runs only when the function is called (the catalogue imports the scenes that
way, on purpose) and is not an edge; the room rules check those too, directly.
``from X import Y`` is an edge to ``X.Y`` when that is a module, else to ``X``. Importing
``X.Y`` also runs ``X/__init__.py``: what a room reaches counts those, the circles do
not (a package that imports its own modules is not a circle).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import ROOT

PACKAGES = ("attncore", "attnstage", "scenes", "attnvid")
#: Modules directly in attnvid/ (``__init__``, ``__main__``, ``cli`` and the helpers the
#: rooms share); every other module belongs in a room.
MAX_TOP_MODULES = 12
#: What each part never imports, directly or through other modules.
NEVER = {
    "attncore": ("scenes", "attnvid"),
    "attnstage": ("attncore", "scenes", "attnvid"),
    "scenes": ("attnvid.render", "attnvid.publish", "attnvid.commands", "attnvid.cli"),
    "attnvid.speech": ("scenes", "attnvid.render", "attnvid.publish", "attnvid.commands", "attnvid.cli"),
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
        for path in sorted((root / package).rglob("*.py")):
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
        out += [Import(n, not in_function, node.lineno) for n in names]
    return out


def import_graph(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> Graph:
    """Module -> the modules of ``packages`` it imports outside functions (see the module doc)."""
    files = module_files(root, packages)
    graph: Graph = {}
    for module, path in files.items():
        targets = (next((n for n in i.names if n in files), None) for i in imports(module, path) if i.module_level)
        graph[module] = {t for t in targets if t is not None}
    return graph


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


def test_the_graph_covers_the_three_packages(graph: Graph) -> None:
    assert {"attncore.lesson", "scenes.base", "attnvid.cli", "attnvid.speech.voices"} <= graph.keys()
    assert "attncore.lesson_parse" in graph["attncore.lesson"]
    assert "attnvid.speech.voices" in graph["scenes.base"]


def test_no_import_circle(graph: Graph) -> None:
    found = circles(graph)
    assert not found, "import circles (move the shared piece into a lower module):\n" + "\n".join(map(str, found))


@pytest.mark.parametrize("part", sorted(NEVER))
def test_each_part_imports_only_what_it_may(part: str) -> None:
    files = module_files(ROOT)
    direct = [f"{path.relative_to(ROOT)}:{i.line} imports {name}"
              for module, path in files.items() if within(module, part)
              for i in imports(module, path) for name in [next((n for n in i.names if n in files), i.names[-1])]
              if any(within(name, bad) for bad in NEVER[part])]
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
    assert len(top) <= MAX_TOP_MODULES, f"{len(top)} modules in attnvid/ (at most {MAX_TOP_MODULES}; move some into a room): {top}"


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


def test_a_forbidden_module_is_reached_through_others(tmp_path: Path) -> None:
    root = tree(tmp_path, {"app/__init__.py": "", "app/speech/__init__.py": "", "app/speech/v.py": "from .. import shared\n",
                           "app/shared.py": "from app.render.engine import run\n", "app/render/__init__.py": "",
                           "app/render/engine.py": "run = 1\n"})
    way = reached(import_graph(root, ("app",)), "app.speech.v")
    assert way["app.render.engine"] == ["app.speech.v", "app.shared", "app.render.engine"]
    assert "app.render" in way and "app" in way
