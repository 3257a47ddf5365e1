"""The mate search ends a line where Position.outcome() ends the game: the move rule
(120 plies without a capture, outcome()'s default), a game already over at the root,
and a repetition only at a position's third occurrence (a defender's check that makes a
second occurrence is a move like any other).

Expected values come from a brute force over the game that rules every position with
Position.outcome() (the library's rule judge, not the search), at small depths.
"""

from __future__ import annotations

import threading

import pytest
from conftest import line_iccs, played

from xiangqi import RED, Move, Position, SearchLimitReached, Termination

MOVE_RULE_FEN = "3k5/8P/9/7R1/9/4H4/9/9/6p2/4KA3 w - - {clock} 80"
SHUFFLED_FEN = "3k5/9/9/9/3P5/1C7/9/8N/3K5/9 w - - 0 1"
CHECKING_FEN = "9/5R3/3k1C2R/9/4p4/9/4r1p2/9/4K4/8C w - - 0 1"


def mates_within(pos: Position, plies: int) -> bool:
    """Can the side to move force a mate within plies (odd) plies? Brute force, every
    position ruled by Position.outcome(): the attacker wins when a move leaves the
    defender no legal move (outcome() rules that first); a game outcome() ends otherwise
    after the attacker's move is no mate; a defender's move after which outcome() ends
    the game holds, unless the defender lost by it (its perpetual check: it will not
    play that); a defender left with only such moves is not mated."""
    attacker = pos.turn
    for move in pos.legal_moves():
        pos.push(move)
        try:
            if not pos.has_legal_moves():
                return True
            if plies < 3 or pos.outcome() is not None:
                continue
            held = False
            replies = 0
            for reply in pos.legal_moves():
                pos.push(reply)
                try:
                    outcome = pos.outcome()
                    if outcome is not None and outcome.winner == attacker:
                        continue  # the defender's loss by the rules: not chosen
                    replies += 1
                    held = outcome is not None or not mates_within(pos, plies - 2)
                finally:
                    pos.pop()
                if held:
                    break
            if not held and replies:
                return True
        finally:
            pos.pop()
    return False


# -- the move rule ---------------------------------------------------------------------


def test_the_move_rule_ends_the_line() -> None:
    # Was e4c3 d9d8 h6d6: after d9d8 the clock is 120 and outcome() rules MOVE_RULE.
    pos = Position(MOVE_RULE_FEN.format(clock=118))
    pos.push(Move.from_iccs("e4c3"))
    pos.push(Move.from_iccs("d9d8"))
    outcome = pos.outcome()
    assert outcome is not None and outcome.termination is Termination.MOVE_RULE
    pos = Position(MOVE_RULE_FEN.format(clock=118))
    assert not mates_within(pos, 5)
    assert pos.find_mate(5) is None
    assert pos.find_mate(5, checks_only=True) is None


def test_a_mate_by_the_move_that_reaches_the_limit_is_a_mate() -> None:
    # outcome() rules the position without a legal move first: clock 117, the mate
    # lands on ply 120 and counts.
    pos = Position(MOVE_RULE_FEN.format(clock=117))
    assert mates_within(pos, 3)
    line = pos.find_mate(5)
    assert line_iccs(line) is not None and line is not None and len(line) == 3
    for move in line:
        pos.push(move)
    outcome = pos.outcome()
    assert outcome is not None and outcome.termination is Termination.CHECKMATE
    assert outcome.winner is RED


def test_the_move_rule_under_dfpn() -> None:
    pos = Position(MOVE_RULE_FEN.format(clock=118))
    assert pos.find_mate(11) is None
    line = Position(MOVE_RULE_FEN.format(clock=117)).find_mate(11)
    assert line is not None and len(line) == 3


# -- a game already over ----------------------------------------------------------------


def test_a_game_over_by_the_move_rule_has_no_mate() -> None:
    pos = Position(MOVE_RULE_FEN.format(clock=120))
    outcome = pos.outcome()
    assert outcome is not None and outcome.termination is Termination.MOVE_RULE
    assert pos.find_mate(5) is None
    assert pos.find_mate(11) is None


def test_a_game_over_by_repetition_has_no_mate() -> None:
    pos = played(SHUFFLED_FEN, "d1e1 d9d8 e1d1 d8d9 d1e1 d9d8 e1d1 d8d9")
    outcome = pos.outcome()
    assert outcome is not None and outcome.termination is Termination.REPETITION
    assert pos.find_mate(9) is None
    assert pos.find_mate(11) is None


# -- the defender's checks: a second occurrence ends nothing ----------------------------


def test_a_defenders_second_occurrence_check_is_a_defence() -> None:
    # Was a 5-ply line through e1f1: Black's e3f3 (a check, a second occurrence) was
    # cut, yet outcome() lets the game go on, and then no mate comes within 3 plies.
    pos = played(CHECKING_FEN, "e1f1 e3f3 f1e1 f3e3")
    pos.push(Move.from_iccs("e1f1"))
    pos.push(Move.from_iccs("e3f3"))
    assert pos.outcome() is None and pos.is_check()
    assert not mates_within(pos, 3)
    pos.pop()
    pos.pop()
    line = pos.find_mate(5)
    assert line is None or line_iccs(line[:1]) != "e1f1"
    assert pos.find_mate(5) == pos.find_mate(5, checks_only=False)


@pytest.mark.slow
def test_no_mate_within_seven_after_the_history_by_brute_force() -> None:
    # About 20 s of brute force: the search's None at 5 and 7 plies, by the rules.
    pos = played(CHECKING_FEN, "e1f1 e3f3 f1e1 f3e3")
    assert not mates_within(pos, 7)
    assert pos.find_mate(7) is None


def test_an_event_set_already_stops_before_the_search() -> None:
    stop = threading.Event()
    stop.set()
    with pytest.raises(SearchLimitReached) as caught:
        Position(MOVE_RULE_FEN.format(clock=0)).find_mate(5, stop=stop)
    assert caught.value.nodes == 0
