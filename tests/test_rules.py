"""Game end: Zobrist keys, repetition, perpetual check and chase, move rule, material.

Independent sources of the expected values:
* Zobrist keys: a Python SplitMix64 written here, itself pinned to the generator's
  published seed-0 outputs (Vigna's reference code: 0xE220A8397B1DCDAF, ...).
* Repetition rulings: Fairy-Stockfish's own test suite (test.py,
  test_is_optional_game_end, the xiangqi cases, which cite the AXF rules and the WXF
  book's diagram numbers D39 and D106), re-run here against pyffish as well; the rule
  book's statements for the hand-made cases (each also checked against pyffish where
  it agrees; where we believe Fairy-Stockfish is wrong the test says why).
* Move rule, material, checkmate: the rules as stated, on tiny positions.
"""

from __future__ import annotations

import random
import re

import pytest

import xiangqi
from xiangqi import Color, Outcome, Position, Termination

MATE = 32000
MASK = (1 << 64) - 1


# ------------------------------------------------------------------ helpers


def splitmix64(n: int) -> int:
    """The n-th output (n >= 1) of SplitMix64 seeded with 0, in plain Python."""
    z = (n * 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def reference_key(pos: Position) -> int:
    """The documented key: XOR of piece keys, and the side key when Black is to move."""
    key = splitmix64(1261) if pos.turn == Color.BLACK else 0
    for square, piece in pos.piece_map().items():
        code = 1 + int(piece.piece_type) + 7 * int(piece.color)
        key ^= splitmix64(1 + (code - 1) * 90 + square)
    return key


def ff_to_iccs(text: str) -> str:
    """'h3e3' (Fairy-Stockfish, ranks 1..10) -> 'h2e2' (ICCS, ranks 0..9)."""
    m = re.match(r"^([a-i])(10|[1-9])([a-i])(10|[1-9])$", text)
    assert m, text
    return f"{m[1]}{int(m[2]) - 1}{m[3]}{int(m[4]) - 1}"


def iccs_to_ff(text: str) -> str:
    return f"{text[0]}{int(text[1]) + 1}{text[2]}{int(text[3]) + 1}"


def play(fen: str, moves: list[str]) -> Position:
    pos = Position(fen)
    for text in moves:
        pos.push_iccs(text)
    return pos


def value(pos: Position) -> int | None:
    """The repetition ruling in the engines' terms: None, 0 or +-MATE for the side to move."""
    outcome = pos.outcome()
    if outcome is None:
        return None
    if outcome.winner is None:
        return 0
    return MATE if outcome.winner == pos.turn else -MATE


def pyffish_value(fen: str, moves: list[str]) -> int | None:
    ff = pytest.importorskip("pyffish")
    ended, result = ff.is_optional_game_end("xiangqi", fen, [iccs_to_ff(m) for m in moves])
    return int(result) if ended else None


# ------------------------------------------------------------------ Zobrist keys


def test_splitmix64_matches_published_outputs() -> None:
    # SplitMix64 seeded with 0: the first three outputs of Vigna's reference code.
    assert splitmix64(1) == 0xE220A8397B1DCDAF
    assert splitmix64(2) == 0x6E789E6AA1B965F4
    assert splitmix64(3) == 0x06C45D188009454F


def test_start_position_key_is_pinned() -> None:
    pos = Position()
    assert pos.zobrist_hash() == reference_key(pos) == 0x66914EB712139AAA


def test_keys_of_a_few_positions_follow_the_documented_scheme() -> None:
    for fen in [
        "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1",
        "4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1",
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    ]:
        pos = Position(fen)
        assert pos.zobrist_hash() == reference_key(pos), fen
    kings = Position("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1")
    assert Position("4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1").zobrist_hash() == (
        kings.zobrist_hash() ^ splitmix64(1261)
    )


def test_incremental_key_equals_key_from_scratch_over_random_games() -> None:
    rng = random.Random(10)
    plies = 0
    while plies < 4000:
        pos = Position()
        keys = [pos.zobrist_hash()]
        for _ in range(rng.randrange(20, 200)):
            moves = pos.legal_moves()
            if not moves:
                break
            if len(keys) > 1 and rng.random() < 0.15:
                pos.pop()
                keys.pop()
                assert pos.zobrist_hash() == keys[-1]  # pop restores the key
                continue
            pos.push(rng.choice(moves))
            plies += 1
            keys.append(pos.zobrist_hash())
            assert pos.zobrist_hash() == pos._board.zobrist_from_scratch()
            if plies % 7 == 0:
                assert pos.zobrist_hash() == reference_key(pos)
        while pos.move_stack:
            pos.pop()
            keys.pop()
            assert pos.zobrist_hash() == keys[-1]


def test_transposed_move_orders_and_swapped_rooks_give_one_key() -> None:
    a = play(xiangqi.START_FEN, ["h2e2", "h9g7", "b0c2", "b9c7"])
    b = play(xiangqi.START_FEN, ["b0c2", "b9c7", "h2e2", "h9g7"])
    assert a.zobrist_hash() == b.zobrist_hash() == Position(a.fen()).zobrist_hash()
    # The two red rooks trade places (the core's slots differ, the key must not).
    fen = "4k4/9/9/9/9/9/9/9/R7R/3K5 w - - 0 1"
    swapped = play(fen, ["a1a2", "e9e8", "i1a1", "e8e9", "a2i2", "e9e8", "i2i1", "e8e9"])
    assert swapped.fen().split()[0] == fen.split()[0]
    assert swapped.zobrist_hash() == Position(fen).zobrist_hash()


# ------------------------------------------------------------------ API


def test_no_legal_move_verdict_agrees_with_the_generator() -> None:
    # outcome() tests "has a legal move?" with its own early-exit walk; it must agree with
    # the full generator in every position: random games from the perft data positions
    # and the start, checks, pins and endgames included.
    from conftest import load_perft_cases

    rng = random.Random(5)
    fens = [xiangqi.START_FEN] + [case.fen for case in load_perft_cases()]
    seen_over = 0
    for _game in range(120):
        pos = Position(rng.choice(fens))
        for _ in range(150):
            moves = pos.legal_moves()
            outcome = pos.outcome(repetitions=1000, move_limit=10**6)
            no_move = outcome is not None and outcome.termination in (
                Termination.CHECKMATE,
                Termination.STALEMATE,
            )
            assert no_move == (not moves), pos.fen()
            if not moves:
                assert outcome is not None and outcome.winner == Color(1 - pos.turn)
                assert (outcome.termination == Termination.CHECKMATE) == pos.is_check()
                seen_over += 1
                break
            pos.push(rng.choice(moves))
    assert seen_over > 10


def test_outcome_is_none_while_the_game_goes_on() -> None:
    pos = Position()
    assert pos.outcome() is None
    assert not pos.is_game_over()
    assert pos.result() == "*"
    assert not pos.is_repetition()


def test_outcome_result_strings() -> None:
    assert Outcome(Termination.CHECKMATE, Color.RED).result() == "1-0"
    assert Outcome(Termination.STALEMATE, Color.BLACK).result() == "0-1"
    assert Outcome(Termination.REPETITION, None).result() == "1/2-1/2"
    assert Outcome(Termination.PERPETUAL_CHECK, Color.RED).termination_tag() == "perpetual check"
    assert Outcome(Termination.MOVE_RULE, None).termination_tag() == "move rule"


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"repetitions": 1}, ValueError, "repetitions"),
        ({"repetitions": "3"}, TypeError, "repetitions"),
        ({"repetitions": True}, TypeError, "repetitions"),
        ({"repetitions": 2**70}, ValueError, "repetitions"),
        ({"move_limit": 0}, ValueError, "move_limit"),
        ({"move_limit": 1.5}, TypeError, "move_limit"),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, object], error: type, match: str) -> None:
    pos = play(xiangqi.START_FEN, ["h2e2"])
    before = (pos.fen(), pos.move_stack)
    with pytest.raises(error, match=match):
        pos.outcome(**kwargs)  # type: ignore[arg-type]
    with pytest.raises(error, match=match):
        pos.is_game_over(**kwargs)  # type: ignore[arg-type]
    assert (pos.fen(), pos.move_stack) == before
    with pytest.raises(TypeError, match="count"):
        pos.is_repetition("3")  # type: ignore[arg-type]


