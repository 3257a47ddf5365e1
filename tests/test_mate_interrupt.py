"""Ctrl-C during a mate search: Position.find_mate and xiangqi.find_mates stop at once,
and the batch leaves no thread running (its searches run on a pool without the GIL).

Each case runs in a child interpreter with a bounded wait, so a search that ignored the
interrupt (hours on these positions) fails the test instead of hanging the suite.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import xiangqi
from xiangqi import Position, SearchLimitReached

#: Positions with no mate for many plies: a search of 21 plies over them runs for hours.
HARD = [xiangqi.START_FEN, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b"]

CHILD = textwrap.dedent(
    """
    import sys, threading, time
    import xiangqi
    from xiangqi import Position
    hard = [Position(fen) for fen in {hard!r}]
    {interrupt}
    print("searching", flush=True)
    start = time.monotonic()
    try:
        xiangqi.find_mates(hard * 2, 21, node_limit=10**15, threads=2)
    except KeyboardInterrupt:
        print("interrupted", round(time.monotonic() - start, 1), threading.active_count())
    else:
        print("finished")
    """
)


def run_child(interrupt: str, send_sigint: bool) -> list[str]:
    code = CHILD.format(hard=HARD, interrupt=interrupt)
    child = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "searching"
        if send_sigint:
            time.sleep(0.5)
            child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        pytest.fail("find_mates did not stop within 30 s of Ctrl-C")
    assert child.returncode == 0, err
    return out.split()


def test_sigint_stops_find_mates_at_once() -> None:
    words = run_child("", send_sigint=True)
    assert words[0] == "interrupted"
    assert float(words[1]) < 10  # the searches stop within milliseconds; CI is slow
    assert words[2] == "1"  # the pool's threads are gone: only the main thread is left


def test_interrupt_main_stops_find_mates_at_once() -> None:
    # Ctrl-C delivered without a real signal (as an embedding application or a timer
    # thread does it): the waiting main thread must still notice.
    timer = "import _thread; threading.Timer(0.5, _thread.interrupt_main).start()"
    words = run_child(timer, send_sigint=False)
    assert words[0] == "interrupted"
    assert float(words[1]) < 10
    assert words[2] == "1"


def test_a_stop_event_ends_one_search() -> None:
    # find_mate on another thread: setting its stop event ends it as node_limit would.
    stop = threading.Event()
    caught: list[BaseException] = []

    def search() -> None:
        try:
            Position().find_mate(21, node_limit=10**15, stop=stop)
        except BaseException as error:  # noqa: BLE001 - the test inspects it
            caught.append(error)

    worker = threading.Thread(target=search)
    worker.start()
    time.sleep(0.3)
    stop.set()
    worker.join(timeout=30)
    assert not worker.is_alive()
    assert len(caught) == 1 and isinstance(caught[0], SearchLimitReached)
    assert caught[0].nodes > 0


def test_a_set_stop_event_stops_before_much_work() -> None:
    stop = threading.Event()
    stop.set()
    with pytest.raises(SearchLimitReached) as caught:
        Position().find_mate(21, stop=stop)
    assert caught.value.nodes <= 2 * 32768  # asked at the first poll


def test_stop_must_be_an_event() -> None:
    with pytest.raises(TypeError, match="stop must be None or a threading.Event"):
        Position().find_mate(3, stop=True)  # type: ignore[arg-type]
