"""The vector API (mushgym.vector) against the functional API: same games, same numbers."""

import os
import subprocess
import sys

import ci_scope
import numpy as np
import pytest
from paths import REPO_ROOT, TESTS_DIR  # noqa: E402,F401
from toygame.game import ToyGame

import mushgym
import mushgym.vector as mv
from mushgym.vector import SingleAgentVectorEnv


def _games():
    yield ToyGame()
    yield mushgym.game("fungi_v0")


GAMES = list(_games())
IDS = [g.env_id for g in GAMES]


def _replay_check(game, vec, steps):
    """Step ``vec`` with its own random actions and follow every env with the functional
    API (``new_state(episode seed)`` + ``step``): states, masks, obs, players and
    rewards must agree at every step, across auto-resets."""
    n = vec.num_envs
    obs, masks, player = vec.reset()
    mirror = [game.new_state(int(s)) for s in vec.episode_seeds]
    episodes = 0
    for _ in range(steps):
        for i in range(n):
            if player[i] >= 0:
                assert np.array_equal(vec.states[i], mirror[i]), f"env {i}: state differs"
                assert player[i] == game.current_player(mirror[i])
                assert np.array_equal(masks[i], game.legal_mask(mirror[i]))
                assert np.array_equal(obs[i], game.observe(mirror[i], int(player[i])))
        actions = vec.sample_random_actions().copy()
        was_done = vec.terminated | vec.truncated
        obs, rewards, term, trunc, masks, player, info = vec.step(actions)
        for i in range(n):
            if was_done[i]:  # next-step auto-reset: a fresh game, action ignored
                assert not term[i] and not trunc[i] and np.all(rewards[i] == 0)
                mirror[i] = game.new_state(int(vec.episode_seeds[i]))
                assert np.array_equal(vec.states[i], mirror[i])
                continue
            p = game.current_player(mirror[i])
            game.step_inplace(mirror[i], int(actions[i]))
            assert np.array_equal(vec.states[i], mirror[i]), f"env {i}: state differs after step"
            if game.is_terminal(mirror[i]):
                episodes += 1
                assert term[i] and not trunc[i]
                assert np.array_equal(rewards[i], game.returns(mirror[i]))
                assert player[i] == -1 and not masks[i].any()
                assert np.array_equal(obs[i], game.observe(mirror[i], p)), "final obs is the last mover's"
            else:
                assert not term[i] and np.all(rewards[i] == 0)
    return episodes


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_vector_matches_functional_api(game):
    vec = mv.from_game(game, 5, seed=11)
    steps = 40 if game.env_id == "toyrace_v0" else 160
    assert _replay_check(game, vec, steps) >= 5  # several episodes, so auto-reset is covered


@pytest.mark.parametrize("env_id", ci_scope.vector_params([e for e in mushgym.list_envs() if e != "fungi_v0"]))
def test_vector_matches_functional_api_every_env(env_id):
    game = mushgym.game(env_id)
    _replay_check(game, mv.from_game(game, 3, seed=2), 80)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_shapes_and_dtypes(game):
    n = 3
    vec = mv.from_game(game, n, seed=0)
    obs, masks, player = vec.reset()
    assert obs.shape == (n,) + tuple(game.observation_shape) and obs.dtype == mv.exact_obs_dtypes(game)[0]
    assert masks.shape == (n, game.num_actions) and masks.dtype == np.int8
    assert player.shape == (n,) and player.dtype == np.int64
    out = vec.step(vec.sample_random_actions())
    obs, rewards, term, trunc, masks, player, info = out
    assert rewards.shape == (n, game.num_players) and rewards.dtype == np.float64
    assert term.shape == trunc.shape == (n,) and term.dtype == trunc.dtype == np.bool_
    assert isinstance(info, dict)
    assert vec.states.shape == (n, game.state_size) and vec.states.dtype == np.int64
    narrow = game.layout.vector_dtype if game.layout is not None else np.dtype(np.int64)
    assert vec.vector_states.dtype == narrow and vec.state_bytes == game.state_size * narrow.itemsize
    assert vec.bytes_per_step == sum(vec.bytes_per_step_parts.values())


