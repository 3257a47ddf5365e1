"""Resuming a match from a results file whose game records are malformed.

Each record a resumed match counts is checked field by field against the match's plan: a
whole number (not a bool, a float, NaN or Infinity), in the plan's range, of the type the
runner writes. A malformed one is refused with one error line naming the file, the line and
the field (exit status 2 on the command line), before any engine starts; the file is kept.
The template results file comes from a real match of Fairy-Stockfish at depth 1; expected
line numbers are found in the written text, not computed by the code under test.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_engine_fairy import FAIRY, SKIP_REASON

import xiangqi.match
from xiangqi.__main__ import main
from xiangqi.errors import XiangqiError

pytestmark = pytest.mark.skipif(FAIRY is None, reason=SKIP_REASON)

GAMES = 4  # the template match: 2 rounds


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The results of a real, complete 4-game match (depth 1, at most 4 plies a game)."""
    path = tmp_path_factory.mktemp("template") / "results.json"
    with open(path, "w", encoding="utf-8") as handle:
        xiangqi.match.run_match(
            [str(FAIRY), str(FAIRY)], GAMES, "depth=1", max_plies=4, results_out=handle
        )
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    assert [r["game"] for r in data["games"]] == [1, 2, 3, 4]
    return data


def write(tmp_path: Path, data: dict[str, Any]) -> tuple[Path, list[str]]:
    path = tmp_path / "results.json"
    text = json.dumps(data, indent=1)  # as the match writes it; NaN/Infinity as JSON5 does
    path.write_text(text + "\n", encoding="utf-8")
    return path, text.splitlines()


def record_start(lines: list[str], n: int) -> int:
    """The 1-based line where the n-th (0-based) game record's object opens."""
    first = lines.index(' "games": [')
    opening = [i for i, line in enumerate(lines) if i > first and line == "  {"]
    return opening[n] + 1


def resume(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    try:
        code = main(["match", "--resume", str(path)])
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, capsys.readouterr().err


def edit(field: str, value: Any, n: int = 2) -> Callable[[list[dict[str, Any]]], None]:
    def change(records: list[dict[str, Any]]) -> None:
        records[n][field] = value

    return change


def drop(field: str, n: int = 2) -> Callable[[list[dict[str, Any]]], None]:
    def change(records: list[dict[str, Any]]) -> None:
        del records[n][field]

    return change


def refused(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    template: dict[str, Any],
    change: Callable[[list[dict[str, Any]]], None],
    field: str,
    marker: str | None,
    n: int = 2,
) -> str:
    """Write template changed by change, resume it and check the refusal: exit 2, one
    error line naming the file, the line (the one holding marker, or the record's first
    when marker is None) and the field; the file kept. Returns the error line."""
    data = json.loads(json.dumps(template))
    change(data["games"])
    path, lines = write(tmp_path, data)
    before = path.read_bytes()
    line = (
        record_start(lines, n)
        if marker is None
        else 1 + [i for i, text in enumerate(lines) if marker in text][-1]
    )
    code, err = resume(path, capsys)
    assert code == 2, err
    assert "Traceback" not in err and err.count("\n") == 1, err
    assert err.startswith("xiangqi: error: "), err
    assert repr(str(path)) in err and f"line {line}:" in err and f"field {field!r}" in err, err
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.json"]
    return err


def test_a_record_without_its_game_number_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], template: dict[str, Any]
) -> None:
    err = refused(tmp_path, capsys, template, drop("game"), "game", None)
    assert "missing" in err


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan")])
@pytest.mark.parametrize("field", ["round", "game"])
def test_nan_and_infinity_are_no_numbers(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    template: dict[str, Any],
    field: str,
    value: float,
) -> None:
    marker = f'"{field}": {json.dumps(value)}'
    refused(tmp_path, capsys, template, edit(field, value), field, marker)


@pytest.mark.parametrize("field", ["round", "game"])
def test_a_fraction_is_no_round_or_game_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], template: dict[str, Any], field: str
) -> None:
    # today 1.7 was read as round 1 (int() truncates); 3.0 is no game number either
    value = 1.7 if field == "round" else 3.0
    refused(tmp_path, capsys, template, edit(field, value), field, f'"{field}": {value}')


