"""The shared harness: every registered env (and every option set) must pass all of this.

A game is covered the moment its folder appears under ``envs/`` (``mushgym.registry``). The toy
game in ``tests/toygame`` runs through the same checks, and a deliberately
leaky variant of it proves the hidden-information check can fail.
"""

from __future__ import annotations

import copy
import importlib
import os
import pickle
import subprocess
import sys
import warnings

import ci_scope
import numpy as np
import pytest
from paths import REPO_ROOT, TESTS_DIR  # noqa: E402,F401
from pettingzoo.test import api_test, render_test, seed_test

import mushgym
from mushgym import testing
from mushgym.registry import env_module, env_modules

TOY_MODULE = "toygame.game"

CASES = [(env_modules()[e], opts) for e in mushgym.list_envs() for opts in testing.option_sets(env_module(e).Game)] + [
    (TOY_MODULE, {})
]
IDS = [f"{importlib.import_module(m).Game.env_id}[{testing.options_id(o)}]" for m, o in CASES]
REGISTERED = [(m, o) for m, o in CASES if m != TOY_MODULE]
REGISTERED_IDS = [i for (m, _), i in zip(CASES, IDS) if m != TOY_MODULE]
SCALE = testing.slow_scale()


def load(module_name):
    return importlib.import_module(module_name)


# Every option set runs the property checks (random play with invariants, hidden information,
# rollouts, golden files). The API-shaped checks run on each game's defaults and player counts;
# MUSHGYM_HARNESS=full runs them on every option set too (CI's 20-minute budget on 2 cores
# does not fit all of them for four games).
FULL = os.environ.get("MUSHGYM_HARNESS", "") == "full"
API_CASES = [(c, i) for c, i in zip(CASES, IDS) if FULL or set(c[1]) <= {"num_players"}]


@pytest.fixture(params=[c for c, _ in API_CASES], ids=[i for _, i in API_CASES])
def api_case(request):
    module_name, options = request.param
    return load(module_name), options


@pytest.fixture(params=CASES, ids=IDS)
def case(request):
    module_name, options = request.param
    return load(module_name), options


def test_pettingzoo_api_raw_and_wrapped(api_case):
    module, options = api_case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(module.raw_env(**options), num_cycles=200)
        api_test(module.env(**options), num_cycles=200)


def test_pettingzoo_seed_and_render(api_case):
    module, options = api_case
    seed_test(lambda render_mode=None: module.env(render_mode=render_mode, **options), num_cycles=200)
    render_test(lambda render_mode=None: module.env(render_mode=render_mode, **options))


def test_spaces_and_metadata(api_case):
    module, options = api_case
    env = module.raw_env(**options)
    game = env.game
    assert env.metadata["name"] == game.env_id
    assert {"ansi", "human"} <= set(env.metadata["render_modes"])
    assert "is_parallelizable" in env.metadata
    env.reset(seed=3)
    for agent in env.possible_agents:
        assert env.observation_space(agent) is env.observation_space(agent)
        assert env.action_space(agent) is env.action_space(agent)
        assert env.action_space(agent).n == game.num_actions
        assert env.observation_space(agent)["observation"].shape == tuple(game.observation_shape)
        assert env.observation_space(agent)["action_mask"].dtype == np.int8
    assert env.state().shape == (game.state_size,)
    assert env.state_space.contains(env.state())


def _play_some(env, n, rng):
    for _ in range(n):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            return False
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(legal.size)]))
    return True


def _continue_identically(a, b, rng_seed, steps=400):
    ra, rb = np.random.default_rng(rng_seed), np.random.default_rng(rng_seed)
    for _ in range(steps):
        assert a.agent_selection == b.agent_selection
        oa, rwa, ta, tra, _ = a.last()
        ob, rwb, tb, trb, _ = b.last()
        np.testing.assert_array_equal(oa["observation"], ob["observation"])
        np.testing.assert_array_equal(oa["action_mask"], ob["action_mask"])
        assert (rwa, ta, tra) == (rwb, tb, trb)
        if ta or tra:
            return
        legal = np.flatnonzero(oa["action_mask"])
        act_a, act_b = legal[ra.integers(legal.size)], legal[rb.integers(legal.size)]
        a.step(int(act_a))
        b.step(int(act_b))


@pytest.mark.parametrize("wrapped", [False, True], ids=["raw", "wrapped"])
def test_pickle_and_deepcopy_mid_game(api_case, wrapped):
    module, options = api_case
    env = (module.env if wrapped else module.raw_env)(**options)
    env.reset(seed=11)
    _play_some(env, 15, np.random.default_rng(0))
    for clone in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
        np.testing.assert_array_equal(clone.unwrapped.state(), env.unwrapped.state())
        original = copy.deepcopy(env)
        _continue_identically(original, clone, rng_seed=5)


