"""The search API (docs/writing-an-engine.md): masked and captures-only generation, moves in
MVV-LVA order with their pieces, the null move, pseudo-legal pushes, the Zobrist key, the
repetition count, outcome()'s switches and the composition hint.

Expected values come from elsewhere: pyffish's legal moves (captures read off its board),
a pure-Python filter of legal_moves, the Zobrist key recomputed in Python from the
definition in xiangqi/core/zobrist.pxd, a hand-made cycle of moves.
"""

from __future__ import annotations

import gc
import importlib.util
import random
import re
from pathlib import Path

import pytest

import xiangqi
from xiangqi import (
    SQUARES,
    Color,
    IllegalMoveError,
    InvalidFenError,
    Move,
    PieceType,
    Position,
    SquareSet,
    Termination,
)

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("_search_fen_gen", HERE / "fen_gen.py")
assert _spec is not None and _spec.loader is not None
fen_gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fen_gen)

MIDGAME = "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 0 1"
TACTICAL = "2bak4/4a4/4b1n2/p3C3p/2p1c1R2/6P2/P3P3P/4B4/4A4/2BAK4 w - - 0 1"
_FF_MOVE = re.compile(r"^([a-i])(10|[1-9])([a-i])(10|[1-9])$")
#: ordered_moves' MVV-LVA values by piece type, as its docstring states them.
VALUE = {
    PieceType.KING: 7,
    PieceType.ROOK: 6,
    PieceType.CANNON: 5,
    PieceType.HORSE: 4,
    PieceType.ADVISOR: 2,
    PieceType.ELEPHANT: 2,
    PieceType.PAWN: 1,
}


