"""PGN reading from the wild: collections, encodings, line ends, quirks, errors, streaming."""

from __future__ import annotations

import io
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pyffish
import pytest
from pgn_helpers import mainline_comments

from xiangqi import IllegalMoveError, InvalidMoveError, Move, Position
from xiangqi.notation import parse_iccs, parse_wxf
from xiangqi.pgn import (
    Game,
    IllegalPgnMoveError,
    InvalidPgnMoveError,
    PgnSyntaxError,
    read_game,
    read_games,
)

GAMES = Path(__file__).parent / "data" / "games"
XQDB = GAMES / "xqdb"


def iccs_list(text: str) -> list[Move]:
    return [Move.from_iccs(t) for t in text.split()]


# -- a published collection in three notations -------------------------------------------------


def test_xqdb_collection_reads_cleanly_in_each_notation() -> None:
    counts = {}
    for name in ("xqdb_uci.pgn", "xqdb_international.pgn", "xqdb_traditional.pgn"):
        games = list(read_games(XQDB / name))
        assert all(g.errors == [] and g.unread == [] for g in games), name
        counts[name] = [len(g.mainline_moves()) for g in games]
    assert len(set(map(tuple, counts.values()))) == 1
    assert counts["xqdb_uci.pgn"] == [127, 76, 107, 85, 124, 125]


_FULLWIDTH = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)}


def test_xqdb_uci_moves_in_fairy_stockfish_wxf_match_the_sources_wxf_text() -> None:
    # Independent of our notation code: Fairy-Stockfish writes the source's UCI moves in WXF,
    # and that text is compared, ply by ply, with the source's own full-width WXF file.
    uci = list(read_games(XQDB / "xqdb_uci.pgn"))
    text = (XQDB / "xqdb_international.pgn").read_text(encoding="utf-8").translate(_FULLWIDTH)
    differences = []
    for number, (game, block) in enumerate(zip(uci, text.split("\n\n[")), 1):
        words = []
        for word in block.split("\n\n", 1)[1].split():
            if not word.endswith("."):
                words += [word[i : i + 4] for i in range(0, len(word), 4)]
        ranks1 = [
            f"{m.iccs()[0]}{int(m.iccs()[1]) + 1}{m.iccs()[2]}{int(m.iccs()[3]) + 1}"
            for m in game.mainline_moves()
        ]
        ours = pyffish.get_san_moves(
            "xiangqi", pyffish.start_fen("xiangqi"), ranks1, False, pyffish.NOTATION_XIANGQI_WXF
        )
        assert len(ours) == len(words)
        for ply, (a, b) in enumerate(zip(ours, words), 1):
            if b[0] in "+-" and b[1].isalpha():  # the source's "+P+1" is WXF's "P++1"
                b = b[1] + b[0] + b[2:]
            if a != b:
                differences.append((number, ply, a, b))
    assert differences == [(2, 71, "P++1", "P-+1")]  # see the next test


def test_xqdb_notations_name_the_same_moves() -> None:
    uci, wxf, chinese = (
        list(read_games(XQDB / n))
        for n in ("xqdb_uci.pgn", "xqdb_international.pgn", "xqdb_traditional.pgn")
    )
    for i, (a, b, c) in enumerate(zip(uci, wxf, chinese)):
        assert b.mainline_moves() == c.mainline_moves(), (
            i
        )  # full-width WXF and Chinese agree everywhere
        diff = [k for k, (x, y) in enumerate(zip(a.mainline_moves(), b.mainline_moves())) if x != y]
        # The source's own UCI file has one ply that disagrees with its WXF and Chinese files:
        # game 2, ply 71, "－Ｐ＋１"/"后兵进一" (rear pawn e3-e4) against "e5e6" (front pawn).
        assert diff == ([70] if i == 1 else []), (i, diff)
    assert wxf[1].mainline_moves()[70] == Move.from_iccs("e3e4") and uci[1].mainline_moves()[
        70
    ] == Move.from_iccs("e5e6")


# -- the quirks of files in the wild ------------------------------------------------------------


