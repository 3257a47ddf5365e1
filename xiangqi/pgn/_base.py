"""What the PGN tree, reader and writer share: result markers, tag order, the PGN errors, checks.

Private: the public names here are re-exported by xiangqi.pgn.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from .._checks import check_int
from ..errors import IllegalMoveError, InvalidMoveError, XiangqiError
from ..move import Move
from ..position import Position

PgnFormat = Literal["ICCS", "WXF", "Chinese", "SAN"]
#: The game termination markers: Red won, Black won, drawn, unknown or unfinished.
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
#: Tags written first, in this order (the xqbase spec's roster); the rest follow as added.
TAG_ORDER = (
    "Game",
    "Event",
    "Site",
    "Date",
    "Round",
    "RedTeam",
    "Red",
    "BlackTeam",
    "Black",
    "Result",
)
DEFAULT_TAGS = {
    "Game": "Chinese Chess",
    "Event": "?",
    "Site": "?",
    "Date": "????.??.??",
    "Round": "?",
    "Red": "?",
    "Black": "?",
    "Result": "*",
}
#: The longest quote of input put into an error message.
QUOTE = 60
#: At most this many errors are kept per game; the last one says how many more there were.
MAX_ERRORS = 100
_TAG_NAME = re.compile(r"[A-Za-z0-9_]+")
#: NAG numbers of the move suffixes.
SUFFIX_NAGS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}


#: What no writer puts into a record: the control characters but tab and the line breaks (C0,
#: DEL and C1: the PGN Standard, section 4.1, uses only printing characters, newline and tab;
#: XQF's fields are C strings, a NUL ends them) and lone surrogates, which no encoding carries.
UNWRITABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def writable(text: str) -> str:
    """text without the characters a record cannot carry (UNWRITABLE), so that what a writer
    writes its reader reads back: the text minus those characters."""
    return UNWRITABLE.sub("", text)


def quote(text: str) -> str:
    """A bounded repr of input for error messages."""
    if len(text) > QUOTE:
        return repr(text[:QUOTE]) + f"... ({len(text)} characters)"
    return repr(text)


# -- errors -----------------------------------------------------------------------------------


class _PgnErrorMixin:
    game_number: int
    ply: int
    text: str


class IllegalPgnMoveError(IllegalMoveError, _PgnErrorMixin):
    """A move of a game record that is well formed but fits no legal move (or several) there."""

    def __init__(self, message: str, ply: int, text: str, game_number: int = 0) -> None:
        super().__init__(message)
        self.ply = ply  #: 1 for Red's first move of the record, 2 for the reply, ...
        self.text = text  #: the move text as written
        self.game_number = game_number  #: 1 for the first game read from a source

    def __reduce__(self) -> tuple[type, tuple[str, int, str, int]]:
        return type(self), (str(self), self.ply, self.text, self.game_number)


class InvalidPgnMoveError(InvalidMoveError, _PgnErrorMixin):
    """A move of a game record whose text is not a move in any notation read."""

    def __init__(self, message: str, ply: int, text: str, game_number: int = 0) -> None:
        super().__init__(message)
        self.ply = ply  #: 1 for the first move of the record, 2 for the reply, ...
        self.text = text  #: the move text as written
        self.game_number = game_number  #: 1 for the first game read from a source

    def __reduce__(self) -> tuple[type, tuple[str, int, str, int]]:
        return type(self), (str(self), self.ply, self.text, self.game_number)


class PgnSyntaxError(XiangqiError, _PgnErrorMixin):
    """Game record text the reader skipped: a malformed tag, a stray character, an open comment."""

    def __init__(self, message: str, ply: int, text: str, game_number: int = 0) -> None:
        super().__init__(message)
        self.ply = ply  #: moves read before the problem (0 in the tags)
        self.text = text  #: the text skipped (bounded)
        self.game_number = game_number  #: 1 for the first game read from a source

    def __reduce__(self) -> tuple[type, tuple[str, int, str, int]]:
        return type(self), (str(self), self.ply, self.text, self.game_number)


#: A move of the movetext that is illegal or cannot be read (for ``except PgnMoveError``).
PgnMoveError = IllegalPgnMoveError | InvalidPgnMoveError
#: Every error of reading PGN: a bad move or bad syntax (for ``except PgnError``).
PgnError = IllegalPgnMoveError | InvalidPgnMoveError | PgnSyntaxError


# -- argument checks --------------------------------------------------------------------------


def check_move(move: object) -> Move:
    if not isinstance(move, Move):
        raise TypeError(f"expected a Move, got {type(move).__name__}")
    return move


def check_text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, got {type(value).__name__}")
    return value


def check_nags(nags: Iterable[int]) -> set[int]:
    return {check_int("a NAG", nag, 0, 255) for nag in nags}


def check_tag(name: object, value: object) -> None:
    if not isinstance(name, str) or not isinstance(value, str):
        bad = name if not isinstance(name, str) else value
        raise TypeError(f"tag names and values must be str, got {type(bad).__name__}")
    if not _TAG_NAME.fullmatch(name):
        raise ValueError(f"a tag name is ASCII letters, digits and '_', got {quote(name)}")


def check_format(format: object) -> PgnFormat:
    if not isinstance(format, str):
        raise TypeError(f"format must be a str, got {type(format).__name__}")
    for name in ("ICCS", "WXF", "Chinese", "SAN"):
        if format.lower() == name.lower() and format.isascii():
            return name
    raise ValueError(f"format must be 'ICCS', 'WXF', 'Chinese' or 'SAN', got {quote(format)}")


def both_kings_in_check(board: str) -> bool:
    """Is a FEN board field refused with either side to move because the other side is in
    check? Such diagrams (a final position printed in a puzzle book) are kept by the readers
    as the FEN tag, with an error saying that no move can be played from them."""
    for side in "wb":
        try:
            Position(f"{board} {side} - - 0 1")
        except XiangqiError as exc:
            if "is in check but it is" not in str(exc):
                return False
        else:
            return False
    return True
