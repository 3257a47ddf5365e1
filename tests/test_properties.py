"""Property tests (hypothesis) of the public API and of the compiled core's boundary.

Any text given to Position or Move.from_iccs either parses or raises the package's own error with
a message; accepted FEN round-trips; push/pop walks come back exactly; illegal pushes change
nothing; and the raw ``_core.Board`` methods answer any argument with a clean Python exception.

The settings below are derandomized (no example database, a fixed search order), so CI always
tries the same examples. Set ``XIANGQI_PROPERTY_EXAMPLES`` to search harder, e.g. 5000.
"""

from __future__ import annotations

import operator
import os
import random
import warnings

import numpy
import pytest
from conftest import board_field
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import xiangqi
from xiangqi import (
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Position,
    XiangqiError,
    _core,
    generate_legal,
)
from xiangqi.fen import check_placement, parse_fen

# On a failure hypothesis imports libcst to write a patch, and that import warns (mypy_extensions'
# TypedDict); with filterwarnings = error the failure would end as a pytest INTERNALERROR that
# hides the falsifying example. Importing it once here, quietly, keeps failures readable.
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    try:
        import hypothesis.extra._patching  # noqa: F401
    except ImportError:
        pass

EXAMPLES = int(os.environ.get("XIANGQI_PROPERTY_EXAMPLES", "300"))

DETERMINISTIC = settings(
    deadline=None,
    derandomize=True,
    database=None,
    max_examples=EXAMPLES,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

PIECE_CHARS = "KABNRCPEHkabnrcpeh"
DIGITS = "123456789"
FEN_ALPHABET = PIECE_CHARS + DIGITS + "0/ -wrbx\t\n"


def _playout_fens() -> list[str]:
    """Valid FENs from a few seeded random games: openings, middlegames, endgames, checks."""
    fens = [
        xiangqi.START_FEN,
        "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
        "3akab2/9/4b4/p3p1p1p/2p6/6P2/P1P1c3P/4C4/9/2BAKAB2 w - - 3 20",
        "4k4/4a4/4b4/9/9/9/9/9/4p4/3K5 w - - 0 60",
    ]
    for seed in range(12):
        rng = random.Random(seed)
        pos = Position()
        for ply in range(160):
            moves = generate_legal(pos)
            if not moves:
                break
            captures = [m for m in moves if pos.piece_at(m.to_square) is not None]
            pos.push(rng.choice(captures if captures and seed % 2 else moves))
            if ply % 20 == 19:
                fens.append(pos.fen())
        fens.append(pos.fen())
    return fens


VALID_FENS = _playout_fens()

# -- strategies ----------------------------------------------------------------------------------

rank_text = st.text(alphabet=PIECE_CHARS + DIGITS, max_size=11)
fen_shaped = st.builds(
    lambda ranks, side, rest: "/".join(ranks) + side + rest,
    st.lists(rank_text, min_size=8, max_size=11),
    st.sampled_from(["", " w", " b", " r", " x", " W", "  w", " w ", " wb"]),
    st.sampled_from(
        [
            "",
            " - - 0 1",
            " - - 12 40",
            " 0 1",
            " - -",
            " - - -1 1",
            " - - 0 0",
            " a b 0 1",
            " - - 0 1 extra",
            " - - 9999999999 1",
            " - - 0 ١",
        ]
    ),
)


@st.composite
def mutated_fen(draw: st.DrawFn) -> str:
    """A valid FEN with a few characters deleted, inserted, replaced or swapped."""
    text = draw(st.sampled_from(VALID_FENS))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["delete", "insert", "replace", "swap"]))
        ch = draw(st.one_of(st.sampled_from(FEN_ALPHABET), st.characters()))
        if op == "delete":
            text = text[:i] + text[i + 1 :]
        elif op == "insert":
            text = text[:i] + ch + text[i:]
        elif op == "replace":
            text = text[:i] + ch + text[i + 1 :]
        elif i + 1 < len(text):
            text = text[:i] + text[i + 1] + text[i] + text[i + 2 :]
    return text


def write_board(cells: list[str | None]) -> str:
    """Board field of a FEN from 90 cells (letter or None) by public square."""
    return board_field({sq: cell for sq, cell in enumerate(cells) if cell is not None})


def read_board(fen: str) -> list[str | None]:
    """90 cells (letter or None) of a FEN the library accepts."""
    return [xiangqi.Piece.from_code(c).symbol() if c else None for c in parse_fen(fen).codes]


