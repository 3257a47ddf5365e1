"""Engine-vs-engine matches with clocks, openings, adjudication, Elo and an SPRT.

Squares are public numbers 0..89 and moves xiangqi.Move objects, as everywhere in the package.
The runner follows cutechess-cli and fastchess, the tools chess engine authors test with:

Engines (:class:`EngineSpec`)
    ``name=weak cmd=/usr/games/fairy-stockfish 'option.Skill Level=0'`` (key=value words,
    quoted as a shell would): ``cmd`` (the program), ``arg`` (one argument, repeatable),
    ``name``, ``proto`` (``uci``, covering Pikafish and Fairy-Stockfish, or ``ucci``), ``dir``
    (working directory), ``option.NAME=VALUE``, ``timeout`` (seconds for the handshake and
    commands), and the time control keys below. The same binary may play itself with
    different options. A plain command line (``"ucci:/opt/eleeye"``) still works.
Time controls (:class:`TimeControl`)
    ``tc=40/60+0.6`` (40 moves in 60 s, 0.6 s added a move, the clock refilled every 40
    moves), ``tc=10+0.1`` (the whole game), ``st=0.5`` (seconds a move), ``depth=N``,
    ``nodes=N``. The runner keeps the clocks itself: a move that takes longer than the time
    left plus the margin (``time_margin``, 0.1 s by default) loses on time (Termination
    ``time forfeit``).
Openings (:func:`load_openings`)
    A PGN file (each game's main line, optionally its first N plies) or a FEN/EPD list, one
    position a line. Games come in pairs from one opening with colours reversed (a *round*),
    openings in file order or shuffled with a seed. The last book ply carries the comment
    ``end of opening`` in the PGN, as the book plies of cutechess's games carry ``book``.
Adjudication (:class:`Adjudication`)
    The library's rulings (``Position.outcome()``: mate, stalemate, perpetual check and chase,
    repetition, the move rule) under the rule set chosen with ``rules`` / ``--rules``
    (``asian``, the default, or ``chinese``: xiangqi.Rules), a draw when both engines'
    scores stay within ``draw_score`` centipawns for ``draw_count`` moves each after move
    ``draw_move``, a resignation when an engine's score stays at or below ``-resign_score``
    for ``resign_count`` of its moves, and a draw at the ply cap.
Statistics (:mod:`xiangqi.stats`)
    W/D/L, pentanomial pair counts, Elo and normalized Elo with 95 % intervals, LOS, and an
    optional SPRT that stops the match when its log-likelihood ratio reaches a bound.
Output
    PGN in game order (Event, Site, Date, Round, Red, Black, Result, TimeControl, Termination,
    Rules: the rule set the rulings used, ``asian`` or ``chinese``; the opening's end, and
    each engine move's score/depth and time as a comment), a JSON results file (each game,
    the totals and the rule set), and a progress line.
Faults
    An engine that crashes, sends an illegal or no move, or runs out of time loses the game
    and is restarted for the next one. Ctrl-C (KeyboardInterrupt) stops every game at once,
    kills the engines in mid-search, closes the others, writes every finished game and the
    results, and raises again. Games are numbered as they start: nothing is allocated per
    game before it is played.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import logging
import math
import os
import random
import re
import shlex
import signal
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from .engine import EngineError, EngineTerminatedError, Limit, PovScore, SimpleEngine
from .errors import XiangqiError
from .move import Move
from .pgn import Game, read_games
from .pieces import Color
from .position import Position
from .rules import Rules, check_rules
from .stats import SPRT, Estimate, Tally

__all__ = [
    "DEFAULT_MAX_PLIES",
    "Adjudication",
    "EngineSpec",
    "GameOver",
    "MatchResult",
    "Opening",
    "TimeControl",
    "adjudicate",
    "load_openings",
    "make_limit",
    "parse_tc",
    "play_game",
    "run_match",
]

#: A game still running after this many plies (both sides' moves) is adjudicated a draw.
DEFAULT_MAX_PLIES = 300
#: Seconds an engine may overrun its clock (or its fixed time a move) before it loses on time.
DEFAULT_TIME_MARGIN = 0.1
#: Seconds allowed for an engine's handshake and commands without a search.
DEFAULT_ENGINE_TIMEOUT = 10.0
#: Time control used when no engine names one (the command line's old default).
DEFAULT_TC = "depth=6"

_LOGGER = logging.getLogger(__name__)
_NUMBER = r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"
_CLOCK = re.compile(rf"(?:([0-9]+)/)?({_NUMBER})(?:\+({_NUMBER}))?")
_INT = re.compile(r"[0-9]+")
_FLOAT = re.compile(_NUMBER)


def _number(text: str, what: str, source: str) -> float:
    if not _FLOAT.fullmatch(text):
        raise XiangqiError(f"{what} must be a number of seconds, got {text!r} in {source!r:.100}")
    return float(text)


def _count(text: str, what: str, source: str) -> int:
    if not _INT.fullmatch(text) or int(text) < 1:
        raise XiangqiError(f"{what} must be a whole number >= 1, got {text!r} in {source!r:.100}")
    return int(text)


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
                clock = _CLOCK.fullmatch(word)
                if clock is None:
                    raise XiangqiError(
                        "time control must be moves/seconds+increment (40/60+0.6, 10+0.1), "
                        f"st=S, depth=N, nodes=N or movetime=MS; got {word!r} in {text!r:.100}"
                    )
                if clock[1] is not None:
                    fields["moves"] = _count(clock[1], "moves per period", text)
                fields["seconds"] = float(clock[2])
                if not fields["seconds"] > 0:
                    raise XiangqiError(f"a clock needs more than 0 seconds: {text!r:.100}")
                fields["increment"] = float(clock[3]) if clock[3] else 0.0
            elif key in ("tc",):
                inner = cls.parse(value)
                fields.update(seconds=inner.seconds, increment=inner.increment, moves=inner.moves)
            elif key == "st":
                fields["movetime"] = _number(value, "st", text)
                if not fields["movetime"] > 0:
                    raise XiangqiError(f"st must be more than 0 seconds, got {text!r:.100}")
            elif key == "movetime":
                fields["movetime"] = _count(value, "movetime (ms)", text) / 1000
            elif key in ("depth", "nodes"):
                fields[key] = _count(value, key, text)
            else:
                raise XiangqiError(
                    "time control must be moves/seconds+increment (40/60+0.6, 10+0.1), "
                    f"st=S, depth=N, nodes=N or movetime=MS; got {word!r} in {text!r:.100}"
                )
        return cls(**fields)

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


#: Whether the engine client's Limit carries clocks (red_clock, ...); until it does, the runner
#: turns the clock into a time for the move (see make_limit).
_LIMIT_HAS_CLOCKS = "red_clock" in {f.name for f in dataclasses.fields(Limit)}


def make_limit(
    tc: TimeControl,
    turn: Color,
    clocks: Sequence[float | None],
    increments: Sequence[float],
    moves_to_go: int | None,
    overhead: float = 0.0,
) -> Limit:
    """The Limit for one search: tc's depth/nodes/movetime, and the clocks when tc has one.

    clocks and increments are indexed by Color (seconds; None for a side without a clock);
    moves_to_go counts the side to move's moves left in its period (None: sudden death);
    overhead is the seconds a move costs beyond the engine's search (process and client
    latency), which a time budget computed here leaves out.
    """
    fields: dict[str, Any] = {"depth": tc.depth, "nodes": tc.nodes, "time": tc.movetime}
    own = clocks[turn]
    if tc.has_clock and own is not None:
        if _LIMIT_HAS_CLOCKS:
            red, black = clocks[Color.RED], clocks[Color.BLACK]
            fields.update(
                red_clock=None if red is None else max(red, 0.001),
                black_clock=None if black is None else max(black, 0.001),
                red_inc=increments[Color.RED],
                black_inc=increments[Color.BLACK],
                remaining_moves=moves_to_go,
            )
        else:
            # A share of the clock, as engines budget their own time: the clock over the moves
            # still to play in the period (30 in sudden death), plus most of the increment.
            share = own / (moves_to_go or 30) + 0.75 * increments[turn]
            budget = min(share, own * 0.8) - overhead
            fields["time"] = max(0.001, budget if tc.movetime is None else min(budget, tc.movetime))
    return Limit(**fields)


# -- engines -----------------------------------------------------------------------------------

_SPEC_KEYS = ("name", "cmd", "arg", "proto", "dir", "timeout", "tc", "st", "depth", "nodes")


def _words(text: str, what: str) -> list[str]:
    if not isinstance(text, str):
        raise TypeError(f"{what} is text, got {type(text).__name__}")
    try:
        return shlex.split(text)
    except ValueError as exc:  # "No closing quotation", "No escaped character"
        raise XiangqiError(f"{what}: {exc}: {text!r:.200}") from None


@dataclasses.dataclass(frozen=True)
class EngineSpec:
    """How to start an engine and how long it may think.

    command is the argv; protocol "uci" (Pikafish-style or Fairy-Stockfish, detected) or
    "ucci"; options are (name, value) pairs sent with configure(); directory is the working
    directory; tc is its time control (None: the match's).
    """

    command: tuple[str, ...]
    protocol: str = "uci"
    name: str | None = None
    options: tuple[tuple[str, str], ...] = ()
    directory: str | None = None
    tc: TimeControl | None = None
    timeout: float = DEFAULT_ENGINE_TIMEOUT

    def __post_init__(self) -> None:
        if not self.command or not all(isinstance(a, str) for a in self.command):
            raise XiangqiError(f"engine command must be non-empty text, got {self.command!r}")
        if self.protocol not in ("uci", "ucci"):
            raise XiangqiError(f"engine proto must be uci or ucci, got {self.protocol!r}")

    @classmethod
    def parse(cls, text: str, each: str = "") -> EngineSpec:
        """Read key=value words (``name=weak cmd=PATH 'option.Skill Level=0' tc=10+0.1``),
        quoted as a shell would, with each's settings under them; or a command line, with an
        optional "ucci:"/"uci:" prefix for the protocol."""
        words = _words(text, "engine settings")
        first = words[0].partition("=")[0] if words else ""
        keyed = first in _SPEC_KEYS or first.startswith("option.")
        if not keyed:
            protocol = "uci"
            for prefix in ("ucci:", "uci:"):
                if text.startswith(prefix):
                    protocol, text = prefix[:-1], text[len(prefix) :]
                    break
            argv = _words(text, "engine command")
            if not argv:
                raise XiangqiError(f"engine command is empty: {text!r}")
            words = [f"cmd={argv[0]}", *(f"arg={a}" for a in argv[1:]), f"proto={protocol}"]
        shared = _words(each, "--each settings") if each else []
        for word in shared:
            if word.partition("=")[0] in ("cmd", "arg", "name"):
                raise XiangqiError(f"{word.partition('=')[0]}= belongs to one engine: {each!r}")
        settings: dict[str, str] = {}
        args: list[str] = []
        options: dict[str, str] = {}
        tc = TimeControl()
        for word in [*shared, *words]:
            key, sep, value = word.partition("=")
            if not sep:
                raise XiangqiError(f"engine settings are key=value words; got {word!r} in {text!r}")
            if key.startswith("option."):
                if not key[7:]:
                    raise XiangqiError(f"option name is empty in {word!r}")
                options[key[7:]] = value
            elif key == "arg":
                args.append(value)
            elif key in ("tc", "st", "depth", "nodes"):
                tc = tc.merged(TimeControl.parse(word))
            elif key in _SPEC_KEYS:
                settings[key] = value
            else:
                raise XiangqiError(
                    f"unknown engine setting {key!r} (known: {', '.join(_SPEC_KEYS)}, "
                    f"option.NAME) in {text!r:.200}"
                )
        if not settings.get("cmd"):
            raise XiangqiError(f"engine settings need cmd=PROGRAM: {text!r}")
        timeout = DEFAULT_ENGINE_TIMEOUT
        if "timeout" in settings:
            timeout = _number(settings["timeout"], "timeout", text)
            if not timeout > 0:
                raise XiangqiError(f"timeout must be more than 0 seconds: {text!r}")
        return cls(
            (settings["cmd"], *args),
            settings.get("proto", "uci"),
            name=settings.get("name") or None,
            options=tuple(options.items()),
            directory=settings.get("dir") or None,
            tc=None if tc.is_empty() else tc,
            timeout=timeout,
        )

    def open(self) -> SimpleEngine:
        """Start the engine, shake hands and set its options (closing it again on failure)."""
        popen = SimpleEngine.popen_ucci if self.protocol == "ucci" else SimpleEngine.popen_uci
        if self.directory is not None and not os.path.isdir(self.directory):
            raise XiangqiError(f"engine dir is not a directory: {self.directory!r}")
        engine = popen(list(self.command), timeout=self.timeout, cwd=self.directory)
        try:
            if self.options:
                engine.configure(dict(self.options))
        except BaseException:
            engine.close()
            raise
        return engine

    def describe(self) -> dict[str, Any]:
        """The settings as plain data (for the results file)."""
        return {
            "name": self.name,
            "command": list(self.command),
            "proto": self.protocol,
            "options": dict(self.options),
            "dir": self.directory,
            "tc": None if self.tc is None else self.tc.pgn(),
        }


# -- openings ----------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Opening:
    """A start position (FEN) and the book moves played from it."""

    fen: str
    moves: tuple[Move, ...] = ()

    @classmethod
    def from_position(cls, pos: Position) -> Opening:
        """The opening of a Position: its root and its move stack."""
        root = pos.copy()
        moves = tuple(root.move_stack)
        while root.move_stack:
            root.pop()
        return cls(root.fen(), moves)

    def position(self) -> Position:
        """A Position after the book moves, with them on its move stack."""
        pos = Position(self.fen)
        for move in self.moves:
            pos.push(move)
        return pos


def load_openings(
    path: str | os.PathLike[str], *, plies: int | None = None, format: str | None = None
) -> list[Opening]:
    """Openings from a PGN file (main lines, cut to plies) or a FEN/EPD list (one a line).

    format is "pgn" or "epd"; None guesses from the name (.pgn) or the text (a tag line).
    The file must be UTF-8 (a BOM is allowed). Blank lines and lines starting with "#" in a
    FEN list are skipped; an EPD line's first four fields are its position.
    """
    if plies is not None and (isinstance(plies, bool) or not isinstance(plies, int) or plies < 0):
        raise XiangqiError(f"opening plies must be an int >= 0, got {plies!r}")
    with open(path, "rb") as handle:
        raw = handle.read()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise XiangqiError(
            f"openings file is not UTF-8 (byte {exc.start}: {raw[exc.start : exc.start + 4]!r}):"
            f" {os.fspath(path)!r}"
        ) from None
    if format is None:
        is_pgn = os.fspath(path).lower().endswith(".pgn") or text.lstrip().startswith("[")
        format = "pgn" if is_pgn else "epd"
    openings: list[Opening] = []
    if format == "pgn":
        for number, game in enumerate(read_games(text), 1):
            if game.errors:
                raise XiangqiError(
                    f"openings file {os.fspath(path)!r}, game {number}: {game.errors[0]}"
                )
            moves = tuple(game.mainline_moves())
            openings.append(Opening(game.board().fen(), moves if plies is None else moves[:plies]))
    elif format in ("epd", "fen"):
        for number, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = line.split()
            try:
                pos = Position(" ".join(fields[:6]))
            except ValueError:
                try:
                    pos = Position(" ".join(fields[:4]) + " 0 1")
                except ValueError as exc:
                    raise XiangqiError(
                        f"openings file {os.fspath(path)!r}, line {number}: {exc}"
                    ) from None
            openings.append(Opening(pos.fen()))
    else:
        raise XiangqiError(f"openings format must be pgn or epd, got {format!r}")
    if not openings:
        raise XiangqiError(f"no openings in {os.fspath(path)!r}")
    return openings


# -- one game ----------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class GameOver:
    """How a game ended: result ("1-0", "0-1", "1/2-1/2"), PGN Termination word, reason."""

    result: str
    termination: str
    reason: str
    #: The side whose engine failed (crash, illegal or no move, time), so it is restarted.
    fault: Color | None = None


@dataclasses.dataclass(frozen=True)
class Adjudication:
    """When the runner ends a game before the rules do.

    max_plies: a draw after this many plies (None: never). draw_move/draw_count/draw_score:
    from move draw_move on, a draw when the last draw_count moves of each engine all scored
    within +-draw_score centipawns (draw_count 0: off). resign_count/resign_score: an engine
    whose last resign_count moves scored -resign_score or worse loses (0: off); with
    resign_two_sided the opponent must agree with +resign_score or better. rules: the rule
    set of the library's rulings, "asian" (the default) or "chinese" (xiangqi.Rules; see
    Position.outcome), kept as a Rules member.
    """

    max_plies: int | None = DEFAULT_MAX_PLIES
    draw_move: int = 0
    draw_count: int = 0
    draw_score: int = 0
    resign_count: int = 0
    resign_score: int = 0
    resign_two_sided: bool = False
    rules: Rules | str = Rules.ASIAN

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", check_rules(self.rules))
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if field.name == "rules":
                continue
            if field.name == "resign_two_sided":
                if not isinstance(value, bool):
                    raise TypeError(f"resign_two_sided must be a bool, got {value!r}")
            elif value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or value < 0
            ):
                raise XiangqiError(f"{field.name} must be an int >= 0, got {value!r}")
        if self.max_plies == 0:
            raise XiangqiError("max_plies must be at least 1 (None for no cap)")

    @staticmethod
    def parse_rule(text: str, kind: str) -> dict[str, Any]:
        """The fields of "movenumber=40 movecount=8 score=10" (kind "draw") or
        "movecount=3 score=600 twosided=true" (kind "resign")."""
        keys = ("movenumber", "movecount", "score") if kind == "draw" else ("movecount", "score")
        out: dict[str, Any] = {}
        for word in _words(text, f"--{kind} settings"):
            key, sep, value = word.partition("=")
            if kind == "resign" and key == "twosided" and value.lower() in ("true", "false"):
                out["resign_two_sided"] = value.lower() == "true"
                continue
            if not sep or key not in keys or not _INT.fullmatch(value):
                raise XiangqiError(
                    f"--{kind} takes {', '.join(k + '=N' for k in keys)}"
                    + (" and twosided=true|false" if kind == "resign" else "")
                    + f"; got {word!r} in {text!r:.100}"
                )
            name = {"movenumber": "move", "movecount": "count", "score": "score"}[key]
            out[f"{kind}_{name}"] = int(value)
        if not out.get(f"{kind}_count"):
            raise XiangqiError(f"--{kind} needs movecount=N (at least 1): {text!r:.100}")
        return out


def adjudicate(
    pos: Position, max_plies: int | None = DEFAULT_MAX_PLIES, rules: Rules | str = Rules.ASIAN
) -> GameOver | None:
    """The ruling on pos (with its move history), or None while the game goes on.

    The project's own rulings decide (``pos.outcome(rules=rules)``: checkmate, stalemate,
    repetition, perpetual check and chase (and under the Chinese rules perpetual mate
    threats and the mixed cycles), the move rule, insufficient material); a game longer
    than max_plies plies is a draw by adjudication.
    """
    outcome = pos.outcome(rules=check_rules(rules))
    if outcome is not None:
        reason = outcome.termination_tag()
        if outcome.winner is not None:
            loser = "Black" if outcome.winner == Color.RED else "Red"
            reason = f"{reason}: {loser} loses"
        return GameOver(outcome.result(), outcome.termination_tag(), reason)
    if max_plies is not None and len(pos.move_stack) >= max_plies:
        return GameOver("1/2-1/2", "adjudication", f"draw: the {max_plies}-ply cap was reached")
    return None


def _loss_for(side: Color) -> str:
    return "0-1" if side == Color.RED else "1-0"


_SIDE_NAME = {Color.RED: "Red", Color.BLACK: "Black"}
#: Centipawns that stand for a mate score in the adjudication rules.
_MATE_CP = 100_000


def _score_cp(score: PovScore | None, side: Color) -> int | None:
    if score is None:
        return None
    own = score.pov(side)
    mate = own.mate()
    if mate is not None:
        return _MATE_CP if mate > 0 else -_MATE_CP
    return own.score()


def _score_comment(score: PovScore | None, side: Color, depth: object, seconds: float) -> str:
    """cutechess's move comment: score in pawns from the mover's side, depth, time."""
    text = "?"
    if score is not None:
        own = score.pov(side)
        mate = own.mate()
        if mate is not None:
            text = f"+M{mate}" if mate > 0 else f"-M{-mate}"
        else:
            text = f"{(own.score() or 0) / 100:+.2f}"
    if isinstance(depth, int):
        text += f"/{depth}"
    return f"{text} {seconds:.2f}s"


def _by_score(
    rules: Adjudication, scores: list[int | None], mover: Color, plies: int
) -> GameOver | None:
    """A draw or resignation by the engines' scores (mover's view, one per engine move),
    after mover's move; plies counts the game's moves so far (book moves included)."""
    if rules.resign_count and len(scores) >= 2 * rules.resign_count - 1:
        own = scores[-1::-2][: rules.resign_count]
        other = scores[-2::-2][: rules.resign_count]
        if len(own) == rules.resign_count and all(
            s is not None and s <= -rules.resign_score for s in own
        ):
            agreed = len(other) == rules.resign_count and all(
                s is not None and s >= rules.resign_score for s in other
            )
            if not rules.resign_two_sided or agreed:
                return GameOver(
                    _loss_for(mover),
                    "adjudication",
                    f"{_SIDE_NAME[mover]} resigns: score <= -{rules.resign_score} cp for "
                    f"{rules.resign_count} moves",
                )
    if rules.draw_count and (plies + 1) // 2 >= rules.draw_move:
        last = scores[-2 * rules.draw_count :]
        if len(last) == 2 * rules.draw_count and all(
            s is not None and abs(s) <= rules.draw_score for s in last
        ):
            return GameOver(
                "1/2-1/2",
                "adjudication",
                f"draw: both scores within {rules.draw_score} cp for {rules.draw_count} moves",
            )
    return None


def play_game(
    red: SimpleEngine,
    black: SimpleEngine,
    limit: Limit | TimeControl | Sequence[TimeControl],
    *,
    start: Position | Opening | None = None,
    max_plies: int | None = DEFAULT_MAX_PLIES,
    adjudication: Adjudication | None = None,
    time_margin: float = DEFAULT_TIME_MARGIN,
    tags: dict[str, str] | None = None,
    stop: threading.Event | None = None,
) -> tuple[Game, GameOver]:
    """Play one game from start (an Opening, or a Position whose move stack is the opening).

    limit: a Limit or TimeControl for both engines, or a (Red's, Black's) pair of
    TimeControls. Returns the PGN Game (from the opening's root, with the book moves; the
    last book ply carries "end of opening") and how it ended. An engine that fails (illegal
    or no move, exit, timeout) or overruns its clock by more than time_margin loses. When
    stop is set the game ends at once as "abandoned" (the caller discards it).
    """
    if isinstance(limit, Limit):
        limit = TimeControl.from_limit(limit)
    tcs = (limit, limit) if isinstance(limit, TimeControl) else tuple(limit)
    rules = adjudication or Adjudication(max_plies=max_plies)
    opening = start if isinstance(start, Opening) else Opening.from_position(start or Position())
    pos = opening.position()
    game = Game(opening.fen, tags)
    for ply, move in enumerate(opening.moves, 1):
        game.add_move(move, "end of opening" if ply == len(opening.moves) else None)
    clocks: list[float | None] = [tc.seconds for tc in tcs]
    increments = [tc.increment for tc in tcs]
    period_left: list[int | None] = [tc.moves for tc in tcs]
    scores: list[int | None] = []
    engines = (red, black)
    #: Seconds a move took beyond the time asked for, per side (decaying maximum).
    overhead = [0.0, 0.0]
    while True:
        over = adjudicate(pos, rules.max_plies, rules.rules)
        if over is not None:
            break
        if stop is not None and stop.is_set():
            over = GameOver("*", "abandoned", "the match was stopped")
            break
        side = pos.turn
        name = _SIDE_NAME[side]
        tc = tcs[side]
        own = clocks[side]
        allowed: float | None = None  # seconds before the move is lost on time
        if own is not None:
            allowed = own
        elif tc.movetime is not None:
            allowed = tc.movetime
        limit_now = make_limit(tc, side, clocks, increments, period_left[side], overhead[side])
        began = time.monotonic()
        try:
            played = engines[side].play(
                pos, limit_now, timeout=None if allowed is None else allowed + time_margin
            )
        except EngineTerminatedError as exc:
            over = GameOver(_loss_for(side), "abandoned", f"{name} engine exited: {exc}", side)
            break
        except EngineError as exc:
            elapsed = time.monotonic() - began
            if allowed is not None and elapsed >= allowed + time_margin:
                over = GameOver(
                    _loss_for(side), "time forfeit", f"{name} loses on time ({exc})", side
                )
            else:
                over = GameOver(
                    _loss_for(side), "rules infraction", f"{name} engine failed: {exc}", side
                )
            break
        elapsed = time.monotonic() - began
        if allowed is not None and elapsed > allowed + time_margin:
            over = GameOver(
                _loss_for(side),
                "time forfeit",
                f"{name} loses on time: {elapsed:.3f} s used, {allowed:.3f} s left",
                side,
            )
            break
        if played.resigned:
            over = GameOver(_loss_for(side), "normal", f"{name} resigns")
            break
        if played.move is None:
            over = GameOver(
                _loss_for(side), "rules infraction", f"{name} engine sent no move", side
            )
            break
        if limit_now.time is not None:
            overhead[side] = max(0.9 * overhead[side], elapsed - limit_now.time)
        if own is not None:
            # An overrun within the margin costs the clock what was left, not more.
            left = max(own - elapsed, 0.0) + increments[side]
            moves_left = period_left[side]
            if moves_left is not None and tc.seconds is not None:
                moves_left -= 1
                if moves_left == 0:
                    left += tc.seconds
                    moves_left = tc.moves
                period_left[side] = moves_left
            clocks[side] = left
        pos.push(played.move)  # the engine client has checked it is legal
        score = played.info.get("score")
        game.add_move(played.move, _score_comment(score, side, played.info.get("depth"), elapsed))
        scores.append(_score_cp(score, side))
        over = _by_score(rules, scores, side, len(pos.move_stack))
        if over is not None:
            break
    game.tags["Result"] = over.result
    game.tags["Termination"] = over.termination
    game.tags["Rules"] = str(rules.rules)  # the rule set the library's rulings used
    last = game.end_node()
    last.comment = f"{last.comment}; {over.reason}" if last.comment else over.reason
    return game, over


# -- the match ---------------------------------------------------------------------------------


@dataclasses.dataclass
class MatchResult:
    """What a match gave: names, counts from the first engine's side, statistics, games.

    games holds the PGN Games in game order when the match was asked to keep them.
    records holds one small dict per finished game (as in the results file).
    """

    names: tuple[str, str]
    games: list[Game] = dataclasses.field(default_factory=list)
    tally: Tally = dataclasses.field(default_factory=Tally)
    records: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    sprt: SPRT | None = None
    llr: float | None = None
    #: "" while running; "complete", "H0" or "H1" (the SPRT's decision), or "interrupted".
    stopped: str = ""

    @property
    def wins(self) -> int:
        """Games the first engine won."""
        return self.tally.wins

    @property
    def draws(self) -> int:
        """Drawn games."""
        return self.tally.draws

    @property
    def losses(self) -> int:
        """Games the first engine lost."""
        return self.tally.losses

    @property
    def score(self) -> float:
        """The first engine's points: 1 a win, 1/2 a draw."""
        return self.tally.score

    def estimate(self) -> Estimate | None:
        """Elo, normalized Elo and LOS (see xiangqi.stats), None before the first game."""
        return self.tally.estimate()

    def summary(self) -> str:
        """One line: "A 2.5 - 1.5 B (+2 =1 -1)"."""
        done = self.tally.games
        return (
            f"{self.names[0]} {self.score:g} - {done - self.score:g} {self.names[1]} "
            f"(+{self.wins} ={self.draws} -{self.losses})"
        )

    def status_line(self, total: int | None = None) -> str:
        """Games, score, Elo +- interval, nElo, LOS and the LLR, for a progress display."""
        tally = self.tally
        head = f"{tally.games}" + (f"/{total}" if total else "")
        parts = [
            f"games {head}",
            f"score {tally.score:g}-{tally.games - tally.score:g}",
            f"W/D/L {tally.wins}/{tally.draws}/{tally.losses}",
        ]
        if tally.pairs:
            parts.append("penta " + ",".join(map(str, tally.pentanomial)))
        est = tally.estimate()
        if est is not None:
            parts.append(f"Elo {est.elo:+.1f} ± {est.elo_error:.1f}")
            parts.append(f"nElo {est.nelo:+.1f} ± {est.nelo_error:.1f}")
            parts.append(f"LOS {100 * est.los:.1f}%")
        if self.sprt is not None and self.llr is not None:
            parts.append(
                f"LLR {self.llr:.2f} ({self.sprt.lower_bound:.2f}, {self.sprt.upper_bound:.2f})"
            )
        return "  ".join(parts)

    def to_json(self, specs: Sequence[EngineSpec] = (), **extra: Any) -> dict[str, Any]:
        """The results as plain data: engines, each game, and the totals."""
        est = self.tally.estimate()
        totals: dict[str, Any] = {
            "games": self.tally.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": self.score,
            "pairs": self.tally.pairs,
            "pentanomial": list(self.tally.pentanomial),
            "elo": None if est is None else est.elo,
            "elo_ci95": None if est is None else [est.elo_low, est.elo_high],
            "nelo": None if est is None else est.nelo,
            "nelo_ci95": None if est is None else [est.nelo_low, est.nelo_high],
            "los": None if est is None else est.los,
            "llr": self.llr,
            "stopped": self.stopped,
        }
        sprt = None
        if self.sprt is not None:
            sprt = dataclasses.asdict(self.sprt)
            sprt.update(
                lower_bound=self.sprt.lower_bound,
                upper_bound=self.sprt.upper_bound,
                llr=self.llr,
                state=self.sprt.state(self.llr or 0.0),
            )
        return {
            **extra,
            "engines": [{**spec.describe(), "name": name} for spec, name in zip(specs, self.names)]
            or list(self.names),
            "sprt": sprt,
            "games": sorted(self.records, key=lambda r: int(r["game"])),
            "totals": totals,
        }


