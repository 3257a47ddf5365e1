"""The match's front: every setting checked (prepare_match, MatchPlan), run_match, resuming.

A MatchPlan runs on this machine (xiangqi.match.runner, in threads) or, when it names a Ray
cluster, on the cluster's workers (xiangqi.match.distributed, which imports Ray only then).
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import os
import random
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from .._checks import check_int, check_real
from .._files import PathArg
from ..engine import Limit
from ..errors import XiangqiError
from ..position import Position
from ..rules import Rules, check_rules
from .adjudication import DEFAULT_MAX_PLIES, Adjudication
from .openings import DEFAULT_BOOK_PLIES, BookOpenings, Opening, OpeningSource, opening_source
from .output import run_to_files
from .resume import check_records, read_results
from .runner import DEFAULT_TIME_MARGIN, MatchResult, _run
from .spec import EngineSpec, _with_each
from .stats import SPRT
from .timecontrol import DEFAULT_TC, TimeControl

#: How often a round whose Ray worker or node was lost is played again.
DEFAULT_RAY_RETRIES = 3


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
    #: The Ray cluster the match runs on ("auto", "local" or an address; None: this machine,
    #: in concurrency threads), how often a lost round is played again, and the custom
    #: resource a round asks one unit of (None: a CPU). See xiangqi.match.distributed.
    ray: str | None = None
    ray_retries: int = DEFAULT_RAY_RETRIES
    ray_resource: str | None = None

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
            "ray": None
            if self.ray is None
            else {"address": self.ray, "retries": self.ray_retries, "resource": self.ray_resource},
        }

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any], *, ray: str | None = None) -> MatchPlan:
        """The plan settings() described; XiangqiError when they are malformed, when the
        openings were not a file, or when the openings file has changed since. A match
        that ran on Ray runs there again, at the address ray when it is given."""
        try:
            placed = settings.get("ray") or {}
            if ray is not None:
                placed = {**placed, "address": ray}
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
                ray=placed.get("address"),
                ray_retries=placed.get("retries", DEFAULT_RAY_RETRIES),
                ray_resource=placed.get("resource"),
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
        extra goes into the results file. XiangqiError for a record of finished that is
        malformed or not of this plan (see xiangqi.match.resume.check_records)."""
        finished = check_records(finished, self)
        if self.ray is not None:
            from .distributed import run_on_ray

            return run_on_ray(self, pgn_out, results_out, progress, keep_games, finished, extra)
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
    ray: str | None = None,
    ray_retries: int = DEFAULT_RAY_RETRIES,
    ray_resource: str | None = None,
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
    if ray is not None:
        if not isinstance(ray, str) or not ray:
            raise XiangqiError(f"ray is a cluster address, 'auto' or 'local', got {ray!r}")
        if concurrency != 1:
            raise XiangqiError(
                "concurrency is the games at once on this machine; on Ray the cluster's CPUs "
                "(or ray_resource) bound the games per node"
            )
        if importlib.util.find_spec("ray") is None:
            from .distributed import INSTALL_HINT

            raise XiangqiError(f"--ray needs Ray, which is not installed: {INSTALL_HINT}")
    ray_retries = check_int("ray_retries", ray_retries, 0)
    if ray_resource is not None and (not isinstance(ray_resource, str) or not ray_resource):
        raise XiangqiError(f"ray_resource is a resource name, got {ray_resource!r}")
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
        ray,
        ray_retries,
        ray_resource,
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
    ray: str | None = None,
    ray_retries: int = DEFAULT_RAY_RETRIES,
    ray_resource: str | None = None,
    pgn_file: PathArg | None = None,
    results_file: PathArg | None = None,
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

    ray ("auto": the cluster this machine belongs to; "local": a Ray instance of the match's
    own; or the head's address) plays the rounds as Ray tasks on the cluster's workers
    instead of concurrency threads here (see xiangqi.match.distributed): a round whose worker
    or node is lost is played again, up to ray_retries times; each round asks for a CPU, or
    for one unit of the custom resource ray_resource. Needs Ray (the "ray" extra).

    pgn_file and results_file (paths, instead of pgn_out and results_out) are written as
    ``xiangqi match --pgn --results`` writes them (see xiangqi.match.output): checked
    before any engine starts (a directory, a FIFO, a device such as /dev/null, an input of
    the match, or both naming one file: OutputFileError), written beside and moved over
    their targets once the match has a result, Ctrl-C included; the results file names the
    PGN file, and :func:`resume_match` continues the match from it.
    """
    if pgn_file is not None and pgn_out is not None:
        raise XiangqiError("give pgn_out or pgn_file, not both")
    if results_file is not None and results_out is not None:
        raise XiangqiError("give results_out or results_file, not both")
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
        ray=ray,
        ray_retries=ray_retries,
        ray_resource=ray_resource,
    )
    if pgn_file is not None or results_file is not None:
        return run_to_files(plan, pgn_file, results_file, progress=progress, keep_games=keep_games)
    return plan.run(pgn_out, results_out, progress, keep_games)


def resume_match(
    resume: PathArg,
    *,
    pgn_file: PathArg | None = None,
    results_file: PathArg | None = None,
    ray: str | None = None,
    progress: TextIO | None = None,
    keep_games: bool = True,
    names: tuple[str, str] = ("pgn_file", "results_file"),
) -> MatchResult:
    """Continue the interrupted match whose results file is resume, as ``xiangqi match
    --resume`` does: its settings (the openings file or book unchanged since, by its
    sha256), its complete rounds counted and not played (a round cut short is played
    again), the rest played.

    The results go to results_file (default: resume itself, replaced) and the PGN to
    pgn_file (default: the PGN file the results name, if any), whose games of the kept
    rounds are copied; both are written as run_match writes them. A Ray match runs on Ray
    again, at the address ray when it is given. XiangqiError, before any engine starts or
    any file is touched, when resume is not a results file of xiangqi match, a game record
    is malformed (naming the file, the line and the field; see xiangqi.match.resume), the
    openings changed, or an output is refused. names: the two outputs' names in messages.
    """
    old = read_results(resume)
    plan = MatchPlan.from_settings(old.settings, ray=ray)
    check_records(old.records, plan, file=old.path, lines=old.lines)
    finished = complete_rounds(old.records)
    return run_to_files(
        plan,
        pgn_file if pgn_file is not None else old.pgn,
        results_file if results_file is not None else resume,
        finished=finished,
        resumed=resume,
        progress=progress,
        keep_games=keep_games,
        names=names,
    )


def complete_rounds(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The game records of the rounds (game pairs) whose both games are in records, which a
    resumed match keeps; a round cut short is played again whole (its pair counts once).
    XiangqiError for a malformed record (see xiangqi.match.resume.check_records)."""
    by_round: dict[int, list[dict[str, Any]]] = {}
    for record in check_records(records):
        by_round.setdefault(record["round"], []).append(record)
    kept = []
    for _, pair in sorted(by_round.items()):
        if len(pair) == 2:  # game numbers are unique and each names its round
            kept += sorted(pair, key=lambda r: int(r["game"]))
    return kept
