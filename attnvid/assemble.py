"""Assembling the lecture folder: one MP4 with chapters, WebVTT chapters, posters, manifest.

Joining uses PyAV's stream copy (packets are re-timed, never re-encoded): the scenes
come from the same encoder settings, so their H.264 streams can follow each other.
The MP4 is written with ``movflags=+faststart`` (moov before mdat) so that a browser
starts playing before the whole file has arrived, and with one chapter per section.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import av

from scenes.narration import Cue

from .engine import Result, atomic_path, write_atomic


@dataclass(frozen=True)
class Chapter:
    title: str
    start_s: float
    end_s: float


def chapters_for(results: Sequence[Result], titles: Sequence[str]) -> list[Chapter]:
    """One chapter per section, on the lecture's timeline (scene offsets added)."""
    out = []
    offset = 0.0
    for r, scene_title in zip(results, titles, strict=True):
        for s in r.sections:
            out.append(Chapter(f"{scene_title} — {s['title']}", offset + s["start_s"], offset + s["end_s"]))
        offset += r.duration
    return out


def join_videos(parts: Sequence[Path], out: Path, chapters: Sequence[Chapter]) -> float:
    """Concatenate MP4s without re-encoding into ``out`` (atomically); return its duration in s.

    Video and (when present) audio packets are copied; each part starts where the
    previous part's *video* ends, so sound stays on the frames it belongs to.
    """
    offset_s = Fraction(0)
    video_tb: Fraction | None = None
    with atomic_path(out) as tmp, av.open(str(tmp), "w", format="mp4", options={"movflags": "+faststart"}) as dst:
        ov = oa = None
        last_audio_dts: int | None = None
        for path in parts:
            with av.open(str(path)) as src:
                iv = src.streams.video[0]
                ia = src.streams.audio[0] if src.streams.audio else None
                if ov is None:
                    ov = dst.add_stream_from_template(iv)
                    video_tb = iv.time_base
                    if ia is not None:
                        oa = dst.add_stream_from_template(ia)
                if (ia is None) != (oa is None):
                    raise RuntimeError(f"{path}: some scenes have sound and others not; render them with one --voice")
                assert video_tb is not None
                if iv.time_base != video_tb:
                    raise RuntimeError(f"{path} has time base {iv.time_base}, expected {video_tb}; re-render it")
                v_end = offset_s
                part_end = offset_s + iv.duration * iv.time_base if iv.duration else None
                streams = [iv] + ([ia] if ia is not None else [])
                for pkt in src.demux(*streams):
                    if pkt.dts is None:  # the flush packet
                        continue
                    tb = pkt.stream.time_base
                    shift = round(offset_s / tb)
                    pkt.pts += shift
                    pkt.dts += shift
                    if pkt.stream.type == "video":
                        v_end = max(v_end, (pkt.pts + (pkt.duration or 0)) * tb)
                        pkt.stream = ov
                    else:
                        # A scene's sound runs up to one AAC frame (21 ms) past its last
                        # video frame, and the next scene's first audio frame starts a
                        # little before zero (encoder priming): drop what would overlap,
                        # so that audio timestamps keep increasing across the joins.
                        if part_end is not None and pkt.pts * tb >= part_end:
                            continue
                        if last_audio_dts is not None and pkt.dts <= last_audio_dts:
                            continue
                        last_audio_dts = pkt.dts
                        pkt.stream = oa
                    dst.mux(pkt)
                offset_s = offset_s + iv.duration * iv.time_base if iv.duration else v_end
        assert video_tb is not None
        dst.set_chapters([
            {"id": k + 1, "start": round(Fraction(c.start_s) / video_tb), "end": round(Fraction(c.end_s) / video_tb),
             "time_base": video_tb, "metadata": {"title": c.title}}
            for k, c in enumerate(chapters)
        ])
    return float(offset_s)


def lecture_cues(results: Sequence[Result]) -> list[Cue]:
    """Every scene's caption cues on the lecture's timeline."""
    out, offset = [], 0.0
    for r in results:
        out += [Cue(round(c["start"] + offset, 3), round(c["end"] + offset, 3), c["text"]) for c in r.cues]
        offset += r.duration
    return out


def narration_markdown(title: str, results: Sequence[Result], scene_titles: Sequence[str]) -> str:
    """The whole narration as one readable file, for proofreading."""
    lines = [f"# {title}: narration", "", "Generated by `attnvid lecture` from the scenes; edit the scenes, not this file.", ""]
    offset = 0.0
    for r, st in zip(results, scene_titles, strict=True):
        lines += [f"## {st}", ""]
        for n in r.narration:
            lines += [f"### {n['section']} ({vtt_time(offset + n['start_s'])[3:8]})", "", n["text"], ""]
        offset += r.duration
    return "\n".join(lines)


def vtt_time(t: float) -> str:
    ms = round(t * 1000)
    h, rem = divmod(ms, 3_600_000)
    m, rem = divmod(rem, 60_000)
    s, ms = divmod(rem, 1000)
    return f"{h:02d}:{m:02d}:{s:02d}.{ms:03d}"


def chapters_vtt(chapters: Sequence[Chapter]) -> str:
    lines = ["WEBVTT", "Kind: chapters", ""]
    for k, c in enumerate(chapters, 1):
        lines += [f"chapter-{k}", f"{vtt_time(c.start_s)} --> {vtt_time(c.end_s)}", c.title, ""]
    return "\n".join(lines)


def poster(video: Path, out: Path) -> None:
    """The last frame of ``video`` as a PNG (the scene's finished state)."""
    with av.open(str(video)) as c:
        st = c.streams.video[0]
        if st.duration:
            c.seek(max(0, st.duration - int(2 / st.time_base)), stream=st, backward=True)
        last = None
        for frame in c.decode(st):
            last = frame
    if last is None:
        raise RuntimeError(f"{video} has no frame")
    with atomic_path(out) as tmp:
        last.to_image().save(tmp, format="PNG")


def write_manifest(folder: Path, manifest: dict[str, Any]) -> None:
    write_atomic(folder / "manifest.json", json.dumps(manifest, indent=1, ensure_ascii=False).encode())
