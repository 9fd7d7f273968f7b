"""mushgym.integrations.rllib: the multi-agent env, the masked module, the self-play mapping, and
(small form) training on a local Ray instance with 2 env runners: fungi_v0 and mycology_v1
(3 players), 2 iterations each; masked actions never chosen, rewards in the right seats, the
checkpoint reloads and plays (``mushgym eval`` / ``play`` path)."""

from __future__ import annotations

import os
import time

import numpy as np
import pytest

ray = pytest.importorskip("ray", reason="needs the rllib extra")
pytest.importorskip("ray.rllib")

import ci_scope  # noqa: E402

import mushgym  # noqa: E402
from mushgym.integrations import rllib as mrl  # noqa: E402
from mushgym.integrations.ray_session import init_ray  # noqa: E402
from mushgym.integrations.rllib_policy import FLOAT_MIN, export_file  # noqa: E402

# one worker, one local Ray for the whole file (addopts: --dist loadgroup): a second Ray start costs ~15-50 s
pytestmark = [pytest.mark.rllib, pytest.mark.xdist_group("ray")]

CASES = [("fungi_v0", {}), ("mycology_v1", {"num_players": 3})]
TINY = dict(train_batch_size=256, minibatch_size=128, num_epochs=1, hidden=[32], rollout_fragment_length=64)


def _random_episode(env, rng, seed):
    obs, _ = env.reset(seed=seed)
    total = {a: 0.0 for a in env.possible_agents}
    steps = 0
    while True:
        assert len(obs) == 1, "a turn-based step observes only the player to act"
        ((agent, o),) = obs.items()
        seat = mrl.seat_of(agent)
        assert seat == env.game.current_player(env.state)
        mask = o["action_mask"]
        np.testing.assert_array_equal(mask, env.game.legal_mask(env.state).astype(np.float32))
        assert o["observations"] in env.observation_spaces[agent]["observations"]
        action = int(rng.choice(np.flatnonzero(mask)))
        obs, rew, term, trunc, info = env.step({agent: action})
        steps += 1
        for a, r in rew.items():
            total[a] += r
        if term["__all__"] or trunc["__all__"]:
            return total, info, term["__all__"], trunc["__all__"], steps


@pytest.mark.parametrize("env_id,options", CASES)
def test_env_rewards_reach_their_seats(env_id, options):
    env = mrl.MushgymMultiAgentEnv({"env_id": env_id, "options": options})
    rng = np.random.default_rng(0)
    for g in range(4):
        total, info, term, trunc, steps = _random_episode(env, rng, seed=100 + g)
        returns = env.game.returns(env.state)
        assert term != trunc
        assert trunc == env.game.is_truncated(env.state)
        for a, r in total.items():
            s = mrl.seat_of(a)
            assert r == pytest.approx(returns[s]), f"{a} got {r}, its seat's return is {returns[s]}"
            assert info[a]["seat"] == s and info[a]["returns"] == returns.tolist()
        assert steps <= env.game.spec.max_game_length


def test_env_seeds_and_refuses_masked_actions():
    env = mrl.MushgymMultiAgentEnv({"env_id": "fungi_v0"})
    a, _ = env.reset(seed=7)
    b, _ = env.reset(seed=7)
    ((name, oa),) = a.items()
    np.testing.assert_array_equal(oa["observations"], b[name]["observations"])
    illegal = np.flatnonzero(oa["action_mask"] == 0)
    with pytest.raises(ValueError, match="forbids"):
        env.step({name: int(illegal[0])})
    other = next(x for x in env.possible_agents if x != name)
    with pytest.raises(ValueError, match="turn"):
        env.step({other: 0})
    with pytest.raises(ValueError, match="registered envs"):
        mrl.MushgymMultiAgentEnv({"env_id": "nope_v0"})


