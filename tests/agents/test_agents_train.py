"""Smoke tests of training and model evaluation (need the train extra; CI installs it)."""

import json

import numpy as np
import pytest

pytestmark = pytest.mark.train
pytest.importorskip("sb3_contrib")

from paths import REPO_ROOT, TESTS_DIR  # noqa: E402,F401

import mushgym  # noqa: E402
from mushgym.agents import load_policy, make_agent, play_match, tournament, train_main, train_ppo  # noqa: E402
from mushgym.agents.ppo import PolicyAgent  # noqa: E402

SMALL = dict(
    n_envs=2,
    n_steps=128,
    batch_size=128,
    n_epochs=2,
    net_arch=(32, 32),
    checkpoint_every=512,
    curve_points=2,
    curve_games=4,
)


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    run = tmp_path_factory.mktemp("ppo")
    model = train_ppo("fungi_v0", steps=2048, opponent="random", seed=0, run_dir=run, progress_bar=False, **SMALL)
    return model, run


def test_train_ppo_writes_a_learning_curve_and_the_policy(trained):
    import csv

    model, run = trained
    rows = list(csv.DictReader(open(run / "learning_curve.csv")))
    assert len(rows) >= 2 and int(rows[-1]["steps"]) == model.num_timesteps
    assert [int(r["steps"]) for r in rows] == sorted(int(r["steps"]) for r in rows)
    for r in rows:
        assert 0 <= float(r["win_vs_random_lo"]) <= float(r["win_vs_random"]) <= float(r["win_vs_random_hi"]) <= 1
        assert "win_vs_greedy" in r
    assert (run / "learning_curve.png").stat().st_size > 1000
    assert load_policy(run / "final.pt").encoder.name == "scaled"


