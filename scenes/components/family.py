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

The camera lists what to draw at every frame by Manim's ``extract_mobject_family_members``
(and a scene what moves at every ``play``): a list per mobject with a generator, its members
with points picked by another list, all chained, repeats dropped by a Python loop, then sorted
by z-index with a lambda. A 480p render of the lecture spent 7 % of its drawing thread there
(py-spy). :func:`family_members` makes the same list in one pass: the families chained, repeats
dropped only when there are any (keeping each last, as Manim does, which gives the same list
whether the members without points go before or after), those without points left out, a
stable sort on ``z_index``. Installed where Manim's modules call it.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import attrgetter

import manim.camera.camera
import manim.scene.moving_camera_scene
import manim.scene.scene
import manim.utils.family
from manim import Mobject
from manim.utils.iterables import remove_list_redundancies

__all__ = ["MANIMS_EXTRACT", "MANIMS_GET_FAMILY", "family_members", "get_family", "install"]

#: Manim's own ``Mobject.get_family`` (before :func:`install`), kept for the tests.
MANIMS_GET_FAMILY = Mobject.get_family
#: Manim's own ``extract_mobject_family_members`` and the modules that call it by that name.
MANIMS_EXTRACT = manim.utils.family.extract_mobject_family_members
CALLERS = (manim.utils.family, manim.scene.scene, manim.camera.camera, manim.scene.moving_camera_scene)
_Z_INDEX = attrgetter("z_index")


def _walk(mob: Mobject, path: set[Mobject], out: list[Mobject]) -> None:
    if mob in path:
        return
    path.add(mob)
    out.append(mob)
    for sub in mob.submobjects:
        if sub.submobjects:
            _walk(sub, path, out)
        else:  # a leaf (most of a family: glyphs), without a call of its own: never on the path,
            out.append(sub)  # which holds only mobjects being walked, each with submobjects
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


def family_members(mobjects: Iterable[Mobject], use_z_index: bool = False,
                   only_those_with_points: bool = False) -> list[Mobject]:
    """Manim's ``extract_mobject_family_members``: the families of ``mobjects`` in turn, each member
    once (its last place), only those with points if asked, sorted by ``z_index`` if asked."""
    members: list[Mobject] = []
    for m in mobjects:
        # Manim lists a family with points by the mobject's own get_family, the others by Mobject's.
        members.extend(m.get_family() if only_those_with_points and type(m).get_family is not get_family
                       else get_family(m))
    if len(set(members)) != len(members):
        members = remove_list_redundancies(members)
    if only_those_with_points:
        members = [m for m in members if m.get_num_points() > 0]
    if use_z_index:
        members.sort(key=_Z_INDEX)  # stable, as Manim's sorted
    return members


def install() -> None:
    """Make :func:`get_family` Manim's ``Mobject.get_family`` and :func:`family_members` its
    ``extract_mobject_family_members`` (idempotent)."""
    Mobject.get_family = get_family  # type: ignore[method-assign]
    for module in CALLERS:
        module.extract_mobject_family_members = family_members  # type: ignore[attr-defined]


install()
