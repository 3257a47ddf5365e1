"""Time controls: clocks, a fixed time a move, depth and node caps, and the Limit of one search."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Any

from .._checks import check_int, check_real
from ..engine import Limit
from ..errors import XiangqiError
from ..pieces import Color
from ._text import CLOCK, parse_count, parse_number

#: Time control used when no engine names one (the command line's old default).
DEFAULT_TC = "depth=6"
#: Longest time a TimeControl takes, in seconds (a clock, an increment, a time a move): 30 days.
MAX_SECONDS = 30 * 24 * 3600.0
#: Deepest search depth and most nodes a TimeControl takes (what an engine's int can hold).
MAX_DEPTH = 10_000
MAX_NODES = 2**63 - 1

# -- time controls -----------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class TimeControl:
    """How long an engine may think: a clock, a fixed time a move, a depth, a node count.

    moves/seconds/increment is a clock: seconds for every ``moves`` moves (None: the whole
    game) plus increment seconds after each move. movetime is fixed seconds a move ("st").
    Several may be combined (a clock and a depth cap).
    """

    seconds: float | None = None
    increment: float = 0.0
    moves: int | None = None
    movetime: float | None = None
    depth: int | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        seconds = (("seconds", "clock seconds"), ("movetime", "st (seconds a move)"))
        for field, what in seconds:
            value = getattr(self, field)
            if value is not None:
                value = check_real(what, value, 0, MAX_SECONDS)
                if value == 0:
                    raise XiangqiError(f"{what} must be more than 0 seconds")
                object.__setattr__(self, field, value)
        object.__setattr__(
            self, "increment", check_real("increment", self.increment, 0, MAX_SECONDS)
        )
        counts = (("moves", "moves per period", MAX_DEPTH), ("depth", "depth", MAX_DEPTH))
        for field, what, high in (*counts, ("nodes", "nodes", MAX_NODES)):
            value = getattr(self, field)
            if value is not None:
                object.__setattr__(self, field, check_int(what, value, 1, high))

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Read "40/60+0.6", "10+0.1", "st=0.5", "depth=6", "nodes=1000" or several of them
        (joined by spaces or commas); "movetime=MS" is read too (milliseconds)."""
        if not isinstance(text, str):
            raise TypeError(f"a time control is text, got {type(text).__name__}")
        fields: dict[str, Any] = {}
        words = [w for w in re.split(r"[,\s]+", text.strip()) if w]
        if not words:
            raise XiangqiError(f"time control is empty: {text!r}")
        for word in words:
            key, sep, value = word.partition("=")
            if not sep:
                clock = CLOCK.fullmatch(word)
                if clock is None:
                    raise XiangqiError(
                        "time control must be moves/seconds+increment (40/60+0.6, 10+0.1), "
                        f"st=S, depth=N, nodes=N or movetime=MS; got {word!r} in {text!r:.100}"
                    )
                if clock[1] is not None:
                    fields["moves"] = parse_count(clock[1], "moves per period", text)
                fields["seconds"] = float(clock[2])
                if not fields["seconds"] > 0:
                    raise XiangqiError(f"a clock needs more than 0 seconds: {text!r:.100}")
                fields["increment"] = float(clock[3]) if clock[3] else 0.0
            elif key == "tc":
                # tc=40/60+0.6, and also tc=depth=N, tc=st=S, tc=nodes=N (issue 30: these
                # were dropped, so both engines played the default depth)
                inner = cls.parse(value)
                fields.update(
                    (k, v)
                    for k, v in dataclasses.asdict(inner).items()
                    if v is not None and not (k == "increment" and inner.seconds is None)
                )
            elif key == "st":
                fields["movetime"] = parse_number(value, "st", text)
                if not fields["movetime"] > 0:
                    raise XiangqiError(f"st must be more than 0 seconds, got {text!r:.100}")
            elif key == "movetime":
                fields["movetime"] = parse_count(value, "movetime (ms)", text) / 1000
            elif key in ("depth", "nodes"):
                fields[key] = parse_count(value, key, text)
            else:
                raise XiangqiError(
                    "time control must be moves/seconds+increment (40/60+0.6, 10+0.1), "
                    f"st=S, depth=N, nodes=N or movetime=MS; got {word!r} in {text!r:.100}"
                )
        try:
            return cls(**fields)
        except ValueError as exc:  # out of range: said with the text it came from
            raise XiangqiError(f"time control {text!r:.100}: {exc}") from None

    @classmethod
    def from_limit(cls, limit: Limit) -> TimeControl:
        """The TimeControl of a per-move Limit (time, depth, nodes)."""
        return cls(movetime=limit.time, depth=limit.depth, nodes=limit.nodes)

    def merged(self, other: TimeControl) -> TimeControl:
        """This control with other's settings laid over it (other wins where it sets one)."""
        fields = dataclasses.asdict(self)
        for key, value in dataclasses.asdict(other).items():
            if value is not None and not (key == "increment" and other.seconds is None):
                fields[key] = value
        return TimeControl(**fields)

    @property
    def has_clock(self) -> bool:
        """True when the engine plays on a clock (seconds for the game or a period)."""
        return self.seconds is not None

    def is_empty(self) -> bool:
        """True when nothing limits a search."""
        return (
            self.seconds is None
            and self.movetime is None
            and self.depth is None
            and self.nodes is None
        )

    def pgn(self) -> str:
        """The PGN TimeControl tag: "40/60+0.6", "10+0.1", "st=0.5", "-" (depth or nodes)."""
        parts = []
        if self.seconds is not None:
            clock = f"{self.seconds:g}" + (f"+{self.increment:g}" if self.increment else "")
            parts.append(f"{self.moves}/{clock}" if self.moves else clock)
        if self.movetime is not None:
            parts.append(f"st={self.movetime:g}")
        if self.depth is not None:
            parts.append(f"depth={self.depth}")
        if self.nodes is not None:
            parts.append(f"nodes={self.nodes}")
        return " ".join(parts) or "-"

    def __str__(self) -> str:
        return self.pgn()


def parse_tc(text: str) -> Limit:
    """A per-move Limit from "depth=N", "movetime=MS", "st=S", "nodes=N" (comma-joined).

    For clocks use :meth:`TimeControl.parse`; this function keeps the old per-move form.
    """
    tc = TimeControl.parse(text)
    if tc.has_clock:
        raise XiangqiError(f"a clock is not a per-move limit; use TimeControl.parse: {text!r}")
    return Limit(time=tc.movetime, depth=tc.depth, nodes=tc.nodes)


def make_limit(
    tc: TimeControl,
    turn: Color,
    clocks: Sequence[float | None],
    increments: Sequence[float],
    moves_to_go: int | None,
) -> Limit:
    """The Limit for one search: tc's depth/nodes/movetime, and the clocks when tc has one.

    clocks and increments are indexed by Color (seconds; None for a side without a clock);
    moves_to_go counts the side to move's moves left in its period (None: sudden death).
    The engine budgets its own time from the clocks (wtime/btime/winc/binc/movestogo).
    """
    fields: dict[str, Any] = {"depth": tc.depth, "nodes": tc.nodes, "time": tc.movetime}
    if tc.has_clock and clocks[turn] is not None:
        red, black = clocks[Color.RED], clocks[Color.BLACK]
        fields.update(
            red_clock=None if red is None else max(red, 0.001),
            black_clock=None if black is None else max(black, 0.001),
            red_inc=increments[Color.RED],
            black_inc=increments[Color.BLACK],
            remaining_moves=moves_to_go,
        )
    return Limit(**fields)
