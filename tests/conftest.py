"""Shared fixtures: every scene built once per test run for each lesson (no video encoded),
and the real lecture rendered once per run.

A build is paid once: :func:`built_scene` keeps it in the process, and under pytest-xdist
every test that names a scene of the lecture in its parameters runs on the same worker as
the other tests of that scene (:class:`SceneScheduling`), so that the worker that built a
scene for a lesson is the one that checks it, whichever test file asks. (Builds used to be
pickled into the run's shared folder for the other worker to read back: dumping them cost
38 % of building them, and the other worker read back one in ten.)
"""

from __future__ import annotations

import fcntl
import gc
import hashlib
import os
import re
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from xdist.scheduler import LoadScopeScheduling

ROOT = Path(__file__).resolve().parents[1]
ATTNVID = str(Path(sys.executable).parent / "attnvid")

_BUILT: dict[tuple[str, ...], Any] = {}
#: The run's folder shared by every xdist worker (set by the session fixture below).
_SHARED: list[Path] = []
#: A built scene's attributes that belong to Manim's machinery, not to what was built.
_MACHINERY = {"renderer", "camera", "camera_class", "manager", "session_spec", "output_plan", "file_writer_settings",
              "time_progression", "animations", "moving_mobjects", "static_mobjects", "queue", "widgets",
              "key_to_function_map", "mouse_press_callbacks", "updaters", "voice", "mobjects", "foreground_mobjects",
              "meshes", "camera_target", "stop_condition"}


def built_copy(scene: Any) -> Any:
    """What the tests read of a built scene, picklable: an instance of the scene's class (its
    methods and class attributes work) holding the built state (checkpoints, trace, narrations,
    captions, the scene's own layout records) and ``renderer.time``, without Manim's machinery."""
    shell = type(scene).__new__(type(scene))
    shell.__dict__.update({k: v for k, v in vars(scene).items() if k not in _MACHINERY and not k.startswith("_")})
    shell.__dict__["_section"] = ""
    shell.renderer = SimpleNamespace(time=float(scene.renderer.time))
    return shell


def _lesson_key(lesson: str) -> str:
    """The lesson's identity: a built-in name, or the content of its file."""
    path = Path(lesson)
    data = path.read_bytes() if lesson and path.is_file() else lesson.encode()
    return hashlib.sha256(data).hexdigest()[:16]


def _build(cls: type, lesson: str, style: str = "") -> Any:
    from attnstage.settings import env_name
    from scenes.inspect import build

    old = {name: os.environ.get(name) for name in (env_name("lesson"), env_name("style"))}
    os.environ[env_name("lesson")] = lesson
    os.environ[env_name("style")] = style
    try:
        return built_copy(build(cls))
    finally:
        for name, value in old.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def built_scene(cls: type, lesson: str = "", style: str = "") -> Any:
    """``cls`` built for ``lesson`` (a path or built-in name; "" the default) in ``style`` ("": the
    lesson's own, dark unless it says), animations played straight to their end
    (:class:`scenes.skipping.LayoutRenderer`), with checkpoints at every section end: built once
    per run, whichever test or worker asks first."""
    key: tuple[str, ...] = (cls.__name__, _lesson_key(lesson)) + ((style,) if style else ())
    built = _built_scene(cls, lesson, style, key)
    # what the test computes from it (expected numbers, claims) is in the scene's language, as
    # when the scene was made (a scene sets its lesson's language: attncore.i18n)
    from attncore.i18n import set_language

    set_language(built.lesson.language, built.lesson.catalogue)
    return built


def _built_scene(cls: type, lesson: str, style: str, key: tuple[str, ...]) -> Any:
    if key not in _BUILT:
        _BUILT[key] = _build(cls, lesson, style)
        # a build lives as long as the worker: out of the cyclic collector's way, which otherwise
        # scans every build kept so far at each full collection (a tenth of the contributor's tier)
        gc.collect()
        gc.freeze()
    return _BUILT[key]


