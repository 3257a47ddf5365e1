"""The values the engine client passes around: errors, dialects, Limit, scores, results, options."""

from __future__ import annotations

import dataclasses
import enum
import logging
import re
from collections.abc import (
    Sequence,
)
from typing import Any

from .._checks import check_int, check_real
from ..errors import XiangqiError
from ..move import Move
from ..notation import IccsStyle
from ..pieces import Color

LOGGER = logging.getLogger("xiangqi.engine")

#: Seconds allowed for the handshake and for commands without a search (isready, quit).
DEFAULT_TIMEOUT = 10.0
#: Seconds a search without a time limit (depth or nodes) may take before it is abandoned.
DEFAULT_SEARCH_TIMEOUT = 600.0
#: Longest line quoted in an error message.
QUOTE = 200

#: An engine's command line: one string (the program), or the program and its arguments.
Command = str | Sequence[str]
#: What an info dict holds: depth, seldepth, multipv, nodes, nps, hashfull, tbhits,
#: currmovenumber (int); time (float, seconds); score (PovScore); pv (list[Move]);
#: currmove (Move); string (str); lowerbound/upperbound (True when the score is a bound).
Info = dict[str, Any]


class EngineError(RuntimeError):
    """The engine did something the protocol does not allow, or did not answer in time."""


class EngineTerminatedError(EngineError):
    """The engine process exited (or closed its output) while we were waiting on it."""


class EngineOptionError(EngineError, XiangqiError):
    """configure() named an unknown or managed option, or gave a value the option refuses."""


def quote_line(line: str, limit: int = QUOTE) -> str:
    return repr(line if len(line) <= limit else line[:limit] + "...")


# -- dialects, limits, scores, results ----------------------------------------------------------


class Dialect(enum.Enum):
    """The protocol flavour of an engine: how it is greeted and how it writes squares."""

    UCI = "uci"  #: Pikafish-style UCI, ranks 0..9
    FAIRY = "fairy"  #: Fairy-Stockfish UCI with UCI_Variant xiangqi, ranks 1..10
    UCCI = "ucci"  #: ElephantEye's UCCI, ranks 0..9

    @property
    def iccs_style(self) -> IccsStyle:
        """How this dialect writes a move: "ranks1" for Fairy-Stockfish, else "iccs"."""
        return "ranks1" if self is Dialect.FAIRY else "iccs"


@dataclasses.dataclass(frozen=True)
class Limit:
    """When a search stops, as python-chess's ``chess.engine.Limit`` has it.

    ``time`` (seconds for this move), ``depth`` (plies), ``nodes``, ``mate`` (moves), and the
    game clocks: ``red_clock``/``black_clock`` (seconds left), ``red_inc``/``black_inc``
    (seconds added per move) and ``remaining_moves`` (moves to the next time control). UCI
    engines get the clocks as ``wtime``/``btime``/``winc``/``binc``/``movestogo`` in
    milliseconds (Red is "w"); UCCI engines as ``time``/``increment``/``movestogo`` for the
    side to move and ``opptime``/``oppincrement`` for the other side.

    An empty Limit searches until stopped: only ``analysis()`` takes it; ``play()`` and
    ``analyse()`` refuse it with ValueError, since they would never return.
    """

    time: float | None = None
    depth: int | None = None
    nodes: int | None = None
    mate: int | None = None
    red_clock: float | None = None
    black_clock: float | None = None
    red_inc: float | None = None
    black_inc: float | None = None
    remaining_moves: int | None = None

    def __post_init__(self) -> None:
        for name in ("depth", "nodes", "mate", "remaining_moves"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, check_int(f"Limit.{name}", value, 1))
        if self.time is not None:
            check_seconds("Limit.time", self.time)
        for name in ("red_clock", "black_clock", "red_inc", "black_inc"):
            value = getattr(self, name)
            if value is not None:
                check_real(f"Limit.{name}", value, 0)

    def is_empty(self) -> bool:
        """True when nothing limits the search (increments and moves to go alone do not)."""
        return (
            self.time is None
            and self.depth is None
            and self.nodes is None
            and self.mate is None
            and self.red_clock is None
            and self.black_clock is None
        )

    def clock(self, color: Color) -> float | None:
        """The clock of color (seconds), or None."""
        return self.red_clock if color == Color.RED else self.black_clock

    def inc(self, color: Color) -> float | None:
        """The increment of color (seconds), or None."""
        return self.red_inc if color == Color.RED else self.black_inc


