"""Opening books from files nobody vouches for: devices and pipes that never end, SQLite
books whose constraints were dropped, books in WAL mode, folders a build cannot write in,
hand-made games a build cannot play, closed readers.

Expected values come from outside the code under test: SQLite's file format (header bytes
18 and 19: 1 for a rollback journal, 2 for WAL; sqlite.org/fileformat.html), the side files
SQLite names ``-wal`` and ``-shm``, moves counted by hand from the start position.
"""

from __future__ import annotations

import errno
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

import xiangqi
import xiangqi.book
from xiangqi import Move, Position
from xiangqi.book import BookError, ElephantEyeReader, SQLiteReader, build, open_reader
from xiangqi.pgn import Game

DATA = Path(__file__).parent / "data"
BOOK_DAT = DATA / "books" / "BOOK.DAT"
WUKONG = DATA / "games" / "wukong" / "wukong_iccs.pgn"


#: Address space a child process may take: a reader without a cap on what it reads (an
#: endless device) fails there with MemoryError instead of taking the machine's memory.
CHILD_MEMORY = 1 << 31


#: AddressSanitizer (scripts/sanitize.sh preloads it) reserves terabytes of address space for
#: its shadow memory, so under it the cap cannot be set; the other checks still run.
UNDER_ASAN = "libasan" in os.environ.get("LD_PRELOAD", "")


def limit_memory() -> None:
    if not UNDER_ASAN:
        resource.setrlimit(resource.RLIMIT_AS, (CHILD_MEMORY, CHILD_MEMORY))


def run_python(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(Path(xiangqi.__file__).resolve().parent.parent)}
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=tempfile.gettempdir(),
        timeout=timeout,
        preexec_fn=limit_memory,  # noqa: PLW1509 -- no threads of ours run in the child
    )


def run_cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return run_python("-m", "xiangqi", *args, timeout=timeout)


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("book") / "small.xqbook"
    build([WUKONG], path, plies=6)
    return path


# -- devices and endless pipes ---------------------------------------------------------


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_a_device_is_refused_unread() -> None:
    # In a child process with little memory: a reader that reads on fails, not the machine.
    for opener in ("open_reader", "ElephantEyeReader"):
        code = (
            "from xiangqi.book import BookError, ElephantEyeReader, open_reader\n"
            f"try:\n    {opener}('/dev/zero')\nexcept BookError as e:\n    print(e)"
        )
        out = run_python("-c", code, timeout=30)
        assert out.returncode == 0, out.stderr[-300:]
        assert "'/dev/zero' is a device" in out.stdout
    out = run_cli("book", "probe", "/dev/zero", timeout=30)
    assert out.returncode == 2 and "device" in out.stderr and "Traceback" not in out.stderr


def test_a_pipe_that_never_ends_is_refused_at_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(xiangqi.book, "MAX_DAT_BYTES", 64 * 1024)
    read_end, write_end = os.pipe()

    def writer() -> None:  # 16 MiB at most, so that a reader without a cap still ends
        try:
            for _ in range(256):
                os.write(write_end, bytes(64 * 1024))
        except OSError:  # the reader closed its end: BrokenPipeError
            pass
        finally:
            os.close(write_end)

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        with pytest.raises(BookError, match="MAX_DAT_BYTES"):
            open_reader(f"/dev/fd/{read_end}")
    finally:
        os.close(read_end)
        thread.join(timeout=30)
    assert not thread.is_alive()


def test_a_dat_file_over_the_cap_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    size = BOOK_DAT.stat().st_size
    monkeypatch.setattr(xiangqi.book, "MAX_DAT_BYTES", size - 8)
    for opener in (open_reader, ElephantEyeReader):
        with pytest.raises(BookError, match="MAX_DAT_BYTES"):
            opener(BOOK_DAT)
    monkeypatch.setattr(xiangqi.book, "MAX_DAT_BYTES", size)  # exactly the cap: read
    with open_reader(BOOK_DAT) as reader:
        assert len(reader) == size // 8


