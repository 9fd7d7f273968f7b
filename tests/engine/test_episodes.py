"""The one episode loop (mushgym.episodes) and the batched opponents of the training envs."""

import ci_scope
import numpy as np
import pytest
from toygame.game import ToyGame

import mushgym
from mushgym.agents import Agent, GreedyAgent, RandomAgent
from mushgym.episodes import EpisodeBatch, play
from mushgym.game import MASK_DTYPE, OBS_DTYPE
from mushgym.policies import UniformRandomPolicy
from mushgym.wrappers import SingleAgentBatch

ENV_IDS = mushgym.list_envs()


def make_game(env_id):
    return ToyGame() if env_id == "toy" else mushgym.game(env_id)


def reference_play(game, seat_agents, seeds, batch_size):
    """The loop agents/play.py had before mushgym.episodes (kernel calls game by game,
    agents grouped in order of first appearance): the oracle for 'same results'."""
    k, cfg, P = game.kernels, game.config, game.num_players
    returns = np.zeros((len(seeds), P))
    lengths = np.zeros(len(seeds), dtype=np.int64)
    for start in range(0, len(seeds), batch_size):
        n = min(batch_size, len(seeds) - start)
        states = [game.new_state(int(seeds[start + i])) for i in range(n)]
        masks = np.zeros((n, game.num_actions), dtype=MASK_DTYPE)
        obs = np.zeros((n, *game.observation_shape), dtype=OBS_DTYPE)
        active = [i for i in range(n) if not k.is_terminal(states[i])]
        steps = np.zeros(n, dtype=np.int64)
        while active:
            groups, players = {}, {}
            for i in active:
                p = int(k.current_player(states[i]))
                players[i] = p
                groups.setdefault(id(seat_agents[p]), []).append(i)
                k.legal_mask(states[i], cfg, masks[i], game.work)
                k.observe(states[i], p, cfg, obs[i], game.work)
            for idx in groups.values():
                agent = seat_agents[players[idx[0]]]
                if agent.uses_state:
                    acts = [agent.act_state(game, states[i], players[i], obs[i], masks[i]) for i in idx]
                else:
                    acts = agent.act_batch(obs[idx], masks[idx])
                for i, a in zip(idx, acts):
                    k.step(states[i], int(a), cfg, game.work)
                    steps[i] += 1
            active = [i for i in active if not k.is_terminal(states[i])]
        for i in range(n):
            k.returns(states[i], cfg, returns[start + i])
        lengths[start : start + n] = steps
    return returns, lengths


@pytest.mark.parametrize("env_id", ENV_IDS + ["toy"])
def test_same_results_as_the_old_loop(env_id):
    game = make_game(env_id)
    P = game.num_players
    seeds = list(range(300, 316))
    for make in (
        lambda: [RandomAgent(seed=1 + p) for p in range(P)],
        lambda: [GreedyAgent(game.env_id, seed=9)] + [RandomAgent(seed=2)] * (P - 1),
    ):
        res = play(game, make(), seeds, batch_size=6)
        returns, lengths = reference_play(game, make(), seeds, batch_size=6)
        np.testing.assert_array_equal(res["returns"], returns)
        np.testing.assert_array_equal(res["lengths"], lengths)
        assert res["steps"] == lengths.sum()


class Recorder(Agent):
    """A random agent that logs every act_batch call: (tick, rows, players)."""

    def __init__(self, log, name, seed=0, uses_state=False):
        self.log, self.name, self.uses_state = log, name, uses_state
        self.inner = RandomAgent(seed=seed)
        self.tick = 0

    def act_batch(self, observations, action_masks, game=None, states=None, players=None):
        if self.uses_state:
            for o, m, s, p in zip(observations, action_masks, states, players):
                assert game.current_player(s) == p
                np.testing.assert_array_equal(o, game.observe(s, int(p)))  # the rows are the truth
                np.testing.assert_array_equal(m, game.legal_mask(s))
        self.log.append((self.name, len(observations), None if players is None else tuple(players)))
        return self.inner.act_batch(observations, action_masks)


