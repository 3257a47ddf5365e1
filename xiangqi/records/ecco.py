"""ECCO openings: the code (A00-E99) and name of 《中国象棋开局分类》 for a game's first moves.

``classify(moves)`` reads the first 20 plies of a game from the usual start position (Move
objects or ICCS text such as ``"h2e2"``; squares are public numbers 0..89, ranks from Red's
side) and returns an ``Opening``: ``code`` ("C20"), ``name`` and ``variation`` in simplified
Chinese, and ``traditional`` for the same in traditional characters. A game that starts from
another position has no ECCO code: ``classify`` returns None for it. ``opening("C20")`` looks a
code up; ``openings()`` lists them all. ``tag_game(game)``
writes the ``ECCO``, ``Opening`` and ``Variation`` tags of a ``xiangqi.pgn.Game``.

How the code is found: like the classifiers of Chinese game viewers, by the moves in order,
with the transpositions the tree allows (xiangqi/records/ecco_tree.txt documents its notation). Each
ply is written in WXF from the mover's side (``xiangqi.notation.wxf``); when Red's first move
starts on Red's file 6..9 the whole game is mirrored, so that ``炮八平五`` reads as ``炮二平五``.
Provenance: the tree's branch points, moves and codes, and the names, are facts read from
the ECCO classifier of the vschess viewer (微思象棋播放器, github.com/FastLight126/vschess,
``vschess/develop/module/function.wxfToEcco.js`` and ``config.js``; Copyright 2009-2025
Margin.Top; its source headers since V2.6.0 say LGPL, an older LICENSE file in that repository
carries the GPL-3.0 text), which credits the algorithm to xqbase.com (象棋百科全书). No code was
copied: this module, the tree notation and the two data files are this project's own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache
from importlib import resources
from typing import NamedTuple

from ..errors import XiangqiError
from ..fen import START_FEN
from ..move import Move
from ..notation import wxf
from ..pgn import Game
from ..position import Position

__all__ = ["Opening", "classify", "opening", "openings", "tag_game", "InvalidEccoCodeError"]

#: How many plies the classifier reads (10 moves each side).
PLIES = 20


class InvalidEccoCodeError(XiangqiError):
    """An ECCO code that is not A00..E99 or names no opening of the table."""


class Opening(NamedTuple):
    """One ECCO opening: its code, and its name and variation in simplified Chinese.

    ``variation`` is "" when the code names a whole opening. ``traditional`` gives
    ``(name, variation)`` in traditional characters.
    """

    code: str
    name: str
    variation: str

    @property
    def traditional(self) -> tuple[str, str]:
        """(name, variation) in traditional Chinese characters."""
        return self.name.translate(_TRADITIONAL), self.variation.translate(_TRADITIONAL)

    def __str__(self) -> str:
        text = f"{self.code} {self.name}"
        return f"{text} {self.variation}" if self.variation else text


#: Simplified -> traditional, for every character of the names that differs (each maps 1:1).
_TRADITIONAL = str.maketrans(
    "两兑单压双后头宫对开弃横盘红缓补车转边过进连钩顺风飞马骑鸯鸳龟",
    "兩兌單壓雙後頭宮對開棄橫盤紅緩補車轉邊過進連鉤順風飛馬騎鴦鴛龜",
)


# -- the data files -------------------------------------------------------------------------


@cache
def _names() -> dict[str, Opening]:
    text = resources.files(__package__).joinpath("ecco_names.txt").read_text(encoding="utf-8")
    table: dict[str, Opening] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            code, name, *variation = line.split("\t")
            table[code] = Opening(code, name, variation[0] if variation else "")
    return table


# The tree file is read into closures: each node becomes a function of (the game's words,
# the flags of the current (def ...), the ply a scan is at) that returns a code, or None to
# go on with the scan ("skip" and "mark").
_Node = Callable[[list[str], set[str], int], str | None]
_Sexp = str | list["_Sexp"]
_CODE = re.compile(r"[A-E]\d\d")
_PLY = re.compile(r"([rb])(\d+)")


class _TreeError(Exception):
    """The tree file is malformed (a bug in the shipped data, caught by the tests)."""


def _read_sexps(text: str) -> list[_Sexp]:
    tokens = re.findall(r"[()]|[^\s()]+", re.sub(r";[^\n]*", "", text))
    stack: list[list[_Sexp]] = [[]]
    for token in tokens:
        if token == "(":
            stack.append([])
        elif token == ")":
            if len(stack) == 1:
                raise _TreeError("unbalanced ')'")
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(token)
    if len(stack) != 1:
        raise _TreeError("unbalanced '('")
    return stack[0]


def _word(words: list[str], ply: int) -> str:
    return words[ply] if 0 <= ply < len(words) else ""


class _Parser:
    """Turns the forms of ecco_tree.txt into closures; records every code and call it sees."""

    def __init__(self) -> None:
        self.trees: dict[str, _Node] = {}
        self.codes: set[str] = set()
        self.calls: set[str] = set()
        self.words: set[str] = set()

    @staticmethod
    def atom(sexp: _Sexp) -> str:
        if not isinstance(sexp, str):
            raise _TreeError(f"expected a word, found {sexp!r}")
        return sexp

    def moves(self, sexp: _Sexp, sep: str) -> list[str]:
        found = self.atom(sexp).split(sep)
        self.words.update(found)
        return found

    def ply(self, sexp: _Sexp) -> Callable[[int], int]:
        """The ply a ply word names, as a function of the ply a scan is at."""
        text = self.atom(sexp)
        if text in ("-1", "+1"):
            offset = int(text)
            return lambda here: here + offset
        found = _PLY.fullmatch(text)
        if not found or not 1 <= int(found[2]) <= PLIES // 2:
            raise _TreeError(f"bad ply {text!r}")
        ply = 2 * int(found[2]) - 2 + (found[1] == "b")
        return lambda here: ply

    def plies(self, side: _Sexp, first: _Sexp, last: _Sexp) -> range:
        """The plies of one side's moves first..last (numbered from 1)."""
        colour = self.atom(side)
        m, n = int(self.atom(first)), int(self.atom(last))
        if colour not in ("red", "black") or not 1 <= m <= n <= PLIES // 2:
            raise _TreeError(f"bad range {colour} {m} {n}")
        offset = colour == "black"
        return range(2 * m - 2 + offset, 2 * n - 1 + offset, 2)

    def cases(
        self, items: list[_Sexp], ends: tuple[str, ...]
    ) -> tuple[dict[str, _Node], dict[str, _Node]]:
        """The (SET X) cases as a dict from move to node, and the (else X)/(end X) nodes."""
        table: dict[str, _Node] = {}
        tails: dict[str, _Node] = {}
        for item in items:
            if not isinstance(item, list) or len(item) != 2:
                raise _TreeError(f"bad case {item!r}")
            head, node = self.atom(item[0]), self.node(item[1])
            if head in ends:
                tails[head] = node
            else:
                for move in self.moves(head, "|"):
                    table.setdefault(move, node)
        if set(tails) != set(ends):
            raise _TreeError(f"a branch lacks {set(ends) - set(tails)}: {items!r}")
        return table, tails

    def node(self, sexp: _Sexp) -> _Node:
        if isinstance(sexp, str):
            return self.word_node(sexp)
        if not sexp:
            raise _TreeError("empty form")
        head, args = self.atom(sexp[0]), sexp[1:]
        build = {
            ("at", None): self.at,
            ("line", 4): self.line,
            ("perm", 4): self.perm,
            ("all", 6): self.all,
            ("scan", None): self.scan,
            ("if", 3): self.if_,
            ("mark", None): self.mark,
        }
        for (name, arity), method in build.items():
            if head == name and (arity is None or len(args) == arity):
                return method(args)
        raise _TreeError(f"bad form {sexp!r}")

    def word_node(self, text: str) -> _Node:
        if _CODE.fullmatch(text):
            self.codes.add(text)
            return lambda words, flags, here: text
        if text.startswith("@"):
            name = text[1:]
            self.calls.add(name)
            trees = self.trees
            return lambda words, flags, here: trees[name](words, set(), -1)
        if text == "skip":
            return lambda words, flags, here: None
        raise _TreeError(f"unknown word {text!r}")

    def at(self, args: list[_Sexp]) -> _Node:
        where = self.ply(args[0])
        table, tails = self.cases(args[1:], ("else",))
        default = tails["else"]

        def at(words: list[str], flags: set[str], here: int) -> str | None:
            return table.get(_word(words, where(here)), default)(words, flags, here)

        return at

    def line(self, args: list[_Sexp]) -> _Node:
        where, moves = self.ply(args[0]), self.moves(args[1], ",")
        then, other = self.node(args[2]), self.node(args[3])

        def line(words: list[str], flags: set[str], here: int) -> str | None:
            start = where(here)
            ok = all(_word(words, start + i) == m for i, m in enumerate(moves))
            return (then if ok else other)(words, flags, here)

        return line

    def perm(self, args: list[_Sexp]) -> _Node:
        red, black = sorted(self.moves(args[0], ",")), sorted(self.moves(args[1], ","))
        then, other = self.node(args[2]), self.node(args[3])

        def perm(words: list[str], flags: set[str], here: int) -> str | None:
            ok = (
                sorted(_word(words, 2 * i) for i in range(len(red))) == red
                and sorted(_word(words, 2 * i + 1) for i in range(len(black))) == black
            )
            return (then if ok else other)(words, flags, here)

        return perm

    def all(self, args: list[_Sexp]) -> _Node:
        plies = self.plies(*args[:3])
        moves = frozenset(self.moves(args[3], "|"))
        then, other = self.node(args[4]), self.node(args[5])

        def all_(words: list[str], flags: set[str], here: int) -> str | None:
            ok = all(_word(words, ply) in moves for ply in plies)
            return (then if ok else other)(words, flags, here)

        return all_

    def scan(self, args: list[_Sexp]) -> _Node:
        plies = self.plies(*args[:3])
        table, tails = self.cases(args[3:], ("else", "end"))
        default, end = tails["else"], tails["end"]

        def scan(words: list[str], flags: set[str], here: int) -> str | None:
            for ply in plies:
                found = table.get(_word(words, ply), default)(words, flags, ply)
                if found is not None:
                    return found
            return end(words, flags, here)

        return scan

    def if_(self, args: list[_Sexp]) -> _Node:
        flag = self.atom(args[0])
        then, other = self.node(args[1]), self.node(args[2])

        def if_(words: list[str], flags: set[str], here: int) -> str | None:
            return (then if flag in flags else other)(words, flags, here)

        return if_

    def mark(self, args: list[_Sexp]) -> _Node:
        names = [self.atom(a) for a in args]
        marked = {n for n in names if not n.startswith("-")}
        cleared = {n[1:] for n in names if n.startswith("-")}
        if not marked:
            raise _TreeError(f"mark sets no flag: {args!r}")

        def mark(words: list[str], flags: set[str], here: int) -> str | None:
            flags.difference_update(cleared)
            flags.update(marked)
            return None

        return mark


