"""How a xiangqi game ends: Outcome, Termination, and the rule set the core applies.

``Position.outcome()`` asks the compiled core, which keeps one history per position
(the Zobrist key, move, captured piece, halfmove clock and "gave check" flag of every
ply) and judges in C (``xiangqi/core/asian.pxd``). Nothing here runs per move.

The rules (Asian / AXF-WXF rules, as Fairy-Stockfish and Pikafish implement them)
=================================================================================

In the order the core tests them:

1. **No legal move** loses for the side to move: ``CHECKMATE`` when in check,
   ``STALEMATE`` (困毙) when not. Squares are public numbers 0..89 throughout.
2. **Insufficient material** (``INSUFFICIENT_MATERIAL``, a draw): neither side has a
   rook, horse, cannon or pawn, so no checkmate is possible.
3. **Repetition**, when the current position (pieces and side to move) has occurred
   ``repetitions`` times (3 by default) since the last capture. The span judged is
   every move from the earliest of those occurrences up to now.

   * ``PERPETUAL_CHECK``: every move one side made in the span gave check. That side
     loses. Check outranks chase: when either side checked perpetually, chases are
     not looked at. Both sides checking perpetually is a draw (``REPETITION``).
   * ``PERPETUAL_CHASE``: every move one side made in the span newly chased one and
     the same enemy piece (the piece is followed by identity when it flees). That side
     loses. When both sides chase perpetually, a side that chases a rook which a horse
     pins against its king (the rook blocks the horse's leg towards that king) commits
     the graver offence and loses alone (WXF diagrams 39-41); otherwise both chasing is
     a draw. Alternating threats against different pieces, and a cycle with one idle
     move, are allowed.
   * Otherwise ``REPETITION``: a draw.

   A side *chases* an enemy piece when one of its pieces other than the king and the
   pawns (kings and pawns may chase freely) can legally capture it (a pinned piece may
   still take its own pinner: WXF diagrams 37 and 50), the chased piece is neither the
   king nor a pawn still on its own side of the river, and either

   * the attacker is a horse or cannon and the victim a rook, or the attacker an
     advisor or elephant and the victim a rook, horse or cannon (a threat against a
     stronger piece counts even when that piece is protected); or
   * the victim is unprotected: after the capture no piece of the victim's side can
     legally take back (a protector that would expose its king, and a king that would
     step into check or face the other king, are "fake roots"; a protector pinned only
     by the capturing piece still protects, since it may take it); and if attacker and
     victim are of one kind, the victim cannot legally take the attacker (a mutual
     attack is no chase).
     When the move gave check, every recapture is illegal until the check is answered,
     so protection is then judged as if it were: any piece that reaches the square
     protects (a mate threat with checks is not a chase: WXF's perpetual-kill cases).

   A move *newly* chases a piece when, after it, some attacker chases that piece and
   either could not capture it at all before the move (a new attack, direct or
   discovered; another piece taking over a threat is a new one), or could but found it
   protected, and the piece's roots are now fake (the move pinned a protector or made
   its recapture illegal). A piece that merely lost its root because the root's line or
   cannon screen opened or closed is not newly chased: the attack itself did not change
   (WXF diagrams 61 and 106).

4. **Move rule** (``MOVE_RULE``, a draw): ``move_limit`` plies (120 = 60 moves)
   without a capture. A side's checks beyond its first ten in that stretch are not
   counted, nor are the replies to them: two plies off per excess check (the AXF 2017
   reading, as Pikafish and Fairy-Stockfish count); plies played before the position
   the history starts from count as plain moves, since their checks are unknown. A
   checkmate on the last ply still wins (rule 1 comes first).

Deliberate simplifications
--------------------------

* Chases are judged on the resulting position only: a threat counts whatever its
  material balance beyond protection (no exchange evaluation), and "one check, one
  chase" cycles are judged as chases (checking moves must then also chase the same
  piece, which is what Fairy-Stockfish does). The Chinese (CXA) rules'
  mate threats (长杀) belong to the other rule set, below.
* The cycle's own moves are judged (from the first occurrence to now); the move that
  led into the first occurrence is not, unlike Fairy-Stockfish, which also intersects
  that move's chases.
* A capture resets the repetition window; pawn moves do not (a crossed pawn moving
  sideways is reversible).
* A pinned piece does not protect, even when its recapture would be legal; it does
  attack whatever it may legally capture, its pinner included. A move that gives check
  is judged for chases too (a check that also chases the same piece as the other moves
  keeps the chase going, as in Fairy-Stockfish's test suite).
* The horse-pinned rook is the only chase graver than another; the rule book's
  further levels (if any) are not modelled. A root lost by opening or closing its line
  is never a new chase, although one WXF illustration (a pawn stepping off and back onto
  a cannon root's screen) rules it one (``tests/test_rules_wxf.py``, KNOWN_WRONG).
* Threats created by a discovered check are judged like any other threat (the victim
  must still be unprotected), where Fairy-Stockfish counts some of them outright.
* Spans longer than 4096 plies are judged for perpetual check only.

The Chinese rules (``rules="chinese"``, ``Rules.CHINESE``)
==========================================================

The Chinese Xiangqi Association's competition rules (《中国象棋竞赛规则》), judged in
``xiangqi/core/chinese.pxd``. Where the book is ambiguous the project takes the numbered
readings of ``tests/data/chinese_rules/README.md`` (cited below as "reading N"; the reasons
and the book's cases for each are there). Rules 1 and 2 are as above; then:

3. **Repetition**, at the same occurrences and over the same span (reading 1). Each move
   of the span is one of:

   * a check (将);
   * a mate threat (杀): with the mover to move again, a mate by a series of checks,
     every defence considered: within three of its moves always (``CXA_MATE_DEPTH`` in
     ``core/chinese.pxd``; reading 3), then deeper, up to six, within a budget of move
     generations per move (``CXA_MATE_DEEP``, ``CXA_MATE_NODES``; reading 25);
   * a chase (捉): with the mover to move again, the moved piece (by its own capture or in a
     joint attack that wins nothing without it) wins a piece it could not win before, even
     if another piece or a check already could (reading 18), or a check after which every
     reply leaves such a gain (将军得子: counted by the pieces it wins, reading 10, and new only
     when every reply loses a piece no check won before the move, reading 23). A gain is the
     target's value less what the whole exchange on its square costs (rook 4, horse and
     cannon 2, advisor and elephant 1, a crossed pawn "floating", so under-protected 少根
     targets and joint attacks chase; readings 4 and 12). Neither the king nor a pawn
     chases, and a pawn still on its own side of the river is no target, nor worth anything
     inside an exchange (readings 6, 11 and 21). Several targets in turn are still a
     perpetual chase (reading 5). A move answering a check chases only what could not be
     taken before the check (reading 13). A capture that uncovers a piece of the mover's own
     to a new attacker, so that the opponent may then win more than it won, wins nothing;
     giving away what a protecting piece leaves does not count (reading 17); nor does a
     capture the opponent answers by mate, searched as deep as a mate threat (reading 24);
   * otherwise idle (闲): exchange offers, sacrifices and blocks included. An offer by the
     moved piece of a like piece that can take it back evenly (兑) is idle, even when the
     attacked piece is unprotected (reading 14) and even when the capture would give check
     (reading 19), but not when the opponent may take the moved piece for nothing: that is a
     piece given away that attacks, a chase (reading 22). A 少根 gain that rests on a like
     attacker the target can take back evenly is idle too (reading 15). A like piece
     uncovered by another piece's move is chased (reading 20: the book's 图25; its 图9 reads
     the other way). A king move answering a check is idle. A check that also prepares a
     capture is a check (reading 9).

   A side none of whose moves is idle is forbidden: ``PERPETUAL_CHECK``,
   ``PERPETUAL_MATE_THREAT``, ``PERPETUAL_CHASE`` (of one piece or several),
   ``CHECK_AND_CHASE``, ``CHECK_AND_MATE_THREAT``, ``MATE_THREAT_AND_CHASE``,
   ``CHECK_MATE_THREAT_AND_CHASE``. A side that checked with every move loses when the
   other did not (reading 2); otherwise a forbidden side loses when the other is not;
   both or neither: ``REPETITION``, a draw (a mutual chase the book rules against one
   side is not modelled: reading 16).
4. **Move rule**: ``move_limit`` plies without a capture, every check counted (reading 8).

Simplified: quiet mate threats and check-wins by a series of more than one check are
not found; the defensive key point and the pawn's attacks in mutual perpetual attacks
are not modelled.

Not ruled: forbidden sequences that never repeat a position three times (the 2011/2020
books' forbidden moves over three or more points for nine rounds; 2020 参考图8, 图29).
``outcome()`` rules a position, and these need the arbiter's reading of intent over a
sequence that may never recur; no clause text of that rule was found to implement from
(reading 7), and a judge that guessed would end games the book lets continue.
``test_the_chinese_judge_does_not_rule_the_sequences`` pins that they are not ruled.

Each rule with its article in each rule book, the code that applies it and the test that
checks it, and how many of each book's illustrated cases the library rules as the book
does (counted from the tests' data when the docs are built: nothing is typed here): the
docs' game-end page, https://xiangqi-rules.readthedocs.io/en/latest/game-end.html.
The book cases are in
``tests/test_chinese_rule_cases.py`` and ``tests/test_rules_wxf.py``; known differences
from Fairy-Stockfish are pinned as named tests in ``tests/test_rules.py``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .errors import XiangqiError
from .pieces import Color


class Termination(enum.Enum):
    """Why a game ended; values are the core's END_* codes (see _core.pxd)."""

    CHECKMATE = 1
    """The side to move is in check and has no legal move; it loses."""
    STALEMATE = 2
    """The side to move is not in check but has no legal move (困毙); it loses."""
    PERPETUAL_CHECK = 3
    """A repetition in which one side gave check with every move; that side loses."""
    PERPETUAL_CHASE = 4
    """A repetition in which one side chased one piece with every move; it loses."""
    REPETITION = 5
    """A repetition in which neither side, or both, broke a rule: a draw."""
    MOVE_RULE = 6
    """No capture for the move limit (60 moves by default): a draw."""
    INSUFFICIENT_MATERIAL = 7
    """Neither side has a rook, horse, cannon or pawn: a draw."""
    # The Chinese rules' forbidden cycles (rules="chinese" only; core/chinese.pxd).
    PERPETUAL_MATE_THREAT = 8
    """Chinese rules: one side threatened mate with every move (长杀); it loses."""
    CHECK_AND_CHASE = 9
    """Chinese rules: one side checked or chased with every move, both kinds (一将一捉)."""
    CHECK_AND_MATE_THREAT = 10
    """Chinese rules: one side checked or threatened mate with every move (一将一杀)."""
    MATE_THREAT_AND_CHASE = 11
    """Chinese rules: one side threatened mate or chased with every move (一杀一捉)."""
    CHECK_MATE_THREAT_AND_CHASE = 12
    """Chinese rules: one side checked, threatened mate and chased, never idle."""


