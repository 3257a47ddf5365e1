"""MatchSettings: every setting of a match, its default and its check, in one place.

:func:`~xiangqi.match.prepare_match` and :func:`~xiangqi.match.run_match` take these as
keyword arguments (or one ``settings=MatchSettings(...)``), ``xiangqi match`` builds one
from its options, and a resumed match rebuilds one from its results file. The checks here
need no file and start nothing; prepare_match then reads the openings and makes the plan.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence
from typing import Any

from .._checks import check_bool, check_int, check_real, show, type_name
from ..engine import Limit
from ..errors import XiangqiError
from ..position import Position
from ..rules import Rules, check_rules
from .adjudication import DEFAULT_MAX_PLIES, Adjudication, check_count, check_max_plies
from .openings import OPENING_ORDERS, Opening, OpeningSource, opening_source
from .runner import DEFAULT_TIME_MARGIN
from .spec import EngineSpec, check_each
from .stats import SPRT
from .timecontrol import TimeControl

#: How often a round whose Ray worker or node was lost is played again.
DEFAULT_RAY_RETRIES = 3

#: The largest seed (a 64-bit word; JSON and every tool reading the results can hold it).
MAX_SEED = 2**64 - 1


#: The formats an openings file may be read as (see xiangqi.match.load_openings).
OPENING_FORMATS = ("pgn", "epd", "fen")


def as_time_control(name: str, value: object) -> TimeControl | None:
    """value (a TimeControl, a Limit, its text or None) as a TimeControl; TypeError or
    XiangqiError naming the setting name."""
    if value is None or isinstance(value, TimeControl):
        return value
    if isinstance(value, Limit):
        return TimeControl.from_limit(value)
    if isinstance(value, str):
        try:
            return TimeControl.parse(value)
        except XiangqiError as exc:
            raise XiangqiError(f"{name}: {exc}") from None
    raise TypeError(f"{name} must be a TimeControl, Limit or text, got {type_name(value)}")


def _check_word(name: str, value: object, what: str) -> str:
    """value, a name (what it must be): TypeError when it is no text, XiangqiError when it
    is empty or only spaces."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be {what}, got {type_name(value)}")
    if not value.strip():
        raise XiangqiError(f"{name} is {what}, got {value!r}")
    return value


def check_ray(ray: object) -> str:
    """ray (a Ray cluster's address, "auto" or "local"): TypeError when it is no text,
    XiangqiError when it is empty or only spaces."""
    return _check_word("ray", ray, "a cluster address, 'auto' or 'local'")


#: The keys draw and resign take as a mapping: Adjudication's fields of that rule.
_RULE_FIELDS = {
    kind: tuple(f.name for f in dataclasses.fields(Adjudication) if f.name.startswith(kind + "_"))
    for kind in ("draw", "resign")
}


def rule_fields(kind: str, value: object) -> dict[str, Any]:
    """The Adjudication fields of the draw or resign setting (kind): its text (see
    Adjudication.parse_rule) or a mapping of those fields only; TypeError or XiangqiError
    naming the setting."""
    if value is None:
        return {}
    if isinstance(value, str):
        return Adjudication.parse_rule(value, kind)
    if not isinstance(value, Mapping):
        raise TypeError(
            f"{kind} must be text or a mapping of {', '.join(_RULE_FIELDS[kind])}, "
            f"got {type_name(value)}"
        )
    for key in value:
        if key not in _RULE_FIELDS[kind]:
            raise XiangqiError(
                f"{kind} takes {', '.join(_RULE_FIELDS[kind])}, got the key {show(key)}"
            )
    fields: dict[str, Any] = {}
    for key, field in value.items():  # Adjudication's checks, made here without making one
        two_sided = key == "resign_two_sided"
        fields[key] = check_bool(key, field) if two_sided else check_count(key, field, 0)
    return fields


