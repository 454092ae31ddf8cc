"""The one-shot ``attnvid preview SCENE``, warm from its second call: the light half.

This module imports only the standard library (and :mod:`attnstage.settings`, :mod:`attnvid.paths`,
:mod:`attnvid.render.cache`, which import nothing heavy): :mod:`attnvid.cli` calls
:func:`answer` before it imports click and the commands, so that a preview it can answer
costs a Python start-up, not Manim's.

1. **Nothing changed** (the scene, lesson and section asked, every file of ``scenes``,
   ``attncore``, ``attnstage`` and ``attnvid``, the lesson's file, the Manim, PyAV and Python versions): a
   record of the last preview of the same request (:func:`request_digest`) names the PNG, with
   the digests of the PNG and of its key file; when both files still have them, the PNG is the
   answer, and nothing else is imported. A record that is missing, unreadable or does not match
   is no answer: the preview is drawn.
2. **Anything changed**: the preview server of this checkout and interpreter
   (:mod:`.preview_server`) draws it. The first call starts it; it keeps Manim, the fonts, the
   parsed texts and typeset formulas loaded, and stops after ``--idle`` seconds without a
   request (default :data:`DEFAULT_IDLE`) or at ``attnvid preview --stop``. It runs the very
   ``attnvid preview`` command in its process, so its picture is the one a fresh process
   draws. Every hello carries the digest of the code the server must run
   (:func:`code_digest`: every file of the three packages but the scene files, the versions);
   a server of other code stops and a new one starts. A scene file it imported and that
   changed is imported again in the server (scene files import each other never; a test checks it).
3. **A scene file of the lecturer's own** (``attnvid preview PATH.py``): click runs the command
   in this process, with its picture cache (the key covers the file), no server, no record.
4. **No server can answer** (it cannot start, it was killed during the request, its folder is
   not ours): one line on stderr, and the preview is drawn in this process, as without server.

The server's socket lives in an owner-only folder (``0700``; the socket itself ``0600``),
and the server answers only connections of its own user (``SO_PEERCRED``).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import signal
import socket
import stat
import struct
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, replace
from importlib.metadata import version
from pathlib import Path
from typing import Any

from attnstage.settings import DEFAULT_STYLE, STYLES, SceneSettings, preview_dir, preview_server_wanted

from ..paths import package_dir
from ..render.cache import is_scene_file

#: The packages whose files a preview depends on.
PACKAGES = ("scenes", "attncore", "attnstage", "attnvid")
#: Seconds a server waits for a request before it stops.
DEFAULT_IDLE = 600
#: Seconds a client waits for a server it started to listen (Manim's import, on a busy machine).
START_TIMEOUT = 120.0
#: The options the one-shot preview takes, with a value / without one; anything else
#: (``--watch``, ``--video``, ``--help``) is for click.
VALUE_OPTIONS = ("--section", "--lesson", "--theme", "--language", "--media", "--idle")
FLAG_OPTIONS = ("--json", "--stop")


@dataclass(frozen=True)
class Request:
    """What a one-shot preview was asked for, normalised as click reads it."""

    scene: str
    section: str | None
    lesson: str  # an absolute path, or a built-in name ("" for the default)
    theme: str | None
    language: str  # --language, else the environment's settings', else ""
    media: str  # absolute


def make_request(scene: str, section: str | None, lesson: str | None, theme: str | None, media: str | Path,
                 language: str | None = None) -> Request:
    spec = "" if lesson is None else (str(Path(lesson).resolve()) if Path(lesson).exists() else lesson)
    return Request(scene, section, spec, theme, language or SceneSettings.from_environ().language,
                   str(Path(media).resolve()))


# -- what the picture depends on ------------------------------------------------------------

def _package_files() -> list[tuple[str, Path]]:
    """(label, path) of every file of the three packages, in a fixed order (no caches, no dotfiles:
    ``scenes/.render-times.json`` changes at every render and changes no picture)."""
    out = []
    for name in PACKAGES:
        root = package_dir(name)
        for path in sorted(root.rglob("*")):
            rel = path.relative_to(root.parent)
            if path.is_file() and "__pycache__" not in rel.parts and not any(p.startswith(".") for p in rel.parts):
                out.append((rel.as_posix(), path))
    return out


def _versions() -> str:
    return "\0".join((version("manim"), version("av"), sys.version, sys.executable))


def digests() -> tuple[str, str]:
    """(code digest, tree digest): the code a server runs (every file but the scene files, the
    versions), and every file of the packages with the versions (what a picture depends on,
    besides the request and the lesson)."""
    code, tree = hashlib.sha256(_versions().encode()), hashlib.sha256(_versions().encode())
    for label, path in _package_files():
        data = label.encode() + b"\0" + path.read_bytes() + b"\0"
        tree.update(data)
        if not is_scene_file(path):
            code.update(data)
    return code.hexdigest(), tree.hexdigest()


def code_digest() -> str:
    return digests()[0]


def request_digest(req: Request, tree: str | None = None) -> str | None:
    """The digest of everything the request's picture depends on, or None when it cannot be
    known (a lesson path that is not a readable file: the preview says why)."""
    h = hashlib.sha256(json.dumps(asdict(req), sort_keys=True).encode())
    h.update((tree or digests()[1]).encode())
    if req.lesson and Path(req.lesson).is_absolute():
        try:
            h.update(Path(req.lesson).read_bytes())
        except OSError:
            return None
    return h.hexdigest()


# -- the folder of servers and records ------------------------------------------------------

def state_dir() -> Path:
    """The owner-only folder of sockets and records, made if needed; OSError if it is not ours."""
    given = preview_dir()
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    folder = Path(given) if given else Path(runtime) / "attnvid" if runtime else Path(f"/tmp/attnvid-{os.getuid()}")
    with contextlib.suppress(FileExistsError):
        folder.mkdir(mode=0o700, parents=True)
    st = os.lstat(folder)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid():
        raise OSError(f"{folder} is not a folder of this user")
    if stat.S_IMODE(st.st_mode) & 0o077:
        os.chmod(folder, 0o700)
    return folder


def server_id() -> str:
    """One server per checkout (the folders the packages are imported from) and interpreter."""
    where = "\0".join(str(package_dir(p)) for p in PACKAGES)
    return hashlib.sha256(f"{where}\0{sys.executable}\0{sys.version}".encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Place:
    """Where the server of this checkout and interpreter keeps its files."""

    folder: Path
    sid: str

    @classmethod
    def here(cls) -> Place:
        return cls(state_dir(), server_id())

    @property
    def socket(self) -> Path:
        return self.folder / f"{self.sid}.sock"

    @property
    def pid(self) -> Path:
        return self.folder / f"{self.sid}.pid"

    @property
    def log(self) -> Path:
        return self.folder / f"{self.sid}.log"

    @property
    def lock(self) -> Path:
        return self.folder / f"{self.sid}.lock"

    @property
    def records(self) -> Path:
        return self.folder / f"{self.sid}.records"


# -- records of pictures already right ------------------------------------------------------

def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_record(digest: str, png: Path) -> None:
    """Remember that the request ``digest`` drew ``png`` (with its key file beside it)."""
    try:
        records = Place.here().records
        records.mkdir(mode=0o700, exist_ok=True)
        sidecar = png.with_name(png.name + ".json")
        data = json.dumps({"png": str(png.resolve()), "png_sha256": _sha(png), "key_sha256": _sha(sidecar)})
        part = records / f"{digest}.{os.getpid()}.part"
        part.write_text(data, encoding="utf-8")
        os.replace(part, records / f"{digest}.json")
    except OSError:
        pass  # only the next unchanged preview's speed is lost


def read_record(digest: str) -> Path | None:
    """The PNG the request ``digest`` drew, if it and its key file are still what was drawn."""
    try:
        record = json.loads((Place.here().records / f"{digest}.json").read_text(encoding="utf-8"))
        png = Path(record["png"])
        if _sha(png) == record["png_sha256"] and _sha(png.with_name(png.name + ".json")) == record["key_sha256"]:
            return png
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return None


# -- the command line -----------------------------------------------------------------------

@dataclass(frozen=True)
class Asked:
    """A one-shot preview's command line, as this module reads it."""

    request: Request | None  # None with --stop alone
    json: bool
    stop: bool
    idle: int
    argv: tuple[str, ...]  # for the server: without --json, --idle, --stop