def test_is_repetition_counts_occurrences_since_the_last_capture() -> None:
    cycle = ["h0g2", "h9g7", "g2h0", "g7h9"]
    pos = Position()
    assert pos.is_repetition(1)
    pos_moves = cycle * 2
    for i, text in enumerate(pos_moves):
        pos.push_iccs(text)
        assert pos.is_repetition(2) == (i >= 3)
    assert pos.is_repetition(3) and not pos.is_repetition(4)
    assert pos.outcome() == Outcome(Termination.REPETITION, None)
    assert pos.is_game_over() and pos.result() == "1/2-1/2"
    pos.pop()
    assert pos.outcome() is None
    assert pos.outcome(repetitions=2) == Outcome(Termination.REPETITION, None)


def test_counters_come_from_the_history() -> None:
    pos = Position("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 7 30")
    pos.push_iccs("e9f9")
    assert (pos.halfmove_clock, pos.fullmove_number) == (8, 31)
    pos.push_iccs("e1e9")
    assert (pos.halfmove_clock, pos.fullmove_number) == (9, 31)
    pos.pop()
    pos.pop()
    assert pos.fen() == "4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 7 30"
    pos.halfmove_clock = 100
    pos.fullmove_number = 5
    assert pos.fen().endswith(" 100 5")
    with pytest.raises(ValueError):
        pos.halfmove_clock = -1
    assert pos.fen().endswith(" 100 5")


# ------------------------------------------------------------------ Fairy-Stockfish's test.py

