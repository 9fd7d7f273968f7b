"""The single-agent Gymnasium view and the observation encoders."""

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from toygame.game import ToyGame

import mushgym
from mushgym.agents import FunctionAgent, GreedyAgent, RandomAgent, make_agent
from mushgym.wrappers import OneHotEncoder, OpponentPool, ScaledEncoder, SingleAgentEnv, make_encoder

ENV_IDS = mushgym.list_envs()
ENCODERS = ["flat", "scaled", "onehot"]


def toy_best(obs, mask):
    """Perfect play in the toy race: leave the counter at 1 mod 3 when possible."""
    c = int(obs[1])
    for a in (0, 1):
        if (c + a + 1) % 3 == 1 or c + a + 1 >= 10:
            return a
    return 0


def toy_add1(obs, mask):
    return 0


def run_episode(env, policy, seed):
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        mask = env.action_masks()
        assert np.array_equal(mask, info["action_mask"].astype(bool))
        obs, r, term, trunc, info = env.step(policy(obs, mask))
        total += r
        steps += 1
        assert env.observation_space.contains(obs)
        if term or trunc:
            return total, info, steps
        assert r == 0.0


@pytest.mark.parametrize("env_id", ENV_IDS + ["toy"])
@pytest.mark.parametrize("encoder", ENCODERS)
def test_gymnasium_checker(env_id, encoder):
    env = SingleAgentEnv(ToyGame() if env_id == "toy" else env_id, opponents="random", encoder=encoder)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings are failures here
        gym_check_env(env, skip_render_check=True)


@pytest.mark.parametrize("env_id", ENV_IDS + ["toy"])
@pytest.mark.parametrize("encoder", ENCODERS)
def test_sb3_checker(env_id, encoder):
    sb3_env_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    env = SingleAgentEnv(
        ToyGame() if env_id == "toy" else env_id,
        opponents=["random", "greedy"],
        encoder=encoder,
        build_opponent=make_agent,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sb3_env_checker.check_env(env, warn=True)


@pytest.mark.parametrize("seat", [0, 1])
def test_reward_is_the_learners_when_the_learner_wins(seat):
    """A scripted perfect learner beats add-1 from either seat and must get +1 (not the other seat's -1)."""
    env = SingleAgentEnv(ToyGame(), opponents=FunctionAgent(toy_add1), seat=seat, encoder="flat")
    for seed in range(5):
        total, info, _ = run_episode(env, toy_best, seed)
        assert info["seat"] == seat
        assert total == 1.0, f"learner in seat {seat} won but got {total}"
        assert info["returns"][seat] == 1.0 and info["is_success"]


@pytest.mark.parametrize("seat", [0, 1])
def test_reward_is_the_learners_when_the_opponent_wins(seat):
    """The game ends on the opponent's move inside step(): the learner still gets its own -1."""
    env = SingleAgentEnv(ToyGame(), opponents=FunctionAgent(toy_best), seat=seat, encoder="flat")
    for seed in range(5):
        total, info, _ = run_episode(env, toy_add1, seed)
        assert total == -1.0 and info["returns"][seat] == -1.0 and not info["is_success"]


def test_random_seat_covers_both_seats_and_rewards_follow_it():
    env = SingleAgentEnv(ToyGame(), opponents=FunctionAgent(toy_add1), seat=None, encoder="flat")
    seats = set()
    for seed in range(30):
        total, info, _ = run_episode(env, toy_best, seed)
        seats.add(info["seat"])
        assert total == 1.0
    assert seats == {0, 1}


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_reward_matches_the_game_returns_for_the_learners_seat(env_id):
    game = mushgym.game(env_id)
    for seat in range(game.num_players):
        env = SingleAgentEnv(env_id, opponents="random", seat=seat)
        rng = np.random.default_rng(seat)
        for seed in range(4):
            total, info, steps = run_episode(env, lambda o, m: rng.choice(np.flatnonzero(m)), seed)
            assert total == info["returns"][seat]
            assert env.game.returns(env.game_state)[seat] == total
            assert env.game.is_terminal(env.game_state)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_mask_and_observation_are_the_learners(env_id):
    env = SingleAgentEnv(env_id, opponents="greedy", seat=None, encoder="flat", build_opponent=make_agent)
    game = env.game
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        while True:
            s = env.game_state
            assert game.current_player(s) == env.seat
            assert np.array_equal(env.action_masks(), game.legal_mask(s).astype(bool))
            assert np.array_equal(obs, game.observe(s, env.seat))
            a = int(np.flatnonzero(env.action_masks())[0])
            obs, r, term, trunc, info = env.step(a)
            if term or trunc:  # a turn limit cuts the game (a truncation: Mycelia's first action
                assert not env.action_masks().any()  # always loops under the turn limit)
                break


def test_illegal_action_is_a_loss_or_raises():
    game = mushgym.game("fungi_v0")
    env = SingleAgentEnv(game, opponents="random", seat=0)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, r, term, trunc, info = env.step(illegal)
    assert term and r == game.spec.reward_range[0] and info["illegal_action"]
    with pytest.raises(RuntimeError, match="episode is over"):
        env.step(0)
    env = SingleAgentEnv(game, opponents="random", seat=0, illegal_action="raise")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="illegal action"):
        env.step(illegal)


