"""The PGN reader: lines from text, text files or binary files (encoding decided once), and
the games read from them, with errors recorded (see xiangqi.pgn)."""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterator
from typing import IO

from .._checks import check_bool
from ..errors import IllegalMoveError, InvalidMoveError, XiangqiError
from ..move import Move
from ..notation import SAN_RE, parse_chinese, parse_iccs, parse_san, parse_wxf
from ..pieces import Color
from ..position import Position
from ._base import (
    MAX_ERRORS,
    QUOTE,
    SUFFIX_NAGS,
    IllegalPgnMoveError,
    InvalidPgnMoveError,
    PgnError,
    PgnMoveError,
    PgnSyntaxError,
    both_kings_in_check,
    quote,
)
from ._lexicon import (
    ICCS_WORD,
    LEAD,
    LOOSE_TAG,
    TAG,
    ascii_forms,
    comment_end,
    split_word,
    strip_suffix,
)
from .tree import ChildNode, Game, GameNode

__all__ = ["read_game", "read_games"]

_TAG_UNESCAPE = re.compile(r"\\(.)", re.DOTALL)
_TAG_ESCAPES = {"n": "\n", "r": "\r"}


def _unescape_tag(value: str) -> str:
    return _TAG_UNESCAPE.sub(lambda m: _TAG_ESCAPES.get(m.group(1), m.group(1)), value)


_COMMENT_UNESCAPE = re.compile(r"\\([\\}\[])")


def _uncomment(body: str) -> str:
    return _COMMENT_UNESCAPE.sub(r"\1", body).strip()


# -- reading: lines ---------------------------------------------------------------------------

_LINES = re.compile(r"([^\r\n]*)(\r\n|\r|\n|$)")
#: Bytes of the file read ahead, from its first non-ASCII line, to decide its encoding.
_SNIFF_BYTES = 32_768
#: The likelier decoding is confirmed on the whole lines within this many characters.
_CONFIRM_CHARS = 500
#: Characters frequent in xiangqi records (pieces, moves, numerals, dates, events), in both
#: simplified and traditional forms: the right decoding of Chinese text has many of them,
#: a wrong one (mojibake) few.
_COMMON = frozenset(
    "进進退平马馬车車俥炮砲包兵卒相象仕士帅帥将將一二三四五六七八九十前后後中红紅黑胜勝负負"
    "和局赛賽年月日第轮輪届屆全国國棋杯队隊锦錦标標市省区區甲级級名人"
)


def _utf16_family(encoding: str) -> bool:
    import codecs

    return codecs.lookup(encoding).name.startswith(("utf-16", "utf-32"))


def _sniff(sample: bytes) -> str:
    """The encoding of a file from a sample of whole lines: UTF-8 if it decodes as UTF-8, else
    UTF-8, Big5 (cp950) or GB18030 (GBK): the one whose text has more of the words of xiangqi
    records, if the moves of its first lines read; otherwise the one that reads more moves."""
    try:
        sample.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError:
        pass
    # UTF-8 stays a candidate: a UTF-8 file with a few stray bytes is still UTF-8
    texts = {enc: sample.decode(enc, errors="replace") for enc in ("utf-8", "cp950", "gb18030")}
    words = {
        enc: (sum(ch in _COMMON for ch in text), -text.count("\ufffd"))
        for enc, text in texts.items()
    }
    likely, *others = sorted(texts, key=words.__getitem__, reverse=True)
    head = texts[likely]
    cut = head.rfind("\n", 0, _CONFIRM_CHARS)
    first = _read(_Source(None, text=head[: cut if cut > 0 else _CONFIRM_CHARS]), False)
    if first is None or not any(isinstance(e, PgnMoveError) for e in first.errors):
        return likely

    def moves_read(text: str) -> int:
        return sum(len(g.mainline_moves()) for g in _iterate(_Source(None, text=text), False))

    scores = {enc: (moves_read(texts[enc]), words[enc]) for enc in texts}
    return max(texts, key=scores.__getitem__)


