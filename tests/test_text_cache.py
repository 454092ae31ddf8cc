"""Texts parsed once are kept on disk for other processes (scenes.components.text.load_parsed):
a text read back has the very points and colours of one parsed anew, a damaged file is
parsed again and rewritten, and a folder that cannot be written only costs the speed-up."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from attnstage.settings import env_name


def family_state(mob: object) -> list[tuple[str, bytes, bytes]]:
    return [(type(m).__name__, np.asarray(m.points).tobytes(), np.asarray(m.fill_rgbas).tobytes())
            for m in mob.get_family()]  # type: ignore[attr-defined]


@pytest.fixture()
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    from scenes.components.text import LightText

    monkeypatch.setenv(env_name("text_cache"), str(tmp_path / "parsed"))
    monkeypatch.setattr(LightText, "_made", {})  # nothing kept in this process
    return tmp_path / "parsed"


def test_a_text_read_back_is_the_text_parsed(fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from scenes.components import Num, Source
    from scenes.components.text import LightMarkup, LightText

    def make() -> list[object]:
        monkeypatch.setattr(LightText, "_made", {})
        return [LightText("softmax row", font_size=30, color="#ffffff"),
                Num(0.256, 2, Source(0, "attention", (1, 2))),
                LightMarkup("W<sub>Q</sub> and d<sub>v</sub>", font_size=24)]

    parsed = make()
    files = sorted(fresh.glob("*.pickle"))
    assert len(files) == 3, files
    stamps = [f.stat().st_mtime_ns for f in files]
    again = make()
    assert [f.stat().st_mtime_ns for f in files] == stamps, "read back, not parsed and written again"
    for a, b in zip(parsed, again, strict=True):
        assert type(a) is type(b) and a.text == b.text  # type: ignore[attr-defined]
        assert family_state(a) == family_state(b)
    assert again[1].source == Source(0, "attention", (1, 2)) and again[1].decimals == 2  # type: ignore[attr-defined]


def test_a_damaged_file_is_parsed_again(fresh: Path) -> None:
    from scenes.components.text import LightText

    first = LightText("keyboard", font_size=30)
    (path,) = fresh.glob("*.pickle")
    path.write_bytes(b"not a pickle")
    LightText._made.clear()
    second = LightText("keyboard", font_size=30)
    assert family_state(first) == family_state(second)
    assert path.read_bytes() != b"not a pickle"


def test_a_folder_that_cannot_be_written_only_costs_the_speed_up(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from scenes.components.text import LightText

    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv(env_name("text_cache"), str(blocker / "parsed"))  # a folder under a file: never created
    monkeypatch.setattr(LightText, "_made", {})
    assert LightText("mouse", font_size=30).text == "mouse"


def test_spares_made_between_previews_are_the_copies_a_build_would_make(monkeypatch: pytest.MonkeyPatch) -> None:
    """The warm watch copies ahead, between edits, the texts its last preview took
    (scenes.components.text.prepare_spares): as many as it took, each the state ``made.copy()``
    gives, each a copy of its own (not one object twice), and a build takes them before copying."""
    from manim import RIGHT

    from scenes.components.text import LightText, prepare_spares

    monkeypatch.setattr(LightText, "_made", {})
    monkeypatch.setattr(LightText, "_spares", {})
    monkeypatch.setattr(LightText, "_taken", {})
    monkeypatch.setattr(LightText, "SPARES", True)
    first = LightText("spare me", font_size=30)  # made (parsed), and counted: the next build takes it too
    (key,) = LightText._taken
    assert LightText._taken[key] == 1
    twice = [LightText("spare me", font_size=30) for _ in range(2)]
    assert LightText._taken[key] == 3
    prepare_spares()
    spares = list(LightText._spares[key])
    assert len(spares) == 3 and len({id(s) for s in spares}) == 3 and not LightText._taken
    copied = [LightText("spare me", font_size=30) for _ in range(4)]  # three spares, then a copy
    assert not LightText._spares[key] and LightText._taken[key] == 4
    for text in [*twice, *copied]:
        assert family_state(text) == family_state(first)
    copied[0].shift(RIGHT)  # each its own points
    assert family_state(copied[1]) == family_state(first) != family_state(copied[0])


def test_a_runs_scenes_share_one_folder_of_parsed_texts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A render worker without a folder named in its settings parses into the run's work folder
    (shared by the run's workers, removed with it); a folder the settings name is kept."""
    from dataclasses import replace

    from attnstage.settings import SceneSettings
    from attnvid.render.engine import _scene_class
    from attnvid.render.jobs import Job

    monkeypatch.setenv(env_name("text_cache"), "unchanged")  # restored after the test
    for named, expected in (("", tmp_path / "root" / ".work" / "texts"), ("/elsewhere", Path("/elsewhere"))):
        settings = replace(SceneSettings.from_environ(), text_cache=named)
        job = Job(scene="TitleCard", index=1, fmt="mp4", root=str(tmp_path / "root"), key="k", settings=settings)
        assert _scene_class(job).__name__ == "TitleCard"
        assert SceneSettings.from_environ().text_cache == str(expected)
