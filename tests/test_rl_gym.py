"""xiangqi.rl's Gymnasium environments against Gymnasium's own machinery: GymEnv through
gymnasium.utils.env_checker.check_env, GymVectorEnv step by step against Gymnasium's
SyncVectorEnv of GymEnvs in the SAME_STEP autoreset mode it declares (GymEnv plays on a
Position; GymVectorEnv on the compiled VectorEnv), and a CleanRL-style masked PPO rollout.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import DISPUTED, disputed_cycle

from xiangqi import BLACK, RED, Move, Position, Rules, rl

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402
from gymnasium.vector.utils import batch_space  # noqa: E402

START = rl.vector.START_FEN
ENDGAME = "3akab2/9/9/9/9/9/2N6/9/3R5/5K3 w - - 0 1"
PERPETUAL = "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1"  # Red's rook checks on e/f: Red loses
CYCLE = ["a1e1"] + 2 * ["e9f9", "e1f1", "f9e9", "f1e1"]
# The endgame 110 plies into a no-capture stretch: the 60-move rule (120 plies) is 10 away.
ENDGAME_CLOCK_110 = "3akab2/9/9/9/9/9/2N6/9/3R5/5K3 w - - 110 1"


def reference(n: int, max_plies: int, fen: str) -> SyncVectorEnv:
    return SyncVectorEnv(
        [lambda: rl.GymEnv(max_plies=max_plies, fen=fen) for _ in range(n)],
        autoreset_mode=AutoresetMode.SAME_STEP,
    )


def assert_infos_structure(infos: dict, n: int) -> None:
    """Gymnasium's vector convention: every key k has a bool (n,) mask "_k"."""
    for key, value in infos.items():
        if key.startswith("_"):
            assert key[1:] in infos
            assert value.dtype == np.bool_ and value.shape == (n,)
            continue
        assert f"_{key}" in infos, key
        if isinstance(value, dict):
            assert_infos_structure(value, n)
        else:
            assert len(value) == n


def test_gym_vector_env_is_a_gymnasium_vector_env():
    env = rl.GymVectorEnv(4)
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert env.num_envs == 4
    single = gymnasium.spaces.Box(0, 255, shape=(16, 10, 9), dtype=np.uint8)
    assert env.single_observation_space == single
    assert env.single_action_space == gymnasium.spaces.Discrete(2086)
    assert env.observation_space == batch_space(single, 4)
    assert env.action_space == gymnasium.spaces.MultiDiscrete([2086] * 4)
    obs, infos = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert infos["action_mask"].shape == (4, 2086) and infos["_action_mask"].all()
    assert_infos_structure(infos, 4)


@pytest.mark.parametrize(
    ("fen", "max_plies", "steps"),
    [(ENDGAME, 300, 500), (START, 40, 130), (ENDGAME_CLOCK_110, 300, 200)],
)
def test_steps_match_gymnasiums_sync_vector_env(fen, max_plies, steps):
    n = 6
    ours, theirs = rl.GymVectorEnv(n, max_plies=max_plies, fen=fen), reference(n, max_plies, fen)
    obs, infos = ours.reset(seed=3)
    ref_obs, ref_infos = theirs.reset(seed=3)
    assert np.array_equal(obs, ref_obs)
    assert np.array_equal(infos["action_mask"], ref_infos["action_mask"])
    rng = np.random.default_rng(11)
    finished = {"terminated": 0, "truncated": 0}
    for step in range(steps):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in infos["action_mask"]])
        if step == 7:  # an illegal action changes nothing, here or in the record kept
            bad = actions.copy()
            bad[2] = int(np.flatnonzero(~infos["action_mask"][2])[0])
            with pytest.raises(rl.IllegalActionError, match="env 2"):
                ours.step(bad)
        obs, rewards, terms, truncs, infos = ours.step(actions)
        ref = theirs.step(actions)
        for got, want in zip((obs, rewards, terms, truncs), ref[:4]):
            assert np.array_equal(got, want), step
        ref_infos = ref[4]
        assert ours.observation_space.contains(obs)
        assert_infos_structure(infos, n)
        assert sorted(infos) == sorted(ref_infos)
        assert np.array_equal(infos["action_mask"], ref_infos["action_mask"])
        done = terms | truncs
        if done.any():
            assert np.array_equal(infos["_final_obs"], done)
            assert np.array_equal(infos["_final_info"], done)
            for i in range(n):
                if done[i]:
                    assert ours.single_observation_space.contains(infos["final_obs"][i])
                    assert np.array_equal(infos["final_obs"][i], ref_infos["final_obs"][i])
                else:
                    assert infos["final_obs"][i] is None
            final, ref_final = infos["final_info"], ref_infos["final_info"]
            assert np.array_equal(final["action_mask"], ref_final["action_mask"])
            assert np.array_equal(final["_action_mask"], ref_final["_action_mask"])
        else:
            assert "final_obs" not in infos
        finished["terminated"] += int(terms.sum())
        finished["truncated"] += int(truncs.sum())
    assert finished["terminated"] if fen != START else finished["truncated"]


