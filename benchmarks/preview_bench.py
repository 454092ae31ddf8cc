"""One-shot preview benchmark: ``attnvid preview SCENE`` (no ``--watch``) from its second call,
against plain Manim's last-frame preview, in one run.

    python benchmarks/preview_bench.py              # Softmax and LearnedProjections
    python benchmarks/preview_bench.py --json
    python benchmarks/preview_bench.py --no-watch   # without the warm watch's figures

For each scene, every command a fresh process as an author (or an editor's task) runs it:

- plain Manim: ``manim render -s -ql --disable_caching scenes/steps/<file>.py <Scene>``, median of 5;
- the first call: ``attnvid preview <Scene> --lesson L`` with no server running (it starts one);
- after a lesson edit: the lesson saved with one number changed, then the one-shot preview;
  median of 5 edits (five different values);
- after a scene edit: the scene's file saved with one more comment line, then the preview;
  median of 5;
- unchanged: the same preview again, nothing edited: median wall time of 5, and the CPU
  time of the process (user + system);
- the warm watch (``benchmarks/watch_bench.py``'s figures: median of 3 edits each), unless
  ``--no-watch``.

The source tree is copied to a temporary folder (first on PYTHONPATH), so the edits never touch
the repository; the servers live in a folder of the run and are stopped at its end.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from common import BIN, copy_sources, python_loop_seconds, scene_files
from watch_bench import plain_manim, watch_edits

from attnstage.settings import PREVIEW_DIR_ENV, PREVIEW_SERVER_ENV, env_name

SCENES = ("Softmax", "LearnedProjections")
RUNS = 5
#: The issue's targets: a second one-shot preview after an edit, and an unchanged one, at most
#: 1/3 of plain Manim's; an unchanged one under a second of CPU.
TARGET_FRACTION = 1 / 3
LINE = "friends     = [0.5, 0,   0.5, 1]"
VALUES = ("0.6", "0.7", "0.8", "0.9", "0.4")


def timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the process and its children, stdout) of one command."""
    before = os.times()
    started = time.perf_counter()
    r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=1200)
    wall = time.perf_counter() - started
    after = os.times()
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: {r.stderr.strip()[-400:]}")
    cpu = (after.children_user + after.children_system) - (before.children_user + before.children_system)
    return wall, cpu, r.stdout


def _how(stdout: str) -> str:
    return str(json.loads(stdout)["how"])


def one_shot(src: Path, file: str, name: str, work: Path, env: dict[str, str], log: Any) -> dict[str, Any]:
    lesson = work / "lesson.toml"
    original = (src / "attncore" / "lessons" / "default.toml").read_text(encoding="utf-8")
    assert LINE in original, "the default lesson's line the edits change"
    lesson.write_text(original, encoding="utf-8")
    cmd = [str(BIN / "attnvid"), "preview", name, "--lesson", str(lesson), "--json"]
    log(f"preview: {name}: plain manim render -s -ql --disable_caching x{RUNS} ...")
    plain = [
        timed([str(BIN / "manim"), "render", "-s", "-ql", "--disable_caching", str(src / file), name], work, env)[0]
        for _ in range(RUNS)
    ]
    log(f"preview: {name}: first call (starts the server) ...")
    first, first_cpu, out = timed(cmd, work, env)
    assert _how(out) == "started", out
    log(f"preview: {name}: after lesson edits ...")
    lesson_s = []
    for value in VALUES[:RUNS]:
        lesson.write_text(original.replace(LINE, LINE.replace("0.5", value, 1)), encoding="utf-8")
        wall, _, out = timed(cmd, work, env)
        assert _how(out) == "server", out
        lesson_s.append(wall)
    log(f"preview: {name}: after scene edits ...")
    scene_file = src / file
    scene_s = []
    for i in range(RUNS):
        scene_file.write_text(scene_file.read_text(encoding="utf-8") + f"# edit {i}\n", encoding="utf-8")
        wall, _, out = timed(cmd, work, env)
        assert _how(out) == "server", out
        scene_s.append(wall)
    log(f"preview: {name}: unchanged ...")
    unchanged = []
    for _ in range(RUNS):
        wall, cpu, out = timed(cmd, work, env)
        assert _how(out) == "unchanged", out
        unchanged.append((wall, cpu))
    p = statistics.median(plain)
    return {
        "manim_s_s": round(p, 3),
        "manim_s_runs": [round(x, 3) for x in plain],
        "first_call_s": round(first, 3),
        "first_call_client_cpu_s": round(first_cpu, 3),
        "after_lesson_edit_s": round(statistics.median(lesson_s), 3),
        "lesson_runs": [round(x, 3) for x in lesson_s],
        "after_scene_edit_s": round(statistics.median(scene_s), 3),
        "scene_runs": [round(x, 3) for x in scene_s],
        "unchanged_s": round(statistics.median(w for w, _ in unchanged), 3),
        "unchanged_cpu_s": round(statistics.median(c for _, c in unchanged), 3),
        "lesson_edit_fraction": round(statistics.median(lesson_s) / p, 3),
        "scene_edit_fraction": round(statistics.median(scene_s) / p, 3),
        "unchanged_fraction": round(statistics.median(w for w, _ in unchanged) / p, 3),
    }