class _Source:
    """Lines (without their ends) of PGN text, a text stream or a binary stream, with pushback.

    Reads one line at a time (``readline``), so a stream is never held in memory; lines read
    past the end of a game wait in ``pending`` for the next game. Each line is kept with the
    index where its unread text starts, so a line holding many games is never copied.

    A binary stream's encoding is decided once: a BOM, else at its first non-ASCII line from
    the next ``_SNIFF_BYTES`` (see _sniff). A seekable stream is left, after each game, at the
    start of the line where the next game starts (so ``tell()`` between games gives offsets to
    come back to). Games that share a line share its offset: seeking there reads the first.
    """

    def __init__(
        self,
        handle: IO[str] | IO[bytes] | None,
        text: str | None = None,
        encoding: str | None = None,
    ) -> None:
        self.handle = handle
        self.encoding = encoding
        #: (line, index where its unread text starts, tell() of its raw line, index of the
        #: line in its raw line), reversed.
        self.pending: list[tuple[str, int, object, int]] = []
        #: tell() of the raw line of the line next_line gave last, and the line's index in it
        self.current: tuple[object, int] = (None, 0)
        self.ahead: list[tuple[bytes, int]] = []  # raw lines read to sniff, with offsets
        self.games = 0
        self.pos = 0  # byte offset of a binary handle
        self.parked: tuple[object, object] | None = None
        self.seekable = False
        self._text_iter: Iterator[re.Match[str]] | None = None
        if text is not None:
            self._text_iter = _LINES.finditer(text)
            self._text_len = len(text)
        elif handle is not None:
            try:
                self.seekable = bool(handle.seekable())
            except (AttributeError, OSError, ValueError):
                self.seekable = False
        self.done = False
        self.undecodable: tuple[str, bytes] | None = None
        self.wide = False
        self.set_encoding(encoding)

    def set_encoding(self, encoding: str | None) -> None:
        self.encoding = encoding
        self.wide = encoding is not None and _utf16_family(encoding)

    # -- positions

    def resume(self) -> None:
        """Before a game: continue where the last one stopped, or from where the caller moved
        the stream to (``seek``)."""
        if self.handle is None or not self.seekable:
            return
        try:
            now = self.handle.tell()
        except (OSError, ValueError):
            self.seekable = False
            return
        if self.parked is not None and now == self.parked[0]:
            if self.parked[1] != now:
                self.handle.seek(self.parked[1])  # type: ignore[arg-type]
            return
        self.pending.clear()
        self.ahead.clear()
        self.done = False
        self.pos = now if isinstance(now, int) else 0

    def park_exactly(self) -> str:
        """After read_game's one game: leave a text stream exactly where the game's text ends,
        so the next call (with a new _Source) starts there. Returns the text after the game
        that a stream which cannot seek back loses ("" if none)."""
        self.parked = None
        handle = self.handle
        if self.pending and self.seekable and handle is not None:
            _, start, cookie, base = self.pending[-1]
            if cookie is not None:
                handle.seek(cookie)  # type: ignore[arg-type]
                handle.read(base + start)
                return ""
        return "\n".join(line[start:] for line, start, _, _ in reversed(self.pending)).strip()

    def park(self) -> None:
        """After a game: leave a seekable stream at the start of the next game's line."""
        self.parked = None
        if self.handle is None or not self.seekable:
            return
        try:
            after = self.handle.tell()
        except (OSError, ValueError):
            self.seekable = False
            return
        if self.pending:
            cookie = self.pending[-1][2]
        elif self.ahead:
            cookie = self.ahead[0][1]
        else:
            self.parked = (after, after)
            return
        if cookie is None:
            return
        self.handle.seek(cookie)  # type: ignore[arg-type]
        self.parked = (cookie, after)

    # -- lines

    def _more(self) -> bool:
        """Read more lines into pending; False at the end."""
        if self.done:
            return False
        if self.wide and self._text_iter is None:
            assert self.encoding is not None
            self._whole(self.encoding)
        if self._text_iter is not None:
            for match in self._text_iter:
                if match.end() == match.start() == self._text_len:
                    continue  # the empty match at the very end
                self.pending.append((match.group(1), 0, None, 0))
                return True
            self.done = True
            return False
        handle = self.handle
        assert handle is not None
        cookie: object = None
        if self.ahead:
            raw: str | bytes = self.ahead[0][0]
            cookie = self.ahead.pop(0)[1]
        else:
            if self.seekable and not isinstance(handle, (io.RawIOBase, io.BufferedIOBase)):
                try:
                    cookie = handle.tell()
                except (OSError, ValueError):
                    self.seekable = False
            raw = handle.readline()
            if isinstance(raw, bytes):
                cookie = self.pos if self.seekable else None
                self.pos += len(raw)
        if not raw:
            self.done = True
            return False
        if isinstance(raw, bytes):
            text = self._decode(raw, cookie)
            if text is None:
                return True  # switched to a whole-file decoding
        elif isinstance(raw, str):
            text = raw
        else:
            raise TypeError(f"readline() gave {type(raw).__name__}, expected str or bytes")
        parts: list[tuple[str, int, object, int]] = []
        for match in _LINES.finditer(text):
            if match.start() == len(text) and parts:
                break
            parts.append((match.group(1), 0, cookie, match.start()))
        self.pending.extend(reversed(parts))
        return True

    def _decode(self, raw: bytes, cookie: object) -> str | None:
        if self.encoding is None:
            if cookie in (0, None) and raw.startswith(b"\xef\xbb\xbf"):
                self.encoding = "utf-8"
                raw = raw[3:]
            elif raw.startswith((b"\xff\xfe", b"\xfe\xff")) and cookie in (0, None):
                self.ahead.insert(0, (raw, 0))
                self._whole("utf-16")
                return None
            elif raw.isascii():
                return raw.decode("ascii")
            else:
                self.ahead.insert(0, (raw, cookie if isinstance(cookie, int) else 0))
                self._read_ahead()
                self.encoding = _sniff(b"".join(r for r, _ in self.ahead))
                raw = self.ahead.pop(0)[0]
        try:
            return raw.decode(self.encoding)
        except UnicodeDecodeError as exc:
            # kept as U+FFFD and reported on the game being read (see _read)
            self.undecodable = (self.encoding, raw[exc.start : exc.start + 8])
            return raw.decode(self.encoding, errors="replace")

    def _read_ahead(self) -> None:
        assert self.handle is not None
        size = sum(len(r) for r, _ in self.ahead)
        while size < _SNIFF_BYTES:
            raw = self.handle.readline()
            if not raw:
                break
            assert isinstance(raw, bytes)
            self.ahead.append((raw, self.pos))
            self.pos += len(raw)
            size += len(raw)

    def _whole(self, encoding: str) -> None:
        """A UTF-16 or UTF-32 file: decode it whole (such files are rare and small)."""
        assert self.handle is not None
        head = b"".join(r for r, _ in self.ahead)
        self.ahead.clear()
        tail = self.handle.read()
        rest = head + (tail if isinstance(tail, bytes) else tail.encode(encoding))
        text = rest.decode(encoding, errors="replace")
        self.handle = None
        self.seekable = False
        self._text_iter = _LINES.finditer(text)
        self._text_len = len(text)

    def next_line(self) -> tuple[str, int] | None:
        """The next line and the index where its unread text starts; None at the end."""
        while not self.pending:
            if not self._more():
                return None
        line, start, cookie, base = self.pending.pop()
        self.current = (cookie, base)
        return line, start

    def push_back(self, line: str, start: int) -> None:
        """Give back the unread text of the line next_line gave last (from index start)."""
        self.pending.append((line, start, *self.current))


