"""Write ccpd_openings.txt from the Big5 CCPD master games (see README.md here).

    python tests/data/ecco/make_ccpd.py ../shared/data/ccpd-big5

Each master-*.pgn, then each position-*.pgn that starts from the usual position and carries an
[ECCO] tag, is decoded as code page 950 (Big5) here, not by xiangqi.pgn, and read by
xiangqi.pgn; one line per game: file name, its [ECCO] tag, then its first 20 plies in ICCS.
"""

from __future__ import annotations

import sys
from pathlib import Path

from xiangqi import START_FEN, Position, pgn

HERE = Path(__file__).parent


def rows(source: Path) -> list[str]:
    """One line per game of source that has an ECCO code, masters first, by file name."""
    out = []
    paths = sorted(source.glob("master-*.pgn")) + sorted(source.glob("position-*.pgn"))
    for path in paths:
        game = pgn.read_game(path.read_bytes().decode("cp950"), strict=True)
        assert game is not None, path
        if path.name.startswith("position-"):
            if Position(game.fen).fen() != START_FEN or not game.tags.get("ECCO"):
                continue
        moves = " ".join(str(m) for m in game.mainline_moves()[:20])
        out.append(f"{path.name}\t{game.tags['ECCO']}\t{moves}")
    return out


if __name__ == "__main__":
    lines = rows(Path(sys.argv[1]))
    (HERE / "ccpd_openings.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(len(lines), "games")
