"""Seeded random games steered into repetitions, ruled by us and by Fairy-Stockfish.

Used by tests/test_rules_oracle.py (small default run, larger under -m slow) and runnable
as a script for bigger runs: ``python tests/rules_oracle.py GAMES [SEED]``.

The players: each side gets a style for the whole game:
  shuffle  repeats its move of four plies ago when it can (back-and-forth cycles);
  checker  gives check when it can, else shuffles;
  chaser   prefers a move after which it chases something (by our Board.chased, only a
           steering heuristic: the ruling compared is computed independently by both),
           else a move that saves an attacked piece, else shuffles;
  hunter   prefers a move whose piece then attacks an enemy piece (not the king) that no
           enemy piece attacks back (an unprotected piece, by the public attackers():
           independent of the core's chase judging), else shuffles;
  fleer    moves an own piece (not the king) that an enemy piece attacks, to a square no
           enemy piece attacks when it can, else shuffles;
  idler    moves its king, advisors or elephants (back and forth when it can: idle moves),
           else shuffles;
  random   any legal move.
Every style plays a random legal move with some probability, so games wander between
cycles. In a third of the games both sides play an active style (checker, chaser,
hunter), where mutual chases and mixed cycles come about. Games start from a zero
halfmove clock and stop before 100 plies (pyffish applies the 50-move rule at 100), at
the first ruling of either side, or at no legal move.

Comparison: pyffish's ``is_optional_game_end('xiangqi', fen, moves) -> (ended, value)``
rules repetitions at the third occurrence since the last capture (or pawn move, in some
versions), value from the side to move's view. Its window is never wider than ours (since
the last capture), so pyffish can only end a game where our ``is_repetition(3)`` holds: it
is asked there, and wherever we rule. The classes of difference a large run finds, and
the side we believe right in each: tests/test_rules_oracle.py's docstring.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field

import xiangqi
from xiangqi import Move, Position, Termination

VARIANT = "xiangqi"
MATE = 32000
REPETITION_ENDS = (Termination.PERPETUAL_CHECK, Termination.PERPETUAL_CHASE, Termination.REPETITION)

#: Start positions: the opening and middlegame/endgame positions with rooks, horses and
#: cannons about, where checks and chases come easily. Halfmove clocks are 0.
START_FENS = (
    xiangqi.START_FEN,
    "r1bakab1r/9/1cn4cn/p1p1p1p1p/9/9/P1P1P1P1P/1CN4CN/9/R1BAKAB1R w - - 0 1",
    "2bakab2/9/2n1c1n2/p3p3p/2r3r2/9/P3P3P/2N1C1N2/4R4/2BAKAB2 w - - 0 1",
    "3akab2/9/4b4/p3p1p1p/2p6/6P2/P1P1c3P/4C4/9/2BAKAB2 w - - 0 1",
    "4k4/4a4/4b4/9/2r6/9/9/4C4/4A4/3AK1R2 w - - 0 1",
    "3k5/9/4b4/9/9/2n6/9/4C4/9/4K1R2 w - - 0 1",
    "4ka3/4a4/9/9/2c6/9/9/2R6/4A4/4KA3 w - - 0 1",
    "3ak4/4a4/9/9/9/9/9/3R5/4n4/4K4 b - - 0 1",
    "2bk5/9/9/9/4p4/2P6/9/9/4N4/4K4 w - - 0 1",
    "4k4/9/9/9/9/9/9/9/2c1r4/2RK1A3 w - - 0 1",
    "5k3/9/9/9/9/1C7/1r7/9/1C7/4K4 w - - 0 1",
    "4k4/9/9/9/4n4/9/5C3/9/4N4/4K4 w - - 0 1",
)
STYLES = ("shuffle", "checker", "chaser", "hunter", "fleer", "idler", "random")
ACTIVE = ("checker", "chaser", "hunter")
IDLE_PIECES = (xiangqi.PieceType.KING, xiangqi.PieceType.ADVISOR, xiangqi.PieceType.ELEPHANT)


def iccs_to_ff(text: str) -> str:
    """'h2e2' (ICCS, ranks 0..9) -> 'h3e3' (pyffish, ranks 1..10)."""
    return f"{text[0]}{int(text[1]) + 1}{text[2]}{int(text[3]) + 1}"


def our_ruling(pos: Position) -> int | None:
    """Our repetition ruling in pyffish's terms: None, 0 (draw) or +-MATE (side to move)."""
    outcome = pos.outcome()
    if outcome is None or outcome.termination not in REPETITION_ENDS:
        return None
    if outcome.winner is None:
        return 0
    return MATE if outcome.winner == pos.turn else -MATE


