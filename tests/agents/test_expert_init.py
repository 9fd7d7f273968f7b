"""Expert iteration started from a saved model (mushgym.agents.expert, ``init_model=``): the
network begins with the model's weights, its first curve point is the model before any update,
and a model of another game, option set, encoder or size is refused with what differs."""

from __future__ import annotations

import csv

import pytest

pytestmark = pytest.mark.train
pytest.importorskip("sb3_contrib")

import torch  # noqa: E402

import mushgym  # noqa: E402
from mushgym.agents.expert import check_hyper, train_expert  # noqa: E402
from mushgym.agents.expert_learner import Learner  # noqa: E402
from mushgym.agents.ppo_policy import save_policy_weights  # noqa: E402
from mushgym.agents.selfplay import new_network  # noqa: E402


def _saved_model(path, env_id="fungi_v0", options=None, net_arch=(16, 16), encoder="scaled", seed=3):
    game = mushgym.game(env_id, **(options or {}))
    torch.manual_seed(seed)
    policy, _ = new_network(game, net_arch, encoder)
    meta = {"env_id": env_id, "encoder": encoder, "options": options or {}, "algo": "MaskablePPO"}
    return save_policy_weights(policy, path, meta, encoder), policy


def test_the_learner_starts_with_the_models_weights(tmp_path):
    path, policy = _saved_model(tmp_path / "model.pt")
    game = mushgym.game("fungi_v0")
    fresh = Learner(game, check_hyper({"net_arch": (16, 16)}), seed=0).policy.state_dict()
    started = Learner(game, check_hyper({"net_arch": (16, 16), "init_model": str(path)}), seed=0).policy.state_dict()
    saved = policy.state_dict()
    assert all(torch.equal(started[k], saved[k]) for k in saved)
    assert not all(torch.equal(fresh[k], saved[k]) for k in saved), "a fresh network differs from the model"


def test_a_run_from_a_model_plays_its_first_curve_point_before_any_update(tmp_path):
    path, _ = _saved_model(tmp_path / "model.pt")
    folder = tmp_path / "run"
    summary = train_expert(
        "fungi_v0",
        minutes=0.1,
        seed=0,
        run_dir=folder,
        progress_bar=False,
        tensorboard=False,
        expert="puct",
        puct_simulations=8,
        games=4,
        chunk=64,
        net_arch=(16, 16),
        batch_size=32,
        threads=1,
        curve_points=1,
        curve_games=4,
        curve_mcts_games=0,
        init_model=str(path),
    )
    with (folder / "learning_curve.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 2 and int(rows[0]["updates"]) == 0 and int(rows[1]["updates"]) > 0
    assert summary["timing"]["updates"] == int(rows[1]["updates"])


def test_a_model_that_does_not_fit_the_run_is_refused_with_what_differs(tmp_path):
    game = mushgym.game("mycology_v1", num_players=4)
    two, _ = _saved_model(tmp_path / "two.pt", "mycology_v1", {"num_players": 2})
    with pytest.raises(ValueError, match=r"other options than this run .*'num_players': \(2, 4\)"):
        Learner(game, check_hyper({"net_arch": (16, 16), "init_model": str(two)}), seed=0)
    four, _ = _saved_model(tmp_path / "four.pt", "mycology_v1", {"num_players": 4})
    with pytest.raises(ValueError, match=r"has layers \[16, 16\], this run \[32\]; pass --hyper net_arch"):
        Learner(game, check_hyper({"net_arch": (32,), "init_model": str(four)}), seed=0)
    with pytest.raises(ValueError, match=r"uses the 'scaled' encoder, this run 'flat'"):
        Learner(game, check_hyper({"net_arch": (16, 16), "encoder": "flat", "init_model": str(four)}), seed=0)
    fungi, _ = _saved_model(tmp_path / "fungi.pt")
    with pytest.raises(ValueError, match="cannot be loaded: .*trained on fungi_v0, not mycology_v1"):
        Learner(game, check_hyper({"net_arch": (16, 16), "init_model": str(fungi)}), seed=0)
    with pytest.raises(ValueError, match="no such file"):
        check_hyper({"init_model": str(tmp_path / "missing.pt")})
    with pytest.raises(ValueError, match="init_model must be the path"):
        check_hyper({"init_model": 3})
