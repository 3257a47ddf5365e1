"""python-chess's front doors on the xiangqi classes: SAN on Position, UCI on Move, and the
Gymnasium id registered on ``import xiangqi.rl``.

SAN is checked against Fairy-Stockfish (pyffish), the independent writer; UCI against the
coordinates of the UCI wire (Pikafish's "h2e2": files a..i, ranks 0..9 from Red's side).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pyffish
import pytest

import xiangqi.rl
from xiangqi import IllegalMoveError, InvalidMoveError, Move, Position, parse_square

ROOT = Path(__file__).resolve().parent.parent
START = pyffish.start_fen("xiangqi")


def ranks1(move: Move) -> str:
    """A move as Fairy-Stockfish writes it on its wire (ranks 1..10), built from squares."""
    f, t = move.from_square, move.to_square
    return f"{'abcdefghi'[f % 9]}{f // 9 + 1}{'abcdefghi'[t % 9]}{t // 9 + 1}"


def test_position_san_push_san_and_parse_san_agree_with_fairy_stockfish() -> None:
    rng = random.Random(27)
    checked = 0
    for _ in range(12):
        pos, played = Position(), []
        for _ in range(120):
            legal = list(pos.legal_moves)
            if not legal or pos.is_game_over():
                break
            played.append(rng.choice(legal))
            pos.push(played[-1])
        texts = pyffish.get_san_moves("xiangqi", START, [ranks1(m) for m in played])
        pos = Position()
        for move, text in zip(played, texts):
            assert pos.san(move) == text, (pos.fen(), move)
            assert pos.parse_san(text) == move
            fen = pos.fen()
            assert pos.push_san(text) == move
            assert pos.move_stack[-1] == move and pos.fen() != fen
            checked += 1
    assert checked > 1000


def test_push_san_refuses_bad_text_and_leaves_the_position() -> None:
    pos = Position()
    fen = pos.fen()
    with pytest.raises(InvalidMoveError):
        pos.push_san("Qh5")
    with pytest.raises(IllegalMoveError):
        pos.push_san("Rxa10")
    with pytest.raises(TypeError):
        pos.push_san(Move.from_iccs("h2e2"))  # type: ignore[arg-type]
    assert pos.fen() == fen and pos.move_stack == []


def test_move_uci_is_the_wire_coordinates() -> None:
    move = Move.from_uci("h2e2")
    assert (move.from_square, move.to_square) == (parse_square("h2"), parse_square("e2"))
    assert move.uci() == "h2e2" and Move(0, 89).uci() == "a0i9"
    assert Move.from_uci("0000") == Move.null() and Move.null().uci() == "0000"
    for frm in range(90):
        for to in (t for t in range(90) if t != frm):
            text = "abcdefghi"[frm % 9] + str(frm // 9) + "abcdefghi"[to % 9] + str(to // 9)
            assert Move(frm, to).uci() == text and Move.from_uci(text) == Move(frm, to)
    for bad in ("h2h2", "h2e10", "j0a1", "", "h2e2q"):
        with pytest.raises(InvalidMoveError):
            Move.from_uci(bad)


def test_importing_xiangqi_rl_registers_the_gymnasium_id_without_the_env_module(
    tmp_path: Path,
) -> None:
    code = (
        "import sys, xiangqi.rl, gymnasium\n"
        "assert 'xiangqi.rl.gym_env' not in sys.modules\n"
        "env = gymnasium.make('xiangqi/Xiangqi-v0', max_plies=4)\n"
        "obs, info = env.reset(seed=1)\n"
        "print(type(env.unwrapped).__name__, obs.shape, info['action_mask'].sum())\n"
    )
    # a fresh interpreter, outside any source tree, importing the xiangqi these tests import
    here = str(Path(xiangqi.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([here, os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
        env=env,
    ).stdout
    assert out.split() == ["GymEnv", "(16,", "10,", "9)", "44"]  # 44: the start's legal moves


def test_gymnasium_entry_point_names_the_registering_function() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    target = project["entry-points"]["gymnasium.envs"]["__root__"]
    module, _, name = target.partition(":")
    fn = getattr(__import__(module, fromlist=[name]), name)
    fn()
    fn()  # a second call changes nothing
    import gymnasium

    assert xiangqi.rl.ENV_ID in gymnasium.registry
