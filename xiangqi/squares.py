"""Public square numbers and names, and SquareSet.

Squares are numbered 0..89 as ``file + 9 * rank``: files a..i run from Red's
left, ranks 0..9 count from Red's side, so "a0" is 0, "e0" (Red's king) is 4
and "i9" is 89. These are the coordinates of ICCS move text (``h2e2``).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator, Set

from ._checks import check_int

FILE_NAMES = "abcdefghi"
RANK_NAMES = "0123456789"

#: Name of every square, indexed by square number: SQUARE_NAMES[4] == "e0".
SQUARE_NAMES: tuple[str, ...] = tuple(f + r for r in RANK_NAMES for f in FILE_NAMES)
SQUARE_OF_NAME = {name: i for i, name in enumerate(SQUARE_NAMES)}

#: Every square number, 0..89 (python-chess's ``chess.SQUARES``), in order: a0, b0, ... i9.
SQUARES: list[int] = list(range(90))

#: The mask of every square, bit i = square i (python-chess's ``chess.BB_ALL`` for xiangqi's
#: 90 squares): the default masks of Position.generate_legal_moves().
BB_ALL: int = (1 << 90) - 1

#: Quote at most this many characters of bad input in an error message.
QUOTE_LIMIT = 200


def quote(value: object) -> str:
    """repr() of bad input for an error message, cut to its first QUOTE_LIMIT characters."""
    if isinstance(value, (str, bytes)) and len(value) > QUOTE_LIMIT:
        return f"{value[:QUOTE_LIMIT]!r}... ({len(value)} long)"
    text = repr(value)
    return text if len(text) <= 2 * QUOTE_LIMIT else text[: 2 * QUOTE_LIMIT] + "..."


def check_square(value: object) -> int:
    """A public square number 0..89 as a plain int: TypeError or ValueError otherwise."""
    return check_int("square", value, 0, 89)


def square(file: int, rank: int) -> int:
    """Square number (0..89) of a file (0..8, a..i) and rank (0..9, from Red's side)."""
    return check_int("file", file, 0, 8) + 9 * check_int("rank", rank, 0, 9)


def square_file(sq: int) -> int:
    """File index 0..8 (a..i) of a square number 0..89."""
    return check_square(sq) % 9


def square_rank(sq: int) -> int:
    """Rank index 0..9 (from Red's side) of a square number 0..89."""
    return check_square(sq) // 9


def square_name(sq: int) -> str:
    """Name ("a0".."i9") of a square number 0..89; ValueError outside that range."""
    return SQUARE_NAMES[check_square(sq)]


def parse_square(name: str) -> int:
    """Square number 0..89 of a name such as "e0" (lower-case ASCII file a..i, rank 0..9).

    Raises ValueError, as python-chess's ``chess.parse_square`` does, for any other
    text, and TypeError for a non-str.
    """
    if not isinstance(name, str):
        raise TypeError(f"square name must be a str, got {type(name).__name__}")
    found = SQUARE_OF_NAME.get(name)
    if found is None:
        raise ValueError(f"expected a square name a0..i9, got {quote(name)}")
    return found


class SquareSet(Set[int]):
    """An immutable set of public squares (0..89), iterated in ascending order.

    Like python-chess's SquareSet, it is backed by a bit mask (bit i = square i,
    ``int(s)`` gives it) and supports ``in``, ``len``, iteration and the set
    operators; it compares equal to any set-like holding the same squares.
    """

    __slots__ = ("_mask",)

    def __init__(self, squares: Iterable[int] | int = 0) -> None:
        if not isinstance(squares, bool) and hasattr(type(squares), "__index__"):
            mask = check_int("square mask", squares)  # a NumPy integer too
            if not 0 <= mask < 1 << 90:
                raise ValueError(f"square mask must fit in 90 bits, got {mask}")
            self._mask = mask
        else:
            mask = 0
            for sq in squares:  # type: ignore[union-attr]
                mask |= 1 << check_square(sq)
            self._mask = mask

    @classmethod
    def _from_iterable(cls, it: Iterable[int]) -> SquareSet:  # type: ignore[override]
        return cls(it)

    def __contains__(self, sq: object) -> bool:
        if isinstance(sq, bool) or not hasattr(type(sq), "__index__"):
            return False
        square = operator.index(sq)  # type: ignore[arg-type]
        return 0 <= square < 90 and bool(self._mask >> square & 1)

    def __iter__(self) -> Iterator[int]:
        mask = self._mask
        while mask:
            low = mask & -mask
            yield low.bit_length() - 1
            mask ^= low

    def __len__(self) -> int:
        return bin(self._mask).count("1")

    def __int__(self) -> int:
        return self._mask

    def __hash__(self) -> int:
        return hash(self._mask)

    def __repr__(self) -> str:
        return f"SquareSet({[SQUARE_NAMES[sq] for sq in self]})"


_new_set = object.__new__


def square_set(mask: int) -> SquareSet:
    """A SquareSet of a mask already known to fit in 90 bits (no checks: for the core's)."""
    out: SquareSet = _new_set(SquareSet)
    out._mask = mask
    return out