def stop_servers(state: Path, env: dict[str, str]) -> None:
    subprocess.run([str(BIN / "attnvid"), "preview", "--stop"], env=env, capture_output=True, timeout=60)
    for f in state.glob("*.pid"):
        with contextlib.suppress(ValueError, OSError, ProcessLookupError):
            os.kill(int(f.read_text().split()[0]), signal.SIGKILL)


def rows(fig: dict[str, Any]) -> list[tuple[str, str, str]]:
    out = []
    for name in SCENES:
        f = fig[name]
        out += [
            (f"{name}: manim render -s -ql --disable_caching", f"{f['manim_s_s']:.2f} s", f"median of {RUNS}"),
            (f"{name}: first one-shot preview (starts the server)", f"{f['first_call_s']:.2f} s", ""),
            (
                f"{name}: one-shot preview after a lesson edit",
                f"{f['after_lesson_edit_s']:.2f} s",
                f"1/{1 / f['lesson_edit_fraction']:.1f} of plain Manim (target at most 1/3)",
            ),
            (
                f"{name}: one-shot preview after a scene edit",
                f"{f['after_scene_edit_s']:.2f} s",
                f"1/{1 / f['scene_edit_fraction']:.1f} of plain Manim (target at most 1/3)",
            ),
            (
                f"{name}: unchanged one-shot preview",
                f"{f['unchanged_s']:.2f} s",
                f"{f['unchanged_cpu_s']:.2f} s of CPU (target < 1 s), 1/{1 / f['unchanged_fraction']:.0f} of plain "
                "Manim",
            ),
        ]
        if "watch" in f:
            w = f["watch"]
            out += [(f"{name}: preview --watch after a lesson / scene edit",
                     f"{w['after_lesson_edit_s']:.2f} / {w['after_scene_edit_s']:.2f} s",
                     f"plain Manim {w['manim_s_s']:.2f} s in that part of the run")]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--no-watch", action="store_true", help="leave out the warm watch")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="attnvid-preview-bench-"))
    log = (lambda *a: None) if args.json else (lambda *a: print(*a, file=sys.stderr, flush=True))
    state = tmp / "servers"
    try:
        src, env = copy_sources(tmp)
        env.update({PREVIEW_SERVER_ENV: "1", PREVIEW_DIR_ENV: str(state)})
        env.pop(env_name("language"), None)
        files = scene_files()
        fig: dict[str, Any] = {"python_loop_s": python_loop_seconds(), "cores": os.cpu_count()}
        for name in SCENES:
            work = tmp / f"preview-{name}"
            work.mkdir()
            try:
                fig[name] = one_shot(src, files[name], name, work, env, log)
            finally:
                stop_servers(state, env)
            if not args.no_watch:
                log(f"preview: {name}: the warm watch ...")
                wwork = tmp / f"watch-{name}"
                wwork.mkdir()
                plain = plain_manim(src, files[name], name, wwork, env)
                lesson_s, scene_s = watch_edits(src, files[name], name, wwork, env)
                fig[name]["watch"] = {"manim_s_s": round(plain, 3), "after_lesson_edit_s": round(lesson_s, 3),
                                      "after_scene_edit_s": round(scene_s, 3)}
    finally:
        with contextlib.suppress(Exception):
            stop_servers(state, {**os.environ, PREVIEW_DIR_ENV: str(state)})
        shutil.rmtree(tmp, ignore_errors=True)
    if args.json:
        print(json.dumps(fig, indent=1))
        return
    print(f"a Python loop of 10^7 additions: {fig['python_loop_s']} s; {fig['cores']} cores")
    table = rows(fig)
    w = max(len(r[0]) for r in table)
    for a, b, c in table:
        print(f"{a:<{w}}  {b:>12}  {c}")


if __name__ == "__main__":
    main()
