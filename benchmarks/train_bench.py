"""Training benchmark: how long ``attncore.training`` takes to learn a lesson's weights.

    python benchmarks/train_bench.py            # a table
    python benchmarks/train_bench.py --json     # the same figures as JSON
    python benchmarks/train_bench.py --runs 5   # best and median of 5 runs (default 3)

Two lessons, both with ``[projections] weights = "trained"``:

- the built-in default lesson ("cat and mouse", 2 contexts of 5 words, 4 dimensions, 2 heads);
- the largest lesson the bounds allow (``attncore.LIMITS``): 3 contexts of 8 words,
  8 dimensions, 4 heads, written out below like a hand-made lesson.

Each run starts from an empty training cache and measures ``train_lesson`` alone
(building the sentences, every Adam step, the rounding, the claims). The target is
under 2 s for the default lesson on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
import tomllib
from typing import Any

from attncore import builtin_lesson, parse_lesson
from attncore.lesson import Lesson
from attncore.training import train_lesson

TARGET_DEFAULT_S = 2.0

#: 3 contexts x 8 words x 8 dimensions x 4 heads: every bound at its largest.
LARGEST = """
title = "Largest lesson at the bounds"
dimensions = ["nature", "finance", "animal", "place", "grammar", "colour", "size", "other"]
decimals = 2
[vocabulary]
"bank" = [2.0, 2.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.5]
"river" = [3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.5]
"money" = [0.0, 3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.5]
"dog" = [0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0, 0.5]
"the" = [0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 2.0, 0.0]
"we" = [0.0, 0.0, 0.0, 2.0, 0.5, 1.0, 0.5, 0.0]
"sat" = [0.0, 0.0, 0.0, 2.0, 0.0, 0.5, 0.5, 1.0]
"on" = [0.0, 0.0, 0.0, 1.0, 0.5, 0.5, 1.0, 2.0]
"at" = [0.0, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 2.0]
"über" = [0.0, 0.0, 0.0, 2.0, 0.5, 1.0, 0.0, 0.5]
"café" = [0.0, 0.0, 0.0, 1.0, 2.0, 0.5, 0.5, 1.0]
"old" = [0.0, 0.0, 0.0, 0.5, 0.0, 2.0, 0.0, 0.5]
[[contexts]]
name = "nature"
sentence = "the on at old we bank café river"
focus = "bank"
leans = "nature"
[[contexts]]
name = "finance"
sentence = "bank at über money sat old on the"
focus = "bank"
leans = "finance"
[[contexts]]
name = "animal"
sentence = "on über old café we dog sat bank"
focus = "bank"
leans = "animal"
[projections]
weights = "trained"
seed = 1
d_v = 8
[heads]
count = 4
"""


def lessons() -> dict[str, Lesson]:
    return {
        "default": builtin_lesson("default").with_weights("trained"),
        "largest (3 x 8 words, d = 8, 4 heads)": parse_lesson(tomllib.loads(LARGEST), "largest.toml"),
    }


def measure(lesson: Lesson, runs: int) -> dict[str, Any]:
    times = []
    for _ in range(runs):
        train_lesson.cache_clear()
        start = time.perf_counter()
        trained = train_lesson(lesson)
        times.append(time.perf_counter() - start)
    assert trained is not None
    r = trained.record
    return {
        "sentences": len(r.examples), "steps": r.steps, "rounding_steps": r.rounding_steps,
        "best_s": round(min(times), 3), "median_s": round(statistics.median(times), 3),
        "loss_start": round(r.loss[0], 4), "loss_end": round(r.rounded_loss, 4), "claims_hold": r.claims_hold,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per lesson (best and median are reported)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    results = {name: measure(lesson, args.runs) for name, lesson in lessons().items()}
    info = {"cores": os.cpu_count(), "python": platform.python_version(), "runs": args.runs}
    if args.json:
        print(json.dumps({"machine": info, "lessons": results}, indent=1))
    else:
        print(f"Training time, best of {args.runs} (median), {info['cores']} cores, Python {info['python']}")
        for name, r in results.items():
            print(f"  {name:40} {r['best_s']:6.3f} s ({r['median_s']:.3f} s)  {r['sentences']} sentences, "
                  f"{r['steps']} + {r['rounding_steps']} steps, loss {r['loss_start']} -> {r['loss_end']}, "
                  f"claims hold: {r['claims_hold']}")
    ok = results["default"]["best_s"] < TARGET_DEFAULT_S
    if not ok:
        print(f"default lesson above the {TARGET_DEFAULT_S} s target", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
