"""Opening books (xiangqi.book): ElephantEye's BOOK.DAT and the library's SQLite books.

Expected values come from outside the code under test: the record layout and key as
ElephantEye's source defines them (reimplemented here from that definition: RC4 keyed
with four zero bytes, a plain linear scan of the raw records, legality by generation),
the engine's own listing for the start position (tests/data/books/README.md), and counts
this file makes itself from the games it builds books from (keyed by FEN text).
"""

from __future__ import annotations

import os
import random
import sqlite3
import struct
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import xiangqi
from xiangqi import Move, Position
from xiangqi.book import (
    BookError,
    ElephantEyeReader,
    SQLiteReader,
    build,
    elephanteye_key,
    open_reader,
)
from xiangqi.errors import OutputFileError, XiangqiError

ROOT = Path(__file__).resolve().parent.parent
BOOK_DAT = Path(__file__).parent / "data" / "books" / "BOOK.DAT"
GAMES = Path(__file__).parent / "data" / "games"
WUKONG = GAMES / "wukong" / "wukong_iccs.pgn"
MORE = GAMES / "wukong_more" / "wukong_more_iccs.pgn"
FILES = "abcdefghi"


# -- the engine's definitions, written again from its source ------------------------------


def rc4_words(count: int) -> list[int]:
    """RC4 keyed with four zero bytes (base/rc4prng.h): `count` little-endian words."""
    state = list(range(256))
    j = 0
    for i in range(256):
        j = (j + state[i]) & 255  # the key bytes are all zero
        state[i], state[j] = state[j], state[i]
    x = y = 0
    words = []
    for _ in range(count):
        raw = bytearray()
        for _ in range(4):
            x = (x + 1) & 255
            y = (y + state[x]) & 255
            state[x], state[y] = state[y], state[x]
            raw.append(state[(state[x] + state[y]) & 255])
        words.append(int.from_bytes(raw, "little"))
    return words


_WORDS = rc4_words(3 + 14 * 256 * 3)
SIDE_LOCK = _WORDS[2]  # zobrPlayer.dwLock1


def piece_lock(letter: str, row: int, column: int) -> int:
    """zobrTable[pt + 7 * black][row * 16 + column].dwLock1 (pregen.cpp, position.cpp)."""
    kind = "KABNRCP".index(letter.upper()) + (7 if letter.islower() else 0)
    return _WORDS[3 + (kind * 256 + row * 16 + column) * 3 + 2]


def reference_key(board_fen: str, side: str, mirror: bool = False) -> int:
    """The lock of a FEN board field (first rank written is the engine's row 3)."""
    lock = SIDE_LOCK if side == "b" else 0
    for i, rank in enumerate(board_fen.split("/")):
        cells = "".join("." * int(c) if c.isdigit() else c for c in rank)
        if mirror:
            cells = cells[::-1]
        for j, cell in enumerate(cells):
            if cell != ".":
                lock ^= piece_lock(cell, 3 + i, 3 + j)
    return lock


def raw_records() -> list[tuple[int, int, int]]:
    return list(struct.iter_unpack("<IHH", BOOK_DAT.read_bytes()))


def iccs_of(square16: int, mirror: bool) -> str:
    file, rank = (square16 & 15) - 3, 12 - (square16 >> 4)
    return FILES[8 - file if mirror else file] + str(rank)


def reference_probe(records: list[tuple[int, int, int]], pos: Position) -> list[tuple[str, int]]:
    """GetBookMoves (eleeye/book.cpp) over the raw records, with a linear scan."""
    board, side = pos.board_fen(), "w" if pos.turn == 0 else "b"
    for mirror in (False, True):
        key = reference_key(board, side, mirror)
        hits = [(move, weight) for lock, move, weight in records if lock == key]
        if hits:
            break
    else:
        return []
    legal = {str(m) for m in pos.legal_moves}
    found = []
    for move, weight in hits:
        text = iccs_of(move & 255, mirror) + iccs_of(move >> 8, mirror)
        if text in legal and weight >= 1:
            found.append((text, weight))
    return sorted(found, key=lambda tw: -tw[1])  # stable, as the engine's bubble sort


