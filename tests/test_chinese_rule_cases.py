"""The Chinese rule book's illustrated repetition cases, as data: tests/data/chinese_rules/.

Each case of ``cases.txt`` is a diagram of the Chinese Xiangqi Association's competition
rules (《中国象棋竞赛规则》, 2020 edition), with the position as a FEN, the book's moves in
ICCS and the book's verdict (see the README there for the sources and the readings taken).
These tests check the data itself; where the Asian rules (``outcome()``, the default)
give the same verdict as the Chinese book (``axf`` = same), that the library's Asian
ruling is the book's, and where a rule difference changes the verdict (``axf`` = differs),
the Asian verdict we expect. ``outcome(rules="chinese")`` (core/chinese.pxd) is tested against
the book's verdict on every cycle; the cycles it does not yet rule as the book does are
strict xfails, each with the reading that causes it (``CHINESE_MISSES``).

``python -m pytest tests/test_chinese_rule_cases.py -q -rA -k score`` prints the score
of both rule sets' rulings against the book on every cycle.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from xiangqi import Color, Position, Rules, Termination

CASES_FILE = Path(__file__).parent / "data" / "chinese_rules" / "cases.txt"
VERDICTS = ("red-loses", "black-loses", "draw")
AXF = ("same", "differs", "unsure")


@dataclass(frozen=True)
class Case:
    """One line of cases.txt."""

    id: str
    source: str
    kind: str
    fen: str
    moves: tuple[str, ...]
    verdict: str
    axf: str
    asian: str
    clauses: str
    note: str


def load_cases() -> list[Case]:
    cases = []
    for line in CASES_FILE.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = [field.strip() for field in line.split(" | ")]
        assert len(fields) == 10, f"expected 10 fields: {line!r}"
        id_, source, kind, fen, moves, verdict, axf, asian, clauses, note = fields
        cases.append(
            Case(id_, source, kind, fen, tuple(moves.split()), verdict, axf, asian, clauses, note)
        )
    return cases


CASES = load_cases()
CYCLES = [case for case in CASES if case.kind == "cycle"]


def params(cases: list[Case]) -> list[object]:
    return [pytest.param(case, id=case.id) for case in cases]


def loser(pos: Position, rules: Rules = Rules.ASIAN) -> str:
    """The library's ruling as a book verdict ('none' while the game goes on)."""
    outcome = pos.outcome(rules=rules)
    if outcome is None:
        return "none"
    if outcome.winner is None:
        return "draw"
    return "black-loses" if outcome.winner == Color.RED else "red-loses"


def play_to_third_occurrence(case: Case) -> Position:
    """Play the cycle twice: its start position then stands for the third time."""
    pos = Position(case.fen)
    for text in case.moves:
        pos.push_iccs(text)
    assert not pos.is_repetition(3)
    for text in case.moves:
        pos.push_iccs(text)
    assert pos.is_repetition(3)
    return pos


def test_the_table_is_complete_and_well_formed() -> None:
    ids = [case.id for case in CASES]
    assert len(ids) == len(set(ids))
    # Every diagram of the 2020 text that the transcription holds: 图2-30, 参考图1-50,
    # and the two variations the text states (图29, 图30).
    assert len(CASES) == 81
    assert len(CYCLES) == 78
    for case in CASES:
        assert case.kind in ("cycle", "sequence"), case.id
        assert case.verdict in VERDICTS, case.id
        assert case.axf in AXF, case.id
        assert case.asian in (*VERDICTS, "?"), case.id
        assert case.source.startswith("CXA 2020 "), case.id
        assert "图" in case.source, case.id
        assert case.clauses.startswith("2020 "), case.id
        assert case.note, case.id
        if case.axf == "same":
            assert case.asian == case.verdict, case.id
        if case.axf == "differs" and case.asian != "?":
            assert case.asian != case.verdict, case.id


@pytest.mark.parametrize("case", params(CASES))
def test_fen_loads_and_every_move_is_legal_in_turn(case: Case) -> None:
    pos = Position(case.fen)
    assert pos.turn == Color.RED  # every case of the book starts with Red to move
    assert pos.outcome() is None
    for text in case.moves:
        assert any(move.iccs() == text for move in pos.legal_moves), (case.id, text)
        pos.push_iccs(text)


