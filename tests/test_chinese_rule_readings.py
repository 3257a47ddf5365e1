"""The Chinese judge's readings of the rule book, on positions that are not the book's.

``tests/test_chinese_rule_cases.py`` checks ``outcome(rules="chinese")`` against the
book's own diagrams. A reading tuned on those diagrams could recognise them rather than
follow the rule, so each reading of ``xiangqi/core/chinese.pxd`` that changed a ruling gets
positions here that the book does not print: the book's pattern moved to other files,
played by the other colour, or built from the rule's definition. Each expected ruling is
derived by hand from the rule text (tests/data/chinese_rules/README.md) in the test's
docstring, never taken from the judge.
"""

from __future__ import annotations

import pytest

from xiangqi import Color, Position, Rules, Termination


def chinese_ruling(fen: str, moves: str) -> tuple[str, Termination]:
    """Play the cycle twice (its start then stands for the third time) and rule it."""
    pos = Position(fen)
    for _ in range(2):
        for text in moves.split():
            pos.push_iccs(text)
    assert pos.is_repetition(3)
    outcome = pos.outcome(rules=Rules.CHINESE)
    assert outcome is not None
    if outcome.winner is None:
        return "draw", outcome.termination
    loser = "black" if outcome.winner == Color.RED else "red"
    return f"{loser}-loses", outcome.termination


# Reading: a crossed pawn's value floats (1999 25.3 and 细则10; 2020 图24). It is worth
# more than an advisor or elephant and less than a rook; a pawn given for a horse or a
# cannon, or an advisor or elephant given for a pawn, is an even trade and wins nothing;
# a pawn given for a rook wins.


def test_a_pawn_sacrifice_that_wins_only_a_horse_is_idle_black_to_move() -> None:
    """图24 played by Black and mirrored to the other wing (the book does not print it).

    Black: rook a4, crossed pawn g0, king e9 with advisors d9 f9, elephants e7 g9, pawn
    e6. Red: king e0, rook e1, horse d0, pawns e4 i4. Black plays a4a0, Red e1d1, Black
    a0a4, Red d1e1.

    - a4a0: Black threatens g0f0+ (a crossed pawn checks from the side). Red's king must
      take it (e1 and d0 hold its own pieces; nothing else reaches f0), and Ra0xd0 then
      takes the unprotected horse. A pawn for a horse is an even trade (细则10), no gain,
      so no chase; the rook attacks nothing else: idle.
    - a0a4, with Red's rook on d1: Rxe4 would check down the open e-file; Red's only
      answer is to block with the rook on e1, then g0f0+ Kxf0 and Rxe1 win the rook. A
      pawn for a rook gains: a chase (将军得子).
    - Red's rook moves e1d1, d1e1 attack nothing: idle.

    Black chases once and idles once, Red idles: neither side is forbidden (1999 25.2),
    a draw. With a crossed pawn fixed at an advisor's value, a4a0 would be a chase (a
    horse less a pawn), Black's cycle all chases, and Black the loser.
    """
    got = chinese_ruling("3akab2/9/4b4/4p4/9/r3P3P/9/9/4R4/3NK1p2 b - - 0 1", "a4a0 e1d1 a0a4 d1e1")
    assert got == ("draw", Termination.REPETITION)


def test_a_pawn_sacrifice_that_wins_only_a_horse_is_idle_mirrored() -> None:
    """图24 mirrored file for file: Red rook a5, crossed pawn g9; Black king e9, horse
    d9, rook e8, pawns e5 and i5 (the book's pieces on the mirrored files).

    a5a9 threatens g9f9+ Kxf9 (forced: e8 holds Black's rook, d9 its horse) Rxd9: a pawn
    for a horse, even, idle. a9a5, with Black's rook on d8, attacks the e5 pawn: Rxe5+
    checks up the open e-file, Black must block with the rook on e8, and g9f9+ Kxf9
    Rxe8 wins it: a pawn for a rook, a chase. Black's rook moves e8d8, d8e8 attack
    nothing: idle. Both sides idle at least once: a draw.
    """
    got = chinese_ruling("3nk1P2/4r4/9/9/R3p3p/9/4P4/4B4/9/3AKAB2 w - - 0 1", "a5a9 e8d8 a9a5 d8e8")
    assert got == ("draw", Termination.REPETITION)


def test_a_built_pawn_sacrifice_for_a_horse_is_idle() -> None:
    """A position built from the reading (not a book diagram).

    Red: king e0, rook i6, crossed pawn c9. Black: king e9, horses e8 and f9, elephant
    a7, cannon a6. Red's rook goes i6i9 and back; Black's elephant a7c5 and back.

    - i9i6: the rook attacks the cannon on a6 along the empty sixth rank; nothing
      protects it (the elephant moves only diagonally, neither horse reaches a6). From
      i9 the rook did not attack it: a new chase.
    - i6i9: taking the horse on f9 directly wins nothing (the king takes back). The
      threat is c9d9+: the pawn checks from the side, the king cannot step to e8 or f9
      (its own horses) and nothing else reaches d9, so the king must take it; then the
      horse on f9 has no protector and the rook takes it. A pawn for a horse: an even
      trade (细则10), no gain. Nothing else is new: idle (and no mate by checks).
    - Black's elephant moves attack nothing new (on a7 it eyes the c9 pawn, which the
      horse on e8 attacks already): idle.

    Red chases once and idles once, Black idles: a draw. With a crossed pawn fixed at
    an advisor's value, i6i9 would chase too, and Red would lose (长捉).
    """
    got = chinese_ruling("2P1kn3/4n4/b8/c7R/9/9/9/9/9/4K4 w - - 0 1", "i6i9 a7c5 i9i6 c5a7")
    assert got == ("draw", Termination.REPETITION)


