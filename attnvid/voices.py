"""Narration: voices, caption cues and caption files.

Each section of a scene calls ``self.narrate(text)`` (see :mod:`scenes.base`) with text
built from the trace, so the words follow the lesson. The scene then lasts at least as
long as the words need: the speech when a voice speaks them, a comfortable reading time
otherwise. Captions are cut from the same text, so they are in sync by construction.

Voices are pluggable (:class:`Voice`): ``none`` (silent, captions only), ``espeak``
(espeak-ng, offline) and ``recorded:FOLDER`` (the lecturer's own WAV per section,
named ``<Scene>__<section-slug>.wav``). A new engine implements ``speak``.

Why not manim-voiceover: its timing relies on word-boundary bookmarks that espeak does
not provide, its pyttsx3 route is unreliable on Linux, and we only need one clip per
section, placed at the section's start, which Manim's own ``add_sound`` does.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import wave
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

__all__ = [
    "VOICE_ENV",
    "Cue",
    "EspeakVoice",
    "NoVoice",
    "RecordedVoice",
    "Voice",
    "VoiceError",
    "compose_srt",
    "compose_vtt",
    "reading_seconds",
    "section_slug",
    "split_cues",
    "voice_from_spec",
]

#: Environment variable naming the voice for scenes rendered in worker processes.
VOICE_ENV = "ATTNVID_VOICE"
MAX_CHARS = 42  # per caption line (the usual broadcast limit)
MAX_LINES = 2


class VoiceError(RuntimeError):
    """A voice that cannot speak here (missing program, missing recording)."""


@dataclass(frozen=True)
class Cue:
    start: float
    end: float
    text: str  # at most MAX_LINES lines of at most MAX_CHARS characters


def section_slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()


def reading_seconds(text: str) -> float:
    """Time to read ``text`` comfortably: 3 words or 17 characters a second."""
    words = len(text.split())
    return max(words / 3.0, len(text) / 17.0)


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
        return self.folder / f"{scene}__{section_slug(section)}.wav"

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
            raise VoiceError(f"recordings folder {folder} does not exist; give recorded:FOLDER with one WAV per section")
        return RecordedVoice(folder)
    raise VoiceError(f"unknown voice {spec!r}; use none, espeak or recorded:FOLDER")


def _wrap(words: list[str]) -> list[str]:
    lines: list[str] = []
    for w in words:
        if lines and len(lines[-1]) + 1 + len(w) <= MAX_CHARS:
            lines[-1] += " " + w
        else:
            lines.append(w)
    return lines


def split_cues(text: str) -> list[str]:
    """Cut ``text`` into caption cues of at most two lines of at most 42 characters.

    Cuts prefer sentence ends, then clause ends; a word longer than a line is kept whole
    (it cannot be cut), which only happens for very long single words.
    """
    sentences = re.split(r"(?<=[.!?])\s+", " ".join(text.split()))
    cues: list[str] = []
    for sentence in sentences:
        words = sentence.split()
        while words:
            # Take as many words as fit in two lines.
            n = len(words)
            while n > 1 and len(_wrap(words[:n])) > MAX_LINES:
                n -= 1
            if n < len(words):
                # Prefer to end the cue after a comma within the last third.
                for k in range(n, max(1, (2 * n) // 3) - 1, -1):
                    if words[k - 1].endswith((",", "—", "–")):
                        n = k
                        break
            cues.append("\n".join(_wrap(words[:n])))
            words = words[n:]
    return cues


def timed_cues(text: str, start: float, speech: float) -> list[Cue]:
    """Cues of ``text`` spread over ``[start, start + speech]`` by their length."""
    parts = split_cues(text)
    weights = [len(p) + 8 for p in parts]  # a constant per cue: short cues still get time
    total = float(sum(weights))
    out, t = [], start
    for p, w in zip(parts, weights, strict=True):
        d = speech * w / total
        out.append(Cue(round(t, 3), round(t + d, 3), p))
        t += d
    return out


def _ts(t: float, sep: str) -> str:
    ms = int(round(t * 1000))
    h, rem = divmod(ms, 3_600_000)
    m, rem = divmod(rem, 60_000)
    s, ms = divmod(rem, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}{sep}{ms:03d}"


def compose_srt(cues: list[Cue]) -> str:
    return "".join(f"{k}\n{_ts(c.start, ',')} --> {_ts(c.end, ',')}\n{c.text}\n\n" for k, c in enumerate(cues, 1))


def compose_vtt(cues: list[Cue]) -> str:
    return "WEBVTT\n\n" + "".join(f"{_ts(c.start, '.')} --> {_ts(c.end, '.')}\n{c.text}\n\n" for c in cues)
