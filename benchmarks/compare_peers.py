"""Compare xiangqi with other Python xiangqi libraries on the same workloads.

Usage (from the repository root, with our extension built in place)::

    python benchmarks/compare_peers.py [--pypi-xiangqi-site DIR] [--json out.json]

This script installs nothing. Each peer that can be imported is measured; a
missing one gets the row "not installed", and a peer that raises gets
"error: ...". One way to get the peers without touching your own environment
(the venv must use the same Python as our built extension)::

    python -m venv /tmp/peers
    /tmp/peers/bin/pip install cchess chinese-chess-lib pyffish
    /tmp/peers/bin/pip install --target /tmp/pypi-xiangqi xiangqi
    /tmp/peers/bin/python benchmarks/compare_peers.py --pypi-xiangqi-site /tmp/pypi-xiangqi

Peers:

* ``cchess`` (PyPI cchess): pure Python; ``ChessBoard`` with ``create_moves``,
  ``is_checked_move``, ``move`` and ``next_turn``. It has no undo.
* ``chinese_chess_lib`` (PyPI chinese-chess-lib): a pybind11 module with
  ``get_legal_moves(board, piece, True)`` for one piece on a caller-owned 10x9
  grid of ``Chess`` objects (names are pinyin initials: j s x m c p b for king,
  advisor, elephant, horse, rook, cannon, pawn; upper case is Red). It has no
  FEN parser and no make/unmake, so those parts are the adapter's own code.
* ``xiangqi`` (PyPI xiangqi, "Chinese Chess Environment for Reinforcement
  Learning"): its import name is ``xiangqi``, the same as ours, and it puts its
  own directory on sys.path and imports top-level modules named board, piece,
  constants, env. So it never shares a process with ours: it runs in a child
  Python (``-s``, no PYTHONPATH) whose sys.path starts with its own site
  directory and never holds our repository. The directory is --pypi-xiangqi-site
  (or $XIANGQI_PYPI_SITE), or the site directory of an installed distribution
  named "xiangqi" (ours is "xiangqi-rules"). If neither exists the row says so.
* ``pyffish`` (Fairy-Stockfish's binding, variant "xiangqi"): a stateless API
  over FEN plus a move list; its move text counts ranks 1..10 (ICCS h2e2 is
  pyffish h3e3).

Workloads (the same positions for every library, from benchmarks/positions.py):

* perft from the start position in leaf nodes per second. Peers have no perft,
  so the adapter recurses through their API, counting moves at the last ply.
  Every peer first runs depths 1, 2, 3 and each count is checked against
  44 / 1920 / 79666 (a wrong count is printed as a note); the depth-3 run is the
  timed one, deeper only while the next depth is estimated to take less than
  --perft-budget seconds. Ours is shown at the same depth twice: the core's C
  perft, and a Python loop over legal_moves() / push() / pop() like the peers'.
  Ours alone also at depth 5.
* legal move generation, calls per second: the start position, and 8 middlegames.
* push/pop pairs per second: every legal move of those positions made and unmade.
* FEN parsing, parses per second: the start position and the 8 middlegames.

Queries against python-chess (``--queries`` runs only this table; needs ``chess``):
the same question asked of our Position on the 9 positions above and of python-chess's
Board on 5 chess positions (start, Kiwipete and three middlegames), calls per second
over every square (both colours where the query takes one): attackers,
is_attacked_by, attacks, piece_at, is_check, and listing the legal and pseudo-legal
moves (python-chess: ``list(board.legal_moves)``). ``list(pos.legal_moves)`` is also
set against our generate_legal(pos). A ratio above 1 means ours answers faster.

Rates are the best of 5 repeats of a batch sized to --budget seconds (one run
for anything slower), so other work on the machine skews them less. Each peer's
legal move lists are also compared with ours on all 9 positions.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
import timeit
import traceback
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from positions import (  # noqa: E402
    PEER_MIDGAME_FENS,
    RANDOM_MIDGAME_FENS,
    START_FEN,
    START_PERFT,
)

MID_FENS: tuple[str, ...] = PEER_MIDGAME_FENS + RANDOM_MIDGAME_FENS[:4]
ALL_FENS: tuple[str, ...] = (START_FEN, *MID_FENS)
FILES = "abcdefghi"
PYPI_XIANGQI = "xiangqi (PyPI)"


# -- timing --------------------------------------------------------------------


def rate(fn: Callable[[], object], ops: int, budget: float) -> float:
    """Operations per second of fn (which does ops operations): best of 5 batches."""
    start = time.perf_counter()
    fn()
    first = time.perf_counter() - start
    if first >= budget / 2:
        return ops / first
    number = max(1, int(budget / 5 / max(first, 1e-9)))
    best = min(timeit.repeat(fn, repeat=5, number=number))
    return ops * number / best


# -- adapters: one per library ---------------------------------------------------


class Backend:
    """The workloads' view of one library. Subclasses fill in the verbs."""

    name = ""
    notes: dict[str, str] = {}

    def version(self) -> str:
        raise NotImplementedError

    def load(self, fen: str) -> Any:
        """Parse fen into the library's position object (the FEN workload)."""
        raise NotImplementedError

    def legal(self, state: Any) -> list[Any]:
        """The legal moves of the side to move, in the library's own form."""
        raise NotImplementedError

    def iccs(self, state: Any, move: Any) -> str:
        """ICCS text of one of legal(state)'s moves (ranks 0..9)."""
        raise NotImplementedError

    def push_pop_all(self, state: Any, moves: list[Any]) -> int:
        """Make and unmake each move; return how many pairs were done."""
        raise NotImplementedError

    def perft(self, state: Any, depth: int) -> int:
        raise NotImplementedError


