"""One rule for int arguments everywhere (xiangqi/_checks.py): a NumPy integer (anything
with ``__index__`` that is not a bool) is an int; ``True`` is never a count. The refusal
is a TypeError in one form: ``<name> must be an int, got bool: True``."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import xiangqi
from xiangqi import Color, Move, Piece, PieceType, Position, SquareSet
from xiangqi.notation import parse_san
from xiangqi.rl import VectorEnv, action_to_move, encode_batch, mirror_action
from xiangqi.squares import square
from xiangqi.svg import board


def _vector_fen(index: Any) -> object:
    return VectorEnv(2).fen(index)


def _vector_seed(seed: Any) -> object:
    env = VectorEnv(1)
    env.seed(seed)
    return env


def _vector_reset(seed: Any) -> object:
    return VectorEnv(1).reset(seed=seed)


def _set_clock(n: Any) -> object:
    pos = Position()
    pos.halfmove_clock = n
    return pos.halfmove_clock


def _set_number(n: Any) -> object:
    pos = Position()
    pos.fullmove_number = n
    return pos.fullmove_number


# (the argument's name, a call taking the value, a value the call accepts)
CALLS: list[tuple[str, Callable[[Any], object], int]] = [
    ("num_envs", lambda n: VectorEnv(n), 2),
    ("max_plies", lambda n: VectorEnv(1, max_plies=n), 10),
    ("seed", lambda n: VectorEnv(1, seed=n), 7),
    ("seed", _vector_seed, 7),
    ("seed", _vector_reset, 7),
    ("index", _vector_fen, 1),
    ("history", lambda n: encode_batch([xiangqi.Position()], history=n), 2),
    ("action", lambda n: action_to_move(n, xiangqi.RED), 5),
    ("action", mirror_action, 5),
    ("from_square", lambda n: Move(n, 2), 1),
    ("to_square", lambda n: Move(1, n), 2),
    ("square", lambda n: Position().piece_at(n), 4),
    ("file", lambda n: square(n, 0), 4),
    ("rank", lambda n: square(4, n), 9),
    ("halfmove clock", _set_clock, 7),
    ("move number", _set_number, 3),
    ("count", lambda n: Position().is_repetition(n), 1),
    ("code", Piece.from_code, 3),
    ("size", lambda n: board(Position(), size=n), 300),
    ("rank_base", lambda n: parse_san(Position(), "Ch3e3", rank_base=n), 1),
]

# The same for an IntEnum (Color, PieceType): a NumPy integer that is a member's number is
# that member; True is never one (TypeError "<name> must be a Color, got bool: True").
ENUM_CALLS: list[tuple[str, str, Callable[[Any], object], int]] = [
    ("color", "Color", lambda c: Position().king(c), 1),
    ("color", "Color", lambda c: Position().pieces(PieceType.ROOK, c), 0),
    ("piece_type", "PieceType", lambda t: Position().pieces(t, Color.RED), 4),
    ("color", "Color", lambda c: Piece(c, PieceType.HORSE), 1),
    ("piece_type", "PieceType", lambda t: Piece(Color.RED, t), 3),
    ("color", "Color", lambda c: Position().attackers(c, 40), 0),
    ("orientation", "Color", lambda c: board(Position(), orientation=c), 1),
    ("perspective", "Color", lambda c: encode_batch([Position()], perspective=c), 1),
]


@pytest.mark.parametrize(("name", "call", "value"), CALLS)
def test_numpy_integer_is_an_int(name: str, call: Callable[[Any], object], value: int) -> None:
    assert type(call(np.int64(value))) is type(call(value))


@pytest.mark.parametrize(("name", "call", "value"), CALLS)
def test_bool_is_not_a_count(name: str, call: Callable[[Any], object], value: int) -> None:
    with pytest.raises(TypeError, match=f"^{re.escape(name)} must be an int, got bool: True$"):
        call(True)


@pytest.mark.parametrize(("name", "kind", "call", "value"), ENUM_CALLS)
def test_numpy_integer_is_a_member(
    name: str, kind: str, call: Callable[[Any], object], value: int
) -> None:
    assert repr(call(np.int64(value))) == repr(call(value))


@pytest.mark.parametrize(("name", "kind", "call", "value"), ENUM_CALLS)
def test_bool_is_not_a_member(
    name: str, kind: str, call: Callable[[Any], object], value: int
) -> None:
    with pytest.raises(TypeError, match=f"^{name} must be a {kind}, got bool: True$"):
        call(True)


def test_a_number_that_is_no_member_names_the_members() -> None:
    with pytest.raises(ValueError, match=r"^color must be one of RED \(0\), BLACK \(1\), got 2$"):
        Position().king(np.int64(2))
    with pytest.raises(ValueError, match=r"^piece_type must be one of KING \(0\), .* got 7$"):
        Piece(Color.RED, 7)  # type: ignore[arg-type]


def test_numpy_integers_in_values() -> None:
    # A NumPy integer is an int where a value is built or looked up, too.
    assert Piece(np.int64(0), np.int64(4)) == Piece(Color.RED, PieceType.ROOK)
    assert type(Move(np.int64(1), np.int64(2)).from_square) is int
    assert SquareSet(np.int64(5)) == SquareSet([0, 2])
    assert np.int64(2) in SquareSet([0, 2]) and np.int64(1) not in SquareSet([0, 2])
    assert True not in SquareSet([1])  # bool is no square
    with pytest.raises(TypeError, match="^flipped must be True or False, got int: 1$"):
        board(Position(), flipped=1)  # a flag is a bool, not an int


def test_an_engine_spin_option_takes_a_numpy_integer() -> None:
    from xiangqi.engine import EngineOptionError
    from xiangqi.engine.values import Option

    spin = Option("Hash", "spin", 16, 1, 64, ())
    assert spin.parse(np.int64(32)) == spin.parse(32) == "32"
    with pytest.raises(EngineOptionError, match="takes an int, got True"):
        spin.parse(True)


def test_a_huge_int_still_gets_a_message() -> None:
    # Python refuses to print an int of more than 4300 digits: the message must not need to.
    with pytest.raises(
        ValueError, match=r"^from_square must be in 0\.\.89, got an int of \d+ bits$"
    ):
        Move(10**5000, 2)


def test_vector_env_keeps_plain_ints() -> None:
    env = VectorEnv(np.int64(3), max_plies=np.int32(20))
    assert type(env.num_envs) is int and env.num_envs == 3
    assert type(env.max_plies) is int and env.max_plies == 20
    assert env.fen(np.int16(2)) == env.fen(2)


def test_numpy_action_gives_the_same_move() -> None:
    for action in (0, 1, 2085):
        assert action_to_move(np.int64(action), xiangqi.BLACK) == action_to_move(
            action, xiangqi.BLACK
        )


def test_out_of_range_in_the_one_form() -> None:
    with pytest.raises(ValueError, match=r"^num_envs must be in 1\.\.16777216, got 0$"):
        VectorEnv(np.int64(0))
    with pytest.raises(ValueError, match=r"^action must be in 0\.\.2085, got 2086$"):
        action_to_move(np.int64(2086), xiangqi.RED)


def test_one_game_envs() -> None:
    gym_env = pytest.importorskip("xiangqi.rl.gym_env")
    env = gym_env.GymEnv(max_plies=np.int64(30))
    assert type(env.max_plies) is int and env.max_plies == 30
    with pytest.raises(TypeError, match=r"^max_plies must be an int, got bool: True$"):
        gym_env.GymEnv(max_plies=True)
    vec = gym_env.GymVectorEnv(num_envs=2)
    vec.reset(seed=np.int64(5))
    with pytest.raises(TypeError, match=r"^seed must be an int, got bool: True$"):
        vec.reset(seed=True)
    aec = pytest.importorskip("xiangqi.rl.aec")
    raw = aec.raw_env(max_plies=np.int64(40), history=np.int64(1))
    assert (raw.max_plies, raw.history) == (40, 1) and type(raw.history) is int
    with pytest.raises(TypeError, match=r"^history must be an int, got bool: True$"):
        aec.raw_env(history=True)


def test_a_variation_index_is_an_int_by_the_one_rule() -> None:
    from xiangqi.pgn import Game

    game = Game()
    game.add_variation(Move.from_iccs("h2e2"))
    game.add_variation(Move.from_iccs("b2e2"))
    assert game.variation(np.int64(1)) is game.variations[1]
    assert game.has_variation(Move.from_iccs("b2e2"))
    with pytest.raises(TypeError, match=r"^variation index must be an int, got bool: True$"):
        game.variation(True)  # type: ignore[arg-type]
    with pytest.raises(IndexError, match="variation index 2 out of range"):
        game.variation(np.int64(2))


def test_a_book_draw_is_an_int_by_the_one_rule() -> None:
    from pathlib import Path

    from xiangqi.book import open_reader

    class Fixed:
        def __init__(self, value: object) -> None:
            self.value = value

        def randrange(self, stop: int) -> object:
            return self.value

    book = Path(__file__).parent / "data" / "books" / "BOOK.DAT"
    with open_reader(book) as reader:
        start = Position()
        assert reader.choice(start, random=Fixed(np.int64(0))) == reader.choice(  # type: ignore[arg-type]
            start,
            random=Fixed(0),  # type: ignore[arg-type]
        )
        with pytest.raises(ValueError, match=r"^random\.randrange\(\d+\) must be an int, got bool"):
            reader.choice(start, random=Fixed(True))  # type: ignore[arg-type]


def test_flags_in_the_one_form(tmp_path: Any) -> None:
    from xiangqi import _core
    from xiangqi.records import convert

    with pytest.raises(TypeError, match=r"^recursive must be True or False, got int: 1$"):
        convert([tmp_path], tmp_path / "out.pgn", recursive=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^checks_only must be True or False, got int: 1$"):
        _core.find_mate(Position()._board, 1, 1)  # type: ignore[attr-defined]
    # The core's own int check speaks the one form too (a direct Board call).
    with pytest.raises(TypeError, match=r"^depth must be an int, got bool: True$"):
        Position()._board.divide(True)
    assert Position()._board.divide(np.int64(1)) == Position()._board.divide(1)
