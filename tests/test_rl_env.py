"""xiangqi.rl environments: VectorEnv against a Python Position replay, and the
PettingZoo AEC environment against PettingZoo's own api_test and seed_test."""

from __future__ import annotations

import os
import re
from collections import Counter

import numpy as np
import pytest
from conftest import CHINESE_CASES, DISPUTED, disputed_cycle

from xiangqi import BLACK, RED, Color, Move, Position, Rules, rl
from xiangqi.rules import Termination

MATE_IN_ONE = "3k5/1R7/9/9/9/9/9/9/9/R3K4 w - - 0 1"  # a0a9 mates the king on d9
ENDGAME = "3akab2/9/9/9/9/9/2N6/9/3R5/5K3 w - - 0 1"


def reference_planes(pos: Position, reps: int) -> np.ndarray:
    """The 16 planes of pos from the mover's view, from piece_map() and the counters."""
    planes = np.zeros((16, 10, 9), dtype=np.uint8)
    view = pos.turn
    for square, piece in pos.piece_map().items():
        rank = square // 9 if view == RED else 9 - square // 9
        planes[int(piece.piece_type) + (0 if piece.color == view else 7), rank, square % 9] = 1
    planes[14] = min(reps, 255)
    planes[15] = min(pos.halfmove_clock, 255)
    return planes


