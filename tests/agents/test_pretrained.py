"""The pretrained agents: every packaged model loads (weights only, sha256 checked), plays legal
games and beats random; a changed file is refused; a game without a model lists those with one."""

import hashlib
import json
import math
import pickle
import re
import shutil

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

import mushgym  # noqa: E402
from mushgym import cli  # noqa: E402
from mushgym.agents import eval_main, list_pretrained, make_agent, play_match, pretrained, tournament  # noqa: E402
from mushgym.agents.pretrained_models import (  # noqa: E402
    MODELS_DIR,
    describe,
    find_manifest,
    load_manifest_model,
    manifests,
    weights_path,
)

MANIFESTS = manifests()
IDS = [m["name"] for m in MANIFESTS]
#: games against random per model, and the wins it must reach (every model wins 92% or more of
#: 400 games against random in its manifest's evaluation; the games are seeded, so the result is fixed)
RANDOM_GAMES = 20


def sign_test_p(wins: int, losses: int) -> float:
    """One-sided sign test over the decided games: the chance of at least ``wins`` of them with a
    coin (a game may end undecided at its turn limit: Mycelia's often do against random play)."""
    n = wins + losses
    return sum(math.comb(n, k) for k in range(wins, n + 1)) / 2**n if n else 1.0


def test_models_ship_for_fungi_and_both_mycology_player_counts():
    shipped = list_pretrained()
    assert ("fungi_v0", {"num_players": 2}) in shipped
    assert {m["options"]["num_players"] for m in MANIFESTS if m["env_id"].startswith("mycology_")} >= {2, 4}


@pytest.mark.parametrize("manifest", MANIFESTS, ids=IDS)
def test_manifest_records_what_the_model_is_and_how_strong(manifest):
    path = MODELS_DIR / manifest["weights"]
    data = path.read_bytes()
    assert hashlib.sha256(data).hexdigest() == manifest["sha256"] and len(data) == manifest["bytes"]
    assert manifest["name"] == path.stem and re.fullmatch(r"[a-z]+_v\d+", manifest["env_id"])
    assert manifest["version"] == int(manifest["env_id"].rsplit("_v", 1)[1])
    training = manifest["training"]
    for field in ("command", "reproduce", "date", "machine", "commit", "algo", "settings"):
        assert training.get(field), field
    assert manifest["trained_on"]["env_id"] and "note" in manifest["trained_on"]
    net = manifest["network"]
    assert net["hidden_layers"] == manifest["policy"]["net_arch"] and net["parameters"] > 0
    weights = torch.load(path, weights_only=True)
    assert sum(v.numel() for v in weights.values()) == net["parameters"]
    opponents = set()
    for e in manifest["evaluation"]:
        assert e["wins"] + e["draws"] + e["losses"] == e["games"] > 0
        lo, hi = e["win_rate_95"]
        assert lo <= e["wins"] / e["games"] <= hi and e["measured_on"]["env_id"]
        opponents.add(e["opponent"])
    assert {"random", "greedy", "mcts:1000"} <= opponents


def test_one_model_per_env_and_options():
    keys = [(m["env_id"], json.dumps(m["options"], sort_keys=True)) for m in MANIFESTS]
    assert len(keys) == len(set(keys))


@pytest.mark.parametrize("manifest", MANIFESTS, ids=IDS)
def test_every_model_loads_plays_legal_games_and_beats_random(manifest):
    agent = pretrained(manifest["env_id"], **manifest["options"])
    assert agent.manifest["sha256"] == manifest["sha256"]
    game = mushgym.game(manifest["env_id"], **manifest["options"])
    assert agent.encoder.space.shape == tuple(manifest["policy"]["observation_shape"])
    # play_match checks every move against the legal mask (an illegal move raises)
    m = play_match(game, agent, make_agent("random", seed=1), RANDOM_GAMES, seed=20261207)
    assert m.games == RANDOM_GAMES and m.steps > 0
    # beats random: clearly more of the decided games won than lost (p < 0.05), and most games not lost
    assert sign_test_p(m.wins, m.losses) < 0.05 and m.losses <= RANDOM_GAMES // 10, (m.wins, m.draws, m.losses)