@cache
def _parsed() -> _Parser:
    text = resources.files(__package__).joinpath("ecco_tree.txt").read_text(encoding="utf-8")
    parser = _Parser()
    for form in _read_sexps(text):
        if not (isinstance(form, list) and len(form) == 3 and form[0] == "def"):
            raise _TreeError(f"expected (def name tree), found {form!r}")
        parser.trees[parser.atom(form[1])] = parser.node(form[2])
    if not parser.calls <= set(parser.trees) or "main" not in parser.trees:
        raise _TreeError(f"undefined trees: {parser.calls - set(parser.trees)}")
    return parser


def _code(words: list[str]) -> str:
    found = _parsed().trees["main"](words, set(), -1)
    if found is None:
        raise _TreeError(f"the tree gave no code for {words!r}")
    return found


# -- the words of a game --------------------------------------------------------------------

_MIRROR_DIGITS = str.maketrans("123456789", "987654321")


def _mirror(word: str) -> str:
    """The WXF word of the same move on the board mirrored left to right.

    The file digits turn (f -> 10 - f); so does the number after the direction for a
    traverse and for every horse, elephant and advisor move, where it names a file; for
    other pieces moving along a file it counts points and stays.
    """
    head, direction, number = word[:2], word[2], word[3:]
    if direction == "." or head[0] in "HEA":
        number = number.translate(_MIRROR_DIGITS)
    return head.translate(_MIRROR_DIGITS) + direction + number


