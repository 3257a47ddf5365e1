"""Talk to xiangqi engines over UCI or UCCI: an asyncio core and a synchronous wrapper.

The shape follows python-chess's ``chess.engine``: one protocol object per engine process,
of a class per dialect on a shared base (:class:`UciProtocol` and :class:`UcciProtocol` on
:class:`EngineProtocol`, as python-chess has UciProtocol and XBoardProtocol), driven by
asyncio; :class:`SimpleEngine` running that protocol's event loop in a background thread for
ordinary blocking code; :class:`Limit` (with python-chess's clock fields), :class:`PlayResult`,
:class:`PovScore` with :class:`Cp` and :class:`Mate`, info dicts, and ``analysis()`` objects
to iterate over and ``stop()``. Standard library only.

Squares are public numbers 0..89 (file + 9 * rank, ranks 0..9 from Red's side); moves are
:class:`xiangqi.Move` objects. On the wire a move is ICCS text in the engine's dialect:

``Dialect.UCI``
    Pikafish-style UCI: ``uci``/``uciok``, ``setoption name N value V``, ranks 0..9 ("h2e2").
    Clocks go as ``wtime``/``btime``/``winc``/``binc``/``movestogo`` (milliseconds).
``Dialect.FAIRY``
    Fairy-Stockfish's UCI: as UCI, but ``setoption name UCI_Variant value xiangqi`` is sent
    after the handshake and squares have ranks 1..10 ("h3e3"). Detected when the engine
    offers a ``UCI_Variant`` option whose choices include ``xiangqi``.
``Dialect.UCCI``
    ElephantEye's UCCI: ``ucci``/``ucciok``, ``option NAME type ...``, ``setoption NAME V``,
    ranks 0..9, ``banmoves`` for excluded moves, ``nobestmove`` when there is no move, and the
    position is sent from the last capture (the protocol's rule). ``go`` takes ``depth``,
    ``nodes``, and ``time``/``increment``/``movestogo``/``opptime``/... (see UcciProtocol).

Every move an engine sends (``bestmove``, ``ponder`` and each ``pv``) is read in its dialect
and checked against the position; an unreadable or illegal one raises :class:`EngineError`
quoting the engine's line. The engine is a peer, not a source of truth. Lines that are not
part of the protocol are logged (logger ``xiangqi.engine``) and skipped, and so are malformed
info fields: words are separated by spaces and tabs only, numbers are ASCII decimal digits
with an optional sign, counters are at least 0 and ``multipv`` at least 1.

Bounds: output written while no command runs is logged at debug level and dropped (a
warning after _IDLE_WARN lines); during a command at most _MAX_QUEUED lines wait before
reading pauses (the engine then blocks on its own output); an ``analysis()`` keeps at most
ANALYSIS_QUEUE unread infos. Every wait has a deadline, checked before every line (a flood
cannot hold a command past its timeout); ``timeout=None`` waits without one. An engine that
exits raises :class:`EngineTerminatedError`, and closing always reaps the process (killing
it when it ignores ``quit`` for the grace period) and closes its pipes. KeyboardInterrupt in
any SimpleEngine call cancels the command and leaves no process, fd or thread behind: see
SimpleEngine.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import enum
import logging
import math
import os
import re
import threading
import time
from collections.abc import (
    AsyncIterator,
    Callable,
    Coroutine,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
)
from typing import Any, TypeVar

from .errors import XiangqiError
from .move import Move
from .notation import IccsStyle, iccs, parse_iccs
from .pieces import Color
from .position import Position

__all__ = [
    "AnalysisResult",
    "Cp",
    "Dialect",
    "EngineError",
    "EngineOptionError",
    "EngineProtocol",
    "EngineTerminatedError",
    "Info",
    "Limit",
    "Mate",
    "Option",
    "PlayResult",
    "PovScore",
    "Score",
    "SimpleAnalysisResult",
    "SimpleEngine",
    "UcciProtocol",
    "UciProtocol",
    "popen_ucci",
    "popen_uci",
]

LOGGER = logging.getLogger(__name__)

#: Seconds allowed for the handshake and for commands without a search (isready, quit).
DEFAULT_TIMEOUT = 10.0
#: Seconds a search without a time limit (depth or nodes) may take before it is abandoned.
DEFAULT_SEARCH_TIMEOUT = 600.0
#: Longest line quoted in an error message.
_QUOTE = 200

T = TypeVar("T")
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


def _quote(line: str, limit: int = _QUOTE) -> str:
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
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or value < 1
            ):
                raise ValueError(f"Limit.{name} must be a positive int, got {value!r:.40}")
        if self.time is not None and not (_is_seconds(self.time) and self.time > 0):
            raise ValueError(
                f"Limit.time must be a positive number of seconds, got {self.time!r:.40}"
            )
        for name in ("red_clock", "black_clock", "red_inc", "black_inc"):
            value = getattr(self, name)
            if value is not None and not _is_seconds(value):
                raise ValueError(
                    f"Limit.{name} must be a finite number of seconds >= 0, got {value!r:.40}"
                )

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


def _is_seconds(value: object) -> bool:
    """A finite, non-negative int or float that is not a bool."""
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and (isinstance(value, int) or math.isfinite(value))
        and value >= 0
    )


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
            raise EngineOptionError(f"{where} takes True or False, got {value!r:.{_QUOTE}}")
        if self.type == "spin":
            if isinstance(value, bool) or not isinstance(value, (int, str)):
                raise EngineOptionError(f"{where} takes an int, got {value!r:.{_QUOTE}}")
            try:  # text as the engine protocols write numbers: ASCII digits, optional sign
                number = _int(value) if isinstance(value, str) else int(value)
            except ValueError:
                raise EngineOptionError(f"{where} takes an int, got {value!r:.{_QUOTE}}") from None
            if (self.min is not None and number < self.min) or (
                self.max is not None and number > self.max
            ):
                raise EngineOptionError(
                    f"{where} takes {self.min}..{self.max}, got {value!r:.{_QUOTE}}"
                )
            return str(number)
        if self.type == "combo":
            if isinstance(value, str):
                for choice in self.var:
                    if choice.lower() == value.lower():
                        return choice
            shown = ", ".join(self.var[:20])
            raise EngineOptionError(f"{where} takes one of {shown}; got {value!r:.{_QUOTE}}")
        if self.type == "button":
            if value is None or value is True:
                return ""
            raise EngineOptionError(f"{where} is a button: pass None, got {value!r:.{_QUOTE}}")
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise EngineOptionError(f"{where} takes text, got {value!r:.{_QUOTE}}")
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


def _parse_option(tokens: list[str], dialect: Dialect) -> Option | None:
    """The Option an "option ..." line announces, or None when it is malformed.

    Linear in the line's length: every word is appended to a list once and each field is
    joined once at the end (growing a string word by word was quadratic on a long var list).
    """
    keywords = ("name", "type", "default", "min", "max", "var")
    fields: dict[str, list[str]] = {}
    var_words: list[list[str]] = []
    current: str | None = None
    rest = tokens[1:]
    if dialect is Dialect.UCCI and rest and rest[0] != "name":
        # UCCI: "option NAME type ...": the name is one word, no keyword.
        fields["name"] = [rest[0]]
        rest = rest[1:]
    for token in rest:
        if token in keywords:
            current = token
            if token == "var":
                var_words.append([])
            else:
                fields.setdefault(token, [])
        elif current == "var":
            var_words[-1].append(token)
        elif current is not None:
            fields[current].append(token)
    var = [" ".join(words) for words in var_words]
    name = " ".join(fields.get("name", []))
    kind = " ".join(fields.get("type", []))
    if not name or not kind:
        return None
    default_text = " ".join(fields["default"]) if "default" in fields else None
    default: str | int | bool | None = default_text
    try:
        if kind == "check" and default_text is not None:
            default = default_text.lower() == "true"
        elif kind == "spin" and default_text is not None:
            default = _int(default_text)
        low = _int(fields["min"][0]) if fields.get("min") else None
        high = _int(fields["max"][0]) if fields.get("max") else None
    except ValueError:
        return None
    if default == "<empty>":
        default = ""
    return Option(name, kind, default, low, high, tuple(var))


_TOKEN = re.compile(r"[^ \t]+")
_INT = re.compile(r"[+-]?[0-9]{1,40}")


def _tokens(line: str) -> list[str]:
    """The words of an engine line: split on spaces and tabs only (the protocols' blanks),
    so no-break spaces, line separators and other Unicode blanks stay inside a word."""
    return _TOKEN.findall(line)


def _int(text: str, low: int | None = None) -> int:
    """An engine's integer: ASCII digits with an optional sign, at least low; ValueError for
    anything else (int() alone would take "1_0", Arabic-Indic digits and 4,000-digit text)."""
    if not _INT.fullmatch(text):
        raise ValueError(f"not an integer: {text!r:.40}")
    number = int(text)
    if low is not None and number < low:
        raise ValueError(f"{number} is below {low}")
    return number


def _parse_id(tokens: list[str]) -> tuple[str, str] | None:
    """The (key, value) an "id KEY VALUE..." line gives, or None when it names no key."""
    if len(tokens) < 2 or tokens[0] != "id":
        return None
    return tokens[1], " ".join(tokens[2:])


# -- engine output: pure line parsers (no process needed; fuzz/fuzz_engine.py drives them) --


def _parse_move(pos: Position, text: str, line: str, dialect: Dialect | None) -> Move:
    """The move text names in pos, read in dialect, or EngineError quoting the line."""
    style = dialect.iccs_style if dialect else "iccs"
    try:
        return parse_iccs(pos, text, style)
    except XiangqiError as exc:
        raise EngineError(
            f"engine sent {_quote(text, 40)}, not a legal move here ({exc}): {_quote(line)}"
        ) from None


#: Integer info fields and their least value (multipv numbers lines from 1).
_INFO_INTS = {
    "depth": 0,
    "seldepth": 0,
    "multipv": 1,
    "nodes": 0,
    "nps": 0,
    "hashfull": 0,
    "tbhits": 0,
    "currmovenumber": 0,
}


def _parse_info(pos: Position, line: str, dialect: Dialect | None, who: object = "engine") -> Info:
    """The info dict of one "info ..." line; unknown or malformed fields are logged (as who)
    and skipped; an unreadable or illegal move raises EngineError."""
    tokens = _tokens(line)[1:]
    info: Info = {}
    malformed: list[str] = []
    i = 0
    while i < len(tokens):
        key = tokens[i]
        i += 1
        try:
            if key in _INFO_INTS:
                info[key] = _int(tokens[i], _INFO_INTS[key])
                i += 1
            elif key == "time":
                info["time"] = _int(tokens[i], 0) / 1000.0
                i += 1
            elif key == "score":
                kind = tokens[i]
                if kind in ("cp", "mate"):
                    value = _int(tokens[i + 1])
                    i += 2
                else:  # UCCI: "score 23"
                    kind, value = "cp", _int(kind)
                    i += 1
                score: Score = Cp(value) if kind == "cp" else Mate(value)
                info["score"] = PovScore(score, pos.turn)
                info.pop("lowerbound", None)
                info.pop("upperbound", None)
                while i < len(tokens) and tokens[i] in ("lowerbound", "upperbound"):
                    info[tokens[i]] = True
                    i += 1
            elif key == "currmove":
                info["currmove"] = _parse_move(pos, tokens[i], line, dialect)
                i += 1
            elif key == "pv":
                board = pos.copy(stack=False)
                pv: list[Move] = []
                while i < len(tokens):
                    move = _parse_move(board, tokens[i], line, dialect)
                    board.push(move)
                    pv.append(move)
                    i += 1
                info["pv"] = pv
            elif key == "string":
                info["string"] = " ".join(tokens[i:])
                i = len(tokens)
            else:
                LOGGER.debug("%s: skipping info field %r", who, key[:_QUOTE])
        except (IndexError, ValueError) as exc:
            if isinstance(exc, XiangqiError):
                raise
            malformed.append(key[:40])
            i += 1
    if malformed:  # one warning per line, however many fields are bad
        shown = ", ".join(repr(k) for k in malformed[:10])
        LOGGER.warning("%s: malformed %s in info line %s", who, shown, _quote(line))
    return info


#: What engines write instead of a move when they have none ("bestmove (none)", "ponder 0000").
_NO_MOVE = ("(none)", "0000")


def _parse_bestmove(pos: Position, line: str, dialect: Dialect | None) -> PlayResult:
    """The PlayResult of a "bestmove ..." or "nobestmove" line; EngineError for a bad move."""
    tokens = _tokens(line)
    if tokens[:1] != ["bestmove"] or len(tokens) < 2 or tokens[1] in _NO_MOVE:
        return PlayResult(None)
    move = _parse_move(pos, tokens[1], line, dialect)
    result = PlayResult(move)
    if "ponder" in tokens[2:]:
        k = tokens.index("ponder", 2)
        if k + 1 < len(tokens) and tokens[k + 1] not in _NO_MOVE:
            after = pos.copy(stack=False)
            after.push(move)
            result.ponder = _parse_move(after, tokens[k + 1], line, dialect)
    result.draw_offered = "draw" in tokens[2:]
    result.resigned = "resign" in tokens[2:]
    return result


# -- the asyncio protocol: a shared base and one class per dialect ----------------------------

#: Lines kept while a command runs before reading from the engine pauses (the engine then
#: blocks on its own output until the reader catches up): memory stays bounded under a flood.
_MAX_QUEUED = 10_000
#: Longest partial line (no newline yet) kept; a longer one is dropped with a warning.
_MAX_PARTIAL = 1 << 20
#: Output lines an engine may write while no command runs before a warning is logged. Such
#: lines are never kept (nothing would read them): each is logged at debug level and dropped.
_IDLE_WARN = 100
#: Infos an ``analysis()`` keeps for a caller that does not iterate; older ones are dropped.
ANALYSIS_QUEUE = 1000
#: Options kept from one handshake; an engine announcing more has the rest skipped.
_MAX_OPTIONS = 4096
#: Seconds to wait for the exit status after SIGKILL.
_KILL_WAIT = 5.0


def _grace(timeout: float | None) -> float:
    """How long a polite request (quit, stop) is given before the engine is killed."""
    return DEFAULT_TIMEOUT if timeout is None else timeout


def _check_timeout(timeout: object, what: str = "timeout") -> None:
    if timeout is not None and not (_is_seconds(timeout) and timeout > 0):  # type: ignore[operator]
        raise ValueError(
            f"{what} must be None or a positive number of seconds, got {timeout!r:.40}"
        )


class EngineProtocol(asyncio.SubprocessProtocol):
    """One engine process: handshake, options, play, analyse; commands run one at a time.

    The shared base of :class:`UciProtocol` and :class:`UcciProtocol`, which hold everything
    that differs between the dialects (greeting, option lines, setoption, position, go).
    Start one with :func:`popen_uci` or :func:`popen_ucci`. Every command awaits the engine
    with a timeout; a search still running (analysis, pondering) is stopped before the next
    command is sent, and so is a search whose command was cancelled (Ctrl-C in SimpleEngine).
    """

    dialect: Dialect | None = None
    #: The greeting and its answer.
    _hello: tuple[str, str] = ("uci", "uciok")

    def __init__(self, timeout: float | None = DEFAULT_TIMEOUT) -> None:
        _check_timeout(timeout)
        self.timeout = timeout
        self.id: dict[str, str] = {}
        self.options: dict[str, Option] = {}
        self.config: dict[str, str] = {}
        self.returncode: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._transport: asyncio.SubprocessTransport | None = None
        self._lines: collections.deque[str | None] = collections.deque()
        self._waiters: list[asyncio.Future[None]] = []
        self._buffer: dict[int, bytearray] = {1: bytearray(), 2: bytearray()}
        self._lock = asyncio.Lock()
        self._background: AnalysisResult | None = None
        self._closed = False
        self._paused = False
        #: A search whose command was cancelled is still running: stop it before the next.
        self._stale_search = False
        #: Lines dropped since the last command (the engine wrote them while none ran).
        self._dropped = 0

    # transport callbacks

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.SubprocessTransport)
        self._transport = transport
        LOGGER.debug("%s: started", self)

    def pipe_data_received(self, fd: int, data: bytes | str) -> None:
        if isinstance(data, str):
            data = data.encode()
        buffer = self._buffer.setdefault(fd, bytearray())
        pieces = data.split(b"\n")
        if len(pieces) > 1:
            first = bytes(buffer) + pieces[0]
            buffer.clear()
            for raw in (first, *pieces[1:-1]):
                self._line_received(fd, raw)
        if len(buffer) + len(pieces[-1]) > _MAX_PARTIAL:
            LOGGER.warning("%s: dropping an over-long line without newline", self)
            buffer.clear()
        else:
            buffer += pieces[-1]

    def _line_received(self, fd: int, raw: bytes) -> None:
        line = raw.decode("utf-8", "replace").rstrip("\r")
        if fd == 1:
            LOGGER.debug("%s >> %s", self, line)
            self._push_line(line)
        else:
            LOGGER.debug("%s (stderr) >> %s", self, line)

    def _busy(self) -> bool:
        """Is a command (or a background search) waiting for the engine's output?"""
        return self._lock.locked() or self._background is not None

    def _push_line(self, line: str | None) -> None:
        """Queue a line of output (None: the output has ended) and wake the reader."""
        if line is not None and not self._busy():
            # No command runs: nothing will read this line, so it is not kept. The bestmove
            # of a search abandoned by a cancelled command ends that search.
            if self._stale_search and _tokens(line)[:1] in (["bestmove"], ["nobestmove"]):
                self._stale_search = False
                LOGGER.debug("%s: the abandoned search ended: %s", self, _quote(line))
                return
            self._dropped += 1
            if self._dropped == _IDLE_WARN:
                LOGGER.warning(
                    "%s: the engine wrote %d lines while no command ran; dropping them",
                    self,
                    _IDLE_WARN,
                )
            return
        self._lines.append(line)
        if len(self._lines) > _MAX_QUEUED and not self._paused:
            self._set_reading(False)
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)

    def _set_reading(self, on: bool) -> None:
        """Pause or resume reading the engine's output (backpressure on a flood)."""
        pipe = self._transport.get_pipe_transport(1) if self._transport is not None else None
        if isinstance(pipe, asyncio.ReadTransport) and not pipe.is_closing():
            if on:
                pipe.resume_reading()
            else:
                pipe.pause_reading()
        self._paused = not on

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        if fd == 1:
            self._lines.append(None)
            self._wake()

    def process_exited(self) -> None:
        assert self._transport is not None
        code = self._transport.get_returncode()
        LOGGER.debug("%s: exited with %s", self, code)
        if not self.returncode.done():
            self.returncode.set_result(code if code is not None else -1)
        self._lines.append(None)
        self._wake()

    def _wake(self) -> None:
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)

    def __repr__(self) -> str:
        pid = self._transport.get_pid() if self._transport is not None else None
        dialect = self.dialect.value if self.dialect is not None else None
        return f"<{type(self).__name__} pid={pid} dialect={dialect}>"

    # wire helpers

    def send_line(self, line: str) -> None:
        """Write one command line to the engine (EngineTerminatedError if it has gone)."""
        if self._transport is None or self.returncode.done():
            raise EngineTerminatedError(f"engine has exited; cannot send {line!r:.{_QUOTE}}")
        pipe = self._transport.get_pipe_transport(0)
        if pipe is None or pipe.is_closing():
            raise EngineTerminatedError(f"engine input is closed; cannot send {line!r:.{_QUOTE}}")
        data = (line + "\n").encode()  # before writing: a line that cannot be sent sends nothing
        LOGGER.debug("%s << %s", self, line)
        assert isinstance(pipe, asyncio.WriteTransport)
        pipe.write(data)

    def _send_quietly(self, line: str) -> None:
        try:
            self.send_line(line)
        except EngineTerminatedError:
            pass

    async def _read_line(self, deadline: float | None, waiting_for: str) -> str:
        loop = asyncio.get_running_loop()
        # Wait on a bare "lines arrived" future, never on a queue read: if a timeout races
        # the arrival, no line is lost (wait_for before 3.11 could drop a finished result).
        # The deadline is checked before every line, queued or not: a flood of queued output
        # cannot hold a command past its timeout.
        while True:
            if self._lines and self._lines[0] is None:
                break
            if deadline is not None and loop.time() >= deadline:
                raise EngineError(f"engine timed out while waiting for {waiting_for}")
            if self._lines:
                break
            waiter = loop.create_future()
            self._waiters.append(waiter)
            try:
                await asyncio.wait_for(waiter, None if deadline is None else deadline - loop.time())
            except asyncio.TimeoutError:
                pass  # the loop's deadline check raises
            finally:
                if waiter in self._waiters:
                    self._waiters.remove(waiter)
        line = self._lines.popleft()
        if self._paused and len(self._lines) < _MAX_QUEUED // 2:
            self._set_reading(True)
        if line is None:
            self._lines.appendleft(None)  # every later reader sees the end too
            if not self.returncode.done():  # output closed: the exit status follows shortly
                try:
                    await asyncio.wait_for(asyncio.shield(self.returncode), 1.0)
                except asyncio.TimeoutError:
                    pass
            code = self.returncode.result() if self.returncode.done() else None
            raise EngineTerminatedError(
                f"engine exited (code {code}) while we waited for {waiting_for}"
            )
        return line

    def _deadline(self, seconds: float | None) -> float | None:
        return None if seconds is None else asyncio.get_running_loop().time() + seconds

    def _option(self, name: str) -> Option | None:
        option = self.options.get(name)
        if option is not None:
            return option
        for key, option in self.options.items():
            if key.lower() == name.lower():
                return option
        return None

    # dialect hooks (the subclasses)

    def _read_option(self, tokens: list[str]) -> Option | None:
        raise NotImplementedError

    async def _after_handshake(self) -> None:
        raise NotImplementedError

    def _setoption(self, name: str, text: str) -> None:
        raise NotImplementedError

    def _position_lines(self, pos: Position, root_moves: Iterable[Move] | None) -> list[str]:
        raise NotImplementedError

    def _go_line(self, limit: Limit, pos: Position, root_moves: Iterable[Move] | None) -> str:
        raise NotImplementedError

    def _check_limit(self, limit: Limit) -> None:
        """Refuse a limit the dialect cannot send (before anything is sent)."""

    @property
    def _style(self) -> IccsStyle:
        return self.dialect.iccs_style if self.dialect is not None else "iccs"

    # commands

    async def initialize(self) -> None:
        """The handshake: uci or ucci, id and option lines, then isready."""
        hello, done = self._hello
        async with self._command():
            self.send_line(hello)
            deadline = self._deadline(self.timeout)
            while True:
                line = await self._read_line(deadline, done)
                tokens = _tokens(line)
                if not tokens:
                    continue
                if tokens[0] == done:
                    break
                ident = _parse_id(tokens)
                if ident is not None:
                    if len(self.id) < 64 or ident[0] in self.id:
                        self.id[ident[0]] = ident[1][:_QUOTE]
                elif tokens[0] == "option":
                    option = self._read_option(tokens)
                    if option is None:
                        LOGGER.warning("%s: skipping malformed option line %s", self, _quote(line))
                    elif len(self.options) >= _MAX_OPTIONS and option.name not in self.options:
                        LOGGER.warning(
                            "%s: more than %d options; skipping %s",
                            self,
                            _MAX_OPTIONS,
                            _quote(line),
                        )
                    else:
                        self.options[option.name] = option
                else:
                    LOGGER.debug("%s: skipping %s during the handshake", self, _quote(line))
            await self._after_handshake()
            await self._ping()

    async def _ping(self) -> None:
        self.send_line("isready")
        deadline = self._deadline(self.timeout)
        while True:
            line = await self._read_line(deadline, "readyok")
            if line.strip() == "readyok":
                return
            LOGGER.debug("%s: skipping %s before readyok", self, _quote(line))

    @contextlib.asynccontextmanager
    async def _command(self) -> AsyncIterator[None]:
        """Run one command: take the lock, end any search still running and drop stale
        output first; drop what is left unread afterwards (unless a search goes on)."""
        async with self._lock:
            try:
                await self._stop_background()
                if self._stale_search:
                    self._stale_search = False
                    await self._recover()
                self._discard_lines()
                if self._dropped:
                    LOGGER.debug("%s: %d lines came while no command ran", self, self._dropped)
                    self._dropped = 0
                yield
            finally:
                if self._background is None:
                    self._discard_lines()

    def _discard_lines(self) -> None:
        """Drop queued output nobody will read (keeping the end-of-output mark); resume
        reading if a flood had paused it."""
        ended = bool(self._lines) and self._lines[-1] is None
        stale = len(self._lines) - ended
        if stale and self._stale_search:
            # The abandoned search's bestmove may already be here, unread: then it is over
            # (waiting for another one would end in a kill).
            for line in self._lines:
                if line is not None and _tokens(line)[:1] in (["bestmove"], ["nobestmove"]):
                    self._stale_search = False
                    break
        if stale:
            LOGGER.debug("%s: dropping %d unread lines", self, stale)
            self._lines.clear()
            if ended:
                self._lines.append(None)
        if self._paused:
            self._set_reading(True)

    async def ping(self) -> None:
        """Send isready and wait for readyok."""
        async with self._command():
            await self._ping()

    async def configure(self, options: Mapping[str, object]) -> None:
        """Set options after checking every one (EngineOptionError before anything is sent)."""
        if not isinstance(options, Mapping):
            raise TypeError(f"options must be a mapping, got {type(options).__name__}")
        texts: list[tuple[str, str]] = []
        for name, value in options.items():
            if not isinstance(name, str):
                raise TypeError(f"option names are str, got {type(name).__name__}")
            option = self._option(name)
            if option is None:
                known = ", ".join(sorted(self.options)[:50]) or "none"
                raise EngineOptionError(
                    f"engine has no option {name!r:.{_QUOTE}}; it offers: {known}"
                )
            if option.name.lower() in ("uci_variant", "multipv", "usemillisec"):
                raise EngineOptionError(
                    f"option {option.name!r} is managed by xiangqi.engine; it cannot be set"
                )
            texts.append((option.name, option.parse(value)))
        async with self._command():
            for name, text in texts:
                self._setoption(name, text)
            await self._ping()

    def _search_deadline(self, limit: Limit, pos: Position, timeout: float | None) -> float | None:
        """When a search is abandoned: timeout if given; else the move time or the mover's
        clock (plus its increment) and a grace period; else DEFAULT_SEARCH_TIMEOUT."""
        if timeout is not None:
            return self._deadline(timeout)
        grace = _grace(self.timeout)
        if limit.time is not None:
            return self._deadline(limit.time + grace)
        clock = limit.clock(pos.turn)
        if clock is not None:
            return self._deadline(clock + (limit.inc(pos.turn) or 0.0) + grace)
        if limit.is_empty():
            return None
        return self._deadline(DEFAULT_SEARCH_TIMEOUT)

    def _parse_move(self, pos: Position, text: str, line: str) -> Move:
        return _parse_move(pos, text, line, self.dialect)

    def _parse_info(self, pos: Position, line: str) -> Info:
        return _parse_info(pos, line, self.dialect, self)

    async def _recover(self) -> None:
        """After a search timed out or was abandoned: stop it and drain its bestmove, or
        kill an engine that does not answer within the timeout."""
        try:
            self.send_line("stop")
            deadline = self._deadline(_grace(self.timeout))
            while _tokens(await self._read_line(deadline, "bestmove after stop"))[:1] not in (
                ["bestmove"],
                ["nobestmove"],
            ):
                pass
        except EngineTerminatedError:
            raise
        except EngineError:
            self._kill("no bestmove after stop")

    def _kill(self, why: str) -> None:
        """Kill an engine that no longer follows the protocol; later commands then fail."""
        LOGGER.warning("%s: %s; killing the engine", self, why)
        self._closed = True
        self._kill_now()

    def _kill_now(self) -> None:
        if self._transport is not None and not self.returncode.done():
            try:
                self._transport.kill()
            except ProcessLookupError:
                pass

    async def _stop_background(self) -> None:
        """Stop a running analysis or ponder search and wait (bounded) for its bestmove."""
        background = self._background
        if background is None:
            return
        self._background = None
        background.stop()
        try:
            await background.wait()
        except EngineTerminatedError:
            raise
        except EngineError as exc:
            LOGGER.warning("%s: the stopped search ended badly: %s", self, exc)

    async def _start(
        self,
        pos: Position,
        limit: Limit,
        multipv: int | None,
        root_moves: Iterable[Move] | None,
        ponder: bool = False,
    ) -> None:
        option = self._option("MultiPV")
        wanted = str(multipv or 1)
        if option is not None and self.config.get(option.name, str(option.default)) != wanted:
            self._setoption("MultiPV", wanted)
        lines = self._position_lines(pos, root_moves)
        go = self._go_line(limit, pos, root_moves)
        if ponder:
            go = go.replace("go", "go ponder", 1)
        for line in lines:
            self.send_line(line)
        self.send_line(go)

    def _check_search(
        self,
        pos: Position,
        limit: Limit | None,
        multipv: int | None,
        root_moves: Iterable[Move] | None,
        *,
        open_ended: bool = False,
    ) -> list[Move] | None:
        """Check a search's arguments before anything is stopped or sent; the root moves."""
        if not isinstance(pos, Position):
            raise TypeError(f"expected a Position, got {type(pos).__name__}")
        if limit is not None and not isinstance(limit, Limit):
            raise TypeError(f"expected a Limit, got {type(limit).__name__}")
        if not open_ended and (limit is None or limit.is_empty()):
            raise ValueError(
                "an empty Limit() searches until stopped, so this call would never return: "
                "give a time, depth, nodes, mate or clock, or use analysis()"
            )
        if limit is not None:
            self._check_limit(limit)
        if multipv is not None and (
            isinstance(multipv, bool) or not isinstance(multipv, int) or multipv < 1
        ):
            raise ValueError(f"multipv must be a positive int, got {multipv!r:.40}")
        if (multipv or 1) > 1 and self._option("MultiPV") is None:
            raise EngineOptionError("engine has no MultiPV option; multipv must be 1")
        if root_moves is None:
            return None
        moves = list(root_moves)
        for move in moves:
            if not isinstance(move, Move):
                raise TypeError(f"root moves are Moves, got {type(move).__name__}")
            if not pos.is_legal(move):
                raise XiangqiError(f"root move {move} is not legal in {pos.fen()!r}")
        if not moves:
            raise XiangqiError("root_moves is empty; pass None to search every move")
        return moves

    def _bestmove(self, pos: Position, line: str) -> PlayResult:
        return _parse_bestmove(pos, line, self.dialect)

    async def _search(
        self,
        pos: Position,
        limit: Limit,
        multipv: int | None,
        root_moves: Iterable[Move] | None,
        timeout: float | None,
    ) -> tuple[PlayResult, list[Info]]:
        try:
            await self._start(pos, limit, multipv, root_moves)
            return await self._collect(pos, limit, multipv, timeout)
        except asyncio.CancelledError:
            # The caller gave up (Ctrl-C): the engine still searches. Ask it to stop; the
            # next command waits (bounded) for the bestmove, and idle output is dropped.
            self._stale_search = True
            self._send_quietly("stop")
            raise

    async def _collect(
        self, pos: Position, limit: Limit, multipv: int | None, timeout: float | None
    ) -> tuple[PlayResult, list[Info]]:
        deadline = self._search_deadline(limit, pos, timeout)
        infos: dict[int, Info] = {}
        while True:
            try:
                line = await self._read_line(deadline, "bestmove")
            except EngineTerminatedError:
                raise
            except EngineError:
                await self._recover()
                raise
            head = _tokens(line)[:1]
            if head == ["info"]:
                info = self._parse_info(pos, line)
                # Lines past the ones asked for are not kept: an engine numbering its lines
                # 1, 2, 3, ... without end must not grow this dict without end.
                if ("pv" in info or "score" in info) and info.get("multipv", 1) <= (multipv or 1):
                    entry = infos.setdefault(info.get("multipv", 1), {})
                    _merge(entry, info)
            elif head in (["bestmove"], ["nobestmove"]):
                result = self._bestmove(pos, line)
                ranked = [infos[k] for k in sorted(infos)]
                result.info = ranked[0] if ranked else {}
                return result, ranked[: multipv or 1]
            else:
                LOGGER.debug("%s: skipping %s during search", self, _quote(line))

    async def play(
        self,
        pos: Position,
        limit: Limit,
        *,
        ponder: bool = False,
        root_moves: Iterable[Move] | None = None,
        timeout: float | None = None,
    ) -> PlayResult:
        """Ask for a move in pos. With ponder=True the engine goes on thinking on its ponder
        move in the background until the next command. An empty Limit() is refused."""
        _check_timeout(timeout)
        root_moves = self._check_search(pos, limit, None, root_moves)
        async with self._command():
            result, _ = await self._search(pos, limit, None, root_moves, timeout)
            if ponder and result.move is not None and result.ponder is not None:
                after = pos.copy()
                after.push(result.move)
                after.push(result.ponder)
                background = AnalysisResult(self, after, Limit(), None)
                await self._start(after, Limit(), None, None, ponder=True)
                self._background = background
                background.start_reading()
            return result

    async def analyse(
        self,
        pos: Position,
        limit: Limit,
        *,
        multipv: int | None = None,
        root_moves: Iterable[Move] | None = None,
        timeout: float | None = None,
    ) -> Info | list[Info]:
        """Search pos to the limit; the last info (a list of them, best first, with multipv).
        An empty Limit() is refused (use analysis())."""
        _check_timeout(timeout)
        root_moves = self._check_search(pos, limit, multipv, root_moves)
        async with self._command():
            _, infos = await self._search(pos, limit, multipv, root_moves, timeout)
        if multipv is None:
            return infos[0] if infos else {}
        return infos

    async def analysis(
        self,
        pos: Position,
        limit: Limit | None = None,
        *,
        multipv: int | None = None,
        root_moves: Iterable[Move] | None = None,
    ) -> AnalysisResult:
        """Start a search and return at once; iterate the result for info, stop() it early.
        Without a limit (or with Limit()) the engine searches until stopped (go infinite)."""
        root_moves = self._check_search(pos, limit, multipv, root_moves, open_ended=True)
        limit = limit or Limit()
        async with self._command():
            result = AnalysisResult(self, pos.copy(), limit, multipv)
            try:
                await self._start(pos, limit, multipv, root_moves)
            except asyncio.CancelledError:
                self._stale_search = True
                self._send_quietly("stop")
                raise
            self._background = result
            result.start_reading()
        return result

    async def quit(self, grace: float | None = None) -> None:
        """Send quit, wait up to grace seconds (default: the timeout) for the process to
        exit, and kill it if it has not. Cancelling this kills the engine at once."""
        _check_timeout(grace, "grace")
        if not self._closed:
            self._closed = True
            # Not under the lock: a command stuck on a silent engine must not delay the kill.
            background, self._background = self._background, None
            if background is not None:
                background.cancel()
            if not self.returncode.done():
                self._send_quietly("quit")
        await self._reap(_grace(self.timeout) if grace is None else grace)

    async def _abort(self) -> None:
        """Kill the engine at once (if it runs), reap it and close its pipes."""
        self._closed = True
        background, self._background = self._background, None
        if background is not None:
            background.cancel()
        self._kill_now()
        await self._reap(0.0)

    async def _reap(self, grace: float) -> None:
        if self._transport is None:
            return
        try:
            try:
                if not self.returncode.done():
                    if grace <= 0:
                        raise asyncio.TimeoutError
                    await asyncio.wait_for(asyncio.shield(self.returncode), grace)
            except asyncio.TimeoutError:
                if grace > 0:
                    LOGGER.warning("%s: ignored quit for %.1f s; killing it", self, grace)
                self._kill_now()
                await asyncio.wait_for(asyncio.shield(self.returncode), _KILL_WAIT)
            except asyncio.CancelledError:
                self._kill_now()  # interrupted while waiting politely: do not wait longer
                # Reap before closing the transport (its close() polls the process and would
                # reap it first, leaving the child watcher an unknown pid).
                with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                    await asyncio.wait_for(asyncio.shield(self.returncode), _KILL_WAIT)
                raise
        except asyncio.TimeoutError:
            LOGGER.warning("%s: no exit status %.1f s after SIGKILL", self, _KILL_WAIT)
        finally:
            self._transport.close()
            self._buffer = {1: bytearray(), 2: bytearray()}


