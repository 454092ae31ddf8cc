"""The lecture's scenes as the commands name them: by class or file name, in any case,
with one line listing the known scenes when a name is wrong, or a scene file of the
lecturer's own by its path (:func:`load_scene_file`, the one place a scene file is loaded
by path); their sections by title (in any case) or slug; the lesson's lecture in parts (its
``[lecture]`` table or the default parts); and what a lesson or a voice needs of them
(narration slugs, recordings).
The application's only door to the scenes: a scene built with the settings it is drawn with
(:func:`build_scene`), a lesson's colours checked, the scenes' caches of traces and texts.

Imports :mod:`scenes` (and so manim) only when called: this module is the application's one
door into Manim's world, the only one that imports project modules inside functions
(``tests/test_imports.py``), so that a command that draws nothing never loads Manim; the
running order (:mod:`scenes.order`, manim-free) too, when first asked, after the check that
the ``scenes`` Python finds is ours (:func:`check_own_packages`). :func:`manim_renderer`
opens the same door for the renderer that draws a scene.
"""

from __future__ import annotations

import difflib
import hashlib
import importlib.util
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from attncore import Lesson, LessonError
from attncore.i18n import _
from attncore.narration import section_slug
from attnstage.settings import SceneSettings
from attnstage.speech.voices import RecordedVoice, VoiceError, voice_from_spec

from .errors import UserError
from .paths import foreign_packages, source_file

if TYPE_CHECKING:
    from scenes.base import LessonScene


def check_own_packages() -> None:
    """A one-line :class:`UserError` when Python would import ``scenes`` or ``attncore`` from
    somewhere other than beside attnvid (:func:`attnvid.paths.foreign_packages`)."""
    problems = foreign_packages()
    if problems:
        raise UserError(problems[0])


def lecture_scenes() -> tuple[type[LessonScene], ...]:
    """Every scene, in lecture order."""
    check_own_packages()  # a foreign ``scenes`` first on the path: one line naming it, not an ImportError
    from scenes.lecture import LECTURE

    return LECTURE


def _find_scene(name: str) -> type[LessonScene] | None:
    """The scene named ``name`` (``Softmax`` or ``softmax``, its file), or None."""
    from scenes.lecture import find_scene

    try:
        return find_scene(name)
    except KeyError:
        pass
    folded = name.casefold()
    for cls in lecture_scenes():
        if folded in (cls.__name__.casefold(), cls.__module__.rsplit(".", 1)[-1].casefold()):
            return cls
    return None


def is_scene_path(name: str) -> bool:
    """Whether a command's SCENE names a scene file of the lecturer's own (a path ending in ``.py``)
    rather than a scene of the lecture."""
    return name.endswith(".py")


def load_scene_file(path: str | Path) -> type[LessonScene]:
    """The one scene class of the scene file at ``path`` (a lecturer's own, anywhere on disk),
    imported once per process; or a one-line :class:`UserError` naming the problem and the fix
    (no such file, a syntax error, an error while importing it, no scene class, more than one).

    The only place a scene file is loaded by path: ``attnvid render PATH``, ``attnvid preview
    PATH`` and the render workers (:mod:`attnvid.render.engine`) all come here. The module gets
    a private name made from the file's absolute path, so that it never hides a module of the
    same name (a file ``scenes.py`` or ``softmax.py``) and a second call returns the same class.
    """
    check_own_packages()
    given = Path(path).expanduser()
    if not given.is_file():
        raise UserError(f"{path}: no such scene file; give the path of a .py file that defines one LessonScene")
    if given.suffix != ".py":
        raise UserError(f"{path}: not a Python file; a scene file ends in .py")
    file = given.resolve()
    name = "_attnvid_scene_" + hashlib.sha256(str(file).encode()).hexdigest()[:16]
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, file)
        assert spec is not None and spec.loader is not None  # a .py file always has both
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except SyntaxError as exc:
            del sys.modules[name]
            raise UserError(f"{path}:{exc.lineno}: syntax error ({exc.msg}); fix the line and run again") from None
        except Exception as exc:  # noqa: BLE001  (the lecturer's code: any error, said in one line)
            del sys.modules[name]
            raise UserError(f"{path}: importing it failed ({type(exc).__name__}: {exc}); "
                            f"check it with: python {path}") from None
    from scenes.base import LessonScene

    found = [v for v in vars(sys.modules[name]).values()
             if isinstance(v, type) and issubclass(v, LessonScene) and v.__module__ == name]
    if len(found) != 1:
        del sys.modules[name]  # imported again once the file is fixed
    if not found:
        raise UserError(f"{path}: no scene class; define one subclass of scenes.base.LessonScene in it")
    if len(found) > 1:
        raise UserError(f"{path}: {len(found)} scene classes ({', '.join(c.__name__ for c in found)}); "
                        "keep one scene class per file")
    return found[0]