# (name, FEN, moves in Fairy-Stockfish's notation (ranks 1..10), expected value for the
# side to move). From Fairy-Stockfish test.py, test_is_optional_game_end, xiangqi cases.
CANNON_CHASE = "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1"
FSF_CASES = [
    ("direct chase by cannon", CANNON_CHASE,
     ["c3a3"] + 2 * ["a8b8", "a3b3", "b8a8", "b3a3"], MATE),
    ("chase with chasing side to move", CANNON_CHASE,
     ["c3a3"] + 2 * ["a8b8", "a3b3", "b8a8", "b3a3"] + ["a8b8", "a3b3", "b8a8"], -MATE),
    ("discovered chase by cannon", "2bakabr1/9/9/r1p1p1p2/p7R/P8/9/9/9/CC1AKA3 w - - 0 1",
     ["a5a6", "a7b7", "a6b6", "b7a7", "b6a6", "a7b7", "a6b6", "b7a7", "b6a6"], MATE),
    ("chase by soldier is allowed", "2bakabr1/9/9/r1p1p1p2/p7R/P8/9/9/9/1C1AKA3 w - - 0 1",
     ["a5a6", "a7b7", "a6b6", "b7a7", "b6a6", "a7b7", "a6b6", "b7a7", "b6a6"], 0),
    ("discovered and anti-discovered chase", "5k3/9/9/5C3/5c3/5C3/9/9/5p3/4K4 w - - 0 1",
     ["f5d5", "f6d6", "d5f5", "d6f6", "f5d5", "f6d6", "d5f5", "d6f6"], -MATE),
    ("mutual chase", "4k4/7n1/9/4pR3/9/9/4P4/9/9/4K4 w - - 0 1",
     ["f7h7"] + 2 * ["h9f8", "h7h8", "f8g6", "h8g8", "g6i7", "g8g7", "i7h9", "g7h7"], 0),
    ("perpetual check vs intermittent checks", "9/3kc4/3a5/3P5/9/4p4/9/4K4/9/3C5 w - - 0 1",
     2 * ["d7e7", "e5d5", "e7d7", "d5e5"], MATE),
    ("perpetual check by soldier", "3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1",
     2 * ["f2e2", "f3e3", "e2f2", "e3f3"], MATE),
    ("forbidden cycle 3", "3k5/4P4/4b4/3C5/4c4/9/9/9/9/5K3 w - - 0 1",
     2 * ["d7e7", "e8g6", "e7d7", "g6e8"], MATE),
    ("forbidden cycle 4", "3k5/9/9/9/9/9/9/9/cr1CAK3/9 w - - 0 1",
     2 * ["d2d4", "b2b4", "d4d2", "b4b2"], MATE),
    ("forbidden cycle 5", "5k3/9/9/5C3/5c3/5C3/9/9/5p3/4K4 w - - 0 1",
     2 * ["f5d5", "f6d6", "d5f5", "d6f6"], -MATE),
    ("forbidden cycle 6", "4k4/9/4b4/2c2nR2/9/9/9/9/9/3K5 w - - 0 1",
     2 * ["g7g6", "f7g9", "g6g7", "g9f7"], MATE),
    ("forbidden cycle 7", "3P5/3k5/3nn4/9/9/9/9/9/9/5K3 w - - 0 1",
     2 * ["d10e10", "d9e9", "e10d10", "e9d9"], MATE),
    ("forbidden cycle 8", "4ck3/9/9/9/9/2r1R4/9/9/4A4/3AK4 w - - 0 1",
     2 * ["e5e4", "c5c4", "e4e5", "c4c5"], MATE),
    ("forbidden cycle 9", "4k4/9/9/c1c6/9/r8/9/9/C8/3K5 w - - 0 1",
     2 * ["a2c2", "a5c5", "c2a2", "c5a5"], MATE),
    ("mutual perpetual check 1", "9/4c4/3k5/3r5/9/9/4C4/9/4K4/3R5 w - - 0 1",
     2 * ["e4d4", "d7e7", "d4e4", "e7d7"], 0),
    ("mutual perpetual check 2", "3k5/6c2/9/7P1/6c2/6P2/9/9/9/5K3 w - - 0 1",
     2 * ["h7g7", "g6h6", "g7h7", "h6g6"], 0),
    ("mutual perpetual check 3", "4ck3/9/9/9/9/2r1R1N2/6N2/9/4A4/3AK4 w - - 0 1",
     2 * ["e5e4", "c5c4", "e4e5", "c4c5"], 0),
    ("mutual perpetual check 4", "5k3/9/9/c8/9/P1P6/9/2C6/9/3K5 w - - 0 1",
     2 * ["c3a3", "a7c7", "a3c3", "c7a7"], 0),
    ("mutual perpetual check 5", "4k4/9/r1r6/9/PPPP5/9/9/9/1C7/5K3 w - - 0 1",
     ["b2a2"] + 2 * ["a8b8", "a2c2", "c8d8", "c2b2", "b8a8", "b2d2", "d8c8", "d2a2"], 0),
    ("D106 rook attacks cannon but the attack does not change",
     "3k2b2/4P4/4b4/9/8p/6Bc1/6P1P/3AB4/4pp3/1p1K3R1 w - - 0 1",
     2 * ["h1h2", "h5h4", "h2h1", "h4h5"], 0),
    ("D39 chased rook pinned by horse, mutual chase",
     "2baka1r1/C4rN2/9/1Rp1p4/9/9/4P4/9/4A4/4KA3 w - - 0 1",
     ["b7b9"] + 2 * ["f10e9", "b9b10", "e9f10", "b10b9"], MATE),
    ("D39 chasing rook pinned by horse", "5k3/9/9/9/9/9/7r1/9/2nRA3c/4K4 w - - 0 1",
     2 * ["e2f1", "h4h2", "f1e2", "h2h4"], MATE),
    ("creating pins to undermine a root", "4k4/4c4/9/4p4/9/9/3rn4/3NR4/4K4/9 b - - 0 1",
     2 * ["e4g5", "e2f2", "g5e4", "f2e2"], -MATE),
    ("discovered check capture threat by rook", "5k3/9/9/9/9/1N2P1C2/9/4BC3/9/cr1RK4 w - - 0 1",
     2 * ["b5c3", "b1c1", "c3b5", "c1b1"], MATE),
    ("pin undermines root, discovered check threat by horse",
     "5k3/9/9/9/9/4c4/3n5/3NBA3/4A4/4K4 w - - 0 1", 2 * ["e1d1", "e5d5", "d1e1", "d5e5"], MATE),
    ("pin undermines root, discovered check threat by rook",
     "5k3/9/9/9/9/4c4/3r5/3NB4/4A4/4K4 w - - 0 1", 2 * ["e1d1", "e5d5", "d1e1", "d5e5"], MATE),
    ("x-ray protected discovered check", "5k3/9/9/9/9/9/9/9/9/3NK1cr1 w - - 0 1",
     2 * ["d1c3", "h1h3", "c3d1", "h3h1"], MATE),
    ("no overprotection by king", "3k5/9/9/3n5/9/9/3r5/9/9/3NK4 w - - 0 1",
     2 * ["d1c3", "d4c4", "c3d1", "c4d4"], 0),
    ("overprotection by king", "3k5/9/9/9/9/9/3r5/9/9/3NK4 w - - 0 1",
     2 * ["d1c3", "d4c4", "c3d1", "c4d4"], MATE),
    ("fake protection by cannon", "5k3/9/9/9/9/1C7/1r7/9/1C7/4K4 w - - 0 1",
     2 * ["b5c5", "b4c4", "c5b5", "c4b4"], MATE),
    ("fake protection by cannon and mutual chase", "4ka3/c2R1R2c/4b4/9/9/9/9/9/9/4K4 w - - 0 1",
     2 * ["f9f7", "f10e9", "f7f9", "e9f10"], 0),
]  # fmt: skip