def scene_names() -> tuple[str, ...]:
    """The lecture's scene classes, read from the scene files' source (the controller process
    schedules by them and never imports Manim)."""
    found = (re.findall(r"^class (\w+)\(LessonScene\)", p.read_text(encoding="utf-8"), re.M)
             for p in sorted((ROOT / "scenes" / "steps").glob("[a-z]*.py")))
    return tuple(name for names in found for name in names)


class SceneScheduling(LoadScopeScheduling):  # type: ignore[misc]
    """pytest-xdist's scope scheduling, the scope of a test being the scene of the lecture its
    parameters name (``[largest-Softmax]``, ``[dark-souris-Softmax]``): all the tests of one
    scene go to one worker, which builds it once for each lesson; a test naming no scene, or
    several, is a scope of its own. Scopes go out largest first (xdist's reordering)."""

    def __init__(self, config: pytest.Config, log: Any = None) -> None:
        super().__init__(config, log)
        self.in_params = re.compile(rf"[\[-]({'|'.join(scene_names())})(?=[\]-])")

    def _split_scope(self, nodeid: str) -> str:
        params = nodeid[nodeid.find("[", nodeid.rfind("::")):] if "[" in nodeid else ""
        found = set(self.in_params.findall(params))
        return f"scene:{found.pop()}" if len(found) == 1 else nodeid


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> SceneScheduling:
    return SceneScheduling(config, log)


def shared_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This run's folder that every xdist worker sees (never an older run's)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session", autouse=True)
def _share_builds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Builds, and texts parsed once (scenes.components.text.load_parsed), shared by every
    process of the run: the workers, and the attnvid commands the tests start."""
    from attnstage.settings import PREVIEW_DIR_ENV, PREVIEW_SERVER_ENV, env_name

    _SHARED[:] = [shared_folder(tmp_path_factory)]
    # No test leaves a preview server running: one-shot previews draw in their own process,
    # except in tests/test_preview_server.py, which starts and stops its own servers.
    values = {env_name("text_cache"): str(_SHARED[0] / "texts"), PREVIEW_SERVER_ENV: "0",
              PREVIEW_DIR_ENV: str(_SHARED[0] / "preview-servers")}
    old = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    yield
    _SHARED.clear()
    for name, value in old.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def made_once(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]) -> Path:
    """The run's shared folder ``name``, filled by ``make(folder)`` once per run: the first
    process to ask makes it under a file lock (a failed ``make`` leaves nothing, and the next
    asks again), every other waits and reads it (LibreOffice's conversions, for example, which
    every xdist worker needs and which give the same files each time)."""
    shared = shared_folder(tmp_path_factory)
    folder, done = shared / name, shared / f"{name}.done"
    with open(shared / f"{name}.lock", "w", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.is_file():
            if folder.exists():
                shutil.rmtree(folder)
            folder.mkdir()
            make(folder)
            done.touch()
    return folder


def frame_hashes(video: Path) -> list[str]:
    """Every decoded picture of ``video``: the sha256 of its pixels and how many frames it is shown
    (an MP4 holds a held picture once, as one sample lasting as long as the hold:
    attnvid.render.encoder); raises if the file is truncated or damaged."""
    import av

    with av.open(str(video)) as c:
        v = c.streams.video[0]
        rate = v.base_rate or v.guessed_rate
        assert rate, f"{video}: no frame rate"
        return [f"{hashlib.sha256(f.to_ndarray().tobytes()).hexdigest()} x{round(f.duration * f.time_base * rate)}"
                for f in c.decode(v)]


def shown_frames(video: Path) -> int:
    """How many frames ``video`` shows at its nominal rate (a held picture counts for every frame
    it is held), as a player plays it."""
    return sum(int(h.rsplit(" x", 1)[1]) for h in frame_hashes(video))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that reads the rendered lecture is in the render tier, whatever its file says."""
    for item in items:
        if "lecture_dir" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.render)