def opening_positions(path: Path, plies: int = 20) -> list[Position]:
    out = []
    for game in xiangqi.open_games(path):
        pos = game.board()
        for move in game.mainline_moves()[:plies]:
            out.append(pos.copy(stack=False))
            pos.push(move)
    return out


@pytest.fixture(scope="module")
def dat() -> ElephantEyeReader:
    reader = open_reader(BOOK_DAT)
    assert isinstance(reader, ElephantEyeReader)
    return reader


# -- BOOK.DAT ---------------------------------------------------------------------------------


def test_book_dat_counts(dat: ElephantEyeReader) -> None:
    records = raw_records()
    assert len(records) == 12_081 and len({r[0] for r in records}) == 10_841
    assert len(dat) == 12_081


def test_generated_key_room_is_current() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_eleeye_key.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_start_position_lists_the_engines_sixteen_moves(dat: ElephantEyeReader) -> None:
    entries = list(dat.find_all(Position()))
    listed = [(str(e.move), e.weight) for e in entries]
    assert len(listed) == 16
    assert listed[:6] == [
        ("b2e2", 1473),
        ("h2e2", 1473),
        ("c3c4", 546),
        ("g3g4", 546),
        ("c0e2", 311),
        ("g0e2", 311),
    ]
    assert listed[-2:] == [("h2c2", 2), ("b2g2", 2)]
    assert all(e.wins is None and e.draws is None and e.losses is None for e in entries)
    assert dat.find(Position()).move == Move.from_iccs("b2e2")


def test_key_matches_the_engines_definition() -> None:
    positions = opening_positions(WUKONG, plies=12)[:300]
    for pos in positions + [p.flip_horizontal() for p in positions[:50]]:
        side = "w" if pos.turn == 0 else "b"
        assert elephanteye_key(pos) == reference_key(pos.board_fen(), side), pos.fen()
    assert elephanteye_key(Position()) in {r[0] for r in raw_records()}


@pytest.mark.slow
def test_probes_agree_with_a_linear_scan_of_the_records(dat: ElephantEyeReader) -> None:
    """Every position of the first 20 plies of 151 master games, and each one's mirror
    image, probed both ways: the reader against the engine's lookup done by hand."""
    records = raw_records()
    by_lock: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    for record in records:
        by_lock[record[0]].append(record)
    positions = opening_positions(WUKONG) + opening_positions(MORE)
    hits = mirrored = 0
    for pos in positions + [p.flip_horizontal() for p in positions]:
        side = "w" if pos.turn == 0 else "b"
        direct = reference_key(pos.board_fen(), side)
        mirror = reference_key(pos.board_fen(), side, mirror=True)
        subset = by_lock.get(direct, []) + (by_lock.get(mirror, []) if mirror != direct else [])
        expected = reference_probe(subset, pos)
        got = [(str(e.move), e.weight) for e in dat.find_all(pos)]
        assert got == expected, pos.fen()
        hits += bool(got)
        mirrored += bool(got) and direct not in by_lock
    assert hits > 1000 and mirrored > 100, (hits, mirrored)


def write_dat(path: Path, records: list[tuple[int, int, int]]) -> Path:
    path.write_bytes(b"".join(struct.pack("<IHH", *r) for r in records))
    return path


def ee_move(text: str) -> int:
    """The engine's move code of ICCS text: from | to << 8 on the 16x16 board."""

    def square(name: str) -> int:
        return (12 - int(name[1])) * 16 + 3 + FILES.index(name[0])

    return square(text[:2]) | square(text[2:]) << 8


