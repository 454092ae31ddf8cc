"""attnvid.render.camera: reusing an unchanged mobject's Cairo path draws the very same pixels.

Each scene is drawn twice in a fresh process at low quality, once with Manim's own
camera and once with :class:`attnvid.render.camera.PathCachingCamera` (the one every render
uses), and every frame handed to the encoder is compared by its hash. The scenes chosen
move text (captions that rise and fade), transform numbers and highlight cells, so that
paths are reused, rebuilt after a move, and rebuilt after the tiny point changes of a
fade.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

DRAW = r"""
import hashlib, json, os, sys, tempfile
os.environ["ATTNVID_LESSON"] = ""
from manim import tempconfig
from manim.renderer.cairo_renderer import CairoRenderer
from attnvid.render.camera import PathCachingCamera
from attnvid.catalog import resolve_scene

scene_name, which = sys.argv[1], sys.argv[2]
frames = []
reused = [0]


class Recording(CairoRenderer):
    def add_frame(self, frame, num_frames=1):
        if not self.skip_animations:
            frames.append((hashlib.sha1(frame.tobytes()).hexdigest(), num_frames))
        super().add_frame(frame, num_frames)


class Counting(PathCachingCamera):
    def set_cairo_context_path(self, ctx, vmobject):
        hit = self._paths.get(id(vmobject))
        if hit is not None and hit[1] == vmobject.points.tobytes():
            reused[0] += 1
        return super().set_cairo_context_path(ctx, vmobject)


with tempfile.TemporaryDirectory() as d, tempconfig({"quality": "low_quality", "media_dir": d, "dry_run": True,
                                                     "disable_caching": True, "verbosity": "WARNING",
                                                     "progress_bar": "none"}):
    camera = Counting if which == "cached" else None
    resolve_scene(scene_name)(renderer=Recording(camera_class=camera)).render()
print(json.dumps({"frames": frames, "reused": reused[0]}))
"""


def draw(scene: str, which: str) -> dict[str, object]:
    r = subprocess.run([sys.executable, "-c", DRAW, scene, which], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


@pytest.mark.slow
@pytest.mark.parametrize("scene", ["TwoContexts", "Scaling"])
def test_reused_paths_draw_the_same_frames_as_manims_camera(scene: str) -> None:
    plain, cached = draw(scene, "plain"), draw(scene, "cached")
    assert len(plain["frames"]) > 100  # type: ignore[arg-type]
    assert cached["frames"] == plain["frames"]
    assert cached["reused"] > 1000, "the cache was used"  # type: ignore[operator]