# -- reading: one game ------------------------------------------------------------------------

_TAG_START = re.compile(r'[ \t\ufeff]*\[[ \t]*[A-Za-z0-9_]+[ \t]+"')
_TOKEN = re.compile(
    r"""
      (?P<space>\s+)
    | (?P<open>\()
    | (?P<close>\))
    | (?P<nag>\$\d{1,3})(?![0-9])
    | (?P<suffix>[!?]{1,2})(?=[\s(){};$]|$)
    | (?P<result>1-0|0-1|1/2-1/2|\*)(?=[\s(){};$]|$)
    | (?P<number>\d+\s*(?:\.+|、|。))(?!\d)
    | (?P<word>[^\s(){};$]+)
    | (?P<junk>.)
    """,
    re.VERBOSE | re.DOTALL,
)
_COMMENT_START = re.compile(r"[{;]")
_BLANK = re.compile(r"[\s\ufeff]*\Z")


_last_search: list[object] = ["", 0, 0]


def _comment_start(line: str, start: int) -> int:
    """Index of the first "{" or ";" of line from start (len(line) if none). The last answer
    is kept, so the games of one long line do not each search to its end again."""
    last, since, found = _last_search
    if last is line and isinstance(since, int) and isinstance(found, int):
        if since <= start <= found:
            return found
    match = _COMMENT_START.search(line, start)
    end = match.start() if match is not None else len(line)
    _last_search[:] = [line, start, end]
    return end


