"""Interrupted, killed, concurrent and failing renders lose nothing; output is deterministic.

Every test runs the real ``attnvid`` in a subprocess and checks what it leaves on disk:
videos are decoded to their last frame with PyAV, sidecars parsed. The disk failures
are real too: small tmpfs mounts (this machine runs the tests as root).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import ATTNVID, frame_hashes, made_once, shown_frames

#: Test-suite knob: the seed of the kill times (replays a failure).
KILL_SEED_ENV = "ATTNVID_KILL_SEED"

TWO_SCENES = ["Embeddings", "SimplifiedAttention"]
FPS = {"low": 15, "medium": 30}


def start(
    media: Path, *scenes: str, quality: str = "low", jobs: int = 2, prefix: tuple[str, ...] = ()
) -> subprocess.Popen[str]:
    """``attnvid render`` in a session of its own, so that the test can signal its whole group."""
    cmd = [*prefix, ATTNVID, "render", *scenes, "--quality", quality, "--jobs", str(jobs), "--media", str(media)]
    return subprocess.Popen(cmd, cwd=media.parent, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def finish(p: subprocess.Popen[str], timeout: float = 600) -> tuple[str, str]:
    try:
        return p.communicate(timeout=timeout)
    finally:
        kill_session(p.pid)


def kill_session(sid: int) -> None:
    for pid in session_pids(sid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def session_pids(sid: int) -> list[int]:
    """Live (not zombie) processes of session ``sid``: the parent and every worker it started."""
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[3]) == sid and fields[0] != "Z":  # fields: state, ppid, pgrp, session
            out.append(int(d.name))
    return out


def wait_gone(sid: int, seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while (left := session_pids(sid)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def final_files(media: Path) -> list[Path]:
    return sorted(p for p in media.rglob("*") if p.is_file() and ".work" not in p.parts and not p.name.startswith("."))


def leftovers(media: Path) -> list[str]:
    return sorted(str(p.relative_to(media)) for p in media.rglob("*") if p.name.endswith(".part") or p.name == ".work")


def leftovers_since(media: Path, since: float) -> list[str]:
    """The leftovers holding anything written at or after ``since`` (a time.time()): a run's own."""
    out = []
    for name in leftovers(media):
        p = media / name
        files = [f for f in p.rglob("*") if f.is_file()] if p.is_dir() else [p]
        if not files or any(f.stat().st_mtime >= since for f in files):
            out.append(name)
    return out


def describe_leftovers(media: Path, since: float) -> str:
    """What a leftover holds, with each file's age relative to ``since`` (a time.time()),
    so that a failure says whether something wrote there after the run ended."""
    lines = []
    for name in leftovers(media):
        p = media / name
        files = sorted(f for f in p.rglob("*") if f.is_file()) if p.is_dir() else [p]
        lines.append(f"{name}: {len(files)} files")
        lines += [
            f"  {f.relative_to(media)} written {f.stat().st_mtime - since:+.2f} s after the signal" for f in files[-8:]
        ]
    return "\n".join(lines)


def check_videos(media: Path, quality: str = "low") -> dict[str, str]:
    """Every final video decodes to its end; a sidecar, when present, parses and matches it.

    Returns a short state per video, for the test's log.
    """
    state = {}
    for video in sorted((media / "scenes" / quality).glob("*.mp4")):
        n = shown_frames(video)
        assert n > 0, video
        sidecar = video.with_name(video.name + ".json")
        if sidecar.exists():
            meta = json.loads(sidecar.read_text(encoding="utf-8"))
            assert abs(n - round(meta["duration"] * FPS[quality])) <= 1, (video, n, meta["duration"])
            state[video.name] = f"{n} frames + sidecar"
        else:
            state[video.name] = f"{n} frames, no sidecar"
    return state


def one_line(stderr: str) -> str:
    """The stderr lines other than the per-scene progress lines ("Scene: rendered in ...")."""
    rest = [line for line in stderr.splitlines() if line.split(":")[0] not in TWO_SCENES]
    assert len(rest) == 1 and "Traceback" not in stderr, stderr
    return rest[0]


@pytest.fixture(scope="session")
def two_scenes_rendered(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, float]:
    """A media folder with :data:`TWO_SCENES` rendered, and how long that took: once per run,
    whichever worker asks first (under a file lock in the run's shared folder). The kill tests
    time their signals by it; the re-render test starts from a copy of it."""
    def render(folder: Path) -> None:
        t0 = time.monotonic()
        p = start(folder / "media", *TWO_SCENES)
        _, err = finish(p)
        assert p.returncode == 0, err
        (folder / "seconds").write_text(str(time.monotonic() - t0), encoding="utf-8")

    folder = made_once(tmp_path_factory, "two-scenes", render)
    return folder / "media", float((folder / "seconds").read_text(encoding="utf-8"))


