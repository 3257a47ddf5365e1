"""A scripted, misbehaving UCI/UCCI engine for fault-injection tests (standard library only).

Usage: python fake_engine.py MODE. It answers the handshake like a Pikafish-style UCI engine
(or a UCCI one when greeted with "ucci") and then misbehaves as MODE says:

ok            answers every "go" with "bestmove h2e2" (legal in the start position)
garbage       as ok, with noise lines, a malformed option and malformed info fields between
silent        never answers anything (handshake timeout)
die_in_search exits with status 3 on "go"
illegal       answers "go" with "bestmove a0a5" (the rook is blocked by its own pawn)
unparsable    answers "go" with "bestmove zz99"
bad_pv        sends an info line whose pv holds an illegal move, then bestmove h2e2
hang_search   never answers "go" and ignores "stop"; exits on quit
ignore_quit   as ok, but ignores "quit", SIGTERM and the end of its input
stray_multipv answers "go" only with info lines for lines 2 and 3 (MultiPV was never set to
              more than 1), then "bestmove h2e2"
record        as ok, and appends every line it receives to the file named by $FAKE_LOG
ucci_extras   UCCI answers: "score 23" without "cp", "bestmove ... ponder ... draw", then
              "nobestmove" on the second "go"
slow_start    waits 30 s before answering the handshake (for interrupting start-up)
flood_idle    as ok, but after its first bestmove a thread writes "info string flood" lines
              without end, whether or not a command runs
flood_search  answers "go" with info lines without end, and "stop" with "bestmove h2e2"
env           as ok; its id name reports its working directory and $FAKE_ENV
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "ok"


LOCK = threading.Lock()
SEARCHING = threading.Event()


def say(line: str) -> None:
    with LOCK:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def flood(while_searching: bool) -> None:
    """Write info lines without end (only while a search runs, if while_searching)."""
    chunk = "info string flood " + "x" * 60 + "\n"
    try:
        while True:
            if while_searching:
                SEARCHING.wait()
                with LOCK:
                    if SEARCHING.is_set():
                        sys.stdout.write("info depth 1 score cp 1 nodes 5\n" * 100)
                        sys.stdout.flush()
                continue
            with LOCK:
                sys.stdout.write(chunk * 100)
                sys.stdout.flush()
    except (BrokenPipeError, OSError):
        os._exit(0)


def main() -> None:
    if MODE == "flood_search":
        threading.Thread(target=flood, args=(True,), daemon=True).start()
    if MODE == "ignore_quit":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    log = open(os.environ["FAKE_LOG"], "a") if MODE == "record" else None  # noqa: SIM115
    for raw in sys.stdin:
        line = raw.strip()
        if log is not None:
            log.write(line + "\n")
            log.flush()
        if MODE == "silent":
            continue
        if MODE == "garbage":
            say("\x00\xff garbage ~~~ line")
        if line in ("uci", "ucci"):
            if MODE == "slow_start":
                time.sleep(30)
            if MODE == "env":
                say(f"id name cwd={os.getcwd()} FAKE_ENV={os.environ.get('FAKE_ENV')}")
            else:
                say("id name Fake Engine")
            say("id author xiangqi tests")
            if line == "uci":
                say("option name Hash type spin default 16 min 1 max 1024")
                say("option name Ponder type check default false")
                say("option name Style type combo default Normal var Solid var Normal var Risky")
                say("option name MultiPV type spin default 1 min 1 max 10")
                say("option name Clear Hash type button")
                say("option name EvalFile type string default <empty>")
            else:
                say("option Hash type spin default 16 min 1 max 1024")
                say("option usemillisec type check default false")
                say("option batch type check default false")
            if MODE == "garbage":
                say("option name Broken type spin default x min y max z")
                say("option")
            say("uciok" if line == "uci" else "ucciok")
        elif line == "isready":
            say("readyok")
        elif line.startswith("go"):
            if MODE == "die_in_search":
                # No pv: whether a last line or the exit reaches the client first is a race,
                # so the last words must be harmless whichever side the engine plays.
                say("info depth 1 score cp 10")
                sys.exit(3)
            if MODE == "hang_search":
                continue
            if MODE == "flood_search":
                SEARCHING.set()
                continue
            if MODE == "garbage":
                say("info depth x seldepth 3 score cp y nodes 12 pv h2e2")
                say("info string hello there")
                say("bogus command from the engine")
            if MODE == "stray_multipv":
                say("info depth 1 multipv 2 score cp 50 pv b0c2")
                say("info depth 2 multipv 3 score cp 40 pv h0g2")
            if MODE == "bad_pv":
                say("info depth 2 score cp 5 pv h2e2 h9h0")
            if MODE == "ucci_extras":
                searches = globals().setdefault("searches", [])
                searches.append(line)
                if len(searches) > 1:
                    say("nobestmove")
                    continue
                say("info depth 3 score 23 lowerbound nodes 99 pv h2e2 h9g7")
                say("info depth 3 score -5 nodes 120 time 7 pv h2e2 h9g7")
                say("bestmove h2e2 ponder h9g7 draw")
                continue
            move = {"illegal": "a0a5", "unparsable": "zz99"}.get(MODE, "h2e2")
            say(f"bestmove {move}")
            if MODE == "flood_idle" and not SEARCHING.is_set():
                SEARCHING.set()
                threading.Thread(target=flood, args=(False,), daemon=True).start()
        elif line == "stop" and MODE == "flood_search":
            with LOCK:
                if SEARCHING.is_set():
                    SEARCHING.clear()
                    sys.stdout.write("bestmove h2e2\n")
                    sys.stdout.flush()
        elif line == "quit":
            if MODE == "ignore_quit":
                continue
            if log is not None:
                log.close()
            say("bye")
            return
    if MODE in ("ignore_quit", "silent", "hang_search"):
        while True:  # end of input: keep running until killed
            time.sleep(1)


if __name__ == "__main__":
    main()
