"""Every MatchSettings field is checked when the settings are made, in the library's one
message form, and keywords given besides settings replace the other of an either/or pair.

The message form is xiangqi._checks' ("NAME must be at least N, got V"): TypeError for a
value of the wrong type, a ValueError for a bad value, naming the setting. No engine starts
and no file is read in these tests (prepare_match reads only the named files).
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from xiangqi import Position
from xiangqi.__main__ import main
from xiangqi.engine import Limit
from xiangqi.errors import XiangqiError
from xiangqi.match import MatchSettings, TimeControl, prepare_match
from xiangqi.match.adjudication import Adjudication
from xiangqi.match.plan import match_settings

FSF = "/usr/games/fairy-stockfish"
ENGINES = [f"cmd={FSF}", f"cmd={FSF}"]  # no tc of their own: the match's applies
BOOK_DAT = Path(__file__).parent / "data" / "books" / "BOOK.DAT"


def refused(changes: dict[str, Any], error: type[Exception], message: str) -> None:
    """Refused alike when MatchSettings is made and by prepare_match's keywords."""
    with pytest.raises(error, match=message):
        MatchSettings(ENGINES, **changes)
    with pytest.raises(error, match=message):
        prepare_match(ENGINES, **changes)


# -- max_plies ---------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [0, -1, np.int64(0)])
def test_max_plies_below_one_has_the_one_minimum_message(value: Any) -> None:
    shown = int(value)
    # None, not the command line's 0, is no cap: the message says so
    message = rf"^max_plies must be at least 1, got {shown} \(None: no cap, as --max-plies 0\)$"
    refused({"max_plies": value}, ValueError, message)
    # the adjudication rules say it in the same form
    with pytest.raises(ValueError, match=message):
        Adjudication(max_plies=value)


@pytest.mark.parametrize("value", ["300", 300.0, True])
def test_max_plies_of_another_type_is_a_type_error(value: Any) -> None:
    refused({"max_plies": value}, TypeError, "^max_plies must be an int")


def test_a_numpy_max_plies_comes_back_as_an_int() -> None:
    settings = MatchSettings(ENGINES, max_plies=np.int64(40))
    assert type(settings.max_plies) is int and settings.max_plies == 40
    assert MatchSettings(ENGINES, max_plies=None).max_plies is None  # no cap


# -- draw and resign ---------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["draw", "resign"])
@pytest.mark.parametrize("value", [5, 2.5, ["movecount=3"], b"movecount=3"])
def test_draw_and_resign_of_another_type_are_type_errors_naming_them(kind: str, value: Any) -> None:
    refused({kind: value}, TypeError, f"^{kind} must be text or a mapping of {kind}_")


@pytest.mark.parametrize(
    ("kind", "key"),
    [
        ("draw", "rules"),
        ("draw", "max_plies"),
        ("resign", "max_plies"),
        ("draw", "resign_count"),  # the other rule's field
        ("resign", "draw_score"),
        ("draw", "movecount"),  # the text's word, not the field
    ],
)
def test_a_mapping_holds_only_its_own_rules_fields(kind: str, key: str) -> None:
    refused({kind: {key: 1}}, XiangqiError, f"^{kind} takes .*got the key '{key}'$")


@pytest.mark.parametrize(
    ("kind", "fields", "error", "message"),
    [
        ("draw", {"draw_count": -1}, ValueError, "^draw_count must be at least 0, got -1$"),
        ("draw", {"draw_score": "10"}, TypeError, "^draw_score must be an int"),
        ("resign", {"resign_count": 1.5}, TypeError, "^resign_count must be an int"),
        ("resign", {"resign_two_sided": 1}, TypeError, "^resign_two_sided must be True or"),
        ("draw", "movecount=x", XiangqiError, "--draw takes"),
        ("resign", "score=600", XiangqiError, "--resign needs movecount"),
    ],
)
def test_draw_and_resign_values_are_checked_when_made(
    kind: str, fields: Any, error: type[Exception], message: str
) -> None:
    refused({kind: fields}, error, message)