@pytest.mark.parametrize("case", params(CYCLES))
def test_the_cycle_returns_to_its_start(case: Case) -> None:
    pos = Position(case.fen)
    start = pos.zobrist_hash()
    seen = [start]
    for text in case.moves:
        pos.push_iccs(text)
        seen.append(pos.zobrist_hash())
    assert seen[-1] == start
    assert start not in seen[1:-1], "the cycle should be the shortest one the book plays"
    assert pos.fen().split()[:2] == case.fen.split()[:2]


def test_the_sequences_make_no_threefold_repetition() -> None:
    sequences = [case for case in CASES if case.kind == "sequence"]
    assert [case.id for case in sequences] == [
        "cxa2020-fig29",
        "cxa2020-fig29v",
        "cxa2020-ref08",
    ]
    for case in sequences:
        pos = Position(case.fen)
        for text in case.moves:
            pos.push_iccs(text)
            assert not pos.is_repetition(3), case.id
        assert pos.outcome() is None, case.id


@pytest.mark.parametrize("case", params([case for case in CYCLES if case.asian != "?"]))
def test_the_library_gives_the_asian_verdict(case: Case) -> None:
    """axf=same: the book's verdict; axf=differs: the Asian one the README derives."""
    pos = play_to_third_occurrence(case)
    got = loser(pos)
    assert got == case.asian
    outcome = pos.outcome()
    assert outcome is not None
    if got == "draw":
        assert outcome.termination == Termination.REPETITION
    else:
        assert outcome.termination in (Termination.PERPETUAL_CHECK, Termination.PERPETUAL_CHASE)


def test_score_of_the_asian_rulings_against_the_book() -> None:
    """Not a target but a record: prints N agree of M (the README quotes the figure)."""
    agree = [case.id for case in CYCLES if loser(play_to_third_occurrence(case)) == case.verdict]
    print(f"\nAsian rulings agree with the Chinese book on {len(agree)} of {len(CYCLES)} cycles")
    same = {case.id for case in CYCLES if case.axf == "same"}
    differs = {case.id for case in CYCLES if case.axf == "differs"}
    assert same <= set(agree)
    assert not differs & set(agree)


# Fairy-Stockfish rules 参考图11 a perpetual chase by Black, where the book (a cannon+pawn
# joint attack on an advisor, then the pawn's own threat: one chase, one idle move) and the
# library rule a draw. Not investigated further: the case is not one the issue is about.
FAIRY_STOCKFISH_DIFFERS = {"cxa2020-ref11"}


def test_fairy_stockfish_gives_the_stated_asian_verdicts() -> None:
    """An independent Asian-rules judge agrees with the 'asian' column (all but one case)."""
    ff = pytest.importorskip("pyffish")
    differ = set()
    for case in CYCLES:
        if case.asian == "?":
            continue
        pos = play_to_third_occurrence(case)
        played = [f"{m[0]}{int(m[1]) + 1}{m[2]}{int(m[3]) + 1}" for m in case.moves * 2]
        ended, value = ff.is_optional_game_end("xiangqi", case.fen, played)
        assert ended, case.id
        if value == 0:
            got = "draw"
        else:
            red_wins = (pos.turn == Color.RED) == (value > 0)
            got = "black-loses" if red_wins else "red-loses"
        if got != case.asian:
            differ.add(case.id)
    assert differ == FAIRY_STOCKFISH_DIFFERS


