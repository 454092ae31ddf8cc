"""Vectors and weight rows as bar charts, with their numbers kept readable."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    AnimationGroup,
    GrowFromEdge,
    Line,
    Rectangle,
    SurroundingRectangle,
    Text,
    VGroup,
)

from attncore import round_matrix

from ..layout import SMALL_BUFF
from ..theme import SIZE, Theme
from .grids import turn_angle
from .numbers import Num, Source
from .placement import boxes_touch, header_row, stagger_names
from .shapes import made
from .sizing import readable_scale
from .text import label, label_extent, text_baseline

__all__ = [
    "VectorBars",
    "WeightBars",
    "bar_names",
    "bar_word_angle",
    "names_pitch",
    "bar_words_depth",
    "grow_bars",
    "readable_numbers",
]


class VectorBars(VGroup):
    """A vector as one bar per named dimension, coloured by dimension, value on top.

    The bar heights share ``max_abs`` so that two VectorBars built with the same
    ``max_abs`` compare at a glance; negative values hang below the baseline. Names go
    under the bars with :func:`bar_names`.

    Attributes: ``baseline``; ``bars`` and ``nums`` (one per dimension: :meth:`num`).

    Examples
    --------
    .. manim:: VectorBarsExample
        :quality: low
        :save_last_frame:

        from attncore import default_lesson, trace_lesson
        from scenes.components import Source, Theme, VectorBars

        class VectorBarsExample(Scene):
            def construct(self):
                theme = Theme(style="dark")
                self.camera.background_color = theme["background"]
                ctx = trace_lesson(default_lesson()).contexts[0]
                i = ctx.focus_index  # "mouse": its embedding, one bar per dimension
                bars = VectorBars(ctx.embeddings[i], ctx.dimensions, 2, lambda k: Source(0, "embeddings", (i, k)),
                theme,
                                  max_abs=3, height=2.5, bar_w=0.8, gap=0.4)
                self.add(bars.move_to(ORIGIN))
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
            bar = made(Rectangle, width=bar_w, height=h, stroke_width=0, fill_color=theme.dim(name), fill_opacity=0.95)
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


#: A weight bar fills BAR_FILL of its column; its number at most NUM_FILL (shrunk to it).
BAR_FILL, NUM_FILL = 0.62, 0.95
#: Room kept across between two numbers over neighbouring bars; a number that would come
#: closer steps a line up (issue 24: "<0.01<0.01<0.01" read as one long number).
NUM_GAP = 0.1
#: Between a stepped number's line and the next, and the least gap down between two numbers.
NUM_LINE_GAP, NUM_GAP_Y = 0.08, 0.04
#: The outline round the largest weight: round its bar and number where the neighbours'
#: numbers leave room, else round its bar alone, closer (its number then sits over it).
OUTLINE_BUFF, OUTLINE_BUFF_TIGHT = SMALL_BUFF, 0.05
#: The least gap across between the outline and a neighbour's number (a line, not a text:
#: less than NUM_GAP keeps the numbers beside a tall peak on their bars).
OUTLINE_GAP = 0.05
#: Upright words under the bars: centred this far under the baseline, at least WORD_GAP
#: apart; else turned (scenes.components.grids.TURN), hanging from their columns.
WORD_Y, WORD_GAP = -0.28, 0.1
#: The names under a VectorBars keep this far under its lowest bar or number.
NAME_DROP = 0.1


def bar_word_angle(tokens: Sequence[str], col_w: float, size: str = "small") -> float:
    """The angle of the words under a :class:`WeightBars` (or the names under a :class:`VectorBars`:
    :func:`bar_names`) with columns ``col_w`` wide: 0 (upright) when neighbours keep
    :data:`WORD_GAP` side by side, else turned as a grid's column labels are
    (:func:`~scenes.components.grids.turn_angle`)."""
    widths = [label_extent(t, size)[0] for t in tokens]
    if all((a + b) / 2 + WORD_GAP <= col_w for a, b in zip(widths, widths[1:], strict=False)):
        return 0.0
    return turn_angle(col_w, size)