def scene_file_of(cls: type[LessonScene]) -> str:
    """Where a worker finds ``cls`` again: "" for a scene of the lecture (found by its name),
    else the absolute path of its scene file (:func:`load_scene_file`)."""
    return "" if cls in lecture_scenes() else str(source_file(cls))


def own_lesson_path(scenes: Sequence[type[LessonScene]]) -> Path | None:
    """The lesson the lecturer's own scenes among ``scenes`` name (their ``LESSON``), when they
    name one and agree; None when none does. A command takes it when no ``--lesson`` is given."""
    named = {c.own_lesson() for c in scenes if c not in lecture_scenes()} - {""}
    if len(named) > 1:
        raise UserError(f"the scene files name {len(named)} lessons ({', '.join(sorted(named))}); "
                        "render them one at a time, or give --lesson")
    return Path(named.pop()) if named else None


def resolve_scene(name: str) -> type[LessonScene]:
    """The scene named ``name`` (``Softmax`` or ``softmax``, its file), or the scene of the file
    at ``name`` when it ends in ``.py`` (:func:`load_scene_file`); else a one-line error."""
    if is_scene_path(name):
        return load_scene_file(name)
    cls = _find_scene(name)
    if cls is None:
        known = ", ".join(c.__name__ for c in lecture_scenes())
        raise UserError(f"unknown scene {name!r}; choose from: {known}")
    return cls


def resolve_scenes(names: Sequence[str]) -> list[type[LessonScene]]:
    """The named scenes in the order given, or every scene when none is named."""
    return [resolve_scene(s) for s in names] or list(lecture_scenes())


def resolve_section(cls: type[LessonScene], name: str) -> str:
    """The title of the section of ``cls`` named ``name``: its title in any case, or its slug."""
    names = cls.section_names()
    for title in names:
        if name == title:
            return title
    for title in names:
        if section_slug(name) == section_slug(title) and section_slug(name):
            return title
    raise UserError(f"{cls.__name__} has no section {name!r}; its sections are: {'; '.join(names)}")


def numbered(scene: str, title: str) -> str:
    """``title`` numbered as the scene's header shows it, "5 · Softmax" (:func:`scenes.order.numbered`)."""
    check_own_packages()
    from scenes.order import numbered as in_order

    return in_order(scene, title)


def scene_number(scene: str) -> int:
    """The scene's number in the lecture, as its header shows it (5 for Softmax; :func:`scenes.order.number`)."""
    check_own_packages()
    from scenes.order import number

    n = number(scene)
    if n is None:
        raise ValueError(f"{scene} is not a scene of the lecture")
    return n


def scene_heading(scene: str, title: str) -> str:
    """The scene's title as its header shows it, "5 · Softmax": ``title`` (an English id, or
    empty) translated in the current language, after the scene's number in the lecture."""
    return numbered(scene, _(title) if title else title)


def lecture_index(cls: type[LessonScene]) -> int:
    """The scene's place in the lecture: 0 for the title card, then each step's number (1 for
    Embeddings); 0 for a scene of the lecturer's own, which has no place in it."""
    order = lecture_scenes()
    return order.index(cls) if cls in order else 0


def sections_of(scenes: Sequence[type[LessonScene]]) -> list[tuple[str, str]]:
    """(scene name, section title) of every section of ``scenes``, in order."""
    return [(cls.__name__, title) for cls in scenes for title in cls.section_names()]


def check_recordings(voice: str, scenes: Sequence[type[LessonScene]]) -> None:
    """With ``--voice recorded:DIR``, every section of ``scenes`` has its WAV file, or one
    line lists all that are missing, before anything renders (not one at a time, after
    seconds of rendering)."""
    if not voice.strip().startswith("recorded:"):
        return
    try:
        recorded = voice_from_spec(voice)
    except VoiceError as exc:
        raise UserError(str(exc), code=1) from None
    assert isinstance(recorded, RecordedVoice)
    missing = recorded.missing(sections_of(scenes))
    if missing:
        raise UserError(f"missing {len(missing)} recording{'s' if len(missing) != 1 else ''} in {recorded.folder}: "
                        f"{', '.join(p.name for p in missing)}; attnvid script lists what to record")


def check_narration(lesson: Lesson) -> None:
    """Every slug of the lesson's ``[narration]`` names a section of the lecture (attncore
    checked the texts and their placeholders; only the application knows the sections)."""
    if not lesson.narration:
        return
    slugs = [section_slug(title) for _scene, title in sections_of(lecture_scenes())]
    for slug, _text in lesson.narration:
        if slug not in slugs:
            raise LessonError(f"{lesson.source}: narration.{slug}: no section of the lecture has this slug; "
                              f"use one of {', '.join(slugs)} (attnvid list shows the sections)")


