"""The command line: python -m xiangqi perft."""

from __future__ import annotations

import subprocess
import sys

from xiangqi.__main__ import main


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "xiangqi", *args], capture_output=True, text=True, check=False
    )


def test_perft_prints_each_depth() -> None:
    out = run("perft", "3")
    assert out.returncode == 0, out.stderr
    assert "perft(1) =             44" in out.stdout
    assert "perft(3) =         79,666" in out.stdout
    assert "nodes/s" in out.stdout


def test_divide_sorted_by_iccs(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["perft", "2", "--divide"]) == 0
    lines = capsys.readouterr().out.splitlines()
    start = lines.index("divide(2):") + 1
    rows = lines[start : start + 44]
    moves = [r.split()[0] for r in rows]
    assert moves == sorted(moves) and len(moves) == 44
    assert sum(int(r.split()[1]) for r in rows) == 1920
    # After h2e2 the h-file is open: Black's cannon on h7 gains h2 and h1 but loses
    # the capture on h0, so Black has 44 + 1 replies.
    assert "h2e2 45" in rows


def test_bad_fen_exits_2_with_message() -> None:
    out = run("perft", "1", "--fen", "nonsense")
    assert out.returncode == 2
    assert "expected 6 fields" in out.stderr


def test_absurd_depths_are_usage_errors() -> None:
    for depth in ("11", "64", "100000000000000000000", "-1"):
        out = run("perft", depth)
        assert out.returncode == 2, (depth, out.stdout)
        assert "usage:" in out.stderr and "depth must be in 0..10" in out.stderr
        assert "Traceback" not in out.stderr


def test_version_is_the_installed_distributions() -> None:
    """`xiangqi --version` and xiangqi.__version__ agree with the installed metadata."""
    import importlib.metadata

    import xiangqi

    installed = importlib.metadata.version("xiangqi-rules")
    assert xiangqi.__version__ == installed
    done = subprocess.run(
        [sys.executable, "-m", "xiangqi", "--version"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0
    assert done.stdout.strip() == f"xiangqi {installed}"
