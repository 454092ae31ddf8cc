"""The preview server: one warm process per checkout and interpreter that answers one-shot
``attnvid preview SCENE`` commands (see :mod:`.preview_client` for the whole design).

``python -P -m attnvid.commands.preview_server SOCKET IDLE SCENES ATTNCORE ATTNSTAGE ATTNVID``: listens on
the Unix socket SOCKET (``0600``, in the client's ``0700`` folder) and answers requests one at a
time, until IDLE seconds pass without one, a request of other code arrives (it answers "stale"
and stops), ``attnvid preview --stop`` or SIGTERM. A request runs the very ``attnvid preview``
command in this process (its output captured and sent back), so that the picture is the one a
fresh process draws: the lesson is read anew each time and the traces built from it forgotten;
a scene file that changed since it was imported is imported again (with the lecture's list);
the request's settings (:class:`attnstage.settings.SceneSettings`) and folder are the command's.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import io
import json
import os
import signal
import socket
import sys
from pathlib import Path
from typing import Any

from attnstage.settings import SceneSettings

from ..catalog import forget_traces, lecture_scenes, warm_texts
from ..paths import package_dir
from ..render.cache import is_scene_file
from .preview_client import PACKAGES, code_digest, peer_uid, read_message

#: The digest of our code, taken before the code it names is imported (just below): an edit
#: meanwhile restarts the server.
CODE = code_digest()

from .. import cli  # noqa: E402  (after the digest, on purpose)
from ..errors import cli_errors  # noqa: E402
from .warm import one_line, settle  # noqa: E402


class Server:
    """What the server keeps between requests."""

    def __init__(self, path: Path, idle: int) -> None:
        self.path, self.idle = path, idle
        self.code = CODE
        self.scene_files = _scene_digests()
        # Manim, the scenes and every command loaded now, once (after the digests, hence here).
        lecture_scenes()
        self.cli, self.cli_errors, self.one_line = cli, cli_errors, one_line

    def reload_changed_scenes(self) -> None:
        """Import again every scene module whose file changed (its parts first), then the lecture's list of them."""
        now = _scene_digests()
        changed = {module for module, digest in now.items() if self.scene_files.get(module) != digest}
        if not changed:
            return
        # a scene whose part changed (mixing_layout for mixing) is imported again after the part
        changed |= {scene for scene in now for part in changed if part.startswith(scene + "_")}
        for module in sorted(changed, key=len, reverse=True):
            if module in sys.modules:
                importlib.reload(sys.modules[module])
        importlib.reload(sys.modules["scenes.lecture"])
        self.scene_files = now

    def run(self, message: dict[str, Any]) -> dict[str, Any]:
        """Run one ``attnvid preview`` as its client asked; its status, stdout and stderr."""
        self.idle = int(message.get("idle", self.idle))
        os.chdir(message["cwd"])
        settings = SceneSettings.from_environ(message["env"])
        settings.to_environ()  # the client's settings, every field
        # the texts each request takes are counted, for settle() to copy ahead; written to disk only
        # to a folder the settings name (the request's own work folder goes when it ends)
        warm_texts(keep_on_disk=bool(settings.text_cache))
        forget_traces()  # the lesson read anew: its file may have changed
        out, err = io.StringIO(), io.StringIO()
        status = 0
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                with self.cli_errors():
                    self.cli.cli.main(["preview", *message["argv"], "--no-server"], prog_name="attnvid",
                                      standalone_mode=False)
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else 1
            except Exception as exc:  # noqa: BLE001  (a bug in scene code: one line, as the watch says it)
                print(self.one_line(exc).replace("; still watching", ""), file=sys.stderr)
                status = 1
        return {"status": status, "stdout": out.getvalue(), "stderr": err.getvalue(), "how": "server"}


def _scene_digests() -> dict[str, str]:
    folder = package_dir("scenes")
    return {f"scenes.{p.parent.name}.{p.stem}": hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*.py")) if is_scene_file(p)}


def _reply(conn: socket.socket, message: dict[str, Any]) -> None:
    with contextlib.suppress(OSError):
        conn.sendall(json.dumps(message).encode() + b"\n")


def _read(conn: socket.socket) -> dict[str, Any]:
    return read_message(conn, ValueError("the client went away"))


def serve(path: Path, idle: int, expected: list[str]) -> None:
    here = [str(package_dir(p)) for p in PACKAGES]
    if here != expected:
        sys.exit(f"attnvid preview server: imports {here}, asked for {expected}")
    server = Server(path, idle)
    old_umask = os.umask(0o177)  # the socket is made 0600, never for a moment more open
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        listener.bind(str(path))
    finally:
        os.umask(old_umask)
    os.chmod(path, 0o600)
    inode = os.stat(path).st_ino
    listener.listen(8)
    pid_file = path.with_suffix(".pid")
    pid_file.write_text(f"{os.getpid()}\n", encoding="ascii")

    def leave(signum: int = 0, frame: Any = None) -> None:
        with contextlib.suppress(OSError):
            if os.stat(path).st_ino == inode:  # ours still, not a newer server's
                path.unlink()
        with contextlib.suppress(OSError):
            if pid_file.read_text(encoding="ascii").strip() == str(os.getpid()):
                pid_file.unlink()
        os._exit(0)

    signal.signal(signal.SIGTERM, leave)
    signal.signal(signal.SIGINT, leave)
    while True:
        listener.settimeout(server.idle)
        try:
            conn, _ = listener.accept()
        except TimeoutError:
            leave()
        with conn:
            conn.settimeout(None)
            if peer_uid(conn) != os.getuid():
                _reply(conn, {"status": 2, "stdout": "", "stderr": "attnvid: error: not your preview server\n"})
                continue
            try:
                message = _read(conn)
            except (OSError, ValueError):
                continue
            if message.get("stop"):
                _reply(conn, {"stopped": True, "pid": os.getpid()})
                leave()
            if message.get("code") != server.code:
                _reply(conn, {"stale": True, "pid": os.getpid()})
                leave()
            try:
                server.reload_changed_scenes()
            except Exception:  # noqa: BLE001  (a scene that no longer imports: a fresh process says it)
                _reply(conn, {"stale": True, "pid": os.getpid()})
                leave()
            _reply(conn, server.run(message))
            # while the author looks at the picture: collect what the request left, copy ahead the
            # texts it took, freeze what lives on, as the warm watch does between edits
            settle()


if __name__ == "__main__":
    serve(Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3:])