def reference_chess_v6(pos: Position, reps: int) -> np.ndarray:
    """chess_v6's layout of pos from the mover's view: bool (10, 9, 16), channels last;
    channel 14 set when the position occurred before, channel 15 one-hot at the
    no-capture clock // 2 (chess_v6's move-clock channel)."""
    obs = np.zeros((10, 9, 16), dtype=np.bool_)
    view = pos.turn
    for square, piece in pos.piece_map().items():
        rank = square // 9 if view == RED else 9 - square // 9
        obs[rank, square % 9, int(piece.piece_type) + (0 if piece.color == view else 7)] = True
    obs[:, :, 14] = reps > 0
    n = min(pos.halfmove_clock // 2, 89)
    obs[n // 9, n % 9, 15] = True
    return obs


def reference_mask(pos: Position) -> np.ndarray:
    mask = np.zeros(rl.NUM_ACTIONS, dtype=np.bool_)
    for move in pos.legal_moves():
        mask[rl.move_to_action(move, pos.turn)] = True
    return mask


class Replay:
    """One game replayed in Python: Position, plus the positions since the last capture."""

    def __init__(self, fen: str) -> None:
        self.fen = fen
        self.pos = Position(fen)
        self.seen = [self.key()]

    def key(self) -> tuple[str, Color]:
        return self.pos.board_fen(), self.pos.turn

    def push(self, move: Move) -> None:
        captured = self.pos.piece_at(move.to_square) is not None
        self.pos.push(move)
        if captured:
            self.seen = []
        self.seen.append(self.key())

    def repetitions(self) -> int:
        return self.seen[:-1].count(self.key())


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["asian", "chinese"])
@pytest.mark.parametrize(
    ("fen", "max_plies", "steps"), [(rl.vector.START_FEN, 60, 240), (ENDGAME, 300, 600)]
)
def test_vector_env_matches_a_position_replay(fen, max_plies, steps, rules):
    n = 8
    env = rl.VectorEnv(n, max_plies=max_plies, seed=2024, fen=fen, rules=rules)
    obs, masks = env.reset()
    games = [Replay(fen) for _ in range(n)]
    seen = {"mate": 0, "draw": 0, "truncated": 0}
    assert not env.final_observations.any() and not env.final_masks.any()  # zeros at first
    for _ in range(steps):
        for i, game in enumerate(games):
            assert np.array_equal(masks[i], reference_mask(game.pos))
            assert np.array_equal(obs[i], reference_planes(game.pos, game.repetitions()))
        actions = env.sample_legal()
        moves = [rl.action_to_move(int(a), g.pos.turn) for a, g in zip(actions, games)]
        earlier = env.final_observations.copy(), env.final_masks.copy()
        obs, masks, rewards, terms, truncs = env.step(actions)
        for i, (game, move) in enumerate(zip(games, moves)):
            mover = game.pos.turn
            game.push(move)
            # The game-end rulings, judged on the Position under the same rules.
            outcome = game.pos.outcome(rules=rules)
            no_moves = not game.pos.legal_moves()
            assert no_moves == (
                outcome is not None
                and outcome.winner == mover
                and (outcome.termination in (Termination.CHECKMATE, Termination.STALEMATE))
            )
            truncated = outcome is None and len(game.pos.move_stack) >= max_plies
            assert (bool(terms[i]), bool(truncs[i])) == (outcome is not None, truncated)
            if outcome is None or outcome.winner is None:
                assert rewards[i] == 0.0
            else:
                assert rewards[i] == (1.0 if outcome.winner == mover else -1.0)
            seen["mate"] += no_moves
            seen["draw"] += outcome is not None and outcome.winner is None
            seen["truncated"] += truncated
            if outcome is not None or truncated:
                # The finished game's last position, kept by the core before the restart.
                assert np.array_equal(
                    env.final_observations[i], reference_planes(game.pos, game.repetitions())
                )
                assert np.array_equal(env.final_masks[i], reference_mask(game.pos))
                games[i] = Replay(fen)
            else:  # rows of games that go on keep what an earlier game left there
                assert np.array_equal(env.final_observations[i], earlier[0][i])
                assert np.array_equal(env.final_masks[i], earlier[1][i])
            assert env.fen(i).split()[:2] == games[i].pos.fen().split()[:2]
    if fen == ENDGAME:
        assert seen["mate"] and seen["draw"]  # both game ends were exercised
    else:
        assert seen["truncated"]


def pyffish_legal_iccs(fen: str) -> list[str]:
    """Fairy-Stockfish's legal moves of fen as ICCS (its ranks run 1..10, ours 0..9)."""
    import pyffish

    return sorted(
        "".join(f"{file}{int(rank) - 1}" for file, rank in re.findall(r"([a-i])(\d+)", move))
        for move in pyffish.legal_moves("xiangqi", fen, [])
    )


@pytest.mark.slow
@pytest.mark.parametrize("fen", [rl.vector.START_FEN, ENDGAME])
def test_vector_env_masks_in_check_match_fairy_stockfish(fen):
    # The step lists legal actions in its own loop (core/rl.pxd mark_legal_actions), whose
    # check answers are the hardest case; every in-check position here is compared.
    pytest.importorskip("pyffish")
    env = rl.VectorEnv(32, max_plies=200, seed=7, fen=fen)
    _, masks = env.reset()
    compared = 0
    for _ in range(150):
        _, masks, *_ = env.step(env.sample_legal())
        for i in range(env.num_envs):
            pos = env.position(i)
            if not pos.is_check():
                continue
            ours = sorted(
                str(rl.action_to_move(int(a), pos.turn)) for a in np.flatnonzero(masks[i])
            )
            assert ours == pyffish_legal_iccs(env.fen(i)), env.fen(i)
            compared += 1
    assert compared >= 50  # enough positions in check were seen


def test_finished_game_resets_with_the_finished_games_reward():
    env = rl.VectorEnv(2, fen=MATE_IN_ONE)
    start_obs, start_masks = (a.copy() for a in env.reset())
    mate = rl.move_to_action(Move.from_iccs("a0a9"), RED)
    quiet = rl.move_to_action(Move.from_iccs("b8b7"), RED)
    obs, masks, rewards, terms, truncs = env.step(np.array([mate, quiet]))
    assert rewards.tolist() == [1.0, 0.0]
    assert terms.tolist() == [True, False] and truncs.tolist() == [False, False]
    assert np.array_equal(obs[0], start_obs[0]) and np.array_equal(masks[0], start_masks[0])
    assert env.fen(0) == Position(MATE_IN_ONE).fen()
    assert env.fen(1).startswith("3k5/9/1R7/9/9/9/9/9/9/R3K4 b")
    assert np.array_equal(masks[1], reference_mask(env.position(1)))


@pytest.mark.parametrize(
    ("fen", "cycle", "termination", "winner"),
    [
        # The rook checks on the e- and f-files while the king steps between them:
        # Red checks perpetually and loses.
        (
            "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1",
            ["e9f9", "e1f1", "f9e9", "f1e1"],
            "PERPETUAL_CHECK",
            BLACK,
        ),
        # The rook chases an unprotected cannon between the a- and b-files: Red loses.
        (
            "4k4/9/c8/9/9/9/9/1R7/9/3K5 w - - 0 1",
            ["a7b7", "a2b2", "b7a7", "b2a2"],
            "PERPETUAL_CHASE",
            BLACK,
        ),
        # Both sides check perpetually: a draw by repetition.
        (
            "9/4c4/3k5/3r5/9/9/4C4/9/4K4/3R5 w - - 0 1",
            ["e3d3", "d6e6", "d3e3", "e6d6"],
            "REPETITION",
            None,
        ),
    ],
)
def test_repetition_rulings_end_vector_games(fen, cycle, termination, winner):
    # The rule cases of tests/test_rules.py (from Fairy-Stockfish's test suite), played
    # until the Position says the game is over; the VectorEnv must end it on that move.
    first = {"4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1": ["a1e1"]}.get(fen, [])
    first += ["b2a2"] if fen.startswith("4k4/9/c8") else []
    env = rl.VectorEnv(1, fen=fen)
    env.reset()
    pos = Position(fen)
    for text in first + 3 * cycle:
        mover = pos.turn
        action = rl.move_to_action(Move.from_iccs(text), mover)
        pos.push_iccs(text)
        _, _, rewards, terms, _ = env.step(np.array([action]))
        outcome = pos.outcome()
        assert bool(terms[0]) == (outcome is not None), text
        if outcome is not None:
            break
    assert outcome is not None
    assert (outcome.termination.name, outcome.winner) == (termination, winner)
    assert rewards[0] == (0 if winner is None else 1 if winner == mover else -1)
    # The position the game ended in, as the Position's own encoders see it (its
    # repetition plane counts the earlier occurrences of the cycle).
    assert np.array_equal(env.final_observations[0], rl.encode(pos))
    assert np.array_equal(env.final_masks[0], rl.legal_mask(pos))
    assert env.fen(0) == Position(fen).fen()  # restarted


def book_cycles() -> list[tuple[str, list[str]]]:
    """The Chinese rule book's illustrated cycles (tests/data/chinese_rules/cases.txt):
    (FEN, moves of one cycle)."""
    out = []
    for line in CHINESE_CASES.read_text(encoding="utf-8").splitlines():
        fields = [field.strip() for field in line.split(" | ")]
        if line.strip() and not line.startswith("#") and fields[2] == "cycle":
            out.append((fields[3], fields[4].split()))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["asian", "chinese"])
