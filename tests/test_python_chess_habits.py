"""python-chess habits on Position, compared with python-chess where the meaning maps.

Expected values come from python-chess itself (ply(), set_fen, null-move counters,
status flags of the analogous chess diagram), from the rules worked by hand (the
diagrams' status, a cannon's attacks), or from a second algorithm in the core (the
ElephantEye validator for pseudo-legal moves, attackers() for attacks()).
"""

from __future__ import annotations

import functools
import pickle
import random

import chess
import chess.pgn
import pytest

import xiangqi
from xiangqi import (
    BLACK,
    RED,
    SQUARES,
    Color,
    IllegalMoveError,
    InvalidFenError,
    Move,
    PieceType,
    Position,
    Status,
    generate_legal,
    parse_square,
)
from xiangqi.pgn import Game

sq = parse_square
M = Move.from_iccs

MIDGAMES = [
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB1R b - - 4 3",
    "2bak4/4a4/4b4/p1C1p3p/2p6/9/P3c3P/4B4/4A4/2BAK4 w - - 0 30",
    "3k5/4a4/4b4/9/2n6/9/9/4B4/4A4/3AK1R2 w - - 0 40",
]
ALL_FENS = [xiangqi.START_FEN, *MIDGAMES]

# -- ply(), set_fen, board_fen, SQUARES, turn ------------------------------------------


@pytest.mark.parametrize("side", ["w", "b"])
@pytest.mark.parametrize("number", [1, 2, 37, 500])
def test_ply_follows_python_chess(side: str, number: int) -> None:
    theirs = chess.Board(f"4k3/8/8/8/8/8/8/4K3 {side} - - 0 {number}").ply()
    assert Position(f"4k4/9/9/9/9/9/9/9/9/3K5 {side} - - 0 {number}").ply() == theirs


def test_ply_counts_pushed_moves_as_python_chess_does() -> None:
    pos, board = Position(), chess.Board()
    for ours, theirs in [("h2e2", "e2e4"), ("h9g7", "e7e5"), ("h0g2", "g1f3")]:
        pos.push(M(ours))
        board.push_uci(theirs)
        assert pos.ply() == board.ply()


@pytest.mark.parametrize("fen", ALL_FENS)
def test_set_fen_round_trips_and_keeps_the_view_live(fen: str) -> None:
    pos = Position()
    view = pos.legal_moves
    pos.push(M("h2e2"))
    pos.set_fen(fen)
    assert pos.fen() == fen and pos.move_stack == []  # python-chess's set_fen clears the stack
    assert list(view) == generate_legal(Position(fen))


def test_set_fen_refuses_bad_text_and_changes_nothing() -> None:
    pos = Position()
    pos.push(M("h2e2"))
    before = pos.fen(), pos.move_stack
    for bad in ["4k4/9/9/9/9/9/9/9/9/4K4 w", "nonsense", "3k5/9/9/9/9/9/9/9/3R5/4K4 w"]:
        with pytest.raises(InvalidFenError):
            pos.set_fen(bad)
        assert (pos.fen(), pos.move_stack) == before


def test_board_fen_and_set_board_fen_keep_side_and_counters() -> None:
    pos = Position(MIDGAMES[1])
    pos.set_board_fen(Position(MIDGAMES[2]).board_fen())
    assert pos.fen() == MIDGAMES[2].replace(" w - - 0 40", " w - - 0 30")
    with pytest.raises(InvalidFenError):
        pos.set_board_fen(xiangqi.START_FEN)  # a whole FEN, not only its board field
    board = chess.Board()
    board.push_uci("e2e4")
    board.set_board_fen(chess.STARTING_BOARD_FEN)
    assert board.move_stack == []  # python-chess clears the stack; so do we
    pos = Position()
    pos.push(M("h2e2"))
    pos.set_board_fen(Position().board_fen())
    assert pos.move_stack == [] and pos.turn == BLACK


def test_squares_lists_every_square_in_order() -> None:
    assert SQUARES == list(range(90)) and len(chess.SQUARES) == 64
    assert [xiangqi.square_name(s) for s in SQUARES[:10]] == [
        "a0", "b0", "c0", "d0", "e0", "f0", "g0", "h0", "i0", "a1",
    ]  # fmt: skip


