"""Write ccpd_openings.txt from the Big5 CCPD master games (see README.md here).

    python tests/data/ecco/make_ccpd.py ../shared/data/ccpd-big5

Each master-*.pgn is decoded as code page 950 (Big5) here, not by xiangqi.pgn, and read by
xiangqi.pgn; one line per game: file name, its [ECCO] tag, then its first 20 plies in ICCS.
"""

from __future__ import annotations

import sys
from pathlib import Path

from xiangqi import pgn

HERE = Path(__file__).parent


def rows(source: Path) -> list[str]:
    """One line per master game of source, in file-name order."""
    out = []
    for path in sorted(source.glob("master-*.pgn")):
        game = pgn.read_game(path.read_bytes().decode("cp950"), strict=True)
        assert game is not None, path
        moves = " ".join(str(m) for m in game.mainline_moves()[:20])
        out.append(f"{path.name}\t{game.tags['ECCO']}\t{moves}")
    return out


if __name__ == "__main__":
    lines = rows(Path(sys.argv[1]))
    (HERE / "ccpd_openings.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(len(lines), "games")
