"""Every state a Position has survives copy, deepcopy and pickle; counts take any
integer the way outcome() does (issue 22, section 5)."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable

import numpy as np
import pytest

from xiangqi import Move, Position
from xiangqi.rules import Termination

CLONES: list[Callable[[Position], Position]] = [
    copy.copy,
    copy.deepcopy,
    lambda p: pickle.loads(pickle.dumps(p)),
    lambda p: pickle.loads(pickle.dumps(p, protocol=0)),
]


def play(pos: Position, *moves: str) -> None:
    for text in moves:
        pos.push(Move.from_iccs(text))


@pytest.mark.parametrize("clone", CLONES)
def test_a_clock_set_mid_game_survives(clone: Callable[[Position], Position]) -> None:
    pos = Position()
    play(pos, "h2e2", "h9g7", "h0g2", "i9h9")
    pos.halfmove_clock = 118
    play(pos, "i0h0", "h7h3")  # two plies without a capture: 118 -> 120
    assert pos.fen().endswith(" 120 4")
    # 120 plies without a capture and no checks in them: the 60-move rule's draw.
    outcome = pos.outcome()
    assert outcome is not None and outcome.termination == Termination.MOVE_RULE
    other = clone(pos)
    assert other.fen() == pos.fen()
    assert other.outcome() == outcome
    assert [m.iccs() for m in other.move_stack] == [m.iccs() for m in pos.move_stack]
    # The history's clocks too: popping walks back through the set value.
    for _ in range(3):
        assert other.pop() == pos.pop()
        assert other.fen() == pos.fen()
    assert other.halfmove_clock == pos.halfmove_clock == 3


@pytest.mark.parametrize("clone", CLONES)
def test_a_move_number_set_mid_game_survives(clone: Callable[[Position], Position]) -> None:
    pos = Position()
    play(pos, "h2e2", "h9g7", "h0g2")
    pos.fullmove_number = 40
    play(pos, "i9h9")
    other = clone(pos)
    assert other.fen() == pos.fen() and other.fen().endswith(" 41")
    other.pop()
    pos.pop()
    assert other.fen() == pos.fen()


def test_is_repetition_takes_any_integer_like_outcome() -> None:
    pos = Position()
    play(pos, "h0g2", "h9g7", "g2h0", "g7h9", "h0g2", "h9g7", "g2h0", "g7h9")
    assert pos.is_repetition(np.int64(3)) is pos.is_repetition(3) is True
    assert pos.is_repetition(np.int32(4)) is False
    assert pos.outcome(np.int64(3)) == pos.outcome(3)
    for bad in (3.0, "3", True, None):
        with pytest.raises(TypeError):
            pos.is_repetition(bad)  # type: ignore[arg-type]