def check_seconds(name: str, value: object) -> float:
    """value as a finite number of seconds above 0 (TypeError or ValueError naming name)."""
    seconds = check_real(name, value, 0)
    if seconds == 0:
        raise ValueError(f"{name} must be more than 0 seconds, got {value!r}")
    return seconds


class Score:
    """A score from one side's point of view: centipawns (:class:`Cp`) or mate (:class:`Mate`)."""

    def score(self, *, mate_score: int | None = None) -> int | None:
        """Centipawns; a mate counts as mate_score minus its plies (None when mate_score is)."""
        raise NotImplementedError

    def mate(self) -> int | None:
        """Moves to mate: positive when this side mates, negative when it is mated; else None."""
        raise NotImplementedError

    def is_mate(self) -> bool:
        """Is this a mate score?"""
        return self.mate() is not None

    def __neg__(self) -> Score:
        raise NotImplementedError

    def _key(self) -> tuple[int, int]:
        """Order: being mated sooner < later < centipawns < mating later < sooner."""
        mate = self.mate()
        if mate is None:
            return (1, self.score() or 0)
        return (2, -mate) if mate > 0 else (0, -mate)

    def __lt__(self, other: Score) -> bool:
        return self._key() < other._key()

    def __le__(self, other: Score) -> bool:
        return self._key() <= other._key()

    def __gt__(self, other: Score) -> bool:
        return self._key() > other._key()

    def __ge__(self, other: Score) -> bool:
        return self._key() >= other._key()


class Cp(Score):
    """A centipawn score (100 is about one pawn)."""

    __slots__ = ("cp",)

    def __init__(self, cp: int) -> None:
        self.cp = cp

    def score(self, *, mate_score: int | None = None) -> int | None:
        return self.cp

    def mate(self) -> int | None:
        return None

    def __neg__(self) -> Cp:
        return Cp(-self.cp)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Cp) and other.cp == self.cp

    def __hash__(self) -> int:
        return hash(("cp", self.cp))

    def __repr__(self) -> str:
        return f"Cp({self.cp:+d})"


class Mate(Score):
    """Mate in ``moves`` (positive: this side mates; negative: this side is mated)."""

    __slots__ = ("moves",)

    def __init__(self, moves: int) -> None:
        self.moves = moves

    def score(self, *, mate_score: int | None = None) -> int | None:
        if mate_score is None:
            return None
        return mate_score - self.moves if self.moves > 0 else -mate_score - self.moves

    def mate(self) -> int | None:
        return self.moves

    def __neg__(self) -> Mate:
        return Mate(-self.moves)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mate) and other.moves == self.moves

    def __hash__(self) -> int:
        return hash(("mate", self.moves))

    def __repr__(self) -> str:
        return f"Mate({self.moves:+d})"


class PovScore:
    """A score as the engine gave it (``relative``, for the side ``turn`` to move)."""

    __slots__ = ("relative", "turn")

    def __init__(self, relative: Score, turn: Color) -> None:
        self.relative = relative
        self.turn = Color(turn)

    def pov(self, color: Color) -> Score:
        """The score from color's point of view."""
        return self.relative if color == self.turn else -self.relative

    def red(self) -> Score:
        """The score from Red's point of view."""
        return self.pov(Color.RED)

    def black(self) -> Score:
        """The score from Black's point of view."""
        return self.pov(Color.BLACK)

    def is_mate(self) -> bool:
        """Is this a mate score?"""
        return self.relative.is_mate()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PovScore) and self.red() == other.red()

    def __hash__(self) -> int:
        return hash(self.red())

    def __repr__(self) -> str:
        return f"PovScore({self.relative!r}, {self.turn.name})"