def names_pitch(names: Sequence[str], pitch: float, room: float, size: str = "small") -> float:
    """The pitch of bars whose names (:func:`bar_names`, or the caller's) should keep upright on one
    line: ``pitch`` where they do, else as wide as they need (neighbours :data:`WORD_GAP` apart)
    where ``room`` (the widest pitch the caller has room for) allows, else ``pitch`` (they turn,
    or the caller names the bars otherwise)."""
    widths = [label_extent(t, size)[0] for t in names]
    # a hair more, or bars exactly this far apart would fail the placing's own comparison by a rounding
    wide = max(((a + b) / 2 for a, b in zip(widths, widths[1:], strict=False)), default=0.0) + WORD_GAP + 1e-6
    return wide if bar_word_angle(names, pitch, size) and wide <= room else pitch


def bar_words_depth(tokens: Sequence[str], col_w: float) -> float:
    """How far under the baseline the words of a :class:`WeightBars` reach (0 when upright:
    the caller's usual room)."""
    angle = bar_word_angle(tokens, col_w)
    if not angle:
        return 0.0
    return SMALL_BUFF + max(
        float(label_extent(t, "small")[0] * np.sin(angle) + label_extent(t, "small")[1] * np.cos(angle)) for t in tokens
    )


def _hang(word: Text, x: float, top: float, angle: float) -> Text:
    """``word`` turned by ``angle`` about the end of its baseline, ending under the column's centre
    ``x`` with its ink ``SMALL_BUFF`` under ``top``: read upwards, it arrives at its bar (a bar
    chart's usual slanted labels). Marked ``turned`` for the layout tests."""
    word.shift(np.array([-float(word.get_right()[0]), -text_baseline(word), 0.0]))
    cap = float(word.height)
    word.rotate(angle, about_point=np.zeros(3))
    word.shift(np.array([x + cap / 2 * np.sin(angle), top - SMALL_BUFF - float(word.get_top()[1]), 0.0]))
    word.turned = angle  # type: ignore[attr-defined]
    return word


