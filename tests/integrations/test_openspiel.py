"""The OpenSpiel adapter (mushgym.integrations.openspiel): OpenSpiel's own random-simulation
checks on every registered env and player count, hidden information through the adapter,
the state round trip, parameters, and IS-MCTS running on a game.

Needs open_spiel (the `bench` extra CI installs, or the `openspiel` extra); skipped without it.
"""

from __future__ import annotations

import numpy as np
import pytest

import mushgym

pyspiel = pytest.importorskip("pyspiel")
mos = pytest.importorskip("mushgym.integrations.openspiel")


def player_counts():
    """Every registered env with each of its player counts (generic over mushgym.list_envs())."""
    cases = []
    for env_id in mushgym.list_envs():
        cls = mushgym.registry.env_module(env_id).Game
        for n in cls.player_counts():
            cases.append((env_id, n))
    return cases


def short_game_params(env_id: str, players: int) -> dict:
    """The player count, and the shortest turn limit where the env has one (shorter random games;
    the rules checked are the same)."""
    cls = mushgym.registry.env_module(env_id).Game
    params = {"players": players} if "num_players" in cls.option_choices else {}
    limits = [c for c in cls.option_choices.get("turn_limit", ()) if isinstance(c, int)]
    if limits:
        params["turn_limit"] = min(limits)
    return params


def test_register_names_every_env():
    names = mos.register()
    assert names == [f"mushgym_{e}" for e in mushgym.list_envs()]
    assert set(names) <= set(pyspiel.registered_names())
    assert mos.register() == names  # twice is harmless


@pytest.mark.parametrize("env_id,players", player_counts())
def test_openspiel_random_simulation_checks(env_id, players):
    """pyspiel.random_sim_test: legal actions sorted and empty for the others, masks, clones
    equal to the original after the same action, tensor sizes, utilities in range, the game
    length within max_game_length, returns equal to the summed rewards. (serialize=False:
    OpenSpiel cannot serialize a Python game object of a sampled-stochastic game.)"""
    mos.register([env_id])
    game = pyspiel.load_game(mos.game_name(env_id), short_game_params(env_id, players))
    assert game.num_players() == players
    t = game.get_type()
    assert t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("env_id,players", player_counts())
def test_openspiel_random_simulation_checks_default_options(env_id, players):
    """The same checks with the env's default options (full turn limits): MUSHGYM_SLOW_SCALE=k
    runs k games per case; at CI's scale (1) the short-game form above covers every case."""
    from mushgym.testing import slow_scale

    if slow_scale() == 1:
        pytest.skip("the short-game form covers every env and player count; MUSHGYM_SLOW_SCALE>1 runs this")
    mos.register([env_id])
    game = pyspiel.load_game(mos.game_name(env_id), {"players": players})
    pyspiel.random_sim_test(game, num_sims=slow_scale(), serialize=False, verbose=False)


def _play_random(state, steps, rng):
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("env_id", mushgym.list_envs())
def test_hidden_information_stays_hidden_through_the_adapter(env_id):
    """A player's information-state and observation tensors and strings do not move when what it
    cannot see changes (the env's perturb_hidden); the others' views do move sometimes, so the
    check can fail."""
    game = mos.load_game(env_id)
    rng = np.random.default_rng(0)
    n = game.num_players()
    others_moved = 0
    for trial in range(6):
        state = _play_random(game.new_initial_state(trial), int(rng.integers(0, 40)), rng)
        if state.is_terminal():
            continue
        for p in range(n):
            twin = state.resample_from_infostate(p, lambda: rng.random())
            assert twin.history() == state.history() and twin.current_player() == state.current_player()
            assert twin.information_state_tensor(p) == state.information_state_tensor(p)
            assert twin.observation_tensor(p) == state.observation_tensor(p)
            assert twin.information_state_string(p) == state.information_state_string(p)
            assert twin.observation_string(p) == state.observation_string(p)
            for q in range(n):
                if q != p and twin.observation_tensor(q) != state.observation_tensor(q):
                    others_moved += 1
    if not env_id.startswith("mycology_"):  # in Mycology only the deck order is hidden, from everyone
        assert others_moved > 0, "perturbing one player's unknowns never changed another's view"


