"""Mycelia: greedy baseline, picture, graph encoding, random-play figures."""

import ci_scope
import numpy as np
import pytest

import mushgym
from mushgym import testing
from mushgym.envs.mycelia import render
from mushgym.envs.mycelia import rules as R
from mushgym.envs.mycelia.game import MyceliaGame
from mushgym.wrappers import GraphObservation


def _play(g, seed, steps):
    s = g.new_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if g.is_terminal(s):
            break
        a = g.legal_actions(s)
        g.step_inplace(s, int(a[rng.integers(len(a))]))
    return s


def test_picture_svg_and_rgb():
    g = MyceliaGame(num_players=3, automata=True)
    s = _play(g, 1, 200)
    sc = render.draw(g, s)
    svg = sc.to_svg()
    assert svg.startswith("<svg") and svg.count("<polygon") == int(s[R.NTP])
    rgb = sc.to_rgb()
    assert rgb.dtype == np.uint8 and rgb.ndim == 3 and rgb.shape[2] == 3 and rgb.std() > 10


def test_graph_encoding_matches_the_board():
    env = GraphObservation(mushgym.make_raw("mycelia_v1"))
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(60):
        agent = env.agent_selection
        obs = env.observe(agent)
        assert env.observation_space(agent).contains(obs)
        g = obs["graph"]
        state = env.unwrapped.game_state
        n = int(state[R.NTP])
        assert g.nodes.shape == (n, R.TF) and (g.nodes[:, 0] == 1).all()
        adj = {(t, int(state[R.ADJ + t * 3 + k])) for t in range(n) for k in range(3) if state[R.ADJ + t * 3 + k] >= 0}
        assert {tuple(map(int, e)) for e in g.edge_links} == adj
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))


def test_graph_wrapper_refuses_games_without_a_graph():
    with pytest.raises(ValueError, match="no graph encoding"):
        GraphObservation(mushgym.make_raw("fungi_v0"))


def test_env_docstring_tables_match_the_layouts():
    import re

    from mushgym.envs import mycelia_v1
    from mushgym.envs.mycelia.game import obs_fields

    doc = mycelia_v1.__doc__
    assert f"({R.obs_size()},)" in doc and f"Discrete({R.NUM_ACTIONS})" in doc
    obs_part = doc.split("### Observation space")[1].split("Seat features")[0]
    ranges = [(int(a), int(b)) for a, b in re.findall(r"^\| (\d+)\.\.(\d+) ", obs_part, re.M)]
    singles = [(int(a), int(a)) for a in re.findall(r"^\| (\d+)\s+\|", obs_part, re.M)]
    spans = sorted(ranges + singles)
    assert spans[0][0] == 0 and spans[-1][1] == R.obs_size() - 1
    for (a0, b0), (a1, _) in zip(spans, spans[1:]):
        assert a1 == b0 + 1, f"observation table gap or overlap after {b0}"
    assert sum(n for _, n in obs_fields()) == R.obs_size()
    act_part = doc.split("### Action space")[1].split("### Version history")[0]
    aranges = [(int(a), int(b)) for a, b in re.findall(r"^\| (\d+)\.\.(\d+) ", act_part, re.M)]
    asingles = [(int(a), int(a)) for a in re.findall(r"^\| (\d+)\s+\|", act_part, re.M)]
    aspans = sorted(aranges + asingles)
    assert aspans[0][0] == 0 and aspans[-1][1] == R.NUM_ACTIONS - 1
    for (a0, b0), (a1, _) in zip(aspans, aspans[1:]):
        assert a1 == b0 + 1, f"action table gap or overlap after {b0}"
    assert (R.A_PAY, R.A_CARD, R.A_PLACE, R.A_SPORE, R.A_STOP) == (50, 250, 325, 478, 501)


def _tiles_reference(game, state, player):
    """The ``tiles`` block of the observation computed in Python from the named fields
    (independently of the ``observe`` kernel, which writes it without branches)."""
    from mushgym.envs.mycelia.observation import OL, POS_SHIFT, TF

    f = R.L.arrays(state)
    ns = int(game.config[R.CFG_NS])
    out = np.zeros((R.NT_MAX, TF), np.int64)
    n = int(f["tiles_placed"])
    c0, r0 = int(f["tile_col"][0]), int(f["tile_row"][0])
    for t in range(n):
        tid = int(f["tile_id"][t])
        c, r = int(f["tile_col"][t]), int(f["tile_row"][t])
        rot = int(f["tile_rot"][t])
        row = [1, game.tiles.colour[tid] + 1, int((c + r) % 2 == 0), c - c0 + POS_SHIFT, r - r0 + POS_SHIFT]
        row += [game.tiles.order[tid][(k + rot) % 3] + 1 for k in range(3)]
        row += [int(f["adjacency"][t, k]) + 1 for k in range(3)]
        row += [int(f["tile_insect"][t])]
        mothers = [s for s in range(ns) if int(f["mother"][s]) == t]
        row += [(mothers[0] - player) % ns + 1 if mothers else 0]
        mp = int(f["mushroom_owner"][t])
        row += [
            (mp - player) % ns + 1 if mp >= 0 else 0,
            int(f["mat_counter"][mp, int(f["mushroom_mat"][t])]) if mp >= 0 else 0,
        ]
        spores = [0] * R.BASE_SEATS  # offset 4 (the expansion's fifth seat) is in the expansion's block
        for x in range(ns):
            if (x - player) % ns < R.BASE_SEATS:
                spores[(x - player) % ns] = int(f["spores"][t, x])
        out[t] = row + spores
    assert OL.fields["tiles"].shape == out.shape
    return out


