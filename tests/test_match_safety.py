"""`xiangqi match` held to issue 30 sections 1 and 5, with a real Fairy-Stockfish.

Section 1: every setting is checked before any file is touched; the PGN and results are
written beside their targets and moved over them once the match has a result; an output that
is also an input (the same file by identity: a hard link or a symlink under another name) is
refused. Section 5: per-engine ``tc=depth=N``, ``tc=st=S``, ``tc=nodes=N`` reach the engine
(read back from Fairy-Stockfish's own "Debug Log File" of what it received); an engine that
dies of SIGINT loses its game while the user's Ctrl-C (SIGINT to the match process, or to
its whole process group as a terminal sends it) stops the match; SPRT bounds that cannot be
computed and a 400-digit ``st=`` are refused before any engine starts.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from test_engine_fairy import FAIRY, SKIP_REASON

import xiangqi
from xiangqi.__main__ import main
from xiangqi.match import EngineSpec, run_match
from xiangqi.pgn import read_games

pytestmark = pytest.mark.skipif(FAIRY is None, reason=SKIP_REASON)

OPENINGS = (
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n"
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\n"
)
ENV = dict(os.environ, PYTHONPATH=str(Path(xiangqi.__file__).resolve().parents[1]))


def logged(log: Path, extra: str = "") -> str:
    """A Fairy-Stockfish --engine text that logs what it receives to log."""
    return f"cmd={FAIRY} 'option.Debug Log File={log}' {extra}".strip()


def go_lines(log: Path) -> list[str]:
    return [line[3:] for line in log.read_text().splitlines() if line.startswith(">> go")]


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    try:
        code = main(["match", *args])
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, capsys.readouterr().err


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


# -- section 1: no user file is destroyed -----------------------------------------------------


@pytest.mark.parametrize("alias", ["same", "hardlink", "symlink"])
@pytest.mark.parametrize("option", ["--pgn", "--results"])
def test_an_output_that_is_the_openings_file_is_refused_and_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], alias: str, option: str
) -> None:
    book = tmp_path / "book.epd"
    book.write_text(OPENINGS, encoding="utf-8")
    target = tmp_path / "other-name.pgn"
    if alias == "same":
        target = book
    elif alias == "hardlink":
        os.link(book, target)
    else:
        target.symlink_to(book)
    log = tmp_path / "engine.log"
    before = snapshot(tmp_path)
    argv = ["--engine", logged(log), "--engine", logged(log), "--openings", str(book)]
    code, err = run_cli([*argv, option, str(target)], capsys)
    assert code == 2 and "same file as the input" in err and "Traceback" not in err
    assert snapshot(tmp_path) == before  # the book is whole, no engine started, no .part
    assert not log.exists()


def test_an_output_that_is_an_engine_program_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert FAIRY is not None
    program = tmp_path / "fsf"
    shutil.copy(FAIRY, program)
    before = program.read_bytes()
    code, err = run_cli(
        ["--engine", str(program), "--engine", str(program), "--results", str(program)], capsys
    )
    assert code == 2 and "same file as the input" in err
    assert program.read_bytes() == before


def test_the_two_outputs_may_not_be_one_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out.txt"  # not there yet: compared by resolved path
    argv = ["--engine", str(FAIRY), "--engine", str(FAIRY)]
    code, err = run_cli([*argv, "--pgn", str(out), "--results", str(out)], capsys)
    assert code == 2 and "name the same file" in err and not out.exists()


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        (["--tc", "depth=x"], "depth must be a whole number"),
        (["--tc", "st=" + "1" * 400], "st must be a number of seconds"),
        (["--each", "tc=st=" + "9" * 400], "st must be a number of seconds"),
        (["--tc", "st=" + "1" * 20], "st (seconds a move) must be in 0.."),
        (["--sprt", "elo0=0 elo1=5000"], "cannot be computed with the normalized model"),
        (["--sprt", "elo0=-1e6 elo1=5 model=logistic"], "cannot be computed with the logistic"),
        (["--openings", "/nonexistent/book.pgn"], "No such file"),
        (["--draw", "movecount=" + "9" * 5000], "--draw takes movenumber=N"),
        (["--each", "timeout=" + "1" * 400], "timeout must be a number of seconds"),
    ],
)
def test_a_bad_setting_leaves_yesterdays_files_and_starts_no_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], setting: list[str], message: str
) -> None:
    pgn, results, log = tmp_path / "games.pgn", tmp_path / "results.json", tmp_path / "log"
    pgn.write_text("yesterday's games\n", encoding="utf-8")
    results.write_text('{"yesterday": true}\n', encoding="utf-8")
    before = snapshot(tmp_path)
    argv = ["--engine", logged(log), "--engine", logged(log), *setting]
    code, err = run_cli([*argv, "--pgn", str(pgn), "--results", str(results)], capsys)
    assert code == 2, err
    assert message in err and len(err.splitlines()) == 1 and "Traceback" not in err
    assert snapshot(tmp_path) == before
    assert not log.exists()  # Fairy-Stockfish was never started


def test_an_engine_that_cannot_start_leaves_the_outputs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pgn, results = tmp_path / "games.pgn", tmp_path / "results.json"
    pgn.write_text("yesterday's games\n", encoding="utf-8")
    before = snapshot(tmp_path)
    argv = ["--engine", "/nonexistent/engine", "--engine", str(FAIRY)]
    code, err = run_cli([*argv, "--pgn", str(pgn), "--results", str(results)], capsys)
    assert code == 2 and "engine not found" in err
    assert snapshot(tmp_path) == before  # no results file, no .part file left


def test_a_finished_match_replaces_the_outputs_keeping_their_mode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pgn, results = tmp_path / "games.pgn", tmp_path / "results.json"
    pgn.write_text("yesterday's games\n", encoding="utf-8")
    pgn.chmod(0o640)
    argv = ["--engine", str(FAIRY), "--engine", str(FAIRY), "--tc", "depth=1"]
    code, err = run_cli(
        [*argv, "--max-plies", "6", "--pgn", str(pgn), "--results", str(results)], capsys
    )
    assert code == 0, err
    assert len(list(read_games(pgn))) == 2 and "yesterday" not in pgn.read_text()
    assert (pgn.stat().st_mode & 0o777) == 0o640
    assert json.loads(results.read_text())["totals"]["games"] == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.pgn", "results.json"]


# -- section 5: matches that play what was asked -------------------------------------------


def test_per_engine_depths_reach_the_engines_and_the_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = [tmp_path / "a.log", tmp_path / "b.log"]
    results = tmp_path / "results.json"
    argv = [
        "--engine", logged(logs[0], "name=a tc=depth=2"),
        "--engine", logged(logs[1], "name=b tc=depth=4"),
        "--games", "2", "--max-plies", "8", "--results", str(results),
    ]  # fmt: skip
    code, err = run_cli(argv, capsys)
    assert code == 0, err
    assert go_lines(logs[0]) and set(go_lines(logs[0])) == {"go depth 2"}
    assert go_lines(logs[1]) and set(go_lines(logs[1])) == {"go depth 4"}
    data = json.loads(results.read_text())
    assert data["time_control"] == ["depth=2", "depth=4"]
    assert [e["tc"] for e in data["engines"]] == ["depth=2", "depth=4"]


@pytest.mark.parametrize(
    ("engines", "each", "go", "shown"),
    [
        (
            ("tc=st=0.05", "tc=nodes=700"),
            [],
            ("go movetime 50", "go nodes 700"),
            ("st=0.05", "nodes=700"),
        ),
        (
            ("", ""),
            ["--each", "tc=nodes=300"],
            ("go nodes 300", "go nodes 300"),
            ("nodes=300", "nodes=300"),
        ),
        (
            ("st=0.05", "depth=3"),
            ["--tc", "depth=9"],
            ("go movetime 50", "go depth 3"),
            ("st=0.05", "depth=3"),
        ),
    ],
)
def test_st_and_nodes_in_engine_and_each_reach_the_engines(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    engines: tuple[str, str],
    each: list[str],
    go: tuple[str, str],
    shown: tuple[str, str],
) -> None:
    logs = [tmp_path / "a.log", tmp_path / "b.log"]
    results = tmp_path / "results.json"
    argv = [
        "--engine", logged(logs[0], f"name=a {engines[0]}"),
        "--engine", logged(logs[1], f"name=b {engines[1]}"),
        *each, "--games", "2", "--max-plies", "6", "--results", str(results),
    ]  # fmt: skip
    code, err = run_cli(argv, capsys)
    assert code == 0, err
    for log, line in zip(logs, go):
        assert go_lines(log) and set(go_lines(log)) == {line}
    assert json.loads(results.read_text())["time_control"] == list(shown)


def _children() -> list[int]:
    """Process ids whose parent is this process."""
    return _engine_pids(os.getpid())


@pytest.mark.slow
def test_an_engine_dying_of_sigint_loses_its_game_and_the_match_goes_on() -> None:
    assert FAIRY is not None
    killed: list[int] = []

    def kill_one_engine() -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(_children()) < 2:
            time.sleep(0.05)
        time.sleep(0.3)  # in the first game's search
        victim = min(_children())
        killed.append(victim)
        os.kill(victim, signal.SIGINT)

    helper = threading.Thread(target=kill_one_engine)
    helper.start()
    result = run_match(
        [EngineSpec((FAIRY,), name="a"), EngineSpec((FAIRY,), name="b")],
        4,
        tc="st=0.1",
        max_plies=20,
    )
    helper.join()
    assert killed
    assert result.stopped == "complete" and result.tally.games == 4
    reasons = [r["reason"] for r in result.records]
    assert sum("engine exited" in reason for reason in reasons) == 1, reasons
    assert all(r["result"] in ("1-0", "0-1", "1/2-1/2") for r in result.records)


def _match_process(tmp_path: Path, *extra: str) -> subprocess.Popen[bytes]:
    argv = [
        sys.executable, "-m", "xiangqi", "match",
        "--engine", f"name=a cmd={FAIRY}", "--engine", f"name=b cmd={FAIRY}",
        "--tc", "st=0.1", "--max-plies", "40", "--pgn", str(tmp_path / "games.pgn"),
        "--results", str(tmp_path / "results.json"), *extra,
    ]  # fmt: skip
    return subprocess.Popen(
        argv,
        cwd=tmp_path,
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # a group of its own, as a terminal's foreground job
    )


def _engine_pids(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def _wait_for_engines(proc: subprocess.Popen[bytes]) -> list[int]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and len(_engine_pids(proc.pid)) < 2:
        time.sleep(0.05)
    time.sleep(0.5)
    pids = _engine_pids(proc.pid)
    assert len(pids) == 2
    return pids


@pytest.mark.slow  # waits on timeouts or a deep count: the slow run (CI)
def test_ctrl_c_from_the_terminal_is_the_users_interrupt(tmp_path: Path) -> None:
    """SIGINT to the match's whole process group (what a terminal's Ctrl-C sends): the match
    stops with 130 and writes what it has; the engines, in groups of their own, did not get
    the signal and are closed by the runner."""
    proc = _match_process(tmp_path, "--games", "1000")
    try:
        engines = _wait_for_engines(proc)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert b"Traceback" not in err and b"interrupted" in err
    for pid in engines:
        assert not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text()
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["totals"]["stopped"] == "interrupted"


@pytest.mark.slow
def test_an_engine_killed_by_sigint_on_the_command_line_is_not_the_users_interrupt(
    tmp_path: Path,
) -> None:
    proc = _match_process(tmp_path, "--games", "2")
    try:
        engine = _wait_for_engines(proc)[0]
        os.kill(engine, signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["totals"]["stopped"] == "complete" and data["totals"]["games"] == 2
    assert sum("engine exited" in g["reason"] for g in data["games"]) == 1
    assert len(list(read_games(tmp_path / "games.pgn"))) == 2


# -- issue 32 item 3: --resume for local matches ------------------------------------------


@pytest.mark.slow
def test_resume_continues_an_interrupted_match_without_replaying_finished_rounds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "book.epd"
    book.write_text(
        OPENINGS + "rnbakabnr/9/1c5c1/p1p1p1p1p/9/2P6/P3P1P1P/1C5C1/9/RNBAKABNR b - - 1 1\n",
        encoding="utf-8",
    )
    pgn, results = tmp_path / "games.pgn", tmp_path / "results.json"
    argv = [
        sys.executable, "-m", "xiangqi", "match",
        "--engine", f"name=a cmd={FAIRY} tc=st=0.03", "--engine", f"name=b cmd={FAIRY} depth=2",
        "--games", "6", "--max-plies", "24", "--openings", str(book),
        "--opening-order", "random", "--pgn", str(pgn), "--results", str(results),
    ]  # fmt: skip
    proc = subprocess.Popen(argv, cwd=tmp_path, env=ENV, stderr=subprocess.PIPE)
    try:  # interrupt once three games are written: round 2 is cut short
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not any(
            part.read_text(encoding="utf-8").count("[Event ") >= 3
            for part in tmp_path.glob(".games.pgn.*.part")
        ):
            time.sleep(0.02)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    first = json.loads(results.read_text())
    assert first["totals"]["stopped"] == "interrupted" and 3 <= first["totals"]["games"] < 6
    kept_rounds = {r["round"] for r in first["games"] if r["game"] % 2 == 0}
    kept = [r for r in first["games"] if r["round"] in kept_rounds]
    first_games = {
        (g.tags["Round"], g.tags["Red"]): [m.iccs() for m in g.mainline_moves()]
        for g in read_games(pgn)
    }

    code, err = run_cli(["--resume", str(results)], capsys)
    assert code == 0, err
    final = json.loads(results.read_text())
    assert final["totals"]["stopped"] == "complete"
    assert final["totals"]["games"] == 6 and final["totals"]["pairs"] == 3
    assert [r["game"] for r in final["games"]] == [1, 2, 3, 4, 5, 6]
    assert [r for r in final["games"] if r["round"] in kept_rounds] == kept  # not replayed
    # the same openings: the shuffle's seed was chosen and kept by the first run
    seed = final["settings"]["openings"]["seed"]
    assert seed == first["settings"]["openings"]["seed"] is not None
    expected = xiangqi.match.OpeningList.shuffled(xiangqi.match.load_openings(book), seed)
    assert [r["opening"] for r in final["games"]] == [expected.index(k // 2) for k in range(6)]
    games = list(read_games(pgn))
    assert [g.tags["Round"] for g in games] == ["1", "1", "2", "2", "3", "3"]
    for game, record in zip(games, final["games"]):
        assert game.board().fen() == expected.opening(record["round"] - 1).fen
        assert game.result == record["result"]
        key = (game.tags["Round"], game.tags["Red"])
        if record["round"] in kept_rounds:  # the finished rounds' games, as first written
            assert [m.iccs() for m in game.mainline_moves()] == first_games[key]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["book.epd", "games.pgn", "results.json"]


def test_resume_refuses_settings_and_a_changed_openings_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "book.epd"
    book.write_text(OPENINGS, encoding="utf-8")
    results = tmp_path / "results.json"
    argv = ["--engine", str(FAIRY), "--engine", str(FAIRY), "--tc", "depth=1"]
    code, err = run_cli(
        [*argv, "--openings", str(book), "--max-plies", "4", "--results", str(results)], capsys
    )
    assert code == 0, err
    code, err = run_cli(["--resume", str(results), "--tc", "depth=3"], capsys)
    assert code == 2 and "--resume takes the match's settings" in err
    book.write_text(OPENINGS[: len(OPENINGS) // 2], encoding="utf-8")
    before = results.read_bytes()
    code, err = run_cli(["--resume", str(results)], capsys)
    assert code == 2 and "has changed since the match started" in err
    assert results.read_bytes() == before
    code, err = run_cli(["--resume", str(book)], capsys)
    assert code == 2 and "not a results file" in err


def test_a_resumed_match_the_sprt_has_decided_plays_nothing() -> None:
    # 20 rounds the first engine lost, both colours: an SPRT of 0 against 100 nElo accepts H0
    # on them alone (LLR -9.5 with fishtest's regularization, below log(0.05 / 0.95)), so
    # the resumed match ends at once (its program does not even exist: never started).
    finished = [
        {"game": k, "round": (k + 1) // 2, "result": "0-1" if k % 2 else "1-0"}
        for k in range(1, 41)
    ]
    plan = xiangqi.match.prepare_match(
        ["/nonexistent/a", "/nonexistent/b"], 1000, sprt="elo0=0 elo1=100"
    )
    result = plan.run(finished=xiangqi.match.plan.complete_rounds(finished))
    assert result.stopped == "H0" and result.tally.games == 40 and result.losses == 40
    assert result.tally.pentanomial == [20, 0, 0, 0, 0]
