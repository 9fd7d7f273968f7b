"""PUCT (the search with a policy/value network as prior and leaf evaluator): forced wins with a
stub network, batching and virtual loss, seeds, masked priors, allocation, the PPO adapter and
the ``puct:SIMS:PATH`` spec."""

import math
import os
import subprocess
import sys

import numpy as np
import pytest
from paths import REPO_ROOT, TESTS_DIR  # noqa: E402,F401
from toygame.game import ToyGame

import mushgym
from mushgym import testing
from mushgym.agents import MCTSAgent, make_agent
from mushgym.agents.evaluate import agent_spec_problem
from mushgym.search import Searcher

MODEL = REPO_ROOT / "benchmarks" / "training" / "fungi_v0_ppo.pt"


class StubNet:
    """A real network stand-in: fixed logits (uniform by default) and zero values; it records the
    size of every call and checks what it is given."""

    def __init__(self, game, logits=None, value=0.0):
        self.shape = tuple(game.observation_shape)
        self.A = game.num_actions
        self.logits = np.zeros(self.A, np.float32) if logits is None else np.asarray(logits, np.float32)
        self.value = value
        self.sizes = []

    def __call__(self, obs):
        assert obs.dtype == np.float32 and obs.shape[1:] == self.shape
        self.sizes.append(len(obs))
        return np.tile(self.logits, (len(obs), 1)), np.full(len(obs), self.value, np.float32)


def _toy_position(counter):
    game = ToyGame()
    s = game.new_state(0)
    while s[game.kernels.COUNTER] < counter:
        game.step_inplace(s, 0 if counter - s[game.kernels.COUNTER] == 1 else 1)
    return game, s


@pytest.mark.parametrize("batch", [1, 8])
@pytest.mark.parametrize("counter, winning", [(0, 0), (2, 1), (3, 0), (5, 1), (6, 0), (8, 1)])
def test_puct_finds_the_forced_win(counter, winning, batch):
    """Race to 10 with a uniform prior and a zero value: only the terminal returns the search
    meets can tell the moves apart, and PUCT must find the winning one."""
    game, s = _toy_position(counter)
    net = StubNet(game)
    agent = MCTSAgent(simulations=3000, seed=1, network=net, batch=batch)
    assert agent.act_state(game, s, game.current_player(s)) == winning
    assert net.sizes and max(net.sizes) <= batch * game.num_players


def _fungi_states():
    game = mushgym.game("fungi_v0")
    return game, testing.random_states(game, 1, 0, 11)[:3]


def test_batches_and_virtual_loss():
    game, states = _fungi_states()
    P = game.num_players
    for s in states:
        p = game.current_player(s)
        # batch 1: the virtual loss is removed before the next descent, so it never acts
        runs = []
        for vloss in (0.0, 3.0):
            net = StubNet(game, logits=np.linspace(0, 1, game.num_actions))
            se = Searcher(game, simulations=200, seed=4, network=net, batch=1, virtual_loss=vloss)
            runs.append(se.search(s, p))
            assert set(net.sizes) == {P}
        np.testing.assert_array_equal(runs[0][0], runs[1][0])
        np.testing.assert_array_equal(runs[0][1], runs[1][1])
        for batch in (8, 32):
            net = StubNet(game)
            se = Searcher(game, simulations=200, seed=4, network=net, batch=batch)
            visits, values = se.search(s, p)
            # the first batch all evaluates the root (no priors yet); every later descent
            # passes through a root child; one network call per full batch of leaves
            assert visits.sum() + batch <= 200 and len(net.sizes) >= math.ceil(200 / batch)
            assert max(net.sizes) <= batch * P and all(n % P == 0 for n in net.sizes)
            assert ((values >= 0) & (values <= visits)).all()
        # with a virtual loss the descents of one batch spread over more root children than without
        spread = []
        for vloss in (0.0, 1.0):
            se = Searcher(game, simulations=64, seed=4, network=StubNet(game), batch=32, virtual_loss=vloss)
            spread.append(np.count_nonzero(se.search(s, p)[0]))
        assert spread[1] >= spread[0]


