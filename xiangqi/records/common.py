"""Helpers shared by the binary and web game-record readers (xqf, cbr, dhtml).

Private: a source (bytes, a path as str or os.PathLike, or a binary file) read to bytes,
errors recorded on a game with a cap, and piece placements turned into FEN board text.
Squares are public numbers 0..89 (file + 9 * rank, see xiangqi.squares).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import IO, Union

from ..errors import IllegalMoveError, XiangqiError
from ..fen import parse_fen
from ..move import Move
from ..pgn import ChildNode, Game, GameNode, PgnSyntaxError
from ..pgn._base import MAX_ERRORS  # one bound for every reader, PGN's included
from ..pieces import Piece
from ..position import Position

Source = Union[bytes, bytearray, memoryview, str, "os.PathLike[str]", IO[bytes]]


def read_source(source: object, who: str) -> bytes:
    """The bytes of source: bytes as they are, a str or os.PathLike path, or a binary file."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as handle:
            return handle.read()
    if hasattr(source, "read"):
        data = source.read()
        if not isinstance(data, (bytes, bytearray)):
            raise TypeError(f"{who}() needs a binary file, read() gave {type(data).__name__}")
        return bytes(data)
    kind = type(source).__name__
    raise TypeError(
        f"{who}() takes bytes, a path (str or os.PathLike) or a binary file, got {kind}"
    )


class UnwritableGameError(XiangqiError):
    """A game that a record format cannot hold (a null move in XQF or DhtmlXQ)."""


def refuse_null(node: ChildNode, ply: int, what: str) -> None:
    """Refuse a null move (Move.null()): XQF and DhtmlXQ have no way to write a pass."""
    if not node.move:
        raise UnwritableGameError(
            f"{what} cannot hold a null move (a pass), at ply {ply}; PGN can (it writes '--')"
        )


def ascii_int(text: str, digits: int = 9) -> int | None:
    """text as a number if it is 1..digits ASCII digits, else None: ``str.isdigit`` also
    takes "²" and "٣", which ``int`` refuses or reads, and a 5,000-digit field is beyond
    ``int``'s limit; a record's numbers are neither."""
    if 0 < len(text) <= digits and text.isascii() and text.isdigit():
        return int(text)
    return None


def add_error(game: Game, message: str, ply: int, game_number: int = 0) -> None:
    """Record a PgnSyntaxError on game (keeping at most MAX_ERRORS, then one summary)."""
    count = len(game.errors)
    if count < MAX_ERRORS:
        game.errors.append(PgnSyntaxError(message, ply, "", game_number))
    elif count == MAX_ERRORS:
        game.errors.append(
            PgnSyntaxError(
                f"more than {MAX_ERRORS} errors, the rest not kept", ply, "", game_number
            )
        )


def start_pieces(game: Game) -> tuple[dict[int, str], int, str]:
    """The start of game as the writers need it: FEN letter by public square, the side to
    move (0 Red, 1 Black) and the FEN's board field. Read from the FEN's syntax only, so a
    kept diagram that no side can move from (see xqf) is written back as it was read."""
    parsed = parse_fen(game.fen)
    pieces = {
        square: Piece.from_code(code).symbol() for square, code in enumerate(parsed.codes) if code
    }
    return pieces, parsed.side, game.fen.split()[0]


def board_text(board: list[str | None]) -> str:
    """FEN board text of 90 entries (public squares 0..89), each a FEN letter or None."""
    ranks = []
    for rank in range(9, -1, -1):
        text, empty = "", 0
        for file in range(9):
            piece = board[file + 9 * rank]
            if piece is None:
                empty += 1
            else:
                text += (str(empty) if empty else "") + piece
                empty = 0
        ranks.append(text + (str(empty) if empty else ""))
    return "/".join(ranks)


def load_start(board: str, side: str) -> tuple[str, str | None]:
    """The start FEN of board text with side ("w"/"b") to move, and a note if it was changed.

    A diagram whose side not to move is in check (puzzle books print such illustrative
    diagrams) is read with the side in check to move instead, and the note says so.
    Raises the FEN error of the position as given when neither side to move loads.
    """
    try:
        return Position(f"{board} {side} - - 0 1").fen(), None
    except XiangqiError as first:
        other = "b" if side == "w" else "w"
        try:
            fen = Position(f"{board} {other} - - 0 1").fen()
        except XiangqiError:
            raise first from None
        names = {"w": "Red", "b": "Black"}
        return fen, (
            f"the start diagram has {names[other]} in check with {names[side]} to move; "
            f"read with {names[other]} to move"
        )


def piece_at(board: str, square: int) -> str | None:
    """The FEN letter on a public square (0..89) of FEN board text, or None."""
    rows = board.split("/")
    if not 0 <= square < 90 or len(rows) != 10:
        return None
    col, file = 0, square % 9
    for ch in rows[9 - square // 9]:
        if ch.isdigit():
            col += int(ch)
        else:
            if col == file:
                return ch
            col += 1
    return None


#: One move record of a pre-order stream (XQF, CBR): from and to squares (None: off the
#: board), a next move follows, an alternative to this move follows, the comment.
Record = tuple[int | None, int | None, bool, bool, str]


def build_tree(
    game: Game,
    next_record: Callable[[], Record | None],
    what: str,
    game_number: int = 0,
) -> None:
    """Attach a pre-order stream of records to game, without recursion.

    Records come as a move, the moves after it, then its alternatives (XQF and CBR both
    store trees so). A move that is illegal where it stands is recorded in game.errors and
    its branch dropped; a stream cut short is recorded too. Time is linear in the records.
    """
    pos = game.board()
    depth = 0
    parent: GameNode | None = game
    parent_depth = 0
    pending: list[tuple[GameNode | None, int]] = []
    while True:
        record = next_record()
        if record is None:
            add_error(game, f"{what} move records cut short", depth, game_number)
            break
        frm, to, has_next, has_alt, comment = record
        node: GameNode | None = None
        if parent is not None:
            while depth > parent_depth:
                pos.pop()
                depth -= 1
            try:
                if frm is None or to is None or frm == to:
                    raise IllegalMoveError(f"squares {frm}, {to} are not a move on the board")
                move = Move(frm, to)
                pos.push(move)
            except IllegalMoveError as exc:
                add_error(
                    game,
                    f"{what} move at ply {depth + 1} is not legal, its branch is dropped: {exc}",
                    depth + 1,
                    game_number,
                )
            else:
                depth += 1
                child = ChildNode(parent, move, comment, "", set())
                parent.variations.append(child)
                node = child
        if has_alt:
            pending.append((parent, parent_depth))
        if has_next:
            parent, parent_depth = node, parent_depth + 1
        elif pending:
            parent, parent_depth = pending.pop()
        else:
            break
