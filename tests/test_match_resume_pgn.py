"""A resumed match's PGN and results files: which PGN it writes, which games it copies, and
what it leaves alone.

The PGN a results file names is taken relative to the results file's folder; it is rewritten
only when it is a PGN of this match (Event and Round tags, Red and Black as the records say);
the kept rounds' games are copied from it, each once, in game order among the new ones; a
resume that fails before a new game is played leaves both files as they were; a resumed
finished match keeps its engines' names and settings. Matches are Fairy-Stockfish at depth
1, a few plies a game; expected games are counted in the files the first run wrote.
"""

from __future__ import annotations

import errno
import io
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_engine_fairy import FAIRY, SKIP_REASON

import xiangqi.match
from xiangqi.__main__ import main
from xiangqi._files import ReplacingFile
from xiangqi.match import resume_match, run_match
from xiangqi.pgn import read_games

pytestmark = pytest.mark.skipif(FAIRY is None, reason=SKIP_REASON)


def played(folder: Path, games: int = 4) -> Path:
    folder.mkdir()
    run_match(
        [str(FAIRY), str(FAIRY)],
        games,
        "depth=1",
        max_plies=4,
        pgn_file=folder / "g.pgn",
        results_file=folder / "r.json",
    )
    return folder


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A complete 4-game match's folder: g.pgn and r.json."""
    return played(tmp_path_factory.mktemp("base") / "run")


@pytest.fixture
def run(base: Path, tmp_path: Path) -> Iterator[Path]:
    yield Path(shutil.copytree(base, tmp_path / "run1", symlinks=True))


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def change(path: Path, **fields: Any) -> None:
    data = load(path)
    data.update(fields)
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")


def cut_to_round_one(results: Path) -> None:
    change(results, games=load(results)["games"][:2])


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    try:
        code = main(["match", *argv])
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, capsys.readouterr().err


def rounds(pgn: Path) -> list[str]:
    return [g.tags["Round"] for g in read_games(pgn.read_text(encoding="utf-8"))]


