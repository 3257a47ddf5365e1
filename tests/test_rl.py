"""xiangqi.rl: action space, planes and masks.

Expected values come from outside the RL code: the action count from the piece
rules enumerated here, masks from Position.legal_moves(), planes from a small
Python encoder over Position.piece_map(), views from FEN text transformed here.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import xiangqi
from xiangqi import BLACK, RED, Color, Move, PieceType, Position, rl

FILES = "abcdefghi"


def sq(name: str) -> int:
    return FILES.index(name[0]) + 9 * int(name[1])


# -- the action space, from the piece rules -----------------------------------------------


def empty_board_moves() -> dict[str, set[tuple[int, int]]]:
    """Every (from, to) some piece can make on an empty board, by kind, Red's view plus
    the mirror image of Red's palace and elephant points on Black's side."""
    on = [(f, r) for r in range(10) for f in range(9)]
    kinds: dict[str, set[tuple[int, int]]] = {"rook": set(), "horse": set()}
    for f, r in on:
        for g, s in on:
            if (f, r) != (g, s) and (f == g or r == s):
                kinds["rook"].add((f + 9 * r, g + 9 * s))
        for df, dr in ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)):
            if 0 <= f + df < 9 and 0 <= r + dr < 10:
                kinds["horse"].add((f + 9 * r, f + df + 9 * (r + dr)))
    # Advisors: the palace centre and its four corners, each way, in both palaces.
    advisor = set()
    for centre, corners in (("e1", "d0 f0 d2 f2"), ("e8", "d9 f9 d7 f7")):
        for corner in corners.split():
            advisor |= {(sq(centre), sq(corner)), (sq(corner), sq(centre))}
    kinds["advisor"] = advisor
    # Elephants: the seven points of each half, joined two points diagonally apart.
    elephant = set()
    for points in ("c0 g0 a2 e2 i2 c4 g4", "c9 g9 a7 e7 i7 c5 g5"):
        squares = [sq(p) for p in points.split()]
        for a in squares:
            for b in squares:
                if abs(a % 9 - b % 9) == 2 and abs(a // 9 - b // 9) == 2:
                    elephant.add((a, b))
    kinds["elephant"] = elephant
    # King and pawn steps are one-square rook lines: no new pairs.
    return kinds


def test_action_count_is_derived_from_the_piece_rules():
    kinds = empty_board_moves()
    assert {k: len(v) for k, v in kinds.items()} == {
        "rook": 90 * 17,
        "horse": 508,
        "advisor": 16,
        "elephant": 32,
    }
    union = set().union(*kinds.values())
    assert len(union) == 2086 == rl.NUM_ACTIONS
    assert {(m.from_square, m.to_square) for m in rl.ACTIONS} == union


def test_actions_are_ordered_by_from_then_to():
    codes = [m.from_square * 90 + m.to_square for m in rl.ACTIONS]
    assert codes == sorted(codes)


def test_action_round_trip_both_colours():
    for action in range(rl.NUM_ACTIONS):
        for turn in (RED, BLACK):
            assert rl.move_to_action(rl.action_to_move(action, turn), turn) == action


def test_black_actions_flip_ranks():
    # Black's h7e7 (cannon to the centre) is Red's h2e2 in the mover's view.
    assert rl.move_to_action(Move.from_iccs("h7e7"), BLACK) == rl.move_to_action(
        Move.from_iccs("h2e2"), RED
    )
    assert rl.action_to_move(rl.move_to_action(Move.from_iccs("b9c7"), BLACK), RED) == (
        Move.from_iccs("b0c2")
    )


def test_mirror_action_reverses_files():
    for action in range(rl.NUM_ACTIONS):
        move = rl.ACTIONS[action]
        mirrored = rl.ACTIONS[rl.mirror_action(action)]
        for a, b in (
            (move.from_square, mirrored.from_square),
            (move.to_square, mirrored.to_square),
        ):
            assert b == 8 - a % 9 + 9 * (a // 9)
        assert rl.mirror_action(rl.mirror_action(action)) == action


@pytest.mark.parametrize("bad", [-1, 2086, 10**9])
def test_bad_action_index_raises_value_error(bad):
    with pytest.raises(ValueError, match=str(bad)):
        rl.action_to_move(bad, RED)
    with pytest.raises(ValueError, match=str(bad)):
        rl.mirror_action(bad)


def test_non_int_action_raises_type_error():
    with pytest.raises(TypeError, match="float"):
        rl.action_to_move(1.0, RED)  # type: ignore[arg-type]


def test_move_outside_the_action_space_raises_value_error():
    with pytest.raises(ValueError, match="a0b1"):
        rl.move_to_action(Move.from_iccs("a0b1"), RED)  # a diagonal step outside a palace


# -- masks equal legal_moves() -------------------------------------------------------------


def random_positions(count: int, seed: int) -> list[Position]:
    """Positions of seeded random games (both sides to move), restarting at game ends."""
    rng = random.Random(seed)
    out: list[Position] = []
    pos = Position()
    while len(out) < count:
        moves = pos.legal_moves()
        if not moves or len(pos.move_stack) > 150:
            pos = Position()
            continue
        pos.push(rng.choice(moves))
        out.append(pos.copy())
    return out


def test_masks_equal_legal_moves_on_random_positions():
    positions = random_positions(3000, seed=12)
    assert {p.turn for p in positions} == {RED, BLACK}
    masks = rl.legal_mask_batch(positions)
    assert masks.shape == (3000, 2086) and masks.dtype == np.bool_
    for pos, mask in zip(positions, masks):
        want = sorted(rl.move_to_action(m, pos.turn) for m in pos.legal_moves())
        assert np.flatnonzero(mask).tolist() == want, pos.fen()
        got = sorted(str(rl.action_to_move(int(a), pos.turn)) for a in np.flatnonzero(mask))
        assert got == sorted(str(m) for m in pos.legal_moves())


def test_mask_of_a_finished_game_is_empty():
    mated = Position("3k5/4R4/4R4/9/9/9/9/9/9/4K4 b - - 0 1")
    assert not mated.legal_moves()
    assert not rl.legal_mask(mated).any()


# -- planes ---------------------------------------------------------------------------------


def reference_piece_planes(pos: Position, view: Color) -> np.ndarray:
    """The 14 piece planes of pos from view's side, computed from piece_map()."""
    planes = np.zeros((14, 10, 9), dtype=np.uint8)
    for square, piece in pos.piece_map().items():
        file, rank = square % 9, square // 9
        if view == BLACK:
            rank = 9 - rank
        planes[int(piece.piece_type) + (0 if piece.color == view else 7), rank, file] = 1
    return planes


