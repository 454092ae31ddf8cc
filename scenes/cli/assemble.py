"""Assembling the lecture folder: one MP4 with chapters, WebVTT chapters, posters, manifest.

Joining uses PyAV's stream copy (packets are re-timed, never re-encoded): the scenes
come from the same encoder settings, so their H.264 streams can follow each other.
The MP4 is written with ``movflags=+faststart`` (moov before mdat) so that a browser
starts playing before the whole file has arrived, and with one chapter per section.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import av

from .engine import Result, write_atomic


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
    """Concatenate MP4s without re-encoding into ``out`` (atomically); return its duration in s."""
    tmp = out.with_name(f".{out.name}.part")
    out.parent.mkdir(parents=True, exist_ok=True)
    offset = 0  # in the first input's time base
    time_base: Fraction | None = None
    try:
        with av.open(str(tmp), "w", format="mp4", options={"movflags": "+faststart"}) as dst:
            ost = None
            for path in parts:
                with av.open(str(path)) as src:
                    ist = src.streams.video[0]
                    if ost is None:
                        ost = dst.add_stream_from_template(ist)
                        time_base = ist.time_base
                    if ist.time_base != time_base:
                        raise RuntimeError(f"{path} has time base {ist.time_base}, expected {time_base}; re-render it")
                    end = offset
                    for pkt in src.demux(ist):
                        if pkt.dts is None:  # the flush packet
                            continue
                        pkt.pts += offset
                        pkt.dts += offset
                        end = max(end, pkt.pts + (pkt.duration or 0))
                        pkt.stream = ost
                        dst.mux(pkt)
                    offset = offset + ist.duration if ist.duration else end
            assert time_base is not None
            dst.set_chapters([
                {"id": k + 1, "start": round(c.start_s / time_base), "end": round(c.end_s / time_base),
                 "time_base": time_base, "metadata": {"title": c.title}}
                for k, c in enumerate(chapters)
            ])
        os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)
    return float(offset * time_base) if time_base else 0.0


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
    tmp = out.with_name(f".{out.name}.part")
    last.to_image().save(tmp, format="PNG")
    os.replace(tmp, out)


def write_manifest(folder: Path, manifest: dict[str, Any]) -> None:
    write_atomic(folder / "manifest.json", json.dumps(manifest, indent=1, ensure_ascii=False).encode())
