"""The library writes a match's files as the command line does, and resumes as it does.

``run_match(pgn_file=, results_file=)`` and ``resume_match`` go through xiangqi._files: an
output that is a FIFO or a device is refused before any engine starts and is never opened
nor replaced; outputs are replaced whole once the match has a result; a resumed match keeps
its finished rounds' records and games and plays the rest. Matches are real Fairy-Stockfish
games at depth 1, at most 4 plies each.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from test_engine_fairy import FAIRY, SKIP_REASON

from xiangqi.__main__ import main
from xiangqi.errors import OutputFileError, XiangqiError
from xiangqi.match import resume_match, run_match
from xiangqi.pgn import read_games

pytestmark = pytest.mark.skipif(FAIRY is None, reason=SKIP_REASON)


def engines(log: Path | None = None) -> list[str]:
    extra = "" if log is None else f" 'option.Debug Log File={log}'"
    return [f"cmd={FAIRY}{extra}", f"cmd={FAIRY}{extra}"]


def special_files(tmp_path: Path) -> list[Path]:
    """A FIFO, and a character device like /dev/null (1, 3) where this user may make one."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    found = [fifo]
    null = tmp_path / "null"
    try:
        os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, OSError):
        pass
    else:
        found.append(null)
    return found


@pytest.mark.parametrize("output", ["pgn_file", "results_file"])
def test_a_fifo_or_device_output_is_refused_never_replaced(tmp_path: Path, output: str) -> None:
    log = tmp_path / "engine.log"
    for special in special_files(tmp_path):
        before = os.stat(special)
        with pytest.raises(OutputFileError, match=f"{output}.*(FIFO|character device)"):
            run_match(engines(log), 2, "depth=1", max_plies=4, **{output: special})  # type: ignore[arg-type]
        after = os.stat(special)
        assert (after.st_ino, after.st_mode, after.st_rdev) == (
            before.st_ino,
            before.st_mode,
            before.st_rdev,
        )
    assert not log.exists()  # no engine started
    assert not list(tmp_path.glob(".*.part"))


def test_the_command_line_refuses_dev_null_as_an_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = os.stat("/dev/null")
    log = tmp_path / "engine.log"
    argv = ["match", "--engine", engines(log)[0], "--engine", engines(log)[1], "--tc", "depth=1"]
    assert main([*argv, "--pgn", "/dev/null"]) == 2
    err = capsys.readouterr().err
    assert "--pgn is a character device" in err and err.count("\n") == 1, err
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino
    assert not log.exists()


def test_run_match_writes_its_files_whole_keeping_their_mode(tmp_path: Path) -> None:
    pgn, results = tmp_path / "games.pgn", tmp_path / "results.json"
    pgn.write_text("yesterday's games\n", encoding="utf-8")
    pgn.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(results.name)
    result = run_match(
        [str(FAIRY), str(FAIRY)], 2, "depth=1", max_plies=4, pgn_file=pgn, results_file=link
    )
    games = list(read_games(pgn))
    assert len(games) == 2 and "yesterday" not in pgn.read_text(encoding="utf-8")
    assert (pgn.stat().st_mode & 0o777) == 0o640
    assert link.is_symlink()  # written through the link
    data = json.loads(results.read_text(encoding="utf-8"))
    assert data["totals"]["games"] == 2 == result.tally.games
    assert data["pgn"] == "games.pgn"  # relative to the results file's folder
    assert [g.result for g in games] == [r["result"] for r in data["games"]]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.pgn", "link.json", "results.json"]


def test_run_match_takes_a_handle_or_a_file_not_both(tmp_path: Path) -> None:
    with open(tmp_path / "a.pgn", "w", encoding="utf-8") as handle:
        with pytest.raises(XiangqiError, match="pgn_out or pgn_file"):
            run_match([str(FAIRY), str(FAIRY)], 2, pgn_out=handle, pgn_file=tmp_path / "b.pgn")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pgn"]


def test_resume_match_keeps_finished_rounds_and_plays_the_rest(tmp_path: Path) -> None:
    pgn, results = tmp_path / "games.pgn", tmp_path / "results.json"
    run_match(
        [str(FAIRY), str(FAIRY)], 4, "depth=1", max_plies=4, pgn_file=pgn, results_file=results
    )
    full = json.loads(results.read_text(encoding="utf-8"))
    # As if interrupted during round 2: its first game finished, the second did not. Game 1
    # is marked, so that a replayed round 1 would show.
    cut = json.loads(json.dumps(full))
    cut["games"] = cut["games"][:3]
    cut["games"][0]["reason"] = "kept from the first run"
    cut["totals"]["stopped"] = "interrupted"
    results.write_text(json.dumps(cut, indent=1) + "\n", encoding="utf-8")
    round_1 = [g.to_pgn() for g in read_games(pgn) if g.tags["Round"] == "1"]

    result = resume_match(results)
    final = json.loads(results.read_text(encoding="utf-8"))
    assert result.tally.games == 4 == final["totals"]["games"]
    assert final["totals"]["stopped"] == "complete" and final["totals"]["pairs"] == 2
    assert [r["game"] for r in final["games"]] == [1, 2, 3, 4]
    assert final["games"][:2] == cut["games"][:2]  # round 1 counted, not played again
    games = list(read_games(pgn))
    assert [g.tags["Round"] for g in games] == ["1", "1", "2", "2"]
    assert [g.to_pgn() for g in games[:2]] == round_1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.pgn", "results.json"]


def test_resume_match_refuses_a_malformed_record_naming_file_line_and_field(
    tmp_path: Path,
) -> None:
    results = tmp_path / "results.json"
    run_match([str(FAIRY), str(FAIRY)], 2, "depth=1", max_plies=4, results_file=results)
    text = results.read_text(encoding="utf-8").replace('"round": 1', '"round": 1.7', 1)
    results.write_text(text, encoding="utf-8")
    line = 1 + next(i for i, s in enumerate(text.splitlines()) if '"round": 1.7' in s)
    with pytest.raises(XiangqiError, match=rf"results.json' line {line}: field 'round' is 1.7"):
        resume_match(results)
    assert results.read_text(encoding="utf-8") == text
