"""``attnvid preview --watch`` sees every way of saving a file: written in place, and written
anew and renamed over the old one (``sed -i``, editors' atomic saves), through the real
inotify events watchdog reports here; files that are not sources or lessons do not count.
The warm watch previews again after each of them, survives a bad edit, reloads the scene's
own module and starts anew after an edit of shared code."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import ATTNVID, ROOT
from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from attnvid.commands.warm import is_edit


class Seen(FileSystemEventHandler):
    def __init__(self) -> None:
        self.edits: list[FileSystemEvent] = []
        self.arrived = threading.Event()

    def on_any_event(self, event: FileSystemEvent) -> None:
        if is_edit(event):
            self.edits.append(event)
            self.arrived.set()


@pytest.fixture()
def watched(tmp_path: Path) -> Iterator[tuple[Path, Seen]]:
    (tmp_path / "lesson.toml").write_text('title = "x"\n', encoding="utf-8")
    (tmp_path / "scene.py").write_text("X = 1\n", encoding="utf-8")
    (tmp_path / "__pycache__").mkdir()
    seen = Seen()
    observer = Observer()
    observer.schedule(seen, str(tmp_path), recursive=True)
    observer.start()
    time.sleep(0.2)
    try:
        yield tmp_path, seen
    finally:
        observer.stop()
        observer.join(timeout=2)


def counted(seen: Seen, action: Callable[[], object], wait: float = 3.0) -> bool:
    seen.edits.clear()
    seen.arrived.clear()
    action()
    return seen.arrived.wait(wait)


def atomic_save(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp-save")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def test_every_way_of_saving_counts(watched: tuple[Path, Seen]) -> None:
    folder, seen = watched
    lesson = folder / "lesson.toml"
    assert counted(seen, lambda: subprocess.run(["sed", "-i", "s/x/y/", str(lesson)], check=True))
    time.sleep(0.3)
    # sed writes a temporary file and renames it over the lesson: the move, counted by its destination
    assert {e.event_type for e in seen.edits} == {"moved"}, seen.edits
    assert counted(seen, lambda: atomic_save(lesson, 'title = "z"\n'))
    assert counted(seen, lambda: atomic_save(folder / "scene.py", "X = 2\n"))
    assert counted(seen, lambda: lesson.write_text('title = "w"\n', encoding="utf-8"))


def test_other_files_do_not_count(watched: tuple[Path, Seen]) -> None:
    folder, seen = watched
    assert not counted(seen, lambda: (folder / "notes.txt").write_text("hello", encoding="utf-8"), wait=1.0)
    assert not counted(seen, lambda: (folder / "__pycache__" / "scene.cpython-311.py").write_text("", encoding="utf-8"),
                       wait=1.0)
    assert not counted(seen, lambda: (folder / "lesson.toml").read_text(encoding="utf-8"), wait=1.0)  # only read


def test_a_move_counts_by_its_destination() -> None:
    from watchdog.events import FileMovedEvent

    assert is_edit(FileMovedEvent("/l/.lesson.toml.swx", "/l/lesson.toml"))
    assert is_edit(FileMovedEvent("/l/sedAbC123", "/l/lesson.toml"))
    assert is_edit(FileMovedEvent("/l/lesson.toml", "/l/old-lesson.bak"))  # moved away: the lesson is gone
    assert not is_edit(FileMovedEvent("/l/a.txt", "/l/b.txt"))


# -- the warm watch, end to end ----------------------------------------------------------
class Watch:
    """``attnvid preview Softmax --watch`` on a lesson of its own, read line by line."""

    def __init__(self, folder: Path, lesson: Path) -> None:
        import queue

        self.lines: queue.Queue[tuple[str, str]] = queue.Queue()
        self.proc = subprocess.Popen([ATTNVID, "preview", "Softmax", "--watch", "--lesson", str(lesson),
                                      "--media", str(folder / "media")], cwd=folder, text=True,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for name, stream in (("out", self.proc.stdout), ("err", self.proc.stderr)):
            threading.Thread(target=self._read, args=(name, stream), daemon=True).start()

    def _read(self, name: str, stream: Any) -> None:
        for line in stream:
            self.lines.put((name, line.rstrip("\n")))

    def next(self, timeout: float = 120.0) -> tuple[str, str]:
        """The next line that says what a preview did: its picture, or its error."""
        deadline = time.monotonic() + timeout
        while True:
            name, line = self.lines.get(timeout=max(0.1, deadline - time.monotonic()))
            if name == "out" or line.startswith("attnvid:"):
                return name, line

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.mark.slow  # a watch process and six previews
def test_the_warm_watch_previews_every_way_of_saving_and_survives_a_bad_edit(tmp_path: Path) -> None:
    """Each save (in place, ``sed -i``, delete and create) gives a new picture of the lesson as it
    now is; a broken lesson gives one error line and the watch goes on; the picture of the
    first lesson, drawn again warm, is the one drawn cold at the start."""
    lesson = tmp_path / "lesson.toml"
    original = (ROOT / "attncore" / "lessons" / "default.toml").read_text(encoding="utf-8")
    edited = original.replace("friends     = [0.5, 0,   0.5, 1]", "friends     = [1.5, 0,   0.5, 1]")
    assert edited != original
    lesson.write_text(original, encoding="utf-8")
    watch = Watch(tmp_path, lesson)
    try:
        name, first = watch.next()
        assert name == "out" and first.endswith("Softmax.png"), first
        picture = Path(first)
        cold = picture.read_bytes()
        time.sleep(0.5)

        def after(save: Callable[[], object]) -> bytes:
            save()
            name, line = watch.next()
            assert (name, line) == ("out", first), line
            return picture.read_bytes()

        assert after(lambda: lesson.write_text(edited, encoding="utf-8")) != cold  # in place
        assert after(lambda: subprocess.run(["sed", "-i", "s/friends     = \\[1.5/friends     = [0.5/", str(lesson)],
                                            check=True)) == cold  # renamed over it; warm = cold
        lesson.write_text(original + "\n[[broken\n", encoding="utf-8")
        name, line = watch.next()
        assert name == "err" and "TOML" in line and "\n" not in line, line
        assert watch.proc.poll() is None, "the watch goes on after a bad edit"
        assert picture.read_bytes() == cold, "a bad edit leaves the last good picture"

        def delete_and_create() -> None:
            lesson.unlink()
            time.sleep(0.3)
            lesson.write_text(edited, encoding="utf-8")

        assert after(delete_and_create) != cold
        page = picture.with_suffix(".html")
        assert page.is_file() and picture.name in page.read_text(encoding="utf-8")
    finally:
        watch.stop()
    assert watch.proc.returncode == 0


def test_an_edit_of_the_scene_reloads_it_and_of_shared_code_starts_anew(monkeypatch: pytest.MonkeyPatch,
                                                                        tmp_path: Path) -> None:
    from attnstage.settings import SceneSettings
    from attnvid.commands import warm

    preview = warm.WarmPreview("Softmax", None, SceneSettings(), tmp_path)
    old_cls = preview.cls
    drawn: list[type] = []
    monkeypatch.setattr(preview, "draw", lambda: drawn.append(preview.cls) or tmp_path / "x.png")
    warm._react(preview, {preview.module_file}, ["preview", "Softmax", "--watch"])
    assert drawn and drawn[-1] is not old_cls and drawn[-1].__name__ == "Softmax", "the module was imported anew"

    started: list[list[str]] = []

    def execv(path: str, argv: list[str]) -> None:
        started.append(argv)
        raise SystemExit(0)

    monkeypatch.setattr(warm.os, "execv", execv)
    with pytest.raises(SystemExit):
        warm._react(preview, {ROOT / "scenes" / "components" / "text.py"}, ["preview", "Softmax", "--watch"])
    assert started == [[sys.executable, "-m", "attnvid", "preview", "Softmax", "--watch"]]
    count = len(drawn)
    warm._react(preview, {tmp_path / "notes.py"}, ["preview"])  # a script outside the packages: nothing
    assert len(drawn) == count


def test_a_failed_preview_is_one_line() -> None:
    from attnvid.commands.warm import one_line

    try:
        compile("x = (", "softmax.py", "exec")
    except SyntaxError as exc:
        line = one_line(exc)
    assert line.startswith("attnvid: preview failed: SyntaxError") and "softmax.py:1" in line
    assert "\n" not in line and line.endswith("still watching")
