"""The match's front: every setting checked (prepare_match, MatchPlan), run_match, resuming.

A MatchPlan runs on this machine (xiangqi.match.runner, in threads) or, when it names a Ray
cluster, on the cluster's workers (xiangqi.match.distributed, which imports Ray only then).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import random
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from .._checks import check_bool, show, type_name
from .._files import PathArg
from ..engine import Limit
from ..errors import XiangqiError
from ._inputs import read_input, sha256
from .adjudication import Adjudication, check_count
from .openings import (
    DEFAULT_BOOK_PLIES,
    BookOpenings,
    OpeningSource,
    opening_source,
    parse_openings,
)
from .output import run_to_files
from .resume import check_records, kept_games, read_results
from .runner import MatchResult, Runner, run_local
from .settings import (
    DEFAULT_RAY_RETRIES,
    MatchSettings,
    as_time_control,
    check_ray,
    rule_fields,
)
from .spec import EngineSpec, with_each
from .stats import SPRT
from .timecontrol import DEFAULT_TC, TimeControl


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
    def from_settings(
        cls,
        settings: Mapping[str, Any],
        *,
        ray: str | None = None,
        concurrency: int | None = None,
        file: str | None = None,
    ) -> MatchPlan:
        """The plan settings() described; XiangqiError naming the field (and the results
        file, when file names it) when they are malformed (a field missing, of the wrong type
        or out of range), when the openings were not a file, or when the openings file or
        book has changed since (by its sha256; it must be a regular file). A match that ran
        on Ray runs there again, at the address ray when it is given; concurrency, when
        given, replaces the games at once (the one setting a resumed match may change)."""
        where = "the results file's settings" if file is None else f"{file!r}, settings"
        try:
            return cls._from_settings(settings, ray, concurrency)
        except (ValueError, TypeError) as exc:  # XiangqiError and the checks' errors
            raise XiangqiError(f"{where}: {exc}") from None

    @classmethod
    def _from_settings(
        cls, settings: Mapping[str, Any], ray: str | None, concurrency: int | None
    ) -> MatchPlan:
        engines = _field(settings, "engines", "", list)
        if len(engines) != 2:
            raise XiangqiError(f"field 'engines' holds {len(engines)} engines, expected 2")
        specs = []
        for n, description in enumerate(engines):
            try:
                specs.append(EngineSpec.from_description(description))
            except (ValueError, TypeError) as exc:
                raise XiangqiError(f"engine {n + 1}: {exc}") from None
        if any(spec.tc is None for spec in specs):
            raise XiangqiError("each engine needs its 'tc'")
        book = _field(settings, "openings", "", (dict, type(None)))
        opening_book = _field(settings, "book", "", (dict, type(None)), missing=None)
        expect = {}
        for used, prefix, what, keys in (
            (book, "openings.", "openings file", ("plies", "format", "order", "seed")),
            (opening_book, "book.", "opening book", ("plies", "seed")),
        ):
            if used is not None:
                _field(used, "file", prefix, str)
                for key in keys:
                    _field(used, key, prefix)
                expect[what] = _field(used, "sha256", prefix, str)
        adjudication = _field(settings, "adjudication", "", dict)
        for f in dataclasses.fields(Adjudication):
            _field(adjudication, f.name, "adjudication.")
        _unknown(adjudication, Adjudication, "adjudication.")
        sprt = _field(settings, "sprt", "", (dict, type(None)))
        if sprt is not None:
            # the results file adds the bounds, the LLR and the state to the SPRT's fields
            for f in dataclasses.fields(SPRT):
                _field(sprt, f.name, "sprt.")
        placed = _field(settings, "ray", "", (dict, type(None)), missing=None) or {}
        if placed:
            _field(placed, "address", "ray.", str)
        if ray is not None:
            placed = {**placed, "address": ray}
        return prepare_match(
            specs,
            _field(settings, "games", ""),
            openings=None if book is None else book["file"],
            opening_plies=None if book is None else book["plies"],
            opening_format=None if book is None else book["format"],
            opening_order="sequential" if book is None else book["order"],
            seed=(opening_book or book or {}).get("seed"),
            book=None if opening_book is None else opening_book["file"],
            book_plies=None if opening_book is None else opening_book["plies"],
            concurrency=_field(settings, "concurrency", "") if concurrency is None else concurrency,
            adjudication=Adjudication(**adjudication),
            time_margin=_field(settings, "time_margin", ""),
            sprt=None
            if sprt is None
            else SPRT(**{f.name: sprt[f.name] for f in dataclasses.fields(SPRT)}),
            event=_field(settings, "event", "", str),
            ray=placed.get("address"),
            ray_retries=placed.get("retries", DEFAULT_RAY_RETRIES),
            ray_resource=placed.get("resource"),
            _expect=expect,
        )

    def run(
        self,
        pgn_out: TextIO | None = None,
        results_out: TextIO | None = None,
        progress: TextIO | None = None,
        keep_games: bool = True,
        finished: Sequence[Mapping[str, Any]] = (),
        kept: Mapping[int, str] | None = None,
        **extra: Any,
    ) -> MatchResult:
        """Play the match (see run_match for the outputs and Ctrl-C); finished holds the
        game records of complete rounds of an earlier run, which are counted, not played,
        and kept their games' PGN text by game index (from 0), written to pgn_out in game
        order among the new games. extra goes into the results file. XiangqiError for a
        record of finished that is malformed or not of this plan (see
        xiangqi.match.resume.check_records)."""
        _check_outputs(pgn_out, results_out, progress, keep_games)
        finished = check_records(finished, self)
        runner = Runner(self, pgn_out, progress, keep_games, finished, kept)
        if self.ray is not None:
            from .distributed import run_on_ray

            return run_on_ray(runner, results_out, extra)
        return run_local(runner, results_out, extra)


def _changed(
    raw: bytes, expect: Mapping[str, str] | None, what: str, path: str | os.PathLike[str]
) -> str:
    """raw's sha256; XiangqiError when expect (a resumed match's) records another for what."""
    digest = sha256(raw)
    if expect is not None and expect.get(what) != digest:
        raise XiangqiError(
            f"the {what} {os.fsdecode(path)!r} has changed since the match started; a "
            "resumed match must play the same openings"
        )
    return digest


def _check_outputs(
    pgn_out: object, results_out: object, progress: object, keep_games: object
) -> None:
    """TypeError naming the argument that is no writable text stream (or None), or a
    keep_games that is not a bool, before anything starts."""
    for name, out in (("pgn_out", pgn_out), ("results_out", results_out), ("progress", progress)):
        if out is not None and not (
            callable(getattr(out, "write", None)) and hasattr(out, "flush")
        ):
            raise TypeError(
                f"{name} must be a text stream (with write and flush), got {type_name(out)}"
            )
    check_bool("keep_games", keep_games)


def _check_names(names: object) -> tuple[str, str]:
    if not (
        isinstance(names, tuple) and len(names) == 2 and all(isinstance(n, str) for n in names)
    ):
        raise TypeError(f"names must be a pair of texts, got {show(names)}")
    return names[0], names[1]


def _check_path(name: str, value: object) -> None:
    if value is not None and not isinstance(value, (str, bytes, os.PathLike)):
        raise TypeError(f"{name} must be a file path, got {type_name(value)}")


_MISSING = object()


def _field(
    data: Mapping[str, Any],
    key: str,
    prefix: str,
    kind: type | tuple[type, ...] | None = None,
    missing: object = _MISSING,
) -> Any:
    """data[key] of a results file's settings (prefix: where data is, "adjudication."),
    XiangqiError naming the field when it is missing (unless missing gives a default) or
    not of kind."""
    if key not in data:
        if missing is not _MISSING:
            return missing
        raise XiangqiError(f"field {prefix + key!r} is missing")
    value = data[key]
    if kind is not None and (isinstance(value, bool) or not isinstance(value, kind)):
        names = kind if isinstance(kind, tuple) else (kind,)
        expected = " or ".join(_JSON_NAMES.get(k, k.__name__) for k in names)
        raise XiangqiError(f"field {prefix + key!r} is {show(value)}, expected {expected}")
    return value


_JSON_NAMES = {dict: "an object", list: "a list", str: "text", type(None): "null"}


def _unknown(data: Mapping[str, Any], kind: type, prefix: str) -> None:
    """XiangqiError naming a field of data that the dataclass kind has not."""
    known = {f.name for f in dataclasses.fields(kind)}
    for key in data:
        if key not in known:
            raise XiangqiError(f"field {prefix + str(key)!r} is unknown")


def match_settings(
    engines: Sequence[EngineSpec | str] | None,
    positional: Mapping[str, Any],
    settings: MatchSettings | None,
    options: Mapping[str, Any],
) -> MatchSettings:
    """The MatchSettings of prepare_match's or run_match's arguments: settings (changed by
    the arguments given besides) or the keywords options; TypeError naming an unknown one.

    A setting given besides settings replaces the other of its either/or pair there too
    (games or rounds, limit or tc, openings with opening_plies or book with its book_plies);
    two of a pair given together are refused (XiangqiError)."""
    given = {name: value for name, value in positional.items() if value is not None}
    if engines is not None:
        given["engines"] = engines
    given.update(options)
    known = {f.name for f in dataclasses.fields(MatchSettings)}
    for name in given:
        if name not in known:
            raise TypeError(f"{name!r} is no match setting (see xiangqi.match.MatchSettings)")
    if settings is None:
        if "engines" not in given:
            raise TypeError("a match needs its engines (or settings=MatchSettings(...))")
        return MatchSettings(**given)
    if not isinstance(settings, MatchSettings):
        raise TypeError(f"settings must be a MatchSettings, got {type_name(settings)}")
    for name, others in _EITHER_OR.items():
        if given.get(name) is not None:
            for other in others:
                given.setdefault(other, None)
    if "book" in given and given["book"] is None:  # no book: the settings' book_plies goes too
        given.setdefault("book_plies", None)
    if "openings" in given and given["openings"] is None:  # and no openings: opening_plies
        given.setdefault("opening_plies", None)
    return dataclasses.replace(settings, **given) if given else settings


#: The settings of an either/or pair: one given besides settings clears these of the others
#: there (a book's book_plies and the openings' opening_plies go with them).
_EITHER_OR = {
    "games": ("rounds",),
    "rounds": ("games",),
    "limit": ("tc",),
    "tc": ("limit",),
    "openings": ("book", "book_plies"),
    "book": ("openings", "opening_plies"),
}


def prepare_match(
    engines: Sequence[EngineSpec | str] | None = None,
    games: int | None = None,
    limit: Limit | TimeControl | str | None = None,
    *,
    settings: MatchSettings | None = None,
    _expect: Mapping[str, str] | None = None,
    **options: Any,
) -> MatchPlan:
    """Check every setting of a match and return its plan; nothing starts.

    The settings are :class:`MatchSettings`' fields, given as keywords (as run_match takes
    them) or as settings (the keywords given besides replace its fields; one of an
    either/or pair replaces the other too: ``rounds=1`` drops the settings' games, likewise
    limit and tc, openings and book; book=None drops its book_plies too). The openings file
    or book is read (and hashed) here: an OSError naming the setting (openings, book) when
    it cannot be.
    """
    # _expect (from_settings): the sha256 the openings file or book must still have; they
    # must then be regular files (a resumed match reads them again).
    chosen = match_settings(engines, {"games": games, "limit": limit}, settings, options)
    each = chosen.each
    specs = [
        EngineSpec.parse(e, each) if isinstance(e, str) else with_each(e, each)
        for e in chosen.engines
    ]
    total = chosen.total
    concurrency = min(chosen.concurrency, total)
    base = as_time_control("limit", chosen.limit) or as_time_control("tc", chosen.tc)
    tcs = []
    for spec in specs:
        own = spec.tc if spec.tc is not None else base
        tcs.append(own if own is not None else TimeControl.parse(DEFAULT_TC))
    adjudication = chosen.adjudication
    if adjudication is None:
        adjudication = Adjudication(
            max_plies=chosen.max_plies,
            rules=chosen.rules,
            **rule_fields("draw", chosen.draw),
            **rule_fields("resign", chosen.resign),
        )
    openings = chosen.openings
    opening_plies, opening_format = chosen.opening_plies, chosen.opening_format
    opening_order, seed = chosen.opening_order, chosen.seed
    opening_file = None
    if isinstance(openings, (str, os.PathLike)):
        if opening_order == "random" and seed is None:
            seed = random.SystemRandom().randrange(2**32)  # kept, so a resume replays it
        # Read once: the bytes parsed are the bytes hashed (a pipe cannot be read twice).
        raw = read_input(openings, "openings file", regular=_expect is not None, setting="openings")
        opening_file = {
            "file": os.path.abspath(openings),
            "plies": opening_plies,
            "format": opening_format,
            "order": opening_order,
            "seed": seed,
            "sha256": _changed(raw, _expect, "openings file", openings),
        }
        openings = parse_openings(raw, openings, opening_plies, opening_format)
        opening_plies = opening_format = None  # applied
    if chosen.ray is not None and importlib.util.find_spec("ray") is None:
        from .distributed import INSTALL_HINT

        raise XiangqiError(f"--ray needs Ray, which is not installed: {INSTALL_HINT}")
    opening_book = None
    book = chosen.book
    if book is not None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)  # kept, so a resume replays it
        plies = DEFAULT_BOOK_PLIES if chosen.book_plies is None else chosen.book_plies
        # A book is read again for each 64 rounds: a regular file, refused before it opens.
        raw = read_input(book, "opening book", setting="book")
        digest = _changed(raw, _expect, "opening book", book)
        from_book = BookOpenings(book, plies, seed)
        source: OpeningSource = from_book
        opening_book = {
            "file": os.path.abspath(book),
            "plies": from_book.plies,
            "seed": seed,
            "sha256": digest,
        }
    else:
        source = opening_source(openings, opening_plies, opening_format, opening_order, seed)
    return MatchPlan(
        specs=(specs[0], specs[1]),
        tcs=(tcs[0], tcs[1]),
        total=total,
        openings=source,
        concurrency=concurrency,
        adjudication=adjudication,
        time_margin=chosen.time_margin,
        sprt=chosen.sprt if isinstance(chosen.sprt, SPRT) else None,
        event=chosen.event,
        opening_file=opening_file,
        opening_book=opening_book,
        ray=chosen.ray,
        ray_retries=chosen.ray_retries,
        ray_resource=chosen.ray_resource,
    )


def run_match(
    engines: Sequence[EngineSpec | str] | None = None,
    games: int | None = None,
    limit: Limit | TimeControl | str | None = None,
    *,
    settings: MatchSettings | None = None,
    pgn_out: TextIO | None = None,
    results_out: TextIO | None = None,
    progress: TextIO | None = None,
    keep_games: bool = True,
    pgn_file: PathArg | None = None,
    results_file: PathArg | None = None,
    **options: Any,
) -> MatchResult:
    """Play a match between two engines; the same settings as ``xiangqi match``.

    The settings are :class:`MatchSettings`' fields, as keywords (``run_match(engines,
    games=4, tc="10+0.1")``) or as settings (the keywords given besides replace its
    fields, and the other of an either/or pair: games or rounds, limit or tc, openings or
    book):

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
    "movecount=3 score=600 twosided=true") or as a mapping of that rule's Adjudication
    fields (draw_move, draw_count, draw_score; resign_count, resign_score,
    resign_two_sided). max_plies: a draw after this many plies (None: no cap). rules: "asian"
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
    _check_outputs(pgn_out, results_out, progress, keep_games)
    _check_path("pgn_file", pgn_file)
    _check_path("results_file", results_file)
    if pgn_file is not None and pgn_out is not None:
        raise XiangqiError("give pgn_out or pgn_file, not both")
    if results_file is not None and results_out is not None:
        raise XiangqiError("give results_out or results_file, not both")
    plan = prepare_match(engines, games, limit, settings=settings, **options)
    if pgn_file is not None or results_file is not None:
        return run_to_files(plan, pgn_file, results_file, progress=progress, keep_games=keep_games)
    return plan.run(pgn_out, results_out, progress, keep_games)


