"""Check that the declared Python floor is true and declared the same way everywhere.

    python scripts/check_python_floor.py

The floor is `requires-python` in pyproject.toml. Ruff's `target-version`, the
"Programming Language :: Python :: X.Y" classifier and the README's "Python X.Y+"
must name the same version, and vermin must find no construct in the package, its
tests or scripts that needs a newer Python. Exits 1 naming the first mismatch.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECKED = ["xiangqi", "tests", "scripts", "fuzz", "examples", "benchmarks", "setup.py"]


def find(pattern: str, text: str, where: str) -> str:
    m = re.search(pattern, text, re.M)
    if not m:
        raise SystemExit(f"FAIL: no match for {pattern!r} in {where}")
    return m.group(1)


def main() -> int:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    floor = find(r'^requires-python\s*=\s*">=(3\.\d+)"', pyproject, "pyproject.toml")
    claims = {
        "ruff target-version": find(r'^target-version\s*=\s*"py3(\d+)"', pyproject, "pyproject"),
        "classifier": find(r'"Programming Language :: Python :: 3\.(\d+)"', pyproject, "pyproject"),
        "README": find(r"Python 3\.(\d+)\+", readme, "README.md"),
    }
    problems = [f"{k} says 3.{v}" for k, v in claims.items() if f"3.{v}" != floor]
    if problems:
        print(f"FAIL: requires-python is >={floor}, but", "; ".join(problems))
        return 1
    vermin = Path(sys.executable).with_name("vermin")  # the console script next to python
    command = [str(vermin) if vermin.exists() else "vermin", "-q", "--no-tips", "--violations"]
    command += ["--eval-annotations", f"-t={floor}-", *CHECKED]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        print(result.stdout, result.stderr, sep="")
        print(f"FAIL: vermin finds code that needs a Python newer than {floor}")
        return 1
    print(f"OK: Python floor {floor} (pyproject, ruff, classifier, README agree; vermin clean)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
