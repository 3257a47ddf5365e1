"""UCCI, the protocol of ElephantEye."""

from __future__ import annotations

import asyncio
import math
import os
from collections.abc import (
    Iterable,
    Mapping,
)

from .._checks import check_bool
from ..move import Move
from ..notation import iccs
from ..pieces import Color
from ..position import Position
from ._process import check_timeout, popen
from .parsing import parse_option
from .protocol import EngineProtocol
from .values import DEFAULT_TIMEOUT, Command, Dialect, Limit, Option


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
        if millisec is not None:
            check_bool("millisec", millisec)
        super().__init__(timeout)
        self.millisec = millisec

    def _read_option(self, tokens: list[str]) -> Option | None:
        return parse_option(tokens, Dialect.UCCI)

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


async def popen_ucci(
    command: Command,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    millisec: bool | None = None,
    setpgrp: bool = False,
) -> tuple[asyncio.SubprocessTransport, UcciProtocol]:
    """Start a UCCI engine (ElephantEye, or Fairy-Stockfish greeted with ucci); see
    :class:`UcciProtocol` for millisec and :func:`popen_uci` for setpgrp."""
    check_timeout(timeout)
    transport, protocol = await popen(
        lambda: UcciProtocol(timeout, millisec), command, cwd, env, setpgrp=setpgrp
    )
    assert isinstance(protocol, UcciProtocol)
    return transport, protocol
