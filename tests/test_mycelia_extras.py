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


def test_env_docstring_tables_match_the_layouts():
    import re

    from mushgym.envs import mycelia_v0
    from mushgym.envs.mycelia.game import obs_fields

    doc = mycelia_v0.__doc__
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
