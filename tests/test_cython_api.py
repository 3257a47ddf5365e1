"""The Cython API (xiangqi/core/api.pxd, docs/cython-api.md): a tiny consumer module,
tests/data/cython_api/xq_api_probe.pyx, is compiled against xiangqi.get_include() in a
temporary folder (marked slow: about 30 s), then checked against published perft counts
(tests/data/perft.txt) and against the library's Python API (legal moves filtered to
captures and evasions, Zobrist keys, attackers), which the oracle suites check in turn
against Fairy-Stockfish. The fast tests check that the headers are where get_include()
says and that the wheel ships them."""

from __future__ import annotations

import importlib
import random
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from conftest import load_perft_cases

import xiangqi
from xiangqi import Move, Position

HERE = Path(__file__).parent
PROBE = HERE / "data" / "cython_api"
ROOT = HERE.parent


def test_get_include_holds_the_facade_and_every_room_it_cimports() -> None:
    include = Path(xiangqi.get_include())
    facade = include / "xiangqi" / "core" / "api.pxd"
    assert facade.is_file()
    assert (include / "xiangqi" / "_core.pxd").is_file()
    text = facade.read_text(encoding="utf-8")
    for room in ("state", "movegen", "attacks", "zobrist", "tables"):
        assert f"from xiangqi.core.{room} cimport" in text
        assert (include / "xiangqi" / "core" / f"{room}.pxd").is_file()


def test_api_version_is_one_number_in_two_places() -> None:
    text = (Path(xiangqi.get_include()) / "xiangqi" / "core" / "api.pxd").read_text("utf-8")
    assert f"API_VERSION = {xiangqi.CYTHON_API_VERSION} " in text


def test_the_wheel_ships_the_headers() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'xiangqi = ["py.typed", "*.pyi", "*.pxd"' in text
    assert '"xiangqi.core" = ["*.pxd"]' in text
    assert '    "xiangqi.core",\n' in text  # a package of the wheel