def played(fen: str, moves: list[str]) -> Position:
    pos = Position(fen)
    for text in moves:
        pos.push_iccs(text)
    return pos


@pytest.mark.parametrize(
    ("max_plies", "plies", "reward", "repetitions"),
    [(500, len(CYCLE), -1.0, 2), (5, 5, 0.0, 1)],
)
def test_final_obs_counts_repetitions(max_plies, plies, reward, repetitions):
    # Perpetual check ends on the third occurrence (two earlier ones); truncation on the
    # fifth ply lands on the position after a1e1 again (one earlier occurrence). The
    # expected planes are Position's, whose history counts the repetitions.
    env = rl.GymVectorEnv(1, max_plies=max_plies, fen=PERPETUAL)
    env.reset()
    for k, text in enumerate(CYCLE[:plies]):
        mover = played(PERPETUAL, CYCLE[:k]).turn
        _, rewards, terms, truncs, infos = env.step(
            np.array([rl.move_to_action(Move.from_iccs(text), mover)])
        )
        assert bool(terms[0] or truncs[0]) == (k == plies - 1)
    assert rewards[0] == reward
    final = infos["final_obs"][0]
    assert final[14].min() == final[14].max() == repetitions
    assert np.array_equal(final, rl.encode(played(PERPETUAL, CYCLE[:plies])))
    final_mask = infos["final_info"]["action_mask"][0]
    assert np.array_equal(final_mask, rl.legal_mask(played(PERPETUAL, CYCLE[:plies])))
    assert env.fen(0) == Position(PERPETUAL).fen()  # restarted in the same step


@pytest.mark.parametrize("rules", ["asian", Rules.CHINESE])
@pytest.mark.parametrize("case_id", DISPUTED)
def test_rules_decide_a_disputed_repetition(case_id, rules):
    # A rule-book cycle that the two rule sets judge differently, played until the
    # Position says the game is over under the chosen rules: the env ends it on the
    # same move, with that verdict's reward, and its final_obs and final mask are the
    # Position's own encoding of the position the game ended in.
    fen, cycle = disputed_cycle(case_id)
    env = rl.GymVectorEnv(2, fen=fen, rules=rules)
    assert env.rules == rules
    env.reset()
    pos = Position(fen)
    for text in 3 * cycle:
        mover = pos.turn
        action = rl.move_to_action(Move.from_iccs(text), mover)
        pos.push_iccs(text)
        _, rewards, terms, truncs, infos = env.step(np.array([action, action]))
        outcome = pos.outcome(rules=rules)
        assert list(terms) == [outcome is not None] * 2 and not truncs.any(), text
        if outcome is not None:
            break
    assert outcome is not None
    winner = outcome.winner
    assert list(rewards) == [0 if winner is None else 1 if winner == mover else -1] * 2
    for i in range(2):
        assert np.array_equal(infos["final_obs"][i], rl.encode(pos))
        assert np.array_equal(infos["final_info"]["action_mask"][i], rl.legal_mask(pos))


def test_bad_rules_are_refused_naming_the_value():
    with pytest.raises(ValueError, match="'fide'"):
        rl.GymVectorEnv(2, rules="fide")
    with pytest.raises(ValueError, match="'fide'"):
        rl.GymEnv(rules="fide")
    with pytest.raises(TypeError, match="int"):
        rl.GymVectorEnv(2, rules=1)  # type: ignore[arg-type]
    assert rl.GymEnv(rules="chinese").rules is Rules.CHINESE


