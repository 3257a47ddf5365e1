"""Opening books under hostile use: threads closing a reader under a probe, books read
through pipes and from non-UTF-8 paths, damaged SQLite files, records with a pass, the
book's file written the house's way (its mode kept, a full disk, a FIFO target) and bad
arguments to the probes.

Expected values come from outside the code under test: the entry count of ElephantEye's
BOOK.DAT from its size (8-byte records, tests/data/books/README.md), the moves a game
plays counted by hand, the file modes from the umask and chmod, SQLite's own reading of
the tables.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

import xiangqi
from xiangqi import Move, Position
from xiangqi.book import BookError, ElephantEyeReader, SQLiteReader, build, open_reader
from xiangqi.errors import OutputFileError

DATA = Path(__file__).parent / "data"
BOOK_DAT = DATA / "books" / "BOOK.DAT"
WUKONG = DATA / "games" / "wukong" / "wukong_iccs.pgn"
MORE = DATA / "games" / "wukong_more" / "wukong_more_iccs.pgn"
#: ElephantEye's record: uint32 lock, uint16 move, uint16 weight (book.h).
RECORD_SIZE = 8
START = Position()


def run_cli(*args: str | bytes, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    # Strict UTF-8 output, as under a UTF-8 locale: a name that is not UTF-8 must still print.
    env = {
        **os.environ,
        "PYTHONPATH": str(Path(xiangqi.__file__).resolve().parent.parent),
        "PYTHONIOENCODING": "utf-8:strict",
    }
    return subprocess.run(
        [sys.executable, "-m", "xiangqi", *args],
        capture_output=True,
        text=True,
        errors="replace",
        env=env,
        cwd=tempfile.gettempdir(),
        timeout=timeout,
    )


@pytest.fixture(scope="module")
def small_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("book") / "small.xqbook"
    build([WUKONG], path, plies=12)
    return path


# -- threads: close() under a running probe ------------------------------------------------

_RACE = r"""
import sys, threading, random
from xiangqi import Position
from xiangqi.book import BookError, open_reader

path, rounds = sys.argv[1], int(sys.argv[2])
# Many distinct positions, so that probes miss the reader's cache and reach SQLite.
positions = []
for first in Position().legal_moves():
    pos = Position()
    pos.push(first)
    for second in pos.legal_moves():
        p = Position()
        p.push(first)
        p.push(second)
        positions.append(p)
wrong = []
for n in range(rounds):
    reader = open_reader(path)
    expected = None
    started = threading.Event()

    def probe():
        started.set()
        for pos in positions:
            try:
                list(reader.find_all(pos))
            except BookError as exc:
                if "closed" not in str(exc):
                    wrong.append(repr(exc))
                return
        # every probe done before close(): fine too

    thread = threading.Thread(target=probe)
    thread.start()
    started.wait(5)
    for _ in range(random.Random(n).randrange(50)):
        pass
    reader.close()
    thread.join(10)
    assert not thread.is_alive(), "a probe hung after close()"