def test_same_seed_same_move_and_hidden_cards_do_not_matter():
    game, states = _fungi_states()
    rng = np.random.default_rng(2)
    for s in states:
        p = game.current_player(s)
        v1, w1 = Searcher(game, simulations=150, seed=7, network=StubNet(game), batch=8).search(s, p)
        v2, w2 = Searcher(game, simulations=150, seed=7, network=StubNet(game), batch=8).search(s, p)
        np.testing.assert_array_equal(v1, v2)
        np.testing.assert_array_equal(w1, w2)
        v3, _ = Searcher(game, simulations=150, seed=7, network=StubNet(game), batch=8).search(
            game.perturb_hidden(s, p, rng), p
        )
        np.testing.assert_array_equal(v1, v3)
    # root-parallel trees on two threads share the network: as reproducible, visits summed
    s = states[-1]
    p = game.current_player(s)
    v1, _ = Searcher(game, simulations=150, seed=7, network=StubNet(game), batch=8, threads=2).search(s, p)
    v2, _ = Searcher(game, simulations=150, seed=7, network=StubNet(game), batch=8, threads=2).search(s, p)
    np.testing.assert_array_equal(v1, v2)
    assert 2 * (150 - 8) <= v1.sum() <= 2 * 150


class RowNet(StubNet):
    """A network whose answer for each observation depends on that observation alone (float64
    row sums, so the batch it comes in cannot change a bit of it)."""

    def __init__(self, game):
        super().__init__(game)
        rng = np.random.default_rng(0)
        self.w = rng.normal(size=(int(np.prod(self.shape)),))
        self.a = np.arange(self.A)

    def __call__(self, obs):
        assert obs.dtype == np.float32 and obs.shape[1:] == self.shape
        self.sizes.append(len(obs))
        x = (obs.reshape(len(obs), -1).astype(np.float64) * self.w).sum(axis=1)
        return np.sin(x[:, None] + self.a[None, :]), np.tanh(x)


def test_leaf_pooling_across_games_grows_every_tree_as_alone():
    """search_many with a network pools the leaves of every row's trees into one call per round:
    the visits and values are exactly those of the trees searched one at a time, with fewer,
    larger network calls."""
    game, states = _fungi_states()
    states = np.stack(states)
    players = np.array([game.current_player(s) for s in states])
    P = game.num_players
    runs = {}
    for pool in (1, 32):
        net = RowNet(game)
        se = Searcher(game, simulations=120, seed=5, network=net, batch=4, threads=2, pool_trees=pool)
        runs[pool] = (se.search_many(states, players), net.sizes, se.network_calls)
    (v1, w1), sizes1, calls1 = runs[1]
    (v32, w32), sizes32, calls32 = runs[32]
    np.testing.assert_array_equal(v1, v32)
    np.testing.assert_array_equal(w1, w32)
    assert (v1.sum(axis=1) >= 2 * (120 - 4)).all()
    assert sum(sizes1) == sum(sizes32) and max(sizes1) <= 4 * P
    assert calls32 == len(sizes32) < calls1 / 3 and max(sizes32) > 4 * P
    # the agent's act_batch searches the batch's games together and picks the same moves
    agent = MCTSAgent("fungi_v0", simulations=60, seed=2, network=RowNet(game), batch=4)
    masks = np.stack([game.legal_mask(s) for s in states])
    acts = agent.act_batch(None, masks, game=game, states=states, players=players)
    alone = MCTSAgent("fungi_v0", simulations=60, seed=2, network=RowNet(game), batch=4)
    assert [alone.act_state(game, s, p) for s, p in zip(states, players)] == list(acts)
    with pytest.raises(ValueError, match="pool_trees"):
        Searcher(game, network=RowNet(game), pool_trees=0)


def test_masked_actions_never_get_prior_mass_and_the_prior_steers():
    game, states = _fungi_states()
    for s in states:
        p = game.current_player(s)
        legal = game.legal_mask(s) != 0
        # a network that puts nearly all its mass on illegal actions
        logits = np.where(legal, 0.0, 30.0)
        se = Searcher(game, simulations=100, seed=1, network=StubNet(game, logits), batch=4)
        visits, _ = se.search(s, p)
        prior = se.last_root_prior
        assert (prior[~legal] == 0).all() and prior.sum() == pytest.approx(1.0)
        assert (visits[~legal] == 0).all()
        if legal.sum() > 1:
            # a prior on one legal action (and no value signal) draws most visits there
            favourite = int(np.flatnonzero(legal)[-1])
            logits = np.where(np.arange(game.num_actions) == favourite, 5.0, 0.0)
            v, _ = Searcher(game, simulations=100, seed=1, network=StubNet(game, logits), batch=4).search(s, p)
            assert int(np.argmax(v)) == favourite