def parse(argv: list[str]) -> Asked | None:
    """The one-shot preview asked by ``argv`` (the words after ``preview``), or None when click
    should read it (``--watch``, ``--video``, ``--help``, anything this parser does not know)."""
    values: dict[str, str] = {}
    flags: set[str] = set()
    positional: list[str] = []
    passed: list[str] = []
    i = 0
    while i < len(argv):
        word = argv[i]
        name, eq, value = word.partition("=")
        if word == "--":
            positional += argv[i + 1:]
            passed += argv[i:]
            break
        if name in VALUE_OPTIONS:
            if not eq:
                if i + 1 >= len(argv):
                    return None
                value = argv[i + 1]
                i += 1
            values[name] = value
            if name != "--idle":
                passed += [name, value]
        elif word in FLAG_OPTIONS:
            flags.add(word)
        elif word.startswith("-") and word != "-":
            return None
        else:
            positional.append(word)
            passed.append(word)
        i += 1
    try:
        idle = int(values.get("--idle", DEFAULT_IDLE))
    except ValueError:
        return None
    if idle < 1 or len(positional) > 1 or values.get("--theme", DEFAULT_STYLE) not in STYLES:
        return None
    if "--stop" in flags:
        return Asked(None, False, True, idle, ()) if not positional and not values else None
    if not positional or positional[0].endswith(".py"):
        return None  # a scene file of the lecturer's own is previewed in the command's own process
    request = make_request(positional[0], values.get("--section"), values.get("--lesson"), values.get("--theme"),
                           values.get("--media", "media"), values.get("--language"))
    return Asked(request, "--json" in flags, False, idle, tuple(passed))