#: The null move (a pass) as python-chess writes it ("--") and as UCI writes it ("0000").
_NULL_WORDS = frozenset(("--", "0000"))


class _GameReader:
    """Builds one Game from lines: tags, then move text, with errors recorded."""

    def __init__(self, number: int, strict: bool) -> None:
        self.game = Game()
        self.number = number
        self.strict = strict
        self.seen_tags: set[str] = set()
        self.in_moves = False
        self.finished = False
        self.pos: Position | None = None
        self.node: GameNode = self.game
        #: (node to return to, its depth) for each open variation.
        self.stack: list[tuple[ChildNode, int]] = []
        self.depth = 0
        self.in_comment = False
        self.comment_parts: list[str] = []
        self.pending_comment: list[str] = []  # comments after "(", before the first move
        self.fresh = False  # just after "(", before the variation's first move
        self.dead = False  # main line broken: the rest goes to unread
        self.skip_depth = 0  # > 0: inside a variation being skipped after an error
        self.skip_pops = False  # the skipped variation was opened (its ")" closes it)
        self.error_count = 0
        self.san_base: int | None = None  # SAN ranks 1..10 or 0..9, once a move shows which
        #: While san_base is undecided and no variation was opened: the main-line nodes, their
        #: text and whether it was read as SAN, to read them again with ranks 0..9 (XBoard).
        self.san_history: list[tuple[ChildNode, str, bool]] | None = []
        self.san_used = False

    # -- errors

    def error(self, exc: PgnError) -> None:
        if self.strict:
            raise exc
        self.error_count += 1
        if self.error_count <= MAX_ERRORS:
            self.game.errors.append(exc)
        elif self.error_count == MAX_ERRORS + 1:
            self.game.errors.append(
                PgnSyntaxError(
                    f"game {self.number}: more than {MAX_ERRORS} errors, the rest not kept",
                    self.depth,
                    "",
                    self.number,
                )
            )

    def syntax(self, what: str, text: str) -> None:
        self.error(
            PgnSyntaxError(
                f"game {self.number}, ply {self.depth}: {what}: {quote(text)}",
                self.depth,
                text[:QUOTE],
                self.number,
            )
        )

    # -- tags

    def take_tags(self, line: str, start: int) -> int | None:
        """Read the tag pairs of line from index start; return the index of the rest, or None
        if it starts a new game (a tag seen again in this game's tag section)."""
        pos = start
        while line.startswith("\ufeff", pos):
            pos += 1
        first = pos
        while True:
            match = TAG.match(line, pos)
            if match is not None:
                value = _unescape_tag(match.group(2))
            else:
                match = LOOSE_TAG.match(line, pos)
                if match is None:
                    break
                value = match.group(2)
            name = match.group(1)
            if name in self.seen_tags:
                return None if pos == first else pos
            self.seen_tags.add(name)
            self.game.tags[name] = value
            pos = match.end()
        if pos == first or _TAG_START.match(line, pos):
            # a tag that does not parse (unclosed quote, missing bracket): skip the line
            self.syntax("malformed tag pair", line[pos : pos + 4 * QUOTE])
            return len(line)
        return pos

    def start_moves(self) -> None:
        self.in_moves = True
        fen = self.game.tags.get("FEN")
        try:
            self.pos = Position(fen) if fen is not None else Position()
        except XiangqiError as exc:
            self.syntax(f"bad FEN tag ({exc})", fen or "")
            if fen is None or not both_kings_in_check(fen.split()[0] if fen.split() else ""):
                del self.game.tags["FEN"]
            # else a diagram with both kings in check (see xiangqi.records.xqf): kept as
            # written, so the game is not silently moved to the usual start; no move is read
            self.pos = None
            self.dead = True
            return
        if fen is not None:
            self.game.tags["FEN"] = self.pos.fen()

    # -- move text

    def feed(self, line: str, i: int) -> int | None:
        """Read one line of move text from index i; return the index after a result marker
        (the game is over), None when the line is used up."""
        n = len(line)
        if self.in_comment and i >= n:
            self.comment_parts.append("\n")
            return None
        while i < n:
            if self.in_comment:
                j = comment_end(line, i)
                if j < 0:
                    self.comment_parts.append(line[i:])
                    self.comment_parts.append("\n")
                    return None
                self.comment_parts.append(line[i:j])
                self.in_comment = False
                self.add_comment(_uncomment("".join(self.comment_parts)))
                self.comment_parts = []
                i = j + 1
                continue
            ch = line[i]
            if ch == "{":
                self.in_comment = True
                self.comment_parts = []
                i += 1
                continue
            if ch == ";":
                self.add_comment(line[i + 1 :].strip())
                return None
            end = _comment_start(line, i)
            rest = self.tokens(line, i, end)
            if rest is not None:
                return rest
            i = end
        return None

    def tokens(self, line: str, start: int, end: int) -> int | None:
        """Read the tokens of line[start:end]; the index after a result marker, or None."""
        for match in _TOKEN.finditer(ascii_forms(line), start, end):
            kind = match.lastgroup
            text = match.group()
            if kind == "space" or kind == "number":
                continue
            if kind == "result":
                if self.stack:
                    self.syntax("result marker inside a variation", text)
                    continue
                if self.game.tags.get("Result", "*") == "*":
                    self.game.tags["Result"] = text
                return match.end()
            if kind == "open":
                self.open_variation()
            elif kind == "close":
                self.close_variation()
            elif kind == "nag":
                self.add_nag(int(text[1:]), text)
            elif kind == "suffix":
                self.add_nag(SUFFIX_NAGS[text], text)
            elif kind == "word":
                self.word(text)
            else:
                self.syntax("unexpected character", text)
        return None

    def add_comment(self, text: str) -> None:
        if not text or self.skip_depth or self.dead:
            return
        if self.fresh:  # just after "(": the starting comment of the variation's first move
            self.pending_comment.append(text)
            return
        node = self.node
        node.comment = f"{node.comment} {text}" if node.comment else text

    def add_nag(self, nag: int, text: str) -> None:
        if self.skip_depth or self.dead:
            return
        if self.node is self.game or self.fresh:
            self.syntax("NAG before any move", text)
            return
        if nag > 255:
            self.syntax("NAG out of range 0..255", text)
            return
        self.node.nags.add(nag)

    def open_variation(self) -> None:
        if self.dead:
            self.game.unread.append("(")
            return
        if self.skip_depth:
            self.skip_depth += 1
            return
        node = self.node
        if not isinstance(node, ChildNode) or self.fresh:
            self.syntax("variation before any move", "(")
            self.skip_depth, self.skip_pops = 1, False
            return
        assert self.pos is not None
        self.san_history = None  # a tree is not read again
        self.stack.append((node, self.depth))
        self.pos.pop()
        self.depth -= 1
        self.node = node.parent
        self.fresh = True
        self.pending_comment = []

    def close_variation(self) -> None:
        if self.dead:
            self.game.unread.append(")")
            return
        if self.skip_depth:
            self.skip_depth -= 1
            if self.skip_depth or not self.skip_pops:
                return
        if not self.stack:
            self.syntax("unmatched ')'", ")")
            return
        back, depth = self.stack.pop()
        assert self.pos is not None
        while self.depth > depth - 1:
            self.pos.pop()
            self.depth -= 1
        self.pos.push(back.move)
        self.depth += 1
        self.node = back
        self.fresh = False
        self.pending_comment = []

    def word(self, text: str) -> None:
        if self.dead:
            self.game.unread.append(text)
            return
        if self.skip_depth:
            return
        for part in split_word(text):
            if not self.move(part):
                return

    def move(self, text: str) -> bool:
        assert self.pos is not None
        word, nag = strip_suffix(text)
        ply = self.depth + 1
        try:
            move = _parse_move(self.pos, word, self)
        except (InvalidMoveError, IllegalMoveError) as exc:
            side = "Red" if self.pos.turn == Color.RED else "Black"
            where = (
                f"game {self.number}, ply {ply} (move {self.pos.fullmove_number}, {side}) "
                f"{quote(text)}"
            )
            error: PgnError
            if isinstance(exc, IllegalMoveError):
                error = IllegalPgnMoveError(f"{where}: {exc}", ply, text, self.number)
            else:
                error = InvalidPgnMoveError(f"{where}: {exc}", ply, text, self.number)
            self.error(error)
            if self.stack:
                self.skip_depth, self.skip_pops = 1, True  # drop the rest of this variation
            else:
                self.dead = True
                self.game.unread.append(text)
            return False
        self.pos.push(move)
        self.depth += 1
        starting = " ".join(self.pending_comment) if self.fresh else ""
        child = ChildNode(self.node, move, "", starting, set())
        if nag is not None:
            child.nags.add(nag)
        self.node.variations.append(child)
        self.node = child
        if self.san_base is not None:
            self.san_history = None
        elif self.san_history is not None:
            self.san_history.append((child, word, self.san_used))
        self.san_used = False
        self.fresh = False
        self.pending_comment = []
        return True

    def reread_san_from_zero(self) -> bool:
        """Read the main line so far again with SAN ranks 0..9 (XBoard), when a move reads only
        that way; True if it all reads, the nodes then hold the moves read again."""
        history = self.san_history
        if not history or not any(is_san for _, _, is_san in history):
            return False
        pos = self.game.board()
        moves: list[Move] = []
        try:
            for node, word, is_san in history:
                move = parse_san(pos, word, 0) if is_san else node.move
                pos.push(move)
                moves.append(move)
        except (IllegalMoveError, InvalidMoveError):
            return False
        for (node, _, _), move in zip(history, moves):
            node.move = move
        self.pos = pos
        self.san_base, self.san_history = 0, None
        return True

    def finish(self) -> Game:
        if not self.in_moves:  # tags and no move text: the FEN tag is checked all the same
            self.start_moves()
        if self.in_comment:
            self.syntax("unclosed comment", "".join(self.comment_parts))
            self.in_comment = False
            self.add_comment(_uncomment("".join(self.comment_parts)))
        if self.stack and not self.dead:
            self.syntax(f"{len(self.stack)} variation(s) not closed", "(")
        return self.game


