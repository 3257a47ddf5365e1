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
    ("kwargs", "error", "message"),
    [
        ({"depth": 0}, ValueError, "Limit.depth must be at least 1, got 0"),
        ({"depth": True}, TypeError, "Limit.depth must be an int, got bool: True"),
        ({"nodes": 2.5}, TypeError, "Limit.nodes must be an int, got float"),
        ({"time": -1}, ValueError, "Limit.time must be at least 0"),
        ({"time": 0}, ValueError, "Limit.time must be more than 0 seconds"),
        ({"time": float("nan")}, ValueError, "Limit.time must be a finite number"),
        ({"time": 10**400}, ValueError, "Limit.time is too large"),
        ({"time": "1"}, TypeError, "Limit.time must be a number"),
        ({"red_clock": -0.5}, ValueError, "Limit.red_clock must be at least 0"),
    ],
)
def test_limit_rejects(kwargs: dict[str, object], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        Limit(**kwargs)  # type: ignore[arg-type]


def test_limit_takes_any_index_type_as_a_plain_int() -> None:
    numpy = pytest.importorskip("numpy")
    limit = Limit(depth=numpy.int64(3))
    assert limit == Limit(depth=3) and type(limit.depth) is int


def test_limit_empty() -> None:
    assert Limit().is_empty() and not Limit(depth=1).is_empty()


def test_option_parse() -> None:
    spin = Option("Hash", "spin", 16, 1, 64, ())
    assert spin.parse(32) == "32" and spin.parse("8") == "8"
    check = Option("Ponder", "check", False, None, None, ())
    assert check.parse(True) == "true" and check.parse("FALSE") == "false"
    combo = Option("Style", "combo", "Normal", None, None, ("Solid", "Normal"))
    assert combo.parse("solid") == "Solid"
