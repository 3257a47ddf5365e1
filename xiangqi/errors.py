"""Exception classes. The errors for bad input are ValueError subclasses, so `except
ValueError` still works; SearchLimitReached is not an error of the input."""

from __future__ import annotations

from ._words import counted


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


class SearchLimitReached(Exception):
    """A mate search stopped at its node limit (or its stop event) before it could answer
    (nothing proven beyond ``proven_plies``): Position.find_mate raises it, and
    xiangqi.find_mates puts it in the result list, so that None always means "proven: no
    mate".

    Attributes:
        nodes: positions visited before the search stopped (0 when stop was set
            before it began).
        proven_plies: how far the proof got: there is no mate within this many plies
            (0: nothing proven yet).
    """

    def __init__(self, nodes: int, proven_plies: int) -> None:
        proven = (
            f"proven: no mate within {counted(proven_plies, 'ply')}"
            if proven_plies
            else "nothing proven yet"
        )
        super().__init__(
            f"mate search stopped before it could answer, after {counted(nodes, 'node')}; " + proven
        )
        self.nodes = nodes
        self.proven_plies = proven_plies

    def __reduce__(self) -> tuple[object, ...]:
        return type(self), (self.nodes, self.proven_plies)


class OutputFileError(XiangqiError):
    """An output file refused before anything was written (xiangqi._files.check_output): a
    directory, a FIFO, a device or a socket, the same file as an input, or a path in no
    directory. The message names the path and the reason."""