def test_fungi_is_stored_narrow():
    """Fungi opts in: int16 states and uint8 observations, 3x fewer bytes per env step than
    int64 states with float32 observations (and more without observations)."""
    game = mushgym.game("fungi_v0")
    vec = mv.from_game(game, 4, seed=0)
    wide = mv.from_game(game, 4, seed=0, obs_dtype=np.float32, state_dtype=np.int64)
    bare = mv.from_game(game, 4, seed=0, with_obs=False)
    assert vec.vector_states.dtype == np.int16 and vec.obs.dtype == np.uint8
    assert wide.vector_states.dtype == np.int64 and wide.obs.dtype == np.float32
    assert wide.bytes_per_step >= 3 * vec.bytes_per_step
    assert bare.bytes_per_step < vec.bytes_per_step


@pytest.mark.parametrize("env_id", ci_scope.vector_params(["fungi_v0", "mycology_v1", "mycelia_v1"]))
def test_narrow_vector_equals_wide_vector(env_id):
    """Same seed: the narrow vector (int32 states, narrowest obs), the wide one (int64 states,
    float32 obs) and the one writing no observations play the same games: states equal as
    int64, observations equal after conversion to float32, same masks, players, rewards."""
    game = mushgym.game(env_id)
    n = 6
    vecs = [
        mv.from_game(game, n, seed=3),
        mv.from_game(game, n, seed=3, obs_dtype=np.float32, state_dtype=np.int64),
        mv.from_game(game, n, seed=3, with_obs=False),
    ]
    outs = [v.reset() for v in vecs]
    assert outs[2][0] is None
    np.testing.assert_array_equal(outs[0][0].astype(np.float32), outs[1][0])
    for _ in range(150):
        actions = vecs[1].sample_random_actions().copy()
        outs = [v.step(actions) for v in vecs]
        assert outs[2][0] is None
        np.testing.assert_array_equal(outs[0][0].astype(np.float32), outs[1][0])
        for k in (1, 2, 3, 4, 5):
            np.testing.assert_array_equal(outs[0][k], outs[1][k])
            np.testing.assert_array_equal(outs[2][k], outs[1][k])
        np.testing.assert_array_equal(vecs[0].states, vecs[1].states)
        np.testing.assert_array_equal(vecs[2].states, vecs[1].states)
        for i in range(n):
            np.testing.assert_array_equal(vecs[0].state(i), vecs[1].vector_states[i])


def test_obs_dtype_choices_and_errors():
    fungi, toy = mushgym.game("fungi_v0"), ToyGame()
    assert [d.name for d in mv.exact_obs_dtypes(fungi)][:2] == ["uint8", "int16"]
    assert mv.exact_obs_dtypes(toy)[0] == np.float32  # not declared integral: float32
    with pytest.raises(ValueError, match="uint8"):
        mv.from_game(fungi, 2, obs_dtype=np.int8)  # Fungi's counts reach 175
    with pytest.raises(ValueError, match="float32"):
        mv.from_game(toy, 2, obs_dtype=np.uint8)
    with pytest.raises(ValueError, match="int64"):
        mv.from_game(fungi, 2, state_dtype=np.int32)
    with pytest.raises(ValueError, match="with_obs"):
        mv.from_game(fungi, 2, with_obs="no")


def test_set_state_into_a_narrow_vector():
    game = mushgym.game("fungi_v0")
    vec = mv.from_game(game, 2, seed=0)
    vec.reset()
    s = game.new_state(77)
    for a in [int(np.flatnonzero(game.legal_mask(s))[0])] * 3:
        s = game.step(s, a)
    vec.set_state(1, s)
    assert vec.vector_states.dtype == np.int16
    np.testing.assert_array_equal(vec.state(1), s)
    np.testing.assert_array_equal(vec.obs[1].astype(np.float32), game.observe(s, game.current_player(s)))


def test_registry_make_and_options():
    vec = mv.make("fungi_v0", 2, seed=3)
    assert vec.game.env_id == "fungi_v0" and vec.num_envs == 2
    with pytest.raises(ValueError):
        mv.make("fungi_v0", 2, seed=3, no_such_option=1)
    with pytest.raises(ValueError):
        mv.make("no_such_env", 2)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_same_step_autoreset(game):
    vec = mv.from_game(game, 4, seed=5, autoreset_mode="same_step")
    obs, masks, player = vec.reset()
    mirror = [game.new_state(int(s)) for s in vec.episode_seeds]
    ended = 0
    for _ in range(200):
        actions = vec.sample_random_actions().copy()
        obs, rewards, term, trunc, masks, player, info = vec.step(actions)
        assert info["_final_obs"].shape == (4,)
        for i in range(4):
            p = game.current_player(mirror[i])
            game.step_inplace(mirror[i], int(actions[i]))
            if game.is_terminal(mirror[i]):
                ended += 1
                assert term[i] and info["_final_obs"][i]
                assert np.array_equal(rewards[i], game.returns(mirror[i]))
                assert np.array_equal(info["final_obs"][i], game.observe(mirror[i], p))
                mirror[i] = game.new_state(int(vec.episode_seeds[i]))  # already dealt, same step
            else:
                assert not term[i] and not info["_final_obs"][i]
            assert np.array_equal(vec.states[i], mirror[i])
            assert player[i] == game.current_player(mirror[i]) >= 0
            assert np.array_equal(masks[i], game.legal_mask(mirror[i]))
            assert np.array_equal(obs[i], game.observe(mirror[i], int(player[i])))
        if ended >= 6:
            break
    assert ended >= 6


