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

from ..catalog import check_recordings, lecture_index, resolve_scenes, scene_file_of
from ..env import LANGUAGE_ENV, LESSON_ENV
from ..errors import UserError
from ..lessons import output_root
from ..paths import source_file
from ..speech.voices import VoiceError, voice_from_spec
from .cache import cache_key
from .runtime import require_runtime


@dataclass(frozen=True)
class Job:
    """One scene to render. Plain data, so that it can be sent to a worker process."""

    scene: str  # class name
    index: int  # position in the lecture, from 1
    quality: str
    fmt: str
    lesson_spec: str  # path or built-in name ("" for the default)
    root: str  # output root for this lesson (media/ or media/<slug>/)
    key: str
    voice: str = "none"  # none, espeak or recorded:FOLDER
    style: str = "dark"  # dark or light (--theme)
    language: str = ""  # --language ("": the lesson's own)
    tag: str = ""  # what the progress display puts before the scene (a batch: the lesson's name)
    file: str = ""  # a scene file of the lecturer's own: its absolute path ("" for a scene of the lecture)

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
    narration: list[dict[str, Any]] = field(default_factory=list)  # {"section", "text", "start_s", "speech_s", "spoken"}
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


def plan(lesson: Lesson, spec: str, names: Sequence[str], quality: str, fmt: str, media: Path,
         voice: str = "none", style: str = "dark") -> list[Job]:
    """Jobs for the named scenes (all when none), each with its cache key.

    Checks first that the system parts the render needs are present (the same line as
    ``attnvid doctor`` when one is not), before anything is written.
    """
    require_runtime(voice, lesson.language)
    fingerprint = voice_fingerprint(voice, lesson)
    os.environ[LESSON_ENV] = spec
    root = str(output_root(lesson, media, style))
    scenes = resolve_scenes(names)
    check_recordings(voice, scenes)  # every missing WAV in one line, before any render starts
    return [
        Job(scene=c.__name__, index=lecture_index(c), quality=quality, fmt=fmt, lesson_spec=spec, root=root,
            key=cache_key(source_file(c), repr(lesson) + catalogue_digest(lesson.language, lesson.catalogue), quality, fmt, fingerprint, style), voice=voice,
            style=style, language=os.environ.get(LANGUAGE_ENV, ""), file=scene_file_of(c))
        for c in scenes
    ]


def default_jobs() -> int:
    """How many scenes render at once by default: the cores this process may use."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))
