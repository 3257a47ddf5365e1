"""perft releases the GIL: Python code keeps running in another thread meanwhile.

Not a timing test: with the GIL held, the main thread could run at most a few
bytecodes between the worker setting its flag and entering perft; with the GIL
released it runs freely for the whole count.
"""

from __future__ import annotations

import threading

import xiangqi


def test_perft_lets_other_threads_run() -> None:
    pos = xiangqi.Position()
    inside = threading.Event()
    done = threading.Event()
    result: list[int] = []

    def work() -> None:
        inside.set()
        result.append(pos.perft(4))
        done.set()

    worker = threading.Thread(target=work)
    worker.start()
    inside.wait()
    iterations = 0
    while not done.is_set():
        iterations += 1
    worker.join()
    assert result == [3_290_240]
    assert iterations > 1000


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
