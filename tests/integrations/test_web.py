"""`mushgym serve` over HTTP (Flask's test client): playing, hints, undo, replays, the leaderboard,
and what a seat's page may receive."""

import json
import re

import numpy as np
import pytest

flask = pytest.importorskip("flask", reason="the web extra (pip install 'mushgym[web]') is not installed")

import mushgym  # noqa: E402
from mushgym.agents import make_agent  # noqa: E402
from mushgym.replay import load_replay  # noqa: E402
from mushgym.web.server import create_app  # noqa: E402


@pytest.fixture
def client(tmp_path):
    app = create_app(make_agent, replays=tmp_path / "replays", ladders=tmp_path / "ladders")
    app.testing = True
    return app.test_client()


def new_game(client, env_id, seat=0, opponent="random", **options):
    form = {"env": env_id, "seat": str(seat), "opponent": opponent, "hint": "greedy"}
    form.update({f"option_{k}": str(v) for k, v in options.items()})
    r = client.post("/new", data=form)
    assert r.status_code == 303, r.get_data(as_text=True)[-400:]
    token = r.headers["Location"].rsplit("/", 1)[-1]
    return token, client.application.extensions["mushgym_tables"][token]


def play_first_moves(client, token, moves):
    view = client.get(f"/api/game/{token}").get_json()
    for _ in range(moves):
        if view["over"]:
            break
        view = client.post(f"/api/game/{token}/move", json={"action": view["legal"][0]["action"]}).get_json()
    return view


def test_a_whole_fungi_game_against_random(client, tmp_path):
    token, table = new_game(client, "fungi_v0", seat=1)
    page = client.get(f"/game/{token}").get_data(as_text=True)
    assert "<svg" in page and "table.js" in page
    view = play_first_moves(client, token, 500)
    assert view["over"] and view["status"].startswith("Game over") and view["legal"] == []
    assert table.game.is_terminal(table.state)
    saved = load_replay(tmp_path / "replays" / view["replay"])  # the finished game is in the replay folder
    assert np.array_equal(saved.states()[-1], table.state) and saved.players == ["random", "you"]
    listing = client.get("/replays").get_data(as_text=True)
    assert view["replay"] in listing
    assert "<svg" in client.get(f"/replays/{view['replay']}").get_data(as_text=True)


def test_moves_undo_and_hint(client):
    token, table = new_game(client, "fungi_v0", seat=0, opponent="greedy")
    view = client.get(f"/api/game/{token}").get_json()
    assert view["your_turn"] and not view["can_undo"]
    hint = client.get(f"/api/game/{token}/hint").get_json()
    legal = {m["action"] for m in view["legal"]}
    assert hint["agent"] == "greedy" and hint["candidates"] and {c["action"] for c in hint["candidates"]} <= legal
    before = table.state.copy()
    after = client.post(f"/api/game/{token}/move", json={"action": view["legal"][0]["action"]}).get_json()
    n = len(view["history"])  # greedy's first move, if seat 1 began
    assert after["can_undo"] and len(after["history"]) > n
    assert after["history"][n] == {"player": "you (0)", "move": view["legal"][0]["move"]}
    undone = client.post(f"/api/game/{token}/undo").get_json()
    assert np.array_equal(table.state, before)
    assert undone["history"] == view["history"] and undone["legal"] == view["legal"]
    r = client.post(f"/api/game/{token}/move", json={"action": 10**6})
    assert r.status_code == 400 and "not one of your legal moves" in r.get_json()["error"]
    r = client.post(f"/api/game/{token}/move", json={"action": "x"})
    assert r.status_code == 400 and "an integer" in r.get_json()["error"]
    r = client.post(f"/api/game/{token}/undo")
    assert r.status_code == 400 and "no move of yours" in r.get_json()["error"]
    assert client.get("/api/game/nope").status_code == 404


