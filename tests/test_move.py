"""Move values and ICCS text."""

from __future__ import annotations

import pytest

import xiangqi
from xiangqi import Move


def test_iccs_round_trip_and_squares() -> None:
    move = Move.from_iccs("h2e2")
    assert str(move) == "h2e2"
    assert move.from_square == 7 + 9 * 2
    assert move.to_square == 4 + 9 * 2
    assert repr(move) == "Move.from_iccs('h2e2')"
    assert Move(25, 22) == move


def test_moves_are_ordered_and_hashable() -> None:
    assert Move(0, 1) < Move(0, 2) < Move(1, 0)
    assert len({Move(0, 1), Move.from_iccs("a0b0")}) == 1


def test_generated_moves_are_shared_objects() -> None:
    first = xiangqi.generate_legal(xiangqi.Position())
    second = xiangqi.generate_legal(xiangqi.Position())
    assert all(a is b for a, b in zip(sorted(first), sorted(second)))


@pytest.mark.parametrize(
    "text", ["", "h2", "h2e", "h2e22", "j2e2", "h2e:", "H2E2", "h2h2", "h10e2", " h2e2"]
)
def test_bad_iccs_text(text: str) -> None:
    with pytest.raises(
        xiangqi.InvalidMoveError, match=repr(text).replace("\\", "\\\\")[1:-1] or "got"
    ):
        Move.from_iccs(text)


def test_move_squares_are_checked() -> None:
    for args in [(-1, 3), (0, 90), (3, 3)]:
        with pytest.raises(ValueError):
            Move(*args)
    with pytest.raises(TypeError):  # a wrong type is a TypeError (issue 14)
        Move(1.0, 2)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Move.from_iccs(42)  # type: ignore[arg-type]
