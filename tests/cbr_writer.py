"""A test-only CCBridge CBR/CBL/CBF encoder, from the layout in xiangqi/records/cbr.py's docstring.

No real CBR, CBL or CBF file could be found in a public, readable form, so the tests build
files with this encoder. That checks the reader against the layout as we understood it, not
against CCBridge itself; /tmp checks with cchess's independent reader are in the report.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from xiangqi import Position
from xiangqi.pgn import ChildNode, Game

RESULT_CODES = {"*": 0, "1-0": 1, "0-1": 2, "1/2-1/2": 3}
KINDS = {"R": 1, "N": 2, "B": 3, "A": 4, "K": 5, "C": 6, "P": 7}


def point(square: int) -> int:
    """CCBridge point (row from Black's side * 9 + file) of a public square."""
    return (9 - square // 9) * 9 + square % 9


def _utf16(text: str, size: int) -> bytes:
    raw = text.encode("utf-16-le")[: size - 2]
    return raw + bytes(size - len(raw))


def encode_cbr(game: Game, *, side_code: int | None = None) -> bytes:
    head = bytearray(2214)
    head[0:16] = b"CCBridge Record\x00"
    head[19] = 2
    for offset, size, name in (
        (180, 128, "Title"),
        (692, 64, "Event"),
        (1076, 64, "Red"),
        (1300, 64, "Black"),
    ):
        head[offset : offset + size] = _utf16(game.tags.get(name, ""), size)
    head[2076] = RESULT_CODES.get(game.tags.get("Result", "*"), 0)
    pos = Position(game.fen)
    code = side_code if side_code is not None else (2 if pos.turn == 1 else 1)
    head[2116:2118] = code.to_bytes(2, "little")
    for square, piece in pos.piece_map().items():
        letter = piece.symbol()
        kind = KINDS[{"E": "B", "H": "N"}.get(letter.upper(), letter.upper())]
        head[2120 + point(square)] = (0x10 if letter.isupper() else 0x20) | kind
    out = bytearray(head)
    if game.comment:
        raw = game.comment.encode("utf-16-le")
        out += bytes([4, 0, 0, 0]) + len(raw).to_bytes(4, "little") + raw
    else:
        out += bytes(4)
    stack: list[tuple[ChildNode, bool]] = []
    for i in range(len(game.variations) - 1, -1, -1):
        stack.append((game.variations[i], i + 1 < len(game.variations)))
    while stack:
        node, has_alt = stack.pop()
        flags = (0 if node.variations else 1) | (2 if has_alt else 0) | (4 if node.comment else 0)
        out += bytes([flags, 0, point(node.move.from_square), point(node.move.to_square)])
        if node.comment:
            raw = node.comment.encode("utf-16-le")
            out += len(raw).to_bytes(4, "little") + raw
        for i in range(len(node.variations) - 1, -1, -1):
            stack.append((node.variations[i], i + 1 < len(node.variations)))
    return bytes(out)


def encode_cbl(records: list[bytes], slots: int = 128, name: str = "测试库") -> bytes:
    head = bytearray(66624 + slots * 276)
    head[0:16] = b"CCBridgeLibrary\x00"
    head[52:56] = (0x7FFFFFFF).to_bytes(4, "little")
    head[60:64] = slots.to_bytes(4, "little")
    head[64 : 64 + 512] = _utf16(name, 512)
    out = bytearray(head)
    for record in records:
        padded = record + bytes(-len(record) % 4096)
        out += padded
    return bytes(out)


def _xy(square: int) -> str:
    return f"{square % 9}{9 - square // 9}"


def encode_cbf(game: Game) -> bytes:
    """The main line of game as CBF XML (CBF's variations are not known)."""
    head = "".join(
        f"<{tag}>{escape(game.tags[key])}</{tag}>"
        for tag, key in (
            ("Name", "Title"),
            ("Contest", "Event"),
            ("Red", "Red"),
            ("Black", "Black"),
            ("Date", "Date"),
        )
        if key in game.tags
    )
    result = RESULT_CODES.get(game.tags.get("Result", "*"), 0)
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<ChineseChessRecord Version="1.0">',
        f" <Head>{head}<RecordResult>{result}</RecordResult><FEN>{game.fen}</FEN></Head>",
        " <MoveList>",
        f'  <Move value="00-00" comment={quoteattr(game.comment)}/>',
    ]
    nodes = list(game.mainline())
    for i, node in enumerate(nodes):
        end = ' end="1"' if i == len(nodes) - 1 else ""
        value = f"{_xy(node.move.from_square)}-{_xy(node.move.to_square)}"
        comment = f" comment={quoteattr(node.comment)}" if node.comment else ""
        lines.append(f'  <Move value="{value}"{comment}{end}/>')
    lines += [" </MoveList>", "</ChineseChessRecord>"]
    return "\n".join(lines).encode("utf-8")
