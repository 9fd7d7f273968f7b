"""mycology_v1's two observations: "compact" (the default) and "full" (the retired mycology_v0's).

The shared harness runs both (``observation`` is an option: its API, hidden information,
invariants, determinism and golden files); here: the compact observation gives back the full
one exactly on random games (so it holds the same information and nothing hidden more), both
play the same game step for step, the vector API writes the compact one as uint8 and moves at
least 3x fewer bytes per env step than int64 states with float32 observations, the bounds are
enforced, and the retired id names the current one.
"""

from __future__ import annotations

import ci_scope
import numpy as np
import pytest

import mushgym
import mushgym.vector as mv
from mushgym import testing
from mushgym.envs.mycology import observation as obs0
from mushgym.envs.mycology.layout import CAPACITY
from mushgym.registry import package_env_ids


def _features(g0, card: int) -> np.ndarray:
    out = np.zeros(obs0.CF, np.float32)
    kernel = getattr(obs0.card_features, "py_func", obs0.card_features)
    kernel(g0.config, card, out, 0)
    return out


def v0_from_v1(g0, g1, o1: np.ndarray) -> np.ndarray:
    """mycology_v0's observation rebuilt from mycology_v1's (and the card data)."""
    n = g0.num_players
    a = g1.observation_layout().arrays(np.asarray(o1, np.int64))
    out = np.zeros(g0.observation_shape, np.float32)
    b = g0.observation_layout().arrays(out)
    b["season"][int(a["season"])] = 1
    if a["phase"] > 0:
        b["phase"][int(a["phase"]) - 1] = 1
    b["actions_left"][int(a["actions_left"])] = 1
    b["roll"][int(a["roll"]) - 2] = 1
    b["to_act"][int(a["to_act"])] = 1
    turn = int(a["round"]) * n + int(a["turn_in_round"])
    b["turn"][...] = turn / float(g0.max_turns)
    b["deck_size"][...] = int(a["deck_size"]) / 84.0
    if a["pay_type"] > 0:
        b["pay_type"][int(a["pay_type"]) - 1] = 1
        b["pay_key"][...] = int(a["pay_key"]) / 10.0
    b["owed"][:] = a["owed"]
    b["owed_any"][...] = a["owed_any"]
    b["owed_feast"][...] = a["owed_feast"]
    if a["pending_action"] > 0:
        b["pending_action"][int(a["pending_action"]) - 1] = 1
        b["pending_arg"][int(a["pending_arg"]) - 1] = 1
    if a["exchange_give"] > 0:
        b["exchange_give"][int(a["exchange_give"]) - 1] = 1
    for j, c in enumerate(a["under_deck"]):
        if c > 0:
            b["under_deck"][j] = _features(g0, int(c) - 1)
    for j, c in enumerate(a["field"]):
        if c > 0:
            b["field"][j, 0] = 1
            b["field"][j, 1:] = _features(g0, int(c) - 1)
    for k in range(n):
        s = f"seat{k}_"
        tokens = {}
        for name in ("resources", "feast", "magic", "poison"):
            tokens[name] = a[s + name] + 256 * a[s + name + "_256"]
            b[s + name][...] = tokens[name]
        b[s + "score"][...] = a[s + "card_points"] + tokens["feast"] + tokens["magic"] - 2 * tokens["poison"]
        b[s + "basket_fill"][:] = a[s + "basket_count"] / CAPACITY.astype(np.float64)
        b[s + "stinkhorn"][...] = a[s + "stinkhorn"]
        b[s + "first_player"][...] = a[s + "first_player"]
        points = 0
        for place, c in enumerate(a[s + "baskets"]):
            if c > 0:
                b[s + "baskets"][place, 0] = 1
                b[s + "baskets"][place, 1:] = _features(g0, int(c) - 1)
                points += int(g0.deck.points[int(c) - 1])
        assert points == a[s + "card_points"], "card_points is not the points of the cards shown in the baskets"
    b["deck_cards"][:] = a["deck_cards"]
    return out


