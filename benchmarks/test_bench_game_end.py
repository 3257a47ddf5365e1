"""Game-end rules: push + outcome() + pop beside push + pop, and games played to the end.

Compare the "game-end" group's two push/pop rows for the cost of outcome() on positions
that do not repeat (the target is at most 1.3x), and the two "random games" rows for
whole games (benchmarks/game_end.py prints the same figures as ratios in one run).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from positions import RANDOM_MIDGAME_FENS

from xiangqi import Move, Position


@pytest.fixture(scope="module")
def pairs() -> list[tuple[Position, Move]]:
    out = []
    for fen in RANDOM_MIDGAME_FENS:
        pos = Position(fen)
        out.append((pos, sorted(pos.legal_moves())[0]))
    return out


def _push_pop(pairs: list[tuple[Position, Move]]) -> int:
    for pos, move in pairs:
        pos.push(move)
        pos.pop()
    return len(pairs)


def _push_outcome_pop(pairs: list[tuple[Position, Move]]) -> int:
    ended = 0
    for pos, move in pairs:
        pos.push(move)
        ended += pos.outcome() is not None
        pos.pop()
    return ended


def test_push_pop(benchmark: Any, record_rate: Any, pairs: list[tuple[Position, Move]]) -> None:
    benchmark.group = "game-end: push/pop"
    assert benchmark(_push_pop, pairs) == 50
    record_rate(benchmark, "pairs", len(pairs))


def test_push_outcome_pop(
    benchmark: Any, record_rate: Any, pairs: list[tuple[Position, Move]]
) -> None:
    benchmark.group = "game-end: push/pop"
    assert benchmark(_push_outcome_pop, pairs) == 0  # none of these positions ends a game
    record_rate(benchmark, "triples", len(pairs))


def _games(rule: bool, lengths: list[int]) -> list[int]:
    """Play len(lengths) seeded random games: with rule, until outcome() rules (or
    lengths[i] plies); without, exactly lengths[i] plies. Returns the plies played."""
    rng = random.Random(7)
    played = []
    for limit in lengths:
        pos = Position()
        n = 0
        while n < limit:
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))
            n += 1
            if rule and pos.outcome() is not None:
                break
        played.append(n)
    return played


@pytest.fixture(scope="module")
def lengths() -> list[int]:
    """Lengths of 30 seeded random games played until outcome() rules."""
    return _games(True, [10**6] * 30)


@pytest.mark.parametrize("rule", [True, False], ids=["with-outcome", "without"])
def test_random_games(benchmark: Any, record_rate: Any, rule: bool, lengths: list[int]) -> None:
    benchmark.group = "game-end: random games"
    # Both variants make the same seeded choices and play the same plies.
    played = benchmark(_games, rule, lengths)
    assert played == lengths
    record_rate(benchmark, "plies", sum(played))