def _check_each(each: object) -> None:
    """each: engine settings as key=value words for both engines (no cmd, arg or name)."""
    check_each(each)  # its words (spec.py owns the engine settings' keys)
    assert isinstance(each, str)  # check_each refused anything else
    try:
        EngineSpec.parse("cmd=engine", each)
    except XiangqiError as exc:  # a value: "tc=fast", "timeout=0"
        raise XiangqiError(f"each {show(each)}: {exc}") from None


@dataclasses.dataclass(frozen=True)
class MatchSettings:
    """Every setting of a match (see :func:`~xiangqi.match.run_match` for their meaning),
    each checked when made: TypeError for a value of the wrong type or a ValueError
    (XiangqiError) for a bad one, naming the setting (time controls, draw and resign texts
    and each are read; a draw or resign mapping holds only that rule's Adjudication fields).

    A count (games, rounds, concurrency, max_plies, opening_plies, ray_retries, a draw or
    resign field) is at most MAX_COUNT (2**64 - 1, what the results file's readers hold);
    openings other than a file are checked as prepare_match takes them, opening_format is
    "pgn", "epd" or "fen". Numbers come back as plain ints and floats (a NumPy integer
    too), rules as a :class:`~xiangqi.Rules` and an sprt text as an
    :class:`~xiangqi.match.SPRT`; files are not read yet (prepare_match reads them).
    ``dataclasses.replace(settings, games=10)`` makes a changed copy, checked again.
    """

    engines: Sequence[EngineSpec | str]
    games: int | None = None
    limit: Limit | TimeControl | str | None = None
    rounds: int | None = None
    each: str = ""
    tc: Limit | TimeControl | str | None = None
    openings: OpeningSource | Sequence[Position | Opening] | str | os.PathLike[str] | None = None
    opening_plies: int | None = None
    opening_format: str | None = None
    opening_order: str = "sequential"
    seed: int | None = None
    book: str | os.PathLike[str] | None = None
    book_plies: int | None = None
    concurrency: int = 1
    max_plies: int | None = DEFAULT_MAX_PLIES
    draw: str | Mapping[str, Any] | None = None
    resign: str | Mapping[str, Any] | None = None
    rules: Rules | str = Rules.ASIAN
    #: When given, replaces max_plies, draw, resign and rules.
    adjudication: Adjudication | None = None
    time_margin: float = DEFAULT_TIME_MARGIN
    sprt: SPRT | str | None = None
    event: str = "xiangqi match"
    ray: str | None = None
    ray_retries: int = DEFAULT_RAY_RETRIES
    ray_resource: str | None = None

    def __post_init__(self) -> None:
        engines = self.engines
        if isinstance(engines, (str, EngineSpec)):
            raise XiangqiError("a match needs exactly two engines, got 1")
        if not isinstance(engines, Sequence):
            raise TypeError(f"engines must be two EngineSpecs or texts, got {type_name(engines)}")
        if len(engines) != 2:
            raise XiangqiError(f"a match needs exactly two engines, got {len(engines)}")
        for engine in engines:
            if not isinstance(engine, (str, EngineSpec)):
                raise TypeError(
                    f"engines must be EngineSpecs or their texts, got {type_name(engine)}"
                )
        fixed: dict[str, Any] = {"engines": tuple(engines)}
        _check_each(self.each)
        for n, engine in enumerate(engines, 1):
            if isinstance(engine, str):  # read as prepare_match reads it, kept as given
                try:
                    EngineSpec.parse(engine, self.each)
                except XiangqiError as exc:
                    raise XiangqiError(f"engines: engine {n} ({show(engine)}): {exc}") from None
        if self.seed is not None:
            fixed["seed"] = check_int("seed", self.seed, 0, MAX_SEED)
        if self.opening_plies is not None:
            fixed["opening_plies"] = check_count("opening_plies", self.opening_plies, 0)
        if self.book_plies is not None:
            fixed["book_plies"] = check_int("book_plies", self.book_plies, 1, 1000)
        if self.adjudication is not None and not isinstance(self.adjudication, Adjudication):
            kind = type_name(self.adjudication)
            raise TypeError(f"adjudication must be an Adjudication, got {kind}")
        if self.games is not None and self.rounds is not None:
            raise XiangqiError("give games or rounds, not both")
        if self.games is not None:
            fixed["games"] = check_count("games", self.games, 1)
        if self.rounds is not None:
            fixed["rounds"] = check_count("rounds", self.rounds, 1)
        fixed["concurrency"] = check_count("concurrency", self.concurrency, 1)
        if self.limit is not None and self.tc is not None:
            raise XiangqiError("give limit or tc, not both")
        as_time_control("limit", self.limit)
        as_time_control("tc", self.tc)
        if self.max_plies is not None:
            fixed["max_plies"] = check_max_plies(self.max_plies)
        draw, resign = rule_fields("draw", self.draw), rule_fields("resign", self.resign)
        if isinstance(self.draw, Mapping):
            fixed["draw"] = draw  # a copy: a later change to the caller's mapping is not ours
        if isinstance(self.resign, Mapping):
            fixed["resign"] = resign
        fixed["time_margin"] = check_real("time_margin", self.time_margin, 0)
        fixed["rules"] = check_rules(self.rules)
        sprt = SPRT.parse(self.sprt) if isinstance(self.sprt, str) else self.sprt
        if sprt is not None and not isinstance(sprt, SPRT):
            raise TypeError(f"sprt is an SPRT or its text, got {type(sprt).__name__}")
        fixed["sprt"] = sprt
        if not isinstance(self.event, str):
            raise TypeError(f"event is text, got {type(self.event).__name__}")
        if not isinstance(self.opening_order, str):  # before comparing: any type's == runs
            raise TypeError(
                "opening_order must be 'sequential' or 'random', got "
                + type_name(self.opening_order)
            )
        if self.opening_order not in OPENING_ORDERS:
            raise XiangqiError(
                f"opening order must be sequential or random, got {show(self.opening_order)}"
            )
        if self.opening_format is not None:
            if not isinstance(self.opening_format, str):
                kind = type_name(self.opening_format)
                raise TypeError(f"opening_format must be text, got {kind}")
            if self.opening_format not in OPENING_FORMATS:
                raise XiangqiError(
                    f"opening_format must be pgn or epd (fen), got {show(self.opening_format)}"
                )
        if self.openings is not None and not isinstance(self.openings, (str, os.PathLike)):
            # Positions, Openings or an OpeningSource: checked as prepare_match takes them
            # (a file is read there)
            opening_source(self.openings, self.opening_plies)
        if self.ray is not None:
            check_ray(self.ray)
            if min(fixed["concurrency"], self.total) != 1:
                raise XiangqiError(
                    "concurrency is the games at once on this machine; on Ray the cluster's "
                    "CPUs (or ray_resource) bound the games per node"
                )
        fixed["ray_retries"] = check_count("ray_retries", self.ray_retries, 0)
        if self.ray_resource is not None:
            _check_word("ray_resource", self.ray_resource, "a resource name")
        if self.book is not None:
            if self.openings is not None:
                raise XiangqiError("give openings or a book, not both")
            if not isinstance(self.book, (str, os.PathLike)):
                raise TypeError(f"book must be a file name, got {type_name(self.book)}")
        elif self.book_plies is not None:
            raise XiangqiError("book_plies needs a book")
        if self.openings is None and self.opening_plies is not None:
            raise XiangqiError("opening_plies needs openings")  # as book_plies a book
        for name, value in fixed.items():
            object.__setattr__(self, name, value)

    @property
    def total(self) -> int:
        """The games to play: games, else two a round (default one round)."""
        if self.games is not None:
            return int(self.games)
        return 2 * (1 if self.rounds is None else int(self.rounds))

    @classmethod
    def default(cls, name: str) -> Any:
        """The default of the setting name (for the command line's help)."""
        return cls.__dataclass_fields__[name].default
