"""The match runner: one game (play_game), the match (run_match) and its result."""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import json
import logging
import os
import random
import signal
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from .._checks import check_int, check_real
from ..engine import EngineError, EngineTerminatedError, Limit, SimpleEngine
from ..errors import XiangqiError
from ..pgn import Game
from ..position import Position
from ..rules import Rules, check_rules
from .adjudication import (
    _SIDE_NAME,
    DEFAULT_MAX_PLIES,
    Adjudication,
    GameOver,
    _by_score,
    _loss_for,
    _score_comment,
    _score_cp,
    adjudicate,
)
from .openings import DEFAULT_BOOK_PLIES, BookOpenings, Opening, OpeningSource, opening_source
from .spec import EngineSpec, _with_each
from .stats import SPRT, Estimate, Tally
from .timecontrol import DEFAULT_TC, TimeControl, make_limit

#: Seconds an engine may overrun its clock (or its fixed time a move) before it loses on time.
DEFAULT_TIME_MARGIN = 0.1

_LOGGER = logging.getLogger(__name__)


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
        limit_now = make_limit(tc, side, clocks, increments, period_left[side])
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
        """Elo, normalized Elo and LOS (see xiangqi.match.stats), None before the first game."""
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
        plan: MatchPlan,
        pgn_out: TextIO | None,
        progress: TextIO | None,
        keep_games: bool,
        finished: Sequence[Mapping[str, Any]] = (),
    ) -> None:
        self.plan = plan
        self.specs = plan.specs
        self.tcs = plan.tcs
        self.total = plan.total
        self.openings = plan.openings
        self.rules = plan.adjudication
        self.time_margin = plan.time_margin
        self.pgn_out = pgn_out
        self.progress = progress
        self.event = plan.event
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
        self.result = MatchResult(self._names(None), sprt=plan.sprt)
        self.skip: set[int] = set()  # games a resumed match already has
        for record in finished:
            self._restore(record)
        result = self.result
        if finished and result.sprt is not None:  # a resumed match the SPRT has decided
            result.llr = result.sprt.llr(result.tally.counts())
            state = result.sprt.state(result.llr)
            if state and result.tally.pairs:
                result.stopped = state
                self.stop.set()

    def _restore(self, record: Mapping[str, Any]) -> None:
        """Count a game of the results file being resumed (its round is complete)."""
        k = int(record["game"]) - 1
        points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[record["result"]]
        if k % 2:
            points = 1 - points
        self.result.tally.add_game(points)
        other = self.half_pairs.pop(k // 2, None)
        if other is None:
            self.half_pairs[k // 2] = points
        else:
            self.result.tally.add_pair(other + points)
        self.result.records.append(dict(record))
        self.skip.add(k)
        self.done[k] = None  # already in the PGN file: flush() passes over it

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

    def take(self) -> int | None:
        with self.lock:
            if self.stop.is_set() or self.next_game >= self.total:
                return None
            while self.next_game in self.skip:
                self.next_game += 1
            if self.next_game >= self.total:
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
                        # its own process group: the terminal's Ctrl-C is the user's
                        # interrupt of this process, never an engine's death
                        pair[i] = self.specs[i].open(setpgrp=True)
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
                        start=self.openings.opening(k // 2),
                        adjudication=self.rules,
                        time_margin=self.time_margin,
                        tags=tags,
                        stop=self.stop,
                    )
                finally:
                    with self.lock:
                        self.live.pop(slot, None)
                        self.live.pop(-1 - slot, None)
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
                    "opening": self.openings.index(round_index),
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


@dataclasses.dataclass(frozen=True)
class MatchPlan:
    """A match whose every setting has been checked; run() plays it.

    Made by :func:`prepare_match` (from run_match's settings) or :meth:`from_settings` (from
    a results file, to resume). Nothing in it has started a process or opened a file for
    writing, so a caller can check its outputs against :meth:`inputs` first.
    """

    specs: tuple[EngineSpec, EngineSpec]
    tcs: tuple[TimeControl, TimeControl]
    total: int
    openings: OpeningSource
    concurrency: int
    adjudication: Adjudication
    time_margin: float
    sprt: SPRT | None
    event: str
    #: How to read the openings again when resuming: file, plies, format, order, seed,
    #: sha256 (None when the openings were not a file).
    opening_file: dict[str, Any] | None = None
    #: The same for an opening book: file, plies, seed, sha256 (None without a book).
    opening_book: dict[str, Any] | None = None

    def inputs(self) -> list[str]:
        """The files the match reads: the openings file and the engines' programs."""
        found = [spec.program() for spec in self.specs]
        if self.opening_file is not None:
            found.append(self.opening_file["file"])
        if self.opening_book is not None:
            found.append(self.opening_book["file"])
        return [path for path in found if path is not None]

    def settings(self) -> dict[str, Any]:
        """Everything needed to play the same match again (the results file's "settings")."""
        engines = []
        for spec, tc in zip(self.specs, self.tcs):
            engines.append(dataclasses.replace(spec, tc=tc).describe())
        rules = dataclasses.asdict(self.adjudication)
        rules["rules"] = str(self.adjudication.rules)
        return {
            "engines": engines,
            "games": self.total,
            "openings": self.opening_file,
            "book": self.opening_book,
            "concurrency": self.concurrency,
            "adjudication": rules,
            "time_margin": self.time_margin,
            "sprt": None if self.sprt is None else dataclasses.asdict(self.sprt),
            "event": self.event,
        }

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any]) -> MatchPlan:
        """The plan settings() described; XiangqiError when they are malformed, when the
        openings were not a file, or when the openings file has changed since."""
        try:
            specs = [EngineSpec.from_description(d) for d in settings["engines"]]
            if len(specs) != 2 or any(spec.tc is None for spec in specs):
                raise XiangqiError("the settings need two engines, each with its tc")
            book = settings["openings"]
            opening_book = settings.get("book")
            for what, used in (("openings file", book), ("opening book", opening_book)):
                if used is not None and _sha256(used["file"]) != used["sha256"]:
                    raise XiangqiError(
                        f"the {what} {used['file']!r} has changed since the match "
                        "started; a resumed match must play the same openings"
                    )
            sprt = settings["sprt"]
            return prepare_match(
                specs,
                settings["games"],
                openings=None if book is None else book["file"],
                opening_plies=None if book is None else book["plies"],
                opening_format=None if book is None else book["format"],
                opening_order="sequential" if book is None else book["order"],
                seed=(opening_book or book or {}).get("seed"),
                book=None if opening_book is None else opening_book["file"],
                book_plies=None if opening_book is None else opening_book["plies"],
                concurrency=settings["concurrency"],
                adjudication=Adjudication(**settings["adjudication"]),
                time_margin=settings["time_margin"],
                sprt=None if sprt is None else SPRT(**sprt),
                event=settings["event"],
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise XiangqiError(f"the results file's settings are malformed ({exc!r})") from None

    def run(
        self,
        pgn_out: TextIO | None = None,
        results_out: TextIO | None = None,
        progress: TextIO | None = None,
        keep_games: bool = True,
        finished: Sequence[Mapping[str, Any]] = (),
        **extra: Any,
    ) -> MatchResult:
        """Play the match (see run_match for the outputs and Ctrl-C); finished holds the
        game records of complete rounds of an earlier run, which are counted, not played.
        extra goes into the results file."""
        return _run(self, pgn_out, results_out, progress, keep_games, finished, extra)


def _sha256(path: str | os.PathLike[str]) -> str:
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def prepare_match(
    engines: Sequence[EngineSpec | str],
    games: int | None = None,
    limit: Limit | TimeControl | str | None = None,
    *,
    rounds: int | None = None,
    each: str = "",
    tc: Limit | TimeControl | str | None = None,
    openings: OpeningSource | Sequence[Position | Opening] | str | os.PathLike[str] | None = None,
    opening_plies: int | None = None,
    opening_format: str | None = None,
    opening_order: str = "sequential",
    seed: int | None = None,
    book: str | os.PathLike[str] | None = None,
    book_plies: int | None = None,
    concurrency: int = 1,
    max_plies: int | None = DEFAULT_MAX_PLIES,
    draw: str | Mapping[str, Any] | None = None,
    resign: str | Mapping[str, Any] | None = None,
    rules: Rules | str = Rules.ASIAN,
    adjudication: Adjudication | None = None,
    time_margin: float = DEFAULT_TIME_MARGIN,
    sprt: SPRT | str | None = None,
    event: str = "xiangqi match",
) -> MatchPlan:
    """Check every setting of a match (see run_match) and return its plan; nothing starts.

    adjudication, when given, replaces max_plies, draw, resign and rules.
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
        total = check_int("games", games, 1)
    elif rounds is not None:
        total = 2 * check_int("rounds", rounds, 1)
    else:
        total = 2
    concurrency = min(check_int("concurrency", concurrency, 1), total)
    if limit is not None and tc is not None:
        raise XiangqiError("give limit or tc, not both")
    base = _as_tc(limit if limit is not None else tc)
    tcs = []
    for spec in specs:
        own = spec.tc if spec.tc is not None else base
        tcs.append(own if own is not None else TimeControl.parse(DEFAULT_TC))
    time_margin = check_real("time_margin", time_margin, 0)
    if adjudication is None:
        fields: dict[str, Any] = {"max_plies": max_plies, "rules": check_rules(rules)}
        for text, kind in ((draw, "draw"), (resign, "resign")):
            if isinstance(text, str):
                fields.update(Adjudication.parse_rule(text, kind))
            elif text is not None:
                fields.update(text)
        adjudication = Adjudication(**fields)
    if isinstance(sprt, str):
        sprt = SPRT.parse(sprt)
    if sprt is not None and not isinstance(sprt, SPRT):
        raise TypeError(f"sprt is an SPRT or its text, got {type(sprt).__name__}")
    if not isinstance(event, str):
        raise TypeError(f"event is text, got {type(event).__name__}")
    opening_file = None
    if isinstance(openings, (str, os.PathLike)):
        if opening_order == "random" and seed is None:
            seed = random.SystemRandom().randrange(2**32)  # kept, so a resume replays it
        opening_file = {
            "file": os.path.abspath(openings),
            "plies": opening_plies,
            "format": opening_format,
            "order": opening_order,
            "seed": seed,
            "sha256": _sha256(openings),
        }
    opening_book = None
    if book is not None:
        if openings is not None:
            raise XiangqiError("give openings or a book, not both")
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)  # kept, so a resume replays it
        plies = DEFAULT_BOOK_PLIES if book_plies is None else book_plies
        from_book = BookOpenings(book, plies, seed)
        source: OpeningSource = from_book
        opening_book = {
            "file": os.path.abspath(book),
            "plies": from_book.plies,
            "seed": seed,
            "sha256": _sha256(book),
        }
    elif book_plies is not None:
        raise XiangqiError("book_plies needs a book")
    else:
        source = opening_source(openings, opening_plies, opening_format, opening_order, seed)
    return MatchPlan(
        (specs[0], specs[1]),
        (tcs[0], tcs[1]),
        total,
        source,
        concurrency,
        adjudication,
        time_margin,
        sprt,
        event,
        opening_file,
        opening_book,
    )


def run_match(
    engines: Sequence[EngineSpec | str],
    games: int | None = None,
    limit: Limit | TimeControl | str | None = None,
    *,
    rounds: int | None = None,
    each: str = "",
    tc: Limit | TimeControl | str | None = None,
    openings: OpeningSource | Sequence[Position | Opening] | str | os.PathLike[str] | None = None,
    opening_plies: int | None = None,
    opening_format: str | None = None,
    opening_order: str = "sequential",
    seed: int | None = None,
    book: str | os.PathLike[str] | None = None,
    book_plies: int | None = None,
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
    Openings, a file for load_openings (with opening_plies, opening_format), or an
    OpeningSource; opening_order "sequential" or "random" (shuffled with seed). book: an
    opening book (xiangqi.book) instead of openings: each round plays its first book_plies
    plies (default 8) as weighted choices from the book, seeded with seed and the round,
    the engines taking over where the book has no move.
    concurrency K plays K games at once, each worker with its own two engine processes.
    draw and resign: adjudication rules as text ("movenumber=40 movecount=8 score=10";
    "movecount=3 score=600 twosided=true") or as Adjudication field names. rules: "asian"
    (the default) or "chinese" (xiangqi.Rules), the rule set the library's rulings
    adjudicate by (each game's PGN names it in a Rules tag). sprt: SPRT or text ("elo0=0
    elo1=5 alpha=0.05 beta=0.05"); the match stops at its bound. Every setting is checked
    (prepare_match) before the first engine starts. PGN goes to pgn_out in game order as
    games finish; the results (JSON) to results_out at the end; a status line to progress
    (e.g. sys.stderr). Engines run in process groups of their own, so the terminal's Ctrl-C
    reaches only this process: on KeyboardInterrupt every game stops, every engine is
    closed or killed, the finished games and results are written, and the interrupt is
    raised again. An engine that dies of a signal (SIGINT included) loses its game.
    """
    plan = prepare_match(
        engines,
        games,
        limit,
        rounds=rounds,
        each=each,
        tc=tc,
        openings=openings,
        opening_plies=opening_plies,
        opening_format=opening_format,
        opening_order=opening_order,
        seed=seed,
        book=book,
        book_plies=book_plies,
        concurrency=concurrency,
        max_plies=max_plies,
        draw=draw,
        resign=resign,
        rules=rules,
        time_margin=time_margin,
        sprt=sprt,
        event=event,
    )
    return plan.run(pgn_out, results_out, progress, keep_games)


def _run(
    plan: MatchPlan,
    pgn_out: TextIO | None,
    results_out: TextIO | None,
    progress: TextIO | None,
    keep_games: bool,
    finished: Sequence[Mapping[str, Any]],
    extra: Mapping[str, Any],
) -> MatchResult:
    runner = _Runner(plan, pgn_out, progress, keep_games, finished)
    threads = [
        threading.Thread(target=runner.worker, args=(i,), name=f"xiangqi-match-{i}", daemon=True)
        for i in range(plan.concurrency)
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
                plan.specs,
                **extra,
                event=plan.event,
                date=runner.date,
                time_control=[t.pgn() for t in plan.tcs],
                rules=str(plan.adjudication.rules),
                planned_games=plan.total,
                settings=plan.settings(),
            )
            json.dump(data, results_out, indent=1)
            results_out.write("\n")
            results_out.flush()
    if runner.failures:
        raise runner.failures[0]
    return result


def complete_rounds(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The game records of the rounds (game pairs) whose both games are in records, which a
    resumed match keeps; a round cut short is played again whole (its pair counts once)."""
    by_round: dict[int, list[dict[str, Any]]] = {}
    try:
        for record in records:
            by_round.setdefault(int(record["round"]), []).append(dict(record))
            if record["result"] not in ("1-0", "0-1", "1/2-1/2"):
                raise XiangqiError(f"a finished game has no result: {record!r:.200}")
    except (KeyError, TypeError, ValueError) as exc:
        raise XiangqiError(f"a game record of the results file is malformed ({exc})") from None
    kept = []
    for number, pair in sorted(by_round.items()):
        games = sorted(int(r["game"]) for r in pair)
        if games == [2 * number - 1, 2 * number]:
            kept += sorted(pair, key=lambda r: int(r["game"]))
    return kept