class UciProtocol(EngineProtocol):
    """UCI as Pikafish (ranks 0..9) and Fairy-Stockfish (ranks 1..10, UCI_Variant) speak it.

    The dialect (:attr:`Dialect.UCI` or :attr:`Dialect.FAIRY`) is detected from the options
    unless given: an engine offering ``UCI_Variant`` with ``xiangqi`` among its choices is
    Fairy-Stockfish, and ``setoption name UCI_Variant value xiangqi`` is sent for it.
    """

    _hello = ("uci", "uciok")

    def __init__(self, timeout: float | None = DEFAULT_TIMEOUT, dialect: Dialect | None = None):
        if dialect is Dialect.UCCI or (dialect is not None and not isinstance(dialect, Dialect)):
            raise ValueError(f"UciProtocol speaks Dialect.UCI or Dialect.FAIRY, not {dialect!r}")
        super().__init__(timeout)
        self.dialect = dialect

    def _read_option(self, tokens: list[str]) -> Option | None:
        return _parse_option(tokens, Dialect.UCI)

    async def _after_handshake(self) -> None:
        variant = self._option("UCI_Variant")
        has_xiangqi = variant is not None and "xiangqi" in variant.var
        if self.dialect is None:
            self.dialect = Dialect.FAIRY if has_xiangqi else Dialect.UCI
        if self.dialect is Dialect.FAIRY:
            if not has_xiangqi:
                raise EngineError("engine offers no UCI_Variant xiangqi; is it Fairy-Stockfish?")
            self._setoption("UCI_Variant", "xiangqi")

    def _setoption(self, name: str, text: str) -> None:
        option = self._option(name)
        wire = option.name if option is not None else name
        if option is not None and option.type == "button":
            self.send_line(f"setoption name {wire}")
        else:
            self.send_line(f"setoption name {wire} value {text}")
        self.config[wire] = text

    def _position_lines(self, pos: Position, root_moves: Iterable[Move] | None) -> list[str]:
        root = pos.copy()
        moves: list[Move] = []
        while root.move_stack:
            moves.append(root.pop())
        moves.reverse()
        line = f"position fen {root.fen()}"
        if moves:
            line += " moves " + " ".join(iccs(m, self._style) for m in moves)
        return [line]

    def _go_line(self, limit: Limit, pos: Position, root_moves: Iterable[Move] | None) -> str:
        parts = ["go"]
        # UCI's clock fields, in milliseconds: "w" is the side that moves first, Red.
        for word, seconds in (("wtime", limit.red_clock), ("btime", limit.black_clock)):
            if seconds is not None:
                parts += [word, str(max(1, round(seconds * 1000)))]
        for word, seconds in (("winc", limit.red_inc), ("binc", limit.black_inc)):
            if seconds is not None:
                parts += [word, str(round(seconds * 1000))]
        if limit.remaining_moves is not None:
            parts += ["movestogo", str(limit.remaining_moves)]
        if limit.time is not None:
            parts += ["movetime", str(max(1, round(limit.time * 1000)))]
        if limit.depth is not None:
            parts += ["depth", str(limit.depth)]
        if limit.nodes is not None:
            parts += ["nodes", str(limit.nodes)]
        if limit.mate is not None:
            parts += ["mate", str(limit.mate)]
        if root_moves is not None:
            parts += ["searchmoves"] + [iccs(m, self._style) for m in root_moves]
        if limit.is_empty():
            parts.append("infinite")
        return " ".join(parts)


