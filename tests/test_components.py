"""The layout frame and the shared builders: one content box, one stagger rule, one
baseline rule, one heat-ink rule, and matrices drawn from a trace path."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from conftest import built_scene

from scenes.components import (
    NumberGrid,
    Tiles,
    fit_numbers,
    label,
    stagger_levels,
    text_baseline,
    trace_grid,
)
from scenes.inspect import expected_text
from scenes.layout import CONTENT, PANEL_AREA, WORD_MATRIX_AREA, Box
from scenes.palette_checks import AA_TEXT, contrast_ratio
from scenes.theme import Theme


def test_content_box_is_the_one_the_scenes_used() -> None:
    # 24 px from the sides at 480p, between the header and a caption 24 px from the bottom
    assert Box(-6.7, 6.7, -3.0, 2.45) == CONTENT
    assert (CONTENT.width, CONTENT.centre_y) == (13.4, (2.45 + -3.0) / 2)
    # The per-use insets give exactly the floats they name.
    assert (WORD_MATRIX_AREA.top, WORD_MATRIX_AREA.bottom) == (2.35, -3.1)
    assert (PANEL_AREA.top, PANEL_AREA.bottom) == (2.38, -3.02)


def test_header_and_caption_stay_out_of_the_content_box() -> None:
    from scenes.lecture import find_scene

    scene = copy.copy(built_scene(find_scene("Embeddings")))  # caption() records: not in the shared build
    scene.bottom_captions = []
    assert scene.content == CONTENT
    for m in (scene.title, scene.pipeline, scene.formula):
        assert m is not None and m.get_bottom()[1] >= CONTENT.top
    caption = scene.caption("A caption with descenders: gjpqy")
    assert caption.get_top()[1] <= CONTENT.bottom


def test_stagger_levels_pairwise_and_regular() -> None:
    xs = [0.0, 1.0, 2.0, 3.0]
    assert stagger_levels([0.5] * 4, xs) == 1
    assert stagger_levels([0.5, 1.5, 0.5, 1.5], xs) == 2  # (0.5 + 1.5) / 2 + 0.1 > 1: neighbours touch
    assert stagger_levels([0.95, 0.95, 0.95, 0.95], xs) == 2
    assert stagger_levels([9.0] * 4, xs) == 4  # at most four lines
    # Regular lines for grid columns: each label counts as wide as the widest, whatever their number.
    assert stagger_levels([0.9], (), 0.08, most=None, pitch=1.0, fill=0.96) == 1
    assert stagger_levels([0.97], (), 0.08, most=None, pitch=1.0, fill=0.96) == 2
    assert stagger_levels([3.5], (), 0.08, most=None, pitch=1.0, fill=0.96) == 4


def test_one_baseline_rule() -> None:
    def glyphs(t: object) -> list:
        return [g for g in t.family_members_with_points() if g is not t]

    formula = label("Q = K = V = X", "formula")  # not the tail of the Q, nor the "=": the K
    assert text_baseline(formula) == glyphs(formula)[2].get_bottom()[1]
    word = label("mouse", "body")
    assert text_baseline(word) == glyphs(word)[0].get_bottom()[1]


@pytest.mark.parametrize("style", ["dark", "light"])
def test_one_heat_ink_rule(style: str) -> None:
    """A number on a heat cell keeps 4.5:1 at every weight: the theme's text or background
    colour where one of them reaches it, black or white on the middle of the ramp."""
    theme = Theme(style=style)
    for k in range(201):
        t = k / 200
        ink, cell = theme.heat_ink(t), theme.heat(t).to_hex()
        assert contrast_ratio(ink, cell) >= AA_TEXT, f"{style}: weight {t}: {ink} on {cell}"
    assert theme.heat_ink(-1.0) == theme["text"]
    assert theme.heat_ink(2.0) == (theme["background"] if style == "dark" else theme["text"])


def test_trace_grid_numbers_come_from_their_path() -> None:
    from scenes.base import current_trace

    trace = current_trace()
    theme = Theme()
    for path, heat in (("projected.W_Q", False), ("multi_head.heads.0.attention", True), ("embeddings", False)):
        grid = trace_grid(trace, path, 2, theme, cell_w=1.0, cell_h=0.5, heat=heat)
        assert isinstance(grid, NumberGrid)
        for i in range(grid.n_rows):
            for j in range(grid.n_cols):
                num = grid.entry(i, j)
                assert num.source is not None and num.source.name == path and num.source.index == (i, j)
                assert num.text == expected_text(trace, num)
    row = trace_grid(trace, "embeddings", 1, theme, cell_w=1.0, cell_h=0.5, row=2)
    assert isinstance(row, NumberGrid) and row.n_rows == 1 and row.entry(0, 1).source.index == (2, 1)
    tiles = trace_grid(trace, "projected.V", 2, theme, cell_w=0.2, cell_h=0.2, numbers=False, tiles=theme["value"])
    assert isinstance(tiles, Tiles) and tiles.n_cols == trace.contexts[0].projected.V.shape[1]


def test_fit_numbers_gives_up_numbers_in_order() -> None:
    wide = np.full((2, 8), -12.345)
    fit = fit_numbers([(wide, 3), (wide, 3)], [8, 8], room=6.0, fixed=0.5, give_up=[1, 0])
    assert fit.size == "small" and not fit.numbers
    assert [c.numbers for c in fit.cells] == [False, False] or [c.numbers for c in fit.cells] == [True, False]
    roomy = fit_numbers([(np.ones((2, 2)), 1)], [2], room=13.0, fixed=0.5, give_up=[0])
    assert roomy.size == "cell" and roomy.numbers


def test_column_headers_take_one_line_when_neighbours_fit() -> None:
    """No staircase next to one long word (issue 24): labels go up a line only when two
    neighbours would come within twice a word space of each other."""
    from scenes.components.grids import _column_levels, label_width

    words = ["river", "bank", "café", "the", "über", "sat", "on", "deposit"]
    pitch = max(label_width([a], "small") + label_width([b], "small") for a, b in zip(words, words[1:])) / 2 + 0.21
    assert label_width(words, "small") > pitch - 0.2, "the widest word alone would not fit a column with a gap"
    assert _column_levels(words, pitch, "small") == 1
    tight = (label_width(["keyboard"], "small") + label_width(["and"], "small")) / 2 + 0.1
    assert _column_levels(["keyboard", "and", "mouse"], tight, "small") == 2


def test_crowded_column_headers_turn_on_one_line_and_keep_apart() -> None:
    """Where neighbours would touch, every header turns by 45 degrees instead of climbing a
    staircase of lines (issue 24): all start at one height, each rises from its own column,
    no two overlap along their own turned boxes (though their upright boxes do), none
    reaches into the cells, and column_labels_height is the room they take."""
    from types import SimpleNamespace

    from scenes.components.grids import TURN, Tiles, column_labels, column_labels_height
    from scenes.components.placement import ink_corners
    from scenes.inspect import Shown, overlapping_texts
    from scenes.theme import Theme

    words = ["the", "white", "crane", "caught", "Aufmerksamkeit"]
    grid = Tiles(1, len(words), lambda i, j: ("#808080", 1.0), Theme(), cell_w=0.55, cell_h=0.5)
    labels = column_labels(grid, words, Theme(), style="turned")
    assert not any(getattr(lab, "turned", 0.0) for lab in column_labels(grid, words, Theme())), "staggered: lines"
    top = float(grid.body().get_top()[1])
    assert all(getattr(lab, "turned", 0.0) == TURN for lab in labels), "0.55 across: 45 degrees"
    assert len({round(float(lab.get_bottom()[1]), 6) for lab in labels}) == 1, "one line, not a staircase"
    assert min(float(lab.get_bottom()[1]) for lab in labels) > top
    for j, lab in enumerate(labels):
        assert abs(float(lab.get_left()[0]) - float(grid.cell(0, j).get_x())) < grid.cell_w / 2
    assert (
        abs(max(float(lab.get_top()[1]) for lab in labels) - top - column_labels_height(words, 0.55, style="turned"))
        < 1e-6
    )
    shown = [Shown(lab, float(lab.get_left()[0]), float(lab.get_right()[0]), float(lab.get_bottom()[1]),
                   float(lab.get_top()[1]), ink_corners(lab)) for lab in labels]
    assert shown[3].right > shown[4].left, "the upright boxes of neighbours overlap"
    assert overlapping_texts(SimpleNamespace(mobjects=[]), texts=shown) == []
    # the same words crossing each other are found
    crossing = [shown[1], Shown(shown[2].mob, shown[1].left, shown[1].right, shown[1].bottom, shown[1].top,
                                shown[1].corners + 0.05)]
    assert overlapping_texts(SimpleNamespace(mobjects=[]), texts=crossing) == [("white", "crane")]


def test_the_header_check_sees_every_row_of_names_and_can_fail() -> None:
    """scenes.inspect.staircase_headers fails on a row of names set on more than one line
    wherever it comes from (issue 24): the names over columns from column_labels that are not
    the grid's column labels (scene 7's over V and the terms, pairwise) and stagger_names
    (scene 8's under its bars) over crowded columns; not on the same rows with room, nor on
    turned ones (bar_names, scene 7's recipe, turns crowded names); and not on what an
    animation put in a row's place (scene 7's words become the row labels of its weights:
    ReplacementTransform replaces a mobject inside its group)."""
    from types import SimpleNamespace

    from manim import Scene, VGroup

    from scenes.components import VectorBars, bar_names, column_labels, stagger_names
    from scenes.components.grids import TURN
    from scenes.components.numbers import Source
    from scenes.components.placement import header_names
    from scenes.inspect import staircase_headers

    theme = Theme()
    dims = ["animal", "tech", "grammar", "other"]

    def shown(*rows: VGroup) -> list[str]:
        return staircase_headers(SimpleNamespace(mobjects=[VGroup(*rows).copy()]))

    narrow = Tiles(1, 4, lambda i, j: ("#808080", 1.0), theme, cell_w=0.8, cell_h=0.5)
    wide = Tiles(1, 4, lambda i, j: ("#808080", 1.0), theme, cell_w=1.6, cell_h=0.5)
    pairwise = column_labels(narrow, dims, theme, size="label", style="pairwise")
    assert shown(narrow, pairwise) == ["animal tech grammar other"], "not the grid's labels, still checked"
    assert shown(wide, column_labels(wide, dims, theme, size="label", style="pairwise")) == []
    assert shown(column_labels(narrow, dims, theme, size="label", style="turned")) == [], "turned: one line"
    xs = [0.8 * k for k in range(4)]
    assert shown(stagger_names([label(d, "label") for d in dims], xs, 0.0, above=False)) == [
        "animal tech grammar other"
    ]
    # bar_names marks its row too: upright where the names keep apart, turned (hanging) where they would touch
    for gap, angle in ((1.2, 0.0), (0.1, TURN)):
        bars = VectorBars([1.0, -1.0, 0.5, 2.0], dims, 1, lambda k: Source(0, "embeddings", (0, k)), theme,
                          max_abs=2.0, bar_w=0.3, gap=gap)
        names = bar_names(bars, dims, theme)
        assert header_names(names) == list(names) and shown(bars, names) == []
        assert all(getattr(nm, "turned", 0.0) >= angle for nm in names)
    # the names of a row replaced by others, as ReplacementTransform leaves them, are not the row's
    scene = Scene()
    scene.add(pairwise)
    for lab in list(pairwise):
        scene.replace(lab, label("cat", "label").move_to(lab))
    assert shown(*scene.mobjects) == []


def test_clipped_headers_keep_one_line_and_cut_only_the_words_that_would_touch() -> None:
    """column_labels(style="clipped"), the last resort of stacked blocks whose long words have no
    room to turn (issue 24: they were staggered on more lines): one line, upright, every two
    neighbours twice a word space apart; only the words of a pair that would touch lose their end
    (to an ellipsis), a short word beside short ones keeps all of it."""
    from types import SimpleNamespace

    from scenes.components.grids import COLUMN_GAP, ELLIPSIS, column_labels
    from scenes.inspect import staircase_headers

    words = ["Kaffeehausschaft", "und", "die", "Überweisungsgebühr", "Bank"]
    grid = Tiles(1, len(words), lambda i, j: ("#808080", 1.0), Theme(), cell_w=1.0, cell_h=0.5)
    labels = column_labels(grid, words, Theme(), style="clipped")
    texts = [lab.text for lab in labels]
    assert texts[0].endswith(ELLIPSIS) and texts[3].endswith(ELLIPSIS) and "Kaffeehausschaft".startswith(texts[0][:-1])
    assert texts[1:3] == ["und", "die"], "short words keep all of themselves"
    assert staircase_headers(SimpleNamespace(mobjects=[labels])) == []
    assert len({round(float(lab.get_y()), 2) for lab in labels if lab.text in ("und", "die")}) == 1
    for a, b in zip(labels, labels[1:]):
        assert float(b.get_left()[0]) - float(a.get_right()[0]) >= COLUMN_GAP - 1e-6


def test_the_header_check_finds_names_that_read_as_one() -> None:
    """scenes.inspect.cramped_headers fails on two upright names of a row closer than a word
    space (scene 1's "técnicagramática", 1.7 px apart at 480p, and "financegrammar", 3.9 px, were
    on one line and passed the staircase check); not on the same names a word space apart, nor
    on turned names, nor on names on two lines (the staircase check's)."""
    from types import SimpleNamespace

    from manim import RIGHT, UP, VGroup

    from scenes.components.placement import STAGGER_GAP, header_row
    from scenes.inspect import NAME_GAP, cramped_headers

    def row(gap: float, turned: float = 0.0, rise: float = 0.0) -> list[str]:
        a, b = label("técnica", "small"), label("gramática", "small")
        b.next_to(a, RIGHT, buff=gap).shift(UP * rise)
        if turned:
            for m in (a, b):
                m.turned = turned
        return cramped_headers(SimpleNamespace(mobjects=[header_row(VGroup(a, b))]))

    (found,) = row(0.03)
    assert found.startswith("técnica|gramática (") and found.endswith(" px)")
    assert row(NAME_GAP - 0.01) and not row(STAGGER_GAP) and not row(0.5)
    assert not row(0.03, turned=0.7), "turned names: the overlap check compares their own boxes"
    assert not row(0.03, rise=0.4), "on two lines: the staircase check's"
