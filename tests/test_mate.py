"""Forced mates (Position.find_mate, xiangqi.find_mates), compositions and puzzles.

Expected values come from outside the search: the lengths of the xiangqibench 0.1.1 suite
(tests/data/xiangqibench, verified by Pikafish according to the suite), hand-checked tiny
positions, a brute-force mate search over pyffish's move lists (Fairy-Stockfish's rules as
a library: a second algorithm and a second movement model), and pyffish's legal moves for
the composition pawns. Fairy-Stockfish's own `go mate` is in tests/test_mate_oracle.py.
"""

from __future__ import annotations

import _thread
import io
import json
import pickle
import threading
from pathlib import Path

import pyffish
import pytest

import xiangqi
from xiangqi import InvalidFenError, Move, Position, SearchLimitReached, Status, _core
from xiangqi.__main__ import main
from xiangqi.notation import iccs
from xiangqi.puzzles import Puzzle, position_of, read_csv, read_games, read_jsonl, verify

DATA = Path(__file__).parent / "data"
CASES_FILE = DATA / "xiangqibench" / "cases.jsonl"
CASES = [json.loads(line) for line in CASES_FILE.read_text().splitlines() if line.strip()]

#: Red mates in one only with a7a9 (hand-checked: the king's e8 is covered by the rook on
#: h8, d9 by the rook on a9 and the flying general on d0, f9 by the rook through e9).
ROOK_MATE = "4k4/7R1/R8/9/9/9/9/9/9/3K5 w - - 0 1"
#: Red wins in one without check (困毙): after c7c8 or c7d7 Black's king on d9 has no move
#: (d8 covered by the pawn, e9 by the flying general on e0); Red has no check at all.
NO_MOVE_WIN = "3k5/9/2P6/9/9/9/9/9/9/4K4 w - - 0 1"
#: Red mates in 2 moves (3 plies); from tests/test_engine_fairy.py.
MATE_IN_TWO = "3k5/8P/9/7R1/9/4H4/9/9/6p2/4KA3 w - - 0 1"
#: King and pawn against king and advisors: no mate within 9 plies.
NO_MATE = "3aka3/9/9/9/9/4P4/9/9/9/3K5 w - - 0 1"
#: xiangqibench cases with a Black pawn on its own back rank (compositions).
PAWN_BEHIND = {
    c["id"]: c for c in CASES if c["id"] in ("xq_jianghu_endgames_327", "xq_jianghu_endgames_084")
}


def line_text(line: list[Move] | None) -> list[str] | None:
    return None if line is None else [str(move) for move in line]


def ranks1(fen: str, moves: list[str]) -> list[str]:
    pos = position_of(fen)
    out = []
    for text in moves:
        move = Move.from_iccs(text)
        out.append(iccs(move, "ranks1"))
        pos.push(move)
    return out


def pyffish_mates(fen: str, plies: int, checks_only: bool = False, moves: tuple = ()) -> bool:
    """Brute force over pyffish's legal moves: can the side to move mate within plies
    (odd)? A side with no legal move has lost."""
    for move in pyffish.legal_moves("xiangqi", fen, list(moves)):
        after = (*moves, move)
        if checks_only and not pyffish.gives_check("xiangqi", fen, list(after)):
            continue
        replies = pyffish.legal_moves("xiangqi", fen, list(after))
        if not replies:
            return True
        if plies >= 3 and all(
            pyffish_mates(fen, plies - 2, checks_only, (*after, reply)) for reply in replies
        ):
            return True
    return False


def replay_keys(fen: str, line: list[Move]) -> tuple[Position, list[int]]:
    pos = position_of(fen)
    keys = [pos.zobrist_hash()]
    for move in line:
        assert pos.is_legal(move), (fen, move)
        pos.push(move)
        keys.append(pos.zobrist_hash())
    return pos, keys


# -- the xiangqibench suite --------------------------------------------------------


def test_suite_file_is_the_published_one() -> None:
    assert len(CASES) == 119
    assert sorted({c["win_in_plies"] for c in CASES}) == [3, 5, 7, 9, 11]
    assert (DATA / "xiangqibench" / "LICENSE").read_text().startswith("MIT License")


