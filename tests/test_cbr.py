"""CCBridge CBR, CBL and CBF files.

No real CBR/CBL/CBF file was found in a public, readable form (the one CBL in the stored
index, walker8088/cchess game_book/古谱/专辑林兴荣.CBL, is binary and could not be fetched),
so these files are built by tests/cbr_writer.py from the documented layout. Both sides of
those tests come from our reading of the layout; where possible the expectations are checked
byte by byte instead (test_a_cbr_record_built_byte_by_byte).
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cbr_writer import encode_cbf, encode_cbl, encode_cbr
from record_games import random_game, tree

from xiangqi import START_FEN, Move
from xiangqi.pgn import Game
from xiangqi.records.cbr import InvalidCbrError, read_cbf, read_cbl, read_cbr, sniff

M = Move.from_iccs


def test_a_cbr_record_built_byte_by_byte() -> None:
    # Independent of the test encoder: offsets of the cchess write-up, written out by hand.
    data = bytearray(2214)
    data[0:16] = b"CCBridge Record\x00"
    data[180:186] = "标题".encode("utf-16-le") + b"\x00\x00"
    data[1076:1080] = "红方".encode("utf-16-le")
    data[2076] = 2  # Black won
    data[2116] = 1  # Red moves first
    # The usual start: point = row from Black's side * 9 + file.
    back = [1, 2, 3, 4, 5, 4, 3, 2, 1]
    for x in range(9):
        data[2120 + x] = 0x20 | back[x]  # Black's back row, row 0
        data[2120 + 81 + x] = 0x10 | back[x]  # Red's, row 9
    for x in (1, 7):
        data[2120 + 2 * 9 + x] = 0x26
        data[2120 + 7 * 9 + x] = 0x16
    for x in (0, 2, 4, 6, 8):
        data[2120 + 3 * 9 + x] = 0x27
        data[2120 + 6 * 9 + x] = 0x17
    comment = "开局".encode("utf-16-le")
    data += bytes([4, 0, 0, 0]) + len(comment).to_bytes(4, "little") + comment
    # h2e2 (point 7*9+7 = 70 to 7*9+4 = 67), alternative follows, a next move follows;
    # then h9g7 (point 7 to 2*9+6 = 24), line ends; then the alternative c3c4 (point
    # 6*9+2 = 56 to 5*9+2 = 47), line ends, with a comment.
    data += bytes([0x02, 0, 70, 67])
    data += bytes([0x01, 0, 7, 24])
    note = "仙人指路".encode("utf-16-le")
    data += bytes([0x05, 0, 56, 47]) + len(note).to_bytes(4, "little") + note
    game = read_cbr(bytes(data))
    assert game.errors == []
    assert game.fen == START_FEN and game.comment == "开局"
    assert tree(game) == [("h2e2", "", [("h9g7", "", [])]), ("c3c4", "仙人指路", [])]
    assert game.tags["Title"] == "标题" and game.tags["Red"] == "红方"
    assert game.tags["Result"] == "0-1"


@pytest.mark.parametrize("seed", range(30))
def test_random_games_read_back_from_cbr(seed: int) -> None:
    game = random_game(seed)
    read = read_cbr(encode_cbr(game))
    assert read.errors == []
    assert tree(read) == tree(game) and read.comment == game.comment
    if game.variations:
        assert read.fen == game.fen
    for tag in ("Event", "Red", "Black", "Result"):
        assert read.tags[tag] == game.tags[tag]


def test_black_first_in_the_header_but_red_moves_first() -> None:
    game = Game()
    game.add_move(M("h2e2"))
    read = read_cbr(encode_cbr(game, side_code=2))
    assert read.mainline_moves() == [M("h2e2")] and read.errors == []


def test_a_library_of_games_including_one_longer_than_a_slot(tmp_path: Path) -> None:
    games = [random_game(seed) for seed in range(12)]
    long = Game()
    node = long
    for move in ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "a9b9"]:
        node = node.add_variation(M(move), comment="很长的评注" * 200)  # ~2 kB each
    games.insert(5, long)
    records = [encode_cbr(g) for g in games]
    assert len(records[5]) > 3 * 4096
    data = encode_cbl(records, slots=300)
    path = tmp_path / "lib.cbl"
    path.write_bytes(data)
    for source in (data, path, str(path), io.BytesIO(data)):
        read = list(read_cbl(source))  # type: ignore[arg-type]
        assert len(read) == len(games)
        for got, want in zip(read, games):
            assert got.errors == [] and tree(got) == tree(want)


def test_a_bad_record_in_a_library_is_skipped_and_noted() -> None:
    records = [encode_cbr(random_game(seed)) for seed in range(3)]
    bad = bytearray(records[1])
    bad[2120 : 2120 + 90] = bytes(90)  # no kings
    data = encode_cbl([records[0], bytes(bad), records[2]])
    read = list(read_cbl(data))
    assert len(read) == 2
    assert read[1].errors and read[1].errors[0].game_number == 3
    assert "CBL game 2" in str(read[1].errors[0])


def test_cbf_reads_the_main_line_and_head() -> None:
    game = random_game(3)
    game.tags["Title"] = "第一局"
    read = read_cbf(encode_cbf(game))
    assert read.errors == []
    assert list(read.mainline_moves()) == list(game.mainline_moves())
    assert [n.comment for n in read.mainline()] == [n.comment for n in game.mainline()]
    assert read.comment == game.comment and read.tags["Title"] == "第一局"
    assert read.tags["Red"] == game.tags["Red"] and read.tags["Result"] == game.tags["Result"]


def test_cbf_as_written_by_a_public_converter() -> None:
    # The shape of CBF that icyElephant's converter writes (Head with FEN, a "00-00" start
    # move, "xy-xy" moves with y counted from Black's side, end="1" on the last).
    text = """<?xml version="1.0" encoding="UTF-8"?>