def test_a_built_pawn_sacrifice_for_a_rook_chases() -> None:
    """The same built position with a black rook on f9 instead of the horse.

    - i6i9: the rooks now attack each other, and taking the protected rook directly is
      only rook for rook. But c9d9+ forces Kxd9 as before, and the rook on f9, now
      unprotected, falls: a pawn for a rook gains. A piece the rook could not win from
      i6: a new chase.
    - i9i6: a new chase of the unprotected cannon on a6, as before.
    - Black's elephant moves: idle (the rooks' mutual attack is Red's doing, not new
      after Black's move).

    Every Red move chases (长捉, any number of pieces: 2020 24.11), Black idles: Red
    loses. Were a pawn for any piece counted even, i6i9 would be idle and this a draw.
    """
    got = chinese_ruling("2P1kr3/4n4/b8/c7R/9/9/9/9/9/4K4 w - - 0 1", "i6i9 a7c5 i9i6 c5a7")
    assert got == ("red-loses", Termination.PERPETUAL_CHASE)


# Reading: a mate threat (杀) is a move after which its side, moving again, mates by a
# check or a series of checks (2020 24.2) of at most three of its moves, every defence
# considered (README reading 3). And a chase must be new (1999 细则2, 细则6): the judge
# names a check that wins material (将军得子) by the pieces it wins, so a check that wins
# another piece than any it could win before is a new chase.


@pytest.mark.parametrize(
    ("fen", "moves", "loser"),
    [
        ("c3kab2/4a4/4b4/3N2R2/9/9/9/9/9/4K4 w - - 0 1", "g6h6 a9a8 h6g6 a8a9", "red-loses"),
        ("4k4/9/9/9/9/9/3n2r2/4B4/4A4/C3KAB2 b - - 0 1", "g3h3 a0a1 h3g3 a1a0", "black-loses"),
    ],
    ids=["red-threatens", "black-threatens"],
)
def test_a_built_perpetual_mate_threat_by_three_checks(fen: str, moves: str, loser: str) -> None:
    """A position built from the reading, and the same with the colours swapped.

    Red: king e0, horse d6, rook g6. Black: king e9, advisors e8 f9, elephants e7 g9,
    cannon a9. Red's rook shuttles g6h6, h6g6 along the sixth rank; Black's cannon
    a9a8, a8a9.

    - After either rook move, Red moving again mates by three checks: d6c8+ (the horse
      checks; the king's only square is d9, e8 and f9 hold its advisors), g6d6+ (or
      h6d6+: the rook checks down the d-file; the cannon cannot block on d8, the horse
      on c8 stands in its way, so the advisor blocks on d7), and the rook takes the
      advisor on d7 with mate. There is no mate in two (after d6c8+ Kd9 no single check
      mates). So each rook move is a mate threat (杀): Red threatens mate perpetually
      (长杀, 2020 24.10), a forbidden cycle.
    - The cannon moves attack nothing (along the ninth and eighth ranks the only screens
      are Black's own king and advisor, with nothing of Red's beyond them): idle.

    Red alone forbidden: Red loses. Searching mates in two only, the rook moves would be
    idle and the cycle a draw. Swapped colours (Black's horse d3 and rook g3 against
    Red's king e0), Black loses the same way.
    """
    assert chinese_ruling(fen, moves) == (loser, Termination.PERPETUAL_MATE_THREAT)


def test_a_mate_threat_by_three_checks_is_a_mate_threat() -> None:
    """图19 played by the other colours and mirrored (the book does not print it).

    Black (the book's Red): king e9, advisors d9 e8, elephants e7 g9, rooks f3 c0, pawn
    g5; Red: king f1, advisors d0 e1, cannons e2 f2, rook g6, horse b8, pawn c5. The
    cycle: Black f3e3, Red f2h2, Black e3f3 (check), Red h2f2 (blocking it).

    - Red's f2h2 is a mate threat: Red to move again mates in three checks and not in
      two: g6g9+ (the rook takes the elephant), and if the advisor blocks on f9, b8d7+
      Ke8 g9g8 mate; if the elephant takes back on g9, b8d7 mate. Red's h2f2 blocks
      the check and threatens mate again, now in one (b8d7 mate; the book: 长杀).
    - Black's moves: f3e3 chases (the book: 捉), e3f3 checks. 一将一捉 is forbidden.

    Both sides forbidden (1999 26.3): a draw. A search for mates in two only would see
    Red's cycle as idle and rule Black lost.
    """
    got = chinese_ruling(
        "3ak1b2/1N2a4/4b4/6R2/2P3p2/9/5r3/4CC3/4AK3/2rA5 b - - 0 1", "f3e3 f2h2 e3f3 h2f2"
    )
    assert got == ("draw", Termination.REPETITION)


