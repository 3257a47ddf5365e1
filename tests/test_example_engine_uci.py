"""The example engine (examples/engine): its UCI front end driven through a subprocess
as a GUI drives it. The extension is built in place in a temporary copy against
xiangqi.get_include() (marked slow: about a minute). Expected moves come from the rules
(a lone legal move, a mate in one a rule book confirms) and from UCI's grammar."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import xiangqi

ROOT = Path(__file__).parent.parent
UCI_LINE = (
    "id ",
    "option name ",
    "uciok",
    "readyok",
    "info depth ",
    "info string ",
    "bestmove ",
)


@pytest.fixture(scope="module")
def engine_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of examples/engine with its extension built in place."""
    folder = tmp_path_factory.mktemp("example_engine") / "engine"
    shutil.copytree(
        ROOT / "examples" / "engine",
        folder,
        ignore=shutil.ignore_patterns("build", "*.egg-info", "*.so", "*.c", "*.html"),
    )
    result = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace", "-q"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return folder


def start(engine_path: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(engine_path)}
    return subprocess.Popen(
        [sys.executable, "-c", "from xiangqi_example_engine.uci import main; main()"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def talk(engine_path: Path, text: str, timeout: float = 120) -> tuple[list[str], str, int]:
    proc = start(engine_path)
    out, err = proc.communicate(text, timeout=timeout)
    return out.splitlines(), err, proc.returncode


def bestmoves(lines: list[str]) -> list[str]:
    return [line.split()[1] for line in lines if line.startswith("bestmove ")]


def uci_move(pos: xiangqi.Position, text: str) -> xiangqi.Move | None:
    """Fairy-Stockfish's text (ranks 1..10) -> the legal move of pos it names, or None."""
    for move in pos.legal_moves:
        squares = (move.from_square, move.to_square)
        name = "".join(f"{'abcdefghi'[s % 9]}{s // 9 + 1}" for s in squares)
        if name == text:
            return move
    return None


@pytest.mark.slow
def test_lines_stay_whole_while_the_search_thread_writes(engine_path: Path) -> None:
    # Short searches while isready floods in: the main thread's readyok and the search
    # thread's info/bestmove lines are written at the same time.
    gos = 150
    text = "position startpos\n" + ("go movetime 2\n" + "isready\n" * 40) * gos + "quit\n"
    lines, err, code = talk(engine_path, text)
    assert code == 0, err
    assert not err
    bad = [line for line in lines if not line.startswith(UCI_LINE)]
    bad += [line for line in lines if line.startswith("bestmove") and len(line.split()) != 2]
    bad += [line for line in lines if "readyok" in line and line != "readyok"]
    assert bad == [], bad[:5]
    moves = bestmoves(lines)
    assert len(moves) == gos
    start_pos = xiangqi.Position()
    assert all(uci_move(start_pos, m) is not None for m in moves)
    assert lines.count("readyok") == 40 * gos


@pytest.mark.slow
def test_an_illegal_move_keeps_the_moves_before_it(engine_path: Path) -> None:
    # After a rook endgame, "position startpos moves h3e3 h3e3": the second h3e3 is
    # illegal (no cannon on h3 any more), so the engine must play Black's move after
    # h3e3, not a move of the previous position (e2e9 there).
    text = (
        "position fen 3k5/9/9/9/9/9/9/9/4R4/5K3 w - - 0 1\n"
        "position startpos moves h3e3 h3e3\ngo depth 3\nisready\n"
    )
    lines, err, code = talk(engine_path, text)
    assert code == 0, err
    assert any(line.startswith("info string ") and "h3e3" in line for line in lines)
    (move,) = bestmoves(lines)
    pos = xiangqi.Position()
    pos.push(xiangqi.Move.from_iccs("h2e2"))  # h3e3 in ranks 1..10
    assert uci_move(pos, move) is not None, move


@pytest.mark.slow
@pytest.mark.parametrize(
    "bad",
    [
        "position fen 3k5/9/9/9/9/9/9/9/not/a/fen w - - 0 1",
        "position fen",
        "position sideways",
    ],
)
def test_a_bad_position_gives_the_start_position(engine_path: Path, bad: str) -> None:
    text = f"position fen 3k5/9/9/9/9/9/9/9/4R4/5K3 w - - 0 1\n{bad}\ngo depth 2\n"
    lines, err, code = talk(engine_path, text)
    assert code == 0, err
    assert any(line.startswith("info string ") and "start position" in line for line in lines)
    (move,) = bestmoves(lines)
    assert uci_move(xiangqi.Position(), move) is not None, move


@pytest.mark.slow
@pytest.mark.parametrize(
    "go",
    [
        "go depth \u00b2",
        "go depth \u0663",  # ARABIC-INDIC DIGIT THREE: str.isdigit() says yes
        "go movetime " + "9" * 5000,
        "go wtime " + "9" * 5000 + " movestogo 0",
        "go nodes " + "9" * 5000 + " depth 2",
        "go movetime -5",
        "go depth",
        "go searchmoves zz99 i1i2",
        "go searchmoves",
    ],
)
def test_every_go_is_answered_by_a_bestmove(engine_path: Path, go: str) -> None:
    text = f"position startpos\n{go}\nisready\nstop\nisready\nquit\n"
    lines, err, code = talk(engine_path, text, timeout=60)
    assert code == 0, err
    assert "Traceback" not in err
    (move,) = bestmoves(lines)
    assert uci_move(xiangqi.Position(), move) is not None, move
    assert lines.count("readyok") == 2


@pytest.mark.slow
def test_searchmoves_restricts_the_root(engine_path: Path) -> None:
    # Black's king (d10) may not step to e10 (the kings would face) nor to d9 (the rook
    # on a9): most Red moves leave it no legal move (困毙, a loss) or mate it (b1b10).
    # searchmoves allows only Ke1-f1 (the e-file opens) and Ra9-a8 (d9 opens).
    fen = "3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1"
    pos = xiangqi.Position(fen)
    lines, err, code = talk(engine_path, f"position fen {fen}\ngo depth 3\n")
    move = uci_move(pos, bestmoves(lines)[0])
    assert move is not None, lines
    child = pos.copy()
    child.push(move)
    assert not list(child.legal_moves), (lines, err)
    text = f"position fen {fen}\ngo depth 3 searchmoves e1f1 a9a8\n"
    lines, err, code = talk(engine_path, text)
    assert code == 0, err
    assert bestmoves(lines)[0] in ("e1f1", "a9a8"), lines
    assert uci_move(pos, "e1f1") is not None and uci_move(pos, "a9a8") is not None


@pytest.mark.slow
def test_go_nodes_limits_the_search(engine_path: Path) -> None:
    # The input stays open: only the node limit can end this depth-64 search.
    proc = start(engine_path)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("position startpos\ngo nodes 500 depth 64\n")
    proc.stdin.flush()
    lines: list[str] = []

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line.strip())
            if line.startswith("bestmove"):
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(20)
    finished = not reader.is_alive()
    proc.communicate("quit\n", timeout=30)  # closes every pipe
    assert finished, lines[-3:]
    assert len(bestmoves(lines)) == 1
    nodes = [int(w[w.index("nodes") + 1]) for w in map(str.split, lines) if "nodes" in w]
    assert all(n <= 500 for n in nodes), nodes


@pytest.mark.slow
def test_no_legal_move_loses_in_the_search(engine_path: Path) -> None:
    # Black: a lone king on d9 (d10). Red's Re7-e8 or Rf7-f8 (e8e9 / f8f9 here) leaves
    # it no legal move without giving check: in xiangqi that side has lost (困毙). Red
    # has no mate in one, so at depth 1 only the quiescence search can see the win.
    fen = "3k5/9/4RR3/9/9/9/9/9/9/5K3 w - - 0 1"
    pos = xiangqi.Position(fen)
    stalemating: list[xiangqi.Move] = []
    mating: list[xiangqi.Move] = []
    for move in pos.legal_moves:
        child = pos.copy()
        child.push(move)
        if not list(child.legal_moves):
            (mating if child.is_check() else stalemating).append(move)
    assert stalemating and not mating
    # Keep stdin open until the search has answered: end of input means quit, which may
    # stop a search before its info line (as a loaded machine showed).
    proc = start(engine_path)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(f"position fen {fen}\ngo depth 1\n")
    proc.stdin.flush()
    lines = []
    for line in proc.stdout:
        lines.append(line.rstrip("\n"))
        if line.startswith("bestmove"):
            break
    _, err = proc.communicate("quit\n", timeout=120)
    assert proc.returncode == 0, err
    scores = [line.split()[line.split().index("cp") + 1] for line in lines if " cp " in line]
    assert int(scores[-1]) > 20000, lines  # a won position (mate score), not material
    best = uci_move(pos, bestmoves(lines)[0])
    assert best is not None
    child = pos.copy()
    child.push(best)
    assert not list(child.legal_moves)


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_stops_the_search_quietly(engine_path: Path, signum: int) -> None:
    proc = start(engine_path)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("position startpos\ngo infinite\n")
    proc.stdin.flush()
    time.sleep(1.5)
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=30)
    assert "Traceback" not in err, err
    assert proc.returncode == 0, (proc.returncode, err)
    (move,) = bestmoves(out.splitlines())
    assert uci_move(xiangqi.Position(), move) is not None
