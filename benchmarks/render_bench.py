"""Render benchmark: attnvid against plain Manim, side by side, on this machine, in one run.

    python benchmarks/render_bench.py            # a table
    python benchmarks/render_bench.py --json     # the same figures as JSON
    python benchmarks/render_bench.py --high 2   # high quality (1080p60) on the first 2 scenes

What it measures (low quality unless said; every run starts from empty caches):

- baseline: ``manim render -ql scenes/<file>.py <Scene>`` for every scene, one after the
  other, as a Manim project's README would tell a user to do;
- ours, cold: ``attnvid render`` of the same scenes (parallel processes, empty caches);
- ours, warm: the same command again, nothing changed;
- one scene changed: a one-line text change in one scene file, then ``attnvid render``;
- preview: ``attnvid preview`` of one scene, warm (nothing changed: best of three) and
  right after a one-line edit of that scene (best of three edits);
- seconds of rendering per second of video, at low and high quality, and the peak
  memory of a render process at high quality.

The source tree is copied to a temporary folder (put first on PYTHONPATH), so the
one-line change never touches the repository.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from attnvid.env import LESSON_ENV

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
TARGETS = {"cold_speedup": 1.7, "warm_fraction": 0.05, "preview_s": 3.0, "high_peak_mib": 1536}


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
            "manim": version("manim"), "system": f"{platform.system()} {platform.release()}"}


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--high", type=int, default=2, metavar="N", help="scenes rendered at high quality (0: skip)")
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
    log(f"baseline: manim render -ql, {len(scenes)} scenes one after the other ...")
    per_scene_base = {}
    for name, file in scenes:
        dt, _ = run([str(BIN / "manim"), "render", "-ql", str(src / file), name], base_dir, env)
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
    m = re.search(r'TITLE = "([^"]+)"', text)
    assert m, f"no TITLE in {changed_file}"
    path.write_text(text.replace(m.group(0), f'TITLE = "{m.group(1)} "', 1), encoding="utf-8")
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
        path.write_text(text.replace(f'TITLE = "{m.group(1)} ', f'TITLE = "{m.group(1)}  ', 1), encoding="utf-8")
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
        names = [n for n, _ in scenes[: args.high]]
        hi = tmp / "high"
        hi.mkdir()
        log(f"ours: high quality (1080p60), {', '.join(names)}, one process at a time ...")
        secs, peak = peak_rss_mib([str(BIN / "attnvid"), "render", *names, "--quality", "high", "--jobs", "1"], hi, env)
        video_high = video_seconds(hi / "media" / "scenes" / "high")
        fig.update({"high_scenes": names, "high_s": round(secs, 2), "video_s_high": round(video_high, 2),
                    "render_s_per_video_s_high": round(secs / video_high, 3), "high_peak_rss_mib": round(peak, 1)})

    if args.keep:
        fig["folder"] = str(tmp)
    else:
        shutil.rmtree(tmp, ignore_errors=True)

    if args.json:
        print(json.dumps(fig, indent=1))
        return
    mc = fig["machine"]
    print(f"machine: {mc['cores']} cores, {mc['cpu']}, {mc['memory_gib']} GiB, Python {mc['python']}, Manim {mc['manim']}")  # type: ignore[index]
    rows = [
        ("baseline: manim render -ql, sequential", f"{baseline:.1f} s", ""),
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
            ("render s per video s, high (1080p60)", f"{fig['render_s_per_video_s_high']:.3f}", f"{fig['video_s_high']} s of video, one process"),
            ("peak memory of a render process, high", f"{fig['high_peak_rss_mib']:.0f} MiB", "target < 1536 MiB"),
        ]
    w = max(len(r[0]) for r in rows)
    for a, b, c in rows:
        print(f"{a:<{w}}  {b:>10}  {c}")


if __name__ == "__main__":
    main()
