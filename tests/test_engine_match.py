"""The match runner (xiangqi.match) and the analyse/match commands.

Games played by the real engine are replayed with pyffish (Fairy-Stockfish's rules as a
library, independent of this package's core), and each result is checked against pyffish's
own ruling on the final position. Clocks, adjudication and faults use the scripted engine
tests/engines/match_engine.py (it plays the first legal move in ICCS order); the old
handshake-level faults use tests/engines/fake_engine.py.
"""

from __future__ import annotations

import _thread
import io
import json
import math
import os
import signal
import subprocess
import sys
import threading
import time
import tracemalloc
from pathlib import Path

import pyffish
import pytest
from pgn_helpers import mainline_comments
from test_engine_fairy import FAIRY, SKIP_REASON

import xiangqi
from xiangqi import Move, Position, Rules, Termination
from xiangqi.__main__ import main
from xiangqi.engine import EngineError, Limit
from xiangqi.match import (
    Adjudication,
    EngineSpec,
    Opening,
    TimeControl,
    adjudicate,
    load_openings,
    make_limit,
    parse_tc,
    run_match,
)
from xiangqi.match.stats import SPRT
from xiangqi.notation import iccs
from xiangqi.pgn import read_games
from xiangqi.pieces import Color

FAKE = Path(__file__).parent / "engines" / "fake_engine.py"
MATCH_ENGINE = Path(__file__).parent / "engines" / "match_engine.py"
needs_fairy = pytest.mark.skipif(FAIRY is None, reason=SKIP_REASON)
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
OPENINGS = """[Game "Chinese Chess"]
[Format "ICCS"]

1. H2-E2 H9-G7 *

[Game "Chinese Chess"]
[Format "ICCS"]

1. C3-C4 *
"""
TERMINATIONS = {t.name.lower().replace("_", " ") for t in Termination}


def fake_spec(mode: str) -> EngineSpec:
    return EngineSpec((sys.executable, str(FAKE), mode))


def scripted(*flags: str, name: str | None = None, timeout: float = 10.0) -> EngineSpec:
    return EngineSpec((sys.executable, str(MATCH_ENGINE), *flags), name=name, timeout=timeout)


def pyffish_ruling(fen: str, moves: list[str]) -> str | None:
    """The result pyffish gives the final position: "1-0"/"0-1"/"1/2-1/2", or None (goes on)."""
    black_to_move = (fen.split()[1] == "b") != (len(moves) % 2 == 1)
    if not pyffish.legal_moves("xiangqi", fen, moves):
        value = pyffish.game_result("xiangqi", fen, moves)
    else:
        over, value = pyffish.is_immediate_game_end("xiangqi", fen, moves)
        if not over:
            over, value = pyffish.is_optional_game_end("xiangqi", fen, moves)
        if not over:
            return None
    if value == 0:
        return "1/2-1/2"
    mover_wins = value > 0
    return "0-1" if mover_wins == black_to_move else "1-0"


def check_games_by_pyffish(games: list, cap: int | None = None) -> None:  # type: ignore[type-arg]
    """Every move legal by pyffish, and every game the rules ended ruled as pyffish rules it."""
    for game in games:
        assert not game.errors and not game.unread
        assert game.tags["Result"] in ("1-0", "0-1", "1/2-1/2")
        moves = [iccs(m, "ranks1") for m in game.mainline_moves()]
        for k, move in enumerate(moves):
            assert move in pyffish.legal_moves("xiangqi", game.fen, moves[:k]), (game, k)
        if game.tags["Termination"] in TERMINATIONS:
            assert pyffish_ruling(game.fen, moves) == game.result, game.to_pgn()
        elif game.tags["Termination"] == "adjudication" and cap is not None:
            assert len(moves) >= cap or "resigns" in game.end().comment


# -- pieces of the runner ---------------------------------------------------------------------


def test_adjudicate_checkmate_stalemate_and_cap() -> None:
    # Rulings from the rulebook: checkmate and stalemate both lose for the side to move.
    assert pyffish_ruling("3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1", []) == "1-0"
    mate = adjudicate(Position("3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1"))
    assert mate is not None and mate.result == "1-0" and mate.termination == "checkmate"
    assert pyffish_ruling("3k5/4P4/9/9/9/9/9/9/9/4K4 b - - 0 1", []) == "1-0"
    stalemate = adjudicate(Position("3k5/4P4/9/9/9/9/9/9/9/4K4 b - - 0 1"))
    assert (
        stalemate is not None and stalemate.result == "1-0" and stalemate.termination == "stalemate"
    )
    assert adjudicate(Position()) is None
    pos = Position()
    # Pawn moves: nothing repeats (a repeated cycle would be ruled a repetition first).
    for text in ["a3a4", "a6a5", "c3c4", "c6c5", "e3e4", "e6e5", "g3g4", "g6g5", "i3i4", "i6i5"]:
        pos.push_iccs(text)
    assert pos.outcome() is None
    capped = adjudicate(pos, max_plies=10)
    assert capped is not None and capped.result == "1/2-1/2"
    assert capped.termination == "adjudication"