def test_turn_can_be_set_as_an_edit() -> None:
    pos = Position()
    pos.push(M("h2e2"))
    pos.turn = RED  # already to move? no: Black is; this sets Red and clears the stack
    assert pos.turn == RED and pos.move_stack == [] and pos.fen().split()[1] == "w"
    pos.turn = RED
    assert pos.turn == RED
    # Red's rook gives check: Black to move is fine, Red to move would leave Black in check.
    checking = Position("3k5/9/9/9/9/9/9/9/3R5/4K4 b")
    with pytest.raises(InvalidFenError):
        checking.turn = RED
    assert checking.turn == BLACK
    with pytest.raises(TypeError):
        checking.turn = True  # type: ignore[assignment]


# -- colours -----------------------------------------------------------------------------


def test_a_color_has_no_truth_value_so_python_chess_idioms_fail_loudly() -> None:
    # python-chess: WHITE is True, so `if board.turn:` means White and `not color` is the
    # other colour. With RED = 0 both would silently mean the opposite: they raise.
    assert bool(chess.WHITE) and (not chess.WHITE) == chess.BLACK
    assert int(RED) == 0 and int(BLACK) == 1  # the numbers stay the core's
    pos = Position()
    with pytest.raises(TypeError, match="no truth value"):
        bool(pos.turn)
    with pytest.raises(TypeError, match="no truth value"):
        "red" if pos.turn else "black"  # noqa: B018
    with pytest.raises(TypeError, match="no truth value"):
        not pos.turn  # noqa: B018
    assert ~RED is BLACK and ~BLACK is RED
    pos.push(M("h2e2"))
    assert pos.attackers(~pos.turn, sq("e6")) == {sq("e2")}  # the cannon over e3
    with pytest.raises(TypeError):
        pos.attackers(True, 4)  # type: ignore[arg-type]  # a bool is refused, not guessed


# -- pieces, color_at, piece_type_at, attacks ------------------------------------------


def test_pieces_and_the_piece_queries() -> None:
    pos = Position()
    assert pos.pieces(PieceType.ROOK, RED) == {sq("a0"), sq("i0")}
    assert pos.pieces(PieceType.PAWN, BLACK) == {sq(n) for n in ["a6", "c6", "e6", "g6", "i6"]}
    assert pos.pieces(PieceType.KING, BLACK) == {sq("e9")}
    assert pos.color_at(sq("b2")) == RED and pos.color_at(sq("b7")) == BLACK
    assert pos.color_at(sq("e4")) is None and pos.piece_type_at(sq("e4")) is None
    assert pos.piece_type_at(sq("b2")) == PieceType.CANNON
    with pytest.raises(ValueError):
        pos.color_at(90)
    with pytest.raises(ValueError):
        pos.pieces(7, RED)  # type: ignore[arg-type]


def test_attacks_worked_by_hand_in_the_start_position() -> None:
    pos = Position()
    # Cannon b2: up the file b7 screens, so b8 (empty) and b9 (the horse); right, the
    # other cannon on h2 screens i2; down, b0 screens nothing (the board ends).
    assert pos.attacks(sq("b2")) == {sq("b8"), sq("b9"), sq("i2")}
    # Horse b0: a2 and c2; d1 is blocked by its leg on c0.
    assert pos.attacks(sq("b0")) == {sq("a2"), sq("c2")}
    # Pawn e3: only forward before the river. King e0: its palace's e1 only (d0, f0 are
    # palace points too). Elephant c0: a2 and e2.
    assert pos.attacks(sq("e3")) == {sq("e4")}
    assert pos.attacks(sq("e0")) == {sq("e1"), sq("d0"), sq("f0")}
    assert pos.attacks(sq("c0")) == {sq("a2"), sq("e2")}
    assert pos.attacks(sq("e4")) == set() and pos.attacks_mask(sq("e4")) == 0


@pytest.mark.parametrize("fen", [*ALL_FENS, "4k4/9/9/9/9/9/9/9/9/4K4 w"])
def test_attacks_mirror_attackers_on_every_pair(fen: str) -> None:
    rng = random.Random(fen)
    pos = Position(fen) if "4k4/9" not in fen else Position.from_diagram(fen)
    for _ in range(6):
        for s in range(90):
            color = pos.color_at(s)
            attacked = pos.attacks(s)
            assert int(attacked) == pos.attacks_mask(s)
            if color is None:
                assert not attacked
                continue
            for t in range(90):
                assert (t in attacked) == (s in pos.attackers(color, t)), (fen, s, t)
        moves = pos.legal_moves()
        if not moves:
            break
        pos.push(rng.choice(moves))


def test_attackers_mask_is_the_attackers_set() -> None:
    pos = Position(MIDGAMES[0])
    for s in range(90):
        for color in Color:
            assert pos.attackers_mask(color, s) == int(pos.attackers(color, s))
            assert pos.is_attacked_by(color, s) == bool(pos.attackers(color, s))


