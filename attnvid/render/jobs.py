"""Job planning: which scenes to render, where to, and each one's cache key.

A :class:`Job` is plain data, sent to a worker process; a :class:`Result` comes back.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from attncore import Lesson
from attncore.i18n import catalogue_digest
from attnstage.settings import DEFAULTS, SceneSettings
from attnstage.speech.voices import VoiceError, voice_from_spec

from ..catalog import check_recordings, lecture_index, resolve_scenes, scene_file_of
from ..errors import UserError
from ..lessons import output_root
from ..paths import source_file
from .cache import cache_key
from .runtime import require_runtime


@dataclass(frozen=True)
class Job:
    """One scene to render. Plain data, so that it can be sent to a worker process."""

    scene: str  # class name
    index: int  # position in the lecture, from 1
    fmt: str
    root: str  # output root for this lesson (media/ or media/<slug>/)
    key: str
    #: What the scene is drawn with: lesson, voice, style (settled: dark or light), language, quality.
    settings: SceneSettings = DEFAULTS
    tag: str = ""  # what the progress display puts before the scene (a batch: the lesson's name)
    file: str = ""  # a scene file of the lecturer's own: its absolute path ("" for a scene of the lecture)

    @property
    def quality(self) -> str:
        return self.settings.quality

    @property
    def label(self) -> str:
        """How the progress display names this job: ``Softmax``, or ``bank/Softmax`` in a batch."""
        return f"{self.tag}/{self.scene}" if self.tag else self.scene

    @property
    def stem(self) -> str:
        return f"{self.index:02d}_{self.scene}"

    @property
    def out_dir(self) -> Path:
        return Path(self.root) / "scenes" / self.quality

    @property
    def final(self) -> Path:
        """The video file (or, for png, the folder of frames)."""
        return self.out_dir / (self.stem if self.fmt == "png" else f"{self.stem}.{self.fmt}")

    @property
    def sidecar(self) -> Path:
        return self.out_dir / f"{self.stem}.{self.fmt}.json"

    @property
    def work(self) -> Path:
        return Path(self.root) / ".work" / self.quality / self.fmt / self.scene

    def caption_file(self, ext: str) -> Path:
        return self.out_dir / f"{self.stem}.{ext}"

    @property
    def captions(self) -> list[str]:
        """The paths of the scene's .srt and .vtt captions."""
        return [str(self.caption_file(e)) for e in ("srt", "vtt")]


@dataclass
class Result:
    scene: str
    path: str
    seconds: float  # wall time spent (0 when cached)
    cached: bool
    duration: float  # seconds of video
    sections: list[dict[str, Any]] = field(default_factory=list)  # {"title", "start_s", "end_s"}
    narration: list[dict[str, Any]] = field(
        default_factory=list
    )  # {"section", "text", "start_s", "speech_s", "spoken"}
    cues: list[dict[str, Any]] = field(default_factory=list)  # {"start", "end", "text"}
    captions: list[str] = field(default_factory=list)  # paths of the .srt and .vtt
    worker: str = ""  # the cluster worker that rendered it ("" for this machine)


def result_json(r: Result) -> dict[str, Any]:
    return asdict(r)


def voice_fingerprint(voice: str, lesson: Lesson) -> str:
    """Fail early, in one line, when the voice cannot speak here; return its cache fingerprint."""
    try:
        return voice_from_spec(voice, lesson.language).fingerprint()
    except VoiceError as exc:
        raise UserError(str(exc), code=1) from None


def plan(lesson: Lesson, settings: SceneSettings, names: Sequence[str], fmt: str, media: Path) -> list[Job]:
    """Jobs for the named scenes (all when none), each with its cache key, drawn with
    ``settings`` (their style settled with the lesson's).

    Checks first that the system parts the render needs are present (the same line as
    ``attnvid doctor`` when one is not), before anything is written.
    """
    settings = settings.with_style(lesson.style)
    require_runtime(settings.voice, lesson.language)
    fingerprint = voice_fingerprint(settings.voice, lesson)
    root = str(output_root(lesson, media, settings))
    scenes = resolve_scenes(names)
    check_recordings(settings.voice, scenes)  # every missing WAV in one line, before any render starts
    lesson_key = repr(lesson) + catalogue_digest(lesson.language, lesson.catalogue)
    return [
        Job(scene=c.__name__, index=lecture_index(c), fmt=fmt, root=root, settings=settings,
            key=cache_key(source_file(c), lesson_key, settings.quality, fmt, fingerprint, settings.style),
            file=scene_file_of(c))
        for c in scenes
    ]


def default_jobs() -> int:
    """How many scenes render at once by default: the cores this process may use."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))