def test_full_width_wxf_glued_moves_and_front_markers() -> None:
    game = read_game("1. Ｃ２＝５Ｈ８＋７ 2. Ｈ２＋３Ｒ９＝８ *")
    assert game is not None and game.errors == []
    assert game.mainline_moves() == iccs_list("h2e2 h9g7 h0g2 i9h9")
    fen = "3k5/9/9/9/9/9/2R6/9/2R6/4K4 w - - 0 1"
    pos = Position(fen)
    assert parse_wxf(pos, "＋Ｒ＋１") == parse_wxf(pos, "R++1") == Move.from_iccs("c3c4")
    assert parse_wxf(pos, "-R.2") == Move.from_iccs("c1h1")


def test_full_width_chinese_digits_and_glued_moves() -> None:
    game = read_game("1. 炮二平五马８进７ 2. 马二进三车９平８ *")
    assert game is not None and game.errors == []
    assert game.mainline_moves() == iccs_list("h2e2 h9g7 h0g2 i9h9")


def test_bare_move_number_before_the_next_games_tags() -> None:
    text = '[Event "one"]\n\n1. h2e2 h9g7 2.\n[Event "two"]\n[Red "B"]\n\n1. C2.5 *\n'
    one, two = list(read_games(text))
    assert one.mainline_moves() == iccs_list("h2e2 h9g7") and one.errors == []
    assert two.tags["Event"] == "two" and two.tags["Red"] == "B"
    assert two.mainline_moves() == iccs_list("h2e2")


def test_format_is_recognised_from_the_moves_without_a_format_tag() -> None:
    for text in ("1. C2.5 H8+7 *", "1. 炮二平五 马8进7 *", "1. H2-E2 H9-G7 *", "1. h2e2 h9g7 *"):
        game = read_game(text)
        assert game is not None and game.errors == [], text
        assert game.mainline_moves() == iccs_list("h2e2 h9g7")


@pytest.mark.parametrize("encoding", ["gbk", "utf-8-sig", "utf-8", "utf-16"])
def test_encodings_are_sniffed(encoding: str, tmp_path: Path) -> None:
    text = '[Event "全国象棋个人赛"]\n[Red "许银川"]\n\n1. 炮二平五 马８进７ {中炮对屏风马} *\n'
    path = tmp_path / "game.pgn"
    path.write_bytes(text.encode(encoding))
    (game,) = list(read_games(path))
    assert game.tags["Event"] == "全国象棋个人赛" and game.tags["Red"] == "许银川"
    assert (
        game.mainline_moves() == iccs_list("h2e2 h9g7")
        and mainline_comments(game)[2] == "中炮对屏风马"
    )
    with path.open("rb") as handle:
        (again,) = list(read_games(handle))
    assert again.mainline_moves() == game.mainline_moves()


@pytest.mark.parametrize("newline", ["\r\n", "\r", "\n"])
def test_line_ends(newline: str) -> None:
    text = '[Event "x"]\n\n1. h2e2 {a\nb} h9g7\n2. h0g2 *\n\n[Event "y"]\n\n1. c3c4 *\n'
    raw = text.replace("\n", newline)
    one, two = list(read_games(raw))
    assert (
        one.mainline_moves() == iccs_list("h2e2 h9g7 h0g2") and mainline_comments(one)[1] == "a\nb"
    )
    assert two.mainline_moves() == iccs_list("c3c4")
    one_b, two_b = list(read_games(io.BytesIO(raw.encode())))
    assert (
        one_b.mainline_moves() == one.mainline_moves()
        and two_b.mainline_moves() == two.mainline_moves()
    )


def test_bom_before_move_text_without_tags() -> None:
    (game,) = list(read_games(io.BytesIO("\ufeff1. h2e2 h9g7 *".encode())))
    assert game.mainline_moves() == iccs_list("h2e2 h9g7") and game.errors == []
    assert read_game("\ufeff1. h2e2 *").mainline_moves() == iccs_list("h2e2")  # type: ignore[union-attr]


def test_tags_and_moves_on_one_line() -> None:
    game = read_game('[Event "e"][Red "r"] 1. h2e2 h9g7 1-0')
    assert game is not None and game.tags["Red"] == "r" and game.result == "1-0"
    assert game.mainline_moves() == iccs_list("h2e2 h9g7")


def test_result_tag_with_move_text_injects_no_moves() -> None:
    game = Game()
    game.tags["Result"] = '1-0"] 1. h2e2 [X "'
    text = game.to_pgn()
    again = read_game(text)
    assert again is not None and again.mainline_moves() == [] and again.errors == []
    assert again.tags["Result"] == game.tags["Result"]


