"""A mobject's family: Manim's own list, walked by one function instead of a generator per mobject.

``Mobject.get_family`` (a mobject, its submobjects and theirs, in that order) is asked for
at every frame a render draws (the camera lists what to draw), at every animation's set-up
and at every bounding box a layout measures: a build of the largest lesson asked 165,000
times, a render of four scenes 337,000. Manim walks the family with one generator per
mobject, nested (``_iter_family``, each member passed up through every generator above it),
then drops repeats keeping the last occurrence (``remove_list_redundancies``, a Python loop
over the whole list). :func:`get_family` walks it once with one recursive function, in the
same order and with the same rule for a mobject already on the way down (a cycle: left out
there), and drops repeats only when there are any (a mobject in two groups of the family).
The list is the same, member for member (``tests/test_family.py``: everything the scenes put
on screen, groups shared inside a family, and cycles). Importing this module makes it
``Mobject.get_family`` (:func:`install`), as :mod:`.copying` does for the deep copy.
"""

from __future__ import annotations

from manim import Mobject
from manim.utils.iterables import remove_list_redundancies

__all__ = ["MANIMS_GET_FAMILY", "get_family", "install"]

#: Manim's own ``Mobject.get_family`` (before :func:`install`), kept for the tests.
MANIMS_GET_FAMILY = Mobject.get_family


def _walk(mob: Mobject, path: set[Mobject], out: list[Mobject]) -> None:
    if mob in path:
        return
    path.add(mob)
    out.append(mob)
    for sub in mob.submobjects:
        _walk(sub, path, out)
    path.remove(mob)


def get_family(self: Mobject, recurse: bool = True) -> list[Mobject]:
    """``Mobject.get_family`` as Manim computes it: ``self`` and its family, each once (its last
    place in the walk), a mobject met again on its own way down left out there."""
    if not self.submobjects:
        return [self]
    out: list[Mobject] = []
    _walk(self, set(), out)
    if len(set(out)) == len(out):
        return out
    return remove_list_redundancies(out)


def install() -> None:
    """Make :func:`get_family` Manim's ``Mobject.get_family`` (idempotent)."""
    Mobject.get_family = get_family  # type: ignore[method-assign]


install()