def test_a_short_run_still_leaves_a_checkpoint_and_a_fresh_folder_each_time(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    small = {**SMALL, "checkpoint_every": 100_000, "curve_points": 0}
    a = train_ppo("fungi_v0", steps=256, opponent="random", progress_bar=False, tensorboard=False, **small)
    b = train_ppo("fungi_v0", steps=256, opponent="random", progress_bar=False, tensorboard=False, **small)
    assert a.mushgym_run_dir != b.mushgym_run_dir
    assert a.mushgym_run_dir.resolve().parent == (tmp_path / "runs").resolve()
    for m in (a, b):
        assert list((m.mushgym_run_dir / "checkpoints").glob("ppo_*_steps.zip"))  # 256 steps < checkpoint_every
    with pytest.raises(FileExistsError, match="already holds files"):
        train_ppo("fungi_v0", steps=256, run_dir=a.mushgym_run_dir, progress_bar=False, **small)


def test_time_budget_progress_bar_counts_seconds():
    import io

    from mushgym.agents.progress import TimeProgressBar

    now = [100.0]
    bar = TimeProgressBar(180.0, every=0.0, clock=lambda: now[0], file=io.StringIO())

    class FakeModel:
        num_timesteps = 0

    bar.model = FakeModel()  # what SB3 sets in init_callback
    bar._on_training_start()
    assert bar.bar.total == 180
    now[0] += 90.0
    bar.model.num_timesteps = 45_000
    bar._on_step()
    assert bar.bar.n == pytest.approx(90.0)  # half the budget: the bar is half full
    assert bar.bar.format_dict["total"] == 180
    now[0] += 500.0
    bar._on_step()
    assert bar.bar.n == pytest.approx(180.0)  # never past the budget
    bar._on_training_end()


def test_train_ppo_writes_model_logs_checkpoints_timing(trained):
    model, run = trained
    assert model.num_timesteps >= 2048
    assert (run / "final.zip").exists()
    meta = json.loads((run / "final.json").read_text())
    assert meta["env_id"] == "fungi_v0" and meta["encoder"] == "scaled"
    assert list((run / "checkpoints").glob("ppo_*_steps.zip"))
    assert list((run / "tb").rglob("events.out.tfevents.*"))
    timing = json.loads((run / "timing.json").read_text())
    assert timing["learner_steps"] >= 2048 and timing["opponent_steps"] > 0
    shares = [timing[k] for k in ("share_env", "share_opponents", "share_rollout_network_and_sb3", "share_ppo_update")]
    assert all(0 <= s <= 1 for s in shares) and sum(shares) <= 1.05


def test_saved_model_is_an_agent_that_plays_legally(trained):
    _, run = trained
    agent = load_policy(run / "final.zip", trust=True)
    assert make_agent(str(run / "final.zip"), env_id="fungi_v0", trust=True).encoder.name == "scaled"
    game = mushgym.game("fungi_v0")
    s = game.new_state(3)
    mask = game.legal_mask(s)
    a = agent.act(game.observe(s, game.current_player(s)), mask)
    assert mask[a]
    m = play_match(game, agent, make_agent("random"), 6, seed=0)
    assert m.wins + m.draws + m.losses == 6
    ckpt = sorted((run / "checkpoints").glob("*.zip"))[0]
    assert load_policy(ckpt, trust=True).encoder.name == "scaled"  # checkpoints find the run's final.json
    with pytest.raises(ValueError, match="trained on fungi_v0"):
        load_policy(run / "final.zip", env_id="mycology_v1", trust=True)


def test_policy_agent_matches_sb3_predict_and_samples_legally(trained):
    model, run = trained
    agent = load_policy(run / "final.zip", trust=True)
    game = mushgym.game("fungi_v0")
    rng = np.random.default_rng(0)
    s = game.new_state(1)
    checked = 0
    while not game.is_terminal(s) and checked < 30:
        o, m = game.observe(s, game.current_player(s)), game.legal_mask(s)
        expected, _ = model.predict(agent.encoder(o), deterministic=True, action_masks=m.astype(bool))
        assert agent.act(o, m) == int(expected)
        agent.deterministic = False
        assert all(m[agent.act(o, m)] for _ in range(10))
        agent.deterministic = True
        legal = np.flatnonzero(m)
        game.step_inplace(s, int(legal[rng.integers(legal.size)]))
        checked += 1


def test_exported_policy_plays_like_the_model(trained, tmp_path):
    from mushgym.agents.ppo import export_policy

    _, run = trained
    out = export_policy(run / "final.zip", tmp_path / "policy.pt", trust=True)
    assert out.stat().st_size < (run / "final.zip").stat().st_size
    game = mushgym.game("fungi_v0")
    a, b = load_policy(run / "final.zip", trust=True), make_agent(str(out), env_id="fungi_v0")
    for seed in range(5):
        s = game.new_state(seed)
        o, m = game.observe(s, game.current_player(s)), game.legal_mask(s)
        assert a.act(o, m) == b.act(o, m)


def test_tournament_with_a_saved_model(trained, tmp_path):
    _, run = trained
    res = tournament(
        "fungi_v0",
        {"random": "random", "greedy": "greedy", "ppo": str(run / "final.zip")},
        games=6,
        seed=0,
        verbose=False,
        csv_path=tmp_path / "e.csv",
        trust_models=True,
    )
    assert set(res.elo) == {"random", "greedy", "ppo"} and (tmp_path / "e_elo.csv").exists()


def test_self_play_adds_snapshots_of_the_learner(tmp_path):
    model = train_ppo(
        "fungi_v0",
        steps=1024,
        opponent="self",
        seed=1,
        run_dir=tmp_path,
        progress_bar=False,
        tensorboard=False,
        snapshot_every=256,
        max_snapshots=2,
        **{k: v for k, v in SMALL.items() if k != "checkpoint_every"},
        checkpoint_every=0,
    )
    pool = model.get_env().get_attr("pool")[0]  # the training games' opponent pool
    names = [getattr(a, "name", "") for a in pool.agents]
    assert names[:2] == ["random", "greedy"]
    snaps = names[2:]
    assert len(snaps) == 2 and all(n.startswith("snapshot") for n in snaps)
    snap = pool.agents[-1]
    assert snap.policy is not model.policy  # frozen: a copy, not the live network
    obs = np.random.default_rng(0).random((7, *model.observation_space.shape)).astype(np.float32)
    torch_logits = PolicyAgent(snap.policy, snap.encoder).logits(obs)  # the torch path
    assert snap._numpy_actor is not None  # snapshots run their actor in numpy
    np.testing.assert_allclose(snap.logits(obs), torch_logits, rtol=1e-4, atol=1e-5)
    p0 = next(snap.policy.parameters()).clone()
    model.learn(256, reset_num_timesteps=False)
    assert np.allclose(next(snap.policy.parameters()).detach().numpy(), p0.numpy())


def test_train_main_cli(tmp_path, capsys):
    assert (
        train_main(
            [
                "fungi_v0",
                "--steps",
                "512",
                "--opponent",
                "greedy",
                "--seed",
                "2",
                "--n-envs",
                "2",
                "--run-dir",
                str(tmp_path),
                "--no-progress",
                "--eval-games",
                "4",
                "--curve-points",
                "1",
                "--curve-games",
                "2",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "saved" in out and "Elo" in out and "learning curve" in out
    assert (tmp_path / "final.zip").exists() and (tmp_path / "eval.csv").exists()
    assert (tmp_path / "learning_curve.csv").exists() and (tmp_path / "eval_table.txt").exists()
    with pytest.raises(SystemExit, match="already holds files"):
        train_main(["fungi_v0", "--steps", "64", "--run-dir", str(tmp_path), "--no-progress"])
    with pytest.raises(SystemExit, match="unknown env 'fungi'"):
        train_main(["fungi", "--steps", "64"])


def test_example_train_and_evaluate(tmp_path):
    import subprocess
    import sys

    root = REPO_ROOT
    script = root / "examples" / "train_fungi_ppo.py"
    out = subprocess.run(
        [sys.executable, str(script), "--steps", "1024", "--games", "4"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout
    assert "PPO beats greedy" in out
    assert len(list((tmp_path / "runs").glob("*/final.zip"))) == 1


def test_example_play_against_the_shipped_model():
    import subprocess
    import sys

    root = REPO_ROOT
    if not (root / "benchmarks" / "training" / "fungi_v0_ppo.pt").exists():
        pytest.skip("no shipped model")
    out = subprocess.run(
        [sys.executable, str(root / "examples" / "play_vs_model.py"), "--seed", "2"],
        input="1\n" * 400,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout
    assert "your move (number, q to quit)>" in out


def test_a_cut_run_resumes_from_its_latest_checkpoint(tmp_path):
    small = {k: v for k, v in SMALL.items() if k not in ("checkpoint_every", "curve_points", "curve_games")}
    run = tmp_path / "run"
    train_ppo(
        "fungi_v0",
        steps=1024,
        opponent="self",
        seed=3,
        run_dir=run,
        progress_bar=False,
        tensorboard=False,
        curve_points=0,
        checkpoint_every=256,
        snapshot_every=256,
        max_snapshots=2,
        **small,
    )
    progress = json.loads((run / "progress.json").read_text())["checkpoints"]
    assert sorted(map(int, progress)) == [256, 512, 768, 1024]
    assert [progress[k]["seconds"] for k in ("256", "512", "768", "1024")] == sorted(
        progress[k]["seconds"] for k in ("256", "512", "768", "1024")
    )
    for gone in (768, 1024):  # the run "was cut" after its 512-step checkpoint
        (run / "checkpoints" / f"ppo_{gone}_steps.zip").unlink()
    (run / "final.zip").unlink()
    # the arguments other than the env and the budget are ignored: the run's own settings (train.json) apply
    model = train_ppo(
        "fungi_v0", opponent="random", resume=run, trust_resume=True, progress_bar=False, tensorboard=False
    )
    assert model.num_timesteps == 1024
    assert json.loads((run / "final.json").read_text())["steps"] == 1024
    pool = model.get_env().get_attr("pool")[0]
    names = [getattr(a, "name", "") for a in pool.agents]
    assert names[:2] == ["random", "greedy"]
    # the two snapshots kept at 512 steps came back from their checkpoints; two more were taken after
    assert names[2:] == ["snapshot3@768", "snapshot4@1024"]
    assert (run / "checkpoints" / "ppo_1024_steps.zip").exists()
    assert (
        load_policy(run / "final.pt").act(
            np.zeros(model.observation_space.shape, np.float32), np.ones(model.action_space.n, np.int8)
        )
        >= 0
    )
    # a finished run goes on when its budget is raised (the whole run's total), and keeps the new total
    model = train_ppo("fungi_v0", steps=1280, resume=run, trust_resume=True, progress_bar=False, tensorboard=False)
    assert model.num_timesteps == 1280
    assert json.loads((run / "train.json").read_text())["steps"] == 1280


def test_resume_refuses_a_folder_that_is_not_a_run_or_another_env(tmp_path):
    with pytest.raises(ValueError, match="no train.json"):
        train_ppo("fungi_v0", resume=tmp_path, trust_resume=True, progress_bar=False)
    (tmp_path / "train.json").write_text(json.dumps({"env_id": "mycology_v1"}))
    with pytest.raises(ValueError, match="it trains mycology_v1"):
        train_ppo("fungi_v0", resume=tmp_path, trust_resume=True, progress_bar=False)


def test_resumed_self_play_pool_gets_back_the_snapshots_it_had(tmp_path):
    from mushgym.agents.ppo import _refill_snapshots
    from mushgym.wrappers import OpponentPool

    small = {k: v for k, v in SMALL.items() if k not in ("checkpoint_every", "curve_points", "curve_games")}
    model = train_ppo(
        "fungi_v0",
        steps=768,
        opponent="self",
        seed=1,
        run_dir=tmp_path,
        progress_bar=False,
        tensorboard=False,
        curve_points=0,
        checkpoint_every=256,
        snapshot_every=256,
        **small,
    )
    pool = OpponentPool(["random"], env_id="fungi_v0", max_size=2)
    taken = _refill_snapshots(
        pool, tmp_path, 768, {"snapshot_every": 256, "max_snapshots": 2}, 0, model._mushgym_encoder
    )
    assert taken == 3 and [a.name for a in pool.agents] == ["random", "snapshot2@512", "snapshot3@768"]
    obs = np.random.default_rng(0).random((3, *model.observation_space.shape)).astype(np.float32)
    last = load_policy(tmp_path / "checkpoints" / "ppo_768_steps.zip", trust=True)
    np.testing.assert_allclose(pool.agents[-1].logits(obs), last.logits(obs), rtol=1e-4, atol=1e-5)


def test_train_cli_hyper_parameters(tmp_path):
    from mushgym.agents.ppo import parse_hyper

    assert parse_hyper("net_arch=64,32") == ("net_arch", (64, 32))
    assert parse_hyper("ent_coef=0.02") == ("ent_coef", 0.02)
    assert parse_hyper("n_steps=512") == ("n_steps", 512)
    with pytest.raises(SystemExit, match="NAME one of"):
        parse_hyper("entropy=0.1")
    with pytest.raises(SystemExit, match="wants a int"):
        parse_hyper("n_steps=lots")
    assert (
        train_main(
            [
                "fungi_v0",
                "--steps",
                "256",
                "--opponent",
                "random",
                "--n-envs",
                "2",
                "--hyper",
                "n_steps=128",
                "--hyper",
                "batch_size=128",
                "--hyper",
                "net_arch=16,16",
                "--run-dir",
                str(tmp_path),
                "--no-progress",
                "--eval-games",
                "0",
                "--curve-points",
                "0",
            ]
        )
        == 0
    )
    meta = json.loads((tmp_path / "final.json").read_text())
    assert meta["hyper"]["net_arch"] == [16, 16] and meta["policy"]["net_arch"] == [16, 16]


def test_teacher_games_record_every_seat_of_finished_games():
    from mushgym.agents.imitation import collect_teacher_games
    from mushgym.wrappers import make_encoder

    game = mushgym.game("fungi_v0")
    enc = make_encoder("scaled", game)
    data = collect_teacher_games(
        game, make_agent("greedy", env_id="fungi_v0", seed=0), enc, samples=300, seed=4, num_games=4
    )
    n = len(data["actions"])
    assert n >= 300 and data["games"] >= 1
    assert data["obs"].shape == (n, *enc.space.shape) and data["masks"].shape == (n, game.num_actions)
    assert data["masks"][np.arange(n), data["actions"]].all()  # the teacher's actions are legal
    assert set(np.unique(data["returns"])) <= {-1.0, 0.0, 1.0}  # fungi's win/loss returns
    assert (data["returns"] > 0).any() and (data["returns"] < 0).any()  # both seats' views are kept


def test_pretraining_makes_the_policy_agree_with_its_teacher(tmp_path):
    import torch

    from mushgym.agents.imitation import _agreement, collect_teacher_games, pretrain
    from mushgym.wrappers import make_encoder

    game = mushgym.game("fungi_v0")
    enc = make_encoder("scaled", game)
    data = collect_teacher_games(game, make_agent("greedy", env_id="fungi_v0", seed=0), enc, samples=1500, seed=5)
    model = train_ppo(
        "fungi_v0",
        steps=64,
        opponent="random",
        seed=0,
        run_dir=tmp_path,
        progress_bar=False,
        tensorboard=False,
        n_envs=2,
        n_steps=32,
        batch_size=64,
        n_epochs=1,
        curve_points=0,
        checkpoint_every=0,
    )
    pol = model.policy
    args = (torch.as_tensor(data["obs"]), torch.as_tensor(data["masks"]), torch.as_tensor(data["actions"]))
    before = _agreement(pol, *args)
    report = pretrain(pol, data, epochs=6, seed=0)
    assert _agreement(pol, *args) > before + 0.2
    assert report["last_loss"] < report["first_loss"] and 0.0 <= report["held_out_agreement"] <= 1.0


def test_train_ppo_with_an_imitation_warm_start(tmp_path):
    small = {k: v for k, v in SMALL.items() if k not in ("curve_points", "curve_games")}
    model = train_ppo(
        "fungi_v0",
        steps=256,
        opponent="greedy",
        seed=0,
        run_dir=tmp_path,
        progress_bar=False,
        tensorboard=False,
        curve_points=0,
        imitation_samples=400,
        imitation_epochs=2,
        **small,
    )
    report = json.loads((tmp_path / "imitation.json").read_text())
    assert report["samples"] >= 400 and report["teacher"] == "greedy"
    progress = json.loads((tmp_path / "progress.json").read_text())["checkpoints"]
    assert "0" in progress and (tmp_path / "checkpoints" / "ppo_0_steps.zip").exists()
    # the warm start's time counts towards the run's wall clock
    assert progress["0"]["seconds"] >= report["seconds"]
    assert json.loads((tmp_path / "final.json").read_text())["wall_seconds"] >= report["seconds"]
    assert model.num_timesteps == 256


def test_resume_needs_the_run_to_be_trusted(tmp_path):
    """A run's checkpoints are SB3 archives (pickles): resuming one is refused unless trusted."""
    with pytest.raises(ValueError, match="trust_resume=True"):
        train_ppo("fungi_v0", resume=tmp_path, progress_bar=False)