def _parse_san_in_game(pos: Position, word: str, reader: _GameReader | None) -> Move:
    """SAN in a game: the rank numbering (1..10, or XBoard's 0..9) that the first move read in
    only one of them showed is kept for the rest of the game. Moves that read both ways are
    read with ranks 1..10 until a move reads only with 0..9; the main line so far is then read
    again with 0..9 (unless a variation was opened)."""
    base = reader.san_base if reader is not None else None
    if reader is not None:
        reader.san_used = True
    if base is not None:
        return parse_san(pos, word, base)
    readings: dict[int, Move | IllegalMoveError] = {}
    for base in (1, 0):
        try:
            readings[base] = parse_san(pos, word, base)
        except IllegalMoveError as exc:
            readings[base] = exc
    fits = [b for b, got in readings.items() if isinstance(got, Move)]
    if 1 not in fits and reader is not None and reader.reread_san_from_zero():
        # the moves before were XBoard's ranks 0..9 read as 1..10: read again, and this one
        assert reader.pos is not None
        return parse_san(reader.pos, word, 0)
    if len(fits) == 1 and reader is not None:
        reader.san_base = fits[0]
    found = readings[fits[0] if fits else 1]
    if isinstance(found, IllegalMoveError):
        raise found
    return found


def _parse_move(pos: Position, word: str, reader: _GameReader | None = None) -> Move:
    """The legal move a move token names, in whichever notation it is written."""
    if word in _NULL_WORDS:
        if pos.is_check():  # Position.push refuses it then: say so as for any illegal move
            raise IllegalMoveError("a null move (a pass) while in check is illegal")
        return Move.null()
    if not word.isascii():
        return parse_chinese(pos, word.rstrip("+#"))
    bare = word.rstrip("+#")
    if SAN_RE.fullmatch(word) and word[0].isupper() and not word[1:].isupper():
        # SAN ("E5e3", "Che3"): a piece letter, then lower-case files; ICCS has one case
        try:
            return _parse_san_in_game(pos, word, reader)
        except IllegalMoveError:
            if not ICCS_WORD.fullmatch(bare):
                raise
    if ICCS_WORD.fullmatch(bare):
        return parse_iccs(pos, bare)
    if SAN_RE.fullmatch(word):
        return _parse_san_in_game(pos, word, reader)
    if len(word) == 5 and word[-1] in "+#":
        word = word[:-1]
    return parse_wxf(pos, word)