# -- pseudo-legal moves ------------------------------------------------------------------


@pytest.mark.parametrize("fen", ALL_FENS)
def test_pseudo_legal_moves_are_what_the_validator_accepts(fen: str) -> None:
    pos = Position(fen)
    pseudo = pos.pseudo_legal_moves
    every = [Move(f, t) for f in range(90) for t in range(90) if f != t]
    assert set(pseudo) == {m for m in every if pos.is_pseudo_legal(m)}
    assert pseudo.count() == len(set(pseudo))
    assert [m for m in pseudo() if pos.is_legal(m)] == [m for m in pseudo() if m in pos.legal_moves]
    assert set(pos.legal_moves) <= set(pseudo)
    assert Move.null() not in pseudo and "h2e2" not in pseudo


def test_a_pinned_piece_has_pseudo_legal_moves_that_are_not_legal() -> None:
    # Red's rook on e1 stands between its king e0 and Black's rook e8: pinned.
    pos = Position("3k5/4r4/9/9/9/9/9/9/4R4/4K4 w")
    assert M("e1d1") in pos.pseudo_legal_moves and M("e1d1") not in pos.legal_moves
    assert M("e1e8") in pos.legal_moves


# -- the legal-move view -----------------------------------------------------------------


def test_list_len_and_iteration_of_the_view_stay_exact_across_pushes() -> None:
    pos = Position()
    view = pos.legal_moves
    assert list(view) == generate_legal(pos) and len(view) == 44
    for text in ["h2e2", "h9g7", "h0g2"]:
        iter(view)  # keeps a list for the position before the push
        pos.push(M(text))
        assert len(view) == len(generate_legal(pos))  # not the kept one
        assert list(view) == generate_legal(pos)
    assert bool(view) and view.count() == len(generate_legal(pos))


# -- the null move -----------------------------------------------------------------------


def test_null_move_counters_follow_python_chess() -> None:
    pos, board = Position(), chess.Board()
    for _ in range(3):
        pos.push(Move.null())
        board.push(chess.Move.null())
        assert (pos.halfmove_clock, pos.fullmove_number, pos.ply()) == (
            board.halfmove_clock,
            board.fullmove_number,
            board.ply(),
        )
        assert pos.turn == (RED if board.turn == chess.WHITE else BLACK)
    assert pos.move_stack == [Move.null()] * 3 and pos.peek() == Move.null()
    assert not Move.null() and str(Move.null()) == chess.Move.null().uci() == "0000"
    assert Move.from_iccs("0000") == Move.null()
    for _ in range(3):
        assert pos.pop() == Move.null()
    assert pos.fen() == xiangqi.START_FEN


def test_null_move_is_refused_in_check_and_never_legal() -> None:
    pos = Position("3k5/9/9/9/9/9/9/9/3R5/4K4 b")  # Black in check from the rook on d1
    with pytest.raises(IllegalMoveError, match="in check"):
        pos.push(Move.null())
    assert pos.fen() == Position("3k5/9/9/9/9/9/9/9/3R5/4K4 b").fen() and pos.move_stack == []
    assert not pos.is_legal(Move.null()) and Move.null() not in pos.legal_moves
    assert not chess.Board().is_legal(chess.Move.null())  # python-chess: not legal either


CYCLE = ["h0g2", "h9g7", "g2h0", "g7h9"]


def test_a_null_move_breaks_the_repetition_chain() -> None:
    pos = Position()
    for text in CYCLE:
        pos.push(M(text))
    assert pos.is_repetition(2)  # the start position, a second time
    pos.push(Move.null())
    pos.push(Move.null())  # both pass: the start position again, Red to move
    assert pos.fen().split()[:2] == xiangqi.START_FEN.split()[:2]
    assert not pos.is_repetition(2) and pos.outcome() is None  # earlier ones do not count
    for _ in range(2):
        for text in CYCLE:
            pos.push(M(text))
    assert pos.is_repetition(3)  # three times since the passes
    outcome = pos.outcome()
    assert outcome is not None and outcome.winner is None
    # Popping back past the passes restores the chain before them.
    for _ in range(8):
        pos.pop()
    assert pos.pop() == Move.null() and pos.pop() == Move.null()
    assert pos.is_repetition(2)


def test_a_null_move_survives_copy_and_pickle() -> None:
    pos = Position()
    pos.push(M("h2e2"))
    pos.push(Move.null())
    pos.push(M("h0g2"))
    for other in (pos.copy(), pickle.loads(pickle.dumps(pos))):
        assert other.move_stack == pos.move_stack and other.fen() == pos.fen()
        assert other.pop() == M("h0g2") and other.pop() == Move.null() and other.pop() == M("h2e2")


