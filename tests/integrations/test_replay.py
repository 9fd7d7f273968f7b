"""Replay files (mushgym.replay): written by every runner, replayed exactly, bad ones refused by name."""

import json

import numpy as np
import pytest

import mushgym
from mushgym import cli
from mushgym.agents import GreedyAgent, MCTSAgent, RandomAgent, play_games, tournament
from mushgym.replay import ReplayError, ReplayWriter, load_replay, parse_replay, read_replay
from mushgym.wrappers import RecordReplay


@pytest.fixture(scope="module")
def fungi():
    return mushgym.game("fungi_v0")


@pytest.fixture(scope="module")
def recorded(tmp_path_factory, fungi):
    """Two Fungi games of MCTS (20 simulations) against greedy, saved by play_games."""
    folder = tmp_path_factory.mktemp("replays")
    agents = [MCTSAgent("fungi_v0", simulations=20, seed=1), GreedyAgent("fungi_v0", seed=2)]
    result = play_games(fungi, agents, 2, seed=11, replays=folder)
    return result, folder


def _lines(path):
    return [json.loads(t) for t in path.read_text().splitlines()]


def test_play_games_saves_each_game_and_the_replay_ends_in_the_same_state(recorded, fungi):
    result, folder = recorded
    paths = result["replay_files"]
    assert len(paths) == 2 and all(p.parent == folder for p in paths)
    for g, path in enumerate(paths):
        replay = load_replay(path)
        assert replay.env_id == "fungi_v0" and replay.seed == 11 + g
        assert replay.players == ["mcts:20", "greedy"]
        assert len(replay.moves) == result["lengths"][g]
        assert replay.end["returns"] == result["returns"][g].tolist()
        # seed + actions replay the game: the same final state as stepping the actions by hand
        state = fungi.new_state(replay.seed)
        for m in replay.moves:
            state = fungi.step(state, m.action)
        assert np.array_equal(state, replay.states()[-1])
        assert fungi.returns(state).tolist() == result["returns"][g].tolist()


def test_each_move_names_the_seat_the_action_in_words_and_the_agents_candidates(recorded, fungi):
    _, folder = recorded
    path = sorted(folder.iterdir())[0]
    head, *moves, end = _lines(path)
    assert head["format"] == "mushgym-replay" and head["state_header"] == [int(x) for x in fungi.header]
    assert head["options"] == fungi.options and head["mushgym_version"] == mushgym.__version__
    assert end["end"] is True and end["plies"] == len(moves)
    state = fungi.new_state(head["seed"])
    kinds = set()
    for m in moves:
        assert m["seat"] == fungi.current_player(state)
        assert m["move"] == fungi.action_to_string(state, m["action"])
        cands = m["candidates"]
        kinds.add(m["weight_kind"])
        assert cands[0]["action"] == m["action"]  # the move played: the most visited, the best score
        assert all(fungi.legal_mask(state)[c["action"]] for c in cands)
        assert [c["move"] for c in cands] == [fungi.action_to_string(state, c["action"]) for c in cands]
        if m["weight_kind"] == "visit share":
            assert sum(c["weight"] for c in cands) <= 1.0 + 1e-3
            if len(cands) > 1:
                assert 0.0 <= m["value"] <= 1.0
        state = fungi.step(state, m["action"])
    assert kinds == {"visit share", "score"}  # MCTS gives visit shares, greedy its scores


def _rewrite(path, tmp_path, edit):
    lines = _lines(path)
    edit(lines)
    out = tmp_path / "edited.jsonl"
    out.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return out


def test_an_illegal_action_a_wrong_seat_or_another_result_is_refused(recorded, tmp_path, fungi):
    path = recorded[0]["replay_files"][0]
    state = fungi.new_state(_lines(path)[0]["seed"])
    illegal = int(np.flatnonzero(fungi.legal_mask(state) == 0)[0])

    def bad_action(lines):
        lines[1]["action"] = illegal

    with pytest.raises(ReplayError, match=rf"line 2: move 0, action {illegal} .* is illegal here; the legal actions"):
        load_replay(_rewrite(path, tmp_path, bad_action))

    def bad_seat(lines):
        lines[1]["seat"] = 1 - lines[1]["seat"]

    with pytest.raises(ReplayError, match="line 2: move 0 is recorded for seat"):
        load_replay(_rewrite(path, tmp_path, bad_seat))

    def bad_result(lines):
        lines[-1]["returns"] = lines[-1]["returns"][::-1]

    with pytest.raises(ReplayError, match="recorded returns .* differ from the replayed ones"):
        load_replay(_rewrite(path, tmp_path, bad_result))