def test_a_mate_threat_and_a_new_check_win_both_count() -> None:
    """参考图35 mirrored file for file (the book does not print it).

    Red: horse d6, rooks g6 i1, horse a2, pawn c3; Black: king e9, advisors e8 f9, rook
    d4, cannon g3, horse g7, rook i7. The cycle: Red d6f5, Black d4f4, Red f5d6, Black
    f4d4.

    - d6f5: the horse attacks the rook on d4 and the cannon on g3 (the book: a chase).
    - f5d6: a mate threat by three checks: d6c8+ Kd9, g6d6+ Ad7, d6xd7 mate (no mate
      in two exists). So Red's cycle is a chase and a mate threat: forbidden (一杀一捉).
    - f4d4 (Black, after the mate threat): Black, moving again, plays d4xd0+ (the rook
      takes the advisor with check), Kxd0, and g3xg6 takes the rook with the cannon
      over its pawn: an advisor won through a check. Before the move the same check
      won the other advisor (f4xf0+), never d0: a new piece, so a new chase. The book
      calls it a chase of the rook, real once the mate threat is parried, and so does
      reading 24: before the move g3xg6 (the cannon takes the g6 rook) is answered by a
      mate in five checks (d6c8+ Kd9, i1d1+ Rd4, d1xd4+ Cd6, d4xd6+ Ad7, d6xd7 mate:
      the library's checks-only mate solver finds it, and no mate at all once the rook
      stands on d4), so f4d4 makes the capture win a rook it did not win before: a new
      chase either way.
    - d4f4: the rook attacks the horse on f5, which nothing protects (the book: a chase).

    Both sides forbidden: a draw (1999 26.3), as the book rules 参考图35. Either reading
    alone gives one side alone forbidden: with mates in two only Red's f5d6 is idle and
    Black loses; with the check-win as a single yes/no, Black's f4d4 is no new chase
    (a check-win existed before) and Red loses.
    """
    got = chinese_ruling(
        "4kab2/4a4/4b1n1r/3N2R1p/6p2/3r5/2P3c1P/N3B4/8R/3AKAB2 w - - 0 1", "d6f5 d4f4 f5d6 f4d4"
    )
    assert got == ("draw", Termination.REPETITION)


# Issue 31. Reading: a pawn that has not crossed the river is no material, so never a
# chase target (1999 25.3: "帅(将)、未过河兵(卒)，不算子力"; 29.3: the target of a chase
# has material value).


def test_a_rook_attacking_pawns_at_home_in_turn_is_idle() -> None:
    """The issue's example. Black: king d9, rook a7. Red: king e0, advisors d0 f0,
    elephants c0 g0, pawns a3 i3 (on their own side of the river). Black a7i7 attacks
    the i3 pawn, i7a7 the a3 pawn; Red's advisor d0e1, e1d0 attacks nothing.

    Neither pawn has crossed: no material, no target; every move of both sides is idle,
    a draw (1999 26.2). Counting a pawn at home as a target, Black would chase with
    every move (長捉 of several pieces, 2020 24.11) and lose.
    """
    got = chinese_ruling("3k5/9/r8/9/9/9/P7P/9/9/2BAKAB2 b - - 0 1", "a7i7 d0e1 i7a7 e1d0")
    assert got == ("draw", Termination.REPETITION)


def test_a_rook_attacking_crossed_pawns_in_turn_chases() -> None:
    """The control: the same pattern with Red's pawns across the river (a6, i6), where
    nothing protects them. Each rook move (a3i3, i3a3) attacks an unprotected crossed
    pawn, material it could not take before: a new chase each time, 长捉 of several
    pieces (2020 24.11). Red's advisor moves are idle: Black loses."""
    got = chinese_ruling("3k5/9/9/P7P/9/9/r8/9/9/2BAKAB2 b - - 0 1", "a3i3 d0e1 i3a3 e1d0")
    assert got == ("black-loses", Termination.PERPETUAL_CHASE)


# Issue 31. Reading: a move that answers a check chases only what could not be taken
# before the check (2020 26.1.4): a capture that existed before the check, and was only
# made illegal by it, is not new when the answer makes it legal again.


def test_a_capture_that_existed_before_the_check_is_no_new_chase() -> None:
    """A position built from the clause. Red: king d0, rook a5, crossed pawn c5, horse
    h2. Black: king f9, cannon e5, horse g4. The cycle: Red a5a9 (check along the ninth
    rank), Black e5e9 (the cannon blocks), Red a9a5, Black e9e5.

    - a5a9: check. a9a5: the rook attacks nothing (the c5 pawn blocks the rank): idle.
    - e5e9: after the block the g4 horse may take the unprotected h2 horse again. It
      could before the check (with the rook on a5); in check the capture was illegal.
      Not new (2020 26.1.4): idle. The cannon's own attacks from e9 are pinned.
    - e9e5: the cannon attacks the a5 rook over the c5 pawn, which it did not from e9:
      a chase.

    Red: a check and an idle move; Black: an idle move and a chase. Both allowed, a
    draw. Judging the block against the position in check alone, e5e9 would chase the
    horse and Black, chasing with every move, would lose.
    """
    got = chinese_ruling("5k3/9/9/9/R1P1c4/6n2/9/7N1/9/3K5 w - - 0 1", "a5a9 e5e9 a9a5 e9e5")
    assert got == ("draw", Termination.REPETITION)


