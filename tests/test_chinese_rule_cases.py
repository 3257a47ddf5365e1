"""The Chinese rule book's illustrated repetition cases, as data: tests/data/chinese_rules/.

Each case of ``cases.txt`` is a diagram of the Chinese Xiangqi Association's competition
rules (《中国象棋竞赛规则》, 2020 edition), with the position as a FEN, the book's moves in
ICCS and the book's verdict (see the README there for the sources and the readings taken).
The library does not judge by the Chinese rules yet, so these tests check the data itself
and, where the Asian rules the library follows give the same verdict as the Chinese book
(``axf`` = same), that the library's current ruling is the book's. Where a rule difference
changes the verdict (``axf`` = differs), the Asian verdict we expect is stated and checked
too: those are the cases a Chinese-rules judge must rule differently.

``python -m pytest tests/test_chinese_rule_cases.py -q -rA -k score`` prints the score
of the library's current (Asian) rulings against the book on every cycle.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from xiangqi import Color, Position, Termination

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


def loser(pos: Position) -> str:
    """The library's current ruling as a book verdict ('none' while the game goes on)."""
    outcome = pos.outcome()
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