def test_a_bad_new_game_form_names_the_problem(client):
    r = client.post("/new", data={"env": "fungi_v0", "seat": "7", "opponent": "random"})
    assert r.status_code == 400 and "no seat 7" in r.get_data(as_text=True)
    r = client.post("/new", data={"env": "fungi_v0", "seat": "0", "opponent": "greddy"})
    assert r.status_code == 400 and "unknown agent" in r.get_data(as_text=True)
    r = client.post("/new", data={"env": "nope_v0", "seat": "0"})
    assert r.status_code == 400 and "unknown env" in r.get_data(as_text=True)
    r = client.post("/new", data={"env": "fungi_v0", "seat": "0", "option_num_players": "9"})
    assert r.status_code == 400 and "num_players=&#x27;9&#x27; is not one of" in r.get_data(as_text=True)


def test_the_index_offers_every_env_with_its_options(client):
    page = client.get("/").get_data(as_text=True)
    for env_id in mushgym.list_envs():
        assert f'value="{env_id}"' in page
    assert 'name="option_num_players"' in page


def _hidden_part_redrawn(game, state, seat, rng):
    """A state differing from ``state`` only in what ``seat`` cannot see (visibly so face up when
    the game's picture shows hidden cards face up), or None if nothing is hidden."""
    from mushgym.render import draw_state

    changed = None
    for _ in range(40):
        other = game.perturb_hidden(state, seat, rng)
        if np.array_equal(other, state):
            continue
        changed = other
        if draw_state(game, other, None).to_svg() != draw_state(game, state, None).to_svg():
            return other
    return changed


@pytest.mark.parametrize("env_id", mushgym.list_envs())
def test_a_seats_answers_do_not_depend_on_what_it_cannot_see(client, env_id):
    """The JSON view, the game page and the hint are the same byte for byte when every card the
    seat cannot see (other hands, deck order) is redrawn: nothing hidden reaches the browser."""
    token, table = new_game(client, env_id, seat=0)
    play_first_moves(client, token, 6)
    if table.over():
        pytest.skip("the game ended in its first moves")
    rng = np.random.default_rng(0)
    other = _hidden_part_redrawn(table.game, table.state, 0, rng)
    if other is None:
        assert table.game.spec.perfect_information, f"{env_id}: perturb_hidden never changed the state"
        return
    answers = []
    for state in (table.state.copy(), other):
        table.state = state
        table._hint_agent = None  # a fresh hint agent each time: the same random tie-breaks
        hint = client.get(f"/api/game/{token}/hint").get_data() if table.to_act() == 0 else b""
        page = client.get(f"/game/{token}").get_data()
        answers.append((client.get(f"/api/game/{token}").get_data(), page, hint))
    assert answers[0] == answers[1]
    body = answers[0][0].decode()
    assert str(table._seed) not in re.findall(r"\d+", body)  # not the seed that deals the deck
    assert "state" not in json.loads(body)


def test_replays_outside_the_folder_malformed_or_of_another_version_are_refused(client, tmp_path):
    folder = tmp_path / "replays"
    token, _ = new_game(client, "fungi_v0")
    view = play_first_moves(client, token, 500)
    good = folder / view["replay"]
    (tmp_path / "secret.jsonl").write_text(good.read_text())
    (folder / "link.jsonl").symlink_to(tmp_path / "secret.jsonl")
    for name in ("../secret.jsonl", "..%2Fsecret.jsonl", "%2E%2E/secret.jsonl", "link.jsonl", "sub/../../secret.jsonl"):
        r = client.get(f"/replays/{name}")
        assert r.status_code == 403 and "outside the replay folder" in r.get_data(as_text=True), name
    # an absolute path: the doubled slash is merged (a redirect inside /replays/), never read from /
    r = client.get(f"/replays/{tmp_path / 'secret.jsonl'}", follow_redirects=True)
    assert r.status_code == 404 and "no replay" in r.get_data(as_text=True)
    r = client.get("/replays/nothing.jsonl")
    assert r.status_code == 404 and "no replay" in r.get_data(as_text=True)
    (folder / "notes.txt").write_text("x")
    assert "not a replay file" in client.get("/replays/notes.txt").get_data(as_text=True)
    (folder / "broken.jsonl").write_text("{oops\n")
    r = client.get("/replays/broken.jsonl")
    assert r.status_code == 400 and "line 1: not JSON" in r.get_data(as_text=True)
    lines = good.read_text().splitlines()
    head = json.loads(lines[0])
    head["state_header"][3] ^= 1
    (folder / "old.jsonl").write_text("\n".join([json.dumps(head)] + lines[1:]))
    r = client.get("/replays/old.jsonl")
    assert r.status_code == 400 and "another version of fungi_v0" in r.get_data(as_text=True)
    listing = client.get("/replays").get_data(as_text=True)
    assert "broken.jsonl" in listing and "not JSON" in listing


