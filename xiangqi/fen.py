"""FEN text: reading it into piece codes and writing it back.

A xiangqi FEN has six fields: the board from rank 9 (Black's back rank) down to
rank 0, each rank from file a to file i; the side to move ("w" or "r" for Red,
"b" for Black); two unused fields "-" "-"; the halfmove clock; the move number.
The last four fields may be left out together (or just the two counters);
fen() always writes all six. Letters: K A B N R C P, with E for elephant and
H for horse also read; upper case is Red.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from typing import NamedTuple

from ._words import counted
from .errors import InvalidFenError
from .pieces import PIECE_LETTERS, Color, Piece, PieceType
from .squares import FILE_NAMES, SQUARE_NAMES, quote

#: FEN of the start position, Red to move.
START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

_SIDES = {"w": 0, "r": 0, "b": 1}
# Fields are separated by ASCII blanks only (no Unicode spaces).
_SPACES = re.compile("[ \t\r\n]+")

# FEN text <-> piece codes (1 + type + 7 * color, 0 empty), via bytes.translate.
_EXPAND_DIGITS = [(str(n).encode(), b"." * n) for n in range(1, 10)]
_NOT_PIECE = re.compile("[^./KABNRCPEHkabnrcpeh]")
#: The bytes an expanded board field may hold (what _NOT_PIECE does not match).
_BOARD_BYTES = b"./KABNRCPEHkabnrcpeh"
#: Counter text "0".."999" to its value: the common counters skip _counter().
_SMALL_NUMBERS = {str(n): n for n in range(1000)}


def _code_of_byte(byte: int) -> int:
    piece = Piece.from_symbol(chr(byte))
    return piece.code if piece else 0


_CODE_OF_BYTE = bytes(_code_of_byte(i) for i in range(256))
_BYTE_OF_CODE = b"." + bytes(ord(Piece.from_code(c).symbol()) for c in range(1, 15)) + bytes(241)


class ParsedFen(NamedTuple):
    """The fields of a FEN: 90 piece codes by public square, side, counters.

    A NamedTuple rather than a frozen dataclass: Position(fen) builds one per call, and
    a tuple is built several times faster.
    """

    codes: bytes
    side: int
    halfmove_clock: int
    fullmove_number: int


def _fail(what: str, fen: str) -> InvalidFenError:
    return InvalidFenError(f"{what}: {quote(fen)}")


def _counter(text: str, name: str, minimum: int, fen: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        raise _fail(f"{name} must be a whole number of at most 9 digits, got {quote(text)}", fen)
    value = int(text)
    if value < minimum:
        raise _fail(f"{name} must be at least {minimum}, got {value}", fen)
    return value


def _explain_board(ranks: list[str], fen: str) -> None:
    """Raise the InvalidFenError for the first bad rank of an expanded board."""
    for row, text in enumerate(ranks):
        bad = _NOT_PIECE.search(text)
        if bad:
            raise _fail(
                f"unknown piece letter {bad[0]!r} in rank {9 - row}, expected one of "
                f"{PIECE_LETTERS}/{PIECE_LETTERS.lower()} (E/H also read) or a digit 1-9",
                fen,
            )
        if len(text) != 9:
            raise _fail(f"FEN rank {9 - row} has {counted(len(text), 'file')}, expected 9", fen)


def parse_fen(fen: str) -> ParsedFen:
    """Split and check FEN syntax; check_placement() judges where the pieces stand.

    Raises TypeError for a non-string and InvalidFenError naming the problem.
    """
    if not isinstance(fen, str):
        raise TypeError(f"FEN must be a str, got {type(fen).__name__}")
    # Fast path: fields split by single spaces, as every FEN writer writes them.
    fields = fen.split(" ")
    if "" in fields or "\t" in fen or "\n" in fen or "\r" in fen:
        fields = _SPACES.split(fen.strip(" \t\r\n"))
    if len(fields) not in (2, 4, 6):
        raise _fail(
            f"expected 6 fields (board, side, '-', '-', halfmove clock, move number), "
            f"or the first 2 or 4 of them, got {len(fields)}",
            fen,
        )
    if len(fields) == 4:
        fields = [fields[0], fields[1], "-", "-", fields[2], fields[3]]
    board, side_text = fields[0], fields[1]
    if board.count("/") != 9:
        raise _fail(f"board has {board.count('/') + 1} ranks, expected 10", fen)
    # Expand digits to '.' runs in bytes (cheaper than str); then the board is good when
    # it is 10 ranks of 9 (slashes every tenth byte) of piece letters and '.' only.
    raw = board.encode("ascii") if board.isascii() else b""
    for digit, blanks in _EXPAND_DIGITS:
        raw = raw.replace(digit, blanks)
    if len(raw) != 99 or raw[9::10] != b"/////////" or raw.translate(None, _BOARD_BYTES):
        expanded = board
        for digit, blanks in _EXPAND_DIGITS:
            expanded = expanded.replace(digit.decode(), blanks.decode())
        _explain_board(expanded.split("/"), fen)
        raise AssertionError(f"board check and _explain_board disagree on {fen!r}")
    # Rank 0 first, so that index = file + 9 * rank.
    codes = b"".join(raw.split(b"/")[::-1]).translate(_CODE_OF_BYTE)
    side = _SIDES.get(side_text)
    if side is None:
        raise _fail(f"side to move must be 'w' (or 'r') or 'b', got {quote(side_text)}", fen)
    halfmove, fullmove = 0, 1
    if len(fields) == 6:
        for extra in fields[2:4]:
            if extra != "-":
                raise _fail(
                    f"xiangqi has no castling or en passant; expected '-', got {quote(extra)}", fen
                )
        halfmove = _SMALL_NUMBERS.get(fields[4], -1)
        if halfmove < 0:
            halfmove = _counter(fields[4], "halfmove clock", 0, fen)
        fullmove = _SMALL_NUMBERS.get(fields[5], 0)
        if fullmove < 1:
            fullmove = _counter(fields[5], "move number", 1, fen)
    # tuple.__new__ skips the NamedTuple's Python-level __new__ (Position(fen) calls this).
    return tuple.__new__(ParsedFen, (codes, side, halfmove, fullmove))


def board_fen(codes: bytes) -> str:
    """The board field of a FEN from 90 piece codes by public square."""
    letters = codes.translate(_BYTE_OF_CODE).decode("ascii")
    board = "/".join([letters[9 * rank : 9 * rank + 9] for rank in range(9, -1, -1)])
    for run in range(9, 0, -1):  # longest runs of empty points first
        board = board.replace("." * run, str(run))
    return board


# -- placement: what a legal position may hold, and where -------------------------------

#: Most pieces of each kind one side can have (the core has one slot for each).
MOST_PIECES = {
    PieceType.KING: 1,
    PieceType.ADVISOR: 2,
    PieceType.ELEPHANT: 2,
    PieceType.HORSE: 2,
    PieceType.ROOK: 2,
    PieceType.CANNON: 2,
    PieceType.PAWN: 5,
}


def _points(
    color: Color, files: range, ranks: range, keep: Callable[[int, int], bool] | None = None
) -> frozenset[int]:
    """Public squares (file + 9 * rank) of the given files and ranks, ranks counted from
    color's own back rank; keep(file, rank) filters them."""
    out: set[int] = set()
    for rank in ranks:
        for file in files:
            if keep is None or keep(file, rank):
                out.add(file + 9 * (rank if color == Color.RED else 9 - rank))
    return frozenset(out)


