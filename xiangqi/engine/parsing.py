"""What an engine writes, read into values: the pure line parsers.

No process is needed; fuzz/fuzz_engine.py drives them.
"""

from __future__ import annotations

from ..errors import XiangqiError
from ..move import Move
from ..notation import parse_iccs
from ..position import Position
from .values import (
    LOGGER,
    QUOTE,
    Cp,
    Dialect,
    EngineError,
    Info,
    Mate,
    Option,
    PlayResult,
    PovScore,
    Score,
    parse_int,
    quote_line,
    split_words,
)


def parse_option(tokens: list[str], dialect: Dialect) -> Option | None:
    """The Option an "option ..." line announces, or None when it is malformed.

    Linear in the line's length: every word is appended to a list once and each field is
    joined once at the end (growing a string word by word was quadratic on a long var list).
    """
    keywords = ("name", "type", "default", "min", "max", "var")
    fields: dict[str, list[str]] = {}
    var_words: list[list[str]] = []
    current: str | None = None
    rest = tokens[1:]
    if dialect is Dialect.UCCI and rest and rest[0] != "name":
        # UCCI: "option NAME type ...": the name is one word, no keyword.
        fields["name"] = [rest[0]]
        rest = rest[1:]
    for token in rest:
        if token in keywords:
            current = token
            if token == "var":
                var_words.append([])
            else:
                fields.setdefault(token, [])
        elif current == "var":
            var_words[-1].append(token)
        elif current is not None:
            fields[current].append(token)
    var = [" ".join(words) for words in var_words]
    name = " ".join(fields.get("name", []))
    kind = " ".join(fields.get("type", []))
    if not name or not kind:
        return None
    default_text = " ".join(fields["default"]) if "default" in fields else None
    default: str | int | bool | None = default_text
    try:
        if kind == "check" and default_text is not None:
            default = default_text.lower() == "true"
        elif kind == "spin" and default_text is not None:
            default = parse_int(default_text)
        low = parse_int(fields["min"][0]) if fields.get("min") else None
        high = parse_int(fields["max"][0]) if fields.get("max") else None
    except ValueError:
        return None
    if default == "<empty>":
        default = ""
    return Option(name, kind, default, low, high, tuple(var))


def parse_id(tokens: list[str]) -> tuple[str, str] | None:
    """The (key, value) an "id KEY VALUE..." line gives, or None when it names no key."""
    if len(tokens) < 2 or tokens[0] != "id":
        return None
    return tokens[1], " ".join(tokens[2:])


def parse_move(pos: Position, text: str, line: str, dialect: Dialect | None) -> Move:
    """The move text names in pos, read in dialect, or EngineError quoting the line."""
    style = dialect.iccs_style if dialect else "iccs"
    try:
        return parse_iccs(pos, text, style)
    except XiangqiError as exc:
        raise EngineError(
            f"engine sent {quote_line(text, 40)}, not a legal move here ({exc}): {quote_line(line)}"
        ) from None


#: Integer info fields and their least value (multipv numbers lines from 1).
_INFO_INTS = {
    "depth": 0,
    "seldepth": 0,
    "multipv": 1,
    "nodes": 0,
    "nps": 0,
    "hashfull": 0,
    "tbhits": 0,
    "currmovenumber": 0,
}


def parse_info(pos: Position, line: str, dialect: Dialect | None, who: object = "engine") -> Info:
    """The info dict of one "info ..." line; unknown or malformed fields are logged (as who)
    and skipped; an unreadable or illegal move raises EngineError."""
    tokens = split_words(line)[1:]
    info: Info = {}
    malformed: list[str] = []
    i = 0
    while i < len(tokens):
        key = tokens[i]
        i += 1
        try:
            if key in _INFO_INTS:
                info[key] = parse_int(tokens[i], _INFO_INTS[key])
                i += 1
            elif key == "time":
                info["time"] = parse_int(tokens[i], 0) / 1000.0
                i += 1
            elif key == "score":
                kind = tokens[i]
                if kind in ("cp", "mate"):
                    value = parse_int(tokens[i + 1])
                    i += 2
                else:  # UCCI: "score 23"
                    kind, value = "cp", parse_int(kind)
                    i += 1
                score: Score = Cp(value) if kind == "cp" else Mate(value)
                info["score"] = PovScore(score, pos.turn)
                info.pop("lowerbound", None)
                info.pop("upperbound", None)
                while i < len(tokens) and tokens[i] in ("lowerbound", "upperbound"):
                    info[tokens[i]] = True
                    i += 1
            elif key == "currmove":
                info["currmove"] = parse_move(pos, tokens[i], line, dialect)
                i += 1
            elif key == "pv":
                board = pos.copy(stack=False)
                pv: list[Move] = []
                while i < len(tokens):
                    move = parse_move(board, tokens[i], line, dialect)
                    board.push(move)
                    pv.append(move)
                    i += 1
                info["pv"] = pv
            elif key == "string":
                info["string"] = " ".join(tokens[i:])
                i = len(tokens)
            else:
                LOGGER.debug("%s: skipping info field %r", who, key[:QUOTE])
        except (IndexError, ValueError) as exc:
            if isinstance(exc, XiangqiError):
                raise
            malformed.append(key[:40])
            i += 1
    if malformed:  # one warning per line, however many fields are bad
        shown = ", ".join(repr(k) for k in malformed[:10])
        LOGGER.warning("%s: malformed %s in info line %s", who, shown, quote_line(line))
    return info


#: What engines write instead of a move when they have none ("bestmove (none)", "ponder 0000").
_NO_MOVE = ("(none)", "0000")


def parse_bestmove(pos: Position, line: str, dialect: Dialect | None) -> PlayResult:
    """The PlayResult of a "bestmove ..." or "nobestmove" line; EngineError for a bad move."""
    tokens = split_words(line)
    if tokens[:1] != ["bestmove"] or len(tokens) < 2 or tokens[1] in _NO_MOVE:
        return PlayResult(None)
    move = parse_move(pos, tokens[1], line, dialect)
    result = PlayResult(move)
    if "ponder" in tokens[2:]:
        k = tokens.index("ponder", 2)
        if k + 1 < len(tokens) and tokens[k + 1] not in _NO_MOVE:
            after = pos.copy(stack=False)
            after.push(move)
            result.ponder = parse_move(after, tokens[k + 1], line, dialect)
    result.draw_offered = "draw" in tokens[2:]
    result.resigned = "resign" in tokens[2:]
    return result