#: The cases whose search or brute-force check takes over a second here (measured with
#: `pytest --durations`): they run in the slow stage, the rest in the default run.
_SLOW_IDS = {
    "xq_shi_qing_ya_qu_012",
    "xq_shi_qing_ya_qu_065",
    "xq_shi_qing_ya_qu_117",
    "xq_shi_qing_ya_qu_189",
    "xq_shi_qing_ya_qu_190",
    "xq_shi_qing_ya_qu_232",
    "xq_shi_qing_ya_qu_251",
    "xq_shi_qing_ya_qu_398",
    "xq_shi_qing_ya_qu_402",
}


def _by_speed(cases: list[dict]) -> list:
    return [pytest.param(c, marks=pytest.mark.slow) if c["id"] in _SLOW_IDS else c for c in cases]


@pytest.mark.parametrize("case", _by_speed(CASES), ids=[c["id"] for c in CASES])
def test_suite_case_is_solved_at_its_length(case: dict) -> None:
    plies = case["win_in_plies"]
    pos = position_of(case["fen"])
    line = pos.find_mate(plies)
    assert line is not None and len(line) == plies
    # The line is played out: legal, never repeating a position, ending with no move.
    end, keys = replay_keys(case["fen"], line)
    assert len(set(keys[0::2])) == len(keys[0::2]) and len(set(keys[1::2])) == len(keys[1::2])
    assert not end.has_legal_moves()
    # The proof that no shorter mate exists, asked for on its own.
    if plies > 1:
        assert pos.find_mate(plies - 2) is None
    assert pos.fen() == position_of(case["fen"]).fen()  # the search changed nothing


# -- small positions with hand-checked or brute-forced answers ---------------------


def test_rook_mate_in_one_is_the_expected_move() -> None:
    assert line_text(Position(ROOK_MATE).find_mate(1)) == ["a7a9"]
    assert line_text(Position(ROOK_MATE).find_mate(5, checks_only=True)) == ["a7a9"]


def test_a_side_without_a_move_loses_even_out_of_check() -> None:
    pos = Position(NO_MOVE_WIN)
    assert line_text(pos.find_mate(1)) in (["c7c8"], ["c7d7"])
    assert pos.find_mate(1, checks_only=True) is None
    assert pyffish_mates(NO_MOVE_WIN, 1) and not pyffish_mates(NO_MOVE_WIN, 1, checks_only=True)


def test_the_attacker_without_a_move_has_no_mate() -> None:
    # Black to move in the position above after c7c8: no legal move, so no mate.
    pos = Position("3k5/2P6/9/9/9/9/9/9/9/4K4 b - - 0 1")
    assert not pos.has_legal_moves()
    assert pos.find_mate(9) is None


@pytest.mark.slow
@pytest.mark.parametrize("fen", [ROOK_MATE, NO_MOVE_WIN, MATE_IN_TWO, NO_MATE])
@pytest.mark.parametrize("checks_only", [False, True])
def test_agrees_with_a_brute_force_search_over_pyffish(fen: str, checks_only: bool) -> None:
    pos = Position(fen)
    for plies in (1, 3):
        line = pos.find_mate(plies, checks_only=checks_only)
        assert (line is not None) == pyffish_mates(fen, plies, checks_only), plies


@pytest.mark.slow
@pytest.mark.parametrize(
    "case", [c for c in CASES if c["win_in_plies"] <= 3], ids=lambda c: c["id"]
)
def test_short_suite_cases_agree_with_pyffish(case: dict) -> None:
    fen = case["fen"]
    line = position_of(fen).find_mate(case["win_in_plies"])
    assert line is not None
    assert pyffish_mates(fen, len(line)) and not pyffish_mates(fen, len(line) - 2)


#: The 7-ply cases in the slow volume: every third of the 27 (pyffish's brute force over
#: all 27 takes about 5 minutes; a third of them keeps CI's slow stage short).
_SEVEN = [c for c in CASES if c["win_in_plies"] == 7][::3]


@pytest.mark.parametrize(
    "case",
    _by_speed([c for c in CASES if c["win_in_plies"] <= 5])
    + [pytest.param(c, marks=pytest.mark.slow) for c in _SEVEN],
    ids=lambda c: c["id"],
)
def test_checks_only_agrees_with_pyffish(case: dict) -> None:
    # The 7-ply cases sampled above are in the slow volume.
    # Complete within the restriction: a checking mate exists exactly when pyffish's
    # brute force over checks finds one, at the stated length and two plies shorter.
    fen, plies = case["fen"], case["win_in_plies"]
    pos = position_of(fen)
    for length in (plies - 2, plies):
        found = pos.find_mate(length, checks_only=True)
        assert (found is not None) == pyffish_mates(fen, length, checks_only=True), length


