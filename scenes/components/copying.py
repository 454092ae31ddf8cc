"""A mobject's deep copy, the same as Manim's, about twice as fast.

Manim copies a mobject (``Mobject.copy``, every animation's start and target, the scenes'
checkpoints) with ``copy.deepcopy``, attribute by attribute: each of a glyph's thirty-odd
attributes goes through ``copy``'s dispatch, and each colour through ``__reduce_ex__``.
A build of the lecture spent two thirds of its time there, mostly on floats, booleans,
strings and enums, which ``deepcopy`` returns as they are anyway.

:func:`deepcopy_mobject` makes the same copy (a new instance of the same class, every
attribute copied as ``deepcopy`` copies it, objects shared inside the original shared in
the copy through the same memo, ``original_id`` set as Manim sets it) and takes the short
way for what it knows: immutable values kept (paths too, which ``deepcopy`` rebuilds
equal), numeric arrays copied with ``ndarray.copy``, lists, dictionaries and child mobjects
walked here, colours rebuilt from their array. Anything else goes to ``copy.deepcopy`` with
the same memo. Importing this module makes it ``Mobject.__deepcopy__`` (:func:`install`),
so every copy a scene, an animation or a test makes takes it.
Written here because neither Manim nor ``copy`` offer a cheaper exact copy;
``tests/test_copying.py`` checks that it copies exactly what ``copy.deepcopy`` copied.
"""

from __future__ import annotations

import copy
import enum
import pathlib
from typing import Any

import numpy as np
from manim import ManimColor, Mobject

__all__ = ["deepcopy_mobject", "install", "IMMUTABLE", "MANIMS_DEEPCOPY"]

#: Manim's own ``Mobject.__deepcopy__`` (before :func:`install`), kept for the tests.
MANIMS_DEEPCOPY = Mobject.__deepcopy__

#: Types whose values are never changed in place, kept as they are by a copy: those
#: ``copy.deepcopy`` returns unchanged, paths, and frozen value types added by their modules
#: (a number's :class:`~scenes.components.numbers.Source`).
IMMUTABLE: set[type] = {type(None), bool, int, float, complex, str, bytes, type, np.float64, np.int64, np.bool_,
                        pathlib.PosixPath, pathlib.PurePosixPath}


def _copy(value: Any, memo: dict[int, Any]) -> Any:
    kind = type(value)
    if kind in IMMUTABLE:
        return value
    done = memo.get(id(value), memo)
    if done is not memo:
        return done
    if kind is np.ndarray and value.dtype.kind in "biufc":
        result: Any = value.copy()
    elif kind is list:
        result = []
        memo[id(value)] = result
        result.extend(_copy(item, memo) for item in value)
    elif kind is dict:
        result = {}
        memo[id(value)] = result
        result.update((_copy(k, memo), _copy(v, memo)) for k, v in value.items())
    elif isinstance(value, Mobject) and type(value).__deepcopy__ is deepcopy_mobject:
        return deepcopy_mobject(value, memo)
    elif kind is ManimColor:
        result = object.__new__(ManimColor)
        result.__dict__.update({k: _copy(v, memo) for k, v in value.__dict__.items()})
    elif isinstance(value, enum.Enum):  # Enum.__deepcopy__ returns the member itself
        return value
    else:
        return copy.deepcopy(value, memo)
    memo[id(value)] = result
    # deepcopy keeps every copied original alive in the memo, so that no id is reused while
    # the memo lives: the same here.
    memo.setdefault(id(memo), []).append(value)
    return result


def deepcopy_mobject(self: Mobject, memo: dict[int, Any]) -> Mobject:
    """``Mobject.__deepcopy__`` as Manim writes it, with the short ways of :func:`_copy`.

    Manim sets each attribute with ``setattr``; an attribute in an instance's ``__dict__`` has
    no setter (a data descriptor of the class would have taken the value instead), so the
    copied dictionary is given whole."""
    cls = self.__class__
    result = cls.__new__(cls)
    memo[id(self)] = result
    state = self.__dict__.copy()
    kept = memo.setdefault(id(memo), [])
    for key, value in state.items():
        kind = type(value)
        if kind in IMMUTABLE:
            continue
        # a numeric array not met before (a mobject's points and colours): _copy's first branch,
        # inline, since a glyph has six of them and the call was a third of its copy's time
        if kind is np.ndarray and id(value) not in memo and value.dtype.kind in "biufc":
            state[key] = memo[id(value)] = value.copy()
            kept.append(value)
        else:
            state[key] = _copy(value, memo)
    state["original_id"] = str(id(self))
    result.__dict__ = state
    return result


def install() -> None:
    """Make :func:`deepcopy_mobject` the deep copy of every mobject (idempotent)."""
    Mobject.__deepcopy__ = deepcopy_mobject  # type: ignore[method-assign,assignment]


install()
