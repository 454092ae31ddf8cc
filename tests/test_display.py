"""Numeric tier: how numbers are shown (``fmt``) and how probability rows are rounded
so that every row on screen sums to exactly 1 (``round_rows_to_one``)."""

from __future__ import annotations

from decimal import Decimal

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attncore import (
    decimals_needed,
    fmt,
    format_matrix,
    round_matrix,
    round_rows_to_one,
    softmax,
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
# round_rows_to_one
# --------------------------------------------------------------------------------------
def check_rounded_rows(p: np.ndarray, decimals: int) -> None:
    """Every displayed row sums to exactly 1; every value within one unit of the exact one."""
    unit = 10**decimals
    shown = round_rows_to_one(p, decimals)
    assert shown.shape == p.shape
    ints = [[round(v * unit) for v in row] for row in shown.tolist()]
    # the values are on the grid of 10**-decimals ...
    assert np.allclose(shown * unit, np.array(ints, dtype=float), rtol=0, atol=1e-9)
    for i, row in enumerate(ints):
        # ... sum to exactly 1 on that grid ...
        assert sum(row) == unit, f"row {i} shows as {row} (/{unit}), sum {sum(row)}"
        # ... and so do the strings a viewer reads
        assert sum(shown_value(fmt(v, decimals)) for v in shown[i]) == 1
        assert all(0 <= v <= unit for v in row)
    # each moves by less than one display unit (plus rounding noise)
    assert np.max(np.abs(shown - p)) * unit <= 1 + 1e-9
    # largest remainder: every value is its exact value rounded down or up, and the units
    # added go to the largest remainders (no entry rounded down had a larger remainder)
    for i, row in enumerate(ints):
        exact = p[i] * unit
        floors = np.floor(exact + 1e-9)
        up = np.array(row) - floors
        assert set(up.tolist()) <= {0.0, 1.0}, f"row {i}: {row} is not floor/ceil of {exact}"
        rem = exact - floors
        if up.any() and not up.all():
            assert rem[up == 1].min() >= rem[up == 0].max() - 1e-9, f"row {i}: {row} from {exact}"


def default_attention_matrices() -> list[tuple[str, np.ndarray]]:
    out = []
    for c in trace_lesson().contexts:
        name = c.context.name
        out += [
            (f"{name} simplified", c.attention),
            (f"{name} unscaled", c.unscaled_attention),
            (f"{name} projected", c.projected.attention),
        ]
        out += [(f"{name} head {i + 1}", h.attention) for i, h in enumerate(c.multi_head.heads)]
    return out


def test_default_lesson_has_the_attention_matrices_we_round() -> None:
    mats = default_attention_matrices()
    trace = trace_lesson()
    assert len(mats) == len(trace.contexts) * (3 + trace.lesson.heads)


@pytest.mark.parametrize("decimals", [0, 1, 2, 3])
def test_default_lesson_attention_rows_display_summing_to_one(decimals: int) -> None:
    for _name, m in default_attention_matrices():
        check_rounded_rows(np.asarray(m), decimals)


def test_default_lesson_needs_the_correction() -> None:
    # Guard that the test above is not vacuous: plain rounding of the lesson's own
    # attention rows does NOT always sum to 1 at the lesson's precision.
    dec = trace_lesson().decimals
    unit = 10**dec
    plain_sums = {
        sum(round(v * unit) for v in row) for _name, m in default_attention_matrices() for row in m.tolist()
    }
    assert plain_sums != {unit}


@st.composite
def probability_rows(draw: st.DrawFn) -> np.ndarray:
    n = draw(st.integers(1, 4), label="rows")
    m = draw(st.integers(1, 8), label="columns")
    kind = draw(st.sampled_from(["normalised", "softmax"]))
    if kind == "softmax":
        s = draw(
            st.lists(st.lists(st.floats(-20, 20), min_size=m, max_size=m), min_size=n, max_size=n)
        )
        return softmax(s)
    raw = draw(
        st.lists(
            st.lists(st.floats(0, 1), min_size=m, max_size=m).filter(lambda r: sum(r) > 1e-3),
            min_size=n,
            max_size=n,
        )
    )
    a = np.array(raw, dtype=np.float64)
    return a / a.sum(axis=1, keepdims=True)


@SETTINGS
@given(p=probability_rows(), decimals=st.integers(0, 3))
def test_probability_rows_display_summing_to_one(p: np.ndarray, decimals: int) -> None:
    check_rounded_rows(p, decimals)


def test_round_rows_to_one_example_from_the_docs() -> None:
    assert round_rows_to_one([[1 / 3, 1 / 3, 1 / 3]], 2).tolist() == [[0.34, 0.33, 0.33]]
    assert round_rows_to_one([[1 / 6] * 6], 1).tolist() == [[0.2, 0.2, 0.2, 0.2, 0.1, 0.1]]
    assert round_rows_to_one([[0.5, 0.5]], 0).tolist() in ([[1.0, 0.0]], [[0.0, 1.0]])
    # the missing unit goes to the largest remainder (0.6), not to the exact 0.75
    assert round_rows_to_one([[0.126, 0.124, 0.75]], 2).tolist() == [[0.13, 0.12, 0.75]]


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([[0.5, 0.4]], r"row 0 sums to 0\.9"),
        ([[0.6, 0.6]], r"row 0 sums to 1\.2"),
        ([[0.5, 0.5], [0.2, 0.2]], r"row 1 sums to 0\.4"),
        ([[0.0, 0.0]], "row 0 sums to 0"),
        ([[2.0, 0.0]], "sums to 2"),
        ([[0.5, float("nan")]], "sums to nan"),
        ([[0.999, 0.0]], "not 1"),
        ([0.5, 0.5], "needs a 2-D matrix"),
    ],
)
def test_rows_not_summing_to_one_raise(rows: list[list[float]], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        round_rows_to_one(rows, 2)


def test_rows_keep_ordinary_rounding_when_it_already_sums_to_one() -> None:
    row = np.array([[0.2561, 0.0113, 0.6961, 0.0127, 0.0238]])
    assert round_rows_to_one(row, 2).tolist() == [[float(fmt(v, 2)) for v in row[0]]]