def test_illegal_moves_are_skipped_and_the_mirror_read_back(tmp_path: Path) -> None:
    start = reference_key(Position().board_fen(), "w")
    after = Position()
    after.push(Move.from_iccs("b2e2"))  # its mirror image is after h2e2
    image_key = reference_key(after.board_fen(), "b", mirror=True)
    records = sorted(
        [
            (start, ee_move("a0a5"), 50),  # the rook cannot jump its pawn: skipped
            (start, ee_move("h2e2"), 7),
            (start, ee_move("e0e1"), 5),  # legal: the king steps up
            (image_key, ee_move("h9g7"), 3),  # stored for the mirror image
            (image_key, ee_move("h7h1"), 9),  # the image's cannon down the open h-file
        ]
    )
    with open_reader(write_dat(tmp_path / "small.dat", records)) as reader:
        assert [(str(e.move), e.weight) for e in reader.find_all(Position())] == [
            ("h2e2", 7),
            ("e0e1", 5),
        ]
        got = [(str(e.move), e.weight, e.key) for e in reader.find_all(after)]
        assert got == [("b7b1", 9, image_key), ("b9c7", 3, image_key)]
        assert [str(e.move) for e in reader.find_all(after, minimum_weight=5)] == ["b7b1"]
        assert [
            str(e.move) for e in reader.find_all(after, exclude_moves={Move.from_iccs("b7b1")})
        ] == ["b9c7"]


def test_weighted_choice_walks_the_weights_in_order(dat: ElephantEyeReader) -> None:
    class Fixed:
        def __init__(self, value: int) -> None:
            self.value = value

        def randrange(self, stop: int) -> int:
            assert stop == 2 * (1473 + 546 + 311 + 89 + 42 + 37 + 18 + 2)
            return self.value

    start = Position()
    assert str(dat.weighted_choice(start, random=Fixed(0)).move) == "b2e2"
    assert str(dat.weighted_choice(start, random=Fixed(1472)).move) == "b2e2"
    assert str(dat.weighted_choice(start, random=Fixed(1473)).move) == "h2e2"
    assert str(dat.weighted_choice(start, random=Fixed(2 * 1473)).move) == "c3c4"
    assert str(dat.weighted_choice(start, random=Fixed(5035)).move) == "b2g2"
    rng = random.Random(7)
    counts = Counter(str(dat.weighted_choice(start, random=rng).move) for _ in range(20000))
    assert abs(counts["h2e2"] / 20000 - 1473 / 5036) < 0.02
    assert dat.choice(start, random=random.Random(1)).move in start.legal_moves


def test_no_entry_raises_index_error(dat: ElephantEyeReader) -> None:
    bare = Position("3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1")
    assert list(dat.find_all(bare)) == []
    assert dat.get(bare) is None
    for probe in (dat.find, dat.weighted_choice, dat.choice):
        with pytest.raises(IndexError):
            probe(bare)  # type: ignore[operator]
    with pytest.raises(TypeError, match="expected a Position"):
        dat.find_all("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")  # type: ignore[arg-type]


# -- bad books --------------------------------------------------------------------------------


def test_a_text_file_is_no_book(tmp_path: Path) -> None:
    for path in (WUKONG, ROOT / "README.md"):
        with pytest.raises(BookError, match="not an opening book") as info:
            open_reader(path)
        assert str(path) in str(info.value)
    # Text whose size is whole 8-byte records: its first record's move, bytes 4-5 ("li",
    # 0x6C -> 0x69), is off ElephantEye's board (files 3..11 of 16 are on it): no book at
    # all, rather than a damaged one.
    whole = tmp_path / "notes.dat"
    whole.write_bytes(b"# a list of openings, by hand\n".ljust(32, b"."))
    with pytest.raises(BookError, match="notes.dat' is not an opening book: .*record 0 "):
        open_reader(whole)
    empty = tmp_path / "empty.dat"
    empty.write_bytes(b"")
    with pytest.raises(BookError, match="empty"):
        open_reader(empty)
    assert issubclass(BookError, XiangqiError) and issubclass(BookError, ValueError)


