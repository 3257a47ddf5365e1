"""Users' input files opened one way (xiangqi._files.open_input): the open never waits for a
FIFO's writer, a directory is an IsADirectoryError naming its path, and a file that must be
regular is checked on the open file. Every reader by path uses it: game records, opening
books, puzzle files, a match's inputs.

Each "no hang" case runs in a child process with a timeout: a blocking open of a FIFO with
no writer would wait forever, so the test fails by the timeout instead of hanging.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from xiangqi._files import NotRegularFileError, open_input
from xiangqi.records import open_games

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")


def run_child(code: str, fifo: Path) -> subprocess.CompletedProcess[str]:
    """code run in a child process with FIFO set to fifo, which nobody writes."""
    return subprocess.run(
        [sys.executable, "-c", f"FIFO = {str(fifo)!r}\n{code}"],
        capture_output=True,
        text=True,
        timeout=30,
    )


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "nobody-writes.fifo"
    os.mkfifo(path)
    return path


def test_a_fifo_with_no_writer_reads_as_empty(fifo: Path) -> None:
    with open_input(fifo, regular=False) as handle:
        assert handle.read() == b""


def test_a_fifo_is_refused_where_a_regular_file_is_needed(fifo: Path) -> None:
    with pytest.raises(NotRegularFileError, match="not a regular file") as caught:
        open_input(fifo, regular=True)
    assert caught.value.path == str(fifo)
    assert isinstance(caught.value, ValueError)


def test_a_directory_is_refused_naming_its_path(tmp_path: Path) -> None:
    for regular in (True, False):
        with pytest.raises(IsADirectoryError) as caught:
            open_input(tmp_path, regular=regular)
        assert caught.value.filename == str(tmp_path)


def test_a_regular_file_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_bytes(b"x" * 70000)
    with open_input(os.fsencode(path), regular=True) as handle:
        assert handle.read() == b"x" * 70000


def test_open_games_of_a_directory_names_the_directory(tmp_path: Path) -> None:
    # Before: IsADirectoryError naming the file descriptor ("Is a directory: 3").
    with pytest.raises(IsADirectoryError) as caught:
        list(open_games(tmp_path))
    assert caught.value.filename == str(tmp_path)


def test_an_opening_book_through_a_fifo_with_no_writer_does_not_hang(fifo: Path) -> None:
    child = run_child(
        "from xiangqi.book import BookError, open_reader\n"
        "try:\n"
        "    open_reader(FIFO)\n"
        "except BookError as exc:\n"
        "    print('refused:', exc)\n",
        fifo,
    )
    assert child.returncode == 0, child.stderr
    assert child.stdout.startswith("refused:") and "empty" in child.stdout, child.stdout


def test_an_elephanteye_reader_of_a_fifo_with_no_writer_does_not_hang(fifo: Path) -> None:
    child = run_child(
        "from xiangqi.book import BookError, ElephantEyeReader\n"
        "try:\n"
        "    ElephantEyeReader(FIFO)\n"
        "except BookError as exc:\n"
        "    print('refused:', exc)\n",
        fifo,
    )
    assert child.returncode == 0, child.stderr
    assert child.stdout.startswith("refused:") and "empty" in child.stdout, child.stdout


@pytest.mark.parametrize("reader", ["read_jsonl", "read_csv"])
def test_a_puzzle_file_through_a_fifo_with_no_writer_does_not_hang(fifo: Path, reader: str) -> None:
    child = run_child(
        f"from xiangqi.puzzles import {reader}\nprint('puzzles:', len(list({reader}(FIFO))))\n",
        fifo,
    )
    assert child.returncode == 0, child.stderr
    assert child.stdout == "puzzles: 0\n"


def test_an_sqlite_book_must_be_a_regular_file(fifo: Path, tmp_path: Path) -> None:
    from xiangqi.book import BookError, SQLiteReader

    for path in (fifo, tmp_path):
        with pytest.raises(BookError, match="not a regular file"):
            SQLiteReader(path)
    with pytest.raises(FileNotFoundError, match="no such book file"):
        SQLiteReader(tmp_path / "missing.db")
