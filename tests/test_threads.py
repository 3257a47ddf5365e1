"""perft releases the GIL: another Python thread runs while it counts.

Not a timing test. With a 10 s switch interval the main thread never hands the
GIL to the worker on its own during a 50 ms perft; the worker can only count
while perft runs if perft releases the GIL.
"""

from __future__ import annotations

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
