"""``attnvid batch``: several lessons in one run, locally and on a real Dask cluster.

The cluster is real and local: a ``dask scheduler`` and two ``dask worker`` processes
on 127.0.0.1 only (free ports, no dashboard, one thread each), started by a fixture and
always killed with their whole process group at teardown. To keep the suite short, the
lessons render one scene (``--scene SimplifiedAttention``) at low quality.
"""

from __future__ import annotations

import contextlib
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import ATTNVID, ROOT, frame_hashes

BIN = Path(sys.executable).parent
SCENE = "SimplifiedAttention"
#: Two small lessons: a lesson file (its text travels to the workers) and a built-in one.
LESSONS = ("riverbank.toml", "souris")
SLUGS = ("riverbank", "souris")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def kill_group(p: subprocess.Popen[str]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(p.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        p.wait(timeout=10)


@dataclass
class Cluster:
    address: str
    workers: dict[str, subprocess.Popen[str]]  # worker address -> its process (leader of its own group)

    def tasks_on_scheduler(self) -> int:
        from distributed import Client

        with Client(self.address, timeout=20) as c:
            return int(c.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)))


@contextlib.contextmanager
def dask_cluster(folder: Path, n_workers: int = 2) -> Iterator[Cluster]:
    """A scheduler and ``n_workers`` workers on 127.0.0.1, killed (process groups) on exit."""
    folder.mkdir(parents=True, exist_ok=True)
    procs: list[subprocess.Popen[str]] = []
    log = open(folder / "dask.log", "w")  # noqa: SIM115 (closed below, after the processes)

    def start(*args: str) -> subprocess.Popen[str]:
        p = subprocess.Popen([str(BIN / "dask"), *args], cwd=folder, stdout=log, stderr=subprocess.STDOUT, text=True,
                             start_new_session=True)
        procs.append(p)
        return p

    try:
        port = free_port()
        address = f"tcp://127.0.0.1:{port}"
        start("scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard")
        workers = {}
        for _ in range(n_workers):
            wport = free_port()
            workers[f"tcp://127.0.0.1:{wport}"] = start(
                "worker", address, "--host", "127.0.0.1", "--worker-port", str(wport), "--nthreads", "1",
                "--nworkers", "1", "--no-nanny", "--no-dashboard", "--death-timeout", "60")
        from distributed import Client

        with Client(address, timeout=60) as c:
            c.wait_for_workers(n_workers, timeout=180)
        yield Cluster(address, workers)
    finally:
        for p in procs:
            kill_group(p)
        log.close()


def lesson_files(folder: Path) -> list[str]:
    """The batch's lesson arguments, with riverbank.toml (a copy of the built-in bank) in ``folder``."""
    from importlib import resources

    text = resources.files("attncore").joinpath("lessons/bank.toml").read_text(encoding="utf-8")
    (folder / "riverbank.toml").write_text(text, encoding="utf-8")
    return list(LESSONS)


def batch_cmd(media: Path, *extra: str) -> list[str]:
    return [ATTNVID, "batch", *lesson_files(media.parent), "--scene", SCENE, "--quality", "low",
            "--media", str(media), *extra]


def videos(media: Path) -> dict[str, list[str]]:
    """Decoded frame hashes of every scene video and lecture of the batch, by lesson."""
    out = {}
    for slug in SLUGS:
        root = media / slug
        (video,) = (root / "scenes" / "low").glob(f"*_{SCENE}.mp4")
        out[f"{slug}/scene"] = frame_hashes(video)
        out[f"{slug}/lecture"] = frame_hashes(root / "lecture" / "low" / "lecture.mp4")
    return out


def leftovers(media: Path) -> list[str]:
    return sorted(str(p.relative_to(media)) for p in media.rglob("*") if p.name.endswith(".part") or p.name == ".work")