# Issue 31. Reading: a chase is a gain through the whole exchange on the target's square
# (1999 29.1 "通过完整交换过程得子"); a piece with fewer real protectors than attackers
# is under-protected (少根) and counts as unprotected (1999 28.16, 29.3).


@pytest.mark.parametrize(
    ("fen", "moves", "loser"),
    [
        ("5k3/9/9/1n5n1/2r6/2N3N2/9/9/9/2RK2R2 b - - 0 1", "c5g5 d0d1 g5c5 d1d0", "black-loses"),
        ("2rk2r2/9/9/9/2n3n2/2R6/1N5N1/9/9/5K3 w - - 0 1", "c4g4 d9d8 g4c4 d8d9", "red-loses"),
    ],
    ids=["black-chases", "red-chases"],
)
def test_a_rook_joining_a_horse_against_a_once_protected_horse_chases(
    fen: str, moves: str, loser: str
) -> None:
    """A position built from the clauses, and the same with the colours swapped.

    Red: king d0, rooks c0 g0, horses c4 g4. Black: king f9, horses b6 h6, rook c5.
    Black's rook shuttles c5g5, g5c5; Red's king d0d1, d1d0.

    - On g5 the rook joins the h6 horse against the g4 horse, which only the g0 rook
      protects. The whole exchange: the horse takes the horse, and if the g0 rook takes
      back the black rook takes it, so Red does not and Black is a horse up. A gain,
      and new (the h6 horse alone only trades horse for horse): a chase. On c5 the same
      against the c4 horse (the b6 horse and the c0 rook): a chase.
    - Red's king moves attack nothing: idle.

    Black chases with every move (长捉 of several pieces, 2020 24.11) and Red idles:
    Black loses. Judged one recapture deep, no rook move wins anything (a horse for a
    horse, or a rook for a horse) and the cycle is a draw.
    """
    assert chinese_ruling(fen, moves) == (loser, Termination.PERPETUAL_CHASE)


# Issue 31, item 4, as the book rules it. Reading: a move that attacks a piece of equal
# value which can take the mover back, when its side loses nothing by taking, offers an
# exchange (兑, 1999 28.5) and is idle, even when the attacked piece is unprotected and
# the mover protected: the book's 参考图5 and 参考图9 (长兑, both judged idle) are exactly
# that pattern. The reading (a chase: 1999 细则5 "捉兼兑按捉") would rule both
# of them against the book, so it is not taken (see the report of issue 31).


def test_offering_a_rook_to_an_unprotected_rook_is_an_exchange_offer() -> None:
    """A position built from the book's 长兑 pattern. Red: king d0, rooks a4 c4. Black:
    king e9 with advisors d9 f9 and elephant g9, rook b5, cannon a7. Red a4b4, Black
    e9e8, Red b4a4, Black e8e9. (With a bare black king the two rooks mate it by a
    series of four checks, which reading 25's deeper search sees as 杀; the palace
    pieces leave Red no mate by checks: the mate solver, checks only, finds none in
    13 plies.)

    - a4b4: the rook attacks the unprotected b5 rook and is itself attacked by it,
      protected by the c4 rook: if Black takes, Red takes back, rook for rook. An
      exchange offer (兑): idle, as the book judges 参考图9's rook moves.
    - b4a4: the rook attacks the unprotected a7 cannon (up the open a-file), which it
      did not from b4: a chase.
    - Black's king moves: idle.

    Red: an idle move and a chase, allowed; Black idle: a draw. Counted as a chase
    (捉兼兑), a4b4 would make Red's every move a chase, and Red would lose.
    """
    got = chinese_ruling("3akab2/9/c8/9/1r7/R1R6/9/9/9/3K5 w - - 0 1", "a4b4 e9e8 b4a4 e8e9")
    assert got == ("draw", Termination.REPETITION)


# Issue 31, the exchange offer and the whole exchange together. Reading 15 of the case
# README: a 少根 gain (1999 28.16, 29.1) that rests on an attacker of equal value which
# the target may take back at once without loss is an exchange offer (兑, 1999 28.5
# "走子可与同等子力互换吃去"): the target's side answers by the even exchange, so its
# root is a real one and nothing is chased. The book's 图21 and 参考图4 (both 兑) are that
# pattern; the positions below are built from the clauses, with the same pieces as the
# 少根 test above.