def test_pretrained_by_name_everywhere():
    """make_agent, the tournament (mushgym eval), PUCT's network and mushgym play all take it."""
    agent = make_agent("pretrained", env_id="fungi_v0", options={"num_players": 2, "reward": "score_diff"})
    assert agent.name == "pretrained:fungi_v0_2p"  # a reward option does not change the model
    result = tournament("fungi_v0", ["pretrained", "puct:8:pretrained", "greedy"], games=2, verbose=False)
    assert sum(m.games for m in result.matches) == 6
    assert eval_main(["fungi_v0", "pretrained", "random", "--games", "2", "--no-save"]) == 0


def test_play_against_the_pretrained_agent(monkeypatch, capsys):
    answers = iter(["1"] * 2000)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert cli.main(["play", "fungi_v0", "--seed", "4", "--opponent", "pretrained"]) == 0
    out = capsys.readouterr().out
    assert "every other seat is pretrained" in out and "game over" in out


def test_a_game_without_a_model_lists_those_with_one():
    for env_id, options in [("mycology_v1", {"num_players": 3}), ("fungi_v0", {"colour": 1}), ("nonexistent_v0", {})]:
        with pytest.raises(ValueError, match="no pretrained model for") as err:
            pretrained(env_id, **options)
        for m in MANIFESTS:
            assert describe(m) in str(err.value)
    with pytest.raises(SystemExit, match="pretrained models exist for: fungi_v0 num_players=2"):
        cli.main(["play", "mycology_v1", "--opponent", "pretrained", "--option", "num_players=3"])


@pytest.fixture
def fungi_copy(tmp_path):
    """The Fungi model and its manifest, copied to a folder of their own."""
    manifest = find_manifest("fungi_v0")
    for name in (manifest["weights"], f"{manifest['name']}.json"):
        shutil.copy(MODELS_DIR / name, tmp_path / name)
    return tmp_path, manifest


def test_a_corrupted_weights_file_is_refused(fungi_copy):
    folder, manifest = fungi_copy
    pt = folder / manifest["weights"]
    data = bytearray(pt.read_bytes())
    data[len(data) // 2] ^= 0xFF
    pt.write_bytes(bytes(data))
    copy = find_manifest("fungi_v0", folder=folder)
    with pytest.raises(ValueError, match=r"sha256 .* is not the .* its manifest .* records: the file is corrupted"):
        load_manifest_model(copy)


def test_a_wrong_sha256_in_the_manifest_is_refused(fungi_copy):
    folder, manifest = fungi_copy
    path = folder / f"{manifest['name']}.json"
    edited = json.loads(path.read_text())
    edited["sha256"] = "0" * 64
    path.write_text(json.dumps(edited))
    with pytest.raises(ValueError, match="corrupted or was replaced"):
        weights_path(find_manifest("fungi_v0", folder=folder))


def test_a_pickle_is_refused_even_with_its_own_sha256(fungi_copy):
    """The sha256 says the file is the one the manifest names; weights-only loading still refuses a pickle."""
    folder, manifest = fungi_copy
    pt = folder / manifest["weights"]
    pt.write_bytes(pickle.dumps({"not": object()}))
    path = folder / f"{manifest['name']}.json"
    edited = json.loads(path.read_text())
    edited["sha256"] = hashlib.sha256(pt.read_bytes()).hexdigest()
    path.write_text(json.dumps(edited))
    with pytest.raises(ValueError, match="not a weights-only file"):
        load_manifest_model(find_manifest("fungi_v0", folder=folder))


def test_a_malformed_manifest_is_named(tmp_path):
    (tmp_path / "broken.json").write_text('{"format": "mushgym-pretrained-v1", "name": "broken"}')
    with pytest.raises(ValueError, match="broken.json: a model manifest needs env_id"):
        manifests(tmp_path)


def test_the_sign_test_separates_a_winner_from_a_coin():
    assert sign_test_p(7, 0) < 0.01 and sign_test_p(15, 3) < 0.01
    assert sign_test_p(5, 5) > 0.5 and sign_test_p(6, 3) > 0.05 and sign_test_p(0, 0) == 1.0
