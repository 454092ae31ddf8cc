"""Pixel tests of key frames against committed control images (tests/control/*.png).

Manim's own ``frames_comparison`` silently skips on cairo < 1.18 (Debian 12 has 1.16),
so this small helper does the same job and always runs: the frame at the end of a
section is rasterised by Manim's camera (no video) and compared pixel by pixel.

Regenerate the controls after an intended visual change with
``ATTNVID_UPDATE_CONTROLS=1 python -m pytest tests/test_pixels.py`` and look at them.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

#: Test-suite knob: 1 writes the control frames instead of comparing.
UPDATE_CONTROLS_ENV = "ATTNVID_UPDATE_CONTROLS"

CONTROL = Path(__file__).parent / "control"
# (scene class, section title): the lecture's key frames.
KEY_FRAMES = [
    ("TitleCard", None),
    ("Embeddings", "One word, two meanings"),
    ("Softmax", None),  # None: the last section
    ("TwoContexts", None),
    ("MultiHead", None),
    ("LearningTheWeights", None),
    ("CausalMask", None),
    ("WordOrder", None),
]
#: Pixels allowed to differ by more than 16 levels: fewer than one digit's worth at 480p.
MAX_CHANGED_PIXELS = 20


def frame_at(scene_name: str, section: str | None) -> np.ndarray:
    from scenes.inspect import build
    from scenes.lecture import find_scene

    scene = build(find_scene(scene_name), frames=True)
    cps = scene.checkpoints if section is None else [c for c in scene.checkpoints if c.section == section]
    assert cps, f"{scene_name} has no section {section!r}"
    return np.asarray(cps[-1].image.convert("RGB"), dtype=np.int16)


def changed_pixels(a: np.ndarray, b: np.ndarray) -> int:
    assert a.shape == b.shape, f"frame size {a.shape} differs from control {b.shape}"
    return int((np.abs(a - b).max(axis=2) > 16).sum())


@pytest.mark.slow  # a build that begins and interpolates every animation, then rasterises: not the layout tier
@pytest.mark.parametrize(("scene_name", "section"), KEY_FRAMES, ids=[k[0] for k in KEY_FRAMES])
def test_key_frame_matches_control(scene_name: str, section: str | None) -> None:
    frame = frame_at(scene_name, section)
    path = CONTROL / f"{scene_name}.png"
    if os.environ.get(UPDATE_CONTROLS_ENV) == "1":
        CONTROL.mkdir(exist_ok=True)
        Image.fromarray(frame.astype(np.uint8)).save(path)
    assert path.is_file(), f"no control image {path}; create it with ATTNVID_UPDATE_CONTROLS=1"
    control = np.asarray(Image.open(path).convert("RGB"), dtype=np.int16)
    assert frame.shape == (480, 854, 3)
    n = changed_pixels(frame, control)
    assert n <= MAX_CHANGED_PIXELS, f"{n} pixels differ from {path.name}"


def test_the_comparison_notices_one_changed_digit() -> None:
    """The tolerance is tight enough that a single changed number fails the test."""
    from manim import Scene, config, tempconfig

    from scenes.components import Num

    images = []
    for value in (0.26, 0.27):
        with tempconfig({"quality": "low_quality", "dry_run": True}):
            scene = Scene()
            scene.add(Num(value, 2, constant=True))
            scene.renderer.camera.reset()
            scene.renderer.camera.capture_mobjects(scene.mobjects)
            images.append(np.asarray(scene.renderer.camera.get_image().convert("RGB"), dtype=np.int16))
    assert config.frame_width > 0
    assert changed_pixels(images[0], images[1]) > MAX_CHANGED_PIXELS