def test_planes_of_a_history_with_a_null_move() -> None:
    np = pytest.importorskip("numpy")
    from xiangqi.rl.planes import encode

    pos = Position()
    pos.push(M("h2e2"))
    pos.push(Move.null())
    pos.push(M("h0g2"))
    planes = encode(pos, history=4)
    assert planes.shape == encode(Position(), history=4).shape
    assert np.isfinite(planes).all()
    assert pos.fen() == "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2"


# -- status() and diagrams the rules forbid ---------------------------------------------

DIAGRAMS = {
    # Black's king on d9 is in check from Red's rook on d1, and Red is to move.
    "3k5/9/9/9/9/9/9/9/3R5/4K4 w": Status.OPPOSITE_CHECK,
    # Kings face each other on file d: each "attacks" the other, Red to move.
    "3k5/9/9/9/9/9/9/9/9/3K5 w": Status.KINGS_FACING | Status.OPPOSITE_CHECK,
    # Black to move, Red's king in check from Black's cannon (screen: Red's advisor e1).
    "4k4/9/9/9/4c4/9/9/9/4A4/4K4 b": Status.OPPOSITE_CHECK,
    # Kings facing on file e, and material on the board: rooks and pawns each.
    "r3k4/9/9/p8/9/9/8P/9/9/4K3R b": Status.KINGS_FACING | Status.OPPOSITE_CHECK,
}


@pytest.mark.parametrize("fen", list(DIAGRAMS))
def test_status_of_diagrams_worked_from_the_rules(fen: str) -> None:
    with pytest.raises(InvalidFenError):
        Position(fen)
    pos = Position.from_diagram(fen)
    assert pos.status() == DIAGRAMS[fen] and not pos.is_valid()
    assert pos.fen().split()[:2] == fen.split()


def test_opposite_check_means_what_python_chess_means() -> None:
    board = chess.Board("3k4/8/8/8/8/8/3R4/4K3 w - - 0 1")  # Black in check, White to move
    assert board.status() == chess.STATUS_OPPOSITE_CHECK
    pos = Position.from_diagram("3k5/9/9/9/9/9/9/9/3R5/4K4 w")
    assert int(pos.status()) == int(board.status())
    assert Position().status() == Status.VALID == int(chess.Board().status())


def test_from_diagram_still_refuses_what_the_core_cannot_hold() -> None:
    for bad in [
        "9/9/9/9/9/9/9/9/9/4K4 w",  # no Black king
        "4k4/9/9/9/9/9/9/9/9/RRR1K4 w",  # three rooks
        "4k4/9/9/9/9/9/9/9/9/K8 w",  # Red's king outside its palace
        "1b2k4/9/9/9/9/9/9/9/9/3K5 b",  # Black's elephant on b9
        "4k4/9/9/9/9/9/1P7/9/9/3K5 w",  # Red's pawn on b3, off the pawn files
        "x",
    ]:
        with pytest.raises(InvalidFenError):
            Position.from_diagram(bad)


@pytest.mark.parametrize("fen", list(DIAGRAMS))
def test_play_on_a_forbidden_diagram_never_fails(fen: str) -> None:
    rng = random.Random(fen)
    for _ in range(5):
        pos = Position.from_diagram(fen)
        for _ply in range(60):
            pos.status()
            pos.outcome()
            pos.is_check()
            pos.perft(2)
            for s in range(90):
                pos.attacks(s)
                pos.attackers(RED, s)
                if pos.color_at(s) is not None:
                    pos.pin(pos.color_at(s), s)  # type: ignore[arg-type]
            moves = pos.legal_moves()
            assert set(moves) <= set(pos.pseudo_legal_moves)
            for move in moves:
                pos.gives_check(move)
            if not moves:
                assert pos.is_game_over()
                break
            pos.push(rng.choice(moves))
        copy = pickle.loads(pickle.dumps(pos))
        assert copy.fen() == pos.fen() and copy.move_stack == pos.move_stack


def test_capturing_a_king_of_a_diagram_ends_the_game() -> None:
    pos = Position.from_diagram("3k5/9/9/9/9/9/9/9/3R5/4K4 w")
    pos.push(M("d1d9"))  # the rook takes the king the diagram left in check
    assert pos.status() & Status.NO_BLACK_KING
    assert pos.legal_moves() == [] and pos.outcome() is not None
    assert pos.outcome().winner == RED  # type: ignore[union-attr]
    pos.pop()
    assert pos.status() == Status.OPPOSITE_CHECK


