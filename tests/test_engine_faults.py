"""xiangqi.engine against small scripted misbehaving engines (tests/engines/fake_engine.py).

Each fault must end in a clear exception or a logged, skipped line, never a hang, and every
engine process must be reaped with its pipes closed. Expected moves come from the scripts.
"""

from __future__ import annotations

import asyncio
import logging
import os
import stat
import sys
import threading
import time
from pathlib import Path

import pytest

from xiangqi import Move, Position
from xiangqi.engine import (
    Cp,
    Dialect,
    EngineError,
    EngineOptionError,
    EngineTerminatedError,
    Limit,
    SimpleEngine,
    popen_uci,
)

FAKE = Path(__file__).parent / "engines" / "fake_engine.py"


def fake(mode: str) -> list[str]:
    return [sys.executable, str(FAKE), mode]


def open_fds() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


def child_pids() -> set[int]:
    """Processes whose parent is this one (zombies included: they keep their /proc entry)."""
    me, pids = os.getpid(), set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat_line = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat_line.rsplit(")", 1)[1].split()[1]) == me:
                pids.add(int(entry))
    return pids


needs_proc = pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="needs Linux /proc")


@pytest.fixture
def clean_process():  # type: ignore[no-untyped-def]
    """Checks that a test leaves no child process, no extra fd and no extra thread behind."""
    fds, children, threads = open_fds(), child_pids(), threading.active_count()
    yield
    # asyncio's child watcher thread may still be returning from waitpid: allow it a moment.
    for _ in range(40):
        if threading.active_count() <= threads:
            break
        time.sleep(0.05)
    assert child_pids() <= children, "an engine process was left behind (or a zombie)"
    assert open_fds() <= fds, "an engine pipe was left open"
    assert threading.active_count() <= threads, "the engine thread was left running"


def test_ok_engine_handshake_and_play(clean_process: None) -> None:
    with SimpleEngine.popen_uci(fake("ok")) as engine:
        assert engine.dialect is Dialect.UCI
        assert engine.id == {"name": "Fake Engine", "author": "xiangqi tests"}
        hash_option = engine.options["Hash"]
        assert (hash_option.type, hash_option.default, hash_option.min, hash_option.max) == (
            "spin",
            16,
            1,
            1024,
        )
        assert engine.options["Style"].var == ("Solid", "Normal", "Risky")
        assert engine.options["EvalFile"].default == ""
        result = engine.play(Position(), Limit(depth=1))
        assert result.move == Move.from_iccs("h2e2")


def test_not_found(clean_process: None) -> None:
    with pytest.raises(EngineError, match="engine not found: '/nonexistent/engine'"):
        SimpleEngine.popen_uci("/nonexistent/engine")


def test_not_executable(tmp_path: Path, clean_process: None) -> None:
    script = tmp_path / "engine.sh"
    script.write_text("#!/bin/sh\necho uciok\n")
    script.chmod(stat.S_IRUSR | stat.S_IWUSR)
    with pytest.raises(EngineError, match="not executable"):
        SimpleEngine.popen_uci(str(script))


def test_bad_command_type() -> None:
    with pytest.raises(TypeError, match="engine command"):
        SimpleEngine.popen_uci(42)  # type: ignore[arg-type]


@needs_proc
@pytest.mark.slow  # waits on timeouts or a deep count: the slow run (CI)
def test_handshake_timeout_kills_a_silent_engine(clean_process: None) -> None:
    with pytest.raises(EngineError, match="timed out .* waiting for uciok"):
        SimpleEngine.popen_uci(fake("silent"), timeout=0.5)


@needs_proc
def test_exit_mid_search(clean_process: None) -> None:
    with SimpleEngine.popen_uci(fake("die_in_search")) as engine:
        with pytest.raises(EngineTerminatedError, match=r"exited \(code 3\)"):
            engine.play(Position(), Limit(depth=3))
        assert engine.returncode == 3
        with pytest.raises(EngineTerminatedError):
            engine.play(Position(), Limit(depth=3))