def test_a_results_file_naming_another_file_leaves_it_untouched(
    run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = run / "notes.txt"
    notes.write_text("precious notes\n", encoding="utf-8")
    cut_to_round_one(run / "r.json")
    change(run / "r.json", pgn=str(notes))
    before = (run / "r.json").read_bytes()
    code, err = cli(capsys, "--resume", str(run / "r.json"))
    assert code == 2 and "Traceback" not in err, err
    assert "notes.txt" in err and "r.json" in err and "not a game of this match" in err, err
    assert notes.read_text(encoding="utf-8") == "precious notes\n"
    assert (run / "r.json").read_bytes() == before


def test_a_copied_folder_resumes_into_its_own_pgn(run: Path, tmp_path: Path) -> None:
    cut_to_round_one(run / "r.json")
    copy = Path(shutil.copytree(run, tmp_path / "run2", symlinks=True))
    original = (run / "g.pgn").read_bytes(), (run / "g.pgn").stat().st_ino
    resume_match(copy / "r.json")
    assert ((run / "g.pgn").read_bytes(), (run / "g.pgn").stat().st_ino) == original
    assert rounds(copy / "g.pgn") == ["1", "1", "2", "2"]
    assert load(copy / "r.json")["pgn"] == "g.pgn"


def test_a_new_pgn_gets_the_kept_rounds_games(run: Path) -> None:
    kept = [g.to_pgn() for g in read_games((run / "g.pgn").read_text(encoding="utf-8"))][:2]
    cut_to_round_one(run / "r.json")
    resume_match(run / "r.json", pgn_file=run / "new.pgn")
    games = list(read_games((run / "new.pgn").read_text(encoding="utf-8")))
    assert [g.tags["Round"] for g in games] == ["1", "1", "2", "2"]
    assert [g.to_pgn() for g in games[:2]] == kept


@pytest.mark.parametrize(
    "damage", ["missing", "garbage", "round twice", "round lacking", "not UTF-8"]
)
def test_an_old_pgn_that_cannot_give_the_kept_games_is_refused(
    run: Path, capsys: pytest.CaptureFixture[str], damage: str
) -> None:
    pgn = run / "g.pgn"
    cut_to_round_one(run / "r.json")
    text = pgn.read_text(encoding="utf-8")
    games = [g.to_pgn() + "\n" for g in read_games(text)]
    if damage == "missing":
        pgn.unlink()
    elif damage == "garbage":
        pgn.write_text("no game here, just words\n", encoding="utf-8")
    elif damage == "not UTF-8":
        pgn.write_bytes(text.encode("utf-8").replace(b"xiangqi match", b"xiangqi m\xe4tch"))
    elif damage == "round twice":
        pgn.write_text(text + "\n" + games[0], encoding="utf-8")
    else:
        pgn.write_text(games[0], encoding="utf-8")
    listing = sorted(p.name for p in run.iterdir())
    before = (run / "r.json").read_bytes()
    code, err = cli(capsys, "--resume", str(run / "r.json"), "--pgn", str(run / "new.pgn"))
    assert code == 2 and "Traceback" not in err and err.count("\n") == 1, err
    assert "g.pgn" in err and "r.json" in err, err
    assert (run / "r.json").read_bytes() == before
    assert sorted(p.name for p in run.iterdir()) == listing


@pytest.mark.parametrize(
    "engine",
    [
        {"command": ["/nonexistent/engine"]},
        {"options": {"No Such Option": "1"}},
        {"dir": "/nonexistent/dir"},
    ],
)
def test_a_resume_whose_engines_fail_to_start_touches_nothing(
    run: Path, capsys: pytest.CaptureFixture[str], engine: dict[str, Any]
) -> None:
    data = load(run / "r.json")
    data["games"] = data["games"][:2]
    data["settings"]["engines"][1].update(engine)
    (run / "r.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    files = {p.name: (p.read_bytes(), p.stat().st_ino) for p in run.iterdir()}
    code, err = cli(capsys, "--resume", str(run / "r.json"))
    assert code == 2, err
    assert {p.name: (p.read_bytes(), p.stat().st_ino) for p in run.iterdir()} == files


def test_a_match_stopped_by_an_engine_error_is_never_complete() -> None:
    out = io.StringIO()
    with pytest.raises(Exception, match="nonexistent"):
        run_match([str(FAIRY), "/nonexistent/engine"], 2, "depth=1", results_out=out)
    assert json.loads(out.getvalue())["totals"]["stopped"] == "error"


def test_resuming_a_finished_match_keeps_its_engines(run: Path) -> None:
    before = load(run / "r.json")
    result = resume_match(run / "r.json")
    after = load(run / "r.json")
    assert after["engines"] == before["engines"]
    assert after["settings"] == before["settings"]
    names = tuple(e["name"] for e in before["engines"])
    assert result.names == names and names[0].startswith("Fairy-Stockfish")


@pytest.mark.parametrize(
    "option",
    [
        ["--seed", "0"],
        ["--ray-retries", "0"],
        ["--max-plies", "2"],
        ["--max-plies", "0"],
        ["--rules", "chinese"],
        ["--rules", "asian"],
        ["--time-margin", "5"],
        ["--event", "X"],
        ["--draw", "movenumber=1 movecount=1 score=1"],
        ["--resign", "movecount=1 score=1"],
        ["--opening-order", "sequential"],
        ["--opening-plies", "0"],
        ["--opening-format", "pgn"],
        ["--each", "depth=2"],
    ],
)
def test_resume_refuses_the_settings_its_results_file_fixes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, option: list[str]
) -> None:
    code, err = cli(capsys, "--resume", str(tmp_path / "r.json"), *option)
    assert code == 2 and option[0] in err and "--resume takes" in err, err


def test_resume_applies_a_new_concurrency(run: Path) -> None:
    cut_to_round_one(run / "r.json")
    assert main(["match", "--resume", str(run / "r.json"), "--concurrency", "2"]) == 0
    data = load(run / "r.json")
    assert data["settings"]["concurrency"] == 2 and data["totals"]["games"] == 4


def test_games_are_written_in_game_order_after_a_gap(tmp_path: Path) -> None:
    run = played(tmp_path / "six", 6)
    change(run / "r.json", games=[g for g in load(run / "r.json")["games"] if g["round"] != 2])
    resume_match(run / "r.json")
    assert rounds(run / "g.pgn") == ["1", "1", "2", "2", "3", "3"]


def test_a_failing_commit_leaves_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "r.json").write_text('{"old": "results"}\n', encoding="utf-8")
    commit = ReplacingFile.commit

    def full_disk(self: ReplacingFile) -> None:
        if self.target.endswith(".pgn"):
            self.done = True
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), self.shown)
        commit(self)

    monkeypatch.setattr(ReplacingFile, "commit", full_disk)
    with pytest.raises(OSError, match="No space"):
        xiangqi.match.run_match(
            [str(FAIRY), str(FAIRY)],
            2,
            "depth=1",
            max_plies=4,
            pgn_file=tmp_path / "g.pgn",
            results_file=tmp_path / "r.json",
        )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]
    assert (tmp_path / "r.json").read_text(encoding="utf-8") == '{"old": "results"}\n'
