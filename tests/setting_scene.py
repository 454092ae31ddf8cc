"""A fixture scene for tests/test_settings.py: it reads a setting from its settings record.

``caption_size`` is not a field of :class:`attnstage.settings.SceneSettings`: the test adds
it to a copy of the record, sets it through the record, and this scene, built in another
process, shows what it read (``"absent"`` when the record has no such field).
"""

from __future__ import annotations

from manim import Text

from scenes.base import LessonScene


class SettingReader(LessonScene):
    """One section that shows the value of the record's ``caption_size``."""

    TITLE = "Settings"
    SECTIONS = (("Read a setting", "read"),)

    def read(self) -> None:
        self.read_value = str(getattr(self.settings, "caption_size", "absent"))
        self.add(Text(self.read_value))