print("ok", len(wrong), wrong[:3])
"""


def test_closing_an_sqlite_reader_under_a_probe_waits_for_it(small_book: Path) -> None:
    """Old code closed the connection under a running statement: SIGSEGV (the child's
    return code -11). Run in a child, so a crash fails this test instead of the session."""
    done = subprocess.run(
        [sys.executable, "-c", _RACE, str(small_book), "60"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(Path(xiangqi.__file__).resolve().parent.parent)},
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert done.stdout.startswith("ok 0 "), done.stdout


@pytest.mark.parametrize("kind", ["sqlite", "dat"])
def test_a_probe_in_progress_finishes_and_later_probes_raise(kind: str, small_book: Path) -> None:
    """close() called from another thread while a probe is inside the reader: the probe's
    answer is whole (the same as an unclosed reader's), the next probe raises BookError."""
    path = small_book if kind == "sqlite" else BOOK_DAT
    with open_reader(path) as fresh:
        expected = list(fresh.find_all(START))
    assert expected
    reader = open_reader(path)
    import xiangqi.book as book

    closer = threading.Thread(target=reader.close)
    real = book.legal_flags if kind == "dat" else reader._entries  # type: ignore[attr-defined]

    def closing_midway(*args: object) -> object:
        closer.start()  # close() from another thread while this probe is inside the reader
        closer.join(0.5)  # the SQLite reader's close() waits for the lock: still alive
        return real(*args)

    if kind == "dat":
        book.legal_flags = closing_midway  # type: ignore[assignment]
    else:
        reader._entries = closing_midway  # type: ignore[attr-defined, method-assign]
    try:
        got = list(reader.find_all(START))
    finally:
        if kind == "dat":
            book.legal_flags = real  # type: ignore[assignment]
    closer.join(10)
    assert not closer.is_alive()
    assert got == expected
    with pytest.raises(BookError, match="closed"):
        list(reader.find_all(START))


# -- a .dat book through a pipe --------------------------------------------------------------


def _feed(fd: int, data: bytes) -> threading.Thread:
    def write() -> None:
        with open(fd, "wb") as out:
            out.write(data)

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


def test_a_dat_book_through_a_pipe_keeps_every_record() -> None:
    data = BOOK_DAT.read_bytes()
    assert len(data) % RECORD_SIZE == 0
    read_end, write_end = os.pipe()
    writer = _feed(write_end, data)
    try:
        with open_reader(f"/dev/fd/{read_end}") as reader:
            assert isinstance(reader, ElephantEyeReader)
            assert len(reader) == len(data) // RECORD_SIZE == 12081
            with open_reader(BOOK_DAT) as direct:
                assert list(reader.find_all(START)) == list(direct.find_all(START))
    finally:
        os.close(read_end)
        writer.join(10)
    assert not writer.is_alive()


def test_a_dat_book_through_a_fifo_in_the_cli(tmp_path: Path) -> None:
    fifo = tmp_path / "book.fifo"
    os.mkfifo(fifo)
    data = BOOK_DAT.read_bytes()

    def write() -> None:
        with open(fifo, "wb") as out:
            out.write(data)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    out = run_cli("book", "probe", str(fifo), timeout=60)
    writer.join(10)
    assert out.returncode == 0, out.stderr
    assert f"({len(data) // RECORD_SIZE} entries)" in out.stdout


def test_an_sqlite_book_through_a_pipe_is_refused_clearly(small_book: Path) -> None:
    read_end, write_end = os.pipe()
    writer = _feed(write_end, small_book.read_bytes())
    try:
        with pytest.raises(BookError, match="not a regular file"):
            open_reader(f"/dev/fd/{read_end}")
    finally:
        os.close(read_end)
        writer.join(10)


# -- a pass in a record ------------------------------------------------------------------------

PASS_PGN = """[Event "with a pass"]
[Result "1-0"]

1. h2e2 h9g7 2. -- b9c7 3. h0g2 1-0

[Event "plain"]
[Result "0-1"]

1. h2e2 b9c7 0-1
"""


@pytest.mark.parametrize("mirror", [False, True])
def test_a_pass_ends_the_game_for_the_book(tmp_path: Path, mirror: bool) -> None:
    games = tmp_path / "pass.pgn"
    games.write_text(PASS_PGN, encoding="utf-8")
    path = tmp_path / "pass.xqbook"
    build([games], path, plies=10, mirror=mirror)
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT positions.fen, moves.move, moves.weight FROM moves "
            "JOIN positions ON positions.id = moves.position"
        ).fetchall()
        fens = [fen for (fen,) in db.execute("SELECT fen FROM positions")]
    db.close()
    # By hand: game 1 counts h2e2 (start) and h9g7 (after h2e2), then stops at its pass;
    # game 2 counts h2e2 and b9c7. Mirrored, each has its image too (h2e2 <-> b2e2,
    # h9g7 <-> b9c7 after the mirrored first move).
    moves = sorted((move, weight) for _fen, move, weight in rows)
    if mirror:
        expected = [("b2e2", 2), ("b9c7", 1), ("b9c7", 1), ("h2e2", 2), ("h9g7", 1), ("h9g7", 1)]
    else:
        expected = [("b9c7", 1), ("h2e2", 2), ("h9g7", 1)]
    assert moves == expected
    with open_reader(path) as reader:
        for fen in fens:  # every stored position reads back
            pos = Position(fen + " - - 0 1")
            assert list(reader.find_all(pos))


