"""ICCS ranks run 0..9; Fairy-Stockfish's xiangqi counts them 1..10 ("h3e3" for the central
cannon, ICCS "h2e2": the two numberings differ by one rank). Text that reads as ICCS but
names an illegal move which is legal one rank lower gets a hint saying so; text with a
rank 10 gets one too. Other errors keep their plain message.
"""

from __future__ import annotations

import pytest

from xiangqi import Move, Position
from xiangqi.errors import IllegalMoveError, InvalidMoveError
from xiangqi.notation import parse_iccs

HINT = "ICCS ranks run 0..9"


@pytest.mark.parametrize(
    "fairy, iccs",
    [("h3e3", "h2e2"), ("h1g3", "h0g2"), ("c4c5", "c3c4"), ("b1c3", "b0c2")],
)
def test_a_move_in_ranks_1_to_10_gets_the_hint(fairy: str, iccs: str) -> None:
    for read in (Position.push_uci, Position.push_iccs, Position.parse_uci, Position.parse_iccs):
        pos = Position()
        with pytest.raises(IllegalMoveError) as caught:
            read(pos, fairy)
        assert HINT in str(caught.value) and str(caught.value).endswith(f"would be {iccs}")
        assert pos.fen() == Position().fen() and pos.move_stack == []
    assert Position().is_legal(Move.from_iccs(iccs))


@pytest.mark.parametrize("text", ["h2e3", "b0b1", "a0a4", "e0e2"])
def test_no_hint_when_one_rank_lower_is_no_legal_move(text: str) -> None:
    with pytest.raises(IllegalMoveError) as caught:
        Position().push_uci(text)
    assert HINT not in str(caught.value)


def test_a_rank_10_gets_the_hint() -> None:
    for read in (Position.push_uci, Position.push_iccs):
        with pytest.raises(InvalidMoveError, match=HINT):
            read(Position(), "h10g8")
    with pytest.raises(InvalidMoveError) as caught:
        Position().push_uci("h2x9")
    assert HINT not in str(caught.value)
    assert parse_iccs(Position(), "b1c3", "ranks1") == Move.from_iccs("b0c2")  # the way in
