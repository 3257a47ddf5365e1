"""What every opening-book reader shares: ``BookError``, ``Entry`` and the ``Reader`` interface.

Internal to ``xiangqi.book`` (which re-exports the public names, and documents them): the
ElephantEye ``.dat`` reader (``xiangqi.book``) and the SQLite book (``xiangqi._book_sqlite``)
both build on it, and neither imports the other's module. The public classes say
``__module__ = "xiangqi.book"``: that is where they are documented, pickled and shown in
tracebacks.
"""

from __future__ import annotations

import os
import random as _random
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, Union

from ._checks import check_int
from .errors import XiangqiError
from .move import Move
from .position import Position

if TYPE_CHECKING:
    from types import TracebackType

PathLike = Union[str, "os.PathLike[str]"]


class BookError(XiangqiError):
    """A file that is not an opening book, or a damaged one: names the file and the record."""

    __module__ = "xiangqi.book"


@dataclass(frozen=True, slots=True)
class Entry:
    """One book move of one position: the move (public squares), its weight and counts.

    ``wins``, ``draws`` and ``losses`` (of the side that played the move) are None where
    the format has no such counts (ElephantEye's ``.dat``). ``key`` is the book's key of
    the position the entry is stored under (for a mirrored ``.dat`` lookup, the mirror
    image's lock) and ``record`` the entry's place in the file: the record number
    (0-based) of a ``.dat``, the ``moves`` row id of an SQLite book.
    """

    move: Move
    weight: int
    wins: int | None = None
    draws: int | None = None
    losses: int | None = None
    key: int = 0
    record: int = 0

    __module__ = "xiangqi.book"


class _Random(Protocol):
    def randrange(self, stop: int, /) -> int: ...


def check_position(position: object) -> None:
    if not isinstance(position, Position):
        raise TypeError(f"expected a Position, got {type(position).__name__}")


class Reader:
    """What every book reader offers (python-chess's ``chess.polyglot.MemoryMappedReader``).

    Use it as a context manager, or call ``close()``. A probe of a closed reader raises
    ``BookError``.
    """

    __module__ = "xiangqi.book"
    path: str

    def __enter__(self) -> Reader:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Release the file; the reader can no longer be probed."""

    def __len__(self) -> int:
        raise NotImplementedError

    def find_all(
        self,
        position: Position,
        minimum_weight: int = 1,
        exclude_moves: Collection[Move] = (),
    ) -> Iterator[Entry]:
        """The entries of a position that are legal there, highest weight first.

        Entries below ``minimum_weight`` and those whose move is in ``exclude_moves`` (an
        iterable of Moves: a lone Move or a string is a TypeError naming it) are left
        out. An unknown position yields nothing; a closed reader raises BookError.
        """
        raise NotImplementedError

    def find(
        self,
        position: Position,
        minimum_weight: int = 1,
        exclude_moves: Collection[Move] = (),
    ) -> Entry:
        """The entry of highest weight (the first of equals); IndexError if there is none."""
        for entry in self.find_all(position, minimum_weight, exclude_moves):
            return entry
        raise IndexError("no book entry for this position")

    def get(
        self,
        position: Position,
        default: Entry | None = None,
        *,
        minimum_weight: int = 1,
        exclude_moves: Collection[Move] = (),
    ) -> Entry | None:
        """``find()``, or ``default`` where that would raise IndexError."""
        for entry in self.find_all(position, minimum_weight, exclude_moves):
            return entry
        return default

    def choice(
        self,
        position: Position,
        *,
        minimum_weight: int = 1,
        exclude_moves: Collection[Move] = (),
        random: _Random | None = None,
    ) -> Entry:
        """An entry picked uniformly (weights ignored); IndexError if there is none.

        ``random`` is a ``random.Random`` (default: the ``random`` module's generator).
        """
        rng = _check_random(random)
        entries = list(self.find_all(position, minimum_weight, exclude_moves))
        if not entries:
            raise IndexError("no book entry for this position")
        return entries[_draw(rng, len(entries))]

    def weighted_choice(
        self,
        position: Position,
        *,
        exclude_moves: Collection[Move] = (),
        random: _Random | None = None,
    ) -> Entry:
        """An entry picked with probability weight / total weight; IndexError if none.

        As the engine picks: a number below the total weight, then the first entry (in
        ``find_all`` order) whose running weight passes it. ``random`` is a
        ``random.Random`` for a seeded, repeatable pick (default: the ``random`` module's):
        anything whose ``randrange(stop)`` returns an int in ``0..stop - 1``. A ``random``
        without ``randrange`` raises TypeError, one whose draw is out of that range
        ValueError (both naming ``random``).
        """
        rng = _check_random(random)
        entries = list(self.find_all(position, 1, exclude_moves))
        total = sum(entry.weight for entry in entries)
        if not total:
            raise IndexError("no book entry for this position")
        pick = _draw(rng, total)
        for entry in entries:
            pick -= entry.weight
            if pick < 0:
                return entry
        raise AssertionError("unreachable: the weights add up to the total")


def _check_random(random: object) -> _Random:
    if random is None:
        return _random
    if not callable(getattr(random, "randrange", None)):
        raise TypeError(
            "random must be a random.Random (anything with randrange(stop)), got "
            f"{type(random).__name__}"
        )
    return random  # type: ignore[return-value]


def _draw(rng: _Random, stop: int) -> int:
    """rng.randrange(stop), checked (_checks' int rule: a NumPy integer is an int, bool
    is not): an int in 0..stop - 1, else ValueError naming random."""
    try:
        return check_int(f"random.randrange({stop})", rng.randrange(stop), 0, stop - 1)
    except TypeError as error:  # a bad random object is a bad value of `random`
        raise ValueError(str(error)) from None


def check_exclude(exclude_moves: object) -> Collection[Move]:
    """exclude_moves as a collection of Moves: TypeError for a lone Move, a string or a non-
    iterable (a Move is itself no collection of moves, and a string's letters are none)."""
    if isinstance(exclude_moves, (Move, str, bytes)) or not isinstance(exclude_moves, Iterable):
        raise TypeError(
            "exclude_moves must be an iterable of Moves (e.g. [move]), got "
            f"{type(exclude_moves).__name__}: {exclude_moves!r}"
        )
    if not isinstance(exclude_moves, (set, frozenset, tuple, list)):
        exclude_moves = tuple(exclude_moves)
    for move in exclude_moves:
        if not isinstance(move, Move):
            raise TypeError(f"exclude_moves must hold Moves, got {type(move).__name__}: {move!r}")
    return exclude_moves


def check_path(path: object, what: str) -> str:
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{what} must be a str or os.PathLike, got {type(path).__name__}")
    name = os.fspath(path)
    if not isinstance(name, str):
        raise TypeError(f"{what} must name a file with text, got {type(name).__name__}")
    return name
