"""UCI as Pikafish and Fairy-Stockfish speak it."""

from __future__ import annotations

import asyncio
import os
from collections.abc import (
    Iterable,
    Mapping,
)

from ..move import Move
from ..notation import iccs
from ..position import Position
from ._process import check_timeout, popen
from .parsing import parse_option
from .protocol import EngineProtocol
from .values import DEFAULT_TIMEOUT, Command, Dialect, EngineError, Limit, Option


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
        return parse_option(tokens, Dialect.UCI)

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


async def popen_uci(
    command: Command,
    *,
    dialect: Dialect | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    setpgrp: bool = False,
) -> tuple[asyncio.SubprocessTransport, UciProtocol]:
    """Start a UCI engine and shake hands; the dialect (UCI or FAIRY) is detected unless given.

    command is a program path (str) or an argv list; cwd is its working directory (Pikafish
    looks for its network file there) and env its environment (None: this process's).
    setpgrp starts it in a process group of its own, as python-chess's setpgrp does, so the
    terminal's Ctrl-C (SIGINT to the foreground group) reaches this process, not the engine.
    """
    if dialect is Dialect.UCCI:
        raise ValueError("popen_uci cannot speak UCCI; use popen_ucci")
    check_timeout(timeout)
    transport, protocol = await popen(
        lambda: UciProtocol(timeout, dialect), command, cwd, env, setpgrp=setpgrp
    )
    assert isinstance(protocol, UciProtocol)
    return transport, protocol