def test_garbage_is_logged_and_skipped(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="xiangqi.engine")
    with SimpleEngine.popen_uci(fake("garbage")) as engine:
        assert "Broken" not in engine.options
        assert "Hash" in engine.options
        result = engine.play(Position(), Limit(depth=1))
    assert result.move == Move.from_iccs("h2e2")
    text = caplog.text
    assert "malformed option line 'option name Broken" in text
    # One warning per line, naming every malformed field ("score cp y" is the second).
    assert "malformed 'depth', 'score' in info line" in text
    assert "skipping 'bogus command from the engine'" in text


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("illegal", r"engine sent 'a0a5', not a legal move here .*'bestmove a0a5'"),
        ("unparsable", r"engine sent 'zz99', not a legal move here .*'bestmove zz99'"),
        ("bad_pv", r"engine sent 'h9h0', not a legal move here .*'info depth 2 .* h9h0'"),
    ],
)
def test_bad_moves_raise_quoting_the_line(mode: str, message: str) -> None:
    with SimpleEngine.popen_uci(fake(mode)) as engine:
        with pytest.raises(EngineError, match=message):
            engine.play(Position(), Limit(depth=1))


@needs_proc
@pytest.mark.slow  # waits on timeouts or a deep count: the slow run (CI)
def test_search_timeout_then_kill(clean_process: None) -> None:
    with SimpleEngine.popen_uci(fake("hang_search"), timeout=0.5) as engine:
        with pytest.raises(EngineError, match="timed out .* waiting for bestmove"):
            engine.play(Position(), Limit(depth=5), timeout=0.5)


@needs_proc
@pytest.mark.slow  # waits on timeouts or a deep count: the slow run (CI)
def test_engine_ignoring_quit_is_killed(clean_process: None) -> None:
    engine = SimpleEngine.popen_uci(fake("ignore_quit"), timeout=0.5)
    pid = engine.pid
    assert pid is not None
    engine.play(Position(), Limit(depth=1))
    engine.close()
    assert engine.returncode == -9  # SIGKILL
    assert not Path(f"/proc/{pid}").exists()
    engine.close()  # a second close is harmless
    with pytest.raises(EngineError, match="closed"):
        engine.play(Position(), Limit(depth=1))


@needs_proc
def test_many_engines_leave_nothing_behind(clean_process: None) -> None:
    for _ in range(5):
        with SimpleEngine.popen_uci(fake("ok")) as engine:
            engine.play(Position(), Limit(depth=1))


