"""Agents: the policy interface, random and greedy baselines, the game runner, tournaments."""

import csv
import subprocess
import sys

import ci_scope
import numpy as np
import pytest
from paths import REPO_ROOT, TESTS_DIR  # noqa: E402,F401
from toygame.game import ToyGame

import mushgym
from mushgym import testing
from mushgym.agents import (
    Agent,
    FunctionAgent,
    GreedyAgent,
    RandomAgent,
    bradley_terry_elo,
    eval_main,
    make_agent,
    play_games,
    play_match,
    tournament,
    wilson_interval,
)
from mushgym.agents.evaluate import MatchResult, seating

ENV_IDS = mushgym.list_envs()


def add_one(obs, mask):
    return 0


def random_states(game, n_games=6, seed=0, every=3):
    return testing.random_states(game, n_games, seed, every)


def test_import_does_not_pull_torch():
    code = (
        "import sys, mushgym.agents, mushgym.wrappers; "
        "bad = [m for m in ('torch', 'stable_baselines3', 'sb3_contrib') if m in sys.modules]; "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_random_agent_is_legal_seeded_and_uniform():
    mask = np.zeros(10, np.int8)
    mask[[2, 5, 7]] = 1
    a = RandomAgent(seed=3)
    picks = [a.act(None, mask) for _ in range(3000)]
    assert set(picks) == {2, 5, 7}
    counts = np.bincount(picks, minlength=10)[[2, 5, 7]]
    assert (np.abs(counts / 3000 - 1 / 3) < 0.05).all()
    assert [RandomAgent(seed=1).act(None, mask) for _ in range(5)] == [
        RandomAgent(seed=1).act(None, mask) for _ in range(5)
    ]
    masks = np.zeros((500, 10), np.int8)
    masks[:, [1, 4]] = 1
    masks[::2, 9] = 1
    acts = a.act_batch(np.zeros((500, 3)), masks)
    assert masks[np.arange(500), acts].all()
    assert set(acts[1::2]) == {1, 4} and set(acts[::2]) == {1, 4, 9}
    with pytest.raises(ValueError, match="no legal action"):
        a.act(None, np.zeros(10, np.int8))


def test_make_agent():
    assert isinstance(make_agent("random"), RandomAgent)
    assert isinstance(make_agent("greedy", env_id="fungi_v0"), GreedyAgent)
    a = RandomAgent()
    assert make_agent(a) is a
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("nobody")


def test_play_games_toy_is_deterministic_and_scores_seats():
    game = ToyGame()
    always1 = FunctionAgent(add_one, "add1")
    r1 = play_games(game, [RandomAgent(seed=0), always1], 50, seed=7)
    r2 = play_games(game, [RandomAgent(seed=0), always1], 50, seed=7)
    assert np.array_equal(r1["returns"], r2["returns"]) and np.array_equal(r1["lengths"], r2["lengths"])
    assert set(np.unique(r1["returns"])) <= {-1.0, 1.0}
    assert (r1["returns"].sum(axis=1) == 0).all()
    # add-1 against add-1: ten steps, the second seat makes the tenth and wins
    r = play_games(game, [always1, always1], 5)
    assert (r["lengths"] == 10).all() and (r["returns"][:, 1] == 1).all()


def test_play_games_rejects_illegal_agent():
    class Bad(Agent):
        def act(self, observation, action_mask):
            return 5

    with pytest.raises(ValueError, match="illegal action 5"):
        play_games(ToyGame(), [Bad(), Bad()], 1)


def test_generic_greedy_takes_the_immediate_win():
    game = ToyGame()
    s = game.new_state(0)
    game.step_inplace(s, 1)  # 2
    game.step_inplace(s, 1)  # 4
    game.step_inplace(s, 1)  # 6
    game.step_inplace(s, 1)  # 8: player 0 to act, adding 2 wins
    g = GreedyAgent(seed=0)
    for _ in range(20):
        assert g.act_state(game, s, game.current_player(s)) == 1
    with pytest.raises(TypeError, match="needs the game state"):
        g.act(np.zeros(4), np.ones(2, np.int8))


@pytest.mark.parametrize("env_id", ENV_IDS + ["toy"])
def test_greedy_does_not_peek_at_hidden_information(env_id):
    """The greedy scores must not change when what the player cannot see is redrawn."""
    game = ToyGame() if env_id == "toy" else mushgym.game(env_id)
    g = GreedyAgent(game.env_id, seed=0)
    rng = np.random.default_rng(1)
    checked = 0
    n_games, every = ci_scope.state_sample(env_id, 4, 2)
    for s in random_states(game, n_games=n_games, every=every):
        p = game.current_player(s)
        base = g.scores(game, s, p)
        for _ in range(2):
            other = game.perturb_hidden(s, p, rng)
            assert np.array_equal(game.observe(other, p), game.observe(s, p))
            np.testing.assert_array_equal(
                g.scores(game, other, p),
                base,
                err_msg=f"greedy scores depend on hidden cards\n{game.state_to_string(s)}",
            )
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_greedy_is_legal_and_beats_random(env_id):
    game = mushgym.game(env_id)
    n = ci_scope.match_games(env_id, 100)
    m = play_match(game, GreedyAgent(env_id, seed=0), RandomAgent(seed=1), n, seed=0)
    assert m.wins + m.draws + m.losses == n
    assert m.wins > m.losses  # a sanity check; the measured rates are in benchmarks/training


def test_seating_rotates_every_seat():
    assert seating(0, 2) == [0, 1] and seating(1, 2) == [1, 0]
    for P in (3, 4, 5, 6):
        arrangements = [seating(i, P) for i in range(2 * P)]
        for who in (0, 1):
            # each agent sits in every seat at least once over one rotation
            assert all(any(a[s] == who for a in arrangements) for s in range(P))
        assert all(set(a) == {0, 1} for a in arrangements)


def test_wilson_interval():
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    lo, hi = wilson_interval(100, 100)
    assert hi == 1.0 and lo == pytest.approx(0.963, abs=1e-3)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_bradley_terry_elo():
    # 76% score <=> +200 Elo
    m = [MatchResult("a", "b", 10000, 7597, 0, 2403)]
    elo, se = bradley_terry_elo(["a", "b"], m, anchor="b")
    assert elo["b"] == 0.0
    assert elo["a"] == pytest.approx(200, abs=3)
    assert 0 < se["a"] < 10
    # transitive ratings from a three-agent round robin, anchored at the mean
    ms = [
        MatchResult("a", "b", 1000, 640, 0, 360),
        MatchResult("b", "c", 1000, 640, 0, 360),
        MatchResult("a", "c", 1000, 760, 0, 240),
    ]
    elo, _ = bradley_terry_elo(["a", "b", "c"], ms)
    assert elo["a"] > elo["b"] > elo["c"]
    assert sum(elo.values()) == pytest.approx(0, abs=1e-6)
    # an agent that always wins keeps a finite rating
    elo, _ = bradley_terry_elo(["a", "b"], [MatchResult("a", "b", 100, 100, 0, 0)])
    assert np.isfinite(elo["a"]) and elo["a"] > elo["b"]


def test_tournament_toy_table_csv(tmp_path):
    game = ToyGame()
    agents = {"random": RandomAgent(seed=0), "add1": FunctionAgent(add_one, "add1"), "greedy": GreedyAgent(seed=0)}
    res = tournament(game, agents, games=60, seed=0, verbose=False, csv_path=tmp_path / "t.csv")
    assert len(res.matches) == 3
    for m in res.matches:
        assert m.wins + m.draws + m.losses == 60
    assert res.anchor == "greedy" and res.elo["greedy"] == 0.0  # anchored at greedy, not at random
    assert res.elo["greedy"] > res.elo["random"]
    lo, hi = res.elo_interval("add1")
    assert lo < res.elo["add1"] < hi
    rows = list(csv.DictReader(open(tmp_path / "t.csv")))
    assert len(rows) == 3 and {"wins_rate", "wins_ci95_lo", "wins_ci95_hi", "elo_a"} <= set(rows[0])
    elo_rows = list(csv.DictReader(open(tmp_path / "t_elo.csv")))
    assert {r["agent"] for r in elo_rows} == {"random", "add1", "greedy"}
    assert "Elo" in res.table()
    # seats rotated: add1 against add1-like seat order gives each side the win half the time
    m = play_match(game, FunctionAgent(add_one), FunctionAgent(add_one), 10)
    assert m.wins == 5 and m.losses == 5
    assert res.match("add1", "random").games == 60


def test_eval_main_fungi(tmp_path, capsys):
    out = tmp_path / "r.csv"
    assert eval_main(["fungi_v0", "random", "greedy", "--games", "20", "--csv", str(out)]) == 0
    text = capsys.readouterr().out
    assert "greedy" in text and "Elo" in text
    assert out.exists() and (tmp_path / "r_elo.csv").exists()
    assert "greedy" in (tmp_path / "r_table.txt").read_text()
    assert not (tmp_path / "table.txt").exists()  # a second --csv into the folder must not overwrite it


def test_cli_entry_points_for_mushgym_cli(capsys, tmp_path, monkeypatch):
    from mushgym.agents import cli

    monkeypatch.chdir(tmp_path)
    assert callable(cli.train_main)
    for _ in range(2):
        assert cli.eval_main(["fungi_v0", "random", "greedy", "--games", "4", "--opt", "reward=score_diff"]) == 0
    assert "Elo" in capsys.readouterr().out
    runs = sorted((tmp_path / "runs").iterdir())  # CSVs by default, a fresh folder each time
    assert len(runs) == 2 and all(r.name.startswith("eval_fungi_v0_") for r in runs)
    for r in runs:
        assert {"results.csv", "results_elo.csv", "table.txt"} <= {f.name for f in r.iterdir()}


def test_eval_errors_and_help_name_the_problem(capsys):
    with pytest.raises(SystemExit, match="unknown agent 'gredy' \\(did you mean 'greedy'\\?\\)"):
        eval_main(["fungi_v0", "random", "gredy", "--no-save"])
    with pytest.raises(SystemExit, match="no saved model at runs/nope/final.pt"):
        eval_main(["fungi_v0", "random", "runs/nope/final.pt", "--no-save"])
    with pytest.raises(SystemExit, match="unknown env 'fungi'"):
        eval_main(["fungi", "random", "greedy", "--no-save"])
    with pytest.raises(SystemExit):
        eval_main(["-h"])
    assert ".pt" in capsys.readouterr().out


def test_eval_table_keeps_long_names_whole_and_rounds_elo(tmp_path):
    game = ToyGame()
    long_name = "runs/ppo_toy_self_s0/checkpoints/ppo_1200000_steps_a_long_name.zip"
    res = tournament(
        game, {"random": RandomAgent(seed=0), long_name: FunctionAgent(add_one, "x")}, games=40, seed=0, verbose=False
    )
    text = "".join(res.table(width=200).split())
    assert "".join(long_name.split()) in text
    assert res.anchor is None and sum(res.elo.values()) == pytest.approx(0, abs=1e-6)  # no greedy: mean = 0
    rows = list(csv.DictReader(open(res.to_csv(tmp_path / "t.csv")[1])))
    assert all(
        int(r["elo"]) % 10 == 0 and int(r["elo_ci95_lo"]) <= int(r["elo"]) <= int(r["elo_ci95_hi"]) for r in rows
    )


def test_agents_in_the_pettingzoo_aec_loop():
    for env_id in ENV_IDS:
        env = mushgym.make(env_id)
        env.reset(seed=3)
        agents = {
            name: (GreedyAgent(env_id, seed=i) if i % 2 == 0 else RandomAgent(seed=i))
            for i, name in enumerate(env.possible_agents)
        }
        steps = 0
        for name in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            env.step(None if term or trunc else agents[name].act_aec(env))
            steps += 1
        assert steps > len(env.possible_agents)


def _run_example(name, *args, stdin=None, timeout=300):

    root = REPO_ROOT
    return subprocess.run(
        [sys.executable, str(root / "examples" / name), *args],
        input=stdin,
        text=True,
        capture_output=True,
        timeout=timeout,
        check=True,
        cwd=root,
    ).stdout


def test_example_random_rollouts():
    out = _run_example("random_rollouts.py", "fungi_v0", "10")
    assert "python loop" in out and "compiled" in out


def test_example_play_against_greedy_in_the_terminal():
    out = _run_example("play_vs_model.py", "greedy", "--seed", "1", stdin="1\n" * 400)
    assert "your move (number, q to quit)>" in out and ("You win!" in out or "You lose." in out or "A tie." in out)


def test_example_quits_with_status_0_and_shows_the_table():
    out = _run_example("play_vs_model.py", "random", "--seed", "2", stdin="q\n")
    assert "the table as it stands" in out and "Card names:" in out