def test_book_cycles_end_vector_games_as_the_position_rules(rules):
    # Every illustrated cycle of the Chinese rule book, played three times over in one
    # VectorEnv per cycle and in a Position, both under the same rules: after every move
    # the env ends the game exactly when the Position's outcome() says it is over, with
    # the reward of its winner. Under the Chinese rules most cycles lose for one side
    # (mixed cycles with checks and mate threats included), under the Asian ones many draw.
    cycles = book_cycles()
    assert len(cycles) >= 70
    rulings = Counter()
    for fen, cycle in cycles:
        env = rl.VectorEnv(1, fen=fen, rules=rules)
        env.reset()
        pos = Position(fen)
        outcome = None
        for text in 3 * cycle:
            mover = pos.turn
            action = rl.move_to_action(Move.from_iccs(text), mover)
            pos.push_iccs(text)
            _, _, rewards, terms, _ = env.step(np.array([action]))
            outcome = pos.outcome(rules=rules)
            assert bool(terms[0]) == (outcome is not None), (fen, text)
            if outcome is not None:
                winner = outcome.winner
                assert rewards[0] == (0 if winner is None else 1 if winner == mover else -1)
                rulings[outcome.termination.name] += 1
                break
        assert outcome is not None, fen  # three cycles make a threefold repetition
    if rules == "chinese":
        # The Chinese judge's own verdicts were exercised, not only the shared ones.
        assert rulings["CHECK_AND_CHASE"] and rulings["PERPETUAL_CHASE"]
        assert rulings["MATE_THREAT_AND_CHASE"]  # the mate-threat test ran in the env too