class Pipe(io.RawIOBase):
    """A non-seekable binary stream."""

    def __init__(self, data: bytes) -> None:
        self._data = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return False

    def readinto(self, buffer: bytearray) -> int:  # type: ignore[override]
        chunk = self._data.read(len(buffer))
        buffer[: len(chunk)] = chunk
        return len(chunk)


def test_non_seekable_stream_result_less_game_then_another() -> None:
    # read_game keeps no state between calls (no registry of open files): a pipe cannot be
    # given back the next game's first tag line, which ended a game without a result
    # marker, so the game read says that text was lost and names read_games, which reads
    # every game of the stream.
    text = '[Event "one"]\n\n1. h2e2 h9g7\n[Event "two"]\n[Round "2"]\n\n1. c3c4 *\n'
    handle = io.TextIOWrapper(io.BufferedReader(Pipe(text.encode())), encoding="utf-8")
    assert not handle.seekable()
    one = read_game(handle)
    assert one is not None and one.mainline_moves() == iccs_list("h2e2 h9g7")
    assert len(one.errors) == 1 and isinstance(one.errors[0], PgnSyntaxError)
    assert "read_games()" in str(one.errors[0]) and '[Event "two"]' in str(one.errors[0])
    games = list(read_games(io.BufferedReader(Pipe(text.encode()))))
    assert [g.tags["Event"] for g in games] == ["one", "two"]
    assert [g.errors for g in games] == [[], []]
    assert games[1].tags["Round"] == "2" and games[1].mainline_moves() == iccs_list("c3c4")


def test_a_pipe_of_games_that_end_with_their_result_reads_game_by_game() -> None:
    # The usual file (each game ends with its result marker at the end of a line) loses
    # nothing from a pipe: the reader stops at the marker.
    text = '[Event "one"]\n\n1. h2e2 h9g7 *\n\n[Event "two"]\n\n1. c3c4 1-0\n'
    handle = io.TextIOWrapper(io.BufferedReader(Pipe(text.encode())), encoding="utf-8")
    one, two, three = read_game(handle), read_game(handle), read_game(handle)
    assert one is not None and two is not None and three is None
    assert (one.tags["Event"], two.tags["Event"]) == ("one", "two")
    assert one.errors == [] and two.errors == [] and two.result == "1-0"


def test_read_game_leaves_a_seekable_file_exactly_after_the_game() -> None:
    # Two games on one line: each read_game call reads the next (no state kept between calls).
    text = "1. h2e2 h9g7 * 1. c3c4 1-0 1. b2e2 0-1\n"
    handle = io.StringIO(text)
    games = []
    while (game := read_game(handle)) is not None:
        games.append(game)
    assert [g.result for g in games] == ["*", "1-0", "0-1"]
    assert [len(g.mainline_moves()) for g in games] == [2, 1, 1]


def test_reading_a_file_object_does_not_keep_it_alive() -> None:
    import gc
    import weakref

    handle = io.StringIO("1. h2e2 *\n1. c3c4 *\n")
    assert read_game(handle) is not None
    ref = weakref.ref(handle)
    del handle
    gc.collect()
    assert ref() is None


def test_a_bad_game_is_reported_with_its_number_and_the_others_still_read() -> None:
    text = (
        '[Event "1"]\n\n1. h2e2 h9g7 *\n\n'
        '[Event "2"]\n\n1. h2e2 h2e2 2. c3c4 *\n\n'
        '[Event "3"]\n[Bad "unclosed]\n\n1. c3c4 { never closed\n\n'
        '[Event "4"]\n\n1. b2e2 *\n'
    )
    games = list(read_games(text))
    assert [g.tags["Event"] for g in games] == ["1", "2", "3", "4"]
    assert games[0].errors == [] and games[3].errors == []
    (bad,) = games[1].errors
    assert isinstance(bad, IllegalPgnMoveError)
    assert bad.game_number == 2 and bad.ply == 2 and "game 2, ply 2" in str(bad)
    assert games[1].unread == ["h2e2", "c3c4"]
    kinds = [type(e) for e in games[2].errors]
    assert kinds == [PgnSyntaxError, PgnSyntaxError]
    assert "malformed tag" in str(games[2].errors[0]) and "comment" in str(games[2].errors[1])
    assert games[3].mainline_moves() == iccs_list("b2e2")