def test_a_draw_mapping_is_kept_as_a_copy_with_plain_ints() -> None:
    given = {"draw_move": np.int64(20), "draw_count": 4, "draw_score": 5}
    settings = MatchSettings(ENGINES, draw=given, resign={"resign_count": 3, "resign_score": 600})
    given["draw_count"] = 99  # a later change to the caller's mapping is not the settings'
    assert settings.draw == {"draw_move": 20, "draw_count": 4, "draw_score": 5}
    assert type(settings.draw["draw_move"]) is int  # type: ignore[index]
    plan = prepare_match(settings=settings)
    assert (plan.adjudication.draw_move, plan.adjudication.draw_count) == (20, 4)
    assert plan.adjudication.resign_score == 600


# -- limit and tc ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["limit", "tc"])
@pytest.mark.parametrize("value", [5, 1.5, {"depth": 2}])
def test_a_time_control_of_another_type_is_a_type_error_naming_it(name: str, value: Any) -> None:
    refused({name: value}, TypeError, f"^{name} must be a TimeControl, Limit or text, got ")


@pytest.mark.parametrize("name", ["limit", "tc"])
def test_a_time_control_text_is_read_when_made(name: str) -> None:
    refused({name: "fast"}, XiangqiError, f"^{name}: .*'fast'")
    assert MatchSettings(ENGINES, **{name: "10+0.1"})  # a good one is kept


# -- ray ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["ray", "ray_resource"])
@pytest.mark.parametrize("value", [5, b"auto", ["auto"]])
def test_ray_settings_of_another_type_are_type_errors(name: str, value: Any) -> None:
    refused({name: value}, TypeError, f"^{name} must be a")
    with pytest.raises(XiangqiError, match=f"^{name} is a"):  # an empty text: a bad value
        MatchSettings(ENGINES, **{name: ""})


# -- each --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("each", "word"),
    [
        ("5", "5"),
        ("option.Hash=16 depth", "depth"),
        ("name=x", "name=x"),
        ("cmd=/bin/x", "cmd=/bin/x"),
    ],
)
def test_each_names_itself_and_its_own_text(each: str, word: str) -> None:
    expected = f"got {word!r} in each {each!r}"
    refused({"each": each}, XiangqiError, "^each takes .*" + re.escape(expected) + "$")


def test_each_values_are_read_when_made() -> None:
    refused({"each": "tc=fast"}, XiangqiError, "^each 'tc=fast': .*'fast'")
    assert MatchSettings(ENGINES, each="option.Hash=16 tc=depth=2 timeout=5")


def test_the_command_line_names_each_and_its_value(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["match", "--engine", ENGINES[0], "--engine", ENGINES[1], "--each", "5"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith("xiangqi: error: each takes key=value"), err
    assert err.endswith("got '5' in each '5'\n") and "cmd=" not in err, err


# -- either/or pairs given besides settings ---------------------------------------------------


def test_a_keyword_games_or_rounds_replaces_the_other_from_settings() -> None:
    settings = MatchSettings(ENGINES, games=4)
    assert prepare_match(settings=settings, rounds=1).total == 2  # a round is two games
    assert prepare_match(settings=MatchSettings(ENGINES, rounds=3), games=5).total == 5
    assert settings.games == 4 and settings.rounds is None  # frozen: unchanged


def test_a_keyword_limit_or_tc_replaces_the_other_from_settings() -> None:
    plan = prepare_match(settings=MatchSettings(ENGINES, tc="depth=2"), limit=Limit(depth=1))
    assert plan.tcs == (TimeControl(depth=1), TimeControl(depth=1))
    plan = prepare_match(settings=MatchSettings(ENGINES, limit="depth=3"), tc="depth=1")
    assert plan.tcs == (TimeControl(depth=1), TimeControl(depth=1))


def test_a_keyword_openings_or_book_replaces_the_other_from_settings() -> None:
    with_book = MatchSettings(ENGINES, book=BOOK_DAT, book_plies=4)
    plan = prepare_match(settings=with_book, openings=[Position()])
    assert plan.opening_book is None  # the book and its book_plies went together
    plan = prepare_match(settings=MatchSettings(ENGINES, openings=[Position()]), book=BOOK_DAT)
    assert plan.opening_book is not None and plan.opening_book["file"] == str(BOOK_DAT)


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"games": 2, "rounds": 1}, "give games or rounds, not both"),
        ({"limit": "depth=1", "tc": "depth=2"}, "give limit or tc, not both"),
        ({"openings": [Position()], "book": BOOK_DAT}, "give openings or a book, not both"),
    ],
)
def test_two_keywords_of_a_pair_given_together_are_refused(
    given: dict[str, Any], message: str
) -> None:
    settings = MatchSettings(ENGINES, games=4)
    with pytest.raises(XiangqiError, match=message):
        prepare_match(settings=settings, **given)
    with pytest.raises(XiangqiError, match=message):
        prepare_match(ENGINES, **given)


