"""Assembling the lecture folder: one MP4 with chapters, WebVTT chapters, posters, section
clips, one MP4 per part (with its chapters and captions), the deck, the handout, the
workbook, the exercises (sheet and Moodle quizzes), the manifest and the page.

Joining uses PyAV's stream copy (packets are re-timed, never re-encoded): the scenes
come from the same encoder settings, so their H.264 streams can follow each other.
The MP4 is written with ``movflags=+faststart`` (moov before mdat) so that a browser
starts playing before the whole file has arrived, and with one chapter per section.
Every section is also cut into a clip of its own (:mod:`attnvid.publish.clips`, stream copy
too), which the deck (:mod:`attnvid.publish.deck`) plays and whose last frame the handout
(:mod:`attnvid.publish.handout`) prints.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import av
from av.audio.stream import AudioStream
from av.container import OutputContainer
from av.packet import Packet
from av.stream import Stream
from av.video.stream import VideoStream

from attncore import Lesson, trace_lesson
from attncore.exercises import make_exercises
from attncore.i18n import _, use
from attnstage.settings import DEFAULT_STYLE
from attnstage.speech.captions import Cue, compose_srt, compose_vtt, vtt_time
from attnstage.speech.voices import voice_engine

from ..catalog import lecture_parts, numbered
from ..outputs import atomic_path, write_atomic
from ..render.jobs import Job, Result
from .clips import SectionClip, chapter_title, last_frame, shown, write_section_clips
from .deck import DECK_NAME, DeckPart, write_deck
from .handout import HANDOUT_NAME, write_handout
from .page import lecture_page, write_page_assets
from .playground import PLAYGROUND_NAME, playground_page, playground_panel
from .quiz import write_exercise_files
from .selfcheck import self_check_section
from .workbook import WORKBOOK_NAME, write_workbook


@dataclass(frozen=True)
class Chapter:
    title: str
    start_s: float
    end_s: float


def chapters_for(results: Sequence[Result], titles: Sequence[str]) -> list[Chapter]:
    """One chapter per section, on the lecture's timeline (scene offsets added), titled in the
    current language (``titles`` and the sections' titles are the English ones, translated here)."""
    out = []
    offset = 0.0
    for r, scene_title in zip(results, titles, strict=True):
        for s in r.sections:
            out.append(
                Chapter(chapter_title(r.scene, scene_title, s["title"]), offset + s["start_s"], offset + s["end_s"])
            )
        offset += r.duration
    return out


def _time_base(stream: Stream) -> Fraction:
    if stream.time_base is None:
        raise RuntimeError(f"stream {stream.index} has no time base")
    return stream.time_base


class _Joined:
    """The MP4 :func:`join_videos` writes, and where the next part starts on its timeline."""

    def __init__(self, dst: OutputContainer) -> None:
        self.dst = dst
        self.outputs: dict[str, Stream] = {}  # "video" and (with sound) "audio": the output streams
        self.video_tb: Fraction | None = None  # the parts' video time base (all must share it)
        self.offset_s = Fraction(0)
        self.last_audio_dts: int | None = None

    def add(self, path: Path) -> None:
        """Append the part at ``path``, its packets re-timed to follow what is already there."""
        with av.open(str(path)) as src:
            iv = src.streams.video[0]
            ia = src.streams.audio[0] if src.streams.audio else None
            tb = self._streams_for(path, iv, ia)
            part_end = self.offset_s + iv.duration * tb if iv.duration else None
            v_end = self.offset_s
            for pkt in src.demux(*([iv] + ([ia] if ia is not None else []))):
                end = self._mux(pkt, part_end)
                if end is not None:
                    v_end = max(v_end, end)
            self.offset_s = self.offset_s + iv.duration * tb if iv.duration else v_end

    def _streams_for(self, path: Path, iv: VideoStream, ia: AudioStream | None) -> Fraction:
        """Create the output streams from the first part; check that later parts match them."""
        if not self.outputs:
            self.outputs["video"] = self.dst.add_stream_from_template(iv)
            self.video_tb = _time_base(iv)
            if ia is not None:
                self.outputs["audio"] = self.dst.add_stream_from_template(ia)
        if (ia is None) != ("audio" not in self.outputs):
            raise RuntimeError(f"{path}: some scenes have sound and others not; render them with one --voice")
        assert self.video_tb is not None
        if iv.time_base != self.video_tb:
            raise RuntimeError(f"{path} has time base {iv.time_base}, expected {self.video_tb}; re-render it")
        return self.video_tb

    def _mux(self, pkt: Packet[Stream], part_end: Fraction | None) -> Fraction | None:
        """Write one packet at its place on the lecture's timeline; a video packet's end (s)."""
        if pkt.dts is None or pkt.pts is None:  # the flush packet
            return None
        tb = _time_base(pkt.stream)
        shift = round(self.offset_s / tb)
        pkt.pts += shift
        pkt.dts += shift
        if pkt.stream.type == "video":
            end = (pkt.pts + (pkt.duration or 0)) * tb
            pkt.stream = self.outputs["video"]
            self.dst.mux(pkt)
            return end
        # A scene's sound runs up to one AAC frame (21 ms) past its last video frame, and
        # the next scene's first audio frame starts a little before zero (encoder
        # priming): drop what would overlap, so that audio timestamps keep increasing
        # across the joins.
        if part_end is not None and pkt.pts * tb >= part_end:
            return None
        if self.last_audio_dts is not None and pkt.dts <= self.last_audio_dts:
            return None
        self.last_audio_dts = pkt.dts
        pkt.stream = self.outputs["audio"]
        self.dst.mux(pkt)
        return None

    def set_chapters(self, chapters: Sequence[Chapter]) -> None:
        tb = self.video_tb
        assert tb is not None, "no part was added"
        self.dst.set_chapters([
            {"id": k + 1, "start": round(Fraction(c.start_s) / tb), "end": round(Fraction(c.end_s) / tb),
             "time_base": tb, "metadata": {"title": c.title}}
            for k, c in enumerate(chapters)
        ])


def join_videos(parts: Sequence[Path], out: Path, chapters: Sequence[Chapter]) -> float:
    """Concatenate MP4s without re-encoding into ``out`` (atomically); return its duration in s.

    Video and (when present) audio packets are copied; each part starts where the
    previous part's *video* ends, so sound stays on the frames it belongs to.
    """
    with atomic_path(out) as tmp, av.open(str(tmp), "w", format="mp4", options={"movflags": "+faststart"}) as dst:
        joined = _Joined(dst)
        for path in parts:
            joined.add(path)
        joined.set_chapters(chapters)
    return float(joined.offset_s)


def lecture_cues(results: Sequence[Result]) -> list[Cue]:
    """Every scene's caption cues on the lecture's timeline."""
    out, offset = [], 0.0
    for r in results:
        out += [Cue(round(c["start"] + offset, 3), round(c["end"] + offset, 3), c["text"]) for c in r.cues]
        offset += r.duration
    return out


def narration_markdown(title: str, results: Sequence[Result], scene_titles: Sequence[str]) -> str:
    """The whole narration as one readable file, for proofreading."""
    lines = [
        f"# {title}: narration",
        "",
        "Generated by `attnvid lecture` from the scenes; edit the scenes, not this file.",
        "",
    ]
    offset = 0.0
    for r, st in zip(results, scene_titles, strict=True):
        said = [n for n in r.narration if n["text"].strip()]  # no heading without words under it
        if said:
            lines += [f"## {numbered(r.scene, st)}", ""]
        for n in said:
            lines += [f"### {n['section']} ({vtt_time(offset + n['start_s'])[3:8]})", "", n["text"], ""]
        offset += r.duration
    return "\n".join(lines)


def chapters_vtt(chapters: Sequence[Chapter]) -> str:
    lines = ["WEBVTT", "Kind: chapters", ""]
    for k, c in enumerate(chapters, 1):
        lines += [f"chapter-{k}", f"{vtt_time(c.start_s)} --> {vtt_time(c.end_s)}", c.title, ""]
    return "\n".join(lines)


def poster(video: Path, out: Path) -> None:
    """The last frame of ``video`` as a PNG (the scene's finished state)."""
    last_frame(video, out)


def write_manifest(folder: Path, manifest: dict[str, Any]) -> None:
    write_atomic(folder / "manifest.json", json.dumps(manifest, indent=1, ensure_ascii=False).encode())


def lecture_manifest(lesson: Lesson, quality: str, duration: float, chapters: Sequence[Chapter], posters: list[str],
                     voice: str, sections: Sequence[SectionClip] = (),
                     parts: Sequence[dict[str, Any]] = (), exercises: dict[str, Any] | None = None,
                     style: str = DEFAULT_STYLE) -> dict[str, Any]:
    """The lecture folder's ``manifest.json`` (paths relative to the folder)."""
    return {
        "title": lesson.title,
        "quality": quality,
        "style": style,  # dark or light (--theme): the video's, the deck's and the page's; the handout prints light
        "duration_s": round(duration, 6),
        "video": "lecture.mp4",
        "chapters": [{"title": c.title, "start_s": round(c.start_s, 6), "end_s": round(c.end_s, 6)} for c in chapters],
        "chapters_vtt": "chapters.vtt",
        "posters": posters,
        "page": "index.html",
        "captions": [
            {"path": "captions.vtt", "format": "vtt", "lang": lesson.language, "label": _("Captions")},
            {"path": "captions.srt", "format": "srt", "lang": lesson.language, "label": _("Captions")},
        ],
        "narration": "narration.md",
        "workbook": WORKBOOK_NAME,
        "slides": DECK_NAME,
        "handout": HANDOUT_NAME,
        **({"exercises": exercises} if exercises else {}),  # exercises.pdf, quiz.gift, quiz.xml
        "playground": PLAYGROUND_NAME,
        "sections": [s.manifest() for s in sections],
        "parts": list(parts),
        "voice": voice_engine(voice),
    }


PARTS_DIR = "parts"
#: The exercises the lecture folder and its page's self-check hold (seed 0; `attnvid exercises` makes others).
LECTURE_EXERCISES = 10


def _part_entry(folder: Path, n: int, title: str, jobs: Sequence[Job], results: Sequence[Result],
                titles: Sequence[str], start_s: float, language: str) -> dict[str, Any]:
    """Write part ``n`` (its MP4 with chapters, chapters.vtt, captions) and return its manifest entry."""
    stem = f"{PARTS_DIR}/part-{n}"
    chapters = chapters_for(results, titles)
    duration = join_videos([Path(r.path) for r in results], folder / f"{stem}.mp4", chapters)
    write_atomic(folder / f"{stem}.chapters.vtt", chapters_vtt(chapters).encode())
    cues = lecture_cues(results)
    write_atomic(folder / f"{stem}.srt", compose_srt(cues).encode())
    write_atomic(folder / f"{stem}.vtt", compose_vtt(cues).encode())
    return {
        "title": shown(title),  # shown (page, deck); the lesson's own part titles are not in the catalogue
        "scenes": [j.scene for j in jobs],
        "video": f"{stem}.mp4",
        "duration_s": round(duration, 6),
        "start_s": round(start_s, 6),  # where it starts in lecture.mp4
        "poster": f"posters/{jobs[0].stem}.png",
        "chapters": [{"title": c.title, "start_s": round(c.start_s, 6), "end_s": round(c.end_s, 6)} for c in chapters],
        "chapters_vtt": f"{stem}.chapters.vtt",
        "captions": [
            {"path": f"{stem}.vtt", "format": "vtt", "lang": language, "label": _("Captions")},
            {"path": f"{stem}.srt", "format": "srt", "lang": language, "label": _("Captions")},
        ],
    }


def write_parts(folder: Path, lesson: Lesson, jobs: Sequence[Job], results: Sequence[Result],
                titles: Sequence[str]) -> list[dict[str, Any]]:
    """One MP4 per part of the lesson's lecture under ``folder/parts/`` (joined like
    lecture.mp4, without re-encoding), each with its chapters and captions; their manifest
    entries. A part none of whose scenes was rendered (``batch --scene``) is left out;
    files of an earlier run that no part has now are removed.
    """
    where = {j.scene: k for k, j in enumerate(jobs)}
    starts = [sum(r.duration for r in results[:k]) for k in range(len(results))]
    entries: list[dict[str, Any]] = []
    (folder / PARTS_DIR).mkdir(exist_ok=True)
    for part in lecture_parts(lesson):
        ks = [where[c.__name__] for c in part.scenes if c.__name__ in where]
        if ks:
            entries.append(_part_entry(folder, len(entries) + 1, part.title, [jobs[k] for k in ks],
                                       [results[k] for k in ks], [titles[k] for k in ks], starts[ks[0]],
                                       lesson.language))
    keep = {Path(p).name for e in entries for p in (e["video"], e["chapters_vtt"], *(c["path"] for c in e["captions"]))}
    for old in (folder / PARTS_DIR).iterdir():
        if old.name not in keep and not old.name.startswith("."):
            old.unlink()
    return entries


def _posters(folder: Path, jobs: Sequence[Job], results: Sequence[Result]) -> list[str]:
    """One poster per scene under ``folder/posters/``; their paths relative to ``folder``."""
    (folder / "posters").mkdir(exist_ok=True)
    out = []
    for j, r in zip(jobs, results, strict=True):
        rel = f"posters/{j.stem}.png"
        poster(Path(r.path), folder / rel)
        out.append(rel)
    return out


def assemble_lecture(folder: Path, lesson: Lesson, jobs: Sequence[Job], results: Sequence[Result],
                     titles: Sequence[str], quality: str, voice: str,
                     prints: Mapping[tuple[str, str], Path] | None = None,
                     in_video: bool = False) -> tuple[float, int]:
    """Write the lecture folder from the rendered scenes: the duration and the number of chapters.

    Every file goes through a ``.part`` name, so a reader sees whole files only. Everything
    is written in the lesson's language (``titles``: the scenes' English titles). ``in_video``
    (or the lesson's ``[selfcheck] in_video``): the page asks the self-check's questions in the player too.
    """
    with use(lesson.language, lesson.catalogue):
        return _assemble(folder, lesson, jobs, results, titles, quality, voice, prints,
                         in_video or lesson.in_video_questions)


def _assemble(folder: Path, lesson: Lesson, jobs: Sequence[Job], results: Sequence[Result],
              titles: Sequence[str], quality: str, voice: str,
              prints: Mapping[tuple[str, str], Path] | None, in_video: bool) -> tuple[float, int]:
    folder.mkdir(parents=True, exist_ok=True)
    chapters = chapters_for(results, titles)
    duration = join_videos([Path(r.path) for r in results], folder / "lecture.mp4", chapters)
    write_atomic(folder / "chapters.vtt", chapters_vtt(chapters).encode())
    posters = _posters(folder, jobs, results)
    cues = lecture_cues(results)
    write_atomic(folder / "captions.srt", compose_srt(cues).encode())
    write_atomic(folder / "captions.vtt", compose_vtt(cues).encode())
    write_atomic(folder / "narration.md", narration_markdown(lesson.title, results, titles).encode())
    trace = trace_lesson(lesson)
    style = jobs[0].settings.style if jobs else DEFAULT_STYLE
    write_workbook(folder / WORKBOOK_NAME, trace, style)  # the lecture's numbers as live formulas, its colours
    exercises = make_exercises(trace, LECTURE_EXERCISES, seed=0)
    exercise_files = write_exercise_files(folder, lesson.title, exercises, 0, lesson.decimals)
    sections = write_section_clips(folder, jobs, results, titles)
    parts = write_parts(folder, lesson, jobs, results, titles)
    write_deck(folder / DECK_NAME, folder, lesson.title, sections, [DeckPart(p["title"], p["scenes"]) for p in parts])
    write_handout(folder / HANDOUT_NAME, folder, lesson, sections, duration, prints)  # light frames (print_frames)
    manifest = lecture_manifest(lesson, quality, duration, chapters, posters, voice, sections, parts, exercise_files,
                                style)
    write_manifest(folder, manifest)
    page_cues = [{"start": c.start, "end": c.end, "text": c.text} for c in cues]
    write_page_assets(folder)  # the pages' scripts
    write_atomic(folder / PLAYGROUND_NAME, playground_page(trace, manifest).encode())
    panel = playground_panel(trace, manifest)  # the same panel in the page, its steps linked to the chapters
    check = self_check_section(exercises, manifest["chapters"], exercise_files, in_video)
    write_atomic(folder / "index.html", lecture_page(manifest, lesson.title, page_cues, check, panel).encode())
    return duration, len(chapters)
