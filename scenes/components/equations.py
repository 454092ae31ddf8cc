"""Matrix equations on one line: named matrices, operators, and products computed row by row."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from manim import DOWN, RIGHT, Arrow, Dot, LaggedStart, Text, TransformFromCopy, VGroup, VMobject

from ..theme import TIME, Theme
from .grids import Grid
from .numbers import ShapeLabel, Source
from .text import centre_on_baseline, label

__all__ = [
    "MatrixBlock",
    "named_block",
    "arrange_equation",
    "place_after",
    "operator",
    "row_transfer",
    "arrow",
    "EQ_BUFF",
]

#: Gap between a matrix and an operator.
EQ_BUFF = 0.22


class MatrixBlock(VGroup):
    """A matrix with its name above it (``title``; Manim's ``name`` is the mobject's own) and its shape
    below: numeric (``ShapeLabel``) and symbolic (``sym``).

    Examples
    --------
    .. manim:: MatrixBlockExample
        :quality: low
        :save_last_frame:

        from attncore import default_lesson, trace_lesson
        from scenes.components import MatrixBlock, Theme, label, trace_grid

        class MatrixBlockExample(Scene):
            def construct(self):
                theme = Theme(style="dark")
                self.camera.background_color = theme["background"]
                trace = trace_lesson(default_lesson())
                grid = trace_grid(trace, "embeddings", 2, theme, cell_w=1.1, cell_h=0.6)
                name = label("X", "label", theme["text"], weight="BOLD").next_to(grid, UP)
                self.add(MatrixBlock(grid, title=name).move_to(ORIGIN))
    """

    def __init__(self, grid: Grid, title: Text | None = None, shape: ShapeLabel | None = None,
                 sym: Text | None = None) -> None:
        super().__init__(grid)
        self.grid, self.title, self.shape, self.sym = grid, title, shape, sym
        for m in (title, shape, sym):
            if m is not None:
                self.add(m)

    def body(self) -> VGroup:
        return self.grid.body()

    def labels(self) -> VGroup:
        return VGroup(*(m for m in (self.title, self.shape, self.sym) if m is not None))

    def place_labels(self, name_y: float, shape_y: float) -> MatrixBlock:
        """Name with its capital-letter centre at ``name_y``, shape centred at ``shape_y``."""
        x = self.body().get_center()[0]
        if self.title is not None:
            centre_on_baseline(self.title, (x, name_y, 0.0))
        if self.shape is not None:
            self.shape.move_to((x, shape_y, 0.0))
            if self.sym is not None:
                self.sym.next_to(self.shape, DOWN, buff=0.08)
        return self

    def top_edge(self) -> float:
        """Top of the grid (its column labels are not part of a block)."""
        return float(VGroup(self.body()).get_top()[1])


def named_block(grid: Grid, name: str, colour: str, shape: tuple[int, ...], source: Source, sym: str,
                theme: Theme, *, outline: bool = True) -> MatrixBlock:
    """A matrix in its role colour: name above (bold), ``ShapeLabel`` and symbolic shape below.

    Examples
    --------
    .. manim:: NamedBlockExample
        :quality: low
        :save_last_frame:

        from attncore import default_lesson, trace_lesson
        from scenes.components import Source, Theme, arrange_equation, named_block, trace_grid

        class NamedBlockExample(Scene):
            def construct(self):
                theme = Theme(style="dark")
                self.camera.background_color = theme["background"]
                trace = trace_lesson(default_lesson())
                grid = trace_grid(trace, "projected.W_Q", 2, theme, cell_w=1.1, cell_h=0.6)
                w_q = named_block(grid, "W_Q", theme["query"], (4, 4), Source(0, "projected.W_Q"), "d × d", theme)
                self.add(arrange_equation([w_q]).move_to(ORIGIN))  # places the name above, the shapes below
    """
    if outline:
        grid.cells.set_stroke(colour, width=1.5)
    return MatrixBlock(grid, label(name, "label", colour, weight="BOLD"), ShapeLabel(shape, source),
                       label(sym, "small", theme["muted"]))


def arrange_equation(items: Sequence[VMobject], *, buff: float = EQ_BUFF, name_gap: float = 0.28,
                     shape_gap: float = 0.22) -> VGroup:
    """Lay matrices (``MatrixBlock``) and operators left to right, bodies centred on y = 0.

    Names share one line above the tallest matrix, shapes one line below the lowest.

    Examples
    --------
    .. manim:: ArrangeEquationExample
        :quality: low
        :save_last_frame:

        from attncore import default_lesson, trace_lesson
        from scenes.components import Source, Theme, arrange_equation, named_block, operator, resolve, trace_grid

        class ArrangeEquationExample(Scene):
            def construct(self):
                theme = Theme(style="dark")
                self.camera.background_color = theme["background"]
                trace = trace_lesson(default_lesson())

                def block(path, name, role, sym):
                    grid = trace_grid(trace, path, 2, theme, cell_w=0.9, cell_h=0.5)
                    shape = resolve(trace, Source(0, path))[0].shape
                    return named_block(grid, name, theme[role], shape, Source(0, path), sym, theme)

                equation = arrange_equation([block("embeddings", "X", "text", "n × d"), operator("·", theme),
                                             block("projected.W_Q", "W_Q", "query", "d × d"), operator("=", theme),
                                             block("projected.Q", "Q", "query", "n × d")])
                self.add(equation.scale_to_fit_width(12).move_to(ORIGIN))
    """
    x = 0.0
    blocks = [it for it in items if isinstance(it, MatrixBlock)]
    for it in items:
        core = VGroup(it.grid) if isinstance(it, MatrixBlock) else it
        centre_y = it.body().get_center()[1] if isinstance(it, MatrixBlock) else it.get_center()[1]
        it.shift(RIGHT * (x - core.get_left()[0]) + DOWN * centre_y)
        x = core.get_right()[0] + buff
    name_y = max(b.top_edge() for b in blocks) + name_gap
    shape_y = min(b.body().get_bottom()[1] for b in blocks) - shape_gap
    for b in blocks:
        b.place_labels(name_y, shape_y)
    return VGroup(*items)


def place_after(first: Grid, steps: Sequence[tuple[VMobject, Grid]], buff: float = EQ_BUFF) -> None:
    """Each (sign, grid) of ``steps`` right of the grid before (``first`` the first), ``buff``
    either side of the sign, the grids' tops aligned and each sign halfway down the grid after it:
    an equation of grids of different heights (mixing's weights × V = terms)."""
    cursor = first.body().get_right()[0]
    for sign, grid in steps:
        sign.move_to((cursor + buff + sign.width / 2, 0, 0))
        cursor = sign.get_right()[0] + buff
        grid.shift((cursor - grid.body().get_left()[0], first.body().get_top()[1] - grid.body().get_top()[1], 0))
        cursor = grid.body().get_right()[0]
        sign.set_y(grid.body().get_y())


def operator(symbol: str, theme: Theme) -> VMobject:
    """``"·"`` (drawn as a dot: the glyph is too small to see at 480p), ``"="`` or another sign.

    Examples
    --------
    .. manim:: OperatorExample
        :quality: low
        :save_last_frame:

        from scenes.components import ITEM_BUFF, Theme, operator

        class OperatorExample(Scene):
            def construct(self):
                theme = Theme(style="dark")
                self.camera.background_color = theme["background"]
                signs = VGroup(*(operator(s, theme) for s in ("·", "=", "+", "×"))).arrange(RIGHT, buff=4 * ITEM_BUFF)
                self.add(signs.scale(2))
    """
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


def arrow(start: Any, end: Any, colour: str, buff: float = 0.1) -> Arrow:
    """A straight arrow in the lecture's weight."""
    return Arrow(start, end, buff=buff, color=colour, stroke_width=3, max_tip_length_to_length_ratio=0.15)