def test_seeding_is_reproducible():
    def run(env: rl.GymVectorEnv, seed: int) -> list[np.ndarray]:
        env.reset(seed=seed)
        out = []
        for _ in range(30):
            actions = env.sample_legal()
            out.append(actions)
            env.step(actions)
        return out

    a, b = rl.GymVectorEnv(8, max_plies=20), rl.GymVectorEnv(8, max_plies=20)
    first = run(a, 5)
    assert all(np.array_equal(x, y) for x, y in zip(first, run(b, 5)))
    assert all(np.array_equal(x, y) for x, y in zip(first, run(a, 5)))
    assert not all(np.array_equal(x, y) for x, y in zip(first, run(a, 6)))
    assert a.np_random_seed == 6
    with pytest.raises(TypeError, match="seed"):
        a.reset(seed=[1, 2])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="options"):
        a.reset(options={"reset_mask": np.ones(8, dtype=bool)})


def test_copy_returns_fresh_arrays_and_copy_false_views():
    env = rl.GymVectorEnv(3)
    obs0, info0 = env.reset(seed=1)
    obs1, _, _, _, info1 = env.step(env.sample_legal())
    assert not np.shares_memory(obs0, obs1) and obs1.flags.writeable
    assert not np.shares_memory(info0["action_mask"], info1["action_mask"])
    fast = rl.GymVectorEnv(3, copy=False)
    obs, infos = fast.reset()
    assert not obs.flags.writeable and not infos["action_mask"].flags.writeable
    obs, rewards, *_ = fast.step(fast.sample_legal())
    assert np.shares_memory(obs, fast.vector_env.observations)
    assert rewards.flags.writeable  # rewards and flags are always new arrays


def test_gym_env_passes_gymnasiums_check_env():
    check_env(rl.GymEnv(), skip_render_check=True)
    made = gymnasium.make("xiangqi/Xiangqi-v0", render_mode="ansi", fen=ENDGAME, max_plies=3)
    check_env(made.unwrapped)  # through the registration, so its render modes are tried
    made.close()


def test_registered_with_gymnasium():
    vec = gymnasium.make_vec(
        "xiangqi/Xiangqi-v0", num_envs=3, vectorization_mode="vector_entry_point", max_plies=9
    )
    assert isinstance(vec, rl.GymVectorEnv) and (vec.num_envs, vec.max_plies) == (3, 9)
    sync = gymnasium.make_vec(
        "xiangqi/Xiangqi-v0",
        num_envs=2,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP},
    )
    obs, _ = sync.reset(seed=0)
    assert np.array_equal(obs, vec.reset(seed=0)[0][:2])


def test_gym_env_illegal_action_loses_and_render():
    env = rl.GymEnv(render_mode="ansi")
    obs, info = env.reset(seed=0)
    assert info["action_mask"].sum() == 44  # Red's 44 opening moves
    assert np.array_equal(env.action_masks(), info["action_mask"])
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    after, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert np.array_equal(after, obs)
    assert "帅" in env.render()
    env.reset()
    obs, reward, terminated, _, _ = env.step(rl.move_to_action(Move.from_iccs("h2e2"), RED))
    assert (reward, terminated) == (0.0, False)
    assert np.array_equal(obs, rl.encode(played(START, ["h2e2"])))