def test_rewards_per_seat_and_zero_sum():
    game = mushgym.game("fungi_v0")
    vec = mv.from_game(game, 16, seed=2)
    vec.reset()
    total = np.zeros(game.num_players)
    ends = 0
    for _ in range(400):
        _, rewards, term, trunc, *_ = vec.step(vec.sample_random_actions())
        assert np.allclose(rewards.sum(axis=1), 0.0)
        assert np.all(rewards[~term] == 0)
        total += rewards.sum(axis=0)
        ends += int(term.sum())
    assert ends > 16
    assert set(np.unique(np.abs(total))) <= set(range(ends + 1))


def test_next_step_ignores_actions_of_finished_envs():
    game = ToyGame()
    vec = mv.from_game(game, 2, seed=0)
    vec.reset()
    while not vec.terminated.any():
        vec.step(vec.sample_random_actions())
    done = int(np.flatnonzero(vec.terminated)[0])
    actions = vec.sample_random_actions().copy()
    actions[done] = 999  # ignored: that env is dealt a new game
    vec.step(actions)
    assert not vec.terminated[done] and vec.episode_lengths[done] == 0


def test_truncation():
    game = mushgym.game("fungi_v0")
    vec = mv.from_game(game, 3, seed=1, max_episode_steps=4)
    vec.reset()
    for k in range(4):
        _, rewards, term, trunc, masks, player, _ = vec.step(vec.sample_random_actions())
    assert trunc.all() and not term.any() and np.all(rewards == 0) and np.all(player == -1)
    _, _, term, trunc, _, player, _ = vec.step(vec.sample_random_actions())
    assert not trunc.any() and np.all(player >= 0) and np.all(vec.episode_lengths == 0)


def _trajectory(vec, steps):
    out = [np.concatenate([vec.reset()[0].ravel(), vec.states.ravel().astype(np.float64)])]
    for _ in range(steps):
        obs, rewards, *_ = vec.step(vec.sample_random_actions())
        out.append(np.concatenate([obs.ravel(), rewards.ravel(), vec.states.ravel().astype(np.float64)]))
    return np.concatenate(out)


def test_determinism_seeds_and_threads():
    game = mushgym.game("fungi_v0")
    a = _trajectory(mv.from_game(game, 70, seed=9, parallel=True), 30)
    b = _trajectory(mv.from_game(game, 70, seed=9, parallel=True), 30)
    assert np.array_equal(a, b)
    serial = mv.from_game(game, 70, seed=9, parallel=False)  # the same kernels without prange
    assert np.array_equal(a, _trajectory(serial, 30))
    one_thread = mv.from_game(game, 70, seed=9, threads=1, parallel=True)
    assert np.array_equal(a, _trajectory(one_thread, 30))
    c = _trajectory(mv.from_game(game, 70, seed=10), 30)
    assert not np.array_equal(a, c)
    # env i of a vector does not depend on the vector's size
    small = mv.from_game(game, 3, seed=9)
    small.reset()
    big = mv.from_game(game, 70, seed=9)
    big.reset()
    assert np.array_equal(small.episode_seeds, big.episode_seeds[:3])
    # reset(seed) restarts every stream; reset() deals new games
    vec = mv.from_game(game, 4, seed=9)
    vec.reset()
    first = vec.episode_seeds.copy()
    vec.reset()
    assert not np.array_equal(first, vec.episode_seeds)
    vec.reset(seed=9)
    assert np.array_equal(first, vec.episode_seeds)


