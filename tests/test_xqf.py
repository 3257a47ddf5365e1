"""XQF files: every version 1.0 to 1.8 (plain and encrypted), a hand-built file, errors."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from xqf_writer import encode

from xiangqi import START_FEN, Move, Position
from xiangqi.pgn import Game, PgnSyntaxError
from xiangqi.xqf import InvalidXqfError, read_xqf

M = Move.from_iccs


def sample_game() -> Game:
    game = Game(tags={"Event": "全国象棋个人赛", "Red": "许银川", "Black": "吕钦", "Date": "1999"})
    game.result = "1-0"
    game.comment = "开局评注"
    a = game.add_move(M("h2e2"), comment="中炮")
    game.add_move(M("h9g7"))
    game.add_move(M("h0g2"), comment="屏风马")
    alt = a.add_variation(M("h7e7"), comment="顺炮")
    alt.add_variation(M("h0g2"))
    a.add_variation(M("c6c5"))
    game.add_variation(M("c3c4"), comment="仙人指路")
    return game


def tree(node: object) -> list[object]:
    return [(c.move.iccs(), c.comment, tree(c)) for c in node.variations]  # type: ignore[attr-defined]


@pytest.mark.parametrize("version", range(10, 19))
@pytest.mark.parametrize(
    "keys", [(0x5A, 0x13, 0x77, 0x4C), (0, 0, 0, 0), (0xFF, 0x80, 0x01, 0x00), (7, 200, 33, 16)]
)
def test_every_version_round_trips(version: int, keys: tuple[int, int, int, int]) -> None:
    game = sample_game()
    read = read_xqf(encode(game, version, keys))
    assert read.errors == []
    assert tree(read) == tree(game) and read.comment == game.comment
    assert read.fen == START_FEN and read.result == "1-0"
    for name in ("Event", "Red", "Black", "Date"):
        assert read.tags[name] == game.tags[name]


def test_from_a_position_with_black_to_move(tmp_path: Path) -> None:
    fen = "4k4/9/4b4/9/9/9/9/4B4/4A4/3K5 b - - 0 1"
    game = Game(fen=fen)
    game.add_move(M("e9f9"))
    data = encode(game, 13)
    path = tmp_path / "ending.xqf"
    path.write_bytes(data)
    for source in (data, path, io.BytesIO(data)):
        read = read_xqf(source)  # type: ignore[arg-type]
        assert read.fen == Position(fen).fen() and read.moves == [M("e9f9")]


def test_a_version_1_0_file_built_by_hand() -> None:
    # Independent of the test encoder: the layout of XQF.TXT, written out byte by byte.
    head = bytearray(1024)
    head[0:3] = b"XQ\x0a"
    # Red R N B A K A B N R from file a to i on rank 0, cannons b2 h2, pawns a3 c3 e3 g3 i3.
    red = [0, 10, 20, 30, 40, 50, 60, 70, 80, 12, 72, 3, 23, 43, 63, 83]
    black = [9, 19, 29, 39, 49, 59, 69, 79, 89, 17, 77, 6, 26, 46, 66, 86]
    head[16:48] = bytes(red + black)
    head[51] = 2  # Black won
    head[304] = 2
    head[305:307] = "许".encode("gbk")
    records = bytearray()
    records += bytes([0x18, 0x20, 0xF0, 0]) + (0).to_bytes(4, "little")  # start, next follows
    # h2e2: from byte 7*10+2 = 72, to 4*10+2 = 42; no next, no alternative, comment "ok".
    records += bytes([72 + 0x18, 42 + 0x20, 0x00, 0]) + (2).to_bytes(4, "little") + b"ok"
    game = read_xqf(bytes(head) + bytes(records))
    assert game.fen == START_FEN and game.moves == [M("h2e2")]
    assert game.variations[0].comment == "ok" and game.result == "0-1"
    assert game.tags["Red"] == "许"


def test_errors() -> None:
    with pytest.raises(InvalidXqfError, match="not an XQF"):
        read_xqf(b"PK\x03\x04" + bytes(2000))
    with pytest.raises(InvalidXqfError, match="version"):
        read_xqf(b"XQ\x13" + bytes(1100))
    with pytest.raises(InvalidXqfError, match="start position"):
        read_xqf(b"XQ\x0a" + bytes(1100))  # every piece on a0
    with pytest.raises(TypeError, match="str"):
        read_xqf("game.xqf")  # type: ignore[arg-type]
    data = encode(sample_game(), 18)
    cut = read_xqf(data[:-3])
    assert cut.errors and isinstance(cut.errors[0], PgnSyntaxError)
    assert "cut short" in str(cut.errors[0])


def test_an_illegal_move_drops_its_branch_only() -> None:
    game = sample_game()
    data = bytearray(encode(game, 10))
    # The version 1.0 records are plain: make the second record (h2e2) an illegal h2h9 is too
    # easy to be found by position; instead corrupt its target byte to e9 (a black king square).
    start = 1024 + 8 + len("开局评注".encode("gbk"))
    assert data[start] == 72 + 0x18
    data[start + 1] = 49 + 0x20
    read = read_xqf(bytes(data))
    assert len(read.errors) == 1 and "not legal" in str(read.errors[0])
    assert [c.move for c in read.variations] == [M("c3c4")]  # the sibling survives
