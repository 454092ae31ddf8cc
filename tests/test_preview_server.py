"""The one-shot preview, warm from its second call (attnvid/commands/preview_client.py and
preview_server.py): the server's picture is a fresh process's, pixel for pixel (every built-in
lesson; the default one in both styles and two languages); a damaged
record or picture, a killed server, a server of other code each end in the right picture
without a traceback; an unchanged preview imports neither Manim nor NumPy; the server's
socket is its user's alone. Every server a test starts is stopped by its pid."""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import signal
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from conftest import ATTNVID
from PIL import Image

from attncore import builtin_lessons
from attnstage.settings import PREVIEW_DIR_ENV, PREVIEW_SERVER_ENV
from attnvid.commands import preview_client as client


def _env(state: Path) -> dict[str, str]:
    return {**os.environ, PREVIEW_SERVER_ENV: "1", PREVIEW_DIR_ENV: str(state)}


def _run(state: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([ATTNVID, "preview", *args], cwd=cwd, env=_env(state), capture_output=True, text=True,
                          timeout=900)


def _pids(state: Path) -> list[int]:
    out = []
    for f in state.glob("*.pid"):
        with contextlib.suppress(ValueError, OSError):
            out.append(int(f.read_text().split()[0]))
    return out


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is no server: the test process is not its parent, so it is reaped by init
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    return False


@contextlib.contextmanager
def servers(state: Path) -> Iterator[None]:
    """Stop, by pid, every server started in ``state`` (after asking them with --stop)."""
    try:
        yield
    finally:
        subprocess.run([ATTNVID, "preview", "--stop"], env=_env(state), capture_output=True, timeout=60)
        for pid in _pids(state):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _pixels(path: Path) -> np.ndarray:
    with Image.open(path) as img:
        return np.asarray(img.convert("RGB")).copy()


# -- fast: the command line, the records, the unchanged preview -----------------------------

def test_the_client_reads_one_shot_previews_and_leaves_the_rest_to_click(tmp_path: Path) -> None:
    asked = client.parse(["Softmax", "--theme", "light", "--json", "--idle=30", "--media", str(tmp_path)])
    assert asked is not None and asked.json and asked.idle == 30 and not asked.stop
    assert asked.request is not None and asked.request.theme == "light" and asked.request.media == str(tmp_path)
    assert asked.argv == ("Softmax", "--theme", "light", "--media", str(tmp_path))  # --json, --idle: the client's
    for argv in (["Softmax", "--watch"], ["Softmax", "--video"], ["--help"], ["Softmax", "--theme", "blue"],
                 ["Softmax", "--idle", "0"], ["Softmax", "--no-server"], [], ["Softmax", "--section"]):
        assert client.parse(argv) is None, argv
    stop = client.parse(["--stop"])
    assert stop is not None and stop.stop


def test_a_record_answers_only_while_picture_and_key_are_what_was_drawn(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PREVIEW_DIR_ENV, str(tmp_path / "state"))
    png = tmp_path / "media" / "preview" / "Softmax.png"
    png.parent.mkdir(parents=True)
    png.write_bytes(b"\x89PNG picture")
    key = png.with_name("Softmax.png.json")
    key.write_text('{"key": "k"}')
    request = client.make_request("Softmax", None, None, None, tmp_path / "media")
    digest = client.request_digest(request)
    assert digest is not None
    client.write_record(digest, png)
    assert client.read_record(digest) == png
    assert stat.S_IMODE(os.stat(tmp_path / "state").st_mode) == 0o700
    png.write_bytes(b"\x89PNG another picture")  # a --watch preview, say, drew over it
    assert client.read_record(digest) is None
    png.write_bytes(b"\x89PNG picture")
    key.write_text('{"key": "older"}')
    assert client.read_record(digest) is None
    key.write_text('{"key": "k"}')
    records = next((tmp_path / "state").glob("*.records"))
    (records / f"{digest}.json").write_text("{not json")
    assert client.read_record(digest) is None
    # another request (theme, language, lesson, section) is another digest
    for other in (client.make_request("Softmax", None, None, "light", tmp_path / "media"),
                  client.make_request("Softmax", None, None, None, tmp_path / "media", "fr"),
                  client.make_request("Softmax", "Divide by the sum", None, None, tmp_path / "media"),
                  client.make_request("Softmax", None, "bank", None, tmp_path / "media")):
        assert client.request_digest(other) != digest


def test_an_unchanged_preview_imports_neither_manim_nor_numpy(tmp_path: Path) -> None:
    """The picture on disk is the answer: about a Python start-up, not Manim's import."""
    state = tmp_path / "state"
    env = {**_env(state), PREVIEW_SERVER_ENV: "0"}
    png = tmp_path / "media" / "preview" / "Softmax.png"
    png.parent.mkdir(parents=True)
    png.write_bytes(b"\x89PNG picture")
    png.with_name("Softmax.png.json").write_text("{}")
    code = ("import sys; from attnvid.commands import preview_client as c; "
            "c.write_record(c.request_digest(c.make_request('Softmax', None, None, None, sys.argv[1])), "
            "__import__('pathlib').Path(sys.argv[2]))")
    subprocess.run([sys.executable, "-c", code, str(tmp_path / "media"), str(png)], env=env, check=True, cwd=tmp_path)
    before = os.times()
    r = subprocess.run([ATTNVID, "preview", "Softmax", "--json"], cwd=tmp_path,
                       env={**env, "PYTHONPROFILEIMPORTTIME": "1"}, capture_output=True, text=True, timeout=60)
    after = os.times()
    assert r.returncode == 0, r.stderr
    answer = json.loads(r.stdout)
    assert answer["png"] == str(png) and answer["how"] == "unchanged"
    imported = {line.split("|")[-1].strip().split(".")[0] for line in r.stderr.splitlines() if "import time:" in line}
    assert "attnvid" in imported and not imported & {"manim", "numpy", "click", "scenes", "cairo"}
    cpu = (after.children_user + after.children_system) - (before.children_user + before.children_system)
    assert cpu < 1.0


# -- a real server: permissions ---------------------------------------------------------------

def _connect_as_nobody(path: Path) -> str:
    """What a process of user ``nobody`` gets when it connects to ``path`` (forked, setuid)."""
    nobody = pwd.getpwnam("nobody")
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never back into pytest
        try:
            os.close(read)
            os.setgroups([])
            os.setgid(nobody.pw_gid)
            os.setuid(nobody.pw_uid)
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                s.settimeout(30)
                s.connect(str(path))
                # the server may refuse (answer and close) before the request is sent: its answer
                # is still there to read after the broken pipe
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    s.sendall(json.dumps({"stop": True}).encode() + b"\n")
                said = s.recv(4096).decode() or "closed"
        except OSError as exc:
            said = type(exc).__name__
        os.write(write, said.encode())
        os._exit(0)
    os.close(write)
    os.waitpid(pid, 0)
    with os.fdopen(read) as f:
        return f.read()


def test_the_server_is_its_users_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil
    import tempfile

    # Under a folder every user may pass through (pytest's own are owner-only): the server's
    # folder and socket are the only locks on the way.
    outer = Path(tempfile.mkdtemp(prefix="attnvid-test-"))
    os.chmod(outer, 0o755)
    monkeypatch.setenv(PREVIEW_DIR_ENV, str(outer / "state"))
    place = client.Place.here()
    with servers(outer / "state"), contextlib.ExitStack() as cleanup:
        cleanup.callback(shutil.rmtree, outer, True)
        client._start(place, 120)
        assert stat.S_IMODE(os.stat(place.folder).st_mode) == 0o700
        assert stat.S_IMODE(os.stat(place.socket).st_mode) == 0o600 and stat.S_ISSOCK(os.stat(place.socket).st_mode)
        assert _connect_as_nobody(place.socket) == "PermissionError"
        # Even with the folder and socket opened to all, the server answers no other user.
        os.chmod(place.folder, 0o755)
        os.chmod(place.socket, 0o666)
        said = _connect_as_nobody(place.socket)
        assert "not your preview server" in said and "stopped" not in said
        pid = client._pid_of(place)
        assert pid is not None and _alive(pid)
        # and the folder is made owner-only again by the next command
        client.state_dir()
        assert stat.S_IMODE(os.stat(place.folder).st_mode) == 0o700
        assert "stopped the preview server" in client.stop(place)
        assert not _alive(pid) and not place.socket.exists()


# -- a real server: pictures --------------------------------------------------------------------

FULL_CASES = [("dark", "en"), ("light", "en"), ("dark", "fr"), ("light", "fr")]
#: The other built-in lessons, each in its own language, in one style or the other (the default
#: lesson takes the four cases above).
OTHER_LESSONS = [(name, "light" if i % 2 else "dark") for i, name in enumerate(n for n in builtin_lessons()
                                                                               if n != "default")]


def _fresh(work: Path, *args: str) -> np.ndarray:
    r = subprocess.run([ATTNVID, "preview", "Softmax", "--no-server", *args],
                       cwd=work, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr
    return _pixels(Path(r.stdout.strip()))


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], np.ndarray]:
    """Softmax's preview drawn by a fresh process, each style and language."""
    work = tmp_path_factory.mktemp("fresh")
    return {(theme, language): _fresh(work, "--theme", theme, "--language", language)
            for theme, language in FULL_CASES}


