"""The match runner (xiangqi.match) and the analyse/match commands.

Games played by the real engine are replayed with pyffish (Fairy-Stockfish's rules as a
library, independent of this package's core), and each result is checked against pyffish's
own ruling on the final position. Fault games use the scripted fake engine.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pyffish
import pytest
from test_engine_fairy import FAIRY, SKIP_REASON

from xiangqi import Move, Position, Termination
from xiangqi.__main__ import main
from xiangqi.engine import Limit
from xiangqi.match import EngineSpec, adjudicate, parse_tc, run_match
from xiangqi.notation import iccs
from xiangqi.pgn import read_games

FAKE = Path(__file__).parent / "engines" / "fake_engine.py"
needs_fairy = pytest.mark.skipif(FAIRY is None, reason=SKIP_REASON)
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
OPENINGS = """[Game "Chinese Chess"]
[Format "ICCS"]

1. H2-E2 H9-G7 *

[Game "Chinese Chess"]
[Format "ICCS"]

1. C3-C4 *
"""


def fake_spec(mode: str) -> EngineSpec:
    return EngineSpec((sys.executable, str(FAKE), mode))


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
    ("text", "limit"),
    [
        ("depth=3", Limit(depth=3)),
        ("movetime=250", Limit(time=0.25)),
        ("nodes=1000,depth=9", Limit(nodes=1000, depth=9)),
    ],
)
def test_parse_tc(text: str, limit: Limit) -> None:
    assert parse_tc(text) == limit


@pytest.mark.parametrize("text", ["", "depth", "depth=x", "time=5", "depth=0", "depth=-1"])
def test_parse_tc_rejects(text: str) -> None:
    with pytest.raises(ValueError, match="time control must be|at least 1"):
        parse_tc(text)


def test_engine_spec_parse() -> None:
    assert EngineSpec.parse("ucci:/opt/eleeye -x") == EngineSpec(("/opt/eleeye", "-x"), "ucci")
    assert EngineSpec.parse("'/opt/my engine'") == EngineSpec(("/opt/my engine",), "uci")
    with pytest.raises(ValueError, match="empty"):
        EngineSpec.parse("uci:")


def test_run_match_rejects_bad_arguments() -> None:
    spec = fake_spec("ok")
    with pytest.raises(ValueError, match="exactly two engines"):
        run_match([spec], 2, Limit(depth=1))
    with pytest.raises(ValueError, match="games must be at least 1"):
        run_match([spec, spec], 0, Limit(depth=1))


def test_an_engine_sending_an_illegal_move_forfeits() -> None:
    """The fake "ok" engine always plays h2e2 (legal at the start), "illegal" plays a0a5."""
    out = io.StringIO()
    result = run_match(
        [fake_spec("ok"), fake_spec("illegal")], 2, Limit(depth=1), pgn_out=out, progress=None
    )
    assert (result.wins, result.draws, result.losses) == (2, 0, 0)
    games = read_games(out.getvalue())
    assert [g.result for g in games] == ["1-0", "0-1"]  # the illegal engine lost each colour
    assert all(g.tags["Termination"] == "rules infraction" for g in games)
    assert "a0a5" in games[0].comments[1]


def test_an_engine_that_dies_loses_and_is_restarted() -> None:
    result = run_match(
        [fake_spec("die_in_search"), fake_spec("ok")], 3, Limit(depth=1), progress=None
    )
    assert (result.wins, result.losses) == (0, 3)
    # It exits on its first "go" in every game, as Red (games 1, 3) and as Black (game 2),
    # and is restarted for the next game each time.
    terminations = [g.tags["Termination"] for g in result.games]
    assert terminations == ["abandoned", "abandoned", "abandoned"]
    assert "exited (code 3)" in result.games[2].comments[0]


# -- a real match ------------------------------------------------------------------------------


@needs_fairy
def test_real_match_games_replay_and_rulings_agree(tmp_path: Path) -> None:
    assert FAIRY is not None
    openings = tmp_path / "openings.pgn"
    openings.write_text(OPENINGS, encoding="utf-8")
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
    assert "4/4" in progress.getvalue() and "[########################]" in progress.getvalue()
    games = read_games(out.read_text(encoding="utf-8"))
    assert sorted(int(g.tags["Round"]) for g in games) == [1, 2, 3, 4]
    assert result.wins + result.draws + result.losses == 4
    for game in games:
        assert not game.errors and not game.unread
        assert game.tags["Result"] in ("1-0", "0-1", "1/2-1/2")
        moves = [iccs(m, "ranks1") for m in game.moves]
        for k, move in enumerate(moves):  # every move legal by pyffish's rules
            assert move in pyffish.legal_moves("xiangqi", game.fen, moves[:k]), (game, k)
        round_no = int(game.tags["Round"])
        opening = ["h2e2", "h9g7"] if round_no in (1, 2) else ["c3c4"]
        assert [m.iccs() for m in game.moves[: len(opening)]] == opening
        ruling = pyffish_ruling(game.fen, moves)
        if game.tags["Termination"] == "adjudication":
            assert len(moves) >= 80 and game.result == "1/2-1/2"
        else:
            # A ruling the rules name (checkmate, stalemate, perpetual check, ...).
            assert game.tags["Termination"] in {
                t.name.lower().replace("_", " ") for t in Termination
            }
            assert ruling == game.result, (game.to_pgn(), ruling)
        red_first = round_no % 2 == 1
        names = (game.tags["Red"], game.tags["Black"])
        assert names == (result.names if red_first else result.names[::-1])


@needs_fairy
def test_match_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert FAIRY is not None
    out = tmp_path / "m.pgn"
    argv = ["match", "--engine", FAIRY, "--engine", f"ucci:{FAIRY}", "--games", "2"]
    code = main([*argv, "--tc", "nodes=300", "--pgn", str(out), "--max-plies", "40"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "2/2" in captured.err
    assert captured.out.startswith("Fairy-Stockfish")
    assert len(read_games(out.read_text(encoding="utf-8"))) == 2


def test_match_command_errors(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["match", "--engine", "x"])
    assert "--engine exactly twice" in capsys.readouterr().err
    assert main(["match", "--engine", "/nonexistent/a", "--engine", "/nonexistent/b"]) == 2
    assert "engine not found: '/nonexistent/a'" in capsys.readouterr().err
    assert main(["match", "--engine", "a", "--engine", "b", "--tc", "time=3"]) == 2
    assert "time control must be" in capsys.readouterr().err


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
