"""XQF game files (XQStudio, versions 1.0 to 1.8, plain and encrypted) read into a pgn.Game.

Layout, as documented in ElephantEye's XQFTOOLS/XQF.TXT and the converters built on it
(offsets in bytes; numbers little-endian; a square byte is ``x * 10 + y``, x the file 0..8
from Red's left, y the rank 0..9 from Red's side, so it is public square ``x + 9 * y``)::

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

``read_xqf(source)`` takes bytes, a str or os.PathLike path, or a binary file. A file that is
not XQF, or whose start position no game can have, raises InvalidXqfError; a start diagram
whose side not to move is in check (an illustrative puzzle diagram) is read with the side
in check to move and an error at ply 0 in ``game.errors`` says so; a move that is illegal
where it stands, or records cut short, are recorded in ``game.errors`` (the moves before
are kept, the branch below a bad move is dropped). Comments' Windows line ends are read as
"\n".

``write_xqf(game)`` writes the unencrypted 1.0 layout (version byte 10, no keys; the tag's
high nibble for "next move", the low nibble for "alternative", a comment length after every
record), which every XQF reader accepts.
"""

from __future__ import annotations

from ..errors import XiangqiError
from ..fen import START_FEN
from ..pgn import ChildNode, Game, GameNode
from ..pgn._base import both_kings_in_check, check_tag, writable
from ..pgn.visitor import Visitor, walk
from ..position import Position
from .common import (
    Record,
    Source,
    add_error,
    board_text,
    build_tree,
    load_start,
    piece_at,
    refuse_null,
    start_pieces,
)
from .common import read_source as _read_source

__all__ = ["InvalidXqfError", "read_xqf", "sniff", "write_xqf"]

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


def _text(raw: bytes) -> str:
    """GBK (read as GB18030) text with Windows line ends made "\n", NULs and spaces cut."""
    text = raw.decode("gb18030", errors="replace").replace("\r\n", "\n").replace("\r", "\n")
    return text.strip("\x00").strip()


def _pascal(data: bytes, offset: int, size: int) -> str:
    n = min(data[offset], size - 1)
    return _text(data[offset + 1 : offset + 1 + n])


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
    return board_text(board)


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

    def record(self) -> Record | None:
        """(from, to, has next, has alternative, comment), or None when cut short."""
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
            comment = _text(text)
        frm = (head[0] - 0x18 - keys.xyf) % 256
        to = (head[1] - 0x20 - keys.xyt) % 256
        return _square(frm), _square(to), has_next, has_alt, comment


def sniff(data: bytes) -> bool:
    """Do these bytes (the start of a file is enough) look like an XQF file?"""
    return len(data) >= 3 and data[:2] == b"XQ" and 10 <= data[2] <= 18


def read_xqf(source: Source) -> Game:
    """Read an XQF file (bytes, a str or os.PathLike path, or a binary file) into a Game.

    Squares are public numbers 0..89. The header's strings become tags (Title, Event, Date,
    Site, Red, Black, Opening, Annotator, Author), its result the Result tag. A start
    diagram whose side not to move is in check is read with the other side to move and an
    error saying so is recorded in game.errors (ply 0); the file is not refused.
    """
    data = _read_source(source, "read_xqf")
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
        if _finish(game, board, side):
            add_error(game, "XQF move records cut short at the start", 0)
        return game
    _, _, has_next, _, game.comment = root
    # Black may move first even when the header says Red: the first move decides.
    if has_next:
        mark = reader.offset
        first = reader.record()
        reader.offset = mark
        if first is not None and first[0] is not None:
            letter = piece_at(board, first[0])
            if letter is not None:
                side = "w" if letter.isupper() else "b"
    if _finish(game, board, side) and has_next:
        build_tree(game, reader.record, "XQF")
    return game


def _finish(game: Game, board: str, side: str) -> bool:
    """Set the start FEN; False when no move can be played from the start diagram."""
    try:
        fen, note = load_start(board, side)
    except XiangqiError as exc:
        if not both_kings_in_check(board):
            raise InvalidXqfError(
                f"the XQF start position is not a valid position: {exc}"
            ) from None
        # Puzzle books print final positions with both kings in check: read the file
        # (tags, the diagram kept as the FEN tag), and say why no move is read from it.
        game.tags["FEN"] = f"{board} {side} - - 0 1"
        add_error(
            game,
            "XQF: the start diagram has both kings in check (an illustrative final "
            "position): no move can be played from it, and none is read",
            0,
        )
        return False
    game.tags["FEN"] = fen
    if note is not None:
        add_error(game, f"XQF: {note}", 0)
    return True


# -- writing ----------------------------------------------------------------------------------

#: The FEN letter of each of the 32 piece slots, Red's then Black's (PIECE_ORDER), upper case.
_KIND_CODES = {"R": "R", "N": "N", "H": "N", "B": "B", "E": "B", "A": "A", "K": "K"}
_RESULT_CODES = {"1-0": 1, "0-1": 2, "1/2-1/2": 3}


def _byte_of(square: int) -> int:
    """The XQF square byte ``x * 10 + y`` of a public square."""
    return (square % 9) * 10 + square // 9


