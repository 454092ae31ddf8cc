"""The render cache key: a digest of everything a scene's frames depend on.

The key of a scene covers its own file and the parts split from it (``scenes/steps/``);
every other module of the ``scenes`` package, in any subfolder (base, components, theme,
layout...), except the other scene files and their parts; every module of ``attncore`` and
of ``attnstage`` (the palette); the attnvid modules that run inside a render and shape
what it writes (:data:`FRAME_MODULES`); the lesson's content, the quality, the output
format, the voice, the style (dark or light); and the versions of Manim, PyAV and Python. Editing one scene
re-renders only that scene (scene files never import each other; a test checks it).

The lesson's data reaches the key through the lesson itself (``repr(lesson)``), not
through its file, so a lesson given by path and the same built-in lesson agree.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable, Iterable
from importlib.metadata import version
from pathlib import Path

from attnstage.settings import DEFAULT_STYLE

from ..paths import package_dir

#: 2: x264 single-threaded; 3: x264 without its macroblock tree, preset veryfast, Manim's
#: cache off (see settings.X264_OPTIONS): the bytes changed.
CACHE_VERSION = "attnvid-cache-3"
#: Packages whose every module can change a frame (attnstage: the settings, narration timing,
#: captions and palette the scenes import).
FRAME_PACKAGES = ("scenes", "attncore", "attnstage")
#: The attnvid modules that run inside a render and change what it writes, relative to
#: attnvid/: Manim's settings, the segment encoder (with the packages they sit in).
FRAME_MODULES = ("__init__.py", "render/__init__.py", "render/settings.py", "render/encoder.py", "render/camera.py")
#: The folder of the scene files (``scenes/steps/``): a scene's own key covers its file and the
#: parts split from it (``mixing_layout.py`` for ``mixing.py``), other scenes' keys do not.
SCENE_DIR = "steps"


def _python_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def is_scene_file(path: Path) -> bool:
    """Whether ``path`` is a scene file or a part of one (in ``scenes/steps/``, not its ``__init__``)."""
    return path.parent.name == SCENE_DIR and path.parent.parent.name == "scenes" and path.name != "__init__.py"


def scene_parts(scene_file: Path) -> list[Path]:
    """The scene file and the parts split from it (``<stem>_*.py`` beside it), in a fixed order."""
    return [scene_file, *sorted(scene_file.parent.glob(f"{scene_file.stem}_*.py"))]


def _roots() -> dict[str, Path]:
    """The folder of each package the key reads, by import name."""
    return {name: package_dir(name) for name in (*FRAME_PACKAGES, "attnvid")}


def shared_files() -> list[Path]:
    """Files every scene depends on (see the module doc), in a fixed order."""
    roots = _roots()
    out: list[Path] = []
    for name in FRAME_PACKAGES:
        out += [p for p in _python_files(roots[name]) if not is_scene_file(p)]
    return out + [roots["attnvid"] / m for m in FRAME_MODULES]


def _label(path: Path, roots: dict[str, Path]) -> str:
    """A file's name in the key: relative to its package's parent, so that the same tree
    in another folder (a clone, a copy) gives the same key."""
    for root in roots.values():
        if path.is_relative_to(root):
            return path.relative_to(root.parent).as_posix()
    return path.name


def _digest_files(update: Callable[[bytes], None], paths: Iterable[Path]) -> None:
    roots = _roots()
    for path in paths:
        update(_label(path, roots).encode() + b"\0")
        update(path.read_bytes() + b"\0")


def cache_key(scene_file: Path, lesson_repr: str, quality: str, fmt: str, voice: str = "none",
              style: str = DEFAULT_STYLE) -> str:
    """The key of one scene's render: same key, same output (see the module doc). The two
    styles (``--theme``) never share a key."""
    h = hashlib.sha256(CACHE_VERSION.encode())
    _digest_files(h.update, [*scene_parts(scene_file), *shared_files()])
    for part in (lesson_repr, quality, fmt, voice, style, version("manim"), version("av"), sys.version.split()[0]):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()
