"""OpenSpiel plays xiangqi through xiangqi.rl.openspiel (the `openspiel` extra)."""

from __future__ import annotations

import random
import re

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install xiangqi-rules[openspiel])"
)
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import mcts  # noqa: E402

import xiangqi.rl.openspiel  # noqa: E402,F401  (registers the game)
from xiangqi import RED, Color, Move, Position  # noqa: E402
from xiangqi.rl.actions import action_to_move, move_to_action  # noqa: E402
from xiangqi.rl.planes import encode  # noqa: E402

# Red: king e0, advisors d0 and e1, rook g0; Black: a bare king on e9. Red can mate
# (a rook and a king force it), so a short game ends by a ruling, not a cut-off.
ROOK_ENDING = "4k4/9/9/9/9/9/9/9/4A4/3AK1R2 w - - 0 1"


def play_mcts(fen: str, seed: int, move_limit: int) -> tuple[object, Position, list[str]]:
    game = pyspiel.load_game("python_xiangqi", {"fen": fen, "move_limit": move_limit})
    state = game.new_initial_state()
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=12, evaluator=evaluator, random_state=rng)
    shadow = Position(fen)  # replays the bot's moves by our rules, independently of the state
    played = []
    while not state.is_terminal():
        assert state.current_player() == int(shadow.turn)
        action = bot.step(state)
        move = action_to_move(action, shadow.turn)
        assert move in shadow.legal_moves, f"MCTS played {move}, illegal in {shadow.fen()}"
        state.apply_action(action)
        shadow.push(move)
        played.append(str(move))
        assert len(played) < 400
    return state, shadow, played


@pytest.mark.parametrize("seed", [1, 2])
def test_an_mcts_bot_plays_a_whole_game_by_our_rules(seed: int) -> None:
    state, shadow, played = play_mcts(ROOK_ENDING, seed, move_limit=40)
    outcome = shadow.outcome()
    assert outcome is not None, f"the game stopped before a ruling after {played}"
    expected = [0.0, 0.0]
    if outcome.winner is not None:
        expected = [1.0, -1.0] if outcome.winner == RED else [-1.0, 1.0]
    assert state.returns() == expected
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert str(state) == shadow.fen()


def test_the_start_has_the_44_legal_moves_of_perft_1() -> None:
    """44 is the published perft(1) of the start position (chessprogramming wiki)."""
    state = pyspiel.load_game("python_xiangqi").new_initial_state()
    actions = state.legal_actions()
    assert len(actions) == 44 and actions == sorted(actions)
    moves = {str(action_to_move(a, Color.RED)) for a in actions}
    assert "h2e2" in moves and "b0c2" in moves


def test_black_actions_are_seen_from_black() -> None:
    state = pyspiel.load_game("python_xiangqi").new_initial_state()
    first = state.legal_actions()[0]
    state.apply_action(first)
    assert state.current_player() == 1
    pos = Position()
    pos.push(action_to_move(first, RED))
    expected = sorted(str(m) for m in pos.legal_moves)
    assert sorted(state.action_to_string(1, a) for a in state.legal_actions()) == expected


def test_openspiel_random_simulations_find_no_inconsistency() -> None:
    """OpenSpiel's own checks: clones, returns, legal actions along random games."""
    game = pyspiel.load_game("python_xiangqi", {"max_game_length": 150})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def _iccs_of_native(text: str) -> str:
    """ICCS of an action string of OpenSpiel's own C++ xiangqi, "S(6,0)-(5,0)": (row, col)
    pairs with row 0 on Black's back rank."""
    r1, c1, r2, c2 = map(int, re.findall(r"\d+", text)[-4:])
    return f"{'abcdefghi'[c1]}{9 - r1}{'abcdefghi'[c2]}{9 - r2}"


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_legal_moves_agree_with_openspiel_own_xiangqi(seed: int) -> None:
    """OpenSpiel's C++ "xiangqi" is an independent implementation: along random games the
    legal move sets agree at every ply, and so do checkmates and stalemates. (Its draws
    differ: it has no move rule nor insufficient material, and stops at 500 plies.)"""
    ours = pyspiel.load_game("python_xiangqi").new_initial_state()
    native = pyspiel.load_game("xiangqi").new_initial_state()
    rng = random.Random(seed)
    while not (ours.is_terminal() or native.is_terminal()):
        mine = {ours.action_to_string(ours.current_player(), a): a for a in ours.legal_actions()}
        theirs = {
            _iccs_of_native(native.action_to_string(native.current_player(), a)): a
            for a in native.legal_actions()
        }
        assert set(mine) == set(theirs), str(ours)
        text = rng.choice(sorted(mine))
        ours.apply_action(mine[text])
        native.apply_action(theirs[text])
    outcome = ours.outcome()
    if native.is_terminal() and ours.is_terminal() and outcome and outcome.winner is not None:
        assert ours.returns() == native.returns()


def test_a_game_without_a_ruling_is_cut_off_as_a_draw() -> None:
    game = pyspiel.load_game("python_xiangqi", {"max_game_length": 2})
    state = game.new_initial_state()
    for _ in range(2):
        state.apply_action(state.legal_actions()[0])
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    assert state.outcome() is None


def test_the_observation_is_the_fen_and_the_planes() -> None:
    state = pyspiel.load_game("python_xiangqi").new_initial_state()
    assert state.observation_string(0) == Position().fen()
    tensor = np.asarray(state.observation_tensor(1), dtype=np.float32)
    expected = encode(Position(), perspective=Color.BLACK).astype(np.float32).ravel()
    assert np.array_equal(tensor, expected)


def test_the_information_state_tells_apart_histories_the_rules_tell_apart() -> None:
    """Two games reach the start position's FEN with the same counters (8 quiet plies, move
    5): one by the horses' shuffle twice, a threefold repetition the rules end as a draw;
    one by four different horse moves, the start's second occurrence, play going on.
    The FEN cannot tell them apart; the information state (the history, as OpenSpiel's
    chess gives it) must."""
    game = pyspiel.load_game("python_xiangqi")
    repeated = "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9".split()
    twice = "h0g2 h9g7 b0c2 b9c7 g2h0 g7h9 c2b0 c7b9".split()
    states = []
    for line in (repeated, twice):
        state = game.new_initial_state()
        for text in line:
            action = move_to_action(Move.from_iccs(text), Color(state.current_player()))
            assert action in state.legal_actions()
            state.apply_action(action)
        states.append(state)
    ended, going_on = states
    fen = Position().fen().replace(" 0 1", " 8 5")
    assert ended.observation_string(0) == going_on.observation_string(0) == fen
    assert ended.is_terminal() and ended.outcome().termination.name == "REPETITION"
    assert not going_on.is_terminal()
    for player in (0, 1):
        assert ended.information_state_string(player) != going_on.information_state_string(player)
    start = Position().fen()
    assert ended.information_state_string(0) == " ".join([start, "moves", *repeated])
    assert going_on.information_state_string(1) == " ".join([start, "moves", *twice])
    assert going_on.clone().information_state_string(0) == going_on.information_state_string(0)