# The Chinese judge (outcome(rules="chinese")) against the book.
#
# Cycles it does not rule as the book does, with the cause. The kinds it gives each move
# of the first cycle are written R1 B1 R2 B2 (check, mate, chase, idle). The readings of
# core/chinese.pxd that cause them:
# - ONE-DEEP: an exchange is judged one recapture deep (the target's value less the
#   attacker's when the target's side can take back), so a gain only a longer exchange,
#   a joint attack or an under-protected (少根) target gives is no chase; a capture that
#   loses more elsewhere still counted (now not when it uncovers a stronger piece to a
#   new attacker: reading 17, which brought back 图23).
# - CHECK-WIN: 将军得子 is any check after which every reply leaves a gain by one capture;
#   it finds check-wins the book does not call chases.
# - BOTH-CHASE: both sides chase with every move, and the book rules one side alone
#   (the joint chase answering a chase is allowed in the book: 图10, 参考图14, 38-40
#   read so); the judge rules both forbidden, a draw.
# - MATE-DEPTH: mate threats are searched as series of checks within three moves of
#   the mover.
# - NOT-MODELLED: the defensive key point (1999 27.3), 断根 by moving a line piece.
# - WHOLE-EXCHANGE (issue 31): a gain is the piece's value less what the whole exchange
#   on its square costs (1999 28.16, 29.1), so 少根 and joint attacks chase, unless the
#   gain rests on a like piece the target may take back evenly (兑: the case README's
#   reading 15, which brought back 图21 and 参考图4).
# - HOME-PAWN (issue 31): an uncrossed pawn is no target (1999 25.3, 29.3).
# - MATE-AFTER (reading 24, 1999 29.4, 细则7): a capture the other side answers by mate
#   (searched as deep as a mate threat) wins nothing; it brought 图10 back and lost 参考图22
#   (by judging Red's f4e4 idle, as the book does: see the case README's reading 24).
# - CHECK-SERIES: a series of two checks (1999 29.1 连续照将) finds 图16's 抽车 but
#   also rules 图5 (a capture that existed before, 从捉到捉) a chase; left at one check.
ONE_DEEP = "EXCHANGE reading (was one recapture deep; still missed by the whole exchange)"
CHECK_SERIES = "CHECK-SERIES: a check-win is searched one check deep"
CHECK_WIN = "CHECK-WIN reading"
BOTH_CHASE = "BOTH-CHASE: the book rules one side of a mutual chase"
MATE_DEPTH = "MATE-DEPTH reading"
CHINESE_MISSES = {
    "cxa2020-fig03": f"{ONE_DEEP}: Red's 断根 elephant moves are not chases (R idle idle, "
    "B chase chase): Black loses",
    "cxa2020-fig04": f"{ONE_DEEP}: the cannon-for-horse exchange that wins a pawn is not "
    "seen (R chase idle): draw",
    "cxa2020-fig07": f"{MATE_DEPTH}: Red's mate threats are not found by checks "
    "(R chase idle) and Black's block is judged a chase (B chase chase): Black loses",
    "cxa2020-fig09": f"{CHECK_WIN}: Red's exchange offer (兑: the horse uncovers a rook "
    "facing Black's rook) is judged a chase, as 图25's like pattern is (the case README's "
    "reading 20: the two diagrams disagree) (R chase chase, B chase chase): draw",
    "cxa2020-fig13": f"{CHECK_WIN}: Red's exchange offer (兑) also has a check-win "
    "(R check chase): Red loses",
    "cxa2020-fig18": "NOT-MODELLED: the defensive key point; Red's rook move is judged a "
    "chase (R check chase, B idle mate): Red loses",
    "cxa2020-fig16": f"{CHECK_SERIES}: Red's rook retreat wins Black's rook by two checks "
    "(抽车: Rf6+ Af7, Rxe6+ with the cannon, Rxd6); one check then wins only the uncrossed "
    "e6 pawn, no material (1999 25.3; it agreed before by counting that pawn) (R check idle): "
    "draw",
    "cxa2020-fig26": f"{BOTH_CHASE}: the judge now labels Red's moves as the book does "
    "(捉无根子, 捉少根子) and Black's too; the book rules Black alone, 1999 26.3 says both "
    "forbidden draw (R chase chase, B chase chase): draw",
    "cxa2020-ref01": f"{ONE_DEEP}: the horse retreat's discovered attack on a protected "
    "elephant is not a gain one capture deep (R idle chase): draw",
    "cxa2020-ref13": f"{ONE_DEEP}: Black's rook move that lets the cannon take an advisor "
    "is judged idle on one of the two moves (B idle chase): draw",
    "cxa2020-ref16": f"{ONE_DEEP}: the pawn moves that uncover an attack are judged idle "
    "(R idle idle): draw",
    "cxa2020-ref22": "MATE-AFTER reading (24: a capture met by mate wins nothing) makes Red's "
    "f4e4 idle, as the book does; Black's cannon move answering the check chases the e6 "
    "cannon that the check left unprotected, as before (B mate chase): Black loses",
    "cxa2020-ref25": f"{ONE_DEEP}: Red's chase after the check is not found (R check idle): draw",
    "cxa2020-ref28": f"{CHECK_WIN}: Red's second move (a root that chases and loses more) "
    "is judged a chase; reading 17 counts what a capture uncovers, not the root it leaves "
    "(1999 细则4, 2020 图22: a root may chase) (R check chase): Red loses",
    "cxa2020-ref34": "HOME-PAWN: Red's h0h6 attacks only the uncrossed c6 pawn, no "
    "material by 1999 25.3, 29.3 (it agreed before by counting that pawn); the book calls "
    "it a chase of an unprotected piece, which the 1999 text does not decide for a pawn at "
    "home (R chase idle): draw",
    "cxa2020-ref39": f"{BOTH_CHASE} (R chase chase, B chase chase): draw",
    "cxa2020-ref40": f"{BOTH_CHASE} (R chase chase, B chase chase): draw",
    "cxa2020-ref42": f"{ONE_DEEP}: Black's joint chase is not seen (B check idle), so "
    "Red alone is forbidden: Red loses",
    "cxa2020-ref49": f"{ONE_DEEP}: Red's horse moves (the second keeps a cannon on its "
    "line) are both judged idle since issue 31's readings (R idle idle, B chase chase): "
    "Black loses",
    "cxa2020-ref50": f"{ONE_DEEP}: Red's horse moves judged idle as in 参考图49; Black's "
    "c5b5 is now the book's 兑 (reading 15: the rook's 少根 gain on the b6 horse rests on "
    "the d5 horse, which the b6 horse attacks back) "
    "(R idle idle, B chase idle): draw",
}


