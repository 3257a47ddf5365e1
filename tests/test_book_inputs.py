"""book build takes folders (and -r) exactly as records.convert does: one input expansion.

A folder of real records from tests/data (four CCPD Big5 games) plus a README that is no
record and a subfolder: the book built from the folder must equal the book built from the
files listed one by one, and the files it skips must be convert's skipped files.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from xiangqi.book import build
from xiangqi.records import convert

DATA = Path(__file__).resolve().parent / "data" / "games" / "ccpd-big5"
FILES = [DATA / f"master-00{n}.pgn" for n in range(4)]


def _moves(book: Path) -> list[tuple[str, str, int, int, int, int]]:
    with sqlite3.connect(book) as db:
        rows = db.execute(
            "SELECT fen, move, weight, wins, draws, losses FROM positions"
            " JOIN moves ON moves.position = positions.id ORDER BY fen, move"
        ).fetchall()
    db.close()
    return rows


@pytest.fixture
def club(tmp_path: Path) -> Path:
    folder = tmp_path / "club"
    (folder / "older").mkdir(parents=True)
    for path in FILES[:3]:
        shutil.copy(path, folder / path.name)
    shutil.copy(FILES[3], folder / "older" / FILES[3].name)
    shutil.copy(DATA / "README.md", folder / "README.md")
    return folder


def test_a_folder_builds_the_book_of_its_records(club: Path, tmp_path: Path) -> None:
    listed = build(FILES[:3], tmp_path / "listed.xqbook", plies=12)
    summary = build([club], tmp_path / "folder.xqbook", plies=12)
    assert (summary.games, summary.plies) == (listed.games, listed.plies) == (3, 36)
    assert _moves(tmp_path / "folder.xqbook") == _moves(tmp_path / "listed.xqbook")
    skipped = [(Path(s.path).name, s.reason) for s in summary.skipped]
    assert sorted(skipped) == [
        ("README.md", "not a game record of a known format"),
        ("older", "a folder (read with recursive)"),
    ]
    converted = convert(club, tmp_path / "all.pgn")
    assert summary.skipped == converted.skipped  # the same expansion, the same reasons


def test_recursive_reads_the_subfolders(club: Path, tmp_path: Path) -> None:
    listed = build(FILES, tmp_path / "listed.xqbook", plies=12)
    summary = build(club, tmp_path / "folder.xqbook", plies=12, recursive=True)
    assert summary.games == listed.games == 4
    assert _moves(tmp_path / "folder.xqbook") == _moves(tmp_path / "listed.xqbook")
    assert [Path(s.path).name for s in summary.skipped] == ["README.md"]


def test_a_named_file_that_is_no_record_is_still_an_error(club: Path, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a game record"):
        build([club / "README.md"], tmp_path / "b.xqbook")
    assert not (tmp_path / "b.xqbook").exists()


def test_the_cli_builds_from_a_folder_and_reports_what_it_skipped(
    club: Path, tmp_path: Path
) -> None:
    book = tmp_path / "f.xqbook"
    done = subprocess.run(
        [sys.executable, "-m", "xiangqi", "book", "build", str(club), "-o", str(book), "-r"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    reason = "not a game record of a known format"
    assert done.stderr.splitlines()[-1] == f"xiangqi: skipped {club / 'README.md'}: {reason}"
    assert done.stdout.startswith("4 games, ")
    listed = build(FILES, tmp_path / "listed.xqbook", plies=20)
    assert _moves(book) == _moves(tmp_path / "listed.xqbook") and listed.games == 4
