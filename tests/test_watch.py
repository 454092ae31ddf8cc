"""``attnvid preview --watch`` sees every way of saving a file: written in place, and written
anew and renamed over the old one (``sed -i``, editors' atomic saves), through the real
inotify events watchdog reports here; files that are not sources or lessons do not count."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from attnvid.commands.preview import is_edit


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
