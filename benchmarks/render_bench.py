"""Render benchmark: attnvid against plain Manim, side by side, on this machine, in one run.

    python benchmarks/render_bench.py            # a table
    python benchmarks/render_bench.py --json     # the same figures as JSON
    python benchmarks/render_bench.py --high 1   # 1080p60 on Softmax only (default 2: also LearnedProjections)
    python benchmarks/render_bench.py --lecture-high --batch   # also the whole lecture at 1080p60,
                                                 # and the three built-in lessons: local vs a Dask cluster
    python benchmarks/render_bench.py --watch    # also the warm watch against manim render -s
                                                 # (benchmarks/watch_bench.py)

What it measures (low quality unless said; every run starts from empty caches):

- baseline: ``manim render -ql --disable_caching scenes/<file>.py <Scene>`` for every
  scene, one after the other: plain Manim with its fastest flags (its per-animation cache
  only helps a second run of an unchanged animation);
- ours, cold: ``attnvid render`` of the same scenes (parallel processes, empty caches);
- ours, warm: the same command again, nothing changed;
- one scene changed: a one-line text change in one scene file, then ``attnvid render``;
- preview: ``attnvid preview`` of one scene, warm (nothing changed: best of three) and
  right after a one-line edit of that scene (best of three edits);
- high (``--high N``): the first N of Softmax and LearnedProjections (:data:`HIGH_SUBSET`)
  at 1080p60, plain Manim (``-qh --disable_caching``, one scene after the other) against
  ``attnvid render --quality high`` on every core (as a lecturer runs it), and with ``--jobs 1``;
- seconds of rendering per second of video, at low and high quality, and the peak
  memory of a render process at high quality;
- ``--lecture-high``: ``attnvid render --quality high`` of every scene, cold, on every
  core: wall seconds per second of video (target <= 0.5 on 2 cores);
- ``--batch``: ``attnvid batch default bank souris`` at low quality, cold, with the
  local process pool and then with ``--cluster`` on a Dask scheduler and one worker per
  core started here on 127.0.0.1 (same code, same machine: what the cluster costs).

The source tree is copied to a temporary folder (put first on PYTHONPATH), so the
one-line change never touches the repository.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from attnvid.env import LESSON_ENV

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
TARGETS = {"cold_speedup": 1.7, "warm_fraction": 0.05, "preview_s": 3.0, "high_peak_mib": 1536,
           "lecture_high_s_per_video_s": 0.5}


def machine() -> dict[str, object]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem_gib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    from importlib.metadata import version

    return {"cores": os.cpu_count(), "cpu": cpu, "memory_gib": round(mem_gib, 1), "python": platform.python_version(),
            "manim": version("manim"), "system": f"{platform.system()} {platform.release()}",
            "python_loop_s": python_loop_seconds()}


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


def run(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    t0 = time.perf_counter()
    r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit(f"benchmark: {' '.join(cmd)} failed ({r.returncode}):\n{r.stderr[-2000:]}")
    return dt, r


def rendered_seconds(stderr: str) -> dict[str, float]:
    """Per-scene render time from attnvid's progress lines."""
    return {m[1]: float(m[2]) for m in re.finditer(r"^(\w+): rendered in ([\d.]+) s", stderr, re.M)}