@pytest.mark.parametrize("tail", ["", "\n", '\n[Event "x"]\n'])
def test_a_bad_fen_tag_is_an_error_even_without_move_text(tail: str) -> None:
    # Found by fuzz/fuzz_records.py: a game of tags only kept an unreadable FEN tag, and
    # writing it (to_pgn) then raised InvalidFenError.
    game = read_game('[FEN "3k5/9/9/9/9/9/9/9/9/4K4 w - junk 7"]' + tail)
    assert game is not None
    assert "FEN" not in game.tags and game.fen == Position().fen()
    (error,) = game.errors
    assert isinstance(error, PgnSyntaxError) and "bad FEN tag" in str(error)
    assert read_game(game.to_pgn()) is not None
    with pytest.raises(PgnSyntaxError, match="bad FEN tag"):
        read_game('[FEN "garbage"]' + tail, strict=True)
    good = read_game('[FEN "3k5/9/9/9/9/9/9/9/9/4K4 w"]' + tail)
    assert good is not None and good.errors == []
    assert good.tags["FEN"] == "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"


def test_stray_characters_and_unmatched_parentheses_are_errors() -> None:
    game = read_game("1. h2e2 ) h9g7 }*")
    assert game is not None
    assert [type(e) for e in game.errors] == [PgnSyntaxError, PgnSyntaxError]
    assert game.mainline_moves() == iccs_list("h2e2 h9g7")


def test_a_megabyte_of_junk_gives_errors_not_a_crash() -> None:
    junk = "".join(chr(32 + (i * 7919) % 95) for i in range(1 << 20))
    games = list(read_games(junk))
    assert games and all(isinstance(e, ValueError) for g in games for e in g.errors)
    assert all(len(g.errors) <= 101 for g in games)


# -- strictness and types -----------------------------------------------------------------------


def test_strict_raises_the_first_problem() -> None:
    with pytest.raises(InvalidPgnMoveError, match="game 1, ply 1"):
        read_game("1. Zz9 *", strict=True)
    with pytest.raises(PgnSyntaxError, match="unmatched"):
        read_game("1. h2e2 ) *", strict=True)