@st.composite
def edited_board_fen(draw: st.DrawFn) -> str:
    """A valid position with pieces removed, moved or added: many still load, many break a rule."""
    cells = read_board(draw(st.sampled_from(VALID_FENS)))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["remove", "move", "move", "add"]))
        occupied = [sq for sq, cell in enumerate(cells) if cell is not None]
        if op == "add":
            cells[draw(st.integers(0, 89))] = draw(st.sampled_from(PIECE_CHARS))
        elif op == "remove":
            cells[draw(st.sampled_from(occupied))] = None
        else:
            frm = draw(st.sampled_from(occupied))
            cells[draw(st.integers(0, 89))], cells[frm] = cells[frm], None
    side = draw(st.sampled_from(["w", "b", "r"]))
    return write_board(cells) + " " + side + draw(st.sampled_from(["", " - - 0 1", " 7 33"]))


#: About one square in twelve holds a piece, most of them horses, rooks and cannons.
PLACED_CELLS: list[str | None] = [None] * 400 + list("NRCnrc") * 3 + list(PIECE_CHARS)


@st.composite
def placed_fen(draw: st.DrawFn) -> str:
    """A board drawn square by square (mostly empty, mostly unrestricted pieces)."""
    cells = draw(st.lists(st.sampled_from(PLACED_CELLS), min_size=90, max_size=90))
    # Usually put the kings somewhere in their palaces so the other rules are what gets judged.
    if draw(st.booleans()):
        cells[draw(st.sampled_from([3, 4, 5, 12, 13, 14, 21, 22, 23]))] = "K"
        cells[draw(st.sampled_from([66, 67, 68, 75, 76, 77, 84, 85, 86]))] = "k"
    return write_board(cells) + " " + draw(st.sampled_from("wbr"))


any_fen_text = st.one_of(
    st.text(max_size=120),
    st.text(alphabet=FEN_ALPHABET, max_size=120),
    fen_shaped,
    mutated_fen(),
    edited_board_fen(),
    placed_fen(),
)


def position_or_error(text: str) -> Position | None:
    """Position(text), or None after checking the error is a XiangqiError with a message."""
    try:
        return Position(text)
    except XiangqiError as exc:
        assert isinstance(exc, xiangqi.InvalidFenError), repr(exc)
        assert str(exc).strip(), f"empty message for {text!r}"
        return None


# -- (a), (b): FEN text ----------------------------------------------------------------------------


@pytest.mark.slow
@DETERMINISTIC
@given(any_fen_text)
def test_any_text_gives_position_or_invalid_fen_error(text: str) -> None:
    position_or_error(text)


@DETERMINISTIC
@given(st.one_of(st.none(), st.integers(), st.floats(), st.binary(), st.lists(st.text())))
def test_non_str_fen_raises_type_error(value: object) -> None:
    with pytest.raises(TypeError):
        Position(value)  # type: ignore[arg-type]


@pytest.mark.slow
@DETERMINISTIC
@given(st.one_of(mutated_fen(), edited_board_fen(), placed_fen(), st.sampled_from(VALID_FENS)))
def test_accepted_fen_round_trips(text: str) -> None:
    pos = position_or_error(text)
    if pos is None:
        return
    written = pos.fen()
    again = Position(written)
    assert again.fen() == written
    assert again == pos
    assert again.turn == pos.turn
    assert sorted(map(str, again.legal_moves())) == sorted(map(str, pos.legal_moves()))


def test_valid_fen_pool_is_accepted() -> None:
    # The mutation strategy starts from these; all of them must load.
    for fen in VALID_FENS:
        assert Position(fen).fen().split()[:2] == fen.split()[:2]


# -- (c): ICCS text --------------------------------------------------------------------------------


@DETERMINISTIC
@given(
    st.one_of(
        st.text(max_size=8),
        st.text(alphabet="abcdefghijz0123456789-", min_size=3, max_size=5),
        st.builds(lambda a, b: a + b, st.sampled_from(xiangqi.SQUARE_NAMES), st.text(max_size=3)),
    )
)
def test_any_text_gives_move_or_invalid_move_error(text: str) -> None:
    try:
        move = Move.from_iccs(text)
    except InvalidMoveError as exc:
        assert str(exc).strip()
        return
    assert isinstance(move, Move)
    assert move.iccs() == text
    assert Move.from_iccs(str(move)) == move


