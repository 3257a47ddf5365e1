"""CCBridge (象棋桥) game files: CBR (one game), CBL (a library of games), CBF (XML).

Squares: CCBridge numbers the 90 points ``y * 9 + x``, x the file 0..8 from Red's left and y
the row 0..9 from Black's side, so point p is public square ``p % 9 + 9 * (9 - p // 9)``
(see xiangqi.squares).

CBR layout (offsets in bytes, numbers little-endian, text UTF-16LE cut at the first NUL;
from the write-up in walker8088/cchess ``doc/`` and the readers that follow it)::

    0     "CCBridge Record" and a NUL
    180   title (128 bytes); 692 event (64); 1076 Red (64); 1300 Black (64)
    2076  result: 0 unknown, 1 Red won, 2 Black won, 3 (or 4) drawn
    2116  side to move first (2 bytes): 1 Red, 2 Black (the first move's piece decides
          when they disagree)
    2120  the board, 90 bytes by point: 0 empty, 0x11..0x17 Red's, 0x21..0x27 Black's
          rook, horse, elephant, advisor, king, cannon, pawn
    2214  the start record: 4 bytes, not all zero when a comment on the start follows
          (4-byte length in bytes, then the text); then the move records

A move record is 4 bytes: flags, a spare byte, from point, to point. Flag 0x01 ends the line
(no next move follows), 0x02 an alternative to this move follows, 0x04 a comment follows
(4-byte length in bytes, then UTF-16LE text). Records are in pre-order: a move, the moves
after it, then its alternatives. Four zero bytes end the records early.

CBL: "CCBridgeLibrary" and a NUL, the index's slot count (4 bytes) at 60, then an index of
276 bytes a slot after offset 66624; the games follow it as CBR records on 4096-byte
boundaries, a long game running on into the next slots (which do not start with the
"CCBridge Record" signature).

CBF is CCBridge's XML: ``<ChineseChessRecord>`` with ``<Head>`` (Name, Event or Contest,
Date, Site, Round, Red, RedTeam, Black, BlackTeam, ECCO, RecordResult 0..4, FEN) and
``<MoveList>`` of ``<Move value="xy-xy"/>`` (x the file 0..8, y the row from Black's side;
the first, "00-00", stands for the start), a line ending at ``end="1"``. No published
description or sample gives CBF's variations, so only the main line is read and moves
after the first end are recorded as skipped.

Readers take bytes, a str or os.PathLike path, or a binary file. Bytes that are not such a
file, or whose start position is not a position, raise InvalidCbrError; moves that cannot
be played are recorded in ``game.errors`` (with the ply; in a library, the game number) and
their branch dropped.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable, Iterator
from typing import IO

from .._words import counted
from ..errors import IllegalMoveError, XiangqiError
from ..move import Move
from ..pgn import ChildNode, Game
from ..position import Position
from .common import (
    Record,
    Source,
    add_error,
    ascii_int,
    board_text,
    build_tree,
    load_start,
    piece_at,
    read_source,
)

__all__ = ["InvalidCbrError", "read_cbf", "read_cbl", "read_cbr", "sniff"]

RECORD_MAGIC = b"CCBridge Record\x00"
LIBRARY_MAGIC = b"CCBridgeLibrary\x00"
#: Bytes before the start record of a CBR record.
HEADER_SIZE = 2214
#: (offset, size, tag) of a CBR record's header strings.
STRINGS = ((180, 128, "Title"), (692, 64, "Event"), (1076, 64, "Red"), (1300, 64, "Black"))
RESULTS = {0: "*", 1: "1-0", 2: "0-1", 3: "1/2-1/2", 4: "1/2-1/2"}
#: FEN letter of a board byte's low nibble (1..7).
PIECES = " RNBAKCP"
#: A CBL library: its index starts here and has this many bytes a slot; games sit on
#: boundaries of SLOT bytes after it.
INDEX_OFFSET = 66624
INDEX_ENTRY = 276
SLOT = 4096


#: The bytes of a file: read into memory, or mapped (a library read from a path).
Buffer = bytes


class InvalidCbrError(XiangqiError):
    """Bytes that are not a CCBridge CBR, CBL or CBF file, or whose start is no position."""


def sniff(data: bytes) -> bool:
    """Do these bytes (the start of a file is enough) look like a CBR, CBL or CBF file?"""
    if data.startswith((RECORD_MAGIC[:15], LIBRARY_MAGIC[:15])):
        return True
    return b"<ChineseChessRecord" in data[:1024]


def _point(p: int) -> int | None:
    """The public square of a CCBridge point 0..89, or None off the board."""
    return p % 9 + 9 * (9 - p // 9) if p < 90 else None


def _utf16(raw: bytes) -> str:
    for i in range(0, len(raw) - 1, 2):
        if raw[i] == 0 and raw[i + 1] == 0:
            raw = raw[:i]
            break
    if len(raw) % 2:
        raw = raw[:-1]
    text = raw.decode("utf-16-le", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n").strip()


class _Records:
    """Walks the move records of one CBR record held in data[start:end]."""

    def __init__(self, data: Buffer, offset: int, end: int) -> None:
        self.data = data
        self.offset = offset
        self.end = end

    def int32(self) -> int | None:
        if self.offset + 4 > self.end:
            return None
        value = int.from_bytes(self.data[self.offset : self.offset + 4], "little")
        self.offset += 4
        return value

    def text(self, size: int) -> str | None:
        if self.offset + size > self.end:
            return None
        raw = self.data[self.offset : self.offset + size]
        self.offset += size
        return _utf16(raw)

    def at_end(self) -> bool:
        tail = self.data[self.offset : self.offset + 4]
        return len(tail) < 4 or self.offset + 4 > self.end or tail == b"\x00\x00\x00\x00"

    def record(self) -> Record | None:
        if self.offset + 4 > self.end:
            return None
        flags, _, frm, to = self.data[self.offset : self.offset + 4]
        self.offset += 4
        comment = ""
        if flags & 0x04:
            size = self.int32()
            text = None if size is None else self.text(size)
            if text is None:
                return None
            comment = text
        return _point(frm), _point(to), not flags & 0x01, bool(flags & 0x02), comment


def _board(data: Buffer, start: int) -> str:
    board: list[str | None] = [None] * 90
    for p in range(90):
        byte = data[start + 2120 + p]
        if byte == 0:
            continue
        side, kind = byte >> 4, byte & 0x0F
        if side not in (1, 2) or not 1 <= kind <= 7:
            raise InvalidCbrError(f"CBR board byte {byte:#04x} at point {p} is no piece")
        letter = PIECES[kind]
        square = _point(p)
        assert square is not None
        board[square] = letter if side == 1 else letter.lower()
    return board_text(board)


def _start_game(fmt: str, board: str, side: str, first_from: int | None, game_number: int) -> Game:
    """A Game at the record's start diagram (board: FEN board field; side: "w" or "b").

    The piece on the first move's from-square (public number, or None) decides the side
    to move when the header says otherwise; an odd diagram is read and flagged.
    """
    letter = None if first_from is None else piece_at(board, first_from)
    if letter is not None:
        side = "w" if letter.isupper() else "b"
    try:
        fen, note = load_start(board, side)
    except XiangqiError as exc:
        raise InvalidCbrError(f"the {fmt} start position is not a valid position: {exc}") from None
    game = Game(fen=fen)
    if note is not None:
        add_error(game, f"{fmt}: {note}", 0, game_number)
    return game


def _parse_record(data: Buffer, start: int, end: int, game_number: int) -> Game:
    """The game of the CBR record in data[start:end] (end: where the next record starts)."""
    if end - start < HEADER_SIZE or data[start : start + 15] != RECORD_MAGIC[:15]:
        raise InvalidCbrError(
            f"not a CBR record: expected 'CCBridge Record' and a {HEADER_SIZE}-byte header, "
            f"got {end - start} bytes starting {data[start : start + 16]!r}"
        )
    board = _board(data, start)
    side_code = int.from_bytes(data[start + 2116 : start + 2118], "little")
    side = "b" if side_code == 2 else "w"
    records = _Records(data, start + HEADER_SIZE, end)
    first = records.int32()
    comment = ""
    cut = first is None
    if first:
        size = records.int32()
        text = None if size is None else records.text(size)
        cut = text is None
        comment = text or ""
    has_moves = not cut and not records.at_end()
    first_from = _point(data[records.offset + 2]) if has_moves else None
    game = _start_game("CBR", board, side, first_from, game_number)
    game.comment = comment
    for offset, size, name in STRINGS:
        value = _utf16(data[start + offset : start + offset + size])
        if value:
            game.tags[name] = value
    game.tags["Result"] = RESULTS.get(data[start + 2076], "*")
    if cut:
        add_error(game, "CBR start record cut short", 0, game_number)
    elif has_moves:
        build_tree(game, records.record, "CBR", game_number)
    return game


def read_cbr(source: Source) -> Game:
    """Read a CBR file (bytes, a str or os.PathLike path, or a binary file) into a Game.

    Squares are public numbers 0..89. The title, event and players become the Title, Event,
    Red and Black tags; variations and comments are kept.
    """
    data = read_source(source, "read_cbr")
    return _parse_record(data, 0, len(data), 0)


def read_cbl(source: Source) -> Iterator[Game]:
    """The games of a CBL library (bytes, a str or os.PathLike path, or a binary file).

    Squares are public numbers 0..89. Games come in file order, read one at a time; a
    record that cannot be read (a bad start position, a broken header) is skipped and noted
    in the next game's errors, with its number. Raises InvalidCbrError at once when the
    bytes are not a library. A library read from a path is read record by record (never
    memory-mapped: a file that shrinks meanwhile gives records cut short, noted as errors,
    not a crash), and the file stays open until the iterator is exhausted or closed.
    """
    if isinstance(source, (str, os.PathLike)):
        handle = open(source, "rb")
        try:
            size = os.fstat(handle.fileno()).st_size

            def at(offset: int, length: int) -> bytes:
                handle.seek(offset)
                return handle.read(max(0, length))

            _check_library(at(0, 64), size)
        except BaseException:
            handle.close()
            raise
        return _iterate_library(at, size, handle)
    data = read_source(source, "read_cbl")
    _check_library(data[:64], len(data))
    return _iterate_library(
        lambda offset, length: data[offset : offset + max(0, length)], len(data)
    )


def _check_library(head: bytes, size: int) -> None:
    if len(head) < 64 or head[:15] != LIBRARY_MAGIC[:15]:
        raise InvalidCbrError(
            f"not a CBL library: expected 'CCBridgeLibrary', got {head[:16]!r} ({size} bytes)"
        )


def _iterate_library(
    at: Callable[[int, int], bytes], size: int, handle: IO[bytes] | None = None
) -> Iterator[Game]:
    try:
        yield from _library_games(at, size)
    finally:
        if handle is not None:
            handle.close()


def _find(at: Callable[[int, int], bytes], size: int, needle: bytes, start: int) -> int:
    """The offset of needle at or after start, read in chunks; -1 if none."""
    chunk = 1 << 20
    while start < size:
        block = at(start, chunk + len(needle) - 1)
        found = block.find(needle)
        if found >= 0:
            return start + found
        if len(block) < chunk:
            return -1
        start += chunk
    return -1


def _library_games(at: Callable[[int, int], bytes], size: int) -> Iterator[Game]:
    magic = RECORD_MAGIC[:15]
    slots = int.from_bytes(at(60, 4), "little")
    first = _find(at, size, magic, min(INDEX_OFFSET + slots * INDEX_ENTRY, size))
    if first < 0:
        first = _find(at, size, magic, 64)
    if first < 0:
        return
    starts = [offset for offset in range(first, size, SLOT) if at(offset, 15) == magic]
    skipped: list[str] = []
    for number, start in enumerate(starts, 1):
        end = starts[number] if number < len(starts) else size
        record = at(start, end - start)
        try:
            game = _parse_record(record, 0, len(record), number)
        except InvalidCbrError as exc:
            skipped.append(f"CBL game {number} at byte {start} skipped: {exc}")
            continue
        for message in skipped:
            add_error(game, message, 0, number)
        skipped = []
        yield game


# -- CBF --------------------------------------------------------------------------------------

#: CBF Head element -> PGN tag.
CBF_TAGS = {
    "Name": "Title",
    "Contest": "Event",
    "Event": "Event",
    "Round": "Round",
    "Date": "Date",
    "Site": "Site",
    "Red": "Red",
    "RedTeam": "RedTeam",
    "Black": "Black",
    "BlackTeam": "BlackTeam",
    "ECCO": "ECCO",
}


def _cbf_square(text: str) -> int | None:
    if len(text) != 2 or ascii_int(text) is None or text[0] == "9":
        return None
    return int(text[0]) + 9 * (9 - int(text[1]))


def read_cbf(source: Source) -> Game:
    """Read a CBF (CCBridge XML) file (bytes, a str or os.PathLike path, or a file).

    Squares are public numbers 0..89. Reads the Head tags, the start FEN and the main line
    of the MoveList with each move's comment (a ``comment`` attribute or ``Comment``
    element); moves after the main line's end are recorded as skipped.
    """
    data = read_source(source, "read_cbf")
    try:
        root = ElementTree.fromstring(data)
    except (ElementTree.ParseError, LookupError) as exc:  # LookupError: unknown encoding
        raise InvalidCbrError(f"not CBF XML ({exc}): {data[:40]!r}") from None
    if root.tag != "ChineseChessRecord":
        raise InvalidCbrError(f"not CBF: the root element is <{root.tag[:40]}>")
    head = root.find("Head")
    values: dict[str, str] = {}
    if head is not None:
        for item in head:
            if item.text and item.text.strip():
                values.setdefault(item.tag, item.text.strip())
    moves_element = root.find("MoveList")
    moves = [] if moves_element is None else moves_element.findall("Move")
    fen = values.get("FEN", "")
    board = fen.split()[0] if fen else Position().board_fen()
    side = "b" if len(fen.split()) > 1 and fen.split()[1] == "b" else "w"
    first_from = _cbf_square(moves[1].get("value", "")[:2]) if len(moves) > 1 else None
    game = _start_game("CBF", board, side, first_from, 0)
    for name, tag in CBF_TAGS.items():
        if values.get(name):
            game.tags[tag] = values[name]
    code = ascii_int(values.get("RecordResult", "0"))
    game.tags["Result"] = RESULTS.get(code, "*") if code is not None else "*"
    if moves:
        game.comment = _cbf_comment(moves[0])
    pos = game.board()
    node: Game | ChildNode = game
    for ply, element in enumerate(moves[1:], 1):
        value = element.get("value", "")
        frm, to = _cbf_square(value[:2]), _cbf_square(value[3:])
        try:
            if frm is None or to is None or frm == to or len(value) != 5:
                raise IllegalMoveError(f"{value[:20]!r} is no move")
            move = Move(frm, to)
            pos.push(move)
        except IllegalMoveError as exc:
            add_error(game, f"CBF move at ply {ply} is not legal, the rest dropped: {exc}", ply)
            break
        child = ChildNode(node, move, _cbf_comment(element), "", set())
        node.variations.append(child)
        node = child
        if element.get("end") == "1" and ply < len(moves) - 1:
            left = counted(len(moves) - 1 - ply, "move")
            add_error(game, f"CBF: {left} after the main line skipped", ply)
            break
    return game


def _cbf_comment(element: ElementTree.Element) -> str:
    text = element.get("comment") or element.findtext("Comment") or ""
    return text.strip()
