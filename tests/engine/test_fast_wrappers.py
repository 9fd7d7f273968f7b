"""mushgym.fast_wrappers: one flat layer that behaves like PettingZoo's three standard wrappers."""

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

import mushgym
from mushgym.fast_wrappers import MushroomEnforcingWrapper, wrap

ENV_IDS = mushgym.list_envs()


def _module(env_id):
    return mushgym.registry.env_module(env_id)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_pettingzoo_api(env_id):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(wrap(_module(env_id).raw_env()), num_cycles=200)


def _trace(env, seed, illegal_at):
    """Random legal play (the env's own seeded spaces), one illegal move at step ``illegal_at``."""
    out = []
    env.reset(seed=seed)
    for a in env.possible_agents:
        env.action_space(a).seed(seed)
    k = 0
    for agent in env.agent_iter(max_iter=400):
        obs, rew, term, trunc, info = env.last()
        out.append(
            (agent, float(rew), bool(term), bool(trunc), obs["action_mask"].tobytes(), obs["observation"].tobytes())
        )
        if term or trunc:
            action = None
        elif k == illegal_at:
            action = int(np.flatnonzero(obs["action_mask"] == 0)[0])
        else:
            action = env.action_space(agent).sample(obs["action_mask"])
        k += 1
        env.step(action)
    out.append(dict(env.rewards) if env.agents else None)
    return out


@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize("illegal_at", [-1, 0, 7])
def test_same_behaviour_as_standard_wrappers(env_id, illegal_at):
    mod = _module(env_id)
    with warnings.catch_warnings(record=True) as w_std:
        warnings.simplefilter("always")
        std = _trace(mod.env(), 5, illegal_at)
    with warnings.catch_warnings(record=True) as w_fast:
        warnings.simplefilter("always")
        fast = _trace(wrap(mod.raw_env()), 5, illegal_at)
    assert std == fast
    assert [str(x.message) for x in w_std] == [str(x.message) for x in w_fast]


def test_illegal_move_loses():
    env = wrap(_module("fungi_v0").raw_env())
    env.reset(seed=1)
    agent = env.agent_selection
    obs, *_ = env.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(bad)
    assert all(env.terminations.values()) and all(env.truncations.values())
    assert env.rewards[agent] == -1.0
    assert env._cumulative_rewards[agent] == -1.0


def test_bounds_and_order():
    env = wrap(_module("fungi_v0").raw_env())
    assert isinstance(env, OrderEnforcingWrapper) and isinstance(env, MushroomEnforcingWrapper)
    with pytest.raises(AttributeError):
        env.agent_selection
    with pytest.raises(AttributeError):
        env.rewards
    with pytest.raises(Exception):
        env.step(0)
    with pytest.raises(Exception):
        env.observe("player_0")
    env.reset(seed=0)
    n = env.action_space(env.agent_selection).n
    for bad in (n, -1, None, 1.5, "a"):
        with pytest.raises(AssertionError, match="action is not in action space"):
            env.step(bad)
    assert env.unwrapped is env.env
    assert env.num_agents == 2