def test_bad_rules_are_refused_naming_the_value():
    with pytest.raises(ValueError, match="'fide'"):
        rl.VectorEnv(2, rules="fide")
    with pytest.raises(TypeError, match="int"):
        rl.VectorEnv(2, rules=1)  # type: ignore[arg-type]
    assert rl.VectorEnv(2, rules=Rules.CHINESE).rules is Rules.CHINESE


@pytest.mark.parametrize("rules", [Rules.ASIAN, "chinese"])
@pytest.mark.parametrize("case_id", DISPUTED)
def test_pettingzoo_rules_decide_a_disputed_repetition(case_id, rules):
    fen, cycle = disputed_cycle(case_id)
    env = rl.env(fen=fen, rules=rules)
    env.reset()
    pos = Position(fen)
    for text in 3 * cycle:
        env.step(rl.move_to_action(Move.from_iccs(text), pos.turn))
        pos.push_iccs(text)
        outcome = pos.outcome(rules=rules)
        over = env.terminations == {"player_0": True, "player_1": True}
        assert over == (outcome is not None), text
        if over:
            break
    assert outcome is not None
    want = {"player_0": 0, "player_1": 0}
    if outcome.winner is not None:
        want = {f"player_{int(outcome.winner)}": 1, f"player_{1 - int(outcome.winner)}": -1}
    assert env._cumulative_rewards == want


def test_pettingzoo_bad_rules_are_refused_naming_the_value():
    with pytest.raises(ValueError, match="'fide'"):
        rl.env(rules="fide")
    with pytest.raises(TypeError, match="int"):
        rl.raw_env(rules=1)  # type: ignore[arg-type]
    assert rl.raw_env(rules="chinese").rules is Rules.CHINESE


def test_truncation_at_max_plies_resets():
    env = rl.VectorEnv(3, max_plies=3, seed=1)
    start_obs, _ = (a.copy() for a in env.reset())
    for ply in range(1, 4):
        obs, _, rewards, terms, truncs = env.step(env.sample_legal())
        assert truncs.tolist() == [ply == 3] * 3
        assert not terms.any() and not rewards.any()
    assert np.array_equal(obs, start_obs)


def test_illegal_action_names_the_env_and_changes_nothing():
    env = rl.VectorEnv(4, seed=5)
    env.reset()
    for _ in range(5):
        env.step(env.sample_legal())
    before = [a.copy() for a in (env.observations, env.masks)]
    fens = [env.fen(i) for i in range(4)]
    actions = env.sample_legal()
    actions[2] = int(np.flatnonzero(~env.masks[2])[0])
    with pytest.raises(rl.IllegalActionError, match="env 2") as info:
        env.step(actions)
    assert isinstance(info.value, ValueError)
    for bad in (-1, rl.NUM_ACTIONS):
        actions[2] = bad
        with pytest.raises(ValueError, match=f"action {bad} is not legal in env 2"):
            env.step(actions)
    assert [env.fen(i) for i in range(4)] == fens
    assert np.array_equal(env.observations, before[0]) and np.array_equal(env.masks, before[1])


def test_step_checks_the_actions_array():
    env = rl.VectorEnv(2)
    env.reset()
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(TypeError, match="integers"):
        env.step(np.zeros(2, dtype=np.float64))
    with pytest.raises(TypeError, match="num_envs"):
        rl.VectorEnv(2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="num_envs"):
        rl.VectorEnv(0)


def test_returned_arrays_are_read_only_views():
    env = rl.VectorEnv(2)
    obs, masks = env.reset()
    with pytest.raises(ValueError):
        masks[0, 0] = True
    assert obs.shape == (2, 16, 10, 9) and obs.dtype == np.uint8
    assert masks.shape == (2, 2086) and masks.dtype == np.bool_