def check_complete(media: Path, stdout: str) -> None:
    """One lecture folder per lesson on stdout, each complete; nothing half-written anywhere."""
    folders = [Path(line) for line in stdout.split()]
    assert sorted(folders) == sorted(media / s / "lecture" / "low" for s in SLUGS), stdout
    for f in folders:
        assert (f / "manifest.json").is_file() and (f / "index.html").is_file(), f
    assert not leftovers(media)


@pytest.fixture(scope="module")
def local_batch(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """The reference: the same batch rendered locally (the process pool)."""
    media = tmp_path_factory.mktemp("local") / "media"
    media.parent.mkdir(exist_ok=True)
    r = subprocess.run(batch_cmd(media, "--jobs", "2"), cwd=media.parent, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    check_complete(media, r.stdout)
    assert re.search(r"^batch: 2 lessons, 2 scenes rendered, 0 unchanged", r.stderr, re.M), r.stderr
    return videos(media)


class Lines:
    """A process's stderr read line by line in a thread (to act on a line while it runs)."""

    def __init__(self, p: subprocess.Popen[str]) -> None:
        self.lines: queue.Queue[str] = queue.Queue()
        self.all: list[str] = []
        assert p.stderr is not None
        self.thread = threading.Thread(target=self._read, args=(p.stderr,), daemon=True)
        self.thread.start()

    def _read(self, stream: object) -> None:
        for line in stream:  # type: ignore[attr-defined]
            self.all.append(line)
            self.lines.put(line)

    def wait_for(self, pattern: str, timeout: float) -> re.Match[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with contextlib.suppress(queue.Empty):
                m = re.search(pattern, self.lines.get(timeout=1))
                if m:
                    return m
        raise AssertionError(f"no line matching {pattern!r} in {timeout} s:\n{''.join(self.all)}")


def finish(p: subprocess.Popen[str], lines: Lines, timeout: float) -> str:
    """Wait for ``p`` (its stderr is ``lines``'s to read); its stdout (two short lines at most)."""
    p.wait(timeout=timeout)
    lines.thread.join(timeout=30)
    assert p.stdout is not None
    return p.stdout.read()


@pytest.mark.render
def test_batch_on_a_dask_cluster_gives_the_frames_of_a_local_batch(tmp_path: Path,
                                                                  local_batch: dict[str, list[str]]) -> None:
    media = tmp_path / "media"
    with dask_cluster(tmp_path / "cluster") as cluster:
        r = subprocess.run(batch_cmd(media, "--cluster", cluster.address), cwd=tmp_path, capture_output=True,
                           text=True, timeout=900)
        assert r.returncode == 0, r.stderr[-3000:]
        started = re.findall(r"^(\S+): rendering on (tcp://\S+)$", r.stderr, re.M)
        assert sorted(label for label, _ in started) == sorted(f"{s}/{SCENE}" for s in SLUGS), r.stderr
        assert {w for _, w in started} <= set(cluster.workers)
        check_complete(media, r.stdout)
        assert videos(media) == local_batch

        # Nothing changed: the cache is shared, nothing goes to the cluster.
        again = subprocess.run(batch_cmd(media, "--cluster", cluster.address), cwd=tmp_path, capture_output=True,
                               text=True, timeout=300)
        assert again.returncode == 0, again.stderr[-3000:]
        assert "0 scenes rendered, 2 unchanged" in again.stderr
        assert "rendering on" not in again.stderr


@pytest.mark.render
def test_a_worker_killed_mid_batch_loses_nothing(tmp_path: Path, local_batch: dict[str, list[str]]) -> None:
    media = tmp_path / "media"
    with dask_cluster(tmp_path / "cluster") as cluster:
        p = subprocess.Popen(batch_cmd(media, "--cluster", cluster.address), cwd=tmp_path, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            lines = Lines(p)
            m = lines.wait_for(r"^(\S+): rendering on (tcp://\S+)$", timeout=300)
            victim_label, victim = m.group(1), m.group(2)
            time.sleep(2.0)  # well into the render (Manim is drawing)
            kill_group(cluster.workers[victim])
            out = finish(p, lines, timeout=900)
        finally:
            kill_group(p)
        err = "".join(lines.all)
        assert p.returncode == 0, err[-3000:]
        finishers = re.findall(rf"^{re.escape(victim_label)}: rendered in .* on (tcp://\S+)$", err, re.M)
        assert len(finishers) == 1, err
        finisher = finishers[0]
        assert finisher != victim and finisher in cluster.workers, err
        assert cluster.workers[victim].poll() is not None, "the victim is gone"
        check_complete(media, out)
        assert videos(media) == local_batch


@pytest.mark.render
def test_ctrl_c_cancels_the_batch_and_leaves_nothing_half_written(tmp_path: Path) -> None:
    media = tmp_path / "media"
    with dask_cluster(tmp_path / "cluster") as cluster:
        p = subprocess.Popen(batch_cmd(media, "--cluster", cluster.address), cwd=tmp_path, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            lines = Lines(p)
            lines.wait_for(r": rendering on tcp://", timeout=300)
            os.killpg(p.pid, signal.SIGINT)  # Ctrl-C in a terminal: the batch's whole process group
            out = finish(p, lines, timeout=60)
        finally:
            kill_group(p)
        err = "".join(lines.all)
        assert p.returncode == 130, err
        assert err.strip().splitlines()[-1] == "attnvid: interrupted", err
        assert out == ""
        assert not leftovers(media)
        assert not list(media.rglob("*.mp4")), "nothing finished, nothing written"
        deadline = time.monotonic() + 30
        while cluster.tasks_on_scheduler() and time.monotonic() < deadline:
            time.sleep(0.5)
        assert cluster.tasks_on_scheduler() == 0, "the batch's futures were cancelled"


BAD = ROOT / "tests" / "bad_lessons"


def test_bad_lesson_files_are_reported_one_line_each_before_any_work(tmp_path: Path) -> None:
    shutil.copy(BAD / "nan_value.toml", tmp_path / "a_nan.toml")
    shutil.copy(BAD / "missing_focus.toml", tmp_path / "b_focus.toml")
    shutil.copy(ROOT / "attncore" / "lessons" / "bank.toml", tmp_path / "c_good.toml")
    media = tmp_path / "media"
    # The cluster address is never reached: the lessons are checked first.
    r = subprocess.run([ATTNVID, "batch", str(tmp_path), "souris", "nosuchlesson", "--cluster", "tcp://127.0.0.1:9",
                        "--media", str(media)], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    lines = r.stderr.splitlines()
    assert len(lines) == 3, r.stderr
    assert all(line.startswith("attnvid: error: ") for line in lines)
    assert "a_nan.toml" in lines[0] and "b_focus.toml" in lines[1] and "nosuchlesson" in lines[2]
    assert r.stdout == ""
    assert not media.exists()


def test_a_folder_without_lessons_and_two_lessons_with_one_folder_are_errors(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "bank.toml").write_text((ROOT / "attncore" / "lessons" / "souris.toml").read_text(encoding="utf-8"),
                                        encoding="utf-8")
    r = subprocess.run([ATTNVID, "batch", "empty", "bank", "bank.toml", "--media", "media"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    lines = r.stderr.splitlines()
    assert len(lines) == 2, r.stderr
    assert lines[0].startswith("attnvid: error: empty: a folder without lesson files")
    assert lines[1].startswith("attnvid: error: bank.toml: writes to media/bank like another lesson")
    assert not (tmp_path / "media").exists()


def test_without_dask_cluster_is_one_line(tmp_path: Path) -> None:
    """Dask is an optional extra: hide it, and --cluster says how to install it."""
    stub = tmp_path / "stub" / "distributed"
    stub.mkdir(parents=True)
    (stub / "__init__.py").write_text("raise ImportError('no dask here')\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=f"{stub.parent}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    r = subprocess.run([ATTNVID, "batch", "souris", "--scene", SCENE, "--cluster", "tcp://127.0.0.1:9",
                        "--media", "media"], cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 1
    assert r.stderr == "attnvid: error: --cluster needs Dask here and on every worker: pip install 'attnvid[cluster]'\n"
    assert not (tmp_path / "media").exists()


def test_scenes_never_measured_go_first_then_the_longest(tmp_path: Path) -> None:
    """attnvid.render.schedule: the order jobs are handed to the workers (LPT, by the last render's
    time; on a first render by the shipped estimates, a scene without one first)."""
    from attnvid.render.jobs import Job, Result
    from attnvid.render.schedule import PRIOR_SECONDS, longest_first, remember_times

    def job(scene: str, root: Path) -> Job:
        return Job(scene=scene, index=1, fmt="mp4", root=str(root), key="k")

    from scenes.lecture import LECTURE

    assert set(PRIOR_SECONDS) == {c.__name__ for c in LECTURE}, "every scene of the lecture has an estimate"
    a, b = tmp_path / "a", tmp_path / "b"
    jobs = [job(s, a) for s in ("Embeddings", "Softmax", "Scaling", "MultiHead")]
    first = [job("MyOwnScene", a), *jobs]
    assert [j.scene for j in longest_first(first)] == ["MyOwnScene", "Softmax", "MultiHead", "Scaling", "Embeddings"]
    remember_times([(j, Result(scene=j.scene, path="", seconds=t, cached=False, duration=1.0))
                    for j, t in zip(jobs[:3], (5.0, 20.0, 10.0))])
    assert [j.scene for j in longest_first(jobs)] == ["MultiHead", "Softmax", "Scaling", "Embeddings"]
    # Another lesson's root of the same run lends its times; a damaged file only loses the order.
    other = [job("Softmax", b), job("Embeddings", b)]
    assert [j.scene for j in longest_first(other + jobs[:1])] == ["Softmax", "Embeddings", "Embeddings"]
    # Once one scene of the run is measured, the others count as unmeasured: they go first.
    assert [j.scene for j in longest_first([job("TitleCard", a), *jobs[:2]])] == ["TitleCard", "Softmax", "Embeddings"]
    (a / "scenes" / ".render-times.json").write_text('{"low/mp4": 3}', encoding="utf-8")
    assert [j.scene for j in longest_first(jobs)] == ["Softmax", "MultiHead", "Scaling", "Embeddings"]


def test_batch_rate_reaches_every_scene_of_every_lesson(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--rate`` as ``attnvid lecture`` has it: each planned scene's voice carries the rate
    (nothing is rendered: the renderer is replaced by one that records the jobs)."""
    from click.testing import CliRunner

    from attnstage.speech.voices import split_rate
    from attnvid.cli import cli
    from attnvid.commands import batch as batch_command
    from attnvid.errors import UserError

    planned: list[str] = []

    def record(jobs: list, workers: int, **_: object) -> list:  # type: ignore[type-arg]
        planned.extend(j.settings.voice for j in jobs)
        return []

    monkeypatch.setattr(batch_command, "render_many", record)
    monkeypatch.chdir(tmp_path)
    lessons = lesson_files(tmp_path)
    r = CliRunner().invoke(cli, ["batch", *lessons, "--voice", "espeak", "--rate", "150", "--scene", SCENE,
                                  "--media", str(tmp_path / "media")])
    assert r.exit_code == 0, r.output
    assert len(planned) == len(LESSONS)
    assert all(split_rate(v) == ("espeak", 150) for v in planned), planned
    # The same checks as the lecture's: a rate out of range, a voice without a pace (both exit 2).
    r = CliRunner().invoke(cli, ["batch", *lessons, "--voice", "espeak", "--rate", "20"])
    assert r.exit_code == 2 and "--rate" in r.output and "80<=x<=400" in r.output, r.output
    r = CliRunner().invoke(cli, ["batch", *lessons, "--voice", "none", "--rate", "150"])
    assert isinstance(r.exception, UserError) and r.exception.code == 2, r.exception
    assert str(r.exception).startswith("--rate applies to a synthetic voice")
    assert not planned[len(LESSONS):], "nothing more was planned"
