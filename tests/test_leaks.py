"""Memory stays flat over many core calls: a shorter run of benchmarks/leak_check.py (slow)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import xiangqi

LEAK_CHECK = Path(__file__).resolve().parents[1] / "benchmarks" / "leak_check.py"


@pytest.mark.slow
def test_memory_stays_flat_over_many_calls() -> None:
    # A fresh interpreter, so RSS reflects only this run; it imports the same xiangqi build.
    env = dict(os.environ)
    package_root = str(Path(xiangqi.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
    result = subprocess.run(
        [sys.executable, str(LEAK_CHECK), "--ops", "200000", "--checkpoints", "5"],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "memory flat" in result.stdout