def test_reset_is_reproducible_and_timers_count():
    env = SingleAgentEnv("fungi_v0", opponents=["random", "greedy"], seat=None, build_opponent=make_agent)
    a, _ = env.reset(seed=11)
    b, _ = env.reset(seed=11)
    assert np.array_equal(a, b)

    def policy(o, m):
        return int(np.flatnonzero(m)[0])

    r1 = run_episode(env, policy, 5)
    r2 = run_episode(env, policy, 5)
    assert r1[0] == r2[0] and r1[2] == r2[2]
    assert env.timers["env"] > 0 and env.timers["opponents"] > 0
    assert env.counts["learner_steps"] > 0 and env.counts["opponent_steps"] > 0


def test_opponent_pool_weights_and_snapshots_limit():
    pool = OpponentPool(["random", "greedy"], weights=[1, 0], env_id="fungi_v0", max_size=2, build=make_agent)
    rng = np.random.default_rng(0)
    assert all(isinstance(pool.sample(rng), RandomAgent) for _ in range(20))
    for i in range(4):
        pool.add(FunctionAgent(toy_add1, f"snap{i}"))
    names = [getattr(a, "name", "") for a in pool.agents]
    assert names == ["random", "greedy", "snap2", "snap3"]
    assert isinstance(pool.agents[1], GreedyAgent)


def test_the_pool_builds_with_its_builder_and_alone_makes_only_random():
    from mushgym.policies import UniformRandomPolicy

    pool = OpponentPool(["random", FunctionAgent(toy_add1, "f")], env_id="fungi_v0")  # no builder
    assert isinstance(pool.agents[0], UniformRandomPolicy) and pool.agents[1].name == "f"
    for spec in ("greedy", "mcts:10", "model.pt"):
        with pytest.raises(ValueError, match="build=make_agent"):
            OpponentPool([spec], env_id="fungi_v0")
    with pytest.raises(TypeError, match="an opponent is"):
        OpponentPool([42], env_id="fungi_v0")
    with pytest.raises(ValueError, match="build_opponent=make_agent"):
        SingleAgentEnv("fungi_v0", opponents="greedy")
    built = []
    pool = OpponentPool(
        ["greedy"], env_id="fungi_v0", build=lambda spec, env_id: built.append((spec, env_id)) or RandomAgent()
    )
    pool.add("snapshot")
    assert built == [("greedy", "fungi_v0"), ("snapshot", "fungi_v0")]


def test_the_library_random_opponent_plays_as_the_random_agent():
    """The pool's own 'random' and mushgym.agents' RandomAgent draw the same moves from the same seeds."""
    from mushgym.wrappers import SingleAgentBatch

    runs = []
    for build in (None, make_agent):
        games = SingleAgentBatch("fungi_v0", num_envs=4, opponents="random", seed=5, build_opponent=build)
        obs = [games.reset()]
        for _ in range(40):
            obs.append(games.step(games.action_masks().argmax(axis=1))[0])
        runs.append(np.stack(obs))
    assert np.array_equal(runs[0], runs[1])


