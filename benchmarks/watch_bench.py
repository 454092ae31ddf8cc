"""Authoring loop benchmark: the warm watch against plain Manim's last-frame preview, same run.

    python benchmarks/watch_bench.py                 # Softmax and LearnedProjections (the heaviest build)
    python benchmarks/watch_bench.py --json
    python benchmarks/render_bench.py --watch        # the same figures, in the render benchmark

For each scene:

- plain Manim: ``manim render -s -ql --disable_caching scenes/steps/<file>.py <Scene>`` (its
  fastest way to see a scene's last frame), best of two, each a fresh process as an author
  runs it;
- after a lesson edit: ``attnvid preview <Scene> --watch --lesson L`` running, the lesson
  saved with one number changed; seconds from the save to the new picture's path on
  stdout (median of three edits, each a different number);
- after a scene edit: the scene's file saved again with one more comment line; seconds to
  the new picture (median of three).

The source tree is copied to a temporary folder (first on PYTHONPATH), so the edits never
touch the repository.
"""

from __future__ import annotations

import argparse
import json
import queue
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from common import BIN, copy_sources, python_loop_seconds, scene_files

SCENES = ("Softmax", "LearnedProjections")
#: The issue's targets: a warm preview after a lesson edit at most 1/5 of plain Manim's, after a scene edit 1/3.
TARGETS = {"lesson_edit_fraction": 1 / 5, "scene_edit_fraction": 1 / 3}
#: The lesson's line the edits change, and the values it takes in turn.
LINE = "friends     = [0.5, 0,   0.5, 1]"
VALUES = ("0.6", "0.7", "0.5")


def _lines(proc: subprocess.Popen[str]) -> queue.Queue[str]:
    out: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            out.put(line.strip())

    threading.Thread(target=read, daemon=True).start()
    return out


def _timed(lines: queue.Queue[str], save: Any) -> float:
    started = time.perf_counter()
    save()
    line = lines.get(timeout=300)
    if not line.endswith(".png"):
        raise RuntimeError(f"the watch answered {line!r}")
    return time.perf_counter() - started


def plain_manim(src: Path, file: str, name: str, work: Path, env: dict[str, str]) -> float:
    times = []
    for _ in range(2):
        started = time.perf_counter()
        subprocess.run([str(BIN / "manim"), "render", "-s", "-ql", "--disable_caching", str(src / file), name],
                       cwd=work, env=env, check=True, capture_output=True)
        times.append(time.perf_counter() - started)
    return min(times)


def watch_edits(src: Path, file: str, name: str, work: Path, env: dict[str, str]) -> tuple[float, float]:
    """Median seconds from a lesson save, then from a scene save, to the watch's new picture."""
    lesson = work / "lesson.toml"
    original = (src / "attncore" / "lessons" / "default.toml").read_text(encoding="utf-8")
    assert LINE in original, "the default lesson's line the edits change"
    lesson.write_text(original, encoding="utf-8")
    proc = subprocess.Popen([str(BIN / "attnvid"), "preview", name, "--watch", "--lesson", str(lesson)], cwd=work,
                            env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        lines = _lines(proc)
        lines.get(timeout=600)  # the first, cold picture
        lesson_times = []
        for value in VALUES:
            time.sleep(0.5)
            text = original.replace(LINE, LINE.replace("0.5", value, 1))
            lesson_times.append(_timed(lines, lambda t=text: lesson.write_text(t, encoding="utf-8")))
        scene_file = src / file
        scene_times = []
        for i in range(3):
            time.sleep(0.5)
            text = scene_file.read_text(encoding="utf-8") + f"# edit {i}\n"
            scene_times.append(_timed(lines, lambda t=text: scene_file.write_text(t, encoding="utf-8")))
        return statistics.median(lesson_times), statistics.median(scene_times)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def bench_watch(tmp: Path, src: Path, env: dict[str, str], log: Any) -> dict[str, object]:
    """The figures for every scene of :data:`SCENES` (``src``: a copy of the source tree)."""
    files = scene_files()
    fig: dict[str, object] = {}
    for name in SCENES:
        work = tmp / f"watch-{name}"
        work.mkdir()
        log(f"watch: {name}: plain manim render -s -ql --disable_caching ...")
        plain = plain_manim(src, files[name], name, work, env)
        log(f"watch: {name}: attnvid preview --watch, lesson and scene edits ...")
        lesson_s, scene_s = watch_edits(src, files[name], name, work, env)
        fig[name] = {"manim_s_s": round(plain, 2), "after_lesson_edit_s": round(lesson_s, 2),
                     "after_scene_edit_s": round(scene_s, 2), "lesson_edit_fraction": round(lesson_s / plain, 3),
                     "scene_edit_fraction": round(scene_s / plain, 3)}
    return fig


def rows(fig: dict[str, Any]) -> list[tuple[str, str, str]]:
    out = []
    for name in SCENES:
        f = fig[name]
        out += [
            (f"{name}: manim render -s -ql --disable_caching", f"{f['manim_s_s']:.2f} s", "plain Manim's last frame"),
            (
                f"{name}: preview --watch, after a lesson edit",
                f"{f['after_lesson_edit_s']:.2f} s",
                f"1/{1 / f['lesson_edit_fraction']:.1f} of plain Manim (target at most 1/5)",
            ),
            (
                f"{name}: preview --watch, after a scene edit",
                f"{f['after_scene_edit_s']:.2f} s",
                f"1/{1 / f['scene_edit_fraction']:.1f} of plain Manim (target at most 1/3)",
            ),
        ]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="attnvid-watch-bench-"))
    try:
        src, env = copy_sources(tmp)
        log = (lambda *a: None) if args.json else (lambda *a: print(*a, file=sys.stderr, flush=True))
        fig: dict[str, Any] = {"python_loop_s": python_loop_seconds(), **bench_watch(tmp, src, env, log)}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if args.json:
        print(json.dumps(fig, indent=1))
        return
    print(f"a Python loop of 10^7 additions: {fig['python_loop_s']} s")
    table = rows(fig)
    w = max(len(r[0]) for r in table)
    for a, b, c in table:
        print(f"{a:<{w}}  {b:>8}  {c}")


if __name__ == "__main__":
    main()
