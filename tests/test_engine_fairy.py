"""xiangqi.engine against a real engine: Fairy-Stockfish, in its UCI and UCCI dialects.

Legality is judged independently of this package's core by pyffish (Fairy-Stockfish's rules
as a Python library, squares written with ranks 1..10). The mate-in-2 position is proven by
a brute-force search over pyffish's move lists. These tests skip when no engine is installed,
except in CI (CI=true), where a missing engine is a failure: .ci/run installs it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator

import pyffish
import pytest

from xiangqi import BLACK, RED, Move, Position
from xiangqi.engine import Cp, Dialect, Limit, Mate, SimpleEngine
from xiangqi.notation import iccs


def find_fairy() -> str | None:
    """The engine: $XIANGQI_TEST_ENGINE if set, else fairy-stockfish on PATH or in /usr/games."""
    override = os.environ.get("XIANGQI_TEST_ENGINE")
    if override is not None:
        return override if os.access(override, os.X_OK) else None
    games = "/usr/games/fairy-stockfish"
    return shutil.which("fairy-stockfish") or (games if os.access(games, os.X_OK) else None)


FAIRY = find_fairy()
if FAIRY is None and os.environ.get("CI") == "true":
    pytest.fail("CI=true but fairy-stockfish is not installed (.ci/run installs it)", pytrace=False)
SKIP_REASON = "Fairy-Stockfish not installed (apt-get install fairy-stockfish)"
pytestmark = pytest.mark.skipif(FAIRY is None, reason=SKIP_REASON)

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
#: Red mates in 2 (1. H e4 to c3/d2/f2, then R h6 to d6), found by a brute-force search and
#: proven in test_mate_in_two_is_proven below.
MATE_IN_TWO = "3k5/8P/9/7R1/9/4H4/9/9/6p2/4KA3 w - - 0 1"


def ranks1(moves: list[Move]) -> list[str]:
    return [iccs(m, "ranks1") for m in moves]


def oracle_legal(fen: str, moves: list[Move]) -> set[str]:
    """pyffish's legal moves after moves from fen, as ranks-1..10 ICCS."""
    return set(pyffish.legal_moves("xiangqi", fen, ranks1(moves)))


def replays(fen: str, moves: list[Move]) -> bool:
    """Does every move replay legally from fen, by pyffish's rules?"""
    return all(iccs(move, "ranks1") in oracle_legal(fen, moves[:k]) for k, move in enumerate(moves))


@pytest.mark.slow
def test_mate_in_two_is_proven() -> None:
    """Brute force over pyffish: no mate in 1, and a move after which every reply allows mate."""

    def mated(moves: list[str]) -> bool:
        return not pyffish.legal_moves("xiangqi", MATE_IN_TWO, moves)

    first = pyffish.legal_moves("xiangqi", MATE_IN_TWO, [])
    assert not any(mated([m]) for m in first)
    keys = [
        m
        for m in first
        if (replies := pyffish.legal_moves("xiangqi", MATE_IN_TWO, [m]))
        and all(
            any(mated([m, r, x]) for x in pyffish.legal_moves("xiangqi", MATE_IN_TWO, [m, r]))
            for r in replies
        )
    ]
    assert keys  # ranks 1..10: e5c4 is the book's e4c3


@pytest.fixture(scope="module", params=["uci", "ucci"])
def engine(request: pytest.FixtureRequest) -> Iterator[SimpleEngine]:
    assert FAIRY is not None
    opener = SimpleEngine.popen_uci if request.param == "uci" else SimpleEngine.popen_ucci
    with opener(FAIRY) as eng:
        yield eng


def test_handshake_uci() -> None:
    assert FAIRY is not None
    with SimpleEngine.popen_uci(FAIRY) as eng:
        assert eng.dialect is Dialect.FAIRY  # detected from its UCI_Variant option
        assert eng.id["name"].startswith("Fairy-Stockfish")
        assert eng.id["author"] == "Fabian Fichter"
        assert "xiangqi" in eng.options["UCI_Variant"].var
        hash_option = eng.options["Hash"]
        assert hash_option.type == "spin" and hash_option.min == 1
        assert eng.options["Ponder"].type == "check" and eng.options["Ponder"].default is False
        assert eng.options["Clear Hash"].type == "button"
        eng.configure({"Hash": 8, "Skill Level": 10, "Clear Hash": None})
        assert eng.protocol.config["Skill Level"] == "10"
        assert eng.play(Position(), Limit(depth=2)).move is not None


