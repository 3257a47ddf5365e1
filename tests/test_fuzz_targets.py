"""The fuzz targets' invariants, replayed on their seed inputs without atheris (the fuzzing
itself: scripts/fuzz.sh). The engine target's seeds run in tests/test_engine_parsing.py,
beside that target's other checks."""

from __future__ import annotations

import functools
from pathlib import Path
from types import ModuleType

import pytest
from conftest import load_script

FUZZ_DIR = Path(__file__).resolve().parents[1] / "fuzz"


@functools.cache
def load_target(name: str) -> ModuleType:
    """The fuzz target fuzz/NAME.py, loaded by path (once)."""
    return load_script(FUZZ_DIR / f"{name}.py", name)


def seeds(kind: str) -> list[str]:
    """The seed files of fuzz/seeds_KIND (fuzz/seeds, the position target's, for "")."""
    folder = FUZZ_DIR / (f"seeds_{kind}" if kind else "seeds")
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.parametrize("seed", seeds(""))
def test_position_seed_passes_the_fuzz_target(seed: str) -> None:
    load_target("fuzz_position").test_one_input((FUZZ_DIR / "seeds" / seed).read_bytes())


@pytest.mark.parametrize("seed", seeds("records"))
def test_records_seed_passes_the_fuzz_target(seed: str) -> None:
    target = load_target("fuzz_records")
    target.test_one_input((FUZZ_DIR / "seeds_records" / seed).read_bytes())


@pytest.mark.parametrize("seed", seeds("roundtrip"))
def test_roundtrip_seed_passes_the_fuzz_target(seed: str) -> None:
    target = load_target("fuzz_roundtrip")
    target.test_one_input((FUZZ_DIR / "seeds_roundtrip" / seed).read_bytes())


@pytest.mark.parametrize("seed", seeds("convert"))
def test_convert_seed_passes_the_fuzz_target(seed: str) -> None:
    target = load_target("fuzz_convert")
    target.test_one_input((FUZZ_DIR / "seeds_convert" / seed).read_bytes())


@pytest.mark.parametrize("seed", seeds("puzzles"))
def test_puzzles_seed_passes_the_fuzz_target(seed: str) -> None:
    target = load_target("fuzz_puzzles")
    target.test_one_input((FUZZ_DIR / "seeds_puzzles" / seed).read_bytes())


def test_the_puzzles_seeds_read_puzzles_and_refuse_faults() -> None:
    """The seeds reach both sides of every reader: real puzzles read (and verified by the
    target), and faulty files refused with a PuzzleFileError."""
    from xiangqi.puzzles import PuzzleFileError

    target = load_target("fuzz_puzzles")
    read, refused = set(), set()
    for seed in seeds("puzzles"):
        data = (FUZZ_DIR / "seeds_puzzles" / seed).read_bytes()
        kind = data[0] % len(target.READERS)
        try:
            assert list(target.READERS[kind](data[1:]))
            read.add(kind)
        except PuzzleFileError:
            refused.add(kind)
    assert read >= {0, 1, 3} and refused == set(range(len(target.READERS)))


def test_the_roundtrip_seeds_hold_null_moves_and_refusals() -> None:
    """The seeds reach both sides of the null-move rule: a tree XQF and DhtmlXQ refuse and
    trees they hold."""
    target = load_target("fuzz_roundtrip")
    games = [
        target.build((FUZZ_DIR / "seeds_roundtrip" / s).read_bytes()) for s in seeds("roundtrip")
    ]
    assert any(target.has_null(g) for g in games)
    assert any(not target.has_null(g) and g.variations for g in games)


def test_the_convert_target_sees_a_file_written_over_its_input() -> None:
    """The target's own check: an output that is the input, written with exit 0, is a finding."""
    target = load_target("fuzz_convert")
    real = target.run

    def lying_run(argv: list[str]) -> tuple[int, str]:
        Path(argv[-1]).write_bytes(b"")  # what the old convert did to games.pgn.part
        return 0, ""

    target.run = lying_run
    try:
        with pytest.raises(AssertionError, match="wrote over its input"):
            target.test_one_input((FUZZ_DIR / "seeds_convert" / "output_is_input").read_bytes())
    finally:
        target.run = real
