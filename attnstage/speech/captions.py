"""Captions: cue text cut to broadcast limits, cue timing, SRT and WebVTT files.

Each section's narration (see :meth:`scenes.base.LessonScene.narrate`) is cut into
cues of at most two lines of 42 characters, spread over the time the words take, so
captions are in sync with the speech by construction. Manim-free: the scenes import it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from attncore.bidi import directed
from attncore.i18n import breakable_words, language

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
#: Chinese is written without spaces and read by character: a line holds at most 16
#: characters (Netflix's guideline for Simplified Chinese), read at 9 characters a second.
MAX_CJK_CHARS, CJK_PER_SECOND = 16, 9.0
#: A CJK ideograph, kana or hangul, or full-width punctuation.
_CJK = re.compile(r"[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef]")


@dataclass(frozen=True)
class Cue:
    start: float
    end: float
    text: str  # at most MAX_LINES lines of at most MAX_CHARS characters


def is_cjk(text: str) -> bool:
    """Whether ``text`` is mostly Chinese (or Japanese, Korean): cut and timed by character."""
    letters = [c for c in text if not c.isspace()]
    return bool(letters) and sum(1 for c in letters if _CJK.match(c)) >= len(letters) / 3


def reading_seconds(text: str) -> float:
    """Time to read ``text`` comfortably: 3 words or 17 characters a second (Chinese: 9
    characters a second)."""
    if is_cjk(text):
        return len("".join(breakable_words(text))) / CJK_PER_SECOND
    words = len(breakable_words(text))
    return max(words / 3.0, len(text) / 17.0)


def _wrap(words: list[str]) -> list[str]:
    lines: list[str] = []
    for w in words:
        if lines and len(lines[-1]) + 1 + len(w) <= MAX_CHARS:
            lines[-1] += " " + w
        else:
            lines.append(w)
    return lines


#: Quotation marks that open and close a quote (English, French, German, Spanish, straight).
_OPEN_QUOTE, _CLOSE_QUOTE = set("“«„‘‹"), set("”»“’›")
#: Where a clause ends: a cue may end after one of these.
_CLAUSE_END = (",", ";", ":", "—", "–", "،", "؛")


def _inside_quote(words: list[str]) -> list[bool]:
    """For each word, whether a cut after it would fall inside a quotation (“…”, « … », „…“)."""
    depth, out = 0, []
    for w in words:
        for ch in w:
            # „ opens German quotes closed by “, which opens English ones: a “ closes only when open
            if ch in _OPEN_QUOTE and not (ch == "“" and depth > 0):
                depth += 1
            elif ch in _CLOSE_QUOTE and depth > 0:
                depth -= 1
        out.append(depth > 0)
    return out


def _cue_length(words: list[str]) -> int:
    """How many of ``words`` the next cue takes.

    At most what fits in two lines. When the words do not all fit, the cut goes where a reader
    pauses: after a clause end (comma, semicolon, colon, dash) outside a quotation, searched back
    to half of the cue; else at any word outside a quotation in that range; and when what would
    be left is short (a lone tail that would flash by), the words are shared between two cues of
    about equal length instead of a full cue and a scrap.
    """
    n = len(words)
    while n > 1 and len(_wrap(words[:n])) > MAX_LINES:
        n -= 1
    if n == len(words):
        return n
    quoted = _inside_quote(words)
    low = max(1, n // 2)
    for k in range(n, low - 1, -1):
        if words[k - 1].endswith(_CLAUSE_END) and not quoted[k - 1]:
            return k
    rest = words[n:]
    if len(_wrap(rest)) <= MAX_LINES and len(" ".join(rest)) < MAX_CHARS * MAX_LINES // 3:
        # the rest fits one cue but is a scrap: two cues of about half the words each
        half = (len(words) + 1) // 2
        for k in [half + i for j in range(len(words)) for i in (j, -j)]:
            if low <= k <= n and not quoted[k - 1]:
                return k
        return min(n, half)
    for k in range(n, low - 1, -1):
        if not quoted[k - 1]:
            return k
    return n


def _cjk_cues(text: str) -> list[str]:
    """Chinese cut into cues of two lines of at most :data:`MAX_CJK_CHARS` characters: sentence
    ends first (。！？), then clause ends (，、；：) in the last third of a cue; a run of Latin
    letters or digits (a number, a matrix name) is never cut."""
    units = re.findall(r"[A-Za-z0-9_.,\u2212+\-√·ᵀ]+|\s+|.", " ".join(breakable_words(text)))
    cues: list[str] = []
    line_room = MAX_CJK_CHARS
    cue: list[str] = []
    for u in units:
        cue.append(u)
        body = "".join(cue).strip()
        ends = u in "。！？!?"
        if ends or (len(body) > MAX_LINES * line_room and u not in _CLOSING):
            if not ends and len(cue) > 1:
                # back to the last clause end in the last third, else just before this unit
                cut = next((k for k in range(len(cue) - 1, (2 * len(cue)) // 3, -1) if cue[k - 1] in "，、；：,;:"),
                           len(cue) - 1)
                while cut > 1 and cue[cut - 1] in _OPENING:  # an opening mark goes with what it opens
                    cut -= 1
                rest, cue = cue[cut:], cue[:cut]
            else:
                rest = []
            body = "".join(cue).strip()
            if body:
                cues.append(body)
            cue = [r for r in rest if not r.isspace()] if rest else []
    if "".join(cue).strip():
        cues.append("".join(cue).strip())
    return ["\n".join(_cjk_lines(c)) for c in cues]


#: Punctuation that never starts a line or a cue (it stays with what it closes).
_CLOSING = set("，。、；：！？”’）》」』,.;:!?)")
#: Punctuation that never ends a line or a cue (it goes with what it opens).
_OPENING = set("“‘（《「『(")


def _cjk_lines(cue: str) -> list[str]:
    """A cue in lines of at most :data:`MAX_CJK_CHARS` characters, a Latin run never cut."""
    lines = [""]
    for u in re.findall(r"[A-Za-z0-9_.,\u2212+\-√·ᵀ]+|.", cue):
        if len(lines[-1]) + len(u) > MAX_CJK_CHARS and lines[-1].strip() and u not in _CLOSING:
            carry = ""
            while lines[-1] and lines[-1][-1] in _OPENING:
                carry, lines[-1] = lines[-1][-1] + carry, lines[-1][:-1]
            lines.append(carry)
        lines[-1] += u
    return [line.strip() for line in lines if line.strip()]


def _sentences(text: str) -> list[str]:
    """``text`` cut after each sentence end (. ! ? …, a closing quotation mark after it too) that
    is not inside a quotation and is followed by a word that does not start in lower case: a
    quoted sentence stays with the sentence that quotes it ("he asked “why?” and left")."""
    words = text.split(" ")
    quoted = _inside_quote(words)
    out: list[list[str]] = [[]]
    for k, (w, q) in enumerate(zip(words, quoted, strict=True)):
        out[-1].append(w)
        after = words[k + 1] if k + 1 < len(words) else ""
        if not q and re.search(r"[.!?…؟][”»\"’)]*$", w) and not after[:1].islower():
            out.append([])
    return [" ".join(s) for s in out if s]


def split_cues(text: str) -> list[str]:
    """Cut ``text`` into caption cues of at most two lines of at most 42 characters (Chinese:
    :func:`_cjk_cues`).

    Cuts prefer sentence ends, then clause ends; a word longer than a line is kept whole
    (it cannot be cut), which only happens for very long single words. A line mixing
    directions begins with the language's invisible direction mark (:func:`_directed`).
    """
    if is_cjk(text):
        return _directed(_cjk_cues(text))
    sentences = _sentences(" ".join(breakable_words(text)))
    cues: list[str] = []
    for sentence in sentences:
        words = breakable_words(sentence)
        while words:
            n = _cue_length(words)
            cues.append("\n".join(_wrap(words[:n])))
            words = words[n:]
    return _directed(cues)


def _directed(cues: list[str]) -> list[str]:
    """Each line of ``cues`` that holds letters of both directions led by the language's direction
    mark (:func:`attncore.bidi.directed`): a player gives a line the direction of its first letter,
    so an English line opening with an Arabic word would otherwise read from the right."""
    return ["\n".join(directed(line, language()) for line in cue.split("\n")) for cue in cues]


#: The shortest a cue is shown, where the speech leaves time for it (a cue that flashes by for
#: a second cannot be read; BBC subtitle guidelines ask for at least 1.5 s, speech allowing).
MIN_CUE_SECONDS = 1.5


def timed_cues(text: str, start: float, speech: float) -> list[Cue]:
    """Cues of ``text`` spread over ``[start, start + speech]`` by their length, each shown at
    least :data:`MIN_CUE_SECONDS` where the speech is long enough for all of them."""
    parts = split_cues(text)
    weights = [float(len(p) + 8) for p in parts]  # a constant per cue: short cues still get time
    durations = _durations(weights, speech, MIN_CUE_SECONDS)
    out, t = [], start
    for p, d in zip(parts, durations, strict=True):
        out.append(Cue(round(t, 3), round(t + d, 3), p))
        t += d
    return out


def _durations(weights: list[float], total: float, least: float) -> list[float]:
    """``total`` shared in proportion to ``weights``, no share below ``least`` (when ``total``
    allows it): the short ones raised to ``least``, the rest shared by the others.

    >>> [round(d, 2) for d in _durations([50, 10], 5.0, 1.5)]
    [3.5, 1.5]
    >>> [round(d, 2) for d in _durations([50, 10], 2.0, 1.5)]
    [1.67, 0.33]
    """
    if not weights:
        return []
    if total < least * len(weights):
        return [total * w / sum(weights) for w in weights]
    fixed: set[int] = set()
    while True:
        free = total - least * len(fixed)
        rest = sum(w for k, w in enumerate(weights) if k not in fixed)
        out = [least if k in fixed else free * w / rest for k, w in enumerate(weights)]
        short = {k for k, d in enumerate(out) if d < least - 1e-9} - fixed
        if not short:
            return out
        fixed |= short


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