def resume_match(
    resume: PathArg,
    *,
    pgn_file: PathArg | None = None,
    results_file: PathArg | None = None,
    ray: str | None = None,
    concurrency: int | None = None,
    progress: TextIO | None = None,
    keep_games: bool = True,
    names: tuple[str, str] = ("pgn_file", "results_file"),
) -> MatchResult:
    """Continue the interrupted match whose results file is resume, as ``xiangqi match
    --resume`` does: its settings (the openings file or book unchanged since, by its
    sha256), its complete rounds counted and not played (a round cut short is played
    again), the rest played. Every setting comes from the results file but concurrency
    (given: the games at once from now on) and ray (the cluster's address).

    The results go to results_file (default: resume itself, replaced) and the PGN to
    pgn_file (default: the PGN file the results name, taken relative to the results file's
    folder when relative), all games in game order: the kept rounds' games are copied
    from the PGN file the results name, which must hold each of them once (a PGN of this
    match: its games' Event and Round tags, and Red and Black as the records say). The PGN
    the results name is rewritten only when it is such a file; pgn_file, when given, is a
    new file or such a file. Both are written as run_match writes them, and left as they
    were when the match fails before a new game is played. A Ray match runs on Ray
    again, at the address ray when it is given. XiangqiError, before any engine starts or
    any file is touched, when resume is not a results file of xiangqi match (naming the
    file and the field), a game record is malformed (naming the file, the line and the
    field; see xiangqi.match.resume), the openings changed, the PGN is not this match's,
    or an output is refused. names: the two outputs' names in messages. A malformed ray or
    concurrency is refused as itself (TypeError, or a ValueError naming it) before the
    results file is read.
    """
    _check_outputs(None, None, progress, keep_games)
    _check_path("pgn_file", pgn_file)
    _check_path("results_file", results_file)
    names = _check_names(names)
    if concurrency is not None:  # the arguments' own errors, before the file is read
        concurrency = check_count("concurrency", concurrency, 1)
    if ray is not None:
        check_ray(ray)
    old = read_results(resume)
    plan = MatchPlan.from_settings(old.settings, ray=ray, concurrency=concurrency, file=old.path)
    finished = _paired(check_records(old.records, plan, file=old.path, lines=old.lines))
    named = None
    if old.pgn is not None:  # relative to the results file's folder (absolute: as it is)
        named = os.path.join(os.path.dirname(os.path.abspath(old.path)), old.pgn)
    kept: dict[int, str] = {}
    if pgn_file is None:
        target: PathArg | None = named
        if named is not None:
            kept = kept_games(named, finished, plan.event, plan.total, old.path)
    else:
        target = pgn_file
        given = os.fsdecode(pgn_file)
        if finished:
            if named is None:
                raise XiangqiError(
                    f"the results file {old.path!r} names no PGN file: the kept rounds' "
                    f"games cannot be copied to {given!r}"
                )
            kept = kept_games(named, finished, plan.event, plan.total, old.path)
        if os.path.lexists(given) and not (named is not None and _same_file(given, named)):
            # another existing file: only a PGN of this match may be replaced
            kept_games(given, [], plan.event, plan.total, old.path, explicit=True)
    return run_to_files(
        plan,
        target,
        results_file if results_file is not None else resume,
        finished=finished,
        kept=kept,
        resumed=resume,
        progress=progress,
        keep_games=keep_games,
        names=names,
    )


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def complete_rounds(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The game records of the rounds (game pairs) whose both games are in records, which a
    resumed match keeps; a round cut short is played again whole (its pair counts once).
    XiangqiError for a malformed record (see xiangqi.match.resume.check_records)."""
    return _paired(check_records(records))


def _paired(checked: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """complete_rounds() of records check_records has returned."""
    by_round: dict[int, list[dict[str, Any]]] = {}
    for record in checked:
        by_round.setdefault(record["round"], []).append(record)
    kept = []
    for _, pair in sorted(by_round.items()):
        if len(pair) == 2:  # game numbers are unique and each names its round
            kept += sorted(pair, key=lambda r: int(r["game"]))
    return kept
