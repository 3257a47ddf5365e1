"""Resuming a match: its results file read and every finished game's record checked.

A results file (written by a match, see :meth:`MatchResult.to_json`) holds the match's
"settings" and one record per finished game under "games". Before a resumed match counts
a record, each of its fields is checked against the plan the settings give: "game" is a
whole number (JSON ``true`` is not one, nor ``1.7``, ``NaN`` or ``Infinity``) from 1 to the
planned games, "round" is that game's round, "result" one of the three results, "opening"
the opening the plan gives that round, and the other fields of the type the runner writes.
A record that fails is refused (:class:`~xiangqi.errors.XiangqiError`) naming the file, the
line and the field, before any engine starts or any file is touched.
"""

from __future__ import annotations

import bisect
import dataclasses
import io
import json
import json.decoder
import json.scanner
import os
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from .._checks import show
from ..errors import XiangqiError
from ._inputs import read_input

if TYPE_CHECKING:
    from .plan import MatchPlan

#: The results a finished game can have.
RESULTS = ("1-0", "0-1", "1/2-1/2")

#: The fields a game record must have.
REQUIRED_FIELDS = ("game", "round", "result")

#: The text fields a record may have (the runner writes the first four; a Ray match the
#: last two as well).
TEXT_FIELDS = ("red", "black", "termination", "reason", "node", "host")


@dataclasses.dataclass
class ResultsFile:
    """A results file as read for resuming: its settings, its game records (each with the
    line it starts on) and the PGN file it names (None: none)."""

    #: The file's path, as given.
    path: str
    #: The match's settings (MatchPlan.from_settings reads them).
    settings: Mapping[str, Any]
    #: The game records, as in the file.
    records: list[dict[str, Any]]
    #: The PGN file the match wrote, or None.
    pgn: str | None
    #: The line (1-based) each record starts on, and that of each of its fields found.
    lines: list[dict[str, int]] = dataclasses.field(default_factory=list)


#: Python's own object parser and scanner (json's C scanner cannot note positions).
_OBJECT: Any = getattr(json.decoder, "JSONObject")  # noqa: B009
_SCANNER: Any = getattr(json.scanner, "py_make_scanner")  # noqa: B009


class _Positions(json.JSONDecoder):
    """A JSON decoder (Python's own scanner) that notes where each object starts and ends."""

    def __init__(self) -> None:
        super().__init__()
        self.spans: dict[int, tuple[int, int]] = {}

        def parse_object(s_and_end: tuple[str, int], *args: Any) -> tuple[Any, int]:
            text, start = s_and_end
            value, end = _OBJECT(s_and_end, *args)
            self.spans[id(value)] = (start - 1, end)
            return value, end

        self.parse_object = parse_object
        self.scan_once = _SCANNER(self)


def read_results(path: str | bytes | os.PathLike[str] | os.PathLike[bytes]) -> ResultsFile:
    """Read the results file at path for resuming; XiangqiError (naming the file, and the
    line where one is to blame) when it is not a results file of xiangqi match or a game
    record's field is malformed (see :func:`check_records`; the plan's checks come later)."""
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError(f"resume must be a results file's path, got {type(path).__name__}")
    name = os.fsdecode(os.fspath(path))
    text = _text(read_input(path, "results file"), f"the results file {name!r}")
    decoder = _Positions()
    try:
        data = decoder.decode(text)
    except (ValueError, RecursionError) as exc:
        raise XiangqiError(f"{name!r} is not a results file of xiangqi match ({exc})") from None
    settings = data.get("settings") if isinstance(data, dict) else None
    records = data.get("games") if isinstance(data, dict) else None
    if not isinstance(settings, dict) or not isinstance(records, list):
        raise XiangqiError(
            f"{name!r} is not a results file of xiangqi match (no settings or games)"
        )
    pgn = data.get("pgn")
    if pgn is not None and not isinstance(pgn, str):
        raise XiangqiError(f'{name!r}: its "pgn" is {pgn!r}, expected a file name')
    # Where each line starts, once: a record's and its fields' lines are found by bisection
    # (counting the newlines before each would take time quadratic in the file's size).
    starts = [0, *(m.end() for m in re.finditer("\n", text))]

    def line_of(offset: int) -> int:
        return bisect.bisect_right(starts, offset)

    lines = []
    for n, record in enumerate(records):
        span = decoder.spans.get(id(record)) if isinstance(record, dict) else None
        if span is None:
            raise XiangqiError(
                f"{name!r}: game record {n + 1} is {show(record)}, expected a JSON object"
            )
        start, end = span
        where = {"": line_of(start)}
        for key in record:
            found = re.compile(rf"{re.escape(json.dumps(key))}\s*:").search(text, start, end)
            where[key] = where[""] if found is None else line_of(found.start())
        lines.append(where)
    return ResultsFile(name, settings, records, pgn, lines)