# -- SQLite books whose schema is not the format's -------------------------------------

MOVES_WITHOUT_UNIQUE = """
CREATE TABLE m2 (id INTEGER PRIMARY KEY, position INTEGER NOT NULL REFERENCES positions (id),
    move TEXT NOT NULL, weight INTEGER NOT NULL, wins INTEGER NOT NULL, draws INTEGER NOT NULL,
    losses INTEGER NOT NULL);
INSERT INTO m2 SELECT * FROM moves;
DROP TABLE moves;
ALTER TABLE m2 RENAME TO moves;
INSERT INTO moves (position, move, weight, wins, draws, losses)
    SELECT position, move, weight, wins, draws, losses FROM moves WHERE id = 1;
"""

POSITIONS_WITHOUT_UNIQUE = """
CREATE TABLE p2 (id INTEGER PRIMARY KEY, key INTEGER NOT NULL, fen TEXT NOT NULL);
INSERT INTO p2 SELECT * FROM positions;
DROP TABLE positions;
ALTER TABLE p2 RENAME TO positions;
"""


@pytest.mark.parametrize(
    ("script", "table"),
    [(MOVES_WITHOUT_UNIQUE, "moves"), (POSITIONS_WITHOUT_UNIQUE, "positions")],
)
def test_a_book_whose_unique_constraints_were_dropped_is_refused(
    book: Path, tmp_path: Path, script: str, table: str
) -> None:
    damaged = tmp_path / "damaged.xqbook"
    shutil.copyfile(book, damaged)
    db = sqlite3.connect(damaged)
    db.executescript(script)
    db.commit()
    db.close()
    with pytest.raises(BookError, match=f"table {table} lacks the format's UNIQUE"):
        open_reader(damaged)


def test_a_book_with_an_index_of_its_users_still_reads(book: Path, tmp_path: Path) -> None:
    indexed = tmp_path / "indexed.xqbook"
    shutil.copyfile(book, indexed)
    db = sqlite3.connect(indexed)
    db.execute("CREATE INDEX by_weight ON moves (weight)")
    db.commit()
    db.close()
    with open_reader(indexed) as reader, open_reader(book) as original:
        assert list(reader.find_all(Position())) == list(original.find_all(Position()))


# -- WAL mode: no side files -----------------------------------------------------------


def test_reading_a_wal_book_makes_no_side_files(book: Path, tmp_path: Path) -> None:
    wal = tmp_path / "wal.xqbook"
    shutil.copyfile(book, wal)
    db = sqlite3.connect(wal)
    assert db.execute("PRAGMA journal_mode = WAL").fetchone() == ("wal",)
    db.close()  # the last connection merges the log and removes the side files
    assert wal.read_bytes()[18:20] == b"\x02\x02"  # WAL mode, in the file's header
    assert sorted(os.listdir(tmp_path)) == ["wal.xqbook"]
    with open_reader(wal) as reader:
        assert isinstance(reader, SQLiteReader)
        assert len(list(reader.find_all(Position()))) > 0
        assert sorted(os.listdir(tmp_path)) == ["wal.xqbook"]
    assert sorted(os.listdir(tmp_path)) == ["wal.xqbook"]


def test_a_wal_book_with_unmerged_writes_is_refused(book: Path, tmp_path: Path) -> None:
    wal = tmp_path / "wal.xqbook"
    shutil.copyfile(book, wal)
    db = sqlite3.connect(wal)
    try:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("INSERT INTO book VALUES ('note', 'written after')")
        db.commit()  # in the -wal file, not yet in the book's own file
        assert os.path.getsize(f"{wal}-wal") > 0
        with pytest.raises(BookError, match="WAL"):
            open_reader(wal)
    finally:
        db.close()


