"""Coverage-guided fuzz target (atheris / libFuzzer) for Position, moves and the core boundary.

An input is UTF-8 text (bad bytes are replaced), read line by line:

    line 1      FEN text given to Position(); if it is refused, a fallback position is used
    later lines one command each:
        #N          push legal move number N (mod the count): keeps long games legal
        A B         push Move(A, B) for two integers (any size, any sign)
        pop         pop (IndexError when nothing was pushed)
        !TEXT       load bytes into a raw core Board, side = len(TEXT) % 3; TEXT is hex digits
                    (180 of them for the 90 piece codes) or else taken as Latin-1
        anything    Move.from_iccs(text), then push it

After every command the invariants below are asserted; any other exception, or an assertion,
is a finding. Only XiangqiError (and IndexError from pop, ValueError from Move, and
ValueError/TypeError/OverflowError from the raw core) may come out of the library.

Invariants: push of a legal move then pop restores fen() and the legal list; an illegal push
raises IllegalMoveError and changes nothing; is_legal agrees with generate_legal on every move
from a square of the side to move, and rejects moves from other squares; the book's Check
agrees with the fast check (legal_move_indices, is_check); legal_moves_batch agrees; perft(1)
is the legal count; fen() round-trips through Position(); copy() is equal.

Run: scripts/fuzz.sh (see there), or by hand:
    python fuzz/fuzz_position.py fuzz/corpus fuzz/seeds -max_total_time=60
A single input (e.g. a crash file) is replayed by passing its path.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _harness

_harness.instrument(__name__, "xiangqi._core", "xiangqi.fen")

import xiangqi
from xiangqi import IllegalMoveError, InvalidFenError, InvalidMoveError, Move, Position, _core
from xiangqi.fen import check_placement, parse_fen
from xiangqi.move import MOVES  # every Move built once, index from * 90 + to

#: Positions used when the first line is not an accepted FEN, picked by the input's length.
FALLBACK_FENS = (
    xiangqi.START_FEN,
    "3akab2/9/4b4/p3p1p1p/2p6/6P2/P1P1c3P/4C4/9/2BAKAB2 w - - 3 20",
    "4k4/4a4/4b4/9/9/9/9/9/4p4/3K5 w - - 0 60",
    "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
)
MAX_COMMANDS = 64
#: Two whole numbers, each of at most 60 digits (Python refuses int() of very long digit text).
PAIR = re.compile(r"(-?[0-9]{1,60})\s+(-?[0-9]{1,60})")


def check_position(pos: Position) -> None:
    """Assert every invariant that holds in one position."""
    fen = pos.fen()
    legal = pos.legal_moves()
    legal_set = {(m.from_square, m.to_square) for m in legal}
    assert len(legal_set) == len(legal), f"repeated move in {fen!r}"
    assert pos.perft(1) == len(legal), fen
    assert pos.has_legal_moves() == bool(legal), fen
    # Game end: no legal move is always the end (a loss); other rulings need legal moves.
    outcome = pos.outcome()
    assert pos.is_game_over() == (outcome is not None), fen
    no_move = outcome is not None and outcome.termination.name in ("CHECKMATE", "STALEMATE")
    assert no_move == (not legal), fen
    if not legal:
        assert outcome is not None and outcome.winner == ~pos.turn, fen
    assert pos.zobrist_hash() == pos._board.zobrist_from_scratch(), fen

    # The second algorithm against generation, on the Position's own core board (its piece
    # slots come from the moves played, not from a fresh load): every move from a square of
    # the side to move, and one move from each other square (those must all be refused).
    # The raw board is asked directly because this loop is the hot spot of each run.
    core = pos._board
    turn = pos.turn
    own = [sq for sq, piece in pos.piece_map().items() if piece.color == turn]
    for frm in own:
        for to in range(90):
            if to != frm:
                ok = core.is_legal(frm, to)
                assert ok == ((frm, to) in legal_set), f"is_legal({frm}, {to}) is {ok} in {fen!r}"
    for frm in set(range(90)).difference(own):
        move = MOVES[frm * 90 + (frm + 1 + len(legal) % 89) % 90]
        assert not pos.is_legal(move), f"is_legal({move}) in {fen!r}"  # type: ignore[arg-type]
    indices = sorted(f * 90 + t for f, t in legal_set)
    assert sorted(_core._reference_legal_move_indices(core)) == indices, f"book Check in {fen!r}"
    assert _core._reference_is_check(core) == pos.is_check(), f"book Check in {fen!r}"

    # The same position loaded afresh from its FEN must agree.
    parsed = parse_fen(fen)
    board = _core.Board()
    board.load(parsed.codes, parsed.side)
    assert sorted(board.legal_move_indices()) == indices, f"fresh load differs in {fen!r}"
    assert sorted(_core._reference_legal_move_indices(board)) == indices, f"book Check in {fen!r}"
    assert board.is_check() == _core._reference_is_check(board) == pos.is_check(), fen
    batch, offsets = _core.legal_moves_batch([core, board])
    assert list(offsets) == [0, len(indices), 2 * len(indices)], fen
    assert sorted(batch[: len(indices)]) == indices == sorted(batch[len(indices) :]), fen

    # Text round trip and copies.
    again = Position(fen)
    assert again.fen() == fen and again == pos, fen
    assert pos.copy() == pos and pos.copy(stack=False).fen() == fen


def push_checked(pos: Position, move: Move) -> None:
    """Push move if legal (checking push + pop restores everything), else check the refusal."""
    fen = pos.fen()
    legal = pos.legal_moves()
    if not move:  # Move.null(): a pass, refused only while the side to move is in check
        assert not pos.is_legal(move), f"the null move is_legal in {fen!r}"
        depth = len(pos.move_stack)
        in_check = pos.is_check()
        try:
            pos.push(move)
        except IllegalMoveError as exc:
            assert in_check, f"the null move was refused out of check in {fen!r}: {exc}"
            assert pos.fen() == fen and len(pos.move_stack) == depth
            return
        assert not in_check, f"the null move was pushed in check in {fen!r}"
        assert pos.peek() == move and pos.pop() == move
        assert pos.fen() == fen, f"push/pop of the null move changed {fen!r} to {pos.fen()!r}"
        pos.push(move)
        return
    if move in legal:
        assert pos.is_legal(move), f"{move} in {fen!r}"
        pos.push(move)
        assert pos.peek() == move
        assert pos.pop() == move
        assert pos.fen() == fen, f"push/pop of {move} changed {fen!r} to {pos.fen()!r}"
        assert pos.legal_moves() == legal, f"push/pop of {move} changed the moves of {fen!r}"
        pos.push(move)
    else:
        assert not pos.is_legal(move), f"{move} is not generated but is_legal in {fen!r}"
        depth = len(pos.move_stack)
        try:
            pos.push(move)
        except IllegalMoveError as exc:
            assert str(move) in str(exc)
        else:
            raise AssertionError(f"illegal {move} was pushed in {fen!r}")
        assert pos.fen() == fen and len(pos.move_stack) == depth


def raw_core(text: str) -> None:
    """Load arbitrary bytes (hex digits, else the text as Latin-1) into a raw Board."""
    try:
        codes = bytes.fromhex(text)
    except ValueError:
        codes = text.encode("latin-1", "replace")
    board = _core.Board()
    try:
        board.load(codes, len(text) % 3)
    except (ValueError, TypeError, OverflowError) as exc:
        assert str(exc)
        return
    # The core checks only memory safety; every call must still answer.
    indices = board.legal_move_indices()
    assert board.perft(1) == len(indices)
    for index in indices:
        assert board.push(index // 90, index % 90)
        assert board.pop() == index
    assert board.codes() == codes
    try:
        check_placement(codes, "")
    except InvalidFenError:
        return
    if board.in_check(1 - board.side):
        return
    # A legal position: the book path must agree with the fast path.
    assert sorted(indices) == sorted(_core._reference_legal_move_indices(board))
    assert board.is_check() == _core._reference_is_check(board)


def raw_pair(pos: Position, a: int, b: int) -> None:
    """Two integers of any size: the raw core must refuse bad ones, Move must agree."""
    board = _core.Board()
    parsed = parse_fen(pos.fen())
    board.load(parsed.codes, parsed.side)
    valid = 0 <= a < 90 and 0 <= b < 90
    calls = ((lambda: board.piece_at(a), 0 <= a < 90), (lambda: board.is_legal(a, b), valid))
    for call, ok in calls:
        try:
            call()
        except ValueError as exc:
            assert str(exc) and not ok, f"({a}, {b}) raised {exc!r}"
        else:
            assert ok, f"({a}, {b}) was accepted by the raw core"
    try:
        move = Move(a, b)
    except ValueError as exc:
        assert str(exc) and not (valid and a != b)
        return
    push_checked(pos, move)


def test_one_input(data: bytes) -> None:
    text = data.decode("utf-8", "replace")
    lines = text.split("\n")
    try:
        pos = Position(lines[0])
    except InvalidFenError as exc:
        assert str(exc).strip(), f"empty message for {lines[0]!r}"
        pos = Position(FALLBACK_FENS[len(data) % len(FALLBACK_FENS)])
    check_position(pos)
    start_fen = pos.fen()
    for line in lines[1 : 1 + MAX_COMMANDS]:
        if line.startswith("#"):
            moves = pos.legal_moves()
            if not moves:
                continue
            digits = line[1:8]
            number = int(digits) if digits.isascii() and digits.isdigit() else len(line)
            push_checked(pos, moves[number % len(moves)])
        elif line == "pop":
            if pos.move_stack:
                pos.pop()
            else:
                try:
                    pos.pop()
                except IndexError:
                    pass
                else:
                    raise AssertionError("pop() of an empty stack did not raise")
        elif line.startswith("!"):
            raw_core(line[1:])
            continue
        else:
            pair = PAIR.fullmatch(line.strip())
            if pair:
                raw_pair(pos, int(pair[1]), int(pair[2]))
            else:
                try:
                    move = Move.from_iccs(line)
                except InvalidMoveError as exc:
                    assert str(exc).strip()
                    continue
                push_checked(pos, move)
        check_position(pos)
    # Unwind: popping everything returns to the first position's FEN.
    while pos.move_stack:
        pos.pop()
    assert pos.fen() == start_fen, f"popping everything gave {pos.fen()!r}, not {start_fen!r}"


def main() -> None:
    _harness.run(test_one_input)


if __name__ == "__main__":
    main()
