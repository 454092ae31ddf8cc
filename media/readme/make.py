"""Make the images the top-level README shows, from the current code.

    .venv/bin/python media/readme/make.py

- ``storyboard.png`` and ``storyboard_light.png``: ``attnvid storyboard`` of the default
  lecture, dark and ``--theme light``, each stamped (a PNG text chunk, :data:`STAMP`) with
  what made it: this script's digest, the palette's and the theme's (``attnstage/palette.py``,
  ``scenes/theme.py``) and the lecture's sections,
  which tests/test_readme_media.py compares with the current ones (stale pictures fail it);
- ``poster_fr.png``: the last frame of the French lesson's softmax scene (``attnvid preview
  Softmax --lesson souris``), stamped the same way;
- ``two_contexts.gif``: the last two sections of ``TwoContexts`` (``attnvid render
  TwoContexts``, 480p15), at 5 frames a second, 480×270, held frames merged.

Renders go to a temporary folder; only the files here are replaced.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import av
from PIL import Image, PngImagePlugin

HERE = Path(__file__).resolve().parent
ATTNVID = str(Path(sys.executable).parent / "attnvid")
SCENE, FIRST_SECTION = "TwoContexts", "Attention mixes in the sentence"
SIZE, TICK_MS = (480, 270), 200  # the picture shown every 200 ms
#: The PNG text key of the stamp, and the storyboards by style.
STAMP = "attnvid-readme"
BOARDS = {"dark": "storyboard.png", "light": "storyboard_light.png"}
#: The poster of a lecture in another language: (file, scene, lesson).
POSTERS = [("poster_fr.png", "Softmax", "souris")]


def stamp() -> dict[str, object]:
    """What the storyboards are made from: this script, the palette and the theme, the lecture's sections."""
    from scenes.lecture import LECTURE

    looks = (HERE.parents[1] / "attnstage" / "palette.py", HERE.parents[1] / "scenes" / "theme.py")
    return {"script": hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16],
            "theme": hashlib.sha256(b"".join(p.read_bytes() for p in looks)).hexdigest()[:16],
            "sections": [f"{c.__name__}/{t}" for c in LECTURE for t in c.section_names()]}


def save_stamped(board: Path, out: Path) -> None:
    info = PngImagePlugin.PngInfo()
    info.add_text(STAMP, json.dumps(stamp(), ensure_ascii=False))
    with Image.open(board) as img:
        img.save(out, format="PNG", optimize=True, pnginfo=info)


def attnvid(*args: str, cwd: Path) -> Path:
    r = subprocess.run([ATTNVID, *args], cwd=cwd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"make.py: attnvid {' '.join(args)} failed: {r.stderr.strip().splitlines()[-1:]}")
    return cwd / r.stdout.strip().splitlines()[-1]


def gif_frames(video: Path, start_s: float) -> tuple[list[Image.Image], list[int]]:
    """The picture on screen every TICK_MS from ``start_s`` to the end, a held one merged into one
    GIF frame. Sampled by time, not by counting decoded frames: the MP4 stores a held picture once,
    as one sample lasting the hold (attnvid.render.encoder), so counting would shorten every hold."""
    shown: list[tuple[float, float, Image.Image]] = []  # (from, until, picture)
    with av.open(str(video)) as c:
        stream = c.streams.video[0]
        for f in c.decode(stream):
            if f.time is None:
                continue
            until = f.time + float(f.duration * f.time_base) if f.duration else f.time
            if until > start_s:
                shown.append((f.time, until, f.to_image().resize(SIZE, Image.LANCZOS)))
    frames: list[Image.Image] = []
    durations: list[int] = []
    end, t, i = shown[-1][1], start_s, 0
    while t < end - 1e-9:
        while i + 1 < len(shown) and shown[i + 1][0] <= t + 1e-9:
            i += 1
        img = shown[i][2]
        if frames and img.tobytes() == frames[-1].tobytes():
            durations[-1] += TICK_MS
        else:
            frames.append(img)
            durations.append(TICK_MS)
        t += TICK_MS / 1000
    return frames, durations


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="readme-media-") as tmp:
        work = Path(tmp)
        boards = {style: attnvid("storyboard", "--theme", style, cwd=work) for style in BOARDS}
        posters = {name: attnvid("preview", scene, "--lesson", lesson, cwd=work) for name, scene, lesson in POSTERS}
        video = attnvid("render", SCENE, "--quality", "low", cwd=work)
        meta = json.loads(video.with_name(video.name + ".json").read_text(encoding="utf-8"))
        (start,) = [s["start_s"] for s in meta["sections"] if s["title"] == FIRST_SECTION]
        frames, durations = gif_frames(video, start)
        # One palette for all frames (from the fullest, the last): Pillow then stores only
        # what changed between frames, which keeps the GIF small.
        palette = frames[-1].quantize(colors=128, method=Image.Quantize.MEDIANCUT)
        frames = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
        gif = work / "two_contexts.gif"
        frames[0].save(gif, save_all=True, append_images=frames[1:], duration=durations, loop=0, optimize=True)
        for style, board in boards.items():
            save_stamped(board, HERE / BOARDS[style])
        for name, poster in posters.items():
            save_stamped(poster, HERE / name)
        shutil.copyfile(gif, HERE / "two_contexts.gif")
    for name in (*BOARDS.values(), *posters, "two_contexts.gif"):
        print(f"{HERE / name}: {(HERE / name).stat().st_size / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
