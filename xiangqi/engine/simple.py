"""The synchronous wrapper: SimpleEngine runs a protocol's event loop in a background thread."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import (
    Callable,
    Coroutine,
    Iterable,
    Iterator,
    Mapping,
)
from typing import Any, TypeVar

from .._checks import check_bool
from ..move import Move
from ..position import Position
from ._process import (
    KILL_WAIT,
    check_start,
    check_timeout,
    grace_period,
    popen,
)
from .protocol import (
    AnalysisResult,
    EngineProtocol,
)
from .ucci import UcciProtocol
from .uci import UciProtocol
from .values import (
    DEFAULT_TIMEOUT,
    LOGGER,
    Command,
    Dialect,
    EngineError,
    Info,
    Limit,
    Option,
    PlayResult,
)

T = TypeVar("T")

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
        check_timeout(timeout)
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
        return 2 * grace_period(self.timeout) + 2 * KILL_WAIT

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
        setpgrp: bool = False,
    ) -> SimpleEngine:
        """Start a UCI engine (Pikafish-style or Fairy-Stockfish, detected unless given), in
        working directory cwd with environment env (None: this process's); setpgrp starts it
        in a process group of its own (the terminal's Ctrl-C does not reach it)."""
        if dialect is Dialect.UCCI:
            raise ValueError("popen_uci cannot speak UCCI; use popen_ucci")
        if dialect is not None and not isinstance(dialect, Dialect):
            raise TypeError(f"dialect must be a Dialect or None, got {dialect!r:.40}")
        check_start(command, cwd, env, setpgrp, timeout)
        return cls(
            lambda created: popen(
                lambda: UciProtocol(timeout, dialect), command, cwd, env, created, setpgrp
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
        setpgrp: bool = False,
    ) -> SimpleEngine:
        """Start a UCCI engine (ElephantEye, or Fairy-Stockfish greeted with ucci); see
        :class:`UcciProtocol` for millisec and :meth:`popen_uci` for setpgrp."""
        if millisec is not None:
            check_bool("millisec", millisec)
        check_start(command, cwd, env, setpgrp, timeout)
        return cls(
            lambda created: popen(
                lambda: UcciProtocol(timeout, millisec), command, cwd, env, created, setpgrp
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
        check_timeout(timeout)
        if self._closed and self._done.is_set():
            return
        self._closed = True
        grace = timeout if timeout is not None else grace_period(self.timeout)
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