@pytest.mark.parametrize("env_id", ci_scope.current_versions(ENV_IDS) + ["toy"])
def test_one_act_batch_call_per_tick_per_seat(env_id):
    game = make_game(env_id)
    P = game.num_players
    log = []
    agents = [Recorder(log, f"seat{p}", seed=p, uses_state=(p == 0)) for p in range(P)]
    seen = 0  # calls of the ticks before this one

    def on_step(tick):
        nonlocal seen
        calls = log[seen:]
        seen = len(log)
        names = [c[0] for c in calls]
        assert len(names) == len(set(names)), f"an agent was asked twice in one tick: {names}"
        for p in range(P):  # exactly the seats with a game to move were asked, for all their rows
            rows = int((tick.players == p).sum())
            asked = [c for c in calls if c[0] == f"seat{p}"]
            assert (len(asked) == 1 and asked[0][1] == rows) if rows else not asked
        assert len(tick.rows) == len(tick.games) == len(tick.actions)

    res = play(game, agents, range(20), batch_size=8, on_step=on_step)
    assert sum(n for _, n, _ in log) == res["steps"]
    assert max(n for _, n, _ in log) > 1  # decisions really came in batches
    assert len(log) < res["steps"]
    assert all(players is not None and set(players) == {0} for name, _, players in log if name == "seat0")


def test_an_agent_holding_several_seats_is_asked_once_per_tick():
    game = ToyGame()
    log = []
    shared = Recorder(log, "shared", uses_state=True)
    ticks = []
    res = play(game, [shared, shared], range(10), batch_size=10, on_step=lambda t: ticks.append(len(t.rows)))
    assert len(log) == len(ticks)
    assert [n for _, n, _ in log] == ticks
    assert {p for _, _, players in log for p in players} == {0, 1}
    assert res["steps"] == sum(ticks)


@pytest.mark.parametrize("env_id", ENV_IDS + ["toy"])
def test_every_env_plays_to_the_end(env_id):
    game = make_game(env_id)
    agents = [UniformRandomPolicy(p) for p in range(game.num_players)]
    res = play(game, agents, range(40, 52), batch_size=5, keep_states=True)
    assert res["returns"].shape == (12, game.num_players) and res["states"].shape == (12, game.state_size)
    for seed, state, rets, length in zip(range(40, 52), res["states"], res["returns"], res["lengths"]):
        assert game.is_terminal(state)
        np.testing.assert_array_equal(rets, game.returns(state))
        assert 0 < length <= game.spec.max_game_length
    again = play(game, [UniformRandomPolicy(p) for p in range(game.num_players)], range(40, 52), batch_size=5)
    np.testing.assert_array_equal(again["returns"], res["returns"])  # seeded: the same games again


def test_games_are_the_seeded_games():
    """Game k of play() is game.new_state(seeds[k]) stepped by the agents' actions."""
    game = mushgym.game("fungi_v0")
    moves = {}

    def on_step(tick):
        for g, i, a in zip(tick.games, tick.rows, tick.actions):
            moves.setdefault(int(g), []).append(int(a))

    res = play(
        game, [RandomAgent(seed=0), RandomAgent(seed=1)], [5, 77, 5], batch_size=2, on_step=on_step, keep_states=True
    )
    for g, seed in enumerate([5, 77, 5]):
        s = game.new_state(seed)
        for a in moves[g]:
            s = game.step(s, a)
        np.testing.assert_array_equal(s, res["states"][g])


def test_bad_agents_and_arguments_get_clear_errors():
    game = ToyGame()

    class Illegal(Agent):
        def act(self, observation, action_mask):
            return 5

    class Short(Agent):
        def act_batch(self, observations, action_masks):
            return np.zeros(len(observations) + 1, dtype=np.int64)

    with pytest.raises(ValueError, match=r"illegal action 5 .*seat 0, game seed 3"):
        play(game, [Illegal(), RandomAgent()], [3])
    with pytest.raises(ValueError, match="must return 2 integer actions"):
        play(game, [Short(), RandomAgent()], [1, 2])
    with pytest.raises(ValueError, match="played by 2 players"):
        play(game, [RandomAgent()], [1])
    with pytest.raises(RuntimeError, match="did not end within 3 steps"):
        play(game, [RandomAgent(), RandomAgent()], [1], max_steps=3)
    with pytest.raises(TypeError, match="needs game=, states= and players="):
        GreedyAgent(seed=0).act_batch(np.zeros((1, 2)), np.ones((1, 2), np.int8))


