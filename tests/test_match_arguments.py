"""run_match's and prepare_match's arguments: checked before anything starts, NumPy ints
taken as plain ints, and a results file replaced only by a complete one.

Engines given as ``cmd=/nonexistent/engine`` show that nothing started: had the match got
that far, the error would be the engine's, not the argument's.
"""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path
from typing import Any

import pytest
from test_engine_fairy import FAIRY, SKIP_REASON

import xiangqi.match.adjudication
import xiangqi.match.runner
import xiangqi.rules
from xiangqi.match import SPRT, MatchPlan, prepare_match, run_match

pytestmark = pytest.mark.skipif(FAIRY is None, reason=SKIP_REASON)

np = pytest.importorskip("numpy")

OPENINGS = Path(__file__).resolve().parent.parent / "examples" / "openings.pgn"
NOWHERE = ["cmd=/nonexistent/engine", "cmd=/nonexistent/engine"]


def test_numpy_ints_are_stored_as_plain_ints(tmp_path: Path) -> None:
    results = tmp_path / "r.json"
    run_match(
        [str(FAIRY), str(FAIRY)],
        2,
        "depth=1",
        max_plies=4,
        openings=OPENINGS,
        opening_order="random",
        opening_plies=np.int64(2),
        seed=np.int64(3),
        time_margin=np.int64(1),
        results_file=results,
    )
    data = json.loads(results.read_text(encoding="utf-8"))
    assert data["settings"]["openings"]["seed"] == 3
    assert data["settings"]["openings"]["plies"] == 2
    assert data["settings"]["time_margin"] == 1.0
    sprt = SPRT(elo0=np.int64(0), elo1=np.int64(5))
    assert type(sprt.elo0) is float and type(sprt.elo1) is float
    assert json.loads(json.dumps(dataclasses.asdict(sprt)))["elo1"] == 5.0


def test_a_results_file_is_replaced_only_by_a_complete_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    results = tmp_path / "r.json"
    results.write_text('{"previous": "results"}\n', encoding="utf-8")
    settings = MatchPlan.settings

    def unwritable(self: MatchPlan) -> dict[str, Any]:
        return {**settings(self), "bad": object()}  # JSON cannot hold it

    monkeypatch.setattr(MatchPlan, "settings", unwritable)
    with pytest.raises(TypeError, match="not JSON serializable"):
        run_match(
            [str(FAIRY), str(FAIRY)],
            2,
            "depth=1",
            max_plies=4,
            pgn_file=tmp_path / "g.pgn",  # the games were played: the PGN is written
            results_file=results,
        )
    assert results.read_text(encoding="utf-8") == '{"previous": "results"}\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.pgn", "r.json"]


@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [
        ({"seed": 10**5000}, ValueError, "seed"),
        ({"seed": -1}, ValueError, "seed"),
        ({"seed": 2.0}, TypeError, "seed"),
        ({"seed": "3"}, TypeError, "seed"),
        ({"opening_plies": True, "openings": OPENINGS}, TypeError, "opening_plies"),
        ({"book_plies": "8", "book": OPENINGS}, TypeError, "book_plies"),
        ({"adjudication": 5}, TypeError, "adjudication"),
        ({"progress": 5}, TypeError, "progress"),
        ({"pgn_out": "games.pgn"}, TypeError, "pgn_out"),
        ({"results_out": 5}, TypeError, "results_out"),
        ({"keep_games": "no"}, TypeError, "keep_games"),
        ({"openings": 5}, TypeError, "openings"),
        ({"openings": b"/some/path.pgn"}, TypeError, "openings"),
        ({"each": 5}, TypeError, "each"),
        ({"pgn_file": 5}, TypeError, "pgn_file"),
    ],
)
def test_a_wrong_argument_is_refused_before_anything_starts(
    kwargs: dict[str, Any], error: type[Exception], name: str
) -> None:
    with pytest.raises(error, match=name) as caught:
        run_match(NOWHERE, 2, "depth=1", **kwargs)
    assert len(str(caught.value)) < 300


def test_engines_that_are_no_specs_are_refused() -> None:
    with pytest.raises(TypeError, match="engines"):
        prepare_match([None, None])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="engines"):
        prepare_match(5)  # type: ignore[arg-type]


def test_a_random_order_takes_a_numpy_seed() -> None:
    plan = prepare_match(NOWHERE, openings=OPENINGS, opening_order="random", seed=np.uint32(7))
    again = prepare_match(NOWHERE, openings=OPENINGS, opening_order="random", seed=7)
    assert [plan.openings.index(k) for k in range(6)] == [again.openings.index(k) for k in range(6)]


def test_the_rule_set_is_checked_once_a_game_not_once_a_ply(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = []
    check = xiangqi.rules.check_rules

    def counted(rules: object) -> Any:
        calls.append(rules)
        return check(rules)

    for module in (xiangqi.match.adjudication, xiangqi.match.runner):
        if hasattr(module, "check_rules"):
            monkeypatch.setattr(module, "check_rules", counted)
    out = io.StringIO()
    result = run_match([str(FAIRY), str(FAIRY)], 2, "depth=1", max_plies=10, pgn_out=out)
    plies = sum(len(g.mainline_moves()) for g in result.games)
    assert plies >= 10  # the rule set was used on every one of these plies
    assert len(calls) <= 1 + len(result.games)  # the settings, then once a game