def test_a_replay_of_another_version_or_an_unknown_env_is_refused(recorded, tmp_path):
    path = recorded[0]["replay_files"][0]

    def other_layout(lines):
        lines[0]["state_header"][3] ^= 1
        lines[0]["mushgym_version"] = "0.1.0"

    with pytest.raises(ReplayError, match=r"another version of fungi_v0 \(recorded with mushgym 0.1.0"):
        load_replay(_rewrite(path, tmp_path, other_layout))

    def other_env(lines):
        lines[0]["env_id"] = "fungi_v9"

    with pytest.raises(
        ReplayError, match="a replay of 'fungi_v9' .* an env this mushgym does not have; its envs: fungi_v0"
    ):
        load_replay(_rewrite(path, tmp_path, other_env))

    def other_format(lines):
        lines[0]["format_version"] = 99

    with pytest.raises(ReplayError, match="replay format version 99; this mushgym reads version 1"):
        load_replay(_rewrite(path, tmp_path, other_format))


@pytest.mark.parametrize(
    "text, problem",
    [
        ("", "empty file"),
        ("hello\n", "line 1: not JSON"),
        ('{"a": 1}\n', "line 1: not a mushgym replay"),
        ("[1, 2]\n", "line 1: expected a JSON object"),
    ],
)
def test_a_malformed_file_is_refused_naming_the_line(tmp_path, text, problem):
    path = tmp_path / "bad.jsonl"
    path.write_text(text)
    with pytest.raises(ReplayError, match=problem):
        load_replay(path)


def test_a_malformed_move_line_is_refused_naming_the_line(recorded, tmp_path):
    path = recorded[0]["replay_files"][0]
    lines = path.read_text().splitlines()
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines[:3] + ['{"seat": 0, "action": "x"}'] + lines[3:]))
    with pytest.raises(ReplayError, match="line 4: a move needs an integer 'action', got 'x'"):
        read_replay(bad)
    bad.write_text("\n".join(lines[:3] + ["{not json"]))
    with pytest.raises(ReplayError, match="line 4: not JSON"):
        read_replay(bad)
    with pytest.raises(ReplayError, match="no such replay file"):
        read_replay(tmp_path / "missing.jsonl")


def test_a_tournament_saves_the_first_games_of_each_seating(tmp_path):
    tournament("fungi_v0", ["random", "greedy"], games=6, seed=0, verbose=False, replays=tmp_path, replay_games=1)
    files = sorted(p.name for p in tmp_path.iterdir())
    assert len(files) == 2  # one game of each of the two seatings
    assert {tuple(load_replay(tmp_path / f).players) for f in files} == {("random", "greedy"), ("greedy", "random")}


def test_eval_command_writes_replays(tmp_path, capsys):
    from mushgym.agents import eval_main

    assert (
        eval_main(
            [
                "fungi_v0",
                "random",
                "greedy",
                "--games",
                "4",
                "--no-save",
                "--replays",
                str(tmp_path),
                "--replay-games",
                "1",
            ]
        )
        == 0
    )
    assert len(list(tmp_path.glob("*.jsonl"))) == 2
    for path in tmp_path.glob("*.jsonl"):
        load_replay(path)


@pytest.mark.parametrize("make", ["make", "make_raw"])
def test_the_aec_recording_wrapper_saves_each_game(tmp_path, make):
    env = RecordReplay(getattr(mushgym, make)("fungi_v0"), tmp_path)
    rng = np.random.default_rng(0)
    for seed in (5, 6):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.explain({"candidates": [(int(legal[0]), 1.0)], "weight_kind": "probability", "value": 0.5})
            env.step(int(rng.choice(legal)))
        final = env.unwrapped.state()
        replay = load_replay(tmp_path / f"fungi_v0-seed{seed}.jsonl")
        assert np.array_equal(replay.states()[-1], final)
        assert replay.moves[0].candidates[0]["weight"] == 1.0 and replay.moves[0].value == 0.5
    env.close()


def test_the_wrapper_records_an_illegal_move_as_the_reason_the_game_ended(tmp_path):
    env = RecordReplay(mushgym.make("fungi_v0"), tmp_path / "one.jsonl")
    env.reset(seed=1)
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))  # the standard wrappers: a loss
    replay = load_replay(tmp_path / "one.jsonl")
    assert replay.moves == [] and "illegal action" in replay.end["reason"]


def test_play_command_saves_the_game(tmp_path, monkeypatch, capsys, fungi):
    answers = iter(["1"] * 2000)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    path = tmp_path / "mine.jsonl"
    assert cli.main(["play", "fungi_v0", "--seed", "4", "--opponent", "greedy", "--replay", str(path)]) == 0
    assert "the game is saved in" in capsys.readouterr().out
    replay = load_replay(path)
    assert replay.players == ["you", "greedy"] and replay.end is not None
    assert all(m.weight_kind == "score" for m in replay.moves if m.seat == 1)
    assert all(m.candidates is None for m in replay.moves if m.seat == 0)


