"""The board games' compiled rollout policies (envs/mycelia/search.py, envs/mycelium/search.py)
against their Python greedy baselines, and one short search game per registered option set.

The compiled ``greedy_move`` breaks ties uniformly at random as ``GreedyAgent`` does, so the
comparison is: on every random state met, the compiled move is one of the Python greedy's best
moves (its score within the agent's 1e-9 of the best legal score)."""

from __future__ import annotations

import numpy as np
import pytest

import mushgym
from mushgym import testing
from mushgym.agents import GreedyAgent, MCTSAgent
from mushgym.agents.greedy import greedy_heuristic
from mushgym.core import rng_seed
from mushgym.episodes import play
from mushgym.registry import env_module
from mushgym.search import Searcher, find_kernel

BOARD_OPTION_SETS = (
    [("mycelia_v1", o) for o in testing.option_sets(env_module("mycelia_v1").Game)]
    + [
        ("mycelia_v1", {"expansion": "north_america", "num_players": 5}),
        ("mycelia_v1", {"expansion": "north_america", "automata": True}),
    ]
    + [("mycelium_v2", o) for o in testing.option_sets(env_module("mycelium_v2").Game)]
    + [("mycelium_v2", {"num_players": 2, "emsporium": True})]
)
SEARCH_GAMES = [(e, o) for e in mushgym.list_envs() for o in testing.option_sets(env_module(e).Game)]


def _ids(cases):
    return [f"{e}[{testing.options_id(o)}]" for e, o in cases]


def disagreements(game, n_games, seed=0):
    """(states compared, the states where the compiled move is not among the Python greedy's best)."""
    heuristic = greedy_heuristic(game.env_id)
    move = find_kernel(game.kernels, "greedy_move")
    work = np.zeros(max(1, game.work_size), np.int64)
    rng = np.zeros(4, np.int64)
    rng_seed(rng, 0, seed)
    bad = []
    states = testing.random_states(game, n_games=n_games, seed=seed, every=2)
    for s in states:
        mask = game.legal_mask(s)
        p = game.current_player(s)
        legal = np.flatnonzero(mask)
        scores = np.asarray(heuristic(game, s, p, game.observe(s, p), mask), np.float64)[legal]
        best = set(legal[scores >= scores.max() - 1e-9].tolist())
        a = int(move(s, game.config, mask, legal.size, work, rng))
        if a not in best:
            bad.append(f"{game.action_to_string(s, a)} instead of {game.action_to_string(s, min(best))}")
    return len(states), bad


@pytest.mark.parametrize("env_id,options", BOARD_OPTION_SETS, ids=_ids(BOARD_OPTION_SETS))
def test_compiled_greedy_moves_are_the_python_greedy_best(env_id, options):
    game = mushgym.game(env_id, **options)
    n, bad = disagreements(game, n_games=testing.harness_games(type(game), options, 2))
    assert n > 50
    assert not bad, f"{len(bad)} of {n} states: {bad[:5]}"


@pytest.mark.parametrize("env_id", ["mycelia_v1", "mycelium_v2"])
def test_auto_takes_the_board_games_rollout_policy(env_id):
    game = mushgym.game(env_id)
    assert Searcher(game, simulations=10, rollout="auto").config.rollout == "greedy"
    assert MCTSAgent(env_id, simulations=10).searcher(game).config.rollout == "greedy"


@pytest.mark.parametrize("env_id,widen", [("mycelia_v1", 0.0), ("mycelium_v2", 0.25)])
def test_mcts_widens_where_the_game_says(env_id, widen):
    """mcts:SIMS takes the game's SEARCH_WIDEN with its rollouts (Mycelium 0.25: plain UCT spread
    100 simulations over dozens of moves), none with random rollouts; widen=0 turns it off."""
    game = mushgym.game(env_id)
    assert MCTSAgent(env_id, simulations=10).searcher(game).config.widen == widen
    assert MCTSAgent(env_id, simulations=10, rollout="random").searcher(game).config.widen == 0.0
    assert MCTSAgent(env_id, simulations=10, widen=0).searcher(game).config.widen == 0.0


@pytest.mark.parametrize("env_id", ["mycelia_v1", "mycelium_v2"])
def test_rollout_policy_is_legal_seeded_and_mostly_greedy(env_id):
    """Legal on every state; the same generator words give the same moves; greedy_move's move but
    for about ROLLOUT_EPSILON of the decisions (ties are drawn at random in both)."""
    game = mushgym.game(env_id)
    policy = find_kernel(game.kernels, "rollout_policy")
    epsilon = find_kernel(game.kernels, "ROLLOUT_EPSILON")
    work = np.zeros(max(1, game.work_size), np.int64)
    states = testing.random_states(game, n_games=2, seed=3, every=3)
    runs = []
    for seed in (0, 0, 1):
        rng = np.zeros(4, np.int64)
        rng_seed(rng, 0, seed)
        run = []
        for s in states:
            mask = game.legal_mask(s)
            a = int(policy(s, game.config, mask, int(np.count_nonzero(mask)), work, rng))
            assert mask[a], f"illegal rollout action {game.action_to_string(s, a)}"
            run.append(a)
        runs.append(run)
    assert runs[0] == runs[1] and runs[0] != runs[2]
    assert 0 < epsilon <= 0.1


class _Enough(Exception):
    """Raised by the step callback: the game is cut after a few decisions."""


@pytest.mark.parametrize("env_id,options", SEARCH_GAMES, ids=_ids(SEARCH_GAMES))
def test_one_short_search_game_per_option_set(env_id, options):
    """MCTS with the game's default rollouts (``mcts:SIMS``: the compiled greedy where the game has
    one) against greedy, both seats searched in turn, cut after a few decisions: every move legal
    (play checks), the searcher's visits summing to its simulations."""
    game = mushgym.game(env_id, **options)
    mcts = MCTSAgent(env_id, simulations=8, seed=0)
    seats = [mcts] + [GreedyAgent(env_id, seed=1 + p) for p in range(1, game.num_players)]
    ticks = []

    def cut(tick):  # called before each step; play() checks every chosen action's legality
        ticks.append(tick.actions.copy())
        if len(ticks) > 24:
            raise _Enough

    try:
        play(game, seats, [11], on_step=cut)
    except _Enough:
        pass
    assert len(ticks) > 1
    s = game.new_state(11)
    visits, _ = mcts.searcher(game).search(s, game.current_player(s))
    assert visits.sum() == 8 and np.all(visits[~game.legal_mask(s).astype(bool)] == 0)