@pytest.mark.parametrize(
    ("fen", "ff_moves", "expected"), [c[1:] for c in FSF_CASES], ids=[c[0] for c in FSF_CASES]
)
def test_fairy_stockfish_test_suite_case(fen: str, ff_moves: list[str], expected: int) -> None:
    moves = [ff_to_iccs(m) for m in ff_moves]
    pos = play(fen, moves)
    assert value(pos) == expected
    assert pyffish_value(fen, moves) == expected  # the installed engine agrees too
    assert pos.outcome(repetitions=4) is None  # two cycles: the third occurrence, not the fourth


# ------------------------------------------------------------------ rule book cases


def test_perpetual_check_by_one_rook_loses() -> None:
    # The rook checks on the e- and f-files while the king steps between them.
    fen = "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1"
    moves = ["a1e1"] + 2 * ["e9f9", "e1f1", "f9e9", "f1e1"]
    pos = play(fen, moves)
    assert pos.outcome() == Outcome(Termination.PERPETUAL_CHECK, Color.BLACK)
    assert pyffish_value(fen, moves) == MATE


def test_perpetual_check_loses_against_intermittent_checks() -> None:
    # Fairy-Stockfish's "perpetual check vs intermittent checks": Black's pawn checks with
    # every move, Red checks only now and then: Black is ruled lost by perpetual check.
    fen = "9/3kc4/3a5/3P5/9/4p4/9/4K4/9/3C5 w - - 0 1"
    moves = [ff_to_iccs(m) for m in 2 * ["d7e7", "e5d5", "e7d7", "d5e5"]]
    pos = play(fen, moves)
    assert pos.outcome() == Outcome(Termination.PERPETUAL_CHECK, Color.RED)


def test_mutual_perpetual_check_is_a_draw() -> None:
    fen = "9/4c4/3k5/3r5/9/9/4C4/9/4K4/3R5 w - - 0 1"
    pos = play(fen, [ff_to_iccs(m) for m in 2 * ["e4d4", "d7e7", "d4e4", "e7d7"]])
    assert pos.outcome() == Outcome(Termination.REPETITION, None)


def test_chasing_an_unprotected_piece_loses() -> None:
    # The rook follows an unprotected cannon between the a- and b-files.
    fen = "4k4/9/c8/9/9/9/9/1R7/9/3K5 w - - 0 1"
    moves = ["b2a2"] + 2 * ["a7b7", "a2b2", "b7a7", "b2a2"]
    pos = play(fen, moves)
    assert pos.outcome() == Outcome(Termination.PERPETUAL_CHASE, Color.BLACK)
    assert pyffish_value(fen, moves) == MATE