#: The kill test runs in this many parts side by side (each part ends in a run that completes, a
#: render of its own: two parts, not five, save three of those), each about a minute on a slow day.
KILL_PARTS = 2


@pytest.mark.render
@pytest.mark.parametrize("part", range(KILL_PARTS))
def test_killed_at_random_moments_loses_nothing_and_the_next_run_completes(
        tmp_path: Path, part: int, two_scenes_rendered: tuple[Path, float]) -> None:
    """Ten kills at random moments (SIGINT, SIGTERM, SIGKILL three times each, and one more
    SIGINT or SIGTERM, shuffled), dealt out to the parts of the test (five each; the parts
    run side by side), each part then a run that completes."""
    media = tmp_path / "media"
    seed = int(os.environ.get(KILL_SEED_ENV, random.SystemRandom().randrange(10_000)))
    rng = random.Random(seed)
    signals = [signal.SIGINT, signal.SIGTERM, signal.SIGKILL] * 3 + [rng.choice([signal.SIGINT, signal.SIGTERM])]
    rng.shuffle(signals)
    rng = random.Random(seed * KILL_PARTS + part)  # the delays of this part
    trials = list(range(1, len(signals) + 1))[part::KILL_PARTS]  # numbered as in the whole test
    signals = signals[part::KILL_PARTS]
    # The kills land while the render runs: at random moments of a whole render's time, measured
    # once per run (renders got faster once texts were parsed once per run; a fixed 0.5-9 s sent
    # some signals to a run that had already finished).
    whole = two_scenes_rendered[1]
    log = [f"seed {seed}, a whole render {whole:.1f} s"]
    missed: list[int] = []
    for trial, sig in zip(trials, signals, strict=True):
        for sidecar in (media / "scenes" / "low").glob("*.json"):
            sidecar.unlink()  # a scene a trial finished is rendered again: every kill lands mid-render
        started = time.time()
        p = start(media, *TWO_SCENES)
        delay = rng.uniform(0.05, 0.7) * whole
        time.sleep(delay)
        if sig == signal.SIGINT:
            os.killpg(p.pid, sig)  # what Ctrl-C in a terminal does: the whole foreground group
        else:
            p.send_signal(sig)  # what `kill PID` does: the parent alone
        t0, signalled = time.monotonic(), time.time()
        out, err = finish(p, timeout=60)
        took = time.monotonic() - t0
        left = wait_gone(p.pid, 10)
        if len(out.split()) == len(TWO_SCENES):  # every video written: the signal came as the run ended
            assert not left and not leftovers_since(media, started) and p.returncode in (0, -sig, 128 + sig), err
            missed.append(trial)
            log.append(f"trial {trial}: {sig.name} after {delay:.1f} s came as the run ended (status {p.returncode})")
            continue
        state = check_videos(media) if media.exists() else {}
        log.append(
            f"trial {trial}: {sig.name} after {delay:.1f} s -> status {p.returncode} in {took:.1f} s, "
            f"stderr {err.strip().splitlines()[-1:] if err.strip() else []}, "
            f"processes left {len(left)}, leftovers {len(leftovers(media)) if media.exists() else 0}, videos {state}"
        )
        assert not left, f"processes outlived the run: {left}"
        if sig == signal.SIGKILL:
            assert p.returncode == -signal.SIGKILL
            continue  # no chance to clean: the next run does it
        assert p.returncode == {signal.SIGINT: 130, signal.SIGTERM: 143}[sig], err
        assert one_line(err) == ("attnvid: interrupted" if sig == signal.SIGINT else "attnvid: terminated")
        assert took < 30, "exits promptly (generous bound: the machine is shared)"
        # Nothing of its own; what a SIGKILLed run before it left is cleaned by the next run that
        # gets to claim the folder (one stopped before it did leaves it: the final run checks it).
        assert not leftovers_since(media, started), (
            f"trial {trial} ({sig.name}, seed {seed}):\n{describe_leftovers(media, signalled)}")

    assert len(missed) <= len(signals) // 2, (
        f"only {len(signals) - len(missed)} signals came during a render:\n" + "\n".join(log)
    )
    p = start(media, *TWO_SCENES)
    out, err = finish(p)
    assert p.returncode == 0, err
    assert [Path(x).name for x in out.split()] == ["01_Embeddings.mp4", "02_SimplifiedAttention.mp4"]
    state = check_videos(media)
    assert all(s.endswith("+ sidecar") for s in state.values()) and len(state) == 2, state
    assert not leftovers(media)
    log.append(f"final run: status 0, videos {state}, leftovers none")
    print("\n".join(log))


