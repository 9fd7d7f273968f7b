"""Ranked progressive widening (``Searcher(widen_order="ranked")``, Mycelium's default): each
new child of a widened node is the rollout policy's choice among the moves not yet in the tree."""

from __future__ import annotations

import numpy as np
import pytest

import mushgym
from mushgym import testing
from mushgym.agents import MCTSAgent
from mushgym.core.rng import rng_seed
from mushgym.search import Searcher, find_kernel


@pytest.mark.parametrize("env_id", ["mycology_v1", "mycelia_v1", "mycelium_v2"])
def test_the_rollout_policy_keeps_to_a_narrowed_mask(env_id):
    """What ranked widening relies on: with its own move (and then its next) taken out of the
    mask, the game's rollout policy picks among the moves left, never one taken out."""
    game = mushgym.game(env_id, **({"num_players": 4} if env_id != "mycelia_v1" else {}))
    policy = find_kernel(game.kernels, "rollout_policy")
    work = np.zeros(max(1, game.work_size), np.int64)
    rng = np.zeros(4, np.int64)
    rng_seed(rng, 0, 11)
    checked = 0
    for s in testing.random_states(game, n_games=2, seed=8, every=5):
        mask = game.legal_mask(s)
        taken = []
        while np.count_nonzero(mask) > 1 and len(taken) < 3:
            a = int(policy(s, game.config, mask, int(np.count_nonzero(mask)), work, rng))
            assert mask[a] and a not in taken, f"{env_id}: the policy left the narrowed mask ({a}, taken {taken})"
            taken.append(a)
            mask[a] = 0
            checked += 1
    assert checked > 40


def test_auto_takes_the_games_order_with_its_rollouts_only():
    mycelium = mushgym.game("mycelium_v2")
    assert find_kernel(mycelium.kernels, "SEARCH_WIDEN_ORDER") == "ranked"
    assert MCTSAgent("mycelium_v2", simulations=4).searcher(mycelium).config.widen_order == "ranked"
    assert MCTSAgent("mycelium_v2", simulations=4, rollout="random").searcher(mycelium).config.widen_order == "first"
    assert MCTSAgent("mycelium_v2", simulations=4, widen_order="first").searcher(mycelium).config.widen_order == "first"
    assert Searcher(mycelium, simulations=4, rollout="greedy").config.widen_order == "first"  # Searcher's own default
    fungi = mushgym.game("fungi_v0")
    assert MCTSAgent("fungi_v0", simulations=4).searcher(fungi).config.widen_order == "first"


@pytest.mark.parametrize("bad", ["best", 1, None, ["ranked"]])
def test_a_bad_widen_order_is_refused_with_the_choices(bad):
    with pytest.raises(ValueError, match=r"widen_order .*choices: \['auto', 'first', 'ranked'\]"):
        Searcher(mushgym.game("mycelium_v2"), simulations=4, rollout="greedy", widen_order=bad)


def test_ranked_needs_the_games_rollout_policy():
    with pytest.raises(ValueError, match="needs rollout='greedy'"):
        Searcher(mushgym.game("mycelium_v2"), simulations=4, rollout="random", widen=0.25, widen_order="ranked")


def _root_children(game, state, order, seeds, sims=40):
    """The actions of the root's children (visited at least once), per search seed."""
    player = game.current_player(state)
    found = []
    for seed in seeds:
        searcher = Searcher(game, simulations=sims, rollout="greedy", widen=0.25, widen_order=order, seed=seed)
        visits, _ = searcher.search(state, player)
        found.append(set(np.flatnonzero(visits).tolist()))
    return found


def test_ranked_children_follow_the_heuristic_not_chance():
    """At 40 simulations a widened root holds 2 children. Ranked, the second is greedy's next
    choice: over 12 seeds the root's children are a few of greedy's top moves. In the 'first'
    order the second child is drawn uniformly from the other legal moves (about ten in most
    Mycelium decisions), so it differs from seed to seed."""
    game = mushgym.game("mycelium_v2", num_players=4)
    R = game.kernels  # the turn players' Action Phase menus (a payment's equal cards tie in any order)
    states = [
        s
        for s in testing.random_states(game, n_games=3, seed=6, every=9)
        if np.count_nonzero(game.legal_mask(s)) >= 8 and int(R.STATE.arrays(s)["decisions_n"]) == 0
    ]
    assert len(states) >= 6
    seeds = range(12)
    ranked_spread = first_spread = 0
    for s in states[:: max(1, len(states) // 6)][:6]:
        ranked = _root_children(game, s, "ranked", seeds)
        first = _root_children(game, s, "first", seeds)
        assert all(len(c) == 2 for c in ranked + first)
        ranked_spread += len(set().union(*ranked))
        first_spread += len(set().union(*first))
    assert ranked_spread < first_spread / 2, (ranked_spread, first_spread)


def test_ranked_changes_nothing_without_widening():
    """widen=0 expands uniformly in both orders: the same seed gives the same search."""
    game = mushgym.game("mycelium_v2")
    s = testing.random_states(game, n_games=1, seed=4, every=30)[1]
    p = game.current_player(s)
    runs = [
        Searcher(game, simulations=30, rollout="greedy", widen=0.0, widen_order=order, seed=3).search(s, p)
        for order in ("first", "ranked")
    ]
    assert np.array_equal(runs[0][0], runs[1][0]) and np.allclose(runs[0][1], runs[1][1])
