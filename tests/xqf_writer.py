"""A test-only XQF encoder, written from the layout in xiangqi/records/xqf.py's docstring.

It is the inverse of the reader's documented steps, so it checks the reader against the
layout; tests/test_xqf.py also builds a version 1.0 file byte by byte without it.
"""

from __future__ import annotations

from xiangqi import Position
from xiangqi.pgn import ChildNode, Game

KEY_TEXT = b"[(C) Copyright Mr. Dong Shiwei.]"
ORDER = "RNBAKABNRCCPPPPP"
RESULT_CODES = {"*": 0, "1-0": 1, "0-1": 2, "1/2-1/2": 3}


def _f(b: int) -> int:
    return ((((b * b) * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8


def _byte(square: int) -> int:
    return (square % 9) * 10 + square // 9


def encode(
    game: Game,
    version: int = 18,
    head_keys: tuple[int, int, int, int] = (0x5A, 0x13, 0x77, 0x4C),
    mask: int = 0xA7,
    ors: tuple[int, int, int, int] = (0x11, 0x22, 0x04, 0x80),
) -> bytes:
    keys_sum, hxy, hxyf, hxyt = head_keys
    head = bytearray(1024)
    head[0:3] = b"XQ" + bytes([version])
    if version > 10:
        head[3] = mask
        head[8:12] = bytes(ors)
        head[12:16] = bytes([keys_sum, hxy, hxyf, hxyt])
        xy = _f(hxy) * hxy % 256
        xyf = _f(hxyf) * xy % 256
        xyt = _f(hxyt) * xyf % 256
        rmk = (keys_sum * 256 + hxy) % 32000 + 767
        key_bytes = [(k & mask) | o for k, o in zip(head_keys, ors)]
        stream = bytes(KEY_TEXT[i] & key_bytes[i % 4] for i in range(32))
    else:
        xy = xyf = xyt = rmk = 0
        stream = bytes(32)
    pos = Position(game.fen)
    pieces = pos.piece_map()
    plain = [0xFF] * 32
    for side, offset in ((0, 0), (1, 16)):
        for square, piece in sorted(pieces.items()):
            if int(piece.color) != side:
                continue
            letter = piece.symbol().upper()
            letter = {"E": "B", "H": "N"}.get(letter, letter)
            for slot in range(16):
                if ORDER[slot] == letter and plain[offset + slot] == 0xFF:
                    plain[offset + slot] = _byte(square)
                    break
    stored = [(b + xy) % 256 for b in plain]
    if version >= 12:
        stored = [stored[(i + xy + 1) % 32] for i in range(32)]
    head[16:48] = bytes(stored)
    head[50] = 1 if pos.turn == 1 else 0
    head[51] = RESULT_CODES.get(game.result, 0)
    for offset, size, name in (
        (80, 64, "Title"),
        (208, 64, "Event"),
        (272, 16, "Date"),
        (288, 16, "Site"),
        (304, 16, "Red"),
        (320, 16, "Black"),
    ):
        raw = game.tags.get(name, "").encode("gbk")[: size - 1]
        head[offset] = len(raw)
        head[offset + 1 : offset + 1 + len(raw)] = raw

    body = bytearray()

    def record(frm: int, to: int, has_next: bool, has_alt: bool, comment: str) -> None:
        text = comment.encode("gbk")
        if version <= 10:
            tag = (0xF0 if has_next else 0) | (0x0F if has_alt else 0)
            body.extend([(frm + 0x18) % 256, (to + 0x20) % 256, tag, 0])
            body.extend(len(text).to_bytes(4, "little"))
        else:
            tag = (0x80 if has_next else 0) | (0x40 if has_alt else 0) | (0x20 if text else 0)
            body.extend([(frm + 0x18 + xyf) % 256, (to + 0x20 + xyt) % 256, tag, 0])
            if text:
                body.extend((len(text) + rmk).to_bytes(4, "little", signed=True))
        body.extend(text)

    record(0, 0, bool(game.variations), False, game.comment)

    def emit(siblings: list[ChildNode], i: int) -> None:
        node = siblings[i]
        record(
            _byte(node.move.from_square),
            _byte(node.move.to_square),
            bool(node.variations),
            i + 1 < len(siblings),
            node.comment,
        )
        if node.variations:
            emit(node.variations, 0)
        if i + 1 < len(siblings):
            emit(siblings, i + 1)

    if game.variations:
        emit(game.variations, 0)
    if version > 10:
        body = bytearray((b + stream[(1024 + i) % 32]) % 256 for i, b in enumerate(body))
    return bytes(head) + bytes(body)
