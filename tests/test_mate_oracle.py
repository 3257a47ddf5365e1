"""Position.find_mate against a real Fairy-Stockfish process (`go mate N`, one thread).

Fairy-Stockfish finds a mate of at most N moves and reports its score; it agrees with
this search's shortest length when its score is exactly the length found. The small
positions run in the default suite; the 119 xiangqibench cases (about 40 s of engine
time) are the `oracle` volume (pytest -m oracle). Skips without the engine, except in
CI (tests/test_engine_fairy.py finds it the same way).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_engine_fairy import FAIRY, SKIP_REASON

from xiangqi.engine import Cp, Limit, Mate, SimpleEngine
from xiangqi.puzzles import position_of

pytestmark = pytest.mark.skipif(FAIRY is None, reason=SKIP_REASON)

CASES_FILE = Path(__file__).parent / "data" / "xiangqibench" / "cases.jsonl"
CASES = [json.loads(line) for line in CASES_FILE.read_text().splitlines() if line.strip()]


class Fairy:
    """The engine through the library's client, one thread: the last score of a search."""

    def __init__(self, command: str) -> None:
        self.engine = SimpleEngine.popen_uci(command)
        self.engine.configure({"Threads": 1})

    def score(self, fen: str, limit: Limit) -> tuple[str, int]:
        """The final score of a search of fen under limit: ("mate"|"cp", value)."""
        score = self.engine.analyse(position_of(fen), limit)["score"].relative
        if isinstance(score, Mate):
            return "mate", score.moves
        assert isinstance(score, Cp)
        return "cp", score.cp

    def close(self) -> None:
        self.engine.close()


@pytest.fixture(scope="module")
def fairy() -> Iterator[Fairy]:
    assert FAIRY is not None
    engine = Fairy(FAIRY)
    yield engine
    engine.close()


@pytest.mark.parametrize(
    ("fen", "moves"),
    [
        ("4k4/7R1/R8/9/9/9/9/9/9/3K5 w - - 0 1", 1),  # rook mate in one
        ("3k5/9/2P6/9/9/9/9/9/9/4K4 w - - 0 1", 1),  # no move for Black: a loss
        ("3k5/8P/9/7R1/9/4H4/9/9/6p2/4KA3 w - - 0 1", 2),
        ("3k1p3/4P4/9/9/6CCR/3n4c/2Pn5/8B/5p3/4K4 w - - 0 1", 2),  # composition pawn on f9
    ],
)
def test_small_mates_agree(fairy: Fairy, fen: str, moves: int) -> None:
    line = position_of(fen).find_mate(2 * moves + 1)
    assert line is not None and len(line) == 2 * moves - 1
    assert fairy.score(fen, Limit(mate=moves)) == ("mate", moves)


def test_fairy_stockfish_cuts_the_defenders_checks_sooner(fairy: Fairy) -> None:
    # A master game's position where Black holds by checking with its horses
    # (tests/test_mate.py, PERPETUAL_DEFENCE). Fairy-Stockfish's search rules the
    # repetition at its second occurrence and reports a mate in 7; the rules
    # (Position.outcome()) end the game only at the third, and the 13-ply line is
    # refuted by them (tests/test_mate_repetition.py, brute force): find_mate follows
    # the rules and has no mate within 13 plies.
    fen = "3ak4/5P3/9/3N2N2/9/9/P3p4/5n1n1/9/3AK4 w - - 2 53"
    assert position_of(fen).find_mate(13) is None
    assert fairy.score(fen, Limit(mate=7)) == ("mate", 7)


def test_no_mate_agrees(fairy: Fairy) -> None:
    fen = "3aka3/9/9/9/9/4P4/9/9/9/3K5 w - - 0 1"
    assert position_of(fen).find_mate(11) is None
    kind, _ = fairy.score(fen, Limit(depth=16))
    assert kind == "cp"


@pytest.mark.oracle
@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_suite_agrees_with_go_mate(fairy: Fairy, case: dict) -> None:
    plies = case["win_in_plies"]
    line = position_of(case["fen"]).find_mate(plies)
    assert line is not None and len(line) == plies
    moves = (plies + 1) // 2
    assert fairy.score(case["fen"], Limit(mate=moves)) == ("mate", moves)