@pytest.mark.parametrize(
    ("fen", "moves"),
    [
        ("5k3/9/9/9/n1r5n/2N3N2/9/9/9/2RK2R2 b - - 0 1", "c5g5 d0d1 g5c5 d1d0"),
        ("2rk2r2/9/9/9/2n3n2/N1R5N/9/9/9/5K3 w - - 0 1", "c4g4 d9d8 g4c4 d8d9"),
    ],
    ids=["black-offers", "red-offers"],
)
def test_a_joint_attack_resting_on_a_like_piece_is_an_exchange_offer(fen: str, moves: str) -> None:
    """Red: king d0, rooks c0 g0, horses c4 g4. Black: king f9, horses a5 i5, rook c5.
    Black's rook shuttles c5g5, g5c5; Red's king d0d1, d1d0 (and the same with the
    colours swapped).

    - c5g5: the rook joins the i5 horse against the g4 horse, which only the g0 rook
      protects, as in the 少根 test above. But here the g4 horse attacks the i5 horse
      too (its leg h4 is free): Red, to move, takes it and the rook takes back, horse
      for horse. The gain rests on a like piece that the target may exchange evenly,
      and without that horse the rook alone wins nothing (the g0 rook takes back): an
      exchange offer (兑), idle. g5c5 is the same against the c4 horse (the a5 horse,
      the c0 rook). Red's king moves are idle: a draw.
    - Counted as 少根 chases (the whole exchange alone), every rook move would chase a
      new piece and the rook's side would lose; where the target cannot take the like
      piece back (the 少根 test above: the rook stands on the horse's leg) it does.
    """
    assert chinese_ruling(fen, moves) == ("draw", Termination.REPETITION)


# Issue 31, item 5 (图23). Reading 17 of the case README: a chase wins material (2020
# 24.3), so a capture that gives away more than it wins elsewhere, by opening a line to a
# stronger piece of its own (a pinned attacker, 被牵子捉子), wins nothing; a piece that
# is itself a root may still chase, though taking leaves what it protects (1999 细则4,
# 2020 图22), so only what the capture uncovers to a new attacker is counted.

PINNED_CANNON = "5k3/r8/9/9/9/2P3N2/c3P2N1/9/9/R2AK4 b - - 0 1"


@pytest.mark.parametrize(
    ("fen", "moves"),
    [
        (PINNED_CANNON, "a3a4 d0e1 a4a3 e1d0"),
        # The colours swapped: the board turned, pieces recoloured.
        ("r2ak4/9/9/C3p2n1/2p3n2/9/9/9/R8/5K3 w - - 0 1", "a6a5 d9e8 a5a6 e8d9"),
        # Mirrored to the i-file.
        ("3k5/8r/9/9/9/2N3P2/1N2P3c/9/9/4KA2R b - - 0 1", "i3i4 f0e1 i4i3 e1f0"),
    ],
    ids=["black", "red", "mirrored"],
)
def test_a_pinned_cannon_attacking_horses_in_turn_is_idle(fen: str, moves: str) -> None:
    """Built from the clause. Red: king e0, advisor d0, rook a0, horses h3 g4, pawns c4
    e3. Black: king f9, rook a8, cannon a3. Black's cannon shuttles a3a4, a4a3 on the
    file between Red's rook and its own; Red's advisor d0e1, e1d0.

    - On a3 the cannon attacks the h3 horse over the e3 pawn, on a4 the g4 horse over the
      c4 pawn; neither horse is protected. Taking either moves the cannon off the a-file,
      and Red's a0 rook then takes Black's unprotected a8 rook: a horse won, a rook lost.
      The capture loses more than it wins (图23: "lose the rook"), so neither move chases.
    - Red's advisor moves are idle.

    Both sides idle: a draw. Without the a0 rook every cannon move chases a new horse
    (2020 24.11) and Black loses: the test below.
    """
    assert chinese_ruling(fen, moves) == ("draw", Termination.REPETITION)


def test_the_same_cannon_unpinned_chases() -> None:
    """The position above without Red's a0 rook: taking a horse now costs nothing, so
    each cannon move attacks a new unprotected horse, a chase (2020 24.3, 24.11), and
    Black, chasing with every move, loses."""
    fen = PINNED_CANNON.replace("R2AK4", "3AK4")
    assert chinese_ruling(fen, "a3a4 d0e1 a4a3 e1d0") == (
        "black-loses",
        Termination.PERPETUAL_CHASE,
    )


# Issue 31, item 5 (参考图45). Reading 18 of the case README: a chase is by a piece. A move
# after which the moved piece can win a piece it could not win before chases, even when
# another piece of its side could already win that piece (1999 细则2: from no chase to a
# chase; 细则6: a piece that already chased and moves on chasing the same is idle, 从捉到捉).
# The book's 参考图45: Red's cannon i9g9 attacks the g5 elephant, which Red's f3 horse
# already attacks, and the book calls the cannon's move a chase of the elephant.


@pytest.mark.parametrize(
    ("fen", "moves", "loser"),
    [
        ("3aka1c1/9/4b4/n1R3R1n/9/9/P3P3P/9/C8/3K5 w - - 0 1", "a1i1 h9h8 i1a1 h8h9", "red-loses"),
        # The colours swapped, and mirrored file for file.
        (
            "3k5/c8/9/p3p3p/9/9/N1r3r1N/4B4/9/3AKA1C1 b - - 0 1",
            "a8i8 h0h1 i8a8 h1h0",
            "black-loses",
        ),
        ("1c1aka3/9/4b4/n1R3R1n/9/9/P3P3P/9/8C/5K3 w - - 0 1", "i1a1 b9b8 a1i1 b8b9", "red-loses"),
    ],
    ids=["red", "black", "mirrored"],
)
def test_a_second_attacker_on_an_already_attacked_piece_chases(
    fen: str, moves: str, loser: str
) -> None:
    """Built from the clause. Red: king d0, cannon a1, pawns a3 e3 i3, rooks c6 g6.
    Black: king e9, advisors d9 f9, elephant e7, horses a6 i6, cannon h9. Red's cannon
    shuttles a1i1, i1a1 along rank 1; Black's cannon h9h8, h8h9.

    - The c6 rook attacks the unprotected a6 horse and the g6 rook the unprotected i6
      horse all along. On i1 the cannon attacks the i6 horse over the i3 pawn, which it
      did not from a1; on a1 the a6 horse over the a3 pawn, which it did not from i1.
      Each move starts a chase by the cannon: a chase, though a rook already attacks
      the horse (参考图45).
    - Black's cannon moves attack nothing: idle.

    Red chases with every move, one horse then the other (长捉 of several pieces, 2020
    24.11), Black idles: Red loses. Judged by the target alone (a horse already won is
    not won anew), every cannon move would be idle and the cycle a draw.
    """
    assert chinese_ruling(fen, moves) == (loser, Termination.PERPETUAL_CHASE)


