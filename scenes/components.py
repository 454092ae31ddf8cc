"""Reusable, typed mobject builders that every scene composes.

Why our own grid instead of Manim's ``Matrix``/``Table``: ``Matrix`` draws its brackets
with LaTeX (which we do not install), and both size each column to its content; a
heat map and a cell-by-cell transform from one matrix into the next need fixed,
equal cells that we can address as ``grid.cell(i, j)``. Everything else (Text,
Rectangle, Arrow, SurroundingRectangle, animations) is Manim's own.

Every number drawn is a :class:`Num`: it carries the exact value and a *source* that
names where in the attncore trace the value comes from, so tests can prove that the
number on screen equals the trace.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from manim import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    AnimationGroup,
    Arrow,
    Dot,
    GrowFromEdge,
    LaggedStart,
    Line,
    Mobject,
    Rectangle,
    RoundedRectangle,
    Text,
    TransformFromCopy,
    VGroup,
)

from attncore import fmt, round_rows_to_one

from .theme import FONT, MONO, SIZE, TIME, Theme

__all__ = [
    "Source",
    "LightText",
    "Num",
    "ShapeLabel",
    "label",
    "NumberGrid",
    "HeatLegend",
    "TokenRow",
    "VectorBars",
    "PipelineMarker",
    "Formula",
    "PIPELINE",
]


@dataclass(frozen=True)
class Source:
    """Where a number comes from: ``trace.contexts[context].<name>(*args)[index]``.

    ``name`` is a dotted attribute path of :class:`attncore.ContextTrace` (e.g.
    ``"projected.attention"``) or one of its methods (``"dot_terms"``), called with
    ``args``. ``rows_to_one`` marks attention weights shown with largest-remainder
    rounding, so that each displayed row sums to exactly 1.
    """

    context: int
    name: str
    index: tuple[int, ...] = ()
    args: tuple[Any, ...] = ()
    rows_to_one: bool = False


class LightText(Text):
    """Manim's ``Text`` without the parsed SVG path kept on every glyph.

    Manim keeps each glyph's svgelements path after turning it into points and never
    reads it again, yet ``Mobject.copy`` deep-copies it, and every animation copies what
    it animates. Dropping it makes a copy about 8× faster (9 ms → 1 ms for a short
    label), which is most of the time of a preview and a good part of a render.
    The points, which are all Manim draws, are untouched.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for m in self.get_family():
            m.__dict__.pop("path_obj", None)


class Num(LightText):
    """A number on screen, formatted by :func:`attncore.fmt` and tagged with its source.

    ``source=None`` is allowed only for constants of the design (the 0 and 1 of a colour
    legend), which must say so with ``constant=True``.
    """

    def __init__(
        self,
        value: float,
        decimals: int,
        source: Source | None = None,
        *,
        constant: bool = False,
        size: str = "cell",
        color: str = "#ece8e1",
        plus: bool = False,
        **kwargs: Any,
    ) -> None:
        if source is None and not constant:
            raise ValueError("a Num needs the trace source of its value (or constant=True)")
        self.value = float(value)
        self.decimals = decimals
        self.source = source
        self.constant = constant
        super().__init__(fmt(value, decimals, plus=plus), font=MONO, font_size=SIZE[size], color=color, **kwargs)


class ShapeLabel(LightText):
    """A matrix shape such as ``5×4``, tagged with the trace array whose shape it states."""

    def __init__(self, shape: tuple[int, ...], source: Source, *, size: str = "small", color: str = "#8d93a1") -> None:
        self.shape = tuple(int(s) for s in shape)
        self.source = source
        super().__init__("×".join(str(s) for s in self.shape), font=MONO, font_size=SIZE[size], color=color)


_DESCENDERS = set("gjpqy,;()[]{}|Qµ")


def baseline_y(t: Text) -> float:
    """The y of the text's baseline: the bottom of its first glyph without a descender.

    Manim centres a Text on its ink, so "and" and "mouse" centred in equal boxes sit at
    different heights; aligning baselines instead makes a row of words read as a line.
    """
    glyphs = [g for g in t.family_members_with_points() if g is not t]
    chars = [c for c in t.text if not c.isspace()]
    for g, c in zip(glyphs, chars):
        if c not in _DESCENDERS:
            return float(g.get_bottom()[1])
    return float(t.get_bottom()[1]) + 0.22 * t.height


def centre_on_baseline(t: Text, point: Any, cap_height: float | None = None) -> Text:
    """Move ``t`` so that its baseline sits where a capital letter centred at ``point`` would."""
    cap = cap_height if cap_height is not None else Text("H", font=t.font, font_size=t.font_size).height
    x = float(np.asarray(point)[0])
    y = float(np.asarray(point)[1])
    t.shift([x - t.get_center()[0], (y - cap / 2) - baseline_y(t), 0])
    return t


def label(text: str, size: str = "label", color: str = "#ece8e1", *, mono: bool = False, weight: str = "NORMAL") -> Text:
    """Plain text in the lecture's font. Use :class:`Num` for numbers, never this."""
    return LightText(text, font=MONO if mono else FONT, font_size=SIZE[size], color=color, weight=weight)