@pytest.mark.slow
@pytest.mark.render
def test_the_servers_pictures_are_a_fresh_processs_and_survive_damage_and_kill(
        tmp_path: Path, fresh: dict[tuple[str, str], np.ndarray]) -> None:
    state = tmp_path / "state"
    with servers(state):
        hows = []
        for theme, language in FULL_CASES:  # one server draws all four, in turn
            r = _run(state, tmp_path, "Softmax", "--theme", theme, "--language", language, "--json")
            assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
            answer = json.loads(r.stdout)
            hows.append(answer["how"])
            assert np.array_equal(_pixels(Path(answer["png"])), fresh[theme, language]), (theme, language)
        assert hows == ["started", "server", "server", "server"]
        (pid,) = _pids(state)
        # and every other built-in lesson (its own language; Chinese in a CJK font), by the same server
        assert len(OTHER_LESSONS) >= 5
        for name, theme in OTHER_LESSONS:
            r = _run(state, tmp_path, "Softmax", "--lesson", name, "--theme", theme, "--json")
            assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
            other = json.loads(r.stdout)
            assert other["how"] == "server", name
            drawn = _pixels(Path(other["png"]))
            assert np.array_equal(drawn, _fresh(tmp_path, "--lesson", name, "--theme", theme)), name

        # A damaged picture (the cache entry a record names) is drawn again, right.
        png = Path(answer["png"])
        png.write_bytes(png.read_bytes()[:100])
        r = _run(state, tmp_path, "Softmax", "--theme", "light", "--language", "fr", "--json")
        assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
        assert json.loads(r.stdout)["how"] == "server"
        assert np.array_equal(_pixels(png), fresh["light", "fr"])
        # A damaged record: the same.
        for record in next(state.glob("*.records")).glob("*.json"):
            record.write_text("{\"png\": 3")
        r = _run(state, tmp_path, "Softmax", "--theme", "light", "--language", "fr", "--json")
        assert r.returncode == 0 and json.loads(r.stdout)["how"] == "server", r.stderr
        assert np.array_equal(_pixels(png), fresh["light", "fr"])

        # A killed server (kill -9: its socket stays behind): a new one starts, the picture is right.
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        png.unlink()
        r = _run(state, tmp_path, "Softmax", "--theme", "light", "--language", "fr", "--json")
        assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
        assert json.loads(r.stdout)["how"] == "started"
        assert np.array_equal(_pixels(png), fresh["light", "fr"])
        (new_pid,) = set(_pids(state))
        assert new_pid != pid

        # Killed while it draws: the client says so in one line and draws in its own process.
        png.unlink()
        proc = subprocess.Popen([ATTNVID, "preview", "Softmax", "--theme", "light", "--language", "fr"], cwd=tmp_path,
                                env=_env(state), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(0.5)
        os.kill(new_pid, signal.SIGKILL)
        out, err = proc.communicate(timeout=900)
        assert proc.returncode == 0 and "Traceback" not in err, err
        assert "previewing in this process" in err and len(err.strip().splitlines()) == 1
        assert np.array_equal(_pixels(Path(out.strip())), fresh["light", "fr"])


@pytest.mark.slow
@pytest.mark.render
def test_a_server_of_other_code_stops_and_a_scene_edit_is_imported_again(tmp_path: Path) -> None:
    """Edits in a copy of the tree: shared code restarts the server, a scene file is imported
    again in it, and each picture is the one the edited tree draws in a fresh process."""
    import shutil

    root = Path(__file__).resolve().parents[1]
    src = tmp_path / "src"
    for d in ("scenes", "attncore", "attnstage", "attnvid"):
        shutil.copytree(root / d, src / d, ignore=shutil.ignore_patterns("__pycache__"))
    state = tmp_path / "state"
    env = {**_env(state), "PYTHONPATH": str(src)}

    def preview(*args: str) -> dict[str, str]:
        r = subprocess.run([ATTNVID, "preview", "Scaling", "--json", *args], cwd=tmp_path, env=env,
                           capture_output=True, text=True, timeout=900)
        assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
        return dict(json.loads(r.stdout))

    with servers(state):
        assert preview()["how"] == "started"
        scene = src / "scenes" / "steps" / "scaling.py"
        scene.write_text(scene.read_text() + "\n# an edit\n")
        first = preview()
        assert first["how"] == "server"
        (pid,) = _pids(state)
        shared = src / "attncore" / "__init__.py"
        shared.write_text(shared.read_text() + "\n# an edit\n")
        assert preview()["how"] == "started"
        assert not _alive(pid)
        assert preview()["how"] == "unchanged"
        fresh = subprocess.run([ATTNVID, "preview", "Scaling", "--no-server", "--media", str(tmp_path / "fresh")],
                               cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
        assert fresh.returncode == 0, fresh.stderr
        assert np.array_equal(_pixels(Path(first["png"])), _pixels(Path(fresh.stdout.strip())))


def test_an_idle_server_stops_by_itself_and_stop_says_when_none_runs(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PREVIEW_DIR_ENV, str(tmp_path / "state"))
    place = client.Place.here()
    with servers(tmp_path / "state"):
        client._start(place, 2)  # --idle 2
        pid = client._pid_of(place)
        assert pid is not None and _alive(pid)
        deadline = time.monotonic() + 60
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(pid) and not place.socket.exists() and not place.pid.exists()
        assert client.stop(place) == "no preview server was running"
