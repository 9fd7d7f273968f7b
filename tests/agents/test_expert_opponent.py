"""Expert iteration against a fixed opponent (mushgym.agents.expert, ``opponent=``), the
most-visited-move policy target (``policy_target="best"``) and the warm start's decisions
mixed into every batch (``imitation_mix``)."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytestmark = pytest.mark.train
pytest.importorskip("sb3_contrib")

import mushgym  # noqa: E402
from mushgym.agents import make_agent  # noqa: E402
from mushgym.agents.expert import check_hyper, train_expert  # noqa: E402
from mushgym.agents.expert_learner import Learner  # noqa: E402
from mushgym.agents.expert_loop import ExpertRun  # noqa: E402
from mushgym.agents.selfplay import SelfPlay  # noqa: E402


class _Recorder:
    """Greedy, recording the seat of every decision it is asked for."""

    uses_state = True

    def __init__(self, env_id: str) -> None:
        self.inner = make_agent("greedy", env_id=env_id, seed=0)
        self.seats: list[int] = []

    def reset(self, seed=None) -> None:
        self.inner.reset(seed)

    def act_batch(self, observations, action_masks, game=None, states=None, players=None):
        self.seats.extend(int(p) for p in players)
        return self.inner.act_batch(observations, action_masks, game=game, states=states, players=players)


def test_the_opponent_plays_the_other_seats_and_only_the_experts_moves_are_samples():
    w = SelfPlay("mycology_v1", {"num_players": 4}, games=1, simulations=8, seed=2, opponent="greedy")
    spy = w._opponent = _Recorder("mycology_v1")
    first = w.play(1)  # game 0 of the row: the expert holds seats 0 and 2
    assert first["games"] == 1
    assert set(first["players"]) == {0, 2} and set(spy.seats) == {1, 3}
    n_first = len(first["returns"])
    assert n_first == first["lengths"][0], "one game's samples"
    spy.seats.clear()
    second = w.play(1)  # game 1: seats 1 and 3
    assert set(second["players"]) == {1, 3} and set(spy.seats) == {0, 2}
    np.testing.assert_allclose(second["policy"].sum(axis=1), 1.0, rtol=1e-5)
    assert not (second["policy"][~second["masks"]] > 0).any()


def test_self_play_without_an_opponent_samples_every_seat():
    w = SelfPlay("mycology_v1", {"num_players": 4}, games=1, simulations=8, seed=2)
    assert set(w.play(1)["players"]) == {0, 1, 2, 3}


def test_an_unknown_opponent_is_refused_with_the_valid_choices():
    with pytest.raises(ValueError, match="unknown agent 'greedyy'.*'greedy'"):
        SelfPlay("fungi_v0", games=1, simulations=4, opponent="greedyy")
    with pytest.raises(ValueError, match="opponent must be an agent name"):
        SelfPlay("fungi_v0", games=1, simulations=4, opponent=3)


def test_best_move_targets_are_one_hot_on_the_most_visited_move():
    game = mushgym.game("fungi_v0")
    data = SelfPlay("fungi_v0", games=4, simulations=16, seed=0).play(128)
    soft = data["policy"][:128]
    assert (soft.max(axis=1) < 1.0).any(), "some search target must be spread for this test to mean anything"
    learner = Learner(game, check_hyper({"net_arch": (64, 64), "learning_rate": 3e-3, "policy_target": "best"}), seed=0)
    batch = (data["obs"][:128], data["masks"][:128], soft, data["returns"][:128])
    for _ in range(200):
        out = learner.update(*batch)
    # the policy loss is measured against the one-hot targets, whose entropy is 0
    assert out["loss/policy_excess"] == pytest.approx(out["loss/policy"], abs=1e-6)
    agent_logits = learner.forward(__import__("torch").as_tensor(learner.encoder.encode_batch(batch[0])))[0]
    logits = agent_logits.detach().numpy()
    logits[~batch[1]] = -np.inf
    assert (logits.argmax(axis=1) == soft.argmax(axis=1)).mean() > 0.9


def test_mixed_in_rows_are_learned_beside_the_buffer_rows():
    """``extra`` rows (encoded observations with one-hot targets) join the batch: a learner fed
    the same 64 mixed-in rows with every update fits their actions."""
    game = mushgym.game("fungi_v0")
    data = SelfPlay("fungi_v0", games=4, simulations=16, seed=1).play(192)
    learner = Learner(game, check_hyper({"net_arch": (64, 64), "learning_rate": 3e-3}), seed=0)
    x = learner.encoder.encode_batch(data["obs"][128:192])
    masks = data["masks"][128:192]
    rng = np.random.default_rng(0)
    actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])  # arbitrary legal moves to imitate
    onehot = np.zeros((64, game.num_actions), np.float32)
    onehot[np.arange(64), actions] = 1.0
    extra = (x, masks, onehot, np.zeros(64, np.float32))
    for _ in range(300):
        learner.update(data["obs"][:64], data["masks"][:64], data["policy"][:64], data["returns"][:64], extra=extra)
    import torch

    logits = learner.forward(torch.as_tensor(x))[0].detach().numpy()
    logits[~masks] = -np.inf
    assert (logits.argmax(axis=1) == actions).mean() > 0.9


def test_a_run_against_greedy_mixes_the_warm_start_and_resumes(tmp_path, monkeypatch):
    hyper = dict(
        expert="mcts",
        simulations=8,
        games=4,
        chunk=64,
        net_arch=(16, 16),
        batch_size=32,
        threads=1,
        curve_points=0,
        opponent="greedy",
        policy_target="best",
        imitation_samples=300,
        imitation_epochs=1,
        imitation_mix=0.5,
        imitation_learning_rate=2e-3,
        checkpoint_minutes=0.01,
    )
    mixed: list[int] = []
    original = ExpertRun._anchor_rows

    def spy(self, n):
        rows = original(self, n)
        mixed.append(0 if rows is None else len(rows[0]))
        return rows

    monkeypatch.setattr(ExpertRun, "_anchor_rows", spy)
    folder = tmp_path / "run"
    summary = train_expert(
        "fungi_v0", minutes=0.15, seed=0, run_dir=folder, progress_bar=False, tensorboard=False, **hyper
    )
    assert summary["timing"]["updates"] > 0 and mixed and set(mixed) == {16}, "half of every 32-row batch"
    settings = json.loads((folder / "train.json").read_text())["hyper"]
    assert settings["opponent"] == "greedy" and settings["imitation_mix"] == 0.5
    assert json.loads((folder / "imitation.json").read_text())["samples"] >= 300
    # resumed, the warm start is not fitted again but its decisions are collected again for the mix
    fitted = (folder / "imitation.json").read_text()
    progress = json.loads((folder / "progress.json").read_text())
    progress["seconds"] = 0.0  # give the resumed run time for a round
    (folder / "progress.json").write_text(json.dumps(progress))
    mixed.clear()
    train_expert("fungi_v0", resume=folder, progress_bar=False, tensorboard=False)
    assert (folder / "imitation.json").read_text() == fitted
    assert mixed and set(mixed) == {16}


def test_bad_mix_target_and_opponent_settings_are_refused():
    with pytest.raises(ValueError, match="unknown policy_target 'argmax'; choices"):
        check_hyper({"policy_target": "argmax"})
    for value in (1.0, -0.1, True):
        with pytest.raises(ValueError, match="imitation_mix must be a number in"):
            check_hyper({"imitation_mix": value, "imitation_samples": 10})
    with pytest.raises(ValueError, match="imitation_mix needs a warm start"):
        check_hyper({"imitation_mix": 0.2})
    with pytest.raises(ValueError, match="opponent must be an agent name"):
        check_hyper({"opponent": None})
    with pytest.raises(ValueError, match="imitation_learning_rate"):
        check_hyper({"imitation_learning_rate": -1e-3})