# -- repetitions: a defender may not hold by perpetual check --------------------------

#: The position before Red's 53rd move of a master game (../shared/data/ccpd-big5,
#: master-088.pgn: the Chinese Chess Practical Dataset, CC BY 4.0, (c) 2026 Yu-Han Tseng).
#: Black checks with its horses (e0f0 f2h1 f0e0 h1f2 returns to the start). The rules end
#: the game only at a position's third occurrence, so Black may run the cycle once more
#: before a third would lose it by perpetual check: the 13-ply mate a search finds when it
#: cuts the defender's checks at the second occurrence (as Fairy-Stockfish's search
#: does) is refuted by the rules (tests/test_mate_repetition.py, by brute force).
PERPETUAL_DEFENCE = "3ak4/5P3/9/3N2N2/9/9/P3p4/5n1n1/9/3AK4 w - - 2 53"


def check_repetitions(fen: str, line: list[Move]) -> int:
    """Replay line; no position may stand a third time, and every position the
    attacker's move repeats must close a cycle in which every defender move gave check
    and not every attacker move did (the defender's perpetual check, which it must
    leave before a third occurrence; the defender's own second occurrences end
    nothing). The attacker's repeats' count."""
    pos = position_of(fen)
    keys, checks = [pos.zobrist_hash()], [False]
    repeats = 0
    for ply, move in enumerate(line, 1):
        pos.push(move)
        keys.append(pos.zobrist_hash())
        checks.append(pos.is_check())
        earlier = [j for j in range(ply - 2, -1, -2) if keys[j] == keys[ply]]
        assert len(earlier) < 2, "a third occurrence ends the game"
        if earlier and ply % 2 == 1:
            first = earlier[0]
            cycle = range(first + 1, ply + 1)
            assert all(checks[p] for p in cycle if p % 2 == 0)
            assert not all(checks[p] for p in cycle if p % 2 == 1)
            repeats += 1
    return repeats


def test_a_defender_checking_is_not_mated_within_eleven_plies() -> None:
    # Cutting the defender's checks earlier (the old search) found no mate within 11
    # plies; letting it repeat once more can only resist longer.
    assert Position(PERPETUAL_DEFENCE).find_mate(11) is None


def test_the_games_history_counts_for_a_perpetual_check() -> None:
    # Halfway through the second cycle of checks: with the game's history the positions
    # ahead stand twice already (a third occurrence ends the game), from the FEN alone
    # not at all. The search answers as the brute force by the rules
    # (test_mate_game_end.mates_within) on both.
    from test_mate_game_end import mates_within

    pos = Position(PERPETUAL_DEFENCE)
    for text in "e0f0 f2h1 f0e0 h1f2 e0f0 f2h1".split():
        pos.push(Move.from_iccs(text))
    for game in (pos, Position(pos.fen())):
        for plies in (3, 5):
            assert (game.find_mate(plies) is not None) == mates_within(game, plies)


@pytest.mark.slow
def test_every_suite_line_repeats_only_where_the_defender_checked_perpetually() -> None:
    for case in CASES:
        line = position_of(case["fen"]).find_mate(case["win_in_plies"])
        assert line is not None
        check_repetitions(case["fen"], line)


def test_no_mate_is_proven() -> None:
    assert Position(NO_MATE).find_mate(9) is None
    assert Position().find_mate(3) is None
    assert Position(MATE_IN_TWO).find_mate(1) is None
    assert len(Position(MATE_IN_TWO).find_mate(99) or []) == 3


def test_even_lengths_search_the_odd_length_below() -> None:
    assert Position(MATE_IN_TWO).find_mate(2) is None
    assert len(Position(MATE_IN_TWO).find_mate(4) or []) == 3


# -- node limit and arguments -------------------------------------------------------


def test_node_limit_gives_a_distinct_answer() -> None:
    hard = next(c for c in CASES if c["id"] == "xq_shi_qing_ya_qu_402")
    pos = position_of(hard["fen"])
    with pytest.raises(SearchLimitReached) as caught:
        pos.find_mate(11, node_limit=1000)
    assert caught.value.nodes >= 1000 and 0 <= caught.value.proven_plies < 11
    assert not isinstance(caught.value, ValueError)
    assert pickle.loads(pickle.dumps(caught.value)).nodes == caught.value.nodes
    answers = xiangqi.find_mates([pos, ROOK_MATE], 11, node_limit=1000)
    assert isinstance(answers[0], SearchLimitReached)
    assert line_text(answers[1]) == ["a7a9"]  # type: ignore[arg-type]
    # A limit large enough changes nothing.
    assert len(pos.find_mate(11, node_limit=10**9) or []) == 11


