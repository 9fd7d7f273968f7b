"""A count a user passes in (games per pair, training steps, bench repeats) is checked where it
enters: zero, negative or fractional counts get a ValueError naming the argument, not an empty
table or a run that never ends."""

import pytest

from mushgym.agents import GreedyAgent, RandomAgent, play_match, tournament
from mushgym.bench.command import main as bench_main


@pytest.mark.parametrize("games", [-3, 0, 2.5, True, "10"])
def test_tournament_and_play_match_refuse_a_bad_game_count(games):
    with pytest.raises(ValueError, match=r"games must be a positive integer.*got"):
        tournament("fungi_v0", ["random", "greedy"], games=games, verbose=False)
    with pytest.raises(ValueError, match=r"games must be a positive integer"):
        play_match("fungi_v0", RandomAgent(seed=0), GreedyAgent("fungi_v0", seed=1), games)


def test_a_good_game_count_still_plays():
    result = tournament("fungi_v0", ["random", "greedy"], games=2, verbose=False)
    assert sum(m.games for m in result.matches) == 2


def test_mushgym_eval_refuses_a_bad_game_count(capsys):
    from mushgym.agents.cli import eval_main

    for games in ("0", "-3"):
        with pytest.raises(SystemExit):
            eval_main(["fungi_v0", "random", "greedy", "--games", games, "--no-save"])
        assert "positive integer" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [["--repeats", "0"], ["--budget", "-1"], ["--batches", "64,0"], ["--batches", "64,abc"], ["--batches", "-8"]],
)
def test_bench_refuses_bad_counts(argv, capsys):
    with pytest.raises(SystemExit) as err:
        bench_main(["fungi_v0", "--no-startup", "--no-anchors", *argv])
    assert err.value.code == 2 and "--repeats >= 1" in capsys.readouterr().err


@pytest.mark.parametrize("kwargs", [{"steps": -1}, {"steps": 0}, {"steps": 1.5}, {"max_minutes": 0}])
def test_train_ppo_refuses_a_bad_budget(kwargs):
    pytest.importorskip("sb3_contrib")
    from mushgym.agents import train_ppo

    with pytest.raises(ValueError, match="train_ppo: (steps|max_minutes) must be a positive"):
        train_ppo("fungi_v0", **{"steps": 100, **kwargs})