def chinese_params() -> list[object]:
    out: list[object] = []
    for case in CYCLES:
        marks = []
        if case.id in CHINESE_MISSES:
            marks.append(pytest.mark.xfail(strict=True, reason=CHINESE_MISSES[case.id]))
        out.append(pytest.param(case, id=case.id, marks=marks))
    return out


FORBIDDEN = {
    Termination.PERPETUAL_CHECK,
    Termination.PERPETUAL_CHASE,
    Termination.PERPETUAL_MATE_THREAT,
    Termination.CHECK_AND_CHASE,
    Termination.CHECK_AND_MATE_THREAT,
    Termination.MATE_THREAT_AND_CHASE,
    Termination.CHECK_MATE_THREAT_AND_CHASE,
}


@pytest.mark.parametrize("case", chinese_params())
def test_the_chinese_judge_gives_the_book_verdict(case: Case) -> None:
    pos = play_to_third_occurrence(case)
    assert loser(pos, Rules.CHINESE) == case.verdict
    outcome = pos.outcome(rules="chinese")
    assert outcome is not None
    if case.verdict == "draw":
        assert outcome.termination == Termination.REPETITION
    else:
        assert outcome.termination in FORBIDDEN


# The book's names for the forbidden cycle, where its labels give one kind.
CHINESE_TERMINATIONS = {
    "cxa2020-fig06": Termination.PERPETUAL_CHECK,  # 长将
    "cxa2020-fig08": Termination.CHECK_AND_CHASE,  # 一将一捉
    "cxa2020-fig12": Termination.PERPETUAL_CHASE,  # 长捉 of several pieces
    "cxa2020-ref02": Termination.CHECK_AND_CHASE,
    "cxa2020-ref19": Termination.CHECK_AND_CHASE,
    "cxa2020-ref30": Termination.MATE_THREAT_AND_CHASE,  # 一杀一捉
}


@pytest.mark.parametrize("case_id", sorted(CHINESE_TERMINATIONS))
def test_the_chinese_judge_names_the_forbidden_cycle(case_id: str) -> None:
    (case,) = [case for case in CYCLES if case.id == case_id]
    outcome = play_to_third_occurrence(case).outcome(rules=Rules.CHINESE)
    assert outcome is not None
    assert outcome.termination == CHINESE_TERMINATIONS[case_id]


def test_the_chinese_judge_does_not_rule_the_sequences() -> None:
    """Reading 7 of the README: repetitions only; 图29 and 参考图8 are known limits."""
    for case in CASES:
        if case.kind != "sequence":
            continue
        pos = Position(case.fen)
        for text in case.moves:
            pos.push_iccs(text)
            assert pos.outcome(rules="chinese") is None, case.id


def test_score_of_the_chinese_rulings_against_the_book() -> None:
    """A record: prints N agree of 78; the agreeing set is exactly the non-xfail one."""
    agree = {
        case.id
        for case in CYCLES
        if loser(play_to_third_occurrence(case), Rules.CHINESE) == case.verdict
    }
    print(f"\nChinese rulings agree with the Chinese book on {len(agree)} of {len(CYCLES)} cycles")
    assert agree == {case.id for case in CYCLES} - set(CHINESE_MISSES)


def mirror_iccs(text: str) -> str:
    files = "abcdefghi"
    return f"{files[8 - files.index(text[0])]}{text[1]}{files[8 - files.index(text[2])]}{text[3]}"