def test_positional_games_with_a_keyword_rounds_is_refused() -> None:
    with pytest.raises(XiangqiError, match="give games or rounds, not both"):
        prepare_match(ENGINES, 4, rounds=1)


# -- input files -------------------------------------------------------------------------------


@pytest.mark.parametrize(("setting", "option"), [("openings", "--openings"), ("book", "--book")])
def test_a_missing_input_file_names_its_setting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], setting: str, option: str
) -> None:
    missing = tmp_path / "missing.file"
    with pytest.raises(FileNotFoundError) as caught:
        prepare_match(ENGINES, **{setting: missing})
    assert f"({setting})" in str(caught.value) and str(missing) in str(caught.value)
    code = main(["match", "--engine", ENGINES[0], "--engine", ENGINES[1], option, str(missing)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith("xiangqi: error: ") and f"({setting})" in err and str(missing) in err


# -- engine texts -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("name=x", "engine settings need cmd=PROGRAM"),
        ("cmd=/bin/engine proto=uccii", "engine proto must be uci or ucci, got 'uccii'"),
        ("cmd=/bin/engine tc=fast", "time control must be"),
    ],
)
def test_an_engine_text_is_read_when_the_settings_are_made(text: str, why: str) -> None:
    # The docs: every field is checked when the settings are made (the texts were read only
    # by prepare_match, whose message named neither the engine nor the setting).
    expected = f"^engines: engine 2 \\({re.escape(repr(text))}\\): .*{re.escape(why)}"
    with pytest.raises(XiangqiError, match=expected):
        MatchSettings([ENGINES[0], text])


def test_opening_plies_needs_openings_as_book_plies_needs_a_book(tmp_path: Path) -> None:
    # Was accepted and silently ignored (an empty opening list), while book_plies without a
    # book was refused: a newcomer's finding.
    with pytest.raises(XiangqiError, match="^opening_plies needs openings$"):
        MatchSettings(ENGINES, opening_plies=4)
    with pytest.raises(XiangqiError, match="^book_plies needs a book$"):
        MatchSettings(ENGINES, book_plies=4)
    openings = tmp_path / "o.pgn"
    openings.write_text("1. h2e2 h9g7 2. h0g2 *\n", encoding="utf-8")
    settings = MatchSettings(ENGINES, openings=str(openings), opening_plies=2)
    # openings=None beside settings takes their opening_plies too; a book replaces both
    assert prepare_match(settings=settings, openings=None).opening_file is None
    book = tmp_path / "b.xqbook"
    assert dataclasses.replace(settings, openings=None, opening_plies=None).opening_plies is None
    with pytest.raises(XiangqiError, match="opening_plies needs openings"):
        dataclasses.replace(settings, openings=None)
    chosen = match_settings(None, {}, settings, {"book": str(book)})
    assert (chosen.openings, chosen.opening_plies, chosen.book) == (None, None, str(book))


def test_a_negative_resign_score_is_told_the_score_is_a_threshold() -> None:
    # "score=-600" is a natural slip (a resign score is negative): the message says N is 0 or
    # more and what it means (a newcomer's finding: it only listed the words)
    with pytest.raises(XiangqiError, match=r"0 or more; a side resigns at -score or below\)"):
        MatchSettings(ENGINES, resign="movecount=3 score=-600")