@pytest.mark.parametrize(
    ("fen", "moves", "loser"),
    [
        ("9/5k3/9/9/9/9/9/1r7/9/1C2K4 w - - 0 1", "b0c0 b2c2 c0b0 c2b2", "black-loses"),
        # The colours swapped, and mirrored file for file.
        ("1c2k4/9/1R7/9/9/9/9/9/5K3/9 b - - 0 1", "b9c9 b7c7 c9b9 c7b7", "red-loses"),
        ("9/3k5/9/9/9/9/9/7r1/9/4K2C1 w - - 0 1", "h0g0 h2g2 g0h0 g2h2", "black-loses"),
    ],
    ids=["black", "red", "mirrored"],
)
def test_a_rook_following_a_cannon_chases_though_a_check_already_won_it(
    fen: str, moves: str, loser: str
) -> None:
    """From a steered game (seed 11). Red: king e0, cannon b0. Black: king f8, rook b2.
    Red's cannon steps b0c0, c0b0; Black's rook follows it, b2c2, c2b2.

    - b2c2: the rook attacks the unprotected cannon on c0 down the open c-file; from b2
      it did not. c2b2: the same against the cannon back on b0. Before each rook move
      Black could already win the cannon through a check (Rc0+ or Rb0+ along rank 0,
      the king steps aside, the rook takes the cannon beside it), but the rook's attack
      on the cannon is a new chase by that piece (reading 18; 2020 图30's variation,
      where the rook's retreat chases a horse that a check could already win).
    - Red's cannon moves attack nothing: idle.

    Black chases the cannon with every move (长捉), Red idles: Black loses. Counting the
    win through the check as the chase already made, every rook move would be idle and
    the cycle a draw.
    """
    assert chinese_ruling(fen, moves) == (loser, Termination.PERPETUAL_CHASE)


# Issue 31, item 5 (图2). Reading 14 of the case README, extended: a piece offered for a
# like one (兑, 1999 28.5) is idle also when its capture of that piece would give check.
# The book's 图2: Black's rook i9h9 faces Red's unprotected h0 rook down the open h-file,
# protected by the g7 horse; taking the h0 rook would check the e0 king along rank 0, and
# the book calls the move 兑, not a chase through a check (将军得子).


@pytest.mark.parametrize(
    ("fen", "moves"),
    [
        (
            "rnbakabnr/9/4c4/p1p1p1p1p/1C7/P8/2P1P1PcP/7C1/9/RNBAKABNR b - - 0 1",
            "e7h7 b5e5 h7e7 e5b5",
        ),
        # The colours swapped, and mirrored file for file.
        (
            "rnbakabnr/9/7c1/2p1p1pCp/p8/1c7/P1P1P1P1P/4C4/9/RNBAKABNR w - - 0 1",
            "e2h2 b4e4 h2e2 e4b4",
        ),
        (
            "rnbakabnr/9/4c4/p1p1p1p1p/7C1/8P/PcP1P1P2/1C7/9/RNBAKABNR b - - 0 1",
            "e7b7 h5e5 b7e7 e5h5",
        ),
    ],
    ids=["black", "red", "mirrored"],
)
def test_a_cannon_offered_for_a_cannon_is_idle_though_taking_would_check(
    fen: str, moves: str
) -> None:
    """From a steered game (seed 11). Red: cannons b5 h2, the other pieces at home (the
    pawns on a4 c3 e3 g3 i3). Black: cannons e7 h3, the other pieces at home. Black's
    cannon e7h7, h7e7; Red's cannon b5e5, e5b5.

    - e7h7: the cannon attacks Red's h2 cannon over Black's h3 cannon; nothing of Red's
      reaches h2, so it is unprotected: a chase.
    - b5e5: with the e7 cannon gone, the cannon checks over the e6 pawn: a check.
    - h7e7 answers the check by blocking. The cannon attacks the e5 cannon over the e6
      pawn and is attacked back over it; if Red takes, an elephant takes back: a cannon
      for a cannon, offered (兑, 1999 28.5: idle). That Black's capture of the e5 cannon
      would check the e0 king (over the e3 pawn) does not make it a win through a
      check: it is the same cannon for a cannon (图2).
    - e5b5: the cannon attacks nothing: idle.

    Each side has an idle move: a draw. Counting the capture with check as a win, Black's
    every move would chase and Black would lose.
    """
    assert chinese_ruling(fen, moves) == ("draw", Termination.REPETITION)


