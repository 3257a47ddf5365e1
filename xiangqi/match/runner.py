"""The match runner: one game (play_game), a match on this machine (in threads), its result.

xiangqi.match.plan checks the settings and starts a match here or, on a Ray cluster, through
xiangqi.match.distributed; both count, write and report games through Runner.
"""

from __future__ import annotations

import dataclasses
import datetime
import io
import json
import logging
import os
import signal
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from ..engine import EngineError, EngineTerminatedError, Limit, SimpleEngine
from ..pgn import Game, read_game
from ..position import Position
from ..rules import check_rules
from .adjudication import (
    DEFAULT_MAX_PLIES,
    SIDE_NAME,
    Adjudication,
    GameOver,
    by_score,
    loss_for,
    ruling_now,
    score_comment,
    score_cp,
)
from .openings import Opening
from .spec import EngineSpec
from .stats import SPRT, Estimate, Tally
from .timecontrol import TimeControl, make_limit

if TYPE_CHECKING:
    from .plan import MatchPlan

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
    ruled = check_rules(rules.rules)  # once: each ply's ruling takes it as it is
    while True:
        over = ruling_now(pos, rules.max_plies, ruled)
        if over is not None:
            break
        if stop is not None and stop.is_set():
            over = GameOver("*", "abandoned", "the match was stopped")
            break
        side = pos.turn
        name = SIDE_NAME[side]
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
            over = GameOver(loss_for(side), "abandoned", f"{name} engine exited: {exc}", side)
            break
        except EngineError as exc:
            elapsed = time.monotonic() - began
            if allowed is not None and elapsed >= allowed + time_margin:
                over = GameOver(
                    loss_for(side), "time forfeit", f"{name} loses on time ({exc})", side
                )
            else:
                over = GameOver(
                    loss_for(side), "rules infraction", f"{name} engine failed: {exc}", side
                )
            break
        elapsed = time.monotonic() - began
        if allowed is not None and elapsed > allowed + time_margin:
            over = GameOver(
                loss_for(side),
                "time forfeit",
                f"{name} loses on time: {elapsed:.3f} s used, {allowed:.3f} s left",
                side,
            )
            break
        if played.resigned:
            over = GameOver(loss_for(side), "normal", f"{name} resigns")
            break
        if played.move is None:
            over = GameOver(loss_for(side), "rules infraction", f"{name} engine sent no move", side)
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
        game.add_move(played.move, score_comment(score, side, played.info.get("depth"), elapsed))
        scores.append(score_cp(score, side))
        over = by_score(rules, scores, side, len(pos.move_stack))
        if over is not None:
            break
    game.tags["Result"] = over.result
    game.tags["Termination"] = over.termination
    game.tags["Rules"] = str(rules.rules)  # the rule set the library's rulings used
    last = game.end()
    last.comment = f"{last.comment}; {over.reason}" if last.comment else over.reason
    return game, over


# -- one numbered game of a match, as a local worker or a Ray task plays it ---------------------


@dataclasses.dataclass(frozen=True)
class GameSetup:
    """What playing a match's games needs besides the engines (picklable, for Ray tasks)."""

    specs: tuple[EngineSpec, EngineSpec]
    tcs: tuple[TimeControl, TimeControl]
    adjudication: Adjudication
    time_margin: float
    event: str
    date: str


def engine_names(
    specs: Sequence[EngineSpec], engines: Sequence[SimpleEngine | None] | None
) -> tuple[str, str]:
    """Each spec's name, else the engine's id name (else its program's name); "#1"/"#2"
    tell two equal names apart."""
    names = []
    for i, spec in enumerate(specs):
        engine = engines[i] if engines is not None else None
        fallback = os.path.basename(spec.command[0])
        names.append(spec.name or (engine.id.get("name", fallback) if engine else fallback))
    if names[0] == names[1]:
        names = [f"{names[0]} #1", f"{names[1]} #2"]
    return names[0], names[1]


def open_pair(specs: Sequence[EngineSpec], pair: list[SimpleEngine | None]) -> None:
    """Start the engines of pair that are None (both at first; the one that failed later)."""
    for i in (0, 1):
        if pair[i] is None:
            # its own process group: the terminal's Ctrl-C is the user's interrupt of this
            # process, never an engine's death
            pair[i] = specs[i].open(setpgrp=True)


