"""Every argument of Position.find_mate and xiangqi.find_mates is checked as the house
checks arguments (xiangqi/_checks.py): a wrong type is a TypeError, a value out of range
a ValueError, each naming the argument; bool is not an int, NumPy integers are ints.
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

import xiangqi
from xiangqi import Move, Position

ROOK_MATE = "4k4/7R1/R8/9/9/9/9/9/9/3K5 w - - 0 1"
MATE = [Move.from_iccs("a7a9")]


@pytest.mark.parametrize(
    ("positions", "name"),
    [
        (5, "int"),  # not iterable: was Python's own "'int' object is not iterable"
        (ROOK_MATE, "str"),  # iterable by characters: was a FEN error about "4"
        (ROOK_MATE.encode(), "bytes"),
        (Position(ROOK_MATE), "Position"),  # one position, not a batch
    ],
)
def test_find_mates_refuses_a_single_item_as_positions(positions: object, name: str) -> None:
    with pytest.raises(TypeError, match=f"positions must be an iterable .* got {name}"):
        xiangqi.find_mates(positions, 3)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [
        ({"max_plies": True}, TypeError, "max_plies"),
        ({"max_plies": 3.0}, TypeError, "max_plies"),
        ({"max_plies": "3"}, TypeError, "max_plies"),
        ({"max_plies": 0}, ValueError, "max_plies"),
        ({"max_plies": -1}, ValueError, "max_plies"),
        ({"max_plies": 100}, ValueError, "max_plies"),
        ({"checks_only": 1}, TypeError, "checks_only"),
        ({"checks_only": None}, TypeError, "checks_only"),
        ({"node_limit": True}, TypeError, "node_limit"),
        ({"node_limit": 1.5}, TypeError, "node_limit"),
        ({"node_limit": 0}, ValueError, "node_limit"),
        ({"node_limit": -5}, ValueError, "node_limit"),
        ({"node_limit": 2**70}, ValueError, "node_limit"),
    ],
)
@pytest.mark.parametrize("batch", [False, True])
def test_each_bad_argument_is_named(
    kwargs: dict[str, Any], error: type[Exception], name: str, batch: bool
) -> None:
    args = {"max_plies": 3, **kwargs}
    plies = args.pop("max_plies")
    with pytest.raises(error, match=name):
        if batch:
            xiangqi.find_mates([ROOK_MATE], plies, **args)
        else:
            Position(ROOK_MATE).find_mate(plies, **args)


@pytest.mark.parametrize(
    ("threads", "error"),
    [(True, TypeError), (2.0, TypeError), (0, ValueError), (-1, ValueError), (257, ValueError)],
)
def test_find_mates_names_bad_threads(threads: object, error: type[Exception]) -> None:
    with pytest.raises(error, match="threads"):
        xiangqi.find_mates([ROOK_MATE], 3, threads=threads)  # type: ignore[arg-type]


def test_numpy_integers_are_ints() -> None:
    pos = Position(ROOK_MATE)
    assert pos.find_mate(np.int64(3), node_limit=np.int32(10_000)) == MATE  # type: ignore[arg-type]
    answers = xiangqi.find_mates(
        (fen for fen in [ROOK_MATE]),
        np.int8(3),  # type: ignore[arg-type]
        node_limit=np.uint16(10_000),  # type: ignore[arg-type]
        threads=np.int64(1),  # type: ignore[arg-type]
    )
    assert answers == [MATE]


def test_a_refused_call_changes_nothing() -> None:
    pos = Position(ROOK_MATE)
    pos.push(Move.from_iccs("d0d1"))
    before = (pos.fen(), list(pos.move_stack))
    with pytest.raises(ValueError, match="max_plies"):
        pos.find_mate(0)
    with pytest.raises(TypeError, match="positions"):
        xiangqi.find_mates(pos, 3)  # type: ignore[arg-type]
    assert (pos.fen(), list(pos.move_stack)) == before


def run_capped(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    """code run in a child whose address space is capped at 1.5 GB (argv: args)."""
    if "libasan" in os.environ.get("LD_PRELOAD", ""):
        pytest.skip("AddressSanitizer needs more address space than the cap allows")
    cap = "import resource\nresource.setrlimit(resource.RLIMIT_AS, (3 << 29, 3 << 29))\n"
    command = [sys.executable, "-c", cap + code, *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def test_tables_larger_than_the_machine_can_give_still_answer() -> None:
    # hash_mb within 1..65536 may be more memory than the process may have. The tables
    # start small and grow with the search, so a search that needs little answers (an
    # attacker's finding, first answered by a MemoryError naming hash_mb). A child whose
    # address space is capped at 1.5 GB asks for 8 GB of tables: the docs' 11-ply mate
    # (docs/mates.md: 11 plies, first move g8f8), ending in checkmate.
    code = (
        "from xiangqi import Position\n"
        "pos = Position('5k3/4a1P2/3ab4/3N5/2b6/6R2/9/9/2r2p3/3AKAB1c w - - 0 1')\n"
        "line = pos.find_mate(11, hash_mb=8192, node_limit=2**40)\n"
        "print(len(line), line[0])\n"
        "print(pos.fen())\n"
        "for move in line:\n"
        "    pos.push(move)\n"
        "print(pos.is_checkmate())\n"
    )
    done = run_capped(code)
    assert done.returncode == 0, done.stderr
    answer, fen, mated = done.stdout.splitlines()
    assert answer == "11 g8f8"
    assert fen == "5k3/4a1P2/3ab4/3N5/2b6/6R2/9/9/2r2p3/3AKAB1c w - - 0 1"
    assert mated == "True"


# -- xiangqi mate --hash-mb ----------------------------------------------------------------

DOCS_MATE = "3k5/8P/9/7R1/9/4H4/9/9/6p2/4KA3 w - - 0 1"  # docs/mates.md: mate in 2


@pytest.mark.parametrize("value", ["0", "65537", "-1", "lots"])
def test_the_command_line_refuses_a_bad_hash_mb(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from xiangqi.__main__ import main

    with pytest.raises(SystemExit) as stopped:
        main(["mate", DOCS_MATE, "--hash-mb", value])
    assert stopped.value.code == 2
    assert "--hash-mb" in capsys.readouterr().err


def test_the_command_line_searches_with_the_tables_it_is_given(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from xiangqi.__main__ import main

    # A 1 MB table changes nothing but memory: the mate of the docs' example, 3 plies.
    assert main(["mate", DOCS_MATE, "--plies", "5", "--hash-mb", "1"]) == 0
    assert capsys.readouterr().out.startswith("mate in 2 (3 plies, ")


def test_the_command_line_answers_when_the_tables_asked_for_do_not_fit() -> None:
    code = (
        "import sys\n"
        "from xiangqi.__main__ import main\n"
        "sys.exit(main(['mate', sys.argv[1], '--plies', '11', '--hash-mb', '8192']))\n"
    )
    fen = "5k3/4a1P2/3ab4/3N5/2b6/6R2/9/9/2r2p3/3AKAB1c w - - 0 1"
    done = run_capped(code, fen)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("mate in 6 (11 plies, ")


def test_a_finished_game_with_stop_already_set_has_no_mate() -> None:
    # A game outcome() has ended has no mate: None, proven without a search, whether
    # or not stop was set before (a newcomer's finding: it raised SearchLimitReached).
    import threading

    from xiangqi import Position, Termination

    mated = Position("R3k4/7R1/9/9/9/9/9/9/9/3K5 b - - 1 1")  # the docs rook mate, played
    outcome = mated.outcome()
    assert outcome is not None and outcome.termination is Termination.CHECKMATE
    stop = threading.Event()
    stop.set()
    assert mated.find_mate(5, stop=stop) is None
    assert mated.find_mate(5, node_limit=1) is None
    # A game still going with stop set is stopped before it begins.
    with pytest.raises(xiangqi.SearchLimitReached):
        Position(DOCS_MATE).find_mate(5, stop=stop)


def test_the_core_refuses_a_board_whose_side_not_to_move_is_in_check() -> None:
    # The search's check test needs the side not to move out of check. Position refuses
    # such a FEN; the core's find_mate refuses such a board too (Board.load takes any
    # placement): Black's king on e9 in check from the rook on e1, Red to move.
    from xiangqi import _core

    codes = bytearray(90)
    codes[85] = 8  # Black king, e9 (piece codes: 1 + type + 7 * colour, king first)
    codes[13] = 5  # Red rook, e1
    codes[3] = 1  # Red king, d0
    board = _core.Board()
    board.load(bytes(codes), 0)
    assert board.in_check(1) and not board.in_check(0)
    with pytest.raises(ValueError, match="side not to move is in check"):
        _core.find_mate(board, 3)