@dataclass
class Disagreement:
    fen: str
    moves: list[str]
    ours: int | None
    theirs: int | None
    kind: str

    def __str__(self) -> str:
        return (
            f"[{self.kind}] ours {self.ours} pyffish {self.theirs}: "
            f"Position({self.fen!r}) + {' '.join(self.moves)}"
        )


@dataclass
class Tally:
    games: int = 0
    plies: int = 0
    asked: int = 0
    rulings: dict[str, int] = field(default_factory=dict)
    disagreements: list[Disagreement] = field(default_factory=list)


def _gives_check(pos: Position, move: Move) -> bool:
    pos.push(move)
    try:
        return pos.is_check()
    finally:
        pos.pop()


def _chases_after(pos: Position, move: Move) -> bool:
    side = int(pos.turn)
    pos.push(move)
    try:
        return bool(pos._board.chased(side))
    finally:
        pos.pop()


def _hunts_after(pos: Position, move: Move) -> bool:
    """After move, does the moved piece attack an enemy piece other than the king that no
    enemy piece attacks (an unprotected target)?"""
    them = ~pos.turn
    pos.push(move)
    try:
        for square in pos.attacks(move.to_square):
            piece = pos.piece_at(square)
            if (
                piece is not None
                and piece.color == them
                and piece.piece_type != xiangqi.PieceType.KING
                and not pos.attackers(them, square)
            ):
                return True
        return False
    finally:
        pos.pop()


def _attacked_own(pos: Position) -> set[int]:
    """Squares of the side to move's pieces (not the king) that an enemy piece attacks."""
    us = pos.turn
    return {
        square
        for square, piece in pos.piece_map().items()
        if piece.color == us
        and piece.piece_type != xiangqi.PieceType.KING
        and pos.is_attacked_by(~us, square)
    }


def _pick(pos: Position, style: str, rng: random.Random, legal: list[Move]) -> Move:
    stack = pos.move_stack
    if style == "random" or rng.random() < 0.12:
        return rng.choice(legal)
    if style == "checker":
        checks = [m for m in legal if _gives_check(pos, m)]
        if checks:
            return rng.choice(checks)
    if style == "chaser":
        threatened = set(pos._board.chased(1 - int(pos.turn)))
        chases = [m for m in legal if _chases_after(pos, m)]
        if chases and rng.random() < 0.7:
            return rng.choice(chases)
        fleeing = [m for m in legal if m.from_square in threatened]
        if fleeing:
            return rng.choice(fleeing)
    if style == "hunter":
        hunts = [m for m in legal if _hunts_after(pos, m)]
        if hunts and rng.random() < 0.7:
            return rng.choice(hunts)
    if style == "fleer":
        attacked = _attacked_own(pos)
        fleeing = [m for m in legal if m.from_square in attacked]
        them = ~pos.turn
        safe = [m for m in fleeing if not pos.is_attacked_by(them, m.to_square)]
        if safe or fleeing:
            return rng.choice(safe or fleeing)
    if style == "idler":
        idle = [m for m in legal if _piece_type(pos, m) in IDLE_PIECES]
        if len(stack) >= 4 and stack[-4] in idle:
            return stack[-4]
        if idle:
            return rng.choice(idle)
    if len(stack) >= 4 and stack[-4] in legal:
        return stack[-4]
    if len(stack) >= 2:
        back = Move(stack[-2].to_square, stack[-2].from_square)
        if back in legal:
            return back
    return rng.choice(legal)