def test_sample_random_actions_are_legal_and_fresh_draw():
    game = mushgym.game("fungi_v0")
    vec = mv.from_game(game, 32, seed=4)
    vec.reset()
    out = np.zeros(32, np.int64)
    for _ in range(100):
        a = vec.sample_random_actions()
        live = vec.current_player >= 0
        assert np.all(vec.masks[np.arange(32)[live], a[live]] == 1)
        assert vec.sample_random_actions() is a  # drawn inside the last step, no new call
        vec.sample_random_actions(out=out)
        assert np.all(vec.masks[np.arange(32)[live], out[live]] == 1)
        vec.step(a)
    with pytest.raises(ValueError):
        vec.sample_random_actions(out=np.zeros(31, np.int64))


def test_bad_input_errors():
    game = mushgym.game("fungi_v0")
    vec = mv.from_game(game, 4, seed=0)
    with pytest.raises(RuntimeError, match="reset"):
        vec.step(np.zeros(4, np.int64))
    vec.reset()
    before = vec.states.copy()
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        vec.step(np.zeros(3, np.int64))
    with pytest.raises(ValueError, match=r"shape \(4,\)"):
        vec.step(np.zeros((4, 1), np.int64))
    with pytest.raises(ValueError, match="integers"):
        vec.step(np.full(4, 0.5))
    actions = vec.sample_random_actions().copy()
    illegal = int(np.flatnonzero(vec.masks[2] == 0)[0])
    actions[2] = illegal
    with pytest.raises(ValueError, match=rf"env 2: action {illegal} is illegal.*No env was stepped"):
        vec.step(actions)
    assert np.array_equal(vec.states, before), "a rejected batch must leave every env untouched"
    actions[2] = game.num_actions
    with pytest.raises(ValueError, match=rf"env 2: action {game.num_actions} is out of range"):
        vec.step(actions)
    actions[2] = -1
    with pytest.raises(ValueError, match="env 2: action -1"):
        vec.step(actions)
    with pytest.raises(ValueError):
        mv.from_game(game, 0)
    with pytest.raises(ValueError):
        mv.from_game(game, 2, autoreset_mode="sometimes")
    with pytest.raises(ValueError):
        mv.from_game(game, 2, max_episode_steps=0)
    with pytest.raises(TypeError):
        mv.from_game(game, 2, seed="abc")
    # a Python list of ints is accepted
    vec.step(vec.sample_random_actions().tolist())


# --- single-agent Gymnasium VectorEnv -------------------------------------------------


@pytest.mark.parametrize("seat", [0, 1, -1])
def test_single_agent_vector_env(seat):
    import gymnasium

    game = mushgym.game("fungi_v0")
    vec = SingleAgentVectorEnv(game, 6, seed=3, learner_seat=seat, parallel=seat == 1)
    assert isinstance(vec, gymnasium.vector.VectorEnv)
    assert vec.single_action_space.n == game.num_actions
    assert vec.observation_space.shape == (6,) + tuple(game.observation_shape)
    obs, info = vec.reset(seed=3)
    assert obs.shape == (6,) + tuple(game.observation_shape)
    seats_seen = set()
    ends = 0
    for _ in range(300):
        seats = vec.learner_seats.copy()
        seats_seen.update(seats.tolist())
        masks = info["action_mask"]
        assert np.array_equal(masks.astype(bool), vec.action_masks())
        for i in range(6):
            if not (vec.terminated[i] or vec.truncated[i]):
                assert game.current_player(vec.states[i]) == seats[i]
                assert np.array_equal(obs[i], game.observe(vec.states[i], int(seats[i])))
                assert np.array_equal(masks[i], game.legal_mask(vec.states[i]))
        actions = vec.sample_random_actions().copy()
        was_done = vec.terminated | vec.truncated
        obs, rewards, term, trunc, info = vec.step(actions)
        for i in range(6):
            if term[i]:
                ends += 1
                assert rewards[i] == game.returns(vec.states[i])[seats[i]]
            elif not was_done[i]:
                assert rewards[i] == 0
    assert ends >= 6
    if seat >= 0:
        assert seats_seen == {seat}
    else:
        assert seats_seen == {0, 1}


def test_single_agent_bad_args():
    game = mushgym.game("fungi_v0")
    with pytest.raises(ValueError):
        SingleAgentVectorEnv(game, 2, learner_seat=2)
    with pytest.raises(ValueError):
        SingleAgentVectorEnv(game, 2, opponent="greedy")
    vec = mv.make_single_agent("fungi_v0", 2, seed=0)
    vec.reset()
    with pytest.raises(ValueError, match="env 1"):
        a = vec.sample_random_actions().copy()
        a[1] = int(np.flatnonzero(vec.masks[1] == 0)[0])
        vec.step(a)


