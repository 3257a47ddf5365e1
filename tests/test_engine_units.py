"""Values of xiangqi.engine: Limit checks, and Cp/Mate/PovScore semantics checked against
python-chess's chess.engine, whose score model this module follows."""

from __future__ import annotations

import chess
import chess.engine
import pytest

from xiangqi import BLACK, RED
from xiangqi.engine import Cp, Limit, Mate, Option, PovScore, Score

SCORES = [Mate(-1), Mate(-5), Cp(-300), Cp(0), Cp(25), Mate(7), Mate(2), Mate(1)]


def to_chess(score: Score) -> chess.engine.Score:
    mate = score.mate()
    return chess.engine.Mate(mate) if mate is not None else chess.engine.Cp(score.score() or 0)


def test_score_order_matches_python_chess() -> None:
    ours = sorted(SCORES)
    theirs = sorted(to_chess(s) for s in SCORES)
    assert [to_chess(s) for s in ours] == theirs


@pytest.mark.parametrize("score", SCORES)
def test_mate_score_and_negation_match_python_chess(score: Score) -> None:
    assert (-score).mate() == (-to_chess(score)).mate()
    assert score.score(mate_score=10000) == to_chess(score).score(mate_score=10000)
    assert score.is_mate() == to_chess(score).is_mate()


def test_pov_score_matches_python_chess() -> None:
    for score in SCORES:
        for turn, chess_turn in ((RED, chess.WHITE), (BLACK, chess.BLACK)):
            ours = PovScore(score, turn)
            theirs = chess.engine.PovScore(to_chess(score), chess_turn)
            assert to_chess(ours.red()) == theirs.white()
            assert to_chess(ours.black()) == theirs.black()
    assert PovScore(Cp(10), RED) == PovScore(Cp(-10), BLACK)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"depth": 0}, "Limit.depth must be a positive int, got 0"),
        ({"depth": True}, "Limit.depth must be a positive int, got True"),
        ({"nodes": 2.5}, "Limit.nodes must be a positive int"),
        ({"time": -1}, "Limit.time must be a positive number"),
        ({"time": float("nan")}, "Limit.time must be a positive number"),
        ({"time": "1"}, "Limit.time must be a positive number"),
    ],
)
def test_limit_rejects(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Limit(**kwargs)  # type: ignore[arg-type]


def test_limit_empty() -> None:
    assert Limit().is_empty() and not Limit(depth=1).is_empty()


def test_option_parse() -> None:
    spin = Option("Hash", "spin", 16, 1, 64, ())
    assert spin.parse(32) == "32" and spin.parse("8") == "8"
    check = Option("Ponder", "check", False, None, None, ())
    assert check.parse(True) == "true" and check.parse("FALSE") == "false"
    combo = Option("Style", "combo", "Normal", None, None, ("Solid", "Normal"))
    assert combo.parse("solid") == "Solid"
