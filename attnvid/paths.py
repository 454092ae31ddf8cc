"""Where the code attnvid works on lives, found by import name.

Not by counting parent folders from this file: an installed copy, an editable install
and a copy of the tree put first on ``PYTHONPATH`` (the benchmark's) each resolve to
the code that is actually imported.
"""

from __future__ import annotations

import inspect
from importlib.util import find_spec
from pathlib import Path


def package_dir(name: str) -> Path:
    """The folder of the top-level package ``name``, found without importing it."""
    spec = find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"no package named {name!r}", name=name)
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def source_file(obj: type) -> Path:
    """The file a class is defined in (a scene class: its scene file)."""
    return Path(inspect.getfile(obj)).resolve()


#: The packages installed side by side with attnvid (one wheel, one checkout): a lecturer's
#: scene imports them by these names.
OWN_PACKAGES = ("attncore", "scenes")


def foreign_packages() -> list[str]:
    """One line per package of :data:`OWN_PACKAGES` that Python would import from somewhere
    other than beside attnvid: a folder ``scenes/`` of another project, first on ``sys.path``
    (the current folder of ``python -m``, a ``PYTHONPATH``, the folder of a script Manim
    renders), or another distribution's top-level ``scenes``. Found without importing anything."""
    home = package_dir("attnvid").parent
    out = []
    for name in OWN_PACKAGES:
        try:
            found = package_dir(name)
        except ModuleNotFoundError:
            out.append(f"no package {name!r} beside attnvid in {home}; reinstall attnvid")
            continue
        if found.parent != home:
            out.append(f"the package {name!r} Python imports is {found}, not attnvid's ({home / name}); "
                       f"rename or move that folder, or run from another folder")
    return out