@DETERMINISTIC
@given(
    st.one_of(st.integers(), st.floats(), st.none(), st.booleans(), st.text(max_size=2)),
    st.one_of(st.integers(), st.floats(), st.none(), st.booleans(), st.text(max_size=2)),
)
def test_move_constructor_checks_squares(a: object, b: object) -> None:
    try:
        move = Move(a, b)  # type: ignore[arg-type]
    except TypeError as exc:  # a wrong type (issue 14: TypeError, not ValueError)
        assert not all(type(x) is int for x in (a, b)) and str(exc).strip()
        return
    except ValueError as exc:
        assert str(exc).strip()
        return
    assert type(a) is int and type(b) is int and a != b and 0 <= a < 90 and 0 <= b < 90
    assert (move.from_square, move.to_square) == (a, b)


# -- (d), (e): push and pop ------------------------------------------------------------------------


@DETERMINISTIC
@given(st.sampled_from(VALID_FENS), st.integers(0, 2**32 - 1), st.integers(1, 60))
def test_push_pop_walk_returns_to_start(fen: str, seed: int, length: int) -> None:
    rng = random.Random(seed)
    pos = Position(fen)
    start_fen = pos.fen()
    start_moves = sorted(map(str, pos.legal_moves()))
    trail = []
    for _ in range(length):
        moves = pos.legal_moves()
        if not moves:
            assert pos.is_game_over()
            break
        # Wander: mostly forward, sometimes back a step, so pops happen mid-walk too.
        if trail and rng.random() < 0.2:
            fen_before, move = trail.pop()
            assert pos.pop() == move
            assert pos.fen() == fen_before
            continue
        move = rng.choice(moves)
        trail.append((pos.fen(), move))
        pos.push(move)
        assert pos.peek() == move
    assert pos.move_stack == [move for _, move in trail]
    while trail:
        fen_before, move = trail.pop()
        assert pos.pop() == move
        assert pos.fen() == fen_before
    assert pos.fen() == start_fen
    assert sorted(map(str, pos.legal_moves())) == start_moves
    with pytest.raises(IndexError):
        pos.pop()


@pytest.mark.slow
@DETERMINISTIC
@given(
    st.sampled_from(VALID_FENS),
    st.lists(st.tuples(st.integers(0, 89), st.integers(0, 89)), min_size=1, max_size=30),
)
def test_illegal_push_raises_and_changes_nothing(fen: str, pairs: list[tuple[int, int]]) -> None:
    pos = Position(fen)
    before = pos.fen()
    legal = {(m.from_square, m.to_square) for m in pos.legal_moves()}
    moves_before = sorted(legal)
    for a, b in pairs:
        if a == b or (a, b) in legal:
            continue
        move = Move(a, b)
        assert not pos.is_legal(move)
        with pytest.raises(IllegalMoveError) as info:
            pos.push(move)
        assert str(move) in str(info.value)
        assert pos.fen() == before
        assert pos.move_stack == []
    assert sorted((m.from_square, m.to_square) for m in pos.legal_moves()) == moves_before


# -- (f): the raw core boundary -----------------------------------------------------------------

EDGE_INTS = [2**31, -(2**31) - 1, 2**63, -(2**64), 10**30, 10**400]
ANY_INT = st.one_of(st.integers(-100, 200), st.integers(), st.sampled_from(EDGE_INTS))


class Liar(int):
    """An int whose comparisons all answer True: the core must not trust them."""

    def _yes(self, other: object) -> bool:
        return True

    __lt__ = __le__ = __gt__ = __ge__ = _yes  # type: ignore[assignment]


#: Integers as other types carry them: int subclasses that lie, NumPy scalars.
OTHER_INTS = st.one_of(
    ANY_INT.map(Liar),
    st.integers(-(2**63), 2**63 - 1).map(numpy.int64),
    st.integers(-100, 200).map(numpy.int64),
    st.integers(0, 255).map(numpy.uint8),
    st.booleans().map(numpy.bool_),
)
ANY_ARG = st.one_of(
    ANY_INT,
    OTHER_INTS,
    st.booleans(),
    st.none(),
    st.floats(),
    st.text(max_size=3),
    st.binary(max_size=3),
)


def true_value(value: object) -> int | None:
    """The integer the core must see in value (operator.index, bools refused), or None."""
    if isinstance(value, (bool, numpy.bool_)):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


CLEAN_ERRORS = (ValueError, TypeError, OverflowError)
#: Mostly empty squares, all piece codes 1..14, and a few codes the core must refuse.
CODE_BYTES = [0] * 6 + list(range(1, 15)) + [15, 128, 255]


