"""The records fuzz target's invariants, replayed on its seed inputs without atheris."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

FUZZ_DIR = Path(__file__).resolve().parents[1] / "fuzz"


def load_target() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fuzz_records", FUZZ_DIR / "fuzz_records.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("seed", sorted(p.name for p in (FUZZ_DIR / "seeds_records").iterdir()))
def test_records_seed_passes_the_fuzz_target(seed: str) -> None:
    load_target().test_one_input((FUZZ_DIR / "seeds_records" / seed).read_bytes())
