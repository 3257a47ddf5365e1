"""The example engine's UCI front end (console script ``xiangqi-example-engine``).

It speaks UCI with Fairy-Stockfish's xiangqi conventions, as xiangqi's engine client
expects of an engine offering ``UCI_Variant`` xiangqi: moves are a file letter a..i and a
rank 1..10 counted from Red's side (``h3e3``), positions come as ``position fen ...
moves ...`` (or ``startpos``). ``go`` takes depth, movetime, wtime/btime/winc/binc,
movestogo, infinite, nodes and searchmoves (``mate`` and ``ponder`` are ignored: the
engine searches as for ``go`` without them); ``stop`` ends a search; ``quit`` leaves.
The search runs in a thread without the GIL, so ``stop`` and ``isready`` are answered
while it thinks. Every ``go`` is answered by one ``bestmove`` line, whatever its
arguments; every line goes out whole (one write under a lock), whichever thread sends
it. A ``position`` command whose FEN is bad leaves the start position; one with an
illegal move keeps the moves before it (as Fairy-Stockfish does); both say so in an
``info string``. SIGINT and SIGTERM stop a running search (its ``bestmove`` is sent)
and end the engine quietly.
"""

from __future__ import annotations

import re
import signal
import sys
import threading
from types import FrameType

import xiangqi

from ._search import Searcher

NAME = "xiangqi-example-engine"
MAX_MILLISECONDS = 10**9  # a ``go`` time beyond this (about 11 days) counts as this
MAX_NODES = 10**15
_NUMBER = re.compile(r"-?[0-9]+\Z", re.ASCII)
_GO_KEYS = {"depth", "movetime", "wtime", "btime", "winc", "binc", "movestogo", "nodes", "mate"}


def move_text(from_square: int, to_square: int) -> str:
    """Public squares (file + 9 * rank) -> UCI text with ranks 1..10 ("h3e3")."""
    return "".join(f"{'abcdefghi'[s % 9]}{s // 9 + 1}" for s in (from_square, to_square))


def parse_move(pos: xiangqi.Position, text: str) -> xiangqi.Move:
    """UCI text with ranks 1..10 (Fairy-Stockfish's) -> a legal Move of pos."""
    squares = []
    rest = text.strip()
    for _ in range(2):
        if not rest or rest[0] not in "abcdefghi":
            raise ValueError(f"bad move {text!r}")
        digits = ""
        rest_after = rest[1:]
        while rest_after[:1] and rest_after[0] in "0123456789":  # ASCII digits only
            digits += rest_after[0]
            rest_after = rest_after[1:]
        if not digits or not 1 <= int(digits) <= 10:
            raise ValueError(f"bad move {text!r}")
        squares.append("abcdefghi".index(rest[0]) + 9 * (int(digits) - 1))
        rest = rest_after
    if rest:
        raise ValueError(f"bad move {text!r}")
    move = xiangqi.Move(squares[0], squares[1])
    if not pos.is_legal(move):
        raise ValueError(f"illegal move {text!r} in {pos.fen()}")
    return move


def go_values(tokens: list[str]) -> dict[str, int]:
    """The numeric arguments of a ``go`` command: ASCII digits only (an optional
    leading ``-``), at most 18 digits kept (a longer number counts as huge), each
    clamped to 0..MAX_NODES; a key with a malformed value is ignored."""
    values: dict[str, int] = {}
    for key, value in zip(tokens, tokens[1:]):
        if key in _GO_KEYS and _NUMBER.match(value):
            digits = value.lstrip("-")
            number = int(digits) if len(digits) <= 18 else MAX_NODES
            values[key] = 0 if value.startswith("-") else min(number, MAX_NODES)
    return values


def think_time(tokens: list[str], red_to_move: bool) -> tuple[int, float]:
    """(depth, seconds) of a ``go`` command's tokens; seconds 0 for no time limit."""
    values = {
        key: min(value, MAX_MILLISECONDS) if key != "depth" else value
        for key, value in go_values(tokens).items()
    }
    depth = min(max(values.get("depth", 64), 1), 64)
    if "movetime" in values:
        return depth, max(values["movetime"], 1) / 1000
    clock = values.get("wtime" if red_to_move else "btime")
    if clock is not None:
        inc = values.get("winc" if red_to_move else "binc", 0)
        moves_left = values.get("movestogo", 30)
        budget = clock / max(moves_left, 1) + inc * 0.8
        return depth, max(min(budget, clock * 0.5), 1) / 1000
    if "depth" in values or "infinite" in tokens:
        return depth, 0.0
    return depth, 1.0