def test_chasing_a_protected_piece_is_allowed() -> None:
    # The same chase, but the black rook on i7 protects the cannon on rank 7.
    fen = "4k4/9/c7r/9/9/9/9/1R7/9/3K5 w - - 0 1"
    moves = ["b2a2"] + 2 * ["a7b7", "a2b2", "b7a7", "b2a2"]
    pos = play(fen, moves)
    assert pos.outcome() == Outcome(Termination.REPETITION, None)
    assert pyffish_value(fen, moves) == 0


def test_cannon_chasing_a_protected_rook_loses() -> None:
    # A cannon (or horse) threatening a rook chases it even when the rook is protected.
    fen = "4k4/9/r7r/9/PP7/9/9/1C7/9/3K5 w - - 0 1"
    moves = ["b2a2"] + 2 * ["a7b7", "a2b2", "b7a7", "b2a2"]
    pos = play(fen, moves)
    assert pos.outcome() == Outcome(Termination.PERPETUAL_CHASE, Color.BLACK)
    assert pyffish_value(fen, moves) == MATE


def test_chasing_a_crossed_pawn_loses_but_an_uncrossed_pawn_is_never_chased() -> None:
    # A black pawn across the river (d3/e3, Red's half) steps sideways; the rook follows.
    fen = "5k3/9/9/3R5/9/9/3p5/9/9/4K4 b - - 0 1"
    moves = 2 * ["d3e3", "d6e6", "e3d3", "e6d6"]
    pos = play(fen, moves)
    assert pos.outcome() == Outcome(Termination.PERPETUAL_CHASE, Color.BLACK)
    assert pyffish_value(fen, moves) == MATE
    assert pos._board.chased(0) == [xiangqi.parse_square("d3")]
    # A black pawn still on its own half (e6), attacked by the rook on e2, is no target.
    assert Position("5k3/9/9/4p4/9/9/9/4R4/9/3K5 w - - 0 1")._board.chased(0) == []


def test_two_pieces_taking_turns_to_threaten_one_piece_is_a_chase() -> None:
    # Black's b-rook steps b9<->b5: on b5 it attacks the crossed red pawn a5 itself; on
    # b9 it uncovers the i5 rook's attack on a5. Every black move makes a new threat on
    # a5. (Fairy-Stockfish rules this a draw only because it also judges the move that
    # led into the cycle, a horse move; see test_fsf_divergence_entry_move_is_not_judged.)
    fen = "1r1a1abn1/4k4/9/4N3p/P7r/5c3/9/9/9/1NBAKAB2 w - - 0 1"
    pos = play(fen, 2 * ["e0e1", "b9b5", "e1e0", "b5b9"])
    assert pos.outcome() == Outcome(Termination.PERPETUAL_CHASE, Color.RED)


def test_one_piece_threatening_two_pieces_in_turn_is_allowed() -> None:
    # The red rook alternates between a0 (attacking the unprotected cannon on a7) and b0
    # (attacking the unprotected horse on b7): every move is a threat, but not against
    # one and the same piece, so this is allowed: a draw.
    fen = "4k4/9/cn7/9/9/9/9/9/9/R2K5 w - - 0 1"
    moves = 2 * ["a0b0", "e9f9", "b0a0", "f9e9"]
    pos = play(fen, moves)
    assert pos.outcome() == Outcome(Termination.REPETITION, None)
    assert pyffish_value(fen, moves) == 0


def test_idle_cycle_is_a_draw() -> None:
    fen = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1"
    moves = 2 * ["a0a1", "e9f9", "a1a0", "f9e9"]
    pos = play(fen, moves)
    assert pos.outcome() == Outcome(Termination.REPETITION, None)
    assert pyffish_value(fen, moves) == 0


def test_pinned_protector_does_not_protect() -> None:
    # Fairy-Stockfish's "creating pins to undermine root": Black's moves pin the red piece
    # that protected the attacked one, so the attack becomes a chase; Black is ruled lost.
    fen = "4k4/4c4/9/4p4/9/9/3rn4/3NR4/4K4/9 b - - 0 1"
    pos = play(fen, [ff_to_iccs(m) for m in 2 * ["e4g5", "e2f2", "g5e4", "f2e2"]])
    assert pos.outcome() == Outcome(Termination.PERPETUAL_CHASE, Color.RED)


def test_a_protector_pinned_only_by_the_capturer_still_protects() -> None:
    # Issue 19: the red rook attacks the horse on e5; after a5e5 the pawn on e6 stands
    # between that rook and its king, but taking the rook is legal (e6e5 removes the
    # pinner), so the horse is protected and not chased.
    fen = "4k4/9/9/4p4/R3n4/9/9/9/9/3K5 b - - 0 1"
    pos = Position(fen)
    assert pos._board.chased(0) == []
    # With Red to move: after a5e5, e6e5 is legal (by the core and by pyffish).
    red = fen.replace(" b ", " w ")
    pos = play(red, ["a5e5"])
    assert pos.is_legal(xiangqi.Move.from_iccs("e6e5"))
    ff = pytest.importorskip("pyffish")
    assert "e7e6" in ff.legal_moves("xiangqi", red, [iccs_to_ff("a5e5")])
    # The same motif in a cycle: the black cannon steps e5<->e4 and the red rook follows
    # along the rank, attacking it anew each time; the black rook on e7 protects it, and
    # after the capture it is pinned only by the capturer. Not a chase: a draw, as
    # pyffish rules it (the core ruled a perpetual chase before).
    fen = "4k4/9/4r4/9/R3c4/9/9/9/9/3K5 b - - 0 1"
    moves = 2 * ["e5e4", "a5a4", "e4e5", "a4a5"]
    pos = play(fen, moves)
    assert pos.outcome() == Outcome(Termination.REPETITION, None)
    assert pyffish_value(fen, moves) == 0


