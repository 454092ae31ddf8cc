"""Where things go: the header, the caption, the content box between them, and named gaps.

Space is named here the way colour and time are named in :mod:`scenes.theme`. Manim
names its gaps by size (``SMALL_BUFF = 0.1``, ``MED_SMALL_BUFF = 0.25``,
``MED_LARGE_BUFF = 0.5``, ``LARGE_BUFF = 1``); we reuse those and name the few other
steps the lecture uses. A scene places its content inside ``self.content`` (the
:data:`CONTENT` box), relative to other mobjects (``next_to``, ``arrange``), never at a
bare coordinate.

Every number below keeps today's pictures exactly: the header and caption are where
:class:`scenes.base.LessonScene` has always put them, and the content box is the one
the scenes from learned projections to multi-head used (``CONTENT_*``). The areas that other scenes had
defined on their own are kept as named insets of that one box (see the end of the
module), so that no frame moves.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import LARGE_BUFF, MED_LARGE_BUFF, MED_SMALL_BUFF, SMALL_BUFF, Mobject

__all__ = [
    "SMALL_BUFF", "MED_SMALL_BUFF", "MED_LARGE_BUFF", "LARGE_BUFF", "TINY_BUFF", "LABEL_BUFF", "ITEM_BUFF",
    "GROUP_BUFF", "DRIFT", "FRAME_X", "FRAME_MARGIN", "PIPELINE_BUFF", "HEADER_BUFF", "TITLE_DROP", "HEADER_BOTTOM",
    "CAPTION_BUFF", "CAPTION_MARGIN", "CAPTION_TOP", "Box", "CONTENT", "WORD_MATRIX_AREA", "PANEL_AREA",
    "MIXING_AREA", "MIXING_BARS_AREA", "LABEL_ROOM",
]

# -- named gaps (scene units) ------------------------------------------------------------
#: The least gap: an outline just off what it surrounds, the header's last clearance.
TINY_BUFF = 0.05
#: Between a label and what it names (row labels, names beside a tile picture).
LABEL_BUFF = 0.15
#: The least height of a round digit ("0") on screen: 10 px at 480p (60 px a unit). The layout
#: tests check every number against it (scenes.inspect.unreadable_numbers).
READABLE_DIGIT_H = 0.17
#: Between neighbouring items of one row (words of a sentence, a sign and its number).
ITEM_BUFF = 0.2
#: Between two groups (an equation row and what sits under it).
GROUP_BUFF = 0.35
#: How far a thing slides while it fades in (``FadeIn(m, shift=DOWN * DRIFT)``).
DRIFT = ITEM_BUFF

# -- the frame ---------------------------------------------------------------------------
#: Half the width every output quality shows at least: Manim's frame is 8 units high and
#: 14.22 (16:9) to 14.23 (854×480) wide, so x = ±7 is inside it at every quality.
FRAME_X = 7.0
#: Content keeps this far from x = ±FRAME_X: with the 0.11 the frame has beyond ±FRAME_X,
#: 24 px at 480p, the least gap any text keeps from an edge (scenes.inspect.EDGE_PX).
FRAME_MARGIN = 0.3

# -- the header (set by LessonScene.add_header) ------------------------------------------
#: The pipeline marker's distance from the top edge (its text 24 px below it at 480p).
PIPELINE_BUFF = 0.4
#: The title's and the formula's distance from the top corners ...
HEADER_BUFF = 0.4
#: ... and how far the title then drops, to clear the pipeline marker.
TITLE_DROP = MED_LARGE_BUFF
#: The lowest point of the header: the title is 34-pt text whose top is at y = 3.1.
HEADER_BOTTOM = 2.5

# -- the caption (set by LessonScene.caption) --------------------------------------------
#: The caption's distance from the bottom edge (24 px at 480p, as every text keeps) ...
CAPTION_BUFF = 0.4
#: ... and from the left and right edges (a longer caption is scaled down).
CAPTION_MARGIN = 0.4
#: The highest point of a caption: one line of body text on y = -3.6.
CAPTION_TOP = -3.25


def _snap(x: float) -> float:
    """``x`` rounded to 1e-9, so that an inset of a box gives the very float that was typed
    before (2.45 - 0.07 is 2.3800000000000003 in binary, 2.38 after snapping)."""
    return round(x, 9)


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle of the frame, in scene units (y goes up).

    Examples
    --------
    .. manim:: BoxExample
        :quality: low
        :save_last_frame:

        from scenes.components import CONTENT, GROUP_BUFF, ITEM_BUFF, Box, Theme, TokenRow, label

        class BoxExample(Scene):
            def construct(self):
                theme = Theme(style="dark")
                self.camera.background_color = theme["background"]

                def outline(box: Box, colour: str) -> Rectangle:
                    return Rectangle(width=box.width, height=box.height, color=colour).move_to(box.centre)

                left_half: Box = CONTENT.inset(right=CONTENT.width / 2 + GROUP_BUFF)
                name = label("CONTENT, and an inset Box: its left half", "small", theme["muted"])
                name.next_to(outline(CONTENT, theme["grid"]).get_corner(UL), DR, buff=ITEM_BUFF)
                row = TokenRow(["every", "scene", "fills", "this", "box"], theme)
                row.next_to(name, DOWN, buff=GROUP_BUFF).align_to(name, LEFT)
                self.add(outline(CONTENT, theme["grid"]), outline(left_half, theme["accent"]), name,
                         left_half.keep_inside(left_half.fit_width(row)))
    """

    left: float
    right: float
    bottom: float
    top: float

    @property
    def width(self) -> float:
        return self.right - self.left

    @property
    def height(self) -> float:
        return self.top - self.bottom

    @property
    def centre_x(self) -> float:
        return (self.left + self.right) / 2

    @property
    def centre_y(self) -> float:
        return (self.top + self.bottom) / 2

    @property
    def centre(self) -> np.ndarray:
        """The centre as a Manim point, for ``move_to``."""
        return np.array([self.centre_x, self.centre_y, 0.0])

    def inset(self, left: float = 0.0, right: float = 0.0, bottom: float = 0.0, top: float = 0.0) -> Box:
        """The box moved in by these amounts on each side (a negative amount moves out)."""
        return Box(
            _snap(self.left + left), _snap(self.right - right), _snap(self.bottom + bottom), _snap(self.top - top)
        )

    def contains(self, mob: Mobject) -> bool:
        """Whether ``mob``'s bounding box lies inside this box."""
        return bool(self.left <= mob.get_left()[0] and mob.get_right()[0] <= self.right
                    and self.bottom <= mob.get_bottom()[1] and mob.get_top()[1] <= self.top)

    def fit_width(self, mob: Mobject) -> Mobject:
        """Scale ``mob`` about its centre down to this box's width, when it is wider."""
        if mob.width > self.width:
            mob.scale(self.width / mob.width, about_point=mob.get_center())
        return mob

    def keep_inside(self, mob: Mobject) -> Mobject:
        """Shift ``mob`` across the least distance that brings it inside left and right."""
        if mob.get_left()[0] < self.left:
            mob.shift(np.array([self.left - mob.get_left()[0], 0.0, 0.0]))
        if mob.get_right()[0] > self.right:
            mob.shift(np.array([self.right - mob.get_right()[0], 0.0, 0.0]))
        return mob


