"""Colour arithmetic the theme is held to: WCAG contrast, and colour pairs under simulated
colour-vision deficiencies. Plain numbers: no manim here, so a command can warn about a
lesson's colours without loading it.

**Contrast.** WCAG 2.1, success criterion 1.4.3 (Contrast, Minimum): text at least 4.5:1
against what is behind it, 3:1 for large text (18 pt, or 14 pt bold); 1.4.11 (Non-text
Contrast): 3:1 for graphics that carry meaning. The ratio is ``(L1 + 0.05) / (L2 + 0.05)``
of the two relative luminances, lighter over darker, and relative luminance is WCAG 2.1's
definition (https://www.w3.org/TR/WCAG21/#dfn-relative-luminance): each sRGB channel
linearised (``c / 12.92`` up to 0.04045, else ``((c + 0.055) / 1.055) ** 2.4``; WCAG prints
0.03928, which no 8-bit value falls between) and weighted 0.2126 R + 0.7152 G + 0.0722 B.

**Colour-blind safety.** Pairs of colours that must be told apart are simulated under
protanopia, deuteranopia and tritanopia with Machado, Oliveira & Fernandes (2009), "A
physiologically-based model for simulation of color vision deficiency" (IEEE TVCG 15(6)),
at severity 100, as the ``colorspacious`` library implements it (``sRGB1+CVD``), and their
CIEDE2000 colour difference (Sharma, Wu & Dalal 2005's implementation notes, whose test
pairs tests/test_theme.py checks) must stay at least :data:`MIN_CVD_DISTANCE` under each
simulation and for normal vision. Why 10: see docs/explanations/colours.md (Colours everyone can tell apart).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["AA_TEXT", "AA_LARGE", "AA_GRAPHIC", "MIN_CVD_DISTANCE", "VISIONS", "relative_luminance",
           "contrast_ratio", "ciede2000", "simulated_lab", "PairProblem", "close_pairs"]

#: WCAG 2.1 §1.4.3: normal text; large text (18 pt, 14 pt bold); §1.4.11: graphics.
AA_TEXT, AA_LARGE, AA_GRAPHIC = 4.5, 3.0, 3.0
#: The least CIEDE2000 distance between two colours that must be told apart, under every
#: simulated vision (docs/explanations/colours.md: about four just-noticeable differences of 2.3, as small marks need).
MIN_CVD_DISTANCE = 10.0
#: colorspacious' names of Machado 2009's three dichromacies, and what we call them.
VISIONS = {"protanopia": "protanomaly", "deuteranopia": "deuteranomaly", "tritanopia": "tritanomaly"}

RGB = tuple[float, float, float]


def rgb(colour: str | Sequence[float]) -> RGB:
    """``"#rrggbb"`` (or r, g, b in 0..1) as r, g, b in 0..1."""
    if isinstance(colour, str):
        h = colour.lstrip("#")
        return int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255
    r, g, b = (float(c) for c in colour[:3])
    return r, g, b


def relative_luminance(colour: str | Sequence[float]) -> float:
    """WCAG 2.1's relative luminance of an sRGB colour (0 black, 1 white)."""
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb(colour)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast_ratio(a: str | Sequence[float], b: str | Sequence[float]) -> float:
    """WCAG 2.1's contrast ratio of two colours, 1 to 21 (§1.4.3)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _hue(b: float, a: float) -> float:
    return math.degrees(math.atan2(b, a)) % 360 if (a or b) else 0.0


def ciede2000(lab1: Sequence[float], lab2: Sequence[float]) -> float:
    """The CIEDE2000 colour difference of two CIELAB colours (kL = kC = kH = 1)."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar**7 / (c_bar**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p, h2p = _hue(b1, a1p), _hue(b2, a2p)
    dh = 0.0 if c1p * c2p == 0 else (h2p - h1p + 180) % 360 - 180
    d_l, d_c = l2 - l1, c2p - c1p
    d_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh) / 2)
    l_bar, cp_bar = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_bar = (h1p + h2p) / 2
    else:
        h_bar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_bar - 30)) + 0.24 * math.cos(math.radians(2 * h_bar))
         + 0.32 * math.cos(math.radians(3 * h_bar + 6)) - 0.20 * math.cos(math.radians(4 * h_bar - 63)))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c, s_h = 1 + 0.045 * cp_bar, 1 + 0.015 * cp_bar * t
    r_t = (-math.sin(math.radians(60 * math.exp(-(((h_bar - 275) / 25) ** 2))))
           * 2 * math.sqrt(cp_bar**7 / (cp_bar**7 + 25**7)))
    return math.sqrt((d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (d_c / s_c) * (d_h / s_h))


def simulated_lab(colour: str, vision: str = "normal") -> tuple[float, float, float]:
    """CIELAB (D65) of ``colour`` as seen with ``vision`` ("normal" or a key of :data:`VISIONS`)."""
    import numpy as np
    from colorspacious import cspace_convert

    c = np.array(rgb(colour))
    if vision != "normal":
        space = {"name": "sRGB1+CVD", "cvd_type": VISIONS[vision], "severity": 100}
        c = np.clip(cspace_convert(c, space, "sRGB1"), 0, 1)
    lab = cspace_convert(c, "sRGB1", "CIELab")
    return float(lab[0]), float(lab[1]), float(lab[2])


@dataclass(frozen=True)
class PairProblem:
    """Two colours of a group that look alike under one vision."""

    group: str
    first: str
    second: str
    vision: str
    distance: float

    def __str__(self) -> str:
        return (f"{self.group}: {self.first} and {self.second} look alike under {self.vision} "
                f"(CIEDE2000 {self.distance:.1f}, under {MIN_CVD_DISTANCE:g})")


def close_pairs(group: str, colours: Mapping[str, str], least: float = MIN_CVD_DISTANCE) -> list[PairProblem]:
    """Every pair of ``colours`` (name: colour) closer than ``least`` under some vision, the worst vision each."""
    out = []
    for (n1, c1), (n2, c2) in itertools.combinations(colours.items(), 2):
        worst = min((ciede2000(simulated_lab(c1, v), simulated_lab(c2, v)), v) for v in ("normal", *VISIONS))
        if worst[0] < least:
            out.append(PairProblem(group, n1, n2, worst[1], worst[0]))
    return out