class Ours(Backend):
    name = "ours"

    def __init__(self) -> None:
        import xiangqi

        self.xq = xiangqi

    def version(self) -> str:
        return str(self.xq.__version__)

    def load(self, fen: str) -> Any:
        return self.xq.Position(fen)

    def legal(self, state: Any) -> list[Any]:
        return self.xq.generate_legal(state)

    def iccs(self, state: Any, move: Any) -> str:
        return str(move)

    def push_pop_all(self, state: Any, moves: list[Any]) -> int:
        push, pop = state.push, state.pop
        for move in moves:
            push(move)
            pop()
        return len(moves)

    def perft(self, state: Any, depth: int) -> int:
        return int(state.perft(depth))

    def py_perft(self, state: Any, depth: int) -> int:
        """perft through the Python API, the way the peers' adapters do it."""
        moves = state.legal_moves()
        if depth <= 1:
            return len(moves)
        push, pop, total = state.push, state.pop, 0
        for move in moves:
            push(move)
            total += self.py_perft(state, depth - 1)
            pop()
        return total


class CChess(Backend):
    name = "cchess"
    notes = {
        "legal": "create_moves() filtered by is_checked_move(), as its no_moves() does",
        "push_pop": "no undo: push = copy() + move() + next_turn(), pop = drop the copy",
        "perft": "children by copy() + _move_piece() + next_turn(), as is_checked_move() does",
    }

    def __init__(self) -> None:
        import cchess

        self.cc = cchess

    def version(self) -> str:
        from importlib.metadata import version

        return version("cchess")

    def load(self, fen: str) -> Any:
        return self.cc.ChessBoard(fen)

    def legal(self, state: Any) -> list[Any]:
        checked = state.is_checked_move
        return [mv for mv in state.create_moves() if not checked(mv[0], mv[1])]

    def iccs(self, state: Any, move: Any) -> str:
        return str(self.cc.pos2iccs(move[0], move[1]))

    def push_pop_all(self, state: Any, moves: list[Any]) -> int:
        for frm, to in moves:
            child = state.copy()
            child.move(frm, to)
            child.next_turn()
        return len(moves)

    def perft(self, state: Any, depth: int) -> int:
        moves = self.legal(state)
        if depth <= 1:
            return len(moves)
        total = 0
        for frm, to in moves:
            child = state.copy()
            child._move_piece(frm, to)
            child.next_turn()
            total += self.perft(child, depth - 1)
        return total