# The third push: readings 21-25 of the case README. Each cycle is played as built, with
# the colours swapped (board turned, pieces recoloured) and mirrored file for file; the
# loser's colour swaps with the colours.

FILES = "abcdefghi"


def _turned(fen: str, moves: str) -> tuple[str, str]:
    board, side, *rest = fen.split()
    rows = [row.swapcase() for row in reversed(board.split("/"))]
    turned = " ".join(["/".join(rows), "b" if side == "w" else "w", *rest])
    return turned, " ".join(f"{m[0]}{9 - int(m[1])}{m[2]}{9 - int(m[3])}" for m in moves.split())


def _mirrored(fen: str, moves: str) -> tuple[str, str]:
    board, *rest = fen.split()
    rows = []
    for row in board.split("/"):
        cells = "".join("." * int(ch) if ch.isdigit() else ch for ch in row)[::-1]
        packed, run = "", 0
        for ch in cells:
            if ch == ".":
                run += 1
                continue
            packed += (str(run) if run else "") + ch
            run = 0
        rows.append(packed + (str(run) if run else ""))
    swap = {f: FILES[8 - i] for i, f in enumerate(FILES)}
    return " ".join(["/".join(rows), *rest]), " ".join(
        f"{swap[m[0]]}{m[1]}{swap[m[2]]}{m[3]}" for m in moves.split()
    )


def _four_ways(fen: str, moves: str, verdict: str) -> list[tuple[str, str, str]]:
    other = {"draw": "draw", "red-loses": "black-loses", "black-loses": "red-loses"}
    out = []
    for f, m in ((fen, moves), _mirrored(fen, moves)):
        out.append((f, m, verdict))
        out.append((*_turned(f, m), other[verdict]))
    return out


FOUR_WAYS = ["built", "turned", "mirrored", "mirrored-turned"]


# Reading 22 (1999 28.5 兑 "互换吃去", 细则5 and 细则12 "捉子兼具兑、献、送吃也按捉处理"): a
# moved piece is offered for a like one only when the opponent's capture of it is an
# even trade. One the opponent may take for nothing is given away (送吃), and its attack
# on an unprotected like piece is a chase.


@pytest.mark.parametrize(
    ("fen", "moves", "verdict"),
    _four_ways(
        "3k1a3/9/4bNRr1/9/p5bP1/9/9/3A5/1r7/2BAK1B2 w - - 0 1", "g7g8 h7h8 g8g7 h8h7", "black-loses"
    ),
    ids=FOUR_WAYS,
)
def test_a_rook_following_a_rook_while_unprotected_chases(
    fen: str, moves: str, verdict: str
) -> None:
    """Red: rook g7, horse f7, advisor d2, king e0. Black: rook h7 beside it, king d9,
    advisor f9, elephants e7 g5, rook b1. Red's rook steps g7g8, g8g7 and Black's h7
    rook follows it (h7h8, h8h7), each time next to it.

    - Black's h8 (h7) rook attacks Red's rook beside it, which nothing of Red's protects
      (the f7 horse reaches h8 and h6, not g8 or g7). Red may take the black rook for
      nothing: no black piece reaches h8 or h7 (the f9 advisor stays in the palace), and
      the f7 horse attacks h8 too. So the rook is not offered for exchange (no trade:
      Red would not lose its rook), it is given away while it attacks an unprotected
      rook: 细则5 and 细则12 make that a chase, every Black move.
    - Red's rook moves: from g8 and g7 the rook attacks the black rook that follows it
      after Black's move, not after its own; g8 and g7 attack the g5 elephant, which
      the e7 elephant protects: nothing new is won, idle.

    Black chases with every move (长捉), Red idles: Black loses. Ruled an exchange offer
    (the book's 参考图5 and 9 have a protected mover), it was a draw.
    """
    assert chinese_ruling(fen, moves) == (verdict, Termination.PERPETUAL_CHASE)


def test_a_protected_rook_offered_for_an_unprotected_one_stays_idle() -> None:
    """The 长兑 test above (reading 14) is unchanged by reading 22: there the c4 rook
    protects the offered rook, so Black's capture is rook for rook, an even trade."""
    got = chinese_ruling("3akab2/9/c8/9/1r7/R1R6/9/9/9/3K5 w - - 0 1", "a4b4 e9e8 b4a4 e8e9")
    assert got == ("draw", Termination.REPETITION)


# Reading 23 (1999 29.1-29.2, 细则6): a check wins material for the chase only when
# every reply loses something not already won through a check before the move; the
# defender chooses the reply, so a piece lost after one reply only is not won.