class CellGrid(VGroup):
    """Equal cells in rows and columns, addressed by (row, column), with optional row labels.

    What :class:`NumberGrid` and :class:`Tiles` share, so that either can stand for a
    matrix: ``cell``, ``row``, ``column``, ``row_entries``, ``body``.
    """

    def _lay_cells(self, n_rows: int, n_cols: int, cell_w: float, cell_h: float,
                   make: Callable[[int, int], Rectangle]) -> None:
        """Cells from ``make(i, j)``, cell (0, 0) at the origin, rows going down."""
        self.n_rows, self.n_cols = n_rows, n_cols
        self.cell_w, self.cell_h = cell_w, cell_h
        self.cells = VGroup()
        self.entries = VGroup()
        self._cells: list[list[Rectangle]] = []
        for i in range(n_rows):
            row = []
            for j in range(n_cols):
                rect = make(i, j).move_to(RIGHT * j * cell_w + DOWN * i * cell_h)
                row.append(rect)
                self.cells.add(rect)
            self._cells.append(row)

    def _add_row_labels(self, texts: Sequence[str] | None, size: str, colours: Sequence[str]) -> None:
        """Labels left of the rows, each on the baseline of its row's centre."""
        self.row_labels = VGroup()
        if texts is None:
            return
        for i, text in enumerate(texts):
            lab = label(text, size, colours[i])
            centre_on_baseline(lab, self._cells[i][0].get_center())
            lab.next_to(self._cells[i][0], LEFT, buff=0.15, coor_mask=np.array([1, 0, 0]))
            self.row_labels.add(lab)
        self.add(self.row_labels)

    def cell(self, i: int, j: int) -> Rectangle:
        return self._cells[i][j]

    def row(self, i: int) -> VGroup:
        return VGroup(*self._cells[i])

    def column(self, j: int) -> VGroup:
        return VGroup(*(r[j] for r in self._cells))

    def row_entries(self, i: int) -> VGroup:
        return VGroup()

    def body(self) -> VGroup:
        """The cells without labels."""
        return VGroup(self.cells)


class NumberGrid(CellGrid):
    """A matrix of numbers in equal cells, with optional row and column labels.

    Parameters
    ----------
    values : (rows, cols) array of exact values.
    decimals : display precision (one per grid, decided by the lesson).
    source : function ``(i, j) -> Source`` naming each value in the trace.
    row_labels, col_labels : texts beside/above the grid (token or dimension names).
    shown : optional (rows, cols) array of the values to display instead of ``values``
        (largest-remainder rounded attention rows); the source then says ``rows_to_one``.
    cell_w, cell_h : cell size in scene units.
    col_colours, row_colours : colours of the labels.

    Examples
    --------
    ``grid = NumberGrid(trace.scores, 2, lambda i, j: Source(0, "scores", (i, j)), ...)``
    then ``grid.cell(2, 0)`` is the rectangle and ``grid.entry(2, 0)`` the number.
    """

    def __init__(
        self,
        values: np.ndarray,
        decimals: int,
        source: Callable[[int, int], Source],
        theme: Theme,
        *,
        row_labels: Sequence[str] | None = None,
        col_labels: Sequence[str] | None = None,
        shown: np.ndarray | None = None,
        cell_w: float = 1.0,
        cell_h: float = 0.5,
        size: str = "cell",
        label_size: str = "label",
        col_colours: Sequence[str] | None = None,
        row_colours: Sequence[str] | None = None,
        fill: Callable[[int, int], Any] | None = None,
        number_colour: str | None = None,
    ) -> None:
        super().__init__()
        vals = np.asarray(values, dtype=float)
        disp = vals if shown is None else np.asarray(shown, dtype=float)
        self._lay_cells(*vals.shape, cell_w, cell_h, lambda i, j: Rectangle(
            width=cell_w, height=cell_h, stroke_color=theme["grid"], stroke_width=1.5,
            fill_color=fill(i, j) if fill else theme["panel"], fill_opacity=1.0,
        ))
        self._entries: list[list[Num]] = []
        for i in range(self.n_rows):
            erow = []
            for j in range(self.n_cols):
                num = Num(disp[i, j], decimals, source(i, j), size=size, color=number_colour or theme["text"])
                if num.width > cell_w * 0.92:
                    num.scale_to_fit_width(cell_w * 0.92)
                num.move_to(self._cells[i][j])
                erow.append(num)
                self.entries.add(num)
            self._entries.append(erow)
        self.add(self.cells, self.entries)
        self._add_row_labels(row_labels, label_size, row_colours or [theme["text"]] * self.n_rows)
        self.col_labels = VGroup()
        if col_labels is not None:
            for j, text in enumerate(col_labels):
                lab = label(text, label_size, (col_colours or [theme["text"]] * self.n_cols)[j])
                if lab.width > cell_w * 0.98:
                    # Shrink to fit the cell, but never below the smallest readable size.
                    lab.scale(max(cell_w * 0.98 / lab.width, SIZE["small"] / SIZE[label_size]))
                centre_on_baseline(lab, self._cells[0][j].get_top() + UP * 0.25)
                self.col_labels.add(lab)
            self.add(self.col_labels)

    def entry(self, i: int, j: int) -> Num:
        return self._entries[i][j]

    def row_entries(self, i: int) -> VGroup:
        return VGroup(*self._entries[i])

    def body(self) -> VGroup:
        """Cells and numbers without labels."""
        return VGroup(self.cells, self.entries)