# -- the book file: mode, full disk, FIFO -------------------------------------------------------


def test_a_new_book_gets_the_umask_mode_and_a_rebuild_keeps_the_old(tmp_path: Path) -> None:
    path = tmp_path / "mode.xqbook"
    old = os.umask(0o022)
    try:
        build([WUKONG], path, plies=2)
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    path.chmod(0o640)
    build([WUKONG], path, plies=3)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(os.listdir(tmp_path)) == ["mode.xqbook"]


def test_a_fifo_target_is_refused_without_hanging(tmp_path: Path) -> None:
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    out = run_cli("book", "build", str(WUKONG), "-o", str(fifo), timeout=30)
    assert out.returncode == 2, out.stderr
    assert out.stderr.startswith("xiangqi: error:") and "FIFO" in out.stderr
    assert "Traceback" not in out.stderr
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert sorted(os.listdir(tmp_path)) == ["out.fifo"]
    with pytest.raises(OutputFileError, match="FIFO"):
        build([WUKONG], fifo)


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Path:
    """A 64 KiB tmpfs (needs root and mount); skipped where it cannot be mounted."""
    folder = tmp_path / "tiny"
    folder.mkdir()
    if shutil.which("mount") is None:
        pytest.skip("no mount command to make a small file system")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a 64 KiB tmpfs: {done.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], capture_output=True)


@pytest.mark.slow
def test_a_full_disk_keeps_the_old_book(tiny_disk: Path) -> None:
    path = tiny_disk / "book.xqbook"
    build([WUKONG], path, plies=1)  # small: a few pages
    before = path.read_bytes()
    out = run_cli("book", "build", str(WUKONG), str(MORE), "-o", str(path), "--plies", "40")
    assert out.returncode == 2, out.stderr
    lines = out.stderr.splitlines()
    assert lines[-1].startswith("xiangqi: error:") and "Traceback" not in out.stderr
    assert str(path) in lines[-1]
    assert path.read_bytes() == before
    assert os.listdir(tiny_disk) == ["book.xqbook"]


# -- paths that are not UTF-8 ---------------------------------------------------------------


@pytest.mark.slow
def test_books_under_a_non_utf8_name(tmp_path: Path) -> None:
    raw = os.fsencode(tmp_path) + b"/\xff\xfe book \xe9.xqbook"
    name = os.fsdecode(raw)  # surrogate escapes, as sys.argv holds such a name
    build([WUKONG], name, plies=4)
    assert os.path.exists(raw)
    with open_reader(name) as reader:
        assert isinstance(reader, SQLiteReader)
        assert reader.find(START).move == Move.from_iccs("h2e2")
    dat = os.fsdecode(os.fsencode(tmp_path) + b"/\xff.dat")
    shutil.copyfile(BOOK_DAT, dat)
    with open_reader(dat) as reader:
        assert len(reader) == BOOK_DAT.stat().st_size // RECORD_SIZE
    out = run_cli("book", "probe", raw)
    assert out.returncode == 0, out.stderr
    assert "h2e2" in out.stdout and "\\udcff\\udcfe book" in out.stdout
    again = os.fsencode(tmp_path) + b"/\xfe.xqbook"
    out = run_cli("book", "build", str(WUKONG), "-o", again, "--plies", "2")
    assert out.returncode == 0, out.stderr
    assert "\\udcfe.xqbook" in out.stdout and os.path.exists(again)


# -- a damaged schema -------------------------------------------------------------------------