@pytest.mark.parametrize(
    ("fen", "moves", "verdict"),
    _four_ways("2ba1k3/4a4/4b4/9/2n6/2C4R1/9/9/4A4/4KA3 w - - 0 1", "h4h9 e7g9 h9h4 g9e7", "draw"),
    ids=FOUR_WAYS,
)
def test_a_check_that_wins_a_piece_after_one_reply_only_is_idle(
    fen: str, moves: str, verdict: str
) -> None:
    """Red: king e0, advisors e1 f0, cannon c4, rook h4 (h9 and back). Black: king f9,
    advisors d9 e8, elephants c9 e7 (e7g9 and back), horse c5.

    - Throughout, Cxc9+ (over the c5 horse, then checking along rank 9 over the d9
      advisor) wins the c9 elephant through a check.
    - h4h9 checks along rank 9; e7g9 blocks (idle).
    - h9h4: Rf4+ follows. Black may block with the e8 advisor on f7, which the rook then
      takes, or step Ke9, after which only Cxc9+ wins the elephant (already won through
      a check before the move). No piece is lost after every reply that no check won
      before: no new chase, idle.
    - g9e7: idle.

    Red checks once and idles once, Black idles: a draw. Counting the union of the
    replies' losses (the advisor after the block), h9h4 was a chase, Red's cycle a
    check and a chase (一将一捉), and Red lost.
    """
    assert chinese_ruling(fen, moves) == (verdict, Termination.REPETITION)


# Reading 21 (1999 25.3 "未过河兵(卒)不算子力"): a pawn at home is no material inside an
# exchange either (it was counted as half an advisor there).


@pytest.mark.parametrize(
    ("fen", "moves", "verdict"),
    _four_ways(
        "r1ba1kb2/1n7/3a5/4p3p/pCp3P2/N1P6/P3P3P/4B4/8N/1R1AKABc1 b - - 0 1",
        "h0h4 b5b6 h4h0 b6b5",
        "draw",
    ),
    ids=FOUR_WAYS,
)
def test_an_exchange_that_ends_on_a_pawn_at_home_wins_nothing(
    fen: str, moves: str, verdict: str
) -> None:
    """Black's cannon h0h4 attacks Red's a4 horse over the c4 pawn. The whole exchange
    there: Cxa4 (a horse), the a3 pawn takes back (a cannon), the a5 pawn takes that
    pawn (a pawn at home: nothing). A horse for a cannon is even: no gain, idle; h4h0
    and Red's cannon moves b5b6, b6b5 win nothing either. A draw. Counting the home pawn
    as half an advisor, h0h4 won it and was a chase."""
    assert chinese_ruling(fen, moves) == (verdict, Termination.REPETITION)


# Reading 24 (1999 29.4, 细则7): a capture after which the other side mates (at once or
# by a series of checks of at most three moves) wins nothing, so threatening it is idle.


@pytest.mark.parametrize(
    ("fen", "moves", "verdict"),
    _four_ways("9/6R2/4bk3/9/5Pc2/6n2/8R/9/9/3AK4 w - - 0 1", "g8g6 g4e3 g6g8 e3g4", "red-loses"),
    ids=FOUR_WAYS,
)
def test_a_chase_whose_capture_allows_mate_is_idle(fen: str, moves: str, verdict: str) -> None:
    """Red: rooks g8 (g6 and back) and i3, pawn f5, advisor d0, king e0. Black: king f7,
    elephant e7, cannon g5, horse g4 (e3 and back).

    - From g4 the horse attacks the unprotected i3 rook; but after Nxi3 Red plays f5f6,
      mate (the pawn checks the f7 king, whose squares e8, f8 and g7 the g8 rook and the
      pawn hold). A capture answered by mate wins nothing: e3g4 is idle, and g4e3
      attacks nothing.
    - Red's rook moves each threaten mate in one: after g8g6, g6f6; after g6g8, f5f6
      (the library's mate solver, checks only, finds these and only mates in one). Red's
      every move is a mate threat: 长杀.

    Red is forbidden, Black idles: Red loses. Counting the horse's threat as a chase
    made both sides forbidden, a draw.
    """
    got = chinese_ruling(fen, moves)
    assert got[0] == verdict


# Reading 25 (2020 24.2: 杀 by a check or a series of checks, no limit on their number;
# the book's 图7 is a four-check mate): the judge searches three checking moves always,
# then deeper, move by move, within a node budget.


@pytest.mark.parametrize(
    ("fen", "moves", "verdict"),
    _four_ways(
        "C1bakr3/4a4/4b3R/4P4/9/2B6/1r7/B8/cp6R/4K4 b - - 0 1", "b3d3 i7i8 d3b3 i8i7", "black-loses"
    ),
    ids=FOUR_WAYS,
)
def test_a_mate_threat_by_four_checks_is_a_mate_threat(fen: str, moves: str, verdict: str) -> None:
    """Black: rook b3 (d3 and back), rook f9, cannon a1, pawn b1, king e9. Red: king e0,
    rooks i7 (i8 and back) and i1, cannon a9, pawn e6, elephants c4 a2.

    - b3d3 threatens mate by two checks: Rd0+ Kxd0 Rf0 mate.
    - d3b3: the mate now takes four checks, every defence considered: Re3+ (the c4
      elephant blocks on e2) Rxe2+ (the i1 rook blocks on e1) Rxe1+ Kd0 Rf0 mate (the
      library's mate solver, checks only, finds it and no shorter). A mate threat all
      the same: 24.2 sets no limit on the checks.
    - Red's rook moves i7i8, i8i7 attack the e8 advisor (the king protects it) or the e7
      elephant (the c9 elephant protects it), and Red has no mate by checks (the solver
      finds none in 11 plies): idle.

    Black threatens mate with every move (长杀), Red idles: Black loses. Searching three
    checks only, d3b3 was idle and the cycle a draw.
    """
    got = chinese_ruling(fen, moves)
    assert got[0] == verdict
