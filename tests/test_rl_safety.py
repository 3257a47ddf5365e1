"""The RL boundary under misuse: concurrent callers, buffers rewritten while a step runs,
returned arrays forced writeable, and the argument contracts (issue 22, sections 1 and 5).

Before the fix each of the first three crashed the interpreter or left the masks wrong:
step() read the caller's actions twice (checked, then played without the GIL), two
threads could step one VectorEnv at once, and the read-only arrays were views of
writeable arrays whose contents the next step relied on.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

from xiangqi import BLACK, RED, Position, rl
from xiangqi.errors import ConcurrentUseError, XiangqiError
from xiangqi.rl.vector import IllegalActionError

BLACK_TO_MOVE = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1"


def assert_consistent(env: rl.VectorEnv, games: range) -> None:
    """Each game's mask is the legal-move mask of its position, worked out afresh."""
    masks = env.masks.copy()
    for i in games:
        expected = rl.legal_mask(env.position(i))
        assert np.array_equal(masks[i], expected), i


def test_concurrent_use_error_is_both_a_value_and_a_runtime_error() -> None:
    assert issubclass(ConcurrentUseError, XiangqiError)
    assert issubclass(ConcurrentUseError, RuntimeError)
    assert rl.ConcurrentUseError is ConcurrentUseError


