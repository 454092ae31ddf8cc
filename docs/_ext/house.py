"""Pictures and lists of the house drawn from the code when the docs are built.

Three directives, so that the Explanations never go stale after a module moves:

- ``house-graph``: the import graph of the packages at the repository's top (every folder
  with an ``__init__.py``), one node per room (a package's subpackage, or the package's own
  modules), an arrow from the room that imports to the room imported, its width and label
  the number of import statements; drawn by Graphviz (``sphinx.ext.graphviz``);
- ``house-modules``: every module of every package with the first line of its docstring;
- ``lecture-scenes``: the lecture's scenes in order (``scenes.lecture.LECTURE``) with their
  file, sections and the first line of their module's docstring.

The graph is read with :mod:`ast` as ``tests/test_imports.py`` reads it: an edge is an
import outside any function (``if TYPE_CHECKING:`` included); nothing is imported.
The extension also keeps Manim's ``manim`` directive offline: it drops the binder script
(an online service) and writes its timing file into the build folder.
"""

from __future__ import annotations

import ast
import re
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.ext.graphviz import graphviz
from sphinx.util.docutils import SphinxDirective

ROOT = Path(__file__).resolve().parents[2]
NOT_PACKAGES = {"tests", "docs", "benchmarks", "media", "build"}
#: Third-party packages shown as nodes of their own: who may draw, who may not.
EXTERNAL = ("manim",)


def packages(root: Path = ROOT) -> list[str]:
    """The top-level packages of the repository, by name."""
    return sorted(p.parent.name for p in root.glob("*/__init__.py") if p.parent.name not in NOT_PACKAGES)


