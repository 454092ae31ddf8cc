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
