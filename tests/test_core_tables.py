"""The core computes its tables from geometry; they must equal the book's printed ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from xiangqi import _core

BOOK = Path(__file__).parent / "data" / "book_tables.txt"


def book_tables() -> dict[str, list[int]]:
    tables: dict[str, list[int]] = {}
    for line in BOOK.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        name, _, values = line.partition(": ")
        if " " in values or len(values) < 256:
            tables[name] = [int(v) for v in values.split()]
        else:
            tables[name] = [int(ch) for ch in values]
    return tables


BOOK_TABLES = book_tables()
CORE_TABLES = _core.book_tables()


@pytest.mark.parametrize(
    "name, size",
    [
        ("KnightDir", 8),
        ("KnightCheck", 8),
        ("KingDir", 4),
        ("AdvisorDir", 4),
        ("BishopDir", 4),
        ("BishopCheck", 4),
        ("RookDir", 4),
        ("CannonDir", 4),
    ],
)
def test_direction_tables_equal_the_book(name: str, size: int) -> None:
    assert CORE_TABLES[name] == BOOK_TABLES[name][:size]
    assert all(v == 0 for v in BOOK_TABLES[name][size:])


def test_pawn_directions_equal_the_book() -> None:
    assert CORE_TABLES["PawnDir"][0] == BOOK_TABLES["PawnDir0"][:3]
    assert CORE_TABLES["PawnDir"][1] == BOOK_TABLES["PawnDir1"][:3]


@pytest.mark.parametrize(
    "name", ["KnightPosition", "KingPosition", "AdvisorPosition", "BishopPosition"]
)
def test_position_tables_equal_the_book(name: str) -> None:
    assert len(BOOK_TABLES[name]) == 256
    assert CORE_TABLES[name] == BOOK_TABLES[name]


def test_pawn_position_tables_equal_the_book() -> None:
    assert CORE_TABLES["PawnPosition"][0] == BOOK_TABLES["PawnPosition0"]
    assert CORE_TABLES["PawnPosition"][1] == BOOK_TABLES["PawnPosition1"]


def test_horse_check_legs_sit_diagonally_next_to_the_king() -> None:
    # Seen from the attacked king, the leg of a horse jump is one diagonal step away
    # from the king, on the horse's side.
    for step, leg in zip(CORE_TABLES["KnightDir"], CORE_TABLES["HorseCheckLegs"]):
        assert leg in (-17, -15, 15, 17)
        assert abs(-step - leg) in (1, 16)


def test_second_algorithm_span_table_matches_elephanteye() -> None:
    # The center of ccLegalSpan as printed in the Go port: rows -2..2, columns -2..2.
    printed = [
        [3, 0, 0, 0, 3],
        [0, 2, 1, 2, 0],
        [0, 1, 0, 1, 0],
        [0, 2, 1, 2, 0],
        [3, 0, 0, 0, 3],
    ]
    span = CORE_TABLES["LegalSpan"]
    for dr in range(-2, 3):
        for dc in range(-2, 3):
            assert span[256 + 16 * dr + dc] == printed[dr + 2][dc + 2]
    assert sum(1 for v in span if v) == 12


def test_second_algorithm_horse_pins_match_elephanteye() -> None:
    # KNIGHT_PIN_: -33,-31 -> -16; -18,14 -> -1; -14,18 -> 1; 31,33 -> 16; else 0.
    expected = {-33: -16, -31: -16, -18: -1, 14: -1, -14: 1, 18: 1, 31: 16, 33: 16}
    pins = CORE_TABLES["HorsePin"]
    assert {i - 256: v for i, v in enumerate(pins) if v} == expected
