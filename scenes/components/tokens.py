"""The words of a sentence in boxes: a token row, wrapped to a width, tinted by weights."""

from __future__ import annotations

from collections.abc import Sequence

from manim import DOWN, LEFT, RIGHT, RoundedRectangle, VGroup, VMobject

from ..layout import ITEM_BUFF
from ..theme import SIZE, Theme
from .shapes import made
from .text import centre_on_baseline, label, right_to_left

__all__ = ["TokenRow", "wrap_token_row", "fitted_token_row", "tint_tokens"]


#: Between the lines of a wrapped sentence.
WRAP_LINE_BUFF = 0.16


class TokenRow(VGroup):
    """The words of a sentence in boxes; the focus word is outlined in the accent colour.

    Attributes: ``boxes`` and ``words`` (one each per token, in the sentence's order); the
    row's items are ``VGroup(box, word)``. The row reads as its sentence does (``reading``: a
    direction): an Arabic or Hebrew sentence from right to left, its first word at the right
    (``start``: the edge of its first word).

    Examples
    --------
    .. manim:: TokenRowExample
        :quality: low
        :save_last_frame:

        from attncore import default_lesson, trace_lesson
        from scenes.components import Theme, TokenRow

        class TokenRowExample(Scene):
            def construct(self):
                theme = Theme(style="dark")
                self.camera.background_color = theme["background"]
                ctx = trace_lesson(default_lesson()).contexts[0]
                self.add(TokenRow(ctx.tokens, theme, focus=ctx.focus_index))
    """

    def __init__(self, tokens: Sequence[str], theme: Theme, focus: int | None = None, size: str = "body") -> None:
        super().__init__()
        self.words = VGroup()
        self.boxes = VGroup()
        for k, tok in enumerate(tokens):
            t = label(tok, size, theme["text"])
            box = made(
                RoundedRectangle, corner_radius=0.08, width=max(t.width + 0.3, 0.8), height=SIZE[size] / 48 + 0.18,
                stroke_color=theme["accent"] if k == focus else theme["grid"], stroke_width=3 if k == focus else 1.5,
                fill_color=theme["panel"], fill_opacity=1,
            )
            centre_on_baseline(t, box.get_center())
            self.boxes.add(box)
            self.words.add(t)
            self.add(VGroup(box, t))
        rtl = right_to_left(" ".join(tokens))
        self.reading = LEFT if rtl else RIGHT
        self.start = RIGHT if rtl else LEFT  # the edge its first word is at: rows stacked align there
        self.arrange(self.reading, buff=ITEM_BUFF)


def wrap_token_row(row: TokenRow, width: float, buff: float = ITEM_BUFF, line_buff: float = WRAP_LINE_BUFF) -> TokenRow:
    """Re-flow a :class:`TokenRow` onto as many centred lines as it needs to fit ``width``.

    A long sentence in a narrow column keeps its font size instead of shrinking below
    the readable minimum; only a single word wider than ``width`` scales the row down.
    """
    # first try one line with tighter spacing
    items = list(row.submobjects)
    one_line = sum(it.width for it in items) + (len(items) - 1) * 0.12
    if one_line <= width:
        row.arrange(row.reading, buff=min(buff, (width - one_line) / max(len(items) - 1, 1) + 0.12))
        return row
    lines: list[list[VMobject]] = [[]]
    used = 0.0
    for item in row.submobjects:
        w = item.width
        if lines[-1] and used + buff + w > width:
            lines.append([])
            used = 0.0
        used += (buff if lines[-1] else 0.0) + w
        lines[-1].append(item)
    VGroup(*(VGroup(*line).arrange(row.reading, buff=buff) for line in lines)).arrange(DOWN, buff=line_buff)
    if row.width > width:
        row.scale_to_fit_width(width)
    return row


def fitted_token_row(tokens: Sequence[str], theme: Theme, width: float, sizes: Sequence[str], *,
                     focus: int | None = None, wrap_size: str = "body", line_buff: float = WRAP_LINE_BUFF) -> TokenRow:
    """The sentence on one line in the largest of ``sizes`` that fits ``width``; long words
    (German's) that fit none wrap (:func:`wrap_token_row`) in ``wrap_size``."""
    for size in sizes:
        row = TokenRow(tokens, theme, focus=focus, size=size)
        if row.width <= width:
            return row
    return wrap_token_row(TokenRow(tokens, theme, focus=focus, size=wrap_size), width, line_buff=line_buff)


def tint_tokens(row: TokenRow, weights: Sequence[float], theme: Theme) -> list[object]:
    """Animations: each word's box takes the heat colour of its weight (dark ink on bright
    boxes, by :meth:`Theme.heat_ink`'s rule)."""
    anims: list[object] = []
    for box, word, w in zip(row.boxes, row.words, weights):
        anims.append(box.animate.set_fill(theme.heat(w), opacity=1))
        if theme.heat_ink(w) != theme["text"]:
            anims.append(word.animate.set_color(theme.heat_ink(w)))
    return anims