def judged_legal(codes: bytes, side: int, board: _core.Board) -> bool:
    """Is this loaded board a legal position, as Position would judge it?"""
    try:
        check_placement(codes, "")
    except xiangqi.InvalidFenError:
        return False
    return not board.in_check(1 - side)


def loaded_board(fen: str) -> _core.Board:
    parsed = parse_fen(fen)
    board = _core.Board()
    board.load(parsed.codes, parsed.side)
    return board


@pytest.mark.slow
@DETERMINISTIC
@given(
    st.one_of(
        st.binary(max_size=200),
        st.binary(min_size=90, max_size=90),
        st.lists(st.sampled_from(CODE_BYTES), min_size=90, max_size=90).map(bytes),
        st.sampled_from(VALID_FENS).map(lambda f: parse_fen(f).codes),
    ),
    st.one_of(st.integers(-3, 3), ANY_ARG),
    st.sampled_from([bytes, bytearray, memoryview]),
)
def test_core_load_accepts_or_raises_cleanly(codes: bytes, side: object, kind: type) -> None:
    board = _core.Board()
    try:
        board.load(kind(codes), side)
    except CLEAN_ERRORS as exc:
        assert str(exc)
        assert board.ply == 0
        return
    assert len(codes) == 90 and type(side) is int and side in (0, 1)
    assert board.codes() == codes
    assert board.side == side
    # The core checks only memory safety: counts within its slots, codes 0..14.
    for code in range(1, 15):
        assert codes.count(code) <= (1 if code in (1, 8) else 5 if code in (7, 14) else 2)
    # Any board that loaded must answer every call without leaving its arrays...
    indices = board.legal_move_indices()
    assert board.perft(2) >= 0 and _core._reference_perft(board, 2) >= 0
    for index in indices:
        assert board.push(index // 90, index % 90)
        assert board.pop() == index
    if not judged_legal(codes, side, board):
        return
    # ... and one that is a legal position (judged by xiangqi.fen and in_check) must agree.
    assert sorted(indices) == sorted(_core._reference_legal_move_indices(board))
    assert board.perft(1) == len(indices) == board.count_legal()
    assert board.is_check() == _core._reference_is_check(board)
    for index in indices:
        assert board.is_legal(index // 90, index % 90)
        assert board.push(index // 90, index % 90)
        assert board.pop() == index
    assert board.codes() == codes


@DETERMINISTIC
@given(
    st.one_of(
        st.none(),
        st.text(max_size=90),
        st.lists(st.integers(0, 14), max_size=90),
        st.integers(),
        st.floats(),
    ),
    st.integers(0, 1),
)
def test_core_load_rejects_non_buffers(codes: object, side: int) -> None:
    with pytest.raises(TypeError):
        _core.Board().load(codes, side)  # type: ignore[arg-type]


def test_core_load_rejects_odd_buffers() -> None:
    board = _core.Board()
    with pytest.raises((ValueError, BufferError)):
        board.load(memoryview(bytes(180))[::2], 0)  # not contiguous
    with pytest.raises(ValueError):
        board.load(memoryview(bytes(90)).cast("B", (9, 10)), 0)  # two dimensions
    import array

    with pytest.raises(ValueError):
        board.load(array.array("i", [0] * 90), 0)  # items of the wrong size


@DETERMINISTIC
@given(st.sampled_from(VALID_FENS), ANY_ARG, ANY_ARG)
def test_core_square_methods_raise_cleanly(fen: str, a: object, b: object) -> None:
    board = loaded_board(fen)
    codes, side = board.codes(), board.side
    # Bools are refused, as by Move; the range is judged on the true value.
    true_a, true_b = true_value(a), true_value(b)
    valid_a = true_a is not None and 0 <= true_a < 90
    valid_b = true_b is not None and 0 <= true_b < 90
    calls = [
        ("piece_at", lambda: board.piece_at(a), valid_a),
        ("is_legal", lambda: board.is_legal(a, b), valid_a and valid_b),
        ("is_pseudo_legal", lambda: board.is_pseudo_legal(a, b), valid_a and valid_b),
        ("push", lambda: board.push(a, b), valid_a and valid_b),
    ]
    for name, call, valid in calls:
        try:
            result = call()
        except CLEAN_ERRORS as exc:
            assert not valid, f"{name}({a!r}, {b!r}) raised {exc!r}"
            assert str(exc)
            continue
        assert valid, f"{name}({a!r}, {b!r}) returned {result!r}"
        if name == "push" and result:
            assert true_a is not None and true_b is not None
            assert board.pop() == true_a * 90 + true_b
    assert board.codes() == codes and board.side == side and board.ply == 0


@DETERMINISTIC
@given(st.sampled_from(VALID_FENS), ANY_ARG)
def test_core_depth_methods_raise_cleanly(fen: str, depth: object) -> None:
    board = loaded_board(fen)
    true = true_value(depth)  # bool is refused like float
    if true is not None and 0 <= true <= 2:
        assert board.perft(depth) == _core._reference_perft(board, depth)  # type: ignore[arg-type]
        if true >= 1:
            split = board.divide(depth)  # type: ignore[arg-type]
            assert sum(n for _, n in split) == board.perft(true)
        return
    if true is not None and 2 < true <= 64:
        return  # valid but too slow to count here
    with pytest.raises(CLEAN_ERRORS):
        board.perft(depth)  # type: ignore[arg-type]
    with pytest.raises(CLEAN_ERRORS):
        board.divide(depth)  # type: ignore[arg-type]


@DETERMINISTIC
@given(
    st.lists(
        st.one_of(
            st.sampled_from(range(len(VALID_FENS))),
            st.sampled_from([None, 0, "board", 1.5]),
        ),
        max_size=40,
    )
)
def test_core_legal_moves_batch_matches_each_board(items: list[object]) -> None:
    boards = [loaded_board(VALID_FENS[x]) if type(x) is int else x for x in items]
    if not all(isinstance(b, _core.Board) for b in boards):
        with pytest.raises(TypeError):
            _core.legal_moves_batch(boards)
        return
    moves, offsets = _core.legal_moves_batch(boards)
    assert len(offsets) == len(boards) + 1 and offsets[0] == 0 and offsets[-1] == len(moves)
    for i, board in enumerate(boards):
        got = list(moves[offsets[i] : offsets[i + 1]])
        assert sorted(got) == sorted(board.legal_move_indices()), board.codes()


def test_core_legal_moves_batch_rejects_non_lists() -> None:
    board = loaded_board(xiangqi.START_FEN)
    for value in (None, (board,), board, "boards"):
        with pytest.raises(TypeError):
            _core.legal_moves_batch(value)  # type: ignore[arg-type]


def test_core_rejects_float_depth_and_side() -> None:
    board = loaded_board(xiangqi.START_FEN)
    with pytest.raises(TypeError):
        board.perft(1.9)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        board.divide(1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        board.load(parse_fen(xiangqi.START_FEN).codes, 0.5)  # type: ignore[arg-type]


def test_core_methods_on_a_board_never_loaded() -> None:
    # Board() before load() has no kings. Every method must still stay inside its arrays
    # (scripts/sanitize.sh reports a stray read) and answer or raise ValueError.
    board = _core.Board()
    calls = {
        "is_check()": lambda: board.is_check(),
        "_reference_is_check": lambda: _core._reference_is_check(board),
        "legal_move_indices()": lambda: board.legal_move_indices(),
        "_reference_legal_move_indices": lambda: _core._reference_legal_move_indices(board),
        "count_legal()": lambda: board.count_legal(),
        "perft(2)": lambda: board.perft(2),
        "_reference_perft(2)": lambda: _core._reference_perft(board, 2),
        "divide(2)": lambda: board.divide(2),
        "is_legal(4, 13)": lambda: board.is_legal(4, 13),
        "is_pseudo_legal(4, 13)": lambda: board.is_pseudo_legal(4, 13),
        "push(4, 13)": lambda: board.push(4, 13),
        "piece_at(4)": lambda: board.piece_at(4),
        "codes()": lambda: board.codes(),
        "copy()": lambda: board.copy(),
    }
    for name, call in calls.items():
        try:
            call()
        except ValueError as exc:
            assert str(exc), name
    assert board.codes() == bytes(90) and board.ply == 0
    with pytest.raises(IndexError):
        board.pop()


def test_core_copy_is_independent() -> None:
    board = loaded_board(xiangqi.START_FEN)
    index = board.legal_move_indices()[0]
    assert board.push(index // 90, index % 90)
    other = board.copy()
    fresh = board.copy(False)
    assert other.ply == 1 and fresh.ply == 0
    assert other.pop() == index
    assert board.ply == 1 and board.codes() != other.codes()
    with pytest.raises(IndexError):
        fresh.pop()
