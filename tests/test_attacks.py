"""attackers, is_attacked_by, checkers, gives_check, is_capture and pin.

Independent judgements: a pure-Python attack map written here from the rules (it shares
nothing with xiangqi/core/attacks.pxd), the core's second algorithm (ElephantEye's
single-move validator behind is_pseudo_legal) for squares holding an enemy piece,
Fairy-Stockfish (pyffish) for gives_check, and make-the-move brute force for pins.
"""

from __future__ import annotations

import random

import pytest

import xiangqi
from xiangqi import BLACK, RED, Color, IllegalMoveError, Move, Position, parse_square
from xiangqi.squares import SquareSet

KINGS = {RED: "K", BLACK: "k"}


def reference_attackers(board: dict[int, str], color: int, target: int) -> set[int]:
    """Squares of color's pieces that could move to target if an enemy piece stood there."""
    found = set()
    tf, tr = target % 9, target // 9

    def mine(sq: int) -> str | None:
        p = board.get(sq)
        if p is None or (p.isupper() != (color == RED)):
            return None
        return p.upper()

    def palace(f: int, r: int, c: int) -> bool:
        return 3 <= f <= 5 and (r <= 2 if c == RED else r >= 7)

    own_half = (tr <= 4) if color == RED else (tr >= 5)
    for sq in board:
        kind = mine(sq)
        if kind is None:
            continue
        f, r = sq % 9, sq // 9
        df, dr = tf - f, tr - r
        if kind == "K":
            if abs(df) + abs(dr) == 1 and palace(tf, tr, color):
                found.add(sq)
            held = board.get(target)
            other_piece = held is not None and held.isupper() != (color == RED) and held not in "Kk"
            if df == 0 and palace(tf, tr, 1 - color) and not other_piece:
                step = 9 if dr > 0 else -9
                if all(s not in board for s in range(sq + step, target, step)):
                    found.add(sq)
        elif kind == "A":
            if abs(df) == abs(dr) == 1 and palace(tf, tr, color):
                found.add(sq)
        elif kind == "B":
            if abs(df) == abs(dr) == 2 and own_half and (sq + target) // 2 not in board:
                found.add(sq)
        elif kind == "N":
            if {abs(df), abs(dr)} == {1, 2}:
                leg = sq + (df // 2 if abs(df) == 2 else 9 * (dr // 2))
                if leg not in board:
                    found.add(sq)
        elif kind in "RC" and (df == 0) != (dr == 0):
            step = (9 if dr > 0 else -9) if df == 0 else (1 if df > 0 else -1)
            between = sum(s in board for s in range(sq + step, target, step))
            if between == (0 if kind == "R" else 1):
                found.add(sq)
        elif kind == "P":
            forward = 1 if color == RED else -1
            crossed = (r >= 5) if color == RED else (r <= 4)
            if (df == 0 and dr == forward) or (dr == 0 and abs(df) == 1 and crossed):
                found.add(sq)
    return found


def letters(pos: Position) -> dict[int, str]:
    return {sq: p.symbol() for sq, p in pos.piece_map().items()}


def sample_positions(count: int, seed: int) -> list[Position]:
    """Positions from seeded random games from the start and from the perft data file."""
    from conftest import load_perft_cases

    rng = random.Random(seed)
    starts = [xiangqi.START_FEN] + [case.fen for case in load_perft_cases()]
    out = []
    while len(out) < count:
        pos = Position(rng.choice(starts))
        for _ in range(rng.randrange(0, 60)):
            moves = list(pos.legal_moves)
            if not moves:
                break
            captures = [m for m in moves if pos.is_capture(m)]
            pos.push(rng.choice(captures if captures and rng.random() < 0.3 else moves))
        out.append(pos.copy(stack=False))
    return out


POSITIONS = sample_positions(120, seed=13)


def test_attackers_match_a_reference_on_every_square() -> None:
    compared = 0
    for pos in POSITIONS:
        board = letters(pos)
        for color in (RED, BLACK):
            for sq in range(90):
                ours = pos.attackers(color, sq)
                assert isinstance(ours, SquareSet)
                expected = reference_attackers(board, color, sq)
                assert set(ours) == expected, (pos.fen(), color, xiangqi.square_name(sq))
                assert pos.is_attacked_by(color, sq) == bool(expected)
                compared += 1
    assert compared == len(POSITIONS) * 180


def test_attackers_of_enemy_pieces_match_the_single_move_validator() -> None:
    """Where an enemy piece stands, attacking it is exactly having a pseudo-legal capture."""
    checked = 0
    for pos in POSITIONS:
        mover = pos.turn
        for target, piece in pos.piece_map().items():
            if piece.color == mover:
                continue
            expected = {
                frm for frm in range(90) if frm != target and pos.is_pseudo_legal(Move(frm, target))
            }
            assert set(pos.attackers(mover, target)) == expected, pos.fen()
            checked += 1
    assert checked > 500


def test_checkers_agree_with_is_check() -> None:
    in_check = 0
    for pos in POSITIONS:
        checkers = pos.checkers()
        assert bool(checkers) == pos.is_check()
        king = pos.king(pos.turn)
        assert set(checkers) == reference_attackers(letters(pos), ~pos.turn, king)
        in_check += pos.is_check()
    assert in_check >= 5


def test_named_checkers() -> None:
    # Red king e0 checked by a rook on e5 and a horse on d2 (leg d1 empty).
    pos = Position("3k5/9/9/9/4r4/9/9/3n5/9/4K4 w - - 0 1")
    assert pos.checkers() == {parse_square("e5"), parse_square("d2")}
    # A cannon over one screen; and a second cannon behind two screens does not check.
    pos = Position("3k5/9/4c4/9/4c4/9/4P4/9/9/4K4 w - - 0 1")
    assert pos.checkers() == {parse_square("e5")}


def test_facing_king_attacks_the_other_palace() -> None:
    # Red king e0, black king d9: moving the black king to e9... is attacked by Red's king.
    pos = Position("3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1")
    assert parse_square("e0") in pos.attackers(RED, parse_square("e9"))
    assert parse_square("e0") in pos.attackers(RED, parse_square("e7"))
    assert not pos.is_attacked_by(RED, parse_square("e6"))  # outside the other palace
    assert not pos.is_legal(Move.from_iccs("d9e9"))


@pytest.mark.slow
def test_gives_check_matches_fairy_stockfish() -> None:
    ff = pytest.importorskip("pyffish")
    compared = 0
    for pos in POSITIONS[:20]:
        fen = pos.fen()
        for move in pos.legal_moves:
            text = move.iccs()
            ff_move = f"{text[0]}{int(text[1]) + 1}{text[2]}{int(text[3]) + 1}"
            assert pos.gives_check(move) == ff.gives_check("xiangqi", fen, [ff_move]), (fen, text)
            compared += 1
        assert pos.fen() == fen
    assert compared > 200


def test_gives_check_refuses_illegal_moves_and_wrong_types() -> None:
    pos = Position()
    with pytest.raises(IllegalMoveError, match="h2i5"):
        pos.gives_check(Move.from_iccs("h2i5"))
    with pytest.raises(TypeError, match="takes a Move"):
        pos.gives_check("h2e2")  # type: ignore[arg-type]


def test_is_capture() -> None:
    pos = Position()
    assert pos.is_capture(Move.from_iccs("h2h9"))  # the cannon over the h7 cannon
    assert not pos.is_capture(Move.from_iccs("h2e2"))
    assert not pos.is_capture(Move.from_iccs("a0a3"))  # onto its own pawn: not a capture
    with pytest.raises(TypeError):
        pos.is_capture("h2h9")  # type: ignore[arg-type]


# -- pins ----------------------------------------------------------------------------------


def sq(name: str) -> int:
    return parse_square(name)


def names(squares: SquareSet) -> set[str]:
    return {xiangqi.square_name(s) for s in squares}


def test_rook_pin() -> None:
    pos = Position("3k5/9/9/4r4/9/9/9/4N4/9/4K4 w - - 0 1")  # horse e2 between e0 and rook e6
    assert names(pos.pin(RED, sq("e2"))) == {"e1", "e2", "e3", "e4", "e5", "e6"}
    assert pos.is_pinned(RED, sq("e2"))
    assert not [m for m in pos.legal_moves if m.from_square == sq("e2")]  # a horse leaves the file


def test_facing_kings_pin() -> None:
    pos = Position("4k4/9/9/9/9/9/4P4/9/9/4K4 w - - 0 1")  # pawn e3 alone between the kings
    assert names(pos.pin(RED, sq("e3"))) == {f"e{r}" for r in range(1, 9)}
    assert {m.iccs() for m in pos.legal_moves if m.from_square == sq("e3")} == {"e3e4"}


def test_cannon_screens_are_pinned() -> None:
    # Red king e0, red pawn e3 and red horse e2, black cannon e7: two screens.
    pos = Position("3k5/9/4c4/9/9/9/4P4/4N4/9/4K4 w - - 0 1")
    # Each may stay on the file between king and cannon, but not on the other screen's point.
    assert names(pos.pin(RED, sq("e2"))) == {"e1", "e2", "e4", "e5", "e6", "e7"}
    assert names(pos.pin(RED, sq("e3"))) == {"e1", "e3", "e4", "e5", "e6", "e7"}
    legal = {m.iccs() for m in pos.legal_moves}
    assert "e3e4" in legal and "e2d4" not in legal and "e2c1" not in legal


def test_horse_leg_pin() -> None:
    # Black horse d2 aims at e0 through its leg d1, where a red rook stands.
    pos = Position("3k5/9/9/9/9/9/9/3n5/3R5/4K4 w - - 0 1")
    assert names(pos.pin(RED, sq("d1"))) == {"d1", "d2"}
    assert {m.iccs() for m in pos.legal_moves if m.from_square == sq("d1")} == {"d1d2"}


def test_unpinned_and_empty_squares_give_every_square() -> None:
    pos = Position()
    for square in (sq("h2"), sq("e4"), sq("e0"), sq("e9")):
        assert len(pos.pin(RED, square)) == 90
        assert not pos.is_pinned(RED, square)


def becomes_cannon_screen(board: dict[int, str], move: Move, color: int) -> bool:
    """After move, is color's king attacked by a cannon with the moved piece as its screen?"""
    after = dict(board)
    after[move.to_square] = after.pop(move.from_square)
    king = next(s for s, p in after.items() if p == KINGS[Color(color)])
    without = dict(after)
    del without[move.to_square]
    return bool(reference_attackers(after, 1 - color, king)) and not reference_attackers(
        without, 1 - color, king
    )


def test_pins_explain_every_illegal_move_out_of_check() -> None:
    """Out of check, a non-king move is legal iff it stays inside its pin mask and does not
    make the piece a cannon's only screen; checked by making every pseudo-legal move."""
    seen_pinned = 0
    for pos in POSITIONS:
        if pos.is_check():
            continue
        board = letters(pos)
        for frm, piece in pos.piece_map().items():
            if piece.color != pos.turn or piece.symbol().upper() == "K":
                continue
            mask = pos.pin(pos.turn, frm)
            seen_pinned += len(mask) < 90
            for to in range(90):
                if to == frm or not pos.is_pseudo_legal(Move(frm, to)):
                    continue
                move = Move(frm, to)
                after = dict(board)
                after[to] = after.pop(frm)
                king = next(s for s, p in after.items() if p == KINGS[pos.turn])
                exposed = bool(reference_attackers(after, ~pos.turn, king))
                assert pos.is_legal(move) == (not exposed)
                if to not in mask:
                    assert exposed, (pos.fen(), move)
                elif exposed:
                    assert becomes_cannon_screen(board, move, pos.turn), (pos.fen(), move)
    assert seen_pinned >= 3


def test_query_argument_types() -> None:
    pos = Position()
    with pytest.raises(TypeError, match="color"):
        pos.attackers("red", 4)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="color"):
        pos.attackers(2, 4)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="0..89"):
        pos.attackers(RED, 90)
    with pytest.raises(TypeError, match="square"):
        pos.pin(RED, "e0")  # type: ignore[arg-type]