def module_files(root: Path = ROOT) -> dict[str, Path]:
    """Every module of every package, by dotted name (a package by its own name)."""
    out = {}
    for package in packages(root):
        for path in sorted((root / package).rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            parts = path.relative_to(root).with_suffix("").parts
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def room(module: str, path: Path) -> str:
    """The room a module lives in: its package's first two names (``attnvid.render``)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    return ".".join(package.split(".")[:2]) if package else module


def _imports(body: list[ast.stmt], in_function: bool = False) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom) and not in_function:
            yield node
        inner = in_function or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for field in ("body", "orelse", "finalbody", "handlers"):
            yield from _imports(getattr(node, field, None) or [], inner)


def targets(module: str, path: Path, known: dict[str, Path]) -> Iterator[str]:
    """The modules (or external packages) each module-level import of ``module`` names."""
    here = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in _imports(ast.parse(path.read_text(encoding="utf-8")).body):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            base = node.module or ""
            if node.level:
                up = here.split(".")[: len(here.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        found = set()
        for name in names:
            while name and name not in known and name.split(".")[0] not in EXTERNAL:
                name = name.rpartition(".")[0]
            if name:
                found.add(name if name in known else name.split(".")[0])
        yield from sorted(found)  # one statement counts once per module it names


def room_graph(root: Path = ROOT) -> tuple[Counter[str], Counter[tuple[str, str]]]:
    """Modules per room, and import statements from room to room (self-imports left out)."""
    known = module_files(root)
    sizes: Counter[str] = Counter(room(m, p) for m, p in known.items())
    edges: Counter[tuple[str, str]] = Counter()
    for module, path in known.items():
        src = room(module, path)
        for target in targets(module, path, known):
            dst = room(target, known[target]) if target in known else target
            if dst != src:
                edges[src, dst] += 1
    return sizes, edges


def dot_source(root: Path = ROOT) -> str:
    """The Graphviz picture of the house: a box per package, a node per room in it."""
    sizes, edges = room_graph(root)
    lines = ["digraph house {", "  rankdir=TB; nodesep=0.25; ranksep=0.5; compound=true;",
             '  node [shape=box, style="rounded,filled", fillcolor="#eef3f8", fontsize=11];',
             '  edge [color="#5b6b7b", fontsize=9, fontcolor="#5b6b7b"];']
    for package in packages(root):
        lines.append(f'  subgraph "cluster_{package}" {{ label="{package}"; style=rounded; color="#9aa9b8";')
        for name in sorted(r for r in sizes if r.split(".")[0] == package):
            n = sizes[name]
            lines.append(f'    "{name}" [label="{name}\\n{n} module{"s" if n != 1 else ""}"];')
        lines.append("  }")
    for ext in EXTERNAL:
        if any(dst == ext for _src, dst in edges):
            lines.append(f'  "{ext}" [label="{ext}\\n(third party)", style="rounded,dashed", fillcolor=white];')
    for (src, dst), count in sorted(edges.items()):
        width = 0.6 + min(count, 40) / 10
        lines.append(f'  "{src}" -> "{dst}" [label="{count}", penwidth={width:.1f}];')
    lines.append("}")
    return "\n".join(lines) + "\n"


def summary(path: Path) -> str:
    """The first line of a module's docstring (empty when it has none)."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    return doc.strip().splitlines()[0] if doc.strip() else ""


class HouseGraph(SphinxDirective):
    """``.. house-graph::``: the import graph of the packages, drawn by Graphviz."""

    def run(self) -> list[nodes.Node]:
        node = graphviz()
        node["code"] = dot_source()
        node["options"] = {"docname": self.env.docname}
        node["alt"] = "The import graph of the packages: which room imports which"
        node["align"] = "center"
        for path in module_files().values():
            self.env.note_dependency(str(path))
        return [node]


Cell = list[nodes.Node]


def inline(text: str) -> Cell:
    """A docstring's line as inline nodes: ````code```` and ``*emphasis*`` kept, the rest text."""
    out: Cell = []
    for k, piece in enumerate(re.split(r"``(.+?)``|\*([^*]+)\*", text)):
        if piece is None or piece == "":
            continue
        kind = k % 3
        out.append(nodes.literal(piece, piece) if kind == 1 else nodes.emphasis(piece, piece) if kind == 2
                   else nodes.Text(piece))
    return out


def table(widths: list[int], header: list[str], rows: list[list[Cell]]) -> nodes.table:
    """A docutils table (built directly: these directives serve Markdown and reST pages alike)."""
    group = nodes.tgroup(cols=len(widths))
    group += [nodes.colspec(colwidth=w) for w in widths]

    def row(cells: list[Cell]) -> nodes.row:
        r = nodes.row()
        for cell in cells:
            entry = nodes.entry()
            entry += nodes.paragraph("", "", *cell)
            r += entry
        return r

    head = nodes.thead()
    head += row([[nodes.Text(h)] for h in header])
    body = nodes.tbody()
    body += [row(cells) for cells in rows]
    group += [head, body]
    return nodes.table("", group, classes=["colwidths-given"])


class HouseModules(SphinxDirective):
    """``house-modules``: every module by room, with its docstring's first line."""

    def run(self) -> list[nodes.Node]:
        rows = []
        for module, path in module_files().items():
            rows.append([[nodes.literal(module, module)], inline(summary(path) or "(no docstring)")])
            self.env.note_dependency(str(path))
        return [table([30, 70], ["module", "what it is"], rows)]


class LectureScenes(SphinxDirective):
    """``lecture-scenes``: the lecture's scenes, their files, parts and sections."""

    def run(self) -> list[nodes.Node]:
        import scenes.lecture as lecture  # imports Manim: only when a page asks for this table

        parts = list(getattr(lecture, "PARTS", ()))
        part_of = {cls: (n + 1, title) for n, (title, members) in enumerate(parts) for cls in members}
        rows = []
        for i, cls in enumerate(lecture.LECTURE):
            path = Path(str(sys.modules[cls.__module__].__file__)).resolve()
            rel = "/".join(cls.__module__.split(".")) + ".py"
            n, title = part_of.get(cls, (0, ""))
            where: Cell = [nodes.literal(rel, rel), nodes.Text(f", part {n}, " if n else ", in no part")]
            if n:
                where.append(nodes.emphasis(title, title))
            sections = "; ".join(cls.section_names())
            rows.append([[nodes.Text(str(i))], [nodes.literal(cls.__name__, cls.__name__)], where,
                         [*inline(summary(path).removesuffix(".")), nodes.Text(f" ({sections})")]])
            self.env.note_dependency(str(path))
        return [table([4, 22, 24, 50], ["#", "scene", "file and part", "what it shows (its sections)"], rows)]


def _offline_manim(app: Sphinx) -> None:
    """Manim's directive links an online binder script and times into ``../``: keep both home."""
    app.registry.js_files[:] = [(f, a) for f, a in app.registry.js_files
                                if f != "manim-binder.min.js" and "initManimBinder" not in str(a.get("body", ""))]
    try:
        from manim.utils.docbuild import manim_directive
    except ImportError:
        return
    manim_directive.rendering_times_file_path = Path(app.outdir).parent / "rendering_times.csv"


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("house-graph", HouseGraph)
    app.add_directive("house-modules", HouseModules)
    app.add_directive("lecture-scenes", LectureScenes)
    app.connect("config-inited", lambda app, _config: _offline_manim(app))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