@dataclasses.dataclass
class PlayResult:
    """What play() returns: the move (None when the engine has none), its ponder move, info."""

    move: Move | None
    ponder: Move | None = None
    info: Info = dataclasses.field(default_factory=dict)
    draw_offered: bool = False  #: UCCI "bestmove ... draw"
    resigned: bool = False  #: UCCI "bestmove ... resign"


# -- options --------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Option:
    """An engine option as announced: name, type (check, spin, combo, button, string, ...)."""

    name: str
    type: str
    default: str | int | bool | None
    min: int | None
    max: int | None
    var: tuple[str, ...]

    def parse(self, value: object) -> str:
        """The wire text for value, or EngineOptionError saying why the option refuses it."""
        where = f"option {self.name!r} ({self.type})"
        if self.type == "check":
            if isinstance(value, bool):
                return "true" if value else "false"
            if isinstance(value, str) and value.lower() in ("true", "false"):
                return value.lower()
            raise EngineOptionError(f"{where} takes True or False, got {value!r:.{QUOTE}}")
        if self.type == "spin":
            # an int (a NumPy integer too: the rule of xiangqi/_checks.py) or its text
            if isinstance(value, bool) or not (
                isinstance(value, str) or hasattr(type(value), "__index__")
            ):
                raise EngineOptionError(f"{where} takes an int, got {value!r:.{QUOTE}}")
            try:  # text as the engine protocols write numbers: ASCII digits, optional sign
                number = parse_int(value) if isinstance(value, str) else check_int(self.name, value)
            except ValueError:
                raise EngineOptionError(f"{where} takes an int, got {value!r:.{QUOTE}}") from None
            if (self.min is not None and number < self.min) or (
                self.max is not None and number > self.max
            ):
                raise EngineOptionError(
                    f"{where} takes {self.min}..{self.max}, got {value!r:.{QUOTE}}"
                )
            return str(number)
        if self.type == "combo":
            if isinstance(value, str):
                for choice in self.var:
                    if choice.lower() == value.lower():
                        return choice
            shown = ", ".join(self.var[:20])
            raise EngineOptionError(f"{where} takes one of {shown}; got {value!r:.{QUOTE}}")
        if self.type == "button":
            if value is None or value is True:
                return ""
            raise EngineOptionError(f"{where} is a button: pass None, got {value!r:.{QUOTE}}")
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise EngineOptionError(f"{where} takes text, got {value!r:.{QUOTE}}")
        text = str(value)
        if "\n" in text or "\r" in text or "\x00" in text:
            raise EngineOptionError(
                f"{where}: a value may not contain a line break or NUL: {text!r:.80}"
            )
        try:  # checked here, so configure() refuses it before sending any option
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise EngineOptionError(
                f"{where}: the value cannot be written as UTF-8: {text!r:.80}"
            ) from None
        return text


_TOKEN = re.compile(r"[^ \t]+")
_INT = re.compile(r"[+-]?[0-9]{1,40}")


def split_words(line: str) -> list[str]:
    """The words of an engine line: split on spaces and tabs only (the protocols' blanks),
    so no-break spaces, line separators and other Unicode blanks stay inside a word."""
    return _TOKEN.findall(line)


def parse_int(text: str, low: int | None = None) -> int:
    """An engine's integer: ASCII digits with an optional sign, at least low; ValueError for
    anything else (int() alone would take "1_0", Arabic-Indic digits and 4,000-digit text)."""
    if not _INT.fullmatch(text):
        raise ValueError(f"not an integer: {text!r:.40}")
    number = int(text)
    if low is not None and number < low:
        raise ValueError(f"{number} is below {low}")
    return number