def test_sampler_is_seeded_and_legal():
    a, b = rl.VectorEnv(16, seed=9), rl.VectorEnv(16, seed=9)
    a.reset()
    b.reset()
    for _ in range(20):
        actions = a.sample_legal()
        assert np.array_equal(actions, b.sample_legal())
        assert a.masks[np.arange(16), actions].all()
        a.step(actions)
        b.step(actions)


def test_any_int_dtype_is_accepted():
    env = rl.VectorEnv(2, seed=3)
    env.reset()
    env.step(env.sample_legal().astype(np.int16))
    assert env.fen(0).split()[1] == "b"


# -- PettingZoo -------------------------------------------------------------------------------

pettingzoo_test = pytest.importorskip("pettingzoo.test")

# api_test warns that a Dict observation is not a Box: PettingZoo's chess does the same.
dict_obs = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]


@pytest.mark.parametrize("history", [0, 2])
@dict_obs[0]
@dict_obs[1]
def test_pettingzoo_api_test(history):
    pettingzoo_test.api_test(rl.env(history=history), num_cycles=300, verbose_progress=False)


@dict_obs[0]
@dict_obs[1]
def test_pettingzoo_seed_test():
    pettingzoo_test.seed_test(rl.env, num_cycles=100)


def test_pettingzoo_mate_rewards_and_observations():
    env = rl.env(fen=MATE_IN_ONE, render_mode="ansi")
    env.reset()
    assert env.agent_selection == "player_0"
    first = env.observe("player_0")
    assert first["action_mask"].dtype == np.int8
    assert np.array_equal(first["action_mask"], reference_mask(Position(MATE_IN_ONE)))
    assert not env.observe("player_1")["action_mask"].any()
    env.step(rl.move_to_action(Move.from_iccs("a0a9"), RED))
    assert env.terminations == {"player_0": True, "player_1": True}
    assert env._cumulative_rewards == {"player_0": 1, "player_1": -1}
    assert "帅" in env.render()


def test_pettingzoo_random_games_agree_with_position():
    env = rl.env(max_plies=80)
    rng = np.random.default_rng(4)
    for _ in range(3):
        env.reset()
        game = Replay(rl.vector.START_FEN)
        pos = game.pos
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            color = RED if agent == "player_0" else BLACK
            assert color == pos.turn
            assert np.array_equal(obs["observation"], reference_chess_v6(pos, game.repetitions()))
            assert np.array_equal(obs["action_mask"].astype(bool), reference_mask(pos))
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
            game.push(rl.action_to_move(action, color))
        assert len(pos.move_stack) == 80 or not pos.legal_moves()


def test_pettingzoo_perpetual_check_loses():
    fen = "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1"
    env = rl.env(fen=fen)
    env.reset()
    pos = Position(fen)
    for text in ["a1e1"] + 2 * ["e9f9", "e1f1", "f9e9", "f1e1"]:
        env.step(rl.move_to_action(Move.from_iccs(text), pos.turn))
        pos.push_iccs(text)
    assert env.terminations == {"player_0": True, "player_1": True}
    assert env._cumulative_rewards == {"player_0": -1, "player_1": 1}


def test_pettingzoo_black_observes_from_its_side():
    env = rl.raw_env()
    env.reset()
    env.step(rl.move_to_action(Move.from_iccs("h2e2"), RED))
    pos = Position()
    pos.push_iccs("h2e2")
    black_view = env.observe("player_1")["observation"]
    assert np.array_equal(black_view, reference_chess_v6(pos, 0))
    assert black_view[9 - 2, 4, 12]  # Red's cannon on e2 is the opponent's, ranks flipped
    red_view = env.observe("player_0")["observation"]
    assert red_view[2, 4, 5]  # Red's cannon now on e2, seen by Red


