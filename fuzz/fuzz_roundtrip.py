"""Coverage-guided fuzz target (atheris / libFuzzer): random game trees through every writer
and back through its reader.

The input bytes drive a builder: a start position (the usual start or one of a few FENs), tags
with odd text (CJK, quotes, braces, backslashes, line breaks), then a tree grown node by node:
a legal move chosen by index, a null move (``Move.null()``, where it is legal: not in check),
comments (before and after a move), NAGs, variations anywhere. The tree is written

    as PGN in each move notation (ICCS, WXF, Chinese, SAN), through ``Game.to_pgn`` and through
    ``xiangqi.records.write_games`` to a ``.pgn`` file, and read back with ``pgn.read_game``
    and ``xiangqi.records.open_games``;
    as XQF and as DhtmlXQ, through ``xiangqi.records.write_games`` (``.xqf``, ``.dhtml``) and
    read back with ``open_games`` (which must recognise each by its content).

Invariants: the tree read back equals the tree written in every part the format holds. PGN
holds everything: moves (null moves as ``--``) of every variation, comments, starting
comments, NAGs, every tag and the result. XQF and DhtmlXQ hold the moves of every
variation, the comments after a move and before the first one, and the result (DhtmlXQ also
its tags); they have no place for a null move, and refuse a tree holding one with
``UnwritableGameError`` (a XiangqiError), leaving no file. Anything else, any other exception,
or a mismatch is a finding.

Run: scripts/fuzz.sh (FUZZ_TARGETS=roundtrip for this one), or by hand:
    python fuzz/fuzz_roundtrip.py fuzz/corpus_roundtrip fuzz/seeds_roundtrip -max_total_time=60
A single input (e.g. a crash file) is replayed by passing its path.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
import unicodedata
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _harness

_harness.instrument(__name__, "xiangqi.pgn", "xiangqi.records", "xiangqi.records.dhtml")

from xiangqi import Move, generate_legal, pgn, records
from xiangqi.errors import XiangqiError
from xiangqi.records import dhtml

#: Start positions: the usual start, Black to move first, an ending, a middle game, a
#: position with Red in check (no null move at the root).
FENS = (
    None,
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
    "3akab2/9/4b4/p3p1p1p/2p6/9/P1P1P1P1P/4B4/9/2BAKA3 w - - 0 1",
    "2bak4/4a4/2n1b4/p1R1p3p/2p3p2/4P4/P1P3c1P/2N1B4/4A4/2BAK4 b - - 0 20",
    "4k4/9/9/9/9/9/9/9/4r4/4K4 w - - 0 1",
)
#: Text the tags and comments are drawn from (besides text cut from the input itself).
TEXTS = (
    "",
    "好棋",
    '他说"好"',
    "a}b{c",
    "两行\n第二行",
    "[DhtmlXQ]",
    "back\\slash",
    "pipe|bar||",
    "%x",
    ";semi",
    "  spaced  ",
    "红方优势，黑方难守",
    "é ü ß",
    "😀",
    "Ｃ２．５",
    "1-0",
)
TAG_NAMES = ("Event", "Site", "Date", "Round", "Red", "Black", "Title", "Opening", "Annotator")
#: XQF's text fields and their sizes in bytes (ElephantEye's XQF.TXT).
XQF_FIELDS = {"Title": 64, "Event": 64, "Date": 16, "Site": 16, "Red": 16, "Black": 16}
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
NOTATIONS = ("ICCS", "WXF", "Chinese", "SAN")
MAX_NODES = 120


class Bytes(_harness.Bytes):
    """The input, read from the front: small numbers and text; zeros once it runs out."""

    def text(self) -> str:
        kind = self.byte()
        if kind < 200:
            return TEXTS[kind % len(TEXTS)]
        return self.chunk(24).decode("utf-8", "replace").replace("\x00", "")


def build(data: bytes) -> pgn.Game:
    """A game tree from the input bytes."""
    b = Bytes(data)
    fen = FENS[b.byte() % len(FENS)]
    game = pgn.Game(fen=fen) if fen else pgn.Game()
    for _ in range(b.byte() % 4):
        value = b.text()
        try:
            game.tags[TAG_NAMES[b.byte() % len(TAG_NAMES)]] = value
        except ValueError:
            pass
    game.result = RESULTS[b.byte() % 4]
    game.comment = b.text() if b.byte() % 3 == 0 else ""
    nodes: list[pgn.GameNode] = [game]
    while b.more() and len(nodes) < MAX_NODES:
        op = b.byte()
        node = nodes[-1] if op < 160 else nodes[b.byte() % len(nodes)]
        pos = node.board()
        moves = sorted(generate_legal(pos))
        if op % 8 == 7 and not pos.is_check():
            move = Move.null()
        elif moves:
            move = moves[b.byte() % len(moves)]
        else:
            continue
        if node.has_variation(move):
            continue
        flags = b.byte()
        comment = b.text() if flags & 1 else ""
        starting = b.text() if flags & 2 else ""
        nags = [b.byte() % 256] if flags & 4 else []
        child = node.add_variation(move, comment=comment, starting_comment=starting, nags=nags)
        nodes.append(child)
    return game


def _printable(text: str) -> str:
    """text without what PGN and XQF cannot carry (the PGN Standard's section 4.1; a NUL ends
    an XQF string): control characters (Unicode Cc) but tab and line breaks, and lone
    surrogates (Cs), which no encoding carries. DhtmlXQ escapes the controls instead."""
    return "".join(c for c in text if c in "\t\n\r" or unicodedata.category(c) not in ("Cc", "Cs"))


def _pgn_tag(value: str) -> str:
    """A tag value as PGN gives it back: printing characters only, a tab as a space."""
    return _printable(value).replace("\t", " ")


def _pgn_text(text: str) -> str:
    """A comment as PGN gives it back (python-chess's way): line breaks as "\\n", the
    whitespace around it stripped (so a whitespace-only comment is not written), without
    the characters PGN cannot carry (_printable)."""
    return _printable(text).replace("\r\n", "\n").replace("\r", "\n").strip()


def _starting(node: pgn.ChildNode) -> str:
    """A starting comment, held only where a variation starts (as in python-chess)."""
    return "" if node.parent.variations[0] is node else _pgn_text(node.starting_comment)


def _tree(node: pgn.GameNode, keep: Callable[[pgn.ChildNode], tuple[object, ...]]) -> list[object]:
    """The tree below node as nested lists, each child as keep(child) + (its subtree,),
    without recursion, however deep."""
    out: list[object] = []
    stack: list[tuple[pgn.GameNode, list[object]]] = [(node, out)]
    while stack:
        parent, into = stack.pop()
        for child in parent.variations:
            sub: list[object] = []
            into.append((*keep(child), sub))
            stack.append((child, sub))
    return out


def full_tree(node: pgn.GameNode) -> list[object]:
    """Everything PGN holds below node."""
    return _tree(
        node,
        lambda child: (
            child.move.iccs() if child.move else "--",
            _pgn_text(child.comment),
            _starting(child),
            sorted(child.nags),
        ),
    )


def move_tree(node: pgn.GameNode) -> list[object]:
    """The moves and comments after them below node: what XQF and DhtmlXQ hold."""
    return _tree(node, lambda child: (child.move.iccs(), _pgn_text(child.comment)))


def has_null(game: pgn.Game) -> bool:
    stack: list[pgn.GameNode] = [game]
    while stack:
        node = stack.pop()
        for child in node.variations:
            if not child.move:
                return True
            stack.append(child)
    return False


def check_pgn(game: pgn.Game, directory: str) -> None:
    expected = full_tree(game)
    expected_tags = {name: _pgn_tag(value) for name, value in game.tags.items()}
    for notation in NOTATIONS:
        text = game.to_pgn(notation)
        again = pgn.read_game(text)
        assert again is not None and again.errors == [], (notation, text, again and again.errors)
        assert full_tree(again) == expected, (notation, text)
        assert _pgn_text(again.comment) == _pgn_text(game.comment), (notation, text)
        tags = dict(again.tags)
        if notation == "SAN" and "Variant" not in game.tags:
            assert tags.pop("Variant") == "xiangqi"
        if "Format" not in game.tags:  # the writer names the notation
            assert tags.pop("Format") == notation, (notation, tags)
        assert tags == expected_tags, (notation, tags, game.tags)
        assert again.to_pgn(notation) == text, notation
    path = os.path.join(directory, "games.pgn")
    assert records.write_games([game, game], path) == 2
    read = list(records.open_games(path))
    assert len(read) == 2 and all(full_tree(g) == expected for g in read)
    for g in read:
        read_tags = {"Format": "ICCS", **g.tags}
        assert g.errors == [] and {**expected_tags, "Format": "ICCS"} == read_tags


def check_binary(game: pgn.Game, directory: str, suffix: str) -> None:
    path = os.path.join(directory, "game" + suffix)
    if has_null(game):
        try:
            records.write_games([game], path)
        except records.UnwritableGameError as exc:
            assert "null move" in str(exc), exc
        else:
            raise AssertionError(f"{suffix} wrote a null move")
        assert os.listdir(directory) == [], os.listdir(directory)  # nothing left behind
        return
    assert records.write_games([game], path) == 1
    [again] = list(records.open_games(path))
    name = "xqf" if suffix == ".xqf" else "dhtml"
    fmt = records.find_format(name)
    with open(path, "rb") as handle:
        assert fmt.sniff(handle.read(records.HEAD_BYTES)), suffix
    assert again.errors == [], (suffix, again.errors)
    # the board and the side to move (neither format has a field for the move numbers)
    assert again.fen.split()[:2] == game.fen.split()[:2], (suffix, again.fen, game.fen)
    assert move_tree(again) == _expected_moves(game, suffix), suffix
    assert _pgn_text(again.comment) == _pgn_text(_held(game.comment, suffix)), suffix
    assert again.result == game.result, (suffix, again.result, game.result)
    if suffix == ".xqf":
        # header fields of 16 or 64 bytes (a length byte, then GBK text): a value that fits
        # comes back whole, line breaks as "\n", NULs and the whitespace around it cut
        for name, size in XQF_FIELDS.items():
            value = _printable(_held(game.tags.get(name, ""), suffix)).replace("\r", "\n")
            if len(value.replace("\n", "\r\n").encode("gb18030")) < size:
                got = again.tags.get(name, "")
                want = value.strip("\x00").strip()
                unknown = ("", "?", "????.??.??")  # an empty field reads as the tag's default
                assert got == want or (want in unknown and got in unknown), (name, value, got)
    if suffix == ".dhtml":
        for pgn_name in dhtml.TAGS.values():
            value = game.tags.get(pgn_name, "")
            if value and value != "?":
                got = again.tags.get(pgn_name)
                # the tag's text is stripped; a line break is "||" there and a control
                # character \\uXXXX, so they stay
                want = re.sub(_DHTML_STRIPPED, "", _held(value, suffix))
                unknown = ("", "?", "????.??.??")  # an empty tag reads as the tag's default
                assert got == want or (want in unknown and got in unknown), (pgn_name, value, got)
    os.remove(path)


#: What DhtmlXQ's reader strips off a tag's ends: whitespace it writes as it is (not a line
#: break, written "||", nor a control character, written \\uXXXX).
_DHTML_STRIPPED = re.compile(r"^[^\S\n\x00-\x1f\x7f-\x9f]+|[^\S\n\x00-\x1f\x7f-\x9f]+$")


def _held(text: str, suffix: str) -> str:
    """Text as the format keeps it: XQF and DhtmlXQ have no carriage return in a line break."""
    return text.replace("\r\n", "\n")


def _expected_moves(game: pgn.Game, suffix: str) -> list[object]:
    out: list[object] = []
    stack: list[tuple[pgn.GameNode, list[object]]] = [(game, out)]
    while stack:
        parent, into = stack.pop()
        for child in parent.variations:
            sub: list[object] = []
            into.append((child.move.iccs(), _pgn_text(_held(child.comment, suffix)), sub))
            stack.append((child, sub))
    return out


def test_one_input(data: bytes) -> None:
    game = build(data)
    with tempfile.TemporaryDirectory(prefix="xiangqi-fuzz-") as directory:
        check_pgn(game, directory)
        os.remove(os.path.join(directory, "games.pgn"))
        for suffix in (".xqf", ".dhtml"):
            try:
                check_binary(game, directory, suffix)
            except XiangqiError as exc:
                if not has_null(game):
                    raise AssertionError(f"{suffix} refused a game it can hold: {exc}") from exc
                raise


def main() -> None:
    _harness.run(test_one_input)


if __name__ == "__main__":
    main()
