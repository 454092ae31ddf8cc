"""mypy over the packages listed in pyproject.toml's [tool.mypy] (the one list), with zero errors.

Each package named there is checked strictly; adding a package to that list adds it here.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib

import pytest
from conftest import ROOT


def mypy_packages() -> list[str]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return list(tomllib.load(f)["tool"]["mypy"]["packages"])


def test_the_typed_packages_include_the_core_the_scenes_and_the_application() -> None:
    assert {"attncore", "attnstage", "attnvid", "scenes"} <= set(mypy_packages())


@pytest.mark.slow  # another program: 15 s on a clean clone (no .mypy_cache yet), ~2 s after
def test_mypy_finds_no_error() -> None:
    r = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    assert r.stdout.startswith("Success: no issues found"), r.stdout
