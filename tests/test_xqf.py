"""XQF files: every version 1.0 to 1.8 (plain and encrypted), a hand-built file, errors."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from record_games import random_game
from xqf_writer import encode

from xiangqi import START_FEN, Move, Position
from xiangqi.pgn import Game, PgnSyntaxError
from xiangqi.records.xqf import InvalidXqfError, read_xqf, sniff, write_xqf

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
        assert read.fen == Position(fen).fen() and read.mainline_moves() == [M("e9f9")]


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
    assert game.fen == START_FEN and game.mainline_moves() == [M("h2e2")]
    assert game.variations[0].comment == "ok" and game.result == "0-1"
    assert game.tags["Red"] == "许"


def test_errors() -> None:
    with pytest.raises(InvalidXqfError, match="not an XQF"):
        read_xqf(b"PK\x03\x04" + bytes(2000))
    with pytest.raises(InvalidXqfError, match="version"):
        read_xqf(b"XQ\x13" + bytes(1100))
    with pytest.raises(InvalidXqfError, match="start position"):
        read_xqf(b"XQ\x0a" + bytes(1100))  # every piece on a0
    with pytest.raises(TypeError, match="int"):
        read_xqf(12)  # type: ignore[arg-type]
    with pytest.raises(FileNotFoundError):
        read_xqf("no/such/game.xqf")
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


# -- real files (ElephantEye's XQFTOOLS samples, tests/data/xqf/README.md) ----------------------

REAL = Path(__file__).parent / "data" / "xqf"


def test_the_real_sample_reads_as_elephanteyes_converter_read_it() -> None:
    # SAMPLE.PGN is what ElephantEye's XQF2PGN made of SAMPLE.XQF (an encrypted 1.8 file):
    # the same start, moves, comments and header, from a reader we did not write.
    from xiangqi.pgn import read_games

    (expected,) = list(read_games(REAL / "SAMPLE.PGN"))
    assert expected.errors == []
    game = read_xqf(REAL / "SAMPLE.XQF")
    assert (REAL / "SAMPLE.XQF").read_bytes()[2] == 18
    assert game.errors == []
    assert game.fen == expected.fen
    assert game.comment == expected.comment
    assert tree(game) == tree(expected)
    assert len(game.mainline_moves()) == 75
    for name in ("Event", "Site", "Date", "Red", "Black", "Result"):
        assert game.tags[name] == expected.tags[name], name


@pytest.mark.parametrize("name", ["SAMPLE.XQF", "XQFEXAMA.XQF", "XQFEXAMB.XQF"])
def test_real_files_read_clean_from_str_paths_pathlikes_and_files(name: str) -> None:
    path = REAL / name
    games = [read_xqf(str(path)), read_xqf(path), read_xqf(path.read_bytes())]
    with open(path, "rb") as handle:
        games.append(read_xqf(handle))
    assert all(g.errors == [] for g in games)
    assert len({repr(tree(g)) for g in games}) == 1
    assert games[0].mainline_moves()  # every sample has a main line


def test_the_ancient_endgame_sample_has_its_variations() -> None:
    game = read_xqf(REAL / "XQFEXAMB.XQF")
    assert game.tags["Title"] == "七星聚会"
    assert game.fen == "4rk3/3P5/4bP3/9/9/9/8P/1p2p2C1/3p1p3/4K1RR1 w - - 0 1"
    branches = 0
    stack = [game]
    while stack:
        node = stack.pop()
        branches += max(0, len(node.variations) - 1)
        stack.extend(node.variations)
    assert branches >= 3


def _one_piece_file(pieces: dict[int, int], side: int, records: bytes) -> bytes:
    head = bytearray(1024)
    head[0:3] = b"XQ\x0a"
    head[16:48] = bytes([0xFF] * 32)
    for slot, byte in pieces.items():
        head[16 + slot] = byte
    head[50] = side
    return bytes(head) + records


def test_a_diagram_with_the_side_not_to_move_in_check_is_read_and_flagged() -> None:
    # Red to move (byte 50 = 0) while Red's rook on e4 checks Black's king on e9: a
    # position no game reaches, common as an illustrative diagram. Slots: 0 Red's rook,
    # 4 Red's king, 20 Black's king; square bytes x * 10 + y.
    start = bytes([0x18, 0x20, 0x00, 0]) + (0).to_bytes(4, "little")
    data = _one_piece_file({0: 44, 4: 30, 20: 49}, 0, start)
    game = read_xqf(data)
    assert game.fen == "4k4/9/9/9/9/4R4/9/9/9/3K5 b - - 0 1"
    assert len(game.errors) == 1 and game.errors[0].ply == 0
    assert "Black in check with Red to move" in str(game.errors[0])


def test_a_diagram_no_side_can_have_is_still_refused() -> None:
    # Kings facing on the e file with nothing between: not a position, whoever moves.
    start = bytes([0x18, 0x20, 0x00, 0]) + (0).to_bytes(4, "little")
    with pytest.raises(InvalidXqfError, match="start position"):
        read_xqf(_one_piece_file({4: 40, 20: 49}, 0, start))


# -- the writer -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["SAMPLE.XQF", "XQFEXAMA.XQF", "XQFEXAMB.XQF"])
def test_real_files_read_write_read_the_same(name: str) -> None:
    game = read_xqf(REAL / name)
    again = read_xqf(write_xqf(game))
    assert again.errors == []
    assert again.fen == game.fen and again.comment == game.comment
    assert tree(again) == tree(game)
    for tag in ("Title", "Event", "Date", "Site", "Red", "Black", "Result", "Author"):
        assert again.tags.get(tag) == game.tags.get(tag), tag


@pytest.mark.parametrize("seed", range(40))
def test_random_games_with_variations_and_comments_round_trip(seed: int) -> None:
    game = random_game(seed)
    data = write_xqf(game)
    assert data[:3] == b"XQ\x0a"
    again = read_xqf(data)
    assert again.errors == []
    assert again.fen == game.fen and again.comment == game.comment
    assert tree(again) == tree(game)
    for tag in ("Event", "Red", "Black", "Date", "Result"):
        assert again.tags[tag] == game.tags[tag]


def test_the_written_header_follows_the_documented_layout() -> None:
    # Checked byte by byte against the offsets of XQF.TXT, not through the reader.
    game = sample_game()
    data = write_xqf(game)
    assert data[:3] == b"XQ\x0a" and len(data) > 1024
    # Slot 0 is Red's left rook on a0 (x 0, y 0); slot 4 Red's king on e0 (40); slot 20
    # Black's king on e9 (49); slot 9 Red's first cannon b2 (12).
    assert data[16] == 0 and data[16 + 4] == 40 and data[16 + 20] == 49 and data[16 + 9] == 12
    assert data[51] == 1  # 1-0
    assert data[304] == len("许银川".encode("gbk"))
    assert data[305 : 305 + data[304]].decode("gbk") == "许银川"
    # The start record: squares 0 plus 0x18 / 0x20, "next follows" in the high nibble, and
    # the root comment's length and GBK bytes.
    comment = "开局评注".encode("gbk")
    assert data[1024:1028] == bytes([0x18, 0x20, 0xF0, 0])
    assert int.from_bytes(data[1028:1032], "little") == len(comment)
    assert data[1032 : 1032 + len(comment)] == comment
    # The first move h2e2: from x 7 y 2 = 72, to x 4 y 2 = 42; a next move and an
    # alternative (h7e7 and c3c4) follow.
    rec = 1032 + len(comment)
    assert data[rec : rec + 4] == bytes([72 + 0x18, 42 + 0x20, 0xFF, 0])


def test_write_xqf_keeps_multi_line_comments_and_cuts_long_names() -> None:
    game = Game(tags={"Red": "一二三四五六七八九十"})
    game.add_move(M("h2e2"), comment="第一行\n第二行")
    data = write_xqf(game)
    assert b"\r\n" in data[1024:]
    again = read_xqf(data)
    assert again.variations[0].comment == "第一行\n第二行"
    assert again.tags["Red"] == "一二三四五六七"  # 15 bytes of GBK: 7 characters
    # a name cut to its field keeps Windows line ends (XQF's), whole: the 15 bytes hold
    # "甲\r\n" (4 bytes) three times and a fourth 甲; its line break is not cut in half
    game.tags["Black"] = "甲\n" * 10
    data = write_xqf(game)
    assert (
        data[320] == 14 and data[321:336] == "甲\r\n".encode("gbk") * 3 + "甲".encode("gbk") + b"\0"
    )
    assert read_xqf(data).tags["Black"] == "甲\n甲\n甲\n甲"
    with pytest.raises(TypeError, match="Game"):
        write_xqf("not a game")  # type: ignore[arg-type]


def test_sniff() -> None:
    assert sniff((REAL / "SAMPLE.XQF").read_bytes()[:16])
    assert sniff(write_xqf(sample_game()))
    assert not sniff(b'[Game "Chinese Chess"]')
    assert not sniff(b"XQ\x30")


def test_a_diagram_with_both_kings_in_check_is_read_with_an_error() -> None:
    # issue 30: 14 of 5,054 real puzzle files have both kings in check (a final position
    # printed as an illustration). Red's king d0, rook f5 (checks Black's king f9 up the f
    # file); Black's rook d4 checks Red's king down the d file; the kings do not face.
    start = bytes([0x18, 0x20, 0xF0, 0]) + (0).to_bytes(4, "little")
    move = bytes([55 + 0x18, 56 + 0x20, 0x00, 0]) + (0).to_bytes(4, "little")  # f5-f6
    data = _one_piece_file({0: 55, 4: 30, 16: 34, 20: 59}, 0, start + move)
    game = read_xqf(data)
    assert game.tags["FEN"] == "5k3/9/9/9/5R3/3r5/9/9/9/3K5 w - - 0 1"
    assert game.variations == [] and len(game.errors) == 1 and game.errors[0].ply == 0
    assert "both kings in check" in str(game.errors[0])
    # the game survives its own writers: PGN keeps the diagram, XQF reads back the same
    assert '[FEN "5k3/9/9/9/5R3/3r5/9/9/9/3K5 w - - 0 1"]' in game.to_pgn("WXF")
    again = read_xqf(write_xqf(game))
    assert again.fen == game.fen and [str(e) for e in again.errors] == [str(game.errors[0])]
    # ... and the PGN reader keeps such a diagram too (it fell back to the usual start)
    from xiangqi.pgn import read_game

    from_pgn = read_game(game.to_pgn())
    assert from_pgn is not None and from_pgn.tags["FEN"] == game.tags["FEN"]
    assert len(from_pgn.errors) == 1 and "bad FEN tag" in str(from_pgn.errors[0])
