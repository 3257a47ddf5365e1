"""The book fuzz target's invariants (fuzz/fuzz_book.py), replayed on its seed inputs without
atheris (the fuzzing itself: scripts/fuzz.sh, FUZZ_TARGETS=book)."""

from __future__ import annotations

import pytest
from test_fuzz_targets import FUZZ_DIR, load_target, seeds


@pytest.mark.parametrize("seed", seeds("book"))
def test_book_seed_passes_the_fuzz_target(seed: str) -> None:
    load_target("fuzz_book").test_one_input((FUZZ_DIR / "seeds_book" / seed).read_bytes())


def test_the_book_seeds_reach_entries_in_both_formats() -> None:
    """Some seed of each format opens and answers with entries (else the target would only
    see refusals)."""
    target = load_target("fuzz_book")
    seen = set()
    real = target._probe

    def probe(reader):  # type: ignore[no-untyped-def]
        answers = real(reader)
        if any(isinstance(a, list) and a for a in answers):
            seen.add(type(reader).__name__)
        return answers

    target._probe = probe
    try:
        for seed in seeds("book"):
            target.test_one_input((FUZZ_DIR / "seeds_book" / seed).read_bytes())
    finally:
        target._probe = real
    assert seen == {"ElephantEyeReader", "SQLiteReader"}


def test_the_book_target_sees_a_closed_reader_that_answers() -> None:
    """The target's own check: a reader whose probes go on after close() is a finding."""
    target = load_target("fuzz_book")
    from xiangqi.book import ElephantEyeReader

    real = ElephantEyeReader.close
    ElephantEyeReader.close = lambda self: None  # type: ignore[method-assign]
    try:
        with pytest.raises(AssertionError, match="after close"):
            target.test_one_input((FUZZ_DIR / "seeds_book" / "dat_records").read_bytes())
    finally:
        ElephantEyeReader.close = real  # type: ignore[method-assign]