def test_refusals():
    game = ToyGame()
    for bad, word in (
        (dict(network=3), "network"),
        (dict(network=StubNet(game), batch=0), "batch"),
        (dict(network=StubNet(game), virtual_loss=-1.0), "virtual_loss"),
    ):
        with pytest.raises(ValueError, match=word):
            Searcher(game, simulations=10, **bad)
    with pytest.raises(ValueError, match="needs network"):
        MCTSAgent(simulations=10, batch=4)

    def wrong(obs):
        return np.zeros((len(obs), 3)), np.zeros(len(obs))

    _, s = _toy_position(0)
    with pytest.raises(ValueError, match="expected"):
        Searcher(game, simulations=10, network=wrong).search(s, 0)


ALLOC_SCRIPT = r"""
import numpy as np, mushgym
from numba.core.runtime import rtsys
from mushgym.search import Searcher
game = mushgym.game("fungi_v0")
s = game.new_state(4)
p = game.current_player(s)
def net(obs):
    return np.zeros((len(obs), game.num_actions), np.float32), np.zeros(len(obs), np.float32)
calls = {}
for name in ("puct_begin", "puct_collect", "puct_apply"):
    def counted(*args, _f=Searcher(game, network=net).ns[name], _n=name):
        calls[_n] = calls.get(_n, 0) + 1
        return _f(*args)
    Searcher(game, network=net).ns[name] = counted
rows = []
for sims, batch in ((40, 8), (40, 8), (2000, 400)):    # the same number of compiled calls
    a = Searcher(game, simulations=sims, seed=1, network=net, batch=batch)
    a._buffer(0)
    calls.clear()
    before = rtsys.get_allocation_stats().alloc
    a.search(s, p)
    rows.append((rtsys.get_allocation_stats().alloc - before, dict(calls)))
print(rows)
"""


def test_no_compiled_allocation_per_simulation():
    """numba's allocation counter (NRT stats): 2000 simulations in 5 batches make exactly as
    many compiled allocations as 40 simulations in 5 batches (what remains is the per-call
    boxing of the arguments): nothing is allocated per simulation or per tree node."""
    env = dict(os.environ, NUMBA_NRT_STATS="1")
    out = subprocess.run([sys.executable, "-c", ALLOC_SCRIPT], env=env, capture_output=True, text=True, check=True)
    rows = eval(out.stdout.strip().splitlines()[-1])
    assert rows[1][1] == rows[2][1], f"different numbers of compiled calls: {rows}"
    assert rows[2][0] == rows[1][0], f"allocations grow with simulations: {rows}"


def test_the_ppo_model_as_network_and_the_spec(monkeypatch, capsys):
    pytest.importorskip("sb3_contrib")
    if not MODEL.exists():
        pytest.skip("no shipped model")
    from mushgym.agents.ppo import load_policy

    game = mushgym.game("fungi_v0")
    agent = load_policy(MODEL, env_id="fungi_v0")
    obs = np.stack([game.observe(s, game.current_player(s)) for s in testing.random_states(game, 1, 0, 9)[:5]])
    logits, values = agent.policy_value(obs)
    np.testing.assert_allclose(logits, agent.logits(obs), rtol=1e-5, atol=1e-5)
    logits_np, values_np = agent.policy_value(obs, backend="numpy")
    np.testing.assert_allclose(logits_np, logits, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(values_np, values, rtol=1e-4, atol=1e-4)
    assert values.shape == (5,) and np.isfinite(values).all()

    spec = f"puct:30:{MODEL}"
    assert agent_spec_problem(spec) is None
    assert "puct:SIMS:PATH" in agent_spec_problem("puct:x:model.pt")
    assert "no saved model" in agent_spec_problem("puct:30:nowhere/model.pt")
    a = make_agent(spec, env_id="fungi_v0", seed=0)
    assert isinstance(a, MCTSAgent) and a.network is not None and a.name == spec
    s = game.new_state(3)
    assert game.legal_mask(s)[a.act_state(game, s, game.current_player(s))]
    from mushgym import cli

    assert cli.main(["eval", "fungi_v0", "puct:20:" + str(MODEL), "random", "--games", "2", "--no-save"]) == 0
    assert "puct:20:" in capsys.readouterr().out
