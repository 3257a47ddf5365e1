"""The asyncio protocol core both dialects share: one engine process, its commands, analyses."""

from __future__ import annotations

import asyncio
import collections
import contextlib
from collections.abc import (
    AsyncIterator,
    Iterable,
    Mapping,
)

from .._checks import check_int
from ..errors import XiangqiError
from ..move import Move
from ..notation import IccsStyle
from ..position import Position
from ._process import KILL_WAIT, check_timeout, grace_period
from .parsing import parse_bestmove, parse_id, parse_info, parse_move
from .values import (
    DEFAULT_SEARCH_TIMEOUT,
    DEFAULT_TIMEOUT,
    LOGGER,
    QUOTE,
    Dialect,
    EngineError,
    EngineOptionError,
    EngineTerminatedError,
    Info,
    Limit,
    Option,
    PlayResult,
    quote_line,
    split_words,
)

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
        check_timeout(timeout)
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
            if self._stale_search and split_words(line)[:1] in (["bestmove"], ["nobestmove"]):
                self._stale_search = False
                LOGGER.debug("%s: the abandoned search ended: %s", self, quote_line(line))
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
            raise EngineTerminatedError(f"engine has exited; cannot send {line!r:.{QUOTE}}")
        pipe = self._transport.get_pipe_transport(0)
        if pipe is None or pipe.is_closing():
            raise EngineTerminatedError(f"engine input is closed; cannot send {line!r:.{QUOTE}}")
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
                tokens = split_words(line)
                if not tokens:
                    continue
                if tokens[0] == done:
                    break
                ident = parse_id(tokens)
                if ident is not None:
                    if len(self.id) < 64 or ident[0] in self.id:
                        self.id[ident[0]] = ident[1][:QUOTE]
                elif tokens[0] == "option":
                    option = self._read_option(tokens)
                    if option is None:
                        LOGGER.warning(
                            "%s: skipping malformed option line %s", self, quote_line(line)
                        )
                    elif len(self.options) >= _MAX_OPTIONS and option.name not in self.options:
                        LOGGER.warning(
                            "%s: more than %d options; skipping %s",
                            self,
                            _MAX_OPTIONS,
                            quote_line(line),
                        )
                    else:
                        self.options[option.name] = option
                else:
                    LOGGER.debug("%s: skipping %s during the handshake", self, quote_line(line))
            await self._after_handshake()
            await self._ping()

    async def _ping(self) -> None:
        self.send_line("isready")
        deadline = self._deadline(self.timeout)
        while True:
            line = await self._read_line(deadline, "readyok")
            if line.strip() == "readyok":
                return
            LOGGER.debug("%s: skipping %s before readyok", self, quote_line(line))

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
                if line is not None and split_words(line)[:1] in (["bestmove"], ["nobestmove"]):
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
                    f"engine has no option {name!r:.{QUOTE}}; it offers: {known}"
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
        grace = grace_period(self.timeout)
        if limit.time is not None:
            return self._deadline(limit.time + grace)
        clock = limit.clock(pos.turn)
        if clock is not None:
            return self._deadline(clock + (limit.inc(pos.turn) or 0.0) + grace)
        if limit.is_empty():
            return None
        return self._deadline(DEFAULT_SEARCH_TIMEOUT)

    def _parse_move(self, pos: Position, text: str, line: str) -> Move:
        return parse_move(pos, text, line, self.dialect)

    def _parse_info(self, pos: Position, line: str) -> Info:
        return parse_info(pos, line, self.dialect, self)

    async def _recover(self) -> None:
        """After a search timed out or was abandoned: stop it and drain its bestmove, or
        kill an engine that does not answer within the timeout."""
        try:
            self.send_line("stop")
            deadline = self._deadline(grace_period(self.timeout))
            while split_words(await self._read_line(deadline, "bestmove after stop"))[:1] not in (
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
        if multipv is not None:
            check_int("multipv", multipv, 1)
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
        return parse_bestmove(pos, line, self.dialect)

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
            head = split_words(line)[:1]
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
                LOGGER.debug("%s: skipping %s during search", self, quote_line(line))

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
        check_timeout(timeout)
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
        check_timeout(timeout)
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
        check_timeout(grace, "grace")
        if not self._closed:
            self._closed = True
            # Not under the lock: a command stuck on a silent engine must not delay the kill.
            background, self._background = self._background, None
            if background is not None:
                background.cancel()
            if not self.returncode.done():
                self._send_quietly("quit")
        await self._reap(grace_period(self.timeout) if grace is None else grace)

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
                await asyncio.wait_for(asyncio.shield(self.returncode), KILL_WAIT)
            except asyncio.CancelledError:
                self._kill_now()  # interrupted while waiting politely: do not wait longer
                # Reap before closing the transport (its close() polls the process and would
                # reap it first, leaving the child watcher an unknown pid).
                with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                    await asyncio.wait_for(asyncio.shield(self.returncode), KILL_WAIT)
                raise
        except asyncio.TimeoutError:
            LOGGER.warning("%s: no exit status %.1f s after SIGKILL", self, KILL_WAIT)
        finally:
            self._transport.close()
            self._buffer = {1: bytearray(), 2: bytearray()}


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
                head = split_words(line)[:1]
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
                    LOGGER.debug("%s: skipping %s during analysis", protocol, quote_line(line))
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
            soon = self._protocol._deadline(grace_period(self._protocol.timeout))
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
