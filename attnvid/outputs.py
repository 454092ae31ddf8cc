"""Outputs that are complete or absent: atomic writes, and one run per output folder.

- every final output goes through a ``.NAME.part`` file renamed into place, so a
  reader sees the previous good file or the new complete one, never a truncated one;
- :func:`claim_output` holds a lock on the output root for the whole run (two
  ``attnvid`` runs on one folder take turns instead of racing) and removes the
  ``.part`` files and the ``.work`` folder that a killed run left behind.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import click

from .errors import UserError, storage_error, storage_message

#: The folders of an output root that hold our outputs (others hold other lessons' roots).
OUTPUT_FOLDERS = ("scenes", "lecture", "preview", "storyboard", "workbook", "script", "exercises")
LOCK_NAME = ".attnvid.lock"


def part_path(path: Path) -> Path:
    """The temporary name ``path`` is written under before it is renamed into place."""
    return path.with_name(f".{path.name}.part")


@contextlib.contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """Yield a temporary path to write; rename it to ``path`` only if the block succeeds.

    On any failure (a full disk, an exception, Ctrl-C) the temporary file is removed and
    ``path`` keeps its previous content. A killed process leaves the ``.part`` file,
    which the next run's :func:`clean_leftovers` removes.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = part_path(path)
    try:
        yield tmp
        with open(tmp, "rb") as f:  # the data, not only the name, must be on disk before the rename
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file renamed into place."""
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def _swap_folder(produced: Path, final: Path) -> None:
    """Replace the folder ``final`` by a copy of ``produced`` (png: a folder of frames)."""
    tmp = part_path(final)
    old = final.with_name(f".{final.name}.old")  # put back by clean_leftovers if we die mid-swap
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        shutil.copytree(produced, tmp)
        shutil.rmtree(old, ignore_errors=True)
        if final.exists():
            os.replace(final, old)
        os.replace(tmp, final)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    shutil.rmtree(old, ignore_errors=True)


def move_into_place(produced: Path, final: Path) -> None:
    """Copy what Manim produced (a file, or a folder of frames) to ``final``, atomically."""
    final.parent.mkdir(parents=True, exist_ok=True)
    if produced.is_dir():
        _swap_folder(produced, final)
        return
    with atomic_path(final) as tmp:
        shutil.copyfile(produced, tmp)


def clean_leftovers(root: Path) -> None:
    """Remove what a killed run left in ``root``: ``.part`` files and the ``.work`` folder.

    A png folder caught mid-swap (``.NAME.old`` without ``NAME``) is put back, so the
    previous good frames survive. Only our own folders are searched: other lessons'
    roots live inside media/ too, under their own lock.
    """
    shutil.rmtree(root / ".work", ignore_errors=True)
    for sub in OUTPUT_FOLDERS:
        folder = root / sub
        if not folder.is_dir():
            continue
        for p in sorted(folder.rglob(".*.old")):
            final = p.with_name(p.name[1:-len(".old")])
            if final.exists():
                shutil.rmtree(p, ignore_errors=True)
            else:
                os.replace(p, final)
        for p in sorted(folder.rglob(".*.part")):
            if p.is_dir():
                shutil.rmtree(p, ignore_errors=True)
            else:
                p.unlink(missing_ok=True)


def _nearly_full(root: Path) -> bool:
    """Less than 1 MiB free: a failed render there most likely ran out of space."""
    try:
        return shutil.disk_usage(root).free < 1 << 20
    except OSError:
        return False


def _open_lock(root: Path) -> int:
    """The lock file of ``root`` (created with ``root``); an unwritable root is one line."""
    try:
        root.mkdir(parents=True, exist_ok=True)
        return os.open(root / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        if storage_error(exc) is not None:
            raise UserError(storage_message(exc, root), code=1) from None
        raise


def _lock(fd: int, root: Path) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        click.echo(f"attnvid: waiting for another attnvid run on {root} to finish", err=True)
        fcntl.flock(fd, fcntl.LOCK_EX)


def _failed_run(exc: BaseException, root: Path) -> None:
    """After a failed run: remove its leftovers; a full disk or unwritable folder becomes one line."""
    err = storage_error(exc) if isinstance(exc, Exception) else None
    if err is None and isinstance(exc, Exception) and _nearly_full(root):
        # Not every write reports a full disk: cairo (through manimpango) leaves a
        # text's SVG cut short, and Manim then fails to parse it.
        err = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(root))
    with contextlib.suppress(OSError):
        clean_leftovers(root)
    if err is not None:
        raise UserError(storage_message(err, root), code=1) from None


@contextlib.contextmanager
def claim_output(root: Path) -> Iterator[None]:
    """Hold the output root for this run: lock it, clean leftovers before and after.

    A second ``attnvid`` on the same root says that it waits and waits (``flock``
    blocks; the kernel releases the lock when its holder exits, even when killed).
    A full disk or an unwritable folder becomes one line naming ``root``; whatever the
    failed run left there (``.part`` files, Manim's work folder) is removed.
    """
    fd = _open_lock(root)
    try:
        _lock(fd, root)
        try:
            clean_leftovers(root)
            yield
            # Inside the try: a SIGINT or SIGTERM arriving while the work folder is being
            # removed would otherwise leave part of it (a kill test left an empty .work).
            with contextlib.suppress(OSError):
                shutil.rmtree(root / ".work")
        except BaseException as exc:
            _failed_run(exc, root)
            raise
    finally:
        os.close(fd)  # releases the lock