@pytest.mark.parametrize(
    ("text", "tc"),
    [
        ("40/60+0.6", TimeControl(seconds=60, increment=0.6, moves=40)),
        ("10+0.1", TimeControl(seconds=10, increment=0.1)),
        ("5", TimeControl(seconds=5)),
        ("st=0.5", TimeControl(movetime=0.5)),
        ("depth=6", TimeControl(depth=6)),
        ("nodes=1000,depth=9", TimeControl(nodes=1000, depth=9)),
        ("movetime=250", TimeControl(movetime=0.25)),
        ("tc=2+.05 depth=12", TimeControl(seconds=2, increment=0.05, depth=12)),
    ],
)
def test_time_control_parse(text: str, tc: TimeControl) -> None:
    assert TimeControl.parse(text) == tc


def test_time_control_pgn_tag() -> None:
    assert TimeControl.parse("40/60+0.6").pgn() == "40/60+0.6"
    assert TimeControl.parse("10+0.1").pgn() == "10+0.1"
    assert TimeControl.parse("st=0.5").pgn() == "st=0.5"
    assert TimeControl.parse("depth=6").pgn() == "depth=6"


@pytest.mark.parametrize(
    "text",
    ["", "depth", "depth=x", "depth=²", "depth=٣", "depth=0", "depth=-1", "40/0", "0+1",
     "st=0", "st=-1", "time=5", "+1", "1+", "40/", "1e3", "inf", "nan"],
)  # fmt: skip
def test_time_control_rejects(text: str) -> None:
    with pytest.raises(ValueError, match="time control|at least|more than 0|>= 1|number"):
        TimeControl.parse(text)


def test_parse_tc_keeps_the_per_move_form() -> None:
    assert parse_tc("depth=3") == Limit(depth=3)
    assert parse_tc("movetime=250") == Limit(time=0.25)
    assert parse_tc("nodes=1000,depth=9") == Limit(nodes=1000, depth=9)
    with pytest.raises(ValueError, match="not a per-move limit"):
        parse_tc("10+0.1")


def test_make_limit_passes_the_clocks() -> None:
    tc = TimeControl.parse("40/10+0.1 depth=20")
    limit = make_limit(tc, Color.BLACK, [8.0, 6.0], [0.1, 0.1], 2)
    assert limit.depth == 20
    # the engine client sends them as wtime/btime/winc/binc/movestogo
    assert limit.red_clock == 8.0 and limit.black_clock == 6.0
    assert limit.black_inc == 0.1 and limit.remaining_moves == 2
    assert make_limit(TimeControl(depth=3), Color.RED, [None, None], [0, 0], None) == Limit(depth=3)


def test_engine_spec_parse() -> None:
    spec = EngineSpec.parse("name=weak cmd=/usr/games/fairy-stockfish 'option.Skill Level=0'")
    assert spec == EngineSpec(
        ("/usr/games/fairy-stockfish",), "uci", name="weak", options=(("Skill Level", "0"),)
    )
    spec = EngineSpec.parse(
        "cmd=/opt/eleeye arg=-x proto=ucci dir=/tmp timeout=2.5 option.Hash=32 st=0.2",
        each="tc=2+0.05 option.Hash=16 option.Threads=1",
    )
    assert spec.command == ("/opt/eleeye", "-x") and spec.protocol == "ucci"
    assert spec.directory == "/tmp" and spec.timeout == 2.5
    assert dict(spec.options) == {"Hash": "32", "Threads": "1"}  # the engine's own wins
    assert spec.tc == TimeControl(seconds=2, increment=0.05, movetime=0.2)
    # The plain command-line form of earlier versions.
    assert EngineSpec.parse("ucci:/opt/eleeye -x") == EngineSpec(("/opt/eleeye", "-x"), "ucci")
    assert EngineSpec.parse("'/opt/my engine'") == EngineSpec(("/opt/my engine",), "uci")