def test_handshake_ucci() -> None:
    assert FAIRY is not None
    with SimpleEngine.popen_ucci(FAIRY) as eng:
        assert eng.dialect is Dialect.UCCI
        assert eng.id["name"].startswith("Fairy-Stockfish")
        # UCCI option names are single words: Fairy-Stockfish writes Skill_Level.
        assert eng.options["Skill_Level"].type == "spin"
        assert eng.options["Protocol"].default == "ucci"
        eng.configure({"Hash": 8, "Skill_Level": 10})
        assert eng.play(Position(), Limit(depth=2)).move is not None


def play_positions() -> list[tuple[str, list[str]]]:
    """(root FEN, ICCS history): both sides to move, in check, with repetition history."""
    shuffle = ["h0g2", "h9g7", "g2h0", "g7h9"] * 2
    return [
        (START, []),
        (START, ["h2e2"]),
        (START, ["h2e2", "h7e7", "e2e6", "d9e8"]),
        (START, shuffle),
        (START, [*shuffle, "b2e2"]),
        ("3k5/9/9/9/9/9/9/9/4R4/4K4 b - - 0 1", []),  # a lone Black king
        ("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1", []),  # Black in check along the e-file
        ("4k4/4a4/9/9/9/9/9/9/9/3K1R3 w - - 0 1", []),
        ("4k4/4P4/9/9/9/9/9/9/9/4K4 b - - 0 1", []),  # Black in check from a pawn
        (MATE_IN_TWO, []),
    ]


@pytest.mark.parametrize(("root", "history"), play_positions())
def test_play_returns_a_legal_move(engine: SimpleEngine, root: str, history: list[str]) -> None:
    pos = Position(root)
    for text in history:
        pos.push_iccs(text)
    result = engine.play(pos, Limit(depth=4))
    assert result.move is not None
    assert iccs(result.move, "ranks1") in oracle_legal(root, pos.move_stack)
    if result.ponder is not None:
        assert replays(root, [*pos.move_stack, result.move, result.ponder])
    assert "score" in result.info


def test_play_in_check_positions_are_checks() -> None:
    """The positions named "in check" above are, by pyffish's rules."""
    assert pyffish.gives_check("xiangqi", "4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1", [])
    assert pyffish.gives_check("xiangqi", "4k4/4P4/9/9/9/9/9/9/9/4K4 b - - 0 1", [])


def test_play_without_legal_moves_returns_none(engine: SimpleEngine) -> None:
    """Black's king on d9 has no move (the pawn on e8 guards d8 and e9): 困毙."""
    fen = "3k5/4P4/9/9/9/9/9/9/9/4K4 b - - 0 1"
    assert not oracle_legal(fen, [])
    assert engine.play(Position(fen), Limit(depth=3)).move is None


def test_play_with_time_and_nodes_limits(engine: SimpleEngine) -> None:
    pos = Position()
    pos.push_iccs("b2e2")
    for limit in (Limit(time=0.05), Limit(nodes=2000), Limit(depth=3, time=1.0)):
        move = engine.play(pos, limit).move
        assert move is not None and iccs(move, "ranks1") in oracle_legal(START, pos.move_stack)


def test_play_ponder_then_play_again(engine: SimpleEngine) -> None:
    pos = Position()
    first = engine.play(pos, Limit(depth=4), ponder=True)
    assert first.move is not None
    second = engine.play(pos, Limit(depth=3))  # stops the pondering search first
    assert second.move is not None and iccs(second.move, "ranks1") in oracle_legal(START, [])


