"""Matrices as equal cells: numbers (:class:`NumberGrid`) or coloured tiles (:class:`Tiles`).

Why our own grid instead of Manim's ``Matrix``/``Table``: ``Matrix`` draws its brackets
with LaTeX (which we do not install), and both size each column to its content; a
heat map and a cell-by-cell transform from one matrix into the next need fixed,
equal cells that we can address as ``grid.cell(i, j)``.

Column labels come from one function, :func:`column_labels`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

import numpy as np
from manim import DOWN, LEFT, RIGHT, UP, Rectangle, VGroup

from attncore.i18n import _

from ..layout import LABEL_BUFF, SMALL_BUFF
from ..theme import SIZE, Theme
from .numbers import Num, Source
from .placement import header_row, stagger_levels, stagger_names
from .shapes import made
from .text import centre_on_baseline, label, label_extent, text_baseline

__all__ = [
    "CellGrid", "NumberGrid", "Tiles", "Grid", "TileFill", "column_labels", "column_labels_height",
    "ColumnStyle", "axis_titles", "text_size", "fit_cells", "label_width", "LABEL_LINE_STEP",
    "COMPACT_SIZES",
    "PREFERRED_STYLES",
    "column_labels_on_one_line", "one_line_cell_width", "one_line_header", "turned_reach",
]

#: ``fill(i, j) -> (colour, opacity)`` of a tile.
TileFill = Callable[[int, int], tuple[Any, float]]
#: How :func:`column_labels` fits words over their columns (see there).
ColumnStyle = Literal["staggered", "turned", "pairwise", "shrunk", "clipped"]
#: The styles a layout that stacks by its grids' bounds tries, in order, for crowded headers:
#: turned (one line) where it fits at some size, else clipped (one line, long words shortened;
#: issue 24: staggered on more lines they climbed a staircase).
PREFERRED_STYLES: tuple[ColumnStyle, ...] = ("turned", "clipped")
#: Vertical step between the lines of staggered column labels.
LABEL_LINE_STEP = 0.34
#: Sizes tried for small stacked tables (one per context), largest first:
#: (label size, number size, cell height). Used by the causal-mask and word-order scenes.
COMPACT_SIZES = (("body", "body", 0.62), ("label", "cell", 0.5), ("small", "small", 0.42), ("small", "small", 0.36))


class CellGrid(VGroup):
    """Equal cells in rows and columns, addressed by (row, column), with optional labels.

    What :class:`NumberGrid` and :class:`Tiles` share, so that either can stand for a
    matrix: ``cell``, ``row``, ``column``, ``row_entries``, ``body``; ``row_labels`` and
    ``col_labels`` (empty groups when there are none).
    """

    def __init__(self, n_rows: int, n_cols: int, cell_w: float, cell_h: float,
                 make: Callable[[int, int], Rectangle]) -> None:
        """Cells from ``make(i, j)``, cell (0, 0) at the origin, rows going down (not yet added)."""
        super().__init__()
        self.n_rows, self.n_cols = n_rows, n_cols
        self.cell_w, self.cell_h = cell_w, cell_h
        self.cells = VGroup()
        self.entries = VGroup()
        self.row_labels = VGroup()
        self.col_labels = VGroup()
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
        if texts is None:
            return
        for i, text in enumerate(texts):
            lab = label(text, size, colours[i])
            centre_on_baseline(lab, self._cells[i][0].get_center())
            lab.next_to(self._cells[i][0], LEFT, buff=LABEL_BUFF, coor_mask=np.array([1, 0, 0]))
            self.row_labels.add(lab)
        self.add(self.row_labels)

    def set_column_labels(self, labels: VGroup) -> None:
        """Make ``labels`` (from :func:`column_labels`) the grid's column labels, replacing any."""
        if len(self.col_labels):
            self.remove(self.col_labels)
        self.col_labels = labels
        self.add(labels)

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
    decimals : display precision (one per grid, decided by the lesson), or one per row
        (a worked softmax shows its scores with the decimals their exponentials need).
    source : function ``(i, j) -> Source`` naming each value in the trace.
    row_labels, col_labels : texts beside/above the grid (token or dimension names); the
        column labels are shrunk to their cells (``column_labels(style="shrunk")``).
    approx : optional ``(i, j) -> bool``: the number of cell (i, j) is shown marked ``≈``
        (a total its shown parts do not add up to; see :class:`Num`).
    cell_w, cell_h : cell size in scene units.
    col_colours, row_colours : colours of the labels.
    fill : colour of cell (i, j) (default: the panel colour).

    Examples
    --------
    ``grid = NumberGrid(trace.scores, 2, lambda i, j: Source(0, "scores", (i, j)), ...)``
    then ``grid.cell(2, 0)`` is the rectangle and ``grid.entry(2, 0)`` the number.
    :func:`~scenes.components.trace_grid` builds one from a trace path.
    """

    def __init__(
        self,
        values: Any,
        decimals: int | Sequence[int],
        source: Callable[[int, int], Source],
        theme: Theme,
        *,
        row_labels: Sequence[str] | None = None,
        col_labels: Sequence[str] | None = None,
        approx: Callable[[int, int], bool] | None = None,
        cell_w: float = 1.0,
        cell_h: float = 0.5,
        size: str = "cell",
        label_size: str = "label",
        col_colours: Sequence[str] | None = None,
        row_colours: Sequence[str] | None = None,
        fill: Callable[[int, int], Any] | None = None,
        number_colour: str | None = None,
    ) -> None:
        vals = np.asarray(values, dtype=float)
        n_rows, n_cols = vals.shape
        super().__init__(n_rows, n_cols, cell_w, cell_h, lambda i, j: made(
            Rectangle, width=cell_w, height=cell_h, stroke_color=theme["grid"], stroke_width=1.5,
            fill_color=fill(i, j) if fill else theme["panel"], fill_opacity=1.0,
        ))
        row_dec = [decimals] * n_rows if isinstance(decimals, int) else list(decimals)
        self._entries = [[self._number(vals[i, j], row_dec[i], source(i, j), size, number_colour or theme["text"], i, j,
                                       approx=bool(approx and approx(i, j)))
                          for j in range(self.n_cols)] for i in range(self.n_rows)]
        self.add(self.cells, self.entries)
        self._add_row_labels(row_labels, label_size, row_colours or [theme["text"]] * self.n_rows)
        if col_labels is not None:
            self.set_column_labels(column_labels(self, col_labels, theme, col_colours, size=label_size, style="shrunk"))

    def _number(self, value: float, decimals: int, source: Source, size: str, colour: str, i: int, j: int, *,
                approx: bool = False) -> Num:
        """The number of cell (i, j), shrunk only when wider than its cell."""
        num = Num(value, decimals, source, size=size, color=colour, approx=approx)
        if num.width > self.cell_w * CELL_FILL:
            num.scale_to_fit_width(self.cell_w * CELL_FILL)
        num.move_to(self._cells[i][j])
        self.entries.add(num)
        return num

    def entry(self, i: int, j: int) -> Num:
        return self._entries[i][j]

    def row_entries(self, i: int) -> VGroup:
        return VGroup(*self._entries[i])

    def body(self) -> VGroup:
        """Cells and numbers without labels."""
        return VGroup(self.cells, self.entries)


class Tiles(CellGrid):
    """A matrix drawn as coloured cells without numbers, when there is no room for them.

    ``fill(i, j)`` returns ``(colour, opacity)``. Same addressing as :class:`NumberGrid`
    (``cell``, ``row``, ``column``, ``body``), so either can stand for a matrix.
    """

    def __init__(
        self,
        n_rows: int,
        n_cols: int,
        fill: TileFill,
        theme: Theme,
        *,
        cell_w: float,
        cell_h: float,
        row_labels: Sequence[str] | None = None,
        label_size: str = "small",
        stroke_width: float = 1.0,
    ) -> None:
        def tile(i: int, j: int) -> Rectangle:
            colour, opacity = fill(i, j)
            return made(Rectangle, width=cell_w, height=cell_h, stroke_color=theme["grid"], stroke_width=stroke_width,
                        fill_color=colour, fill_opacity=opacity)

        super().__init__(n_rows, n_cols, cell_w, cell_h, tile)
        self.add(self.cells)
        self._add_row_labels(row_labels, label_size, [theme["text"]] * n_rows)


Grid = NumberGrid | Tiles


#: The share of its cell's width a number may fill: a NumberGrid shrinks a wider one to it.
CELL_FILL = 0.92


def text_size(cell_w: float, cell_h: float) -> str:
    """The SIZE key for numbers in cells of this size: larger type when the cells allow it."""
    return "body" if cell_w >= 1.05 and cell_h >= 0.55 else "cell"


def fit_cells(n_rows: int, n_cols: int, width: float, height: float, *, max_w: float = 1.15,
              max_h: float = 0.55) -> tuple[float, float]:
    """Cell width and height so that a grid of ``n_rows × n_cols`` fits ``width × height``."""
    return min(max_w, width / n_cols), min(max_h, height / n_rows)


def label_width(texts: Sequence[str], size: str = "body") -> float:
    """Width of the widest of ``texts`` as labels of ``size`` (0 for none)."""
    return max((label_extent(t, size)[0] for t in texts), default=0.0)


# -- column labels ---------------------------------------------------------------------------
def _column_levels(texts: Sequence[str], cell_w: float, size: str) -> int:
    """Lines that staggered labels need: the fewest k such that any two labels k columns apart
    keep a gap, each judged by its own width. One line when neighbours fit side by side: a long
    word next to short ones ("on deposit") no longer sends every label up a staircase, as
    counting every label as wide as the widest did (issue 24)."""
    widths = [label_extent(t, size)[0] for t in texts]
    return stagger_levels(widths, [k * cell_w for k in range(len(texts))], COLUMN_GAP, most=None)


#: The room between two column labels side by side: twice a word space, so that two labels never
#: read as one phrase.
COLUMN_GAP = 0.2


def one_line_cell_width(texts: Sequence[str], size: str = "small") -> float:
    """The narrowest columns over which upright labels of ``texts`` keep side by side on one line."""
    widths = [label_extent(t, size)[0] for t in texts]
    # a hair more, or the columns exactly this wide would fail the placing's own comparison by a rounding
    return max(((a + b) / 2 for a, b in zip(widths, widths[1:], strict=False)), default=0.0) + COLUMN_GAP + 1e-6


def one_line_header(rows: Sequence[Sequence[str]], cell_w: float, room: float, n_cols: int, size: str = "label",
                    turned_size: str = "small", style: ColumnStyle = "pairwise",
                    smaller: Sequence[str] = ("small",)) -> tuple[float, str, ColumnStyle]:
    """``(cell width, size, style)`` of :func:`column_labels` that keep every row of ``rows`` on one
    line over columns ``cell_w`` wide (header rows of grids with such columns, ``n_cols`` of them
    in all; issue 24: a staircase of lines where neighbours touched): as they are (``style`` at
    ``size``) where neighbours keep apart; else upright (``"staggered"``, which is then one line)
    over columns as wide as the most crowded row needs (:func:`one_line_cell_width`) where
    ``room`` allows, at ``size`` or else a size of ``smaller``; else turned at ``turned_size`` over the
    columns as they are (the caller keeps :func:`column_labels_height` free above them, and gives
    each row the others as ``peers``)."""
    def one_line(texts: Sequence[str]) -> bool:
        if style == "pairwise":
            return (
                stagger_levels([label_extent(t, size)[0] for t in texts], [k * cell_w for k in range(len(texts))]) == 1
            )
        return _column_levels(texts, cell_w, size) == 1

    if all(one_line(r) for r in rows):
        return cell_w, size, style
    for fit in dict.fromkeys((size, *smaller)):
        width = max([cell_w] + [one_line_cell_width(r, fit) for r in rows])
        if width * n_cols <= room:
            return width, fit, "staggered"
    return cell_w, turned_size, "turned"


#: The angle of column labels that do not fit side by side: a heat map's usual 45 degrees, which
#: keeps every word on one line and each word's start over its column (issue 24: the labels
#: climbing in a staircase of lines read as rows of another table). Columns too narrow for words
#: at 45 degrees to keep apart turn them further, up to upright.
TURN = np.pi / 4
#: The room kept between two turned labels, across their lines.
TURN_GAP = 0.06


def _turned(lab: Any, x: float, top: float, cap: float, angle: float = TURN) -> Any:
    """``lab`` turned by ``angle`` about the start of its baseline, its ink clear of ``top``,
    the middle of its capitals rising from the column's centre ``x``; marked ``turned`` for the
    layout tests (their boxes are the turned text's, scenes.inspect.visible_texts)."""
    lab.shift(np.array([-float(lab.get_left()[0]), -text_baseline(lab), 0.0]))
    lab.rotate(angle, about_point=np.zeros(3))
    lab.shift(np.array([x + cap / 2 * np.sin(angle), top + SMALL_BUFF - float(lab.get_bottom()[1]), 0.0]))
    lab.turned = angle
    return lab


def _lines(texts: Sequence[str], cell_w: float, size: str, style: str) -> tuple[int, float]:
    """(lines, angle) of the labels: (1, 0) side by side, (k > 1, 0) staggered on k lines, (1,
    angle) turned (``style="turned"`` when neighbours would touch): by 45 degrees, or more where
    the columns are narrower (turned words ``cell_w`` apart are ``cell_w`` × sin(angle) apart
    across their lines), staggered only when even upright words would touch."""
    if style == "clipped":
        return 1, 0.0
    k = _column_levels(texts, cell_w, size)
    if k == 1 or style != "turned" or cell_w < turn_need(size):
        return k, 0.0
    return 1, turn_angle(cell_w, size)


def turn_need(size: str) -> float:
    """How far apart across their lines turned labels of ``size`` must be: a line and TURN_GAP."""
    return label_extent("Hy", size)[1] + TURN_GAP


def turn_angle(cell_w: float, size: str) -> float:
    """The angle of labels of ``size`` turned over columns ``cell_w`` wide: :data:`TURN`, or
    steeper where the columns are narrower (turned labels ``cell_w`` apart are ``cell_w`` ×
    sin(angle) apart across their lines), upright at most."""
    return max(TURN, float(np.arcsin(min(1.0, turn_need(size) / cell_w))))


def _shared_lines(texts: Sequence[str], peers: Sequence[Sequence[str]], cell_w: float, size: str,
                  style: str) -> tuple[int, float]:
    """:func:`_lines` that ``texts`` and every header row of ``peers`` (shown with them, in columns
    as wide) can all take, so that they look alike: turned by the largest angle any needs,
    or staggered on the most lines when one of them cannot turn."""
    found = [_lines(t, cell_w, size, style) for t in (texts, *peers)]
    if any(k > 1 and not a for k, a in found):
        return max(k for k, _a in found), 0.0
    return 1, max(a for _k, a in found)


def column_labels_on_one_line(texts: Sequence[str], cell_w: float, size: str = "small",
                              style: ColumnStyle = "turned") -> bool:
    """Whether ``column_labels(style=style)`` of ``texts`` over columns ``cell_w`` wide keep one line."""
    return _lines(texts, cell_w, size, style)[0] == 1


def column_labels_height(texts: Sequence[str], cell_w: float, size: str = "small",
                         style: ColumnStyle = "staggered") -> float:
    """The height that ``column_labels(style=style)`` of ``texts`` takes above the cells
    (``"staggered"`` or ``"turned"``)."""
    k, angle = _lines(texts, cell_w, size, style)
    if not angle:
        return SMALL_BUFF + label_extent("Hy", size)[1] + (k - 1) * LABEL_LINE_STEP
    cap = label_extent("H", size)[1]
    return max(float(_turned(label(t, size), 0.0, 0.0, cap, angle).get_top()[1]) for t in texts)


def turned_reach(texts: Sequence[str], cell_w: float, size: str = "small") -> float:
    """How far the last of ``texts``, turned over columns ``cell_w`` wide (``column_labels(style=
    "turned")``), reaches right of its column's centre: past the grid, where the caller keeps room."""
    cap = label_extent("H", size)[1]
    return float(_turned(label(texts[-1], size), 0.0, 0.0, cap, turn_angle(cell_w, size)).get_right()[0])


def column_labels(grid: CellGrid, texts: Sequence[str], theme: Theme, colours: Sequence[str] | None = None, *,
                  size: str = "small", style: ColumnStyle = "staggered", peers: Sequence[Sequence[str]] = ()) -> VGroup:
    """Labels above the columns of ``grid``, one per text (not added to the grid: see
    :meth:`CellGrid.set_column_labels`).

    ``style``:

    - ``"staggered"``: never shrunk below ``size``. Side by side when each word fits its
      column, else on k regular lines (labels on one line k columns apart, each may then span
      k columns), every label on its line's baseline.
    - ``"turned"`` (maps whose caller keeps :func:`column_labels_height` free above them):
      as ``"staggered"``, but where neighbours would touch every label is turned by
      :data:`TURN` (45 degrees, more where columns are narrower), rising from its column,
      all starting on one line; lines again only when columns are too narrow for upright
      words to keep apart.
    - ``"pairwise"``: never shrunk; a label moves to another line only when it would touch
      its neighbour (:func:`~scenes.components.stagger_names`); bottoms, not baselines,
      aligned. Reading the matrix, mixing the values.
    - ``"shrunk"``: one line, a word wider than its cell shrunk to it (not below the
      ``small`` size). The embedding table of the embeddings scene.
    - ``"clipped"``: one line, upright at ``size`` as ``"staggered"`` side by side, the two
      words of a pair that would touch cut short to their columns less :data:`COLUMN_GAP`
      with an ellipsis (:func:`clipped`): stacked blocks of long words with no room to turn.

    ``peers``: the other header rows shown with these over columns as wide (``"staggered"``,
    ``"turned"``): all take the same lines or angle, the one the most crowded row needs.

    The group is marked a header row (:func:`~scenes.components.placement.header_row`): the
    layout tests fail on its upright labels set on more than one line, whether or not it is
    made the grid's :meth:`~CellGrid.set_column_labels`.
    """
    cols = colours or [theme["text"]] * len(texts)
    if style == "clipped":  # both words of a pair that would touch cut short to their columns
        w = [label_extent(t, size)[0] for t in texts]
        tight = {k + i for k in range(len(w) - 1) if (w[k] + w[k + 1]) / 2 + COLUMN_GAP > grid.cell_w for i in (0, 1)}
        texts = [clipped(t, grid.cell_w - COLUMN_GAP, size) if j in tight else t for j, t in enumerate(texts)]
    labs = [label(t, size, c) for t, c in zip(texts, cols)]
    if style == "pairwise":
        xs = [float(grid.cell(0, k).get_x()) for k in range(grid.n_cols)]
        return stagger_names(labs, xs, float(grid.body().get_top()[1]) + 0.12, above=True)
    if style == "shrunk":
        for j, lab in enumerate(labs):
            if lab.width > grid.cell_w * 0.98:
                lab.scale(max(grid.cell_w * 0.98 / lab.width, SIZE["small"] / SIZE[size]))
            centre_on_baseline(lab, grid.cell(0, j).get_top() + UP * 0.25)
        return header_row(VGroup(*labs))
    k, angle = _shared_lines(texts, peers, grid.cell_w, size, style)
    top = float(grid.body().get_top()[1])
    cap = label_extent("H", size)[1]
    for j, lab in enumerate(labs):
        x = float(grid.cell(0, j).get_center()[0])
        if angle:
            _turned(lab, x, top, cap, angle)
        else:
            centre_on_baseline(lab, (x, top + SMALL_BUFF + cap / 2 + (j % k) * LABEL_LINE_STEP, 0.0), cap)
    return header_row(VGroup(*labs))


#: Where a clipped column label was cut short: the word goes on.
ELLIPSIS = "…"


def clipped(text: str, width: float, size: str = "small") -> str:
    """``text`` if it fits ``width`` at ``size``, else its longest start (a letter at least) that
    fits with :data:`ELLIPSIS` after it."""
    if label_extent(text, size)[0] <= width:
        return text
    k = len(text) - 1
    while k > 1 and label_extent(text[:k] + ELLIPSIS, size)[0] > width:
        k -= 1
    return text[:k] + ELLIPSIS


def axis_titles(grid: CellGrid, theme: Theme) -> VGroup:
    """``query ↓`` and ``key →`` in the corner above the row labels of ``grid``."""
    # Translators: axis title of an attention matrix: its columns are the keys; keep the arrow.
    key = label(_("key →"), "small", theme["key"])
    # Translators: axis title of an attention matrix: its rows are the queries; keep the arrow.
    query = label(_("query ↓"), "small", theme["query"])
    x = grid.cells.get_left()[0] - 0.15
    base_y = min(lab.get_center()[1] for lab in grid.col_labels)
    if any(getattr(lab, "turned", 0.0) for lab in grid.col_labels):
        # turned words rise from one line, their ink's foot: "key →" sits on it
        base_y = min(float(lab.get_bottom()[1]) for lab in grid.col_labels) + key.height / 2
    key.move_to((x - key.width / 2, base_y, 0.0))
    query.move_to((x - query.width / 2, base_y + 0.36, 0.0))
    return VGroup(query, key)