def test_information_state_string_has_perfect_recall():
    """The information-state string is what the player has seen so far: a clone has the same,
    and every step the player can see adds to it."""
    game = mos.load_game("fungi_v0")
    rng = np.random.default_rng(3)
    s = _play_random(game.new_initial_state(5), 12, rng)
    c = s.clone()
    assert c.information_state_string(0) == s.information_state_string(0)
    before = s.information_state_string(0)
    a = s.legal_actions()[0]
    s.apply_action(a)
    assert s.information_state_string(0) != before  # every step adds to what player 0 saw


def test_clone_is_independent_and_replays_identically():
    game = mos.load_game("mycology_v1", players=3)
    rng = np.random.default_rng(1)
    s = _play_random(game.new_initial_state(7), 30, rng)
    c = s.clone()
    assert str(c) == str(s) and c.history() == s.history()
    a = c.legal_actions()[0]
    c.apply_action(a)
    assert len(c.history()) == len(s.history()) + 1
    s2 = s.child(a)
    assert str(s2) == str(c)


def test_state_serialization_round_trip():
    game = mos.load_game("fungi_v0")
    rng = np.random.default_rng(2)
    s = _play_random(game.new_initial_state(11), 25, rng)
    back = game.deserialize_state(s.serialize())
    assert str(back) == str(s) and back.history() == s.history()
    assert back.legal_actions() == s.legal_actions()
    assert back.information_state_tensor(1) == s.information_state_tensor(1)


def test_seeds_and_game_parameters():
    game = mos.load_game("mycology_v1", players=4, reward="score", seed=7, encoder="flat")
    assert game.num_players() == 4
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM  # scores do not sum to 0
    a, b = game.new_initial_state(), game.new_initial_state()
    assert str(a) == str(game.new_initial_state(7)) and str(b) == str(game.new_initial_state(8))
    assert str(a) != str(b)
    flat = np.array(a.observation_tensor(0))
    assert np.array_equal(flat, game.mushgym_game.observe(a.array, 0))  # the "flat" encoder
    scaled = np.array(mos.load_game("mycology_v1", players=4).new_initial_state(7).observation_tensor(0))
    assert scaled.min() >= 0.0 and scaled.max() <= 1.0
    assert pyspiel.load_game("mushgym_mycology_v1").get_type().utility == pyspiel.GameType.Utility.ZERO_SUM


def test_parameters_with_mixed_choices_are_strings():
    spec = mos.parameter_specification("mycelia_v1")
    assert spec["automata"] == "None" and spec["players"] == 2
    game = mos.load_game("mycelia_v1", players=1, automata="True")
    assert game.mushgym_game.options["automata"] is True


@pytest.mark.parametrize(
    "params,match",
    [
        ({"colour": "red"}, r"unknown parameter\(s\) \['colour'\]; valid parameters are"),
        ({"players": 9}, r"invalid player count: 9; valid choices are \[2, 3, 4, 5, 6\]"),
        ({"encoder": "pixels"}, r"unknown encoder 'pixels'; choose from \['flat', 'onehot', 'scaled'\]"),
    ],
)
def test_bad_parameters_get_clear_errors(params, match):
    with pytest.raises(ValueError, match=match):
        mos.game_class("mycology_v1")(params)


def test_is_mcts_runs_on_an_imperfect_information_game():
    """OpenSpiel's IS-MCTS bot, with our resampling, plays legal moves in a Fungi game."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = mos.load_game("fungi_v0")
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=20, random_state=rng)
    state = game.new_initial_state(3)
    for _ in range(6):
        if state.is_terminal():
            break
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_outcome_sampling_mccfr_runs():
    """OpenSpiel's outcome-sampling MCCFR keys its regrets by our information-state strings."""
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = mos.load_game("fungi_v0")
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(2):
        solver.iteration()
    state = game.new_initial_state(1)
    probs = solver.average_policy().action_probabilities(state)
    assert set(probs) == set(state.legal_actions()) and abs(sum(probs.values()) - 1) < 1e-9
