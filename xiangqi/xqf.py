"""XQF game files (XQStudio, versions 1.0 to 1.8, plain and encrypted) read into a pgn.Game.

Layout, as documented in ElephantEye's XQFTOOLS/XQF.TXT and the converters built on it
(offsets in bytes; numbers little-endian; a square byte is ``x * 10 + y``, x the file 0..8
from Red's left, y the rank 0..9 from Red's side, so it is public square ``x + 9 * y``):

    0   "XQ", then the version (10 for 1.0 ... 18 for 1.8)
    3   KeyMask; 8..11 KeyOrA..KeyOrD; 12 KeysSum; 13 KeyXY; 14 KeyXYf; 15 KeyXYt
    16  32 square bytes: Red's R N B A K A B N R C C P P P P P, then Black's (> 89: absent)
    50  side to move first (0 Red, 1 Black); 51 result (0 unknown, 1 Red won, 2 Black won,
        3 drawn); 64 kind (0 full game, 1 opening, 2 middle game, 3 ending)
    80  title, 208 event (64 bytes each), 272 date, 288 site, 304 Red, 320 Black (16 bytes
        each), 336 opening (64), 464 annotator, 480 author (16 each): Pascal strings (a length
        byte, then GBK text)
    1024 the move records, the first a placeholder for the start (carrying its comment)

A move record is 4 bytes: from and to square bytes (stored plus 0x18 and 0x20), a tag, and
a spare byte. Version 1.0: the comment length (4 bytes) always follows; the tag's high nibble
says a next move follows, the low nibble an alternative to this move. From 1.1: tag bit 0x80
next move, 0x40 alternative, 0x20 a comment length follows. Records are in pre-order: a move,
the moves after it, then its alternatives.

Encryption (from version 1.1): ``KeyXY = f(headKeyXY) * headKeyXY``, ``KeyXYf = f(headKeyXYf)
* KeyXY``, ``KeyXYt = f(headKeyXYt) * KeyXYf`` (mod 256) with ``f(b) = ((((b*b*3+9)*3+8)*2+1)*3
+8)``; square bytes are stored plus KeyXY (and from 1.2 rotated by KeyXY + 1 places), move
squares plus KeyXYf and KeyXYt, comment lengths plus ``(KeysSum*256 + headKeyXY) % 32000 +
767``, and every byte from offset 1024 on plus ``"[(C) Copyright Mr. Dong Shiwei.]"[i % 32] &
KeyBytes[i % 4]`` (i the file offset; ``KeyBytes[k] = (key_k & KeyMask) | KeyOr_k`` for the
keys KeysSum, KeyXY, KeyXYf, KeyXYt).

``read_xqf(source)`` takes bytes, a path or a binary file. A file that is not XQF, or whose
start position no game can have, raises InvalidXqfError; a move that is illegal where it
stands, or records cut short, are recorded in ``game.errors`` (the moves before are kept, the
branch below a bad move is dropped).
"""

from __future__ import annotations

import os
from typing import IO, Union

from .errors import IllegalMoveError, XiangqiError
from .move import Move
from .pgn import ChildNode, Game, GameNode, PgnSyntaxError
from .position import Position

__all__ = ["InvalidXqfError", "read_xqf"]

HEADER_SIZE = 1024
#: Piece letters (FEN) of the 32 square bytes, in file order.
PIECE_ORDER = "RNBAKABNRCCPPPPPrnbakabnrccppppp"
RESULTS = {0: "*", 1: "1-0", 2: "0-1", 3: "1/2-1/2", 4: "1/2-1/2"}
KEY_TEXT = b"[(C) Copyright Mr. Dong Shiwei.]"
#: (offset, size, tag) of the header strings.
STRINGS = (
    (80, 64, "Title"),
    (208, 64, "Event"),
    (272, 16, "Date"),
    (288, 16, "Site"),
    (304, 16, "Red"),
    (320, 16, "Black"),
    (336, 64, "Opening"),
    (464, 16, "Annotator"),
    (480, 16, "Author"),
)