class UcciProtocol(EngineProtocol):
    """UCCI, the protocol of ElephantEye (its author's specification, "中国象棋通用引擎协议"
    version 3.0, www.xqbase.com/protocol/cchess_ucci.htm).

    ``ucci``/``ucciok``; ``option NAME type ...``; ``setoption NAME VALUE``; ranks 0..9; the
    position is sent from the last capture; ``banmoves`` for excluded root moves; and, per
    the spec's section on ``go``, a clock is sent as ``go time T [movestogo M | increment I]
    [opptime OT [oppmovestogo OM | oppincrement OI]]`` for the side to move and its opponent,
    in seconds, or in milliseconds once the engine's ``usemillisec`` option is switched on.
    The spec makes movestogo (moves per period) and increment alternatives: movestogo is
    sent when the Limit has remaining_moves, else the increment.

    ``millisec`` chooses the time unit: None (the default) uses milliseconds when the engine
    offers ``usemillisec`` (and switches it on), and also for an engine without it that
    offers Fairy-Stockfish's ``Protocol`` option: Debian's Fairy-Stockfish 11.1 reads UCCI
    times as milliseconds and has no usemillisec (measured: ``go time 3`` ends in 12 ms);
    otherwise whole seconds, rounded down, as the spec says.
    """

    dialect = Dialect.UCCI
    _hello = ("ucci", "ucciok")

    def __init__(self, timeout: float | None = DEFAULT_TIMEOUT, millisec: bool | None = None):
        if millisec is not None and not isinstance(millisec, bool):
            raise TypeError(f"millisec must be None or a bool, got {millisec!r:.40}")
        super().__init__(timeout)
        self.millisec = millisec

    def _read_option(self, tokens: list[str]) -> Option | None:
        return _parse_option(tokens, Dialect.UCCI)

    async def _after_handshake(self) -> None:
        offers = self._option("usemillisec") is not None
        if self.millisec is None:
            self.millisec = offers or self._option("Protocol") is not None
        if offers:
            self._setoption("usemillisec", "true" if self.millisec else "false")

    def _setoption(self, name: str, text: str) -> None:
        option = self._option(name)
        wire = option.name if option is not None else name
        self.send_line(f"setoption {wire} {text}".rstrip())
        self.config[wire] = text

    def _position_lines(self, pos: Position, root_moves: Iterable[Move] | None) -> list[str]:
        root = pos.copy()
        moves: list[Move] = []
        while root.move_stack and root.halfmove_clock != 0:
            moves.append(root.pop())  # UCCI: the last capture (or the root) starts the history
        moves.reverse()
        line = f"position fen {root.fen()}"
        if moves:
            line += " moves " + " ".join(iccs(m, self._style) for m in moves)
        lines = [line]
        if root_moves is not None:
            wanted = set(root_moves)
            banned = [m for m in pos.legal_moves() if m not in wanted]
            if banned:
                lines.append("banmoves " + " ".join(iccs(m, self._style) for m in banned))
        return lines

    def _check_limit(self, limit: Limit) -> None:
        if limit.time is not None and (
            limit.red_clock is not None or limit.black_clock is not None
        ):
            raise ValueError(
                "UCCI has one 'time' field: give a Limit either a move time or clocks, not both"
            )

    def _units(self, seconds: float, least: int) -> str:
        if self.millisec:
            return str(max(least, round(seconds * 1000)))
        return str(max(least, math.floor(seconds)))

    def _go_line(self, limit: Limit, pos: Position, root_moves: Iterable[Move] | None) -> str:
        parts = ["go"]
        if limit.depth is not None:
            parts += ["depth", str(limit.depth)]
        if limit.nodes is not None:
            parts += ["nodes", str(limit.nodes)]
        if limit.time is not None:
            parts += ["time", self._units(limit.time, 1), "movestogo", "1"]
        own, opp = limit.clock(pos.turn), limit.clock(Color(1 - pos.turn))
        if own is not None:
            parts += ["time", self._units(own, 1 if self.millisec else 0)]
            own_inc = limit.inc(pos.turn)
            if limit.remaining_moves is not None:
                parts += ["movestogo", str(limit.remaining_moves)]
            elif own_inc is not None:
                parts += ["increment", self._units(own_inc, 0)]
            if opp is not None:
                parts += ["opptime", self._units(opp, 1 if self.millisec else 0)]
                opp_inc = limit.inc(Color(1 - pos.turn))
                if limit.remaining_moves is not None:
                    parts += ["oppmovestogo", str(limit.remaining_moves)]
                elif opp_inc is not None:
                    parts += ["oppincrement", self._units(opp_inc, 0)]
        if limit.is_empty() or (limit.mate is not None and len(parts) == 1):
            parts += ["depth", "infinite"]
        return " ".join(parts)