def test_wrong_types_are_type_errors() -> None:
    with pytest.raises(TypeError, match="str"):
        read_game(b"1. h2e2 *")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="binary"):
        read_game(io.BytesIO(b"1. h2e2 *"))  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        read_game(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        read_games(3.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="encoding"):
        read_games(io.BytesIO(b""), encoding="no-such-codec")


@pytest.mark.parametrize(
    "text",
    ["ı0h0", "İ0h0", "i0h0\u0307", "\u212a5.4", "ſ7+1", "C2\u20245", "Ｃ２．５x"],
)
def test_lookalikes_are_not_read_as_ascii(text: str) -> None:
    pos = Position()
    with pytest.raises(InvalidMoveError):
        parse_wxf(pos, text) if text[0] not in "ıİi" else parse_iccs(pos, text)
    game = read_game(f"1. {text} *")
    assert game is not None and game.mainline_moves() == []
    assert isinstance(game.errors[0], (InvalidPgnMoveError, IllegalPgnMoveError))


def test_fullwidth_traverse_is_read() -> None:
    assert parse_wxf(Position(), "Ｃ２．５") == Move.from_iccs("h2e2")
    # parse_iccs itself reads ASCII only (tests/test_api.py); PGN move text folds full width.
    game = read_game("1. Ｈ２－Ｅ２ ｈ９ｇ７ *")
    assert game is not None and game.mainline_moves() == iccs_list("h2e2 h9g7")
    with pytest.raises(IllegalMoveError):
        parse_wxf(Position(), "Ｃ２＋９")


# -- linear time --------------------------------------------------------------------------------


def _best_time(fn: object, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        best = min(best, time.perf_counter() - start)
    return best


def _one_move_per_line(plies: int) -> str:
    pos, lines = Position(), ['[Event "long"]', ""]
    for ply in range(plies):
        move = sorted(pos.legal_moves())[ply % 2]
        if not pos.is_legal(move):
            break
        lines.append(f"{move.iccs()}")
        pos.push(move)
    return "\n".join(lines) + "\n*\n"


def _shuffle_text(plies: int) -> str:
    # Horses shuffling back and forth: every ply legal, any length.
    cycle = ["b0c2", "b9c7", "c2b0", "c7b9"]
    return '[Event "long"]\n\n' + "\n".join(cycle[i % 4] for i in range(plies)) + "\n*\n"


def test_read_game_scans_each_character_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # The old reader re-scanned the move text so far after every line (quadratic). Count the
    # characters the tokenizer is given: linear means at most the length of the text.
    import xiangqi.pgn.reader as pgn_reader

    scanned = 0
    real = pgn_reader._TOKEN

    class Counting:
        def finditer(self, text: str, pos: int = 0, endpos: int | None = None) -> object:
            nonlocal scanned
            end = len(text) if endpos is None else endpos
            scanned += end - pos
            return real.finditer(text, pos, end)

    monkeypatch.setattr(pgn_reader, "_TOKEN", Counting())
    text = _shuffle_text(5000)
    game = read_game(text)
    assert game is not None and len(game.mainline_moves()) == 5000
    assert scanned <= len(text)


class _CountingScans:
    """Stands in for the reader's regexes and counts the characters each is given to scan."""

    def __init__(self, real: re.Pattern[str]) -> None:
        self.real = real
        self.scanned = 0

    def finditer(
        self, text: str, pos: int = 0, endpos: int | None = None
    ) -> Iterator[re.Match[str]]:
        # finditer scans lazily: count up to the end of each match the reader takes
        for match in self.real.finditer(text, pos, len(text) if endpos is None else endpos):
            self.scanned += match.end() - pos
            pos = match.end()
            yield match

    def search(self, text: str, pos: int = 0) -> re.Match[str] | None:
        match = self.real.search(text, pos)
        self.scanned += (match.end() if match is not None else len(text)) - pos
        return match


@pytest.mark.parametrize("shape", ["games_on_one_line", "comment_after_every_move"])
def test_one_long_line_is_scanned_once(shape: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Many games on one line, or one game with a comment after every move on one line, used to
    # be read in quadratic time: each game (or comment) tokenised or searched the rest of the
    # line again. Count the characters the tokenizer and the comment search are given.
    import xiangqi.pgn.reader as pgn_reader

    tokens, searches = _CountingScans(pgn_reader._TOKEN), _CountingScans(pgn_reader._COMMENT_START)
    monkeypatch.setattr(pgn_reader, "_TOKEN", tokens)
    monkeypatch.setattr(pgn_reader, "_COMMENT_START", searches)
    cycle = ["b0c2", "b9c7", "c2b0", "c7b9"]
    if shape == "games_on_one_line":
        text = " ".join(f'[Event "g{i}"] 1. 炮二平五 h9g7 2. h0g2 1-0' for i in range(2000))
        games = list(read_games(io.BytesIO(text.encode("utf-8"))))
        assert len(games) == 2000 and all(len(g.mainline_moves()) == 3 for g in games)
        assert games[1999].tags["Event"] == "g1999"
    else:
        text = " ".join(f"{cycle[i % 4]} {{note {i}}}" for i in range(8000)) + " *"
        game = read_game(text)
        assert game is not None and len(game.mainline_moves()) == 8000
        assert game.variations[0].comment == "note 0"
    assert tokens.scanned <= len(text)
    assert searches.scanned <= len(text)


@pytest.mark.slow
def test_read_game_time_grows_linearly() -> None:
    small, large = _shuffle_text(1000), _shuffle_text(4000)
    assert len(read_game(large).mainline_moves()) == 4000  # type: ignore[union-attr]
    ratio = _best_time(lambda: read_game(large), 5) / _best_time(lambda: read_game(small), 5)
    assert ratio < 10, ratio  # linear gives about 4, quadratic about 16


def test_add_move_is_linear() -> None:
    moves = iccs_list("b0c2 b9c7 c2b0 c7b9")
    pushes = 0
    real_push = Position.push

    def counting_push(self: Position, move: Move) -> None:
        nonlocal pushes
        pushes += 1
        real_push(self, move)

    game = Game()
    try:
        Position.push = counting_push  # type: ignore[method-assign]
        for i in range(4000):
            game.add_move(moves[i % 4])
    finally:
        Position.push = real_push  # type: ignore[method-assign]
    assert pushes == 4000  # one push per move: no replay of the game so far
    assert len(game.mainline_moves()) == 4000