def test_configure_validates_before_sending(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "received.txt"
    monkeypatch.setenv("FAKE_LOG", str(log))
    with SimpleEngine.popen_uci(fake("record")) as engine:
        for options, message in [
            ({"Hash": 4096}, r"option 'Hash' \(spin\) takes 1..1024, got 4096"),
            ({"Hash": "lots"}, "takes an int, got 'lots'"),
            ({"Hash": True}, "takes an int, got True"),
            ({"Ponder": "maybe"}, "takes True or False, got 'maybe'"),
            ({"Style": "Wild"}, "takes one of Solid, Normal, Risky; got 'Wild'"),
            ({"EvalFile": "a\nquit"}, "line break"),
            ({"Nope": 1}, "engine has no option 'Nope'; it offers: "),
            ({"MultiPV": 2}, "managed by xiangqi.engine"),
            ({"Hash": 32, "Nope": 1}, "no option 'Nope'"),
        ]:
            with pytest.raises(EngineOptionError, match=message):
                engine.configure(options)
        assert isinstance(EngineOptionError("x"), ValueError)
        engine.configure({"hash": 64, "Ponder": True, "Style": "risky", "Clear Hash": None})
        engine.play(Position(), Limit(depth=1))
    sent = log.read_text().splitlines()
    setoptions = [line for line in sent if line.startswith("setoption")]
    assert setoptions == [
        "setoption name Hash value 64",
        "setoption name Ponder value true",
        "setoption name Style value Risky",
        "setoption name Clear Hash",
    ]


def test_position_sends_root_fen_and_history(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """UCI: the root FEN and every move since; UCCI: from the last capture, ranks 0..9."""
    log = tmp_path / "received.txt"
    monkeypatch.setenv("FAKE_LOG", str(log))
    root = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    pos = Position(root)
    for text in ("h2e2", "h9g7", "e2e6", "g6g5", "h0g2", "b7b0", "c3c4"):
        pos.push_iccs(text)  # e2e6 and b7b0 capture
    with SimpleEngine.popen_uci(fake("record")) as engine:
        # The fake plays h2e2 whatever the position; only the sent lines matter here.
        with pytest.raises(EngineError):
            engine.play(pos, Limit(depth=1))
    with SimpleEngine.popen_ucci(fake("record")) as engine:
        assert engine.dialect is Dialect.UCCI
        with pytest.raises(EngineError):
            engine.play(pos, Limit(depth=1), root_moves=[Move.from_iccs("b9c7")])
    sent = log.read_text().splitlines()
    positions = [line for line in sent if line.startswith("position")]
    assert positions[0] == f"position fen {root} moves h2e2 h9g7 e2e6 g6g5 h0g2 b7b0 c3c4"
    after_capture = Position(root)
    for text in ("h2e2", "h9g7", "e2e6", "g6g5", "h0g2", "b7b0"):
        after_capture.push_iccs(text)
    assert positions[1] == f"position fen {after_capture.fen()} moves c3c4"
    assert "setoption usemillisec true" in sent
    banned = next(line for line in sent if line.startswith("banmoves")).split()[1:]
    assert "b9c7" not in banned and len(banned) == len(pos.legal_moves()) - 1


def test_ucci_scores_draw_offers_and_nobestmove() -> None:
    with SimpleEngine.popen_ucci(fake("ucci_extras")) as engine:
        result = engine.play(Position(), Limit(time=0.1))
        assert result.move == Move.from_iccs("h2e2")
        assert result.ponder == Move.from_iccs("h9g7")
        assert result.draw_offered and not result.resigned
        assert result.info["score"].red() == Cp(-5)
        assert "lowerbound" not in result.info  # it belonged to the earlier score
        assert result.info["time"] == 0.007
        assert result.info["pv"] == [Move.from_iccs("h2e2"), Move.from_iccs("h9g7")]
        assert engine.play(Position(), Limit(depth=2)).move is None


@needs_proc
def test_async_api(clean_process: None) -> None:
    """The asyncio core without SimpleEngine: popen, play, analysis, quit."""

    async def run() -> tuple[Move | None, int, int | None]:
        _, protocol = await popen_uci(fake("ok"))
        try:
            result = await protocol.play(Position(), Limit(depth=1))
            analysis = await protocol.analysis(Position(), Limit(depth=1))
            infos = [info async for info in analysis]
            final = await analysis.wait()
            assert final.move == result.move
        finally:
            await protocol.quit()
        return result.move, len(infos), protocol.returncode.result()

    move, infos, code = asyncio.run(run())
    assert move == Move.from_iccs("h2e2") and infos == 0 and code == 0


@needs_proc
@pytest.mark.slow  # waits on timeouts or a deep count: the slow run (CI)
def test_analysis_of_an_engine_ignoring_stop_is_bounded(clean_process: None) -> None:
    with SimpleEngine.popen_uci(fake("hang_search"), timeout=0.5) as engine:
        analysis = engine.analysis(Position())
        analysis.stop()
        with pytest.raises(EngineError, match="timed out .* waiting for bestmove"):
            analysis.wait()
        with pytest.raises(EngineError, match="timed out"):  # iteration reports it too
            analysis.next()
        with pytest.raises(EngineTerminatedError):
            engine.play(Position(), Limit(depth=1))


def test_bad_search_arguments_change_nothing() -> None:
    with SimpleEngine.popen_uci(fake("ok")) as engine:
        pos = Position()
        with pytest.raises(TypeError, match="expected a Position"):
            engine.play("start", Limit(depth=1))  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="expected a Limit"):
            engine.play(pos, 3)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="multipv must be at least 1, got 0"):
            engine.analyse(pos, Limit(depth=1), multipv=0)
        with pytest.raises(ValueError, match="root move a0a5 is not legal"):
            engine.play(pos, Limit(depth=1), root_moves=[Move.from_iccs("a0a5")])
        assert engine.play(pos, Limit(depth=1)).move == Move.from_iccs("h2e2")


def test_lines_past_the_ones_asked_for_are_not_kept() -> None:
    # Only line 1 was asked for; lines 2 and 3 must not stand in for it (they used to be
    # reported as the best line), and an engine numbering lines without end cannot grow memory.
    with SimpleEngine.popen_uci(fake("stray_multipv")) as engine:
        assert engine.analyse(Position(), Limit(depth=2)) == {}
        assert engine.play(Position(), Limit(depth=2)).info == {}
        with engine.analysis(Position(), Limit(depth=2)) as analysis:
            assert analysis.wait().move == Move.from_iccs("h2e2")
            assert analysis.multipv == [] and analysis.info == {}
