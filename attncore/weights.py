"""Deterministic projection weights and an honest line on how they were obtained."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .lesson import Lesson
from .steps import Matrix, as_matrix

__all__ = ["Weights", "make_weights"]


@dataclass(frozen=True)
class Weights:
    """The weights of the learned-projection steps (the same for every context)."""

    W_Q: Matrix  # (d, d)
    W_K: Matrix  # (d, d)
    W_V: Matrix  # (d, d)
    W_V_reshape: Matrix  # (d, d_v): a value map that changes the dimension
    W_O: Matrix  # (d, d): mixes the concatenated heads
    provenance: str  # one line, shown in the video


def _seeded(rng: np.random.Generator, rows: int, cols: int) -> Matrix:
    # Halves in [-1, 1] keep every product checkable by eye; a trained model's weights
    # would be arbitrary reals, which is exactly what the provenance line says.
    return rng.integers(-2, 3, size=(rows, cols)).astype(np.float64) / 2.0


def make_weights(lesson: Lesson) -> Weights:
    """Explicit matrices from the lesson where given, the rest from its seeded generator.

    The generator is ``numpy.random.default_rng(seed)``; matrices are drawn in the fixed
    order W_Q, W_K, W_V, W_V_reshape, W_O so that the same seed always gives the same
    weights, whatever the machine.
    """
    d, spec = lesson.d, lesson.projections
    rng = np.random.default_rng(spec.seed)
    shapes = {"W_Q": (d, d), "W_K": (d, d), "W_V": (d, d), "W_V_reshape": (d, spec.d_v), "W_O": (d, d)}
    out: dict[str, Matrix] = {}
    for name, (r, c) in shapes.items():
        drawn = _seeded(rng, r, c)  # always drawn, so explicit matrices don't shift the others
        given = spec.matrix(name)
        m = as_matrix(given, name) if given is not None else drawn
        m.setflags(write=False)
        out[name] = m
    given_names = [n for n in shapes if spec.matrix(n) is not None]
    if len(given_names) == len(shapes):
        provenance = "Weights set by hand in the lesson file, not trained."
    elif given_names:
        provenance = (
            f"{', '.join(given_names)} set by hand; the others untrained, drawn with seed "
            f"{spec.seed} and rounded to halves."
        )
    else:
        provenance = (
            f"Untrained weights: drawn with seed {spec.seed}, rounded to halves. "
            "A real model learns them from data."
        )
    return Weights(provenance=provenance, **out)
