"""The example engine's UCI front end (console script ``xiangqi-example-engine``).

It speaks UCI with Fairy-Stockfish's xiangqi conventions, as xiangqi's engine client
expects of an engine offering ``UCI_Variant`` xiangqi: moves are a file letter a..i and a
rank 1..10 counted from Red's side (``h3e3``), positions come as ``position fen ...
moves ...`` (or ``startpos``). ``go`` takes depth, movetime, wtime/btime/winc/binc,
movestogo and infinite; ``stop`` ends a search; ``quit`` leaves. The search runs in a
thread without the GIL, so ``stop`` and ``isready`` are answered while it thinks.
"""

from __future__ import annotations

import sys
import threading

import xiangqi

from ._search import Searcher

NAME = "xiangqi-example-engine"


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
        while rest_after[:1].isdigit():
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


def think_time(tokens: list[str], red_to_move: bool) -> tuple[int, float]:
    """(depth, seconds) of a ``go`` command's tokens; seconds 0 for no time limit."""
    values: dict[str, int] = {}
    for key, value in zip(tokens, tokens[1:]):
        if value.lstrip("-").isdigit():
            values[key] = int(value)
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

    def send(self, line: str) -> None:
        print(line, file=self.out, flush=True)  # type: ignore[call-overload]

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
        if head[:1] == ["startpos"]:
            pos = xiangqi.Position()
        elif head[:1] == ["fen"]:
            pos = xiangqi.Position(" ".join(head[1:]))
        else:
            raise ValueError(f"position needs startpos or fen: {' '.join(tokens)!r}")
        for text in moves:
            pos.push(parse_move(pos, text))
        self.position = pos

    def go(self, tokens: list[str]) -> None:
        depth, seconds = think_time(tokens, self.position.turn == xiangqi.RED)
        self.searcher.set_position(self.position)

        def info(d: int, score: int, nodes: int, elapsed: float, best: tuple[int, int]) -> None:
            nps = int(nodes / elapsed) if elapsed > 0 else 0
            self.send(
                f"info depth {d} score cp {score} nodes {nodes} nps {nps} "
                f"time {int(elapsed * 1000)} pv {move_text(*best)}"
            )

        def run() -> None:
            best = self.searcher.search(depth, seconds, info)
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
            self.go(args)
        elif command == "stop":
            self.wait()
        elif command == "quit":
            self.wait()
            return False
        # setoption and anything else: nothing to do (UCI engines ignore what they lack).
        return True


def main() -> None:
    """Read UCI commands from stdin until ``quit`` or end of input."""
    engine = Engine()
    for line in sys.stdin:
        if not engine.handle(line):
            return
    engine.wait()


if __name__ == "__main__":
    main()