def random_positions(seed: int, count: int, plies: int = 40) -> list[Position]:
    """Positions of random games from the start (legal moves only)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        pos = Position()
        for _ in range(rng.randrange(plies)):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.push(rng.choice(moves))
        out.append(pos)
    return out


def ff_iccs(text: str) -> str:
    m = _FF_MOVE.match(text)
    assert m, text
    return f"{m.group(1)}{int(m.group(2)) - 1}{m.group(3)}{int(m.group(4)) - 1}"


# -- generation -------------------------------------------------------------------------


def test_captures_equal_pyffish_moves_onto_enemy_pieces() -> None:
    ff = pytest.importorskip("pyffish")
    positions = random_positions(1, 40, 80)
    positions += [
        Position(fen_gen.random_sparse_fen(random.Random(i), red="RNCPP", black="rncpa"))
        for i in range(20)
    ]
    for pos in positions:
        fen = pos.fen()
        board, side = fen_gen.parse_fen(fen)
        expected = set()
        for text in ff.legal_moves("xiangqi", fen, []):
            iccs = ff_iccs(text)
            to = xiangqi.parse_square(iccs[2:])
            if to in board and fen_gen.color_of(board[to]) != side:
                expected.add(iccs)
        assert sorted(map(str, pos.generate_legal_captures())) == sorted(expected), fen
        assert sorted(map(str, pos.ordered_moves(captures_only=True))) == sorted(expected)


def test_masked_moves_equal_a_filter_of_legal_moves() -> None:
    rng = random.Random(2)
    for pos in random_positions(3, 30):
        legal = pos.legal_moves()
        for _ in range(5):
            frm = SquareSet(sq for sq in SQUARES if rng.random() < 0.4)
            to = rng.getrandbits(90)
            want = [m for m in legal if m.from_square in frm and (to >> m.to_square) & 1]
            assert list(pos.generate_legal_moves(frm, to)) == want
            caps = [m for m in want if pos.color_at(m.to_square) not in (None, pos.turn)]
            assert list(pos.generate_legal_captures(int(frm), SquareSet(to))) == caps
        assert list(pos.generate_legal_moves()) == legal


def test_ordered_moves_are_mvv_lva_and_pieces_equal_piece_type_at() -> None:
    for pos in random_positions(4, 40, 80) + [Position(TACTICAL)]:
        legal = pos.legal_moves()
        moves, movers, captured = pos.ordered_moves_with_pieces()
        assert moves == pos.ordered_moves() and sorted(moves) == sorted(legal)
        caps = [m for m in legal if pos.color_at(m.to_square) not in (None, pos.turn)]

        def key(m: Move, pos: Position = pos) -> int:
            victim = pos.piece_type_at(m.to_square)
            mover = pos.piece_type_at(m.from_square)
            assert victim is not None and mover is not None
            return 8 * VALUE[victim] + 7 - VALUE[mover]

        # Captures first, by key (stable: generation order among equal keys), then quiet moves.
        assert moves == sorted(caps, key=key, reverse=True) + [m for m in legal if m not in caps]
        assert pos.ordered_moves(captures_only=True) == moves[: len(caps)]
        for m, mover, victim in zip(moves, movers, captured):
            piece = pos.piece_at(m.from_square)
            assert piece is not None and mover == piece.code
            target = pos.piece_at(m.to_square)
            assert victim == (target.code if target else 0)
            assert pos.is_capture(m) == (victim != 0)


def test_masks_are_checked() -> None:
    pos = Position()
    with pytest.raises(TypeError, match="from_mask"):
        pos.generate_legal_moves("a0")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="to_mask"):
        pos.generate_legal_moves(to_mask=1 << 90)
    with pytest.raises(ValueError, match="from_mask"):
        pos.generate_legal_captures(-1)
    with pytest.raises(TypeError):
        pos.generate_legal_moves(True)
    assert pos.fen() == xiangqi.START_FEN


# -- accessors --------------------------------------------------------------------------


def test_accessors_agree_with_piece_at() -> None:
    for pos in random_positions(5, 10):
        for sq in SQUARES:
            piece = pos.piece_at(sq)
            assert pos.piece_type_at(sq) == (piece.piece_type if piece else None)
            assert pos.color_at(sq) == (piece.color if piece else None)
    pos = Position()
    assert pos.color_at(0) is Color.RED and pos.piece_type_at(0) is PieceType.ROOK
    with pytest.raises(ValueError):
        pos.piece_type_at(90)
    with pytest.raises(TypeError):
        pos.color_at("a0")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="is_capture"):
        pos.is_capture("h2e2")  # type: ignore[arg-type]


def test_positions_are_not_tracked_by_the_garbage_collector() -> None:
    pos = Position()
    assert not gc.is_tracked(pos) and not gc.is_tracked(pos.copy())
    pos.legal_moves()  # noqa: B018 - the view is made and kept
    list(pos.legal_moves)
    assert not gc.is_tracked(pos)

    class Annotated(Position):
        pass

    sub = Annotated()
    sub.note = "kept"  # type: ignore[attr-defined]
    copy = sub.copy()
    assert type(copy) is Annotated and copy.note == "kept"  # type: ignore[attr-defined]


# -- pushes -----------------------------------------------------------------------------


def test_null_move_push_pop_restores_fen_and_key() -> None:
    for pos in random_positions(6, 20):
        if pos.is_check():
            with pytest.raises(IllegalMoveError, match="in check and may not pass"):
                pos.push(Move.null())
            continue
        fen, key = pos.fen(), pos.zobrist_hash()
        pos.push(Move.null())
        assert pos.turn != Position(fen).turn
        assert pos.zobrist_hash() == zobrist(pos)
        assert pos.pop() == Move.null()
        assert pos.fen() == fen and pos.zobrist_hash() == key


def test_pseudo_legal_push_leaves_the_king_attacked_and_pops_back() -> None:
    # Red's advisor on e1 screens its king from Black's rook on e9: moving it away is
    # pseudo-legal, not legal.
    pos = Position("3kr4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1")
    move = Move.from_iccs("e1d2")
    assert move in pos.pseudo_legal_moves and move not in pos.legal_moves
    fen, key = pos.fen(), pos.zobrist_hash()
    with pytest.raises(IllegalMoveError):
        pos.push(move)
    pos.push_pseudo_legal(move)
    assert pos.was_into_check() and pos.status() == xiangqi.Status.OPPOSITE_CHECK
    assert pos.zobrist_hash() == zobrist(pos)
    # Capturing a king with a pseudo-legal push is refused, nothing changed.
    after = pos.fen()
    with pytest.raises(IllegalMoveError, match="capture the king"):
        pos.push_pseudo_legal(Move.from_iccs("e9e0"))
    assert pos.fen() == after
    assert pos.pop() == move and pos.fen() == fen and pos.zobrist_hash() == key
    assert not pos.was_into_check()


def test_pseudo_legal_push_refuses_what_breaks_a_movement_rule() -> None:
    pos = Position()
    for text in ("h2h8", "a0b1", "a9a8", "e0e2"):  # through a screen, diagonal, Black's, 2 steps
        with pytest.raises(IllegalMoveError):
            pos.push_pseudo_legal(Move.from_iccs(text))
        assert pos.fen() == xiangqi.START_FEN and not pos.move_stack
    with pytest.raises(TypeError, match="push_pseudo_legal"):
        pos.push_pseudo_legal("h2e2")  # type: ignore[arg-type]


def test_random_pseudo_legal_walks_keep_the_invariants() -> None:
    rng = random.Random(7)
    for _ in range(20):
        pos = Position()
        fens = []
        for _ in range(60):
            moves = list(pos.pseudo_legal_moves)
            moves = [m for m in moves if pos.piece_type_at(m.to_square) != PieceType.KING]
            if not moves or pos.king(Color.RED) is None or pos.king(Color.BLACK) is None:
                break
            fens.append(pos.fen())
            pos.push_pseudo_legal(rng.choice(moves))
            assert pos.zobrist_hash() == zobrist(pos)
            pos.outcome()  # never crashes, whatever was pushed
            pos.outcome(rules="chinese")
            pos.is_repetition(2)
        while fens:
            pos.pop()
            assert pos.fen() == fens.pop()


# -- the Zobrist key, from scratch in Python --------------------------------------------


def splitmix64(n: int) -> int:
    mask = (1 << 64) - 1
    z = (n * 0x9E3779B97F4A7C15) & mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return z ^ (z >> 31)


def zobrist(pos: Position) -> int:
    """The key by zobrist.pxd's definition, computed from the piece map alone."""
    key = splitmix64(1261) if pos.turn == Color.BLACK else 0
    for square, piece in pos.piece_map().items():
        key ^= splitmix64(1 + (piece.code - 1) * 90 + square)
    return key


