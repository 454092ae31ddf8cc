"""No command ends in a traceback on bad input (issue #12).

Every command registered on the ``attnvid`` group is driven with bad lessons (the whole
corpus of tests/bad_lessons/, extreme values included), bad options, unusable paths and
missing recordings. Each time: a non-zero status, exactly one line on stderr, nothing
on stdout and nothing written. Bad input fails before anything renders, so this is fast.

Most runs call :func:`attnvid.cli.main` in this process (the same code as the
``attnvid`` program, minus the signal handlers): an exception escaping it would fail the
test with its traceback. A few run the real program in a subprocess, which also sees
whatever Python itself would print (warnings, a traceback at exit).
"""

from __future__ import annotations

import subprocess
import sys
import wave
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import ATTNVID

import attnvid.cli
from attnstage.settings import env_name

BAD = sorted((Path(__file__).parent / "bad_lessons").glob("*.toml"))

#: How to call each command with good input: what bad input is then added to.
BASE = {
    "values": ["values"],
    "list": ["list"],
    "render": ["render", "Softmax"],
    "lecture": ["lecture"],
    "preview": ["preview", "Softmax"],
    "storyboard": ["storyboard"],
    "doctor": ["doctor"],
    "script": ["script"],
    "workbook": ["workbook"],
    "exercises": ["exercises"],
    "batch": ["batch", "default", "--scene", "Softmax"],
    "package": ["package"],
    "locale": ["locale", "init", "it"],
}


def takes(command: str, option: str) -> bool:
    """Whether ``command`` takes ``option`` (an option it only refuses, as values and list refuse --media, is not
    taken)."""
    return option in {p.name for p in attnvid.cli.cli.commands[command].params if p.expose_value}


def commands_with(option: str) -> list[str]:
    return [c for c in BASE if takes(c, option)]


@dataclass
class Run:
    code: int
    out: str
    err: str


Attnvid = Callable[..., Run]


