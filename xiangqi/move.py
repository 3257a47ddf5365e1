"""Move values and their ICCS text ("h2e2")."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import cast

from ._checks import check_int
from .errors import InvalidMoveError
from .squares import SQUARE_NAMES, SQUARE_OF_NAME, quote

#: Square names with ranks 1..10, as Fairy-Stockfish's xiangqi writes them ("h10").
_RANKS_1_TO_10 = re.compile(r"[a-i](?:10|[1-9])[a-i](?:10|[1-9])", re.IGNORECASE | re.ASCII)


def ranks_hint(text: str) -> str:
    """A hint to append to an error's message when text is two square names with a rank 10
    (so counted 1..10, as Fairy-Stockfish writes them): "; ICCS ranks run 0..9 ...";
    otherwise the empty string."""
    if "10" in text and _RANKS_1_TO_10.fullmatch(text.strip()):
        return (
            "; ICCS ranks run 0..9: a rank 10 is Fairy-Stockfish's 1..10 numbering "
            "(parse_iccs(pos, text, style='ranks1') reads it)"
        )
    return ""


@dataclass(frozen=True, order=True, slots=True)
class Move:
    """A move from one public square (0..89, file + 9 * rank) to another.

    A Move knows nothing about any position; ask a Position whether it is legal.
    ``Move.null()`` is the one exception to "two different squares": a pass (ICCS
    "0000", as python-chess's UCI null move), which is falsy.
    """

    from_square: int
    to_square: int

    def __post_init__(self) -> None:
        for field in ("from_square", "to_square"):
            sq = getattr(self, field)
            if type(sq) is not int or not 0 <= sq < 90:
                # numpy and other integers become plain ints; bools do not
                object.__setattr__(self, field, check_int(field, sq, 0, 89))
        if self.from_square == self.to_square:
            raise ValueError(
                f"a move must change squares, got {SQUARE_NAMES[self.to_square]} twice"
            )

    @classmethod
    def from_iccs(cls, text: str) -> Move:
        """Parse ICCS text such as "h2e2" (files a..i, ranks 0..9 from Red's side).

        "0000" is the null move (Move.null()), as in python-chess's UCI. Raises
        InvalidMoveError for anything else that is not two square names of two
        different squares.
        """
        if not isinstance(text, str):
            raise TypeError(f"ICCS move text must be a str, got {type(text).__name__}")
        if text == "0000":
            return NULL_MOVE
        frm = SQUARE_OF_NAME.get(text[:2]) if len(text) == 4 else None
        to = SQUARE_OF_NAME.get(text[2:]) if frm is not None else None
        if frm is None or to is None:
            raise InvalidMoveError(
                f"expected ICCS move text of two squares a0..i9 such as 'h2e2', got "
                f"{quote(text)}{ranks_hint(text)}"
            )
        if frm == to:
            raise InvalidMoveError(f"a move must change squares, got {quote(text)}")
        return MOVES[frm * 90 + to]  # type: ignore[return-value]

    @classmethod
    def null(cls) -> Move:
        """The null move (a pass): python-chess's ``Move.null()``. ICCS "0000", falsy.

        Position.push() plays it (not while in check) and pop() undoes it; it is never
        in legal_moves. See Position.push() for how the rulings treat it.
        """
        return NULL_MOVE

    def __bool__(self) -> bool:
        return self.from_square != self.to_square

    def iccs(self) -> str:
        """ICCS text, e.g. "h2e2" ("0000" for the null move)."""
        if self.from_square == self.to_square:
            return "0000"
        return SQUARE_NAMES[self.from_square] + SQUARE_NAMES[self.to_square]

    @classmethod
    def from_uci(cls, text: str) -> Move:
        """Parse UCI coordinate text, python-chess's ``Move.from_uci``: the same as from_iccs.

        UCI xiangqi engines (Pikafish) write moves as ICCS squares with ranks 0..9, so
        ``Move.from_uci("h2e2") == Move.from_iccs("h2e2")``; "0000" is the null move.
        Raises InvalidMoveError as from_iccs does.
        """
        return cls.from_iccs(text)

    def uci(self) -> str:
        """UCI coordinate text, python-chess's ``Move.uci()``: the ICCS text, e.g. "h2e2".

        The same as :meth:`iccs`, the one ICCS writer (``xiangqi.notation.iccs`` calls it too).
        """
        return self.iccs()

    def __str__(self) -> str:
        return self.iccs()

    def __repr__(self) -> str:
        if self.from_square == self.to_square:
            return "Move.null()"
        return f"Move.from_iccs({self.iccs()!r})"


def _make_null() -> Move:
    null = object.__new__(Move)  # skips __post_init__, which refuses from == to
    object.__setattr__(null, "from_square", 0)
    object.__setattr__(null, "to_square", 0)
    return null


#: The one null move object (Move.null()): from_square == to_square == 0.
NULL_MOVE = _make_null()


#: Every (from, to) pair as one shared Move, indexed by from_square * 90 + to_square.
#: generate_legal hands out these objects, so it allocates no Move per call.
#: The entries with from_square == to_square are None.
MOVES: list[Move | None] = [Move(f, t) if f != t else None for f in range(90) for t in range(90)]

#: MOVES typed for the codes the core returns: those of real moves (from != to), whose
#: entries are never None, and 0, which the history uses for a null move (see
#: Board.push_null). A copy of MOVES with Move.null() at 0.
MOVE_OF_CODE = cast("list[Move]", list(MOVES))
MOVE_OF_CODE[0] = NULL_MOVE