def peak_rss_mib(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """(seconds, peak RSS in MiB of the largest process in the command's tree)."""
    probe = ("import resource, subprocess, sys, time, json; t = time.perf_counter(); "
             "r = subprocess.run(json.loads(sys.argv[1])); "
             "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(r.returncode)")
    out = subprocess.run([sys.executable, "-c", probe, json.dumps(cmd)], cwd=cwd, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"benchmark: {' '.join(cmd)} failed:\n{out.stderr[-2000:]}")
    secs, kib = out.stdout.split()[-2:]
    return float(secs), int(kib) / 1024


def video_seconds(folder: Path) -> float:
    return sum(json.loads(p.read_text())["duration"] for p in folder.glob("*.mp4.json"))


#: The scenes compared with plain Manim at 1080p60: Softmax, the example of issue 29, and
#: LearnedProjections, the heaviest build (the most texts and numbers); the whole lecture at
#: 1080p60 in plain Manim would take a quarter of an hour on 2 cores.
HIGH_SUBSET = ("Softmax", "LearnedProjections")


def bench_high(names: tuple[str, ...], files: dict[str, str], tmp: Path, src: Path, env: dict[str, str],
               log: Any) -> dict[str, object]:
    """``names`` at 1080p60: plain Manim (``-qh --disable_caching``, one after the other), then
    ``attnvid render --quality high`` as a lecturer runs it (every core: the scenes side by side),
    and with ``--jobs 1`` (one process at a time), each cold, same run."""
    base = tmp / "baseline-high"
    base.mkdir()
    log(f"baseline: manim render -qh --disable_caching, {', '.join(names)} ...")
    plain = sum(run([str(BIN / "manim"), "render", "-qh", "--disable_caching", str(src / files[n]), n], base, env)[0]
                for n in names)
    out: dict[str, object] = {"high_scenes": list(names), "baseline_high_s": round(plain, 2)}
    for key, jobs in (("high", ()), ("high_jobs1", ("--jobs", "1"))):
        folder = tmp / key
        folder.mkdir()
        log(f"ours: high quality (1080p60), {', '.join(names)}, {'every core' if not jobs else 'one process at a time'} ...")
        secs, peak = peak_rss_mib([str(BIN / "attnvid"), "render", *names, "--quality", "high", *jobs], folder, env)
        video_high = video_seconds(folder / "media" / "scenes" / "high")
        out.update({f"{key}_s": round(secs, 2), f"{key}_speedup": round(plain / secs, 2),
                    f"render_s_per_video_s_{key}": round(secs / video_high, 3), f"{key}_peak_rss_mib": round(peak, 1)})
        out["video_s_high"] = round(video_high, 2)
    return out


def bench_lecture_high(tmp: Path, env: dict[str, str]) -> dict[str, object]:
    """Every scene at 1080p60, cold, on every core: wall seconds per second of video."""
    folder = tmp / "lecture-high"
    folder.mkdir()
    secs, _ = run([str(BIN / "attnvid"), "render", "--quality", "high"], folder, env)
    video = video_seconds(folder / "media" / "scenes" / "high")
    return {"lecture_high_s": round(secs, 2), "video_s_lecture_high": round(video, 2),
            "lecture_high_s_per_video_s": round(secs / video, 3)}


def local_dask(folder: Path, env: dict[str, str], workers: int) -> tuple[str, list[subprocess.Popen[bytes]]]:
    """A Dask scheduler and ``workers`` one-thread workers on 127.0.0.1; its address and processes."""
    import socket

    def free_port() -> int:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return int(s.getsockname()[1])

    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    common = {"cwd": folder, "env": env, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL,
              "start_new_session": True}
    procs = [subprocess.Popen([str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", str(port),
                               "--no-dashboard"], **common)]  # type: ignore[call-overload]
    procs += [subprocess.Popen([str(BIN / "dask"), "worker", address, "--host", "127.0.0.1", "--nthreads", "1",
                                "--no-nanny", "--no-dashboard"], **common) for _ in range(workers)]  # type: ignore[call-overload]
    import importlib

    distributed: Any = importlib.import_module("distributed")  # the optional extra attnvid[cluster]
    with distributed.Client(address, timeout=60) as c:
        c.wait_for_workers(workers, timeout=180)
    return address, procs


def bench_batch(tmp: Path, env: dict[str, str]) -> dict[str, object]:
    """The three built-in lessons at low quality, cold: local process pool, then a local Dask cluster."""
    lessons = ["default", "bank", "souris"]
    local = tmp / "batch-local"
    local.mkdir()
    local_s, _ = run([str(BIN / "attnvid"), "batch", *lessons], local, env)
    cluster = tmp / "batch-cluster"
    cluster.mkdir()
    n = os.cpu_count() or 1
    address, procs = local_dask(cluster, env, n)
    try:
        cluster_s, _ = run([str(BIN / "attnvid"), "batch", *lessons, "--cluster", address], cluster, env)
    finally:
        for p in procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    return {"batch_lessons": lessons, "batch_local_s": round(local_s, 2), "batch_cluster_s": round(cluster_s, 2),
            "batch_cluster_workers": n}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--high", type=int, default=2, metavar="N",
                    help="the first N of Softmax and LearnedProjections at 1080p60, plain Manim and ours (0: skip)")
    ap.add_argument("--lecture-high", action="store_true", help="also every scene at 1080p60, on every core")
    ap.add_argument("--batch", action="store_true", help="also the three built-in lessons: local vs a local Dask cluster")
    ap.add_argument("--watch", action="store_true", help="also the warm watch against manim render -s (watch_bench.py)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="attnvid-bench-"))
    src = tmp / "src"
    for d in ("scenes", "attncore", "attnvid"):
        shutil.copytree(ROOT / d, src / d, ignore=shutil.ignore_patterns("__pycache__"))
    env = dict(os.environ, PYTHONPATH=str(src), PATH=f"{BIN}:{os.environ.get('PATH', '')}")
    env.pop(LESSON_ENV, None)
    sys.path.insert(0, str(src))
    from scenes.lecture import LECTURE, scene_file

    scenes = [(c.__name__, scene_file(c)) for c in LECTURE]
    log = (lambda *a: None) if args.json else (lambda *a: print(*a, file=sys.stderr, flush=True))
    fig: dict[str, object] = {"machine": machine(), "scenes": len(scenes)}

    # Baseline: plain Manim, one scene after the other, empty media folder.
    base_dir = tmp / "baseline"
    base_dir.mkdir()
    log(f"baseline: manim render -ql --disable_caching, {len(scenes)} scenes one after the other ...")
    per_scene_base = {}
    for name, file in scenes:
        dt, _ = run([str(BIN / "manim"), "render", "-ql", "--disable_caching", str(src / file), name], base_dir, env)
        per_scene_base[name] = round(dt, 2)
    baseline = sum(per_scene_base.values())

    ours = tmp / "ours"
    ours.mkdir()
    cmd = [str(BIN / "attnvid"), "render", "--quality", "low"]
    log("ours: attnvid render, cold ...")
    cold, r = run(cmd, ours, env)
    per_scene_ours = rendered_seconds(r.stderr)
    video_low = video_seconds(ours / "media" / "scenes" / "low")
    log("ours: attnvid render, warm ...")
    warm, _ = run(cmd, ours, env)

    changed_scene, changed_file = scenes[len(scenes) // 2]
    path = src / changed_file
    text = path.read_text(encoding="utf-8")
    m = re.search(r'TITLE = (?:N_\()?"[^"]+"', text)  # TITLE = N_("7 · Mixing the values")
    assert m, f"no TITLE in {changed_file}"
    title = m.group(0)[:-1]  # up to its closing quote: the edits add spaces there
    path.write_text(text.replace(m.group(0), f'{title} "', 1), encoding="utf-8")
    log(f"ours: one-line change in {changed_file} ...")
    one, r = run(cmd, ours, env)
    rerendered = sorted(rendered_seconds(r.stderr))

    log("ours: preview, warm ...")
    previews = [run([str(BIN / "attnvid"), "preview", changed_scene], ours, env)[0] for _ in range(4)]
    preview = min(previews[1:])
    # What an author waits for: a preview right after editing the scene (best of three edits).
    after_edit = []
    for _ in range(3):
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace(f'{title} ', f'{title}  ', 1), encoding="utf-8")
        after_edit.append(run([str(BIN / "attnvid"), "preview", changed_scene], ours, env)[0])
    preview_edit = min(after_edit)

    fig.update({
        "baseline_s": round(baseline, 2),
        "baseline_per_scene_s": per_scene_base,
        "cold_s": round(cold, 2),
        "cold_per_scene_s": per_scene_ours,
        "cold_speedup": round(baseline / cold, 2),
        "warm_s": round(warm, 2),
        "warm_fraction_of_cold": round(warm / cold, 4),
        "one_changed_scene": changed_scene,
        "one_changed_s": round(one, 2),
        "one_changed_rerendered": rerendered,
        "that_scene_alone_cold_s": per_scene_ours.get(changed_scene),
        "preview_warm_s": round(preview, 2),
        "preview_after_edit_s": round(preview_edit, 2),
        "video_s_low": round(video_low, 2),
        "render_s_per_video_s_low": round(cold / video_low, 3),
    })

    if args.high > 0:
        fig.update(bench_high(HIGH_SUBSET[: args.high], dict(scenes), tmp, src, env, log))

    if args.lecture_high:
        log("ours: the whole lecture at high quality (1080p60), every core ...")
        fig.update(bench_lecture_high(tmp, env))
    if args.batch:
        log("ours: attnvid batch default bank souris, local, then on a local Dask cluster ...")
        fig.update(bench_batch(tmp, env))

    if args.watch:
        from watch_bench import bench_watch

        fig["watch"] = bench_watch(tmp, src, env, log)

    if args.keep:
        fig["folder"] = str(tmp)
    else:
        shutil.rmtree(tmp, ignore_errors=True)

    if args.json:
        print(json.dumps(fig, indent=1))
        return
    mc: Any = fig["machine"]
    print(f"machine: {mc['cores']} cores, {mc['cpu']}, {mc['memory_gib']} GiB, Python {mc['python']}, Manim {mc['manim']}, "
          f"a Python loop of 10^7 additions {mc['python_loop_s']} s")
    rows = [
        ("baseline: manim render -ql --disable_caching, sequential", f"{baseline:.1f} s", ""),
        ("attnvid render, cold", f"{cold:.1f} s", f"{baseline / cold:.2f}x faster (target >= {TARGETS['cold_speedup']}x)"),
        ("attnvid render, warm (nothing changed)", f"{warm:.2f} s", f"{100 * warm / cold:.1f}% of cold (target < 5%)"),
        (f"one-line change in {changed_scene}", f"{one:.1f} s",
         f"re-rendered {', '.join(rerendered) or 'nothing'}; that scene alone cold: {per_scene_ours.get(changed_scene, float('nan')):.1f} s"),
        (f"attnvid preview {changed_scene}, warm", f"{preview:.2f} s", f"target < {TARGETS['preview_s']} s"),
        (f"attnvid preview {changed_scene}, after an edit", f"{preview_edit:.2f} s",
         f"{'within' if preview_edit < TARGETS['preview_s'] else 'over'} the {TARGETS['preview_s']} s target"),
        ("render s per video s, low (480p15)", f"{cold / video_low:.3f}", f"{video_low:.1f} s of video"),
    ]
    if args.high > 0:
        rows += [
            (f"1080p60: manim render -qh --disable_caching, {' and '.join(fig['high_scenes'])}",  # type: ignore[arg-type]
             f"{fig['baseline_high_s']:.1f} s", ""),
            ("1080p60: attnvid render --quality high (every core), the same scenes", f"{fig['high_s']:.1f} s",
             f"{fig['high_speedup']:.2f}x faster (target >= 3x)"),
            ("1080p60: attnvid render --quality high --jobs 1, the same scenes", f"{fig['high_jobs1_s']:.1f} s",
             f"{fig['high_jobs1_speedup']:.2f}x faster, one process at a time"),
            ("render s per video s, high (1080p60)", f"{fig['render_s_per_video_s_high']:.3f}",
             f"{fig['video_s_high']} s of video, every core"),
            ("peak memory of a render process, high", f"{fig['high_peak_rss_mib']:.0f} MiB", "target < 1536 MiB"),
        ]
    if args.lecture_high:
        rows.append(("whole lecture, high (1080p60), every core", f"{fig['lecture_high_s']:.1f} s",
                     f"{fig['lecture_high_s_per_video_s']:.3f} s per s of video "
                     f"(target <= {TARGETS['lecture_high_s_per_video_s']}), {fig['video_s_lecture_high']} s of video"))
    if args.batch:
        rows += [("batch default bank souris, local", f"{fig['batch_local_s']:.1f} s", "process pool, every core"),
                 ("batch default bank souris, --cluster", f"{fig['batch_cluster_s']:.1f} s",
                  f"Dask, {fig['batch_cluster_workers']} local workers")]
    if args.watch:
        from watch_bench import rows as watch_rows

        rows += watch_rows(fig["watch"])  # type: ignore[arg-type]
    w = max(len(r[0]) for r in rows)
    for a, b, c in rows:
        print(f"{a:<{w}}  {b:>10}  {c}")


if __name__ == "__main__":
    main()