def test_once_a_king_is_taken_every_question_gives_one_answer() -> None:
    """After a king capture the game is over (the side without a king has no move): the
    legal-move list, ``in``, is_legal, push, push of a null move, gives_check and the
    move writers agree that no move is legal, and the refusals are the library's
    IllegalMoveError leaving the position as it was. Black keeps a rook whose moves
    follow its movement rule (they are pseudo-legal), so legality alone refuses them."""
    pos = Position.from_diagram("4k4/9/9/9/4R4/9/9/9/r8/3K5 w")
    pos.push(M("e5e9"))  # the rook takes the king the diagram left in check
    fen = pos.fen()
    san_of = functools.partial(xiangqi.notation.san, pos)
    assert pos.legal_moves() == [] and not pos.legal_moves and len(pos.legal_moves) == 0
    pseudo = list(pos.pseudo_legal_moves)
    assert M("a1a5") in pseudo and len(pseudo) == 17  # the rook's file and rank, worked out
    for move in (Move(frm, to) for frm in SQUARES for to in SQUARES if frm != to):
        assert not pos.is_legal(move) and move not in pos.legal_moves
    for move in pseudo:
        for refuse in (pos.push, pos.gives_check, pos.wxf, pos.chinese, san_of):
            with pytest.raises(IllegalMoveError, match="king was taken"):
                refuse(move)
    with pytest.raises(IllegalMoveError, match="king was taken"):
        pos.push(Move.null())
    assert pos.fen() == fen and pos.move_stack == [M("e5e9")]
    assert pos.is_game_over() and pos.result() == "1-0"


def test_king_and_checkers_without_a_king_answer_as_python_chess() -> None:
    """python-chess: king() of a side without a king is None, and checkers() of a side
    to move without a king is empty; the same here after a king capture."""
    board = chess.Board("4r3/8/8/8/8/8/8/4K3 b - - 0 1")  # Black to move, no Black king
    assert board.king(chess.BLACK) is None and not board.checkers()
    pos = Position.from_diagram("4k4/9/9/9/4R4/9/9/9/r8/3K5 w")
    pos.push(M("e5e9"))
    assert pos.king(BLACK) is None and pos.king(RED) == sq("d0")
    assert pos.checkers() == xiangqi.SquareSet() and not pos.is_check()
    pos.pop()
    assert pos.king(BLACK) == sq("e9") and pos.checkers() == xiangqi.SquareSet()


# -- pgn: Game.end() ---------------------------------------------------------------------


def test_game_end_is_the_last_node_as_in_python_chess() -> None:
    assert chess.pgn.Game().end() is not None  # python-chess: a node, the game itself here
    game = Game()
    assert game.end() is game
    game.add_move(M("h2e2"))
    last = game.end()
    assert last.move == M("h2e2")
    last.add_variation(M("h9g7"))
    assert game.end().move == M("h9g7")
    assert game.end().board().move_stack == [M("h2e2"), M("h9g7")]
    assert not hasattr(game, "end_node")  # one name, python-chess's


def test_random_pushes_nulls_and_pops_keep_the_history_exact() -> None:
    """Interleaved moves, null moves and pops: the incremental key matches the board's,
    the counters match a replay from the start, and is_repetition counts only the
    positions since the last null move and the last capture (a model kept here)."""
    rng = random.Random(2024)
    pos = Position()
    keys: list[tuple[int, bool]] = [(pos.zobrist_hash(), False)]  # (key, reset here)
    for _ in range(600):
        roll = rng.random()
        if roll < 0.15 and pos.move_stack:
            pos.pop()
            keys.pop()
        elif roll < 0.3 and not pos.is_check():
            pos.push(Move.null())
            keys.append((pos.zobrist_hash(), True))
        else:
            moves = pos.legal_moves()
            if not moves:
                pos.pop()
                keys.pop()
                continue
            move = rng.choice(moves)
            capture = pos.piece_at(move.to_square) is not None
            pos.push(move)
            keys.append((pos.zobrist_hash(), capture))
        assert pos.zobrist_hash() == Position.from_diagram(pos.fen()).zobrist_hash()
        # The model: occurrences of the current key since the last reset (null or capture).
        seen, i = 0, len(keys) - 1
        while i >= 0:
            if keys[i][0] == keys[-1][0]:
                seen += 1
            if keys[i][1]:
                break
            i -= 1
        assert pos.is_repetition(seen) and not pos.is_repetition(seen + 1)
    replay = Position()
    for move in pos.move_stack:
        replay.push(move)
    assert (replay.fen(), replay.move_stack) == (pos.fen(), pos.move_stack)
