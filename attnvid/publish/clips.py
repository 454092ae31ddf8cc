"""Section clips: one MP4 per section, cut from its scene's MP4 without re-encoding.

Manim encodes every animation (and every wait) of a scene as a partial movie of its own
and joins them by stream copy, so each one starts with a key frame; a section always
starts with an animation, so in a scene's MP4 a section starts on a key frame. Its clip is
then the video and sound packets from there to the section's end, copied and re-timed
to start at zero: no frame is decoded or encoded.

Why not Manim's ``save_sections``: it writes the same cuts, but joins the sections'
partial movies without their sound (the narration is muxed into the whole scene only),
and it runs inside the render workers, where the scene's MP4 is made; cutting the
finished scene file needs neither.

When a section does not start on a key frame (a scene file made by another encoder),
only its head is re-encoded: the frames from the section's start up to the next key
frame, with x264 at Manim's settings, before the copied rest. That splice is valid only
when the new encoder's parameter sets (SPS/PPS, the MP4's ``avcC``) are those of the
scene; when they are not, the whole clip is re-encoded (:attr:`Cut.whole`).
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import chain
from pathlib import Path
from typing import Any

import av
from av.audio.stream import AudioStream
from av.container import InputContainer, OutputContainer
from av.packet import Packet
from av.stream import Stream
from av.video.frame import VideoFrame

from attncore.i18n import _
from attncore.narration import section_slug

from ..catalog import scene_heading
from ..outputs import atomic_path
from ..render.jobs import Job, Result
from ..render.settings import ENCODER_OPTIONS

#: x264's settings for a re-encoded head: Manim's (``crf`` 23) and ours (one thread).
X264_OPTIONS = {"crf": "23", **ENCODER_OPTIONS["mp4"]}


@dataclass(frozen=True)
class Cut:
    """What :func:`cut_clip` wrote."""

    frames: int  # video frames the clip shows, at its nominal rate (a held picture is one sample of several)
    duration_s: float
    reencoded: int = 0  # frames re-encoded at the head (0: stream copy only)
    whole: bool = False  # the whole clip was re-encoded (the parameter sets did not match)


def _tb(stream: Stream) -> Fraction:
    if stream.time_base is None:
        raise RuntimeError(f"stream {stream.index} has no time base")
    return stream.time_base


@dataclass(frozen=True)
class _Span:
    """A section on the scene's video timeline, in the video stream's time base."""

    first: int  # pts of its first frame
    end: int  # pts just after its last frame
    head_end: int  # pts of the first key frame at or after ``first`` (``end`` when none)
    frames: int  # frames shown at the nominal rate (a held sample counts for every frame it lasts)
    frame: Fraction  # one frame, in seconds

    @property
    def copied(self) -> bool:
        return self.head_end == self.first


def _span(src: InputContainer, start_s: float, end_s: float) -> _Span:
    """Where the section ``[start_s, end_s)`` lies among the frames of ``src`` (one pass over the packets, no
    decoding)."""
    v = src.streams.video[0]
    tb = _tb(v)
    # The nominal rate, not the average: a held picture is one sample lasting several frames
    # (attnvid.render.encoder), so the average of a scene's samples is below its rate.
    rate = v.base_rate or v.guessed_rate
    if not rate:
        raise RuntimeError("the video has no frame rate")
    frame = 1 / Fraction(rate)
    half = frame / 2
    samples = sorted((p.pts, p.is_keyframe, p.duration or round(frame / tb)) for p in src.demux(v) if p.pts is not None)
    inside = [(pts, key, lasts) for pts, key, lasts in samples if start_s - half <= pts * tb < end_s - half]
    if not inside:
        raise RuntimeError(f"no frame between {start_s:.3f} s and {end_s:.3f} s")
    first, last = inside[0][0], inside[-1]
    later = [pts for pts, _, _ in samples if pts > last[0]]
    end = later[0] if later else last[0] + last[2]
    head_end = next((pts for pts, key, _ in inside if key), end)
    src.seek(0)
    return _Span(first, end, head_end, round((end - first) * tb / frame), frame)


def cut_clip(src_path: Path, start_s: float, end_s: float, out: Path) -> Cut:
    """Write the part ``[start_s, end_s)`` of ``src_path`` (seconds, on its timeline) to ``out`` (atomically).

    Stream copy when the part starts on a key frame (always, for a section of a scene
    Manim rendered); otherwise the head up to the next key frame is re-encoded (see the
    module doc). The sound is copied in any case.
    """
    with av.open(str(src_path)) as src:
        span = _span(src, start_s, end_s)
        head: list[Packet[Any]] = []
        extradata = None  # the parameter sets of a wholly re-encoded clip
        if not span.copied:
            head, extradata = _encode_head(src, span)
        whole = extradata is not None
        with atomic_path(out) as tmp, av.open(str(tmp), "w", format="mp4", options={"movflags": "+faststart"}) as dst:
            _write(src, dst, span, head, extradata)
        head_frames = round((span.head_end - span.first) * _tb(src.streams.video[0]) / span.frame)
    return Cut(span.frames, float(span.frames * span.frame), span.frames if whole else head_frames, whole)


def _frames(src: InputContainer, span: _Span, until: int) -> Iterator[VideoFrame]:
    """The decoded frames of ``span`` from its first one up to (not including) pts ``until``."""
    v = src.streams.video[0]
    src.seek(span.first, stream=v, backward=True)  # lands on the key frame before the section
    for frame in src.decode(v):
        if frame.pts is None or frame.pts < span.first:
            continue
        if frame.pts >= until:
            break
        yield frame


def _encode(src: InputContainer, span: _Span, until: int) -> tuple[list[Packet[Any]], bytes | None]:
    """x264 packets of the frames of ``span`` before ``until`` (on the clip's timeline) and their ``avcC``.

    They go through an MP4 in memory: its muxer turns x264's Annex B output into the
    length-prefixed form and the ``avcC`` record that an MP4 holds, which can then be
    compared with the scene's.
    """
    v = src.streams.video[0]
    tb = _tb(v)
    buffer = io.BytesIO()
    with av.open(buffer, "w", format="mp4") as scratch:
        enc = scratch.add_stream("libx264", rate=1 / span.frame, options=dict(X264_OPTIONS))
        enc.width, enc.height, enc.pix_fmt = v.codec_context.width, v.codec_context.height, "yuv420p"
        lasts: dict[int, int] = {}  # frames each picture is shown, by its place (in frames) on the clip

        def mux(packets: Any) -> None:
            for p in packets:
                if p.pts is not None:
                    p.duration = lasts.pop(int(p.pts))  # the last one's tells the muxer how long it lasts
                scratch.mux(p)

        def place(pts: int | None) -> int:
            assert pts is not None  # _frames yields only frames with a timestamp
            return round((pts - span.first) * tb / span.frame)

        held: VideoFrame | None = None  # each picture waits for the next one, which says how long it lasts
        for frame in chain(_frames(src, span, until), [None]):
            if held is not None:
                start = place(held.pts)
                lasts[start] = max(1, place(until if frame is None else frame.pts) - start)
                picture = held.reformat(format="yuv420p")
                picture.pts, picture.time_base = start, span.frame
                mux(enc.encode(picture))
            held = frame
        mux(enc.encode(None))
    src.seek(0)
    buffer.seek(0)
    with av.open(buffer, "r") as encoded:
        stream = encoded.streams.video[0]
        packets: list[Packet[Any]] = [p for p in encoded.demux(stream) if p.dts is not None]
        return packets, stream.codec_context.extradata


def _encode_head(src: InputContainer, span: _Span) -> tuple[list[Packet[Any]], bytes | None]:
    """The head's packets; or every frame's, and their parameter sets, when the encoder's
    parameter sets differ from the source's (``None``: they are the same)."""
    packets, extradata = _encode(src, span, span.head_end)
    if extradata == src.streams.video[0].codec_context.extradata:
        return packets, None
    return _encode(src, span, span.end)


def _write(src: InputContainer, dst: OutputContainer, span: _Span, head: list[Packet[Any]],
           extradata: bytes | None) -> None:
    """Mux ``head`` (already on the clip's timeline), then the source's packets of the span,
    re-timed; ``extradata``: the parameter sets of a wholly re-encoded clip."""
    v = src.streams.video[0]
    a: AudioStream | None = src.streams.audio[0] if src.streams.audio else None
    tb = _tb(v)
    out_v = dst.add_stream_from_template(v)
    whole = extradata is not None
    if whole:
        out_v.codec_context.extradata = extradata
    out_a = dst.add_stream_from_template(a) if a is not None else None
    start_s, end_s = span.first * tb, span.end * tb
    for p in head:
        p.stream = out_v
        dst.mux(p)
    copy_from = span.end if whole else span.head_end
    for p in src.demux(*([v] if a is None else [v, a])):
        if p.pts is None or p.dts is None:
            continue
        ptb = _tb(p.stream)
        target: Stream
        if p.stream.type == "video":
            if not copy_from <= p.pts < span.end:
                continue
            shift, target = span.first, out_v
        elif out_a is not None:
            # Sound: every AAC frame that overlaps the span, the one straddling its start
            # included (a decoder needs it to build the first samples).
            length = (p.duration or 0) * ptb
            if p.pts * ptb + length <= start_s or p.pts * ptb >= end_s:
                continue
            shift, target = round(start_s / ptb), out_a
        else:
            continue
        p.pts -= shift
        p.dts -= shift
        p.stream = target
        dst.mux(p)


def last_frame(video: Path, out: Path) -> None:
    """The last frame of ``video`` as a PNG at ``out`` (atomically): a scene's or a section's finished state."""
    with av.open(str(video)) as c:
        st = c.streams.video[0]
        if st.duration:
            c.seek(max(0, st.duration - int(2 / _tb(st))), stream=st, backward=True)
        last = None
        for frame in c.decode(st):
            last = frame
    if last is None:
        raise RuntimeError(f"{video} has no frame")
    with atomic_path(out) as tmp:
        last.to_image().save(tmp, format="PNG")  # type: ignore[no-untyped-call]  # PyAV leaves it untyped


def shown(title: str) -> str:
    """A scene's, section's or part's title (an English id, or the lesson's own words) as the
    viewer reads it: translated in the current language; an empty title stays empty (gettext
    would answer the catalogue's header)."""
    return _(title) if title else title


def chapter_title(scene: str, scene_title: str, section: str) -> str:
    """"5 · Softmax — Divide by the sum", as the viewer reads it (``scene``: the class name, which
    numbers it); the title card, whose scene has no title, is its section alone ("Title", not " — Title")."""
    return f"{scene_heading(scene, scene_title)} — {shown(section)}" if scene_title else shown(section)


@dataclass(frozen=True)
class SectionClip:
    """One section of the lecture as a file of its own, and what the deck and the handout show of it."""

    scene: str  # class name
    scene_title: str  # "Softmax" (an English id: scene_heading numbers and translates it)
    title: str  # the section's title
    path: str  # its MP4, relative to the lecture folder
    poster: str  # its last frame (PNG), relative to the lecture folder
    start_s: float  # on the lecture's timeline
    end_s: float
    narration: str  # the words said over it

    def manifest(self) -> dict[str, Any]:
        return {"scene": self.scene, "title": self.title, "path": self.path, "poster": self.poster,
                "start_s": round(self.start_s, 6), "end_s": round(self.end_s, 6)}


SECTIONS_DIR = "sections"


def section_stem(scene_index: int, section_index: int, scene: str, title: str) -> str:
    """``05-02_Softmax__divide-by-the-sum``: lecture order, then the recording name's parts."""
    return f"{scene_index:02d}-{section_index:02d}_{scene}__{section_slug(title)}"


def write_section_clips(folder: Path, jobs: Sequence[Job], results: Sequence[Result],
                        titles: Sequence[str]) -> list[SectionClip]:
    """Every section of every rendered scene as ``folder/sections/<stem>.mp4``, with its
    last frame beside it as ``<stem>.png`` (``titles``: the scenes' titles).

    Files of an earlier run that no section has now are removed.
    """
    out_dir = folder / SECTIONS_DIR
    out_dir.mkdir(parents=True, exist_ok=True)
    clips: list[SectionClip] = []
    offset = 0.0
    for job, r, scene_title in zip(jobs, results, titles, strict=True):
        words = {n["section"]: n["text"] for n in r.narration}
        for k, s in enumerate(r.sections, 1):
            stem = section_stem(job.index, k, job.scene, s["title"])
            clip, poster = f"{SECTIONS_DIR}/{stem}.mp4", f"{SECTIONS_DIR}/{stem}.png"
            cut_clip(Path(r.path), s["start_s"], s["end_s"], folder / clip)
            last_frame(folder / clip, folder / poster)
            clips.append(SectionClip(job.scene, scene_title, s["title"], clip, poster, offset + s["start_s"],
                                     offset + s["end_s"], words.get(s["title"], "")))
        offset += r.duration
    keep = {Path(c.path).name for c in clips} | {Path(c.poster).name for c in clips}
    for old in out_dir.iterdir():
        if old.name not in keep and old.suffix in (".mp4", ".png"):
            old.unlink()
    return clips