def test_pettingzoo_observation_follows_chess_v6():
    # The dtypes, bounds and channels-last layout of PettingZoo's own chess_v6 spaces,
    # from the installed env when it loads (it needs pygame and python-chess), else as
    # pettingzoo/classic/chess/chess.py (1.25) declares them.
    from gymnasium import spaces

    try:
        from pettingzoo.classic import chess_v6

        theirs = chess_v6.env().observation_space("player_0")
    except ImportError:
        theirs = spaces.Dict(
            {
                "observation": spaces.Box(0, 1, shape=(8, 8, 111), dtype=bool),
                "action_mask": spaces.Box(0, 1, shape=(4672,), dtype=np.int8),
            }
        )
    for history in (0, 2):
        ours = rl.env(history=history).observation_space("player_0")
        assert set(ours.spaces) == set(theirs.spaces)
        for key in ("observation", "action_mask"):
            assert ours[key].dtype == theirs[key].dtype, key
            assert (ours[key].low.max(), ours[key].high.min()) == (0, 1), key
        assert ours["observation"].shape == (10, 9, 16 + 14 * history)  # (8, 8, 111) there
        assert ours["action_mask"].shape == (rl.NUM_ACTIONS,)
    env = rl.env(history=2)
    env.reset()
    obs = env.observe("player_0")
    assert env.observation_space("player_0").contains(obs)


def test_pettingzoo_channels_first_gives_the_planes():
    env = rl.raw_env(channels_first=True, history=1)
    env.reset()
    env.step(rl.move_to_action(Move.from_iccs("h2e2"), RED))
    pos = Position()
    pos.push_iccs("h2e2")
    obs = env.observe("player_1")
    assert obs["observation"].dtype == np.uint8 and obs["observation"].shape == (30, 10, 9)
    assert np.array_equal(obs["observation"], rl.encode(pos, history=1))
    assert env.observation_space("player_1").contains(obs)
    # chess_v6_layout maps the planes onto the default observation
    default = rl.raw_env(history=1)
    default.reset()
    default.step(rl.move_to_action(Move.from_iccs("h2e2"), RED))
    converted = rl.chess_v6_layout(obs["observation"])
    assert np.array_equal(converted, default.observe("player_1")["observation"])
    assert np.array_equal(np.moveaxis(converted, -1, -3)[:14], obs["observation"][:14])


def test_chess_v6_layout_of_a_batch_and_its_counters():
    # A game with a repeated position and a long no-capture stretch, in one batch.
    fen = "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 37 1"
    pos = Position(fen)
    positions, reps = [pos.copy()], [0]
    for text in ["a1e1", "e9f9", "e1f1", "f9e9", "f1e1"]:
        pos.push_iccs(text)
        positions.append(pos.copy())
        reps.append(1 if text == "f1e1" else 0)  # back to the position after a1e1
    batch = rl.chess_v6_layout(rl.encode_batch(positions))
    assert batch.shape == (6, 10, 9, 16) and batch.flags.c_contiguous
    for got, p, r in zip(batch, positions, reps):
        assert np.array_equal(got, reference_chess_v6(p, r))
    with pytest.raises(TypeError, match="uint8"):
        rl.chess_v6_layout(np.zeros((16, 10, 9), dtype=np.float32))
    with pytest.raises(ValueError, match="shape"):
        rl.chess_v6_layout(np.zeros((17, 10, 9), dtype=np.uint8))


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs Linux /proc")
@pytest.mark.skipif(
    "ASAN_OPTIONS" in os.environ, reason="AddressSanitizer holds freed memory in quarantine"
)
def test_memory_stays_flat_over_envs_and_batches():
    # Each VectorEnv(256) holds about 0.6 MB of C buffers beyond its NumPy arrays, so a
    # leak in __dealloc__ would add some 60 MB over 100 rounds; encoder leaks show likewise.
    positions = [Position()] * 64
    env = rl.raw_env(history=2)
    env.reset()

    def churn(rounds: int) -> None:
        for _ in range(rounds):
            vec = rl.VectorEnv(256, seed=1)
            vec.step(vec.sample_legal())
            rl.encode_batch(positions, history=3)
            rl.legal_mask_batch(positions)
            env.observe("player_0")
            del vec

    churn(20)
    before = rss_bytes()
    churn(100)
    assert rss_bytes() - before < 8 * 2**20
