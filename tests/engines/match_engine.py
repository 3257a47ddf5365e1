"""A scripted UCI engine that plays legal moves, for the match runner's fault and clock tests.

Usage: python match_engine.py [--sleep S] [--score CP] [--log FILE] [--ignore-quit]
[--crash-after N] [--illegal-after N] [--pids FILE].

It greets as a Pikafish-style UCI engine (ranks 0..9), reads "position fen|startpos ...
moves ...", and answers each "go" with the first legal move in ICCS order (by this
checkout's xiangqi package), after sleeping S seconds, with "info depth 1 score cp CP" from
its own side first.

--log FILE          append every "go" line to FILE
--crash-after N     exit with status 3 on search N+1
--illegal-after N   answer search N+1 with a move that is not legal
--pids FILE         append the process id to FILE
--ignore-quit       ignore quit, SIGTERM and the end of its input
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from pathlib import Path

# This checkout's xiangqi when it is built here; else (the sdist's tests run against an
# installed wheel) the installed one, as the test process imports it.
_ROOT = Path(__file__).resolve().parents[2]
if any(p.suffix in (".so", ".pyd") for p in (_ROOT / "xiangqi").glob("_core*")):
    sys.path.insert(0, str(_ROOT))
from xiangqi import Position  # noqa: E402


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sleep", type=float, default=0.0)
    parser.add_argument("--score", type=int, default=None)
    parser.add_argument("--log")
    parser.add_argument("--ignore-quit", action="store_true")
    parser.add_argument("--crash-after", type=int, default=None)
    parser.add_argument("--illegal-after", type=int, default=None)
    parser.add_argument("--pids", help="append this process's id to the file PIDS")
    args = parser.parse_args()
    if args.pids:
        with open(args.pids, "a", encoding="utf-8") as pids:
            pids.write(f"{os.getpid()}\n")
    if args.ignore_quit:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    pos = Position()
    searches = 0
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        if words[0] == "uci":
            say("id name Match Engine")
            say("option name Hash type spin default 16 min 1 max 1024")
            say("uciok")
        elif words[0] == "isready":
            say("readyok")
        elif words[0] == "position":
            if words[1] == "startpos":
                pos, rest = Position(), words[2:]
            else:
                end = words.index("moves") if "moves" in words else len(words)
                pos, rest = Position(" ".join(words[2:end])), words[end:]
            for text in rest[1:]:
                pos.push_iccs(text)
        elif words[0] == "go":
            if args.log:
                with open(args.log, "a", encoding="utf-8") as log:
                    log.write(raw.strip() + "\n")
            if args.crash_after is not None and searches >= args.crash_after:
                sys.exit(3)
            if args.sleep:
                time.sleep(args.sleep)
            if args.score is not None:
                say(f"info depth 1 score cp {args.score}")
            moves = sorted(str(m) for m in pos.legal_moves())
            if args.illegal_after is not None and searches >= args.illegal_after:
                say("bestmove a0a9")
            else:
                say(f"bestmove {moves[0] if moves else '(none)'}")
            searches += 1
        elif words[0] == "quit" and not args.ignore_quit:
            return
    if args.ignore_quit:
        while True:  # end of input: keep running until killed
            time.sleep(1)


if __name__ == "__main__":
    main()