class Rules(str, enum.Enum):
    """The rule set ``Position.outcome(rules=...)`` judges repetitions by.

    A str enum: ``Rules.CHINESE == "chinese"``, and either form is accepted.
    """

    ASIAN = "asian"
    """Asian (AXF/WXF) rules, as Fairy-Stockfish and Pikafish implement them (the default)."""
    CHINESE = "chinese"
    """The Chinese Xiangqi Association's competition rules (see core/chinese.pxd)."""

    def __str__(self) -> str:
        return self.value


def check_rules(rules: object) -> Rules:
    """rules as a Rules member: "asian", "chinese" or a Rules member, else TypeError (not
    a str) or XiangqiError (a ValueError) quoting the value. For the Python layers that
    take the same choice as Position.outcome (Game, the match runner, VectorEnv)."""
    if not isinstance(rules, str):
        raise TypeError(
            f"rules must be a str ('asian' or 'chinese', or xiangqi.Rules), "
            f"got {type(rules).__name__}"
        )
    try:
        return Rules(rules)
    except ValueError:
        raise XiangqiError(
            f"rules must be 'asian' or 'chinese', got {str.__repr__(rules)}"
        ) from None


@dataclass(frozen=True)
class Outcome:
    """The end of a game: how it ended and who won (None for a draw)."""

    termination: Termination
    winner: Color | None

    def result(self) -> str:
        """'1-0' (Red won), '0-1' (Black won) or '1/2-1/2'."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == Color.RED else "0-1"

    def termination_tag(self) -> str:
        """The ruling in words, for a PGN Termination tag: 'perpetual check', 'repetition', ...

        PGN's generic words ('normal', 'rules infraction') would lose which rule ended the
        game, so the tag names the rule: the member's name in lower case with spaces.
        """
        return self.termination.name.lower().replace("_", " ")


def _outcome_of_code(code: int) -> Outcome:
    # Decode the core's termination | winner << 4 (winner 0 draw, 1 Red, 2 Black).
    winner = code >> 4
    return Outcome(Termination(code & 15), None if winner == 0 else Color(winner - 1))


__all__ = ["Outcome", "Rules", "Termination"]
