"""Engine-vs-engine matches: alternating colours, the project's rulings, PGN out.

Squares are public numbers 0..89 and moves xiangqi.Move objects, as everywhere in the package.
A match plays ``games`` games between two engines (:class:`EngineSpec`), swapping colours
every game (with openings, each opening is played twice, once with each engine as Red). Each
game is judged after every move by :func:`adjudicate` with the project's rulings
(``Position.outcome()``: mate, stalemate, perpetual check and chase, repetition, the move rule,
insufficient material) plus a ply cap. An engine that sends an illegal move, no move, or dies loses the game. Every game is
written as PGN through :mod:`xiangqi.pgn` with its Result, a Termination tag (PGN's standard
words: normal, adjudication, rules infraction, abandoned) and a closing comment that names
the reason.
"""

from __future__ import annotations

import dataclasses
import queue
import shlex
import threading
from collections.abc import Sequence
from typing import TextIO

from .engine import EngineError, EngineTerminatedError, Limit, SimpleEngine
from .errors import XiangqiError
from .pgn import Game
from .pieces import Color
from .position import Position

__all__ = [
    "DEFAULT_MAX_PLIES",
    "EngineSpec",
    "GameOver",
    "MatchResult",
    "adjudicate",
    "parse_tc",
    "play_game",
    "run_match",
]

#: A game still running after this many plies (both sides' moves) is adjudicated a draw.
DEFAULT_MAX_PLIES = 300


@dataclasses.dataclass(frozen=True)
class EngineSpec:
    """How to start an engine: argv and protocol ("uci", covering Fairy-Stockfish, or "ucci")."""

    command: tuple[str, ...]
    protocol: str = "uci"

    @classmethod
    def parse(cls, text: str) -> EngineSpec:
        """Read a command line; a "ucci:" or "uci:" prefix picks the protocol (default uci)."""
        protocol = "uci"
        for prefix in ("ucci:", "uci:"):
            if text.startswith(prefix):
                protocol, text = prefix[:-1], text[len(prefix) :]
                break
        argv = tuple(shlex.split(text))
        if not argv:
            raise XiangqiError(f"engine command is empty: {text!r}")
        return cls(argv, protocol)

    def open(self) -> SimpleEngine:
        """Start the engine and shake hands."""
        if self.protocol == "ucci":
            return SimpleEngine.popen_ucci(list(self.command))
        return SimpleEngine.popen_uci(list(self.command))


@dataclasses.dataclass(frozen=True)
class GameOver:
    """How a game ended: result ("1-0", "0-1", "1/2-1/2"), PGN Termination word, reason."""

    result: str
    termination: str
    reason: str


def adjudicate(pos: Position, max_plies: int = DEFAULT_MAX_PLIES) -> GameOver | None:
    """The ruling on pos (with its move history), or None while the game goes on.

    The project's own rulings decide (``pos.outcome()``: checkmate, stalemate, repetition,
    perpetual check and chase, the 60-move rule, insufficient material); a game longer
    than max_plies plies is a draw by adjudication.
    """
    outcome = pos.outcome()
    if outcome is not None:
        reason = outcome.termination.name.lower().replace("_", " ")
        if outcome.winner is not None:
            loser = "Black" if outcome.winner == Color.RED else "Red"
            reason = f"{reason}: {loser} loses"
        return GameOver(outcome.result(), outcome.termination_tag(), reason)
    if len(pos.move_stack) >= max_plies:
        return GameOver("1/2-1/2", "adjudication", f"draw: the {max_plies}-ply cap was reached")
    return None


def _loss_for(side: Color) -> str:
    return "0-1" if side == Color.RED else "1-0"


def play_game(
    red: SimpleEngine,
    black: SimpleEngine,
    limit: Limit,
    *,
    start: Position | None = None,
    max_plies: int = DEFAULT_MAX_PLIES,
    tags: dict[str, str] | None = None,
) -> tuple[Game, GameOver]:
    """Play one game from start (a Position whose move stack is the opening) to its end.

    Returns the PGN Game (its root is the start's root, its moves include the opening) and
    how it ended. An engine that fails (illegal or no move, exit, timeout) loses.
    """
    pos = start.copy() if start is not None else Position()
    root = pos.copy()
    while root.move_stack:
        root.pop()
    game = Game(root.fen(), tags)
    game.moves.extend(pos.move_stack)  # legal: they were pushed on pos
    while True:
        over = adjudicate(pos, max_plies)
        if over is not None:
            break
        side = pos.turn
        name = "Red" if side == Color.RED else "Black"
        engine = red if side == Color.RED else black
        try:
            move = engine.play(pos, limit).move
        except EngineTerminatedError as exc:
            over = GameOver(_loss_for(side), "abandoned", f"{name} engine exited: {exc}")
            break
        except EngineError as exc:
            over = GameOver(_loss_for(side), "rules infraction", f"{name} engine failed: {exc}")
            break
        if move is None:
            over = GameOver(_loss_for(side), "rules infraction", f"{name} engine sent no move")
            break
        pos.push(move)  # the engine client has checked it is legal
        game.moves.append(move)
    game.result = over.result
    game.tags["Termination"] = over.termination
    game.comments[len(game.moves)] = over.reason
    return game, over