def test_a_built_book_is_in_rollback_journal_mode(book: Path) -> None:
    # a guard: build never leaves a book in WAL mode (header bytes 18, 19 = 1)
    assert book.read_bytes()[18:20] == b"\x01\x01"


# -- build: an unwritable folder, hand-made games ------------------------------------


def test_a_folder_the_book_cannot_be_written_in_is_refused_before_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As root no folder is read-only to os.access: stand in for a read-only one.
    real_access = os.access
    folder = tmp_path / "ro"
    folder.mkdir()

    def access(path: object, mode: int, **kwargs: object) -> bool:
        if os.fspath(path) == str(folder) and mode & os.W_OK:  # type: ignore[arg-type]
            return False
        return real_access(path, mode, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "access", access)
    seen: list[int] = []
    with pytest.raises(BookError, match="not writable"):
        build([WUKONG], folder / "b.xqbook", progress=lambda games, plies: seen.append(games))
    assert seen == []  # refused before the first game was read
    assert os.listdir(folder) == []


def test_a_temporary_file_that_cannot_be_made_is_a_book_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_open = os.open

    def refuse(path: str, flags: int, mode: int = 0o777, **kwargs: object) -> int:
        if str(path).endswith(".part"):  # the temporary file beside the book
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
        return real_open(path, flags, mode, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", refuse)
    target = tmp_path / "b.xqbook"
    with pytest.raises(BookError, match="b.xqbook") as caught:
        build([WUKONG], target, plies=2)
    assert isinstance(caught.value.__cause__, PermissionError)
    assert os.listdir(tmp_path) == []


def hand_made_game(fen: str | None) -> Game:
    game = Game()
    node = game
    for iccs in ("h2e2", "h9g7", "b0c2"):  # legal from the start position
        node = node.add_main_variation(Move.from_iccs(iccs))
    if fen is not None:
        game.tags["FEN"] = fen  # edited by hand, after the moves
    return game


def test_a_hand_edited_game_counts_up_to_its_first_illegal_move(tmp_path: Path) -> None:
    # The start with Red's b0 horse taken off: h2e2 and h9g7 are legal, b0c2 is not.
    no_horse = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/R1BAKABNR w - - 0 1"
    summary = build([hand_made_game(None), hand_made_game(no_horse)], tmp_path / "b.xqbook")
    assert (summary.games, summary.plies, summary.bad_games) == (2, 3 + 2, 1)
    assert summary.first_errors[0].startswith("game 2: move 3 (b0c2) is illegal")
    with open_reader(tmp_path / "b.xqbook") as reader:
        [entry] = reader.find_all(Position())
        assert (entry.move, entry.weight) == (Move.from_iccs("h2e2"), 1)
        after = Position(no_horse)
        after.push(Move.from_iccs("h2e2"))
        [entry] = reader.find_all(after)
        assert (entry.move, entry.weight) == (Move.from_iccs("h9g7"), 1)


def test_a_hand_edited_game_whose_fen_reads_as_nothing_counts_no_ply(tmp_path: Path) -> None:
    summary = build([hand_made_game("not a fen"), hand_made_game(None)], tmp_path / "b.xqbook")
    assert (summary.games, summary.plies, summary.bad_games) == (2, 3, 1)
    assert summary.first_errors[0].startswith("game 1: FEN tag: ")


# -- closed readers, the CLI ---------------------------------------------------------------


@pytest.mark.parametrize("kind", ["dat", "sqlite"])
def test_len_of_a_closed_reader_is_a_book_error(kind: str, book: Path) -> None:
    reader = open_reader(BOOK_DAT if kind == "dat" else book)
    assert len(reader) > 0
    reader.close()
    with pytest.raises(BookError, match="closed"):
        len(reader)


def test_book_probe_without_arguments_asks_for_the_file_only() -> None:
    out = run_cli("book", "probe")
    assert out.returncode == 2
    assert "FILE" in out.stderr and "FEN" not in out.stderr
