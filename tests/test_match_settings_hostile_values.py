"""Hostile values for the match settings: each is refused when MatchSettings is made (and so
before any engine starts or file is written), as a TypeError or a ValueError naming the
setting, never another exception and never later.

- An int the results file cannot hold: a match with max_plies=10**5000 played its games and
  then failed to write its results (Python's int-to-text limit is 4,300 digits; JSON tools
  hold a 64-bit word).
- openings, opening_order and opening_format of the wrong type or value were accepted when
  the settings were made (opening_format="xyz" was silently ignored without an openings
  file; an opening_order whose == raises escaped as that error).
- A value whose repr raises made the check's own message raise.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from xiangqi import Position
from xiangqi.errors import XiangqiError
from xiangqi.match import MatchSettings, prepare_match, resume_match
from xiangqi.match.adjudication import Adjudication

FSF = "/usr/games/fairy-stockfish"
ENGINES = [f"cmd={FSF}", f"cmd={FSF}"]
#: The largest a 64-bit word holds: what the results file's readers can hold.
WORD = 2**64 - 1


def refused(changes: dict[str, Any], error: type[Exception], message: str) -> None:
    """Refused alike when MatchSettings is made and by prepare_match's keywords."""
    with pytest.raises(error, match=message):
        MatchSettings(ENGINES, **changes)
    with pytest.raises(error, match=message):
        prepare_match(ENGINES, **changes)


# -- ints the results file cannot hold -------------------------------------------------------

COUNTS = [
    {"games": 10**5000},
    {"rounds": 10**5000},
    {"max_plies": 10**5000},
    {"concurrency": 10**5000},
    {"opening_plies": 10**5000},
    {"ray_retries": 10**5000},
    {"draw": {"draw_count": 10**5000}},
    {"resign": {"resign_count": 3, "resign_score": 10**5000}},
    {"games": WORD + 1},
]


@pytest.mark.parametrize("changes", COUNTS, ids=lambda c: next(iter(c)))
def test_a_count_larger_than_a_64_bit_word_is_refused_naming_it(changes: dict[str, Any]) -> None:
    name = next(iter(changes))
    value = changes[name]
    if isinstance(value, dict):
        name = next(k for k, v in value.items() if v > WORD)
    refused(changes, ValueError, rf"^{name} must be at most {WORD}, got ")


def test_adjudication_refuses_such_a_count_too() -> None:
    with pytest.raises(ValueError, match=rf"^max_plies must be at most {WORD}, got "):
        Adjudication(max_plies=10**5000)
    with pytest.raises(ValueError, match=rf"^draw_score must be at most {WORD}, got "):
        Adjudication(draw_count=2, draw_score=WORD + 1)


def test_the_largest_count_is_written_to_and_read_from_the_results() -> None:
    plan = prepare_match(ENGINES, games=WORD, max_plies=np.uint64(WORD), draw={"draw_count": WORD})
    text = json.dumps(plan.settings())  # the results file's settings: writable
    back = json.loads(text)
    assert back["games"] == WORD and back["adjudication"]["max_plies"] == WORD


def test_a_results_file_edited_to_such_a_count_is_refused_naming_it(tmp_path: Path) -> None:
    plan = prepare_match(ENGINES, games=2, limit="depth=1")
    settings = plan.settings()
    settings["adjudication"]["max_plies"] = 10**4000  # JSON reads it; the match cannot
    results = tmp_path / "out.json"
    results.write_text(json.dumps({"settings": settings, "games": []}))
    before = results.read_bytes()
    with pytest.raises(XiangqiError, match=r"out\.json.*max_plies must be at most"):
        resume_match(results)
    assert results.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


# -- openings, opening_order, opening_format ---------------------------------------------------


@pytest.mark.parametrize("value", [5, 3.0, b"openings.epd", {"a": 1}, object()])
def test_openings_of_another_type_are_a_type_error_when_made(value: Any) -> None:
    with pytest.raises(TypeError, match="^openings must be a file name"):
        MatchSettings(ENGINES, openings=value)


@pytest.mark.parametrize(
    "value", [[5], ["rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"]]
)
def test_openings_items_of_another_type_are_a_type_error_when_made(value: Any) -> None:
    with pytest.raises(TypeError, match="^openings are Positions or Openings"):
        MatchSettings(ENGINES, openings=value)