@pytest.fixture
def attnvid_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Attnvid:
    """Run ``attnvid ARGS`` in this process, in an empty folder; return status, stdout, stderr."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(env_name("lesson"), "")  # commands set it: restored after the test
    monkeypatch.delenv(env_name("voice"), raising=False)
    monkeypatch.setattr(attnvid.cli, "install_signal_handlers", lambda: None)

    def run(*args: str) -> Run:
        monkeypatch.setattr(sys, "argv", ["attnvid", *args])
        capsys.readouterr()
        with pytest.raises(SystemExit) as ended:
            attnvid.cli.main()
        out, err = capsys.readouterr()
        code = ended.value.code
        return Run(code if isinstance(code, int) else 1, out, err)

    return run


def assert_one_line(r: Run, args: tuple[str, ...] | list[str], where: Path) -> None:
    assert r.code != 0, (args, r.err)
    lines = r.err.splitlines()
    assert len(lines) == 1, f"{args}: {r.err}"
    assert lines[0].startswith("attnvid: error: "), (args, r.err)
    assert "Traceback" not in r.err and r.out == "", (args, r.out)
    assert not (where / "media").exists(), f"{args} wrote media/"


def test_every_registered_command_is_driven() -> None:
    # A new command (batch...) must be added to BASE: then every case below covers it.
    assert set(attnvid.cli.cli.commands) == set(BASE)


@pytest.mark.parametrize("command", commands_with("lesson_path"))
def test_every_bad_lesson_through_every_command(command: str, attnvid_here: Attnvid, tmp_path: Path) -> None:
    for path in BAD:
        args = [*BASE[command], "--lesson", str(path)]
        r = attnvid_here(*args)
        assert_one_line(r, args, tmp_path)
        assert r.code == 2 and r.err.startswith(f"attnvid: error: {path}: "), (args, r.err)


@pytest.mark.parametrize("command", commands_with("lesson_path"))
def test_lessons_that_are_not_there_or_name_no_section(command: str, attnvid_here: Attnvid, tmp_path: Path) -> None:
    narration = tmp_path / "narration.toml"
    good = (Path(__file__).parents[1] / "attncore" / "lessons" / "default.toml").read_text(encoding="utf-8")
    narration.write_text(good + '\n[narration]\ndivide-by-sum = "words"\n', encoding="utf-8")
    folder = tmp_path / "a folder"
    folder.mkdir()
    for spec, says in ((tmp_path / "missing.toml", "file not found"), ("no-such-lesson", "no such file or built-in"),
                       (folder, "is a folder, not a file"), (narration, "no section of the lecture has this slug")):
        args = [*BASE[command], "--lesson", str(spec)]
        r = attnvid_here(*args)
        assert_one_line(r, args, tmp_path)
        assert r.code == 2 and says in r.err, (args, r.err)


def bad_options(command: str) -> list[list[str]]:
    out = [["--no-such-option"]]
    if takes(command, "quality"):
        out.append(["--quality", "ultra"])
    if takes(command, "jobs"):
        out.append(["--jobs", "0"])
    if takes(command, "fmt"):
        out.append(["--format", "avi"])
    if takes(command, "voice"):
        out.append(["--voice", "bogus"])
    if takes(command, "as_json"):
        out.append(["--json=yes"])
    if takes(command, "section"):
        out.append(["--section", "no such section"])
    if takes(command, "count"):
        out += [["--count", "0"], ["--count", "41"], ["--count", "many"]]
    if takes(command, "seed"):
        out += [["--seed", "-1"], ["--seed", "4294967296"], ["--seed", "1.5"]]
    return out


@pytest.mark.parametrize("command", list(BASE))
def test_bad_options(command: str, attnvid_here: Attnvid, tmp_path: Path) -> None:
    for extra in bad_options(command):
        args = [*BASE[command], *extra]
        assert_one_line(attnvid_here(*args), args, tmp_path)


@pytest.mark.parametrize("command", [c for c in BASE if takes(c, "scenes") or takes(c, "scene")])
def test_unknown_scene(command: str, attnvid_here: Attnvid, tmp_path: Path) -> None:
    # batch names its scenes with --scene (its arguments are lessons)
    args = [*BASE[command], "--scene", "NoSuchScene"] if command == "batch" else [command, "NoSuchScene"]
    r = attnvid_here(*args)
    assert_one_line(r, args, tmp_path)
    assert "unknown scene 'NoSuchScene'; choose from: TitleCard, Embeddings" in r.err


@pytest.mark.parametrize("command", commands_with("media"))
def test_media_that_cannot_be_created(command: str, attnvid_here: Attnvid, tmp_path: Path) -> None:
    (tmp_path / "a file").write_text("not a folder")
    for media, says in ((tmp_path / "a file" / "media", "is a file, not a folder"),
                        (tmp_path / "a file", "is a file"),
                        (Path("/proc/attnvid-media"), "/proc takes no new folders")):
        args = [*BASE[command], "--media", str(media)]
        r = attnvid_here(*args)
        assert_one_line(r, args, tmp_path)
        assert says in r.err, (args, r.err)


def write_wav(path: Path) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(8000)
        w.writeframes(b"\0\0" * 800)


@pytest.mark.parametrize("command", commands_with("voice"))
def test_recordings_that_are_not_there(command: str, attnvid_here: Attnvid, tmp_path: Path) -> None:
    (tmp_path / "a file").write_text("not a folder")
    for spec, says in (("recorded:" + str(tmp_path / "nowhere"), "does not exist"),
                       ("recorded:" + str(tmp_path / "a file"), "is a file, not a folder")):
        args = [*BASE[command], "--voice", spec]
        r = attnvid_here(*args)
        assert_one_line(r, args, tmp_path)
        assert says in r.err, (args, r.err)
    if command == "doctor":
        return  # doctor renders nothing: which recordings a render needs is the render's to check
    recordings = tmp_path / "recordings"
    recordings.mkdir()
    write_wav(recordings / "Softmax__divide-by-the-sum.wav")
    args = [*BASE[command], "--voice", f"recorded:{recordings}"]
    r = attnvid_here(*args)
    assert_one_line(r, args, tmp_path)
    assert r.code == 2 and f"in {recordings}: " in r.err and "attnvid script lists what to record" in r.err
    assert "Softmax__exponentiate-the-scores.wav, Softmax__the-attention-matrix.wav" in r.err
    assert "Softmax__divide-by-the-sum.wav" not in r.err, "a recording that is there is not missing"


# The real program, in a subprocess -----------------------------------------------------------
def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([ATTNVID, *args], cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("command", commands_with("lesson_path"))
def test_an_extreme_value_through_the_real_program(command: str, tmp_path: Path) -> None:
    path = Path(__file__).parent / "bad_lessons" / "value_huge.toml"
    r = run(*BASE[command], "--lesson", str(path), cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == "", r.stderr
    assert r.stderr == (
        f"attnvid: error: {path}: vocabulary.mouse: 1e+200 is outside the supported range -10..10; "
        "use values between -10 and 10; small round numbers such as 3 or 0.5 keep every sum checkable\n"
    )
    assert not (tmp_path / "media").exists()


def test_bad_options_and_paths_through_the_real_program(tmp_path: Path) -> None:
    (tmp_path / "a file").write_text("not a folder")
    for args in (["render", "--quality", "ultra"], ["storyboard", "--media", "a file/media"],
                 ["lecture", "--voice", f"recorded:{tmp_path}"], ["script", "--media", "/proc/x"]):
        r = run(*args, cwd=tmp_path)
        assert r.returncode != 0 and r.stdout == "", (args, r.stdout)
        assert len(r.stderr.splitlines()) == 1 and r.stderr.startswith("attnvid: error: "), (args, r.stderr)
    assert not (tmp_path / "media").exists()
