"""Shapes made once and copied: a grid's cells, a chart's bars, a sentence's word boxes.

Manim makes every ``Rectangle`` anew: its corners, its curves, a colour object for each of
fill and stroke, the colour arrays for both (about 0.25 ms; a ``RoundedRectangle``, whose
corners are arcs, about 3 ms). A build of the lecture made 1,221 grid cells alone, the same
few sizes and colours again and again, and 1.1 s of a 12 s build of the 15 scenes went to
such constructors. A copy of the same shape made before takes about 0.02 ms and is the
same object (the same points, colours and widths: ``copy`` deep-copies every array), so
nothing on screen changes; ``tests/test_shapes.py`` compares each kind attribute by
attribute with a shape made anew.

Written here because Manim has no such cache (its own caching hashes whole scenes, not
mobjects), and ``functools.lru_cache`` would hand out the one shape itself: a copy must be
taken each time, since callers move, recolour and animate what they get.
"""

from __future__ import annotations

from typing import Any, TypeVar

import numpy as np
from manim import ManimColor, VMobject

__all__ = ["made", "MADE_MAX"]

V = TypeVar("V", bound=VMobject)

#: Shapes kept, by their class and arguments; cleared when it would grow past :data:`MADE_MAX`
#: (a build of the largest lesson makes a few hundred different ones, a chart's bars each its own height).
_MADE: dict[tuple[Any, ...], VMobject] = {}
MADE_MAX = 4_096


def _key(value: Any) -> Any:
    """``value`` as a key that tells apart everything that makes a different shape: a colour by
    its exact floats (two colours of one hexadecimal name may differ in the last digits of an
    interpolation), an array by its bytes, a number by its type and value."""
    if isinstance(value, ManimColor):
        return ("colour", tuple(float(x) for x in value.to_rgba()))
    if isinstance(value, np.ndarray):
        return ("array", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_key(v) for v in value))
    if isinstance(value, (str, bool, int, float, np.floating, np.integer)) or value is None:
        return (type(value).__name__, value)
    raise TypeError(f"made(): no key for an argument of type {type(value).__name__}")


def made(cls: type[V], **kwargs: Any) -> V:
    """A new ``cls(**kwargs)``: a copy of the one made before with the same arguments."""
    key = (cls, tuple(sorted((name, _key(v)) for name, v in kwargs.items())))
    template = _MADE.get(key)
    if template is None:
        if len(_MADE) >= MADE_MAX:
            _MADE.clear()
        template = _MADE[key] = cls(**kwargs)
    return template.copy()  # type: ignore[return-value]