class ChineseChessLib(Backend):
    name = "chinese_chess_lib"
    notes = {
        "fen": "no FEN parser: times the adapter building its grid of Chess objects",
        "legal": "get_legal_moves(grid, piece, True) for each piece of the side to move",
        "push_pop": "no make/unmake: the adapter moves Chess objects on its own grid",
    }
    RED, BLACK = "#FF0000", "#000000"
    #: FEN letter -> piece name (pinyin initials; upper case is Red).
    NAMES = {
        "k": "j",
        "a": "s",
        "b": "x",
        "e": "x",
        "n": "m",
        "h": "m",
        "r": "c",
        "c": "p",
        "p": "b",
    }

    def __init__(self) -> None:
        import chinese_chess_lib

        self.lib = chinese_chess_lib

    def version(self) -> str:
        return str(self.lib.__version__)

    def load(self, fen: str) -> Any:
        fields = fen.split()
        grid: list[list[Any]] = [[None] * 9 for _ in range(10)]
        for y, row in enumerate(fields[0].split("/")):  # y = 0 is rank 9
            x = 0
            for ch in row:
                if ch.isdigit():
                    x += int(ch)
                    continue
                piece = self.lib.Chess()
                piece.x, piece.y = x, y
                name = self.NAMES[ch.lower()]
                piece.name = name.upper() if ch.isupper() else name
                piece.color = self.RED if ch.isupper() else self.BLACK
                grid[y][x] = piece
                x += 1
        side = self.RED if len(fields) < 2 or fields[1] in "wr" else self.BLACK
        return [grid, side]

    def legal(self, state: Any) -> list[Any]:
        grid, side = state
        get = self.lib.get_legal_moves
        moves: list[Any] = []
        for row in grid:
            for piece in row:
                if piece is not None and piece.color == side:
                    moves.extend((piece, dx, dy) for _, dx, dy in get(grid, piece, True))
        return moves

    def iccs(self, state: Any, move: Any) -> str:
        piece, dx, dy = move
        x, y = piece.x, piece.y
        return f"{FILES[x]}{9 - y}{FILES[x + dx]}{9 - (y + dy)}"

    def _make(self, grid: list[list[Any]], move: Any) -> tuple[int, int, Any]:
        piece, dx, dy = move
        x, y = piece.x, piece.y
        captured = grid[y + dy][x + dx]
        grid[y][x] = None
        grid[y + dy][x + dx] = piece
        piece.x, piece.y = x + dx, y + dy
        return x, y, captured

    @staticmethod
    def _unmake(grid: list[list[Any]], piece: Any, undo: tuple[int, int, Any]) -> None:
        x, y, captured = undo
        grid[piece.y][piece.x] = captured
        piece.x, piece.y = x, y
        grid[y][x] = piece

    def push_pop_all(self, state: Any, moves: list[Any]) -> int:
        grid = state[0]
        for move in moves:
            undo = self._make(grid, move)
            self._unmake(grid, move[0], undo)
        return len(moves)

    def perft(self, state: Any, depth: int) -> int:
        moves = self.legal(state)
        if depth <= 1:
            return len(moves)
        grid, side = state
        child = [grid, self.BLACK if side == self.RED else self.RED]
        total = 0
        for move in moves:
            undo = self._make(grid, move)
            total += self.perft(child, depth - 1)
            self._unmake(grid, move[0], undo)
        return total


class PyFfish(Backend):
    name = "pyffish"
    VARIANT = "xiangqi"
    notes = {
        "fen": "get_fen(variant, fen, []): parse and write back (no parse-only call)",
        "push_pop": "stateless: push = get_fen(variant, fen, [move]), pop = keep the old FEN",
        "perft": "legal_moves(variant, fen, moves played so far) at every node",
    }
    _MOVE = re.compile(r"([a-i])(\d+)([a-i])(\d+)$")

    def __init__(self) -> None:
        import pyffish

        self.sf = pyffish

    def version(self) -> str:
        from importlib.metadata import version

        return version("pyffish")

    def load(self, fen: str) -> Any:
        return self.sf.get_fen(self.VARIANT, fen, [])

    def legal(self, state: Any) -> list[Any]:
        moves: list[Any] = self.sf.legal_moves(self.VARIANT, state, [])
        return moves

    def iccs(self, state: Any, move: Any) -> str:
        found = self._MOVE.match(move)
        if found is None:
            raise ValueError(f"unexpected pyffish move text {move!r}")
        f1, r1, f2, r2 = found.groups()
        return f"{f1}{int(r1) - 1}{f2}{int(r2) - 1}"

    def push_pop_all(self, state: Any, moves: list[Any]) -> int:
        get_fen, variant = self.sf.get_fen, self.VARIANT
        for move in moves:
            get_fen(variant, state, [move])
        return len(moves)

    def perft(self, state: Any, depth: int) -> int:
        return self._perft(state, [], depth)

    def _perft(self, fen: str, played: list[str], depth: int) -> int:
        moves = self.sf.legal_moves(self.VARIANT, fen, played)
        if depth <= 1:
            return len(moves)
        return sum(self._perft(fen, [*played, move], depth - 1) for move in moves)