def check_records(
    records: Sequence[Mapping[str, Any]],
    plan: MatchPlan | None = None,
    *,
    file: str | None = None,
    lines: Sequence[Mapping[str, int]] = (),
) -> list[dict[str, Any]]:
    """The game records, each checked field by field (against plan's games and openings
    when it is given), as new dicts; XiangqiError naming the record (by file and line when
    they are given) and the field for the first that is malformed, and for a game that
    appears twice."""
    checked = []
    seen: dict[int, str] = {}
    total = None if plan is None else plan.total
    for n, record in enumerate(records):
        where = lines[n] if n < len(lines) else {}

        def fail(
            field: str, problem: str, where: Mapping[str, int] = where, n: int = n
        ) -> NoReturn:
            line = where.get(field, where.get(""))
            place = f"game record {n + 1}" if line is None else f"line {line}"
            origin = "" if file is None else f"{file!r} "
            raise XiangqiError(f"{origin}{place}: field {field!r} {problem}")

        if not isinstance(record, Mapping):
            fail("", f"is not a game record: {show(record)}")
        for field in REQUIRED_FIELDS:
            if field not in record:
                fail(field, "is missing")
        game = _whole(record["game"])
        if game is None or game < 1 or (total is not None and game > total):
            span = "1.." + ("" if total is None else str(total))
            fail("game", f"is {show(record['game'])}, expected a game number {span}")
        round_ = (game + 1) // 2
        if _whole(record["round"]) != round_:
            fail("round", f"is {show(record['round'])}, expected {round_} (game {game}'s)")
        if record["result"] not in RESULTS:
            fail("result", f"is {show(record['result'])}, expected one of {', '.join(RESULTS)}")
        for field in TEXT_FIELDS:
            if field in record and not isinstance(record[field], str):
                fail(field, f"is {show(record[field])}, expected text")
        for field, low in (("plies", 0), ("attempt", 1)):
            count = _whole(record.get(field, low))
            if count is None or count < low:
                fail(field, f"is {show(record[field])}, expected a whole number from {low}")
        if "opening" in record:
            opening = record["opening"]
            if opening is not None and (_whole(opening) is None or opening < 0):
                fail("opening", f"is {show(opening)}, expected an opening's index or null")
            expected = opening if plan is None else plan.openings.index(round_ - 1)
            if opening != expected:
                fail(
                    "opening",
                    f"is {show(opening)}, but the match plays {show(expected)} in round {round_}",
                )
        if game in seen:
            fail("game", f"is {game}, a game that appears twice ({seen[game]})")
        seen[game] = "" if "" not in where else f"line {where['']}"
        checked.append(dict(record))
    return checked


