"""The search API's edges, found by attacking it (docs/writing-an-engine.md): a position
reached by push_pseudo_legal() pickles and unpickles, the compiled methods' switches
(captures_only, stack, move_rule, perpetual_rulings) take True or False only, and a
Position made by Position.__new__ without __init__ raises TypeError from every method.

Expected values: FENs worked out by hand from the moves played, and the rule that bad
input raises TypeError and leaves the object unchanged (docs, STYLE)."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from xiangqi import IllegalMoveError, Move, Position

# The docs' pseudo-legal example: the advisor on e1 shields the king from the rook on e9.
SHIELD = "3kr4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1"


def test_pickle_after_a_move_into_check() -> None:
    pos = Position(SHIELD)
    pos.push_pseudo_legal(Move.from_iccs("e1d2"))  # the advisor steps aside: Red's king hangs
    pos.push(Move.from_iccs("e9e0"))  # and Black's rook takes it (legal in such a diagram)
    for plies, fen in (
        (2, "3k5/9/9/9/9/9/9/3A5/9/4r4 w - - 0 2"),
        (1, "3kr4/9/9/9/9/9/9/3A5/9/4K4 b - - 1 1"),
    ):
        copy = pickle.loads(pickle.dumps(pos))
        assert copy.fen() == pos.fen() == fen
        assert [m.iccs() for m in copy.move_stack] == ["e1d2", "e9e0"][:plies]
        assert copy.zobrist_hash() == pos.zobrist_hash()
        assert copy.outcome() == pos.outcome()
        assert copy.was_into_check() is (plies == 1)
        pos.pop()


def test_pickle_round_trips_random_pseudo_legal_walks() -> None:
    rng = random.Random(7)
    for _ in range(20):
        pos = Position()
        for _ in range(60):
            moves = list(pos.pseudo_legal_moves)
            if not moves:
                break
            try:
                pos.push_pseudo_legal(rng.choice(moves))
            except IllegalMoveError:  # a king capture, or a king already gone
                break
        copy = pickle.loads(pickle.dumps(pos))
        assert copy.fen() == pos.fen()
        assert copy.move_stack == pos.move_stack
        assert copy.zobrist_hash() == pos.zobrist_hash()


NOT_BOOLS = [None, 0, 1, 2, "yes", "", 1.0, [True]]


@pytest.mark.parametrize("value", NOT_BOOLS)
@pytest.mark.parametrize(
    "call",
    [
        lambda pos, v: pos.ordered_moves(v),
        lambda pos, v: pos.ordered_moves(captures_only=v),
        lambda pos, v: pos.ordered_moves_with_pieces(v),
        lambda pos, v: pos.copy(stack=v),
        lambda pos, v: pos.copy(v),
        lambda pos, v: pos.outcome(move_rule=v),
        lambda pos, v: pos.outcome(perpetual_rulings=v),
    ],
)
def test_switches_take_true_or_false_only(call: Any, value: object) -> None:
    pos = Position()
    pos.push(Move.from_iccs("h2e2"))
    with pytest.raises(TypeError, match="must be True or False"):
        call(pos, value)
    assert pos.fen() == "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
    assert len(pos.move_stack) == 1


def test_switches_still_switch() -> None:
    pos = Position("2bak4/4a4/4b1n2/p3C3p/2p1c1R2/6P2/P3P3P/4B4/4A4/2BAK4 w - - 0 1")
    assert [m.iccs() for m in pos.ordered_moves(True)] == ["g5e5", "g5g7", "e6e8"]
    assert len(pos.ordered_moves(captures_only=False)) == len(pos.legal_moves)
    assert len(pos.ordered_moves_with_pieces(True)[0]) == 3
    pos.push(Move.from_iccs("g5e5"))
    assert pos.copy(stack=False).move_stack == []
    assert pos.copy(True).move_stack == [Move.from_iccs("g5e5")]
    assert pos.outcome(move_rule=False, perpetual_rulings=False) is None


@pytest.mark.parametrize(
    "call",
    [
        lambda p: p.fen(),
        lambda p: repr(p),
        lambda p: p.is_check(),
        lambda p: p.was_into_check(),
        lambda p: p.repetition_count(),
        lambda p: p.is_repetition(),
        lambda p: p.legal_moves,
        lambda p: p == Position(),
        lambda p: p.zobrist_hash(),
        lambda p: p.push(Move.null()),
        lambda p: p.pop(),
        lambda p: p.copy(),
        lambda p: pickle.dumps(p),
    ],
)
def test_position_without_init_raises_type_error(call: Any) -> None:
    pos = Position.__new__(Position)
    with pytest.raises(TypeError, match="no board"):
        call(pos)


class Tagged(Position):
    """A subclass with slots: its values travel with copy() and pickle, as __dict__'s do."""

    __slots__ = ("tag", "__secret")

    def set_secret(self, value: object) -> None:
        self.__secret = value

    def secret(self) -> object:
        return self.__secret


class Noted(Tagged):
    """Slots and a __dict__ together."""


@pytest.mark.parametrize("cls", [Tagged, Noted])
def test_subclass_slots_survive_copy_and_pickle(cls: type[Tagged]) -> None:
    pos = cls()
    pos.tag = [1, 2]
    pos.set_secret("s")
    if cls is Noted:
        pos.note = "n"  # type: ignore[attr-defined]
    pos.push(Move.from_iccs("h2e2"))
    for other in (pos.copy(), pos.copy(stack=False), pickle.loads(pickle.dumps(pos))):
        assert type(other) is cls
        assert other.tag == [1, 2]
        assert other.secret() == "s"
        assert getattr(other, "note", None) == ("n" if cls is Noted else None)
    empty = cls()  # unset slots stay unset
    for other in (empty.copy(), pickle.loads(pickle.dumps(empty))):
        assert not hasattr(other, "tag")


def test_legal_moves_slot_takes_only_its_own_view() -> None:
    # A Position is untracked by the collector: a cycle through it would leak.
    pos, other = Position(), Position()
    view = pos.legal_moves
    for bad in (pos, [pos], other.legal_moves, "view"):
        with pytest.raises(TypeError, match="_legal_moves"):
            pos._legal_moves = bad
        assert pos._legal_moves is view
    pos._legal_moves = None
    assert len(pos.legal_moves) == 44  # the start position's 44 moves
    assert pos.legal_moves is pos.legal_moves