def test_a_pawn_and_a_rook_threatening_one_piece_in_turn_is_allowed() -> None:
    # WXF rules: two pieces chasing one piece is forbidden "except when one of the
    # chasing pieces is a pawn or a king". The crossed red pawn and the red rook take
    # turns to attack the black cannon as it runs along rank 7: a draw. (Position from
    # the WXF-rule fixtures of an independent implementation citing the WXF 2018 text;
    # pyffish agrees.)
    fen = "3k5/9/2c6/3P5/5R3/3p5/9/9/9/3K5 w - - 0 1"
    moves = 2 * ["d6c6", "c7e7", "f5e5", "e7d7", "c6d6", "d7f7", "e5f5", "f7c7"]
    pos = play(fen, moves)
    assert pos.outcome() == Outcome(Termination.REPETITION, None)
    assert pyffish_value(fen, moves) == 0


def test_offering_a_rook_exchange_does_not_excuse_chasing_a_cannon() -> None:
    # The red rook shuttles c4<->b4 facing the black rook on i4 (an exchange offer,
    # allowed in itself); each arrival also attacks the unprotected black cannon, which
    # flees b6<->c6 on the file above it. The offer does not excuse the chase (the same
    # fixtures as above, after the WXF text's "offering" clause): Red loses.
    fen = "3k5/9/9/1c7/9/2R5r/9/9/9/5K3 w - - 0 1"
    moves = 2 * ["c4b4", "b6c6", "b4c4", "c6b6"]
    pos = play(fen, moves)
    assert pos.outcome() == Outcome(Termination.PERPETUAL_CHASE, Color.BLACK)
    assert pyffish_value(fen, moves) == -MATE


# ------------------------------------------------------------------ move rule, material, mate


def test_move_rule_draws_after_120_plies_without_capture() -> None:
    pos = Position("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 119 80")
    assert pos.outcome() is None
    pos.push_iccs("a1b1")
    assert pos.outcome() == Outcome(Termination.MOVE_RULE, None)
    assert pos.outcome(move_limit=121) is None
    pos.pop()
    assert pos.outcome(move_limit=119) == Outcome(Termination.MOVE_RULE, None)


def test_move_rule_does_not_count_a_sides_checks_beyond_ten() -> None:
    # Red's rook checks on the d-file every fourth ply (a0d0+, king d9e9, d0a0, e9d9):
    # 30 checks in 120 plies without capture. The 20 beyond the tenth and the replies
    # to them do not count (two plies each, as Pikafish): the count stands at 80.
    pos = Position("3k5/9/9/9/9/9/9/9/9/R4K3 w - - 0 1")
    seq = ["a0d0", "d9e9", "d0a0", "e9d9"]
    for ply in range(120):
        pos.push_iccs(seq[ply % 4])
    assert pos.halfmove_clock == 120
    assert pos.outcome(repetitions=1000) is None  # repetitions=1000: no repetition ruling
    assert pos.outcome(repetitions=1000, move_limit=80) == Outcome(Termination.MOVE_RULE, None)
    assert pos.outcome(repetitions=1000, move_limit=81) is None


