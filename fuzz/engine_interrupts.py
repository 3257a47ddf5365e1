"""Fuzz the engine client under interruption: Ctrl-C at random points, counted for leaks.

Each round picks a scenario and a random delay, starts a timer that sends SIGINT to the main
thread (signal.pthread_kill, as a terminal's Ctrl-C reaches Python), and runs the scenario
against Debian's Fairy-Stockfish (or $XIANGQI_TEST_ENGINE):

    start     SimpleEngine.popen_uci / popen_ucci (start-up and handshake)
    play      play() with a move time, then a check play() on a Black-to-move position
    analysis  iterating analysis() (go infinite), then the same check play()
    configure configure() then ping()
    close     close() of an engine that was just searching (ponder on)

A SIGINT raises KeyboardInterrupt only while the main thread is inside the xiangqi/engine/
package (a handler inspects the stack), so the harness's own bookkeeping is never hit; a signal that
lands elsewhere is counted as "missed". After an interrupt the engine must be usable (the
check play returns a legal move, by pyffish when installed) or clearly closed (EngineError
"closed" or EngineTerminatedError). After every round, once the engine is closed: no child
process (/proc), no extra fd (/proc/self/fd), no extra thread. Anything else is a failure.

    python fuzz/engine_interrupts.py --rounds 400 --seed 1

prints one line per 50 rounds and a summary; exit status 1 if any round failed.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from types import FrameType

# The tree this script is in, before an installed copy (the editable install may point at
# another checkout).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from xiangqi import Position  # noqa: E402
from xiangqi.engine import EngineError, EngineTerminatedError, Limit, SimpleEngine  # noqa: E402
from xiangqi.notation import iccs  # noqa: E402

ENGINE_DIR = str(Path("xiangqi") / "engine") + os.sep
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def child_pids() -> set[int]:
    me, pids = os.getpid(), set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                text = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(text.rsplit(")", 1)[1].split()[1]) == me:
                pids.add(int(entry))
    return pids


def fd_count() -> int:
    return len(os.listdir("/proc/self/fd"))


def in_engine_client(frame: FrameType | None) -> bool:
    while frame is not None:
        if ENGINE_DIR in frame.f_code.co_filename:
            return True
        frame = frame.f_back
    return False


class Harness:
    def __init__(self, engine_path: str, seed: int) -> None:
        self.engine_path = engine_path
        self.rng = random.Random(seed)
        self.landed = Counter[str]()
        self.outcomes = Counter[str]()
        self.failures: list[str] = []
        signal.signal(signal.SIGINT, self._handler)
        try:
            import pyffish

            self.pyffish = pyffish
        except ImportError:  # pragma: no cover
            self.pyffish = None

    def _handler(self, signum: int, frame: FrameType | None) -> None:
        if in_engine_client(frame):
            self.landed["inside"] += 1
            raise KeyboardInterrupt
        self.landed["missed"] += 1

    def open(self) -> SimpleEngine:
        if self.rng.random() < 0.5:
            return SimpleEngine.popen_uci(self.engine_path, timeout=5)
        return SimpleEngine.popen_ucci(self.engine_path, timeout=5)

    def check_usable(self, engine: SimpleEngine, scenario: str) -> None:
        pos = Position()
        pos.push_iccs("h2e2")
        try:
            move = engine.play(pos, Limit(depth=2)).move
        except (EngineTerminatedError, EngineError) as exc:
            if "closed" in str(exc) or isinstance(exc, EngineTerminatedError):
                self.outcomes[f"{scenario}: clearly closed"] += 1
                return
            raise
        if move is None or not pos.is_legal(move):
            self.failures.append(f"{scenario}: bad move {move} after interrupt")
        elif self.pyffish is not None:
            legal = self.pyffish.legal_moves("xiangqi", START, ["h3e3"])
            if iccs(move, "ranks1") not in legal:
                self.failures.append(f"{scenario}: pyffish refuses {move}")
        self.outcomes[f"{scenario}: usable"] += 1

    def round(self, k: int) -> None:
        scenario = self.rng.choice(["start", "play", "analysis", "configure", "close"])
        # Delays spread over how long each scenario's client calls take here.
        delay = self.rng.uniform(
            0.0, {"start": 0.08, "configure": 0.04, "close": 0.01}.get(scenario, 0.5)
        )
        children, fds, threads = child_pids(), fd_count(), threading.active_count()
        engine: SimpleEngine | None = None
        main = threading.main_thread().ident
        assert main is not None
        interrupted = False
        timer = threading.Timer(delay, signal.pthread_kill, (main, signal.SIGINT))
        try:
            if scenario != "start":
                engine = self.open()
            if scenario == "close":
                assert engine is not None
                engine.configure({"Ponder": True})
                engine.play(Position(), Limit(depth=3), ponder=True)
            timer.start()
            if scenario == "start":
                engine = self.open()
                time.sleep(0.3)
            elif scenario == "play":
                assert engine is not None
                engine.play(Position(), Limit(time=0.5))
                time.sleep(0.3)
            elif scenario == "analysis":
                assert engine is not None
                with engine.analysis(Position()) as analysis:
                    end = time.monotonic() + 0.5
                    for _ in analysis:
                        if time.monotonic() > end:
                            break
            elif scenario == "configure":
                assert engine is not None
                for _ in range(20):
                    engine.configure({"Hash": self.rng.choice([1, 2, 4, 8])})
                    engine.ping()
            else:
                assert engine is not None
                engine.close()
                time.sleep(0.3)
        except KeyboardInterrupt:
            interrupted = True
        except Exception as exc:  # noqa: BLE001 - every other exception is a finding
            self.failures.append(f"round {k} {scenario}: {type(exc).__name__}: {exc}")
        finally:
            timer.join()
        self.outcomes[f"{scenario}: {'interrupted' if interrupted else 'not interrupted'}"] += 1
        try:
            if engine is not None:
                if interrupted and scenario in ("play", "analysis", "configure"):
                    self.check_usable(engine, scenario)
                engine.close()
        except KeyboardInterrupt:  # pragma: no cover - the timer has fired already
            self.failures.append(f"round {k}: late KeyboardInterrupt")
        except Exception as exc:  # noqa: BLE001
            self.failures.append(f"round {k} {scenario} after: {type(exc).__name__}: {exc}")
        del engine
        for _ in range(100):  # a child watcher thread may still be returning from waitpid
            if threading.active_count() <= threads and child_pids() <= children:
                break
            time.sleep(0.02)
        if not child_pids() <= children:
            self.failures.append(f"round {k} {scenario}: child process left")
        if fd_count() > fds:
            self.failures.append(f"round {k} {scenario}: {fd_count() - fds} fds left")
        if threading.active_count() > threads:
            self.failures.append(f"round {k} {scenario}: thread left {threading.enumerate()}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    engine = os.environ.get("XIANGQI_TEST_ENGINE") or shutil.which("fairy-stockfish")
    engine = engine or "/usr/games/fairy-stockfish"
    if not os.access(engine, os.X_OK):
        print(f"no engine at {engine}", file=sys.stderr)
        return 2
    harness = Harness(engine, args.seed)
    started = time.monotonic()
    for k in range(1, args.rounds + 1):
        harness.round(k)
        if k % 50 == 0:
            print(f"{k} rounds, {len(harness.failures)} failures, signals {dict(harness.landed)}")
    import xiangqi.engine

    print(f"client: {xiangqi.engine.__file__}")
    print(f"rounds: {args.rounds} (seed {args.seed}), {time.monotonic() - started:.0f} s")
    print(
        f"signals inside the client: {harness.landed['inside']}, elsewhere: "
        f"{harness.landed['missed']}"
    )
    for key, count in sorted(harness.outcomes.items()):
        print(f"  {key}: {count}")
    print(f"failures: {len(harness.failures)}")
    for failure in harness.failures[:20]:
        print(f"  {failure}")
    return 1 if harness.failures else 0


if __name__ == "__main__":
    sys.exit(main())
