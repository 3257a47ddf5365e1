"""What a writer writes, its reader reads back: control characters in tags and comments.

The PGN Standard (section 4.1) uses printing characters only, with newline and tab as the
only others, and its strings (section 8.1, tag values) printing characters only; XQF's
text fields are C strings (a NUL ends them); no encoding carries a lone surrogate. So the
PGN and XQF writers drop the control characters (Unicode category Cc) but newline and tab
(PGN writes a tag's tab as a space), and every writer drops lone surrogates (Cs); DhtmlXQ
writes the control characters as its \\uXXXX escapes, so they come back. The expected
text is computed here from the Unicode categories, not by the library's helper.
"""

from __future__ import annotations

import io
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xiangqi import Move
from xiangqi.pgn import Game
from xiangqi.records import find_format, open_games, pgn_writer

#: Every C0 control, DEL, some C1 controls, a lone surrogate of each half, and the others
#: a line reader might split on.
CONTROLS = [chr(i) for i in range(0x20) if chr(i) != "\r"] + [
    "\x7f",
    "\x80",
    "\x85",
    "\x9f",
    "\ud800",
    "\udfff",
    "\u2028",
    "\u2029",
]


def expected(text: str, fmt: str, tag: bool) -> str:
    """text as the format's reader gives it back."""
    out = []
    for ch in text:
        category = unicodedata.category(ch)
        if category == "Cs":
            continue
        if category == "Cc" and fmt != "dhtml" and ch not in "\n\t":
            continue
        if ch == "\t" and tag and fmt == "pgn":
            ch = " "
        out.append(ch)
    return "".join(out)


def game_with(text: str) -> Game:
    """A game with text (fenced by '<' and '>') in two tags, the game's comment and the
    comments of a main-line move, its reply and an alternative reply."""
    fenced = f"<{text}>"
    game = Game()
    game.tags["Event"] = fenced
    game.tags["Title"] = fenced
    game.comment = fenced
    first = game.add_move(Move.from_iccs("h2e2"), fenced)
    game.add_move(Move.from_iccs("h9g7"), fenced)
    first.add_variation(Move.from_iccs("b9c7"), comment=fenced)
    return game


def write_and_read(game: Game, fmt: str, notation: str = "ICCS") -> Game:
    out = io.BytesIO()
    writer = pgn_writer(notation) if fmt == "pgn" else find_format(fmt).write
    assert writer is not None
    writer([game], out)
    games = list(open_games(io.BytesIO(out.getvalue())))
    assert len(games) == 1
    return games[0]


def check_round_trip(text: str, fmt: str, notation: str = "ICCS") -> None:
    back = write_and_read(game_with(text), fmt, notation)
    tag_text = "<" + expected(text, fmt, tag=True) + ">"
    comment_text = "<" + expected(text, fmt, tag=False) + ">"
    assert back.tags["Event"] == tag_text
    assert back.tags["Title"] == tag_text
    assert back.comment == comment_text
    first = back.variations[0]
    assert str(first.move) == "h2e2" and first.comment == comment_text
    assert [str(n.move) for n in first.variations] == ["h9g7", "b9c7"]
    assert [n.comment for n in first.variations] == [comment_text, comment_text]


@pytest.mark.parametrize("fmt", ["pgn", "xqf", "dhtml"])
@pytest.mark.parametrize("control", CONTROLS, ids=[f"U+{ord(c):04X}" for c in CONTROLS])
def test_a_control_character_in_tags_and_comments_round_trips(fmt: str, control: str) -> None:
    check_round_trip(f"a{control}b{control}", fmt)


def test_a_nul_in_a_converted_game_does_not_make_the_pgn_unreadable() -> None:
    # the attack: a NUL in a header made convert write a PGN the front door called
    # "not a game record of a known format"
    game = game_with("Wang\x00Tianyi\x01")
    for notation in ("ICCS", "WXF", "Chinese", "SAN"):
        back = write_and_read(game, "pgn", notation)
        assert back.tags["Event"] == "<WangTianyi>" and back.comment == "<WangTianyi>"
        assert [str(m) for m in back.mainline_moves()] == ["h2e2", "h9g7"]


def test_no_writer_writes_a_nul_byte_or_a_raw_control() -> None:
    game = game_with("\x00\x01\x1b\x7f\x85")
    pgn = game.to_pgn().encode("utf-8")
    assert b"\x00" not in pgn and b"\x1b" not in pgn and b"\x7f" not in pgn
    for fmt in ("xqf", "dhtml"):
        out = io.BytesIO()
        find_format(fmt).write([game], out)
        data = out.getvalue()
        body = data[1024:] if fmt == "xqf" else data  # XQF's header and records are binary
        assert b"\x1b" not in body and b"\x7f" not in body
        if fmt == "dhtml":
            assert b"\x00" not in data and b"\\u0000" in data


text_strategy = st.text(
    alphabet=st.one_of(
        st.sampled_from(CONTROLS),
        st.characters(exclude_characters="\r"),
    ),
    max_size=12,
)


@settings(max_examples=100, deadline=None)
@given(text_strategy, st.sampled_from(["pgn", "xqf", "dhtml"]))
def test_any_text_round_trips_minus_what_the_format_cannot_carry(text: str, fmt: str) -> None:
    check_round_trip(text, fmt)
