"""Exercises with worked answers, computed from the lesson's own numbers.

Each :class:`Exercise` asks for one step of the lecture (a dot product, a scaled score,
an exponential, a row's sum, an attention weight, an entry of the weighted sum, the sense
the output leans to, what the causal mask hides, an entry of ``Q = X·W_Q``, a multi-head
shape). Its answer is the trace's value shown as the lecture shows it (:func:`fmt`, half
away from zero); a numerical answer is accepted within half a unit of its last decimal.
A multiple-choice question's wrong options are the values a named mistake gives (forgot
√d, divided by d, softmax over the column, used the wrong row, forgot the exponential,
...), each different from the answer and from the others as shown.

The worked solution is a list of :class:`Work` lines: every arithmetic claim in it
(``expr = result``) uses only numbers shown before it, so a student with a calculator
redoes it digit for digit; the numbers given get as many decimals as that needs.

The same lesson and seed give the same exercises; another seed picks other words, rows
and columns (:func:`make_exercises`). Pure Python and numpy.

The package: :mod:`.model` (the records and how their numbers are written), :mod:`.common`
(what every kind shares: the named mistakes, where the lecture explains each kind, the
candidates), one module of kinds per topic (:mod:`.scores`, :mod:`.softmax`,
:mod:`.outputs`, :mod:`.projections`, :mod:`.masking`) and :mod:`.sheet`, which lists the
kinds in lecture order and draws a sheet.
"""

from __future__ import annotations

from ..display import shown_value
from .common import MISTAKES, PLACES, TITLES
from .model import COUNT_LIMITS, Builder, Choice, Exercise, Kind, Work, choices, plain, pretty, token
from .sheet import KINDS, make_exercises

__all__ = [
    "COUNT_LIMITS",
    "KINDS",
    "MISTAKES",
    "PLACES",
    "TITLES",
    "Builder",
    "Choice",
    "Exercise",
    "Kind",
    "Work",
    "choices",
    "make_exercises",
    "plain",
    "pretty",
    "shown_value",
    "token",
]
