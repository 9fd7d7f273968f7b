"""The default training recipes: each game's defaults, and Fungi's recipe learns (a short run beats random)."""

import json

import pytest

from mushgym.agents.recipes import RECIPES, game_name, recipe


def test_each_game_has_the_recipe_that_trained_its_best_network():
    assert recipe("fungi_v0")["opponent"] == "self" and recipe("fungi_v0")["hyper"] == {}
    for env_id, players in [("mycology_v1", 2), ("mycelia_v1", 2), ("mycelium_v2", 4)]:
        chosen = recipe(env_id, {"num_players": players})
        assert chosen["opponent"] == "greedy" and chosen["hyper"]["imitation_samples"] > 0, env_id
    small_steps = recipe("mycelium_v2")["hyper"]
    assert (small_steps["learning_rate"], small_steps["clip_range"], small_steps["ent_coef"]) == (1e-4, 0.1, 0.001)
    assert recipe("mycology_v1", {"num_players": 4})["hyper"]["imitation_samples"] == 150_000
    assert recipe("mycology_v1", num_players=2)["hyper"]["imitation_samples"] == 30_000
    assert game_name("mycelium_v12") == "mycelium" and recipe("newgame_v0")["game"] is None


def test_every_registered_game_has_a_recipe():
    import mushgym

    assert {game_name(e) for e in mushgym.list_envs()} <= set(RECIPES)


@pytest.mark.train
def test_recipe_hyper_parameters_are_train_ppo_hyper_parameters():
    pytest.importorskip("sb3_contrib")
    from mushgym.agents.ppo import DEFAULTS

    for name, entry in RECIPES.items():
        hyper = dict(entry["hyper"])
        for more in entry.get("players", {}).values():
            hyper.update(more)
        assert set(hyper) <= set(DEFAULTS), name
        assert all(type(v) is type(DEFAULTS[k]) for k, v in hyper.items()), name


@pytest.mark.train
def test_the_fungi_recipe_learns_to_beat_random(tmp_path):
    """Fungi's defaults, a short run (STEPS learner steps: 85-135 s on 2 busy cores), then the network
    alone against random: it won 90-2-8 of these GAMES (a random player wins 27-39-34 against random)."""
    pytest.importorskip("sb3_contrib")
    import mushgym
    from mushgym.agents import load_policy, make_agent, play_match, train_ppo

    model = train_ppo(
        "fungi_v0", steps=STEPS, seed=0, run_dir=tmp_path / "run", progress_bar=False, tensorboard=False, curve_points=0
    )
    settings = json.loads((tmp_path / "run" / "train.json").read_text())
    assert settings["opponent"] == "self"  # the recipe's opponent, given by nobody
    agent = load_policy(model.mushgym_run_dir / "final.pt")
    m = play_match(mushgym.game("fungi_v0"), agent, make_agent("random", seed=5), GAMES, seed=123)
    assert m.wins >= WINS, (m.wins, m.draws, m.losses)


STEPS = 20_480  # 10 rollouts of 8 games x 256 steps
GAMES = 100
WINS = 70
