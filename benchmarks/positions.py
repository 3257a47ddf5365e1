"""Fixed positions for the benchmarks and for benchmarks/compare_peers.py.

Everything here is written out literally so every run measures the same work:
the perft cases carry their published leaf counts (counts[d - 1] is perft(d)),
the opening lines carry the FEN they reach, and RANDOM_MIDGAME_FENS is a list
that was generated once by random_midgame_fens() below and pasted in. Run
``python benchmarks/positions.py`` to regenerate that list and check it still
matches (it needs the compiled xiangqi package importable).

FEN side field: "w" is Red to move, "b" is Black. Squares are ICCS names
(files a..i from Red's left, ranks 0..9 from Red's side).
"""

from __future__ import annotations

from dataclasses import dataclass

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

#: perft(1..5) of the start position (Chess Programming Wiki, "Chinese Chess Perft Results").
START_PERFT = (44, 1920, 79666, 3290240, 133312995)


@dataclass(frozen=True)
class PerftCase:
    """A named FEN with its published perft counts; counts[d - 1] is perft(d)."""

    name: str
    fen: str
    counts: tuple[int, ...]
    bench_depth: int
    source: str

    @property
    def bench_nodes(self) -> int:
        """The leaf count the benchmark expects at bench_depth."""
        return self.counts[self.bench_depth - 1]


#: Fixed opening lines (ICCS moves from the start position, space-separated) and the FEN
#: each reaches.
#: Their perft counts below were computed by our core and agree with Fairy-Stockfish
#: (pyffish 0.0.90, variant "xiangqi") to depth 3.
OPENING_LINES: dict[str, tuple[str, str]] = {
    # 中炮过河车对屏风马 (central cannon, rook across the river, against two screen horses)
    "central_cannon_vs_screen_horses": (
        "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 h0h6 c6c5 h6g6 h7i7 b0c2 b7a7 a0b0 a9b9",
        "1rbakabr1/9/c1n3n1c/p3p1R1p/2p6/9/P1P1P1P1P/1CN1C1N2/9/1RBAKAB2 w - - 5 8",
    ),
    # 飞相局 (elephant opening) against a central cannon
    "elephant_opening": (
        "c0e2 h7e7 h0g2 h9g7 i0h0 i9h9 g3g4 b9c7 b0c2 b7b3 h2i2 a9b9",
        "1rbakabr1/9/2n1c1n2/p1p1p1p1p/9/6P2/PcP1P3P/1CN1B1N1C/9/R2AKABR1 w - - 12 7",
    ),
}

_CPW = "Chess Programming Wiki, Chinese Chess Perft Results"

#: Three middlegames: two Chess Programming Wiki perft positions and one opening line.
MIDGAME_PERFT: tuple[PerftCase, ...] = (
    PerftCase(
        "cpw_pos2",
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        (38, 1128, 43929, 1339047, 53112976),
        5,
        _CPW,
    ),
    PerftCase(
        "cpw_pos3",
        "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
        (7, 281, 8620, 326201, 10369923),
        5,
        _CPW,
    ),
    PerftCase(
        "central_cannon_vs_screen_horses",
        OPENING_LINES["central_cannon_vs_screen_horses"][1],
        (35, 1380, 51310, 2087550, 81491206),
        4,
        "opening line; our core, agrees with pyffish to depth 3",
    ),
)

#: Two endgames from the same Chess Programming Wiki table.
ENDGAME_PERFT: tuple[PerftCase, ...] = (
    PerftCase(
        "cpw_pos4",
        "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
        (25, 424, 9850, 202884, 4739553),
        5,
        _CPW,
    ),
    PerftCase(
        "cpw_pos8",
        "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
        (23, 345, 8124, 149272, 3513104),
        5,
        _CPW,
    ),
)

#: Two "complicated checks and evasions" positions from the same table (thread benchmark).
EVASION_PERFT: tuple[PerftCase, ...] = (
    PerftCase(
        "cpw_pos5",
        "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
        (28, 516, 14808, 395483, 11842230),
        5,
        _CPW,
    ),
    PerftCase(
        "cpw_pos6",
        "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1",
        (21, 364, 7626, 162837, 3500505),
        5,
        _CPW,
    ),
)

#: The elephant-opening position as a perft case (used by the thread benchmark).
ELEPHANT_OPENING = PerftCase(
    "elephant_opening",
    OPENING_LINES["elephant_opening"][1],
    (38, 1474, 53921, 2127959, 79029657),
    4,
    "opening line; our core, agrees with pyffish to depth 3",
)

#: A few middlegame FENs for the peer comparison's move-generation and FEN workloads.
PEER_MIDGAME_FENS: tuple[str, ...] = (
    MIDGAME_PERFT[0].fen,
    MIDGAME_PERFT[1].fen,
    OPENING_LINES["central_cannon_vs_screen_horses"][1],
    OPENING_LINES["elephant_opening"][1],
)

RANDOM_SEED = 20240611
RANDOM_COUNT = 50

