"""A mobject's update, Manim's own, skipped while no mobject of the process has an updater.

Manim calls ``Mobject.update`` at every frame a render draws: the scene updates each of its
mobjects and each animation its mobject, its start and its target, and every call walks the
whole family, whether or not anything in it has an updater. The lecture's scenes have none,
and in a render of three scenes at 480p that walk was 690,000 calls for nothing (3 % of the
render, cProfile). An updater can be added only by ``Mobject.add_updater`` (Manim's
``always_redraw``, ``ValueTracker`` and the rest go through it), so once the first one is
added anywhere in the process, every update is Manim's own again; until then there is nothing
an update could do. Importing this module installs both (:func:`install`), as
:mod:`.family` does for the family; a lecturer's scene with updaters draws as in Manim
(``tests/test_updating.py``).
"""

from __future__ import annotations

from typing import Any

from manim import Mobject

__all__ = ["MANIMS_UPDATE", "any_updater", "install"]

#: Manim's own ``Mobject.update`` and ``Mobject.add_updater`` (before :func:`install`).
MANIMS_UPDATE = Mobject.update
MANIMS_ADD_UPDATER = Mobject.add_updater
_added = [False]


def any_updater() -> bool:
    """Whether any mobject of this process was ever given an updater."""
    return _added[0]


def add_updater(self: Mobject, *args: Any, **kwargs: Any) -> Any:
    _added[0] = True
    return MANIMS_ADD_UPDATER(self, *args, **kwargs)


def update(self: Mobject, dt: float = 0, recursive: bool = True) -> Any:
    """``Mobject.update``: nothing to do while no updater exists in the process, else Manim's."""
    if not _added[0]:
        return self
    return MANIMS_UPDATE(self, dt, recursive)


def install() -> None:
    """Make :func:`update` and :func:`add_updater` Manim's (idempotent)."""
    Mobject.update = update  # type: ignore[method-assign]
    Mobject.add_updater = add_updater  # type: ignore[method-assign]


install()
