"""The pictures of the README and the docs are the current lecture's, dark and light (issue 26).

``media/readme/make.py`` stamps each storyboard with what made it (its own digest, the
theme's, the lecture's sections); a stamp that differs from today's means the pictures
are stale. Refresh them with ``.venv/bin/python media/readme/make.py`` (about two minutes).
"""

from __future__ import annotations

import importlib.util
import json
import math
from pathlib import Path
from types import ModuleType

import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
REFRESH = "stale: run .venv/bin/python media/readme/make.py and commit media/readme/"


def make_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("readme_make", ROOT / "media" / "readme" / "make.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("style", ["dark", "light"])
def test_the_readme_storyboards_are_the_current_lecture(style: str) -> None:
    make = make_module()
    path = ROOT / "media" / "readme" / make.BOARDS[style]
    assert path.is_file(), f"{path.name} is missing; {REFRESH}"
    with Image.open(path) as img:
        stamped = img.info.get(make.STAMP)
        width, height = img.size
        corner = img.convert("RGB").getpixel((2, 2))
    assert stamped is not None, f"{path.name} has no stamp; {REFRESH}"
    now = make.stamp()
    assert json.loads(stamped) == now, f"{path.name}: {REFRESH}"
    # The sheet's size follows the sections (four tiles to a row), its ground the style.
    tile_w, tile_h, label_h, pad, cols = 427, 240, 26, 10, 4
    rows = math.ceil(len(now["sections"]) / cols)
    assert (width, height) == (cols * (tile_w + pad) + pad, rows * (tile_h + label_h + pad) + pad)
    assert (sum(corner) > 384) == (style == "light")
    assert f"media/readme/{make.BOARDS[style]}" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"../media/readme/{make.BOARDS[style]})" in (ROOT / "docs" / "getting-started.md").read_text(
        encoding="utf-8"
    )


@pytest.mark.parametrize("edited", ["scenes/theme.py", "attnstage/palette.py"])
def test_a_changed_theme_makes_the_stamp_differ(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edited: str) -> None:
    """The stamp reads the palette and the theme: editing a colour would fail the test above."""
    make = make_module()
    before = make.stamp()
    fake = tmp_path / "media" / "readme"
    fake.mkdir(parents=True)
    for name in ("scenes/theme.py", "attnstage/palette.py"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        text = (ROOT / name).read_text(encoding="utf-8")
        (tmp_path / name).write_text(text + ("ROLE = {}\n" if name == edited else ""), encoding="utf-8")
    monkeypatch.setattr(make, "HERE", fake)
    assert make.stamp()["theme"] != before["theme"] and make.stamp()["sections"] == before["sections"]


def test_the_posters_are_current_and_shown() -> None:
    """The docs show each poster make.py makes (the French lecture's), stamped as current."""
    make = make_module()
    shown = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "docs").rglob("*.md"))
    for name, _scene, _lesson in make.POSTERS:
        path = ROOT / "media" / "readme" / name
        assert path.is_file(), f"{name} is missing; {REFRESH}"
        assert f"media/readme/{name})" in shown, f"no page of docs/ shows {name}"
        with Image.open(path) as img:
            stamped = img.info.get(make.STAMP)
            assert img.size == (854, 480), f"{name}: {img.size}, not a 480p frame"
        assert stamped is not None and json.loads(stamped) == make.stamp(), f"{name}: {REFRESH}"