def test_truncated_dat_names_the_cut_record(tmp_path: Path) -> None:
    data = BOOK_DAT.read_bytes()
    cut = tmp_path / "cut.dat"
    cut.write_bytes(data[:-3])
    with pytest.raises(BookError, match=r"cut.dat.*record 12080 is cut short after 5 bytes"):
        open_reader(cut)


def test_records_out_of_order_are_refused(tmp_path: Path) -> None:
    records = raw_records()
    records[100], records[5000] = records[5000], records[100]
    path = write_dat(tmp_path / "shuffled.dat", records)
    with pytest.raises(BookError, match=r"shuffled.dat', record 101 \(byte 808\): lock"):
        open_reader(path)


@pytest.mark.parametrize(
    ("move", "words"),
    [
        (0x0000, "points off the board"),
        (0x3CC3 | 0, "points off the board"),
        (0x4343, "does not move"),
    ],
)
def test_a_move_off_the_board_is_refused(tmp_path: Path, move: int, words: str) -> None:
    records = raw_records()[:10]
    lock, _, weight = records[7]
    records[7] = (lock, move, weight)
    path = write_dat(tmp_path / "bad.dat", records)
    with pytest.raises(BookError, match=rf"bad.dat', record 7 \(byte 56\): move .* {words}"):
        open_reader(path)


def test_closed_reader_refuses_probes() -> None:
    reader = open_reader(BOOK_DAT)
    with reader:
        pass
    with pytest.raises(BookError, match="closed"):
        list(reader.find_all(Position()))


# -- the library's own books --------------------------------------------------------------------

RESULTS = {"1-0": ("w", 1), "0-1": ("b", 1), "1/2-1/2": (None, 0)}


def count_by_hand(
    paths: list[Path], plies: int, mirror: bool = False
) -> dict[tuple[str, str], list[int]]:
    """(FEN board + side, ICCS) -> [games, wins, draws, losses of the mover]."""
    table: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for path in paths:
        for game in xiangqi.open_games(path):
            result = game.headers.get("Result", "*")
            pos = game.board()
            seen = set()
            for move in game.mainline_moves()[:plies]:
                side = "w" if pos.turn == 0 else "b"
                pairs = [(f"{pos.board_fen()} {side}", str(move))]
                if mirror:
                    image = pos.board_fen().split("/")
                    image = ["".join(reversed(_expand(r))) for r in image]
                    flipped = "/".join(_compress(r) for r in image)
                    text = str(move)
                    moved = "".join(FILES[8 - FILES.index(c)] if c in FILES else c for c in text)
                    pairs.append((f"{flipped} {side}", moved))
                for pair in pairs:
                    if pair in seen:
                        continue
                    seen.add(pair)
                    cell = table[pair]
                    cell[0] += 1
                    if result in ("1-0", "0-1"):
                        cell[1 if RESULTS[result][0] == side else 3] += 1
                    elif result == "1/2-1/2":
                        cell[2] += 1
                pos.push(move)
    return table


def _expand(rank: str) -> str:
    return "".join("." * int(c) if c.isdigit() else c for c in rank)


def _compress(cells: str) -> str:
    out, run = "", 0
    for c in cells:
        if c == ".":
            run += 1
        else:
            out += (str(run) if run else "") + c
            run = 0
    return out + (str(run) if run else "")


def stored(path: Path) -> dict[tuple[str, str], list[int]]:
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT fen, move, weight, wins, draws, losses FROM positions "
            "JOIN moves ON moves.position = positions.id"
        ).fetchall()
    return {(fen, move): [w, a, b, c] for fen, move, w, a, b, c in rows}