def test_piece_planes_match_a_python_encoder():
    positions = random_positions(500, seed=3)
    planes = rl.encode_batch(positions)
    assert planes.shape == (500, 16, 10, 9) and planes.dtype == np.uint8
    for pos, obs in zip(positions, planes):
        assert np.array_equal(obs[:14], reference_piece_planes(pos, pos.turn)), pos.fen()
        assert (obs[15] == min(pos.halfmove_clock, 255)).all()


def swap_colours(fen: str) -> str:
    """The same game with the colours exchanged: ranks reversed, case swapped, side flipped."""
    board, side, *rest = fen.split()
    flipped = "/".join(reversed(board.split("/"))).swapcase()
    return " ".join([flipped, "b" if side == "w" else "w", *rest])


def mirror_files(fen: str) -> str:
    board, *rest = fen.split()
    return " ".join(["/".join(row[::-1] for row in board.split("/")), *rest])


def test_black_to_move_looks_like_red_to_move_after_swapping_colours():
    for pos in random_positions(300, seed=5):
        twin = Position(swap_colours(pos.fen()))
        assert twin.turn != pos.turn
        assert np.array_equal(rl.encode(pos)[:14], rl.encode(twin)[:14])
        assert np.array_equal(rl.legal_mask(pos), rl.legal_mask(twin))


def test_mirror_action_maps_the_mask_of_the_mirrored_position():
    mirror = np.array([rl.mirror_action(a) for a in range(rl.NUM_ACTIONS)])
    for pos in random_positions(300, seed=6):
        twin = Position(mirror_files(pos.fen()))
        mask = rl.legal_mask(pos)
        expected = np.zeros_like(mask)
        expected[mirror[np.flatnonzero(mask)]] = True
        assert np.array_equal(rl.legal_mask(twin), expected)