def play_numbered(
    setup: GameSetup,
    k: int,
    opening: Opening,
    pair: list[SimpleEngine | None],
    names: tuple[str, str],
    stop: threading.Event | None = None,
    watch: Callable[[SimpleEngine | None, SimpleEngine | None], None] | None = None,
) -> tuple[Game, GameOver]:
    """Play game number k (from 0) of a match with pair (the first engine's, the second's;
    the first has Red in even games), from its round's opening; an engine that failed is
    closed and its slot of pair set to None, to be started again. watch is told the (Red,
    Black) engines before the game and (None, None) after it."""
    order = (0, 1) if k % 2 == 0 else (1, 0)
    red, black = pair[order[0]], pair[order[1]]
    assert red is not None and black is not None
    tcs = (setup.tcs[order[0]], setup.tcs[order[1]])
    tags = {
        "Event": setup.event,
        "Site": "xiangqi match",
        "Date": setup.date,
        "Round": str(k // 2 + 1),
        "Red": names[order[0]],
        "Black": names[order[1]],
    }
    if tcs[0] == tcs[1]:
        tags["TimeControl"] = tcs[0].pgn()
    else:
        tags["RedTimeControl"] = tcs[0].pgn()
        tags["BlackTimeControl"] = tcs[1].pgn()
    if watch is not None:
        watch(red, black)
    try:
        game, over = play_game(
            red,
            black,
            tcs,
            start=opening,
            adjudication=setup.adjudication,
            time_margin=setup.time_margin,
            tags=tags,
            stop=stop,
        )
    finally:
        if watch is not None:
            watch(None, None)
    if over.fault is not None:  # restart the engine that failed
        i = order[over.fault]
        faulty = pair[i]
        pair[i] = None
        if faulty is not None:
            close_engine(faulty)
    return game, over


def _tags_and_plies(game: Game | str) -> tuple[Mapping[str, str], int]:
    if isinstance(game, str):
        game = _as_game(game)
    return game.tags, len(game.mainline_moves())


def _as_game(game: Game | str) -> Game:
    """game, or the Game its PGN text holds."""
    if not isinstance(game, str):
        return game
    parsed = read_game(io.StringIO(game))
    assert parsed is not None
    return parsed


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


class Runner:
    """Shared state of a running match; workers take game numbers from it as they go.

    Internal to xiangqi.match: the local loop (:func:`run_local`) and the Ray driver
    (xiangqi.match.distributed) count, write and report games through it."""

    def __init__(
        self,
        plan: MatchPlan,
        pgn_out: TextIO | None,
        progress: TextIO | None,
        keep_games: bool,
        finished: Sequence[Mapping[str, Any]] = (),
        kept: Mapping[int, str] | None = None,
    ) -> None:
        self.plan = plan
        self.kept = dict(kept or {})  # a resumed match's games, written in game order
        self.specs = plan.specs
        self.tcs = plan.tcs
        self.total = plan.total
        self.openings = plan.openings
        self.rules = plan.adjudication
        self.time_margin = plan.time_margin
        self.date = datetime.date.today().strftime("%Y.%m.%d")
        self.setup = GameSetup(
            self.specs, self.tcs, self.rules, self.time_margin, plan.event, self.date
        )
        self.pgn_out = pgn_out
        self.progress = progress
        self.event = plan.event
        self.keep_games = keep_games
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.next_game = 0
        self.written = 0  # games before this one are written (or were discarded)
        self.done: dict[int, Game | str | None] = {}  # finished games waiting for earlier ones
        self.half_pairs: dict[int, float] = {}  # round -> first engine's points in its 1st game
        self.live: dict[int, SimpleEngine] = {}  # engines in a search, by worker
        self.failures: list[BaseException] = []
        self.shown = 0  # length of the progress line on screen
        self.running = 0  # workers that have not finished (set before they start)
        self.all_done = threading.Event()
        self.named = False
        self.result = MatchResult(engine_names(self.specs, None), sprt=plan.sprt)
        self.skip: set[int] = set()  # games a resumed match already has
        for record in finished:
            self._restore(record)
        if finished and "red" in finished[0] and "black" in finished[0]:
            # The names the games were played under: no engine may have to start.
            first = finished[0]
            red_first = int(first["game"]) % 2 == 1
            pair = (first["red"], first["black"]) if red_first else (first["black"], first["red"])
            self.result.names = (str(pair[0]), str(pair[1]))
            self.named = True
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
        self._tally(k, record["result"], k % 2 == 0)
        self.result.records.append(dict(record))
        self.skip.add(k)
        self.done[k] = None  # already in the PGN file: flush() passes over it

    def _tally(self, k: int, result: str, first_red: bool) -> None:
        """Count game k's points (the first engine's, from its result) and, once its
        round's other game is in, the pair's."""
        points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
        if not first_red:
            points = 1 - points
        self.result.tally.add_game(points)
        other = self.half_pairs.pop(k // 2, None)
        if other is None:
            self.half_pairs[k // 2] = points
        else:
            self.result.tally.add_pair(other + points)

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
                open_pair(self.specs, pair)
                with self.lock:
                    if not self.named:  # the first engines to start give the names
                        self.result.names = engine_names(self.specs, pair)
                        self.named = True
                with self.lock:
                    names = self.result.names

                def watch(red: SimpleEngine | None, black: SimpleEngine | None) -> None:
                    with self.lock:  # both, for the stop: see kill_live
                        if red is None or black is None:
                            self.live.pop(slot, None)
                            self.live.pop(-1 - slot, None)
                        else:
                            self.live[slot] = red
                            self.live[-1 - slot] = black

                game, over = play_numbered(
                    self.setup, k, self.openings.opening(k // 2), pair, names, self.stop, watch
                )
                if self.stop.is_set():
                    return  # a stopped match keeps only games that ended by themselves
                first_red = k % 2 == 0
                self.record(k, game, over, first_red)
        except BaseException as exc:  # reported by run_match in the caller's thread
            with self.lock:
                self.failures.append(exc)
            self.stop.set()
        finally:
            try:
                for engine in pair:
                    if engine is not None:
                        close_engine(engine)
            finally:
                with self.lock:
                    self.running -= 1
                    if not self.running:
                        self.all_done.set()

    def record(self, k: int, game: Game | str, over: GameOver, first_red: bool) -> None:
        """Count game number k (a Game, or its PGN text) as it ended; see record_games."""
        self.record_games([(k, game, over, first_red, {})])

    def record_games(
        self, games: Sequence[tuple[int, Game | str, GameOver, bool, Mapping[str, Any]]]
    ) -> None:
        """Count finished games (number, Game or PGN text, how it ended, whether the first
        engine had Red, what else its record holds), write those now in order, then let the
        SPRT decide: the games of one call are counted together or, once the match has
        stopped, not at all."""
        result = self.result
        with self.lock:
            if self.stop.is_set():
                return
            for k, game, over, first_red, more in games:
                self._tally(k, over.result, first_red)
                round_index = k // 2
                tags, plies = _tags_and_plies(game)
                result.records.append(
                    {
                        "game": k + 1,
                        "round": round_index + 1,
                        "red": tags["Red"],
                        "black": tags["Black"],
                        "result": over.result,
                        "termination": over.termination,
                        "reason": over.reason,
                        "plies": plies,
                        "opening": self.openings.index(round_index),
                        **more,
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
                text = self.kept.pop(k, None)
                if text is not None and self.pgn_out is not None:
                    self.pgn_out.write(text)
                continue
            if self.pgn_out is not None:
                self.pgn_out.write((game if isinstance(game, str) else game.to_pgn()) + "\n")
                self.pgn_out.flush()
            if self.keep_games:
                self.result.games.append(_as_game(game))

    def report(self, end: bool = False) -> None:
        if self.progress is None:
            return
        line = self.result.status_line(self.total if self.total < 10**9 else None)
        padding = " " * max(0, self.shown - len(line))
        self.shown = len(line)
        self.progress.write("\r" + line + padding + ("\n" if end else ""))
        self.progress.flush()

    def finish(self, results_out: TextIO | None, extra: Mapping[str, Any]) -> MatchResult:
        """Write the games left, the last status line and the results (with extra)."""
        plan = self.plan
        with self.lock:
            self.flush(final=True)
            result = self.result
            if not result.stopped:
                result.stopped = "complete"
            if result.tally.games:
                self.report(end=True)
        if results_out is not None:
            # Each engine with the time control it played (the settings' own): a resumed
            # match describes its engines as the first run did.
            specs = [dataclasses.replace(s, tc=tc) for s, tc in zip(plan.specs, plan.tcs)]
            data = result.to_json(
                specs,
                **extra,
                event=plan.event,
                date=self.date,
                time_control=[t.pgn() for t in plan.tcs],
                rules=str(plan.adjudication.rules),
                planned_games=plan.total,
                settings=plan.settings(),
            )
            # Whole first: a value JSON cannot hold fails here, before a byte is written.
            text = json.dumps(data, indent=1)
            results_out.write(text + "\n")
            results_out.flush()
        return result

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


def close_engine(engine: SimpleEngine) -> None:
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


def run_local(runner: Runner, results_out: TextIO | None, extra: Mapping[str, Any]) -> MatchResult:
    """Play runner's match here, in plan.concurrency threads; the results (with extra) go
    to results_out."""
    plan = runner.plan
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
        if runner.failures and not runner.result.stopped:
            runner.result.stopped = "error"  # never "complete"
        result = runner.finish(results_out, extra)
    if runner.failures:
        raise runner.failures[0]
    return result
