"""Vectors and weight rows as bar charts, with their numbers kept readable."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from manim import DOWN, LEFT, RIGHT, UP, AnimationGroup, GrowFromEdge, Line, Mobject, Rectangle, Text, VGroup

from attncore import round_matrix

from ..layout import SMALL_BUFF
from ..theme import SIZE, Theme
from .numbers import Num, Source
from .placement import boxes_touch, stagger_names
from .text import label

__all__ = ["VectorBars", "WeightBars", "bar_names", "grow_bars", "readable_numbers"]


class VectorBars(VGroup):
    """A vector as one bar per named dimension, coloured by dimension, value on top.

    The bar heights share ``max_abs`` so that two VectorBars built with the same
    ``max_abs`` compare at a glance; negative values hang below the baseline. Names go
    under the bars with :func:`bar_names`.

    Attributes: ``baseline``; ``bars`` and ``nums`` (one per dimension: :meth:`num`).
    """

    def __init__(
        self,
        values: Sequence[float],
        dims: Sequence[str],
        decimals: int,
        source: Callable[[int], Source],
        theme: Theme,
        *,
        max_abs: float,
        height: float = 1.6,
        bar_w: float = 0.42,
        gap: float = 0.22,
    ) -> None:
        super().__init__()
        self.bars = VGroup()
        self.nums = VGroup()
        scale = height / max(max_abs, 1e-9)
        width = len(values) * bar_w + (len(values) - 1) * gap
        self.baseline = Line(LEFT * 0.1, RIGHT * (width + 0.1), stroke_color=theme["grid"], stroke_width=2)
        self.add(self.baseline)
        x0 = self.baseline.get_left()[0] + 0.1
        for k, (v, name) in enumerate(zip(values, dims)):
            h = max(abs(v) * scale, 0.02)
            bar = Rectangle(width=bar_w, height=h, stroke_width=0, fill_color=theme.dim(name), fill_opacity=0.95)
            x = x0 + bar_w / 2 + k * (bar_w + gap)
            bar.move_to((x, h / 2 if v >= 0 else -h / 2, 0.0))
            num = Num(v, decimals, source(k), size="small", color=theme["text"])
            if num.width > bar_w + gap * 0.9:
                num.scale_to_fit_width(bar_w + gap * 0.9)
            num.next_to(bar, UP if v >= 0 else DOWN, buff=0.08)
            self.bars.add(bar)
            self.nums.add(num)
        self.add(self.bars, self.nums)

    def num(self, k: int) -> Num:
        """The number over (or under) bar ``k``."""
        return cast(Num, self.nums[k])


class WeightBars(VGroup):
    """One row of attention weights as vertical bars over the words they go to.

    Heights share one scale (a weight of 1 is ``height`` tall) so that two charts built
    with the same ``height`` compare at a glance. ``weights`` are the trace's (exact) weights:
    each number shows its weight as a frame shows one (too small to show: ``<0.01``), each bar
    is as tall as its number reads; ``source(j)`` names each in the trace.

    Attributes: ``bars``, ``nums``, ``words``, ``baseline``; ``peak`` is the index of the
    largest weight. ``head`` (a title over the chart) and ``box`` (an outline) are for the
    scene that shows the chart to set.
    """

    def __init__(
        self,
        weights: Sequence[float],
        tokens: Sequence[str],
        decimals: int,
        source: Callable[[int], Source],
        theme: Theme,
        *,
        col_w: float,
        height: float = 2.5,
    ) -> None:
        super().__init__()
        shown = round_matrix(weights, decimals)
        n = len(tokens)
        self.bars, self.nums, self.words = VGroup(), VGroup(), VGroup()
        self.head: Mobject | None = None
        self.box: Mobject | None = None
        self.baseline = Line(LEFT * 0.05, RIGHT * (n * col_w + 0.05), stroke_color=theme["grid"], stroke_width=2)
        self.peak = int(max(range(n), key=lambda k: shown[k]))
        for k, (w, tok) in enumerate(zip(shown, tokens)):
            x = (k + 0.5) * col_w
            h = max(float(w) * height, 0.02)
            bar = Rectangle(width=col_w * 0.62, height=h, stroke_width=0, fill_color=theme["weight"],
                            fill_opacity=0.95)
            bar.move_to((x, h / 2, 0.0))
            num = Num(weights[k], decimals, source(k), size="cell", color=theme["text"])
            if num.width > col_w * 0.95:
                num.scale_to_fit_width(col_w * 0.95)
            num.next_to(bar, UP, buff=SMALL_BUFF)
            word = label(tok, "small", theme["key"])
            word.move_to((x, -0.28, 0.0))
            self.bars.add(bar)
            self.nums.add(num)
            self.words.add(word)
        # Long words alternate in height rather than shrink.
        ws = list(self.words)
        if any(ws[k].get_right()[0] + 0.1 > ws[k + 1].get_left()[0] for k in range(n - 1)):
            for k in range(1, n, 2):
                ws[k].shift(DOWN * 0.32)
        self.add(self.baseline, self.bars, self.nums, self.words)

    def num(self, k: int) -> Num:
        """The number over bar ``k``."""
        return cast(Num, self.nums[k])


def bar_names(bars: VectorBars, names: Sequence[str], theme: Theme, size: str = "small") -> VGroup:
    """Dimension names under a :class:`VectorBars`, staggered when crowded."""
    texts = [label(nm, size, theme.dim(nm)) for nm in names]
    low = min([float(bars.baseline.get_y())] + [float(m.get_bottom()[1]) for m in (*bars.bars, *bars.nums)])
    return stagger_names(texts, [float(b.get_x()) for b in bars.bars], low - 0.1, above=False)


def grow_bars(bars: VectorBars) -> AnimationGroup:
    """Animation: every bar grows out of the baseline (up for a positive value, down for a negative)."""
    y = bars.baseline.get_y()
    return AnimationGroup(*(GrowFromEdge(b, DOWN if b.get_center()[1] >= y else UP) for b in bars.bars))


def readable_numbers(bars: VectorBars, size: str = "small", gap: float = 0.1, max_lines: int | None = None) -> VGroup:
    """Give the numbers of ``bars`` back their font size and move apart those that collide.

    :class:`VectorBars` shrinks a number wider than its bar; with many dimensions that
    makes it unreadable. Here every number returns to ``size`` at the end of its bar and
    a number that would touch one already placed steps a line further out. With
    ``max_lines``, a number that would need more lines is left out (the largest values are
    placed first, so the bars that matter keep theirs): the bars still show it.
    """
    placed: list[Text] = []
    order = list(range(len(bars.nums)))
    if max_lines is not None:
        order.sort(key=lambda k: -bars.num(k).value)
    dropped = []

    for k in order:
        num, bar = bars.num(k), bars.bars[k]
        up = num.value >= 0
        if num.font_size < SIZE[size]:
            num.scale(SIZE[size] / num.font_size)
        num.next_to(bar, UP if up else DOWN, buff=0.08)
        lines = 1
        while any(boxes_touch(num, p, gap, 0.04) for p in placed) and lines <= len(bars.nums):
            num.shift((UP if up else DOWN) * (num.height + 0.08))
            lines += 1
        if max_lines is not None and lines > max_lines:
            dropped.append(num)
        else:
            placed.append(num)
    bars.nums.remove(*dropped)
    return bars.nums