def test_a_damaged_schema_is_a_book_error_naming_the_file(small_book: Path, tmp_path: Path) -> None:
    data = bytearray(small_book.read_bytes())
    at = data.find(b"CREATE TABLE book (name TEXT")
    assert at > 0  # the schema's text, stored in sqlite_master on page 1
    # "CREATE <bytes> book": SQLite's message quotes the bytes near its syntax error
    data[at + 7 : at + 12] = b"\xff\xfe\xfd\xfc\xfb"
    damaged = tmp_path / "damaged.xqbook"
    damaged.write_bytes(bytes(data))
    with pytest.raises(BookError, match="damaged.xqbook"):
        open_reader(damaged)
    out = run_cli("book", "probe", str(damaged))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.startswith("xiangqi: error:") and "damaged.xqbook" in out.stderr


# -- bad arguments ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["sqlite", "dat"])
@pytest.mark.parametrize(
    "exclude", [Move.from_iccs("h2e2"), Move.null(), "h2e2", 7, ["h2e2"]], ids=repr
)
def test_exclude_moves_takes_moves_only(kind: str, exclude: object, small_book: Path) -> None:
    with open_reader(small_book if kind == "sqlite" else BOOK_DAT) as reader:
        for call in (
            lambda: list(reader.find_all(START, exclude_moves=exclude)),  # type: ignore[arg-type]
            lambda: reader.find(START, exclude_moves=exclude),  # type: ignore[arg-type]
            lambda: reader.weighted_choice(START, exclude_moves=exclude),  # type: ignore[arg-type]
        ):
            with pytest.raises(TypeError, match="exclude_moves"):
                call()
        kept = [e.move for e in reader.find_all(START, exclude_moves={Move.from_iccs("h2e2")})]
        assert kept and Move.from_iccs("h2e2") not in kept


class Fixed:
    """A random whose randrange returns a fixed value, whatever stop is."""

    def __init__(self, value: object) -> None:
        self.value = value

    def randrange(self, stop: int) -> object:
        return self.value


@pytest.mark.parametrize("value", [-1, "total", 0.5, True, None], ids=repr)
def test_a_random_that_draws_out_of_range_is_a_value_error(value: object) -> None:
    with open_reader(BOOK_DAT) as reader:
        total = sum(e.weight for e in reader.find_all(START))
        draw = total if value == "total" else value
        with pytest.raises(ValueError, match="random"):
            reader.weighted_choice(START, random=Fixed(draw))  # type: ignore[arg-type]
        count = len(list(reader.find_all(START)))
        with pytest.raises(ValueError, match="random"):
            reader.choice(START, random=Fixed(count if value == "total" else draw))  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="random"):
            reader.weighted_choice(START, random=0.5)  # type: ignore[arg-type]
        # in range: the engine's walk (the first entry whose running weight passes it)
        assert reader.weighted_choice(START, random=Fixed(total - 1)).weight == 2


# -- records with errors -------------------------------------------------------------------

BAD_PGN = """[Event "good"]
[Result "1-0"]

1. h2e2 h9g7 1-0

[Event "bad"]
[Result "0-1"]

1. h2e2 h9h1 2. h0g2 0-1

[Event "good too"]
[Result "1/2-1/2"]

1. b2e2 1/2-1/2
"""


def test_build_reports_games_with_errors(tmp_path: Path) -> None:
    games = tmp_path / "bad.pgn"
    games.write_text(BAD_PGN, encoding="utf-8")
    summary = build([games], tmp_path / "b.xqbook", plies=10)
    assert (summary.games, summary.bad_games, summary.plies) == (3, 1, 4)  # h9h1 is illegal
    assert len(summary.first_errors) == 1
    assert summary.first_errors[0].startswith(f"{games}, game 2: ")
    out = run_cli("book", "build", str(games), "-o", str(tmp_path / "c.xqbook"))
    assert out.returncode == 0, out.stderr
    assert "1 game had errors" in out.stderr and f"{games}, game 2:" in out.stderr