@dataclass(frozen=True)
class Part:
    """One part of a lesson's lecture: its title and its scenes, in lecture order."""

    title: str
    scenes: tuple[type[LessonScene], ...]


def lecture_parts(lesson: Lesson) -> tuple[Part, ...]:
    """The lesson's lecture in parts: its ``[lecture]`` table with the scene names resolved
    (in any case, class or file name), or the default parts (``scenes.lecture.PARTS``).

    attncore checked the table's shape; here every name must be a scene, named once, the
    scenes in lecture order, or a one-line :class:`LessonError` names the entry and the fix.
    """
    from scenes.lecture import PARTS

    if not lesson.lecture:
        return tuple(Part(title, scenes) for title, scenes in PARTS)
    order = lecture_scenes()
    seen: dict[type[LessonScene], str] = {}  # scene: the part that has it
    parts = []
    for i, part in enumerate(lesson.lecture, 1):
        scenes = []
        for k, name in enumerate(part.scenes, 1):
            where = f"{lesson.source}: lecture.parts[{i}].scenes[{k}]"
            cls = _lesson_scene(where, name)
            if cls in seen:
                raise LessonError(f"{where}: {name!r} is {cls.__name__}, already in {seen[cls]}; "
                                  "name every scene once")
            last = next(reversed(seen), None)  # the scene named just before
            if last is not None and order.index(cls) < order.index(last):
                raise LessonError(f"{where}: {cls.__name__} comes before {last.__name__} in the lecture; "
                                  "list the scenes in lecture order (attnvid list shows it)")
            seen[cls] = f"lecture.parts[{i}]"
            scenes.append(cls)
        parts.append(Part(part.title, tuple(scenes)))
    return tuple(parts)


def _lesson_scene(where: str, name: str) -> type[LessonScene]:
    """The scene a ``[lecture]`` entry names, or a one-line :class:`LessonError` suggesting the likely one."""
    cls = _find_scene(name)
    if cls is not None:
        return cls
    names = [c.__name__ for c in lecture_scenes()]
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    hint = f"did you mean {close[0]!r}? " if close else ""
    raise LessonError(f"{where}: {name!r} is not a scene of the lecture; {hint}use one of {', '.join(names)} "
                      "(attnvid list shows them)")


def check_lecture(lesson: Lesson) -> None:
    """The lesson's ``[lecture]`` table names scenes of the lecture (only the application knows them)."""
    if lesson.lecture:
        lecture_parts(lesson)


# -- the scenes' door for the application --------------------------------------------------

def build_scene(scene: str | type[LessonScene], settings: SceneSettings, work: str, **how: Any) -> LessonScene:
    """``scene`` (a name, or the class itself) built without a video (:func:`scenes.inspect.build`,
    ``how`` its options), drawn with ``settings``, handed to it in one step (the environment, which
    worker processes started from here inherit too); Manim's work files under ``work``."""
    from scenes.inspect import build, temporary_config

    settings.to_environ()
    with temporary_config({"media_dir": work}):
        return build(resolve_scene(scene) if isinstance(scene, str) else scene, **how)


def colour_warnings(lesson: Lesson) -> list[str]:
    """What the lesson's own ``[theme]`` colours are not told apart from
    (:func:`scenes.theme.lesson_colour_warnings`)."""
    from scenes.theme import lesson_colour_warnings

    return lesson_colour_warnings(lesson)


def scene_file(cls: type[LessonScene]) -> str:
    """The file name of the scene ``cls`` (``s05_softmax.py``)."""
    from scenes.lecture import scene_file as file_of

    return file_of(cls)


def forget_traces() -> None:
    """The lessons read anew at the next scene built (a lesson's file may have changed)."""
    from scenes import base

    base._TRACE_CACHE.clear()


def warm_texts(keep_on_disk: bool) -> None:
    """A warm process's texts: each preview's counted, so that :func:`prepare_texts` copies them
    ahead; parsed texts written for other processes only when ``keep_on_disk``."""
    from scenes.components import text

    text.LightText.SPARES = True
    text.KEEP_ON_DISK = keep_on_disk


def prepare_texts() -> None:
    """Copy ahead the texts the last preview took (:func:`scenes.components.text.prepare_spares`)."""
    from scenes.components.text import prepare_spares

    prepare_spares()
def manim_renderer() -> Any:
    """Manim's Cairo renderer with our file writer and camera (:func:`attnvid.render.encoder.renderer`),
    for a scene about to be drawn: imported here, with the scenes, only then."""
    from .render.encoder import renderer

    return renderer()
