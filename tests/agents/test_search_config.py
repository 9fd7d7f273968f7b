"""SearchConfig: each setting checked when made, the "auto" settings answered per game."""

import dataclasses

import pytest
from toygame.game import ToyGame

import mushgym
from mushgym.search import Searcher
from mushgym.search_config import DEFAULT_C, DEFAULT_C_PUCT, SearchConfig


@pytest.mark.parametrize(
    "settings, named",
    [
        ({"simulations": 0}, "simulations"),
        ({"simulations": True}, "simulations"),
        ({"threads": 1.5}, "threads"),
        ({"c": -1.0}, "c (the exploration constant)"),
        ({"c": float("nan")}, "c (the exploration constant)"),
        ({"rollout": "smart"}, "choices: ['auto', 'random', 'greedy']"),
        ({"value": "score"}, "choices: ['auto', 'returns', 'game']"),
        ({"widen_order": "best"}, "choices: ['auto', 'first', 'ranked']"),
        ({"widen": "some"}, "widen (progressive widening"),
        ({"horizon": -2}, "horizon (moves a playout runs"),
        ({"seed": "0"}, "seed must be an integer"),
        ({"virtual_loss": float("inf")}, "virtual_loss"),
        ({"pool_trees": 0}, "pool_trees"),
    ],
)
def test_a_bad_setting_is_refused_by_name(settings, named):
    with pytest.raises(ValueError, match="must|choices") as err:
        SearchConfig(**settings)
    assert named in str(err.value)
    with pytest.raises(ValueError) as through_searcher:  # the same message through the searcher
        Searcher(ToyGame(), **settings)
    assert str(through_searcher.value) == str(err.value)


def test_an_unknown_setting_names_the_settings():
    with pytest.raises(ValueError, match=r"unknown search setting\(s\) \['simulation'\]") as err:
        Searcher(ToyGame(), simulation=10)
    assert "'simulations'" in str(err.value) and "'widen_order'" in str(err.value)


def test_auto_is_answered_by_the_game_and_the_rest_is_kept():
    auto = SearchConfig(simulations=50, rollout="auto", value="auto", widen="auto", widen_order="auto", horizon="auto")
    toy = auto.resolve(ToyGame())  # no compiled policy, value or estimate: the game-independent choices
    assert (toy.rollout, toy.value, toy.widen, toy.widen_order, toy.horizon) == ("random", "returns", 0.0, "first", 0)
    assert toy.c == DEFAULT_C and toy.simulations == 50 and toy.pool == 50  # the pool never above the simulations
    fungi = auto.resolve(mushgym.game("fungi_v0"))
    assert fungi.rollout == "greedy"  # Fungi's compiled greedy rollouts
    assert auto.resolve(ToyGame(), has_network=True).c == DEFAULT_C_PUCT
    assert dataclasses.replace(auto, c=0.3).resolve(ToyGame(), has_network=True).c == 0.3


def test_a_setting_the_game_cannot_honour_is_refused_with_the_choice_that_works():
    with pytest.raises(ValueError, match="no compiled rollout_policy.*use rollout='random'"):
        SearchConfig(rollout="greedy").resolve(ToyGame())
    with pytest.raises(ValueError, match="no compiled search_value.*use value='returns'"):
        SearchConfig(value="game").resolve(ToyGame())
    with pytest.raises(ValueError, match="widen_order='ranked'.*needs rollout='greedy'"):
        SearchConfig(widen_order="ranked").resolve(ToyGame())
    with pytest.raises(ValueError, match="no compiled search_estimate"):
        SearchConfig(horizon=5).resolve(ToyGame())