# --- identical results without the JIT --------------------------------------------------

_NOJIT_SCRIPT = r"""
import sys, json, numpy as np
sys.path.insert(0, sys.argv[1])
import mushgym, mushgym.vector as mv
from toygame.game import ToyGame
out = {}
for name, game, steps in (("toy", ToyGame(), 30), ("fungi", mushgym.game("fungi_v0"), 12)):
    vec = mv.from_game(game, 3, seed=21, autoreset_mode="same_step")
    obs, masks, player = vec.reset()
    acc = [float(obs.sum()), int(vec.states.sum())]
    for _ in range(steps):
        obs, rew, term, trunc, masks, player, info = vec.step(vec.sample_random_actions())
        acc += [float(obs.sum()), float(rew.sum()), int(term.sum()), int(vec.states.sum()), int(player.sum())]
    r = game.random_rollouts(20, seed=3, threads=1)
    acc += [int(r["steps"]), float(r["returns"].sum())]
    sa = mv.SingleAgentVectorEnv(game, 3, seed=5, learner_seat=-1)
    o, i = sa.reset()
    for _ in range(steps):
        o, rew, term, trunc, i = sa.step(sa.sample_random_actions())
        acc += [float(o.sum()), float(rew.sum()), int(term.sum()), int(sa.states.sum()), int(sa.learner_seats.sum())]
    out[name] = acc
print("RESULT " + json.dumps(out))
"""


def test_same_results_with_jit_disabled():
    here = str(TESTS_DIR)

    def run(disable):
        env = dict(os.environ, NUMBA_DISABLE_JIT="1" if disable else "0")
        proc = subprocess.run(
            [sys.executable, "-c", _NOJIT_SCRIPT, here], env=env, capture_output=True, text=True, timeout=600
        )
        assert proc.returncode == 0, proc.stderr[-3000:]
        line = [x for x in proc.stdout.splitlines() if x.startswith("RESULT ")][0]
        return line

    assert run(True) == run(False)


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_aec_advance_kernel(game):
    """The one-call step used by the AEC shell: step, then mask and player (-1 at the end)."""
    k = game.loops
    rng = np.random.default_rng(0)
    state = game.new_state(3)
    mask = np.full(game.num_actions, 7, np.int8)
    assert k.aec_refresh(state, game.config, mask, game.work) == game.current_player(state)
    assert np.array_equal(mask, game.legal_mask(state))
    while True:
        a = int(rng.choice(np.flatnonzero(mask)))
        ref = game.step(state, a)
        p = k.aec_advance(state, a, game.config, mask, game.work)
        assert np.array_equal(state, ref)
        if game.is_terminal(state):
            assert p == -1 and not mask.any()
            break
        assert p == game.current_player(state) and np.array_equal(mask, game.legal_mask(state))


def test_random_rollouts_do_not_depend_on_threads():
    game = mushgym.game("fungi_v0")
    one = game.random_rollouts(300, seed=7, threads=1)
    two = game.random_rollouts(300, seed=7, threads=2) if mv.numba.config.NUMBA_NUM_THREADS >= 2 else one
    assert np.array_equal(one["lengths"], two["lengths"]) and np.array_equal(one["returns"], two["returns"])
    assert one["games"] == 300 and one["steps"] == int(one["lengths"].sum())
    # game i is the game dealt from seed + i, played out by the functional API's rules
    assert np.all(one["lengths"] > 0)


def test_numba_uses_the_installed_tbb_layer():
    """``pip install tbb`` puts libtbb in <prefix>/lib, off the loader's path: the engine's set-up
    (``mushgym.setup()``, run by the first use of a game or of ``list_envs``) preloads it so that
    numba's parallel loops use TBB, not OpenMP (mushgym/core/tbb.py)."""
    from pathlib import Path

    if not sys.platform.startswith("linux") or not (Path(sys.prefix) / "lib" / "libtbb.so.12").exists():
        pytest.skip("the tbb wheel is not installed in this environment")
    code = (
        "import mushgym, numba\nmushgym.list_envs()\nfrom numba import njit, prange\n"
        "@njit(parallel=True)\ndef f(n):\n    s = 0\n    for i in prange(n):\n        s += i\n    return s\n"
        "f(10)\nprint(numba.threading_layer())"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_THREADING_LAYER", "LD_LIBRARY_PATH")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert out.stdout.strip().splitlines()[-1] == "tbb", out.stderr[-2000:]
