"""What the fuzz targets share: the repo root on the import path, atheris when installed,
the coverage-instrumented import of the modules a target exercises, and libFuzzer's main.

A target starts with::

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _harness import instrument, run

    instrument(__name__, "xiangqi.records", ...)

so it runs as a script under atheris (scripts/fuzz.sh) and loads by path without atheris
(the tests replay the seeds through each target's test_one_input).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from pathlib import Path

# Run from a checkout without installing: fall back on the repo root (after PYTHONPATH, so
# scripts/fuzz.sh can put an instrumented build first, and after an installed wheel).
_ROOT = str(Path(__file__).resolve().parents[1])
if _ROOT not in sys.path:
    sys.path.append(_ROOT)

try:
    import atheris
except ImportError:  # the seeds are also replayed by the tests, without atheris
    atheris = None


def instrument(target: str, *modules: str) -> None:
    """Import the modules named (the package xiangqi first): under atheris, when target (the
    calling module's __name__) is the script being fuzzed, instrumented for coverage, so the
    target's own ``from xiangqi... import`` lines then find them instrumented."""
    names = ("xiangqi", *modules)
    if atheris is not None and target == "__main__":
        with atheris.instrument_imports(include=["xiangqi"]):
            for name in names:
                importlib.import_module(name)
    else:
        for name in names:
            importlib.import_module(name)


class Bytes:
    """A fuzz input read from the front: bytes, then zeros once it runs out."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def byte(self) -> int:
        if self.at >= len(self.data):
            return 0
        self.at += 1
        return self.data[self.at - 1]

    def chunk(self, limit: int) -> bytes:
        """Up to limit - 1 bytes of the input, their count read first."""
        n = self.byte() % limit
        raw = self.data[self.at : self.at + n]
        self.at += n
        return raw

    def more(self) -> bool:
        return self.at < len(self.data)


def run(test_one_input: Callable[[bytes], None]) -> None:
    """libFuzzer's main over test_one_input, with sys.argv's corpus folders and options."""
    if atheris is None:
        sys.exit("atheris is not installed: python -m pip install atheris")
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
