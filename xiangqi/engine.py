"""Talk to xiangqi engines over UCI or UCCI: an asyncio core and a synchronous wrapper.

The shape follows python-chess's ``chess.engine``: one protocol object per engine process
(:class:`EngineProtocol`, driven by asyncio), :class:`SimpleEngine` running that protocol's
event loop in a background thread for ordinary blocking code, :class:`Limit`,
:class:`PlayResult`, :class:`PovScore` with :class:`Cp` and :class:`Mate`, info dicts, and
``analysis()`` objects to iterate over and ``stop()``. Standard library only.

Squares are public numbers 0..89 (file + 9 * rank, ranks 0..9 from Red's side); moves are
:class:`xiangqi.Move` objects. On the wire a move is ICCS text in the engine's dialect:

``Dialect.UCI``
    Pikafish-style UCI: ``uci``/``uciok``, ``setoption name N value V``, ranks 0..9 ("h2e2").
``Dialect.FAIRY``
    Fairy-Stockfish's UCI: as UCI, but ``setoption name UCI_Variant value xiangqi`` is sent
    after the handshake and squares have ranks 1..10 ("h3e3"). Detected when the engine
    offers a ``UCI_Variant`` option whose choices include ``xiangqi``.
``Dialect.UCCI``
    ElephantEye's UCCI: ``ucci``/``ucciok``, ``option NAME type ...``, ``setoption NAME V``,
    ranks 0..9, ``banmoves`` for excluded moves, ``nobestmove`` when there is no move, and the
    position is sent from the last capture (the protocol's rule). ``go`` takes
    ``depth``/``nodes``/``time`` (milliseconds; ``usemillisec`` is switched on when offered).

Every move an engine sends (``bestmove``, ``ponder`` and each ``pv``) is read in its dialect
and checked against the position; an unreadable or illegal one raises :class:`EngineError`
quoting the engine's line. The engine is a peer, not a source of truth. Lines that are not
part of the protocol are logged (logger ``xiangqi.engine``) and skipped, and so are malformed
info fields: words are separated by spaces and tabs only, numbers are ASCII decimal digits
with an optional sign, counters are at least 0 and ``multipv`` at least 1. Every wait has a
timeout, an engine that exits raises :class:`EngineTerminatedError`, and closing always reaps
the process (killing it when it ignores ``quit``) and closes its pipes.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import dataclasses
import enum
import logging
import re
import threading
from collections.abc import Coroutine, Iterable, Iterator, Mapping, Sequence
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
    """When a search stops: any of time (seconds), depth (plies), nodes, mate (moves).

    An empty Limit searches until stopped (only useful with ``analysis()``).
    """

    time: float | None = None
    depth: int | None = None
    nodes: int | None = None
    mate: int | None = None

    def __post_init__(self) -> None:
        for name in ("depth", "nodes", "mate"):
            value = getattr(self, name)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or value < 1
            ):
                raise ValueError(f"Limit.{name} must be a positive int, got {value!r}")
        if self.time is not None and (
            isinstance(self.time, bool)
            or not isinstance(self.time, (int, float))
            or not self.time > 0
            or self.time == float("inf")
        ):
            raise ValueError(f"Limit.time must be a positive number of seconds, got {self.time!r}")

    def is_empty(self) -> bool:
        """True when nothing limits the search."""
        return self.time is None and self.depth is None and self.nodes is None and self.mate is None


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
        if "\n" in text or "\r" in text:
            raise EngineOptionError(f"{where}: a value may not contain a line break: {text!r:.80}")
        return text


def _parse_option(tokens: list[str], dialect: Dialect) -> Option | None:
    """The Option an "option ..." line announces, or None when it is malformed."""
    keywords = ("name", "type", "default", "min", "max", "var")
    fields: dict[str, list[str]] = {}
    var: list[str] = []
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
                var.append("")
            else:
                fields.setdefault(token, [])
        elif current == "var":
            var[-1] = f"{var[-1]} {token}".strip()
        elif current is not None:
            fields[current].append(token)
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


# -- the asyncio protocol -------------------------------------------------------------------


class EngineProtocol(asyncio.SubprocessProtocol):
    """One engine process: handshake, options, play, analyse; commands run one at a time.

    Start one with :func:`popen_uci` or :func:`popen_ucci`. Every command awaits the engine
    with a timeout; a search still running (analysis, pondering) is stopped before the next
    command is sent.
    """

    def __init__(self, dialect: Dialect | None, timeout: float) -> None:
        self.dialect: Dialect | None = dialect
        self.timeout = timeout
        self.id: dict[str, str] = {}
        self.options: dict[str, Option] = {}
        self.config: dict[str, str] = {}
        self.returncode: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._transport: asyncio.SubprocessTransport | None = None
        self._lines: collections.deque[str | None] = collections.deque()
        self._waiters: list[asyncio.Future[None]] = []
        self._buffer = {1: b"", 2: b""}
        self._lock = asyncio.Lock()
        self._background: AnalysisResult | None = None
        self._closed = False

    # transport callbacks

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.SubprocessTransport)
        self._transport = transport
        LOGGER.debug("%s: started", self)

    def pipe_data_received(self, fd: int, data: bytes | str) -> None:
        if isinstance(data, str):
            data = data.encode()
        buffer = self._buffer.get(fd, b"") + data
        *lines, self._buffer[fd] = buffer.split(b"\n")
        for raw in lines:
            line = raw.decode("utf-8", "replace").rstrip("\r")
            if fd == 1:
                LOGGER.debug("%s >> %s", self, line)
                self._push_line(line)
            else:
                LOGGER.debug("%s (stderr) >> %s", self, line)
        if len(self._buffer.get(fd, b"")) > 1 << 20:
            LOGGER.warning("%s: dropping an over-long line without newline", self)
            self._buffer[fd] = b""

    def _push_line(self, line: str | None) -> None:
        """Queue a line of output (None: the output has ended) and wake the reader."""
        self._lines.append(line)
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        if fd == 1:
            self._push_line(None)

    def process_exited(self) -> None:
        assert self._transport is not None
        code = self._transport.get_returncode()
        LOGGER.debug("%s: exited with %s", self, code)
        if not self.returncode.done():
            self.returncode.set_result(code if code is not None else -1)
        self._push_line(None)

    def __repr__(self) -> str:
        pid = self._transport.get_pid() if self._transport is not None else None
        return f"<EngineProtocol pid={pid} dialect={self.dialect and self.dialect.value}>"

    # wire helpers

    def send_line(self, line: str) -> None:
        """Write one command line to the engine (EngineTerminatedError if it has gone)."""
        if self._transport is None or self.returncode.done():
            raise EngineTerminatedError(f"engine has exited; cannot send {line!r}")
        pipe = self._transport.get_pipe_transport(0)
        if pipe is None or pipe.is_closing():
            raise EngineTerminatedError(f"engine input is closed; cannot send {line!r}")
        LOGGER.debug("%s << %s", self, line)
        assert isinstance(pipe, asyncio.WriteTransport)
        pipe.write((line + "\n").encode())

    async def _read_line(self, deadline: float | None, waiting_for: str) -> str:
        loop = asyncio.get_running_loop()
        # Wait on a bare "lines arrived" future, never on a queue read: if a timeout races
        # the arrival, no line is lost (wait_for before 3.11 could drop a finished result).
        while not self._lines:
            remaining = None if deadline is None else deadline - loop.time()
            if remaining is not None and remaining <= 0:
                raise EngineError(f"engine timed out waiting for {waiting_for}")
            waiter = loop.create_future()
            self._waiters.append(waiter)
            try:
                await asyncio.wait_for(waiter, remaining)
            except asyncio.TimeoutError:
                raise EngineError(
                    f"engine timed out after {remaining:.1f} s waiting for {waiting_for}"
                ) from None
            finally:
                if waiter in self._waiters:
                    self._waiters.remove(waiter)
        line = self._lines.popleft()
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
        for key, option in self.options.items():
            if key.lower() == name.lower():
                return option
        return None

    def _setoption(self, name: str, text: str) -> None:
        option = self._option(name)
        wire = option.name if option is not None else name
        if self.dialect is Dialect.UCCI:
            self.send_line(f"setoption {wire} {text}".rstrip())
        elif option is not None and option.type == "button":
            self.send_line(f"setoption name {wire}")
        else:
            self.send_line(f"setoption name {wire} value {text}")
        self.config[wire] = text

    # commands

    async def initialize(self) -> None:
        """The handshake: uci or ucci, id and option lines, then isready."""
        ucci = self.dialect is Dialect.UCCI
        hello, done = ("ucci", "ucciok") if ucci else ("uci", "uciok")
        async with self._lock:
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
                    self.id[ident[0]] = ident[1]
                elif tokens[0] == "option":
                    option = _parse_option(tokens, Dialect.UCCI if ucci else Dialect.UCI)
                    if option is None:
                        LOGGER.warning("%s: skipping malformed option line %s", self, _quote(line))
                    else:
                        self.options[option.name] = option
                else:
                    LOGGER.debug("%s: skipping %s during the handshake", self, _quote(line))
            if self.dialect is None:
                variant = self._option("UCI_Variant")
                is_fairy = variant is not None and "xiangqi" in variant.var
                self.dialect = Dialect.FAIRY if is_fairy else Dialect.UCI
            if self.dialect is Dialect.FAIRY:
                variant = self._option("UCI_Variant")
                if variant is None or "xiangqi" not in variant.var:
                    raise EngineError(
                        "engine offers no UCI_Variant xiangqi; is it Fairy-Stockfish?"
                    )
                self._setoption("UCI_Variant", "xiangqi")
            if ucci and self._option("usemillisec") is not None:
                self._setoption("usemillisec", "true")
            await self._ping()

    async def _ping(self) -> None:
        self.send_line("isready")
        deadline = self._deadline(self.timeout)
        while True:
            line = await self._read_line(deadline, "readyok")
            if line.strip() == "readyok":
                return
            LOGGER.debug("%s: skipping %s before readyok", self, _quote(line))

    async def ping(self) -> None:
        """Send isready and wait for readyok."""
        async with self._lock:
            await self._stop_background()
            await self._ping()

    async def configure(self, options: Mapping[str, object]) -> None:
        """Set options after checking every one (EngineOptionError before anything is sent)."""
        texts: list[tuple[str, str]] = []
        for name, value in options.items():
            if not isinstance(name, str):
                raise TypeError(f"option names are str, got {type(name).__name__}")
            option = self._option(name)
            if option is None:
                known = ", ".join(sorted(self.options)) or "none"
                raise EngineOptionError(
                    f"engine has no option {name!r:.{_QUOTE}}; it offers: {known}"
                )
            if option.name.lower() in ("uci_variant", "multipv", "usemillisec"):
                raise EngineOptionError(
                    f"option {option.name!r} is managed by xiangqi.engine; it cannot be set"
                )
            texts.append((option.name, option.parse(value)))
        async with self._lock:
            await self._stop_background()
            for name, text in texts:
                self._setoption(name, text)
            await self._ping()

    def _position_lines(self, pos: Position, root_moves: Iterable[Move] | None) -> list[str]:
        root = pos.copy()
        moves: list[Move] = []
        while root.move_stack:
            if self.dialect is Dialect.UCCI and root.halfmove_clock == 0:
                break  # UCCI: the last capture (or the root) starts the sent history
            moves.append(root.pop())
        moves.reverse()
        style = self.dialect.iccs_style if self.dialect else "iccs"
        line = f"position fen {root.fen()}"
        if moves:
            line += " moves " + " ".join(iccs(m, style) for m in moves)
        lines = [line]
        if root_moves is not None and self.dialect is Dialect.UCCI:
            wanted = set(root_moves)
            banned = [m for m in pos.legal_moves() if m not in wanted]
            if banned:
                lines.append("banmoves " + " ".join(iccs(m, style) for m in banned))
        return lines

    def _go_line(self, limit: Limit, pos: Position, root_moves: Iterable[Move] | None) -> str:
        parts = ["go"]
        if self.dialect is Dialect.UCCI:
            if limit.depth is not None:
                parts += ["depth", str(limit.depth)]
            if limit.nodes is not None:
                parts += ["nodes", str(limit.nodes)]
            if limit.time is not None:
                parts += ["time", str(max(1, round(limit.time * 1000))), "movestogo", "1"]
            if limit.is_empty() or limit.mate is not None:
                parts += ["depth", "infinite"]
            return " ".join(parts)
        if limit.time is not None:
            parts += ["movetime", str(max(1, round(limit.time * 1000)))]
        if limit.depth is not None:
            parts += ["depth", str(limit.depth)]
        if limit.nodes is not None:
            parts += ["nodes", str(limit.nodes)]
        if limit.mate is not None:
            parts += ["mate", str(limit.mate)]
        if root_moves is not None:
            style = self.dialect.iccs_style if self.dialect else "iccs"
            parts += ["searchmoves"] + [iccs(m, style) for m in root_moves]
        if limit.is_empty():
            parts.append("infinite")
        return " ".join(parts)

    def _search_deadline(self, limit: Limit, timeout: float | None) -> float | None:
        if timeout is not None:
            return self._deadline(timeout)
        if limit.time is not None:
            return self._deadline(limit.time + self.timeout)
        if limit.is_empty():
            return None
        return self._deadline(DEFAULT_SEARCH_TIMEOUT)

    def _parse_move(self, pos: Position, text: str, line: str) -> Move:
        return _parse_move(pos, text, line, self.dialect)

    def _parse_info(self, pos: Position, line: str) -> Info:
        return _parse_info(pos, line, self.dialect, self)

    async def _recover(self) -> None:
        """After a search timed out: stop it and drain its bestmove, or kill a silent engine."""
        try:
            self.send_line("stop")
            deadline = self._deadline(self.timeout)
            while _tokens(await self._read_line(deadline, "bestmove after stop"))[:1] not in (
                ["bestmove"],
                ["nobestmove"],
            ):
                pass
        except EngineError:
            self._kill("no bestmove after stop")

    def _kill(self, why: str) -> None:
        """Kill an engine that no longer follows the protocol; later commands then fail."""
        LOGGER.warning("%s: %s; killing the engine", self, why)
        self._closed = True
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
        for line in self._position_lines(pos, root_moves):
            self.send_line(line)
        go = self._go_line(limit, pos, root_moves)
        if ponder:
            go = go.replace("go", "go ponder", 1)
        self.send_line(go)

    def _check_search(
        self,
        pos: Position,
        limit: Limit | None,
        multipv: int | None,
        root_moves: Iterable[Move] | None,
    ) -> list[Move] | None:
        """Check a search's arguments before anything is stopped or sent; the root moves."""
        if not isinstance(pos, Position):
            raise TypeError(f"expected a Position, got {type(pos).__name__}")
        if limit is not None and not isinstance(limit, Limit):
            raise TypeError(f"expected a Limit, got {type(limit).__name__}")
        if multipv is not None and (
            isinstance(multipv, bool) or not isinstance(multipv, int) or multipv < 1
        ):
            raise ValueError(f"multipv must be a positive int, got {multipv!r}")
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
        await self._stop_background()
        await self._start(pos, limit, multipv, root_moves)
        deadline = self._search_deadline(limit, timeout)
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
        move in the background until the next command."""
        root_moves = self._check_search(pos, limit, None, root_moves)
        async with self._lock:
            result, _ = await self._search(pos, limit, None, root_moves, timeout)
            if ponder and result.move is not None and result.ponder is not None:
                after = pos.copy()
                after.push(result.move)
                after.push(result.ponder)
                self._background = AnalysisResult(self, after, Limit(), None)
                await self._start(after, Limit(), None, None, ponder=True)
                self._background.start_reading()
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
        """Search pos to the limit; the last info (a list of them, best first, with multipv)."""
        root_moves = self._check_search(pos, limit, multipv, root_moves)
        async with self._lock:
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
        """Start a search and return at once; iterate the result for info, stop() it early."""
        root_moves = self._check_search(pos, limit, multipv, root_moves)
        limit = limit or Limit()
        async with self._lock:
            await self._stop_background()
            result = AnalysisResult(self, pos.copy(), limit, multipv)
            await self._start(pos, limit, multipv, root_moves)
            self._background = result
            result.start_reading()
        return result

    async def quit(self) -> None:
        """Send quit, wait for the process to exit, and kill it if it will not."""
        if self._closed:
            await self._reap()
            return
        self._closed = True
        try:
            # Not under the lock: a command stuck on a silent engine must not delay the kill.
            background, self._background = self._background, None
            if background is not None:
                background.cancel()
            if not self.returncode.done():
                try:
                    self.send_line("quit")
                except EngineTerminatedError:
                    pass
        finally:
            await self._reap()

    async def _reap(self) -> None:
        if self._transport is None:
            return
        try:
            await asyncio.wait_for(asyncio.shield(self.returncode), self.timeout)
        except asyncio.TimeoutError:
            LOGGER.warning("%s: ignored quit for %.1f s; killing it", self, self.timeout)
            try:
                self._transport.kill()
            except ProcessLookupError:
                pass
            await asyncio.wait_for(asyncio.shield(self.returncode), self.timeout)
        finally:
            self._transport.close()


def _merge(entry: Info, info: Info) -> None:
    """Update a line's info with a newer one; a bound flag holds only for its own score."""
    if "score" in info:
        entry.pop("lowerbound", None)
        entry.pop("upperbound", None)
    entry.update(info)


