"""What the benchmarks share: where the repository and its programs are, a copy of the
source tree to edit and run (first on PYTHONPATH), the lecture's scenes and their files,
and how fast this CPU is right now.

The benchmarks are scripts (``python benchmarks/render_bench.py``): Python puts this folder
first on ``sys.path``, so they import this module, and each other, by their bare names.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path

from attnstage.settings import env_name
from scenes.lecture import LECTURE, scene_file

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def python_loop_seconds() -> float:
    """Seconds for 10**7 additions in a Python loop, best of three: how fast this CPU is right now.

    A cloud VM's "AMD EPYC" can run the same benchmark 2.5 times slower on one day than on
    another (plain Manim 161 s, then 415 s); this figure lets two runs' tables be compared.
    """
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        s = 0
        for i in range(10**7):
            s += i
        best = min(best, time.perf_counter() - t0)
    return round(best, 2)


def copy_sources(tmp: Path) -> tuple[Path, dict[str, str]]:
    """A copy of the packages in ``tmp/src``, and an environment that runs it (no lesson set),
    so that the benchmarks' edits never touch the repository."""
    src = tmp / "src"
    for d in ("scenes", "attncore", "attnstage", "attnvid"):
        shutil.copytree(ROOT / d, src / d, ignore=shutil.ignore_patterns("__pycache__"))
    env = dict(os.environ, PYTHONPATH=str(src), PATH=f"{BIN}:{os.environ.get('PATH', '')}")
    env.pop(env_name("lesson"), None)
    return src, env


def scene_files() -> dict[str, str]:
    """Every scene of the lecture, in order: its class name and its file relative to the
    repository (the same in the copy)."""
    return {c.__name__: scene_file(c) for c in LECTURE}