<ChineseChessRecord Version="1.0">
 <Head>
  <Name>测试</Name><Red>甲</Red><Black>乙</Black><RecordResult>1</RecordResult>
  <FEN>rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1</FEN>
 </Head>
 <MoveList>
 <Move value="00-00" />
  <Move value="77-47" />
  <Move value="72-42" />
  <Move value="79-67" end="1" />
 </MoveList>
</ChineseChessRecord>"""
    game = read_cbf(text.encode("utf-8"))
    assert game.mainline_moves() == [M("h2e2"), M("h7e7"), M("h0g2")]
    assert game.tags["Title"] == "测试" and game.tags["Result"] == "1-0"


def test_errors_and_dropped_branches() -> None:
    with pytest.raises(InvalidCbrError, match="not a CBR record"):
        read_cbr(b"PK\x03\x04" + bytes(3000))
    with pytest.raises(InvalidCbrError, match="not a CBL"):
        read_cbl(encode_cbr(Game()))
    with pytest.raises(InvalidCbrError, match="no piece"):
        data = bytearray(encode_cbr(Game()))
        data[2120 + 40] = 0x99
        read_cbr(bytes(data))
    with pytest.raises(InvalidCbrError, match="not CBF"):
        read_cbf(b"<html></html>")
    with pytest.raises(InvalidCbrError, match="not CBF XML"):
        read_cbf(b"\x00\x01garbage")
    with pytest.raises(TypeError):
        read_cbr(1.5)  # type: ignore[arg-type]
    game = Game()
    game.add_move(M("h2e2"))
    game.add_move(M("h9g7"))
    data = bytearray(encode_cbr(game))
    data[-1] = 0  # h9g7 now goes to point 0, a Black rook: illegal
    read = read_cbr(bytes(data))
    assert read.mainline_moves() == [M("h2e2")]
    assert len(read.errors) == 1 and read.errors[0].ply == 2
    cut = read_cbr(bytes(data[:-2]))
    assert "cut short" in str(cut.errors[0])


def test_sniff() -> None:
    assert sniff(encode_cbr(Game())[:32])
    assert sniff(encode_cbl([])[:32])
    assert sniff(encode_cbf(Game())[:200])
    assert not sniff(b"XQ\x0a")


def open_files(path: Path) -> int:
    fds = Path("/proc/self/fd")
    if not fds.exists():
        pytest.skip("needs /proc")
    count = 0
    for fd in fds.iterdir():
        try:
            count += Path(os.readlink(fd)) == path
        except OSError:
            pass
    return count


def test_a_library_path_is_mapped_and_closed_after_reading(tmp_path: Path) -> None:
    path = (tmp_path / "lib.cbl").resolve()
    path.write_bytes(encode_cbl([encode_cbr(random_game(seed)) for seed in range(3)]))
    games = read_cbl(path)
    first = next(games)
    assert first.errors == [] and open_files(path) == 1  # held while iterating
    assert len(list(games)) == 2
    assert open_files(path) == 0
    games = read_cbl(path)
    next(games)
    games.close()  # type: ignore[attr-defined]
    assert open_files(path) == 0
    (tmp_path / "bad.cbl").write_bytes(b"CCBridge Record" + bytes(100))
    with pytest.raises(InvalidCbrError, match="not a CBL"):
        read_cbl(tmp_path / "bad.cbl")
    assert open_files((tmp_path / "bad.cbl").resolve()) == 0
    (tmp_path / "empty.cbl").write_bytes(b"")
    with pytest.raises(InvalidCbrError, match="0 bytes"):
        read_cbl(str(tmp_path / "empty.cbl"))


def test_a_library_that_shrinks_while_read_gives_errors_not_sigbus(tmp_path: Path) -> None:
    # issue 30: read_cbl memory-mapped the file, and a file truncated meanwhile killed the
    # interpreter with SIGBUS. Run in a child process, so a crash fails this test instead of
    # killing the test run: the library is truncated after the first game is read.
    game = Game()
    for text in ("h2e2", "h9g7", "h0g2"):
        game.add_move(M(text))
    path = tmp_path / "lib.cbl"
    path.write_bytes(encode_cbl([encode_cbr(game)] * 40))
    code = (
        "import os, sys\n"
        "from xiangqi.records.cbr import read_cbl\n"
        "games = read_cbl(sys.argv[1])\n"
        "first = next(games)\n"
        "os.truncate(sys.argv[1], 70_000)\n"
        "rest = list(games)\n"
        "print(len(first.mainline_moves()), len(rest))\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    first, rest = map(int, done.stdout.split())
    assert first == 3 and rest < 39  # the games past the cut are gone, nothing crashed
