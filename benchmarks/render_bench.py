"""Render benchmark: attnvid against plain Manim, side by side, on this machine, in one run.

    python benchmarks/render_bench.py            # a table
    python benchmarks/render_bench.py --json     # the same figures as JSON
    python benchmarks/render_bench.py --high 1   # 1080p60 on Softmax only (default 2: also LearnedProjections)
    python benchmarks/render_bench.py --lecture-high --batch   # also the whole lecture at 1080p60,
                                                 # and the three built-in lessons: local vs a Dask cluster
    python benchmarks/render_bench.py --watch    # also the warm watch against manim render -s
                                                 # (benchmarks/watch_bench.py)
    python benchmarks/render_bench.py --lecture-vs-manim high,low   # only: the whole lecture against
                                                 # plain Manim at 1080p60 and 480p, with where the time goes
    python benchmarks/render_bench.py --lecture-vs-manim high --scenes Softmax,CausalMask   # a subset

What it measures (low quality unless said; every run starts from empty caches):

- baseline: ``manim render -ql --disable_caching scenes/steps/<file>.py <Scene>`` for every
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
- ``--lecture-vs-manim high,low``: the whole lecture (or ``--scenes``) with plain Manim
  (``-qh`` / ``-ql --disable_caching``, every scene in turn) against ``attnvid render`` on every
  core, and where attnvid's time goes: CPU of every process and of its main thread read from
  /proc while it runs, the building alone measured in a process of its own (construct with
  animations skipped, no frame drawn); building, drawing and the rest of Python (main threads
  less building), encoding (the other threads: x264, the segment encoder), waiting (the cores'
  time not spent on this render), and the share of the cores busy;
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
import threading
import time
from pathlib import Path
from typing import Any

from common import BIN, copy_sources, python_loop_seconds, scene_files
from watch_bench import bench_watch
from watch_bench import rows as watch_rows

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
    probe = (
        "import resource, subprocess, sys, time, json; t = time.perf_counter(); "
        "r = subprocess.run(json.loads(sys.argv[1])); "
        "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(r.returncode)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, json.dumps(cmd)], cwd=cwd, env=env, capture_output=True, text=True
    )
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
        log(
            f"ours: high quality (1080p60), {', '.join(names)}, "
            f"{'every core' if not jobs else 'one process at a time'} ..."
        )
        secs, peak = peak_rss_mib([str(BIN / "attnvid"), "render", *names, "--quality", "high", *jobs], folder, env)
        video_high = video_seconds(folder / "media" / "scenes" / "high")
        out.update({f"{key}_s": round(secs, 2), f"{key}_speedup": round(plain / secs, 2),
                    f"render_s_per_video_s_{key}": round(secs / video_high, 3), f"{key}_peak_rss_mib": round(peak, 1)})
        out["video_s_high"] = round(video_high, 2)
    return out


class TreeSampler:
    """CPU seconds of every process of a tree and of its main thread, read from /proc every ``period`` seconds
    while the command runs (Linux): the main thread of each process (Python: building the
    scene, drawing, interpolating, Manim's bookkeeping) apart from its other threads (x264's
    and the segment encoder's: encoding)."""

    def __init__(self, period: float = 0.25) -> None:
        self.period = period
        self.processes: dict[int, tuple[str, float, float]] = {}  # pid: (command, cpu s, its main thread's)
        self.tick = os.sysconf("SC_CLK_TCK")

    def _children(self) -> dict[int, list[int]]:
        kids: dict[int, list[int]] = {}
        for d in Path("/proc").iterdir():
            if d.name.isdigit():
                with contextlib.suppress(OSError, IndexError, ValueError):
                    ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
                    kids.setdefault(ppid, []).append(int(d.name))
        return kids

    def sample(self, root: int) -> None:
        kids, todo = self._children(), [root]
        while todo:
            pid = todo.pop()
            todo += kids.get(pid, [])
            with contextlib.suppress(OSError, IndexError, ValueError):
                cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                # the process's account includes its threads that ended (x264's, a segment's encoder)
                whole = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                main = Path(f"/proc/{pid}/task/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                self.processes[pid] = (cmd, (int(whole[11]) + int(whole[12])) / self.tick,
                                       (int(main[11]) + int(main[12])) / self.tick)

    def run(
        self, cmd: list[str], cwd: Path, env: dict[str, str]
    ) -> tuple[float, float, subprocess.CompletedProcess[str]]:
        """(wall s, CPU s of the whole tree from the kernel's accounts, the finished process)."""
        before = os.times()
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        out: dict[str, str] = {}
        reader = threading.Thread(target=lambda: out.update(zip(("stdout", "stderr"), proc.communicate())))
        reader.start()
        while reader.is_alive():
            self.sample(proc.pid)
            reader.join(self.period)
        wall = time.perf_counter() - t0
        after = os.times()
        cpu = (after.children_user + after.children_system) - (before.children_user + before.children_system)
        # The workers' fork server is not waited for by the command (it ends by itself once the
        # command has), so neither it nor its workers are in the kernel's account of the command's
        # children: then the samples are the reference (each process's last quarter-second unseen).
        cpu = max(cpu, sum(c for _, c, _ in self.processes.values()))
        r = subprocess.CompletedProcess(cmd, proc.returncode, out.get("stdout", ""), out.get("stderr", ""))
        if r.returncode != 0:
            sys.exit(f"benchmark: {' '.join(cmd)} failed ({r.returncode}):\n{r.stderr[-2000:]}")
        return wall, cpu, r

    def split(self) -> tuple[float, float]:
        """(main threads' CPU s, other threads' CPU s) as last sampled (a process's last
        quarter-second before it ended is not seen; the larger of the kernel's total and the
        samples' is the reference)."""
        main = sum(m for _, _, m in self.processes.values())
        return main, sum(c for _, c, _ in self.processes.values()) - main


def build_cpu_seconds(names: list[str], quality: str, env: dict[str, str], cwd: Path) -> float:
    """CPU seconds to build ``names`` (construct with animations skipped, Manim's own way, no
    frame drawn): the building share of a render, measured in a process of its own."""
    code = ("import sys, time, json\n"
            "from scenes.inspect import DryRenderer, build\nfrom scenes.lecture import find_scene\n"
            "build(find_scene(sys.argv[2]), mobjects=False, renderer=DryRenderer, quality=sys.argv[1])\n"  # warm-up
            "t = time.process_time()\n"
            "for n in sys.argv[2:]: build(find_scene(n), mobjects=False, renderer=DryRenderer, quality=sys.argv[1])\n"
            "print(time.process_time() - t)\n")
    _, r = run([sys.executable, "-c", code, quality, *names], cwd, env)
    return float(r.stdout.split()[-1])


def breakdown(wall: float, cpu: float, sampler: TreeSampler, building: float, processes: int) -> dict[str, float]:
    """Where a render's time goes, in CPU seconds and shares of the cores' time (wall x cores):
    building (construct, measured apart), drawing and the rest of the main threads (rasterising,
    interpolating, Manim's bookkeeping, start-up), encoding (the other threads), waiting (cores not
    working for this render: idle, or busy with other programs on a shared machine)."""
    cores = os.cpu_count() or 1
    main, other = sampler.split()
    seen = main + other
    scale = cpu / seen if seen else 1.0  # the kernel's total, split as the samples split it
    main, other = main * scale, other * scale
    capacity = wall * cores
    return {
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "cores": cores,
        "render_processes": processes,
        "cores_busy_share": round(cpu / capacity, 3),
        "building_cpu_s": round(building, 2),
        "drawing_and_rest_cpu_s": round(max(main - building, 0.0), 2),
        "encoding_cpu_s": round(other, 2),
        "waiting_core_s": round(max(capacity - cpu, 0.0), 2),
        "building_share": round(building / capacity, 3),
        "drawing_and_rest_share": round(max(main - building, 0.0) / capacity, 3),
        "encoding_share": round(other / capacity, 3),
        "waiting_share": round(max(capacity - cpu, 0.0) / capacity, 3),
    }


def breakdown_rows(label: str, b: dict[str, float]) -> list[tuple[str, str, str]]:
    return [(f"{label}: where the time goes (of {b['cores']} cores x {b['wall_s']:.0f} s)",
             f"{100 * b['cores_busy_share']:.0f}% busy",
             f"building {100 * b['building_share']:.0f}%, drawing and the rest of Python "
             f"{100 * b['drawing_and_rest_share']:.0f}%, encoding {100 * b['encoding_share']:.0f}%, "
             f"waiting (cores idle or busy with other programs) {100 * b['waiting_share']:.0f}%")]


def bench_lecture_vs_manim(quality: str, scenes: list[tuple[str, str]], tmp: Path, src: Path, env: dict[str, str],
                           log: Any, subset: bool = False, ours_only: bool = False) -> dict[str, Any]:
    """The whole lecture at ``quality`` (``high``: 1080p60, ``low``: 480p15): plain Manim
    (``-qh``/``-ql --disable_caching``, every scene in turn) against ``attnvid render`` on every
    core, cold, same run; with where attnvid's time goes. ``subset``: only ``scenes``, both sides;
    ``ours_only``: attnvid and its breakdown alone (plain Manim's side takes hours on a busy machine)."""
    flag = {"high": "-qh", "low": "-ql"}[quality]
    base = tmp / f"baseline-lecture-{quality}"
    base.mkdir()
    per_scene: dict[str, float] = {}
    before = os.times()
    for name, file in ([] if ours_only else scenes):
        log(f"baseline: manim render {flag} --disable_caching {name} ...")
        per_scene[name] = round(run([str(BIN / "manim"), "render", flag, "--disable_caching", str(src / file), name],
                                    base, env)[0], 2)
    after = os.times()
    plain_cpu = (after.children_user + after.children_system) - (before.children_user + before.children_system)
    plain = sum(per_scene.values())
    folder = tmp / f"lecture-{quality}"
    folder.mkdir()
    names = [n for n, _ in scenes] if subset else []
    log(f"ours: attnvid render --quality {quality} {' '.join(names) or 'the whole lecture'}, every core ...")
    sampler = TreeSampler()
    wall, cpu, r = sampler.run([str(BIN / "attnvid"), "render", *names, "--quality", quality], folder, env)
    video = video_seconds(folder / "media" / "scenes" / quality)
    log("ours: building alone, every scene, one process ...")
    building = build_cpu_seconds([n for n, _ in scenes], {"high": "high_quality", "low": "low_quality"}[quality],
                                 env, folder)
    processes = len(sampler.processes)
    return {
        "quality": quality,
        "scenes": [n for n, _ in scenes],
        "baseline_s": round(plain, 2),
        "baseline_per_scene_s": per_scene,
        "ours_s": round(wall, 2),
        "speedup": None if ours_only else round(plain / wall, 2),
        "video_s": round(video, 2),
        # CPU seconds, both sides: what a shared machine's other load does not change much
        "baseline_cpu_s": None if ours_only else round(plain_cpu, 2),
        "ours_cpu_s": round(cpu, 2),
        "cpu_ratio": None if ours_only else round(plain_cpu / cpu, 2),
        "ours_per_scene_s": rendered_seconds(r.stderr),
        "breakdown": breakdown(wall, cpu, sampler, building, processes),
    }


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


def lecture_vs_manim(args: argparse.Namespace, scenes: list[tuple[str, str]], tmp: Path, src: Path,
                     env: dict[str, str], fig: dict[str, object], log: Any) -> None:
    """``--lecture-vs-manim high,low``: the figures, then the table (or JSON)."""
    wanted = [s for s in args.scenes.split(",") if s]
    chosen = [(n, f) for n, f in scenes if not wanted or n in wanted]
    for quality in args.lecture_vs_manim.split(","):
        fig[f"lecture_{quality}"] = bench_lecture_vs_manim(quality, chosen, tmp, src, env, log, subset=bool(wanted),
                                                           ours_only=args.ours_only)
    shutil.rmtree(tmp, ignore_errors=True)
    if args.json:
        print(json.dumps(fig, indent=1))
        return
    mc: Any = fig["machine"]
    print(f"machine: {mc['cores']} cores, {mc['cpu']}, a Python loop of 10^7 additions {mc['python_loop_s']} s")
    rows: list[tuple[str, str, str]] = []
    for quality in args.lecture_vs_manim.split(","):
        f: Any = fig[f"lecture_{quality}"]
        what = f"{len(chosen)} scenes" if wanted else "whole lecture"
        flag = {"high": "-qh", "low": "-ql"}[quality]
        if f["speedup"] is None:
            rows += [(f"{what}, {quality}: attnvid render, every core", f"{f['ours_s']:.1f} s",
                      f"{f['video_s']} s of video; CPU {f['ours_cpu_s']:.0f} s (plain Manim not run)")]
        else:
            rows += [
                (f"{what}, {quality}: manim render {flag} --disable_caching, in turn", f"{f['baseline_s']:.1f} s", ""),
                (
                    f"{what}, {quality}: attnvid render, every core",
                    f"{f['ours_s']:.1f} s",
                    f"{f['speedup']:.2f}x faster; {f['video_s']} s of video; CPU {f['baseline_cpu_s']:.0f} s against "
                    f"{f['ours_cpu_s']:.0f} s ({f['cpu_ratio']:.2f}x less)",
                ),
            ]
        rows += breakdown_rows(f"{what}, {quality}", f["breakdown"])
    w = max(len(r[0]) for r in rows)
    for a, b, c in rows:
        print(f"{a:<{w}}  {b:>10}  {c}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--high", type=int, default=2, metavar="N",
                    help="the first N of Softmax and LearnedProjections at 1080p60, plain Manim and ours (0: skip)")
    ap.add_argument("--lecture-high", action="store_true", help="also every scene at 1080p60, on every core")
    ap.add_argument(
        "--batch", action="store_true", help="also the three built-in lessons: local vs a local Dask cluster"
    )
    ap.add_argument("--watch", action="store_true", help="also the warm watch against manim render -s (watch_bench.py)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder")
    ap.add_argument("--lecture-vs-manim", default="", metavar="high,low",
                    help="the whole lecture against plain Manim (every scene in turn), at high (1080p60) and/or low "
                         "quality, with where the time goes (only this, when given)")
    ap.add_argument("--ours-only", action="store_true", help="with --lecture-vs-manim: attnvid and its breakdown alone")
    ap.add_argument("--scenes", default="", metavar="A,B", help="with --lecture-vs-manim: these scenes only (a subset)")
    args = ap.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="attnvid-bench-"))
    src, env = copy_sources(tmp)
    scenes = list(scene_files().items())
    log = (lambda *a: None) if args.json else (lambda *a: print(*a, file=sys.stderr, flush=True))
    fig: dict[str, object] = {"machine": machine(), "scenes": len(scenes)}
    if args.lecture_vs_manim:
        lecture_vs_manim(args, scenes, tmp, src, env, fig, log)
        return

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
    m = re.search(r'TITLE = (?:N_\()?"[^"]+"', text)  # TITLE = N_("Mixing the values")
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
        fig["watch"] = bench_watch(tmp, src, env, log)

    if args.keep:
        fig["folder"] = str(tmp)
    else:
        shutil.rmtree(tmp, ignore_errors=True)

    if args.json:
        print(json.dumps(fig, indent=1))
        return
    mc: Any = fig["machine"]
    print(
        f"machine: {mc['cores']} cores, {mc['cpu']}, {mc['memory_gib']} GiB, Python {mc['python']}, Manim "
        f"{mc['manim']}, "
        f"a Python loop of 10^7 additions {mc['python_loop_s']} s"
    )
    rows = [
        ("baseline: manim render -ql --disable_caching, sequential", f"{baseline:.1f} s", ""),
        (
            "attnvid render, cold",
            f"{cold:.1f} s",
            f"{baseline / cold:.2f}x faster (target >= {TARGETS['cold_speedup']}x)",
        ),
        ("attnvid render, warm (nothing changed)", f"{warm:.2f} s", f"{100 * warm / cold:.1f}% of cold (target < 5%)"),
        (
            f"one-line change in {changed_scene}",
            f"{one:.1f} s",
            f"re-rendered {', '.join(rerendered) or 'nothing'}; that scene alone cold: "
            f"{per_scene_ours.get(changed_scene, float('nan')):.1f} s",
        ),
        (f"attnvid preview {changed_scene}, warm", f"{preview:.2f} s", f"target < {TARGETS['preview_s']} s"),
        (
            f"attnvid preview {changed_scene}, after an edit",
            f"{preview_edit:.2f} s",
            f"{'within' if preview_edit < TARGETS['preview_s'] else 'over'} the {TARGETS['preview_s']} s target",
        ),
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
        rows += watch_rows(fig["watch"])  # type: ignore[arg-type]
    w = max(len(r[0]) for r in rows)
    for a, b, c in rows:
        print(f"{a:<{w}}  {b:>10}  {c}")


if __name__ == "__main__":
    main()