def test_perspective_encodes_from_the_other_side():
    pos = Position()
    pos.push_iccs("h2e2")
    assert np.array_equal(rl.encode(pos, perspective=RED)[:14], reference_piece_planes(pos, RED))
    assert np.array_equal(rl.encode(pos)[:14], reference_piece_planes(pos, BLACK))


def test_repetition_plane_counts_earlier_occurrences():
    # Horses out and back: the start position recurs after 4 and 8 plies.
    pos = Position()
    counts = []
    for _ in range(2):
        for text in ("b0c2", "b9c7", "c2b0", "c7b9"):
            pos.push_iccs(text)
            counts.append(int(rl.encode(pos)[14].max()))
    assert counts == [0, 0, 0, 1, 1, 1, 1, 2]
    assert (rl.encode(pos)[14] == 2).all()


def test_repetition_plane_stops_at_a_capture():
    pos = Position("3k5/9/9/9/9/9/9/9/r8/R3K4 w - - 0 1")
    for text in ("a0a1", "d9d8", "a1a0", "d8d9"):  # a0a1 captures the rook on a1
        pos.push_iccs(text)
    assert rl.encode(pos)[14].max() == 0
    for text in ("e0f0", "d9d8", "f0e0", "d8d9"):
        pos.push_iccs(text)
    assert rl.encode(pos)[14].max() == 1
    assert rl.encode(pos)[15].max() == 7  # plies since a0a1 took the rook


def test_history_planes_hold_earlier_positions_in_the_current_view():
    pos = Position()
    earlier = []
    for text in ("h2e2", "h9g7", "h0g2", "i9h9"):
        earlier.append(pos.copy())
        pos.push_iccs(text)
    obs = rl.encode(pos, history=5)
    assert obs.shape == (16 + 14 * 5, 10, 9)
    for j in range(1, 5):
        block = obs[16 + 14 * (j - 1) : 16 + 14 * j]
        assert np.array_equal(block, reference_piece_planes(earlier[-j], pos.turn)), j
    assert not obs[16 + 14 * 4 :].any()  # before the first position: zeros


def test_encode_batch_fills_a_caller_buffer():
    positions = random_positions(10, seed=1)
    out = np.full((10, 30, 10, 9), 7, dtype=np.uint8)
    assert rl.encode_batch(positions, history=1, out=out) is out
    assert np.array_equal(out, rl.encode_batch(positions, history=1))
    with pytest.raises(ValueError, match="shape"):
        rl.encode_batch(positions, out=out)
    masks = np.ones((10, 2086), dtype=np.bool_)
    assert rl.legal_mask_batch(positions, out=masks) is masks
    assert np.array_equal(masks, rl.legal_mask_batch(positions))


def test_bad_inputs_to_the_encoders():
    with pytest.raises(TypeError, match="positions\\[1\\]"):
        rl.encode_batch([Position(), "not a position"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="history"):
        rl.encode(Position(), history=-1)
    with pytest.raises(TypeError, match="history"):
        rl.encode(Position(), history=1.5)  # type: ignore[arg-type]


def test_encoders_leave_the_position_unchanged():
    pos = random_positions(40, seed=9)[-1]
    fen, stack = pos.fen(), pos.move_stack
    rl.encode(pos, history=8)
    rl.legal_mask(pos)
    assert pos.fen() == fen and pos.move_stack == stack


def test_piece_type_order_is_the_documented_one():
    pos = Position()
    obs = rl.encode(pos)
    assert obs[int(PieceType.KING), 0, 4] == 1
    assert obs[int(PieceType.CANNON), 2].tolist() == [0, 1, 0, 0, 0, 0, 0, 1, 0]
    assert obs[7 + int(PieceType.PAWN), 6].tolist() == [1, 0, 1, 0, 1, 0, 1, 0, 1]


def test_rl_is_importable_from_the_package():
    assert xiangqi.rl is rl


def test_zobrist_table_matches_the_hashed_keys():
    # Every history (Position's and VectorEnv's) updates Zobrist keys from a constant
    # table made by the compiler (zobrist_hash() after a push); it must agree with the
    # key hashed by SplitMix64 from the whole board (a Position read from the FEN) on
    # every legal move, captures included.
    for pos in random_positions(60, seed=11):
        for move in pos.legal_moves():
            after = pos.copy()
            after.push(move)
            assert after.zobrist_hash() == Position(after.fen()).zobrist_hash(), move