class _Runner:
    """Shared state of a running match; workers take game numbers from it as they go."""

    def __init__(
        self,
        specs: Sequence[EngineSpec],
        tcs: tuple[TimeControl, TimeControl],
        total: int,
        openings: Sequence[Opening],
        order: Sequence[int] | None,
        rules: Adjudication,
        time_margin: float,
        sprt: SPRT | None,
        pgn_out: TextIO | None,
        progress: TextIO | None,
        event: str,
        keep_games: bool,
    ) -> None:
        self.specs = specs
        self.tcs = tcs
        self.total = total
        self.openings = openings
        self.order = order
        self.rules = rules
        self.time_margin = time_margin
        self.pgn_out = pgn_out
        self.progress = progress
        self.event = event
        self.keep_games = keep_games
        self.date = datetime.date.today().strftime("%Y.%m.%d")
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.next_game = 0
        self.written = 0  # games before this one are written (or were discarded)
        self.done: dict[int, Game | None] = {}  # finished games waiting for earlier ones
        self.half_pairs: dict[int, float] = {}  # round -> first engine's points in its 1st game
        self.live: dict[int, SimpleEngine] = {}  # engines in a search, by worker
        self.failures: list[BaseException] = []
        self.shown = 0  # length of the progress line on screen
        self.running = 0  # workers that have not finished (set before they start)
        self.all_done = threading.Event()
        self.named = False
        self.result = MatchResult(self._names(None), sprt=sprt)

    def _names(self, engines: Sequence[SimpleEngine | None] | None) -> tuple[str, str]:
        """Each spec's name, else the engine's id name (else its program's name)."""
        names = []
        for i, spec in enumerate(self.specs):
            engine = engines[i] if engines is not None else None
            fallback = os.path.basename(spec.command[0])
            names.append(spec.name or (engine.id.get("name", fallback) if engine else fallback))
        if names[0] == names[1]:
            names = [f"{names[0]} #1", f"{names[1]} #2"]
        return names[0], names[1]

    def opening(self, round_index: int) -> Opening:
        if not self.openings:
            return Opening(Position().fen())
        index = round_index % len(self.openings)
        if self.order is not None:
            index = self.order[index]
        return self.openings[index]

    def take(self) -> int | None:
        with self.lock:
            if self.stop.is_set() or self.next_game >= self.total:
                return None
            k = self.next_game
            self.next_game += 1
            return k

    def worker(self, slot: int) -> None:
        pair: list[SimpleEngine | None] = [None, None]
        try:
            while (k := self.take()) is not None:
                for i in (0, 1):
                    if pair[i] is None:
                        pair[i] = self.specs[i].open()
                with self.lock:
                    if not self.named:  # the first engines to start give the names
                        self.result.names = self._names(pair)
                        self.named = True
                first_red = k % 2 == 0
                order = (0, 1) if first_red else (1, 0)
                red, black = pair[order[0]], pair[order[1]]
                assert red is not None and black is not None
                names = self.result.names
                tcs = (self.tcs[order[0]], self.tcs[order[1]])
                tags = {
                    "Event": self.event,
                    "Site": "xiangqi match",
                    "Date": self.date,
                    "Round": str(k // 2 + 1),
                    "Red": names[order[0]],
                    "Black": names[order[1]],
                }
                if tcs[0] == tcs[1]:
                    tags["TimeControl"] = tcs[0].pgn()
                else:
                    tags["RedTimeControl"] = tcs[0].pgn()
                    tags["BlackTimeControl"] = tcs[1].pgn()
                with self.lock:
                    self.live[slot] = red  # both, for the stop: see kill_live
                    self.live[-1 - slot] = black
                try:
                    game, over = play_game(
                        red,
                        black,
                        tcs,
                        start=self.opening(k // 2),
                        adjudication=self.rules,
                        time_margin=self.time_margin,
                        tags=tags,
                        stop=self.stop,
                    )
                finally:
                    with self.lock:
                        self.live.pop(slot, None)
                        self.live.pop(-1 - slot, None)
                fault = over.fault
                exited = fault is not None and over.termination == "abandoned"
                if exited and fault is not None and _interrupted(pair[order[fault]]):
                    # Ctrl-C in a terminal reaches the engines too: the game did not end.
                    with self.lock:
                        self.result.stopped = "interrupted"
                    self.stop.set()
                if self.stop.is_set():
                    return  # a stopped match keeps only games that ended by themselves
                if over.fault is not None:  # restart the engine that failed
                    i = order[over.fault]
                    faulty = pair[i]
                    pair[i] = None
                    if faulty is not None:
                        _close(faulty)
                self.record(k, game, over, first_red)
        except BaseException as exc:  # reported by run_match in the caller's thread
            with self.lock:
                self.failures.append(exc)
            self.stop.set()
        finally:
            try:
                for engine in pair:
                    if engine is not None:
                        _close(engine)
            finally:
                with self.lock:
                    self.running -= 1
                    if not self.running:
                        self.all_done.set()

    def record(self, k: int, game: Game, over: GameOver, first_red: bool) -> None:
        points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[over.result]
        if not first_red:
            points = 1 - points
        result = self.result
        with self.lock:
            if self.stop.is_set():
                return
            result.tally.add_game(points)
            round_index = k // 2
            other = self.half_pairs.pop(round_index, None)
            if other is None:
                self.half_pairs[round_index] = points
            else:
                result.tally.add_pair(other + points)
            result.records.append(
                {
                    "game": k + 1,
                    "round": round_index + 1,
                    "red": game.tags["Red"],
                    "black": game.tags["Black"],
                    "result": over.result,
                    "termination": over.termination,
                    "reason": over.reason,
                    "plies": len(game.mainline_moves()),
                    "opening": None
                    if not self.openings
                    else (round_index % len(self.openings))
                    if self.order is None
                    else self.order[round_index % len(self.openings)],
                }
            )
            self.done[k] = game
            self.flush(final=False)
            if result.sprt is not None and result.tally.games:
                result.llr = result.sprt.llr(result.tally.counts())
                state = result.sprt.state(result.llr)
                if state and result.tally.pairs:
                    result.stopped = state
                    self.stop.set()
            self.report()

    def flush(self, final: bool) -> None:
        """Write finished games in game order (all that are left, when final)."""
        while self.done and (final or self.written in self.done):
            k = self.written if self.written in self.done else min(self.done)
            game = self.done.pop(k)
            self.written = k + 1
            if game is None:
                continue
            if self.pgn_out is not None:
                self.pgn_out.write(game.to_pgn() + "\n")
                self.pgn_out.flush()
            if self.keep_games:
                self.result.games.append(game)

    def report(self, end: bool = False) -> None:
        if self.progress is None:
            return
        line = self.result.status_line(self.total if self.total < 10**9 else None)
        padding = " " * max(0, self.shown - len(line))
        self.shown = len(line)
        self.progress.write("\r" + line + padding + ("\n" if end else ""))
        self.progress.flush()

    def kill_live(self) -> None:
        """Kill the engines in a game now, so every game stops at once; workers reap them."""
        with self.lock:
            engines = list(self.live.values())
        for engine in engines:
            pid = engine.pid
            if pid is not None and engine.returncode is None:
                try:
                    os.kill(pid, getattr(signal, "SIGKILL", signal.SIGTERM))
                except (ProcessLookupError, PermissionError):
                    pass


def _interrupted(engine: SimpleEngine | None) -> bool:
    """Did the engine die of SIGINT (Ctrl-C reaching its process group)?"""
    if engine is None:
        return False
    deadline = time.monotonic() + 1.0
    while engine.returncode is None and time.monotonic() < deadline:
        time.sleep(0.01)
    return engine.returncode == -signal.SIGINT


def _close(engine: SimpleEngine) -> None:
    """Close an engine (killing it if it ignores quit); a failure to close is logged."""
    try:
        engine.close()
    except Exception as exc:  # the process is killed and reaped either way
        _LOGGER.warning("closing %r: %s", engine, exc)
        pid = engine.pid
        if pid is not None and engine.returncode is None:
            try:
                os.kill(pid, getattr(signal, "SIGKILL", signal.SIGTERM))
            except (ProcessLookupError, PermissionError):
                pass


def _as_tc(value: Limit | TimeControl | str | None) -> TimeControl | None:
    if value is None:
        return None
    if isinstance(value, Limit):
        return TimeControl.from_limit(value)
    if isinstance(value, TimeControl):
        return value
    if isinstance(value, str):
        return TimeControl.parse(value)
    raise TypeError(f"a time control is a TimeControl, Limit or text, got {type(value).__name__}")


def _positive_int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, got {value!r}")
    if value < 1:
        raise XiangqiError(f"{what} must be at least 1, got {value!r}")
    return value


def run_match(
    engines: Sequence[EngineSpec | str],
    games: int | None = None,
    limit: Limit | TimeControl | str | None = None,
    *,
    rounds: int | None = None,
    each: str = "",
    tc: Limit | TimeControl | str | None = None,
    openings: Sequence[Position | Opening] | str | os.PathLike[str] | None = None,
    opening_plies: int | None = None,
    opening_format: str | None = None,
    opening_order: str = "sequential",
    seed: int | None = None,
    concurrency: int = 1,
    max_plies: int | None = DEFAULT_MAX_PLIES,
    draw: str | Mapping[str, Any] | None = None,
    resign: str | Mapping[str, Any] | None = None,
    rules: Rules | str = Rules.ASIAN,
    time_margin: float = DEFAULT_TIME_MARGIN,
    sprt: SPRT | str | None = None,
    pgn_out: TextIO | None = None,
    results_out: TextIO | None = None,
    progress: TextIO | None = None,
    event: str = "xiangqi match",
    keep_games: bool = True,
) -> MatchResult:
    """Play a match between two engines; the same settings as ``xiangqi match``.

    engines: two EngineSpecs or their texts (see EngineSpec.parse), each given the shared
    settings in each. games or rounds (a round is a game pair, one opening with colours
    reversed; default one round). limit/tc: the time control of engines without their own
    (TimeControl, Limit or text such as "10+0.1"; default "depth=6"). openings: Positions,
    Openings, or a file for load_openings (with opening_plies, opening_format); opening_order
    "sequential" or "random" (shuffled with seed). concurrency K plays K games at once, each
    worker with its own two engine processes. draw and resign: adjudication rules as text
    ("movenumber=40 movecount=8 score=10"; "movecount=3 score=600 twosided=true") or as
    Adjudication field names. rules: "asian" (the default) or "chinese" (xiangqi.Rules), the
    rule set the library's rulings adjudicate by (each game's PGN names it in a Rules
    tag). sprt: SPRT or text ("elo0=0 elo1=5 alpha=0.05 beta=0.05"); the
    match stops at its bound. PGN goes to pgn_out in game order as games finish; the results
    (JSON) to results_out at the end; a status line to progress (e.g. sys.stderr). On
    KeyboardInterrupt every game stops, every engine is closed or killed, the finished games
    and results are written, and the interrupt is raised again.
    """
    if isinstance(engines, (str, EngineSpec)) or len(engines) != 2:
        count = 1 if isinstance(engines, (str, EngineSpec)) else len(engines)
        raise XiangqiError(f"a match needs exactly two engines, got {count}")
    specs = [
        EngineSpec.parse(e, each) if isinstance(e, str) else _with_each(e, each) for e in engines
    ]
    if games is not None and rounds is not None:
        raise XiangqiError("give games or rounds, not both")
    if games is not None:
        total = _positive_int(games, "games")
    elif rounds is not None:
        total = 2 * _positive_int(rounds, "rounds")
    else:
        total = 2
    concurrency = min(_positive_int(concurrency, "concurrency"), total)
    if limit is not None and tc is not None:
        raise XiangqiError("give limit or tc, not both")
    base = _as_tc(limit if limit is not None else tc)
    tcs = []
    for spec in specs:
        own = spec.tc if spec.tc is not None else base
        tcs.append(own if own is not None else TimeControl.parse(DEFAULT_TC))
    if isinstance(time_margin, bool) or not isinstance(time_margin, (int, float)):
        raise TypeError(f"time_margin must be a number of seconds, got {time_margin!r}")
    if not 0 <= time_margin < math.inf:
        raise XiangqiError(f"time_margin must be >= 0 seconds, got {time_margin!r}")
    fields: dict[str, Any] = {"max_plies": max_plies, "rules": check_rules(rules)}
    for text, kind in ((draw, "draw"), (resign, "resign")):
        if isinstance(text, str):
            fields.update(Adjudication.parse_rule(text, kind))
        elif text is not None:
            fields.update(text)
    adjudication = Adjudication(**fields)
    if isinstance(sprt, str):
        sprt = SPRT.parse(sprt)
    book = _openings(openings, opening_plies, opening_format)
    if opening_order not in ("sequential", "random"):
        raise XiangqiError(f"opening order must be sequential or random, got {opening_order!r}")
    order: list[int] | None = None
    if opening_order == "random" and book:
        order = list(range(len(book)))
        random.Random(seed).shuffle(order)
    runner = _Runner(
        specs,
        (tcs[0], tcs[1]),
        total,
        book,
        order,
        adjudication,
        float(time_margin),
        sprt,
        pgn_out,
        progress,
        event,
        keep_games,
    )
    threads = [
        threading.Thread(target=runner.worker, args=(i,), name=f"xiangqi-match-{i}", daemon=True)
        for i in range(concurrency)
    ]
    # The main thread waits on an Event, not in Thread.join(): a KeyboardInterrupt that lands
    # inside join() can leave the thread marked as stopped while it still runs (CPython 3.11).
    runner.running = len(threads)
    try:
        for thread in threads:
            thread.start()
        while not runner.all_done.wait(0.05):
            if runner.stop.is_set():
                runner.kill_live()
    except BaseException:
        runner.result.stopped = "interrupted"
        runner.stop.set()
        runner.kill_live()
        with runner.lock:  # threads never started will not report
            runner.running -= sum(1 for thread in threads if thread.ident is None)
            if runner.running <= 0:
                runner.all_done.set()
        runner.all_done.wait()
        raise
    finally:
        with runner.lock:
            runner.flush(final=True)
            result = runner.result
            if not result.stopped:
                result.stopped = "complete"
            if result.tally.games:
                runner.report(end=True)
        if results_out is not None:
            data = result.to_json(
                specs,
                event=event,
                date=runner.date,
                time_control=[t.pgn() for t in tcs],
                rules=str(adjudication.rules),
                planned_games=total,
            )
            json.dump(data, results_out, indent=1)
            results_out.write("\n")
            results_out.flush()
    if runner.failures:
        raise runner.failures[0]
    return result


def _with_each(spec: EngineSpec, each: str) -> EngineSpec:
    if not each:
        return spec
    shared = EngineSpec.parse(f"cmd={shlex.quote(spec.command[0])} {each}")
    tc = spec.tc if shared.tc is None else shared.tc.merged(spec.tc or TimeControl())
    return dataclasses.replace(
        spec,
        options=tuple({**dict(shared.options), **dict(spec.options)}.items()),
        tc=tc,
        directory=spec.directory or shared.directory,
        protocol=spec.protocol,
    )


def _openings(
    openings: Sequence[Position | Opening] | str | os.PathLike[str] | None,
    plies: int | None,
    format: str | None,
) -> list[Opening]:
    if openings is None:
        return []
    if isinstance(openings, (str, os.PathLike)):
        return load_openings(openings, plies=plies, format=format)
    book: list[Opening] = []
    for item in openings:
        if isinstance(item, Position):
            item = Opening.from_position(item)
        if not isinstance(item, Opening):
            raise TypeError(f"openings are Positions or Openings, got {type(item).__name__}")
        if plies is not None:
            item = Opening(item.fen, item.moves[:plies])
        book.append(item)
    return book
