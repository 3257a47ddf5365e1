"""A hypothesis state machine over one Position: push, pop, illegal push, notation,
copies, pickles, symmetries and edits, each step checked against a Position rebuilt
from the FEN text alone (and a FEN history kept by the test, not by the library).

The deeper run (more examples and longer walks) is marked slow.
"""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
)

import xiangqi
from xiangqi import IllegalMoveError, InvalidFenError, Move, Piece, Position

MIDDLEGAME = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1"
ENDGAME = "3k5/4a4/4ba3/9/2b6/9/9/4B4/4A4/2R1KA3 w - - 0 1"


class PositionMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.pos = Position()
        self.fens: list[str] = []  # FEN before each pushed move, kept by the test

    @rule(start=st.sampled_from([xiangqi.START_FEN, MIDDLEGAME, ENDGAME]))
    def reset(self, start: str) -> None:
        self.pos = Position(start)
        self.fens = []

    @rule(data=st.data())
    def push_legal(self, data: st.DataObject) -> None:
        moves = sorted(self.pos.legal_moves, key=str)
        if not moves:
            return
        move = data.draw(st.sampled_from(moves))
        before = self.pos.fen()
        self.pos.push(move)
        self.fens.append(before)
        assert self.pos.peek() == move

    @precondition(lambda self: bool(self.fens))
    @rule()
    def pop(self) -> None:
        self.pos.pop()
        assert self.pos.fen() == self.fens.pop()

    @rule(frm=st.integers(0, 89), to=st.integers(0, 89))
    def push_anything(self, frm: int, to: int) -> None:
        if frm == to:
            return
        move = Move(frm, to)
        before = self.pos.fen()
        if move in set(self.pos.legal_moves):
            self.pos.push(move)
            self.fens.append(before)
        else:
            with pytest.raises(IllegalMoveError, match=str(move)):
                self.pos.push(move)
            assert self.pos.fen() == before

    @rule(data=st.data())
    def notation_round_trip(self, data: st.DataObject) -> None:
        moves = sorted(self.pos.legal_moves, key=str)
        if not moves:
            return
        move = data.draw(st.sampled_from(moves))
        before = self.pos.fen()
        assert self.pos.parse_iccs(move.iccs()) == move
        assert self.pos.parse_iccs(move.iccs().upper()[:2] + "-" + move.iccs().upper()[2:]) == move
        assert self.pos.parse_wxf(self.pos.wxf(move)) == move
        assert self.pos.parse_chinese(self.pos.chinese(move)) == move
        assert self.pos.fen() == before

    @rule(how=st.sampled_from(["copy", "copy.copy", "deepcopy", "pickle"]))
    def replace_by_a_copy(self, how: str) -> None:
        clone = {
            "copy": lambda p: p.copy(),
            "copy.copy": copy.copy,
            "deepcopy": copy.deepcopy,
            "pickle": lambda p: pickle.loads(pickle.dumps(p)),
        }[how](self.pos)
        assert clone == self.pos and clone.fen() == self.pos.fen()
        assert clone.move_stack == self.pos.move_stack
        self.pos = clone

    @rule()
    def symmetries(self) -> None:
        fen = self.pos.fen()
        back = self.pos.flip_horizontal().flip_horizontal()
        assert back.fen() == fen
        assert self.pos.mirror().mirror().fen() == fen
        assert len(self.pos.mirror().legal_moves) == len(self.pos.legal_moves)
        assert self.pos.fen() == fen

    @rule(square=st.integers(0, 89), code=st.integers(0, 14))
    def edit(self, square: int, code: int) -> None:
        before = self.pos.fen()
        try:
            self.pos.set_piece_at(square, Piece.from_code(code) if code else None)
        except InvalidFenError:
            assert self.pos.fen() == before
        else:
            self.fens = []  # an edit forgets the move stack
            assert self.pos.move_stack == []

    @invariant()
    def agrees_with_a_position_rebuilt_from_fen(self) -> None:
        rebuilt = Position(self.pos.fen())
        assert rebuilt == self.pos and rebuilt.turn == self.pos.turn
        assert sorted(map(str, rebuilt.legal_moves)) == sorted(map(str, self.pos.legal_moves))
        assert rebuilt.is_check() == self.pos.is_check() == bool(self.pos.checkers())
        assert rebuilt.piece_map() == self.pos.piece_map()
        assert len(self.pos.move_stack) == len(self.fens)


TestPositionMachine = PositionMachine.TestCase
TestPositionMachine.settings = settings(
    max_examples=25,
    stateful_step_count=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@pytest.mark.slow
def test_position_machine_deeper() -> None:
    from hypothesis.stateful import run_state_machine_as_test

    run_state_machine_as_test(
        PositionMachine,
        settings=settings(max_examples=300, stateful_step_count=60, deadline=None),
    )
