"""push/pop: every legal move restores the exact position; illegal moves change nothing."""

from __future__ import annotations

import random

import pytest
from conftest import iccs_set

import xiangqi

POSITIONS = [
    xiangqi.START_FEN,
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "2bak4/4a4/4b4/p1p1C1p1p/9/9/P1P3P1P/4B4/3RA4/2BAK4 b - - 0 1",
]


@pytest.mark.parametrize("fen", POSITIONS)
def test_push_pop_restores_fen_for_every_legal_move(fen: str) -> None:
    pos = xiangqi.Position(fen)
    before = iccs_set(pos.legal_moves())
    for move in pos.legal_moves():
        pos.push(move)
        assert pos.fen() != fen
        assert pos.turn != xiangqi.Position(fen).turn
        assert pos.pop() == move
        assert pos.fen() == fen
    assert iccs_set(pos.legal_moves()) == before


def test_random_walk_returns_to_start() -> None:
    rng = random.Random(2026)
    for _ in range(20):
        pos = xiangqi.Position()
        fens = [pos.fen()]
        for _ in range(rng.randint(1, 80)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))
            fens.append(pos.fen())
        while len(fens) > 1:
            fens.pop()
            pos.pop()
            assert pos.fen() == fens[-1]
        assert pos.fen() == xiangqi.START_FEN


def test_counters_follow_pushes() -> None:
    pos = xiangqi.Position()
    pos.push(xiangqi.Move.from_iccs("h2e2"))
    assert pos.fen().endswith(" b - - 1 1")
    pos.push(xiangqi.Move.from_iccs("h9g7"))
    assert pos.fen().endswith(" w - - 2 2")
    pos.push(xiangqi.Move.from_iccs("e2e6"))  # cannon takes the pawn
    assert pos.fen().endswith(" b - - 0 2")
    pos.pop()
    pos.pop()
    assert pos.fen().endswith(" b - - 1 1")


def test_illegal_move_leaves_position_unchanged() -> None:
    pos = xiangqi.Position()
    pos.push(xiangqi.Move.from_iccs("h2e2"))
    fen = pos.fen()
    for text, reason in [
        ("e3e4", "piece on e3 is Red's and it is Black's move"),
        ("e5e4", "no piece on e5"),
        ("h9h7", "a horse moves one point along a rank or file, then one diagonally"),
        ("h9h8", "a horse moves one point"),
        ("b7b1", "the cannon's path is blocked on b2"),
        ("b7b9", "b9 holds Black's own piece"),
    ]:
        with pytest.raises(xiangqi.IllegalMoveError, match=reason) as info:
            pos.push(xiangqi.Move.from_iccs(text))
        assert text in str(info.value) and repr(fen) in str(info.value)
        assert pos.fen() == fen
        assert pos.move_stack == [xiangqi.Move.from_iccs("h2e2")]


def test_move_leaving_king_in_check_is_illegal() -> None:
    pos = xiangqi.Position("3k5/9/9/9/9/4r4/9/9/4A4/4K4 w - - 0 1")
    fen = pos.fen()
    with pytest.raises(xiangqi.IllegalMoveError, match="check"):
        pos.push(xiangqi.Move.from_iccs("e1d2"))
    assert pos.fen() == fen


def test_pop_with_nothing_to_undo() -> None:
    pos = xiangqi.Position()
    with pytest.raises(IndexError):
        pos.pop()
    with pytest.raises(IndexError):
        pos._board.pop()


def test_push_iccs_and_parse_iccs() -> None:
    pos = xiangqi.Position()
    assert pos.parse_iccs("h2e2") == xiangqi.Move.from_iccs("h2e2")
    with pytest.raises(xiangqi.IllegalMoveError):
        pos.parse_iccs("a0a5")  # the pawn on a3 is in the way
    with pytest.raises(xiangqi.InvalidMoveError):
        pos.push_iccs("zz")
    assert pos.push_iccs("b0c2") == xiangqi.Move.from_iccs("b0c2")


def test_copy_is_independent_and_keeps_history() -> None:
    pos = xiangqi.Position()
    pos.push(xiangqi.Move.from_iccs("h2e2"))
    twin = pos.copy()
    assert twin == pos
    twin.push(xiangqi.Move.from_iccs("h9g7"))
    assert twin != pos
    assert twin.pop() == xiangqi.Move.from_iccs("h9g7")
    assert twin.pop() == xiangqi.Move.from_iccs("h2e2")
    assert twin == xiangqi.Position()
    assert pos.peek() == xiangqi.Move.from_iccs("h2e2")
    fresh = pos.copy(stack=False)
    with pytest.raises(IndexError):
        fresh.pop()


def test_is_legal_agrees_with_generation_on_the_start_position() -> None:
    pos = xiangqi.Position()
    legal = set(pos.legal_moves())
    for a in range(90):
        for b in range(90):
            if a != b:
                assert pos.is_legal(xiangqi.Move(a, b)) == (xiangqi.Move(a, b) in legal)


def test_pickle_keeps_position_and_move_stack() -> None:
    import pickle

    pos = xiangqi.Position()
    for text in ("h2e2", "h9g7", "e2e6"):
        pos.push_iccs(text)
    clone = pickle.loads(pickle.dumps(pos))
    assert clone == pos and clone.fen() == pos.fen()
    assert clone.move_stack == pos.move_stack
    clone.pop()
    clone.pop()
    clone.pop()
    assert clone.fen() == xiangqi.START_FEN