def test_zobrist_key_equals_a_recomputation_after_random_push_pop() -> None:
    rng = random.Random(8)
    pos = Position()
    assert splitmix64(1) == 0xE220A8397B1DCDAF  # the generator's published first output
    for _ in range(600):
        moves = pos.legal_moves()
        if moves and (rng.random() < 0.6 or not pos.move_stack):
            pos.push(rng.choice(moves))
        elif pos.move_stack:
            pos.pop()
        else:
            break
        assert pos.zobrist_hash() == zobrist(pos)
        assert pos.copy().zobrist_hash() == pos.zobrist_hash()


# -- repetition and outcome() -----------------------------------------------------------

CYCLE = ["h0g2", "h9g7", "g2h0", "g7h9"]  # horses out and back: the start position again


def test_is_repetition_and_count_on_a_hand_made_cycle() -> None:
    pos = Position()
    assert pos.repetition_count() == 1 and not pos.is_repetition(2)
    for round_ in (2, 3):
        for text in CYCLE:
            pos.push_iccs(text)
        assert pos.repetition_count() == round_
        assert pos.is_repetition(round_) and not pos.is_repetition(round_ + 1)
    pos.pop()
    assert pos.repetition_count() == 2  # h9 horse back on g7: seen twice
    with pytest.raises(TypeError):
        pos.is_repetition("2")  # type: ignore[arg-type]


def test_outcome_switches_for_the_rulings() -> None:
    # Red's rook checks Black's king back and forth, Black steps aside: a perpetual check
    # (Red loses by the Asian rules) that becomes a drawn repetition with the rulings off.
    pos = Position("3k5/9/9/9/9/9/9/9/8R/5K3 w - - 0 1")
    for text in ["i1d1", "d9e9"] + ["d1e1", "e9d9", "e1d1", "d9e9"] * 2:
        assert pos.outcome(perpetual_rulings=False) is None
        pos.push_iccs(text)
        if pos.repetition_count() == 3:
            break
    assert len(pos.move_stack) == 9  # d1 rook, d9 king, Black to move: a third time
    outcome = pos.outcome()
    assert outcome is not None
    assert outcome.termination == Termination.PERPETUAL_CHECK and outcome.winner == Color.BLACK
    off = pos.outcome(perpetual_rulings=False)
    assert off is not None and off.termination == Termination.REPETITION and off.winner is None
    chinese = pos.outcome(rules="chinese", perpetual_rulings=False)
    assert chinese is not None and chinese.termination == Termination.REPETITION


def test_outcome_switch_for_the_move_rule() -> None:
    pos = Position("3k5/9/9/9/9/9/9/9/9/4K3R w - - 119 80")
    pos.push_iccs("i0i1")
    outcome = pos.outcome()
    assert outcome is not None and outcome.termination == Termination.MOVE_RULE
    assert pos.outcome(move_rule=False) is None
    assert pos.outcome(rules="chinese", move_rule=False) is None
    assert pos.outcome() == outcome  # the defaults unchanged
    with pytest.raises(TypeError):
        pos.outcome(3, 120, "asian", True)  # type: ignore[misc]


# -- errors -----------------------------------------------------------------------------


def test_pawn_behind_its_start_points_to_composition() -> None:
    fen = "3k5/9/9/9/9/9/9/9/P8/4K4 w - - 0 1"
    with pytest.raises(InvalidFenError, match=r"from_diagram\(fen, composition=True\)"):
        Position(fen)
    assert Position.from_diagram(fen, composition=True).fen() == fen


def test_bad_input_leaves_the_position_unchanged() -> None:
    pos = Position(MIDGAME)
    pos.push_iccs("a3a4")
    fen, stack, key = pos.fen(), pos.move_stack, pos.zobrist_hash()
    for call in (
        lambda: pos.push(Move.from_iccs("a0a5")),
        lambda: pos.push("h9g7"),  # type: ignore[arg-type]
        lambda: pos.push_pseudo_legal(Move.from_iccs("e3e4")),
        lambda: pos.generate_legal_moves(from_mask=2**95),
        lambda: pos.outcome(repetitions=1),
        lambda: pos.outcome(rules="fide"),
        lambda: pos.is_repetition("2"),  # type: ignore[arg-type]
        lambda: pos.piece_type_at(-1),
    ):
        with pytest.raises((ValueError, TypeError)):
            call()
        assert pos.fen() == fen and pos.move_stack == stack and pos.zobrist_hash() == key
