"""Generate the self-play games of this folder with Fairy-Stockfish (see ../README.md).

These are NOT master games: they top up the corpus so each notation holds over 300 games.
Each game opens with 4 to 9 random legal plies (random.Random(game number)), then
Fairy-Stockfish plays both sides at a small node limit (varied per game) until the
project's rulings end the game or 200 plies pass. Writes games_uci.txt in the same
id|event|Red|Black|ICCS moves layout as ../wukong/games_uci.txt; make_pgn.py then writes
the three PGN files. Run from the repository root (takes a minute or two of one core):
    python tests/data/games/generated/make_games.py [COUNT]
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

HERE = Path(__file__).parent
ENGINE = "/usr/games/fairy-stockfish"


def main(count: int = 200) -> None:
    from xiangqi import Position, generate_legal
    from xiangqi.engine import Limit, SimpleEngine
    from xiangqi.match import play_game

    engine = SimpleEngine.popen_uci([ENGINE])
    engine.configure({"Threads": 1, "Hash": 16})
    rows = []
    try:
        for number in range(1, count + 1):
            rng = random.Random(number)
            pos = Position()
            for _ in range(rng.randint(4, 9)):
                pos.push(rng.choice(sorted(generate_legal(pos))))
            nodes = rng.choice([300, 1000, 3000, 10000])
            game, _ = play_game(engine, engine, Limit(nodes=nodes), start=pos, max_plies=200)
            who = f"Fairy-Stockfish nodes={nodes}"
            event = f"Generated self-play {number} (random opening)"
            moves = " ".join(str(m) for m in game.mainline_moves())
            rows.append(f"{number}|{event}|{who}|{who}|{moves}\n")
    finally:
        engine.close()
    (HERE / "games_uci.txt").write_text("".join(rows), encoding="utf-8")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