def test_encoders_on_fungi():
    game = mushgym.game("fungi_v0")
    states = []
    rng = np.random.default_rng(0)
    s = game.new_state(0)
    while not game.is_terminal(s):
        states.append(s.copy())
        legal = game.legal_actions(s)
        game.step_inplace(s, int(legal[rng.integers(legal.size)]))
    obs = np.stack([game.observe(x, game.current_player(x)) for x in states])
    for name in ENCODERS:
        enc = make_encoder(name, game)
        x = enc.encode_batch(obs)
        assert x.dtype == np.float32 and x.shape == (len(obs), *enc.space.shape)
        assert all(enc.space.contains(row) for row in x)
        assert np.array_equal(enc(obs[3]), x[3])
    oh = make_encoder("onehot", game)
    x = oh.encode_batch(obs)
    # every one-hot block has exactly one 1
    assert x[:, : oh._n_oh].sum(axis=1).tolist() == [len(oh._oh_idx)] * len(obs)


def test_onehot_and_scaled_layout():
    low = np.array([0, 0, -1, 0], np.float32)
    high = np.array([2, 100, 1, 0], np.float32)
    oh = OneHotEncoder(low, high, max_onehot=32)
    assert oh.space.shape == (3 + 3 + 2,)  # [0..2] one-hot, [-1..1] one-hot, 100-wide and 0-wide scaled
    x = oh(np.array([2, 50, -1, 0], np.float32))
    assert x.tolist() == [0, 0, 1, 1, 0, 0, 0.5, 0]
    sc = ScaledEncoder(low, high)
    assert sc(np.array([1, 25, 0, 0], np.float32)).tolist() == [0.5, 0.25, 0.5, 0.0]
    with pytest.raises(ValueError, match="unknown observation encoder"):
        make_encoder("pixels", ToyGame())


def _player_count_cases():
    cases = []
    for env_id in ENV_IDS:
        game = mushgym.game(env_id)
        counts = sorted(game.player_counts()) if "num_players" in game.option_choices else []
        for n in {counts[0], counts[-1]} if counts else ():
            cases.append((env_id, n))
    return cases


@pytest.mark.parametrize("env_id,n", _player_count_cases())
def test_every_player_count_checks_and_rewards_the_learners_seat(env_id, n):
    env = SingleAgentEnv(
        env_id, options={"num_players": n}, opponents=["random", "greedy"], encoder="scaled", build_opponent=make_agent
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gym_check_env(env, skip_render_check=True)
    seats = set()
    rng = np.random.default_rng(0)
    for seed in range(3 * n):
        total, info, _ = run_episode(env, lambda o, m: rng.choice(np.flatnonzero(m)), seed)
        seats.add(info["seat"])
        assert total == info["returns"][info["seat"]] == env.game.returns(env.game_state)[info["seat"]]
    assert len(seats) > 1 or n == 1  # a solo game (Mycelia against its Automata) has one seat


@pytest.mark.parametrize("env_id,n", [c for c in _player_count_cases() if c[1] > 2])
def test_tournament_with_more_than_two_players(env_id, n):
    from mushgym.agents import tournament

    res = tournament(env_id, ["random", "greedy"], games=2 * n, options={"num_players": n}, verbose=False)
    m = res.matches[0]
    assert m.wins + m.draws + m.losses == 2 * n


def test_single_agent_env_defaults_to_the_training_encoder_and_one_torch_thread():
    torch = pytest.importorskip("torch")
    from mushgym.agents.ppo import DEFAULTS

    before = torch.get_num_threads()
    try:
        torch.set_num_threads(2)
        env = SingleAgentEnv("mycology_v1", opponents="random")
        assert torch.get_num_threads() == 1
        assert type(env.encoder).__name__.lower().startswith(DEFAULTS["encoder"])
        obs, _ = env.reset(seed=0)
        assert np.abs(obs).max() <= 1.0
        torch.set_num_threads(2)
        SingleAgentEnv("fungi_v0", torch_threads=None)
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)


# --- a game cut by its own rules (Mycology's turn limit) ---------------------------------------