Source = Union[bytes, bytearray, memoryview, "os.PathLike[str]", IO[bytes]]


class InvalidXqfError(XiangqiError):
    """Bytes that are not an XQF file this reader knows (signature, version, start position)."""


def _f(b: int) -> int:
    return ((((b * b) * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8


class _Keys:
    """The decryption keys of one file."""

    def __init__(self, head: bytes) -> None:
        self.version = version = head[2]
        mask, ors = head[3], head[8:12]
        keys_sum, xy, xyf, xyt = head[12], head[13], head[14], head[15]
        if version <= 10:
            self.xy = self.xyf = self.xyt = self.comment = 0
        else:
            self.xy = _f(xy) * xy % 256
            self.xyf = _f(xyf) * self.xy % 256
            self.xyt = _f(xyt) * self.xyf % 256
            self.comment = (keys_sum * 256 + xy) % 32000 + 767
        key_bytes = [(k & mask) | o for k, o in zip((keys_sum, xy, xyf, xyt), ors)]
        self.stream = bytes(KEY_TEXT[i] & key_bytes[i % 4] for i in range(32))


def _bytes_of(source: object) -> bytes:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, os.PathLike):
        with open(source, "rb") as handle:
            return handle.read()
    if hasattr(source, "read"):
        data = source.read()
        if not isinstance(data, bytes):
            raise TypeError(f"read_xqf() needs a binary file, read() gave {type(data).__name__}")
        return data
    if isinstance(source, str):
        raise TypeError("read_xqf() takes bytes, a path (os.PathLike) or a binary file, not str")
    kind = type(source).__name__
    raise TypeError(f"read_xqf() takes bytes, a path (os.PathLike) or a binary file, got {kind}")


def _pascal(data: bytes, offset: int, size: int) -> str:
    n = min(data[offset], size - 1)
    raw = data[offset + 1 : offset + 1 + n]
    return raw.decode("gb18030", errors="replace").strip("\x00").strip()


def _square(byte: int) -> int | None:
    if byte > 89:
        return None
    x, y = divmod(byte, 10)
    return x + 9 * y


def _start_fen(data: bytes, keys: _Keys) -> str:
    raw = data[16:48]
    placed = list(raw)
    if keys.version >= 12:
        for i in range(32):
            placed[(i + keys.xy + 1) % 32] = raw[i]
    board: list[str | None] = [None] * 90
    for i, byte in enumerate(placed):
        square = _square((byte - keys.xy) % 256)
        if square is None:
            continue
        if board[square] is not None:
            raise InvalidXqfError(f"two pieces on square {square} in the XQF start position")
        board[square] = PIECE_ORDER[i]
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


class _Reader:
    """Decrypts and walks the move records from offset 1024."""

    def __init__(self, data: bytes, keys: _Keys) -> None:
        self.data = data
        self.keys = keys
        self.offset = HEADER_SIZE

    def take(self, n: int) -> bytes | None:
        end = self.offset + n
        if n < 0 or end > len(self.data):
            return None
        raw = self.data[self.offset : end]
        if self.keys.version > 10:
            stream = self.keys.stream
            raw = bytes((b - stream[(self.offset + i) % 32]) % 256 for i, b in enumerate(raw))
        self.offset = end
        return raw

    def record(self) -> tuple[int, int, bool, bool, str] | None:
        """(from byte, to byte, has next, has alternative, comment), or None when cut short."""
        head = self.take(4)
        if head is None:
            return None
        tag = head[2]
        keys = self.keys
        size = 0
        if keys.version <= 10:
            has_next, has_alt = bool(tag & 0xF0), bool(tag & 0x0F)
            raw = self.take(4)
            if raw is None:
                return None
            size = int.from_bytes(raw, "little", signed=True)
        else:
            has_next, has_alt = bool(tag & 0x80), bool(tag & 0x40)
            if tag & 0x20:
                raw = self.take(4)
                if raw is None:
                    return None
                size = int.from_bytes(raw, "little", signed=True) - keys.comment
        comment = ""
        if size:
            text = self.take(size)
            if text is None:
                return None
            comment = text.decode("gb18030", errors="replace").strip("\x00").strip()
        frm = (head[0] - 0x18 - keys.xyf) % 256
        to = (head[1] - 0x20 - keys.xyt) % 256
        return frm, to, has_next, has_alt, comment


def read_xqf(source: Source) -> Game:
    """Read an XQF file (bytes, a path or a binary file) into a Game (public squares 0..89)."""
    data = _bytes_of(source)
    if len(data) < HEADER_SIZE or data[:2] != b"XQ":
        raise InvalidXqfError(
            f"not an XQF file: expected 'XQ' and a {HEADER_SIZE}-byte header, "
            f"got {len(data)} bytes starting {data[:8]!r}"
        )
    version = data[2]
    if not 10 <= version <= 18:
        raise InvalidXqfError(f"XQF version {version} is not 10..18 (1.0 to 1.8)")
    keys = _Keys(data[:16])
    board = _start_fen(data, keys)
    reader = _Reader(data, keys)
    game = Game()
    for offset, size, name in STRINGS:
        value = _pascal(data, offset, size)
        if value:
            game.tags[name] = value
    game.tags["Result"] = RESULTS.get(data[51], "*")
    side = "b" if data[50] == 1 else "w"
    root = reader.record()
    if root is None:
        _finish(game, board, side)
        game.errors.append(PgnSyntaxError("XQF move records cut short at the start", 0, ""))
        return game
    _, _, has_next, _, game.comment = root
    # Black may move first even when the header says Red: the first move decides.
    if has_next:
        mark = reader.offset
        first = reader.record()
        reader.offset = mark
        if first is not None:
            square = _square(first[0])
            if square is not None:
                letter = _piece_at(board, square)
                if letter is not None:
                    side = "w" if letter.isupper() else "b"
    _finish(game, board, side)
    if has_next:
        _walk(game, reader)
    return game


def _piece_at(board: str, square: int) -> str | None:
    rank, file = square // 9, square % 9
    row = board.split("/")[9 - rank]
    col = 0
    for ch in row:
        if ch.isdigit():
            col += int(ch)
        else:
            if col == file:
                return ch
            col += 1
    return None


def _finish(game: Game, board: str, side: str) -> None:
    fen = f"{board} {side} - - 0 1"
    try:
        game.tags["FEN"] = Position(fen).fen()
    except XiangqiError as exc:
        raise InvalidXqfError(f"the XQF start position is not a valid position: {exc}") from None


def _walk(game: Game, reader: _Reader) -> None:
    """Read the records after the start one, without recursion (a main line may be long)."""
    pos = game.board()
    depth = 0
    # Where the next record attaches: (parent node or None if dead, parent's depth).
    parent: GameNode | None = game
    parent_depth = 0
    pending: list[tuple[GameNode | None, int]] = []
    while True:
        record = reader.record()
        if record is None:
            game.errors.append(
                PgnSyntaxError(f"XQF move records cut short at byte {reader.offset}", depth, "")
            )
            return
        frm, to, has_next, has_alt, comment = record
        node: GameNode | None = None
        if parent is not None:
            while depth > parent_depth:
                pos.pop()
                depth -= 1
            a, b = _square(frm), _square(to)
            try:
                if a is None or b is None or a == b:
                    raise IllegalMoveError(f"square bytes {frm}, {to} are off the board")
                move = Move(a, b)
                pos.push(move)
            except IllegalMoveError as exc:
                game.errors.append(
                    PgnSyntaxError(
                        f"XQF move at ply {depth + 1} is not legal, its branch is dropped: {exc}",
                        depth + 1,
                        "",
                    )
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
            game._version += 1
            return