def test_functional_step_is_pure_and_clone_is_independent(api_case):
    module, options = api_case
    game = module.Game(**options)
    state = game.new_state(5)
    before = state.copy()
    action = int(game.legal_actions(state)[0])
    after = game.step(state, action)
    np.testing.assert_array_equal(state, before)  # step left its input alone
    clone = game.clone(after)
    a2 = int(game.legal_actions(after)[-1]) if not game.is_terminal(after) else None
    if a2 is not None:
        game.step_inplace(clone, a2)
        assert not np.array_equal(clone, after)
    np.testing.assert_array_equal(game.step(before, action), after)  # deterministic


def test_random_play_invariants_every_step(case):
    module, options = case
    game = module.Game(**options)
    ci_scope.need_current_version(game.env_id, options)
    result = testing.play_random_games(game, n_games=testing.harness_games(module.Game, options, 12), seed=100)
    assert (result["lengths"] > 0).all()


@pytest.mark.slow
def test_random_play_invariants_many_games(case):
    module, options = case
    if SCALE == 1 and not FULL and set(options) - {"num_players"}:
        # CI's small form of this slow check: each game's defaults and player counts (every option
        # set still plays 12 games with every check in test_random_play_invariants_every_step)
        pytest.skip("other option sets at MUSHGYM_SLOW_SCALE>1 or MUSHGYM_HARNESS=full")
    if SCALE == 1 and not FULL and getattr(module.Game, "harness_option_sets", None) is not None:
        # a version of a game whose rules the harness already plays (mycology_v1: v0's rules with
        # another observation): its observations are checked in test_random_play_invariants_every_step
        pytest.skip("a version playing another env's rules: at MUSHGYM_SLOW_SCALE>1 or MUSHGYM_HARNESS=full")
    game = module.Game(**options)
    ci_scope.need_current_version(game.env_id, options)
    result = testing.play_random_games(game, n_games=ci_scope.many_games(game.env_id, 40 * SCALE), seed=1000)
    assert result["lengths"].max() <= game.spec.max_game_length


COMBINATIONS = [
    (env_modules()[e], o) for e in mushgym.list_envs() for o in testing.option_combinations(env_module(e).Game)
]


@pytest.mark.parametrize(
    "module_name,options",
    COMBINATIONS,
    ids=[f"{m.rsplit('.', 1)[-1]}[{testing.options_id(o)}]" for m, o in COMBINATIONS],
)
def test_option_combinations_play_with_every_check(module_name, options):
    """Every allowed combination of a game's combinable variants (testing.option_combinations):
    random play with every check on every step, the compiled state check accepting every state
    met, and hidden information staying hidden. Single options are the ``case`` tests'."""
    game_class = load(module_name).Game
    ci_scope.need_current_version(game_class.env_id, options)
    # CI's small form: one game, shortened by the game's own option for that (e.g. a turn limit)
    small = {} if SCALE > 1 else dict(getattr(game_class, "combination_small_options", {}))
    game = game_class(**{**small, **options})
    result = testing.play_random_games(game, n_games=SCALE, seed=300)
    assert (result["lengths"] > 0).all()
    for state in testing.random_states(game, n_games=1, seed=301, every=5):
        game.validate(state)
    if not game.spec.perfect_information:
        assert testing.check_hidden_information(game, n_games=1, seed=41) > 0


def test_compiled_rollouts_agree_with_python_loop(case):
    module, options = case
    game = module.Game(**options)
    ci_scope.need_rollouts(game.env_id)
    r = game.random_rollouts(64, seed=7, threads=1)
    r2 = game.random_rollouts(64, seed=7)
    np.testing.assert_array_equal(r["lengths"], r2["lengths"])  # thread count does not matter
    np.testing.assert_array_equal(r["returns"], r2["returns"])
    assert r["max_length"] <= game.spec.max_game_length
    lo, hi = game.spec.reward_range
    assert ((r["returns"] >= lo) & (r["returns"] <= hi)).all()
    if game.spec.zero_sum:
        np.testing.assert_allclose(r["returns"].sum(axis=1), 0.0, atol=1e-9)


def test_hidden_information_stays_hidden(case):
    module, options = case
    game = module.Game(**options)
    ci_scope.need_current_version(game.env_id, options)
    if game.spec.perfect_information:
        pytest.skip("perfect information game")
    checked = testing.check_hidden_information(game, n_games=testing.harness_games(module.Game, options, 4), seed=40)
    assert checked > 10, "perturb_hidden almost never changed the state: the check proves nothing"