@pytest.mark.slow
def test_built_weights_are_the_games_counted_by_hand(tmp_path: Path) -> None:
    path = tmp_path / "wukong.xqbook"
    summary = build([WUKONG, MORE], path, plies=12)
    expected = count_by_hand([WUKONG, MORE], plies=12)
    assert stored(path) == dict(expected)
    assert summary.games == 151 and summary.entries == len(expected)
    assert summary.positions == len({fen for fen, _ in expected})
    with open_reader(path) as reader:
        assert isinstance(reader, SQLiteReader)
        entries = list(reader.find_all(Position()))
        start = f"{Position().board_fen()} w"
        by_hand = sorted(
            ((move, cell) for (fen, move), cell in expected.items() if fen == start),
            key=lambda mc: (-mc[1][0], mc[0]),
        )
        assert [(str(e.move), [e.weight, e.wins, e.draws, e.losses]) for e in entries] == [
            (m, c) for m, c in by_hand
        ]
        assert sum(e.weight for e in entries) == 151  # every game starts from the start


@pytest.mark.slow
def test_wins_draws_and_losses_are_the_movers(tmp_path: Path) -> None:
    """The 120 CCPD master games carry results (37 won by Red, 41 by Black, 42 drawn)."""
    masters = sorted((GAMES / "ccpd-big5").glob("master-*.pgn"))
    path = tmp_path / "ccpd.xqbook"
    build(masters, path, plies=16)
    expected = count_by_hand(masters, plies=16)
    assert stored(path) == dict(expected)
    start = [cell for (fen, _), cell in expected.items() if fen == f"{Position().board_fen()} w"]
    assert [sum(c[i] for c in start) for i in range(4)] == [120, 37, 42, 41]


def test_min_games_and_game_objects(tmp_path: Path) -> None:
    games = list(xiangqi.open_games(WUKONG))
    path = tmp_path / "min3.xqbook"
    build(games, path, plies=8, min_games=3)
    expected = {k: v for k, v in count_by_hand([WUKONG], plies=8).items() if v[0] >= 3}
    assert stored(path) == expected and expected


@pytest.mark.slow
def test_mirror_merges_each_position_with_its_image(tmp_path: Path) -> None:
    path = tmp_path / "mirror.xqbook"
    build([WUKONG], path, plies=6, mirror=True)
    expected = count_by_hand([WUKONG], plies=6, mirror=True)
    assert stored(path) == dict(expected)
    plain = count_by_hand([WUKONG], plies=1)
    start = f"{Position().board_fen()} w"
    h2e2, b2e2 = plain[(start, "h2e2")][0], plain.get((start, "b2e2"), [0])[0]
    with open_reader(path) as reader:
        weights = {str(e.move): e.weight for e in reader.find_all(Position())}
        assert weights["h2e2"] == weights["b2e2"] == h2e2 + b2e2
        assert reader.meta["mirror"] == "1"  # type: ignore[attr-defined]