def test_positions_are_still_openings() -> None:
    settings = MatchSettings(ENGINES, openings=[Position()], opening_order="random", seed=1)
    assert prepare_match(settings=settings).openings.index(0) == 0


class _Hostile:
    """A value whose comparisons, hash, str and repr all raise."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("__eq__")

    def __hash__(self) -> int:
        raise RuntimeError("__hash__")

    def __str__(self) -> str:
        raise RuntimeError("__str__")

    def __repr__(self) -> str:
        raise RuntimeError("__repr__")


@pytest.mark.parametrize("value", [5, ["random"], None, _Hostile()])
def test_an_opening_order_of_another_type_is_a_type_error(value: Any) -> None:
    refused({"opening_order": value}, TypeError, "^opening_order must be 'sequential' or 'random'")


@pytest.mark.parametrize("value", ["xyz", "", "PGN"])
def test_an_unknown_opening_format_is_refused_when_made(value: str) -> None:
    # load_openings reads "pgn" and "epd" (or "fen"); without an openings file the
    # format was accepted and ignored
    refused({"opening_format": value}, XiangqiError, "^opening_format must be pgn or epd")


@pytest.mark.parametrize("value", ["pgn", "epd", "fen"])
def test_the_opening_formats_are_taken(value: str) -> None:
    assert MatchSettings(ENGINES, opening_format=value).opening_format == value


# -- values whose repr raises --------------------------------------------------------------


@pytest.mark.parametrize("name", ["games", "max_plies", "time_margin", "concurrency", "seed"])
def test_a_value_whose_repr_raises_is_still_a_type_error_naming_the_setting(name: str) -> None:
    with pytest.raises(TypeError, match=rf"^{name} must be .*_Hostile"):
        MatchSettings(ENGINES, **{name: _Hostile()})


def test_a_draw_mapping_value_whose_repr_raises_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="^draw_count must be an int, got _Hostile"):
        MatchSettings(ENGINES, draw={"draw_count": _Hostile()})


# -- resume_match's own arguments ----------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "error", "message"),
    [
        ({"ray": 5}, TypeError, "^ray must be a cluster address, 'auto' or 'local', got int$"),
        ({"ray": b"auto"}, TypeError, "^ray must be a cluster address"),
        ({"ray": ""}, XiangqiError, "^ray is a cluster address, 'auto' or 'local', got ''$"),
        ({"concurrency": 10**5000}, ValueError, rf"^concurrency must be at most {WORD}, got "),
    ],
)
def test_resume_arguments_are_refused_as_themselves_not_as_the_results_file(
    tmp_path: Path, changes: dict[str, Any], error: type[Exception], message: str
) -> None:
    # they were checked inside the results file's settings and blamed on the file
    # ("'out.json', settings: ray must be ...")
    plan = prepare_match(ENGINES, games=2, limit="depth=1")
    results = tmp_path / "out.json"
    results.write_text(json.dumps({"settings": plan.settings(), "games": []}))
    before = results.read_bytes()
    with pytest.raises(error, match=message):
        resume_match(results, **changes)
    assert results.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


# -- a keyword None besides settings -------------------------------------------------------


def test_a_keyword_book_none_drops_the_settings_book_with_its_plies() -> None:
    # was "book_plies needs a book": the plies of the book the keyword removed stayed
    settings = MatchSettings(ENGINES, book="book.dat", book_plies=3)
    plan = prepare_match(settings=settings, book=None)
    assert plan.opening_book is None and plan.inputs() == [FSF, FSF]
    # book_plies given with it still needs a book
    with pytest.raises(XiangqiError, match="^book_plies needs a book$"):
        prepare_match(settings=settings, book=None, book_plies=4)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"ray": "  "}, "^ray is a cluster address, 'auto' or 'local', got '  '$"),
        ({"ray": "local", "ray_resource": "\t"}, r"^ray_resource is a resource name, got '\\t'$"),
        ({"ray": "local", "ray_resource": ""}, "^ray_resource is a resource name, got ''$"),
    ],
)
def test_a_ray_address_or_resource_of_only_spaces_is_refused(
    changes: dict[str, Any], message: str
) -> None:
    # Only spaces named no cluster and no resource, yet were accepted (an attacker's finding)
    with pytest.raises(XiangqiError, match=message):
        MatchSettings(ENGINES, **changes)