def test_a_seats_replay_page_shows_only_its_own_candidates(tmp_path):
    from mushgym.agents import play_games
    from mushgym.web.page import replay_data

    res = play_games(
        "fungi_v0",
        [make_agent("greedy", "fungi_v0", seed=1), make_agent("greedy", "fungi_v0", seed=2)],
        1,
        seed=3,
        replays=tmp_path,
    )
    replay = load_replay(res["replay_files"][0])
    seat0 = replay_data(replay, seat=0)
    assert all(("candidates" in m) == (m["seat"] == 0) for m in seat0["moves"])
    assert all("candidates" in m for m in replay_data(replay, seat=None)["moves"])
    assert len(seat0["frames"]) == len(replay.moves) + 1


def test_the_leaderboard_reads_whatever_ladder_records_there_are(tmp_path):
    ladders = tmp_path / "ladders"
    ladders.mkdir()
    (ladders / "fungi_v0_2p_elo.csv").write_text(
        "env,agent,elo,elo_ci95_lo,elo_ci95_hi,elo_se,scale\n"
        "fungi_v0,greedy,0,0,0,0,greedy = 0\nfungi_v0,mcts:1000,70,0,140,30,greedy = 0\n"
    )
    (ladders / "fungi_v0_2p.txt").write_text("python benchmarks/search_ladder.py fungi_v0 --games 60\n")
    (ladders / "junk_elo.csv").write_text("nothing,here\n1,2\n")
    app = create_app(make_agent, ladders=ladders)
    page = app.test_client().get("/leaderboard").get_data(as_text=True)
    assert page.index("mcts:1000") < page.index("greedy</td>")  # best first
    assert "+70" in page and "[0, 140]" in page and "search_ladder.py fungi_v0 --games 60" in page
    assert "junk_elo.csv: not a ladder record" in page
    empty = create_app(make_agent, ladders=tmp_path / "none").test_client().get("/leaderboard")
    assert empty.status_code == 200 and "No ladder records found" in empty.get_data(as_text=True)


def test_safe_replay_path_refuses_absolute_paths_and_links_out(tmp_path):
    from mushgym.web.server import safe_replay_path

    (tmp_path / "in").mkdir()
    (tmp_path / "out.jsonl").write_text("{}")
    with pytest.raises(PermissionError, match="outside the replay folder"):
        safe_replay_path(tmp_path / "in", str(tmp_path / "out.jsonl"))
    with pytest.raises(LookupError, match="no replay folder"):
        safe_replay_path(None, "x.jsonl")


def test_a_move_the_seat_cannot_tell_apart_is_not_named(client):
    """Mycology: cards put under the deck are in an order the other player does not see; the
    history names such a move only as a hidden move, and every move it names is one the seat
    can tell from the alternatives (mushgym.web.page.move_seen)."""
    from mushgym.web.page import HIDDEN_MOVE, move_seen

    token, table = new_game(client, "mycology_v1", seat=0)
    view = client.get(f"/api/game/{token}").get_json()
    for _ in range(400):
        if view["over"] or any(not m.seen for m in table.history):
            break
        view = client.post(f"/api/game/{token}/move", json={"action": view["legal"][-1]["action"]}).get_json()
    view = client.get(f"/api/game/{token}").get_json()
    hidden = [i for i, m in enumerate(table.history) if not m.seen]
    assert hidden, "no hidden move in this game: choose another seed or more moves"
    for i, m in enumerate(table.history):
        shown = view["history"][i]["move"]
        if m.seat == 0:
            assert shown == m.words
        else:
            assert (shown == m.words) == move_seen(table.game, m.state_before, m.action, 0)
    assert all(view["history"][i]["move"] == HIDDEN_MOVE for i in hidden)
