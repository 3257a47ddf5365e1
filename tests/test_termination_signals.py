"""SIGTERM and SIGHUP (a `kill`, a closed terminal) stop `xiangqi convert` and `xiangqi book
build` as Ctrl-C does: one line, the old output left as it was, no temporary file left, exit
status 128 + the signal's number (as a shell reports a process the signal ended)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

SIGNALS = [getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)]
OLD = b"an earlier output\n"


def _stopped_while_reading(
    tmp_path: Path, command: list[str], out: Path, signum: int, wait_for_temporary: bool
) -> subprocess.CompletedProcess[str]:
    """Run xiangqi command with /dev/fd/N (a pipe this test holds open, so the reader waits
    for the rest of a game) in place of the input, and send signum once it reads."""
    read, write = os.pipe()
    try:
        argv = [a if a != "IN" else f"/dev/fd/{read}" for a in command]
        child = subprocess.Popen(
            [sys.executable, "-m", "xiangqi", *argv],
            pass_fds=(read,),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        os.close(read)
        os.write(write, b'[Event "half a game"]\n')
        deadline = time.monotonic() + 60
        if wait_for_temporary:  # the temporary output exists beside the old one
            while len(os.listdir(out.parent)) < 2 and time.monotonic() < deadline:
                time.sleep(0.02)
            assert len(os.listdir(out.parent)) == 2, "no temporary file appeared"
        else:
            time.sleep(1.0)  # start-up, then reading the pipe
        child.send_signal(signum)
        stdout, stderr = child.communicate(timeout=60)
    finally:
        os.close(write)
    return subprocess.CompletedProcess(child.args, child.returncode, stdout, stderr)


@pytest.mark.parametrize("signum", SIGNALS)
def test_a_signal_while_converting_removes_the_temporary_and_keeps_the_old_output(
    tmp_path: Path, signum: int
) -> None:
    out = tmp_path / "out.pgn"
    out.write_bytes(OLD)
    run = _stopped_while_reading(
        tmp_path, ["convert", "IN", str(out), "--from", "pgn"], out, signum, True
    )
    assert run.returncode == 128 + signum, run.stderr
    assert run.stderr == f"xiangqi: interrupted; {out} left as it was\n"
    assert out.read_bytes() == OLD and os.listdir(tmp_path) == ["out.pgn"]


@pytest.mark.parametrize(
    "signum",
    # SIGHUP's variant in the slow run (CI): the same path as SIGTERM's, a second apart
    [pytest.param(s, marks=pytest.mark.slow) if s != signal.SIGTERM else s for s in SIGNALS],
)
def test_a_signal_while_building_a_book_is_one_line_and_keeps_the_old_book(
    tmp_path: Path, signum: int
) -> None:
    out = tmp_path / "new.xqbook"
    run = _stopped_while_reading(
        tmp_path, ["book", "build", "IN", "-o", str(out)], out, signum, False
    )
    assert run.returncode == 128 + signum, run.stderr
    assert run.stderr.endswith(f"xiangqi: interrupted; {out} left as it was\n"), run.stderr
    assert os.listdir(tmp_path) == []
