"""The playout horizon of MCTS (``Searcher(horizon=...)``, ``mcts:SIMS`` with ``horizon``) and
Mycelium's ``search_estimate``, the value of a playout cut ``horizon`` moves past the tree."""

from __future__ import annotations

import numpy as np
import pytest

import mushgym
from mushgym import testing
from mushgym.agents import MCTSAgent
from mushgym.search import Searcher, find_kernel

MYCELIUM_OPTIONS = [{}, {"num_players": 3}, {"num_players": 2}, {"team": True}]


def _estimates(game, states):
    estimate = find_kernel(game.kernels, "search_estimate")
    work = np.zeros(max(1, game.work_size), np.int64)
    out = np.zeros(game.num_players, np.float64)
    rows = []
    for s in states:
        estimate(s, game.config, work, out)
        rows.append(out.copy())
    return np.array(rows)


@pytest.mark.parametrize("options", MYCELIUM_OPTIONS, ids=[testing.options_id(o) for o in MYCELIUM_OPTIONS])
def test_mycelium_estimate_is_a_share_of_the_win_per_agent(options):
    """On random states of every seat count and the Team game: each agent's value in [0, 1], the
    values of the rivals summing to 1 (one winner; under the Team rules, and in the 2-player game
    which plays them, the partners sharing one value), and the state is not changed."""
    game = mushgym.game("mycelium_v2", **options)
    states = testing.random_states(game, n_games=2, seed=5, every=7)
    before = [s.copy() for s in states]
    values = _estimates(game, states)
    assert len(states) > 20
    assert np.all((values >= 0) & (values <= 1))
    assert all(np.array_equal(a, b) for a, b in zip(states, before))
    n = game.num_players
    if options.get("team") or n == 2:
        assert np.allclose(values[:, 0] + values[:, 1], 1.0)
        if n == 4:
            assert np.allclose(values[:, 0], values[:, 2]) and np.allclose(values[:, 1], values[:, 3])
    else:
        assert np.allclose(values.sum(axis=1), 1.0)
    assert values.std() > 0.01, "the estimate never moves off its start"


def test_mycelium_estimate_grows_with_a_colonys_nutrients():
    """More Nutrients on a colony's mat: a larger share for that colony, a smaller one for the others."""
    from envs.mycelium.rules import mat_nut_at

    game = mushgym.game("mycelium_v2")
    for s in testing.random_states(game, n_games=1, seed=2, every=40):
        richer = s.copy()
        richer[mat_nut_at(1)] += 3
        low, high = _estimates(game, [s, richer])
        assert high[1] > low[1]
        assert all(high[p] < low[p] for p in (0, 2, 3))


def test_horizon_auto_is_the_games_with_its_rollouts_only(monkeypatch):
    """Mycelium's tuned horizon is 0 (full playouts won more); a game's SEARCH_HORIZON of 40 is
    what "auto" takes with the game's rollouts, and 0 with random ones."""
    from mushgym.search import _package_module

    mycelium = mushgym.game("mycelium_v2")
    assert find_kernel(mycelium.kernels, "SEARCH_HORIZON") == 0
    assert MCTSAgent("mycelium_v2", simulations=4).searcher(mycelium).config.horizon == 0
    monkeypatch.setattr(_package_module(mycelium.kernels, "search"), "SEARCH_HORIZON", 40)
    tuned = int(find_kernel(mycelium.kernels, "SEARCH_HORIZON"))
    assert tuned == 40
    assert Searcher(mycelium, simulations=4, rollout="greedy", horizon="auto").config.horizon == tuned
    assert Searcher(mycelium, simulations=4, rollout="random", horizon="auto").config.horizon == 0
    assert MCTSAgent("mycelium_v2", simulations=4).searcher(mycelium).config.horizon == tuned
    assert MCTSAgent("mycelium_v2", simulations=4, horizon=0).searcher(mycelium).config.horizon == 0
    fungi = mushgym.game("fungi_v0")
    assert Searcher(fungi, simulations=4, rollout="greedy", horizon="auto").config.horizon == 0


@pytest.mark.parametrize("bad", [-1, 2.5, "far", True, None])
def test_a_bad_horizon_is_refused_with_the_valid_choices(bad):
    with pytest.raises(ValueError, match="horizon .*integer >= 0 or 'auto'"):
        Searcher(mushgym.game("mycelium_v2"), simulations=4, horizon=bad)


def test_a_horizon_needs_the_games_estimate():
    with pytest.raises(ValueError, match="fungi_v0 provides no compiled search_estimate.*horizon=0"):
        Searcher(mushgym.game("fungi_v0"), simulations=4, horizon=10)


def test_the_horizon_cuts_the_playouts_and_nothing_else():
    """Same seed, same search: a horizon past every game's length searches exactly as horizon=0
    (the cut is the only change); a short horizon gives other values; each is reproducible."""
    game = mushgym.game("mycelium_v2")
    s = testing.random_states(game, n_games=1, seed=4, every=30)[1]
    p = game.current_player(s)

    def run(horizon):
        searcher = Searcher(game, simulations=24, rollout="greedy", widen=0.25, horizon=horizon, seed=9)
        visits, values = searcher.search(s, p)
        return visits.copy(), values.copy()

    full, never_cut, short, short_again = run(0), run(10**6), run(3), run(3)
    assert np.array_equal(full[0], never_cut[0]) and np.allclose(full[1], never_cut[1])
    assert np.array_equal(short[0], short_again[0]) and np.allclose(short[1], short_again[1])
    assert short[0].sum() == 24
    assert not np.allclose(short[1], full[1])