class HeatLegend(VGroup):
    """A vertical colour ramp from 0 to 1 with its two end values."""

    def __init__(self, theme: Theme, height: float = 2.4, caption: str = "weight") -> None:
        super().__init__()
        steps = 24
        bar = VGroup(
            *(
                Rectangle(width=0.25, height=height / steps, stroke_width=0, fill_color=theme.heat(k / (steps - 1)), fill_opacity=1)
                for k in range(steps)
            )
        ).arrange(UP, buff=0)
        lo = Num(0, 0, constant=True, size="small", color=theme["muted"]).next_to(bar, DOWN, buff=0.1)
        hi = Num(1, 0, constant=True, size="small", color=theme["muted"]).next_to(bar, UP, buff=0.1)
        cap = label(caption, "small", theme["muted"]).next_to(hi, UP, buff=0.1)
        self.add(bar, lo, hi, cap)


class TokenRow(VGroup):
    """The words of a sentence in boxes; the focus word is outlined in the accent colour."""

    def __init__(self, tokens: Sequence[str], theme: Theme, focus: int | None = None, size: str = "body") -> None:
        super().__init__()
        self.words = VGroup()
        self.boxes = VGroup()
        for k, tok in enumerate(tokens):
            t = label(tok, size, theme["text"])
            box = RoundedRectangle(
                corner_radius=0.08, width=max(t.width + 0.3, 0.8), height=SIZE[size] / 48 + 0.18,
                stroke_color=theme["accent"] if k == focus else theme["grid"], stroke_width=3 if k == focus else 1.5,
                fill_color=theme["panel"], fill_opacity=1,
            )
            centre_on_baseline(t, box.get_center())
            self.boxes.add(box)
            self.words.add(t)
            self.add(VGroup(box, t))
        self.arrange(RIGHT, buff=0.2)


