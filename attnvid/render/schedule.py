"""Which scene renders first: the longest, judged by how long it took last time.

With a pool of ``n`` processes, the run lasts until its last scene is done. Scenes taken
in lecture order can leave one long scene to start last and render alone while the other
cores idle; taking the longest first (the classic LPT rule) ends the run with short
scenes, which fill the cores to the end.

How long a scene takes is known from its last render in the same output root at the
same quality and format: ``scenes/.render-times.json`` there, ``{"low/mp4": {"Softmax":
9.1, ...}}``, written by the parent process after a run (a hidden file: no command
lists it, and losing it only loses the ordering). A scene never rendered there borrows
its time from another lesson's root of the same run; one with no time at all goes
first, in lecture order, since it may be long. On a first render, when no job of the
run has a time, the scenes go by :data:`PRIOR_SECONDS` instead: the lecture's two
longest scenes are its last two, and in lecture order they would start last and finish
alone.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..outputs import write_atomic
from .jobs import Job, Result

TIMES_NAME = ".render-times.json"


def _times_file(job: Job) -> Path:
    return Path(job.root) / "scenes" / TIMES_NAME


def _read(path: Path) -> dict[str, dict[str, float]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _kind(job: Job) -> str:
    return f"{job.quality}/{job.fmt}"


def estimates(jobs: Sequence[Job]) -> dict[Job, float | None]:
    """The last render time (s) of each job's scene, or None when never measured."""
    files = {p: _read(p) for p in {_times_file(j) for j in jobs}}

    def recorded(j: Job) -> object:
        times = files[_times_file(j)].get(_kind(j))
        return times.get(j.scene) if isinstance(times, dict) else None

    own = {j: recorded(j) for j in jobs}
    borrowed: dict[tuple[str, str], float] = {}
    for j, t in own.items():
        if isinstance(t, (int, float)):
            borrowed.setdefault((_kind(j), j.scene), float(t))
    return {j: float(t) if isinstance(t, (int, float)) else borrowed.get((_kind(j), j.scene)) for j, t in own.items()}


#: What each scene took to render at 1080p60 for the default lesson (s; measured
#: 2026-12-01 on 2 cores, ``attnvid render --quality high``): only their order matters,
#: and only for a run with no measured time at all. A scene missing here goes first.
PRIOR_SECONDS = {
    "TitleCard": 6.9, "Embeddings": 29.7, "SimplifiedAttention": 21.2, "DotProducts": 38.4, "Scaling": 37.3,
    "Softmax": 51.9, "ReadingAttention": 28.6, "MixingValues": 40.3, "TwoContexts": 24.9,
    "LearningTheWeights": 43.7, "LearnedProjections": 55.3, "ChangingDimension": 32.2, "MultiHead": 43.3,
    "CausalMask": 66.5, "WordOrder": 45.4,
}


def longest_first(jobs: Sequence[Job]) -> list[Job]:
    """``jobs`` with the unmeasured ones first (in their order), then the longest first
    (by :data:`PRIOR_SECONDS` when none is measured)."""
    est = estimates(jobs)
    if all(t is None for t in est.values()):
        est = {j: PRIOR_SECONDS.get(j.scene) for j in jobs}
    unknown = [j for j in jobs if est[j] is None]
    known = sorted((j for j in jobs if est[j] is not None), key=lambda j: -(est[j] or 0.0))
    return unknown + known


def remember_times(done: Iterable[tuple[Job, Result]]) -> None:
    """Record how long each rendered job took, for the next run's :func:`longest_first`.

    Best effort: a file that cannot be written only costs the next run its ordering.
    """
    by_file: dict[Path, list[tuple[Job, Result]]] = {}
    for job, r in done:
        if not r.cached:
            by_file.setdefault(_times_file(job), []).append((job, r))
    for path, items in by_file.items():
        data = _read(path)
        for job, r in items:
            if not isinstance(data.get(_kind(job)), dict):
                data[_kind(job)] = {}
            data[_kind(job)][job.scene] = round(r.seconds, 2)
        with contextlib.suppress(OSError):
            write_atomic(path, json.dumps(data, indent=1, sort_keys=True).encode())
