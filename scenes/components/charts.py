"""Charts over training steps: a loss curve on Manim's own ``Axes``.

Manim draws the axes and the line (``Axes.plot_line_graph``); the chart shows no tick
numbers of Manim's own (they are ``MathTex``, and no value may reach the screen except
as a :class:`~scenes.components.Num` with its source): the scene puts the numbers it
wants beside the points with :meth:`LossCurve.label_step` and :meth:`LossCurve.label_value`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from manim import DOWN, LEFT, UP, UR, Axes, Dot, Mobject, VGroup, VMobject

from ..layout import ITEM_BUFF, LABEL_BUFF
from ..theme import Theme

__all__ = ["LossCurve"]


class LossCurve(VGroup):
    """A loss per training step as a line from step 0 to the last step, on axes from 0.

    ``values[k]`` is the loss after ``k`` updates. ``marks`` are steps to pick out with a
    dot on the line (e.g. where attention rows were kept). The y axis runs from 0 to the
    largest value, so that a fall to a quarter reads as a quarter of the height.

    Attributes: ``axes`` (Manim's ``Axes``, no tips, no numbers), ``line`` (the curve),
    ``dots`` (one per mark, in the order given), ``values``.

    Examples
    --------
    ``chart = LossCurve(trace.training.loss, theme, width=9, height=4, marks=(0, 50, 300))``
    then ``chart.label_value(Num(...), 0)`` puts a number beside the first point.
    """

    def __init__(self, values: Sequence[float], theme: Theme, *, width: float, height: float,
                 marks: Sequence[int] = (), colour: str | None = None) -> None:
        super().__init__()
        if len(values) < 2:
            raise ValueError("a loss curve needs at least two steps")
        self.values = tuple(float(v) for v in values)
        last = len(self.values) - 1
        top = max(self.values) or 1.0
        self.axes = Axes(
            x_range=(0, last, last), y_range=(0, top, top), x_length=width, y_length=height, tips=False,
            axis_config={"include_numbers": False, "include_ticks": False, "stroke_color": theme["grid"],
                         "stroke_width": 2},
        )
        line_colour = colour or theme["weight"]
        graph = self.axes.plot_line_graph(range(len(self.values)), self.values, line_color=line_colour,
                                          add_vertex_dots=False, stroke_width=4)
        self.line: VMobject = graph["line_graph"]
        self.dots = VGroup(*(Dot(self.point(k), radius=0.07, color=theme["accent"]) for k in marks))
        self.add(self.axes, self.line, self.dots)

    def point(self, step: int) -> np.ndarray:
        """The point of the line at ``step``."""
        return np.asarray(self.axes.c2p(step, self.values[step]))

    def label_step(self, mob: Mobject, step: int) -> Mobject:
        """Put ``mob`` (a step number) under the x axis at ``step``."""
        return mob.next_to(self.axes.c2p(step, 0), DOWN, buff=LABEL_BUFF)

    def label_value(self, mob: Mobject, step: int, direction: np.ndarray = UR) -> Mobject:
        """Put ``mob`` (a loss value) beside the point at ``step``, off the line."""
        return mob.next_to(self.point(step), direction, buff=ITEM_BUFF)

    def label_axis(self, x_title: VMobject, y_title: VMobject) -> VGroup:
        """Axis titles: ``x_title`` under the middle of the x axis, ``y_title`` over the y axis."""
        x_axis, y_axis = self.axes.x_axis, self.axes.y_axis
        x_title.next_to(x_axis, DOWN, buff=LABEL_BUFF)
        y_title.next_to(y_axis, UP, buff=LABEL_BUFF).align_to(y_axis, LEFT)
        return VGroup(x_title, y_title)
