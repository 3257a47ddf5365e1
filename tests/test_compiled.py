"""The compiled core is what was imported, not a stale or pure-Python stand-in."""

import importlib.machinery

import xiangqi
from xiangqi import _core


def test_core_is_a_compiled_extension() -> None:
    assert _core.__file__ is not None
    assert _core.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    assert type(_core.Board).__name__ == "type"
    assert not hasattr(_core, "__cached__") or _core.__cached__ is None


def test_position_uses_the_core() -> None:
    pos = xiangqi.Position()
    assert isinstance(pos._board, _core.Board)