class VectorBars(VGroup):
    """A vector as one bar per named dimension, coloured by dimension, value on top.

    The bar heights share ``max_abs`` so that two VectorBars built with the same
    ``max_abs`` compare at a glance; negative values hang below the baseline.
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
        dim_labels: bool = True,
        colours: Sequence[str] | None = None,
    ) -> None:
        super().__init__()
        self.bars = VGroup()
        self.nums = VGroup()
        self.names = VGroup()
        scale = height / max(max_abs, 1e-9)
        width = len(values) * bar_w + (len(values) - 1) * gap
        self.baseline = Line(LEFT * 0.1, RIGHT * (width + 0.1), stroke_color=theme["grid"], stroke_width=2)
        self.baseline.shift(RIGHT * (-0.1 + 0.1))
        self.add(self.baseline)
        x0 = self.baseline.get_left()[0] + 0.1
        for k, (v, name) in enumerate(zip(values, dims)):
            colour = (colours[k] if colours else theme.dim(name))
            h = max(abs(v) * scale, 0.02)
            bar = Rectangle(width=bar_w, height=h, stroke_width=0, fill_color=colour, fill_opacity=0.95)
            x = x0 + bar_w / 2 + k * (bar_w + gap)
            if v >= 0:
                bar.move_to([x, h / 2, 0])
            else:
                bar.move_to([x, -h / 2, 0])
            num = Num(v, decimals, source(k), size="small", color=theme["text"])
            if num.width > bar_w + gap * 0.9:
                num.scale_to_fit_width(bar_w + gap * 0.9)
            num.next_to(bar, UP if v >= 0 else DOWN, buff=0.08)
            self.bars.add(bar)
            self.nums.add(num)
            if dim_labels:
                nm = label(name, "small", colour)
                nm.rotate(np.pi / 2.6) if nm.width > bar_w + gap else None
                nm.next_to([x, min(0, -h if v < 0 else 0), 0], DOWN, buff=0.35 if v < 0 else 0.12)
                self.names.add(nm)
        self.add(self.bars, self.nums, self.names)


#: The pipeline the lecture walks through, shown in every scene's header.
PIPELINE = ["X", "X·Xᵀ", "/√d", "softmax", "A·V", "projections", "heads"]


class PipelineMarker(VGroup):
    """``X → X·Xᵀ → /√d → softmax → A·V → projections → heads`` with the current stage lit."""

    def __init__(self, current: int, theme: Theme) -> None:
        super().__init__()
        self.stages = VGroup()
        parts: list[Any] = []
        for k, stage in enumerate(PIPELINE):
            colour = theme["accent"] if k == current else theme["muted"]
            t = label(stage, "pipeline", colour, weight="BOLD" if k == current else "NORMAL")
            self.stages.add(t)
            parts.append(t)
            if k < len(PIPELINE) - 1:
                parts.append(label("→", "pipeline", theme["grid"]))
        self.add(*parts)
        self.arrange(RIGHT, buff=0.14)
        if 0 <= current < len(PIPELINE):
            cur = self.stages[current]
            self.underline = Line(cur.get_corner(DOWN + LEFT), cur.get_corner(DOWN + RIGHT), stroke_color=theme["accent"], stroke_width=3).shift(DOWN * 0.07)
            self.add(self.underline)


class Formula(LightText):
    """The formula of the current step, with one term in the accent colour.

    ``Formula("A = softmax(X·Xᵀ / √d)", theme, highlight="softmax")``. Build the same
    formula with another ``highlight`` and ``Transform`` into it to move the light.
    """

    def __init__(self, text: str, theme: Theme, highlight: str | None = None, size: str = "formula") -> None:
        t2c = {highlight: theme["accent"]} if highlight else {}
        super().__init__(text, font=FONT, font_size=SIZE[size], color=theme["text"], t2c=t2c)
        self.formula = text


def arrow(start: Any, end: Any, colour: str, buff: float = 0.1) -> Arrow:
    return Arrow(start, end, buff=buff, color=colour, stroke_width=3, max_tip_length_to_length_ratio=0.15)


# --- several matrices on one screen (steps 9-11) -----------------------------------------

#: The room scenes may fill: between the header (y > 2.5) and the caption (y < -3.35).
CONTENT_LEFT, CONTENT_RIGHT, CONTENT_BOTTOM, CONTENT_TOP = -6.85, 6.85, -3.1, 2.45


class Provenance(LightText):
    """The one honest line on how the projection weights were obtained.

    Not a plain label: the line may contain digits (the seed), which is why it is a class
    of its own that tests can recognise. ``.provenance`` holds the text as attncore
    wrote it; the line is wrapped at word boundaries to ``max_width``.
    """

    def __init__(self, provenance: str, theme: Theme, *, max_width: float, size: str = "small") -> None:
        self.provenance = provenance

        def fits(line: str) -> bool:
            return Text(line, font=FONT, font_size=SIZE[size]).width <= max_width

        # One sentence a line when each fits; else wrap greedily at word boundaries.
        sentences = [s.strip() + "." for s in provenance.rstrip(".").split(". ")]
        if fits(provenance):
            lines = [provenance]
        elif all(fits(s) for s in sentences):
            lines = sentences
        else:
            lines = []
            for word in provenance.split():
                trial = f"{lines[-1]} {word}" if lines else word
                if lines and fits(trial):
                    lines[-1] = trial
                else:
                    lines.append(word)
        super().__init__("\n".join(lines), font=FONT, font_size=SIZE[size], color=theme["muted"], line_spacing=0.8)


class Tiles(CellGrid):
    """A matrix drawn as coloured cells without numbers, when there is no room for them.

    ``fill(i, j)`` returns ``(colour, opacity)``. Same addressing as :class:`NumberGrid`
    (``cell``, ``row``, ``column``, ``body``), so either can stand for a matrix.
    """

    def __init__(
        self,
        n_rows: int,
        n_cols: int,
        fill: Callable[[int, int], tuple[Any, float]],
        theme: Theme,
        *,
        cell_w: float,
        cell_h: float,
        row_labels: Sequence[str] | None = None,
        label_size: str = "small",
        stroke_width: float = 1.0,
    ) -> None:
        super().__init__()

        def tile(i: int, j: int) -> Rectangle:
            colour, opacity = fill(i, j)
            return Rectangle(width=cell_w, height=cell_h, stroke_color=theme["grid"], stroke_width=stroke_width,
                             fill_color=colour, fill_opacity=opacity)

        self._lay_cells(n_rows, n_cols, cell_w, cell_h, tile)
        self.add(self.cells)
        self._add_row_labels(row_labels, label_size, [theme["text"]] * n_rows)


Grid = NumberGrid | Tiles


def role_fill(values: np.ndarray, colour: str) -> Callable[[int, int], tuple[Any, float]]:
    """Tile fill for a matrix without numbers: the role colour, stronger for larger |value|."""
    m = float(np.max(np.abs(values))) or 1.0
    return lambda i, j: (colour, 0.12 + 0.88 * abs(float(values[i, j])) / m)


def heat_fill(shown: np.ndarray, theme: Theme) -> Callable[[int, int], tuple[Any, float]]:
    """Tile fill for attention weights: the lecture's heat ramp."""
    return lambda i, j: (theme.heat(float(shown[i, j])), 1.0)


def number_cell_width(values: Any, decimals: int, size: str) -> float:
    """The narrowest cell that shows every value of ``values`` at ``size`` without shrinking it."""
    longest = max((fmt(v, decimals) for v in np.asarray(values, dtype=float).ravel()), key=len)
    return Text(longest, font=MONO, font_size=SIZE[size]).width / 0.92 + 0.2


def label_width(texts: Sequence[str], size: str) -> float:
    return max((label(t, size).width for t in texts), default=0.0)


def fit_row(
    need: Sequence[float], cols: Sequence[int], room: float, fixed: float, give_up: Sequence[int],
    tile_max: float = 0.45, tile_min: float = 0.14,
) -> list[tuple[float, bool]]:
    """Cell width and numbers-or-tiles for each matrix of a row of matrices.

    ``need[k]``: cell width matrix ``k`` needs to show its numbers; ``cols[k]``: its
    columns; ``fixed``: everything else in the row (labels, operators, gaps). When the
    row is wider than ``room``, the matrices listed in ``give_up`` lose their numbers
    one after the other (they become :class:`Tiles`) until it fits.
    """
    numbers = [True] * len(cols)
    tw = tile_max
    for k in [None, *give_up]:
        if k is not None:
            numbers[k] = False
        used = sum(w * c for w, c, nm in zip(need, cols, numbers) if nm)
        tile_cols = sum(c for c, nm in zip(cols, numbers) if not nm)
        left = room - fixed - used
        if tile_cols == 0 and left >= 0:
            break
        if tile_cols and left / tile_cols >= tile_min:
            tw = min(tile_max, left / tile_cols)
            break
        tw = tile_min
    return [(w if nm else tw, nm) for w, nm in zip(need, numbers)]


