"""Check detection: every attacker kind, blocked attacks, discovered check, and the book's defects.

Each position has Red to move; whether Red's king on e0 is attacked is worked out by hand.
Every assertion is made on both paths: the fast check and the book's Check routine.
"""

from __future__ import annotations

import pytest
from conftest import position

import xiangqi
from xiangqi import _core


def red_in_check(pieces: dict[str, str]) -> bool:
    pos = position(pieces)
    fast = pos.is_check()
    book = _core._reference_is_check(pos._board)
    assert fast == book, "fast and book check disagree"
    return fast


def test_check_by_rook() -> None:
    assert red_in_check({"e5": "r"})


def test_rook_check_blocked() -> None:
    assert not red_in_check({"e5": "r", "e3": "P"})


def test_check_by_horse() -> None:
    assert red_in_check({"d2": "n"})
    assert red_in_check({"c1": "n"})


def test_horse_check_blocked_by_leg() -> None:
    # The leg of d2->e0 is d1; the leg of c1->e0 is d1 as well.
    assert not red_in_check({"d2": "n", "d1": "N"})
    assert not red_in_check({"c1": "n", "d1": "N"})


def test_horse_leg_next_to_king_is_what_counts() -> None:
    # A piece on e1 does not block d2->e0 (the leg is d1, beside the horse).
    assert red_in_check({"d2": "n", "e1": "A"})


def test_check_by_cannon_over_one_screen() -> None:
    assert red_in_check({"e5": "c", "e3": "P"})


def test_cannon_without_screen_or_two_screens_does_not_check() -> None:
    assert not red_in_check({"e5": "c"})
    assert not red_in_check({"e5": "c", "e3": "P", "e1": "A"})


def test_check_by_pawn_ahead_and_beside() -> None:
    assert red_in_check({"e1": "p"})
    assert red_in_check({"d0": "p"})
    assert red_in_check({"f0": "p"})


def test_pawn_behind_the_king_does_not_check() -> None:
    assert not red_in_check({"e1": "K", "e0": "p"})


def test_black_king_in_check_from_red_pawn() -> None:
    pos = position({"d8": "P"}, side="b")
    assert pos.is_check()
    assert _core._reference_is_check(pos._board)


def test_flying_general_makes_an_opening_move_illegal() -> None:
    # The horse alone separates the kings; moving it would expose them to each other.
    pos = position({"e0": "K", "e9": "k", "e4": "N"})
    move = xiangqi.Move.from_iccs("e4c5")
    assert not pos.is_legal(move)
    with pytest.raises(xiangqi.IllegalMoveError, match="king"):
        pos.push(move)


def test_discovered_check() -> None:
    # Red rook e4 behind red horse e6 on the black king's file (king on e9).
    pos = position({"e4": "R", "e6": "N", "e9": "k", "d0": "K"})
    assert not pos.is_check()
    pos.push(xiangqi.Move.from_iccs("e6c7"))
    assert pos.is_check()
    assert _core._reference_is_check(pos._board)


def test_discovered_cannon_check_by_adding_a_screen() -> None:
    pos = position({"e2": "C", "c6": "N", "e9": "k", "d0": "K"})
    assert not pos.is_check()
    pos.push(xiangqi.Move.from_iccs("c6e7"))
    assert pos.is_check()


def test_checkmate_and_stalemate_both_end_the_game() -> None:
    # Checkmate: the rook on b0 checks along rank 0, the rook on a1 covers rank 1,
    # and f0 would face the black king on f9.
    mate = position({"e0": "K", "a1": "r", "b0": "r", "f9": "k"})
    assert mate.is_check() and mate.is_checkmate() and mate.is_game_over()
    assert not mate.is_stalemate()
    # Stalemate (困毙): red king on d0 is not attacked, but d1 is covered by the rook
    # and e0 would face the black king on e9.
    stale = position({"d0": "K", "e9": "k", "a1": "r"}, side="w")
    assert not stale.is_check()
    assert stale.legal_moves() == []
    assert stale.is_stalemate() and stale.is_game_over() and not stale.is_checkmate()


# The book's known defects (shared/reference/README.md). Slots are given in board
# scan order (rank 0 first), so the first rook/cannon of a side is the lower square.


def test_second_rook_checks_when_first_rook_is_blocked() -> None:
    # Book defect: r is not reset, so a blocked first rook (a0, blocked by the
    # elephant on c0) hides the second rook's check from e5.
    pos = position({"a0": "r", "c0": "B", "e5": "r"})
    assert pos.is_check()
    assert _core._reference_is_check(pos._board)


def test_second_cannon_checks_after_first_cannon_counted_two_screens() -> None:
    # Book defect: OverFlag is not reset, so after the first cannon (a0, with b0 and
    # c0 between it and the king) counted two screens, the second cannon (e5 over e3)
    # is not seen.
    pos = position({"a0": "c", "b0": "N", "c0": "B", "e5": "c", "e3": "P"})
    assert pos.is_check()
    assert _core._reference_is_check(pos._board)


def test_pawn_positions_outside_the_book_trick_are_rejected() -> None:
    # The PawnPosition trick only holds for pawns where a game can put them.
    with pytest.raises(xiangqi.InvalidFenError, match="pawn on b3"):
        position({"b3": "P"})
    with pytest.raises(xiangqi.InvalidFenError, match="pawn on c2"):
        position({"c2": "P"})
    with pytest.raises(xiangqi.InvalidFenError, match="pawn on d6"):
        position({"d6": "p"}, side="b")
