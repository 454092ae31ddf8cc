"""Workers.submit_all: a signal that arrives while worker processes are being started waits
until every one is started and recorded (a spawn cut in half printed a traceback)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

# Run in a fresh interpreter: it installs attnvid's signal handlers, which must not
# replace the test runner's own.
PROBE = r"""
import signal, threading, time
from attnvid.signals import Interrupted, install_signal_handlers
from attnvid.render.workers import Workers

install_signal_handlers()
release = threading.Event()
# Started before submit_all blocks the signals, as the progress display's thread is: the
# kernel may hand a SIGTERM sent to the process to this thread.
other = threading.Thread(target=release.wait)
other.start()

class Pool:
    submitted = []

    def submit(self, fn, *args):
        if not self.submitted:
            assert other.ident is not None
            signal.pthread_kill(other.ident, signal.SIGTERM)
            time.sleep(0.3)  # a handler run now would cut this spawn in half
        self.submitted.append(args)
        return args

workers = Workers.__new__(Workers)
workers.pool = Pool()
try:
    workers.submit_all(print, [(1,), (2,), (3,)])
    print("not interrupted")
except Interrupted as e:
    print(f"interrupted by {e.signum} after {len(Pool.submitted)} of 3 submits")
finally:
    release.set()
"""


def test_a_signal_during_the_submits_is_acted_on_after_every_submit() -> None:
    r = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "interrupted by 15 after 3 of 3 submits", r.stdout + r.stderr


FORKED = r"""
import os, sys


def seen(name):
    return os.environ.get(name), os.getcwd(), "manim" in sys.modules, os.getppid()


if __name__ == "__main__":
    from attnvid.render.workers import Workers, start_early

    start_early()
    os.environ["ATTNVID_PROBE"] = "set after the server started"
    os.chdir(sys.argv[1])
    with Workers(2) as workers:
        env, cwd, preloaded, parent = workers.submit_all(seen, [("ATTNVID_PROBE",)])[0].result()
    print(f"{env}|{cwd}|{preloaded}|{parent != os.getpid()}")
"""


def test_workers_are_forked_with_manim_imported_and_the_commands_environment(tmp_path: Path) -> None:
    """The fork server imported Manim once (a worker finds it imported), and a worker still sees the
    environment and working folder the command had when it asked, not the server's."""
    script = tmp_path / "probe.py"
    script.write_text(FORKED, encoding="utf-8")
    here = tmp_path / "here"
    here.mkdir()
    r = subprocess.run([sys.executable, str(script), str(here)], cwd=ROOT, capture_output=True, text=True,
                       timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 0, r.stderr[-3000:]
    assert r.stdout.strip() == f"set after the server started|{here}|True|True", r.stdout + r.stderr