@pytest.mark.parametrize(
    "options",
    [
        dict(),
        dict(num_players=3),
        dict(num_players=4),
        dict(num_players=3, automata=True),
        dict(num_players=1),
        dict(num_players=5, expansion="north_america"),
    ],
    ids=["2p", "3p", "4p", "3p+automata", "solo", "5p+expansion"],
)
@ci_scope.vector_test("mycelia_v1")
@pytest.mark.xdist_group("mycelia_vector_rows")  # one process compiles the vector loops; the other cases load them
def test_observation_tiles_rows_reused_by_the_vector(options):
    """The vector API reuses each env's observation row from step to step and ``observe``
    writes the placed tiles' rows without clearing them first: over random play (player
    changes, auto-resets, tiles placed and moved), every row equals a fresh observation of
    the functional API and its tile block equals a Python reference."""
    import mushgym.vector as mv
    from mushgym.envs.mycelia.observation import OL

    game = MyceliaGame(**options)
    vec = mv.from_game(game, 4, seed=5)
    obs, _, player = vec.reset()
    tiles = OL.fields["tiles"]
    checked = 0
    for step in range(400):
        for i in range(vec.num_envs):
            if player[i] < 0:
                continue
            s = vec.state(i)
            np.testing.assert_array_equal(obs[i], game.observe(s, int(player[i])).astype(obs.dtype))
            if step % 5 == 0:
                block = obs[i][tiles.offset : tiles.offset + tiles.size].reshape(tiles.shape)
                np.testing.assert_array_equal(block, _tiles_reference(game, s, int(player[i])))
                checked += 1
        obs, _, _, _, _, player, _ = vec.step(vec.sample_random_actions())
    assert checked > 200


# --- the greedy baseline (envs/mycelia/search.py: one compiled scoring for GreedyAgent and the rollouts) ---
GREEDY_OPTIONS = [{}, {"num_players": 1}, {"expansion": "north_america", "num_players": 3}]


@pytest.mark.parametrize("options", GREEDY_OPTIONS, ids=["base", "solo", "north_america"])
def test_greedy_reads_only_what_its_player_sees(options):
    """The scores for every seat (not only the one to act) and the rollout's greedy move (same
    generator words) stay the same when what that seat cannot see is redrawn."""
    from mushgym.agents.greedy import greedy_heuristic
    from mushgym.core import rng_seed
    from mushgym.envs.mycelia.search import greedy_move

    g = MyceliaGame(**options)
    heuristic = greedy_heuristic("mycelia_v1")
    rng = np.random.default_rng(3)
    work = np.zeros(R.WORK_SIZE, np.int64)
    changed = 0
    for s in testing.random_states(g, n_games=2, seed=4, every=5):
        mask = g.legal_mask(s)
        for p in range(g.num_players):
            other = g.perturb_hidden(s, p, rng)
            changed += not np.array_equal(other, s)
            np.testing.assert_array_equal(heuristic(g, other, p, None, mask), heuristic(g, s, p, None, mask))
        p = g.current_player(s)
        other = g.perturb_hidden(s, p, rng)
        moves = []
        for state in (s, other):
            words = np.zeros(4, np.int64)
            rng_seed(words, 0, 9)
            moves.append(int(greedy_move(state, g.config, mask, int(mask.sum()), work, words)))
        assert moves[0] == moves[1]
    assert changed > 20


def test_greedy_scores_follow_the_documented_table():
    """At the main decision: fruiting a card scores 100 + its points, explore 8, the deck 10, a
    market card 12 + half its points, ending the turn 0; illegal actions -inf."""
    from mushgym.agents.greedy import greedy_heuristic

    g = MyceliaGame()
    heuristic = greedy_heuristic("mycelia_v1")
    seen = set()
    for s in testing.random_states(g, n_games=3, seed=1, every=1):
        if g._top(s)[0] != R.D_MAIN:
            continue
        p = g.current_player(s)
        mask = g.legal_mask(s)
        scores = heuristic(g, s, p, None, mask)
        assert np.all(scores[mask == 0] == -np.inf) and np.all(np.isfinite(scores[mask != 0]))
        for a in np.flatnonzero(mask):
            name, args = g.decode_action(int(a))
            expected = {
                "card": lambda: 100 + g.cards.points[args[0]],
                "pile": lambda: 8,
                "deck": lambda: 10,
                "market": lambda: 12 + g.cards.points[int(s[R.MARKET + args[0]])] / 2,
                "stop": lambda: 0,
            }.get(name)
            if expected is not None:
                assert scores[a] == pytest.approx(expected(), abs=1e-12), (name, args)
                seen.add(name)
    assert {"card", "pile", "market", "stop"} <= seen