#: The room every scene fills: between the header and the caption, FRAME_MARGIN in from
#: x = ±FRAME_X. ``LessonScene.content`` is this box.
CONTENT = Box(
    left=-(FRAME_X - FRAME_MARGIN),
    right=FRAME_X - FRAME_MARGIN,
    bottom=CAPTION_TOP + MED_SMALL_BUFF,
    top=HEADER_BOTTOM - TINY_BUFF,
)

# -- per-use insets ----------------------------------------------------------------------
# Areas that scenes once defined on their own, with values slightly off the content box.
# They are kept as named insets of CONTENT so that no frame changes; a scene redesign may
# fold them back into CONTENT.

#: Steps 3-5 (word matrices): start SMALL_BUFF lower, may reach SMALL_BUFF further down
#: (the bottom row has nothing under it). Was ``MATRIX_TOP, MATRIX_BOTTOM = 2.35, -3.2``.
WORD_MATRIX_AREA = CONTENT.inset(top=SMALL_BUFF, bottom=-SMALL_BUFF)
#: Side by side (the context panels). Was ``BAND_TOP, BAND_BOTTOM = 2.38, -3.12``.
PANEL_AREA = CONTENT.inset(top=0.07, bottom=-0.02)
#: Mixing the values (the product A·V): the word-matrix top over the content bottom.
MIXING_AREA = CONTENT.inset(top=SMALL_BUFF)
#: Mixing the values (the weighted sum as bars): reaches TINY_BUFF below the content box.
MIXING_BARS_AREA = CONTENT.inset(top=SMALL_BUFF, bottom=-TINY_BUFF)
#: Height reserved above a word matrix for its column labels (two staggered rows) and
#: the axis titles.
LABEL_ROOM = LARGE_BUFF
