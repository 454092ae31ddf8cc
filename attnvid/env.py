"""The environment variables attnvid reads, named in one place.

The parent process decides the lesson and the voice; scenes rendered in worker
processes (or by plain ``manim render``) read them back from the environment. This
module imports nothing, so that :mod:`scenes.base` can use it without a cycle.
"""

from __future__ import annotations

__all__ = ["KILL_SEED_ENV", "LANGUAGE_ENV", "LESSON_ENV", "PREVIEW_DIR_ENV", "PREVIEW_SERVER_ENV", "TEXT_CACHE_ENV", "THEME_ENV",
           "UPDATE_CONTROLS_ENV", "VOICE_ENV"]

#: The lesson the scenes draw: a TOML path or a built-in name (unset or "": the built-in lesson).
LESSON_ENV = "ATTNVID_LESSON"
#: The voice that speaks the narration: ``none``, ``espeak`` or ``recorded:FOLDER`` (unset: none).
VOICE_ENV = "ATTNVID_VOICE"
#: The style the scenes are drawn in: ``dark`` or ``light`` (unset or "": the lesson's
#: ``[theme] style``, else dark). Set by ``--theme``.
THEME_ENV = "ATTNVID_THEME"
#: The language a viewer sees and hears (a CLDR code: ``en``, ``fr``, ``it``...), overriding the
#: lesson's own ``language`` (unset or "": the lesson's). Set by ``--language``.
LANGUAGE_ENV = "ATTNVID_LANGUAGE"
#: Where parsed texts are kept for other processes (unset: ``parsed/`` in Manim's text folder,
#: ``<media>/texts``); the test suite points every process of a run at one folder.
TEXT_CACHE_ENV = "ATTNVID_TEXT_CACHE"
#: ``0``: a one-shot ``attnvid preview`` draws in its own process, starting no preview server
#: (unset or anything else: the server of :mod:`attnvid.commands.preview_server` answers it).
PREVIEW_SERVER_ENV = "ATTNVID_PREVIEW_SERVER"
#: The owner-only folder of the preview servers' sockets and records (unset: ``$XDG_RUNTIME_DIR/attnvid``,
#: else ``/tmp/attnvid-<uid>``); the test suite gives each run its own.
PREVIEW_DIR_ENV = "ATTNVID_PREVIEW_DIR"
#: Test-suite knob: ``1`` makes tests/test_pixels.py write its control frames instead of comparing.
UPDATE_CONTROLS_ENV = "ATTNVID_UPDATE_CONTROLS"
#: Test-suite knob: the seed of the kill times in tests/test_reliability.py (replays a failure).
KILL_SEED_ENV = "ATTNVID_KILL_SEED"