def test_a_stopped_proof_number_search_says_how_far_it_has_proven() -> None:
    # From 9 plies on the deepening and df-pn take turns; a search stopped there used to
    # say 0 plies proven however far the deepening had got. The suite's length (11,
    # verified by Pikafish) bounds what can be true; the full-width search alone, a
    # second algorithm, confirms the claim.
    hard = next(c for c in CASES if c["id"] == "xq_shi_qing_ya_qu_402")
    pos = position_of(hard["fen"])
    with pytest.raises(SearchLimitReached) as caught:
        pos.find_mate(11, node_limit=100_000)
    proven = caught.value.proven_plies
    assert 3 <= proven < hard["win_in_plies"] and proven % 2 == 1
    status, line, _, _ = _core.find_mate(pos._board, proven, False, None, None, 64, "id")
    assert (status, line) == (0, None)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"max_plies": 0}, ValueError),
        ({"max_plies": 100}, ValueError),
        ({"max_plies": -1}, ValueError),
        ({"max_plies": 2**70}, ValueError),
        ({"max_plies": 1.0}, TypeError),
        ({"max_plies": True}, TypeError),
        ({"max_plies": "3"}, TypeError),
        ({"max_plies": 3, "checks_only": 1}, TypeError),
        ({"max_plies": 3, "node_limit": 0}, ValueError),
        ({"max_plies": 3, "node_limit": 1.5}, TypeError),
        ({"max_plies": 3, "node_limit": False}, TypeError),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict, error: type[Exception]) -> None:
    pos = Position(ROOK_MATE)
    plies = kwargs.pop("max_plies")
    with pytest.raises(error):
        pos.find_mate(plies, **kwargs)
    with pytest.raises(error):
        xiangqi.find_mates([pos], plies, **kwargs)
    assert pos.fen() == ROOK_MATE


def test_find_mates_refuses_bad_batches() -> None:
    with pytest.raises(ValueError):
        xiangqi.find_mates([ROOK_MATE], 3, threads=0)
    with pytest.raises(TypeError):
        xiangqi.find_mates([ROOK_MATE], 3, threads=1.0)
    with pytest.raises(TypeError):
        xiangqi.find_mates([42], 3)
    with pytest.raises(InvalidFenError):
        xiangqi.find_mates(["not a fen"], 3)
    # The error names which position of the batch it is.
    with pytest.raises(InvalidFenError, match=r"^positions\[1\]: expected 6 fields"):
        xiangqi.find_mates([ROOK_MATE, "not a fen"], 3)
    diagram = Position.from_diagram("4k4/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1")  # Black in check
    with pytest.raises(ValueError):
        diagram.find_mate(3)
    with pytest.raises(ValueError):
        xiangqi.find_mates([diagram], 3)


@pytest.mark.slow
def test_find_mates_matches_one_at_a_time() -> None:
    cases = CASES[:24]
    positions = [position_of(c["fen"]) for c in cases]
    batch = xiangqi.find_mates(positions, 11, threads=2)
    assert [len(line or []) for line in batch] == [c["win_in_plies"] for c in cases]  # type: ignore[arg-type]
    assert xiangqi.find_mates([], 5) == []
    assert xiangqi.find_mates([NO_MATE, MATE_IN_TWO], 3, threads=1)[0] is None