def heat_grid(
    weights: np.ndarray, decimals: int, source: Callable[[int, int], Source], theme: Theme, *,
    numbers: bool, cell_w: float, cell_h: float, row_labels: Sequence[str] | None = None,
    size: str = "cell", label_size: str = "label",
) -> Grid:
    """An attention matrix as a heat map: rows rounded to one, numbers in a contrasting colour."""
    shown = round_rows_to_one(weights, decimals)
    fill = heat_fill(shown, theme)
    if not numbers:
        return Tiles(*weights.shape, fill, theme, cell_w=cell_w, cell_h=cell_h, row_labels=row_labels, label_size=label_size)
    grid = NumberGrid(
        weights, decimals, source, theme, shown=shown, fill=lambda i, j: fill(i, j)[0],
        cell_w=cell_w, cell_h=cell_h, size=size, row_labels=row_labels, label_size=label_size,
    )
    for i in range(grid.n_rows):
        for j in range(grid.n_cols):
            bright = float(np.clip(shown[i, j], 0, 1)) ** 0.5 > 0.55
            grid.entry(i, j).set_color(theme["background"] if bright else theme["text"])
    return grid


STAGGER = 0.34  # vertical step between staggered column labels


def label_levels(texts: Sequence[str], cell_w: float, size: str = "small") -> int:
    """How many staggered lines column labels need so that none shrinks or overlaps:
    1 when each word fits its column, k when each fits k columns."""
    widest = label_width(texts, size)
    if widest <= cell_w * 0.96:
        return 1
    return int(np.ceil((widest + 0.08) / cell_w))


def column_labels_height(texts: Sequence[str], cell_w: float, size: str = "small") -> float:
    return 0.1 + label("Hy", size).height + (label_levels(texts, cell_w, size) - 1) * STAGGER


def column_labels(grid: Grid, texts: Sequence[str], theme: Theme, colours: Sequence[str] | None = None,
                  size: str = "small") -> VGroup:
    """Labels above the columns of ``grid`` that never shrink below ``size``.

    Side by side when each word fits its column, else staggered on k lines so that labels
    on one line are k columns apart (each may then span k columns). Never turned upright:
    a rotated text would read as another font size in the tests.
    """
    cols = colours or [theme["text"]] * len(texts)
    labs = [label(t, size, c) for t, c in zip(texts, cols)]
    k = label_levels(texts, grid.cell_w, size)
    top = grid.body().get_top()[1]
    cap = label("H", size).height
    out = VGroup()
    for j, lab in enumerate(labs):
        x = grid.cell(0, j).get_center()[0]
        centre_on_baseline(lab, [x, top + 0.1 + cap / 2 + (j % k) * STAGGER, 0], cap)
        out.add(lab)
    return out


class MatrixBlock(VGroup):
    """A matrix with its name above it and its shape below: numeric (``ShapeLabel``) and symbolic."""

    def __init__(self, grid: Grid, name: Text | None = None, shape: ShapeLabel | None = None,
                 sym: Text | None = None, top: Mobject | None = None) -> None:
        super().__init__(grid)
        self.grid, self.name, self.shape, self.sym, self.top = grid, name, shape, sym, top
        for m in (top, name, shape, sym):
            if m is not None:
                self.add(m)

    def body(self) -> VGroup:
        return self.grid.body()

    def labels(self) -> VGroup:
        return VGroup(*(m for m in (self.top, self.name, self.shape, self.sym) if m is not None))

    def place_labels(self, name_y: float, shape_y: float) -> MatrixBlock:
        """Name with its capital-letter centre at ``name_y``, shape centred at ``shape_y``."""
        x = self.body().get_center()[0]
        if self.name is not None:
            centre_on_baseline(self.name, [x, name_y, 0])
        if self.shape is not None:
            self.shape.move_to([x, shape_y, 0])
            if self.sym is not None:
                self.sym.next_to(self.shape, DOWN, buff=0.08)
        return self

    def top_edge(self) -> float:
        """Top of the grid including its column labels."""
        return float(VGroup(self.body(), *([self.top] if self.top is not None else [])).get_top()[1])


EQ_BUFF = 0.22  # gap between a matrix and an operator


def named_block(grid: Grid, name: str, colour: str, shape: tuple[int, ...], source: Source, sym: str,
                theme: Theme, *, outline: bool = True) -> MatrixBlock:
    """A matrix in its role colour: name above (bold), ``ShapeLabel`` and symbolic shape below."""
    if outline:
        grid.cells.set_stroke(colour, width=1.5)
    return MatrixBlock(grid, label(name, "label", colour, weight="BOLD"), ShapeLabel(shape, source),
                       label(sym, "small", theme["muted"]))


def arrange_equation(items: Sequence[Mobject], *, buff: float = EQ_BUFF, name_gap: float = 0.28,
                     shape_gap: float = 0.22) -> VGroup:
    """Lay matrices (``MatrixBlock``) and operators left to right, bodies centred on y = 0.

    Names share one line above the tallest matrix, shapes one line below the lowest.
    """
    x = 0.0
    blocks = [it for it in items if isinstance(it, MatrixBlock)]
    for it in items:
        core = VGroup(it.grid, *([it.top] if it.top is not None else [])) if isinstance(it, MatrixBlock) else it
        centre_y = it.body().get_center()[1] if isinstance(it, MatrixBlock) else it.get_center()[1]
        it.shift(RIGHT * (x - core.get_left()[0]) + DOWN * centre_y)
        x = core.get_right()[0] + buff
    name_y = max(b.top_edge() for b in blocks) + name_gap
    shape_y = min(b.body().get_bottom()[1] for b in blocks) - shape_gap
    for b in blocks:
        b.place_labels(name_y, shape_y)
    return VGroup(*items)


