"""The spreadsheet formulas of the lecture's steps, one cell at a time.

Why one formula per cell and no array formula: a matrix product written as one
``{=MMULT(X, W_Q)}`` over a range is a legacy (Ctrl+Shift+Enter) array formula, which
each application stores and edits differently (Excel's dynamic arrays, LibreOffice's
matrix ranges, Google Sheets' ARRAYFORMULA), and whose cells a student cannot click one
by one. Every cell here is an ordinary formula whose value is one number:

- a dot product of two rows of the same shape is ``SUMPRODUCT(row, row)`` (the score
  ``X[i]·X[j]``: "a sum of products", as the video works it out);
- a row times a column (``X·W``, ``A·V``) is ``MMULT(row, column)``, a 1×1 product, which
  every application returns as a plain number without array entry (``SUMPRODUCT`` cannot
  take a row and a column, and ``SUMPRODUCT(row, TRANSPOSE(column))`` needs array entry in
  older Excel);
- a softmax weight is ``EXP(s - MAX(row)) / SUMPRODUCT(EXP(row - MAX(row)))``:
  ``SUMPRODUCT`` evaluates its argument as an array in Excel, LibreOffice and Google
  Sheets without array entry, and subtracting the row's largest score (as ``attncore``
  does) keeps ``EXP`` from overflowing when a student types large numbers.

Only functions the three applications share are used (SUMPRODUCT, MMULT, EXP, SUM, MAX,
SQRT, INDEX, MATCH, COLUMNS, SIN, COS); ``tests/test_workbook.py`` checks the list.
"""

from __future__ import annotations

__all__ = ["FUNCTIONS", "dot", "encoding", "exp", "pick", "product", "softmax_weight", "total"]

#: Every function a workbook formula may call.
FUNCTIONS = frozenset({"SUMPRODUCT", "MMULT", "EXP", "SUM", "MAX", "SQRT", "INDEX", "MATCH", "COLUMNS", "SIN", "COS"})


def dot(row_a: str, row_b: str) -> str:
    """``Σ_k a[k]·b[k]`` of two ranges of the same shape (two rows)."""
    return f"=SUMPRODUCT({row_a},{row_b})"


def product(row: str, column: str) -> str:
    """One cell of a matrix product: a row times a column, a 1×1 MMULT."""
    return f"=MMULT({row},{column})"


def softmax_weight(cell: str, row: str) -> str:
    """One softmax weight of a score row, the row's largest score subtracted first."""
    return f"=EXP({cell}-MAX({row}))/SUMPRODUCT(EXP({row}-MAX({row})))"


def exp(cell: str) -> str:
    return f"=EXP({cell})"


def total(cells: str) -> str:
    return f"=SUM({cells})"


def pick(word_cell: str, dimension_cell: str) -> str:
    """A word's value in a dimension, looked up in the vocabulary by name (row and column)."""
    return f"=INDEX(Vocabulary,MATCH({word_cell},Words,0),MATCH({dimension_cell},Dimensions,0))"


def encoding(position: int, column: int) -> str:
    """The sinusoidal positional encoding: ``sin(p / 10000^(2i/d))`` in column 2i, ``cos`` in 2i + 1."""
    two_i = column - column % 2
    return f"={'SIN' if column % 2 == 0 else 'COS'}({position}/10000^({two_i}/d_model))"