class WeightBars(VGroup):
    """One row of attention weights as vertical bars over the words they go to.

    Heights share one scale (a weight of 1 is ``height`` tall) so that two charts built
    with the same ``height`` compare at a glance. ``weights`` are the trace's (exact) weights:
    each number shows its weight as a frame shows one (too small to show: ``<0.01``), each bar
    is as tall as its number reads; ``source(j)`` names each in the trace. Crowded numbers step
    up a line (the largest weights keep theirs); crowded words are turned (:func:`bar_word_angle`).

    Attributes: ``bars``, ``nums``, ``words``, ``baseline``; ``peak`` is the index of the
    largest weight, ``outline`` its outline (not added: the scene draws it).

    Examples
    --------
    .. manim:: WeightBarsExample
        :quality: low
        :save_last_frame:

        from attncore import default_lesson, trace_lesson
        from scenes.components import Source, Theme, WeightBars

        class WeightBarsExample(Scene):
            def construct(self):
                theme = Theme(style="dark")
                self.camera.background_color = theme["background"]
                ctx = trace_lesson(default_lesson()).contexts[0]
                i = ctx.focus_index  # where "mouse" looks: its row of the attention matrix
                bars = WeightBars(ctx.attention[i], ctx.tokens, 2, lambda j: Source(0, "attention", (i, j)), theme,
                                  col_w=1.3, height=3)
                self.add(VGroup(bars, bars.outline).move_to(ORIGIN))  # the outline: around the largest weight
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
        self.baseline = Line(LEFT * 0.05, RIGHT * (n * col_w + 0.05), stroke_color=theme["grid"], stroke_width=2)
        self.peak = int(max(range(n), key=lambda k: shown[k]))
        for k, w in enumerate(shown):
            h = max(float(w) * height, 0.02)
            bar = made(Rectangle, width=col_w * BAR_FILL, height=h, stroke_width=0, fill_color=theme["weight"],
                       fill_opacity=0.95)
            self.bars.add(bar.move_to(((k + 0.5) * col_w, h / 2, 0.0)))
            num = Num(weights[k], decimals, source(k), size="cell", color=theme["text"])
            # At most NUM_FILL of its column, but never unreadable: a wider number steps up a
            # line rather than touch its neighbours' (it stays clear of their bars, which are
            # narrower than their columns).
            widest = max(col_w * NUM_FILL, float(num.width) * readable_scale("cell"))
            if num.width > widest:
                num.scale_to_fit_width(widest)
            self.nums.add(num.next_to(bar, UP, buff=SMALL_BUFF))
        self.outline = self._place_numbers([float(w) for w in shown], theme)
        if self._add_words(tokens, col_w, theme):
            # turned words rise to just under the baseline: the outline stops short of them
            self.outline.stretch_to_fit_height(self.outline.get_top()[1] + OUTLINE_BUFF_TIGHT, about_edge=UP)
        self.add(self.baseline, self.bars, self.nums, self.words)

    def _place_numbers(self, shown: Sequence[float], theme: Theme) -> SurroundingRectangle:
        """Step crowded numbers up, largest weights first, clear of each other and of the
        peak's outline; return the outline."""
        peak_bar, peak_num = self.bars[self.peak], self.num(self.peak)
        wide = SurroundingRectangle(VGroup(peak_bar, peak_num), color=theme["accent"], buff=OUTLINE_BUFF)
        others = [m for k, m in enumerate(self.nums) if k != self.peak]
        if not any(boxes_touch(wide, m, OUTLINE_GAP) for m in others):
            outline = wide
        else:
            outline = SurroundingRectangle(peak_bar, color=theme["accent"], buff=OUTLINE_BUFF_TIGHT)
            peak_num.next_to(outline, UP, buff=SMALL_BUFF)
        placed = [outline, peak_num]
        for k in sorted(range(len(shown)), key=lambda k: -shown[k]):
            num = self.num(k)
            if k == self.peak:
                continue
            lines = 1
            while (any(boxes_touch(num, p, NUM_GAP, NUM_GAP_Y) for p in placed[1:])
                   or boxes_touch(num, outline, OUTLINE_GAP)) and lines <= len(shown):
                num.shift(UP * (num.height + NUM_LINE_GAP))
                lines += 1
            placed.append(num)
        return outline

    def _add_words(self, tokens: Sequence[str], col_w: float, theme: Theme) -> float:
        """The words under the bars: upright on one line, or turned (:func:`bar_word_angle`: the
        angle, returned)."""
        angle = bar_word_angle(tokens, col_w)
        for k, tok in enumerate(tokens):
            word = label(tok, "small", theme["key"])
            x = (k + 0.5) * col_w
            self.words.add(_hang(word, x, 0.0, angle) if angle else word.move_to((x, WORD_Y, 0.0)))
        return angle

    def num(self, k: int) -> Num:
        """The number over bar ``k``."""
        return cast(Num, self.nums[k])


def bar_names(bars: VectorBars, names: Sequence[str], theme: Theme, size: str = "small") -> VGroup:
    """Dimension names under a :class:`VectorBars` (under its lowest bar or number), marked a header
    row: upright on one line where neighbours keep apart, else turned and hanging from their bars
    as the words of a :class:`WeightBars` do (:func:`bar_word_angle`; issue 24: staggered on two
    lines they climbed a staircase)."""
    texts = [label(nm, size, theme.dim(nm)) for nm in names]
    low = min([float(bars.baseline.get_y())] + [float(m.get_bottom()[1]) for m in (*bars.bars, *bars.nums)])
    xs = [float(b.get_x()) for b in bars.bars]
    angle = bar_word_angle(names, xs[1] - xs[0], size) if len(xs) > 1 else 0.0
    if angle:
        return header_row(VGroup(*(_hang(t, x, low - NAME_DROP + SMALL_BUFF, angle) for t, x in zip(texts, xs))))
    return stagger_names(texts, xs, low - NAME_DROP, above=False)


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