@pytest.mark.render
def test_a_killed_rerender_keeps_the_previous_videos(tmp_path: Path, two_scenes_rendered: tuple[Path, float]) -> None:
    """A re-render killed with SIGKILL at a random moment leaves the previous good videos as they
    were (split from the test above, so that each stays well under a minute)."""
    media = tmp_path / "media"
    shutil.copytree(two_scenes_rendered[0], media)  # the previous good render
    seed = int(os.environ.get(KILL_SEED_ENV, random.SystemRandom().randrange(10_000)))
    rng = random.Random(seed)
    log = [f"seed {seed}"]
    # Drop the records to force a re-render, and kill it.
    before = {v.name: v.read_bytes() for v in (media / "scenes" / "low").glob("*.mp4")}
    for sidecar in (media / "scenes" / "low").glob("*.json"):
        sidecar.unlink()
    p = start(media, *TWO_SCENES)
    time.sleep(rng.uniform(0.3, 0.9) * two_scenes_rendered[1])
    p.send_signal(signal.SIGKILL)
    finish(p, timeout=60)
    assert not wait_gone(p.pid, 10)
    assert {v.name: v.read_bytes() for v in (media / "scenes" / "low").glob("*.mp4")} == before
    check_videos(media)
    log.append("re-render killed with SIGKILL: the previous videos are intact")
    print("\n".join(log))


@pytest.mark.render
def test_same_scene_twice_gives_identical_frames_and_bytes(tmp_path: Path) -> None:
    """Medium quality (1280 px wide): byte identity holds there; see attnvid.render.engine for 480p.

    One render is confined to one core, so the bytes are also shown not to depend on
    the machine's number of cores (x264's thread count would follow it).
    """
    a_media, b_media = tmp_path / "a" / "media", tmp_path / "b" / "media"
    a_media.parent.mkdir()
    b_media.parent.mkdir()
    a = start(a_media, "SimplifiedAttention", quality="medium", jobs=1)
    b = start(b_media, "SimplifiedAttention", quality="medium", jobs=1, prefix=("taskset", "-c", "0"))
    for p in (a, b):
        _, err = finish(p)
        assert p.returncode == 0, err
    va, vb = (m / "scenes" / "medium" / "02_SimplifiedAttention.mp4" for m in (a_media, b_media))
    fa, fb = frame_hashes(va), frame_hashes(vb)
    assert len(fa) > 100 and fa == fb
    assert va.read_bytes() == vb.read_bytes()
    for ext in ("mp4.json", "srt", "vtt"):
        assert va.with_suffix(f".{ext}").read_bytes() == vb.with_suffix(f".{ext}").read_bytes(), ext

    # What `attnvid lecture` makes of them (stream copy, chapters, poster) is byte-identical too.
    from attnvid.publish.assemble import Chapter, join_videos, poster

    chapters = [Chapter("one", 0.0, 1.0), Chapter("two", 1.0, 2.0)]
    outs = []
    for k, v in enumerate((va, vb)):
        join_videos([v, v], tmp_path / f"lecture{k}.mp4", chapters)
        poster(v, tmp_path / f"poster{k}.png")
        outs.append(((tmp_path / f"lecture{k}.mp4").read_bytes(), (tmp_path / f"poster{k}.png").read_bytes()))
    assert outs[0] == outs[1]


@pytest.mark.render
def test_two_runs_on_one_folder_take_turns(tmp_path: Path) -> None:
    media = tmp_path / "media"
    # A scene long enough that the second run reaches the lock while the first renders.
    first = start(media, "Softmax", jobs=1)
    deadline = time.monotonic() + 300
    while not (media / ".work").exists() and first.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)  # .work appears once the first run holds the lock and renders
    second = start(media, "Softmax", jobs=1)
    (out1, err1), (out2, err2) = finish(first), finish(second)
    assert first.returncode == 0, err1
    assert second.returncode == 0, err2
    assert out1 == out2 == f"{media}/scenes/low/05_Softmax.mp4\n"
    assert f"attnvid: waiting for another attnvid run on {media} to finish" in err2
    assert "waiting" not in err1
    assert "Softmax: unchanged, not rendered" in err2, "the second run used the first one's video"
    check_videos(media)
    assert not leftovers(media)