def _encode_text(text: str, limit: int | None = None) -> bytes:
    """GB18030 (GBK for GBK text) with "\n" as "\r\n", cut whole characters to limit bytes.

    Control characters but tab and line breaks are dropped (pgn._base.writable): a NUL
    would end the C string XQStudio reads, and read_xqf cuts NULs off a field's ends."""
    plain = writable(text).replace("\r\n", "\n")
    raw = plain.replace("\n", "\r\n").encode("gb18030")
    if limit is None or len(raw) <= limit:
        return raw
    out = bytearray()
    for ch in plain:  # a line break is cut whole too: "\r\n", never half of it
        piece = b"\r\n" if ch == "\n" else ch.encode("gb18030")
        if len(out) + len(piece) > limit:
            break
        out += piece
    return bytes(out)


def write_xqf(game: GameNode) -> bytes:
    """An XQF 1.0 file (unencrypted) of game: header, start position, tree and comments.

    Squares are public numbers 0..89. The header holds the tags Title, Event, Date, Site,
    Red, Black, Opening, Annotator and Author (GBK, cut at a character boundary to the
    field: 15 bytes for Date, Site, names, Annotator and Author, 63 for Title, Event and
    Opening), the Result and the start position. Variations and comments are kept; NAGs and
    starting comments have no place in XQF and are dropped. read_xqf() and XQStudio-style
    readers (ElephantEye's XQFTOOLS, cchess) read the file back.
    """
    if not isinstance(game, Game):
        raise TypeError(f"write_xqf() takes a pgn.Game, got {type(game).__name__}")
    for name, value in game.tags.items():  # as the PGN writer does: str tags only
        check_tag(name, value)
    pieces, side, board = start_pieces(game)
    head = bytearray(HEADER_SIZE)
    head[0:3] = b"XQ\x0a"
    slots = [0xFF] * 32
    for square, letter in sorted(pieces.items()):
        kind = _KIND_CODES.get(letter.upper(), letter.upper())
        base = 0 if letter.isupper() else 16
        for slot in range(16):
            if PIECE_ORDER[slot] == kind and slots[base + slot] == 0xFF:
                slots[base + slot] = _byte_of(square)
                break
    head[16:48] = bytes(slots)
    head[50] = 1 if side == 1 else 0
    head[51] = _RESULT_CODES.get(game.tags.get("Result", "*"), 0)
    head[64] = 0 if board == START_FEN.split()[0] else 3
    for offset, size, name in STRINGS:
        raw = _encode_text(game.tags.get(name, ""), size - 1)
        head[offset] = len(raw)
        head[offset + 1 : offset + 1 + len(raw)] = raw
    return bytes(head) + walk(game, _XqfMoves())


def _xqf_record(frm: int, to: int, has_next: bool, has_alt: bool, comment: str) -> bytes:
    raw = _encode_text(comment)
    tag = (0xF0 if has_next else 0) | (0x0F if has_alt else 0)
    return bytes((frm + 0x18, to + 0x20, tag, 0)) + len(raw).to_bytes(4, "little") + raw


class _Line:
    """The records of one line of the tree (the main line or a variation) in the order the
    walk visits them, the ply of its first move, and the variations met along it."""

    __slots__ = ("records", "ply", "variations")

    def __init__(self) -> None:
        self.records: list[bytes] = []
        self.ply = 0
        self.variations: list[_Line] = []


class _XqfMoves(Visitor[bytes]):
    """XQF's move records: pre-order (a move, the moves after it, then its alternatives).

    The walk visits in PGN order (a move, its alternatives, then the moves after it). Each
    line keeps its own records and sets its variations aside; a finished line is its moves,
    then its variations from the deepest ply up (the alternatives of a later move belong to
    what follows an earlier one), which is pre-order, in time linear in the tree.
    """

    def __init__(self) -> None:
        self.lines = [_Line()]

    def begin_game(self, game: Game) -> None:
        self.lines[0].records.append(_xqf_record(0, 0, bool(game.variations), False, game.comment))

    def visit_move(self, board: Position | None, node: ChildNode, ply: int) -> None:
        if not node.move:
            refuse_null(node, ply, "XQF")
        move = node.move
        line = self.lines[-1]
        if not line.records:
            line.ply = ply
        line.records.append(
            _xqf_record(
                _byte_of(move.from_square),
                _byte_of(move.to_square),
                bool(node.variations),
                node.parent.variations[-1] is not node,  # an alternative follows
                node.comment,
            )
        )

    def begin_variation(self, node: ChildNode) -> None:
        self.lines.append(_Line())

    def end_variation(self) -> None:
        line = self.lines.pop()
        self.lines[-1].variations.append(line)

    def result(self) -> bytes:
        out: list[bytes] = []
        stack = [self.lines[0]]
        while stack:
            line = stack.pop()
            out += line.records
            # deepest ply first, in order within a ply (sorted is stable); the stack pops the
            # last pushed first, so push them reversed
            order = sorted(line.variations, key=lambda inner: -inner.ply)
            stack.extend(reversed(order))
        return b"".join(out)