def test_episode_batch_leaves_other_rows_alone():
    game = mushgym.game("fungi_v0")
    b = EpisodeBatch(game, 3)
    b.deal(np.arange(3), np.array([1, 2, 3]))
    before = b.states.copy()
    a = int(np.flatnonzero(b.masks[1])[0])
    assert b.step(np.array([1]), np.array([a])) == -1
    np.testing.assert_array_equal(b.states[[0, 2]], before[[0, 2]])
    np.testing.assert_array_equal(b.states[1], game.step(before[1], a))
    bad = int(np.flatnonzero(b.masks[0] == 0)[0])
    after = b.states.copy()
    assert b.step(np.array([2, 0]), np.array([int(np.flatnonzero(b.masks[2])[0]), bad])) == 1
    np.testing.assert_array_equal(b.states, after)  # nothing stepped when one action is illegal


# --- training envs: the opponents' decisions batched across games ----------------------------


class CountingRandom(RandomAgent):
    def __init__(self, seed=0):
        super().__init__(seed)
        self.calls = self.rows = 0

    def act_batch(self, observations, action_masks, **context):
        self.calls += 1
        self.rows += len(observations)
        return super().act_batch(observations, action_masks)


@pytest.mark.parametrize("env_id", ci_scope.vector_params(ENV_IDS))
def test_opponents_answer_for_all_games_at_once(env_id):
    opponent = CountingRandom(seed=3)
    games = SingleAgentBatch(env_id, num_envs=16, opponents=opponent, seed=0)
    games.reset()
    rng = np.random.default_rng(0)
    ended = 0
    steps = 0
    while ended < 20 and steps < 2000:
        steps += 1
        masks = games.action_masks()
        assert masks.any(axis=1).all()  # every game waits for its learner
        for i in range(games.num_envs):
            assert games.game.current_player(games.batch.states[i]) == games.seats[i]
        keys = rng.random(masks.shape)
        keys[~masks] = -1
        seats = games.seats.copy()  # an ended game is dealt again at once, maybe with another seat
        obs, rewards, terminated, truncated, infos = games.step(keys.argmax(axis=1))
        assert obs.shape == (16, *games.observation_space.shape)
        done = terminated | truncated
        assert not (terminated & truncated).any()
        assert (rewards[~done] == 0).all()
        for i in np.flatnonzero(done):
            ended += 1
            assert rewards[i] == infos[i]["returns"][seats[i]]  # the learner's own return
            assert infos[i]["terminal_observation"].shape == games.observation_space.shape
    assert ended >= 20
    assert opponent.rows == games.counts["opponent_steps"] > 0
    assert opponent.calls < opponent.rows / 2  # one call per round for every game an opponent is to act in
    assert games.timers["opponents"] > 0 and games.counts["learner_steps"] == steps * 16


def test_parallel_and_serial_episode_batches_agree():
    """The prange kernels give exactly the serial kernels' arrays (regression: parfors once
    lost the writes made through the bundle in the loop body)."""
    from mushgym.episodes import EpisodeBatch

    game = mushgym.game("fungi_v0")
    out = []
    for parallel in (False, True):
        b = EpisodeBatch(game, 96, max_steps=200, parallel=parallel)
        rows = np.arange(96)
        b.deal(rows, np.arange(96) + 5)
        rng = np.random.default_rng(0)
        for _ in range(30):
            live = b.running(rows)
            acts = np.array([rng.choice(np.flatnonzero(b.masks[i])) for i in live])
            assert b.step(live, acts) < 0
        out.append([a.copy() for a in (b.states, b.players, b.lengths, b.masks, b.obs)])
    for serial, par in zip(*out):
        assert np.array_equal(serial, par)
    assert (out[0][2] == 30).all()


# --- a game cut by its own rules (Mycology's turn limit) is a truncation, not an overrun -------


def short_mycology(end="truncate"):
    return mushgym.game("mycology_v1", turn_limit=120, turn_limit_end=end)


