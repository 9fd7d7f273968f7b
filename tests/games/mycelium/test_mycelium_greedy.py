"""Mycelium's greedy baseline (envs/mycelium/greedy.py): one compiled scoring serves
``GreedyAgent`` (through ``heuristic``) and the rollout policy (``greedy_move``). The scores read
only what the seat to act may see, each game only its own board, and bad calls are refused."""

from __future__ import annotations

import numpy as np
import pytest

import mushgym
from mushgym import testing
from mushgym.agents import GreedyAgent
from mushgym.core import rng_seed
from mushgym.envs.mycelium.greedy import heuristic
from mushgym.registry import env_module
from mushgym.search import find_kernel

OPTION_SETS = [
    {"num_players": 3},
    {"num_players": 2, "emsporium": True},
    {"num_players": 4, "team": True, "emsporium": True, "hero_tavern": True, "legends": True},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=[testing.options_id(o) for o in OPTION_SETS])
def test_greedy_scores_ignore_what_the_player_cannot_see(options):
    """Redrawing the hidden cards (other hands, the decks' order, a face-down combat card, unseen
    nutrient cards) leaves every score as it was."""
    game = mushgym.game("mycelium_v2", **options)
    agent = GreedyAgent(game.env_id, seed=0)
    rng = np.random.default_rng(2)
    changed = 0
    for s in testing.random_states(game, n_games=2, seed=4, every=5):
        p = game.current_player(s)
        base = agent.scores(game, s, p)
        other = game.perturb_hidden(s, p, rng)
        changed += not np.array_equal(other, s)
        np.testing.assert_array_equal(agent.scores(game, other, p), base, err_msg=game.state_to_string(s))
    assert changed > 20


def test_the_rollout_policy_plays_a_best_greedy_score():
    """``greedy_move`` (the rollout policy's greedy) picks an action of the highest score that
    ``heuristic`` gives, its ties at random: both read the one compiled scoring."""
    game = mushgym.game("mycelium_v2", **OPTION_SETS[2])
    move = find_kernel(game.kernels, "greedy_move")
    work = np.zeros(max(1, game.work_size), np.int64)
    rng = np.zeros(4, np.int64)
    rng_seed(rng, 0, 1)
    ties = 0
    for s in testing.random_states(game, n_games=2, seed=5, every=2):
        mask = game.legal_mask(s)
        scores = heuristic(game, s, game.current_player(s), None, mask)
        assert np.all(np.isneginf(scores[mask == 0])) and np.all(np.isfinite(scores[mask != 0]))
        best = np.flatnonzero(scores >= scores.max() - 1e-9)
        ties += best.size > 1
        assert int(move(s, game.config, mask, int(mask.sum()), work, rng)) in best
    assert ties > 5


def test_each_game_scores_on_its_own_board():
    """Games of other player counts (other boards) scored in between change nothing."""
    games = {n: mushgym.game("mycelium_v2", num_players=n) for n in (2, 3, 4)}
    first = {}
    for n in (3, 4, 2, 3, 4, 2):
        game = games[n]
        s = game.new_state(0)
        scores = heuristic(game, s, game.current_player(s), None, game.legal_mask(s))
        assert np.isneginf(scores[np.flatnonzero(game.legal_mask(s) == 0)]).all()
        np.testing.assert_array_equal(first.setdefault(n, scores), scores)
    fresh = mushgym.game("mycelium_v2", num_players=3)
    s = fresh.new_state(0)
    np.testing.assert_array_equal(heuristic(fresh, s, fresh.current_player(s), None, fresh.legal_mask(s)), first[3])


def test_greedy_refuses_a_player_not_to_act_and_a_bad_mask():
    game = env_module("mycelium_v2").Game()
    s = game.new_state(0)
    p = game.current_player(s)
    mask = game.legal_mask(s)
    with pytest.raises(ValueError, match="scores the player to act"):
        heuristic(game, s, (p + 1) % game.num_players, None, mask)
    with pytest.raises(ValueError, match="action mask of"):
        heuristic(game, s, p, None, mask[:-1])
    broken = s.copy()
    broken[0] = -99
    with pytest.raises(ValueError):
        heuristic(game, broken, p, None, mask)


def test_greedy_explains_its_move_by_the_scores():
    """A replay's reasons: the candidates by score, the chosen move one of the best."""
    game = mushgym.game("mycelium_v2")
    agent = GreedyAgent(game.env_id, seed=3)
    for s in testing.random_states(game, n_games=1, seed=6, every=25):
        p = game.current_player(s)
        why = agent.explain(game, s, p)
        scores = heuristic(game, s, p, None, game.legal_mask(s))
        assert why["weight_kind"] == "score" and why["candidates"]
        assert scores[why["action"]] >= scores.max() - 1e-9
        for a, w in why["candidates"]:
            assert w == pytest.approx(scores[a])