def _piece_type(pos: Position, move: Move) -> xiangqi.PieceType | None:
    piece = pos.piece_at(move.from_square)
    return None if piece is None else piece.piece_type


def _window_has_pawn_move(pos: Position, fen: str, moves: list[str]) -> bool:
    """Does the stretch since the last capture contain a pawn move (pyffish resets there)?"""
    replay = Position(fen)
    pawn_since_capture = False
    for text in moves:
        move = Move.from_iccs(text)
        piece = replay.piece_at(move.from_square)
        captured = replay.piece_at(move.to_square) is not None
        if captured:
            pawn_since_capture = False
        if piece is not None and piece.piece_type == xiangqi.PieceType.PAWN:
            pawn_since_capture = True
        replay.push(move)
    return pawn_since_capture


def _agrees_one_cycle_later(
    pos: Position, fen: str, moves: list[str], ours: int | None, ff: object
) -> bool:
    """Fairy-Stockfish intersects the chases of the move that led into the first
    occurrence too; we judge only the cycle's moves. Replay the last cycle once more, so
    that the move into the (new) first occurrence is a cycle move: does pyffish agree now?"""
    seen = pos._board.occurrences()
    if seen < 3:
        return False
    key = pos.zobrist_hash()
    replay = pos.copy()
    back = 0
    while True:  # the cycle length: plies back to the previous occurrence
        replay.pop()
        back += 1
        if back >= 4 and replay.zobrist_hash() == key:
            break
    extended = moves + moves[-back:]
    ended, value = ff.is_optional_game_end(  # type: ignore[attr-defined]
        VARIANT, fen, [iccs_to_ff(m) for m in extended]
    )
    return (value if ended else None) == ours


def play(seed: int, games: int, ff: object, max_plies: int = 98) -> Tally:
    """Play `games` seeded games and compare rulings with pyffish (the module `ff`)."""
    rng = random.Random(seed)
    tally = Tally()
    for _ in range(games):
        fen = rng.choice(START_FENS)
        pos = Position(fen)
        if rng.random() < 1 / 3:  # both sides active
            styles = (rng.choice(ACTIVE), rng.choice(ACTIVE))
        else:
            styles = (rng.choice(STYLES), rng.choice(STYLES))
        moves: list[str] = []
        tally.games += 1
        for _ply in range(max_plies):
            legal = pos.legal_moves()
            if not legal:
                break
            move = _pick(pos, styles[int(pos.turn)], rng, legal)
            pos.push(move)
            moves.append(str(move))
            tally.plies += 1
            outcome = pos.outcome()
            if outcome is not None and outcome.termination not in REPETITION_ENDS:
                break  # over by another rule (no legal move, insufficient material)
            ours = our_ruling(pos)
            if not pos.is_repetition(3) and ours is None:
                continue
            tally.asked += 1
            ended, value = ff.is_optional_game_end(  # type: ignore[attr-defined]
                VARIANT, fen, [iccs_to_ff(m) for m in moves]
            )
            theirs = value if ended else None
            if outcome is not None:
                name = outcome.termination.name
                tally.rulings[name] = tally.rulings.get(name, 0) + 1
            if ours != theirs:
                if theirs is None and _window_has_pawn_move(pos, fen, moves):
                    kind = "pawn-move window"
                elif _agrees_one_cycle_later(pos, fen, moves, ours, ff):
                    kind = "entry move"
                else:
                    kind = "rule"
                tally.disagreements.append(Disagreement(fen, list(moves), ours, theirs, kind))
            if ours is not None or theirs is not None:
                break
    return tally


if __name__ == "__main__":
    import pyffish

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    result = play(seed, n, pyffish)
    print(
        f"games {result.games} plies {result.plies} pyffish calls {result.asked} "
        f"rulings {result.rulings} disagreements {len(result.disagreements)}"
    )
    kinds: dict[str, int] = {}
    for d in result.disagreements:
        kinds[d.kind] = kinds.get(d.kind, 0) + 1
    print("by kind", kinds)
    for d in result.disagreements[:40]:
        print(d)
