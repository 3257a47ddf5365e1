"""Move values and their ICCS text ("h2e2")."""

from __future__ import annotations

import operator
from dataclasses import dataclass

from .errors import InvalidMoveError
from .squares import _SQUARE_OF_NAME, SQUARE_NAMES, quote


@dataclass(frozen=True, order=True, slots=True)
class Move:
    """A move from one public square (0..89, file + 9 * rank) to another.

    A Move knows nothing about any position; ask a Position whether it is legal.
    """

    from_square: int
    to_square: int

    def __post_init__(self) -> None:
        for field in ("from_square", "to_square"):
            sq = getattr(self, field)
            if type(sq) is not int:  # numpy and other integers become plain ints; bools do not
                if isinstance(sq, bool) or not hasattr(type(sq), "__index__"):
                    raise TypeError(f"move squares must be ints in 0..89, got {type(sq).__name__}")
                sq = int.__int__(operator.index(sq))  # the real value of an int subclass
                object.__setattr__(self, field, sq)
            if not 0 <= sq < 90:
                raise ValueError(f"move squares must be ints in 0..89, got {quote(sq)}")
        if self.from_square == self.to_square:
            raise ValueError(
                f"a move must change squares, got {SQUARE_NAMES[self.to_square]} twice"
            )

    @classmethod
    def from_iccs(cls, text: str) -> Move:
        """Parse ICCS text such as "h2e2" (files a..i, ranks 0..9 from Red's side).

        Raises InvalidMoveError for anything that is not two square names of
        two different squares.
        """
        if not isinstance(text, str):
            raise TypeError(f"ICCS move text must be a str, got {type(text).__name__}")
        frm = _SQUARE_OF_NAME.get(text[:2]) if len(text) == 4 else None
        to = _SQUARE_OF_NAME.get(text[2:]) if frm is not None else None
        if frm is None or to is None:
            raise InvalidMoveError(
                f"expected ICCS move text of two squares a0..i9 such as 'h2e2', got {quote(text)}"
            )
        if frm == to:
            raise InvalidMoveError(f"a move must change squares, got {quote(text)}")
        return MOVES[frm * 90 + to]  # type: ignore[return-value]

    def iccs(self) -> str:
        """ICCS text, e.g. "h2e2"."""
        return SQUARE_NAMES[self.from_square] + SQUARE_NAMES[self.to_square]

    def __str__(self) -> str:
        return self.iccs()

    def __repr__(self) -> str:
        return f"Move.from_iccs({self.iccs()!r})"


#: Every (from, to) pair as one shared Move, indexed by from_square * 90 + to_square.
#: generate_legal hands out these objects, so it allocates no Move per call.
#: The entries with from_square == to_square are None.
MOVES: list[Move | None] = [Move(f, t) if f != t else None for f in range(90) for t in range(90)]
