"""Build the three PGN files of a collection folder from its games_uci.txt (see README.md).

DIR/games_uci.txt holds the games as transcribed or generated: id|event|Red|Black|ICCS moves.
  DIR/NAME_iccs.pgn     the moves as they are (ICCS), formatted here without the library
  DIR/NAME_wxf.pgn      WXF text written by Fairy-Stockfish (pyffish), an independent writer
  DIR/NAME_chinese.pgn  Chinese text written by xiangqi.pgn (checked in tests/test_pgn_data.py
                        against a transliteration of Fairy-Stockfish's WXF)
where NAME is the folder's name. Run from the repository root, once per folder:
    python tests/data/games/make_pgn.py tests/data/games/wukong
    python tests/data/games/make_pgn.py tests/data/games/wukong_more
    python tests/data/games/make_pgn.py tests/data/games/generated
"""

from __future__ import annotations

import sys
from pathlib import Path


def games(folder: Path) -> list[tuple[str, str, str, str, list[str]]]:
    rows = []
    for line in (folder / "games_uci.txt").read_text(encoding="utf-8").splitlines():
        number, event, red, black, moves = line.split("|")
        rows.append((number, event, red, black, moves.split()))
    return rows


def tags(number: str, event: str, red: str, black: str, fmt: str) -> str:
    return (
        f'[Game "Chinese Chess"]\n[Event "{event}"]\n[Round "{number}"]\n'
        f'[Red "{red}"]\n[Black "{black}"]\n[Result "*"]\n[Format "{fmt}"]\n\n'
    )


def movetext(words: list[str]) -> str:
    tokens = []
    for i, word in enumerate(words):
        if i % 2 == 0:
            tokens.append(f"{i // 2 + 1}.")
        tokens.append(word)
    tokens.append("*")
    lines, line = [], ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > 79:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    lines.append(line)
    return "\n".join(lines) + "\n\n"


def main(folder: Path) -> None:
    import pyffish

    from xiangqi import Move
    from xiangqi.pgn import Game

    iccs, wxf, chinese = [], [], []
    start = pyffish.start_fen("xiangqi")
    for number, event, red, black, moves in games(folder):
        iccs.append(tags(number, event, red, black, "ICCS") + movetext(moves))
        ranks1 = [f"{m[0]}{int(m[1]) + 1}{m[2]}{int(m[3]) + 1}" for m in moves]
        notation = pyffish.NOTATION_XIANGQI_WXF
        words = pyffish.get_san_moves("xiangqi", start, ranks1, False, notation)
        wxf.append(tags(number, event, red, black, "WXF") + movetext(words))
        game = Game(tags={"Event": event, "Round": number, "Red": red, "Black": black})
        for m in moves:
            game.add_move(Move.from_iccs(m))
        chinese.append(game.to_pgn("Chinese", 79) + "\n")
    for name, texts in (("iccs", iccs), ("wxf", wxf), ("chinese", chinese)):
        (folder / f"{folder.name}_{name}.pgn").write_text("".join(texts), encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