@pytest.mark.parametrize(
    ("text", "each", "message"),
    [
        ("uci:", "", "empty"),
        ("name=x cmd='/a", "", "No closing quotation"),
        ("name=x", "", "need cmd="),
        ("cmd=/a bogus=1", "", "unknown engine setting 'bogus'"),
        ("cmd=/a oops", "", "key=value"),
        ("cmd=/a proto=xboard", "", "uci or ucci"),
        ("cmd=/a tc=abc", "", "time control"),
        ("cmd=/a timeout=-1", "", "timeout"),
        ("cmd=/a", "cmd=/b", "belongs to one engine"),
        ("cmd=/a", "'unbalanced", "No closing quotation"),
    ],
)
def test_engine_spec_rejects(text: str, each: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        EngineSpec.parse(text, each)


def test_load_openings(tmp_path: Path) -> None:
    pgn = tmp_path / "book.pgn"
    pgn.write_text(OPENINGS, encoding="utf-8")
    book = load_openings(pgn)
    assert [[m.iccs() for m in o.moves] for o in book] == [["h2e2", "h9g7"], ["c3c4"]]
    assert [len(o.moves) for o in load_openings(pgn, plies=1)] == [1, 1]
    epd = tmp_path / "book.epd"
    epd.write_text(
        f'# two positions\n{START}\n\n3k5/9/9/9/9/9/9/9/9/3RK4 b - - id "mate in 0";\n',
        encoding="utf-8",
    )
    book = load_openings(epd)
    assert [o.fen for o in book] == [START, "3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1"]
    gbk = tmp_path / "gbk.pgn"
    gbk.write_bytes('[Event "象棋"]\n\n1. 炮二平五 *\n'.encode("gbk"))
    with pytest.raises(ValueError, match="not UTF-8"):
        load_openings(gbk)
    bad = tmp_path / "bad.epd"
    bad.write_text(f"{START}\nnot a fen\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 2"):
        load_openings(bad)
    empty = tmp_path / "empty.epd"
    empty.write_text("# nothing\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no openings"):
        load_openings(empty)
    illegal = tmp_path / "illegal.pgn"
    illegal.write_text('[Event "x"]\n\n1. A0-A5 *\n', encoding="utf-8")
    with pytest.raises(ValueError, match="game 1"):
        load_openings(illegal)


def test_run_match_rejects_bad_arguments() -> None:
    spec = fake_spec("ok")
    with pytest.raises(ValueError, match="exactly two engines"):
        run_match([spec], 2, Limit(depth=1))
    with pytest.raises(ValueError, match="games must be at least 1"):
        run_match([spec, spec], 0, Limit(depth=1))
    with pytest.raises(ValueError, match="not both"):
        run_match([spec, spec], 2, rounds=1)
    with pytest.raises(ValueError, match="opening order"):
        run_match([spec, spec], 2, opening_order="shuffled")
    with pytest.raises(TypeError, match="concurrency must be an int"):
        run_match([spec, spec], 2, concurrency=1.5)  # type: ignore[arg-type]


# -- scripted games: openings, clocks, adjudication, faults -----------------------------------


def test_openings_come_in_pairs_with_colours_reversed_and_the_book_end_marked() -> None:
    book = [g.end().board() for g in read_games(OPENINGS)]
    out = io.StringIO()
    result = run_match(
        [scripted(name="A"), scripted(name="B")],
        rounds=3,
        tc="depth=1",
        openings=book,
        concurrency=2,
        max_plies=8,
        pgn_out=out,
    )
    games = list(read_games(out.getvalue()))
    assert [g.tags["Round"] for g in games] == ["1", "1", "2", "2", "3", "3"]
    assert [(g.tags["Red"], g.tags["Black"]) for g in games] == [("A", "B"), ("B", "A")] * 3
    assert all(g.tags["TimeControl"] == "depth=1" for g in games)
    assert all(len(g.tags["Date"]) == 10 and g.tags["Event"] == "xiangqi match" for g in games)
    openings = [["h2e2", "h9g7"], ["h2e2", "h9g7"], ["c3c4"], ["c3c4"]] + [["h2e2", "h9g7"]] * 2
    for game, opening in zip(games, openings):
        assert [m.iccs() for m in game.mainline_moves()[: len(opening)]] == opening
        nodes = list(game.mainline())
        assert nodes[len(opening) - 1].comment.startswith("end of opening")
        assert all("end of opening" not in n.comment for n in nodes[len(opening) :])
    assert result.games == games or [g.to_pgn() for g in result.games] == [
        g.to_pgn() for g in games
    ]
    assert [r["opening"] for r in sorted(result.records, key=lambda r: r["game"])] == [
        0, 0, 1, 1, 0, 0
    ]  # fmt: skip


@pytest.mark.slow  # waits on timeouts or a deep count: the slow run (CI)
def test_random_opening_order_is_seeded(tmp_path: Path) -> None:
    epd = tmp_path / "book.epd"
    positions = []
    pos = Position()
    for text in ["h2e2", "h9g7", "b0c2", "b9c7", "a3a4"]:
        pos.push_iccs(text)
        positions.append(pos.fen())
    epd.write_text("\n".join(positions) + "\n", encoding="utf-8")

    def order(seed: int) -> list[int]:
        result = run_match(
            [scripted(), scripted()],
            rounds=5,
            tc="depth=1",
            openings=str(epd),
            opening_order="random",
            seed=seed,
            max_plies=1,
            concurrency=2,
        )
        records = sorted(result.records, key=lambda r: r["game"])
        assert [r["opening"] for r in records[::2]] == [r["opening"] for r in records[1::2]]
        return [r["opening"] for r in records[::2]]

    first = order(7)
    assert sorted(first) == [0, 1, 2, 3, 4]  # each opening once per cycle
    assert order(7) == first


@pytest.mark.slow
def test_an_engine_over_its_clock_loses_on_time_and_the_margin_counts() -> None:
    # Red's clock is 0.3 s; the slow engine takes 0.6 s for its first move.
    result = run_match(
        [scripted("--sleep", "0.6", name="slow"), scripted(name="fast")],
        2,
        tc="0.3+0",
        time_margin=0.05,
    )
    assert [g.tags["Termination"] for g in result.games] == ["time forfeit"] * 2
    assert [g.result for g in result.games] == ["0-1", "1-0"]  # slow lost with each colour
    assert "slow" not in result.games[0].tags["Black"]
    assert "loses on time" in result.games[0].end().comment
    # A fixed 0.1 s a move, 0.3 s taken: lost with a 0.05 s margin, played with a 1 s margin.
    lost = run_match([scripted("--sleep", "0.3"), scripted()], 1, tc="st=0.1", time_margin=0.05)
    assert lost.games[0].tags["Termination"] == "time forfeit"
    kept = run_match(
        [scripted("--sleep", "0.3"), scripted()], 1, tc="st=0.1", time_margin=1.0, max_plies=3
    )
    assert kept.games[0].tags["Termination"] == "adjudication"


@pytest.mark.slow
def test_an_engine_that_never_answers_loses_on_time_without_waiting_for_it() -> None:
    result = run_match(
        [scripted("--sleep", "600", timeout=1.0), scripted()], 1, tc="0.5+0", time_margin=0.1
    )
    game = result.games[0]
    assert game.tags["Termination"] == "time forfeit" and game.result == "0-1"


def test_the_runner_keeps_the_clock_and_refills_it_each_period(tmp_path: Path) -> None:
    log = tmp_path / "red.log"
    run_match(
        [scripted("--sleep", "0.05", "--log", str(log)), scripted()],
        1,
        tc="2/1+0",  # 2 moves a second
        max_plies=6,
        time_margin=0.5,
    )
    lines = log.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3  # Red's three moves
    words = [line.split() for line in lines]
    clock = [int(w[w.index("wtime") + 1]) for w in words]
    togo = [int(w[w.index("movestogo") + 1]) for w in words]
    assert clock[0] == 1000 and togo == [2, 1, 2]
    assert clock[1] < 1000 < clock[2]  # spent, then refilled after the period's 2 moves


def test_an_engine_runs_in_its_working_directory(tmp_path: Path) -> None:
    spec = EngineSpec.parse(
        f"cmd={sys.executable} arg={MATCH_ENGINE} arg=--log arg=go.log dir={tmp_path}"
    )
    assert spec.directory == str(tmp_path)
    run_match([spec, scripted()], 1, tc="depth=1", max_plies=2)
    assert (tmp_path / "go.log").read_text(encoding="utf-8").startswith("go depth 1")


@pytest.mark.slow  # waits on timeouts or a deep count: the slow run (CI)
def test_draw_and_resign_by_score_and_the_ply_cap() -> None:
    quiet = run_match(
        [scripted("--score", "5"), scripted("--score", "-5")],
        1,
        tc="depth=1",
        draw="movenumber=2 movecount=2 score=10",
    )
    game = quiet.games[0]
    assert game.result == "1/2-1/2" and game.tags["Termination"] == "adjudication"
    assert len(game.mainline_moves()) == 4 and "both scores within 10 cp" in game.end().comment
    lost = run_match(
        [scripted("--score", "-700", name="loser"), scripted("--score", "700")],
        2,
        tc="depth=1",
        resign="movecount=2 score=600",
    )
    assert [g.result for g in lost.games] == ["0-1", "1-0"]
    assert [len(g.mainline_moves()) for g in lost.games] == [3, 4]  # after the loser's 2nd move
    assert "Red resigns" in lost.games[0].end().comment
    # Two-sided: the opponent's 0 does not agree, so the game runs to the ply cap.
    capped = run_match(
        [scripted("--score", "-700"), scripted("--score", "0")],
        1,
        tc="depth=1",
        resign="movecount=2 score=600 twosided=true",
        max_plies=6,
    )
    assert len(capped.games[0].mainline_moves()) == 6 and capped.games[0].result == "1/2-1/2"
    assert "6-ply cap" in capped.games[0].end().comment


@pytest.mark.parametrize(
    ("flag", "termination"),
    [("--illegal-after", "rules infraction"), ("--crash-after", "abandoned")],
)
def test_a_faulty_engine_loses_and_is_restarted(flag: str, termination: str) -> None:
    result = run_match([scripted(flag, "1"), scripted()], 2, tc="depth=1")
    assert [g.tags["Termination"] for g in result.games] == [termination] * 2
    assert [g.result for g in result.games] == ["0-1", "1-0"]
    # It fails on its second search. Restarted, it plays its first move of game 2 again
    # (as Black: 3 plies); a process kept from game 1 would fail at once (1 ply).
    assert [len(g.mainline_moves()) for g in result.games] == [2, 3]


def test_an_engine_sending_an_illegal_move_forfeits() -> None:
    """The fake "ok" engine always plays h2e2 (legal at the start), "illegal" plays a0a5."""
    out = io.StringIO()
    result = run_match(
        [fake_spec("ok"), fake_spec("illegal")], 2, Limit(depth=1), pgn_out=out, progress=None
    )
    assert (result.wins, result.draws, result.losses) == (2, 0, 0)
    games = list(read_games(out.getvalue()))
    assert [g.result for g in games] == ["1-0", "0-1"]  # the illegal engine lost each colour
    assert all(g.tags["Termination"] == "rules infraction" for g in games)
    assert "a0a5" in mainline_comments(games[0])[1]


def test_an_engine_that_cannot_start_fails_the_match() -> None:
    with pytest.raises(EngineError, match="not found"):
        run_match([EngineSpec(("/nonexistent/engine",)), scripted()], 2, tc="depth=1")


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.slow  # waits on timeouts or a deep count: the slow run (CI)
def test_ctrl_c_stops_every_game_closes_every_engine_and_keeps_finished_games(
    tmp_path: Path,
) -> None:
    pids = tmp_path / "pids"
    out = io.StringIO()
    results = io.StringIO()
    specs = [
        scripted("--sleep", "0.2", "--pids", str(pids), "--ignore-quit", timeout=1.0),
        scripted("--sleep", "0.2", "--pids", str(pids)),
    ]

    def interrupt_after_the_first_game() -> None:
        deadline = time.monotonic() + 60
        while "[Round" not in out.getvalue() and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.1)  # in the middle of the next games
        _thread.interrupt_main()

    helper = threading.Thread(target=interrupt_after_the_first_game)
    helper.start()
    began = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        run_match(
            specs,
            20_000_000,  # numbered as they start: nothing is allocated per game up front
            tc="depth=1",
            concurrency=2,
            max_plies=3,
            pgn_out=out,
            results_out=results,
        )
    stopped_in = time.monotonic() - began
    helper.join()
    assert stopped_in < 60
    assert not [
        t for t in threading.enumerate() if t.name.startswith("xiangqi-match") and t.is_alive()
    ]
    started = [int(p) for p in pids.read_text(encoding="utf-8").split()]
    assert len(started) >= 4 and not [p for p in started if _alive(p)]
    games = list(read_games(out.getvalue()))
    assert games and all(g.result in ("1-0", "0-1", "1/2-1/2") for g in games)
    assert all(len(g.mainline_moves()) == 3 for g in games)  # only games that ended by themselves
    data = json.loads(results.getvalue())
    assert data["totals"]["stopped"] == "interrupted"
    assert data["totals"]["games"] == len(games) == len(data["games"])
    assert [r["game"] for r in data["games"]] == sorted(r["game"] for r in data["games"])


