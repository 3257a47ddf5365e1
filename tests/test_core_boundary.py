"""The compiled core's boundary holds against hostile callers (issue 14, sections 1 and 2).

Integers are converted to C integers before any range check, so int subclasses whose
comparisons lie, NumPy integers and huge values can never index the core's arrays;
perft and divide can be interrupted with Ctrl-C; deep perft is safe on a small thread
stack. The expected answers here are the rules of the boundary (the range 0..89, the
depth range 0..64) and published perft counts, not outputs of the code under test.
"""

from __future__ import annotations

import _thread
import os
import subprocess
import sys
import textwrap
import threading

import numpy
import pytest

import xiangqi
from xiangqi import Move, Position, _core
from xiangqi.fen import parse_fen


class Liar(int):
    """An int whose comparisons all answer True (the attack of issue 14)."""

    def _yes(self, other: object) -> bool:
        return True

    __lt__ = __le__ = __gt__ = __ge__ = _yes  # type: ignore[assignment]


def test_lying_int_subclass_cannot_pass_the_square_check() -> None:
    pos = Position()
    with pytest.raises(ValueError, match="square must be in 0..89, got 1000000000"):
        pos.piece_at(Liar(10**9))
    with pytest.raises(ValueError, match="square must be in 0..89, got -1"):
        pos._board.is_legal(Liar(-1), 4)
    assert pos.piece_at(Liar(4)) == xiangqi.Piece(xiangqi.RED, xiangqi.PieceType.KING)


def test_lying_int_subclass_cannot_pass_the_depth_check() -> None:
    board = Position()._board
    for depth in (Liar(-1), Liar(65), Liar(10**9), Liar(10**30)):
        with pytest.raises(ValueError, match="depth must be in"):
            board.perft(depth)
        with pytest.raises(ValueError, match="depth must be in"):
            board.divide(depth)
        with pytest.raises(ValueError, match="depth must be in"):
            _core._reference_perft(board, depth)
    assert board.perft(Liar(2)) == 1920  # Chess Programming Wiki, start position


def test_move_fields_replaced_behind_the_dataclass_are_checked_by_the_core() -> None:
    pos = Position()
    for bad in (Liar(10**9), Liar(-5), 10**9, -1, 2**64):
        move = Move(25, 22)  # h2e2, a fresh object: Move.from_iccs returns a shared one
        assert move is not Move.from_iccs("h2e2")
        object.__setattr__(move, "from_square", bad)
        with pytest.raises(ValueError, match="square must be in 0..89"):
            pos.push(move)
        with pytest.raises(ValueError, match="square must be in 0..89"):
            pos.is_legal(move)
    assert pos.fen() == xiangqi.START_FEN and pos.move_stack == []


def test_load_side_is_converted_before_the_range_check() -> None:
    board = _core.Board()
    codes = parse_fen(xiangqi.START_FEN).codes
    for side in (Liar(5), Liar(-1), 2**70):
        with pytest.raises(ValueError, match=r"side \(0 Red, 1 Black\) must be in 0..1"):
            board.load(codes, side)
    assert board.codes() == bytes(90)
    board.load(codes, Liar(1))
    assert board.side == 1


def test_numpy_integers_are_integers_and_numpy_bools_are_not() -> None:
    board = Position()._board
    assert board.piece_at(numpy.int64(4)) == board.piece_at(4)
    assert board.piece_at(numpy.uint8(85)) == board.piece_at(85)
    assert board.perft(numpy.int32(2)) == 1920
    with pytest.raises(ValueError, match="got 90"):
        board.piece_at(numpy.int16(90))
    with pytest.raises(TypeError):
        board.piece_at(numpy.bool_(True))
    with pytest.raises(TypeError):
        board.perft(numpy.float64(2.0))


def test_huge_values_are_refused_with_a_bounded_message() -> None:
    board = Position()._board
    with pytest.raises(ValueError) as info:
        board.piece_at(10**5000)
    assert len(str(info.value)) < 100
    with pytest.raises(ValueError, match="bit number"):
        board.perft(-(2**200))


def _interrupt_soon(seconds: float) -> threading.Timer:
    timer = threading.Timer(seconds, _thread.interrupt_main)
    timer.start()
    return timer


def test_perft_is_interrupted_by_ctrl_c() -> None:
    # perft(8) from the start position is about 5 * 10**12 leaves: hours of work. The
    # timer simulates Ctrl-C; the count must stop with KeyboardInterrupt, and the board
    # (perft counts on a copy) must be unchanged.
    pos = Position()
    timer = _interrupt_soon(0.2)
    try:
        with pytest.raises(KeyboardInterrupt):
            pos.perft(8)
    finally:
        timer.cancel()
    assert pos.fen() == xiangqi.START_FEN
    assert pos.perft(3) == 79_666


def test_perft_without_bulk_counting_is_interrupted_by_ctrl_c() -> None:
    pos = Position()
    timer = _interrupt_soon(0.2)
    try:
        with pytest.raises(KeyboardInterrupt):
            pos.perft(8, bulk=False)
    finally:
        timer.cancel()
    assert pos.perft(2, bulk=False) == 1920


def test_divide_is_interrupted_by_ctrl_c() -> None:
    pos = Position()
    timer = _interrupt_soon(0.2)
    try:
        with pytest.raises(KeyboardInterrupt):
            pos.divide(8)
    finally:
        timer.cancel()
    assert sum(pos.divide(2).values()) == 1920


@pytest.mark.slow  # waits on timeouts or a deep count: the slow run (CI)
def test_deep_perft_on_a_32k_thread_stack() -> None:
    # perft walks with an explicit heap stack, so depth 64 needs no more C stack than
    # depth 2. In a child process, a thread with the smallest stack Python allows starts
    # perft(64); the walk reaches ply 64 within microseconds (depth first), then the
    # process exits while the count goes on. A stack overflow would kill the child
    # with SIGSEGV before it prints.
    code = textwrap.dedent(
        """
        import os, threading, time, xiangqi
        threading.stack_size(32768)
        pos = xiangqi.Position()
        threading.Thread(target=pos.perft, args=(64,), daemon=True).start()
        threading.Thread(target=pos.perft, args=(64, False), daemon=True).start()
        time.sleep(0.5)
        print("alive", flush=True)
        os._exit(0)
        """
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout == "alive\n"


@pytest.mark.slow  # waits on timeouts or a deep count: the slow run (CI)
def test_reference_perft_on_a_32k_thread_stack() -> None:
    # The book's perft recurses, so the boundary caps its depth (6); at that cap it must
    # fit a 32 KB thread stack. Kings and one rook each: a small tree, counted fully.
    fen = "3k5/9/4r4/9/9/9/9/4R4/9/5K3 w - - 0 1"
    board = Position(fen)._board
    expected = board.perft(6)
    result: list[int] = []
    old = threading.stack_size(32768)
    try:
        worker = threading.Thread(target=lambda: result.append(_core._reference_perft(board, 6)))
        worker.start()
        worker.join()
    finally:
        threading.stack_size(old)
    assert result == [expected]
    with pytest.raises(ValueError, match="depth must be in 0..6"):
        _core._reference_perft(board, 7)
