"""Ctrl-C that arrives while find_mate asks its stop event must stay a KeyboardInterrupt.

The search asks the event (with the GIL) every few thousand nodes; Python runs a pending
signal handler at the next bytecode it executes, which can be inside Event.is_set. The
core's poll (xiangqi/_mate.pxi, event_is_set) caught BaseException there and stopped as
if the event were set: the Ctrl-C was lost and the caller got SearchLimitReached (with a
real SIGINT while another Python thread kept the GIL busy, 8 of 40 interrupts). It now
keeps the exception set and find_mate raises it. The event below raises
KeyboardInterrupt from is_set, as the signal handler would, so the case is deterministic.
"""

from __future__ import annotations

import threading

import pytest

from xiangqi import Position

#: No mate within 13 plies here, and far more than one poll's worth of nodes to prove it.
SLOW = Position()


class InterruptedWhileAsked(threading.Event):
    """An event never set whose is_set raises KeyboardInterrupt from its second call on
    (the first is find_mate's own check before the search begins)."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def is_set(self) -> bool:
        self.calls += 1
        if self.calls > 1:
            raise KeyboardInterrupt
        return False


def test_ctrl_c_inside_the_stop_events_poll_is_a_keyboard_interrupt() -> None:
    stop = InterruptedWhileAsked()
    with pytest.raises(KeyboardInterrupt):
        SLOW.find_mate(13, stop=stop)
    assert stop.calls == 2


class BrokenEvent(threading.Event):
    """An event whose is_set raises the caller's own error from its second call on."""

    def is_set(self) -> bool:
        if getattr(self, "asked", False):
            raise RuntimeError("this event cannot say")
        self.asked = True
        return False


def test_an_error_from_the_stop_events_is_set_reaches_the_caller() -> None:
    # It was turned into a stop (SearchLimitReached: "nothing proven"), hiding the error.
    with pytest.raises(RuntimeError, match="this event cannot say"):
        SLOW.find_mate(13, stop=BrokenEvent())
