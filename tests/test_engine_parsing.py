"""What an engine writes, read by xiangqi.engine's pure line parsers (no process).

Independent sources: python-chess's chess.engine parsers for the numeric and score fields of
info lines and for "ponder (none)"; pyffish (Fairy-Stockfish) for the legal move sequences a
pv holds and the position they lead to. The fuzz target fuzz/fuzz_engine.py states the
invariants every line must keep; its seeds are replayed here and hypothesis feeds it more.
"""

from __future__ import annotations

import logging
from pathlib import Path

import chess
import chess.engine
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz_targets import load_target

from xiangqi import Move, Position
from xiangqi.engine import (
    Cp,
    Dialect,
    EngineError,
    EngineOptionError,
    Mate,
    Option,
)
from xiangqi.engine.parsing import parse_bestmove, parse_info, parse_option
from xiangqi.engine.values import split_words

FUZZ_DIR = Path(__file__).resolve().parents[1] / "fuzz"
START = Position()


TARGET = load_target("fuzz_engine")


@pytest.fixture(autouse=True)
def _restore_logger() -> object:
    # The fuzz target quiets the xiangqi.engine logger; give caplog its records back after.
    logger = logging.getLogger("xiangqi.engine")
    handlers, level, propagate = list(logger.handlers), logger.level, logger.propagate
    yield None
    logger.handlers[:] = handlers
    logger.setLevel(level)
    logger.propagate = propagate


# -- the fuzz target's seeds and invariants ------------------------------------------------------


@pytest.mark.parametrize("seed", sorted(p.name for p in (FUZZ_DIR / "seeds_engine").iterdir()))
def test_engine_fuzz_seed_passes_the_fuzz_target(seed: str) -> None:
    TARGET.test_one_input((FUZZ_DIR / "seeds_engine" / seed).read_bytes())


WORDS = st.sampled_from(
    "info bestmove nobestmove option id name type default min max var spin check combo "
    "button string depth seldepth multipv nodes nps hashfull tbhits time currmove "
    "currmovenumber score cp mate lowerbound upperbound pv ponder draw resign (none) 0000 "
    "h2e2 h9g7 h0g2 b0c2 h3e3 h10g8 e2e6 d0e1 a0a5 zz99 0 1 -1 7 1_0 \u0663 \u00a0 "
    "99999999999999999999999 <empty> true false".split(" ")
)
LINE = st.lists(st.one_of(WORDS, st.text(max_size=6)), max_size=14).map(" ".join)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 255), st.lists(LINE, max_size=6))
def test_engine_lines_keep_the_fuzz_invariants(head: int, lines: list[str]) -> None:
    # Word soup of the protocols' keywords, moves and odd numbers, in every dialect and
    # position: a parsed value that checks out, a skip, or EngineError; nothing else.
    TARGET.test_one_input(bytes([head]) + "\n".join(lines).encode())


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=300))
def test_engine_bytes_keep_the_fuzz_invariants(data: bytes) -> None:
    TARGET.test_one_input(data)


# -- info fields against python-chess -------------------------------------------------------------

COUNTERS = st.sampled_from(["depth", "seldepth", "nodes", "nps", "hashfull", "tbhits", "time"])
FIELD = st.one_of(
    st.tuples(COUNTERS, st.integers(0, 10**12).map(str)),
    st.tuples(st.just("multipv"), st.integers(1, 500).map(str)),
    st.tuples(
        st.just("score"),
        st.tuples(
            st.sampled_from(["cp", "mate"]),
            st.integers(-(10**6), 10**6).map(str),
            st.sampled_from(["", "lowerbound", "upperbound"]),
        ).map(lambda t: " ".join(x for x in t if x)),
    ),
)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(FIELD, max_size=8, unique_by=lambda field: field[0]))
def test_info_fields_agree_with_python_chess(fields: list[tuple[str, str]]) -> None:
    arg = " ".join(f"{k} {v}" for k, v in fields)
    ours = parse_info(START, "info " + arg, Dialect.UCI)
    theirs = chess.engine._parse_uci_info(arg, chess.Board())
    assert set(ours) == set(theirs), (arg, ours, theirs)
    for key, value in theirs.items():
        if key == "score":
            relative = value.relative
            expected = Mate(relative.mate()) if relative.is_mate() else Cp(relative.score())
            assert ours["score"].relative == expected
            assert ours["score"].turn == START.turn
        else:
            assert ours[key] == value, key


# -- pv moves against Fairy-Stockfish ------------------------------------------------------------

