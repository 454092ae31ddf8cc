"""Numeric tier: how numbers are shown (``fmt``, one rule for every number, attention
weights included) and what a shown total, exponential or quotient needs to be redoable."""

from __future__ import annotations

from decimal import Decimal

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attncore import (
    adds_up,
    decimals_needed,
    exp_as_shown,
    exp_operand_decimals,
    fmt,
    format_matrix,
    quotient_decimals,
    round_matrix,
    shown_sum,
    softmax_decimals,
    trace_lesson,
)

MINUS = "\u2212"
SETTINGS = settings(max_examples=100, deadline=None)


def shown_value(s: str) -> Decimal:
    """The number a viewer reads from a string made by :func:`fmt`."""
    return Decimal(s.replace(MINUS, "-"))


# --------------------------------------------------------------------------------------
# fmt
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("x", "decimals", "expected"),
    [
        (3.14159, 0, "3"),
        (3.14159, 1, "3.1"),
        (3.14159, 2, "3.14"),
        (3.14159, 3, "3.142"),
        (2, 2, "2.00"),
        (0.0, 3, "0.000"),
        (np.float64(0.5), 1, "0.5"),
        (12.3456, 2, "12.35"),
    ],
)
def test_fmt_gives_exactly_the_requested_decimals(x: float, decimals: int, expected: str) -> None:
    assert fmt(x, decimals) == expected


@pytest.mark.parametrize(
    ("x", "decimals", "expected"),
    [(-1.5, 1, "\u22121.5"), (-2, 0, "\u22122"), (-0.25, 2, "\u22120.25"), (-12.345678, 3, "\u221212.346")],
)
def test_fmt_uses_a_real_minus_sign(x: float, decimals: int, expected: str) -> None:
    s = fmt(x, decimals)
    assert s == expected
    assert "-" not in s  # never the ASCII hyphen-minus


@pytest.mark.parametrize(
    ("x", "decimals", "expected"),
    [(-0.0, 2, "0.00"), (-0.004, 2, "0.00"), (-0.4, 0, "0"), (-0.0004, 3, "0.000"), (-1e-300, 1, "0.0")],
)
def test_fmt_negative_zero_prints_as_zero(x: float, decimals: int, expected: str) -> None:
    assert fmt(x, decimals) == expected


@pytest.mark.parametrize(
    ("x", "decimals", "expected"),
    [
        (0.5, 0, "1"),
        (1.5, 0, "2"),
        (2.5, 0, "3"),
        (3.5, 0, "4"),
        (-2.5, 0, "\u22123"),
        (0.25, 1, "0.3"),
        (0.75, 1, "0.8"),
        (0.125, 2, "0.13"),
        (0.375, 2, "0.38"),
        (-0.125, 2, "\u22120.13"),
        (0.0625, 3, "0.063"),
        (4.625, 2, "4.63"),  # the default lesson's 9.25 / 2: 4.63 on a calculator and in the workbook
        (3.125, 2, "3.13"),
    ],
)
def test_fmt_rounds_half_away_from_zero_as_students_and_spreadsheets_do(x: float, decimals: int, expected: str) -> None:
    # every x here is exact in binary, so the tie is a real tie
    assert fmt(x, decimals) == expected


def test_fmt_plus_sign_only_for_positive_shown_values() -> None:
    assert fmt(0.5, 1, plus=True) == "+0.5"
    assert fmt(0.0, 1, plus=True) == "0.0"
    assert fmt(0.01, 1, plus=True) == "0.0"  # shows as zero: no sign
    assert fmt(-0.5, 1, plus=True) == "\u22120.5"


@SETTINGS
@given(x=st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), decimals=st.integers(0, 3))
def test_fmt_is_the_nearest_value_on_the_grid(x: float, decimals: int) -> None:
    s = fmt(x, decimals)
    assert not s.startswith("-")
    frac = s.split(".")[1] if "." in s else ""
    assert len(frac) == decimals
    unit = Decimal(1).scaleb(-decimals)
    assert abs(shown_value(s) - Decimal(repr(x))) <= unit / 2
    if shown_value(s) == 0:
        assert not s.startswith(MINUS)


def test_round_matrix_and_format_matrix_agree_with_fmt() -> None:
    m = np.array([[0.125, -0.375, 2.0], [-0.001, 1 / 3, -2 / 3]])
    strings = format_matrix(m, 2)
    assert strings == [["0.13", "\u22120.38", "2.00"], ["0.00", "0.33", "\u22120.67"]]
    assert round_matrix(m, 2).tolist() == [[float(shown_value(s)) for s in row] for row in strings]


@pytest.mark.parametrize(
    ("m", "max_decimals", "expected"),
    [
        ([[3.0, 0.5], [2.0, 0.0]], 2, 1),
        ([[1.0, -2.0], [0.0, 4.0]], 3, 0),
        ([[1.25, -0.5]], 3, 2),
        ([[1.25]], 1, 1),  # capped
        ([[1 / 3]], 3, 3),  # never exact: the cap
        ([[0.125]], 3, 3),
    ],
)
def test_decimals_needed(m: list[list[float]], max_decimals: int, expected: int) -> None:
    assert decimals_needed(m, max_decimals) == expected


def test_default_lesson_inputs_shown_exactly_with_decimals_needed() -> None:
    trace = trace_lesson()
    w = trace.weights
    for m in [c.embeddings for c in trace.contexts]:
        dec = decimals_needed(m, trace.decimals)
        assert dec <= 1  # small round numbers (claim 3)
        assert [[float(shown_value(s)) for s in row] for row in format_matrix(m, dec)] == m.tolist()
    # the weights (trained by default) are shown at the lesson's precision, and what is
    # shown is exactly what computes
    for m in [w.W_Q, w.W_K, w.W_V, w.W_V_reshape, w.W_O]:
        dec = decimals_needed(m, trace.decimals)
        assert dec <= trace.decimals
        assert [[float(shown_value(s)) for s in row] for row in format_matrix(m, dec)] == m.tolist()


