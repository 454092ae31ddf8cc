"""The tutorial (docs/tutorial/index.md) says what the commands say, step by step.

The lessons it shows are files beside it (``crane_start.toml``, the first try, and
``crane.toml``, the last); each output the page quotes is what ``attnvid`` prints today
for them, run as the reader runs it: in a folder of their own, the file named ``crane.toml``.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import ATTNVID, ROOT

TUTORIAL = ROOT / "docs" / "tutorial"
PAGE = (TUTORIAL / "index.md").read_text(encoding="utf-8")


def run(tmp_path: Path, text: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``attnvid ARGS --lesson crane.toml`` in a folder where ``crane.toml`` holds ``text``."""
    (tmp_path / "crane.toml").write_text(text, encoding="utf-8")
    return subprocess.run([ATTNVID, *args, "--lesson", "crane.toml"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=600)


def quoted(line: str) -> None:
    assert line.strip() in PAGE, f"the tutorial should quote what attnvid prints now:\n{line.strip()}"


def test_the_first_try_is_refused_as_the_page_says(tmp_path: Path) -> None:
    r = run(tmp_path, (TUTORIAL / "crane_start.toml").read_text(encoding="utf-8"), "values")
    assert r.returncode == 2 and r.stdout == ""
    quoted(r.stderr)


def test_the_fixed_first_try_shows_the_row_the_page_quotes(tmp_path: Path) -> None:
    text = (TUTORIAL / "crane_start.toml").read_text(encoding="utf-8").replace('"The crane', '"the crane')
    r = run(tmp_path, text, "values")
    assert r.returncode == 0, r.stderr
    row = next(line for line in r.stdout.splitlines() if line.startswith("crane │ 0.01"))
    quoted(row)


def test_the_last_lesson_is_clean_and_leans_as_the_page_says(tmp_path: Path) -> None:
    r = run(tmp_path, (TUTORIAL / "crane.toml").read_text(encoding="utf-8"), "values")
    assert r.returncode == 0 and r.stderr == "", r.stderr
    leans = [line for line in r.stdout.splitlines() if line.startswith("crane after attention leans")]
    assert len(leans) == 2
    for line in leans:
        quoted(line)


def test_a_contradicted_claim_and_look_alike_colours_are_reported_as_the_page_says(tmp_path: Path) -> None:
    text = (TUTORIAL / "crane.toml").read_text(encoding="utf-8")
    wrong = text.replace('leans = "machine"', 'leans = "bird"')
    r = run(tmp_path, wrong, "values")
    assert r.returncode == 2
    quoted(r.stderr)
    orange = text.replace('machine = "#6ea8fe"', 'machine = "#f2a65a"')
    assert orange != text
    r = run(tmp_path, orange, "values")
    assert r.returncode == 0 and "warning" in r.stderr
    quoted(r.stderr)


@pytest.mark.slow
def test_the_narration_says_what_the_page_says(tmp_path: Path) -> None:
    r = run(tmp_path, (TUTORIAL / "crane.toml").read_text(encoding="utf-8"), "script", "Softmax")
    assert r.returncode == 0, r.stderr
    said = "Divide by 84.69: “crane” now gives 0.16 to lake."
    assert said in r.stdout and said in PAGE
