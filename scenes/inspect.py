"""Build a scene without encoding video and look at what it puts on screen.

Used by the tests (numbers on screen equal the trace; nothing leaves the frame or
overlaps) and by authors. ``construct`` runs for real, animations are skipped to
their end state, no frame is rasterised and no file is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from manim import DL, UR, MarkupText, Mobject, SurroundingRectangle, Text, config

from attncore import ContextTrace, LessonTrace

from .base import Checkpoint, LessonScene
from .components import APPROX, CellGrid, Formula, Num, ShapeLabel, resolve
from .components.numbers import shown_digits
from .components.placement import STAGGER_GAP, edge_through, header_names, ink_corners
from .components.sizing import round_digit_height
from .layout import READABLE_DIGIT_H
from .palette_checks import AA_LARGE, AA_TEXT, contrast_ratio
from .skipping import DryRenderer, ExactRenderer, LayoutRenderer, temporary_config


def build(cls: type[LessonScene], *, frames: bool | frozenset[str] = False, mobjects: bool = True,
          quality: str = "low_quality", exact: bool | None = None,
          renderer: type[DryRenderer] | None = None) -> LessonScene:
    """Run ``construct`` of ``cls`` with skipped animations; return the scene with checkpoints.

    Each checkpoint holds a copy of the mobjects on screen at the end of its section
    (``mobjects=False`` skips the copies, for callers that only want pictures). With
    ``frames=True`` it also holds the rendered frame (a PIL image), rasterised by
    Manim's own camera, no video encoded; ``frames`` may instead name the sections whose
    frames are wanted (the others have ``image=None``). Animations are played straight to
    their end (:class:`LayoutRenderer`) unless frames are wanted or ``exact=True``: then each
    ends where Manim's own skipping leaves it (:class:`ExactRenderer`), so that a frame is
    the video's (Manim's transforms leave aligned copies of glyphs that the layout build's
    end state does not have). ``renderer`` names the renderer instead (:class:`DryRenderer`:
    Manim's own skipping, which the tests compare :class:`ExactRenderer` with).
    """
    if exact is None:
        exact = bool(frames)
    settings = {
        "dry_run": True,
        "quality": quality,
        "disable_caching": True,
        "verbosity": "ERROR",
        "progress_bar": "none",
    }
    with temporary_config(settings):
        cls.collect_checkpoints = mobjects
        cls.collect_frames = frames
        try:
            chosen = renderer or (ExactRenderer if exact else LayoutRenderer)
            scene = cls(renderer=chosen(skip_animations=True))
            scene.render()
        finally:
            cls.collect_checkpoints = False
            cls.collect_frames = False
    return scene


def expected_text(trace: LessonTrace, num: Num) -> str:
    """What ``num`` must show according to the trace (``≈ `` first when it is marked approximate)."""
    assert num.source is not None
    _, value = resolve(trace, num.source)
    # Manim's Text keeps its text without spaces: "≈ 1.00" reads back as "≈1.00".
    return (APPROX * num.approx).replace(" ", "") + shown_digits(float(value), num.decimals, num.source)


#: What reads as text on screen: Pango text, Pango markup (labels with sub- and
#: superscripts) and typeset formulas (whose ``.text`` is their Typst source).
SHOWN_TEXTS = (Text, MarkupText, Formula)


@dataclass
class Shown:
    """A text on screen at a checkpoint: the mobject and its bounding box; for a text turned
    on purpose (a mobject marked ``turned``, the angle: scenes.components.grids.TURN) also
    the corners of its own box, turned with it, which is what :func:`overlapping_texts`
    compares (the upright box of a turned word covers its neighbours' too)."""

    mob: Text | MarkupText | Formula
    left: float
    right: float
    bottom: float
    top: float
    corners: Any = None


def visible_texts(cp: Checkpoint) -> list[Shown]:
    out = []
    seen: set[int] = set()
    for top in cp.mobjects:
        for m in top.get_family():
            if isinstance(m, SHOWN_TEXTS) and id(m) not in seen:
                seen.add(id(m))
                inked = m.family_members_with_points()  # a Formula's own opacity is its empty container's
                if not inked or max(g.get_fill_opacity() for g in inked) < 0.05:
                    continue
                (lo_x, b, _), (r, t, _) = m.get_corner(DL), m.get_corner(UR)
                out.append(Shown(m, lo_x, r, b, t, ink_corners(m) if getattr(m, "turned", 0.0) else None))
    return out


def frame_box() -> tuple[float, float, float, float]:
    w, h = config.frame_width / 2, config.frame_height / 2
    return -w, w, -h, h


def leaving_frame(cp: Checkpoint, texts: list[Shown] | None = None) -> list[str]:
    """The texts on screen at ``cp`` that reach outside the frame (``texts``: its
    :func:`visible_texts`, when the caller has them already)."""
    left, right, bottom, top = frame_box()
    return [s.mob.text for s in (visible_texts(cp) if texts is None else texts)
            if not (left <= s.left and s.right <= right and bottom <= s.bottom and s.top <= top)]


#: How far every text keeps from the frame's edges: 24 px at 480p (854 px across 14.22 units),
#: clear of a projector's or a player's cropped border.
EDGE_PX = 24


def px_480p() -> float:
    """Frame units in one pixel of the 480p frame (854 px across)."""
    return float(config.frame_width / 854)


def near_edge(cp: Checkpoint, texts: list[Shown] | None = None, px: float = EDGE_PX) -> list[tuple[str, float]]:
    """The texts on screen at ``cp`` that come within ``px`` pixels (at 480p) of an edge of
    the frame, with how near they come (pixels)."""
    left, right, bottom, top = frame_box()
    unit = px_480p()
    out = []
    for s in visible_texts(cp) if texts is None else texts:
        gap = min(s.left - left, right - s.right, s.bottom - bottom, top - s.top) / unit
        if gap < px - 1e-6:
            out.append((s.mob.text, round(float(gap), 1)))
    return out


def header_rows(cp: Checkpoint) -> list[list[Any]]:
    """The rows of names over columns or under bars on screen at ``cp``, each once: every grid's
    column labels and every group marked a header row (what ``column_labels``, ``stagger_names``
    and ``bar_names`` return: scenes.components.placement.header_row), of two names or more."""
    rows: list[list[Any]] = []
    seen: set[int] = set()
    for top in cp.mobjects:
        for m in top.get_family():
            group = m.col_labels if isinstance(m, CellGrid) else m
            if id(group) in seen:
                continue
            seen.add(id(group))
            names = header_names(group)
            if names is None:  # a grid's column labels not from column_labels, or any other group
                names = list(group) if group is not m else []
            if len(names) >= 2:
                rows.append(names)
    return rows


def staircase_headers(cp: Checkpoint) -> list[str]:
    """The header rows on screen at ``cp`` (:func:`header_rows`) set on more than one line (issue
    24: words climbing in a staircase over narrow columns read as rows of another table): two
    upright labels of one row whose boxes share less than half the smaller's height (labels
    turned on purpose, marked ``turned``, are on one line by their own axes)."""
    out = []
    for row in header_rows(cp):
        boxes = [(float(lab.get_bottom()[1]), float(lab.get_top()[1])) for lab in row
                 if not getattr(lab, "turned", 0.0) and lab.get_fill_opacity() >= 0.05]
        if any(min(t, u) - max(b, c) < min(t - b, u - c) / 2 for b, t in boxes for c, u in boxes):
            out.append(" ".join(getattr(lab, "text", "?") for lab in row))
    return out


#: The least room between two upright names side by side in a row of names: a little under the
#: word space the layouts keep between names (STAGGER_GAP, 6 px at 480p). Closer, two names read
#: as one word ("financegrammar", "técnicagramática": the embeddings scene's table, 4 and 2 px).
NAME_GAP = 0.8 * STAGGER_GAP


def cramped_headers(cp: Checkpoint) -> list[str]:
    """Neighbouring names of a header row on screen at ``cp`` (:func:`header_rows`) that stand on
    one line closer than :data:`NAME_GAP`, with the gap in pixels at 480p ("finance|grammar
    (3.9 px)"). Turned names are left to the overlap check, which compares their turned boxes."""
    unit = px_480p()
    out = []
    for row in header_rows(cp):
        boxes = sorted((float(lab.get_left()[0]), float(lab.get_right()[0]), float(lab.get_bottom()[1]),
                        float(lab.get_top()[1]), getattr(lab, "text", "?")) for lab in row
                       if not getattr(lab, "turned", 0.0) and lab.get_fill_opacity() >= 0.05)
        for (_, right, b, t, a), (left, _, c, u, z) in zip(boxes, boxes[1:], strict=False):
            same_line = min(t, u) - max(b, c) >= min(t - b, u - c) / 2
            if same_line and left - right < NAME_GAP:
                out.append(f"{a}|{z} ({(left - right) / unit:.1f} px)")
    return out


def _outlines(cp: Checkpoint) -> list[Any]:
    """The outlines on screen at ``cp``: every SurroundingRectangle drawn (stroke visible), unfilled."""
    out: list[Any] = []
    seen: set[int] = set()
    for top in cp.mobjects:
        for m in top.get_family():
            if (isinstance(m, SurroundingRectangle) and id(m) not in seen and m.has_points()
                    and m.get_stroke_opacity() >= 0.05 and m.get_fill_opacity() < 0.05):
                seen.add(id(m))
                out.append(m)
    return out


def texts_on_borders(cp: Checkpoint, texts: list[Shown] | None = None, margin: float = 0.02) -> list[str]:
    """The texts on screen at ``cp`` that an outline's edge runs through (issue 24: a highlight's
    border across a word or a number, which it should go round or keep clear of): a point of
    the edge inside the text's box (its own turned box for a turned word) by more than
    ``margin``."""
    boxes = _outlines(cp)
    return [s.mob.text for s in (visible_texts(cp) if texts is None else texts)
            if any(edge_through(box, _corners(s), margin) for box in boxes)]


def equals_before_approx(cp: Checkpoint, texts: list[Shown] | None = None) -> list[str]:
    """Numbers marked ≈ on screen at ``cp`` right after a text ending in "=" on their line
    ("sum = ≈ 1.00" says two relations at once: it reads "sum ≈ 1.00")."""
    texts = visible_texts(cp) if texts is None else texts
    out = []
    for s in texts:
        if not (isinstance(s.mob, Num) and s.mob.approx):
            continue
        mid = (s.bottom + s.top) / 2
        left = [t for t in texts if t is not s and abs((t.bottom + t.top) / 2 - mid) < APPROX_LINE
                and 0 <= s.left - t.right < APPROX_REACH]
        if left and max(left, key=lambda t: t.right).mob.text.endswith("="):
            out.append(s.mob.text)
    return out


#: How far apart the centres of a text and a number on one line may be, and how far the text
#: may end left of the number, for :func:`equals_before_approx`.
APPROX_LINE, APPROX_REACH = 0.12, 0.6


#: The smallest number worth showing (scenes.layout.READABLE_DIGIT_H).
MIN_DIGIT_HEIGHT = READABLE_DIGIT_H


def digit_height(num: Num) -> float:
    """How tall ``num``'s digits are drawn, whichever digits it shows: the height of a "0" at its
    size, scaled as ``num`` was (a "1.17" has no round digit and is drawn a little lower than a
    "2.15" of the same size, which made the check depend on the number rather than its size)."""
    return round_digit_height(float(num._font_size)) * float(num.height / num.initial_height)


def unreadable_numbers(cp: Checkpoint, texts: list[Shown] | None = None) -> list[str]:
    """The numbers on screen at ``cp`` drawn smaller than :data:`MIN_DIGIT_HEIGHT`."""
    return [s.mob.text for s in (visible_texts(cp) if texts is None else texts)
            if isinstance(s.mob, Num) and digit_height(s.mob) < MIN_DIGIT_HEIGHT]


def overlapping_texts(
    cp: Checkpoint, tolerance: float = 0.02, texts: list[Shown] | None = None
) -> list[tuple[str, str]]:
    """Pairs of texts on screen at ``cp`` whose boxes overlap by more than ``tolerance``
    (scene units) both across and down."""
    texts = visible_texts(cp) if texts is None else texts
    out = []
    for a, p in enumerate(texts):
        for q in texts[a + 1 :]:
            ox = min(p.right, q.right) - max(p.left, q.left)
            oy = min(p.top, q.top) - max(p.bottom, q.bottom)
            if ox > tolerance and oy > tolerance and (p.corners is None and q.corners is None
                                                      or _boxes_overlap(_corners(p), _corners(q), tolerance)):
                out.append((p.mob.text, q.mob.text))
    return out


def _corners(s: Shown) -> Any:
    if s.corners is not None:
        return s.corners
    return np.array([[s.left, s.bottom], [s.right, s.bottom], [s.right, s.top], [s.left, s.top]])


def _boxes_overlap(p: Any, q: Any, tolerance: float) -> bool:
    """Whether two boxes (each four corners in order) overlap by more than ``tolerance`` along
    every side's direction of either (separating axes: convex shapes apart have one)."""
    for box in (p, q):
        for k in range(2):
            side = box[k + 1] - box[k]
            normal = np.array([-side[1], side[0]]) / np.hypot(*side)
            a, b = p @ normal, q @ normal
            if min(a.max(), b.max()) - max(a.min(), b.min()) <= tolerance:
                return False
    return True


#: WCAG 2.1 §1.4.3's large text, 18 pt (14 pt bold), taken at a 480p frame shown pixel for pixel
#: (one frame pixel, one CSS pixel, 4/3 of them to a point): an em of 24 px (18.7 px bold).
#: At 480p a scene unit is 60 px and DejaVu Sans' em is ``font_size`` / 72 units (measured:
#: font_size 48 gives capitals 29 px high, 0.73 em), so large means font_size >= 28.8 (22.4 bold).
LARGE_FONT_SIZE, LARGE_BOLD_FONT_SIZE = 18 * 4 / 3 / 60 * 72, 14 * 4 / 3 / 60 * 72


#: The opacity of a text dimmed on purpose (ReadingAttention's other rows are drawn at 0.6).
DIMMED = 0.6


@dataclass(frozen=True)
class TextContrast:
    """One text's colour against the colour behind it on a rasterised frame."""

    text: str
    colour: str  # as drawn (its fill blended over what is behind it when translucent)
    behind: str
    ratio: float
    least: float  # what WCAG asks of it: 4.5, or 3 for large text

    @property
    def passes(self) -> bool:
        return self.ratio >= self.least


def _hex(rgb: Any) -> str:
    return "#{:02x}{:02x}{:02x}".format(*(int(round(float(c))) for c in rgb[:3]))


def _behind(pixels: Any, ink: Any) -> Any:
    """The most common colour of ``pixels`` (n, 3) that is not the text's ink (a glyph's
    anti-aliased edge is a blend, each shade too rare to be the most common); the ink itself
    when nothing else is there."""
    import numpy as np

    other = pixels[np.abs(pixels - ink).max(axis=1) > 3].astype(np.int64)
    if len(other) == 0:
        return ink
    packed, counts = np.unique((other[:, 0] << 16) | (other[:, 1] << 8) | other[:, 2], return_counts=True)
    top = int(packed[counts.argmax()])
    return np.array([top >> 16, (top >> 8) & 255, top & 255])


def text_contrasts(cp: Checkpoint, image: Any, texts: list[Shown] | None = None) -> list[TextContrast]:
    """The contrast of every text on screen at ``cp`` against what is behind its centre, read
    from ``image`` (the checkpoint's frame, rasterised): behind it is the most common colour
    of the pixels of its box (a pixel on each side more) that are not its own glyphs.

    Texts drawn at :data:`DIMMED` opacity or under are left out: they are dimmed on
    purpose, the rows a section is *not* about (WCAG's "incidental" text).
    """
    import numpy as np

    frame = np.asarray(image.convert("RGB"), dtype=np.int16)
    height, width = frame.shape[:2]
    ppu = width / config.frame_width
    out = []
    for s in visible_texts(cp) if texts is None else texts:
        inked = [g for g in s.mob.family_members_with_points() if g.get_fill_opacity() > DIMMED]
        if not inked:
            continue
        x0, x1 = int((s.left + config.frame_width / 2) * ppu) - 1, int((s.right + config.frame_width / 2) * ppu) + 2
        y0, y1 = int((config.frame_height / 2 - s.top) * ppu) - 1, int((config.frame_height / 2 - s.bottom) * ppu) + 2
        box = frame[max(0, y0):min(height, y1), max(0, x0):min(width, x1)].reshape(-1, 3)
        size = float(getattr(s.mob, "font_size", 0) or 0)
        bold = str(getattr(s.mob, "weight", "")).upper() == "BOLD"
        least = AA_LARGE if size >= (LARGE_BOLD_FONT_SIZE if bold else LARGE_FONT_SIZE) else AA_TEXT
        opacity: dict[str, float] = {}
        for g in inked:
            c = g.get_fill_color().to_hex().lower()
            opacity[c] = max(opacity.get(c, 0.0), float(g.get_fill_opacity()))
        for fill, alpha in opacity.items():
            pure = np.array([int(fill[k:k + 2], 16) for k in (1, 3, 5)], dtype=np.float64)
            behind = _behind(box, np.round(pure).astype(np.int16))
            drawn = _hex(alpha * pure + (1 - alpha) * behind)  # a translucent text is a blend
            if drawn != fill:
                behind = _behind(box, np.array([int(drawn[k:k + 2], 16) for k in (1, 3, 5)], dtype=np.int16))
            out.append(TextContrast(s.mob.text, drawn, _hex(behind), contrast_ratio(drawn, _hex(behind)), least))
    return out


__all__ = [
    "SHOWN_TEXTS",
    "TextContrast",
    "text_contrasts",
    "LARGE_FONT_SIZE",
    "LARGE_BOLD_FONT_SIZE",
    "LayoutRenderer",
    "DryRenderer",
    "ExactRenderer",
    "temporary_config",
    "build",
    "resolve",
    "expected_text",
    "visible_texts",
    "leaving_frame",
    "overlapping_texts",
    "unreadable_numbers",
    "frame_box",
    "Num",
    "ShapeLabel",
    "ContextTrace",
    "Mobject",
]