def test_a_game_stopped_midway_is_a_valid_replay_of_its_moves(tmp_path, fungi):
    state = fungi.new_state(3)
    with ReplayWriter(tmp_path / "half.jsonl", fungi, 3, ["a", "b"]) as rec:
        for _ in range(5):
            action = int(fungi.legal_actions(state)[0])
            rec.move(state, action)
            state = fungi.step(state, action)
    replay = load_replay(tmp_path / "half.jsonl")
    assert replay.end is None and np.array_equal(replay.states()[-1], state)


def test_explain_gives_the_chosen_action_and_its_candidates(fungi):
    state = fungi.new_state(2)
    player = fungi.current_player(state)
    for agent, kind in (
        (GreedyAgent("fungi_v0", seed=0), "score"),
        (MCTSAgent("fungi_v0", simulations=30), "visit share"),
    ):
        why = agent.explain(fungi, state, player)
        assert why["weight_kind"] == kind and fungi.legal_mask(state)[why["action"]]
        assert why["candidates"][0][0] == why["action"]
    assert RandomAgent(0).explain(fungi, state, player).keys() == {"action"}
    assert (
        parse_replay(
            json.dumps(
                {
                    "format": "mushgym-replay",
                    "format_version": 1,
                    "env_id": "fungi_v0",
                    "seed": 1,
                    "state_header": [],
                    "options": {},
                }
            )
        ).moves
        == []
    )


def test_replay_command_writes_a_page_a_gif_and_an_mp4(recorded, tmp_path, capsys):
    import re

    path = recorded[0]["replay_files"][0]
    n = len(load_replay(path).moves)
    out = tmp_path / "game.html"
    assert cli.main(["replay", str(path), "--out", str(out), "--seat", "1"]) == 0
    assert f"({n} moves, seat 1's view)" in capsys.readouterr().out
    page = out.read_text()
    data = json.loads(
        re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S)
        .group(1)
        .replace("<\\/", "</")
    )
    assert len(data["frames"]) == n + 1 and all(f.startswith("<svg") for f in data["frames"])
    assert "<script src=" not in page and "<link" not in page  # self-contained
    gif = tmp_path / "game.gif"
    assert cli.main(["replay", str(path), "--out", str(gif), "--fps", "4"]) == 0
    from PIL import Image

    with Image.open(gif) as im:
        assert im.n_frames == n + 1
    pytest.importorskip("imageio_ffmpeg", reason="MP4 needs imageio-ffmpeg (the web extra)")
    mp4 = tmp_path / "game.mp4"
    assert cli.main(["replay", str(path), "--out", str(mp4)]) == 0
    assert mp4.stat().st_size > 1000 and mp4.read_bytes()[4:8] == b"ftyp"


def test_replay_command_refuses_bad_files_and_arguments(recorded, tmp_path):
    path = recorded[0]["replay_files"][0]
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{nope\n")
    with pytest.raises(SystemExit, match="mushgym replay: .*bad.jsonl, line 1: not JSON"):
        cli.main(["replay", str(bad)])
    with pytest.raises(SystemExit, match="--out must end in .html, .gif or .mp4"):
        cli.main(["replay", str(path), "--out", str(tmp_path / "x.png")])
    with pytest.raises(SystemExit, match="not both"):
        cli.main(["replay", str(path), "--seat", "0", "--omniscient"])
    with pytest.raises(SystemExit, match="no seat 5"):
        cli.main(["replay", str(path), "--seat", "5"])


def test_a_policy_network_explains_with_probabilities_and_its_value(fungi):
    pytest.importorskip("torch", reason="the train extra (torch) is not installed")
    from paths import REPO_ROOT

    from mushgym.agents import make_agent

    model = REPO_ROOT / "benchmarks" / "training" / "fungi_v0_ppo.pt"
    agent = make_agent(str(model), env_id="fungi_v0")
    state = fungi.new_state(4)
    player = fungi.current_player(state)
    why = agent.explain(fungi, state, player)
    assert why["weight_kind"] == "probability" and isinstance(why["value"], float)
    assert why["candidates"][0][0] == why["action"] == agent.act(fungi.observe(state, player), fungi.legal_mask(state))
    weights = [w for _, w in why["candidates"]]
    assert weights == sorted(weights, reverse=True) and 0 < sum(weights) <= 1 + 1e-9
    assert all(fungi.legal_mask(state)[a] for a, _ in why["candidates"])