def test_hidden_information_check_catches_a_leak():
    from toygame.game import ToyGame

    with pytest.raises(AssertionError, match="depends on hidden information"):
        testing.check_hidden_information(ToyGame(leak=True), n_games=3, seed=1)


def test_illegal_action_raw_raises_and_wrapped_penalises(api_case):
    module, options = api_case
    env = module.raw_env(**options)
    env.reset(seed=2)
    mask = env.last()[0]["action_mask"]
    illegal = np.flatnonzero(mask == 0)
    for bad in [env.game.num_actions, -1, "x", 1.5] + ([int(illegal[0])] if illegal.size else []):
        with pytest.raises(ValueError, match="illegal action"):
            env.step(bad)
    if illegal.size:
        wrapped = module.env(**options)
        wrapped.reset(seed=2)
        agent = wrapped.agent_selection
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            wrapped.step(int(illegal[0]))
        assert wrapped.terminations[agent] and wrapped.rewards[agent] == -1


def test_bad_options_are_refused_with_the_valid_choices(api_case):
    module, _ = api_case
    with pytest.raises(ValueError, match="unknown option"):
        module.raw_env(no_such_option=1)
    with pytest.raises(ValueError, match="valid choices"):
        module.raw_env(num_players=99)
    with pytest.raises(ValueError, match="render_mode"):
        module.raw_env(render_mode="rgb_array_3d")


def test_aec_rewards_equal_game_returns(api_case):
    module, options = api_case
    env = module.raw_env(**options)
    env.reset(seed=9)
    rng = np.random.default_rng(9)
    total = {a: 0.0 for a in env.possible_agents}
    final_state = None
    for agent in env.agent_iter(100_000):
        obs, rew, term, trunc, _ = env.last()
        total[agent] += rew
        if term or trunc:
            final_state = env.state() if final_state is None else final_state
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(legal.size)]))
    rets = env.game.returns(final_state)
    assert [total[a] for a in env.possible_agents] == pytest.approx(rets.tolist())


def _digest_in_subprocess(module_name, options, seed, disable_jit, max_steps=None):
    code = (
        "import sys; from mushgym.testing import trajectory_digest; "
        f"print(trajectory_digest({module_name!r}, {options!r}, {seed}, {max_steps!r}))"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1" if disable_jit else "0")
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS_DIR), env.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize("module_name,options", CASES[:1] + [c for c in CASES[1:] if c[1] == {}], ids=lambda v: str(v))
def test_determinism_across_processes_and_without_jit(module_name, options):
    here = testing.trajectory_digest(module_name, options, seed=77)
    assert _digest_in_subprocess(module_name, options, 77, disable_jit=False) == here
    assert _digest_in_subprocess(module_name, options, 77, disable_jit=True) == here


def test_different_seeds_give_different_games(api_case):
    module, options = api_case
    game = module.Game(**options)
    states = {game.new_state(s).tobytes() for s in range(20)}
    assert len(states) > 1


@pytest.mark.parametrize("module_name,options", REGISTERED, ids=REGISTERED_IDS)
def test_golden_playthrough(module_name, options):
    game = load(module_name).Game(**options)
    path = testing.golden_path(game.env_id, options)
    assert path.exists(), f"missing {path}: run `python -m mushgym.testing --regen-golden` and review the diff"
    expected = path.read_text()
    actual = testing.playthrough_text(game)
    if actual != expected:
        exp_lines, act_lines = expected.splitlines(), actual.splitlines()
        first = next(
            (i for i, (x, y) in enumerate(zip(exp_lines, act_lines)) if x != y), min(len(exp_lines), len(act_lines))
        )
        pytest.fail(
            f"{path.name} differs from line {first + 1}:\n  golden: {exp_lines[first : first + 1]}\n"
            f"  now:    {act_lines[first : first + 1]}\nIf the rule change is intended, run "
            "`python -m mushgym.testing --regen-golden` and commit the diff."
        )


def test_every_registered_env_is_importable_the_documented_ways():
    for env_id in mushgym.list_envs():
        mod = importlib.import_module(f"mushgym.envs.{env_id}")
        assert mod.__doc__ and env_id in mod.__doc__
        assert mushgym.make(env_id).unwrapped.metadata["name"] == env_id
        assert mushgym.game(env_id).env_id == env_id
        import pettingzoo

        if hasattr(pettingzoo, "register"):  # PettingZoo >= 1.25 has its own registry
            from mushgym.registry import pettingzoo_id

            assert pettingzoo.make("aec", pettingzoo_id(env_id)).unwrapped.metadata["name"] == env_id
    with pytest.raises(ValueError, match="registered envs"):
        mushgym.make("no_such_env_v0")