def test_module_masks_logits():
    import gymnasium as gym
    import torch
    from ray.rllib.core.columns import Columns

    game = mushgym.game("mycology_v1", num_players=3)
    from mushgym.wrappers import make_encoder

    space = mrl.observation_space(game, make_encoder("scaled", game))
    module = mrl.MaskedMLPModule(
        observation_space=space, action_space=gym.spaces.Discrete(game.num_actions), model_config={"hidden": [16]}
    )
    rng = np.random.default_rng(1)
    masks = (rng.random((64, game.num_actions)) < 0.2).astype(np.float32)
    masks[np.arange(64), rng.integers(game.num_actions, size=64)] = 1.0
    batch = {
        Columns.OBS: {
            "observations": torch.as_tensor(rng.random((64, space["observations"].shape[0]), dtype=np.float32)),
            "action_mask": torch.as_tensor(masks),
        }
    }
    for forward in (module.forward_exploration, module.forward_inference, module.forward_train):
        logits = forward(batch)[Columns.ACTION_DIST_INPUTS]
        probs = torch.softmax(logits, -1).detach().numpy()
        assert (probs[masks == 0] == 0).all()
        assert np.allclose(probs.sum(1), 1)
        assert (logits.detach().numpy()[masks == 0] == FLOAT_MIN).all()
        dist = module.get_exploration_action_dist_cls().from_logits(logits)
        draws = torch.stack([dist.sample() for _ in range(20)]).numpy()
        assert masks[np.arange(64)[None, :].repeat(20, 0), draws].all()
    assert module.compute_values(batch).shape == (64,)


def test_seat_mapping():
    m = mrl.SeatMapping(3, "shared", league=4)
    assert m.module_ids == ["main", "league_0", "league_1", "league_2", "league_3"] and m.trained == ["main"]
    seen_main = set()
    for i in range(200):
        ep = f"episode-{i}"
        ids = [m(mrl.agent_name(s), ep) for s in range(3)]
        assert ids.count("main") == 1 and ids == [m(mrl.agent_name(s), ep) for s in range(3)]
        assert all(x in m.module_ids for x in ids)
        seen_main.add(ids.index("main"))
    assert seen_main == {0, 1, 2}
    assert {mrl.SeatMapping(3, "shared", 0)(mrl.agent_name(s), "e") for s in range(3)} == {"main"}
    per = mrl.SeatMapping(3, "per_seat", 0)
    assert [per(mrl.agent_name(s), "e") for s in range(3)] == ["seat_0", "seat_1", "seat_2"] == per.trained
    with pytest.raises(ValueError, match="shared"):
        mrl.SeatMapping(2, "each", 0)
    with pytest.raises(ValueError, match="unknown hyperparameters"):
        mrl.build_config("fungi_v0", lr_typo=1)


def _ray_children() -> list[str]:
    """Names of this process's descendants that are Ray's daemons."""
    me = os.getpid()
    kids: dict[int, list[int]] = {}
    names: dict[int, str] = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)
            names[int(pid)] = fields[0].split("(", 1)[1]
            kids.setdefault(int(fields[1].split()[1]), []).append(int(pid))
        except (OSError, IndexError):
            continue
    out, todo = [], list(kids.get(me, []))
    while todo:
        p = todo.pop()
        out.append(names.get(p, "?"))
        todo += kids.get(p, [])
    return [n for n in out if n in ("raylet", "gcs_server") or n.startswith("ray::")]


@pytest.fixture(scope="module")
def local_ray():
    assert init_ray(num_cpus=2), "a new local instance, whatever cluster ray start left recorded"
    try:
        yield
    finally:
        ray.shutdown()
        deadline = time.time() + 20
        while _ray_children() and time.time() < deadline:
            time.sleep(0.2)
        assert not _ray_children(), f"Ray left processes running: {_ray_children()}"