@pytest.mark.slow
def test_ctrl_c_on_the_command_line_exits_130_with_the_games_written(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    pgn = tmp_path / "games.pgn"
    results = tmp_path / "results.json"
    engine = f"cmd={sys.executable} arg={MATCH_ENGINE} arg=--sleep arg=0.2 arg=--pids arg={pids}"
    argv = [
        sys.executable, "-m", "xiangqi", "match",
        "--engine", f"{engine} arg=--ignore-quit timeout=1", "--engine", engine,
        "--each", "depth=1", "--games", "20000000", "--concurrency", "2", "--max-plies", "3",
        "--pgn", str(pgn), "--results", str(results),
    ]  # fmt: skip
    # The xiangqi this test imports (a checkout's or an installed wheel's), from a directory
    # where no source tree can shadow it.
    env = dict(os.environ, PYTHONPATH=str(Path(xiangqi.__file__).resolve().parents[1]))
    proc = subprocess.Popen(
        argv, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        # The PGN is written beside games.pgn (.games.pgn.*.part) until the match ends.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any(
            "[Round" in part.read_text(encoding="utf-8")
            for part in tmp_path.glob(".games.pgn.*.part")
        ):
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert b"Traceback" not in err and b"xiangqi: interrupted" in err
    started = [int(p) for p in pids.read_text(encoding="utf-8").split()]
    assert len(started) >= 4 and not [p for p in started if _alive(p)]
    games = list(read_games(pgn))
    assert games and all(len(g.mainline_moves()) == 3 for g in games)
    data = json.loads(results.read_text(encoding="utf-8"))
    assert data["totals"]["stopped"] == "interrupted"
    assert data["totals"]["games"] == len(games)
    assert not list(tmp_path.glob(".*.part"))  # moved over their targets


@pytest.mark.slow
def test_sprt_stops_a_huge_match_without_allocating_per_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The first engine sends an illegal move at once and loses every game: H0 is accepted.
    weak = f"name=weak cmd={sys.executable} arg={MATCH_ENGINE} arg=--illegal-after arg=0"
    strong = f"name=strong cmd={sys.executable} arg={MATCH_ENGINE}"
    results = tmp_path / "r.json"
    tracemalloc.start()
    try:
        code = main(
            ["match", "--engine", weak, "--engine", strong, "--each", "depth=1",
             "--games", "20000000", "--concurrency", "2", "--results", str(results),
             "--sprt", "elo0=0 elo1=200 alpha=0.05 beta=0.05 model=logistic"]
        )  # fmt: skip
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert peak < 20_000_000  # bytes; 20 M games allocated up front take hundreds of MB
    assert "H0 accepted" in captured.out
    data = json.loads(results.read_text(encoding="utf-8"))
    totals = data["totals"]
    assert totals["stopped"] == "H0" and totals["llr"] <= data["sprt"]["lower_bound"]
    assert totals["losses"] == totals["games"] < 40
    sprt = SPRT(0, 200, model="logistic")
    assert totals["llr"] == pytest.approx(sprt.llr(totals["pentanomial"]))
    assert "LLR" in captured.err and "Elo" in captured.err


# -- real matches ------------------------------------------------------------------------------


@pytest.mark.slow
@needs_fairy
def test_real_match_games_replay_and_rulings_agree(tmp_path: Path) -> None:
    assert FAIRY is not None
    out = tmp_path / "games.pgn"
    progress = io.StringIO()
    handle = out.open("w", encoding="utf-8")
    specs = [EngineSpec((FAIRY,)), EngineSpec((FAIRY,), "ucci")]
    result = run_match(
        specs,
        4,
        parse_tc("depth=2"),
        openings=[g.end().board() for g in read_games(OPENINGS)],
        concurrency=2,
        max_plies=80,
        pgn_out=handle,
        progress=progress,
    )
    handle.close()
    assert "games 4/4" in progress.getvalue()
    games = list(read_games(out.read_text(encoding="utf-8")))
    assert [int(g.tags["Round"]) for g in games] == [1, 1, 2, 2]
    assert result.wins + result.draws + result.losses == 4
    assert result.names == ("Fairy-Stockfish 11.1 LB 64 #1", "Fairy-Stockfish 11.1 LB 64 #2")
    check_games_by_pyffish(games, cap=80)
    for k, game in enumerate(games):
        opening = ["h2e2", "h9g7"] if k < 2 else ["c3c4"]
        assert [m.iccs() for m in game.mainline_moves()[: len(opening)]] == opening
        names = (game.tags["Red"], game.tags["Black"])
        assert names == (result.names if k % 2 == 0 else result.names[::-1])


@needs_fairy
@pytest.mark.oracle
def test_real_match_two_settings_end_by_sprt_for_the_stronger(tmp_path: Path) -> None:
    """Depth 6 against depth 1 and Skill Level 0 on a 2 s + 0.1 s clock, two games at a time,
    to the SPRT's decision for the stronger (H1)."""
    assert FAIRY is not None
    pgn = tmp_path / "games.pgn"
    results = tmp_path / "results.json"
    argv = [
        "match",
        "--engine", f"name=strong cmd={FAIRY} depth=6",
        "--engine", f"name=weak cmd={FAIRY} depth=1 'option.Skill Level=0'",
        "--each", "tc=2+0.1 option.Threads=1 option.Hash=16",
        "--rounds", "40", "--concurrency", "2", "--max-plies", "200",
        "--sprt", "elo0=0 elo1=300 alpha=0.05 beta=0.05 model=logistic",
        "--pgn", str(pgn), "--results", str(results),
    ]  # fmt: skip
    assert main(argv) == 0
    data = json.loads(results.read_text(encoding="utf-8"))
    assert data["totals"]["stopped"] == "H1", data["totals"]
    assert data["sprt"]["state"] == "H1"
    games = list(read_games(pgn))
    assert len(games) == data["totals"]["games"] < 80
    tags = {(g.tags["RedTimeControl"], g.tags["BlackTimeControl"]) for g in games}
    assert tags == {("2+0.1 depth=6", "2+0.1 depth=1"), ("2+0.1 depth=1", "2+0.1 depth=6")}
    check_games_by_pyffish(games, cap=200)
    assert data["totals"]["elo"] > 0 and data["totals"]["los"] > 0.95


@needs_fairy
def test_match_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert FAIRY is not None
    out = tmp_path / "m.pgn"
    argv = ["match", "--engine", FAIRY, "--engine", f"ucci:{FAIRY}", "--games", "2"]
    code = main([*argv, "--tc", "nodes=300", "--pgn", str(out), "--max-plies", "40"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "games 2/2" in captured.err
    assert captured.out.startswith("Fairy-Stockfish")
    assert len(list(read_games(out.read_text(encoding="utf-8")))) == 2


@pytest.mark.parametrize(
    "args",
    [
        ["--engine", "cmd=/nonexistent/a", "--tc", "depth=²"],
        ["--engine", "name=x cmd='/nonexistent/a"],
        ["--engine", "cmd=/nonexistent/a", "--openings", "GBK"],
        ["--engine", "cmd=/nonexistent/a", "--openings", "/nonexistent/book.pgn"],
        ["--engine", "cmd=/nonexistent/a", "--games", "x"],
        ["--engine", "cmd=/nonexistent/a", "--games", "0"],
        ["--engine", "cmd=/nonexistent/a", "--rounds", "-1"],
        ["--engine", "cmd=/nonexistent/a", "--games", "2", "--rounds", "1"],
        ["--engine", "cmd=/nonexistent/a", "--sprt", "elo0=a"],
        ["--engine", "cmd=/nonexistent/a", "--draw", "movecount=x"],
        ["--engine", "cmd=/nonexistent/a", "--resign", "score=5"],
        ["--engine", "cmd=/nonexistent/a bogus=1"],
        ["--engine", "cmd=/nonexistent/a", "--each", "cmd=/b"],
        ["--engine", "cmd=/nonexistent/a", "--concurrency", "0"],
        ["--engine", "cmd=/nonexistent/a", "--time-margin", "-1"],
        ["--engine", "cmd=/nonexistent/a", "--opening-plies", "²"],
        ["--engine", "cmd=/nonexistent/a", "--no-such-flag"],
        ["--engine", "cmd=/nonexistent/a"],  # the second engine
    ],
)
def test_match_command_errors_are_one_line(
    args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gbk = tmp_path / "gbk.pgn"
    gbk.write_bytes('[Event "象棋"]\n\n1. 炮二平五 *\n'.encode("gbk"))
    argv = [
        "match",
        "--engine",
        "cmd=/nonexistent/b",
        *[str(gbk) if a == "GBK" else a for a in args],
    ]
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code  # type: ignore[assignment]
    err = capsys.readouterr().err
    assert code == 2, err
    assert len(err.splitlines()) == 1 and err.startswith("xiangqi: error: "), err


def test_match_command_reports_an_engine_that_cannot_start(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["match", "--engine", "/nonexistent/a", "--engine", "/nonexistent/b"]) == 2
    err = capsys.readouterr().err
    assert "engine not found: '/nonexistent/a'" in err and len(err.splitlines()) == 1


@needs_fairy
@pytest.mark.parametrize("notation", ["iccs", "wxf", "chinese"])
def test_analyse_command(notation: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert FAIRY is not None
    argv = ["analyse", "--engine", FAIRY, "--depth", "5", "--multipv", "3"]
    assert main([*argv, "--notation", notation]) == 0
    lines = capsys.readouterr().out.splitlines()
    pv_lines = [line for line in lines if line[:2] in ("1.", "2.", "3.")]
    assert len(pv_lines) == 3
    if notation == "iccs":
        for line in pv_lines:
            pv = line.split("(Red's view)")[1].split()
            ranks1 = [iccs(Move.from_iccs(m), "ranks1") for m in pv]
            for k, move in enumerate(ranks1):
                assert move in pyffish.legal_moves("xiangqi", START, ranks1[:k])
    if notation == "chinese":
        assert any(ch in lines[2] for ch in "兵炮马车相仕帅")


@needs_fairy
def test_analyse_command_mate(capsys: pytest.CaptureFixture[str]) -> None:
    assert FAIRY is not None
    fen = "3k5/8P/9/7R1/9/4H4/9/9/6p2/4KA3 w - - 0 1"  # proven in test_engine_fairy.py
    assert main(["analyse", "--engine", f"ucci:{FAIRY}", "--fen", fen, "--movetime", "200"]) == 0
    assert "mate +2 (Red's view)" in capsys.readouterr().out


def test_opening_dataclass_round_trip() -> None:
    pos = Position()
    pos.push_iccs("h2e2")
    opening = Opening.from_position(pos)
    assert opening == Opening(START, (Move.from_iccs("h2e2"),))
    assert opening.position() == pos
    assert math.isfinite(SPRT().upper_bound)


# The Chinese rule book's 图8 (tests/data/chinese_rules/cases.txt, cxa2020-fig08): a cycle
# the book rules lost for Red (一将一捉), a draw under the Asian rules (the table's column).
FIG08_FEN = "3a3R1/3Nck3/3ab4/P4r3/9/8p/2p5n/C3BA2B/4A4/4K4 w - - 0 1"
FIG08_CYCLE = ["h9h3", "f8f9", "h3h9", "f9f8"]


def fig08_twice() -> Position:
    pos = Position(FIG08_FEN)
    for text in 2 * FIG08_CYCLE:
        pos.push_iccs(text)
    return pos


def test_adjudicate_by_the_chosen_rule_set() -> None:
    pos = fig08_twice()
    asian = adjudicate(pos)
    assert asian is not None and (asian.result, asian.termination) == ("1/2-1/2", "repetition")
    chinese = adjudicate(pos, rules="chinese")
    assert chinese is not None and chinese.result == "0-1"
    assert chinese.termination == "check and chase" and "Red loses" in chinese.reason
    with pytest.raises(ValueError, match="'fide'"):
        adjudicate(pos, rules="fide")
    with pytest.raises(ValueError, match="'fide'"):
        Adjudication(rules="fide")
    assert Adjudication(rules="chinese").rules is Rules.CHINESE


def test_run_match_adjudicates_by_the_chinese_rules_and_names_them() -> None:
    # Both games open with the book's cycle played twice (the third occurrence): the
    # runner rules before any engine move, by the rule set asked for.
    opening = fig08_twice()
    out = io.StringIO()
    result = run_match(
        [scripted(), scripted()], 2, tc="depth=1", openings=[opening], rules="chinese", pgn_out=out
    )
    games = list(read_games(out.getvalue()))
    assert [g.result for g in games] == ["0-1", "0-1"]
    assert all(g.tags["Termination"] == "check and chase" for g in games)
    assert all(g.tags["Rules"] == "chinese" for g in games)
    assert [len(g.mainline_moves()) for g in games] == [8, 8]
    assert result.wins == result.losses == 1  # the engines swap colours
    asian = run_match([scripted(), scripted()], 1, tc="depth=1", openings=[opening])
    assert asian.games[0].result == "1/2-1/2" and asian.games[0].tags["Rules"] == "asian"
    with pytest.raises(ValueError, match="'fide'"):
        run_match([scripted(), scripted()], 1, rules="fide")
    with pytest.raises(TypeError, match="int"):
        run_match([scripted(), scripted()], 1, rules=2)  # type: ignore[arg-type]


def test_match_command_takes_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from xiangqi.pgn import Game

    book = tmp_path / "book.pgn"
    book.write_text(Game.from_board(fig08_twice()).to_pgn(), encoding="utf-8")
    out, results = tmp_path / "m.pgn", tmp_path / "m.json"
    engine = f"cmd={sys.executable} arg={MATCH_ENGINE}"
    argv = ["match", "--engine", engine, "--engine", engine, "--games", "2", "--tc", "depth=1"]
    argv += ["--openings", str(book), "--rules", "chinese"]
    code = main([*argv, "--pgn", str(out), "--results", str(results)])
    assert code == 0, capsys.readouterr().err
    games = list(read_games(out.read_text(encoding="utf-8")))
    assert [(g.result, g.tags["Rules"]) for g in games] == [("0-1", "chinese")] * 2
    assert json.loads(results.read_text(encoding="utf-8"))["rules"] == "chinese"
    with pytest.raises(SystemExit) as exc:  # argparse refuses it before anything runs
        main([*argv[:-1], "wxf"])
    assert exc.value.code == 2
    assert "invalid choice: 'wxf'" in capsys.readouterr().err
