"""The attnvid command, run as a user runs it (a subprocess in a temporary folder)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ATTNVID

from attnstage.settings import env_name


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([ATTNVID, *args], cwd=cwd, capture_output=True, text=True, timeout=600)


def test_list_json_has_every_scene_in_order_with_sections(tmp_path: Path) -> None:
    from scenes.lecture import LECTURE

    r = run("list", "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)
    assert [x["scene"] for x in rows] == [c.__name__ for c in LECTURE]
    for k, x in enumerate(rows):  # the title card is 0, then the steps from 1
        assert set(x) == {"scene", "file", "sections", "part", "part_title", "index"}
        assert x["index"] == k
        assert x["file"].startswith("scenes/") and x["file"].endswith(".py")
        assert (Path(__file__).resolve().parents[1] / x["file"]).is_file()
        assert x["sections"] and all(isinstance(s, str) and s for s in x["sections"])
    assert sum(len(x["sections"]) for x in rows) >= 11


def test_list_prints_a_readable_table(tmp_path: Path) -> None:
    r = run("list", cwd=tmp_path)
    assert r.returncode == 0
    assert ("Part 1: The core mechanism\n   0. TitleCard  (scenes/steps/title.py)\n        - Title\n"
            "   1. Embeddings  (scenes/steps/embeddings.py)\n") in r.stdout
    assert "\n        - One word, two meanings\n" in r.stdout


def test_unknown_scene_is_one_line_and_status_2(tmp_path: Path) -> None:
    r = run("render", "NoSuchScene", cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0, r.stderr
    assert "unknown scene 'NoSuchScene'" in r.stderr and "Embeddings" in r.stderr
    assert not (tmp_path / "media").exists()


def test_bad_lesson_is_one_line_and_status_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('title = "x"\ndimensions = ["a", "a"]\n[vocabulary]\nw = [1, 2]\n'
                   '[[contexts]]\nsentence = "w w"\nfocus = "w"\n', encoding="utf-8")
    for cmd in (["values"], ["list"], ["render"]):
        r = run(*cmd, "--lesson", str(bad), cwd=tmp_path)
        assert r.returncode == 2, (cmd, r.stderr)
        assert r.stderr.strip().count("\n") == 0 and "Traceback" not in r.stderr
        assert "bad.toml: dimensions: name 'a' appears twice" in r.stderr
    assert not (tmp_path / "media").exists()


@pytest.mark.slow
def test_preview_writes_the_last_frame_as_png(tmp_path: Path) -> None:
    from PIL import Image

    r = run("preview", "Embeddings", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = tmp_path / r.stdout.strip().splitlines()[-1]
    assert out == tmp_path / "media" / "preview" / "Embeddings.png"
    with Image.open(out) as img:
        assert img.size == (854, 480)
    r = run("preview", "Embeddings", "--section", "Reading a vector", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().endswith("Embeddings_reading-a-vector.png")
    r = run("preview", "Embeddings", "--section", "Nope", cwd=tmp_path)
    assert r.returncode == 2 and "has no section 'Nope'" in r.stderr and len(r.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_preview_reuses_an_unchanged_picture_and_redraws_a_stale_one(tmp_path: Path) -> None:
    import numpy as np
    from PIL import Image

    section = "Reading a vector"  # not the last: the build stops after it
    r = run("preview", "Embeddings", "--section", section, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = tmp_path / r.stdout.strip().splitlines()[-1]
    sidecar = out.with_name(out.name + ".json")
    first = (out.stat().st_mtime_ns, out.read_bytes())
    record = json.loads(sidecar.read_text())
    assert record["scene"] == "Embeddings" and record["section"] == section

    r = run("preview", "Embeddings", "--section", section, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert out.stat().st_mtime_ns == first[0], "nothing changed: the picture on disk is the preview"

    sidecar.write_text(json.dumps({**record, "key": "from an older version of the scene"}))
    r = run("preview", "Embeddings", "--section", section, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert out.stat().st_mtime_ns != first[0], "a stale key must redraw"
    assert out.read_bytes() == first[1], "the same inputs draw the same picture"
    assert json.loads(sidecar.read_text())["key"] == record["key"]

    # The early-stopped build draws exactly the frame that the whole scene shows there: the
    # whole scene built in a fresh process too (beside the preview's media), as the preview was.
    whole = tmp_path / "whole.png"
    code = ("import sys; from scenes.inspect import build; from scenes.lecture import find_scene; "
            "s = build(find_scene('Embeddings'), frames=True, mobjects=False); "
            "[c.image.save(sys.argv[1]) for c in s.checkpoints if c.section == sys.argv[2]]")
    env = {k: v for k, v in os.environ.items() if k != env_name("lesson")}
    done = subprocess.run([sys.executable, "-c", code, str(whole), section], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    with Image.open(out) as img, Image.open(whole) as full:
        assert np.array_equal(np.asarray(img.convert("RGB")), np.asarray(full.convert("RGB")))


@pytest.mark.slow
def test_storyboard_has_one_tile_per_section(tmp_path: Path) -> None:
    import math

    import numpy as np
    from PIL import Image

    from scenes.lecture import LECTURE

    r = run("storyboard", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = tmp_path / r.stdout.strip().splitlines()[-1]
    n = sum(len(c.section_names()) for c in LECTURE)
    tile_w, tile_h, label_h, pad, cols = 427, 240, 26, 10, 4
    with Image.open(out) as img:
        arr = np.asarray(img.convert("RGB"), dtype=np.int16)
    rows = math.ceil(n / cols)
    assert arr.shape == (rows * (tile_h + label_h + pad) + pad, cols * (tile_w + pad) + pad, 3)
    filled = 0
    for k in range(rows * cols):
        x = pad + (k % cols) * (tile_w + pad)
        y = pad + (k // cols) * (tile_h + label_h + pad) + label_h
        tile = arr[y : y + tile_h, x : x + tile_w]
        filled += int(tile.std() > 5)
    assert filled == n


@pytest.mark.parametrize("command", ["values", "list"])
def test_media_on_a_command_that_writes_nothing_says_why(command: str, tmp_path: Path) -> None:
    """Every command that takes --lesson knows --media: one that writes no file says so (issue 24)."""
    r = subprocess.run([ATTNVID, command, "--media", str(tmp_path / "m")], cwd=tmp_path, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1
    assert r.stderr.startswith(f"attnvid: error: --media: {command} writes no files") and "drop --media" in r.stderr
    assert not (tmp_path / "m").exists()


def test_manims_and_pyavs_notes_to_their_own_users_stay_off_the_terminal() -> None:
    """The webm note of Manim and PyAV's unused encoder options are dropped; other warnings show."""
    import logging

    from attnvid.render.settings import NOISY_LOGGERS, quiet_noise

    quiet_noise()
    seen: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record.getMessage())

    keep = Keep()
    levels = {name: logging.getLogger(name).level for name in NOISY_LOGGERS}
    for name in NOISY_LOGGERS:
        logging.getLogger(name).addHandler(keep)
        logging.getLogger(name).setLevel(logging.WARNING)  # as a render sets Manim's (verbosity WARNING)
    try:
        logging.getLogger("manim").warning("Output format set as webm, this can be slower than other formats")
        logging.getLogger("av.container.output").warning("Some options were not used: {'crf': '23'}")
        logging.getLogger("manim").warning("a real problem")
    finally:
        for name in NOISY_LOGGERS:
            logging.getLogger(name).removeHandler(keep)
            logging.getLogger(name).setLevel(levels[name])
    assert seen == ["a real problem"]
