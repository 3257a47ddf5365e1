"""Exception classes. All are ValueError subclasses, so `except ValueError` still works."""

from __future__ import annotations


class XiangqiError(ValueError):
    """Base class of every error this package raises for bad input."""


class InvalidFenError(XiangqiError):
    """A FEN string that cannot describe a reachable xiangqi position."""


class InvalidMoveError(XiangqiError):
    """Move text (ICCS, WXF, Chinese) that is malformed or names no move."""


class IllegalMoveError(XiangqiError):
    """A well-formed move that is not legal in the given position."""


class ConcurrentUseError(XiangqiError, RuntimeError):
    """One object used by two threads at once where that is not allowed (a VectorEnv
    stepped or reset while another thread's step runs). Also a RuntimeError: the call
    was refused and nothing changed; the object stays usable."""
