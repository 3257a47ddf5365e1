"""benchmarks/mate_suite.py: --repeat keeps each program's least time with that run's
answer, and every bad option ends with one error line and exit code 2 before any search."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import load_script

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "mate_suite.py"
#: dev.jsonl's first puzzle: a mate in 3 plies (its first line).
MATE_IN_3 = "3akc3/5R3/9/4pN3/8C/9/1r7/9/4p4/3K5 w - - 0 1"


class ScriptedFairy:
    """Stands in for Fairy: go_mate answers from a script, one (score, seconds) per run."""

    def __init__(self, answers: list[tuple[int | None, float]]) -> None:
        self.answers = list(answers)

    def go_mate(self, fen: str, moves: int) -> tuple[int | None, float]:
        return self.answers.pop(0)


def test_repeat_keeps_the_score_of_the_run_whose_time_it_keeps(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Three runs: a mate in 2 moves found in 1.5 s, then in 0.25 s, then a run stopped at
    # --fairy-seconds (no mate, 9 s). The row must pair the least time with its own
    # answer (mate 2), and the total count it as equal; the last run's answer is not it.
    suite = load_script(SCRIPT, "mate_suite_under_test")
    args = argparse.Namespace(
        repeat=3, checks_only=False, node_limit=None, hash_mb=1, method="auto"
    )
    fairy = ScriptedFairy([(2, 1.5), (2, 0.25), (None, 9.0)])
    suite.run("one case", [("only-case", MATE_IN_3, 3)], args, fairy)
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("only-case "))
    assert row.split()[-2:] == ["2", "0.250"]
    assert "Fairy-Stockfish go mate: 1 scores equal, 0.25 s" in out
    assert fairy.answers == []


@pytest.mark.parametrize(
    ("options", "named"),
    [
        (["--repeat", "0"], "--repeat"),
        (["--node-limit", "0"], "--node-limit"),
        (["--hash-mb", "0"], "--hash-mb"),
        (["--hash-mb", "65537"], "--hash-mb"),
        (["--fairy-seconds", "-1"], "--fairy-seconds"),
        (["--fairy-seconds", "nan"], "--fairy-seconds"),
        (["--deep", "/nonexistent/deep.jsonl"], "--deep"),
        (["--deep", "{bad_json}"], "line 2"),
        (["--deep", "{bad_plies}"], "line 1"),
        (["--deep", "{bad_fen}"], "line 1"),
        (["--fairy", "/nonexistent/fairy-stockfish"], "--fairy"),
    ],
)
def test_a_bad_option_is_one_error_line_before_any_search(
    tmp_path: Path, options: list[str], named: str
) -> None:
    files = {
        "{bad_json}": f'{{"fen": "{MATE_IN_3}", "plies": 3}}\n{{"fen": \n',
        "{bad_plies}": f'{{"fen": "{MATE_IN_3}", "plies": 100}}\n',
        "{bad_fen}": '{"fen": "9/9 w", "plies": 3}\n',
    }
    for index, option in enumerate(options):
        if option in files:
            path = tmp_path / "deep.jsonl"
            path.write_text(files[option])
            options[index] = str(path)
    result = subprocess.run(
        [sys.executable, str(SCRIPT), *options],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert named in result.stderr.splitlines()[-1]
    assert result.stdout == ""  # no table began


def test_a_download_that_fails_is_one_error_line(tmp_path: Path) -> None:
    # pip with no index to ask (as without a network): it fails, and the script says so
    # in one line instead of a traceback.
    env = {**os.environ, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--download"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert "--download" in result.stderr.splitlines()[-1]
    assert result.stdout == ""