@pytest.fixture(scope="session")
def lecture_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real low-quality lecture with the espeak voice, rendered once per test run.

    Under pytest-xdist every worker asks for it: the first renders it into the run's
    shared temporary folder under a file lock, the others wait and reuse it (the pattern
    pytest-xdist documents; its ``xdist_group`` marks do not group tests under pytest 9).
    """
    import subprocess

    shared = shared_folder(tmp_path_factory)
    with open(shared / "lecture.lock", "w", encoding="utf-8") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        work, done = shared / "lecture", shared / "lecture.done"
        if not done.is_file():
            work.mkdir(exist_ok=True)
            # faulthandler: a crash of the process (once a SIGSEGV during assembly, issue 26) leaves
            # the Python stack of every thread in stderr, which the assertion shows
            r = subprocess.run([ATTNVID, "lecture", "--quality", "low", "--voice", "espeak"], cwd=work,
                               capture_output=True, text=True, timeout=1800,
                               env={**os.environ, "PYTHONFAULTHANDLER": "1"})
            assert r.returncode == 0, f"exit status {r.returncode}\n" + r.stderr[-6000:]
            folder = Path(r.stdout.strip().splitlines()[-1])
            assert folder == Path("media/lecture/low"), "the last line is the lecture folder"
            done.write_text(str(folder), encoding="utf-8")
        return work / done.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def lecture() -> tuple[type, ...]:
    from scenes.lecture import LECTURE

    return LECTURE


@pytest.fixture(autouse=True)
def _lesson_and_voice_as_they_were(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lesson, voice, language and style the scenes read from the environment (and the
    viewer language of :mod:`attncore.i18n`) are put back after each
    test: a command run in the test's process (a scene built in it is handed its settings in
    the environment, :meth:`attnstage.settings.SceneSettings.to_environ`) once left another
    lesson for every later build in that worker (the pixel tests then drew the bank lesson's
    title card). Every field of the settings is put back, whatever fields it has."""
    from dataclasses import fields

    from attncore.i18n import set_language, set_pseudo
    from attnstage.settings import SceneSettings, env_name

    set_language("en")  # a scene of a French lesson made earlier in this worker set French for the thread
    set_pseudo(False)
    for name in (env_name(f.name) for f in fields(SceneSettings)):
        if name in os.environ:
            monkeypatch.setenv(name, os.environ[name])
        else:  # delenv of an unset name records nothing to undo; setenv records "was unset"
            monkeypatch.setenv(name, "")
            monkeypatch.delenv(name)


@pytest.fixture(autouse=True)
def _quiet_manim_cwd(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    # Manim writes its text cache under ./media: keep tests out of the repository's media/.
    monkeypatch.chdir(tmp_path_factory.getbasetemp())


# -- the run's cost ----------------------------------------------------------------------------
#: CPU seconds (user, system) reported by each xdist worker as it finishes.
_WORKER_CPU: list[tuple[float, float]] = []


def _cpu_of_self_and_children() -> tuple[float, float]:
    """User and system CPU seconds of this process and of every child it has waited for (test
    subprocesses, their render workers, Chromium, LibreOffice, the Dask processes...)."""
    import resource

    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + kids.ru_utime, me.ru_stime + kids.ru_stime


_START: list[float] = []


def pytest_sessionstart(session: pytest.Session) -> None:
    import time

    _START.append(time.perf_counter())


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: hand its cost to the controller
        workeroutput["cpu"] = _cpu_of_self_and_children()


def pytest_testnodedown(node: Any, error: Any) -> None:
    cpu = getattr(node, "workeroutput", {}).get("cpu")
    if cpu is not None:
        _WORKER_CPU.append(tuple(cpu))


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter: Any) -> None:
    import time

    if getattr(terminalreporter.config, "workeroutput", None) is not None:
        return
    import resource

    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    # The workers count in RUSAGE_CHILDREN only once they have been waited for; their own
    # report (what they and their children used) counts them either way.
    user = me.ru_utime + max(kids.ru_utime, sum(u for u, _ in _WORKER_CPU))
    system = me.ru_stime + max(kids.ru_stime, sum(s for _, s in _WORKER_CPU))
    wall = time.perf_counter() - _START[0]
    terminalreporter.write_sep("=", "cost of this run")
    terminalreporter.write_line(
        f"CPU {user + system:.1f} s (user {user:.1f} s, system {system:.1f} s) in {wall:.1f} s of wall time: "
        f"pytest, its {len(_WORKER_CPU)} workers and every process they waited for")
