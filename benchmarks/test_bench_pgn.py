"""Game-record rates: reading the 100 master games in each notation, add_move, writing.

Bigger inputs (a 10,000-game file, a 100,000-ply game, a megabyte of junk) and memory are
measured by benchmarks/pgn_rates.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from xiangqi import Move
from xiangqi.pgn import Game, read_games

WUKONG = Path(__file__).resolve().parents[1] / "tests" / "data" / "games" / "wukong"
CYCLE = [Move.from_iccs(m) for m in ("b0c2", "b9c7", "c2b0", "c7b9")]


@pytest.mark.parametrize("notation", ["iccs", "wxf", "chinese"])
def test_read_master_games(benchmark: Any, record_rate: Any, notation: str) -> None:
    text = (WUKONG / f"wukong_{notation}.pgn").read_text(encoding="utf-8")
    games = benchmark(lambda: list(read_games(text)))
    assert len(games) == 100 and all(not g.errors for g in games)
    plies = sum(len(g.mainline_moves()) for g in games)
    record_rate(benchmark, "games", len(games), plies_per_call=plies)


def test_add_move_10000(benchmark: Any, record_rate: Any) -> None:
    def build() -> Game:
        game = Game()
        for i in range(10_000):
            game.add_move(CYCLE[i % 4])
        return game

    game = benchmark(build)
    assert len(game.mainline_moves()) == 10_000
    record_rate(benchmark, "plies", 10_000)


@pytest.mark.parametrize("fmt", ["ICCS", "WXF", "Chinese"])
def test_write_10000_plies(benchmark: Any, record_rate: Any, fmt: str) -> None:
    game = Game()
    for i in range(10_000):
        game.add_move(CYCLE[i % 4])
    text = benchmark(lambda: game.to_pgn(fmt))
    assert text.count("\n") > 100
    record_rate(benchmark, "plies", 10_000)