def test_score_of_the_chinese_rulings_on_the_mirror_images() -> None:
    """The rules know no left and right: every cycle played mirrored file for file (the
    book does not print these) gets the same ruling; prints N agree of 78 mirrored."""
    agree = set()
    for case in CYCLES:
        pos = Position(Position(case.fen).flip_horizontal().fen())
        for _ in range(2):
            for text in case.moves:
                pos.push_iccs(mirror_iccs(text))
        assert pos.is_repetition(3), case.id
        if loser(pos, Rules.CHINESE) == case.verdict:
            agree.add(case.id)
    print(f"\nMirrored: Chinese rulings agree with the book on {len(agree)} of {len(CYCLES)}")
    assert agree == {case.id for case in CYCLES} - set(CHINESE_MISSES)


def test_the_default_rules_are_the_asian_ones() -> None:
    for case in CYCLES:
        pos = play_to_third_occurrence(case)
        assert pos.outcome() == pos.outcome(rules="asian") == pos.outcome(rules=Rules.ASIAN)
        assert pos.result() == pos.result(rules=Rules.ASIAN)


def test_is_game_over_and_result_take_the_rule_set() -> None:
    (case,) = [case for case in CYCLES if case.id == "cxa2020-fig08"]
    pos = play_to_third_occurrence(case)
    assert pos.result() == "1/2-1/2"  # Asian: one check, one chase is allowed
    assert pos.result(rules="chinese") == "0-1"  # Chinese: 一将一捉 is forbidden
    assert pos.is_game_over(rules=Rules.CHINESE)
    pos.pop()
    assert not pos.is_game_over(rules="chinese")
    assert pos.result(rules="chinese") == "*"


@pytest.mark.parametrize(
    ("rules", "error"),
    [
        ("xiangqi", ValueError),
        ("Chinese", ValueError),
        ("", ValueError),
        (1, TypeError),
        (None, TypeError),
    ],
)
def test_a_bad_rule_set_is_refused(rules: object, error: type[Exception]) -> None:
    pos = Position()
    with pytest.raises(error, match="rules must be"):
        pos.outcome(rules=rules)  # type: ignore[arg-type]
    with pytest.raises(error, match="rules must be"):
        pos.is_game_over(rules=rules)  # type: ignore[arg-type]
    assert pos.fen() == Position().fen()


def test_the_rules_enum_is_a_str_enum() -> None:
    assert Rules("chinese") is Rules.CHINESE
    assert Rules.CHINESE == "chinese" and str(Rules.ASIAN) == "asian"
    assert [rule.value for rule in Rules] == ["asian", "chinese"]


def test_the_chinese_move_limit_counts_plies_without_capture() -> None:
    """1999 4.2.4: 60 moves without a capture draw; checks count like any move."""
    pos = Position("3k5/9/9/9/9/9/9/9/9/4K3R w - - 119 80")
    assert pos.outcome(rules="chinese") is None
    pos.push_iccs("i0i1")
    outcome = pos.outcome(rules="chinese")
    assert outcome is not None and outcome.termination == Termination.MOVE_RULE
    assert outcome.winner is None


def test_the_rule_sets_differ_only_on_repetitions_and_the_move_rule() -> None:
    """Seeded random games: no legal move and insufficient material are ruled alike;
    until a position occurs three times or the no-capture clock reaches the limit,
    neither rule set ends the game; every Chinese ruling is a valid Outcome."""
    import random

    rng = random.Random(19)
    shared = {
        Termination.CHECKMATE,
        Termination.STALEMATE,
        Termination.INSUFFICIENT_MATERIAL,
    }
    judged = 0
    for _ in range(40):
        pos = Position()
        for _ in range(160):
            moves = list(pos.legal_moves)
            if not moves:
                break
            # Shuffle back and forth often, so that repetitions come up.
            pos.push(rng.choice(moves[:4] if rng.random() < 0.7 else moves))
            asian = pos.outcome()
            chinese = pos.outcome(rules="chinese")
            if asian is not None and asian.termination in shared:
                assert chinese == asian
            elif not pos.is_repetition(3) and pos.halfmove_clock < 120:
                assert asian is None and chinese is None
            if chinese is not None:
                judged += 1
                draws = (Termination.REPETITION, Termination.MOVE_RULE)
                drawn = chinese.termination in (*draws, Termination.INSUFFICIENT_MATERIAL)
                assert (chinese.winner is None) == drawn
                break
    assert judged > 10