def random_until_both_endings(step_one, want, max_episodes=60):
    """Count the episodes that ended terminated and truncated until each reached ``want``."""
    seen = {"terminated": 0, "truncated": 0}
    for episode in range(max_episodes):
        kind = step_one(episode)
        seen[kind] += 1
        if min(seen.values()) >= want:
            break
    return seen


@pytest.mark.parametrize("end", ["truncate", "score"])
def test_single_agent_env_turn_limit_is_a_truncation_unless_scored(end):
    env = SingleAgentEnv("mycology_v1", opponents="random", options={"turn_limit": 120, "turn_limit_end": end})
    rng = np.random.default_rng(0)

    def episode(seed):
        obs, info = env.reset(seed=seed)
        while True:
            obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            if term or trunc:
                assert not (term and trunc)
                assert "TimeLimit.truncated" not in info  # Gymnasium has the flag itself
                assert trunc == env.game.is_truncated(env.state)
                assert r == info["returns"][env.seat] == env.game.returns(env.state)[env.seat]
                if trunc:
                    assert r == 0.0 and not info["is_success"] and not env.action_masks().any()
                    with pytest.raises(RuntimeError, match="episode is over"):
                        env.step(0)
                return "truncated" if trunc else "terminated"
            assert r == 0.0

    if end == "truncate":
        seen = random_until_both_endings(episode, 2)
        assert min(seen.values()) >= 2, seen
    else:
        seen = random_until_both_endings(episode, 2, max_episodes=10)
        assert seen == {"terminated": 10, "truncated": 0}, seen


def test_sb3_vec_env_marks_a_cut_game_done_with_timelimit_truncated():
    pytest.importorskip("stable_baselines3")
    from mushgym.wrappers import SingleAgentBatch
    from mushgym.wrappers.sb3 import MaskableVecEnv

    vec = MaskableVecEnv(
        SingleAgentBatch("mycology_v1", num_envs=6, opponents="random", options={"turn_limit": 120}, seed=0)
    )
    vec.seed(3)
    obs = vec.reset()
    rng = np.random.default_rng(2)
    seen = {"terminated": 0, "truncated": 0}
    for _ in range(6000):
        masks = np.stack(vec.env_method("action_masks"))
        assert masks.any(axis=1).all()  # every game waits for its learner
        keys = rng.random(masks.shape)
        keys[~masks] = -1
        seats = vec.games.seats.copy()  # an ended game is dealt again at once
        obs, rewards, dones, infos = vec.step(keys.argmax(axis=1))
        assert dones.dtype == bool and obs.shape == (6, *vec.observation_space.shape)
        assert (rewards[~dones] == 0).all()
        for i in np.flatnonzero(dones):
            cut = infos[i]["TimeLimit.truncated"]
            assert infos[i]["terminal_observation"].shape == vec.observation_space.shape
            assert rewards[i] == np.float32(infos[i]["returns"][seats[i]])
            if cut:
                assert rewards[i] == 0 and (infos[i]["returns"] == 0).all()
            seen["truncated" if cut else "terminated"] += 1
        if min(seen.values()) >= 3:
            break
    assert min(seen.values()) >= 3, seen


def test_mushgym_vector_offers_the_sb3_vec_env():
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.vec_env import VecEnv

    import mushgym.vector
    from mushgym.wrappers.sb3 import MaskableVecEnv

    vec = mushgym.vector.make_sb3(
        "mycology_v1", 3, opponents=["random", "greedy"], seat=1, seed=4, num_players=3, build_opponent=make_agent
    )
    assert isinstance(vec, VecEnv) and isinstance(vec, MaskableVecEnv)
    assert vec.games.game.num_players == 3 and vec.games.fixed_seat == 1
    obs = vec.reset()
    assert obs.shape == (3, *vec.observation_space.shape) and obs.min() >= 0 and obs.max() <= 1  # scaled
    masks = np.stack(vec.env_method("action_masks"))
    obs, rewards, dones, infos = vec.step(masks.argmax(axis=1))
    assert obs.shape[0] == 3 and rewards.shape == (3,) and dones.shape == (3,)
    with pytest.raises(ValueError, match="invalid player count"):
        mushgym.vector.make_sb3("mycology_v1", 2, num_players=9)
