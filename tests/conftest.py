"""Shared helpers: FEN written independently of xiangqi.fen, the perft data file, and
move-list comparison, the rule-book cycles on which the two rule sets disagree, and
scripts loaded by path."""

from __future__ import annotations

import importlib.util
import os
import signal
import socket
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import pytest

import xiangqi

FILES = "abcdefghi"
PERFT_DATA = Path(__file__).parent / "data" / "perft.txt"
CHINESE_CASES = Path(__file__).parent / "data" / "chinese_rules" / "cases.txt"


def board_field(letters: Mapping[int, str]) -> str:
    """Board field of a FEN from {public square (file + 9 * rank): letter}."""
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for file in range(9):
            letter = letters.get(file + 9 * rank)
            if letter is None:
                empty += 1
            else:
                row += (str(empty) if empty else "") + letter
                empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


def played(fen: str, moves: str) -> xiangqi.Position:
    """The position after ICCS moves (space-separated) from fen."""
    pos = xiangqi.Position(fen)
    for text in moves.split():
        pos.push(xiangqi.Move.from_iccs(text))
    return pos


def line_iccs(line: list[xiangqi.Move] | None) -> str | None:
    """A line of moves as space-separated ICCS (None stays None)."""
    return None if line is None else " ".join(str(move) for move in line)


def make_fen(pieces: dict[str, str], side: str = "w") -> str:
    """FEN of a board given as {"e0": "K", "d9": "k", ...}."""
    letters = {FILES.index(name[0]) + 9 * int(name[1]): letter for name, letter in pieces.items()}
    return f"{board_field(letters)} {side} - - 0 1"


@dataclass
class PerftCase:
    """A case of tests/data/perft.txt: depth -> nodes; depths in slow run only under -m slow."""

    id: str
    fen: str = ""
    source: str = ""
    counts: dict[int, int] = field(default_factory=dict)
    slow: set[int] = field(default_factory=set)


def load_perft_cases() -> list[PerftCase]:
    """Parse tests/data/perft.txt (id/fen/source/perft/perft-slow lines, # comments)."""
    cases: list[PerftCase] = []
    for raw in PERFT_DATA.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition(":")
        value = value.strip()
        if key == "id":
            cases.append(PerftCase(value))
        elif key == "fen":
            cases[-1].fen = value
        elif key == "source":
            cases[-1].source = value
        elif key in ("perft", "perft-slow"):
            depth, nodes = map(int, value.split())
            cases[-1].counts[depth] = nodes
            if key == "perft-slow":
                cases[-1].slow.add(depth)
    return cases


def position(pieces: dict[str, str], side: str = "w") -> xiangqi.Position:
    """Position with the two kings at e0/d9 unless the caller places them."""
    board = dict(pieces)
    if "K" not in board.values():
        board["e0"] = "K"
    if "k" not in board.values():
        board["d9"] = "k"
    return xiangqi.Position(make_fen(board, side))


def moves_from(pos: xiangqi.Position, square: str) -> set[str]:
    """ICCS text of the legal moves starting on square."""
    return {str(m) for m in pos.legal_moves() if str(m)[:2] == square}


def iccs_set(moves: list[xiangqi.Move]) -> list[str]:
    """Sorted ICCS strings: generation order is not part of the API."""
    return sorted(str(m) for m in moves)


def disputed_cycle(case_id: str) -> tuple[str, list[str]]:
    """A cycle of tests/data/chinese_rules/cases.txt on which the Asian and Chinese
    verdicts of Position.outcome differ (checked here, so the tests using it test a rule
    choice): (FEN, moves of one cycle)."""
    for line in CHINESE_CASES.read_text(encoding="utf-8").splitlines():
        fields = [part.strip() for part in line.split(" | ")]
        if fields[0] == case_id:
            fen, cycle = fields[3], fields[4].split()
            break
    else:
        raise AssertionError(f"no case {case_id!r}")
    verdicts = set()
    for rules in xiangqi.Rules:
        pos = xiangqi.Position(fen)
        for text in 3 * cycle:
            pos.push_iccs(text)
            outcome = pos.outcome(rules=rules)
            if outcome is not None:
                break
        assert outcome is not None
        verdicts.add(outcome.winner)
    assert len(verdicts) == 2, case_id
    return fen, cycle


# Disputed cycles: fig12, a draw under the Asian rules, Black loses under the Chinese (the
# book's verdict: Black's perpetual chase); ref43, Black loses under the Asian rules, a draw
# under the Chinese (the book's verdict).
DISPUTED = ["cxa2020-fig12", "cxa2020-ref43"]


# -- the Ray tests: only where no packet can leave loopback ------------------------------------


def loopback_only() -> bool:
    """Is this process in a network namespace whose only interface is lo (as after
    `unshare -n`)? Read with if_nameindex (netlink, this process's namespace): /sys/class/net
    still shows the host's interfaces until sysfs is mounted again."""
    try:
        return [name for _, name in socket.if_nameindex()] == ["lo"]
    except OSError:
        return False


RAY_SKIP = (
    "Ray advertises the machine's interface address: the ray tests run only in a network "
    "namespace with loopback only, as .ci/run does: "
    "unshare -n sh -c 'ip link set lo up && python -m pytest -m ray'"
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip the tests marked ray outside a loopback-only network namespace."""
    if loopback_only():
        return
    skip = pytest.mark.skip(reason=RAY_SKIP)
    for item in items:
        if item.get_closest_marker("ray") is not None:
            item.add_marker(skip)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """Workers for -n auto (pyproject.toml's addopts): one a core this process may use, at
    most four (each collects the whole suite, about 10 s of CPU where bytecode is not
    cached), none on a single core (one worker is the serial run plus its start-up)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return min(cores or 1, 4) if (cores or 1) > 1 else 0


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C raises KeyboardInterrupt in the test process, as in any Python program started
    from a terminal. A shell starts a background job (`pytest &` in a script, nohup) with
    SIGINT ignored, and Python then keeps it ignored: the tests that stop a search with a
    simulated Ctrl-C (_thread.interrupt_main does nothing while SIGINT is ignored) would
    count perft(8) for hours. pytest-xdist's workers inherit the disposition too."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


#: Signals whose handlers the match runner, the engine client and Ray set and must put back.
_GUARDED_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@pytest.fixture(autouse=True)
def _signal_handlers_are_put_back(request):  # type: ignore[no-untyped-def]
    """A test that leaves another handler for Ctrl-C, SIGTERM or SIGHUP fails here: a later
    test that interrupts the main thread (perft's Ctrl-C tests) would otherwise never stop.

    Not the Ray tests (marked ray, run in a step of their own): ray.init installs its own
    SIGTERM handler for as long as the cluster fixture keeps Ray up."""
    if request.node.get_closest_marker("ray") is not None:
        yield
        return
    before = {number: signal.getsignal(number) for number in _GUARDED_SIGNALS}
    yield
    after = {number: signal.getsignal(number) for number in _GUARDED_SIGNALS}
    for number, handler in before.items():
        if after[number] is not handler:
            signal.signal(number, handler)  # put it back, so only this test fails
    changed = [signal.Signals(n).name for n in before if after[n] is not before[n]]
    assert not changed, f"the test left other handlers for {changed}"


def load_script(path: Path, name: str) -> ModuleType:
    """The script, example or fuzz target at path (not a package module), loaded as name."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