class AnalysisResult:
    """A running search: iterate (``async for``) over its info dicts, ``stop()`` it, ``wait()``.

    ``info`` merges everything seen for the first line, ``multipv`` holds the latest info per
    line (best first), and ``wait()`` returns the engine's final PlayResult.
    """

    def __init__(
        self, protocol: EngineProtocol, pos: Position, limit: Limit, multipv: int | None
    ) -> None:
        self._protocol = protocol
        self._pos = pos
        self._limit = limit
        self._queue: asyncio.Queue[Info | None] = asyncio.Queue()
        self._lines: dict[int, Info] = {}
        self._task: asyncio.Task[PlayResult] | None = None
        self._stopped = False
        self._deadline: float | None = None
        self._multipv = multipv or 1
        self.info: Info = {}

    @property
    def multipv(self) -> list[Info]:
        """The latest info of each line, best first."""
        return [self._lines[k] for k in sorted(self._lines)][: self._multipv]

    def start_reading(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> PlayResult:
        protocol = self._protocol
        self._deadline = protocol._search_deadline(self._limit, None)
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
                    raise
                except EngineError:
                    if self._deadline is None or loop.time() < self._deadline:
                        continue
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
                    self._queue.put_nowait(info)
                elif head in (["bestmove"], ["nobestmove"]):
                    result = protocol._bestmove(self._pos, line)
                    result.info = dict(self.info)
                    return result
                else:
                    LOGGER.debug("%s: skipping %s during analysis", protocol, _quote(line))
        finally:
            self._queue.put_nowait(None)
            if protocol._background is self:
                protocol._background = None

    def stop(self) -> None:
        """Ask the engine to stop (it then sends its bestmove); safe to call twice."""
        if not self._stopped and self._task is not None and not self._task.done():
            self._stopped = True
            # The bestmove must follow within the protocol's timeout, or the engine is killed.
            soon = self._protocol._deadline(self._protocol.timeout)
            assert soon is not None
            self._deadline = soon if self._deadline is None else min(self._deadline, soon)
            try:
                self._protocol.send_line("stop")
            except EngineTerminatedError:
                pass

    def cancel(self) -> None:
        """Stop reading at once (used on close)."""
        if self._task is not None:
            self._task.cancel()

    async def wait(self) -> PlayResult:
        """Wait for the search to end; its PlayResult (errors from the engine re-raised)."""
        assert self._task is not None
        return await self._task

    async def get(self) -> Info:
        """The next info; StopAsyncIteration once the search has ended."""
        info = await self._queue.get()
        if info is None:
            self._queue.put_nowait(None)
            assert self._task is not None
            if self._task.done() and not self._task.cancelled():
                exc = self._task.exception()
                if exc is not None:
                    raise exc
            raise StopAsyncIteration
        return info

    def __aiter__(self) -> AnalysisResult:
        return self

    async def __anext__(self) -> Info:
        return await self.get()


async def _popen(
    command: Command,
    dialect: Dialect | None,
    timeout: float,
    cwd: str | None,
    env: Mapping[str, str] | None,
) -> tuple[asyncio.SubprocessTransport, EngineProtocol]:
    if isinstance(command, str):
        argv = [command]
    elif isinstance(command, Sequence) and command and all(isinstance(a, str) for a in command):
        argv = list(command)
    else:
        raise TypeError(f"engine command must be a str or a list of str, got {command!r:.100}")
    loop = asyncio.get_running_loop()
    try:
        transport, protocol = await loop.subprocess_exec(
            lambda: EngineProtocol(dialect, timeout),
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=cwd,
            env=dict(env) if env is not None else None,
        )
    except FileNotFoundError:
        raise EngineError(f"engine not found: {argv[0]!r:.{_QUOTE}}") from None
    except PermissionError:
        raise EngineError(f"engine is not executable: {argv[0]!r:.{_QUOTE}}") from None
    except OSError as exc:
        raise EngineError(f"cannot start engine {argv[0]!r:.{_QUOTE}}: {exc}") from None
    try:
        await protocol.initialize()
    except BaseException:
        await protocol.quit()
        raise
    return transport, protocol


async def popen_uci(
    command: Command,
    *,
    dialect: Dialect | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
) -> tuple[asyncio.SubprocessTransport, EngineProtocol]:
    """Start a UCI engine and shake hands; the dialect (UCI or FAIRY) is detected unless given.

    command is a program path (str) or an argv list.
    """
    if dialect is Dialect.UCCI:
        raise ValueError("popen_uci cannot speak UCCI; use popen_ucci")
    return await _popen(command, dialect, timeout, cwd, env)


async def popen_ucci(
    command: Command,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
) -> tuple[asyncio.SubprocessTransport, EngineProtocol]:
    """Start a UCCI engine (ElephantEye, or Fairy-Stockfish greeted with ucci)."""
    return await _popen(command, Dialect.UCCI, timeout, cwd, env)


# -- the synchronous wrapper ---------------------------------------------------------------


class SimpleEngine:
    """A blocking engine client: its protocol's event loop runs in a background thread.

    Use as a context manager, or call ``quit()`` (an alias of ``close()``) when done. One
    SimpleEngine may be shared by threads; its commands run one at a time.
    """

    def __init__(self, start: Coroutine[Any, Any, tuple[Any, EngineProtocol]], timeout: float):
        self.timeout = timeout
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="xiangqi-engine", daemon=True)
        self._thread.start()
        self._ready.wait()
        self._closed = False
        try:
            _, self.protocol = self._call(start, None)
        except BaseException:
            self._shutdown_loop()
            raise

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.call_soon(self._ready.set)
        self._loop.run_forever()

    def _call(self, coro: Coroutine[Any, Any, T], timeout: float | None) -> T:
        future = asyncio.run_coroutine_threadsafe(coro, self._loop)
        try:
            return future.result(timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise EngineError(f"engine command timed out after {timeout} s") from None

    @classmethod
    def popen_uci(
        cls,
        command: Command,
        *,
        dialect: Dialect | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> SimpleEngine:
        """Start a UCI engine (Pikafish-style or Fairy-Stockfish, detected unless given)."""
        return cls(popen_uci(command, dialect=dialect, timeout=timeout, cwd=cwd, env=env), timeout)

    @classmethod
    def popen_ucci(
        cls,
        command: Command,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> SimpleEngine:
        """Start a UCCI engine (ElephantEye, or Fairy-Stockfish greeted with ucci)."""
        return cls(popen_ucci(command, timeout=timeout, cwd=cwd, env=env), timeout)

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
        assert self.protocol.dialect is not None
        return self.protocol.dialect

    def _guard(self) -> None:
        if self._closed:
            raise EngineError("engine is closed")

    def configure(self, options: Mapping[str, object]) -> None:
        """Set engine options; unknown options and bad values raise EngineOptionError first."""
        self._guard()
        self._call(self.protocol.configure(options), None)

    def ping(self) -> None:
        """isready / readyok."""
        self._guard()
        self._call(self.protocol.ping(), None)

    def play(
        self,
        pos: Position,
        limit: Limit,
        *,
        ponder: bool = False,
        root_moves: Iterable[Move] | None = None,
        timeout: float | None = None,
    ) -> PlayResult:
        """The engine's move in pos (checked legal), with its ponder move and last info."""
        self._guard()
        return self._call(
            self.protocol.play(pos, limit, ponder=ponder, root_moves=root_moves, timeout=timeout),
            None,
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
        """The final info dict of a search (a list of them, best first, when multipv is given)."""
        self._guard()
        return self._call(
            self.protocol.analyse(
                pos, limit, multipv=multipv, root_moves=root_moves, timeout=timeout
            ),
            None,
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
        self._guard()
        inner = self._call(
            self.protocol.analysis(pos, limit, multipv=multipv, root_moves=root_moves), None
        )
        return SimpleAnalysisResult(self, inner)

    def close(self) -> None:
        """Quit the engine (killing it if it ignores quit), reap it, and stop the thread."""
        if self._closed:
            return
        self._closed = True
        try:
            self._call(self.protocol.quit(), 3 * self.timeout + 1)
        finally:
            self._shutdown_loop()

    quit = close

    def _shutdown_loop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()

    def __enter__(self) -> SimpleEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<SimpleEngine {self.id.get('name', '?')!r} pid={self.pid}>"

    @property
    def pid(self) -> int | None:
        """The engine's process id."""
        transport = self.protocol._transport
        return transport.get_pid() if transport is not None else None

    @property
    def returncode(self) -> int | None:
        """The exit code once the engine has exited, else None."""
        done = self.protocol.returncode
        return done.result() if done.done() else None


class SimpleAnalysisResult:
    """The blocking face of :class:`AnalysisResult`: iterate it, ``stop()``, ``wait()``."""

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

    def stop(self) -> None:
        """Ask the engine to stop; iteration then ends after its last info."""

        async def stop() -> None:
            self._inner.stop()

        self._engine._call(stop(), None)

    def wait(self) -> PlayResult:
        """Block until the search ends; its PlayResult."""
        return self._engine._call(self._inner.wait(), None)

    def next(self) -> Info | None:
        """The next info, or None once the search has ended."""
        try:
            return self._engine._call(self._inner.get(), None)
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
