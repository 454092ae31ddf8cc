"""Voices: who speaks a section's narration, and the WAV file that results.

Each section of a scene calls ``self.narrate(text)`` (see :mod:`scenes.base`) with text
built from the trace, so the words follow the lesson. The scene then lasts at least as
long as the words need: the speech when a voice speaks them, a comfortable reading time
(:func:`attnvid.captions.reading_seconds`) otherwise.

Voices are pluggable (:class:`Voice`): ``none`` (silent, captions only), ``espeak``
(espeak-ng, offline) and ``recorded:FOLDER`` (the lecturer's own WAV per section,
named ``<Scene>__<section-slug>.wav``). A new engine is a class with ``speak`` and
``fingerprint`` here, plus a name for it in :func:`voice_from_spec`. The name reaches
worker processes through :data:`attnvid.env.VOICE_ENV`. Manim-free: the scenes import it.

Why not manim-voiceover: its timing relies on word-boundary bookmarks that espeak does
not provide, its pyttsx3 route is unreliable on Linux, and we only need one clip per
section, placed at the section's start, which Manim's own ``add_sound`` does.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import wave
from collections.abc import Iterable
from pathlib import Path
from typing import Protocol

from attncore.narration import section_slug

__all__ = [
    "EspeakVoice",
    "NoVoice",
    "RecordedVoice",
    "Voice",
    "VoiceError",
    "recording_name",
    "section_slug",
    "voice_from_spec",
    "wav_seconds",
]


class VoiceError(RuntimeError):
    """A voice that cannot speak here (missing program, missing recording)."""


def wav_seconds(path: Path) -> float:
    with wave.open(str(path), "rb") as w:
        return w.getnframes() / float(w.getframerate())


class Voice(Protocol):
    """Something that turns a section's narration into a WAV file (or nothing)."""

    name: str

    def speak(self, text: str, scene: str, section: str, workdir: Path) -> Path | None:
        """A WAV with the spoken ``text``, or None for silence."""
        ...

    def fingerprint(self) -> str:
        """What identifies this voice's output, for the render cache."""
        ...


class NoVoice:
    name = "none"

    def speak(self, text: str, scene: str, section: str, workdir: Path) -> Path | None:
        return None

    def fingerprint(self) -> str:
        return "none"


class EspeakVoice:
    """espeak-ng from Debian (``apt-get install espeak-ng``): offline and deterministic."""

    name = "espeak"

    def __init__(self, language: str = "en-us", words_per_minute: int = 185) -> None:
        self.language = language
        self.wpm = words_per_minute

    def _program(self) -> str:
        exe = shutil.which("espeak-ng")
        if exe is None:
            raise VoiceError("espeak-ng is not installed; install it with: apt-get install -y espeak-ng")
        return exe

    def speak(self, text: str, scene: str, section: str, workdir: Path) -> Path | None:
        exe = self._program()
        digest = hashlib.sha256(f"{self.language}|{self.wpm}|{text}".encode()).hexdigest()[:16]
        out = workdir / f"espeak-{digest}.wav"
        if not out.exists():
            workdir.mkdir(parents=True, exist_ok=True)
            tmp = out.with_name(f".{out.name}.part")
            subprocess.run([exe, "-v", self.language, "-s", str(self.wpm), "-w", str(tmp), text],
                           check=True, capture_output=True)
            os.replace(tmp, out)
        return out

    def fingerprint(self) -> str:
        try:
            v = subprocess.run([self._program(), "--version"], capture_output=True, text=True).stdout.strip()
        except VoiceError:
            v = "missing"
        return f"espeak|{self.language}|{self.wpm}|{v}"


class RecordedVoice:
    """The lecturer's recordings: ``FOLDER/<Scene>__<section-slug>.wav`` for every section."""

    name = "recorded"

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def path(self, scene: str, section: str) -> Path:
        return self.folder / recording_name(scene, section)

    def missing(self, sections: Iterable[tuple[str, str]]) -> list[Path]:
        """The recordings of ``(scene, section title)`` pairs that are not in the folder, in order."""
        return [p for p in (self.path(scene, title) for scene, title in sections) if not p.is_file()]

    def speak(self, text: str, scene: str, section: str, workdir: Path) -> Path | None:
        p = self.path(scene, section)
        if not p.is_file():
            raise VoiceError(f"no recording {p} for section {section!r} of {scene}; record it as a WAV file there")
        return p

    def fingerprint(self) -> str:
        h = hashlib.sha256()
        for p in sorted(self.folder.glob("*.wav")):
            h.update(p.name.encode())
            h.update(p.read_bytes())
        return f"recorded|{h.hexdigest()}"


def recording_name(scene: str, section: str) -> str:
    """The WAV file a section's recording is read from: ``Softmax__divide-by-the-sum.wav``."""
    return f"{scene}__{section_slug(section)}.wav"


def voice_from_spec(spec: str | None, language: str = "en") -> Voice:
    """``none`` (default), ``espeak`` or ``recorded:FOLDER``."""
    spec = (spec or "none").strip()
    if spec == "none":
        return NoVoice()
    if spec == "espeak":
        return EspeakVoice(language={"en": "en-us"}.get(language, language))
    if spec.startswith("recorded:"):
        folder = Path(spec[len("recorded:"):]).expanduser()
        if not folder.is_dir():
            what = "is a file, not a folder" if folder.exists() else "does not exist"
            raise VoiceError(f"recordings folder {folder} {what}; give recorded:FOLDER with one WAV per section "
                             "(attnvid script lists them)")
        return RecordedVoice(folder)
    raise VoiceError(f"unknown voice {spec!r}; use none, espeak or recorded:FOLDER")