@pytest.mark.parametrize("env_id,options", ci_scope.rllib_training_cases(CASES))
def test_train_two_runners_checkpoint_plays(env_id, options, local_ray, tmp_path, monkeypatch, capsys):
    from mushgym.agents import make_agent, play_games
    from mushgym.agents.evaluate import eval_main

    game = mushgym.game(env_id, **options)
    checked = []

    def on_iteration(algo, it, result):
        assert algo.env_runner_group.num_remote_env_runners() == 2
        if it == 2:  # one episode sampled inside each runner, audited there (mask, returns, modules)
            per_runner = algo.env_runner_group.foreach_env_runner(mrl.audit_runner, local_env_runner=False)
            checked.extend(x for runner in per_runner for x in runner)

    run = mrl.train(
        env_id,
        2,
        options=options,
        env_runners=2,
        league=2,
        snapshot_every=1,
        seed=3,
        run_dir=tmp_path / "run",
        checkpoint_every=2,
        progress=False,
        on_iteration=on_iteration,
        **TINY,
    )
    assert run["iterations"] == 2 and run["env_steps"] >= 2 * TINY["train_batch_size"]
    steps = [row["env_steps"] for row in run["rows"]]
    assert 0 < steps[0] < steps[1], f"an iteration sampled nothing: {steps}"
    assert (tmp_path / "run" / "progress.csv").read_text().count("\n") == 3
    assert list((tmp_path / "run" / "tb").iterdir())
    assert len(checked) == 2  # one episode from each of the 2 runners
    for audit in checked:
        actions, masked, seats = audit["actions"], audit["masked"], audit["seats"]
        assert audit["done"] and actions > 0
        assert masked == 0, f"{masked} of {actions} actions were masked"
        assert sorted(seats) == list(range(game.num_players))
        assert [m for _, _, m in seats.values()].count("main") == 1
        for seat, (ret, returns, _) in seats.items():
            assert ret == pytest.approx(returns[seat]), f"seat {seat}: return {ret}, game says {returns}"
    ckpt = run["checkpoint"]
    assert ckpt.name == "iter_000002" and export_file(ckpt) == ckpt / "policy.pt"
    assert (ckpt / "rllib_checkpoint.json").exists()
    # the checkpoint folder and the final export play like any model: make_agent, play_games, eval
    agent = make_agent(str(ckpt), env_id=env_id, seed=0)
    seats = [agent] + [make_agent("random", seed=s) for s in range(1, game.num_players)]
    res = play_games(game, seats, n_games=4, seed=0)
    assert res["returns"].shape == (4, game.num_players)
    with pytest.raises(ValueError, match="trained on"):
        make_agent(str(run["final"]), env_id="mycelia_v1" if env_id != "mycelia_v1" else "fungi_v0")
    opts = [f"--option=num_players={options['num_players']}"] if options else []
    assert eval_main([env_id, "random", str(run["final"]), "--games", "4", "--out", str(tmp_path / "eval")] + opts) == 0
    # mushgym play with the checkpoint folder as the opponent: the seat that starts game 5 is the
    # model's, it moves, then the human (the next seat) quits
    from mushgym.cli import main as cli_main

    first = game.current_player(game.new_state(5))
    monkeypatch.setattr("builtins.input", lambda *a: "q")
    capsys.readouterr()
    seat = (first + 1) % game.num_players
    assert cli_main(["play", env_id, "--opponent", str(ckpt), "--seat", str(seat), "--seed", "5"] + opts) == 0
    out = capsys.readouterr().out
    assert f"player {first}:" in out and "you quit" in out


def test_export_loads_weights_only(tmp_path):
    """An RLlib export is read with weights_only: a pickled object in its .pt is refused, a wrong
    network description too; a good one plays legal moves without Ray."""
    import pickle

    import torch

    from mushgym.agents import make_agent
    from mushgym.integrations.rllib_policy import build_mlp, save_export

    game = mushgym.game("fungi_v0")
    from mushgym.wrappers import make_encoder

    n_in = make_encoder("scaled", game).space.shape[0]
    net = build_mlp(n_in, [8], game.num_actions)
    meta = {"env_id": "fungi_v0", "options": {}, "encoder": "scaled", "hidden": [8], "activation": "tanh"}
    good = save_export(net.state_dict(), tmp_path / "ok" / "policy.pt", meta)
    agent = make_agent(str(good.parent), env_id="fungi_v0", seed=0)  # the folder, like a checkpoint
    state = game.new_state(3)
    for _ in range(30):
        if game.is_terminal(state):
            break
        p = game.current_player(state)
        mask = game.legal_mask(state)
        a = agent.act(game.observe(state, p), mask)
        assert mask[a]
        state = game.step(state, a)

    class Evil:
        def __reduce__(self):
            return (print, ("this ran",))

    bad = save_export(net.state_dict(), tmp_path / "bad" / "policy.pt", meta)
    with open(bad, "wb") as f:
        torch.save({"x": Evil()}, f, pickle_module=pickle)
    with pytest.raises(ValueError, match="weights-only"):
        make_agent(str(bad), env_id="fungi_v0")
    wrong = save_export(net.state_dict(), tmp_path / "wrong" / "policy.pt", {**meta, "hidden": [9]})
    with pytest.raises(ValueError, match="do not fit"):
        make_agent(str(wrong), env_id="fungi_v0")
