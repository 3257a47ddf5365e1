"""MatchSettings: the one list of a match's settings, their defaults and checks, shared by
prepare_match/run_match's keywords, settings=, and the command line."""

from __future__ import annotations

import argparse
import dataclasses
import os
import subprocess
import sys
from typing import Any

import pytest

from xiangqi import Rules
from xiangqi.__main__ import _match_settings
from xiangqi.errors import XiangqiError
from xiangqi.match import SPRT, MatchSettings, prepare_match, run_match

FSF = "/usr/games/fairy-stockfish"
ENGINES = [f"name=a cmd={FSF} tc=depth=2", f"name=b cmd={FSF} tc=depth=1"]


def test_the_documented_defaults() -> None:
    # docs/engines-and-matches.md and run_match's docstring: one round, 3 retries on Ray,
    # a draw at 300 plies, 0.1 s over the clock, the Asian rules, one game at a time
    settings = MatchSettings(ENGINES)
    assert settings.total == 2
    assert settings.ray_retries == 3
    assert settings.max_plies == 300
    assert settings.time_margin == 0.1
    assert settings.rules is Rules.ASIAN
    assert settings.concurrency == 1
    assert settings.event == "xiangqi match"
    assert settings.opening_order == "sequential"


def test_keywords_and_settings_make_the_same_plan() -> None:
    keywords: dict[str, Any] = {
        "rounds": 2,
        "each": "option.Hash=16",
        "max_plies": 40,
        "draw": "movenumber=20 movecount=4 score=5",
        "rules": "chinese",
        "time_margin": 0.5,
        "sprt": "elo0=0 elo1=10 alpha=0.05 beta=0.05",
        "event": "E",
    }
    by_keywords = prepare_match(ENGINES, **keywords)
    by_settings = prepare_match(settings=MatchSettings(ENGINES, **keywords))
    assert by_keywords.settings() == by_settings.settings()
    assert by_settings.total == 4
    assert by_settings.adjudication.max_plies == 40
    assert str(by_settings.adjudication.rules) == "chinese"


def test_keywords_given_besides_settings_replace_its_fields() -> None:
    settings = MatchSettings(ENGINES, games=6, event="first")
    plan = prepare_match(settings=settings, event="second", games=2)
    assert (plan.total, plan.event) == (2, "second")
    assert settings.event == "first"  # frozen: unchanged


def test_values_come_back_as_plain_types() -> None:
    settings = MatchSettings(ENGINES, sprt="elo0=0 elo1=5 alpha=0.05 beta=0.05", rules="chinese")
    assert isinstance(settings.sprt, SPRT)
    assert settings.rules is Rules.CHINESE
    assert isinstance(settings.engines, tuple)


@pytest.mark.parametrize(
    ("changes", "error", "named"),
    [
        ({"ray_retries": -1}, ValueError, "ray_retries"),
        ({"ray_retries": True}, TypeError, "ray_retries"),
        ({"time_margin": "x"}, TypeError, "time_margin"),
        ({"seed": 2**64}, ValueError, "seed"),
        ({"games": 0}, ValueError, "games"),
        ({"concurrency": 0}, ValueError, "concurrency"),
        ({"book_plies": 4}, XiangqiError, "book_plies"),
        ({"games": 2, "rounds": 1}, XiangqiError, "rounds"),
        ({"event": 3}, TypeError, "event"),
        ({"engines": ENGINES[:1]}, XiangqiError, "two engines"),
        ({"engines": ENGINES[0]}, XiangqiError, "two engines, got 1"),
        ({"engines": 2}, TypeError, "engines"),
        # checked here, not only where the openings are ordered (a book ignores the order)
        ({"opening_order": "shuffled"}, XiangqiError, "opening order"),
        ({"opening_order": "shuffled", "book": "/nonexistent.obk"}, XiangqiError, "opening order"),
    ],
)
def test_a_bad_setting_is_refused_when_the_settings_are_made(
    changes: dict[str, Any], error: type[Exception], named: str
) -> None:
    good = MatchSettings(ENGINES)
    with pytest.raises(error, match=named):
        dataclasses.replace(good, **changes)
    with pytest.raises(error, match=named):
        prepare_match(settings=good, **changes)


def test_an_unknown_setting_is_a_type_error_naming_it() -> None:
    with pytest.raises(TypeError, match="'rondus' is no match setting"):
        prepare_match(ENGINES, rondus=2)
    with pytest.raises(TypeError, match="'rondus' is no match setting"):
        run_match(ENGINES, rondus=2)


def test_settings_must_be_match_settings() -> None:
    with pytest.raises(TypeError, match="settings must be a MatchSettings"):
        prepare_match(settings={"engines": ENGINES})  # type: ignore[arg-type]


def test_settings_are_frozen() -> None:
    settings = MatchSettings(ENGINES)
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.games = 4  # type: ignore[misc]


def test_the_command_line_builds_the_settings_from_the_options_given() -> None:
    args = argparse.Namespace(
        engines=ENGINES,
        each=["option.Hash=16", "option.Threads=1"],
        max_plies=0,  # --max-plies 0: no cap
        ray_retries=None,  # not given: the default
        pgn="out.pgn",  # an output, not a setting
    )
    assert _match_settings(args) == MatchSettings(
        ENGINES, each="option.Hash=16 option.Threads=1", max_plies=None
    )


def test_the_command_lines_help_names_the_defaults() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "xiangqi", "match", "--help"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "COLUMNS": "200"},  # the rest kept: a sanitizer's preload too
    )
    text = " ".join(done.stdout.split())
    for shown in (
        "again (3)",
        "plies (300; 0: none)",
        "clock (0.1)",
        "(asian;",
        '("xiangqi match")',
    ):
        assert shown in text, shown
