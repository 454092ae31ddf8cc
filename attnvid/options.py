"""The command-line options several commands share, defined once.

``--lesson`` and ``--media`` are checked as soon as click reads them, so that every
command taking them stops on a bad lesson or an impossible output folder with one
line, before it imports Manim or writes anything.
"""

from __future__ import annotations

import functools
import os
import tempfile
from collections.abc import Callable
from dataclasses import fields, replace
from pathlib import Path
from typing import Any, TypeVar, cast

import click

from attncore import find_lesson
from attncore.i18n import UnknownLanguage, cldr_language, language_warnings, languages, set_pseudo
from attncore.lesson import lesson_warnings
from attnstage.settings import DEFAULTS, STYLES, SceneSettings
from attnstage.speech.voices import RATES, VoiceError, voice_engine, voice_from_spec, with_rate

from .catalog import check_lecture, check_narration, colour_warnings
from .errors import UserError, storage_error
from .lessons import in_language, lesson_spec
from .render.settings import QUALITIES

F = TypeVar("F", bound=Callable[..., Any])


def _checked_lesson(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:
    """Read the lesson now: a bad file is its one line (exit 2); a claim that holds but
    barely (a ``leans`` margin too small to see) is a warning line on stderr."""
    if ctx.resilient_parsing:
        return value
    lesson = find_lesson(value)
    check_narration(lesson)
    check_lecture(lesson)
    warnings = lesson_warnings(lesson)
    # the language viewers get: --language (read first: it is eager), else the environment's, else the lesson's
    shown = in_language(lesson, ctx.params.get("language") or SceneSettings.from_environ().language)
    warnings += language_warnings(shown.language, shown.catalogue)
    if lesson.theme:  # the lesson's own colours: told apart under simulated colour blindness?
        warnings += colour_warnings(lesson)
    for warning in warnings:
        click.echo(f"attnvid: warning: {warning}", err=True)
    return value


def lesson_option(f: F) -> F:
    return click.option(
        "--lesson",
        "lesson_path",
        type=click.Path(path_type=Path, dir_okay=True),
        default=None,
        callback=_checked_lesson,
        help="A lesson TOML file, or a built-in lesson name (default, bank, souris, maus, raton, pingguo).",
    )(f)


def media_problem(media: Path) -> str | None:
    """Why ``media`` can never hold our outputs (under a file, on a file system that takes
    no folders such as /proc), or None.

    A folder we may not write in (permission, read-only, full) is not reported here:
    ``attnvid doctor`` names it as a check, and the first write meets it with one line.
    Creating ``media`` is tried for real in its nearest existing folder, then undone.
    """
    target = media.absolute()
    where = target
    while not os.path.lexists(where) and where != where.parent:
        where = where.parent
    if not where.is_dir():
        what = "is a file" if where.exists() else "is not a folder"
        if where == target:
            return f"{media} {what}, not a folder; give --media a folder (or remove the file)"
        return f"cannot create the output folder {media}: {where} {what}, not a folder; give --media another folder"
    if where == target:
        return None
    try:
        os.rmdir(tempfile.mkdtemp(dir=where, prefix=".attnvid-probe-"))
    except OSError as exc:
        if storage_error(exc) is not None:
            return None
        return (f"cannot create the output folder {media}: {where} takes no new folders ({exc.strerror}); "
                "give --media a folder on a writable disk")
    return None


def _checked_media(ctx: click.Context, param: click.Parameter, value: Path) -> Path:
    if ctx.resilient_parsing:
        return value
    problem = media_problem(value)
    if problem is not None:
        raise UserError(problem)
    return value


def media_option(help: str | None = "Where outputs go.") -> Callable[[F], F]:
    return click.option("--media", type=click.Path(path_type=Path, file_okay=False), default=Path("media"),
                        show_default=True, callback=_checked_media, help=help)


def no_media_option(why: str) -> Callable[[F], F]:
    """``--media`` on a command that writes nothing there: refused with why, not "no such option"
    (every command that takes ``--lesson`` knows ``--media``)."""
    def refuse(ctx: click.Context, param: click.Parameter, value: Path | None) -> None:
        if value is not None and not ctx.resilient_parsing:
            raise UserError(f"--media: {why}; drop --media", code=2)

    return click.option("--media", type=click.Path(path_type=Path), default=None, expose_value=False,
                        callback=refuse, help=f"Not taken: {why}.")


def _checked_language(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--language``: the settings' language (:func:`attnvid.lessons.in_language`). Any CLDR
    language is taken (a code CLDR does not know is refused); one without a catalogue is warned
    about with the lesson (:func:`attncore.i18n.language_warnings`): eager, so that the lesson's
    check knows it."""
    if value and not ctx.resilient_parsing:
        try:
            cldr_language(value)
        except UnknownLanguage as exc:
            raise UserError(f"--language: {exc}; give a code such as it, pt or ar (with a catalogue: "
                            f"{', '.join(languages())})", code=2) from None
    return value


def language_option(f: F) -> F:
    return click.option("--language", metavar="CODE", default=None,
                        callback=_checked_language, is_eager=True,
                        help="The language viewers see and hear, a CLDR code: en, fr, de, es, zh, or any other "
                             "with a catalogue (python -m attncore.locale init CODE; else English text, that "
                             "language's numbers). Overrides the lesson's language; outputs go under <language>/ "
                             "[default: the lesson's].")(f)


def theme_option(f: F) -> F:
    return click.option("--theme", type=click.Choice(list(STYLES)), default=None,
                        help="Dark or light slides (light: for projectors and print) [default: the lesson's "
                             "[theme] style, else dark].")(f)


def quality_option(f: F) -> F:
    return click.option("--quality", "-q", type=click.Choice(list(QUALITIES)), default=DEFAULTS.quality,
                        show_default=True)(f)


def jobs_option(f: F) -> F:
    return click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
                        help="Parallel processes [default: cores].")(f)


def _checked_voice(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """An unknown voice is a bad option (exit 2); a recordings folder that is not there, a
    missing part of this machine (exit 1). Whether each recording is there is checked once
    the scenes are known (:func:`attnvid.catalog.check_recordings`); whether espeak-ng or
    Piper and its model are there, before rendering (:func:`attnvid.render.runtime.require_runtime`)."""
    if ctx.resilient_parsing:
        return value
    try:
        voice_from_spec(value)
    except VoiceError as exc:
        raise UserError(str(exc), code=1 if value.strip().startswith("recorded:") else 2) from None
    return value


def voice_option(help: str) -> Callable[[F], F]:
    return click.option(
        "--voice",
        default=DEFAULTS.voice,
        show_default=True,
        metavar="none|espeak|piper[:MODEL]|recorded:DIR",
        callback=_checked_voice,
        help=help,
    )


def rate_option(f: F) -> F:
    return click.option("--rate", type=click.IntRange(*RATES), default=None, metavar="WPM",
                        help="Words per minute of a synthetic voice (espeak: its -s; piper: its length scale) "
                             "[default: the voice's own pace]. Not for none or recorded voices.")(f)


def spoken_voice(voice: str, rate: int | None) -> str:
    """The voice name the scenes get: ``--voice`` carrying ``--rate`` (:func:`attnstage.speech.voices.with_rate`).

    A rate for a voice that has no pace to set (``none``, ``recorded:DIR``) is a usage
    error (exit 2), not a warning: the video would not be what the command line asked for.
    """
    if rate is not None and voice_engine(voice) in ("none", "recorded"):
        try:
            voice_from_spec(with_rate(voice, rate))
        except VoiceError as exc:
            raise UserError(str(exc)) from None
    return with_rate(voice, rate)


def voice_options(help: str) -> Callable[[F], F]:
    """``--voice`` and ``--rate``: the settings' voice."""
    def add(f: F) -> F:
        return voice_option(help)(rate_option(f))

    return add


def settings_from(params: dict[str, Any]) -> SceneSettings:
    """The record built from a command's options (taken out of ``params``): the environment's
    settings with every option the command has in their place. An option fills the field of
    its parameter's name (an option given no value, None, leaves the environment's: so
    ``--language``); ``--lesson`` fills ``lesson`` (its spec), ``--theme`` ``style`` (""
    when not given: the lesson's), ``--rate`` goes into ``voice``."""
    changes: dict[str, Any] = {}
    if "lesson_path" in params:
        changes["lesson"] = lesson_spec(params.pop("lesson_path"))
    if "theme" in params:
        changes["style"] = params.pop("theme") or ""
    rate = params.pop("rate", None)
    for name in [f.name for f in fields(SceneSettings) if f.name in params]:
        value = params.pop(name)
        if value is not None:
            changes[name] = value
    if "voice" in changes:
        changes["voice"] = spoken_voice(changes["voice"], rate)
    return replace(SceneSettings.from_environ(), **changes)


def settings_options(*options: Callable[[F], F]) -> Callable[[F], F]:
    """The option group of the commands that draw: ``options`` (of :func:`lesson_option`,
    :func:`voice_options`, :func:`theme_option`, :func:`language_option`, :func:`quality_option`),
    whose values the command receives as one ``settings`` record (as Manim's ``render_options``)."""
    def add(f: F) -> F:
        @functools.wraps(f)
        def command(**params: Any) -> Any:
            settings = settings_from(params)
            set_pseudo(settings.pseudo)  # the command's own translated texts too
            return f(settings=settings, **params)

        for option in reversed(options):
            command = option(command)
        return cast(F, command)

    return add


#: The settings every command that renders video takes (``render``, ``lecture``).
def render_options(voice_help: str) -> Callable[[F], F]:
    return settings_options(quality_option, lesson_option, voice_options(voice_help), theme_option, language_option)
