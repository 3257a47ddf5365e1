"""The proof-number (df-pn) mate search: the same answers as the iterative deepening,
checked against a real Fairy-Stockfish (`go mate N`), by replaying its lines, and by
brute force over the rules' own judge where a position is reached through a repetition.

The deep positions are from real puzzle collections (the walker8088/cchess project's
XQF files, as gathered in /work/shared/data/mates/dev.jsonl; the positions are facts).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import line_iccs, played
from test_engine_fairy import FAIRY, SKIP_REASON
from test_mate_repetition import MATE, SHUFFLE, SHUFFLED_FEN, shuffled_games

import xiangqi
from xiangqi import Move, Position, Termination, _core
from xiangqi.engine import Limit, Mate, SimpleEngine
from xiangqi.puzzles import position_of

#: 11 plies, from a real puzzle (dev.jsonl's 33rd), where df-pn needs fewer nodes than
#: the iterative deepening (about 165,000 against 489,000 when written;
#: benchmarks/mate_suite.py measures them, this file checks the answers).
DEEP = ["4kab2/3Pa4/4b4/1N1N5/9/9/5p3/4B3n/3p4p/5K2c w - - 0 1"]
#: Another real puzzle of 11 plies (dev.jsonl's 36th), solved fast either way.
PUZZLE = "5k3/4a1P2/3ab4/3N5/2b6/6R2/9/9/2r2p3/3AKAB1c w - - 0 1"


#: xiangqibench 0.1.1's cases (tests/data/xiangqibench, MIT; lengths verified by Pikafish).
SUITE_FILE = Path(__file__).resolve().parent / "data" / "xiangqibench" / "cases.jsonl"
SUITE = [json.loads(line) for line in SUITE_FILE.read_text().splitlines() if line.strip()]


def search(pos: Position, plies: int, method: str) -> tuple[int, list[int] | None]:
    status, line, _, _ = _core.find_mate(pos._board, plies, False, None, None, 16, method)
    return status, line


def moves_of(codes: list[int] | None) -> list[Move] | None:
    return None if codes is None else [Move(code // 90, code % 90) for code in codes]


# -- repetitions: the table must not carry a value that depends on the line -----------


def rules_mate_within(pos: Position, plies: int) -> bool:
    """Brute force by the rules: can the side to move force the other side out of legal
    moves within plies (odd), every other ending ruled by Position.outcome() (a
    repetition ending the game is no mate for the attacker)?"""
    for move in pos.legal_moves():
        pos.push(move)
        try:
            if not pos.has_legal_moves():
                return True
            if plies == 1 or pos.outcome() is not None:
                continue
            held = False
            for reply in pos.legal_moves():
                pos.push(reply)
                held = pos.outcome() is not None or not rules_mate_within(pos, plies - 2)
                pos.pop()
                if held:
                    break
            if not held:
                return True
        finally:
            pos.pop()
    return False


@pytest.mark.parametrize(
    "history",
    ["", SHUFFLE, f"{SHUFFLE} {SHUFFLE}", "d1e1 d9d8 i2g1 d8d7 g1i2 d7d8 e1d1 d8d9"],
    ids=["direct", "shuffled", "shuffled-twice", "defender-third"],
)
def test_dfpn_gives_the_rules_answer_with_and_without_history(history: str) -> None:
    # The same board reached directly and through repetitions: df-pn (5 plies: its own
    # nodes at the first two plies) answers as brute force by the rules does, each way.
    pos = played(SHUFFLED_FEN, history) if history else Position(SHUFFLED_FEN)
    expected = rules_mate_within(pos, 5)
    status, line = search(pos, 5, "dfpn")
    assert status == (1 if expected else 0)
    assert status == search(pos, 5, "id")[0]
    if line is not None:
        assert len(line) == len(search(pos, 5, "id")[1] or [])


def test_dfpn_mates_the_shuffled_game_with_the_rules_line() -> None:
    pos = played(SHUFFLED_FEN, SHUFFLE)
    assert line_iccs(moves_of(search(pos, 7, "dfpn")[1])) == MATE


def shuffled_sample() -> Iterator[Position]:
    for index, pos in enumerate(shuffled_games()):
        if index % 4 == 0:
            yield pos


def test_dfpn_agrees_with_iterative_deepening_over_shuffled_games() -> None:
    # The second algorithm (tests/test_mate_repetition.py checks it by brute force at 3
    # plies) over games whose positions come back in many orders, at 7 plies: one table
    # sees each position through repetition paths and directly.
    games = 0
    for pos in shuffled_sample():
        games += 1
        dfpn_status, dfpn_line = search(pos, 7, "dfpn")
        id_status, id_line = search(pos, 7, "id")
        assert dfpn_status == id_status, " ".join(str(m) for m in pos.move_stack)
        assert len(dfpn_line or []) == len(id_line or [])
    assert games >= 8


def test_the_defenders_checks_are_judged_alike_under_dfpn() -> None:
    # tests/test_mate.py's master game position: Black checks with its horses, and may
    # repeat a position once (tests/test_mate_repetition.py shows the old 13-ply line
    # refuted by the rules); df-pn and iterative deepening answer alike.
    pos = Position("3ak4/5P3/9/3N2N2/9/9/P3p4/5n1n1/9/3AK4 w - - 2 53")
    dfpn_status, dfpn_line = search(pos, 13, "dfpn")
    id_status, id_line = search(pos, 13, "id")
    assert dfpn_status == id_status and len(dfpn_line or []) == len(id_line or [])


# -- against the real engine ---------------------------------------------------------


@pytest.fixture(scope="module")
def fairy() -> Iterator[SimpleEngine]:
    if FAIRY is None:
        pytest.skip(SKIP_REASON)
    engine = SimpleEngine.popen_uci(FAIRY)
    engine.configure({"Threads": 1})
    yield engine
    engine.close()


def fairy_mates(engine: SimpleEngine, pos: Position, moves: int) -> int | None:
    score = engine.analyse(pos, Limit(mate=moves, time=20))["score"].relative
    return score.moves if isinstance(score, Mate) and score.moves > 0 else None


@pytest.mark.parametrize("fen", DEEP)
def test_deep_mates_match_fairy_stockfish(fen: str, fairy: SimpleEngine) -> None:
    pos = Position(fen)
    line = pos.find_mate(11)  # df-pn: 11 plies and more
    assert line is not None
    assert fairy_mates(fairy, pos, 6) == (len(line) + 1) // 2
    assert len(search(pos, 11, "id")[1] or []) == len(line)
    # Replayed: every move legal, the game ends by checkmate at the last one, won by Red.
    game = Position(fen)
    for move in line:
        assert game.outcome() is None and game.is_legal(move)
        game.push(move)
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.CHECKMATE
    assert outcome.winner == pos.turn


@pytest.mark.slow
@pytest.mark.parametrize("fen", DEEP)
def test_every_defender_alternative_is_still_mated(fen: str, fairy: SimpleEngine) -> None:
    # Along df-pn's line, every reply the defender could have played instead is mated
    # by Fairy-Stockfish within the moves the line leaves.
    line = Position(fen).find_mate(11)
    assert line is not None
    game = Position(fen)
    for ply, move in enumerate(line):
        if ply % 2 == 1:
            left = (len(line) - ply) // 2  # the attacker's moves after this reply
            for reply in game.legal_moves():
                game.push(reply)
                assert fairy_mates(fairy, game, left) is not None, f"{game.fen()} {left}"
                game.pop()
        game.push(move)


# -- hash_mb ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "error"),
    [(0, ValueError), (65537, ValueError), (1.5, TypeError), (True, TypeError), ("8", TypeError)],
)
def test_a_bad_hash_mb_is_refused_naming_it(value: object, error: type[Exception]) -> None:
    pos = Position(SHUFFLED_FEN)
    with pytest.raises(error, match="hash_mb"):
        pos.find_mate(3, hash_mb=value)  # type: ignore[arg-type]
    with pytest.raises(error, match="hash_mb"):
        xiangqi.find_mates([pos], 3, hash_mb=value)  # type: ignore[arg-type]
    assert pos.fen() == SHUFFLED_FEN and not pos.move_stack


@pytest.mark.parametrize("hash_mb", [1, 64])
def test_the_table_size_changes_no_answer(hash_mb: int) -> None:
    # The smallest tables (4096 entries each) replace entries all the time: same lengths.
    pos = Position(PUZZLE)
    line = pos.find_mate(11, hash_mb=hash_mb)
    assert line is not None and len(line) == 11
    batch = xiangqi.find_mates([pos, played(SHUFFLED_FEN, SHUFFLE)], 11, hash_mb=hash_mb)
    assert [len(answer) for answer in batch] == [11, 3]  # type: ignore[arg-type]


@pytest.mark.parametrize("hash_mb", [1, 64])
def test_tables_that_grow_answer_as_the_suite_states(hash_mb: int) -> None:
    # xiangqibench's two heaviest cases visit hundreds of thousands of positions: the
    # tables start at 4,096 entries and double many times (at hash_mb 1 they stop at
    # 16,384); the lengths are the suite's (verified by Pikafish) and each line mates.
    cases = {c["id"]: c for c in SUITE}
    for name in ("xq_shi_qing_ya_qu_402", "xq_shi_qing_ya_qu_117"):
        case = cases[name]
        pos = position_of(str(case["fen"]))
        line = pos.find_mate(int(case["win_in_plies"]), hash_mb=hash_mb)
        assert line is not None and len(line) == case["win_in_plies"]
        for move in line:
            pos.push(move)
        outcome = pos.outcome()
        assert outcome is not None and outcome.termination is Termination.CHECKMATE
