"""Run the test suite against the installed xiangqi, from outside the source tree.

    python scripts/run_installed_tests.py [--engine-optional] [pytest arguments ...]

The tests are the ones beside this script (`../tests`, as shipped in the sdist), but
pytest runs in an empty temporary directory, so `import xiangqi` cannot pick up a source
checkout: it must find the installed wheel. The script checks that first (the compiled
core must come from site-packages, not from the tree the tests sit in), then runs
`python -m pytest TESTS -p no:cacheprovider` with the arguments given (default: the
suite's own default selection from pyproject.toml).

cibuildwheel's test-command and .ci/run both call it. --engine-optional lets the
real-engine tests skip where no Fairy-Stockfish is installed (the wheel-building
images); without it, CI=true in the environment makes a missing engine a failure.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]

PROBE = """
import sys, pathlib, xiangqi, xiangqi._core as core
path = pathlib.Path(core.__file__).resolve()
project = pathlib.Path(sys.argv[1]).resolve()
if project in path.parents:
    raise SystemExit(f"xiangqi was imported from the source tree ({path}), not an installed wheel")
print(f"testing the installed xiangqi {xiangqi.__version__}: {path}")
"""


def main(argv: list[str]) -> int:
    env = dict(os.environ)
    if argv[:1] == ["--engine-optional"]:
        argv = argv[1:]
        env.pop("CI", None)
    tests = PROJECT / "tests"
    with tempfile.TemporaryDirectory(prefix="xiangqi-installed-") as cwd:
        probe = subprocess.run([sys.executable, "-c", PROBE, str(PROJECT)], cwd=cwd, env=env)
        if probe.returncode:
            return probe.returncode
        command = [
            sys.executable,
            "-m",
            "pytest",
            str(tests),
            "-p",
            "no:cacheprovider",
            "--rootdir",
            str(PROJECT),
            *argv,
        ]
        return subprocess.run(command, cwd=cwd, env=env).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
