"""Deterministic projection weights and an honest line on how they were obtained.

``[projections] weights = "trained"`` trains W_Q, W_K, W_V and W_O on the lesson's sense
task (:mod:`attncore.training`); ``"random"`` draws them from the lesson's seeded
generator. Either way the matrices here are the ones shown *and* the ones computed with.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .i18n import _
from .lesson import Lesson
from .steps import Matrix, as_matrix
from .training import TrainingTrace, train_lesson, untrained_record

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
    training: TrainingTrace | None = None  # the history, when the lesson asks for trained weights


def _seeded(rng: np.random.Generator, rows: int, cols: int) -> Matrix:
    # Halves in [-1, 1] keep every product checkable by eye; a trained model's weights
    # would be arbitrary reals, which is exactly what the provenance line says.
    return rng.integers(-2, 3, size=(rows, cols)).astype(np.float64) / 2.0


def make_weights(lesson: Lesson) -> Weights:
    """The weights of ``lesson``: trained or seeded random, as its ``[projections]`` says."""
    drawn = _drawn(lesson)
    if lesson.projections.weights != "trained":
        return drawn
    trained = train_lesson(lesson)
    if trained is None:  # no sentence states a sense: nothing to train on, say so
        return Weights(
            W_Q=drawn.W_Q, W_K=drawn.W_K, W_V=drawn.W_V, W_V_reshape=drawn.W_V_reshape, W_O=drawn.W_O,
            provenance=_("{provenance} Not trained: no sentence of the lesson states the sense of its focus "
                         "word.").format(provenance=drawn.provenance),
            training=untrained_record(lesson),
        )
    if lesson.projections.matrix("W_V_reshape") is not None:
        provenance = _("{provenance} The W_V that changes the dimension (d to d_v) is set by hand.").format(
            provenance=trained.provenance
        )
    else:
        provenance = _("{provenance} The W_V that changes the dimension (d to d_v) is not trained (it has no named "
                       "dimensions to read): drawn with seed {seed}, rounded to halves.").format(
            provenance=trained.provenance, seed=lesson.projections.seed)
    return Weights(
        W_Q=trained.W_Q, W_K=trained.W_K, W_V=trained.W_V, W_V_reshape=drawn.W_V_reshape, W_O=trained.W_O,
        provenance=provenance,
        training=trained.record,
    )


def _drawn(lesson: Lesson) -> Weights:
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
        provenance = _("Weights set by hand in the lesson file, not trained.")
    elif given_names:
        provenance = _("{names} set by hand; the others untrained, drawn with seed {seed} and rounded to "
                       "halves.").format(names=", ".join(given_names), seed=spec.seed)
    else:
        provenance = _("Untrained weights: drawn with seed {seed}, rounded to halves. A real model learns them "
                       "from data.").format(seed=spec.seed)
    return Weights(
        W_Q=out["W_Q"], W_K=out["W_K"], W_V=out["W_V"], W_V_reshape=out["W_V_reshape"], W_O=out["W_O"],
        provenance=provenance,
    )
