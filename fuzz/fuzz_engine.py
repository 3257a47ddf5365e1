"""Coverage-guided fuzz target (atheris / libFuzzer) for what an engine writes to us.

An input is bytes as an engine would write them to its stdout. Its first byte picks the
dialect (UCI, Fairy-Stockfish UCI, UCCI) and the position the lines are read against (the
start, a position in check, a checkmate, and the start after a few moves, so the moves are
read against a position with a history); the rest is split into lines and decoded the way
EngineProtocol.pipe_data_received does (UTF-8 with replacement, "\\r" stripped). Each line goes
through the pure line parsers of xiangqi.engine.parsing, the ones the protocol calls:

    parse_info       every line (it skips the first word, as for "info ...")
    parse_bestmove   every line ("bestmove"/"nobestmove" lines give a move or None)
    parse_option     "option" lines, in the dialect's syntax; then Option.parse(default)
    parse_id         "id" lines

The only acceptable outcomes are a parsed value whose contents check out, a logged skip, or
EngineError (EngineOptionError from Option.parse); any other exception, an assertion, a hang
or a crash is a finding. Checked: every move returned (bestmove, ponder, currmove, each pv
move) is legal where it is played; counters are ints in their range; a score is a PovScore
for the side to move; the position is unchanged; error and log messages are bounded.

Run: scripts/fuzz.sh (FUZZ_TARGET=engine), or by hand:
    python fuzz/fuzz_engine.py fuzz/corpus_engine fuzz/seeds_engine -max_total_time=60
A single input (e.g. a crash file) is replayed by passing its path.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _harness

_harness.instrument(__name__, "xiangqi.engine", "xiangqi.engine.parsing")

from xiangqi import Move, Position, engine
from xiangqi.engine import parsing

#: Positions the lines are read against, picked by the first byte.
FENS = (
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "3akab2/9/4b4/p3p1p1p/2p6/6P2/P1P1c3P/4C4/9/2BAKAB2 w - - 3 20",  # Red in check
    "3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1",  # Black is checkmated: no move at all
)
#: Moves played from the start for the fourth position (its history is sent to engines).
HISTORY = ("h2e2", "h9g7", "h0g2", "i9h9")
DIALECTS = tuple(engine.Dialect)
MAX_LINES = 64
#: Longest error or log message accepted: the line is quoted up to QUOTE characters
#: (xiangqi/engine/values.py).
MAX_MESSAGE = 2000
#: Least value of each integer info field.
INFO_INTS = {
    "depth": 0,
    "seldepth": 0,
    "multipv": 1,
    "nodes": 0,
    "nps": 0,
    "hashfull": 0,
    "tbhits": 0,
    "currmovenumber": 0,
}


class _Bounded(logging.Handler):
    """Formats every record (so a bad format string is a finding) and bounds its length."""

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        assert len(message) <= MAX_MESSAGE, f"log message of {len(message)} characters"


def _quiet_logger() -> None:
    logger = logging.getLogger("xiangqi.engine")
    if not any(isinstance(h, _Bounded) for h in logger.handlers):
        logger.addHandler(_Bounded(logging.DEBUG))
    logger.setLevel(logging.DEBUG)
    logger.propagate = False


def positions() -> list[Position]:
    result = [Position(fen) for fen in FENS]
    played = Position()
    for text in HISTORY:
        played.push(Move.from_iccs(text))
    return result + [played]


POSITIONS = positions()


def check_line(pos: Position, move: Move, board: Position) -> None:
    assert isinstance(move, Move), move
    assert board.is_legal(move), f"{move} is not legal in {board.fen()!r} (read against {pos})"


def check_info(pos: Position, info: engine.Info) -> None:
    assert isinstance(info, dict)
    for key, low in INFO_INTS.items():
        if key in info:
            value = info[key]
            assert type(value) is int and value >= low, (key, value)
    if "time" in info:
        assert isinstance(info["time"], float) and info["time"] >= 0, info["time"]
    if "score" in info:
        score = info["score"]
        assert isinstance(score, engine.PovScore) and score.turn == pos.turn, score
        relative = score.relative
        assert type(relative.score() if not relative.is_mate() else relative.mate()) is int
    for bound in ("lowerbound", "upperbound"):
        if bound in info:
            assert info[bound] is True and "score" in info, info
    if "currmove" in info:
        check_line(pos, info["currmove"], pos)
    if "pv" in info:
        board = pos.copy(stack=False)
        for move in info["pv"]:
            check_line(pos, move, board)
            board.push(move)
    if "string" in info:
        assert isinstance(info["string"], str)
    assert set(info) <= {*INFO_INTS, "time", "score", "lowerbound", "upperbound", "currmove"}.union(
        ("pv", "string")
    ), sorted(info)


def check_bestmove(pos: Position, result: engine.PlayResult) -> None:
    assert isinstance(result, engine.PlayResult)
    if result.move is None:
        assert result.ponder is None
        return
    check_line(pos, result.move, pos)
    if result.ponder is not None:
        after = pos.copy(stack=False)
        after.push(result.move)
        check_line(pos, result.ponder, after)


def check_error(exc: engine.EngineError) -> None:
    message = str(exc)
    assert message.strip(), "empty EngineError message"
    assert len(message) <= MAX_MESSAGE, f"EngineError message of {len(message)} characters"


def read_line(pos: Position, line: str, dialect: engine.Dialect) -> None:
    """Every parser that may see this line; assert on what comes out."""
    tokens = parsing.split_words(line)
    try:
        check_info(pos, parsing.parse_info(pos, line, dialect, "fuzz"))
    except engine.EngineError as exc:
        check_error(exc)
    try:
        result = parsing.parse_bestmove(pos, line, dialect)
    except engine.EngineError as exc:
        check_error(exc)
        assert tokens[:1] == ["bestmove"], f"EngineError from a non-bestmove line {line!r:.80}"
    else:
        check_bestmove(pos, result)
        if tokens[:1] != ["bestmove"]:
            assert result.move is None, line
    if tokens[:1] == ["option"]:
        wire = engine.Dialect.UCCI if dialect is engine.Dialect.UCCI else engine.Dialect.UCI
        option = parsing.parse_option(tokens, wire)
        if option is not None:
            assert option.name and option.type, option
            assert option.min is None or type(option.min) is int
            assert option.max is None or type(option.max) is int
            if option.type == "spin" and option.default is not None:
                assert type(option.default) is int, option
            try:
                text = option.parse(option.default)
            except engine.EngineOptionError as exc:
                check_error(exc)
            else:
                assert isinstance(text, str) and "\n" not in text, text
    ident = parsing.parse_id(tokens)
    if ident is not None:
        assert tokens[0] == "id" and ident[0] == tokens[1], ident


def test_one_input(data: bytes) -> None:
    _quiet_logger()
    if not data:
        return
    dialect = DIALECTS[data[0] % len(DIALECTS)]
    pos = POSITIONS[data[0] // len(DIALECTS) % len(POSITIONS)]
    fen, stack = pos.fen(), list(pos.move_stack)
    # As EngineProtocol.pipe_data_received splits and decodes the engine's output.
    for raw in data[1:].split(b"\n")[:MAX_LINES]:
        line = raw.decode("utf-8", "replace").rstrip("\r")
        read_line(pos, line, dialect)
    assert pos.fen() == fen and list(pos.move_stack) == stack, "a parser changed the position"


def main() -> None:
    _harness.run(test_one_input)


if __name__ == "__main__":
    main()