def cap_centre(name: Text | None) -> float:
    """The y at which :func:`centre_on_baseline` put ``name`` (its capital-letter centre)."""
    assert name is not None
    cap = Text("H", font=name.font, font_size=name.font_size).height
    return baseline_y(name) + cap / 2


_ON_BASELINE = set("ABCDEFGHIKLMNORSTUVWXZabcdefhiklmnorstuvwxz0123456789")


def text_baseline(t: Text) -> float:
    """Baseline of ``t``: the bottom of its first letter that sits on the line (no descender,
    no punctuation), unlike ``baseline_y`` which a leading quote mark or "=" misleads."""
    glyphs = [g for g in t.family_members_with_points() if g is not t]
    for g, c in zip(glyphs, [c for c in t.text if not c.isspace()]):
        if c in _ON_BASELINE:
            return float(g.get_bottom()[1])
    return baseline_y(t)


def operator(symbol: str, theme: Theme) -> Mobject:
    """``"·"`` (drawn as a dot: the glyph is too small to see at 480p), ``"="`` or another sign."""
    if symbol == "·":
        return Dot(radius=0.06, color=theme["muted"])
    return label(symbol, "formula", theme["muted"])


def row_transfer(src: Grid, dst: Grid, run_time: float = TIME.transform) -> LaggedStart:
    """Row i of ``src`` flows into row i of ``dst``: a product computed row by row."""
    return LaggedStart(
        *(
            TransformFromCopy(VGroup(*src.row(i), *src.row_entries(i)), VGroup(*dst.row(i), *dst.row_entries(i)))
            for i in range(dst.n_rows)
        ),
        lag_ratio=0.15, run_time=run_time,
    )


# --- matrices of words (steps 3-5) ---------------------------------------------------
# Builders the matrix scenes (steps 3-5) share; the lead may move them to components.py.

#: Content area between the header (y > 2.5) and the caption (y < -3.35).
MATRIX_TOP = 2.35
MATRIX_BOTTOM = -3.2
#: Height reserved above a token matrix for its column labels (two staggered rows) and
#: the axis titles.
LABEL_ROOM = 1.0


def relabel_columns(grid: NumberGrid, texts: Sequence[str], theme: Theme, colours: Sequence[str], size: str) -> None:
    """Replace ``grid``'s column labels by :func:`~scenes.components.column_labels` (never
    shrunk: staggered over several lines when the words are wider than their columns)."""
    if len(grid.col_labels):
        grid.remove(grid.col_labels)
    grid.col_labels = column_labels(grid, texts, theme, colours, size=size)
    grid.add(grid.col_labels)


def text_size(cell_w: float, cell_h: float) -> str:
    """The SIZE key for numbers in cells of this size: larger type when the cells allow it."""
    return "body" if cell_w >= 1.05 and cell_h >= 0.55 else "cell"


def token_matrix(
    values: np.ndarray,
    decimals: int,
    source: Callable[[int, int], Source],
    theme: Theme,
    tokens: Sequence[str],
    *,
    cell_w: float,
    cell_h: float,
    heat: bool = False,
) -> NumberGrid:
    """An n×n matrix over the words of a sentence: rows = queries, columns = keys.

    Row labels are in the query colour, column labels in the key colour, so the
    convention reads at a glance. ``heat=True``: ``values`` are attention weights, drawn
    by :func:`~scenes.components.heat_grid` (rows rounded to one, heat-coloured cells).
    """
    size = text_size(cell_w, cell_h)
    lsize = "body" if size == "body" else "label"
    if heat:
        grid = heat_grid(
            values, decimals, source, theme, numbers=True, cell_w=cell_w, cell_h=cell_h,
            row_labels=list(tokens), size=size, label_size=lsize,
        )
        assert isinstance(grid, NumberGrid)
        grid.row_labels.set_color(theme["query"])
    else:
        grid = NumberGrid(
            values, decimals, source, theme, row_labels=list(tokens), cell_w=cell_w, cell_h=cell_h,
            row_colours=[theme["query"]] * len(tokens), size=size, label_size=lsize,
        )
    relabel_columns(grid, tokens, theme, [theme["key"]] * len(tokens), lsize)
    return grid


def axis_titles(grid: NumberGrid, theme: Theme) -> VGroup:
    """``query ↓`` and ``key →`` in the corner above the row labels of ``grid``."""
    key = label("key →", "small", theme["key"])
    query = label("query ↓", "small", theme["query"])
    x = grid.cells.get_left()[0] - 0.15
    base_y = min(lab.get_center()[1] for lab in grid.col_labels)
    key.move_to([x - key.width / 2, base_y, 0])
    query.move_to([x - query.width / 2, base_y + 0.36, 0])
    return VGroup(query, key)


