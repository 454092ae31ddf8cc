"""A matrix as a small picture: colour tiles without numbers, its bold name at its left.

Where a matrix only has to be recognised, not read: the shelf of finished products
(learned projections), the strip that keeps Q, K and V in view above the heads (multi-head).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from manim import LEFT, Text, VGroup

from ..layout import LABEL_BUFF
from .grids import Tiles
from .text import centre_on_baseline, label

__all__ = ["PICTURE_H", "Picture", "picture"]

#: A picture is at most PICTURE_H tall: it stands beside or above what is read, never instead of it.
PICTURE_H = 0.9


@dataclass(frozen=True)
class Picture:
    """A named tile picture of a matrix."""

    name: Text  # the matrix's name, bold, in its colour
    tiles: Tiles  # (rows, cols) tiles, no numbers
    group: VGroup  # name and tiles, to place and animate together


def picture(tiles: Tiles, name: str, colour: str) -> Picture:
    """Name ``tiles`` where they stand: ``name`` left of them, on the baseline of their centre."""
    lab = label(name, "label", colour, weight="BOLD")
    centre_on_baseline(lab, tiles.get_center()).next_to(tiles, LEFT, buff=LABEL_BUFF, coor_mask=np.array([1, 0, 0]))
    return Picture(lab, tiles, VGroup(lab, tiles))
