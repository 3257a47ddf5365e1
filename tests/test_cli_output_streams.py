"""The CLI's answer goes to stdout, progress and warnings to stderr; --progress forces progress.

Run as a user runs it, through a pipe (subprocess): stderr is then no terminal, where
``convert`` shows progress only with ``--progress``. The counts expected are those of the
games written here (one game of 4 plies; two files of 1 and 2 games).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ONE = '[Event "one"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *\n'
TWO = '[Event "a"]\n\n1. c3c4 *\n\n[Event "b"]\n\n1. b2e2 b9c7 *\n'


def _xiangqi(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "xiangqi", *args],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


def test_convert_prints_its_summary_on_stdout(tmp_path: Path) -> None:
    source = tmp_path / "one.pgn"
    source.write_text(ONE, encoding="utf-8")
    out = tmp_path / "out.pgn"
    done = _xiangqi("convert", str(source), str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"1 game, 4 plies written to {out}\n"
    assert done.stderr == ""  # no terminal, no --progress: no progress line


def test_convert_progress_is_shown_on_a_pipe_when_asked(tmp_path: Path) -> None:
    source = tmp_path / "one.pgn"
    source.write_text(ONE, encoding="utf-8")
    out = tmp_path / "out.pgn"
    done = _xiangqi("convert", str(source), str(out), "--progress")
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert lines and lines[0].startswith(f"converting {source}: 1 game, 4 plies ("), lines
    assert done.stdout == f"1 game, 4 plies written to {out}\n"


def test_convert_warnings_stay_on_stderr(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    (folder / "one.pgn").write_text(ONE, encoding="utf-8")
    (folder / "two.pgn").write_text(TWO, encoding="utf-8")
    (folder / "notes.md").write_text("# notes\n", encoding="utf-8")
    out = tmp_path / "all.pgn"
    done = _xiangqi("convert", str(folder), str(out))
    assert done.returncode == 0, done.stderr
    reason = "not a game record of a known format"
    assert done.stderr == f"xiangqi: skipped {folder / 'notes.md'}: {reason}\n"
    assert done.stdout == f"3 games, 7 plies written to {out} from 2 files (1 skipped)\n"


def test_book_build_prints_its_summary_on_stdout(tmp_path: Path) -> None:
    source = tmp_path / "one.pgn"
    source.write_text(ONE, encoding="utf-8")
    out = tmp_path / "one.xqbook"
    done = _xiangqi("book", "build", str(source), "-o", str(out))
    assert done.returncode == 0, done.stderr
    # 4 positions (one before each ply), one move from each
    assert done.stdout.startswith(f"1 game, 4 plies read; 4 positions, 4 moves written to {out} (")
    assert "written to" not in done.stderr