def _read(source: _Source, strict: bool, exact: bool = False) -> Game | None:
    source.resume()
    number = source.games + 1
    reader = _GameReader(number, strict)
    started = False
    while True:
        got = source.next_line()
        if got is None:
            break
        line, i = got
        if source.undecodable is not None:
            encoding, raw = source.undecodable
            source.undecodable = None
            reader.syntax(f"bytes that are not {encoding}, read as U+FFFD", raw.hex(" "))
        if not reader.in_moves:
            if _TAG_START.match(line, i):
                rest = reader.take_tags(line, i)
                if rest is None:  # a tag seen again: the next game's tags
                    source.push_back(line, i)
                    break
                started = True
                if _BLANK.match(line, rest):
                    continue
                i = rest
            if _BLANK.match(line, i) or line.startswith("%", i):
                continue
            started = True
            reader.start_moves()
            match = LEAD.match(line, i)
            assert match is not None
            i = match.end()
        elif _TAG_START.match(line, i):
            if reader.in_comment:
                reader.syntax("unclosed comment before the next game's tags", line[i : i + 200])
                reader.in_comment = False
            source.push_back(line, i)
            break
        elif line.startswith("%", i) and not reader.in_comment:
            continue
        rest = reader.feed(line, i)
        if rest is not None:
            if not _BLANK.match(line, rest):
                source.push_back(line, rest)
            break
    lost = source.park_exactly() if exact else ""
    if not exact:
        source.park()
    if not started:
        return None
    source.games = number
    if lost:
        reader.syntax(
            "text after the game, read from a stream that cannot seek back, is lost "
            "(read_games() reads every game of such a stream)",
            lost,
        )
    return reader.finish()


