"""The settings a render is made with: one frozen record, the only reader and writer of ``ATTNVID_*``.

The command line builds a :class:`SceneSettings` once from its options
(:func:`attnvid.options.settings_options`), a render job carries it, and the process that
builds a scene hands it over in one step: :meth:`SceneSettings.to_environ` before the
scene is made, :meth:`SceneSettings.from_environ` in the scene (a worker process, or
plain ``manim render scenes/x.py``, which reads the environment or the defaults).

Every field crosses a process boundary as ``ATTNVID_<FIELD>`` (the style as
``ATTNVID_THEME``, the name ``--theme`` gave it), so adding a setting that reaches a scene
is adding a field here, an option, and the line that uses it. The variables that are not
a scene's but the application's (the preview server's) are read here too, so that no
other module names an ``ATTNVID_`` variable. This module imports only the standard library.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, MutableMapping
from dataclasses import Field, dataclass, field, fields, replace
from typing import Any

__all__ = [
    "DEFAULT_STYLE",
    "DEFAULTS",
    "ENV_PREFIX",
    "PREVIEW_DIR_ENV",
    "PREVIEW_SERVER_ENV",
    "STYLES",
    "SceneSettings",
    "env_name",
    "preview_dir",
    "preview_server_wanted",
]

#: The style drawn when neither ``--theme`` nor the lesson's ``[theme] style`` says.
DEFAULT_STYLE = "dark"
#: The styles a scene can be drawn in.
STYLES = ("dark", "light")
#: What every variable of this module's starts with.
ENV_PREFIX = "ATTNVID_"


@dataclass(frozen=True)
class SceneSettings:
    """What a scene is drawn and spoken with, each field with its default (every field a str or a bool)."""

    #: The lesson: a TOML path or a built-in name ("": the built-in lesson). ``--lesson``.
    lesson: str = ""
    #: Who speaks the narration: ``none``, ``espeak``, ``piper[:MODEL]`` or ``recorded:FOLDER``,
    #: with ``;rate=N`` when ``--rate`` gave one. ``--voice``, ``--rate``.
    voice: str = "none"
    #: ``dark`` or ``light`` ("": the lesson's ``[theme] style``, else :data:`DEFAULT_STYLE`). ``--theme``.
    style: str = field(default="", metadata={"env": "ATTNVID_THEME"})
    #: The language a viewer sees and hears, a CLDR code ("": the lesson's own). ``--language``.
    language: str = ""
    #: Manim's quality the worker renders at (``low``, ``medium``, ``high``, ``4k``). ``--quality``.
    quality: str = "low"
    #: Where parsed texts are kept for other processes ("": ``parsed/`` in Manim's text folder);
    #: the test suite points every process of a run at one folder. Environment only.
    text_cache: str = ""
    #: Every translated message shown in ⟦brackets⟧ (``ATTNVID_PSEUDO=1``): a frame shows at a
    #: glance which of its texts were never marked for translation. Environment only.
    pseudo: bool = False

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] | None = None) -> SceneSettings:
        """The settings ``environ`` (default: this process's environment) holds, defaults for the rest."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for f in fields(cls):
            text = env.get(_env(f), "")
            if not text:
                continue  # unset or "": the default
            values[f.name] = text == "1" if f.type in ("bool", bool) else text
        return cls(**values)

    def to_environ(self, environ: MutableMapping[str, str] | None = None) -> MutableMapping[str, str]:
        """Write every field into ``environ`` (default: this process's environment, which the
        scene built next, and every process started from here, read); ``environ`` back."""
        env: MutableMapping[str, str] = os.environ if environ is None else environ
        for f in fields(self):
            value = getattr(self, f.name)
            env[_env(f)] = ("1" if value else "") if isinstance(value, bool) else str(value)
        return env

    def with_style(self, lesson_style: str) -> SceneSettings:
        """The style settled: ``--theme``, else the lesson's ``[theme] style``, else :data:`DEFAULT_STYLE`."""
        return replace(self, style=self.style or lesson_style or DEFAULT_STYLE)


#: Every field at its default.
DEFAULTS = SceneSettings()


def _env(f: Field[Any]) -> str:
    return str(f.metadata.get("env", ENV_PREFIX + f.name.upper()))


def env_name(name: str) -> str:
    """The environment variable of the field ``name``: ``ATTNVID_<NAME>`` unless the field names its own."""
    return next((_env(f) for f in fields(SceneSettings) if f.name == name), ENV_PREFIX + name.upper())


#: ``0``: a one-shot ``attnvid preview`` draws in its own process, starting no preview server
#: (unset or anything else: the server of :mod:`attnvid.commands.preview_server` answers it).
PREVIEW_SERVER_ENV = "ATTNVID_PREVIEW_SERVER"
#: The owner-only folder of the preview servers' sockets and records (unset: ``$XDG_RUNTIME_DIR/attnvid``,
#: else ``/tmp/attnvid-<uid>``); the test suite gives each run its own.
PREVIEW_DIR_ENV = "ATTNVID_PREVIEW_DIR"


def preview_server_wanted(environ: Mapping[str, str] | None = None) -> bool:
    """Whether a one-shot preview may ask (or start) a preview server: unless ``$ATTNVID_PREVIEW_SERVER`` is 0."""
    return (os.environ if environ is None else environ).get(PREVIEW_SERVER_ENV, "") != "0"


def preview_dir(environ: Mapping[str, str] | None = None) -> str:
    """The folder ``$ATTNVID_PREVIEW_DIR`` names for the preview servers ("" when unset)."""
    return (os.environ if environ is None else environ).get(PREVIEW_DIR_ENV, "")