def emit(png: str, started: float, as_json: bool, how: str) -> None:
    """The answer on stdout: the PNG's path, or ``{"png", "seconds", "how"}`` with ``--json``."""
    if as_json:
        print(json.dumps({"png": png, "seconds": round(time.perf_counter() - started, 3), "how": how}))
    else:
        print(png)
    sys.stdout.flush()


def server_wanted() -> bool:
    return preview_server_wanted()


def answer(argv: list[str]) -> None:
    """Answer ``attnvid preview ARGV`` and exit, or return for click to run it (in this process)."""
    asked = parse(argv)
    if asked is None:
        return
    if asked.stop:
        try:
            said = stop(Place.here())
        except OSError as exc:
            said = f"no preview server to stop ({exc})"
        print(f"attnvid: {said}", file=sys.stderr)
        sys.exit(0)
    assert asked.request is not None
    started = time.perf_counter()
    code, tree = digests()
    digest = request_digest(asked.request, tree)
    png = read_record(digest) if digest else None
    if png is not None:
        emit(str(png), started, asked.json, "unchanged")
        sys.exit(0)
    if not server_wanted():
        return
    try:
        reply = ask(Place.here(), code, asked)
    except (OSError, ValueError, ServerGone) as exc:
        print(f"attnvid: the preview server did not answer ({exc}); previewing in this process", file=sys.stderr)
        return
    sys.stderr.write(reply.get("stderr", ""))
    status = int(reply.get("status", 1))
    if status == 0:
        emit(reply["stdout"].strip().splitlines()[-1], started, asked.json, reply.get("how", "server"))
    else:
        sys.stdout.write(reply.get("stdout", ""))
    sys.stdout.flush()
    sys.stderr.flush()
    sys.exit(status)


