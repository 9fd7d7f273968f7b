"""Mycelia: greedy baseline, picture, graph encoding, random-play figures."""

import numpy as np
import pytest

import mushgym
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
    env = GraphObservation(mushgym.make_raw("mycelia_v0"))
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
