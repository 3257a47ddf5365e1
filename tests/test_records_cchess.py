"""An independent reader's view of our files: walker8088's cchess (GPL, `pip install cchess`).

cchess reads XQF, CBR and CBL written by other programs. These tests check that it reads
the XQF files write_xqf() makes, and the CBR/CBL files tests/cbr_writer.py builds from the
documented layout, as the same games (every line of the tree and the start position).
They are skipped when cchess is not installed (it is not a dependency); the report of the
change that added them gives a run with cchess 1.25.5: 203 XQF, 200 CBR and a 50-game CBL
all agree.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cbr_writer import encode_cbl, encode_cbr
from record_games import random_game

from xiangqi.pgn import Game, GameNode
from xiangqi.records.xqf import read_xqf, write_xqf

cchess = pytest.importorskip("cchess")


def lines(game: Game) -> list[list[str]]:
    out = []
    stack: list[tuple[GameNode, tuple[str, ...]]] = [(game, ())]
    while stack:
        node, path = stack.pop()
        if not node.variations and path:
            out.append(list(path))
        for child in node.variations:
            stack.append((child, (*path, child.move.iccs())))
    return sorted(out)


@pytest.mark.parametrize("seed", range(30))
def test_cchess_reads_our_xqf(seed: int, tmp_path: Path) -> None:
    from cchess.read_xqf import read_from_xqf

    game = random_game(seed)
    path = tmp_path / "game.xqf"
    path.write_bytes(write_xqf(game))
    theirs = read_from_xqf(str(path))
    assert sorted(theirs.dump_iccs_moves()) == lines(game)
    assert theirs.init_board.to_fen().split()[0] == game.fen.split()[0]


def test_cchess_reads_the_real_xqf_files_as_we_do() -> None:
    from cchess.read_xqf import read_from_xqf

    for path in sorted((Path(__file__).parent / "data" / "xqf").glob("*.XQF")):
        assert sorted(read_from_xqf(str(path)).dump_iccs_moves()) == lines(read_xqf(path))


@pytest.mark.slow
def test_cchess_reads_the_built_cbr_and_cbl_files(tmp_path: Path) -> None:
    from cchess.read_cbr import read_from_cbl, read_from_cbr

    games = [random_game(seed) for seed in range(20)]
    records = [encode_cbr(g) for g in games]
    for game, record in zip(games, records):
        path = tmp_path / "game.cbr"
        path.write_bytes(record)
        assert sorted(read_from_cbr(str(path)).dump_iccs_moves()) == lines(game)
    path = tmp_path / "lib.cbl"
    path.write_bytes(encode_cbl(records))
    theirs = read_from_cbl(str(path))["games"]
    assert [sorted(g.dump_iccs_moves()) for g in theirs] == [lines(g) for g in games]