class PyPIXiangqi(Backend):
    """PyPI xiangqi 1.0.x; only ever imported in a child process (see the module doc)."""

    name = PYPI_XIANGQI
    notes = {
        "fen": "Board(fen) (board field; the side is passed separately)",
        "legal": "Board.get_final_valid_actions(camp)",
        "push_pop": "Board.virtual_move() / Board.undo_virtual_move()",
    }

    def __init__(self) -> None:
        import xiangqi

        if not hasattr(xiangqi, "Env") or hasattr(xiangqi, "Position"):
            raise ImportError(f"{xiangqi.__file__} is not the PyPI xiangqi package")
        from board import Board  # its own top-level module (it extends sys.path)
        from constants import Camp

        self.xq, self.Board, self.Camp = xiangqi, Board, Camp

    def version(self) -> str:
        return str(self.xq.__version__)

    def load(self, fen: str) -> Any:
        fields = fen.split()
        camp = self.Camp.BLACK if len(fields) > 1 and fields[1] == "b" else self.Camp.RED
        return (self.Board(fen), camp)

    def legal(self, state: Any) -> list[Any]:
        board, camp = state
        return board.get_final_valid_actions(camp)  # type: ignore[no-any-return]

    def iccs(self, state: Any, move: Any) -> str:
        piece, (col, row) = move["piece"], move["dst"]
        return f"{FILES[piece.col]}{9 - piece.row}{FILES[col]}{9 - row}"

    def push_pop_all(self, state: Any, moves: list[Any]) -> int:
        board = state[0]
        for move in moves:
            piece = move["piece"]
            _, back, captured = board.virtual_move(piece, move["dst"])
            board.undo_virtual_move(piece, back, captured)
        return len(moves)

    def perft(self, state: Any, depth: int) -> int:
        moves = self.legal(state)
        if depth <= 1:
            return len(moves)
        board, camp = state
        child = (board, camp.opponent())
        total = 0
        for move in moves:
            piece = move["piece"]
            _, back, captured = board.virtual_move(piece, move["dst"])
            try:
                total += self.perft(child, depth - 1)
            finally:
                board.undo_virtual_move(piece, back, captured)
        return total


IN_PROCESS: dict[str, Callable[[], Backend]] = {
    "cchess": CChess,
    "chinese_chess_lib": ChineseChessLib,
    "pyffish": PyFfish,
}
PEER_ORDER = ["cchess", "chinese_chess_lib", PYPI_XIANGQI, "pyffish"]


# -- running the workloads -----------------------------------------------------


def _error(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}".replace("\n", " ")
    return text if len(text) <= 90 else text[:87] + "..."


def measure(backend: Backend, args: argparse.Namespace, perft: bool = True) -> dict[str, Any]:
    """Run every workload on backend; each result is {"rate": ...} or {"error": ...}."""
    out: dict[str, Any] = {"version": backend.version(), "notes": backend.notes, "rows": {}}
    rows: dict[str, dict[str, Any]] = out["rows"]

    def guarded(key: str, work: Callable[[], dict[str, Any]]) -> None:
        try:
            rows[key] = work()
        except Exception as exc:  # a peer that errors must not stop the others
            rows[key] = {"error": _error(exc)}
            if args.verbose:
                traceback.print_exc()

    def perft_work() -> dict[str, Any]:
        state = backend.load(START_FEN)
        counts: list[int] = []
        seconds: list[float] = []
        wrong: list[str] = []
        max_depth = 2 if args.quick else args.max_depth
        depth = 0
        while depth < max_depth:
            if depth >= 3 and seconds[-1] * counts[-1] / max(counts[-2], 1) > args.perft_budget:
                break
            depth += 1
            start = time.perf_counter()
            counts.append(backend.perft(state, depth))
            seconds.append(time.perf_counter() - start)
            if depth <= len(START_PERFT) and counts[-1] != START_PERFT[depth - 1]:
                wrong.append(f"perft({depth}) = {counts[-1]}, expected {START_PERFT[depth - 1]}")
        return {
            "depth": depth,
            "counts": counts,
            "seconds": seconds,
            "rate": counts[-1] / seconds[-1],
            "wrong": wrong,
        }

    if perft:
        guarded("perft", perft_work)

    def legal_work(fens: tuple[str, ...]) -> dict[str, Any]:
        states = [backend.load(fen) for fen in fens]
        legal = backend.legal
        return {"rate": rate(lambda: [legal(s) for s in states], len(states), args.budget)}

    guarded("legal_start", lambda: legal_work((START_FEN,)))
    guarded("legal_mid", lambda: legal_work(MID_FENS))

    def push_pop_work(fens: tuple[str, ...]) -> dict[str, Any]:
        states = [backend.load(fen) for fen in fens]
        moves = [backend.legal(state) for state in states]
        pairs = sum(len(m) for m in moves)
        work = backend.push_pop_all

        def run() -> None:
            for state, legal in zip(states, moves):
                work(state, legal)

        result: dict[str, Any] = {"rate": rate(run, pairs, args.budget)}
        after = [sorted(backend.iccs(s, m) for m in backend.legal(s)) for s in states]
        before = [sorted(backend.iccs(s, m) for m in legal) for s, legal in zip(states, moves)]
        if after != before:
            result["wrong"] = ["push/pop did not restore the position"]
        return result

    guarded("push_pop_start", lambda: push_pop_work((START_FEN,)))
    guarded("push_pop_mid", lambda: push_pop_work(MID_FENS))

    def fen_work() -> dict[str, Any]:
        load = backend.load
        return {"rate": rate(lambda: [load(fen) for fen in ALL_FENS], len(ALL_FENS), args.budget)}

    guarded("fen", fen_work)

    def legal_sets() -> dict[str, Any]:
        sets = {}
        for fen in ALL_FENS:
            state = backend.load(fen)
            sets[fen] = sorted(backend.iccs(state, move) for move in backend.legal(state))
        return {"sets": sets}

    guarded("legal_sets", legal_sets)
    return out


