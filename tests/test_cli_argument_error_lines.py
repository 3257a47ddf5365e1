"""A bad argument of xiangqi mate and xiangqi book is one "xiangqi: error:" line and exit
status 2, as match and convert report theirs and as mate reports a bad FEN (mate printed
argparse's usage and "xiangqi mate: error:"; book with an unknown option likewise).
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from xiangqi.__main__ import main

DOCS_MATE = "3k5/8P/9/7R1/9/4H4/9/9/6p2/4KA3 w - - 0 1"  # docs/mates.md: mate in 2


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["mate", DOCS_MATE, "--hash-mb", "0"], "--hash-mb"),
        (["mate", DOCS_MATE, "--hash-mb", "lots"], "--hash-mb"),
        (["mate", DOCS_MATE, "--plies", "100"], "--plies"),
        (["mate", DOCS_MATE, "--nodes", "0"], "--nodes"),
        (["mate"], "FEN"),
        (["mate", DOCS_MATE, "--bogus"], "--bogus"),
        (["book", "probe", "x.dat", "--bogus"], "--bogus"),
        (["book"], "book_command"),
    ],
)
def test_a_bad_argument_is_one_error_line(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("xiangqi: error: "), captured.err
    assert named in lines[0]


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["mate", DOCS_MATE, "--nodes", "-1"], "argument --nodes: must be at least 1, got '-1'"),
        (["mate", DOCS_MATE, "--plies=-3"], "argument --plies: must be in 1..99, got '-3'"),
        (["mate", DOCS_MATE, "--nodes", "1e3"], "argument --nodes: expected a whole number"),
        (
            ["match", "--engine", "a", "--engine", "b", "--seed=-1"],
            "argument --seed: must be at least 0, got '-1'",
        ),
    ],
)
def test_a_negative_number_is_told_the_options_range(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # -1 is a whole number: the message gives the option's range (it said "expected a
    # whole number, got '-1'", a newcomer's finding)
    with pytest.raises(SystemExit):
        main(argv)
    assert says in capsys.readouterr().err


def test_a_missing_file_is_said_without_pythons_errno_prefix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The line a user reads: the system's words and the file, not "[Errno 2] ..."
    missing = str(tmp_path / "gone.dat")
    assert main(["book", "probe", missing]) == 2
    err = capsys.readouterr().err
    assert err == f"xiangqi: error: {os.strerror(errno.ENOENT)}: {missing!r}\n", err