class Engine:
    """The UCI state: the position, the searcher and the thread of a running search."""

    def __init__(self, out: object = sys.stdout) -> None:
        self.out = out
        self.position = xiangqi.Position()
        self.searcher = Searcher()
        self.thread: threading.Thread | None = None
        self.lock = threading.Lock()

    def send(self, line: str) -> None:
        """Write one whole line (text and newline in one write, under the lock): the
        search thread and the main thread never interleave inside a line."""
        with self.lock:
            self.out.write(line + "\n")  # type: ignore[attr-defined]
            self.out.flush()  # type: ignore[attr-defined]

    def wait(self) -> None:
        if self.thread is not None:
            self.searcher.stop()
            self.thread.join()
            self.thread = None

    def set_position(self, tokens: list[str]) -> None:
        if "moves" in tokens:
            cut = tokens.index("moves")
            head, moves = tokens[:cut], tokens[cut + 1 :]
        else:
            head, moves = tokens, []
        # Whatever fails, the previous position is gone: a bad head gives the start
        # position, an illegal move keeps the moves before it (Fairy-Stockfish's way).
        self.position = xiangqi.Position()
        if head[:1] == ["startpos"] and len(head) == 1:
            pos = xiangqi.Position()
        elif head[:1] == ["fen"]:
            try:
                pos = xiangqi.Position(" ".join(head[1:]))
            except ValueError as error:
                raise ValueError(f"{error}; using the start position") from None
        else:
            raise ValueError(
                f"position needs startpos or fen: {' '.join(tokens)!r}; using the start position"
            )
        self.position = pos
        for text in moves:
            try:
                move = parse_move(pos, text)
            except ValueError as error:
                raise ValueError(f"{error}; the moves before it are played") from None
            pos.push(move)

    def root_moves(self, tokens: list[str]) -> list[tuple[int, int]] | None:
        """The ``searchmoves`` of a ``go`` (legal ones only), or None for every move."""
        if "searchmoves" not in tokens:
            return None
        found = []
        for text in tokens[tokens.index("searchmoves") + 1 :]:
            if text in _GO_KEYS or text in ("infinite", "ponder"):
                break
            try:
                move = parse_move(self.position, text)
            except ValueError:
                self.send(f"info string searchmoves: ignoring {text!r}")
                continue
            found.append((move.from_square, move.to_square))
        return found or None

    def go(self, tokens: list[str]) -> None:
        depth, seconds = think_time(tokens, self.position.turn == xiangqi.RED)
        nodes = go_values(tokens).get("nodes", 0)
        restrict = self.root_moves(tokens)
        self.searcher.set_position(self.position)

        def info(d: int, score: int, nodes: int, elapsed: float, best: tuple[int, int]) -> None:
            nps = int(nodes / elapsed) if elapsed > 0 else 0
            self.send(
                f"info depth {d} score cp {score} nodes {nodes} nps {nps} "
                f"time {int(elapsed * 1000)} pv {move_text(*best)}"
            )

        def run() -> None:
            best = None
            try:
                best = self.searcher.search(depth, seconds, info, restrict, nodes)
            except Exception as error:  # never leave a go without its bestmove
                self.send(f"info string search failed: {error}")
            self.send("bestmove (none)" if best is None else f"bestmove {move_text(*best)}")

        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()

    def handle(self, line: str) -> bool:
        """Obey one line; False after ``quit``."""
        tokens = line.split()
        if not tokens:
            return True
        command, args = tokens[0], tokens[1:]
        if command == "uci":
            self.send(f"id name {NAME}")
            self.send("id author the xiangqi developers")
            self.send("option name UCI_Variant type combo default xiangqi var xiangqi")
            self.send("uciok")
        elif command == "isready":
            self.send("readyok")
        elif command == "ucinewgame":
            self.wait()
            self.searcher.clear()
        elif command == "position":
            self.wait()
            try:
                self.set_position(args)
            except ValueError as error:
                self.send(f"info string {error}")
        elif command == "go":
            self.wait()
            try:
                self.go(args)
            except Exception as error:  # answer every go, whatever its arguments
                self.send(f"info string bad go: {error}")
                self.send("bestmove (none)")
        elif command == "stop":
            self.wait()
        elif command == "quit":
            self.wait()
            return False
        # setoption and anything else: nothing to do (UCI engines ignore what they lack).
        return True


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def main() -> None:
    """Read UCI commands from stdin until ``quit`` or end of input; SIGINT or SIGTERM
    stop a running search (its ``bestmove`` is sent) and end the engine quietly."""
    signal.signal(signal.SIGTERM, _interrupt)
    engine = Engine()
    try:
        for line in sys.stdin:
            if not engine.handle(line):
                return
    except KeyboardInterrupt:
        pass
    finally:
        try:
            engine.wait()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
