"""Numbers on screen and where in the trace they come from.

Every number drawn is a :class:`Num`: it carries the exact value and a :class:`Source`
that names where in the attncore trace the value comes from, so tests can prove that
the number on screen equals the trace. :func:`resolve` is the one way from a source to
its value: the tests check with it, and :func:`~scenes.components.trace_grid` draws
with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from attncore import WORKED_EXTRA_DECIMALS, LessonTrace, exp_as_shown, fmt, worked_softmax_decimals
from attncore.display import fmt_weight
from attncore.i18n import N_, _

from ..theme import MONO, SIZE, active_theme
from .copying import IMMUTABLE
from .text import LightText

__all__ = [
    "APPROX",
    "EXTRA_DECIMALS",
    "EXP_ROW",
    "exp_row_name",
    "exp_row_marked",
    "softmax_row_decimals",
    "Source",
    "resolve",
    "Num",
    "ShapeLabel",
    "row_total",
    "number_cell_width",
    "is_weight",
    "shown_digits",
]


#: A worked softmax shows its scores and exponentials with at most this many decimals more
#: than the lesson's: enough for the ties of hand-made lessons (3.125), and still readable
#: in a row of eight words. Beyond, an exponential is shown ``≈``.
EXTRA_DECIMALS = WORKED_EXTRA_DECIMALS


def softmax_row_decimals(scores: Any, decimals: int) -> tuple[int, int]:
    """(decimals of the scores, of the exponentials and their sum) of a worked softmax row:
    :func:`attncore.softmax_decimals` with at most :data:`EXTRA_DECIMALS` more than ``decimals``."""
    return worked_softmax_decimals(scores, decimals)


#: The mark of a shown number that is not the shown operation on the numbers shown with it.
APPROX = "≈ "

#: The name of a worked row of exponentials; marked ``≈`` (on the name, for the whole
#: row) when one of them is not the exponential of its score as shown: a mark in every
#: cell would leave too little room for the digits when the row has many words.
# Translators: the name of a row of exponentials of the scores; keep "exp(...)".
EXP_ROW = N_("exp(score)")


def exp_row_name(scores: Any, decimals: int) -> str:
    """:data:`EXP_ROW`, marked ``≈`` when some exponential of the worked row ``scores``
    (−∞ allowed) is not the exponential of its score as shown (:func:`softmax_row_decimals`)."""
    return _(EXP_ROW) if not exp_row_marked(scores, decimals) else APPROX + _(EXP_ROW)


def exp_row_marked(scores: Any, decimals: int) -> bool:
    """Whether :func:`exp_row_name` of ``scores`` is marked ``≈`` (compare this, not the
    name, which is written in the viewer's language)."""
    x_dec, e_dec = softmax_row_decimals(scores, decimals)
    return not all(exp_as_shown(float(x), x_dec, e_dec) for x in np.asarray(scores, dtype=float).ravel())


@dataclass(frozen=True)
class Source:
    """Where a number comes from: ``trace.contexts[context].<name>(*args)[index]``.

    ``name`` is a dotted attribute path of :class:`attncore.ContextTrace` (e.g.
    ``"projected.attention"``, ``"multi_head.heads.0.output"``) or one of its methods
    (``"dot_terms"``), called with ``args``. A ``name`` starting with ``training.`` is a path from the lesson trace
    instead, into
    the history of the trained weights (``"training.loss"``, ``"training.snapshots.1"``,
    ``"training.claims.0.trained"``: :class:`attncore.TrainingTrace`); ``context`` then
    only says which sentence the number is about.
    """

    context: int
    name: str
    index: tuple[int, ...] = ()
    args: tuple[Any, ...] = ()


IMMUTABLE.add(Source)  # a frozen value: a copied number shares it


def resolve(trace: LessonTrace, src: Source) -> tuple[np.ndarray, Any]:
    """(the whole array or scalar named by ``src``, the value at ``src.index``)."""
    obj: Any = trace if src.name.startswith("training.") else trace.contexts[src.context]
    for part in src.name.split("."):
        obj = obj[int(part)] if part.isdigit() else getattr(obj, part)
    if callable(obj):
        obj = obj(*src.args)
    whole = np.asarray(obj, dtype=float)
    return whole, (whole[src.index] if src.index else whole)


class Num(LightText):
    """A number on screen, formatted by :func:`attncore.fmt` and tagged with its source.

    ``source=None`` is allowed only for constants of the design (the 0 and 1 of a colour
    legend), which must say so with ``constant=True``. ``approx=True`` prefixes ``"≈ "``: a
    total that the shown parts beside it do not add up to at the shown precision
    (:func:`attncore.adds_up`), or an exponential that is not the exponential of its
    operand as shown. The value and the digits stay ``fmt`` of the exact value.

    Examples
    --------
    .. manim:: NumExample
        :quality: low
        :save_last_frame:

        from attncore import default_lesson, trace_lesson
        from scenes.components import ITEM_BUFF, Num, Source, Theme, label, resolve

        class NumExample(Scene):
            def construct(self):
                theme = Theme(style="dark")
                self.camera.background_color = theme["background"]
                trace = trace_lesson(default_lesson())
                where = Source(0, "attention", (2, 2))  # context 0: "mouse" looking at itself
                _, value = resolve(trace, where)
                num = Num(value, 2, where, size="formula", color=theme["weight"])
                name = label("attention[mouse, mouse] =", "body", theme["text"])
                self.add(VGroup(name, num).arrange(RIGHT, buff=ITEM_BUFF))
    """

    def __init__(
        self,
        value: float,
        decimals: int,
        source: Source | None = None,
        *,
        constant: bool = False,
        size: str = "cell",
        color: str | None = None,
        plus: bool = False,
        approx: bool = False,
        **kwargs: Any,
    ) -> None:
        if source is None and not constant:
            raise ValueError("a Num needs the trace source of its value (or constant=True)")
        self.value = float(value)
        self.decimals = decimals
        self.source = source
        self.constant = constant
        self.approx = approx
        self.digits = shown_digits(value, decimals, source, plus=plus)  # what is shown, without the ≈ mark
        super().__init__(APPROX * approx + self.digits, font=MONO, font_size=SIZE[size],
                         color=color or active_theme()["text"], **kwargs)

    @property
    def spoken(self) -> str:
        """The number as the narration says it: its digits, after "about" when marked ``≈``."""
        # Translators: a number said aloud that is rounded ("about 0.26").
        return _("about {number}").format(number=self.digits) if self.approx else self.digits


class ShapeLabel(LightText):
    """A matrix shape such as ``5×4``, tagged with the trace array whose shape it states."""

    def __init__(self, shape: tuple[int, ...], source: Source, *, size: str = "small",
                 color: str | None = None) -> None:
        self.shape = tuple(int(s) for s in shape)
        self.source = source
        super().__init__("×".join(str(s) for s in self.shape), font=MONO, font_size=SIZE[size],
                         color=color or active_theme()["muted"])


def row_total(context: int, row: int, stage: str = "simple") -> Source:
    """The sum of one attention row (attncore's ``row_sums``): shown as the check that it is 1."""
    return Source(context, "row_sums", (row,), (stage,))


def is_weight(source: Source | None) -> bool:
    """Whether the number named by ``source`` is an attention weight (any stage, head, mask or
    training snapshot), shown by :func:`attncore.display.fmt_weight`."""
    return source is not None and ("attention" in source.name or source.name.startswith("training.snapshots"))


#: Quantities other than weights that are positive and read as "none" at 0.00: training's loss
#: (a KL divergence, 0 only when every answer is exactly right).
POSITIVE = ("training.loss",)


def shown_digits(value: float, decimals: int, source: Source | None, *, plus: bool = False) -> str:
    """What a :class:`Num` of ``value`` from ``source`` shows (without the ≈ mark): :func:`fmt`,
    and for a weight or a :data:`POSITIVE` quantity :func:`~attncore.display.fmt_weight` (too
    small to show: <0.01, never 0.00)."""
    small = is_weight(source) or (source is not None and source.name in POSITIVE)
    return fmt_weight(value, decimals) if small and not plus else fmt(value, decimals, plus=plus)


def widest_number(values: Any, decimals: int, size: str, prefix: str = "") -> float:
    """The width at ``size`` of the longest of ``values`` as shown (as a weight too: ``fmt_weight``
    is ``fmt`` but for a positive value too small to show, ``<0.01``), ``prefix`` before it."""
    longest = max((fmt_weight(v, decimals) for v in np.asarray(values, dtype=float).ravel()), key=len)
    return float(LightText(prefix + longest, font=MONO, font_size=SIZE[size]).width)  # laid out once per process


def number_cell_width(values: Any, decimals: int, size: str) -> float:
    """The narrowest cell that shows every value of ``values`` at ``size`` without shrinking it."""
    return widest_number(values, decimals, size) / 0.92 + 0.2