def measure_ours_extra(ours: Ours, depths: set[int], args: argparse.Namespace) -> dict[str, Any]:
    """Our perft rates at every depth a peer reached, in C and through Python."""
    pos = ours.load(START_FEN)
    c_rates: dict[int, float] = {}
    py_rates: dict[int, float] = {}
    for depth in sorted(depths | {5}):
        nodes = START_PERFT[depth - 1]
        if ours.perft(pos, depth) != nodes:
            raise SystemExit(f"our perft({depth}) is not {nodes}")
        c_rates[depth] = rate(partial(ours.perft, pos, depth), nodes, args.budget)
        if depth in depths:
            if ours.py_perft(pos, depth) != nodes:
                raise SystemExit(f"our Python-driven perft({depth}) is not {nodes}")
            py_rates[depth] = rate(partial(ours.py_perft, pos, depth), nodes, args.budget)
    return {"perft_c": c_rates, "perft_py": py_rates}


# -- the PyPI xiangqi package, in a child process -------------------------------


def pypi_xiangqi_site(args: argparse.Namespace) -> str | None:
    if args.pypi_xiangqi_site:
        return str(args.pypi_xiangqi_site)
    if os.environ.get("XIANGQI_PYPI_SITE"):
        return os.environ["XIANGQI_PYPI_SITE"]
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        dist = distribution("xiangqi")  # ours is distributed as "xiangqi-rules"
    except PackageNotFoundError:
        return None
    return str(dist.locate_file(""))


def run_pypi_xiangqi(site: str, args: argparse.Namespace) -> dict[str, Any]:
    if not (Path(site) / "xiangqi" / "__init__.py").is_file():
        return {"missing": f"no xiangqi package in {site}"}
    command = [sys.executable, "-s", str(Path(__file__).resolve()), "--worker", "--site", site]
    command += ["--budget", str(args.budget), "--perft-budget", str(args.perft_budget)]
    command += ["--max-depth", str(args.max_depth)] + (["--quick"] if args.quick else [])
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    try:
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            env=env,
            cwd=tempfile.gettempdir(),
            timeout=args.worker_timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {args.worker_timeout} s"}
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"error": f"child exited {done.returncode}: {tail}"}
    return json.loads(lines[-1])  # type: ignore[no-any-return]


def worker_main(args: argparse.Namespace) -> int:
    """Child process: load the PyPI xiangqi from args.site and print one JSON line."""
    sys.path.insert(0, args.site)
    try:
        backend = PyPIXiangqi()
    except Exception as exc:
        print(json.dumps({"missing": _error(exc)}))
        return 0
    print(json.dumps(measure(backend, args)))
    return 0


# -- the report ------------------------------------------------------------------


def fmt_rate(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:,.0f}" if value >= 100 else f"{value:,.1f}"


def fmt_ratio(ours: float | None, peer: float | None) -> str:
    if not ours or not peer:
        return "-"
    ratio = ours / peer
    return f"{ratio:,.0f}x" if ratio >= 100 else f"{ratio:,.2f}x" if ratio < 10 else f"{ratio:.1f}x"