@pytest.fixture()
def tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A folder for small tmpfs mounts; whatever is mounted under it is unmounted afterwards."""
    yield tmp_path
    for p in tmp_path.iterdir():
        if p.is_mount():
            subprocess.run(["umount", "-l", str(p)], check=False)


def mount_tmpfs(path: Path, options: str) -> Path:
    path.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)], check=True)
    return path


@pytest.mark.render
def test_read_only_media_is_one_line_and_status_1(tmpfs: Path) -> None:
    media = mount_tmpfs(tmpfs / "media", "ro,size=300k")
    p = start(media, "SimplifiedAttention")
    _, err = finish(p)
    assert p.returncode == 1
    assert err == (f"attnvid: error: {media} is on a read-only file system; "
                   "render into a writable folder with --media DIR\n")
    assert os.listdir(media) == []


@pytest.mark.render
def test_full_disk_is_one_line_status_1_and_no_partial_files(tmpfs: Path) -> None:
    media = mount_tmpfs(tmpfs / "media", "size=300k")
    p = start(media, *TWO_SCENES)  # two workers: the one that did not fail is stopped
    try:
        _, err = p.communicate(timeout=600)
        # every process the render started ends with it (a few seconds' grace on a loaded
        # machine: a stopped worker or multiprocessing's resource tracker is still exiting)
        left = wait_gone(p.pid, 10)
    finally:
        kill_session(p.pid)
    assert p.returncode == 1
    assert err == (f"attnvid: error: no space left on the disk that holds {media}; free some space there, "
                   "or render into another folder with --media DIR\n")
    assert not left, f"still running 10 s after the render ended: {left}"
    assert [str(x.relative_to(media)) for x in media.rglob("*") if x.is_file()] == [".attnvid.lock"]


def test_a_signal_during_the_last_clean_up_still_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A SIGINT or SIGTERM that lands while a finished run removes its work folder (seen in the
    kill test: an empty .work left by a SIGTERM, seed 970) is cleaned up like any other: the
    signal interrupts the removal half-way here, as the handler's exception would."""
    from attnvid import outputs
    from attnvid.signals import Interrupted

    real_rmtree = shutil.rmtree

    def interrupted_rmtree(path: Path, ignore_errors: bool = False, **kwargs: object) -> None:
        if not ignore_errors and Path(path).name == ".work":  # the last clean-up: half done, then the signal
            for f in Path(path).rglob("*"):
                if f.is_file():
                    f.unlink()
            raise Interrupted(signal.SIGTERM)
        real_rmtree(path, ignore_errors=ignore_errors)

    monkeypatch.setattr(outputs.shutil, "rmtree", interrupted_rmtree)
    root = tmp_path / "media"
    with pytest.raises(Interrupted), outputs.claim_output(root):
        (root / ".work" / "scene" / "frames").mkdir(parents=True)
        (root / ".work" / "scene" / "frames" / "f.png").write_bytes(b"x")
    assert not (root / ".work").exists()


def test_a_signal_landing_while_manim_is_imported_is_a_signal_not_a_broken_install(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C or SIGTERM that arrives while a class body of Manim runs ``__set_name__`` reaches
    the import check wrapped in a RuntimeError (Python's doing); it must stop the run as the
    signal (status 130 or 143), not be reported as "manim: cannot be imported" with status 1
    (seen once in the kill test)."""
    import builtins

    from attnvid.render.runtime import check_manim, check_pango
    from attnvid.signals import Interrupted

    real_import = builtins.__import__

    def landing(name: str, *args: Any, **kwargs: Any) -> Any:
        if name in ("manim", "manimpango"):
            try:
                raise Interrupted(signal.SIGTERM)
            except Interrupted as sig:
                raise RuntimeError("Error calling __set_name__ on 'cached_property' instance") from sig
        return real_import(name, *args, **kwargs)

    monkeypatch.delitem(sys.modules, "manim", raising=False)
    monkeypatch.delitem(sys.modules, "manimpango", raising=False)
    monkeypatch.setattr(builtins, "__import__", landing)
    for check in (check_manim, check_pango):
        with pytest.raises(Interrupted) as caught:
            check()
        assert caught.value.code == 143


def test_a_wrapped_signal_reaching_the_command_is_said_as_the_signal(capsys: pytest.CaptureFixture[str]) -> None:
    """The same RuntimeError, met anywhere else a command runs (a scene module's import):
    one line and the signal's status, not a traceback."""
    from attnvid.errors import cli_errors
    from attnvid.signals import Interrupted

    for sig, line in ((signal.SIGINT, "attnvid: interrupted"), (signal.SIGTERM, "attnvid: terminated")):
        with pytest.raises(SystemExit) as stopped, cli_errors():
            try:
                raise Interrupted(sig)
            except Interrupted as caught:
                raise RuntimeError("Error calling __set_name__") from caught
        assert stopped.value.code == 128 + sig
        assert capsys.readouterr().err.strip() == line
