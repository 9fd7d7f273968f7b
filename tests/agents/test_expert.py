"""Expert iteration (mushgym.agents.expert): the self-play samples, hidden information in the
expert, the learner, the replay buffer, a whole short run with its files, resuming a cut run,
and bad input. The two-node Ray test is tests/agents/test_expert_ray.py."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

pytestmark = pytest.mark.train
pytest.importorskip("sb3_contrib")

import mushgym  # noqa: E402
from mushgym.agents import make_agent, play_match  # noqa: E402
from mushgym.agents.expert import DEFAULTS, check_hyper, expert_main, train_expert  # noqa: E402
from mushgym.agents.expert_learner import Learner, ReplayBuffer  # noqa: E402
from mushgym.agents.expert_loop import ExpertRun  # noqa: E402
from mushgym.agents.selfplay import SelfPlay  # noqa: E402

TINY = dict(
    simulations=24,
    puct_simulations=8,
    games=8,
    chunk=128,
    net_arch=(32, 32),
    curve_points=2,
    curve_games=4,
    curve_mcts_games=2,
    snapshot_every=4,
    batch_size=64,
    threads=1,
)


@pytest.mark.parametrize("env_id,options", [("fungi_v0", {}), ("mycology_v1", {"num_players": 3})])
def test_self_play_samples_are_search_distributions_over_legal_moves_with_the_movers_return(env_id, options):
    game = mushgym.game(env_id, **options)
    w = SelfPlay(env_id, options, games=4, simulations=16, threads=2, seed=3)
    data = w.play(200)
    n = len(data["returns"])
    assert n >= 200 and data["games"] >= 1
    assert data["obs"].shape == (n, *game.observation_shape)
    assert data["masks"].shape == data["policy"].shape == (n, game.num_actions)
    np.testing.assert_allclose(data["policy"].sum(axis=1), 1.0, rtol=1e-5)
    assert not (data["policy"][~data["masks"]] > 0).any(), "visit mass on an illegal action"
    assert (data["masks"].sum(axis=1) >= 1).all()
    lo, hi = game.spec.reward_range
    assert ((data["returns"] >= lo) & (data["returns"] <= hi)).all()
    assert ((data["players"] >= 0) & (data["players"] < game.num_players)).all()
    # every game's positions come together, as many as its length, and a game's returns sum as the game's do
    assert (data["lengths"] >= 1).all()


def test_self_play_searches_as_mcts_sims_plays():
    """The MCTS expert takes every game-tuned setting that ``mcts:SIMS`` takes (Mycelium: its
    rollouts, widening, ranked widening order and playout horizon)."""
    from mushgym.agents import MCTSAgent

    game = mushgym.game("mycelium_v2")
    expert = SelfPlay("mycelium_v2", games=1, simulations=8, seed=0)._mcts[0]
    agent = MCTSAgent("mycelium_v2", simulations=8).searcher(game)
    for name in ("rollout", "value", "widen", "widen_order", "horizon"):
        assert getattr(expert.config, name) == getattr(agent.config, name), name
    assert expert.config.widen_order == "ranked"


def test_the_expert_never_reads_what_its_player_cannot_see():
    """Redrawing the hidden cards of a position (the opponent's hand, the deck order) changes
    neither the MCTS expert's visit counts nor the PUCT expert's: both see the mover's view only."""
    game = mushgym.game("fungi_v0")
    rng = np.random.default_rng(0)
    w = SelfPlay("fungi_v0", games=2, simulations=64, puct_simulations=16, threads=1, seed=1)
    learner = Learner(game, check_hyper({"net_arch": (32, 32)}), seed=0)
    checked = 0
    for expert in ("mcts", "puct"):
        if expert == "puct":
            w.set_network([32, 32], learner.weights(), "scaled")
        for _ in range(6):
            w.play(1)  # move the games on
            b = w._batch
            state, player = b.states[0].copy(), int(b.players[0])
            other = game.perturb_hidden(state, player, rng)
            if np.array_equal(other, state):
                continue
            np.testing.assert_array_equal(game.observe(other, player), game.observe(state, player))
            b.states[1], b.players[1] = other, player
            visits = w._search(np.array([0, 1]))
            np.testing.assert_array_equal(visits[0], visits[1])
            assert visits[0].sum() > 0
            w._batch.deal(np.array([1]), np.array([12345 + checked]))  # row 1 back to a real game
            w._pending[1], w._moves[1] = [], 0
            checked += 1
    assert checked >= 6


def test_the_learner_fits_the_search_targets():
    game = mushgym.game("fungi_v0")
    data = SelfPlay("fungi_v0", games=4, simulations=16, seed=0).play(256)
    learner = Learner(game, check_hyper({"net_arch": (64, 64), "learning_rate": 3e-3}), seed=0)
    batch = (data["obs"][:256], data["masks"][:256], data["policy"][:256], data["returns"][:256])
    first = learner.update(*batch)
    for _ in range(150):
        last = learner.update(*batch)
    assert last["loss/policy_excess"] < 0.5 * first["loss/policy_excess"]
    assert last["loss/value"] < 0.5 * first["loss/value"]
    assert learner.updates == 151


def test_the_learning_rate_follows_its_schedule_over_the_budget():
    from mushgym.agents.expert_learner import scheduled_learning_rate

    hp = check_hyper({"learning_rate": 1e-3, "final_learning_rate": 1e-4})
    assert hp["lr_schedule"] == "cosine"
    rates = [scheduled_learning_rate(hp, f) for f in np.linspace(0.0, 1.0, 11)]
    assert rates[0] == pytest.approx(1e-3) and rates[-1] == pytest.approx(1e-4)
    assert rates[5] == pytest.approx(5.5e-4)
    assert all(a > b for a, b in zip(rates, rates[1:])), "a cosine falls all the way"
    assert scheduled_learning_rate(hp, 1.7) == pytest.approx(1e-4), "past the budget it stays at the end"
    flat = check_hyper({"lr_schedule": "constant"})
    assert {scheduled_learning_rate(flat, f) for f in (0.0, 0.5, 1.0)} == {flat["learning_rate"]}
    learner = Learner(mushgym.game("fungi_v0"), check_hyper({"net_arch": (8,)}), seed=0)
    learner.set_learning_rate(2.5e-4)
    assert [g["lr"] for g in learner.optimizer.param_groups] == [2.5e-4]


def test_the_replay_buffer_keeps_the_newest_positions_and_round_trips():
    buf = ReplayBuffer(5, (2,), 3)
    for start in (0, 3, 6):
        k = np.arange(start, start + 3)
        buf.add(
            {
                "obs": np.stack([k, k], axis=1).astype(np.float32),
                "masks": np.ones((3, 3), bool),
                "policy": np.full((3, 3), 1 / 3, np.float32),
                "returns": k.astype(np.float32),
            }
        )
    assert buf.size == 5 and buf.added == 9
    assert sorted(buf.returns.tolist()) == [4, 5, 6, 7, 8]
    other = ReplayBuffer(5, (2,), 3)
    other.load(buf.arrays())
    assert other.size == 5 and other.added == 9 and other.next == buf.next
    np.testing.assert_array_equal(other.obs, buf.obs)
    obs, masks, policy, returns = buf.sample(64, np.random.default_rng(0))
    assert set(returns.tolist()) <= {4, 5, 6, 7, 8} and obs.shape == (64, 2) and policy.dtype == np.float32


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("expert") / "run"
    summary = train_expert(
        "fungi_v0",
        minutes=0.25,
        seed=0,
        run_dir=folder,
        progress_bar=False,
        expert="auto",
        puct_from=0.0,
        imitation_samples=300,
        imitation_epochs=2,
        **TINY,
    )
    return folder, summary


def test_a_run_writes_the_model_curve_timing_and_checkpoints(run):
    folder, summary = run
    for name in (
        "train.json",
        "final.pt",
        "final.json",
        "timing.json",
        "progress.json",
        "learning_curve.csv",
        "learning_curve.png",
        "checkpoints/optimizer.pt",
        "checkpoints/buffer.npz",
    ):
        assert (folder / name).exists(), name
    assert list((folder / "tb").iterdir())
    t = json.loads((folder / "timing.json").read_text())
    assert t["positions"] > 0 and t["updates"] > 0 and t["positions_per_second"] > 0
    assert 0 < t["share_search"] < 1 and 0 <= t["share_learner"] < 1
    assert t["expert_at_end"] == "puct", "puct_from=0 hands the network to the expert at the first curve point"
    rows = list(csv.DictReader(open(folder / "learning_curve.csv")))
    assert len(rows) == 2 and [r["expert"] for r in rows] == ["mcts", "puct"]
    for r in rows:
        for key in ("win_vs_greedy", "win_vs_mcts1000"):
            assert 0 <= float(r[f"{key}_lo"]) <= float(r[key]) <= float(r[f"{key}_hi"]) <= 1
    meta = json.loads((folder / "final.json").read_text())
    assert meta["algo"] == "expert-iteration" and meta["policy"]["net_arch"] == [32, 32]
    warm = json.loads((folder / "imitation.json").read_text())
    assert (
        warm["teacher"] == "greedy"
        and warm["samples"] >= 300
        and warm["epochs"] == 2
        and 0 <= warm["held_out_agreement"] <= 1
    )
    assert t["seconds_imitation"] > 0


def test_the_model_plays_alone_and_as_the_prior_of_puct(run):
    folder, _ = run
    game = mushgym.game("fungi_v0")
    for spec in (str(folder / "final.pt"), f"puct:8:{folder / 'final.pt'}"):
        agent = make_agent(spec, env_id="fungi_v0", seed=0)
        m = play_match(game, agent, make_agent("random", seed=1), 2, seed=0)
        assert m.games == 2


def test_a_cut_run_resumes_from_its_checkpoint(tmp_path, monkeypatch):
    folder = tmp_path / "cut"
    calls = {"n": 0}
    original = ExpertRun._round

    def cut_after_a_checkpoint(self, writer, fraction):
        original(self, writer, fraction)
        calls["n"] += 1
        if (self.run_dir / "progress.json").exists() and calls["n"] > 1:
            raise KeyboardInterrupt  # the run is cut here

    monkeypatch.setattr(ExpertRun, "_round", cut_after_a_checkpoint)
    with pytest.raises(KeyboardInterrupt):
        train_expert(
            "fungi_v0",
            minutes=0.3,
            seed=0,
            run_dir=folder,
            progress_bar=False,
            tensorboard=False,
            checkpoint_minutes=0.01,
            **{**TINY, "curve_points": 0},
        )
    monkeypatch.setattr(ExpertRun, "_round", original)
    cut = json.loads((folder / "progress.json").read_text())
    assert not (folder / "final.pt").exists()
    summary = train_expert("fungi_v0", resume=folder, progress_bar=False, tensorboard=False)
    done = json.loads((folder / "progress.json").read_text())
    assert done["positions"] > cut["positions"] and done["updates"] > cut["updates"]
    assert done["seconds"] >= 18.0, "the time budget is the whole run's"
    assert summary["timing"]["wall_seconds"] >= cut["seconds"]
    assert (folder / "final.pt").exists()


def test_bad_settings_are_refused_with_the_valid_choices(tmp_path):
    with pytest.raises(TypeError, match="unknown hyper-parameter.*known:"):
        check_hyper({"simulatons": 10})
    with pytest.raises(ValueError, match="unknown expert 'alphazero'; choices"):
        check_hyper({"expert": "alphazero"})
    for name, value in (
        ("simulations", 0),
        ("games", -1),
        ("reuse", 0.0),
        ("explore_moves", -2),
        ("imitation_epochs", 0),
    ):
        with pytest.raises(ValueError, match=name):
            check_hyper({name: value})
    with pytest.raises(ValueError, match="unknown lr_schedule 'linear'; choices"):
        check_hyper({"lr_schedule": "linear"})
    with pytest.raises(ValueError, match="final_learning_rate"):
        check_hyper({"final_learning_rate": -1.0})
    with pytest.raises(ValueError, match="puct_from"):
        check_hyper({"puct_from": 1.5})
    with pytest.raises(ValueError, match="unknown env 'fungi_v9'; registered envs"):
        train_expert("fungi_v9", minutes=1, run_dir=tmp_path / "a")
    with pytest.raises(ValueError, match="minutes must be a positive number"):
        train_expert("fungi_v0", minutes=0, run_dir=tmp_path / "b")
    with pytest.raises(ValueError, match="actors must be an integer"):
        train_expert("fungi_v0", minutes=1, actors=-1, run_dir=tmp_path / "c")
    (tmp_path / "d").mkdir()
    with pytest.raises(ValueError, match="no train.json"):
        train_expert("fungi_v0", resume=tmp_path / "d")
    with pytest.raises(SystemExit, match="--hyper wants NAME=VALUE"):
        expert_main(["fungi_v0", "--hyper", "nonsense=1"])
    with pytest.raises(SystemExit, match="--hyper reuse wants a float"):
        expert_main(["fungi_v0", "--hyper", "reuse=lots"])
    from mushgym.agents.expert import parse_hyper

    assert parse_hyper("expert=mcts") == ("expert", "mcts") and parse_hyper("net_arch=8,8") == ("net_arch", (8, 8))
    with pytest.raises(SystemExit, match="unknown --algo 'alphazero'; choose one of ppo, expert"):
        from mushgym.agents.cli import train_main

        train_main(["fungi_v0", "--algo", "alphazero"])
    assert set(DEFAULTS) >= {"expert", "simulations", "reuse"}


def test_a_resumed_run_refuses_a_broken_checkpoint(run, tmp_path):
    import shutil

    folder, _ = run
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    (copy / "checkpoints" / "optimizer.pt").write_bytes(b"not a torch file")
    with pytest.raises(ValueError, match="optimizer.pt is not an optimizer state"):
        train_expert("fungi_v0", resume=copy, progress_bar=False, tensorboard=False)
    network = json.loads((copy / "progress.json").read_text())["network"]
    (copy / "checkpoints" / network).write_bytes(b"\x80\x04 junk")
    with pytest.raises(ValueError, match="not a weights-only file"):
        train_expert("fungi_v0", resume=copy, progress_bar=False, tensorboard=False)