def build_table(
    ours_rows: dict[str, Any], ours_extra: dict[str, Any], peers: dict[str, dict[str, Any]]
) -> tuple[list[list[str]], list[str]]:
    n_mid, n_all = len(MID_FENS), len(ALL_FENS)
    labels = {
        "legal_start": "legal moves, start position (calls/s)",
        "legal_mid": f"legal moves, {n_mid} middlegames (calls/s)",
        "push_pop_start": "push/pop, start position (pairs/s)",
        "push_pop_mid": f"push/pop, {n_mid} middlegames (pairs/s)",
        "fen": f"FEN parse, {n_all} FENs (parses/s)",
    }
    rows: list[list[str]] = []
    notes: list[str] = []
    rows.append(
        [
            "perft(start, 5), ours in C (leaves/s)",
            "(ours only)",
            fmt_rate(ours_extra["perft_c"].get(5)),
            "-",
            "-",
        ]
    )
    for name in PEER_ORDER:
        result = peers[name]
        if "missing" in result or "error" in result:
            status = result.get("missing") or f"error: {result['error']}"
            rows.append(["(all workloads)", name, "-", status, "-"])
            continue
        version = result["version"]
        peer_label = f"{name} {version}"
        perft = result["rows"]["perft"]
        if "error" in perft:
            rows.append(
                ["perft(start) (leaves/s)", peer_label, "-", f"error: {perft['error']}", "-"]
            )
        else:
            depth = perft["depth"]
            c_rate = ours_extra["perft_c"].get(depth)
            py_rate = ours_extra["perft_py"].get(depth)
            rows.append(
                [
                    f"perft(start, {depth}), ours in C (leaves/s)",
                    peer_label,
                    fmt_rate(c_rate),
                    fmt_rate(perft["rate"]),
                    fmt_ratio(c_rate, perft["rate"]),
                ]
            )
            rows.append(
                [
                    f"perft(start, {depth}), ours via Python push/pop (leaves/s)",
                    peer_label,
                    fmt_rate(py_rate),
                    fmt_rate(perft["rate"]),
                    fmt_ratio(py_rate, perft["rate"]),
                ]
            )
            counts = ", ".join(f"{c}" for c in perft["counts"])
            secs = ", ".join(f"{s:.3g}" for s in perft["seconds"])
            if perft["wrong"]:
                notes.append(f"{name}: WRONG perft counts: {'; '.join(perft['wrong'])}")
            else:
                checked = min(3, len(perft["counts"]))
                notes.append(
                    f"{name}: perft counts {counts} (right for depths 1..{checked}); seconds {secs}"
                )
        for key, label in labels.items():
            cell = result["rows"][key]
            ours_cell = ours_rows[key]
            if "error" in cell:
                rows.append(
                    [
                        label,
                        peer_label,
                        fmt_rate(ours_cell.get("rate")),
                        f"error: {cell['error']}",
                        "-",
                    ]
                )
                continue
            rows.append(
                [
                    label,
                    peer_label,
                    fmt_rate(ours_cell.get("rate")),
                    fmt_rate(cell["rate"]),
                    fmt_ratio(ours_cell.get("rate"), cell["rate"]),
                ]
            )
            for wrong in cell.get("wrong", []):
                notes.append(f"{name}: {label}: {wrong}")
        notes.extend(f"{name}: {what}: {how}" for what, how in result["notes"].items())
        notes.append(
            f"{name}: {compare_sets(ours_rows['legal_sets'], result['rows']['legal_sets'])}"
        )
    return rows, notes


def compare_sets(ours: dict[str, Any], peer: dict[str, Any]) -> str:
    if "error" in peer:
        return f"legal move lists not compared: {peer['error']}"
    agree = 0
    diffs = []
    for index, fen in enumerate(ALL_FENS):
        mine, theirs = set(ours["sets"][fen]), set(peer["sets"].get(fen, []))
        if mine == theirs:
            agree += 1
            continue
        extra, missing = sorted(theirs - mine), sorted(mine - theirs)
        diffs.append(f"#{index} extra {extra[:4]} missing {missing[:4]}")
    text = f"legal move lists agree with ours on {agree}/{len(ALL_FENS)} positions"
    return text + ("" if not diffs else " (" + "; ".join(diffs) + ")")


def print_table(rows: list[list[str]]) -> None:
    header = ["workload", "peer", "ours (ops/s)", "peer (ops/s)", "ratio (ours/peer)"]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    right = {2, 3, 4}

    def line(cells: list[str]) -> str:
        padded = [
            c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths))
        ]
        return "| " + " | ".join(padded) + " |"

    print(line(header))
    print(
        "|"
        + "|".join(
            ("-" * (w + 1) + ":") if i in right else "-" * (w + 2) for i, w in enumerate(widths)
        )
        + "|"
    )
    for row in rows:
        print(line(row))