def test_bad_build_arguments_write_nothing(tmp_path: Path) -> None:
    path = tmp_path / "never.xqbook"
    for kwargs, error in (
        ({"plies": 0}, ValueError),
        ({"plies": "3"}, TypeError),
        ({"min_games": 0}, ValueError),
        ({"mirror": 1}, TypeError),
    ):
        with pytest.raises(error):
            build([WUKONG], path, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        build(42, path)  # type: ignore[arg-type]
    assert os.listdir(tmp_path) == []


def test_output_that_is_an_input_or_a_user_file_is_kept(tmp_path: Path) -> None:
    pgn = tmp_path / "games.pgn"
    pgn.write_bytes(WUKONG.read_bytes())
    with pytest.raises(OutputFileError, match="also the input"):
        build([pgn], pgn)
    assert pgn.read_bytes() == WUKONG.read_bytes()
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    with pytest.raises(BookError, match="not a xiangqi book: refusing to replace it"):
        build([WUKONG], notes)
    assert notes.read_text() == "mine"
    assert sorted(os.listdir(tmp_path)) == ["games.pgn", "notes.txt"]


def test_a_failed_build_leaves_the_old_book(tmp_path: Path) -> None:
    path = tmp_path / "book.xqbook"
    build([WUKONG], path, plies=4)
    before = path.read_bytes()

    def games():  # type: ignore[no-untyped-def]
        yield from xiangqi.open_games(MORE)
        raise OSError("disk gone")

    with pytest.raises(OSError, match="disk gone"):
        build(games(), path)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["book.xqbook"]
    build([MORE], path, plies=4)  # a book of the library's own may be replaced
    assert path.read_bytes() != before


def _tampered(tmp_path: Path, sql: str, *args: object) -> Path:
    path = tmp_path / "t.xqbook"
    if not path.exists():
        build([WUKONG], path, plies=4)
    with sqlite3.connect(path) as db:
        db.execute(sql, args)
    return path


def test_a_book_keyed_for_another_position_set_is_refused(tmp_path: Path) -> None:
    path = _tampered(tmp_path, "UPDATE book SET value = 'polyglot' WHERE name = 'key'")
    with pytest.raises(BookError, match="keyed by 'polyglot'.*another position set"):
        open_reader(path)
    path = _tampered(tmp_path, "UPDATE book SET value = ? WHERE name = 'key'", "zobrist-splitmix64")
    _tampered(tmp_path, "UPDATE positions SET key = key + 1 WHERE id = 1")
    with pytest.raises(BookError, match=r"t.xqbook.*positions row 1: key .* another position set"):
        open_reader(path)


def test_a_stored_position_under_the_wrong_key_is_refused(tmp_path: Path) -> None:
    start = Position()
    path = _tampered(tmp_path, "SELECT 1")
    with sqlite3.connect(path) as db:
        db.execute(
            "UPDATE positions SET fen = (SELECT fen FROM positions WHERE fen != ? LIMIT 1) "
            "WHERE fen = ?",
            (f"{start.board_fen()} w",) * 2,
        )
    with pytest.raises(BookError, match="another position set"):
        with open_reader(path) as reader:
            list(reader.find_all(start))


@pytest.mark.parametrize(
    ("move", "words"),
    [
        ("j9a0", "not a move on the board"),
        ("a0a0", "not a move on the board"),
        ("a0a5", "not legal"),
    ],
)
def test_a_moves_field_off_the_board_names_the_row(tmp_path: Path, move: str, words: str) -> None:
    path = _tampered(tmp_path, "SELECT 1")
    with sqlite3.connect(path) as db:
        (row,) = db.execute(
            "SELECT moves.id FROM moves JOIN positions ON positions.id = moves.position "
            "WHERE fen = ? AND move = 'h2e2'",
            (f"{Position().board_fen()} w",),
        ).fetchone()
        db.execute("UPDATE moves SET move = ? WHERE id = ?", (move, row))
    with (
        open_reader(path) as reader,
        pytest.raises(BookError, match=rf"moves row {row}: .*{words}"),
    ):
        list(reader.find_all(Position()))


def test_an_sqlite_file_that_is_no_book(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE t (x)")
    with pytest.raises(BookError, match="not a xiangqi book: no table book, moves, positions"):
        open_reader(path)
    broken = tmp_path / "broken.sqlite3"
    broken.write_bytes(b"SQLite format 3\x00" + b"\xff" * 200)
    with pytest.raises(BookError, match="broken.sqlite3"):
        open_reader(broken)


# -- the command line -------------------------------------------------------------------------


def run(*args: str) -> subprocess.CompletedProcess[str]:
    # The xiangqi this test imports (a checkout's build, or the installed wheel when the
    # sdist's tests run against it), from a directory that holds no other xiangqi.
    env = {**os.environ, "PYTHONPATH": str(Path(xiangqi.__file__).resolve().parent.parent)}
    return subprocess.run(
        [sys.executable, "-m", "xiangqi", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=tempfile.gettempdir(),
    )


@pytest.mark.slow
def test_cli_builds_and_probes(tmp_path: Path) -> None:
    path = tmp_path / "cli.xqbook"
    out = run("book", "build", str(WUKONG), str(MORE), "-o", str(path), "--plies", "10")
    assert out.returncode == 0, out.stderr
    assert "151 games, 1510 plies read" in out.stdout and str(path) in out.stdout
    probe = run("book", "probe", str(path))
    assert probe.returncode == 0, probe.stderr
    lines = probe.stdout.splitlines()
    assert lines[1].split() == ["move", "wxf", "weight", "share", "won", "drawn", "lost"]
    assert lines[2].split()[:2] == ["h2e2", "C2.5"]
    dat = run(
        "book",
        "probe",
        str(BOOK_DAT),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR",
        "b",
    )
    assert dat.returncode == 0 and dat.stdout.splitlines()[2].split()[:3] == ["h9g7", "H8+7", "761"]
    none = run("book", "probe", str(BOOK_DAT), "3k5/9/9/9/9/9/9/9/4A4/4K4 w")
    assert none.returncode == 1 and "no book moves" in none.stdout


def test_cli_refuses_bad_books_and_outputs(tmp_path: Path) -> None:
    out = run("book", "probe", str(WUKONG))
    assert out.returncode == 2 and "not an opening book" in out.stderr
    assert "Traceback" not in out.stderr
    copy = tmp_path / "g.pgn"
    copy.write_bytes(WUKONG.read_bytes())
    out = run("book", "build", str(copy), "-o", str(copy))
    assert out.returncode == 2 and "also the input" in out.stderr
    assert copy.read_bytes() == WUKONG.read_bytes()
    out = run("book", "build", str(copy), "-o", str(tmp_path / "b"), "--plies", "0")
    assert out.returncode == 2 and "must be at least 1" in out.stderr


# -- the compiled boundary and arbitrary files ------------------------------------------------


def test_core_boundary_takes_junk_safely() -> None:
    from xiangqi import _core

    board = Position()._board
    codes = b"".join(
        c.to_bytes(2, "little")
        for c in (7 * 90 + 4, 0xFFFF, 8100, 5 * 90 + 5, 1 * 90 + 20, 0 * 90 + 45)
    )
    # h0 -> e0 (a horse cannot), junk, 8100, f0 -> f0, b0 -> c2 (legal), a0 -> a5 (jumps)
    assert _core.legal_flags(board, codes) == bytes([0, 0, 0, 0, 1, 0])
    with pytest.raises(ValueError, match="2 bytes per move"):
        _core.legal_flags(board, b"\x01")
    with pytest.raises(TypeError):
        _core.legal_flags(board, bytearray(codes))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        _core.elephanteye_locks(None)  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400))
def test_any_bytes_open_as_a_book_or_raise_book_error(tmp_path_factory: Any, data: bytes) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "any.bin"
    path.write_bytes(data)
    try:
        reader = open_reader(path)
    except BookError:
        return
    with reader:
        for pos in (Position(), Position("3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1")):
            for entry in reader.find_all(pos):
                assert entry.move in pos.legal_moves


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([0, 1]),  # the start position's lock, or its Black-to-move one
            st.integers(0, 89),
            st.integers(0, 89),
            st.integers(0, 3),
        ),
        max_size=30,
    )
)
def test_generated_dat_books_yield_only_legal_moves(
    tmp_path_factory: Any, rows: list[tuple[int, int, int, int]]
) -> None:
    """Records with any on-board squares for the start position (either side to move):
    the reader yields exactly the legal ones of weight >= 1, heaviest first."""
    board = Position().board_fen()
    locks = [reference_key(board, "w"), reference_key(board, "b")]

    def sq16(square: int) -> int:
        return (12 - square // 9) * 16 + 3 + square % 9

    records = sorted(
        (locks[side], sq16(frm) | sq16(to) << 8, weight)
        for side, frm, to, weight in rows
        if frm != to
    )
    path = tmp_path_factory.mktemp("dat") / "gen.dat"
    write_dat(path, records)
    if not records:
        with pytest.raises(BookError, match="empty"):
            open_reader(path)
        return
    with open_reader(path) as reader:
        for fen_side in ("w", "b"):
            pos = Position(f"{board} {fen_side} - - 0 1")
            expected = reference_probe(records, pos)
            assert [(str(e.move), e.weight) for e in reader.find_all(pos)] == expected
