"""Captions: cue text cut to broadcast limits, cue timing, SRT and WebVTT files.

Each section's narration (see :meth:`scenes.base.LessonScene.narrate`) is cut into
cues of at most two lines of 42 characters, spread over the time the words take, so
captions are in sync with the speech by construction. Manim-free: the scenes import it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "MAX_CHARS",
    "MAX_LINES",
    "Cue",
    "compose_srt",
    "compose_vtt",
    "reading_seconds",
    "split_cues",
    "timed_cues",
    "vtt_time",
]

MAX_CHARS = 42  # per caption line (the usual broadcast limit)
MAX_LINES = 2


@dataclass(frozen=True)
class Cue:
    start: float
    end: float
    text: str  # at most MAX_LINES lines of at most MAX_CHARS characters


def reading_seconds(text: str) -> float:
    """Time to read ``text`` comfortably: 3 words or 17 characters a second."""
    words = len(text.split())
    return max(words / 3.0, len(text) / 17.0)


def _wrap(words: list[str]) -> list[str]:
    lines: list[str] = []
    for w in words:
        if lines and len(lines[-1]) + 1 + len(w) <= MAX_CHARS:
            lines[-1] += " " + w
        else:
            lines.append(w)
    return lines


def _cue_length(words: list[str]) -> int:
    """How many of ``words`` the next cue takes: as many as fit in two lines, ending
    after a comma or dash within the last third when there is one."""
    n = len(words)
    while n > 1 and len(_wrap(words[:n])) > MAX_LINES:
        n -= 1
    if n < len(words):
        for k in range(n, max(1, (2 * n) // 3) - 1, -1):
            if words[k - 1].endswith((",", "—", "–")):
                return k
    return n


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
            n = _cue_length(words)
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


def _timestamp(t: float, sep: str) -> str:
    """``HH:MM:SS<sep>mmm``: SRT separates milliseconds with a comma, WebVTT with a dot."""
    ms = int(round(t * 1000))
    h, rem = divmod(ms, 3_600_000)
    m, rem = divmod(rem, 60_000)
    s, ms = divmod(rem, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}{sep}{ms:03d}"


def vtt_time(t: float) -> str:
    """A WebVTT timestamp, ``HH:MM:SS.mmm``."""
    return _timestamp(t, ".")


def compose_srt(cues: list[Cue]) -> str:
    return "".join(f"{k}\n{_timestamp(c.start, ',')} --> {_timestamp(c.end, ',')}\n{c.text}\n\n"
                   for k, c in enumerate(cues, 1))


def compose_vtt(cues: list[Cue]) -> str:
    return "WEBVTT\n\n" + "".join(f"{vtt_time(c.start)} --> {vtt_time(c.end)}\n{c.text}\n\n" for c in cues)
