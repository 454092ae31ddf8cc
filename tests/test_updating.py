"""A mobject's update is skipped while no mobject of the process has an updater
(:mod:`scenes.components.updating`), and is Manim's own from the first updater on."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from manim import Square, VGroup

from scenes.components import updating

ROOT = Path(__file__).resolve().parents[1]


def test_without_updaters_an_update_walks_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[float] = []
    monkeypatch.setattr(updating, "_added", [False])
    monkeypatch.setattr(updating, "MANIMS_UPDATE", lambda self, dt, recursive: calls.append(dt))
    group = VGroup(Square(), VGroup(Square()))
    assert group.update(0.5) is group and calls == []
    # the first updater anywhere: every update is Manim's again
    seen: list[float] = []
    Square().add_updater(lambda m, dt: seen.append(dt))
    assert updating.any_updater()
    group.update(0.25)
    assert calls == [0.25]


def test_a_scene_with_updaters_moves_as_in_manim() -> None:
    """In a process of its own (no updater before): a dot that moves with time and a label
    that follows it (``always_redraw``) end where Manim's own update puts them, in a render and
    in a build of any renderer."""
    code = textwrap.dedent("""
        import scenes.components
        from scenes.components import updating
        from manim import RIGHT, UP, Dot, Scene, Text, always_redraw, tempconfig
        assert not updating.any_updater()
        class Moving(Scene):
            def construct(self):
                self.dot = Dot()
                self.dot.add_updater(lambda m, dt: m.shift(RIGHT * dt))
                self.label = always_redraw(lambda: Text("x").next_to(self.dot, UP))
                self.add(self.dot, self.label)
                self.wait(1.5)
        def run(renderer=None):
            with tempconfig({"dry_run": True, "disable_caching": True, "verbosity": "ERROR", "progress_bar": "none"}):
                scene = Moving(renderer=renderer(skip_animations=True)) if renderer else Moving()
                scene.render()
            return scene.dot.get_center()[0], scene.label.get_center()[0]
        ours = run()
        # a build (previews, storyboards, the layout tests) plays it as Manim's own skipping does
        from scenes import skipping
        skipped = run(skipping.DryRenderer)
        assert skipped[0] == 1.5, skipped
        assert run(skipping.ExactRenderer) == skipped == run(skipping.LayoutRenderer)
        skipping.any_updater = lambda: False  # guard: played to their ends, the updaters would not run
        assert run(skipping.ExactRenderer)[0] == 0.0
        skipping.any_updater = updating.any_updater
        from manim import Mobject
        Mobject.update, Mobject.add_updater = updating.MANIMS_UPDATE, updating.MANIMS_ADD_UPDATER
        manims = run()
        assert ours == manims and ours[0] > 1.4 and abs(ours[1] - ours[0]) < 1e-6, (ours, manims)
        print("moved", ours[0])
    """)
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and "moved 1.4" in r.stdout, r.stderr[-2000:]