@pytest.mark.parametrize("options", [{}, {"num_players": 4, "poison_rule": "dice_only"}], ids=testing.options_id)
def test_compact_observation_gives_back_the_full_one_on_random_games(options):
    g0, g1 = mushgym.game("mycology_v1", observation="full", **options), mushgym.game("mycology_v1", **options)
    checked = 0
    for state in testing.random_states(g0, n_games=2, seed=5, every=3):
        s1 = g1.stamp_header(state.copy())
        for p in range(g0.num_players):
            o1 = g1.observe(s1, p)
            assert o1.dtype == np.float32 and (o1 == np.round(o1)).all()
            assert ((o1 >= 0) & (o1 <= 255)).all()
            np.testing.assert_array_equal(v0_from_v1(g0, g1, o1), g0.observe(state, p))
            checked += 1
    assert checked > 150


def test_both_observations_play_the_same_game_step_for_step():
    g0 = mushgym.game("mycology_v1", num_players=3, observation="full")
    g1 = mushgym.game("mycology_v1", num_players=3)
    body = g0.state_size - 4
    for seed in (1, 2):
        t0 = list(testing.random_trajectory(g0, seed, check=False))
        t1 = list(testing.random_trajectory(g1, seed, check=False))
        assert [a for _, a in t0] == [a for _, a in t1]
        for (s0, _), (s1, _) in zip(t0, t1):
            np.testing.assert_array_equal(s0[:body], s1[:body])
        assert s1[body:].tolist() != s0[body:].tolist()  # the header names the options
        np.testing.assert_array_equal(g0.returns(t0[-1][0]), g1.returns(t1[-1][0]))
    with pytest.raises(ValueError, match=r"dealt with options \{'observation': 'full'\}"):
        g1.observe(g0.new_state(0), 0)


def test_golden_playthroughs_of_the_two_observations_differ_only_in_the_observation():
    """The golden files of the two observations (default options otherwise) differ only in the
    options and the observation lines: the same states, legal actions, actions and returns."""

    def strip(text):
        return [ln for ln in text.splitlines() if not ln.startswith(("options:", "observation[", "observation_shape"))]

    full = testing.golden_path("mycology_v1", {"observation": "full"}).read_text()
    compact = testing.golden_path("mycology_v1", {}).read_text()
    assert full != compact and strip(full) == strip(compact)


@ci_scope.vector_test("mycology_v1")
def test_v1_vector_writes_uint8_equal_to_the_functional_observation():
    g1 = mushgym.game("mycology_v1")
    vec = mv.from_game(g1, 4, seed=2)
    obs, masks, player = vec.reset()
    assert obs.dtype == np.uint8 and vec.obs_dtype == np.uint8
    for _ in range(120):
        for i in range(4):
            if player[i] >= 0:
                np.testing.assert_array_equal(obs[i].astype(np.float32), g1.observe(vec.state(i), int(player[i])))
        obs, _, _, _, masks, player, _ = vec.step(vec.sample_random_actions())


def test_v1_moves_at_least_3x_fewer_bytes_than_wide_storage():
    from mushgym.bench.rows import vector_bytes

    before = sum(vector_bytes(mushgym.game("mycology_v1", observation="full"))["int64 state, float32 obs"].values())
    v1 = vector_bytes(mushgym.game("mycology_v1"))["default"]
    assert before / sum(v1.values()) >= 3.0, (before, v1)
    assert v1["obs"] == mushgym.game("mycology_v1").observation_shape[0]  # one byte a value


def test_v1_bounds_fit_a_byte_and_are_enforced():
    for options in ({}, {"num_players": 6, "turn_limit": 480}, {"num_players": 2, "turn_limit": 480}):
        g1 = mushgym.game("mycology_v1", **options)
        assert g1.obs_low.min() >= 0 and g1.obs_high.max() <= 255
        assert mv.exact_obs_dtypes(g1)[0] == np.uint8
    g1 = mushgym.game("mycology_v1")
    state = g1.new_state(3)
    arrays = g1.arrays(state)
    arrays["poison"][0] = g1.poison_bound() + 1
    arrays["score"][0] -= 2 * int(arrays["poison"][0])  # the score still adds up: only the bound is broken
    with pytest.raises(ValueError, match="more Poison tokens than the game can give"):
        g1.validate(state)
    arrays["poison"][0] -= 1
    arrays["score"][0] += 2
    g1.validate(state)
    o = g1.observe(state, 0)
    lay = g1.observation_layout().arrays(o)
    assert lay["seat0_poison"] + 256 * lay["seat0_poison_256"] == g1.poison_bound()