@pytest.mark.slow
def test_threads_hammering_one_env_get_errors_not_crashes() -> None:
    env = rl.VectorEnv(2048, max_plies=60, seed=5)
    env.reset()
    refused: list[str] = []
    other: list[BaseException] = []
    stop = threading.Event()

    def hammer(kind: int) -> None:
        actions = np.empty(env.num_envs, dtype=np.int64)
        for n in range(300):
            if stop.is_set():
                return
            try:
                if kind == 0 or n % 3:
                    env.sample_legal(actions)
                    env.step(actions)
                elif kind == 1:
                    env.reset()
                else:
                    env.fen(n % env.num_envs)
            except ConcurrentUseError:
                refused.append("busy")
            except IllegalActionError:
                # sample_legal ran, then another thread stepped before this step: the
                # drawn actions may be stale, and the step refuses them whole.
                pass
            except BaseException as exc:  # pragma: no cover - reported below
                other.append(exc)
                stop.set()

    threads = [threading.Thread(target=hammer, args=(k,)) for k in (0, 0, 1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not other, other
    assert refused, "no call ever met a running step: the test did not exercise anything"
    # The object is still usable, and every game's state is whole.
    env.step(env.sample_legal())
    assert_consistent(env, range(0, env.num_envs, 97))


@pytest.mark.slow
def test_rewriting_the_actions_during_step_plays_only_checked_actions() -> None:
    env = rl.VectorEnv(4096, max_plies=80, seed=11)
    env.reset()
    actions = np.empty(env.num_envs, dtype=np.int64)
    # Outside the action space: an unchecked one would index past the action tables.
    garbage = np.array([10**12, -1, 2086, 1 << 40], dtype=np.int64)
    stop = threading.Event()

    def rewrite() -> None:
        k = 0
        while not stop.is_set():
            actions[:] = garbage[k % len(garbage)]
            k += 1

    writer = threading.Thread(target=rewrite)
    writer.start()
    played = refused = 0
    try:
        for _ in range(400):
            env.sample_legal(actions)
            try:
                env.step(actions)
                played += 1
            except IllegalActionError as exc:
                refused += 1
                assert "is not legal in env" in str(exc)
    finally:
        stop.set()
        writer.join()
    assert played + refused == 400
    assert refused, "the writer never hit a step: the test did not exercise anything"
    assert_consistent(env, range(0, env.num_envs, 211))


@pytest.mark.parametrize("where", ["reset", "step", "properties"])
def test_returned_arrays_cannot_be_made_writeable(where: str) -> None:
    env = rl.VectorEnv(8, seed=2)
    obs, masks = env.reset()
    arrays = [obs, masks]
    if where == "step":
        arrays = list(env.step(env.sample_legal()))
    elif where == "properties":
        arrays = [env.observations, env.masks, env.final_observations, env.final_masks]
    for array in arrays:
        # Down the whole chain of bases: no array on it can be made writeable.
        item: object = array
        while isinstance(item, np.ndarray):
            with pytest.raises(ValueError):
                item.setflags(write=True)
            with pytest.raises(ValueError):
                item.flags.writeable = True
            item = item.base
        with pytest.raises((ValueError, BufferError, TypeError)):
            np.frombuffer(item, dtype=np.uint8)[0] = 1  # type: ignore[arg-type]
    # Nothing was edited, so the masks still agree with the positions after more steps.
    for _ in range(30):
        env.step(env.sample_legal())
    assert_consistent(env, range(8))


def test_illegal_action_is_reported_as_read_and_nothing_changes() -> None:
    env = rl.VectorEnv(3, seed=1)
    env.reset()
    before = [env.fen(i) for i in range(3)]
    actions = env.sample_legal()
    actions[1] = 5000
    with pytest.raises(IllegalActionError, match=r"action 5000 is not legal in env 1"):
        env.step(actions)
    assert [env.fen(i) for i in range(3)] == before


@pytest.mark.parametrize("bad", [1.5, "3", b"3", None, [1, 2]])
def test_vector_env_refuses_a_non_integer_index(bad: object) -> None:
    env = rl.VectorEnv(2)
    with pytest.raises(TypeError, match="index must be an int"):
        env.fen(bad)  # type: ignore[arg-type]
    with pytest.raises(IndexError):
        env.fen(2)


@pytest.mark.parametrize("actions", [[1.5, 2.5], ["a", "b"], [True, False], [None, None]])
def test_vector_env_refuses_non_integer_actions(actions: list[object]) -> None:
    env = rl.VectorEnv(2)
    with pytest.raises(TypeError):
        env.step(np.array(actions))


@pytest.mark.parametrize("action", [1.5, "3", True, None])
def test_aec_env_refuses_a_non_integer_action(action: object) -> None:
    env = rl.raw_env()
    env.reset()
    with pytest.raises(TypeError):
        env.step(action)  # type: ignore[arg-type]
    assert env.position == Position()


@pytest.mark.parametrize(
    ("history", "error"), [(-1, ValueError), (True, TypeError), (1.0, TypeError)]
)
def test_aec_env_refuses_bad_history(history: object, error: type[Exception]) -> None:
    with pytest.raises(error):
        rl.raw_env(history=history)  # type: ignore[arg-type]


def _one_game_envs() -> list[object]:
    from xiangqi.rl.gym_env import GymEnv

    return [rl.raw_env, GymEnv, lambda **kw: rl.VectorEnv(2, **kw)]


@pytest.mark.parametrize(
    ("max_plies", "error", "text"),
    [
        (0, ValueError, "max_plies must be in 1..16777216, got 0"),
        ((1 << 24) + 1, ValueError, "got 16777217"),
        (True, TypeError, "max_plies must be an int, got bool"),
        (10.0, TypeError, "max_plies must be an int, got float"),
        ("500", TypeError, "max_plies must be an int, got str"),
    ],
)
def test_every_env_refuses_a_bad_max_plies_alike(
    max_plies: object, error: type[Exception], text: str
) -> None:
    for make in _one_game_envs():
        with pytest.raises(error, match=text.replace(".", r"\.")):
            make(max_plies=max_plies)  # type: ignore[operator]


@pytest.mark.parametrize("mode", ["human", "rgb_array", 1])
def test_one_game_envs_refuse_an_unknown_render_mode(mode: object) -> None:
    from xiangqi.rl.gym_env import GymEnv

    for make in (rl.raw_env, GymEnv):
        with pytest.raises(ValueError, match="render_mode must be None or one of"):
            make(render_mode=mode)  # type: ignore[arg-type]
    assert rl.raw_env(render_mode="ansi").render_mode == "ansi"


@pytest.mark.parametrize(
    ("perspective", "error"), [(True, TypeError), (2, ValueError), ("w", TypeError)]
)
def test_encode_refuses_bad_perspective(perspective: object, error: type[Exception]) -> None:
    with pytest.raises(error, match="perspective"):
        rl.encode(Position(), perspective=perspective)  # type: ignore[arg-type]
    assert rl.encode(Position(), perspective=BLACK).shape == (16, 10, 9)
    assert rl.encode(Position(), perspective=RED).shape == (16, 10, 9)


def test_batch_outputs_must_be_arrays() -> None:
    with pytest.raises(TypeError, match="out must be a NumPy"):
        rl.encode_batch([Position()], out=[])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="out must be a NumPy"):
        rl.legal_mask_batch([Position()], out=[])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="out must be a NumPy"):
        rl.VectorEnv(2).sample_legal(out=[0, 0])  # type: ignore[arg-type]


def test_vector_env_from_black_to_move_counts_move_numbers() -> None:
    # FEN: the move number goes up after each Black move. Black moves first here, so
    # after one step it is Red's move 2, after two steps still 2, after three 3.
    env = rl.VectorEnv(1, fen=BLACK_TO_MOVE, seed=3)
    env.reset()
    assert env.fen(0).endswith(" b - - 0 1")
    numbers = []
    for _ in range(3):
        env.step(env.sample_legal())
        numbers.append(env.fen(0).split()[-1])
    assert numbers == ["2", "2", "3"]
    pos = Position(BLACK_TO_MOVE)
    assert env.position(0).fullmove_number == 3 and pos.fullmove_number == 1