# -- queries against python-chess ---------------------------------------------------

CHESS_FENS = (
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r2q1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
    "2r2rk1/1b2qppp/p3pn2/1p6/3P4/P1NBQ3/1P3PPP/2R2RK1 b - - 3 19",
)


def measure_queries(budget: float) -> list[dict[str, Any]]:
    """Rates of the query workloads, ours and python-chess's (see the module docstring)."""
    import chess

    sys.path.insert(0, str(REPO))
    import xiangqi

    positions = [xiangqi.Position(fen) for fen in ALL_FENS]
    boards = [chess.Board(fen) for fen in CHESS_FENS]
    colors = (xiangqi.RED, xiangqi.BLACK)
    squares = range(90)

    def ours_attackers() -> None:
        for pos in positions:
            attackers = pos.attackers
            for color in colors:
                for sq in squares:
                    attackers(color, sq)

    def theirs_attackers() -> None:
        for board in boards:
            attackers = board.attackers
            for color in chess.COLORS:
                for sq in chess.SQUARES:
                    attackers(color, sq)

    def ours_attacked() -> None:
        for pos in positions:
            attacked = pos.is_attacked_by
            for color in colors:
                for sq in squares:
                    attacked(color, sq)

    def theirs_attacked() -> None:
        for board in boards:
            attacked = board.is_attacked_by
            for color in chess.COLORS:
                for sq in chess.SQUARES:
                    attacked(color, sq)

    def ours_attacks() -> None:
        for pos in positions:
            attacks = pos.attacks
            for sq in squares:
                attacks(sq)

    def theirs_attacks() -> None:
        for board in boards:
            attacks = board.attacks
            for sq in chess.SQUARES:
                attacks(sq)

    def ours_piece_at() -> None:
        for pos in positions:
            piece_at = pos.piece_at
            for sq in squares:
                piece_at(sq)

    def theirs_piece_at() -> None:
        for board in boards:
            piece_at = board.piece_at
            for sq in chess.SQUARES:
                piece_at(sq)

    n_ours, n_theirs = len(positions), len(boards)
    workloads = [
        ("attackers(color, sq)", ours_attackers, 180 * n_ours, theirs_attackers, 128 * n_theirs),
        ("is_attacked_by(color, sq)", ours_attacked, 180 * n_ours, theirs_attacked, 128 * n_theirs),
        ("attacks(sq)", ours_attacks, 90 * n_ours, theirs_attacks, 64 * n_theirs),
        ("piece_at(sq)", ours_piece_at, 90 * n_ours, theirs_piece_at, 64 * n_theirs),
        (
            "is_check()",
            lambda: [p.is_check() for p in positions],
            n_ours,
            lambda: [b.is_check() for b in boards],
            n_theirs,
        ),
        (
            "list(legal_moves)",
            lambda: [list(p.legal_moves) for p in positions],
            n_ours,
            lambda: [list(b.legal_moves) for b in boards],
            n_theirs,
        ),
        (
            "list(pseudo_legal_moves)",
            lambda: [list(p.pseudo_legal_moves) for p in positions],
            n_ours,
            lambda: [list(b.pseudo_legal_moves) for b in boards],
            n_theirs,
        ),
    ]
    rows = []
    for name, ours_fn, ours_ops, theirs_fn, theirs_ops in workloads:
        ours_rate = rate(ours_fn, ours_ops, budget)
        theirs_rate = rate(theirs_fn, theirs_ops, budget)
        rows.append({"query": name, "ours": ours_rate, "python-chess": theirs_rate})
    generate = rate(lambda: [xiangqi.generate_legal(p) for p in positions], n_ours, budget)
    listed = rate(lambda: [list(p.legal_moves) for p in positions], n_ours, budget)
    rows.append(
        {
            "query": "list(pos.legal_moves) / generate_legal(pos)",
            "ours": listed,
            "generate_legal": generate,
        }
    )
    return rows