def read_game(source: str | os.PathLike[str] | IO[str], *, strict: bool = False) -> Game | None:
    """Read the next game from PGN text, a path or an open text file; None when none is left.

    A str is PGN text; a str that names an existing file is refused (pass a pathlib.Path or
    an open file). A path (os.PathLike) is opened and its first game read, with the file's
    encoding decided as read_games() does. From an open file, reading stops after the game's
    result marker or at the next game's tags, and a seekable file is left exactly where the
    game's text ends, so calling again reads the next game. A stream that cannot seek back (a
    pipe) cannot be given back the text read past the game's end (the rest of the line after
    the result marker, or the next game's first tag line): it is reported in game.errors;
    read_games() reads every game of such a stream. Bad moves and skipped text are recorded
    in game.errors (see the module docstring); strict=True raises the first one instead.
    """
    check_bool("strict", strict)
    if isinstance(source, str):
        _refuse_file_name(source, "read_game")
        return _read(_Source(None, text=source), strict)
    if isinstance(source, (bytes, bytearray, memoryview)):
        raise TypeError(
            "read_game() takes PGN text (str), a path or a text file, got bytes; "
            "use read_games() for binary files, which sniffs the encoding"
        )
    if isinstance(source, os.PathLike):
        return next(read_games(source, strict=strict), None)
    if hasattr(source, "readline"):
        if isinstance(source, (io.RawIOBase, io.BufferedIOBase)):
            raise TypeError(
                "read_game() takes a text file, got a binary one; open it in text mode "
                "or use read_games(), which sniffs the encoding"
            )
        return _read(_Source(source), strict, exact=True)
    raise TypeError(
        f"read_game() takes PGN text (str), a path or a text file, got {type(source).__name__}"
    )