def test_v1_encoders_expand_ids_and_scale_by_bounds():
    from mushgym.wrappers.encoders import make_encoder

    g1 = mushgym.game("mycology_v1")
    o = g1.observe(g1.new_state(0), 0)
    scaled = make_encoder("scaled", g1)(o)
    assert scaled.min() >= 0 and scaled.max() <= 1 and scaled.shape == o.shape
    onehot = make_encoder("onehot", g1)
    x = onehot(o)
    assert onehot.size > o.size and set(np.unique(x)) <= {0.0, 1.0} | set(np.unique(scaled))
    f = g1.observation_layout().fields
    assert onehot.onehot[f["season"].offset] and onehot.onehot[f["field"].offset]  # ids -> one-hot blocks
    assert onehot.onehot[f["seat1_baskets"].offset + 9] and onehot.onehot[f["to_act"].offset]
    assert not onehot.onehot[f["seat0_resources"].offset]  # counts up to 255: scaled
    assert not onehot.onehot[f["deck_size"].offset] and not g1.obs_categorical[f["round"].offset]
    place = f["field"].offset
    block = onehot._offsets[np.searchsorted(onehot._oh_idx, place)]
    assert x[block + int(o[place])] == 1 and x[block : block + 85].sum() == 1  # card id c -> entry c of 85


def test_registry_reads_several_versions_of_a_package():
    class Pkg:
        ENV_IDS = {"thing_v0": "env", "thing_v1": "env_v1"}

    assert package_env_ids(Pkg) == {"thing_v0": "env", "thing_v1": "env_v1"}

    class Both(Pkg):
        ENV_ID = "thing_v0"

    class Bad:
        ENV_IDS = {"Thing-1": "env"}

    class One:
        ENV_ID = "thing_v0"
        ENV_MODULE = "game"

    with pytest.raises(ValueError, match="not both"):
        package_env_ids(Both)
    with pytest.raises(ValueError, match="must look like 'name_v0'"):
        package_env_ids(Bad)
    assert package_env_ids(One) == {"thing_v0": "game"} and package_env_ids(object) == {}
    import mushgym.envs.mycology_v1 as again
    from mushgym.envs import mycology_v1

    assert again is mycology_v1 and mycology_v1.Game.env_id == "mycology_v1"
    assert "v0 (retired" in mycology_v1.__doc__.split("### Version history")[1]


def test_a_retired_id_names_the_current_one_everywhere():
    """PettingZoo's convention: only the newest version is importable; the old id's error names
    the new one and the options that play as it did (``RETIRED_IDS`` in the game package)."""
    from mushgym.registry import RetiredEnvError, package_retired_ids, retired_envs

    assert retired_envs()["mycology_v0"] == ("mycology_v1", {"observation": "full"})
    assert "mycology_v0" not in mushgym.list_envs() and "mycology_v1" in mushgym.list_envs()
    expected = r"mycology_v0 is retired: use mycology_v1 instead \(mushgym.make\('mycology_v1', observation='full'\)\)"
    for call in (
        lambda: mushgym.make("mycology_v0"),
        lambda: mushgym.game("mycology_v0"),
        lambda: mushgym.make_raw("mycology_v0", num_players=3),
        lambda: mushgym.registry.game_package("mycology_v0"),
    ):
        with pytest.raises(RetiredEnvError, match=expected):
            call()
    from mushgym.envs import mycology_v0  # importable, as PettingZoo's deprecated modules are

    for constructor in (mycology_v0.env, mycology_v0.raw_env, mycology_v0.Game):
        with pytest.raises(ImportError, match=expected):
            constructor()
    with pytest.raises(ValueError, match=expected):  # a ValueError too, like any unknown id
        import mushgym.envs.mycology_v0 as _  # noqa: F401
    with pytest.raises(ValueError, match="unknown env id 'mycology_v9'"):
        mushgym.make("mycology_v9")

    class Bad:
        RETIRED_IDS = {"thing_v0": "thing"}

    class Good:
        RETIRED_IDS = {"thing_v0": "thing_v2", "thing_v1": ("thing_v2", {"observation": "full"})}

    with pytest.raises(ValueError, match="RETIRED_IDS entries must be"):
        package_retired_ids(Bad)
    assert package_retired_ids(Good) == {
        "thing_v0": ("thing_v2", {}),
        "thing_v1": ("thing_v2", {"observation": "full"}),
    }