#: Issue 19's position, and two games from it without a capture or a repeated position
#: in which Black gives 11 and 13 checks and Red none (found by a seeded search).
CHECKS_FEN = "9/3k5/9/9/9/9/6p2/5K3/9/2r3C2 w - - 0 1"
ELEVEN_CHECKS = (
    "f2e2 c0c2 e2e1 c2e2 e1f1 e2e1 f1f0 e1f1 f0e0 f1f7 g0f0 f7c7 f0i0 c7c6 i0i9 c6c0 e0e1 "
    "c0c1 e1e2 c1c2 e2e1 c2a2 i9i7 g3g2 i7i8 a2a1 e1e2 a1a9 i8h8 g2f2 e2e1 a9a7 h8g8 f2f1 "
    "e1e2 a7e7 e2f2 e7d7 g8g1 d8e8 g1g3 d7i7 g3g7 i7i8 g7g2 i8i5 g2g9 i5d5 g9c9 d5d7 c9i9 "
    "d7b7 i9g9 b7b3 g9b9 b3b1 b9e9 b1d1 e9c9 d1d0 c9c0 d0d6 c0e0 d6a6 e0d0 f1f0 d0c0 a6c6 "
    "c0c1 c6g6 c1b1 g6g0 b1b7 g0g7 b7b5 g7g8 f2f1 g8g3 b5b0 g3h3 b0b6 h3h0 b6h6 e8e9 f1f2 "
    "e9e8 h6g6 h0h7 g6g3 e8e9 g3g4 h7b7 f2f1 b7a7 g4c4 f0g0 c4c7 a7a8 c7c4 a8i8 c4f4 e9f9 "
    "f1e1 i8i5 f4i4 i5h5 i4i0 h5h3 i0i9 h3h0 i9h9 h0h3 h9h7 h3b3 h7h3 b3b6 h3a3 b6g6 a3d3 "
    "g6g2 d3d0 g2c2 d0d9 c2i2 d9b9 i2a2"
).split()
THIRTEEN_CHECKS = (
    "f2e2 c0c6 e2e1 c6c1 e1e0 d8d9 g0i0 c1e1 e0f0 e1f1 f0e0 f1f8 i0i2 f8e8 e0f0 e8f8 i2f2 "
    "d9d8 f2f1 g3g2 f1f5 f8g8 f5f7 g8h8 f7d7 h8f8 f0e0 f8f0 e0e1 f0e0 e1d1 e0e1 d1d2 e1d1 "
    "d2e2 d1g1 d7d2 g1c1 d2d3 g2f2 e2d2 c1c5 d3d7 c5c8 d7d3 c8c2 d2d1 c2c1 d1d0 c1c2 d3d4 "
    "d8e8 d4d7 c2c3 d7d4 f2g2 d4h4 c3c5 h4d4 g2h2 d4d9 c5i5 d9a9 i5i3 a9a6 h2h1 a6a3 i3i7 "
    "a3a6 i7a7 a6b6 a7a5 b6b9 a5g5 b9b3 g5h5 b3b4 h1i1 b4g4 h5g5 g4g3 g5h5 g3g2 e8e9 g2g4 "
    "h5f5 g4g7 f5f7 g7g2 f7f5 g2g0 f5i5 g0g4 i5c5 g4h4 c5c3 h4h8 c3c7 h8i8 e9e8 i8i9 c7c1 "
    "i9i8 i1i0 i8g8 e8e9 g8g9 c1c2 g9g6 c2i2 g6g2 i2i4 g2c2 i4i9 c2c9 i9i6 d0d1 e9e8 d1d2 "
    "i6f6 c9f9 f6g6 f9f3 g6e6 d2d1 e6e5"
).split()


@pytest.mark.parametrize(("moves", "checks"), [(ELEVEN_CHECKS, 11), (THIRTEEN_CHECKS, 13)])
def test_move_rule_discounts_two_plies_per_excess_check(moves: list[str], checks: int) -> None:
    # Issue 19: an excess check and its reply both do not count. pyffish plays the
    # 50-move rule (100 plies) with the same discount, so at move_limit=100 it must end
    # the game on the very ply we do; at the default 120 the draw comes 2 * (checks - 10)
    # plies late.
    pos = Position(CHECKS_FEN)
    given = 0
    for ply, text in enumerate(moves, 1):
        pos.push_iccs(text)
        assert not pos.is_repetition(2) and pos.halfmove_clock == ply
        given += pos.is_check() and ply % 2 == 0
        if ply >= 96:
            ours = pos.outcome(move_limit=100) is not None
            assert ours == (pyffish_value(CHECKS_FEN, moves[:ply]) is not None), ply
    assert given == checks
    pos = Position(CHECKS_FEN)
    for ply, text in enumerate(moves, 1):
        pos.push_iccs(text)
        drawn = pos.outcome() == Outcome(Termination.MOVE_RULE, None)
        assert drawn == (ply >= 120 + 2 * (checks - 10)), ply


def test_checkmate_on_the_last_ply_of_the_move_rule_wins() -> None:
    # Red mates with a rook on the 120th ply without capture.
    pos = Position("3k5/9/3P5/9/9/9/9/9/9/R3K4 w - - 119 80")
    pos.push_iccs("a0a9")
    assert pos.outcome() == Outcome(Termination.CHECKMATE, Color.RED)


@pytest.mark.parametrize(
    ("fen", "expected"),
    [
        ("3aka3/9/4b4/9/9/9/9/4B4/4A4/3AK4 w - - 0 1", True),  # kings, advisors, elephants
        ("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", True),
        ("4k4/9/9/9/4p4/9/9/9/9/3K5 w - - 0 1", False),  # a pawn can still mate
        ("4k4/9/9/9/9/9/9/9/9/3KN4 w - - 0 1", False),
    ],
)
def test_insufficient_material(fen: str, expected: bool) -> None:
    pos = Position(fen)
    drawn = pos.outcome() == Outcome(Termination.INSUFFICIENT_MATERIAL, None)
    assert drawn == expected
    assert pos.is_game_over() == expected


def test_checkmate_and_stalemate_lose() -> None:
    mate = play("3k5/9/3P5/9/9/9/9/9/9/R3K4 w - - 0 1", ["a0a9"])
    assert mate.outcome() == Outcome(Termination.CHECKMATE, Color.RED)
    assert mate.result() == "1-0"
    # 困毙: the red king on d0 is not attacked, but d1 is covered by the rook on a1 and
    # e0 would face the black king on e9 (tests/test_check.py's position).
    stale = Position("4k4/9/9/9/9/9/9/9/r8/3K5 w - - 0 1")
    assert not stale.is_check() and not stale.has_legal_moves()
    assert stale.outcome() == Outcome(Termination.STALEMATE, Color.BLACK)
    assert stale.result() == "0-1"