def fit_cells(n_rows: int, n_cols: int, width: float, height: float, *, max_w: float = 1.15, max_h: float = 0.55) -> tuple[float, float]:
    """Cell width and height so that a grid of ``n_rows × n_cols`` fits ``width × height``."""
    return min(max_w, width / n_cols), min(max_h, height / n_rows)


def max_label_width(words: Sequence[str], size: str = "body") -> float:
    """Width of the longest word (at the largest size :func:`token_matrix` may use)."""
    return max(label(w, size).width for w in words)


class WeightBars(VGroup):
    """One row of attention weights as vertical bars over the words they go to.

    Heights share one scale (a weight of 1 is ``height`` tall) so that two charts built
    with the same ``height`` compare at a glance. ``shown`` are the displayed (rounded)
    weights; ``source(j)`` names each in the trace.

    Attributes: ``bars``, ``nums``, ``words``, ``baseline``; ``peak`` is the index of the
    largest weight.
    """

    def __init__(
        self,
        shown: Sequence[float],
        tokens: Sequence[str],
        decimals: int,
        source: Callable[[int], Source],
        theme: Theme,
        *,
        col_w: float,
        height: float = 2.5,
        colour: str | None = None,
        word_colour: str | None = None,
    ) -> None:
        super().__init__()
        n = len(tokens)
        self.bars, self.nums, self.words = VGroup(), VGroup(), VGroup()
        self.baseline = Line(LEFT * 0.05, RIGHT * (n * col_w + 0.05), stroke_color=theme["grid"], stroke_width=2)
        self.peak = int(max(range(n), key=lambda k: shown[k]))
        for k, (w, tok) in enumerate(zip(shown, tokens)):
            x = (k + 0.5) * col_w
            h = max(float(w) * height, 0.02)
            bar = Rectangle(width=col_w * 0.62, height=h, stroke_width=0, fill_color=colour or theme["weight"], fill_opacity=0.95)
            bar.move_to([x, h / 2, 0])
            num = Num(w, decimals, source(k), size="cell", color=theme["text"])
            if num.width > col_w * 0.95:
                num.scale_to_fit_width(col_w * 0.95)
            num.next_to(bar, UP, buff=0.1)
            word = label(tok, "small", word_colour or theme["key"])
            word.move_to([x, -0.28, 0])
            self.bars.add(bar)
            self.nums.add(num)
            self.words.add(word)
        # Long words alternate in height rather than shrink.
        ws = list(self.words)
        if any(ws[k].get_right()[0] + 0.1 > ws[k + 1].get_left()[0] for k in range(n - 1)):
            for k in range(1, n, 2):
                ws[k].shift(DOWN * 0.32)
        self.add(self.baseline, self.bars, self.nums, self.words)


def row_total(context: int, row: int, stage: str = "simple") -> Source:
    """The sum of one attention row (attncore's ``row_sums``): shown as the check that it is 1."""
    return Source(context, "row_sums", (row,), (stage,))


def strip(
    values: np.ndarray, decimals: int, source: Callable[[int, int], Source], theme: Theme, *, cell_w: float,
    cell_h: float, col_labels: Sequence[str] | None = None, heat: bool = False,
) -> NumberGrid:
    """One row of numbers (1×n) in cells. ``heat=True``: ``values`` is one row of attention
    weights, drawn like a row of the heat map (:func:`~scenes.components.heat_grid`)."""
    size = text_size(cell_w, cell_h)
    lsize = "body" if size == "body" else "label"
    vals = np.asarray(values, dtype=float)[None, :]
    if heat:
        g = heat_grid(vals, decimals, source, theme, numbers=True, cell_w=cell_w, cell_h=cell_h, size=size)
        assert isinstance(g, NumberGrid)
    else:
        g = NumberGrid(vals, decimals, source, theme, cell_w=cell_w, cell_h=cell_h, size=size)
    if col_labels:
        relabel_columns(g, col_labels, theme, [theme["key"]] * len(col_labels), lsize)
    return g


# --- attention rows, weighted sums, contexts side by side (steps 6-8) -------------------
def heat_grid_ink(grid: NumberGrid, weights: np.ndarray, theme: Theme, bright: float = 0.45) -> None:
    """Dark numbers on the bright cells of a heat map, light numbers on the dark ones.

    The heat ramp ends in the accent yellow, on which the light text colour is hard to
    read; from weight ``bright`` on (the ramp is a square root: half-way bright) the
    number takes the background colour instead.
    """
    for i in range(grid.n_rows):
        for j in range(grid.n_cols):
            if weights[i, j] >= bright:
                grid.entry(i, j).set_color(theme["background"])


def describe_focus(tokens: Sequence[str], weights: Sequence[float], focus: int) -> str:
    """A caption without digits naming where word ``focus`` looks most, from its weights.

    "“mouse” looks mostly at itself, then at “cat”; the others barely count."
    """
    order = sorted(range(len(tokens)), key=lambda j: -weights[j])

    def name(j: int) -> str:
        return "itself" if j == focus else f"“{tokens[j]}”"

    text = f"“{tokens[focus]}” looks mostly at {name(order[0])}"
    if len(order) > 1 and weights[order[1]] >= 0.5 * weights[order[0]]:
        text = f"“{tokens[focus]}” looks at {name(order[0])} and {name(order[1])} about as much"
        rest = order[2:]
    elif len(order) > 1:
        text += f", then at {name(order[1])}"
        rest = order[2:]
    else:
        rest = []
    if rest:
        small = max(weights[j] for j in rest) < 0.1
        text += "; the others barely count." if small else "; the others count a little."
    else:
        text += "."
    return text


