"""One test per movement rule, each on a tiny hand-made position.

Expected move sets are worked out by hand from the rules, square by square.
"""

from __future__ import annotations

from conftest import moves_from, position

import xiangqi


def test_start_position_has_44_moves() -> None:
    assert len(xiangqi.generate_legal(xiangqi.Position())) == 44


def test_horse_moves_in_an_l() -> None:
    pos = position({"e4": "N"})
    assert moves_from(pos, "e4") == {
        f"e4{t}" for t in ("c5", "c3", "g5", "g3", "d6", "f6", "d2", "f2")
    }


def test_horse_blocked_by_leg() -> None:
    # A piece on e5 blocks both jumps towards rank 6 (蹩马腿); the other six stay.
    pos = position({"e4": "N", "e5": "P"})
    assert moves_from(pos, "e4") == {f"e4{t}" for t in ("c5", "c3", "g5", "g3", "d2", "f2")}


def test_horse_leg_blocked_by_enemy_piece_too() -> None:
    pos = position({"e4": "N", "d4": "r"})
    assert moves_from(pos, "e4") == {f"e4{t}" for t in ("g5", "g3", "d6", "f6", "d2", "f2")}


def test_horse_on_the_edge_does_not_wrap() -> None:
    pos = position({"a3": "N"})
    assert moves_from(pos, "a3") == {"a3b5", "a3b1", "a3c4", "a3c2"}


def test_elephant_blocked_by_eye() -> None:
    # The horse on d3 sits on the eye of e2-c4 (塞象眼).
    pos = position({"e2": "B", "d3": "N"})
    assert moves_from(pos, "e2") == {"e2g4", "e2c0", "e2g0"}


def test_elephant_cannot_cross_river() -> None:
    pos = position({"c4": "B"})
    assert moves_from(pos, "c4") == {"c4a2", "c4e2"}


def test_black_elephant_cannot_cross_river() -> None:
    pos = position({"g5": "b"}, side="b")
    assert moves_from(pos, "g5") == {"g5e7", "g5i7"}


def test_advisor_stays_in_palace() -> None:
    pos = position({"d0": "A"})
    assert moves_from(pos, "d0") == {"d0e1"}


def test_advisor_in_palace_center_has_four_moves() -> None:
    pos = position({"e1": "A", "e0": "K"})
    assert moves_from(pos, "e1") == {"e1d0", "e1f0", "e1d2", "e1f2"}


def test_king_stays_in_palace() -> None:
    pos = position({"d2": "K", "f9": "k"})
    assert moves_from(pos, "d2") == {"d2d1", "d2e2"}


def test_rook_slides_until_blocked_and_captures() -> None:
    pos = position({"b5": "R", "b7": "P", "e5": "p"})
    expected = {"b5b6", "b5b4", "b5b3", "b5b2", "b5b1", "b5b0", "b5a5", "b5c5", "b5d5", "b5e5"}
    assert moves_from(pos, "b5") == expected


def test_cannon_captures_over_exactly_one_screen() -> None:
    # Up the b-file: quiet b3, b4; screen on b5 (炮架); capture on b8, not b9 behind it.
    pos = position({"b2": "C", "b5": "P", "b8": "r", "b9": "n"})
    quiet_right = {f"b2{f}2" for f in "cdefghi"}
    expected = {"b2b3", "b2b4", "b2b8", "b2b1", "b2b0", "b2a2"} | quiet_right
    assert moves_from(pos, "b2") == expected


def test_cannon_cannot_capture_without_screen() -> None:
    pos = position({"b2": "C", "b4": "r"})
    assert "b2b4" not in moves_from(pos, "b2")
    assert "b2b3" in moves_from(pos, "b2")


def test_cannon_cannot_capture_own_piece_over_screen() -> None:
    pos = position({"b2": "C", "b4": "R", "b6": "N"})
    assert moves_from(pos, "b2") & {"b2b5", "b2b6", "b2b7"} == set()


def test_pawn_moves_forward_only_before_river() -> None:
    pos = position({"c3": "P"})
    assert moves_from(pos, "c3") == {"c3c4"}


def test_pawn_moves_sideways_only_after_river() -> None:
    pos = position({"c5": "P"})
    assert moves_from(pos, "c5") == {"c5c6", "c5b5", "c5d5"}


def test_pawn_on_the_edge_does_not_wrap() -> None:
    pos = position({"a6": "P"})
    assert moves_from(pos, "a6") == {"a6a7", "a6b6"}


def test_pawn_on_the_last_rank_only_steps_sideways() -> None:
    pos = position({"i9": "P"})
    assert moves_from(pos, "i9") == {"i9h9"}


def test_black_pawn_moves_down_the_board() -> None:
    pos = position({"c6": "p", "g4": "p"}, side="b")
    assert moves_from(pos, "c6") == {"c6c5"}
    assert moves_from(pos, "g4") == {"g4g3", "g4f4", "g4h4"}


def test_kings_may_not_face() -> None:
    # f1 would put the red king on the open f-file with the black king on f9.
    pos = position({"e1": "K", "f9": "k"})
    assert moves_from(pos, "e1") == {"e1e0", "e1e2", "e1d1"}


def test_piece_between_the_kings_is_pinned() -> None:
    # The horse is the only piece between the kings: no horse move is legal.
    pos = position({"e0": "K", "e9": "k", "e4": "N"})
    assert moves_from(pos, "e4") == set()
    assert moves_from(pos, "e0") == {"e0d0", "e0f0", "e0e1"}


def test_rook_pinned_by_rook_moves_only_along_the_pin() -> None:
    pos = position({"e3": "R", "e7": "r"})
    assert moves_from(pos, "e3") == {"e3e1", "e3e2", "e3e4", "e3e5", "e3e6", "e3e7"}


def test_two_pieces_between_cannon_and_king_are_both_bound() -> None:
    # Black cannon e8, red horse e3 and red pawn e5 between it and the red king:
    # whichever leaves the file makes the other a screen.
    pos = position({"e8": "c", "e3": "N", "e5": "P"})
    assert moves_from(pos, "e3") == set()
    assert moves_from(pos, "e5") == {"e5e6"}


def test_lone_screen_of_a_cannon_may_move() -> None:
    pos = position({"e8": "c", "e3": "N"})
    assert moves_from(pos, "e3") == {"e3c4", "e3g4", "e3c2", "e3g2", "e3d5", "e3f5", "e3d1", "e3f1"}


def test_in_check_only_evasions_are_legal() -> None:
    # Black rook on e5 checks the red king on e0 (d9 holds the black king).
    pos = position({"e5": "r", "a3": "R", "h2": "C"})
    legal = {str(m) for m in pos.legal_moves()}
    # The king may step to f0 but not d0 (it would face the king on d9) nor e1 (still on
    # the rook's file); the rook on a3 blocks on e3 and the cannon on e2.
    assert legal == {"e0f0", "a3e3", "h2e2"}
    assert pos.is_check()