# ------------------------------------------------------------------ where we differ from FSF


def test_fsf_divergence_entry_move_is_not_judged() -> None:
    # The black rook follows the red cannon between b1 and c1 (cycle b1c1 b3c3 c1b1 c3b3);
    # the other cannon's protection is fake (Fairy-Stockfish's "fake protection by cannon"
    # case), so every black move in the cycle chases the cannon. Fairy-Stockfish also
    # intersects the chases of the move that led into the first occurrence (here the king
    # move f8f7, which chases nothing) and so rules a draw. The rule book judges the
    # repeated cycle itself: Black loses.
    fen = "5k3/9/9/9/9/1C7/1r7/9/1C7/4K4 w - - 0 1"
    moves = ["b1c1", "f9f8", "c1b1", "f8f7"] + 2 * ["b1c1", "b3c3", "c1b1", "c3b3"]
    pos = play(fen, moves)
    assert value(pos) == MATE
    assert pos.outcome() == Outcome(Termination.PERPETUAL_CHASE, Color.RED)
    assert pyffish_value(fen, moves) == 0
    # One more cycle, so that the move into the first occurrence is a cycle move: pyffish
    # now agrees.
    more = moves + ["b1c1", "b3c3", "c1b1", "c3b3"]
    assert pyffish_value(fen, more) == MATE == value(play(fen, more))


def test_fsf_divergence_retreat_along_the_attack_line_is_not_a_new_chase() -> None:
    # Red's rook shuttles e2<->e7 and d2->e2 behind a black horse on e1/c2. Moving e2->e7
    # keeps the same rook's attack on the horse on e1 along the same file: nothing new is
    # threatened (the principle of WXF diagram 106, "the attack does not change"), so the
    # e2e7 moves are not chases and Red is not chasing perpetually: a draw. Fairy-Stockfish
    # counts the rook's own attack from e7 as a "discovered" attack and rules Red lost.
    fen = "3ak4/4a4/9/9/9/9/9/3R5/4n4/4K4 b - - 0 1"
    moves = ["e1c2", "d2e2"] + 2 * ["c2e1", "e2e7", "e1c2", "e7e2"]
    pos = play(fen, moves)
    assert pos.outcome() == Outcome(Termination.REPETITION, None)
    assert pyffish_value(fen, moves) == MATE


def test_fsf_divergence_mutual_pins_by_flying_generals() -> None:
    # Fairy-Stockfish test.py keeps this case with its expected value commented out:
    # "Mutual pins by flying generals ... True) #, sf.VALUE_MATE)". The red horse leaves
    # the e-file (pinning the black horse on e5 against the facing kings); the black king
    # steps off the file and back, each time freeing the horse to attack the red cannon
    # f3 anew while the red horse is away from protecting it. We rule as that comment
    # expects (Black chases perpetually, Red wins); the installed engine says draw.
    fen = "4k4/9/9/9/4n4/9/5C3/9/4N4/4K4 w - - 0 1"
    moves = [ff_to_iccs(m) for m in 2 * ["e2g1", "e10f10", "g1e2", "f10e10"]]
    pos = play(fen, moves)
    assert value(pos) == MATE
    assert pyffish_value(fen, moves) == 0


def test_sideways_pawn_moves_repeat_positions() -> None:
    # A crossed pawn stepping sideways is reversible, so positions repeat across pawn
    # moves: the repetition window is reset by captures only. (Both pawns shuffle: no
    # chase, no check: a draw.)
    fen = "5k3/9/9/9/4P4/4p4/9/9/9/3K5 w - - 0 1"
    moves = 2 * ["e5d5", "e4f4", "d5e5", "f4e4"]
    pos = play(fen, moves)
    assert pos.outcome() == Outcome(Termination.REPETITION, None)
    assert pyffish_value(fen, moves) == 0


def test_a_pinned_rook_chases_its_pinner() -> None:
    # On e2 the red rook stands between the black cannon on e5 and the red advisor e1 and
    # king e0: if it left the file the cannon would check over the advisor, so it is
    # pinned, but taking the pinner itself is legal, so its attack is a threat like any
    # other. WXF diagram 37 rules exactly this (a rook screening a cannon's check on its
    # king keeps chasing that cannon: the rook's side loses), and so does Fairy-Stockfish.
    # (An earlier reading of diagram 39, "a pinned piece does not attack, not even its
    # pinner", ruled this a draw; diagram 39 is about a horse-pinned rook being chased,
    # see test_rules_wxf.py.)
    fen = "4ka3/4a4/9/9/2c6/9/9/2R6/4A4/4KA3 w - - 0 1"
    moves = ["c2b2", "c5e5", "b2e2", "e5c5", "e2c2"] + 2 * ["c5e5", "c2e2", "e5c5", "e2c2"]
    moves = moves[:11]
    pos = play(fen, moves)
    assert pos.outcome() == Outcome(Termination.PERPETUAL_CHASE, Color.BLACK)
    assert pyffish_value(fen, moves) == MATE
