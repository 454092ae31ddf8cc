"""The base of every lecture scene: lesson loading, header, sections and pacing.

A scene declares its beats as ``SECTIONS = (("Title a viewer reads", "method"), ...)``;
:meth:`LessonScene.construct` opens a named section per beat and calls the method, so
the list of sections is known without rendering (``attnvid list``) and the scene's
``SECTIONS`` reads like its table of contents.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar, cast

from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Camera,
    FadeIn,
    FadeOut,
    ManimColor,
    Mobject,
    Scene,
    Text,
    Transform,
    config,
)

from attncore import ContextTrace, LessonTrace, find_lesson, trace_lesson
from attncore.claims import Claim, section_claims
from attncore.i18n import _, breakable_words, set_language, set_pseudo, tidy_punctuation
from attncore.narration import narration_override
from attnstage.settings import SceneSettings
from attnstage.speech.captions import Cue, reading_seconds, timed_cues
from attnstage.speech.voices import Voice, voice_from_spec, wav_seconds

from .components import Formula, LightText, PipelineMarker, label, text_baseline
from .layout import CAPTION_BUFF, CAPTION_MARGIN, CONTENT, HEADER_BUFF, PIPELINE_BUFF, TITLE_DROP, Box
from .order import numbered
from .theme import FONT, SIZE, TIME, Theme, activate

# Set here rather than in a manim.cfg so that plain `manim render scenes/x.py` and
# `attnvid` behave the same: no network call after a render, fixed randomness.
config.notify_outdated_version = False
config.seed = 0

_TRACE_CACHE: dict[tuple[str, str], LessonTrace] = {}


def current_trace(settings: SceneSettings | None = None, own: str = "") -> LessonTrace:
    """The trace of the settings' lesson (a path or built-in name), else of ``own`` (a scene's
    :attr:`LessonScene.LESSON`), else of the default lesson; in the settings' language when they
    name one (default: the settings the environment holds)."""
    settings = SceneSettings.from_environ() if settings is None else settings
    path, language = settings.lesson or own, settings.language
    if (path, language) not in _TRACE_CACHE:
        lesson = find_lesson(path)
        if language and language != lesson.language:
            lesson = replace(lesson, language=language)
        _TRACE_CACHE[path, language] = trace_lesson(lesson)
    return _TRACE_CACHE[path, language]


def current_style(lesson_style: str = "", settings: SceneSettings | None = None) -> str:
    """The style to draw in: the settings' (``--theme``), else the lesson's ``[theme] style``, else dark."""
    settings = SceneSettings.from_environ() if settings is None else settings
    return settings.with_style(lesson_style).style


class StepTitle(LightText):
    """The scene's title, "N · Name": its digits are the step's place in the lecture (:func:`scenes.order.numbered`)."""

    def __init__(self, text: str, colour: str) -> None:
        super().__init__(text, font=FONT, font_size=SIZE["title"], color=colour, weight="BOLD")


@dataclass(frozen=True)
class Narration:
    """The words of one section: when they start (s) and how long they last."""

    section: str
    text: str
    start: float
    speech: float
    spoken: bool


#: Silence before the words of a section start, and after they end.
LEAD, TAIL = 0.4, 0.6
#: The least room (scene units) between the title and the formula beside it.
FORMULA_GAP = 0.35
#: A title too long to leave the formula room beside it shrinks, to this share of its size at least.
MIN_TITLE_SCALE = 0.75


@dataclass
class Checkpoint:
    """What was on screen at the end of a section (collected for tests and storyboards)."""

    section: str
    mobjects: list[Mobject] = field(default_factory=list)
    image: Any = None  # a PIL image of the frame, when frames are collected


class LessonScene(Scene):
    """A lecture scene drawing the current lesson's trace.

    Class attributes a scene sets:
      ``TITLE`` (header: an English id marked ``N_``, shown translated after the scene's number in
      :data:`scenes.order.ORDER`), ``STAGE`` (index into the pipeline marker), ``FORMULA`` (the
      formula of the step in Typst maths, typeset top right: see
      :class:`~scenes.components.Formula`), ``SECTIONS`` (beats in order: titles are English ids marked ``N_``, which
      name recordings, narration
      overrides and claims; they are translated only where shown).
    """

    TITLE: ClassVar[str] = ""
    #: The lesson a scene of your own draws when no ``--lesson`` is given: a TOML path relative
    #: to the scene's file, or a built-in lesson's name ("": the default lesson). See :meth:`own_lesson`.
    LESSON: ClassVar[str] = ""
    STAGE: ClassVar[int] = 0
    FORMULA: ClassVar[str] = ""
    SECTIONS: ClassVar[tuple[tuple[str, str], ...]] = ()

    #: Tests set these to record what is on screen at the end of every section: copies
    #: of the mobjects (so later animations cannot change them) and the frame itself
    #: (``True``: of every section; a set of titles: of those sections only).
    collect_checkpoints: ClassVar[bool] = False
    collect_frames: ClassVar[bool | frozenset[str]] = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("random_seed", 0)
        super().__init__(*args, **kwargs)
        #: What this scene is drawn and spoken with: handed over by whoever builds it (the environment).
        self.settings = SceneSettings.from_environ()
        self.trace = current_trace(self.settings, self.own_lesson())
        self.lesson = self.trace.lesson
        #: Every text of the scene is written in the lesson's language (attncore.i18n).
        self.language = set_language(self.lesson.language, self.lesson.catalogue)
        set_pseudo(self.settings.pseudo)
        self.theme = Theme(self.lesson.theme, self.lesson.dimensions, current_style(self.lesson.style, self.settings))
        activate(self.theme)  # components that make their own colours follow this scene's style
        self.dec = self.lesson.decimals
        #: The room between the header and the caption (see :mod:`scenes.layout`).
        self.content: Box = CONTENT
        self.checkpoints: list[Checkpoint] = []
        self.section_starts: list[tuple[str, float]] = []
        self.narrations: list[Narration] = []
        self.bottom_captions: list[tuple[str, str]] = []  # (section, text) of every bottom caption, in order
        self._section = ""
        self._header_shown = False  # the title may shrink for the formula only before it is seen
        self.voice: Voice = voice_from_spec(self.settings.voice, self.lesson.language)
        cast(Camera, self.camera).background_color = ManimColor(self.theme["background"])

    # -- structure ---------------------------------------------------------------------
    @classmethod
    def own_lesson(cls) -> str:
        """The lesson the scene names in its ``LESSON``: a path made absolute from the folder of
        the scene's file, or a built-in name as it is ("" when it names none)."""
        if not cls.LESSON:
            return ""
        path = Path(inspect.getfile(cls)).resolve().parent / cls.LESSON
        return str(path) if path.suffix or path.exists() else cls.LESSON

    @classmethod
    def section_names(cls) -> list[str]:
        return [title for title, _ in cls.SECTIONS]

    def construct(self) -> None:
        self.add_header()
        for title, method in self.SECTIONS:
            self.section_starts.append((title, float(self.renderer.time)))
            self.next_section(title)
            self._section = title
            getattr(self, method)()
            self._wait_for_words(title)
            self._checkpoint(title)
            if self._has_all_frames_wanted():
                return  # a preview of an early section need not build the rest
        self._pad_sound_to_end()

    def _has_all_frames_wanted(self) -> bool:
        wanted = self.collect_frames
        return (isinstance(wanted, frozenset) and not self.collect_checkpoints
                and wanted <= {cp.section for cp in self.checkpoints if cp.image is not None})

    def _pad_sound_to_end(self) -> None:
        """Make the sound track as long as the video.

        Manim ends the track at the last sound, which leaves the tail of a scene silent
        *and missing*: joined scenes would then drift. Overlaying nothing at the video's
        end extends the track with silence.
        """
        writer = getattr(self.renderer, "file_writer", None)
        if writer is not None and getattr(writer, "includes_sound", False) and not self.renderer.skip_animations:
            from pydub import AudioSegment  # what Manim's file writer mixes sound with

            writer.add_audio_segment(AudioSegment.silent(0), time=float(self.renderer.time))

    # -- narration ---------------------------------------------------------------------
    def narrate(self, text: str) -> None:
        """The words of the current section, spoken (or captioned) from now on.

        Call once at the start of a section, with text built from the trace (numbers
        through :func:`attncore.fmt`), so the narration follows the lesson. The section
        is then held until the words are over: the animation waits for the words.
        """
        if any(n.section == self._section for n in self.narrations):
            raise RuntimeError(f"section {self._section!r} is narrated twice")
        # white space made single, a no-break space kept (French « », before : ; ? !)
        text = " ".join(breakable_words(tidy_punctuation(
            narration_override(self.lesson, self.trace, type(self).__name__, self._section) or text)))
        workdir = Path(config.media_dir) / "voice"
        wav = None if self.renderer.skip_animations and not self.voice_in_dry_run else self.voice.speak(
            text, type(self).__name__, self._section, workdir
        )
        if wav is not None:
            speech = wav_seconds(wav)
            self.add_sound(str(wav), time_offset=LEAD)
        else:
            speech = reading_seconds(text)
        start = float(self.renderer.time) + LEAD
        self.narrations.append(Narration(self._section, text, start, speech, wav is not None))

    #: Tests building a scene without rendering may still want the spoken durations.
    voice_in_dry_run: ClassVar[bool] = False

    def _wait_for_words(self, title: str) -> None:
        for n in self.narrations:
            if n.section == title:
                missing = n.start + n.speech + TAIL - float(self.renderer.time)
                if missing > 1e-6:
                    self.wait(missing)

    def caption_cues(self) -> list[Cue]:
        """Caption cues of the whole scene, on its own timeline."""
        return [c for n in self.narrations for c in timed_cues(n.text, n.start, n.speech)]

    def section_times(self) -> list[tuple[str, float, float]]:
        """(title, start, end) in seconds of every section, after ``render``."""
        ends = [t for _, t in self.section_starts[1:]] + [float(self.renderer.time)]
        return [(title, start, end) for (title, start), end in zip(self.section_starts, ends, strict=True)]

    def _checkpoint(self, title: str) -> None:
        if not (self.collect_checkpoints or self.collect_frames):
            return
        cp = Checkpoint(title, [m.copy() for m in self.mobjects] if self.collect_checkpoints else [])
        if self.collect_frames is True or (isinstance(self.collect_frames, frozenset) and title in self.collect_frames):
            camera = cast(Camera, self.renderer.camera)
            camera.reset()
            camera.capture_mobjects(self.mobjects)
            cp.image = camera.get_image().copy()
        self.checkpoints.append(cp)

    # -- header ------------------------------------------------------------------------
    def add_header(self) -> None:
        self.pipeline = PipelineMarker(self.STAGE, self.theme).to_edge(UP, buff=PIPELINE_BUFF)
        self.title = StepTitle(numbered(type(self).__name__, _(self.TITLE) if self.TITLE else ""), self.theme["text"])
        self.title.to_corner(UP + LEFT, buff=HEADER_BUFF).shift(DOWN * TITLE_DROP)
        self.add(self.pipeline, self.title)
        self.formula: Formula | None = None
        if self.FORMULA:
            self.formula = self.header_formula(self.FORMULA)
            self.add(self.formula)
        self._header_shown = True

    def header_formula(self, text: str, highlight: str | None = None) -> Formula:
        """The formula ``text`` placed in the header: top right, its baseline on the title's,
        one size smaller when it would run into the title.

        Baselines, not bounding boxes, are aligned: a "(" or a descender in only one of
        the two texts would otherwise lift it.
        """
        f = self._at_top_right(Formula(text, self.theme, highlight))
        if f.get_left()[0] < self.title.get_right()[0] + FORMULA_GAP:
            f = self._at_top_right(Formula(text, self.theme, highlight, size="body"))
        if f.get_left()[0] < self.title.get_right()[0] + FORMULA_GAP:
            # a long title (German, French: "14 · L'ordre des mots"): the title gives up to a
            # quarter of its size before the scene starts, then the formula narrows to the room left
            room = f.get_left()[0] - FORMULA_GAP - self.title.get_left()[0]
            if not self._header_shown and room > 0:
                self.title.scale(max(MIN_TITLE_SCALE, room / self.title.width), about_edge=LEFT + DOWN)
            room = f.get_right()[0] - (self.title.get_right()[0] + FORMULA_GAP)
            if f.width > room > 0:
                f.scale(room / f.width, about_edge=RIGHT)
        return f.shift(UP * (text_baseline(self.title) - f.baseline()))

    def _at_top_right(self, f: Formula) -> Formula:
        f.to_corner(UP + RIGHT, buff=HEADER_BUFF)
        return f.align_to(self.title, DOWN)

    def light_formula(self, highlight: str | None, text: str | None = None) -> Transform:
        """Animation: move the accent to ``highlight`` (optionally changing the formula)."""
        assert self.formula is not None
        target = self.header_formula(text or self.formula.formula, highlight)
        self.formula.formula = target.formula
        return Transform(self.formula, target)

    def caption(self, text: str, *, color: str | None = None) -> Text:
        """A one-line explanation at the bottom of the frame."""
        text = tidy_punctuation(text)
        self.bottom_captions.append((self._section, text))
        t = label(text, "body", color or self.theme["text"])
        if t.width > config.frame_width - 2 * CAPTION_MARGIN:
            t.scale_to_fit_width(config.frame_width - 2 * CAPTION_MARGIN)
        return t.to_edge(DOWN, buff=CAPTION_BUFF)

    def say(self, text: str, old: Text | None = None) -> Text:
        """Show a bottom caption (replacing ``old``) and wait long enough to read it."""
        new = self.caption(text)
        if old is not None:
            # Drawn last, the old caption is the only mobject Manim redraws besides the
            # new one (it redraws everything after the first moving mobject in drawing
            # order); nothing overlaps a caption, so the frames are the same.
            self.bring_to_front(old)
            self.play(FadeOut(old, shift=UP * 0.2), FadeIn(new, shift=UP * 0.2), run_time=TIME.fade)
        else:
            self.play(FadeIn(new, shift=UP * 0.2), run_time=TIME.fade)
        self.wait(TIME.read(len(text.split()) // 3))
        return new

    # -- pacing ------------------------------------------------------------------------
    def hold(self, n_numbers: int = 0) -> None:
        """Wait long enough to read ``n_numbers`` new numbers."""
        self.wait(TIME.read(n_numbers))

    # -- helpers -----------------------------------------------------------------------
    def ctx(self, k: int = 0) -> ContextTrace:
        return self.trace.contexts[k]

    def claims(self, kind: str | None = None, where: str = "narration", section: str | None = None) -> list[Claim]:
        """The claims of the current section (or of ``section``), said (or shown as ``where="caption"``):
        the facts it may state, computed from the trace by :mod:`attncore.claims`."""
        return section_claims(self.trace, type(self).__name__, section or self._section, kind, where)

    def claim(self, kind: str | None = None, where: str = "narration") -> Claim | None:
        """The first claim of the current section of ``kind`` (None when the lesson does not support it)."""
        found = self.claims(kind, where)
        return found[0] if found else None

    def clear_content(self) -> None:
        """Fade out everything but the header."""
        keep = {self.pipeline, self.title, self.formula}
        rest = [m for m in self.mobjects if m not in keep]
        if rest:
            self.play(*(FadeOut(m) for m in rest), run_time=TIME.fade)


__all__ = ["LEAD", "TAIL", "Narration", "Checkpoint", "LessonScene", "current_trace", "DOWN", "LEFT", "RIGHT", "UP"]