# --------------------------------------------------------------------------------------
# one display rule for attention too: fmt of each weight's own value
# --------------------------------------------------------------------------------------
def default_attention_matrices() -> list[tuple[str, np.ndarray]]:
    out = []
    for c in trace_lesson().contexts:
        name = c.context.name
        out += [
            (f"{name} simplified", c.attention),
            (f"{name} unscaled", c.unscaled_attention),
            (f"{name} projected", c.projected.attention),
            (f"{name} causal", c.causal.attention),
        ]
        out += [(f"{name} head {i + 1}", h.attention) for i, h in enumerate(c.multi_head.heads)]
    return out


def test_equal_weights_display_equally() -> None:
    # The case of issue 12: two identical weights of one row, once shown as 0.1 and 0.0
    # because the row was forced to sum to one.
    row = np.array([0.0586, 0.0586, 0.8828])
    assert format_matrix([row], 1) == [["0.1", "0.1", "0.9"]]
    assert shown_sum(row, 1) == 1.1 and not adds_up(row, 1.0, 1)
    for _name, m in default_attention_matrices():
        for decimals in range(4):
            shown = format_matrix(m, decimals)
            for (i, j), v in np.ndenumerate(m):
                same = np.argwhere(m == v)
                assert all(shown[a][b] == shown[i][j] for a, b in same)


@pytest.mark.parametrize(
    ("x", "decimals", "expected"),
    [(0.125, 2, "0.13"), (0.375, 2, "0.38"), (0.05, 1, "0.1"), (0.25, 1, "0.3"), (0.5, 0, "1"), (0.0005, 3, "0.001")],
)
def test_weight_ties_round_half_away_from_zero(x: float, decimals: int, expected: str) -> None:
    """A weight exactly halfway shows as spreadsheets and calculators show it (never half to even)."""
    assert fmt(x, decimals) == expected
    assert format_matrix([[x, 1 - x]], decimals)[0][0] == expected


@pytest.mark.parametrize("decimals", [0, 1, 2, 3])
def test_default_lesson_attention_shows_as_fmt_of_each_weight(decimals: int) -> None:
    """What the screen, ``values`` and the workbook show: fmt of every weight, row sums marked when off."""
    for _name, m in default_attention_matrices():
        assert round_matrix(m, decimals).tolist() == [[float(fmt(v, decimals)) for v in row] for row in m]
        for row in m:
            off = abs(shown_sum(row, decimals) - 1)
            assert adds_up(row, 1.0, decimals) == (off < 0.5 * 10**-decimals)


def test_default_lesson_has_rows_whose_shown_weights_do_not_add_up() -> None:
    # Guard that the ≈ marks are not vacuous: ordinary rounding of the lesson's own
    # attention rows does not always add up to 1 at the lesson's precision.
    dec = trace_lesson().decimals
    assert any(not adds_up(row, 1.0, dec) for _name, m in default_attention_matrices() for row in m)


def test_shown_sum_adds_the_rounded_parts() -> None:
    assert shown_sum([1 / 3] * 3, 2) == 0.99
    assert shown_sum([0.125, 0.125], 2) == 0.26  # each tie rounded up first
    assert shown_sum([-0.125, 0.125], 2) == 0.0
    assert adds_up([0.25, 0.75], 1.0, 2) and not adds_up([1 / 3] * 3, 1.0, 2)


def test_exp_operand_decimals_make_the_exponential_redoable() -> None:
    # 3.125 at two decimals reads 3.13, whose exponential is 22.87, not exp(3.125) = 22.76
    assert fmt(float(np.exp(3.13)), 2) != fmt(float(np.exp(3.125)), 2)
    assert exp_operand_decimals([3.125, 0.0], 2, 2) == 3
    assert exp_operand_decimals([0.5, 1.0], 2, 2) == 2
    assert exp_operand_decimals([float("-inf"), 1.0], 2, 2) == 2
    assert exp_as_shown(3.125, 3, 2) and not exp_as_shown(3.125, 2, 2) and exp_as_shown(float("-inf"), 0, 2)


@SETTINGS
@given(x=st.lists(st.floats(-8, 8), min_size=1, max_size=8), decimals=st.integers(0, 3))
def test_softmax_decimals_make_every_step_redoable(x: list[float], decimals: int) -> None:
    x_dec, e_dec = softmax_decimals(x, decimals)
    assert decimals <= e_dec <= 6 and decimals <= x_dec <= 6
    e = np.exp(np.array(x))
    w = e / e.sum()
    shown_e = round_matrix(e, e_dec)
    total = float(round_matrix([e.sum()], e_dec)[0])
    if e_dec < 6:  # the division, from the numbers shown
        assert format_matrix([shown_e / total], decimals) == format_matrix([w], decimals)
    if x_dec < 6:  # the exponential, from the scores shown
        assert format_matrix([np.exp(round_matrix(x, x_dec))], e_dec) == format_matrix([e], e_dec)


def test_quotient_decimals() -> None:
    assert quotient_decimals([1.0, 2.0], 3.0, 2) == 2
    # 0.3449 / 0.69 = 0.49986 shows 0.50, but the shown 0.34 / 0.69 gives 0.49: one more decimal
    assert fmt(0.34 / 0.69, 2) == "0.49" and fmt(0.3449 / 0.69, 2) == "0.50"
    assert quotient_decimals([0.3449], 0.69, 2) == 3