def _allowed(color: Color) -> dict[PieceType, tuple[frozenset[int], str]]:
    """The points each restricted kind of color may stand on, and the reason if not."""
    return {
        PieceType.KING: (_points(color, range(3, 6), range(3)), "is outside its palace"),
        PieceType.ADVISOR: (
            _points(color, range(3, 6), range(3), lambda f, r: (f + r) % 2 == 1),
            "is not on one of the five advisor points of its palace",
        ),
        PieceType.ELEPHANT: (
            _points(color, range(0, 9, 2), range(0, 5, 2), lambda f, r: (f + r) // 2 % 2 == 1),
            "is not on one of the seven elephant points of its side",
        ),
        PieceType.PAWN: (
            _points(color, range(9), range(5, 10)) | _points(color, range(0, 9, 2), range(3, 5)),
            "is behind its start rank or off the pawn files before the river (a composed"
            " problem, 排局, loads with Position.from_diagram(fen, composition=True))",
        ),
    }


#: (code, points it may stand on, why not) for each kind whose points are restricted.
_PLACES = [
    (Piece(color, kind).code, points, why)
    for color in Color
    for kind, (points, why) in _allowed(color).items()
]
#: (code, most, message) for every piece code.
_COUNTS = [
    (
        Piece(color, kind).code,
        most,
        f"{color.name.title()} has more than {most} {kind.name.lower()}{'s' if most > 1 else ''}",
    )
    for color in Color
    for kind, most in MOST_PIECES.items()
]


def _squares_of(codes: bytes, code: int) -> list[int]:
    found = []
    at = codes.find(code)
    while at >= 0:
        found.append(at)
        at = codes.find(code, at + 1)
    return found


# A fast test of every placement rule at once: bytes.translate maps each restricted
# code to its own bit (8 codes, 8 bits), and _FORBIDDEN holds, for each square, the bits
# of the codes that may not stand there; a position is placed legally when the two,
# read as big integers, share no bit. Only a bad FEN takes the slow path that names
# the first problem.
_BIT_OF_CODE = bytearray(256)
for _bit, _place in enumerate(_PLACES):
    _BIT_OF_CODE[_place[0]] = 1 << _bit
_FORBIDDEN = int.from_bytes(
    bytes(
        sum(1 << bit for bit, (_, points, _) in enumerate(_PLACES) if square not in points)
        for square in range(90)
    ),
    "big",
)
#: The bits of _FORBIDDEN for the two pawn codes: a composition's pawns may stand anywhere.
_PAWN_BITS = int.from_bytes(
    bytes(
        sum(
            1 << bit
            for bit, (code, points, _) in enumerate(_PLACES)
            if Piece.from_code(code).piece_type == PieceType.PAWN and square not in points
        )
        for square in range(90)
    ),
    "big",
)
_RED_KING = Piece(Color.RED, PieceType.KING).code
_BLACK_KING = Piece(Color.BLACK, PieceType.KING).code
#: Codes grouped by how many pieces of them a side may have: {most: codes}.
_CODES_BY_MOST: dict[int, tuple[int, ...]] = {}
for _code, _most, _message in _COUNTS:
    _CODES_BY_MOST[_most] = (*_CODES_BY_MOST.get(_most, ()), _code)


def check_counts(codes: bytes, fen: str) -> None:
    """Raise InvalidFenError if a side has more pieces of a kind than the game allows."""
    if any(max(map(codes.count, group)) > most for most, group in _CODES_BY_MOST.items()):
        for code, most, message in _COUNTS:
            if codes.count(code) > most:
                raise _fail(message, fen)


def check_placement(
    codes: bytes, fen: str, counts: bool = True, facing: bool = True, pawns: bool = True
) -> None:
    """Raise InvalidFenError if 90 piece codes (by public square) are no legal placement.

    Checks, in order: no more pieces of a kind than a side has (check_counts; skipped
    with counts=False, for codes the core has loaded: its slots already bound them),
    both kings present, every king, advisor, elephant and pawn on a point its kind can
    reach in a game (pawns not checked with pawns=False, for compositions), and (unless
    facing=False, for Position.from_diagram) the kings not facing on an open file.
    Whether the side not to move is in check needs the rules core: Position asks it,
    then raises side_in_check_error().
    """
    if counts:
        check_counts(codes, fen)
    if _RED_KING not in codes or _BLACK_KING not in codes:
        color = Color.RED if _RED_KING not in codes else Color.BLACK
        raise _fail(f"{color.name.title()} has no king", fen)
    forbidden = _FORBIDDEN if pawns else _FORBIDDEN & ~_PAWN_BITS
    if int.from_bytes(codes.translate(_BIT_OF_CODE), "big") & forbidden:
        _explain_placement(codes, fen, pawns)
    red = codes.index(_RED_KING)
    black = codes.index(_BLACK_KING)
    if facing and red % 9 == black % 9 and not any(codes[red + 9 : black : 9]):
        raise _fail(f"the kings face each other on file {FILE_NAMES[red % 9]}", fen)


def _explain_placement(codes: bytes, fen: str, pawns: bool = True) -> None:
    """Raise the InvalidFenError naming the first piece on a point its kind cannot reach."""
    for code, points, why in _PLACES:
        if not pawns and Piece.from_code(code).piece_type == PieceType.PAWN:
            continue
        for square in _squares_of(codes, code):
            if square not in points:
                piece = Piece.from_code(code)
                raise _fail(
                    f"{piece.color.name.title()} {piece.piece_type.name.lower()} on "
                    f"{SQUARE_NAMES[square]} {why}",
                    fen,
                )
    raise AssertionError("placement mask and point sets disagree")  # pragma: no cover


def side_in_check_error(side: int, fen: str) -> InvalidFenError:
    """The error for a FEN whose side not to move (1 - side) is in check."""
    return _fail(
        f"{Color(1 - side).name.title()} is in check but it is {Color(side).name.title()}'s move",
        fen,
    )


# -- status flags of a diagram the rules forbid (python-chess's chess.Status) -----------


class Status(enum.IntFlag):
    """What is wrong with a position, as python-chess's ``chess.Status`` (VALID is 0).

    Position.status() returns these; only Position.from_diagram() can hold a position
    with a flag set. The names python-chess also has carry its values and meanings.
    """

    VALID = 0
    NO_RED_KING = 1 << 0  # python-chess's NO_WHITE_KING (after a diagram's king is taken)
    NO_BLACK_KING = 1 << 1
    OPPOSITE_CHECK = 1 << 10  # the side not to move is in check
    KINGS_FACING = 1 << 20  # xiangqi's own: the kings face on an open file (将帅对面)
    #: xiangqi's own: a pawn on its own half off the points a game's pawn reaches (behind
    #: its start rank, or between the pawn files); Position.from_diagram(composition=True)
    PAWN_OFF_POINTS = 1 << 21


def placement_status(codes: bytes) -> Status:
    """The Status flags of 90 piece codes that need no rules core: pawns off their
    points, missing kings and kings facing. (OPPOSITE_CHECK needs the core:
    Position.status() adds it.)"""
    flags = Status.VALID
    if int.from_bytes(codes.translate(_BIT_OF_CODE), "big") & _PAWN_BITS:
        flags |= Status.PAWN_OFF_POINTS
    if _RED_KING not in codes:
        flags |= Status.NO_RED_KING
    if _BLACK_KING not in codes:
        flags |= Status.NO_BLACK_KING
    if not flags:
        red, black = codes.index(_RED_KING), codes.index(_BLACK_KING)
        low, high = min(red, black), max(red, black)
        if red % 9 == black % 9 and not any(codes[low + 9 : high : 9]):
            flags |= Status.KINGS_FACING
    return flags
