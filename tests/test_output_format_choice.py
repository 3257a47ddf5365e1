"""An output's format named outright (convert's to / --to, write_games' format) must not
contradict the format the output's extension names: DhtmlXQ written into a ".pgn" is
refused, naming both, before anything is written. An extension no format claims, or one
the named format claims (".ubb" is DhtmlXQ), is fine."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from xiangqi.pgn import read_game
from xiangqi.records import UnknownFormatError, convert, write_games

PGN = '[Event "one"]\n\n1. h2e2 h9g7 *\n'


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "in.pgn"
    path.write_text(PGN, encoding="utf-8")
    return path


def test_the_cli_refuses_to_contradicting_the_extension(source: Path, tmp_path: Path) -> None:
    out = tmp_path / "x.pgn"
    out.write_bytes(b"an earlier file\n")
    done = subprocess.run(
        [sys.executable, "-m", "xiangqi", "convert", str(source), str(out), "--to", "dhtml"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("xiangqi: error:") and "Traceback" not in done.stderr
    assert "'dhtml'" in done.stderr and "'.pgn'" in done.stderr
    assert out.read_bytes() == b"an earlier file\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.pgn", "x.pgn"]


def test_convert_and_write_games_refuse_it_too(source: Path, tmp_path: Path) -> None:
    with pytest.raises(UnknownFormatError, match=r"'xqf'.*'\.pgn'"):
        convert(source, tmp_path / "y.pgn", to="xqf")
    with pytest.raises(UnknownFormatError, match=r"'pgn'.*'\.dhtml'"):
        write_games([read_game(PGN)], tmp_path / "z.dhtml", format="pgn")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.pgn"]


def test_an_agreeing_or_unclaimed_extension_is_fine(source: Path, tmp_path: Path) -> None:
    assert convert(source, tmp_path / "a.ubb", to="dhtml").format == "dhtml"
    assert (tmp_path / "a.ubb").read_text(encoding="utf-8").startswith("[DhtmlXQ]")
    assert convert(source, tmp_path / "b.txt", to="pgn").games == 1
    assert write_games([read_game(PGN)], tmp_path / "c.PGN", format="pgn") == 1