def stagger_levels(widths: Sequence[float], xs: Sequence[float], gap: float = 0.1, most: int = 4) -> int:
    """How many lines items of ``widths`` centred at ``xs`` need so that no two on a line touch.

    Item ``k`` goes on line ``k % levels``; one line when there is room for all.
    """
    for levels in range(1, most):
        if all(
            (widths[k] + widths[k + levels]) / 2 + gap <= abs(xs[k + levels] - xs[k]) for k in range(len(xs) - levels)
        ):
            return levels
    return most


def stagger_names(names: Sequence[Text], xs: Sequence[float], y: float, *, above: bool, gap: float = 0.1) -> VGroup:
    """Put ``names[k]`` centred at ``xs[k]`` on a line at ``y`` (its bottom if ``above``, else its top).

    Names are never rotated nor shrunk: when neighbours would touch, they take turns on
    two or more lines (further from the cells or bars they label), so long names read
    horizontally even above narrow columns.
    """
    group = VGroup(*names)
    if not names:
        return group
    levels = stagger_levels([nm.width for nm in names], xs, gap)
    line = max(nm.height for nm in names) + 0.12
    sign = 1 if above else -1
    for k, nm in enumerate(names):
        nm.move_to([xs[k], y + sign * (nm.height / 2 + (k % levels) * line), 0])
    return group


def grid_col_names(grid: NumberGrid, names: Sequence[str], colours: Sequence[str], size: str = "label") -> VGroup:
    """Column labels for a :class:`NumberGrid` built without ``col_labels``, staggered when crowded."""
    texts = [label(nm, size, c) for nm, c in zip(names, colours)]
    xs = [float(grid.cell(0, k).get_x()) for k in range(grid.n_cols)]
    return stagger_names(texts, xs, float(grid.body().get_top()[1]) + 0.12, above=True)


# --------------------------------------------------------------------------------------


def bar_names(bars: VectorBars, names: Sequence[str], theme: Theme, size: str = "small") -> VGroup:
    """Dimension names under a :class:`VectorBars` built with ``dim_labels=False``, staggered when crowded."""
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
        order.sort(key=lambda k: -bars.nums[k].value)
    dropped = []

    for k in order:
        num, bar = bars.nums[k], bars.bars[k]
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


# --------------------------------------------------------------------------------------


def wrap_token_row(row: TokenRow, width: float, buff: float = 0.2, line_buff: float = 0.16) -> TokenRow:
    """Re-flow a :class:`TokenRow` onto as many centred lines as it needs to fit ``width``.

    A long sentence in a narrow column keeps its font size instead of shrinking below
    the readable minimum; only a single word wider than ``width`` scales the row down.
    """
    # first try one line with tighter spacing
    items = list(row.submobjects)
    one_line = sum(it.width for it in items) + (len(items) - 1) * 0.12
    if one_line <= width:
        row.arrange(RIGHT, buff=min(buff, (width - one_line) / max(len(items) - 1, 1) + 0.12))
        return row
    lines: list[list[VGroup]] = [[]]
    used = 0.0
    for item in row.submobjects:
        w = item.width
        if lines[-1] and used + buff + w > width:
            lines.append([])
            used = 0.0
        used += (buff if lines[-1] else 0.0) + w
        lines[-1].append(item)
    VGroup(*(VGroup(*line).arrange(RIGHT, buff=buff) for line in lines)).arrange(DOWN, buff=line_buff)
    if row.width > width:
        row.scale_to_fit_width(width)
    return row


def boxes_touch(a: Mobject, b: Mobject, gap: float, gap_y: float | None = None) -> bool:
    """Whether the bounding boxes of ``a`` and ``b`` come closer than ``gap`` across and
    ``gap_y`` (default: ``gap``) down."""
    gy = gap if gap_y is None else gap_y
    return bool(
        min(a.get_right()[0], b.get_right()[0]) - max(a.get_left()[0], b.get_left()[0]) > -gap
        and min(a.get_top()[1], b.get_top()[1]) - max(a.get_bottom()[1], b.get_bottom()[1]) > -gy
    )


def keep_inside(names: VGroup, left: float, right: float) -> VGroup:
    """Shift the names that stick out of ``[left, right]`` back inside (each on its own)."""
    for nm in names:
        if nm.get_left()[0] < left:
            nm.shift(RIGHT * (left - nm.get_left()[0]))
        if nm.get_right()[0] > right:
            nm.shift(RIGHT * (right - nm.get_right()[0]))
    return names


def tint_tokens(row: TokenRow, weights: Sequence[float], theme: Theme, bright: float = 0.45) -> list[object]:
    """Animations: each word's box takes the heat colour of its weight (dark ink on bright boxes)."""
    anims: list[object] = []
    for box, word, w in zip(row.boxes, row.words, weights):
        anims.append(box.animate.set_fill(theme.heat(w), opacity=1))
        if w >= bright:
            anims.append(word.animate.set_color(theme["background"]))
    return anims


# --------------------------------------------------------------------------------------

BAND_TOP, BAND_BOTTOM = 2.38, -3.12  # the content band between the header and the caption
ORDINALS = ("first", "second", "third", "fourth")
