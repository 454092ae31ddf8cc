"""The lesson: read from a TOML file (the built-in one is ``lessons/default.toml``).

The model lives in :mod:`attncore.lesson_model`, the parsing in :mod:`attncore.lesson_parse`,
the checks of what the numbers produce in :mod:`attncore.lesson_checks`; this module
reads files and built-in lessons and re-exports the lesson's public names. Every problem
raises :class:`LessonError`, a ``ValueError`` whose message names the file, the field and
the fix in one line.
"""

from __future__ import annotations

import json
import re
import tomllib
from importlib import resources
from pathlib import Path

from .lesson_checks import lesson_warnings
from .lesson_model import (
    DEFAULT_WEIGHTS,
    EXP_LIMIT,
    LEAN_MARGIN,
    LIMITS,
    SCORE_LIMIT,
    VALUE_LIMIT,
    WEIGHTS,
    Context,
    LecturePart,
    Lesson,
    LessonError,
    ProjectionSpec,
    TrainingSpec,
)
from .lesson_parse import parse_lesson

__all__ = [
    "DEFAULT_WEIGHTS",
    "LIMITS",
    "WEIGHTS",
    "Context",
    "LecturePart",
    "Lesson",
    "LessonError",
    "ProjectionSpec",
    "TrainingSpec",
    "EXP_LIMIT",
    "LEAN_MARGIN",
    "SCORE_LIMIT",
    "VALUE_LIMIT",
    "builtin_lesson",
    "builtin_lessons",
    "default_lesson",
    "find_lesson",
    "lesson_warnings",
    "load_lesson",
    "parse_lesson",
]


def _not_utf8(p: Path, exc: UnicodeDecodeError) -> str:
    """Where the first byte that is not UTF-8 is (line and column, counted in the text before it),
    and what it probably is: a file saved as Latin-1 or Windows-1252 ("é" as one byte 0xE9)."""
    raw = exc.object if isinstance(exc.object, bytes) else b""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return f"{p}: is UTF-16 text (it starts with a UTF-16 byte order mark), not UTF-8; save the lesson as UTF-8"
    before = raw[: exc.start].decode("utf-8", "replace")
    line = before.count("\n") + 1
    column = len(before) - (before.rfind("\n") + 1) + 1
    byte = raw[exc.start] if exc.start < len(raw) else 0
    return (f"{p}: line {line}, column {column}: byte 0x{byte:02X} is not UTF-8 text (a file saved as Latin-1 or "
            "Windows-1252?); save the lesson as UTF-8")


def load_lesson(path: str | Path) -> Lesson:
    """Read and validate a lesson file; every failure is a one-line :class:`LessonError`."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LessonError(f"{p}: file not found; check the path given to --lesson") from None
    except IsADirectoryError:
        raise LessonError(f"{p}: is a folder, not a file; give the path of a .toml lesson file") from None
    except PermissionError:
        raise LessonError(f"{p}: cannot be read (permission denied); make it readable") from None
    except UnicodeDecodeError as exc:
        raise LessonError(_not_utf8(p, exc)) from None
    except OSError as exc:
        raise LessonError(f"{p}: cannot be read ({exc.strerror}); check the file") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LessonError(_syntax_message(p, text, exc)) from None
    return parse_lesson(data, source=str(p))


def _syntax_message(p: Path, text: str, exc: tomllib.TOMLDecodeError) -> str:
    """One line for a TOML syntax error; a key TOML cannot take bare (``piñata = [...]``) is told to be quoted."""
    at = re.search(r"\(at line (\d+), column \d+\)", str(exc))
    lines = text.splitlines()
    if at and int(at.group(1)) <= len(lines):
        line = lines[int(at.group(1)) - 1]
        m = re.match(r"\s*([^\s=\[\]\"'#.]+(?:'[^\s=\[\]\"'#.]*)*)\s*=\s*(.*)", line)
        if m and not re.fullmatch(r"[A-Za-z0-9_-]+", m.group(1)):
            key, value = m.group(1), m.group(2).split("#")[0].strip()
            value = value if len(value) <= 40 else "[...]"
            return (f"{p}: line {at.group(1)}: TOML syntax error: the key {key} has characters a bare TOML key "
                    f"cannot have; quote it: {json.dumps(key, ensure_ascii=False)} = {value or '[...]'}")
    return f"{p}: TOML syntax error: {exc}; fix the syntax at that line"


def builtin_lessons() -> list[str]:
    """Names of the lessons shipped in the package (``default``, ``bank``, ``souris``...)."""
    files = resources.files("attncore").joinpath("lessons").iterdir()
    return sorted(f.name[:-5] for f in files if f.name.endswith(".toml"))


def builtin_lesson(name: str) -> Lesson:
    """A lesson shipped in the package, by name."""
    if name not in builtin_lessons():
        raise LessonError(
            f"{name}: no such built-in lesson; choose from {', '.join(builtin_lessons())} or give a .toml path"
        )
    text = resources.files("attncore").joinpath(f"lessons/{name}.toml").read_text(encoding="utf-8")
    return parse_lesson(tomllib.loads(text), source="built-in" if name == "default" else f"{name}.toml")


def find_lesson(spec: str | Path | None) -> Lesson:
    """The lesson named by ``spec``: None or "" for the default, a built-in name, or a path."""
    if spec is None or str(spec) == "":
        return default_lesson()
    p = Path(spec)
    if not p.exists() and p.suffix == "":
        if str(spec) in builtin_lessons():
            return builtin_lesson(str(spec))
        raise LessonError(
            f"{spec}: no such file or built-in lesson; give a .toml path or one of {', '.join(builtin_lessons())}"
        )
    return load_lesson(p)


def default_lesson() -> Lesson:
    """The built-in lesson shipped in the package (``lessons/default.toml``)."""
    return builtin_lesson("default")