@pytest.mark.parametrize("field", ["round", "game"])
def test_a_bool_is_no_round_or_game_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], template: dict[str, Any], field: str
) -> None:
    # JSON true is Python's True, which int() reads as 1
    def change(records: list[dict[str, Any]]) -> None:
        records[0][field] = True

    refused(tmp_path, capsys, template, change, field, f'"{field}": true', n=0)


@pytest.mark.parametrize("game", [0, -1, GAMES + 1, 14])
def test_a_game_the_match_never_planned_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], template: dict[str, Any], game: int
) -> None:
    # a 4-game match: game 14 (round 7) was counted before ("games 14/4")
    def change(records: list[dict[str, Any]]) -> None:
        records[2]["game"], records[2]["round"] = game, (game + 1) // 2

    refused(tmp_path, capsys, template, change, "game", f'"game": {game},')


def test_a_round_that_is_not_its_games_round_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], template: dict[str, Any]
) -> None:
    # game 3 is in round 2 (rounds are pairs: games 2r-1 and 2r)
    refused(tmp_path, capsys, template, edit("round", 1), "round", '"round": 1,')


def test_a_game_recorded_twice_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], template: dict[str, Any]
) -> None:
    def change(records: list[dict[str, Any]]) -> None:
        records[3] = dict(records[2])

    err = refused(tmp_path, capsys, template, change, "game", '"game": 3,', n=3)
    assert "twice" in err


@pytest.mark.parametrize("value", ["2-0", "*", None, 1])
def test_a_result_no_game_can_have_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], template: dict[str, Any], value: Any
) -> None:
    marker = f'"result": {json.dumps(value)}'
    refused(tmp_path, capsys, template, edit("result", value), "result", marker)


@pytest.mark.parametrize(
    ("field", "value"),
    [("red", 5), ("black", ["x"]), ("termination", None), ("reason", {}), ("plies", -1)]
    + [("plies", 2.5), ("plies", "4"), ("plies", False)],
)
def test_a_field_of_another_type_is_refused(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    template: dict[str, Any],
    field: str,
    value: Any,
) -> None:
    shown = json.dumps(value)
    marker = f'"{field}": {shown[:1] if isinstance(value, (list, dict)) else shown}'
    refused(tmp_path, capsys, template, edit(field, value), field, marker)


@pytest.mark.parametrize("value", [0, 7, -1, "0"])
def test_an_opening_the_match_does_not_play_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], template: dict[str, Any], value: Any
) -> None:
    # the template match has no openings: every round starts from the start (null)
    marker = f'"opening": {json.dumps(value)}'
    refused(tmp_path, capsys, template, edit("opening", value), "opening", marker)


def test_a_record_that_is_no_object_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], template: dict[str, Any]
) -> None:
    data = json.loads(json.dumps(template))
    data["games"][1] = [1, 1, "1-0"]
    path, _ = write(tmp_path, data)
    code, err = resume(path, capsys)
    assert code == 2 and "Traceback" not in err and err.count("\n") == 1, err
    assert repr(str(path)) in err and "game record 2" in err, err


def test_the_library_refuses_finished_records_of_another_plan() -> None:
    # plan.run counts what finished holds only after the same checks (nothing starts)
    plan = xiangqi.match.prepare_match(["/nonexistent/a", "/nonexistent/b"], 4)
    for bad in (
        [{"game": 5, "round": 3, "result": "1-0"}, {"game": 6, "round": 3, "result": "0-1"}],
        [{"game": 1, "round": 1.0, "result": "1-0"}, {"game": 2, "round": 1, "result": "0-1"}],
        [{"round": 1, "result": "1-0"}],
    ):
        with pytest.raises(XiangqiError, match="field '(game|round)'"):
            plan.run(finished=bad)
        with pytest.raises(XiangqiError, match="field '(game|round)'"):
            plan.run(finished=xiangqi.match.plan.complete_rounds(bad))
