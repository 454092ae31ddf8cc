"""Workers.submit_all: a signal that arrives while worker processes are being started waits
until every one is started and recorded (a spawn cut in half printed a traceback)."""

from __future__ import annotations

import subprocess
import sys

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
