"""A match whose event or engine name holds control characters is resumed like any other.

PGN tag values carry printing characters only (PGN Standard, sections 4.1 and 8.1): the
writer writes a tab as a space and drops the other C0/C1 control characters, while the
settings and the results file keep the text as given. A resumed match compares its PGN's
Event, Red and Black tags with the settings in the written form. The expected tags below are
written out by hand from that rule, not computed by the library. Matches are Fairy-Stockfish
at depth 1, a few plies a game.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_engine_fairy import FAIRY, SKIP_REASON

from xiangqi.__main__ import main
from xiangqi.match import EngineSpec, resume_match, run_match
from xiangqi.pgn import read_games

pytestmark = pytest.mark.skipif(FAIRY is None, reason=SKIP_REASON)


def cut_to_round_one(results: Path) -> None:
    data = json.loads(results.read_text(encoding="utf-8"))
    data["games"] = data["games"][:2]
    results.write_text(json.dumps(data, indent=1), encoding="utf-8")


def tags(pgn: Path, name: str) -> list[str]:
    return [g.tags[name] for g in read_games(pgn.read_text(encoding="utf-8"))]


@pytest.mark.parametrize(
    ("event", "written_event", "name", "written_name"),
    [
        ("Cup\t2026", "Cup 2026", "weak\tone", "weak one"),  # tab: a space
        # NUL and other C0, then C1 and DEL: dropped (the slow run: each a real match)
        pytest.param("Cup\x002026", "Cup2026", "we\x01ak", "weak", marks=pytest.mark.slow),
        pytest.param("Cup\x852026\x7f", "Cup2026", "we\x9fak", "weak", marks=pytest.mark.slow),
        ("Cup\n2026", "Cup\n2026", "we\x1bak", "weak"),  # a newline is escaped, read back
    ],
)
def test_a_match_with_control_characters_in_its_names_resumes(
    tmp_path: Path, event: str, written_event: str, name: str, written_name: str
) -> None:
    pgn, results = tmp_path / "g.pgn", tmp_path / "r.json"
    run_match(
        [EngineSpec((str(FAIRY),), name=name), str(FAIRY)],
        4,
        "depth=1",
        max_plies=4,
        event=event,
        pgn_file=pgn,
        results_file=results,
    )
    assert set(tags(pgn, "Event")) == {written_event}
    assert tags(pgn, "Red")[0] == written_name  # the first engine has Red in game 1
    cut_to_round_one(results)
    result = resume_match(results)
    assert len(result.records) == 4
    assert tags(pgn, "Round") == ["1", "1", "2", "2"]
    assert set(tags(pgn, "Event")) == {written_event}
    # each round's first game gives the first engine Red
    sides = ["Red", "Black", "Red", "Black"]
    assert [tags(pgn, side)[k] for k, side in enumerate(sides)] == [written_name] * 4
    data = json.loads(results.read_text(encoding="utf-8"))
    assert data["settings"]["event"] == event  # the results keep the text as given
    assert [r["game"] for r in data["games"]] == [1, 2, 3, 4]


def test_the_command_line_resumes_a_match_whose_event_holds_a_tab(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pgn, results = tmp_path / "g.pgn", tmp_path / "r.json"
    engine = f"cmd={FAIRY}"
    common = ["--pgn", str(pgn), "--results", str(results)]
    code = main(
        ["match", "--engine", engine, "--engine", engine, "--tc", "depth=1", "--games", "4"]
        + ["--max-plies", "4", "--event", "Cup\t\x01A", *common]
    )
    assert code == 0, capsys.readouterr().err
    cut_to_round_one(results)
    code = main(["match", "--resume", str(results)])
    err = capsys.readouterr().err
    assert code == 0 and "Traceback" not in err, err
    assert tags(pgn, "Event") == ["Cup A"] * 4
