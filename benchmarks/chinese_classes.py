"""Steered repetition cycles per class of issue 31, and how the Chinese judge rules them.

``python benchmarks/chinese_classes.py [SEED [GAMES]]`` builds cycles of each class below, each
with its verdict read from the rule text (never from the judge), plays every cycle to its
third occurrence and counts the verdicts of ``outcome(rules="chinese")``. Run it on two
builds to compare them (the issue's "before and after" figures).

Classes (the clause that gives the expected verdict):

- home-pawn: a rook shuttles along a rank between two files, each time attacking a
  different enemy pawn that has not crossed the river; the other side shuttles an
  advisor. An uncrossed pawn is no material (1999 25.3, 29.3): every move is idle, a
  draw. Generated: random ranks and files, both colours.
- crossed-pawn (control): the same with the pawns across the river and unprotected:
  every rook move chases a new piece (2020 24.11), the rook's side loses.
- check-answer: a rook check answered by a block; after the block a horse may take an
  unprotected horse again, a capture it had before the check (in check it was not
  legal). The answer is no chase (2020 26.1.4), so the blocker's side, whose other
  move chases anew, has an idle move: a draw.
  Generated: the built pattern mirrored and in both colours, with the target shifted.
- pinned (被牵子捉子): a cannon shuttles along a file between the enemy rook and its own,
  each time attacking an unprotected horse through a screen; taking either horse opens the
  file and loses the rook, more than it wins, so neither move chases (2020 24.3 and
  图23): a draw. Generated: three king placements, mirrored, both colours.
- unpinned (control): the same without the enemy rook: every cannon move chases a new
  piece (2020 24.11), the cannon's side loses.
- second-attacker: a cannon shuttles between two squares, each attacking an unprotected
  horse that a rook already attacks. A chase is by a piece (1999 细则2, 细则6; 2020
  参考图45): each cannon move chases, and the cannon's side loses (2020 24.11).
  Generated: two black defences, mirrored, both colours.
- under-protected (少根): a rook shuttles between two squares, each joining a horse in
  attacking an enemy horse that one rook defends: the whole exchange wins a piece
  (1999 28.16, 29.1), so every move chases a new piece and the rook's side loses.
  Generated: mirrored, both colours, the kings on several squares.

The third push's classes (readings 21-25 of the case README; each the issue's cycle, with
its colours swapped and mirrored):

- unprotected-offer: a rook follows an enemy rook while it is itself unprotected; the
  opponent may take it for nothing, so it is given away, not offered (1999 28.5, 细则5,
  细则12): its side chases with every move and loses.
- check-win-replies: a rook check wins an advisor only if it blocks, and the king's step
  loses only an elephant another check already won (1999 29.1-29.2, 细则6): idle, a draw.
- home-pawn-exchange: a cannon attacks a horse whose exchange ends on a pawn at home
  (1999 25.3): no gain, a draw.
- capture-into-mate: a horse attacks a rook whose capture is met by mate (1999 29.4,
  细则7): idle; the other side threatens mate with every move and loses.
- four-check-mate: a rook returns to a square from which its side mates by four checks
  (2020 24.2): its side threatens mate with every move and loses.

With GAMES, it also plays that many steered games (tests/rules_oracle.py's players) and
counts the Chinese verdicts at their first threefold repetition (no expected verdict:
compare two builds, and judge the cycles whose verdict changed by hand).

Positions are checked before use (every move legal, the cycle returns to its start); a
generated position that fails a check is skipped, not counted.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

from xiangqi import Color, Piece, Position, Rules, parse_square

FILES = "abcdefghi"


def at_third_occurrence(fen: str, moves: list[str]) -> Position | None:
    """The cycle played twice from fen, its start standing for the third time (None when
    the cycle is not legal or does not repeat)."""
    try:
        pos = Position(fen)
        for _ in range(2):
            for text in moves:
                pos.push_iccs(text)
    except ValueError:
        return None
    return pos if pos.is_repetition(3) else None


def verdict(fen: str, moves: list[str]) -> str | None:
    """The Chinese ruling at the third occurrence, as 'draw' / 'red-loses' / 'black-loses'
    (None when the cycle is not legal or does not repeat)."""
    pos = at_third_occurrence(fen, moves)
    if pos is None:
        return None
    outcome = pos.outcome(rules=Rules.CHINESE)
    if outcome is None:
        return None
    if outcome.winner is None:
        return "draw"
    return "black-loses" if outcome.winner == Color.RED else "red-loses"


def swap_colours(fen: str, moves: list[str]) -> tuple[str, list[str]]:
    """The same cycle played by the other colours (board turned, pieces recoloured)."""
    board, side, *rest = fen.split()
    rows = [row.swapcase() for row in reversed(board.split("/"))]
    flipped = " ".join(["/".join(rows), "b" if side == "w" else "w", *rest])
    return flipped, [f"{m[0]}{9 - int(m[1])}{m[2]}{9 - int(m[3])}" for m in moves]


def mirror_files(fen: str, moves: list[str]) -> tuple[str, list[str]]:
    """The same cycle with files a..i swapped."""
    board, *rest = fen.split()
    rows = []
    for row in board.split("/"):
        cells: list[str] = []
        for ch in row:
            cells.extend("." * int(ch) if ch.isdigit() else ch)
        rows.append("".join(reversed(cells)))
    packed = []
    for row in rows:
        out, run = "", 0
        for ch in row:
            if ch == ".":
                run += 1
                continue
            out += (str(run) if run else "") + ch
            run = 0
        packed.append(out + (str(run) if run else ""))
    swap = {f: FILES[8 - i] for i, f in enumerate(FILES)}
    return " ".join(["/".join(packed), *rest]), [
        f"{swap[m[0]]}{m[1]}{swap[m[2]]}{m[3]}" for m in moves
    ]


def variants(fen: str, moves: list[str], expected: str) -> list[tuple[str, list[str], str]]:
    """The cycle, mirrored, in the other colours, and both (the loser's colour swaps)."""
    other = {"draw": "draw", "red-loses": "black-loses", "black-loses": "red-loses"}
    out = []
    for mirror in (False, True):
        f, m = mirror_files(fen, moves) if mirror else (fen, moves)
        out.append((f, m, expected))
        sf, sm = swap_colours(f, m)
        out.append((sf, sm, other[expected]))
    return out


def board_fen(pieces: dict[tuple[int, int], str], side: str) -> str:
    """FEN from {(file, rank): letter}."""
    rows = []
    for rank in range(9, -1, -1):
        row, run = "", 0
        for file in range(9):
            letter = pieces.get((file, rank))
            if letter is None:
                run += 1
                continue
            row += (str(run) if run else "") + letter
            run = 0
        rows.append(row + (str(run) if run else ""))
    return f"{'/'.join(rows)} {side} - - 0 1"


def pawn_cycles(rng: random.Random, crossed: bool, count: int) -> list[tuple[str, list[str]]]:
    """Black rook on a rank, two red pawns on two files it reaches in turn; Red shuttles
    an advisor. Home pawns on ranks 3-4, crossed ones on ranks 5-8 (both unprotected:
    files at least two apart, nothing else of Red's near them)."""
    out = []
    tries = 0
    while len(out) < count and tries < count * 50:
        tries += 1
        fa, fb = sorted(rng.sample(range(9) if crossed else range(0, 9, 2), 2))
        if fb - fa < 2:
            continue
        pawn_rank = rng.choice((5, 6, 7, 8) if crossed else (3, 4))
        rook_rank = rng.choice([r for r in range(0, 10) if abs(r - pawn_rank) >= 1])
        king = rng.choice((3, 5))  # Black king d9 or f9 (Red's is e0)
        pieces = {(4, 0): "K", (3, 0): "A", (5, 0): "A", (king, 9): "k"}
        pieces[(fa, pawn_rank)] = "P"
        pieces[(fb, pawn_rank)] = "P"
        start = (fa, rook_rank)
        if start in pieces or (fb, rook_rank) in pieces:
            continue
        # The rank between the two rook squares, and each file between rook and pawn,
        # must be empty.
        if any((f, rook_rank) in pieces for f in range(fa + 1, fb)):
            continue
        lo, hi = sorted((rook_rank, pawn_rank))
        if any((f, r) in pieces for f in (fa, fb) for r in range(lo + 1, hi)):
            continue
        pieces[start] = "r"
        fen = board_fen(pieces, "b")
        a, b = f"{FILES[fa]}{rook_rank}", f"{FILES[fb]}{rook_rank}"
        moves = [a + b, "d0e1", b + a, "e1d0"]
        out.append((fen, moves))
    return out


CHECK_ANSWER = ("5k3/9/9/9/R1P1c4/6n2/9/7N1/9/3K5 w - - 0 1", "a5a9 e5e9 a9a5 e9e5")
CHECK_ANSWER_SHIFTED = ("5k3/9/9/9/R1P1c4/7n1/9/8N/9/3K5 w - - 0 1", "a5a9 e5e9 a9a5 e9e5")
UNDER_PROTECTED = (
    ("5k3/9/9/1n5n1/2r6/2N3N2/9/9/9/2RK2R2 b - - 0 1", "c5g5 d0d1 g5c5 d1d0"),
    ("3k5/9/9/1n5n1/2r6/2N3N2/9/9/9/2RK2R2 b - - 0 1", "c5g5 d0d1 g5c5 d1d0"),
    ("4k4/4a4/9/1n5n1/2r6/2N3N2/9/9/9/2RK2R2 b - - 0 1", "c5g5 d0d1 g5c5 d1d0"),
)

# A black cannon shuttles along file a between Red's rook (a0) and its own (a8), each
# time attacking an unprotected red horse through a screen (h3 on rank 3, g4 on rank 4).
# Taking either horse opens the file: Red's rook then takes Black's unprotected rook.
PINNED = (
    ("5k3/r8/9/9/9/2P3N2/c3P2N1/9/9/R2AK4 b - - 0 1", "a3a4 d0e1 a4a3 e1d0"),
    ("3k5/r8/9/9/9/2P3N2/c3P2N1/9/9/R2AK4 b - - 0 1", "a3a4 d0e1 a4a3 e1d0"),
    ("4k4/r3a4/9/9/9/2P3N2/c3P2N1/9/9/R2AK4 b - - 0 1", "a3a4 d0e1 a4a3 e1d0"),
)


# Red's cannon shuttles a1i1 along rank 1, attacking in turn the a6 and i6 horses over the
# a3 and i3 pawns; Red's c6 and g6 rooks already attack each horse (none protected).
SECOND_ATTACKER = (
    ("3aka1c1/9/4b4/n1R3R1n/9/9/P3P3P/9/C8/3K5 w - - 0 1", "a1i1 h9h8 i1a1 h8h9"),
    ("2bak2c1/4a4/9/n1R3R1n/9/9/P3P3P/9/C8/3K5 w - - 0 1", "a1i1 h9h8 i1a1 h8h9"),
)


# The third push (readings 21-25): (fen, moves, verdict as the text rules).
THIRD_PUSH = {
    "unprotected-offer": (
        "3k1a3/9/4bNRr1/9/p5bP1/9/9/3A5/1r7/2BAK1B2 w - - 0 1",
        "g7g8 h7h8 g8g7 h8h7",
        "black-loses",
    ),
    "check-win-replies": (
        "2ba1k3/4a4/4b4/9/2n6/2C4R1/9/9/4A4/4KA3 w - - 0 1",
        "h4h9 e7g9 h9h4 g9e7",
        "draw",
    ),
    "home-pawn-exchange": (
        "r1ba1kb2/1n7/3a5/4p3p/pCp3P2/N1P6/P3P3P/4B4/8N/1R1AKABc1 b - - 0 1",
        "h0h4 b5b6 h4h0 b6b5",
        "draw",
    ),
    "capture-into-mate": (
        "9/6R2/4bk3/9/5Pc2/6n2/8R/9/9/3AK4 w - - 0 1",
        "g8g6 g4e3 g6g8 e3g4",
        "red-loses",
    ),
    "four-check-mate": (
        "C1bakr3/4a4/4b3R/4P4/9/2B6/1r7/B8/cp6R/4K4 b - - 0 1",
        "b3d3 i7i8 d3b3 i8i7",
        "black-loses",
    ),
}


def unpinned(fen: str) -> str:
    """The pinned cycle without Red's rook on a0: nothing is given away."""
    pos = Position(fen)
    assert pos.remove_piece_at(parse_square("a0")) == Piece.from_symbol("R")
    return pos.fen()


def classes(seed: int) -> dict[str, list[tuple[str, list[str], str]]]:
    rng = random.Random(seed)
    out: dict[str, list[tuple[str, list[str], str]]] = {}
    for name, crossed, expected in (
        ("home-pawn", False, "draw"),
        ("crossed-pawn", True, "black-loses"),
    ):
        cycles = []
        for fen, moves in pawn_cycles(rng, crossed, 20):
            cycles.extend(variants(fen, moves, expected))
        out[name] = cycles
    out["check-answer"] = [
        v
        for fen, moves in (CHECK_ANSWER, CHECK_ANSWER_SHIFTED)
        for v in variants(fen, moves.split(), "draw")
    ]
    out["under-protected"] = [
        v for fen, moves in UNDER_PROTECTED for v in variants(fen, moves.split(), "black-loses")
    ]
    out["pinned"] = [v for fen, moves in PINNED for v in variants(fen, moves.split(), "draw")]
    out["unpinned"] = [
        v for fen, moves in PINNED for v in variants(unpinned(fen), moves.split(), "black-loses")
    ]
    out["second-attacker"] = [
        v for fen, moves in SECOND_ATTACKER for v in variants(fen, moves.split(), "red-loses")
    ]
    for name, (fen, moves, expected) in THIRD_PUSH.items():
        out[name] = variants(fen, moves.split(), expected)
    return out


def steered(games: int, seed: int) -> Counter[str]:
    """Verdicts at the first threefold repetition of steered games (tests/rules_oracle.py's
    players: half the games both sides active), for the verdicts' spread beyond the built
    classes; these have no expected verdict."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from rules_oracle import ACTIVE, START_FENS, STYLES, _pick

    rng = random.Random(seed)
    tally: Counter[str] = Counter()
    for _ in range(games):
        pos = Position(rng.choice(START_FENS))
        pool = ACTIVE if rng.random() < 0.5 else STYLES
        styles = (rng.choice(pool), rng.choice(pool))
        for _ply in range(98):
            legal = pos.legal_moves()
            if not legal:
                break
            pos.push(_pick(pos, styles[int(pos.turn)], rng, legal))
            if pos.is_repetition(3):
                outcome = pos.outcome(rules=Rules.CHINESE)
                tally["none" if outcome is None else outcome.termination.name] += 1
                break
    return tally


def main() -> None:
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 31
    if len(sys.argv) > 2:
        print(f"steered games: {dict(steered(int(sys.argv[2]), seed).most_common())}")
    for name, cycles in classes(seed).items():
        tally: Counter[str] = Counter()
        right = 0
        for fen, moves, expected in cycles:
            got = verdict(fen, moves)
            if got is None:
                tally["skipped"] += 1
                continue
            tally[got] += 1
            right += got == expected
        judged = sum(n for k, n in tally.items() if k != "skipped")
        print(f"{name:16} {right:3}/{judged:3} as the text rules  {dict(sorted(tally.items()))}")


if __name__ == "__main__":
    main()