#: 50 positions from seeded random playouts of 20..60 plies from the start position
#: (random_midgame_fens(RANDOM_SEED, RANDOM_COUNT)); none is game over.
RANDOM_MIDGAME_FENS: tuple[str, ...] = (
    "2ba1kbnr/4n4/9/r3pC2p/p5p2/P1B1P1N1c/2P3PC1/B1c6/4K4/RN1A1A3 w - - 4 30",
    "rRbakab1C/9/n7r/3c2p1p/p1p1p4/4Pc2P/P1P3P2/N2A3CN/9/2BAK1BR1 w - - 25 24",
    "2b5r/3kan2c/1R3a2b/n1p6/C2Np3p/7p1/P1P5P/4K4/9/2BA1ABNR b - - 8 30",
    "r1bakabr1/2n6/9/6pcp/p1p1p1P2/5C2P/P1P1P4/4B4/RR7/1N1AKABN1 b - - 2 11",
    "1n1akabCr/r7c/b1c6/4p1p1p/p1p6/P8/2P1P1P1P/4C3N/4K3R/1NBA1AB1R b - - 16 11",
    "r1bRkab2/4a4/n7r/pcp6/6p1p/2B1p3P/P1P1P1P2/5CN1B/5c3/1N1AKAR1C b - - 24 15",
    "1nb1kC3/5n2r/4b1c1c/r1p1p3p/6C2/p5P1P/P1P1P4/2N1B3N/3RA4/3A1KB1R w - - 3 20",
    "rnbakab1r/2c6/9/p1p1p3p/6pn1/1c2P1P1P/P1P3C2/2N1CR2N/9/R1BAKAB2 w - - 28 15",
    "rnbakabn1/r4c3/9/p1p1C3p/4P1p2/6P1P/P1P6/8N/4K2C1/RNBA1AB1R w - - 3 11",
    "1n1ak1bn1/r8/b1c2ac1r/pR6p/2p1p1p2/9/P1P1PCP1P/3AB1NC1/4K4/1N3AB1R w - - 30 16",
    "r1b2abn1/3k4r/5a3/p1n3p2/4pcc1p/2P1P1C2/P5P1P/4K3R/9/R1BA1ABN1 w - - 10 25",
    "1nb1kabC1/4a4/r6r1/2pcp1p2/p7p/P1P1P4/6P1P/4BC3/9/1R1AKABNR w - - 5 20",
    "r1bakabn1/7cr/2n6/C1p1p3p/6p2/3CP4/P1P3P1P/4K3c/9/RNBA1ABNR w - - 3 15",
    "2bakabn1/3nr2c1/7r1/p1p1p1p1p/9/2P2cP2/PC2P3P/4B3C/5N3/RNBAKA2R w - - 24 13",
    "1nba1k2r/4a4/2r5C/p5p1p/1c2pP3/2P4c1/P3P3P/N8/2C1K2R1/R1BA1ABN1 b - - 4 23",
    "r2aka3/9/1c6c/2pnn1p1p/p1P1p1b2/7rP/P1C1P1P2/5AN2/4C4/RNBK1AB1R b - - 2 26",
    "2bakabn1/5c2r/n8/P4rpcp/4P4/1Cp3P2/2P5P/N6RN/4A4/R1B1KAB2 b - - 9 24",
    "2ba1kb1r/4aC3/n5nc1/2p3prp/p3p3c/1CP6/P3P1P1P/R1N1B3R/4A4/2B1KA1N1 w - - 34 18",
    "2bak1bnr/1r2a4/n4c3/p1p1pCp1p/9/3cP4/P1P3P1P/4R4/3C4R/1NBAKABN1 b - - 25 13",
    "r1b1kabn1/4a4/2nc3C1/2p1p1p2/P1P5p/4c4/6P1P/R6CB/8R/1rBAKA1N1 b - - 7 24",
    "r1bakar2/9/2n4cn/p1p1p1p1p/2b6/9/P1P1P1P1P/6N2/1C6C/RcBAKAB1R w - - 4 11",
    "1nbaka1nr/9/9/r1p1p1pcp/2b6/2P6/P3P1P1c/9/1C2R4/RNBAKABN1 w - - 0 15",
    "2b2ar2/4acc2/4k4/6p1R/prp1P1b2/P1P6/6P1P/8B/4A1C2/RNB1K4 b - - 4 29",
    "rnbk1a1r1/C3an3/8b/p1c1p1pCp/2p6/6B2/P1P1c1P1P/N5N2/9/R1BAKA1R1 w - - 12 13",
    "2ba1a1nr/n8/4k3b/7Cp/r4C3/p1P3P2/1c1p5/N3BA1R1/4K4/1R1A2BN1 w - - 13 31",
    "1nbakabCr/9/r1c5n/C1p1p1p1p/3c5/6P2/P1P1P3P/2N1B3N/9/R1BAKAR2 b - - 8 16",
    "r1ba2b2/4k3r/c2a4n/p1p3p1p/8P/6PR1/P1P1P4/2NCB4/9/R2AKABN1 b - - 0 21",
    "1nba1a3/1C6r/2rk5/2p1p4/1C4bnp/PRB6/2P1P1PRc/9/4A4/1N1A1KBN1 b - - 12 29",
    "rn1a1abC1/3Ck4/b3c4/p1p1p1p2/2P3r2/P5Pcp/R3P3P/9/9/1NBAKABNR w - - 17 15",
    "r1bk4r/4a4/n2ab1n2/4p3p/p1c3p1P/P1p1P4/4N1PCR/1R2B4/6C2/cN1AKAB2 b - - 21 27",
    "r1caka1nr/8C/n3b2Cb/p3p1p1p/2p6/9/P1P1P1P1P/1R7/9/1NBAKABcR b - - 7 11",
    "2bk1abn1/4a3r/r1n3C2/p1p3p2/P3pc3/6c2/C1P1P1P1P/4B1N2/R3A3R/1NB1KA3 b - - 28 18",
    "1nbaka2c/8r/C3b3n/pR4p2/P1p1p3p/3r4P/2P1P1P2/2N6/4AK1C1/2B2ABNR w - - 29 22",
    "r1baka3/5n3/nC2b4/p1p1p1c1p/9/P1P1P1r1P/8R/1R2B1p2/4A4/1N2KABN1 b - - 2 20",
    "2bk1abnr/4a4/n7r/p1p1pCp1p/9/8P/P3P4/3AB3N/1R1c2C2/1N1A1KB1R b - - 13 25",
    "2ba1abc1/4k3r/n5CC1/p1p1p4/P7p/6B2/2P1P1P1P/6N2/1r1NR2c1/3AKABR1 b - - 4 20",
    "3aka1r1/3n1n3/4b3b/r5p2/p1pcp2Cp/P8/N1P1P1P2/3CB4/5N2R/2BAKA1R1 w - - 15 23",
    "1cb1kabnr/n3a4/r8/p1p3p1p/2P1p4/9/P5P2/1C7/2RCA4/RNBAK1BNc w - - 18 15",
    "2bk1ab1r/3r5/2nac1n2/p1p1p3p/P5p2/2B1P4/6P2/3ACR3/3N2C2/R2AK1BN1 b - - 10 24",
    "1nbakabnr/1r7/9/2C1p4/p5P1p/4P2cP/P1P6/2NA1C3/R4c2R/2B1KABN1 b - - 2 17",
    "r2a1ab2/3nk2r1/4b4/p1p3p1p/4p4/PcP6/4P1P1P/N4c3/1C2AR3/R1B1KABN1 w - - 28 16",
    "2baka3/6n2/2n1b4/p3prp1p/2p3C2/1N2P4/P7P/B7N/1c6R/2RAKAB2 w - - 7 19",
    "1nbk1a2r/r3cn3/5a2b/1C4p1p/pP2p2c1/8P/P3P4/2R1B4/2N5R/2BAKA1N1 w - - 8 24",
    "2baka2r/2r6/2ncb1n2/p1c3C1p/2p3p2/1CP1P4/P5P1P/B8/4R4/1N1AKABNR w - - 11 17",
    "rnbakab2/1C2r4/8n/p1p1p1p1p/1c4P2/4P2NP/P1P6/9/C3Ac2R/RNBAK1B2 w - - 30 16",
    "r3ka3/n7n/b2ab4/p3p4/2C5p/2P3pr1/P2CP1PR1/1c2B4/N3K4/R1BA1A1N1 b - - 2 27",
    "rn1ak1bnr/7C1/3abR3/p7P/2p1p1p2/P5P2/4P4/N8/1C2A4/2BcKABNR w - - 3 18",
    "3akabn1/3n4r/r6cb/C1p3p1p/4p4/P3P3C/2P3P1P/8B/9/R1BAKA1NR w - - 5 19",
    "1nb1kCbr1/r3a4/9/pCp1p1p1p/8c/P5P1P/2P6/2NA5/c7R/R1BAK1BN1 w - - 3 20",
    "1n1aka1n1/C3rr3/b2cb4/p3p1p1p/2p5P/6P2/P1P1P4/1c3C2N/R4R3/2BAKAB2 w - - 8 22",
)


def random_midgame_fens(seed: int = RANDOM_SEED, count: int = RANDOM_COUNT) -> list[str]:
    """Play seeded random games from the start and keep the final FEN of each.

    Each playout has a length drawn from 20..60 plies. A playout that reaches a
    position with no legal move (game over) on the way, or ends on one, is thrown
    away and another is played. Moves are sorted by ICCS text before the random
    pick, so the result does not depend on the core's generation order.
    """
    import random

    import xiangqi

    rng = random.Random(seed)
    fens: list[str] = []
    while len(fens) < count:
        plies = rng.randint(20, 60)
        pos = xiangqi.Position(START_FEN)
        for _ in range(plies):
            moves = sorted(pos.legal_moves(), key=str)
            if not moves:
                break
            pos.push(rng.choice(moves))
        else:
            if pos.has_legal_moves():
                fens.append(pos.fen())
    return fens


if __name__ == "__main__":
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    fresh = random_midgame_fens()
    for fen in fresh:
        print(f'    "{fen}",')
    same = tuple(fresh) == RANDOM_MIDGAME_FENS
    print(f"# matches RANDOM_MIDGAME_FENS: {same}", file=sys.stderr)
    sys.exit(0 if same else 1)
