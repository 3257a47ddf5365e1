"""perft releases the GIL: another Python thread runs while it counts.

Not a timing test. With a 10 s switch interval the main thread never hands the
GIL to the worker on its own during a 50 ms perft; the worker can only count
while perft runs if perft releases the GIL.
"""

from __future__ import annotations

import random
import sys
import threading
import time

import xiangqi


def test_perft_lets_other_threads_run() -> None:
    pos = xiangqi.Position()
    stop = threading.Event()
    started = threading.Event()
    ticks = [0]

    def count() -> None:
        started.set()
        while not stop.is_set():
            ticks[0] += 1
            time.sleep(0)  # gives the GIL back at once, so the main thread is not held up

    old = sys.getswitchinterval()
    sys.setswitchinterval(10.0)
    worker = threading.Thread(target=count)
    try:
        worker.start()
        started.wait()
        before = ticks[0]
        nodes = pos.perft(4)
        during = ticks[0] - before
    finally:
        stop.set()
        worker.join()
        sys.setswitchinterval(old)
    assert nodes == 3_290_240
    assert during > 10


def test_two_threads_count_two_positions() -> None:
    fens = [xiangqi.START_FEN, "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w"]
    out: dict[int, int] = {}

    def work(i: int) -> None:
        out[i] = xiangqi.Position(fens[i]).perft(3)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out == {0: 79_666, 1: 43_929}  # Chess Programming Wiki perft(3) of both


def test_perft_while_another_thread_pushes_and_pops() -> None:
    # perft counts on its own copy of the board: pushes and pops from another thread
    # during the count can neither corrupt it nor crash the interpreter.
    pos = xiangqi.Position()
    board = pos._board
    stop = threading.Event()

    def churn() -> None:
        while not stop.is_set():
            board.push(7 + 9 * 2, 4 + 9 * 2)  # h2e2
            board.pop()

    worker = threading.Thread(target=churn)
    worker.start()
    try:
        counts = {board.perft(3) for _ in range(30)}
        splits = {sum(n for _, n in board.divide(2)) for _ in range(30)}
    finally:
        stop.set()
        worker.join()
    # Each count is of a whole position, the start or the one after h2e2: the property
    # here is consistency (the counts' correctness is tests/test_perft.py's business).
    start = xiangqi.Position()
    after = xiangqi.Position()
    after.push_iccs("h2e2")
    assert counts <= {start.perft(3), after.perft(3)}
    assert splits <= {start.perft(2), after.perft(2)}
    assert pos.fen() == xiangqi.START_FEN


def test_batch_while_another_thread_clears_the_list() -> None:
    boards = [xiangqi.Position()._board for _ in range(5000)]
    stop = threading.Event()

    def clear() -> None:
        while not stop.is_set():
            boards.clear()
            boards.extend(xiangqi.Position()._board for _ in range(100))

    worker = threading.Thread(target=clear)
    worker.start()
    try:
        for _ in range(20):
            moves, offsets = xiangqi._core.legal_moves_batch(boards)
            assert len(moves) == 44 * (len(offsets) - 1)
    finally:
        stop.set()
        worker.join()


def test_four_threads_pushing_and_popping_one_position_cannot_corrupt_it() -> None:
    # Misuse (python-chess's contract is one object, one thread at a time), but each public
    # call is one core call: the history can never disagree with the board, whatever the
    # interleaving. Every thread pushes a legal move it saw (which another thread may have
    # made illegal meanwhile: IllegalMoveError) or pops (IndexError when empty).
    pos = xiangqi.Position()
    errors: list[BaseException] = []
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible

    def hammer(seed: int) -> None:
        rng = random.Random(seed)
        try:
            for _ in range(3000):
                if rng.random() < 0.45:
                    try:
                        pos.pop()
                    except IndexError:
                        pass
                    continue
                moves = pos.legal_moves()
                if not moves:
                    continue
                try:
                    pos.push(rng.choice(moves))
                except xiangqi.IllegalMoveError:
                    pass
                pos.outcome()
                pos.zobrist_hash()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=hammer, args=(i,)) for i in range(4)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    assert errors == []
    replay = xiangqi.Position()
    for move in pos.move_stack:
        replay.push(move)
    assert replay == pos
    assert replay.fen() == pos.fen()
    assert pos.zobrist_hash() == pos._board.zobrist_from_scratch() == replay.zobrist_hash()
    while pos.move_stack:
        pos.pop()
    assert pos.fen() == xiangqi.START_FEN