pyffish = pytest.importorskip("pyffish")
XIANGQI_START = pyffish.start_fen("xiangqi")


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 10**6), min_size=1, max_size=12))
def test_pv_of_fairy_legal_moves_replays_to_fairys_position(picks: list[int]) -> None:
    # The pv is a random walk over pyffish's legal moves, in its own notation (ranks 1..10):
    # read as Dialect.FAIRY, every move is accepted and the pv ends where pyffish says.
    moves: list[str] = []
    for pick in picks:
        legal = pyffish.legal_moves("xiangqi", XIANGQI_START, moves)
        if not legal:
            break
        moves.append(sorted(legal)[pick % len(legal)])
    info = parse_info(START, "info depth 1 pv " + " ".join(moves), Dialect.FAIRY)
    board = START.copy()
    for move in info["pv"]:
        board.push(move)
    assert len(info["pv"]) == len(moves)
    expected = pyffish.get_fen("xiangqi", XIANGQI_START, moves)
    assert board.fen().split()[:2] == expected.split()[:2]


# -- regressions: what fuzzing and review found ---------------------------------------------------


def test_ponder_none_means_no_ponder_move() -> None:
    # python-chess reads "ponder (none)" as no ponder move; it used to raise EngineError.
    theirs = chess.engine._parse_uci_bestmove(chess.Board(), "e2e4 ponder (none)")
    assert theirs.ponder is None
    for text in ("(none)", "0000"):
        result = parse_bestmove(START, f"bestmove h2e2 ponder {text}", Dialect.UCI)
        assert result.move == Move.from_iccs("h2e2") and result.ponder is None


@pytest.mark.parametrize(
    "field",
    [
        "depth 1_0",  # int() takes digit separators
        "depth \u0663",  # ... and Arabic-Indic digits
        "nodes \uff11\uff12",  # ... and fullwidth ones
        "depth -1",  # counters are never negative
        "time -4",
        "multipv 0",  # lines are numbered from 1 (a 0 would sort before the best line)
        "depth " + "9" * 5000,  # int() refuses over 4,300 digits with a ValueError, slowly
        "score cp +\u0665",
    ],
)
def test_info_numbers_are_ascii_and_in_range(field: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="xiangqi.engine")
    info = parse_info(START, f"info {field} seldepth 3", Dialect.UCI)
    assert info == {"seldepth": 3}
    assert "malformed" in caplog.text and len(caplog.text) < 1000


def test_one_warning_per_malformed_info_line(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="xiangqi.engine")
    parse_info(START, "info " + "depth x " * 5000, Dialect.UCI)
    assert len(caplog.records) == 1


def test_only_spaces_and_tabs_separate_words() -> None:
    # str.split() also splits on no-break spaces, U+2028, U+001C...: not the protocol's blanks.
    assert split_words("bestmove\u00a0h2e2 \t ponder\u2028h9g7") == [
        "bestmove\u00a0h2e2",
        "ponder\u2028h9g7",
    ]
    assert parse_bestmove(START, "bestmove\u00a0h2e2", Dialect.UCI).move is None
    info = parse_info(START, "info depth\u00a07 nodes\t9", Dialect.UCI)
    assert info == {"nodes": 9}


def test_bad_move_error_quotes_a_bounded_prefix() -> None:
    with pytest.raises(EngineError) as caught:
        parse_bestmove(START, "bestmove " + "x" * 100_000, Dialect.UCI)
    assert len(str(caught.value)) < 1000 and "xxxx..." in str(caught.value)


@pytest.mark.parametrize(
    "line",
    [
        "option name Hash type spin default 1_6 min 1 max 64",
        "option name Hash type spin default 16 min \u0661 max 64",
        "option name Hash type spin default 16 min 1 max " + "9" * 50,
    ],
)
def test_option_numbers_are_ascii(line: str) -> None:
    assert parse_option(split_words(line), Dialect.UCI) is None


def test_a_second_score_drops_the_first_ones_bound() -> None:
    info = parse_info(START, "info score cp 5 lowerbound score cp 7", Dialect.UCI)
    assert info["score"].relative == Cp(7) and "lowerbound" not in info


@pytest.mark.parametrize("text", ["1_0", "\u0663", "\uff18", " 8", "8.0", "9" * 50])
def test_spin_values_from_text_are_ascii_integers(text: str) -> None:
    # int() would send "1_0" as 10 and an Arabic-Indic three as 3.
    spin = Option("Hash", "spin", 16, None, None, ())
    with pytest.raises(EngineOptionError, match="takes an int"):
        spin.parse(text)
    assert spin.parse("+8") == "8" and spin.parse(-3) == "-3"