def read_games(
    source: str | os.PathLike[str] | IO[str] | IO[bytes] | bytes,
    *,
    encoding: str | None = None,
    strict: bool = False,
) -> Iterator[Game]:
    """An iterator over every game of PGN text, a path (os.PathLike) or an open text or binary
    file, reading one game at a time.

    A str is PGN text already in memory; a str that names an existing file is refused (pass
    a pathlib.Path or an open file). Games are read lazily, so memory stays bounded by one
    game (``list(read_games(...))`` for a list). Binary input is decoded with encoding, or,
    when it is None, with one encoding decided for the whole file (a BOM, else UTF-8, Big5
    or GB18030 by what reads; see the module docstring). Each bad game carries its errors
    and the others still read; strict=True raises the first.
    """
    check_bool("strict", strict)
    if encoding is not None:
        if not isinstance(encoding, str):
            raise TypeError(f"encoding must be a str, got {type(encoding).__name__}")
        import codecs

        try:
            codecs.lookup(encoding)
        except LookupError:
            raise ValueError(f"unknown encoding {quote(encoding)}") from None
    if isinstance(source, str):
        _refuse_file_name(source, "read_games")
        return _iterate(_Source(None, text=source), strict)
    if isinstance(source, (bytes, bytearray, memoryview)):
        return _iterate(_Source(io.BytesIO(bytes(source)), encoding=encoding), strict)
    if isinstance(source, os.PathLike):
        return _iterate_path(source, encoding, strict)
    if hasattr(source, "readline"):
        return _iterate(_Source(source, encoding=encoding), strict)
    raise TypeError(
        "read_games() takes PGN text (str), a path (os.PathLike) or an open file, "
        f"got {type(source).__name__}"
    )


def _refuse_file_name(text: str, who: str) -> None:
    """A str is PGN text: refuse one that is the name of an existing file (a trap otherwise:
    the name would be read as text and give no game)."""
    if "\n" in text or "\r" in text or len(text) > 4096 or not text.strip():
        return
    try:
        is_file = os.path.isfile(text)
    except (OSError, ValueError):  # a NUL byte, a name too long for the system
        return
    if is_file:
        raise TypeError(
            f"{who}() reads a str as PGN text, and {quote(text)} is the name of a file: "
            "pass a pathlib.Path (or an open file) to read the file"
        )


def _iterate(source: _Source, strict: bool) -> Iterator[Game]:
    """The games of source, one at a time."""
    while (game := _read(source, strict)) is not None:
        yield game


def _iterate_path(path: os.PathLike[str], encoding: str | None, strict: bool) -> Iterator[Game]:
    with open(path, "rb") as handle:
        yield from _iterate(_Source(handle, encoding=encoding), strict)