def _text(raw: bytes, shown: str) -> str:
    """raw decoded as UTF-8 (a BOM allowed); XiangqiError naming the file (shown) when it
    is not."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise XiangqiError(
            f"{shown} is not UTF-8 (byte {exc.start}: {raw[exc.start : exc.start + 4]!r})"
        ) from None


def kept_games(
    pgn: str,
    finished: Sequence[Mapping[str, Any]],
    event: str,
    total: int,
    results: str,
    *,
    explicit: bool = False,
) -> dict[int, str]:
    """The games of the PGN file pgn of the match whose results file is results, each
    kept round's two, as PGN text by game index (from 0); XiangqiError naming both files
    when pgn is not a PGN of this match (a game whose Event is not event, or whose Round is
    not one of its total games' rounds; text that holds no game), lacks a game of a kept
    round, holds one twice, or a game whose Red or Black is not its record's (event and the
    names compared as the PGN holds them, see as_written). explicit: pgn
    was given as the PGN to write (it may then be missing when no round is kept)."""
    from ..pgn import read_games

    shown = f"the PGN file {pgn!r} (of the results file {results!r})"
    if not os.path.lexists(pgn):
        if not finished and explicit:
            return {}
        raise XiangqiError(
            f"{shown} does not exist"
            + ("; its kept rounds' games cannot be copied" if finished else "")
            + ("" if explicit or finished else "; give --pgn (pgn_file) to write a new one")
        )
    text = _text(read_input(pgn, "PGN file"), shown)
    games = list(read_games(text))
    # The tags are compared as the PGN holds them: a tab written as a space, the other
    # control characters dropped (xiangqi.pgn's writer); the settings and records keep
    # the text as given.
    written_event = as_written(event)
    if not games and text.strip():
        raise XiangqiError(f"{shown} holds no game: not a PGN file of this match")
    rounds = (total + 1) // 2
    by_round: dict[str, list[tuple[str, Mapping[str, str]]]] = {}
    for number, parsed in enumerate(games, 1):
        tag = parsed.tags.get("Round", "")
        number_ok = tag.isascii() and tag.isdigit() and len(tag) <= 18
        if parsed.tags.get("Event") != written_event or not (number_ok and 1 <= int(tag) <= rounds):
            raise XiangqiError(
                f"{shown}: game {number} (Event {show(parsed.tags.get('Event'))}, Round "
                f"{show(tag)}) is not a game of this match (Event {show(event)}, "
                f"rounds 1..{rounds})"
            )
        by_round.setdefault(str(int(tag)), []).append((parsed.to_pgn() + "\n", parsed.tags))
    kept: dict[int, str] = {}
    wanted: dict[int, list[Mapping[str, Any]]] = {}
    for record in finished:
        wanted.setdefault(int(record["round"]), []).append(record)
    for round_, records in sorted(wanted.items()):
        found = by_round.get(str(round_), [])
        if len(found) != len(records):
            problem = "lacks a game" if len(found) < len(records) else "holds a game twice"
            raise XiangqiError(
                f"{shown} {problem} of round {round_} ({len(found)} games, the results "
                f"keep {len(records)})"
            )
        for record, (text_of, tags) in zip(sorted(records, key=lambda r: int(r["game"])), found):
            for side in ("red", "black"):
                if side in record and tags.get(side.capitalize()) != as_written(record[side]):
                    raise XiangqiError(
                        f"{shown}: round {round_}'s game {record['game']} has "
                        f"{side.capitalize()} {show(tags.get(side.capitalize()))}, its record "
                        f"{show(record[side])}"
                    )
            kept[int(record["game"]) - 1] = text_of
    return kept


def as_written(text: str) -> str:
    """text as a tag of a PGN file written by xiangqi.pgn reads back (the writer drops the
    characters a record cannot carry and writes a tab as a space): what a match's PGN holds
    of an event or engine name. Found by writing and reading one, not by a copy of the
    writer's rules."""
    from ..pgn import Game, read_game

    back = read_game(io.StringIO(Game(tags={"Event": text}).to_pgn()))
    assert back is not None
    return back.tags.get("Event", "")


def _whole(value: object) -> int | None:
    """value when it is a whole number of JSON (an int, not a bool or a float), else None."""
    return value if type(value) is int else None