def test_ctrl_c_stops_the_search() -> None:
    # The node limit only keeps a broken poll from hanging the test (it would fail instead).
    timer = threading.Timer(0.2, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            Position().find_mate(15, node_limit=10**8)
    finally:
        timer.cancel()


# -- compositions ------------------------------------------------------------------


@pytest.mark.parametrize("case", list(PAWN_BEHIND.values()), ids=list(PAWN_BEHIND))
def test_compositions_with_a_pawn_behind_its_start_rank(case: dict) -> None:
    fen = case["fen"]
    with pytest.raises(InvalidFenError, match="behind its start rank"):
        Position(fen)
    with pytest.raises(InvalidFenError):
        Position.from_diagram(fen)
    pos = Position.from_diagram(fen, composition=True)
    assert pos.status() == Status.PAWN_OFF_POINTS and not pos.is_valid()
    assert len(pos.find_mate(case["win_in_plies"]) or []) == case["win_in_plies"]
    # Black's moves (the pawn on its back rank steps forward) are pyffish's.
    black = fen.replace(" w ", " b ")
    moves = Position.from_diagram(black, composition=True).legal_moves
    assert sorted(iccs(m, "ranks1") for m in moves) == sorted(
        pyffish.legal_moves("xiangqi", black, [])
    )
    assert pickle.loads(pickle.dumps(pos)).fen() == pos.fen()


def test_a_composition_pawn_on_its_own_half_moves_forward_only() -> None:
    # Black pawn on d6 (between the pawn files before the river): d5 only, as pyffish says.
    fen = "4k4/9/9/3p5/9/9/9/9/9/3K5 b - - 0 1"
    pos = Position.from_diagram(fen, composition=True)
    pawn = [str(m) for m in pos.legal_moves if str(m).startswith("d6")]
    assert pawn == ["d6d5"]
    assert sorted(iccs(m, "ranks1") for m in pos.legal_moves) == sorted(
        pyffish.legal_moves("xiangqi", fen, [])
    )


def test_a_composition_pawn_move_keeps_the_game_going() -> None:
    # Black's king on d9 has no move (d8: the pawn on c8; e9: the flying general); the
    # pawn on a9, behind its start rank, has one: a9a8 (pyffish agrees). The game-end
    # judge (has_legal_move) must see it: no stalemate.
    fen = "p2k5/2P6/9/9/9/9/9/9/9/4K4 b - - 0 1"
    pos = Position.from_diagram(fen, composition=True)
    assert [str(m) for m in pos.legal_moves] == ["a9a8"]
    assert pyffish.legal_moves("xiangqi", fen, []) == ["a10a9"]
    assert pos.outcome() is None and not pos.is_stalemate() and not pos.is_game_over()


@pytest.mark.parametrize(
    ("fen", "match"),
    [
        ("9/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "no king"),
        ("4k4/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1", "in check"),
        ("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "face"),
        ("4k4/9/9/9/9/PPP6/PPP6/9/9/3K5 w - - 0 1", "more than 5 pawns"),
        ("4k4/9/9/9/9/9/9/9/9/3KA4 w - - 0 1", "advisor"),
    ],
)
def test_compositions_still_refuse_what_cannot_be_played(fen: str, match: str) -> None:
    with pytest.raises(InvalidFenError, match=match):
        Position.from_diagram(fen, composition=True)


def test_composition_must_be_a_bool() -> None:
    with pytest.raises(TypeError):
        Position.from_diagram(ROOK_MATE, composition=1)  # type: ignore[arg-type]


# -- puzzles -----------------------------------------------------------------------


def test_jsonl_collection_verifies() -> None:
    puzzles = list(read_jsonl(CASES_FILE))
    assert len(puzzles) == 119
    assert puzzles[0].goal == "mate in 6" and puzzles[0].solution == (Move.from_iccs("d8d9"),)
    small = [p for p in puzzles if p.plies is not None and p.plies <= 7]
    verdicts = [verify(p) for p in small]
    assert all(verdicts), [(p.name, v.reason) for p, v in zip(small, verdicts) if not v]


def test_verify_says_where_a_solution_fails() -> None:
    case = next(c for c in CASES if c["win_in_plies"] == 5)
    good = Puzzle(case["fen"], tuple(position_of(case["fen"]).find_mate(5) or ()), 5)
    assert verify(good).ok and verify(good).plies == 5
    longer = verify(Puzzle(case["fen"], good.solution, 7))
    assert not longer and "shorter mate" in longer.reason and longer.plies == 5
    shorter = verify(Puzzle(case["fen"], good.solution, 3))
    assert not shorter and "no forced mate" in shorter.reason
    # A first move that is legal but lets the defender escape.
    pos = position_of(case["fen"])
    escape = next(m for m in pos.legal_moves if m != good.solution[0] and not pos.gives_check(m))
    wrong = verify(Puzzle(case["fen"], (escape, *good.solution[1:]), 5))
    assert not wrong and wrong.failed_at == 0
    illegal = verify(Puzzle(case["fen"], (Move.from_iccs("a0a1"),), 5))
    assert not illegal and illegal.failed_at == 0


@pytest.mark.slow
def test_verify_requires_the_longest_resistance() -> None:
    # A defender's reply after which pyffish's brute force finds a mate in one (not the
    # three or more plies the stated length leaves) is no longest resistance.
    for case in (c for c in CASES if c["win_in_plies"] in (5, 7)):
        fen, plies = case["fen"], case["win_in_plies"]
        line = position_of(fen).find_mate(plies) or []
        pos = position_of(fen)
        pos.push(line[0])
        for reply in list(pos.legal_moves):
            after = (iccs(line[0], "ranks1"), iccs(reply, "ranks1"))
            if pyffish_mates(fen, 1, moves=after):
                verdict = verify(Puzzle(fen, (line[0], reply), plies))
                assert not verdict and verdict.failed_at == 1
                assert "longest resistance" in verdict.reason
                return
    pytest.fail("no 5- or 7-ply case has a reply that allows mate at once")


@pytest.mark.parametrize(
    ("record", "match"),
    [
        (
            {"fen": ROOK_MATE, "moves": 3},
            "line 1: moves must be ICCS text or a list of it, got int",
        ),
        ({"fen": ROOK_MATE, "moves": {"a": 1}}, "moves must be ICCS text .* got dict"),
        ({"fen": ROOK_MATE, "plies": "mate in 1"}, "plies must be a number of plies .*'mate in 1'"),
        ({"fen": ROOK_MATE, "plies": "9" * 5000}, "plies must be a number of plies"),
        ({"fen": ROOK_MATE, "win_in_plies": "²"}, "win_in_plies must be a number of plies"),
        ({"fen": ROOK_MATE, "plies": True}, "plies must be an int, got bool"),
    ],
)
def test_a_bad_jsonl_field_is_named(record: dict, match: str) -> None:
    with pytest.raises(xiangqi.XiangqiError, match=match):
        list(read_jsonl(io.StringIO(json.dumps(record) + "\n")))


def test_a_jsonl_plies_field_may_be_digits() -> None:
    line = json.dumps({"fen": ROOK_MATE, "moves": ["a7a9"], "plies": " 1 "})
    (puzzle,) = read_jsonl(io.StringIO(line))
    assert puzzle.plies == 1 and verify(puzzle)


def test_csv_collection(tmp_path: Path) -> None:
    path = tmp_path / "puzzles.csv"
    path.write_text(
        "id,fen,moves,plies\n"
        f"r1,{ROOK_MATE},a7a9,1\n"
        f"m2,{MATE_IN_TWO},{' '.join(map(str, Position(MATE_IN_TWO).find_mate(3) or []))},3\n"
    )
    puzzles = list(read_csv(path))
    assert [p.name for p in puzzles] == ["r1", "m2"] and all(verify(p) for p in puzzles)
    bad = tmp_path / "bad.csv"
    bad.write_text(f"fen,moves\n{ROOK_MATE},zz99\n")
    with pytest.raises(xiangqi.XiangqiError, match="line 2"):
        list(read_csv(bad))


def test_game_record_collection_reads_the_start_diagram_and_main_line() -> None:
    # 七星聚会 (XQFEXAMB.XQF): a famous composition, a draw: its main line ends in no mate.
    (puzzle,) = read_games(DATA / "xqf" / "XQFEXAMB.XQF")
    assert puzzle.fen.startswith("4rk3/3P5/4bP3/")
    assert len(puzzle.solution) == 87 and puzzle.plies is None and puzzle.goal == "mate"
    assert puzzle.name == "七星聚会"


def test_xqf_puzzle_file_verifies(tmp_path: Path) -> None:
    # An XQF file (written by the test encoder from the format's layout) holding a suite
    # case's start diagram and a mate of its stated length as the main line.
    from xqf_writer import encode

    from xiangqi.pgn import Game

    case = next(c for c in CASES if c["win_in_plies"] == 7)
    game = Game(fen=case["fen"])
    node = game
    for move in position_of(case["fen"]).find_mate(7) or []:
        node = node.add_variation(move)
    path = tmp_path / "puzzle.xqf"
    path.write_bytes(encode(game))
    (puzzle,) = read_games(path)
    assert puzzle.fen.split()[:2] == case["fen"].split()[:2]
    assert puzzle.plies == 7 and puzzle.goal == "mate in 4" and verify(puzzle)


def test_mate_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mate", ROOK_MATE, "--plies", "3"]) == 0
    assert capsys.readouterr().out.startswith("mate in 1 (1 ply,")
    assert main(["mate", NO_MATE, "--plies", "5", "--checks-only"]) == 1
    assert "no checking mate within 5 plies" in capsys.readouterr().out
    assert main(["mate", PAWN_BEHIND["xq_jianghu_endgames_084"]["fen"], "--plies", "3"]) == 0
    assert "g5g9" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["mate", ROOK_MATE, "--plies", "100"])