def test_cleanrl_style_masked_rollout_runs_unchanged():
    # The rollout of CleanRL's ppo.py (with a NumPy stand-in for the network): masks from
    # infos["action_mask"], the episode statistics wrapper, next_done for GAE and the
    # final observation for bootstrapping a truncated game.
    num_envs, num_steps, gamma, gae_lambda = 4, 64, 0.99, 0.95
    envs = gymnasium.wrappers.vector.RecordEpisodeStatistics(
        rl.GymVectorEnv(num_envs, max_plies=24, fen=ENDGAME)
    )
    obs_shape = envs.single_observation_space.shape
    obs = np.zeros((num_steps, num_envs, *obs_shape), dtype=np.float32)
    masks = np.zeros((num_steps, num_envs, envs.single_action_space.n), dtype=bool)
    actions = np.zeros((num_steps, num_envs), dtype=np.int64)
    rewards = np.zeros((num_steps, num_envs), dtype=np.float32)
    dones = np.zeros((num_steps, num_envs), dtype=np.float32)
    values = np.zeros((num_steps, num_envs), dtype=np.float32)
    rng = np.random.default_rng(0)

    def value(batch: np.ndarray) -> np.ndarray:  # stands in for agent.get_value
        return batch.reshape(len(batch), -1).mean(axis=1)

    next_obs, infos = envs.reset(seed=1)
    next_mask = infos["action_mask"]
    next_done = np.zeros(num_envs, dtype=np.float32)
    episodes, bootstrapped = [], 0
    for step in range(num_steps):
        obs[step], masks[step], dones[step] = next_obs, next_mask, next_done
        logits = rng.normal(size=masks[step].shape)
        actions[step] = np.where(masks[step], logits, -1e8).argmax(axis=1)  # masked sample
        values[step] = value(obs[step])
        next_obs, reward, terminations, truncations, infos = envs.step(actions[step])
        next_done = np.logical_or(terminations, truncations).astype(np.float32)
        rewards[step] = reward
        for i in np.flatnonzero(infos.get("_final_obs", [])):
            if truncations[i]:  # bootstrap from the last position's value
                rewards[step, i] += gamma * value(infos["final_obs"][i][None])[0]
                bootstrapped += 1
        if "episode" in infos:
            episodes += infos["episode"]["l"][infos["_episode"]].tolist()
        next_mask = infos["action_mask"]
    advantages = np.zeros_like(rewards)
    last = 0.0
    next_value = value(next_obs.astype(np.float32))
    for t in reversed(range(num_steps)):
        nonterminal = 1.0 - (next_done if t == num_steps - 1 else dones[t + 1])
        following = next_value if t == num_steps - 1 else values[t + 1]
        delta = rewards[t] + gamma * following * nonterminal - values[t]
        advantages[t] = last = delta + gamma * gae_lambda * nonterminal * last
    assert masks[np.arange(num_steps)[:, None], np.arange(num_envs), actions].all()
    assert episodes and all(1 <= length <= 24 for length in episodes)
    assert bootstrapped and np.isfinite(advantages).all()


def test_one_fen_plays_one_game_by_every_entry_point():
    """The FEN's halfmove clock (field 5: plies since the last capture) is kept by every
    entry point: with 118 on it, two quiet plies reach 120 and the 60-move rule draws
    (Asian rules), whether the game runs in VectorEnv, GymVectorEnv, GymEnv or the
    PettingZoo env; the observation's clock channel starts at 118 in each."""
    fen = "3akab2/9/9/9/9/9/2N6/9/3R5/5K3 w - - 118 1"
    plies = [Move.from_iccs("f0f1"), Move.from_iccs("g9e7")]  # quiet, no check
    actions = [rl.move_to_action(plies[0], RED), rl.move_to_action(plies[1], BLACK)]
    vector = rl.VectorEnv(1, fen=fen)
    assert vector.fen(0) == fen
    obs, _ = vector.reset()
    assert (obs[0, 15] == 118).all()
    gym_vector = rl.GymVectorEnv(1, fen=fen)
    gym_obs, _ = gym_vector.reset(seed=0)
    gym = rl.GymEnv(fen=fen)
    one_obs, _ = gym.reset(seed=0)
    assert np.array_equal(gym_obs[0], one_obs)
    pettingzoo = rl.env(fen=fen)
    pettingzoo.reset()
    clock_plane = pettingzoo.observe("player_0")["observation"][..., 15]
    assert clock_plane.sum() == 1 and clock_plane.reshape(-1)[118 // 2]  # chess_v6's clock
    ended = []
    for k, action in enumerate(actions):
        _, rewards, terms, truncs = vector.step(np.array([action]))[1:]
        _, gv_rewards, gv_terms, _, _ = gym_vector.step(np.array([action]))
        _, g_reward, g_term, _, _ = gym.step(action)
        pettingzoo.step(action)
        ended.append(
            (bool(terms[0]), bool(gv_terms[0]), g_term, pettingzoo.terminations["player_0"])
        )
        if k == 0:
            assert vector.fen(0) == "3akab2/9/9/9/9/9/2N6/9/3R1K3/9 b - - 119 1"
    assert ended == [(False,) * 4, (True,) * 4]
    assert rewards[0] == gv_rewards[0] == g_reward == 0  # a draw
    assert pettingzoo._cumulative_rewards == {"player_0": 0, "player_1": 0}
    assert gym.position.outcome().termination.name == "MOVE_RULE"