#: A pass as text: python-chess's UCI null move and PGN's.
_NULL_TEXT = ("0000", "--")


def _words(moves: Iterable[Move | str]) -> list[str]:
    pos = Position()
    words: list[str] = []
    for item in moves:
        if len(words) == PLIES:
            break
        if isinstance(item, str):
            move = Move.null() if item in _NULL_TEXT else pos.parse_iccs(item)
        elif isinstance(item, Move):
            move = item
        else:
            raise TypeError(f"moves must be Move objects or ICCS text, got {type(item).__name__}")
        if not move:  # a pass (null move) is no opening move: the moves before it classify
            break
        words.append(wxf(pos, move))
        pos.push(move)
    if words and words[0][1].isdigit() and int(words[0][1]) > 5:
        words = [_mirror(w) for w in words]
    return words


def _game_moves(game: Game) -> list[Move] | None:
    if game.board().fen().split()[:2] != START_FEN.split()[:2]:
        return None
    return game.mainline_moves()


# -- the public functions -------------------------------------------------------------------


def classify(moves: Iterable[Move | str] | Game) -> Opening | None:
    """The ECCO opening of a game from the usual start: Moves or ICCS text, or a pgn.Game.

    Reads the first 20 plies (squares are public numbers 0..89; ICCS ranks 0..9 from Red's
    side); a shorter game is classified by what it has (no moves: A00), and a game with a
    pass (Move.null(), or the text "0000" or "--") by its moves before the pass. A Game that starts
    from another position gives None. Raises InvalidMoveError for bad ICCS text and
    IllegalMoveError for an illegal move among the plies read.
    """
    if isinstance(moves, Game):
        found = _game_moves(moves)
        if found is None:
            return None
        moves = found
    elif isinstance(moves, (str, bytes)):
        raise TypeError("moves must be an iterable of Move or ICCS text, not a single string")
    code = _code(_words(moves))
    return _names()[code]


def opening(code: str) -> Opening:
    """The Opening of an ECCO code such as "C20" (InvalidEccoCodeError if there is none)."""
    if not isinstance(code, str):
        raise TypeError(f"code must be str, got {type(code).__name__}")
    found = _names().get(code.upper())
    if found is None:
        raise InvalidEccoCodeError(f"no ECCO opening has the code {code!r} (A00..E48 in use)")
    return found


def openings() -> list[Opening]:
    """Every opening of the ECCO table, in code order."""
    return sorted(_names().values())


def tag_game(game: Game, traditional: bool = False) -> Opening | None:
    """Classify a Game and set its ECCO, Opening and Variation tags; return the Opening.

    With ``traditional`` the names are written in traditional characters. A game from
    another start position has no ECCO code: its tags are left as they are, and the result
    is None. A Variation tag is written only when the code names a variation, and an old
    Variation tag is removed otherwise.
    """
    found = classify(game)
    if found is None:
        return None
    name, variation = found.traditional if traditional else (found.name, found.variation)
    game.tags["ECCO"] = found.code
    game.tags["Opening"] = name
    if variation:
        game.tags["Variation"] = variation
    else:
        game.tags.pop("Variation", None)
    return found