@pytest.fixture(scope="module")
def probe(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """xq_api_probe, built by cythonize + build_ext with include_path=[get_include()]."""
    folder = tmp_path_factory.mktemp("cython_api")
    for name in ("xq_api_probe.pyx", "setup.py"):
        shutil.copy(PROBE / name, folder / name)
    env = {"PYTHONPATH": xiangqi.get_include()}
    result = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace", "-q"],
        cwd=folder,
        env={**__import__("os").environ, **env},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module("xq_api_probe")
    finally:
        sys.path.remove(str(folder))


def walk_positions(seed: int, plies: int) -> list[Position]:
    """Positions of a seeded random game from the start (checks and captures occur)."""
    rng = random.Random(seed)
    pos = Position()
    seen = [pos.copy()]
    for _ in range(plies):
        moves = list(pos.legal_moves)
        if not moves:
            break
        captures = [m for m in moves if pos.is_capture(m)]
        pos.push(rng.choice(captures if captures and rng.random() < 0.5 else moves))
        seen.append(pos.copy())
    return seen


POSITIONS = [p for seed in range(4) for p in walk_positions(seed, 60)]
CHECK_FENS = [
    "4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1",  # a rook on the file
    "3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1",  # a rook up the file
    "4k4/9/5N3/9/9/9/9/9/9/3K5 b - - 0 1",  # a horse two files over, its leg f8 empty
]


def pairs(moves: list[Move]) -> list[tuple[int, int]]:
    return sorted((m.from_square, m.to_square) for m in moves)


@pytest.mark.slow
def test_version_constant(probe: ModuleType) -> None:
    assert probe.VERSION == xiangqi.CYTHON_API_VERSION


@pytest.mark.slow
@pytest.mark.parametrize(
    "case",
    [c for c in load_perft_cases()],
    ids=lambda c: c.id,
)
def test_perft_through_the_api_equals_published_counts(probe: ModuleType, case: object) -> None:
    for depth, nodes in case.counts.items():  # type: ignore[attr-defined]
        if depth in case.slow or nodes > 300_000:  # type: ignore[attr-defined]
            continue
        assert probe.perft(case.fen, depth) == nodes, (case.id, depth)  # type: ignore[attr-defined]


@pytest.mark.slow
def test_generators_equal_filters_of_the_legal_moves(probe: ModuleType) -> None:
    checks = 0
    for pos in POSITIONS + [Position(f) for f in CHECK_FENS]:
        fen = pos.fen()
        legal = list(pos.legal_moves)
        assert probe.moves(fen, "all") == pairs(legal), fen
        assert probe.moves(fen, "captures") == pairs([m for m in legal if pos.is_capture(m)]), fen
        assert probe.moves(fen, "evasions") == (pairs(legal) if pos.is_check() else []), fen
        assert set(probe.moves(fen, "all")) <= set(probe.moves(fen, "pseudo")), fen
        checks += pos.is_check()
    assert checks >= 3  # the evasion generator met real checks


@pytest.mark.slow
def test_make_unmake_restores_board_and_key(probe: ModuleType) -> None:
    for pos in POSITIONS[::5]:
        rows, key, checked = probe.make_unmake(pos)
        assert key == pos.zobrist_hash()
        assert checked == pos.is_check()
        assert sorted(r[0] for r in rows) == pairs(list(pos.legal_moves))
        for (frm, to), after, scratch, gives_check in rows:
            child = pos.copy()
            child.push(Move(frm, to))
            assert after == scratch == child.zobrist_hash()
            assert gives_check == child.is_check()


@pytest.mark.slow
def test_null_move_key(probe: ModuleType) -> None:
    pos = POSITIONS[7]
    child = pos.copy()
    if not child.is_check():
        child.push(Move.null())
        after_null, passed, restored = probe.null_keys(pos.fen())
        assert after_null == passed == child.zobrist_hash()
        assert restored


@pytest.mark.slow
def test_attackers_and_check_of_either_side(probe: ModuleType) -> None:
    for pos in POSITIONS[::20]:
        fen = pos.fen()
        for color in (xiangqi.RED, xiangqi.BLACK):
            assert probe.side_in_check(fen, int(color)) == (
                pos.is_check() if color == pos.turn else False
            )
            for square in range(90):
                assert probe.attackers(fen, int(color), square) == sorted(
                    pos.attackers(color, square)
                ), (fen, color, square)


@pytest.mark.slow
def test_history_keys_and_repetition(probe: ModuleType) -> None:
    pos = Position()
    expected = [pos.zobrist_hash()]
    for text in ("h2e2", "h9g7", "h0g2", "g7h9", "g2h0", "h9g7"):
        pos.push(Move.from_iccs(text))
        expected.append(pos.zobrist_hash())
    assert probe.history_keys(pos, 64) == expected
    assert probe.history_keys(pos, 3) == expected[-3:]
    assert probe.set_position(pos) == pos.zobrist_hash()
    # The horses went out and back: ply 6 repeats ply 2 (Red to move), ply 5 repeats
    # ply 1 (Black to move); ply 4 repeats nothing.
    assert expected[2] == expected[6] and expected[1] == expected[5]
    assert probe.is_repetition(expected, 6)
    assert not probe.is_repetition(expected, 3)  # the window ends after ply 2
    assert probe.is_repetition(expected[:6], 6)
    assert not probe.is_repetition(expected[:5], 6)


@pytest.mark.slow
def test_python_helpers_refuse_what_is_no_position(probe: ModuleType) -> None:
    with pytest.raises(TypeError, match="xiangqi.Position, got str"):
        probe.make_unmake("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")
    with pytest.raises(xiangqi.InvalidFenError):
        probe.perft("not a fen", 1)


@pytest.mark.slow
@pytest.mark.parametrize("inner", [None, "not a board", 7])
def test_python_helpers_refuse_a_position_without_its_board(
    probe: ModuleType, inner: object
) -> None:
    # A Position whose board is not a Board must give TypeError, not a read through a
    # NULL or mistyped pointer (a segfault or garbage keys). Position itself refuses such an
    # assignment; a subclass can still answer anything for _board, so the helpers check too.
    pos = Position()
    pos.push(Move.from_iccs("h2e2"))
    with pytest.raises(TypeError):
        pos._board = inner  # type: ignore[attr-defined,assignment]
    assert probe.history_keys(pos, 64)  # the refused assignment changed nothing

    class Hollow(Position):
        @property
        def _board(self) -> object:  # type: ignore[override]
            return inner

    hollow = Hollow.__new__(Hollow)
    with pytest.raises(TypeError, match="holds no board"):
        probe.set_position(hollow)
    with pytest.raises(TypeError, match="holds no board"):
        probe.history_keys(hollow, 64)
    unmade = Position.__new__(Position)  # no __init__: no board at all
    with pytest.raises(TypeError):
        probe.set_position(unmade)
    with pytest.raises(TypeError):
        probe.history_keys(unmade, 64)


@pytest.mark.slow
def test_history_keys_with_no_room_returns_nothing(probe: ModuleType) -> None:
    pos = Position()
    pos.push(Move.from_iccs("h2e2"))
    assert probe.history_keys(pos, 0) == []
    assert probe.history_keys(pos, -5) == []