def print_queries(rows: list[dict[str, Any]]) -> None:
    table = []
    for row in rows:
        if "python-chess" in row:
            table.append(
                [
                    row["query"],
                    "python-chess",
                    fmt_rate(row["ours"]),
                    fmt_rate(row["python-chess"]),
                    fmt_ratio(row["ours"], row["python-chess"]),
                ]
            )
    print_table(table)
    for row in rows:
        if "generate_legal" in row:
            print(
                f"\n{row['query']}: {fmt_rate(row['ours'])} / {fmt_rate(row['generate_legal'])}"
                f" per second = {row['ours'] / row['generate_legal']:.2f}"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--budget", type=float, default=1.0, help="seconds per rate measurement (default 1.0)"
    )
    parser.add_argument(
        "--perft-budget",
        type=float,
        default=5.0,
        help="go past perft depth 3 only if the next depth should take "
        "less than this many seconds (default 5)",
    )
    parser.add_argument("--max-depth", type=int, default=5, help="deepest peer perft (default 5)")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="smoke test: peer perft only to depth 2 (79666 not checked)",
    )
    parser.add_argument(
        "--peers",
        default=",".join(PEER_ORDER),
        help=f"comma-separated subset of: {', '.join(PEER_ORDER)}",
    )
    parser.add_argument(
        "--pypi-xiangqi-site",
        type=Path,
        default=None,
        help="a directory holding the PyPI 'xiangqi' package "
        "(e.g. from pip install --target DIR xiangqi)",
    )
    parser.add_argument(
        "--queries",
        action="store_true",
        help="only the table of queries against python-chess (attackers, legal moves, ...)",
    )
    parser.add_argument("--worker-timeout", type=float, default=900.0)
    parser.add_argument("--json", type=Path, default=None, help="also write raw results here")
    parser.add_argument("--verbose", action="store_true", help="print peer tracebacks")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--site", default="", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker_main(args)

    sys.path.insert(0, str(REPO))  # our package, built in place, wins over any installed one
    if args.queries:
        print(
            f"# python {platform.python_version()} on {platform.machine()}, "
            f"{os.cpu_count()} cpus, load average {_load()}",
            flush=True,
        )
        query_rows = measure_queries(args.budget)
        print_queries(query_rows)
        if args.json:
            args.json.write_text(json.dumps({"queries": query_rows}, indent=1))
        return 0
    ours = Ours()
    wanted = [p.strip() for p in args.peers.split(",") if p.strip()]
    unknown = sorted(set(wanted) - set(PEER_ORDER))
    if unknown:
        parser.error(f"unknown peers {unknown}; choose from {PEER_ORDER}")

    started = time.perf_counter()
    print(
        f"# python {platform.python_version()} on {platform.machine()}, "
        f"{os.cpu_count()} cpus, load average {_load()}",
        flush=True,
    )
    print(f"# ours: xiangqi {ours.version()} from {Path(str(ours.xq.__file__)).parent}", flush=True)
    ours_rows = measure(ours, args, perft=False)["rows"]
    for key, cell in ours_rows.items():
        if "error" in cell:
            raise SystemExit(f"our own {key} workload failed: {cell['error']}")

    peers: dict[str, dict[str, Any]] = {}
    for name in PEER_ORDER:
        if name not in wanted:
            peers[name] = {"missing": "not selected (--peers)"}
            continue
        print(f"# measuring {name} ...", flush=True)
        if name == PYPI_XIANGQI:
            site = pypi_xiangqi_site(args)
            if site is None:
                peers[name] = {"missing": "not installed (or pass --pypi-xiangqi-site DIR)"}
            else:
                peers[name] = run_pypi_xiangqi(site, args)
            continue
        try:
            backend = IN_PROCESS[name]()
        except ImportError:
            peers[name] = {"missing": "not installed"}
            continue
        except Exception as exc:
            peers[name] = {"error": _error(exc)}
            continue
        try:
            peers[name] = measure(backend, args)
        except Exception as exc:
            peers[name] = {"error": _error(exc)}

    depths = {
        p["rows"]["perft"]["depth"]
        for p in peers.values()
        if "rows" in p and "depth" in p["rows"]["perft"]
    }
    ours_extra = measure_ours_extra(ours, depths, args)
    rows, notes = build_table(ours_rows, ours_extra, peers)
    print()
    print_table(rows)
    print()
    print("Notes:")
    for note in notes:
        print(f"- {note}")
    query_rows: list[dict[str, Any]] = []
    try:
        query_rows = measure_queries(args.budget)
    except ImportError:
        print("\n(python-chess is not installed: no table of queries against it)")
    if query_rows:
        print("\nQueries against python-chess (chess positions for theirs):\n")
        print_queries(query_rows)
    print(f"\n# took {time.perf_counter() - started:.0f} s; load average now {_load()}")
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "ours": ours_rows,
                    "ours_extra": ours_extra,
                    "peers": peers,
                    "queries": query_rows,
                },
                indent=1,
            )
        )
    return 0


def _load() -> str:
    try:
        return "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    except OSError:
        return "n/a"


if __name__ == "__main__":
    raise SystemExit(main())
