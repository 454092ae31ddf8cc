"""A mobject's family (scenes.components.family) is the list Manim's own ``get_family`` gives:
member for member, on everything the scenes put on screen, and on families that share a
group or hold a cycle."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from conftest import built_scene
from manim import Circle, Mobject, Square, VGroup

from scenes.components import family
from scenes.lecture import LECTURE


@contextmanager
def manims_own() -> Iterator[None]:
    Mobject.get_family = family.MANIMS_GET_FAMILY  # type: ignore[method-assign]
    try:
        yield
    finally:
        family.install()


def both(mob: Mobject) -> tuple[list[int], list[int]]:
    ours = [id(m) for m in mob.get_family()]
    with manims_own():
        theirs = [id(m) for m in mob.get_family()]
    return ours, theirs


def test_installed() -> None:
    assert Mobject.get_family is family.get_family is not family.MANIMS_GET_FAMILY


def test_shared_groups_and_cycles_are_listed_as_manim_lists_them() -> None:
    a, b, c = Square(), Circle(), Square()
    shared = VGroup(a, b)
    dag = VGroup(shared, VGroup(c, shared), b)  # a group, and a mobject, in two places
    ours, theirs = both(dag)
    assert ours == theirs and len(ours) < 2 + 2 * len(shared.get_family()) + 3, "repeats dropped"
    loop = VGroup(Square(), VGroup(Circle()))
    loop.submobjects[1].submobjects.append(loop)  # a cycle: the root inside its own grandchild
    ours, theirs = both(loop)
    assert ours == theirs
    leaf = Square()
    assert both(leaf) == ([id(leaf)], [id(leaf)])


@pytest.mark.parametrize("cls", LECTURE, ids=[c.__name__ for c in LECTURE])
def test_every_family_on_screen_is_manims(cls: type) -> None:
    """Every mobject on screen at every section end of the default lesson, and every member's own family."""
    scene = built_scene(cls)
    checked = 0
    for cp in scene.checkpoints:
        for top in cp.mobjects:
            with manims_own():
                members = top.get_family()
            for m in members:
                ours, theirs = both(m)
                assert ours == theirs, f"{cls.__name__} / {cp.section}: {type(m).__name__}"
                checked += 1
    assert checked > 100
