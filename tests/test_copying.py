"""A mobject's deep copy (scenes.components.copying) is the copy Manim's own makes: the same
classes, the same values bit for bit, the same sharing inside the copy, and nothing mutable
shared with the original; checked on everything the scenes put on screen."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
from conftest import built_scene
from manim import Circle, ManimColor, Mobject, Square, VGroup

from scenes.components import copying
from scenes.lecture import find_scene

#: Mutable containers and objects: a copy must make its own.
_MUTABLE = (np.ndarray, list, dict, Mobject, ManimColor)


@contextmanager
def manims_own_copy() -> Iterator[None]:
    Mobject.__deepcopy__ = copying.MANIMS_DEEPCOPY  # type: ignore[method-assign]
    try:
        yield
    finally:
        copying.install()


def same(a: Any, b: Any, seen: dict[int, Any], where: str = "") -> None:
    """``b`` (our copy) is ``a`` (Manim's copy) in value and in what it shares with itself."""
    if isinstance(a, _MUTABLE):
        if id(a) in seen:
            assert seen[id(a)] is b, f"{where}: shared in Manim's copy, not in ours"
            return
        seen[id(a)] = b
    assert type(a) is type(b), f"{where}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes(), where
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            same(x, y, seen, f"{where}[{i}]")
    elif isinstance(a, dict):
        assert list(a) == list(b), where
        for k in a:
            same(a[k], b[k], seen, f"{where}[{k!r}]")
    elif isinstance(a, (Mobject, ManimColor)) or hasattr(a, "__dataclass_fields__"):
        assert list(vars(a)) == list(vars(b)), f"{where}: attributes differ"
        for k, v in vars(a).items():
            if k != "original_id":  # the id of the original, as Manim sets it: different by nature
                same(v, vars(b)[k], seen, f"{where}.{k}")
    elif callable(a):
        assert a is b, where  # functions (updaters) are shared by deepcopy too
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"


def mutables(obj: Any, found: dict[int, Any] | None = None) -> dict[int, Any]:
    """Every mutable object reachable from ``obj`` (by id; kept alive in the dict)."""
    found = {} if found is None else found
    stack = [obj]
    while stack:
        x = stack.pop()
        if not isinstance(x, _MUTABLE) or id(x) in found:
            if isinstance(x, tuple):
                stack.extend(x)
            continue
        found[id(x)] = x
        if isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, dict):
            stack.extend(x.values())
        elif not isinstance(x, np.ndarray):
            stack.extend(vars(x).values())
    return found


def check_copy(mob: Mobject) -> int:
    """Our copy of ``mob`` against Manim's; returns how many mobjects were compared."""
    with manims_own_copy():
        theirs = copy.deepcopy(mob)
    ours = copy.deepcopy(mob)
    same(theirs, ours, {}, type(mob).__name__)
    shared = set(mutables(mob)) & set(mutables(ours))
    assert not shared, f"the copy shares {len(shared)} mutable objects with the original"
    return len(ours.get_family())


def test_copy_keeps_sharing_inside_and_owns_everything() -> None:
    square = Square()
    square.extra = [square.points, square.points]  # one array twice, and the mobject's own
    square.same = square  # a loop back to itself
    group = VGroup(square, Circle())
    group.twice = [square, square]
    clone = copy.deepcopy(group)
    assert clone.twice[0] is clone.twice[1] is clone.submobjects[0]
    assert clone[0].extra[0] is clone[0].extra[1] is clone[0].points
    assert clone[0].same is clone[0]
    clone[0].points[0, 0] = 99.0
    assert square.points[0, 0] != 99.0
    assert check_copy(group) == 3


@pytest.mark.parametrize("name", ["Softmax", "MultiHead", "LearnedProjections", "CausalMask"])
def test_copy_is_manims_for_everything_on_screen(name: str) -> None:
    """Each section's end state of scenes with every kind of mobject the lecture draws
    (texts, numbers, formulas, grids, heat maps, bars, arrows, masks, the loss curve)."""
    scene = built_scene(find_scene(name))
    compared, kinds = 0, set()
    for checkpoint in scene.checkpoints:
        for mob in checkpoint.mobjects:
            kind = tuple(sorted({type(m).__name__ for m in mob.get_family()}))
            if kind not in kinds:  # one of each kind of thing on screen (Manim's copy is slow)
                kinds.add(kind)
                compared += check_copy(mob)
    assert compared > 100


def test_the_copy_is_installed() -> None:
    assert Mobject.__deepcopy__ is copying.deepcopy_mobject
    assert copying.MANIMS_DEEPCOPY is not copying.deepcopy_mobject