def _merge(entry: Info, info: Info) -> None:
    """Update a line's info with a newer one; a bound flag holds only for its own score."""
    if "score" in info:
        entry.pop("lowerbound", None)
        entry.pop("upperbound", None)
    entry.update(info)


class AnalysisResult:
    """A running search: iterate (``async for``) over its info dicts, ``stop()`` it, ``wait()``.

    ``info`` merges everything seen for the first line, ``multipv`` holds the latest info per
    line (best first), and ``wait()`` returns the engine's final PlayResult. At most
    ANALYSIS_QUEUE infos wait to be iterated; a caller that only polls ``info`` loses the
    oldest ones, never memory.
    """

    def __init__(
        self, protocol: EngineProtocol, pos: Position, limit: Limit, multipv: int | None
    ) -> None:
        self._protocol = protocol
        self._pos = pos
        self._limit = limit
        self._infos: collections.deque[Info] = collections.deque(maxlen=ANALYSIS_QUEUE)
        self._ended = False
        self._waiter: asyncio.Future[None] | None = None
        self._lines: dict[int, Info] = {}
        self._task: asyncio.Task[PlayResult] | None = None
        self._stopped = False
        self._deadline: float | None = None
        self._multipv = multipv or 1
        self._dropped = 0
        self.info: Info = {}

    @property
    def multipv(self) -> list[Info]:
        """The latest info of each line, best first."""
        return [self._lines[k] for k in sorted(self._lines)][: self._multipv]

    def start_reading(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._read())
        # A background search nobody waits for (a ponder search at close) may end in an
        # error: mark it seen, so asyncio does not log "exception was never retrieved";
        # wait() and iteration still raise it.
        self._task.add_done_callback(lambda task: task.cancelled() or task.exception())

    def _put(self, info: Info) -> None:
        if len(self._infos) == ANALYSIS_QUEUE:
            self._dropped += 1
            if self._dropped == 1:
                LOGGER.debug("%s: analysis infos not read; dropping the oldest", self._protocol)
        self._infos.append(info)
        self._notify()

    def _notify(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    async def _read(self) -> PlayResult:
        protocol = self._protocol
        self._deadline = protocol._search_deadline(self._limit, self._pos, None)
        ended = False
        try:
            loop = asyncio.get_running_loop()
            while True:
                # Wait in short slices: stop() may bring the deadline forward meanwhile.
                tick = loop.time() + 0.25
                deadline = self._deadline
                try:
                    line = await protocol._read_line(
                        tick if deadline is None else min(tick, deadline), "bestmove"
                    )
                except EngineTerminatedError:
                    ended = True
                    raise
                except EngineError:
                    if self._deadline is None or loop.time() < self._deadline:
                        continue
                    ended = True
                    protocol._kill("search did not end in time")
                    raise
                head = _tokens(line)[:1]
                if head == ["info"]:
                    info = protocol._parse_info(self._pos, line)
                    line_number = info.get("multipv", 1)
                    if ("pv" in info or "score" in info) and line_number <= self._multipv:
                        _merge(self._lines.setdefault(line_number, {}), info)
                        if info.get("multipv", 1) == 1:
                            _merge(self.info, info)
                    self._put(info)
                elif head in (["bestmove"], ["nobestmove"]):
                    ended = True
                    result = protocol._bestmove(self._pos, line)
                    result.info = dict(self.info)
                    return result
                else:
                    LOGGER.debug("%s: skipping %s during analysis", protocol, _quote(line))
        finally:
            if not ended and not protocol._closed:
                # Cancelled or failed mid-search: the engine's bestmove is still to come.
                protocol._stale_search = True
            self._ended = True
            self._notify()
            if protocol._background is self:
                protocol._background = None

    def stop(self) -> None:
        """Ask the engine to stop (it then sends its bestmove); safe to call twice."""
        if not self._stopped and self._task is not None and not self._task.done():
            self._stopped = True
            # The bestmove must follow within the protocol's timeout, or the engine is killed.
            soon = self._protocol._deadline(_grace(self._protocol.timeout))
            assert soon is not None
            self._deadline = soon if self._deadline is None else min(self._deadline, soon)
            self._protocol._send_quietly("stop")

    def cancel(self) -> None:
        """Stop reading at once (used on close)."""
        if self._task is not None:
            self._task.cancel()

    async def wait(self) -> PlayResult:
        """Wait for the search to end; its PlayResult (errors from the engine re-raised)."""
        assert self._task is not None
        return await self._task

    def _end(self) -> None:
        """At the end of the infos: the search's error, or StopAsyncIteration."""
        task = self._task
        if task is not None and task.done() and not task.cancelled():
            exc = task.exception()
            if exc is not None:
                raise exc
        raise StopAsyncIteration

    def get_nowait(self) -> Info | None:
        """The next queued info, or None when none is queued (the search may go on)."""
        if self._infos:
            return self._infos.popleft()
        return None

    async def get(self) -> Info:
        """The next info; StopAsyncIteration once the search has ended."""
        while not self._infos:
            if self._ended:
                self._end()
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._infos.popleft()

    def __aiter__(self) -> AnalysisResult:
        return self

    async def __anext__(self) -> Info:
        return await self.get()


def _argv(command: Command) -> list[str]:
    if isinstance(command, str):
        return [command]
    if isinstance(command, Sequence) and command and all(isinstance(a, str) for a in command):
        return list(command)
    raise TypeError(f"engine command must be a str or a list of str, got {command!r:.100}")


def _check_env(cwd: object, env: object) -> dict[str, str] | None:
    if cwd is not None and not isinstance(cwd, (str, os.PathLike)):
        raise TypeError(f"cwd must be a path or None, got {type(cwd).__name__}")
    if env is None:
        return None
    if not isinstance(env, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in env.items()
    ):
        raise TypeError("env must be a mapping of str to str, or None")
    return dict(env)


async def _popen(
    factory: Callable[[], EngineProtocol],
    command: Command,
    cwd: str | os.PathLike[str] | None,
    env: Mapping[str, str] | None,
    created: Callable[[EngineProtocol], None] | None = None,
) -> tuple[asyncio.SubprocessTransport, EngineProtocol]:
    argv = _argv(command)
    environment = _check_env(cwd, env)

    def make() -> EngineProtocol:
        protocol = factory()
        if created is not None:
            created(protocol)  # the caller can reap it even if this coroutine is cancelled
        return protocol

    loop = asyncio.get_running_loop()
    try:
        transport, protocol = await loop.subprocess_exec(
            make,
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=cwd,
            env=environment,
        )
    except FileNotFoundError:
        if cwd is not None and not os.path.isdir(cwd):
            raise EngineError(
                f"engine working directory not found: {str(cwd)!r:.{_QUOTE}}"
            ) from None
        raise EngineError(f"engine not found: {argv[0]!r:.{_QUOTE}}") from None
    except PermissionError:
        raise EngineError(f"engine is not executable: {argv[0]!r:.{_QUOTE}}") from None
    except OSError as exc:
        raise EngineError(f"cannot start engine {argv[0]!r:.{_QUOTE}}: {exc}") from None
    try:
        await protocol.initialize()
    except asyncio.CancelledError:
        await protocol._abort()  # interrupted: no polite quit, no waiting
        raise
    except BaseException:
        await protocol.quit()
        raise
    return transport, protocol


async def popen_uci(
    command: Command,
    *,
    dialect: Dialect | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
) -> tuple[asyncio.SubprocessTransport, UciProtocol]:
    """Start a UCI engine and shake hands; the dialect (UCI or FAIRY) is detected unless given.

    command is a program path (str) or an argv list; cwd is its working directory (Pikafish
    looks for its network file there) and env its environment (None: this process's).
    """
    if dialect is Dialect.UCCI:
        raise ValueError("popen_uci cannot speak UCCI; use popen_ucci")
    _check_timeout(timeout)
    transport, protocol = await _popen(lambda: UciProtocol(timeout, dialect), command, cwd, env)
    assert isinstance(protocol, UciProtocol)
    return transport, protocol


async def popen_ucci(
    command: Command,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    millisec: bool | None = None,
) -> tuple[asyncio.SubprocessTransport, UcciProtocol]:
    """Start a UCCI engine (ElephantEye, or Fairy-Stockfish greeted with ucci); see
    :class:`UcciProtocol` for millisec."""
    _check_timeout(timeout)
    transport, protocol = await _popen(lambda: UcciProtocol(timeout, millisec), command, cwd, env)
    assert isinstance(protocol, UcciProtocol)
    return transport, protocol


# -- the synchronous wrapper ---------------------------------------------------------------


class _Interrupted(Exception):
    """Internal: the caller's own wait on a command ran out."""


class SimpleEngine:
    """A blocking engine client: its protocol's event loop runs in a background thread.

    Use as a context manager, or call ``quit()`` (an alias of ``close()``) when done. One
    SimpleEngine may be shared by threads; its commands run one at a time.

    KeyboardInterrupt (Ctrl-C) in a command cancels it and is re-raised once the engine is in
    a known state: during start-up the engine is killed and nothing is left behind; during a
    search the engine is told to stop and the object stays usable (the next command first
    collects the abandoned search's bestmove, or kills a silent engine); during close() the
    engine is killed at once. Further Ctrl-Cs during that bounded clean-up are absorbed.
    """

    def __init__(
        self,
        start: Callable[
            [Callable[[EngineProtocol], None]],
            Coroutine[Any, Any, tuple[Any, EngineProtocol]],
        ],
        timeout: float | None,
    ) -> None:
        _check_timeout(timeout)
        self.timeout = timeout
        self._closed = True  # until the handshake is done
        self._protocol: EngineProtocol | None = None
        # The loop is made (and closed) by its own thread, which Ctrl-C never interrupts: a
        # KeyboardInterrupt inside new_event_loop() here could leak its epoll fd.
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_error: BaseException | None = None
        self._ready = threading.Event()
        self._done = threading.Event()  # set by the loop thread once the loop is closed
        self._thread = threading.Thread(target=self._run, name="xiangqi-engine", daemon=True)
        try:
            self._thread.start()
            self._ready.wait()
            if self._loop_error is not None:
                raise EngineError(
                    f"cannot start an event loop for the engine: {self._loop_error}"
                ) from self._loop_error
            self._call(start(self._created))
        except BaseException:
            self._shutdown_loop()
            raise
        self._closed = False

    def _created(self, protocol: EngineProtocol) -> None:
        self._protocol = protocol

    def _run(self) -> None:
        """The loop thread: run commands until stopped, then kill and reap whatever is left
        and close the loop here (a thread Ctrl-C never interrupts)."""
        try:
            loop = asyncio.new_event_loop()
        except Exception as exc:  # noqa: BLE001 - reported to the starting thread
            self._loop_error = exc
            self._done.set()
            self._ready.set()
            return
        self._loop = loop
        asyncio.set_event_loop(loop)
        loop.call_soon(self._ready.set)
        try:
            loop.run_forever()
        finally:
            try:
                loop.run_until_complete(self._finalize())
            except Exception as exc:  # noqa: BLE001 - the loop must close whatever happened
                LOGGER.warning("engine clean-up failed: %r", exc)
            finally:
                loop.close()
                self._done.set()

    async def _finalize(self) -> None:
        """Kill the engine if it still runs, then cancel every command left and wait for it."""
        protocol = self._protocol
        if protocol is not None:
            await protocol._abort()
        current = asyncio.current_task()
        tasks = [task for task in asyncio.all_tasks() if task is not current]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=self._cleanup_bound())
        if protocol is not None:
            await protocol._abort()  # in case a cancelled start-up had just spawned it

    @property
    def protocol(self) -> EngineProtocol:
        """The asyncio protocol object driving the engine."""
        if self._protocol is None:
            raise EngineError("engine was never started")
        return self._protocol

    def _cleanup_bound(self) -> float:
        return 2 * _grace(self.timeout) + 2 * _KILL_WAIT

    def _call(self, coro: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        """Run coro on the loop thread and wait. If the wait ends early (timeout, Ctrl-C),
        the command is cancelled and its clean-up awaited before the exception goes on."""
        finished = threading.Event()
        holder: list[asyncio.Task[T]] = []

        loop = self._loop
        if loop is None or self._done.is_set():
            coro.close()
            raise EngineError("engine is closed")

        def start() -> None:
            task = loop.create_task(coro)
            holder.append(task)
            task.add_done_callback(lambda _: finished.set())

        try:
            try:
                loop.call_soon_threadsafe(start)
            except RuntimeError:  # the loop is closed
                coro.close()
                raise EngineError("engine is closed") from None
            if not _wait_while_alive(finished, timeout, self._done):
                raise _Interrupted
        except BaseException as exc:
            self._abandon(holder, finished, coro)
            if isinstance(exc, _Interrupted):
                if self._done.is_set():
                    raise EngineError("engine is closed") from None
                raise EngineError(f"engine command timed out after {timeout} s") from None
            raise
        task = holder[0]
        if task.cancelled():
            raise EngineError("engine command was cancelled: the engine was closed")
        # Exceptions from inside (a builtin TimeoutError from the OS among them) come out
        # as they are: only _Interrupted above is this client's own timeout.
        return task.result()

    def _abandon(
        self,
        holder: list[asyncio.Task[Any]],
        finished: threading.Event,
        coro: Coroutine[Any, Any, Any],
    ) -> None:
        """Cancel a command whose caller gave up, and wait (bounded) until it has cleaned up."""

        def cancel() -> None:
            if holder:
                holder[0].cancel()
            else:  # never scheduled (interrupted before the loop got it)
                coro.close()
                finished.set()

        loop = self._loop
        assert loop is not None
        while True:
            try:
                loop.call_soon_threadsafe(cancel)
                break
            except RuntimeError:  # the loop is closed: nothing runs any more
                coro.close()
                return
            except KeyboardInterrupt:
                continue  # scheduling twice is harmless
        _wait_through_interrupts(finished, self._cleanup_bound(), self._done)

    @classmethod
    def popen_uci(
        cls,
        command: Command,
        *,
        dialect: Dialect | None = None,
        timeout: float | None = DEFAULT_TIMEOUT,
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
    ) -> SimpleEngine:
        """Start a UCI engine (Pikafish-style or Fairy-Stockfish, detected unless given), in
        working directory cwd with environment env (None: this process's)."""
        if dialect is Dialect.UCCI:
            raise ValueError("popen_uci cannot speak UCCI; use popen_ucci")
        if dialect is not None and not isinstance(dialect, Dialect):
            raise TypeError(f"dialect must be a Dialect or None, got {dialect!r:.40}")
        _check_timeout(timeout)
        _argv(command)
        _check_env(cwd, env)
        return cls(
            lambda created: _popen(
                lambda: UciProtocol(timeout, dialect), command, cwd, env, created
            ),
            timeout,
        )

    @classmethod
    def popen_ucci(
        cls,
        command: Command,
        *,
        timeout: float | None = DEFAULT_TIMEOUT,
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        millisec: bool | None = None,
    ) -> SimpleEngine:
        """Start a UCCI engine (ElephantEye, or Fairy-Stockfish greeted with ucci); see
        :class:`UcciProtocol` for millisec."""
        if millisec is not None and not isinstance(millisec, bool):
            raise TypeError(f"millisec must be None or a bool, got {millisec!r:.40}")
        _check_timeout(timeout)
        _argv(command)
        _check_env(cwd, env)
        return cls(
            lambda created: _popen(
                lambda: UcciProtocol(timeout, millisec), command, cwd, env, created
            ),
            timeout,
        )

    @property
    def id(self) -> dict[str, str]:
        """The engine's "id" lines: name, author."""
        return dict(self.protocol.id)

    @property
    def options(self) -> dict[str, Option]:
        """The options the engine announced, by name."""
        return dict(self.protocol.options)

    @property
    def dialect(self) -> Dialect:
        """The protocol flavour in use."""
        dialect = self.protocol.dialect
        assert dialect is not None
        return dialect

    def _guard(self) -> EngineProtocol:
        if self._closed:
            raise EngineError("engine is closed")
        return self.protocol

    def configure(self, options: Mapping[str, object]) -> None:
        """Set engine options; unknown options and bad values raise EngineOptionError first."""
        self._call(self._guard().configure(options))

    def ping(self) -> None:
        """isready / readyok."""
        self._call(self._guard().ping())

    def play(
        self,
        pos: Position,
        limit: Limit,
        *,
        ponder: bool = False,
        root_moves: Iterable[Move] | None = None,
        timeout: float | None = None,
    ) -> PlayResult:
        """The engine's move in pos (checked legal), with its ponder move and last info.
        An empty Limit() raises ValueError (it would never return)."""
        protocol = self._guard()
        return self._call(
            protocol.play(pos, limit, ponder=ponder, root_moves=root_moves, timeout=timeout)
        )

    def analyse(
        self,
        pos: Position,
        limit: Limit,
        *,
        multipv: int | None = None,
        root_moves: Iterable[Move] | None = None,
        timeout: float | None = None,
    ) -> Any:
        """The final info dict of a search (a list of them, best first, when multipv is given).
        An empty Limit() raises ValueError (use analysis())."""
        protocol = self._guard()
        return self._call(
            protocol.analyse(pos, limit, multipv=multipv, root_moves=root_moves, timeout=timeout)
        )

    def analysis(
        self,
        pos: Position,
        limit: Limit | None = None,
        *,
        multipv: int | None = None,
        root_moves: Iterable[Move] | None = None,
    ) -> SimpleAnalysisResult:
        """Start a search; iterate the result for info dicts as they come, stop() it early."""
        protocol = self._guard()
        inner = self._call(protocol.analysis(pos, limit, multipv=multipv, root_moves=root_moves))
        return SimpleAnalysisResult(self, inner)

    def close(self, timeout: float | None = None) -> None:
        """Quit the engine, kill it if it has not exited after timeout seconds (None: the
        engine's timeout, or DEFAULT_TIMEOUT), reap it, and stop the thread. Idempotent."""
        _check_timeout(timeout)
        if self._closed and self._done.is_set():
            return
        self._closed = True
        grace = timeout if timeout is not None else _grace(self.timeout)
        try:
            if self._protocol is not None and not self._done.is_set():
                self._call(self._protocol.quit(grace))
        finally:
            self._shutdown_loop()

    quit = close

    def _shutdown_loop(self) -> None:
        """Stop the loop thread (which then kills and reaps the engine and closes the loop)
        and wait for it. A Ctrl-C meanwhile is held back until the thread has ended."""
        self._closed = True
        interrupt: BaseException | None = None
        for _ in range(100):  # Thread.start() interrupted: the thread may be about to run
            if self._thread.ident is not None:
                break
            try:
                time.sleep(0.001)
            except KeyboardInterrupt as exc:
                interrupt = exc
        if self._thread.ident is not None:
            # The thread makes the loop and then sets _ready (or _done if it could not).
            while not self._ready.is_set():
                try:
                    self._ready.wait(0.5)
                except KeyboardInterrupt as exc:
                    interrupt = exc
            loop = self._loop
            while loop is not None:
                try:
                    loop.call_soon_threadsafe(loop.stop)
                    break
                except RuntimeError:  # already closed
                    break
                except KeyboardInterrupt as exc:
                    interrupt = exc
            # Wait on our own event, not Thread.join(): a join interrupted by Ctrl-C can mark
            # a still-running thread as stopped (CPython 3.11's bpo-45274 handling releases
            # the thread's state lock), after which is_alive() lies.
            while not self._done.is_set():
                try:
                    self._done.wait(0.5)
                except KeyboardInterrupt as exc:
                    interrupt = exc
            while self._thread.is_alive():  # only returning from _run now
                try:
                    self._thread.join(0.5)
                except KeyboardInterrupt as exc:
                    interrupt = exc
        else:  # the thread never ran: there is no loop to stop
            self._done.set()
        if interrupt is not None:
            raise interrupt

    def __enter__(self) -> SimpleEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        name = self._protocol.id.get("name", "?") if self._protocol is not None else "?"
        return f"<SimpleEngine {name!r} pid={self.pid}>"

    @property
    def pid(self) -> int | None:
        """The engine's process id."""
        transport = self._protocol._transport if self._protocol is not None else None
        return transport.get_pid() if transport is not None else None

    @property
    def returncode(self) -> int | None:
        """The exit code once the engine has exited, else None."""
        if self._protocol is None:
            return None
        done = self._protocol.returncode
        return done.result() if done.done() else None


def _wait_while_alive(
    event: threading.Event, timeout: float | None, loop_done: threading.Event
) -> bool:
    """Wait for event up to timeout (None: no limit) while the loop runs; is it set?"""
    deadline = None if timeout is None else time.monotonic() + timeout
    while not event.is_set():
        if loop_done.is_set():
            return event.is_set()
        left = 0.5 if deadline is None else min(0.5, deadline - time.monotonic())
        if left <= 0:
            return False
        event.wait(left)
    return True


def _wait_through_interrupts(
    event: threading.Event, bound: float, loop_done: threading.Event
) -> None:
    """Wait (up to bound seconds) for a clean-up to finish, absorbing further Ctrl-Cs: the
    first KeyboardInterrupt is re-raised by the caller once nothing is left running."""
    deadline = time.monotonic() + bound
    while not event.is_set() and not loop_done.is_set():
        left = deadline - time.monotonic()
        if left <= 0:
            LOGGER.warning("engine clean-up did not finish within %.1f s", bound)
            return
        try:
            event.wait(min(left, 0.5))
        except KeyboardInterrupt:
            continue


class SimpleAnalysisResult:
    """The blocking face of :class:`AnalysisResult`: iterate it, ``stop()``, ``wait()``.

    After its engine is closed it still answers from what it had: ``info``, ``multipv``, the
    infos already queued, and the final result if the search had ended. Otherwise it raises
    EngineError("... engine is closed ...") whose ``__cause__`` is the search's own error
    (say, the EngineTerminatedError of an engine that died) when it had one.
    """

    def __init__(self, engine: SimpleEngine, inner: AnalysisResult) -> None:
        self._engine = engine
        self._inner = inner

    @property
    def info(self) -> Info:
        """Everything seen so far for the first line."""
        return dict(self._inner.info)

    @property
    def multipv(self) -> list[Info]:
        """The latest info of each line, best first."""
        return self._inner.multipv

    def _closed(self) -> bool:
        return self._engine._done.is_set() or self._engine._closed

    def _after_close(self) -> PlayResult:
        """The search's outcome once the engine is closed (no event loop to ask)."""
        task = self._inner._task
        if task is not None and task.done() and not task.cancelled():
            exc = task.exception()
            if exc is None:
                return task.result()
            raise EngineError(f"engine is closed; the analysis had failed: {exc}") from exc
        raise EngineError("engine is closed; the analysis was still running and has no result")

    def stop(self) -> None:
        """Ask the engine to stop; iteration then ends after its last info."""
        if self._closed():
            return

        async def stop() -> None:
            self._inner.stop()

        self._engine._call(stop())

    def wait(self) -> PlayResult:
        """Block until the search ends; its PlayResult."""
        if self._closed():
            return self._after_close()
        return self._engine._call(self._inner.wait())

    def next(self) -> Info | None:
        """The next info, or None once the search has ended."""
        if self._closed():
            info = self._inner.get_nowait()
            if info is not None:
                return info
            self._after_close()
            return None
        try:
            return self._engine._call(self._inner.get())
        except StopAsyncIteration:
            return None

    def __iter__(self) -> Iterator[Info]:
        while True:
            info = self.next()
            if info is None:
                return
            yield info

    def __enter__(self) -> SimpleAnalysisResult:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
        self.wait()
