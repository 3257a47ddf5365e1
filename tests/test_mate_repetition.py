"""How the mate search judges repetitions: a line ends by repetition only where the rules
end the game (a position's third occurrence since the last capture, docs/game-end.md),
the game's history counts, and xiangqi.find_mates answers as find_mate does, history
included.

Expected values come from the rules (Position.outcome() ruling the line a checkmate, a
second occurrence ending nothing) and from a real Fairy-Stockfish (`go mate N` after
`position fen ... moves ...`).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from conftest import line_iccs, played
from test_engine_fairy import FAIRY, SKIP_REASON

import xiangqi
from xiangqi import Move, Position, Termination
from xiangqi.engine import Limit, Mate, SimpleEngine

#: Both kings shuffled once: every position after the next move stands once already in
#: the game, and a second occurrence ends nothing.
SHUFFLED_FEN = "3k5/9/9/9/3P5/1C7/9/8N/3K5/9 w - - 0 1"
SHUFFLE = "d1e1 d9d8 e1d1 d8d9"
MATE = "d1e1 d9d8 b4d4"


def test_the_rules_rule_the_line_a_checkmate() -> None:
    # The independent judge of the expected line: after the shuffle and the mate the game
    # ended by checkmate, not by the repetition on the way (a second occurrence).
    pos = played(SHUFFLED_FEN, SHUFFLE)
    for text in MATE.split():
        assert pos.outcome() is None
        pos.push(Move.from_iccs(text))
    outcome = pos.outcome()
    assert outcome is not None and outcome.termination is Termination.CHECKMATE
    assert outcome.winner is xiangqi.RED


@pytest.mark.parametrize("plies", [3, 5])
def test_a_second_occurrence_does_not_end_the_search(plies: int) -> None:
    # Was None ("proven: no mate"): every return to a position of the game's history
    # counted as a draw, so d1e1 (a second occurrence) was never played.
    pos = played(SHUFFLED_FEN, SHUFFLE)
    assert line_iccs(pos.find_mate(plies)) == MATE


def test_the_same_position_without_history_mates_the_same() -> None:
    assert line_iccs(Position(SHUFFLED_FEN).find_mate(3)) == MATE


def first_moves_that_mate_in_two(pos: Position) -> set[str]:
    """Brute force, by the board alone (no repetition rule): the attacker's moves after
    which every reply allows a move that leaves the defender no legal move."""
    found = set()
    for move in pos.legal_moves():
        pos.push(move)
        replies = pos.legal_moves()
        ok = bool(replies)
        for reply in replies:
            pos.push(reply)
            mates = False
            for last in pos.legal_moves():
                pos.push(last)
                mates = not pos.has_legal_moves()
                pos.pop()
                if mates:
                    break
            pos.pop()
            if not mates:
                ok = False
                break
        pos.pop()
        if ok:
            found.add(str(move))
    return found


def test_only_d1e1_mates_in_two_on_the_board() -> None:
    assert first_moves_that_mate_in_two(Position(SHUFFLED_FEN)) == {"d1e1"}


def test_the_attacker_may_not_make_a_third_occurrence() -> None:
    # Shuffled twice: d1e1 would make the third occurrence of its position, which ends
    # the game drawn (no cycle of checks), so the only mate in two on the board is gone.
    pos = played(SHUFFLED_FEN, f"{SHUFFLE} {SHUFFLE}")
    after = played(SHUFFLED_FEN, f"{SHUFFLE} {SHUFFLE} d1e1")
    ended = after.outcome()
    assert ended is not None and ended.termination is Termination.REPETITION
    assert pos.find_mate(3) is None


def test_a_defender_reply_that_makes_a_third_occurrence_escapes() -> None:
    # The position after d1e1 d9d8 stands twice in this game (Black reached it the second
    # time by d8d7 and d7d8, so d1e1 itself makes only a second occurrence, which ends
    # nothing): now d1e1's only reply d9d8 makes the third, a draw by the rules.
    history = "d1e1 d9d8 i2g1 d8d7 g1i2 d7d8 e1d1 d8d9"
    pos = played(SHUFFLED_FEN, history)
    assert played(SHUFFLED_FEN, f"{history} d1e1").outcome() is None
    assert [str(m) for m in played(SHUFFLED_FEN, f"{history} d1e1").legal_moves()] == ["d9d8"]
    ended = played(SHUFFLED_FEN, f"{history} d1e1 d9d8").outcome()
    assert ended is not None and ended.termination is Termination.REPETITION
    assert pos.find_mate(3) is None
    assert xiangqi.find_mates([pos], 3) == [None]


def test_find_mates_keeps_each_positions_history() -> None:
    # find_mates copied the positions without their moves (a FEN has no history), so it
    # answered the shuffled game with the mate its history forbids.
    shuffled = played(SHUFFLED_FEN, f"{SHUFFLE} {SHUFFLE}")
    fresh = Position(SHUFFLED_FEN)
    batch = xiangqi.find_mates([shuffled, fresh, SHUFFLED_FEN], 3, threads=2)
    assert [line_iccs(answer) for answer in batch] == [  # type: ignore[arg-type]
        line_iccs(shuffled.find_mate(3)),
        line_iccs(fresh.find_mate(3)),
        MATE,
    ]
    assert line_iccs(shuffled.find_mate(3)) != MATE  # the history matters here


MASTER_FEN = "3ak4/5P3/9/3N2N2/9/9/P3p4/5n1n1/9/3AK4 w - - 2 53"
#: The 13-ply line the search gave while it cut the defender's checks at a second
#: occurrence: at ply 10 Black's f2h1 (a check, a second occurrence) was not searched.
MASTER_OLD_LINE = "e0f0 d9e8 f8e8 e9d9 d6b5 f2h1 f0e0 h1f2 e0f0 f2d1 d0e1 d1b0 b5c7"


def test_a_defender_may_check_until_the_third_occurrence() -> None:
    # The master game's position of tests/test_mate.py: Black checks with its horses.
    # outcome() lets the game go on after the second occurrence (f2h1 at ply 10), and
    # no mate follows within the 3 plies the old line had left (brute force by the
    # rules, test_mate_game_end.mates_within); the cycle played once more ends the game
    # at its third occurrence, lost by Black's perpetual check (a win by the rules, not
    # a mate: no mate line passes through it).
    from test_mate_game_end import mates_within

    refuting = played(MASTER_FEN, MASTER_OLD_LINE.rsplit(" ", 4)[0] + " f2h1")
    assert refuting.outcome() is None and refuting.is_check()
    assert not mates_within(refuting, 3)
    for text in "f0e0 h1f2 e0f0".split():
        refuting.push(Move.from_iccs(text))
    outcome = refuting.outcome()
    assert outcome is not None and outcome.termination is Termination.PERPETUAL_CHECK
    assert outcome.winner is xiangqi.RED
    assert line_iccs(Position(MASTER_FEN).find_mate(13)) != MASTER_OLD_LINE


# -- against the real engine ------------------------------------------------------


@pytest.fixture(scope="module")
def fairy() -> Iterator[SimpleEngine]:
    if FAIRY is None:
        pytest.skip(SKIP_REASON)
    engine = SimpleEngine.popen_uci(FAIRY)
    engine.configure({"Threads": 1})
    yield engine
    engine.close()


def test_fairy_stockfish_finds_the_mate_after_the_shuffle(fairy: SimpleEngine) -> None:
    # position fen ... moves d1e1 d9d8 e1d1 d8d9, go mate 2: a mate in two moves, and it
    # starts with d1e1 (the only first move that mates in two).
    pos = played(SHUFFLED_FEN, SHUFFLE)
    info = fairy.analyse(pos, Limit(mate=2))
    score = info["score"].relative
    assert isinstance(score, Mate) and score.moves == 2
    assert str(info["pv"][0]) == "d1e1"
    line = pos.find_mate(3)
    assert line is not None and len(line) == 2 * score.moves - 1
    assert str(line[0]) == str(info["pv"][0])


# -- a second algorithm: brute force by the rules' own judge ------------------------


def has_mating_move(pos: Position) -> bool:
    """Does the side to move have a move after which the other has no legal move?"""
    for move in pos.legal_moves():
        pos.push(move)
        lost = not pos.has_legal_moves()
        pos.pop()
        if lost:
            return True
    return False


def mates_within_three(pos: Position) -> bool:
    """A mate within three plies by brute force over the game with its history, every
    other ending ruled by Position.outcome() (the library's rule judge, not the search):
    the attacker wins when the defender is left without a legal move; a game that
    outcome() ends otherwise (a repetition) is no mate for the attacker."""
    for move in pos.legal_moves():
        pos.push(move)
        try:
            if not pos.has_legal_moves():
                return True
            if pos.outcome() is not None:
                continue
            held = False
            for reply in pos.legal_moves():
                pos.push(reply)
                held = pos.outcome() is not None or not has_mating_move(pos)
                pos.pop()
                if held:
                    break
            if not held:
                return True
        finally:
            pos.pop()
    return False


#: Round trips from SHUFFLED_FEN's squares: Red's king and horse, Black's king.
RED_TRIPS = ["d1e1", "d1d2", "i2g1", "i2g3", "i2h0"]
BLACK_TRIPS = ["d9d8", "d9e9", "d9e8"]


def trips(moves: list[str]) -> Iterator[list[str]]:
    """One side's four moves: two round trips one after the other, or one inside the other
    (there, there, back, back), so the game's positions come back in many orders."""
    for a in moves:
        for b in moves:
            back_a, back_b = a[2:] + a[:2], b[2:] + b[:2]
            yield [a, back_a, b, back_b]
            if a[:2] != b[:2]:
                yield [a, b, back_b, back_a]


def shuffled_games() -> Iterator[Position]:
    """Every game from SHUFFLED_FEN of eight quiet moves, Red's and Black's round trips
    interleaved (each move legal, none ending the game), Red to move."""
    for red in trips(RED_TRIPS):
        for black in trips(BLACK_TRIPS):
            game = shuffled_game(red, black)
            if game is not None:
                yield game


def shuffled_game(red: list[str], black: list[str]) -> Position | None:
    """The game of those moves, or None when one is illegal or ends the game."""
    pos = Position(SHUFFLED_FEN)
    for red_move, black_move in zip(red, black, strict=True):
        for text in (red_move, black_move):
            move = Move.from_iccs(text)
            if not pos.is_legal(move):
                return None
            pos.push(move)
            if pos.outcome() is not None:
                return None
    return pos


def test_the_search_agrees_with_brute_force_by_the_rules() -> None:
    history_mattered = 0
    games = 0
    for pos in shuffled_games():
        games += 1
        expected = mates_within_three(pos)
        line = pos.find_mate(3)
        assert (line is not None) == expected, " ".join(str(m) for m in pos.move_stack)
        bare = Position(pos.fen())
        history_mattered += mates_within_three(bare) != expected
    assert games >= 30 and history_mattered >= 3  # the repetition rules are exercised