# -- talking to the server ------------------------------------------------------------------

class ServerGone(Exception):
    """The server closed the connection without an answer (killed, crashed)."""


def _exchange(path: Path, message: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        sock.connect(str(path))
        sock.sendall(json.dumps(message).encode() + b"\n")
        return read_message(sock, ServerGone("the server closed the connection without an answer"))


def read_message(sock: socket.socket, gone: Exception) -> dict[str, Any]:
    """One message of either side: a line of JSON; ``gone`` is raised if the other side closes first."""
    data = b""
    while not data.endswith(b"\n"):
        chunk = sock.recv(1 << 16)
        if not chunk:
            raise gone
        data += chunk
    return dict(json.loads(data))


def _peer_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _pid_of(place: Place) -> int | None:
    try:
        return int(place.pid.read_text(encoding="ascii").split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _start(place: Place, idle: int) -> None:
    """Start a server of this checkout and interpreter; return once it listens."""
    place.socket.unlink(missing_ok=True)
    place.pid.unlink(missing_ok=True)
    here = [str(package_dir(p).parent) for p in PACKAGES]
    paths = list(dict.fromkeys(here + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    with open(place.log, "ab") as log:
        proc = subprocess.Popen(
            [sys.executable, "-P", "-m", "attnvid.commands.preview_server", str(place.socket), str(idle),
             *(str(package_dir(p)) for p in PACKAGES)],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env, start_new_session=True, cwd="/")
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise ServerGone(f"it stopped at start (exit status {proc.returncode}); see {place.log}")
        if _pid_of(place) == proc.pid:  # written once it listens (the socket exists a moment before)
            return
        time.sleep(0.02)
    with contextlib.suppress(ProcessLookupError):
        os.kill(proc.pid, signal.SIGTERM)
    raise ServerGone(f"it did not listen within {START_TIMEOUT:.0f} s")


def _wait_gone(pid: int | None, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while pid is not None and _peer_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.02)


def ask(place: Place, code: str, asked: Asked) -> dict[str, Any]:
    """The server's answer to ``asked``: a running server of the same code, or a new one."""
    settings = SceneSettings.from_environ()  # what the command line does not name, the server takes from ours
    if asked.request is not None and asked.request.language:
        settings = replace(settings, language=asked.request.language)
    env = dict(settings.to_environ({}))
    message = {"code": code, "argv": list(asked.argv), "cwd": os.getcwd(), "env": env, "idle": asked.idle}
    with open(place.lock, "a+b") as lock:
        # One client at a time decides whether a server must start: two first calls start one.
        fcntl.flock(lock, fcntl.LOCK_EX)
        reply = None
        with contextlib.suppress(FileNotFoundError, ConnectionRefusedError):  # none yet, or a dead one's socket
            reply = _exchange(place.socket, message)
        if reply is not None and reply.get("stale"):
            _wait_gone(reply.get("pid"))  # a server of other code: it stops; start one of ours
            reply = None
        if reply is None:
            _start(place, asked.idle)
            reply = _exchange(place.socket, message)
            reply["how"] = "started"
    if reply.get("stale"):
        raise ServerGone("a new server runs other code than this command")
    return reply


def stop(place: Place) -> str:
    """Stop the server of this checkout and interpreter; what was done, in words."""
    pid = _pid_of(place)
    try:
        reply = _exchange(place.socket, {"stop": True}, timeout=30)
    except (FileNotFoundError, ConnectionRefusedError):
        place.socket.unlink(missing_ok=True)
        return "no preview server was running"
    except (OSError, ServerGone):
        reply = {}
    _wait_gone(reply.get("pid", pid))
    return f"stopped the preview server (pid {reply.get('pid', pid)})"


def peer_uid(conn: socket.socket) -> int:
    """The user id of the process at the other end of a Unix socket (Linux's SO_PEERCRED)."""
    _, uid, _ = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")))
    return int(uid)