def test_analyse_multipv_three_distinct_pvs_that_replay(engine: SimpleEngine) -> None:
    pos = Position()
    pos.push_iccs("h2e2")
    infos = engine.analyse(pos, Limit(depth=6), multipv=3)
    assert len(infos) == 3
    firsts = {info["pv"][0] for info in infos}
    assert len(firsts) == 3
    for rank, info in enumerate(infos, 1):
        assert info["multipv"] == rank
        assert replays(START, [*pos.move_stack, *info["pv"]])
        assert info["depth"] >= 1 and info["nodes"] > 0 and info["time"] >= 0
        assert info["score"].turn == BLACK
    scores = [info["score"].relative for info in infos]
    assert scores == sorted(scores, reverse=True)
    single = engine.analyse(pos, Limit(depth=3))
    assert isinstance(single, dict) and single["multipv"] == 1


def test_mate_score_in_a_mate_in_two(engine: SimpleEngine) -> None:
    pos = Position(MATE_IN_TWO)
    info = engine.analyse(pos, Limit(depth=8))
    score = info["score"]
    assert score.is_mate()
    assert score.red() == Mate(2) and score.black() == Mate(-2)
    assert score.pov(RED).score(mate_score=10000) == 9998
    pv = info["pv"]
    assert len(pv) == 3 and replays(MATE_IN_TWO, pv)
    assert not oracle_legal(MATE_IN_TWO, pv)  # the line ends in mate


def test_analysis_stopped_early(engine: SimpleEngine) -> None:
    pos = Position()
    seen = []
    with engine.analysis(pos) as analysis:  # no limit: runs until stopped
        for info in analysis:
            seen.append(info)
            if info.get("depth", 0) >= 3 and "pv" in info:
                analysis.stop()
        result = analysis.wait()
    assert len(seen) >= 3
    assert result.move is not None and iccs(result.move, "ranks1") in oracle_legal(START, [])
    assert isinstance(analysis.info["score"].relative, (Cp, Mate))
    # The engine is usable again afterwards.
    assert engine.play(pos, Limit(depth=2)).move is not None


def test_analysis_interrupted_by_another_command(engine: SimpleEngine) -> None:
    analysis = engine.analysis(Position())
    assert analysis.next() is not None
    move = engine.play(Position(), Limit(depth=2)).move  # stops the analysis first
    assert move is not None
    assert list(analysis) is not None
    assert analysis.next() is None


def test_two_engines_from_two_threads() -> None:
    assert FAIRY is not None
    results: dict[str, list[str]] = {}
    errors: list[BaseException] = []

    def worker(name: str, ucci: bool) -> None:
        try:
            opener = SimpleEngine.popen_ucci if ucci else SimpleEngine.popen_uci
            with opener(FAIRY) as eng:
                pos = Position()
                for _ in range(10):
                    move = eng.play(pos, Limit(depth=3)).move
                    assert move is not None
                    pos.push(move)
                results[name] = [m.iccs() for m in pos.move_stack]
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(n, n == "ucci")) for n in ("uci", "ucci")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not errors, errors
    for moves in results.values():
        assert replays(START, [Move.from_iccs(m) for m in moves])
    assert set(results) == {"uci", "ucci"}


def test_one_engine_shared_by_threads(engine: SimpleEngine) -> None:
    moves: list[Move | None] = []
    lock = threading.Lock()

    def worker() -> None:
        for _ in range(3):
            move = engine.play(Position(), Limit(depth=2)).move
            with lock:
                moves.append(move)

    threads = [threading.Thread(target=worker) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert len(moves) == 9
    assert all(m is not None and iccs(m, "ranks1") in oracle_legal(START, []) for m in moves)


@pytest.mark.slow
@pytest.mark.parametrize("ci", [None, "true"])
def test_missing_engine_skips_locally_and_fails_in_ci(ci: str | None) -> None:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["XIANGQI_TEST_ENGINE"] = "/nonexistent/fairy-stockfish"
    if ci:
        env["CI"] = ci
    argv = [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider"]
    out = subprocess.run(
        [*argv, __file__, "-k", "handshake_uci"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    if ci:
        assert out.returncode != 0
        assert "CI=true but fairy-stockfish is not installed" in out.stdout
    else:
        assert out.returncode == 0, out.stdout
        assert "1 skipped" in out.stdout
        assert SKIP_REASON in out.stdout