@dataclasses.dataclass
class MatchResult:
    """Games in the order they were numbered, and the first engine's score."""

    names: tuple[str, str]
    games: list[Game] = dataclasses.field(default_factory=list)
    wins: int = 0  #: games the first engine won
    draws: int = 0
    losses: int = 0  #: games the first engine lost

    @property
    def score(self) -> float:
        """The first engine's points: 1 a win, 1/2 a draw."""
        return self.wins + self.draws / 2

    def summary(self) -> str:
        """One line: "A 2.5 - 1.5 B (+2 =1 -1)"."""
        done = self.wins + self.draws + self.losses
        return (
            f"{self.names[0]} {self.score:g} - {done - self.score:g} {self.names[1]} "
            f"(+{self.wins} ={self.draws} -{self.losses})"
        )


def parse_tc(text: str) -> Limit:
    """A search limit from "depth=N", "movetime=MS", "nodes=N", or several joined by commas."""
    fields: dict[str, int] = {}
    for part in text.split(","):
        key, sep, value = part.strip().partition("=")
        if not sep or key not in ("depth", "movetime", "nodes") or not value.isdigit():
            raise XiangqiError(
                f"time control must be depth=N, movetime=MS or nodes=N (comma-joined), "
                f"got {text!r:.100}"
            )
        if int(value) < 1:
            raise XiangqiError(f"{key} must be at least 1, got {text!r:.100}")
        fields[key] = int(value)
    movetime = fields.get("movetime")
    return Limit(
        time=movetime / 1000 if movetime else None,
        depth=fields.get("depth"),
        nodes=fields.get("nodes"),
    )


def _bar(done: int, total: int, width: int = 24) -> str:
    filled = width * done // max(total, 1)
    return "[" + "#" * filled + "." * (width - filled) + "]"


def run_match(
    engines: Sequence[EngineSpec],
    games: int,
    limit: Limit,
    *,
    openings: Sequence[Position] = (),
    concurrency: int = 1,
    max_plies: int = DEFAULT_MAX_PLIES,
    pgn_out: TextIO | None = None,
    progress: TextIO | None = None,
    event: str = "xiangqi match",
) -> MatchResult:
    """Play games between two engines, alternating colours; PGN to pgn_out as games finish.

    Game k (from 0) has the first engine as Red when k is even; with openings, games 2j and
    2j+1 start from openings[j % len(openings)]. concurrency K runs K games at once, each
    worker with its own two engine processes. The running score and a progress bar go to
    progress (a text stream such as sys.stderr; None, the default, for silence).
    """
    if len(engines) != 2:
        raise XiangqiError(f"a match needs exactly two engines, got {len(engines)}")
    if isinstance(games, bool) or games < 1:
        raise XiangqiError(f"games must be at least 1, got {games!r}")
    if isinstance(concurrency, bool) or concurrency < 1:
        raise XiangqiError(f"concurrency must be at least 1, got {concurrency!r}")
    concurrency = min(concurrency, games)
    lock = threading.Lock()
    todo: queue.Queue[int] = queue.Queue()
    for k in range(games):
        todo.put(k)
    finished: dict[int, Game] = {}
    failures: list[BaseException] = []
    result = MatchResult(("?", "?"))
    names_ready = threading.Event()

    def report() -> None:
        if progress is not None:
            done = len(finished)
            progress.write(f"\r{_bar(done, games)} {done}/{games}  {result.summary()}")
            if done == games:
                progress.write("\n")
            progress.flush()

    def worker() -> None:
        pair: list[SimpleEngine | None] = [None, None]
        try:
            while True:
                try:
                    k = todo.get_nowait()
                except queue.Empty:
                    return
                for i in (0, 1):
                    current = pair[i]
                    if current is None or current.returncode is not None:
                        if current is not None:
                            current.close()
                        pair[i] = engines[i].open()
                first, second = pair
                assert first is not None and second is not None
                with lock:
                    if not names_ready.is_set():
                        a = first.id.get("name", "engine 1")
                        b = second.id.get("name", "engine 2")
                        if a == b:
                            a, b = f"{a} #1", f"{b} #2"
                        result.names = (a, b)
                        names_ready.set()
                red, black = (first, second) if k % 2 == 0 else (second, first)
                red_name, black_name = (
                    result.names if k % 2 == 0 else (result.names[1], result.names[0])
                )
                start = openings[(k // 2) % len(openings)] if openings else None
                tags = {"Event": event, "Round": str(k + 1), "Red": red_name, "Black": black_name}
                game, over = play_game(
                    red, black, limit, start=start, max_plies=max_plies, tags=tags
                )
                with lock:
                    finished[k] = game
                    first_won = over.result == ("1-0" if k % 2 == 0 else "0-1")
                    if over.result == "1/2-1/2":
                        result.draws += 1
                    elif first_won:
                        result.wins += 1
                    else:
                        result.losses += 1
                    if pgn_out is not None:
                        pgn_out.write(game.to_pgn() + "\n")
                        pgn_out.flush()
                    report()
        except BaseException as exc:  # reported by run_match in the caller's thread
            with lock:
                failures.append(exc)
        finally:
            for engine in pair:
                if engine is not None:
                    engine.close()

    threads = [
        threading.Thread(target=worker, name=f"xiangqi-match-{i}") for i in range(concurrency)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]
    result.games = [finished[k] for k in sorted(finished)]
    return result
