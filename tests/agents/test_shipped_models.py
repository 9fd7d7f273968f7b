"""The network kept in benchmarks/training (the record of the PPO training run the docs quote) loads
weights only and plays a legal game against greedy. The pretrained agents, shipped inside the
package, are tests/agents/test_pretrained.py's; networks of retired versions are in git history."""

import json

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from paths import REPO_ROOT, TESTS_DIR  # noqa: E402,F401

import mushgym  # noqa: E402
from mushgym.agents import load_policy, make_agent, play_match  # noqa: E402

TRAINING = REPO_ROOT / "benchmarks" / "training"
RECORDED = sorted([*TRAINING.glob("*_ppo*.pt"), *TRAINING.glob("*_expert*.pt")])


def test_the_recorded_networks_are_there():
    names = {p.name for p in RECORDED}
    assert {"fungi_v0_ppo.pt"} <= names


@pytest.mark.parametrize("path", RECORDED, ids=[p.stem for p in RECORDED])
def test_recorded_network_loads_weights_only_and_plays_greedy(path):
    weights = torch.load(path, weights_only=True)  # plain tensors: nothing unpickled
    assert weights and all(isinstance(v, torch.Tensor) for v in weights.values())
    meta = json.loads(path.with_suffix(".json").read_text())
    agent = load_policy(path)
    # the game the model was trained on, scored as the default win/loss game
    options = {k: v for k, v in meta["options"].items() if k != "reward"}
    game = mushgym.game(meta["env_id"], **options)
    assert agent.encoder.space.shape == tuple(meta["policy"]["observation_shape"])
    m = play_match(game, agent, make_agent("greedy", env_id=meta["env_id"], seed=0), 1, seed=0)
    assert m.games == 1 and m.wins + m.draws + m.losses == 1 and m.steps > 0  # an illegal move would raise
