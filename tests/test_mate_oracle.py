"""Position.find_mate against a real Fairy-Stockfish process (`go mate N`, one thread).

Fairy-Stockfish finds a mate of at most N moves and reports its score; it agrees with
this search's shortest length when its score is exactly the length found. The small
positions run in the default suite; the 119 xiangqibench cases (about 40 s of engine
time) are the `oracle` volume (pytest -m oracle). Skips without the engine, except in
CI (tests/test_engine_fairy.py finds it the same way).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from xiangqi.puzzles import position_of


def find_fairy() -> str | None:
    """$XIANGQI_TEST_ENGINE if set, else fairy-stockfish on PATH or in /usr/games (as
    tests/test_engine_fairy.py)."""
    override = os.environ.get("XIANGQI_TEST_ENGINE")
    if override is not None:
        return override if os.access(override, os.X_OK) else None
    games = "/usr/games/fairy-stockfish"
    return shutil.which("fairy-stockfish") or (games if os.access(games, os.X_OK) else None)


FAIRY = find_fairy()
if FAIRY is None and os.environ.get("CI") == "true":
    pytest.fail("CI=true but fairy-stockfish is not installed (.ci/run installs it)", pytrace=False)
SKIP_REASON = "Fairy-Stockfish not installed (apt-get install fairy-stockfish)"
pytestmark = pytest.mark.skipif(FAIRY is None, reason=SKIP_REASON)

CASES_FILE = Path(__file__).parent / "data" / "xiangqibench" / "cases.jsonl"
CASES = [json.loads(line) for line in CASES_FILE.read_text().splitlines() if line.strip()]


class Fairy:
    def __init__(self, command: str) -> None:
        self.proc = subprocess.Popen(
            [command], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.until("uciok")
        self.send("setoption name UCI_Variant value xiangqi")
        self.send("setoption name Threads value 1")

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix: str) -> list[str]:
        assert self.proc.stdout is not None
        lines = []
        while True:
            line = self.proc.stdout.readline()
            assert line, "Fairy-Stockfish exited"
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    def score(self, fen: str, command: str) -> tuple[str, int]:
        """The last reported score of `command` (e.g. "go mate 3"): ("mate"|"cp", value)."""
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send("isready")
        self.until("readyok")
        self.send(command)
        lines = self.until("bestmove")
        scores = [ln.split(" score ")[1].split()[:2] for ln in lines if " score " in ln]
        kind, value = scores[-1]
        return kind, int(value)

    def close(self) -> None:
        self.send("quit")
        self.proc.wait(timeout=10)
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                pipe.close()


@pytest.fixture(scope="module")
def fairy() -> Iterator[Fairy]:
    assert FAIRY is not None
    engine = Fairy(FAIRY)
    yield engine
    engine.close()


@pytest.mark.parametrize(
    ("fen", "moves"),
    [
        ("4k4/7R1/R8/9/9/9/9/9/9/3K5 w - - 0 1", 1),  # rook mate in one
        ("3k5/9/2P6/9/9/9/9/9/9/4K4 w - - 0 1", 1),  # no move for Black: a loss
        ("3k5/8P/9/7R1/9/4H4/9/9/6p2/4KA3 w - - 0 1", 2),
        ("3k1p3/4P4/9/9/6CCR/3n4c/2Pn5/8B/5p3/4K4 w - - 0 1", 2),  # composition pawn on f9
    ],
)
def test_small_mates_agree(fairy: Fairy, fen: str, moves: int) -> None:
    line = position_of(fen).find_mate(2 * moves + 1)
    assert line is not None and len(line) == 2 * moves - 1
    assert fairy.score(fen, f"go mate {moves}") == ("mate", moves)


def test_no_mate_agrees(fairy: Fairy) -> None:
    fen = "3aka3/9/9/9/9/4P4/9/9/9/3K5 w - - 0 1"
    assert position_of(fen).find_mate(11) is None
    kind, _ = fairy.score(fen, "go depth 16")
    assert kind == "cp"


@pytest.mark.oracle
@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_suite_agrees_with_go_mate(fairy: Fairy, case: dict) -> None:
    plies = case["win_in_plies"]
    line = position_of(case["fen"]).find_mate(plies)
    assert line is not None and len(line) == plies
    assert fairy.score(case["fen"], f"go mate {(plies + 1) // 2}") == ("mate", (plies + 1) // 2)