def test_play_reports_the_games_the_turn_limit_cut():
    game = short_mycology()
    agents = [RandomAgent(seed=0), RandomAgent(seed=1)]
    res = play(game, agents, range(24), batch_size=7, keep_states=True)  # blocks of 7: cut games in several
    cut = res["truncated"]
    assert cut.dtype == bool and cut.shape == (24,)
    assert 0 < cut.sum() < 24, cut  # random play at 120 turns: most games cut, some ended by the rules
    for k, state in enumerate(res["states"]):
        assert game.is_terminal(state)
        assert cut[k] == game.is_truncated(state)
        np.testing.assert_array_equal(res["returns"][k], game.returns(state))
        if cut[k]:
            assert (res["returns"][k] == 0).all()  # no result for a game the rules did not end
    # scored: the same games (random agents do not look at rewards), ended normally and scored
    scored = play(
        short_mycology("score"), [RandomAgent(seed=0), RandomAgent(seed=1)], range(24), batch_size=7, keep_states=True
    )
    assert not scored["truncated"].any()
    np.testing.assert_array_equal(scored["lengths"], res["lengths"])
    np.testing.assert_array_equal(scored["returns"][~cut], res["returns"][~cut])
    assert (scored["returns"][cut] != 0).any()
    for k in np.flatnonzero(cut):
        np.testing.assert_array_equal(scored["returns"][k], short_mycology("score").returns(scored["states"][k]))


def test_play_still_raises_when_the_safety_limit_is_hit():
    game = short_mycology()
    with pytest.raises(RuntimeError, match="did not end within 50 steps"):
        play(game, [RandomAgent(seed=0), RandomAgent(seed=1)], range(4), max_steps=50)
    assert not play(ToyGame(), [RandomAgent(seed=0), RandomAgent(seed=1)], range(8))["truncated"].any()


def test_episode_batch_tells_a_cut_game_from_an_overrun():
    game = short_mycology()
    rng = np.random.default_rng(0)
    for max_steps, want_cut in ((0, True), (40, False)):
        b = EpisodeBatch(game, 6, max_steps=max_steps)
        rows = np.arange(6)
        b.deal(rows, np.arange(6) + 100)
        active = b.running(rows)
        while active.size:
            keys = rng.random((active.size, game.num_actions))
            keys[b.masks[active] == 0] = -1
            assert b.step(active, keys.argmax(axis=1)) == -1
            active = b.running(active)
        assert (b.players == -1).all() and not (b.terminated & b.truncated).any()
        cut, overran = b.cut(), b.overran()
        assert np.intersect1d(cut, overran).size == 0
        np.testing.assert_array_equal(np.union1d(cut, overran), np.flatnonzero(b.truncated))
        for i in rows:
            assert (i in cut) == (b.truncated[i] and game.is_truncated(b.states[i]))
            assert (i in overran) == (b.truncated[i] and not game.is_terminal(b.states[i]))
        if want_cut:
            assert cut.size and not overran.size
        else:
            assert overran.size == 6 and not cut.size and (b.lengths == 40).all()


@pytest.mark.parametrize("end", ["truncate", "score"])
def test_single_agent_batch_reports_the_turn_limit_as_a_truncation(end):
    games = SingleAgentBatch(
        "mycology_v1", num_envs=8, opponents="random", options={"turn_limit": 120, "turn_limit_end": end}, seed=0
    )
    games.reset()
    rng = np.random.default_rng(1)
    seen = {"terminated": 0, "truncated": 0}
    for _ in range(5000):
        masks = games.action_masks()
        keys = rng.random(masks.shape)
        keys[~masks] = -1
        seats = games.seats.copy()
        obs, rewards, terminated, truncated, infos = games.step(keys.argmax(axis=1))
        assert not (terminated & truncated).any()
        assert (rewards[~(terminated | truncated)] == 0).all()
        for i in np.flatnonzero(terminated | truncated):
            info = infos[i]
            assert info["TimeLimit.truncated"] == truncated[i]
            assert rewards[i] == info["returns"][seats[i]]
            assert info["terminal_observation"].shape == games.observation_space.shape
            if truncated[i]:
                assert (info["returns"] == 0).all() and not info["is_success"]
            seen["truncated" if truncated[i] else "terminated"] += 1
        if min(seen.values()) >= 3 or (end == "score" and seen["terminated"] >= 12):
            break
    if end == "truncate":
        assert min(seen.values()) >= 3, seen
    else:  # scored: the limit is a normal ending
        assert seen["truncated"] == 0 and seen["terminated"] >= 12, seen


def test_single_agent_batch_still_raises_when_the_safety_limit_is_hit():
    games = SingleAgentBatch("mycology_v1", num_envs=2, opponents="random", options={"turn_limit": 120}, seed=0)
    games.reset()
    games.batch.max_steps = 30  # far below the game's own limit: a bug-like overrun, not a cut
    with pytest.raises(RuntimeError, match="did not end within 30 steps"):
        for _ in range(100):
            games.step(games.action_masks().argmax(axis=1))
