"""Fungi's greedy (the compiled ``search.greedy_scores``): its cook values agree with the rules'
own scoring, and it reads only what the acting player sees, in every phase."""

import numpy as np

from mushgym.agents import GreedyAgent
from mushgym.envs.fungi import rules as R
from mushgym.envs.fungi.game import FungiGame, decode_action
from mushgym.envs.fungi.search import PAN_COST
from mushgym.testing import random_states

G = FungiGame()
STATES = random_states(G, n_games=12, every=1)


def _score_gain(s, player, a):
    """Flavor points ``player`` gains by playing ``a``, then (a cook) its best follow-up."""
    before = G.scores(s)[player]
    t = G.step(s, a)
    if G.is_terminal(t) or R.phase(t) != R.PH_COOK:
        return G.scores(t)[player] - before
    return max(G.scores(G.step(t, int(b)))[player] - before for b in G.legal_actions(t))


def test_cook_and_finish_scores_are_the_flavor_points_the_rules_give():
    """A cook is worth the points its best follow-up adds (less the pan cost), a follow-up the
    points it adds: checked against stepping the game, on every such action of random play."""
    g = GreedyAgent("fungi_v0", seed=0)
    seen = {"cook": 0, "finish_cook": 0}
    for s in STATES:
        p = G.current_player(s)
        scores = g.scores(G, s, p)
        for a in G.legal_actions(s):
            name = decode_action(int(a))[0]
            if name in seen:
                want = _score_gain(s, p, int(a)) - (PAN_COST if name == "cook" else 0.0)
                assert abs(scores[a] - want) < 1e-9, (G.action_to_string(s, int(a)), scores[a], want)
                seen[name] += 1
    assert min(seen.values()) > 10, seen


def test_greedy_reads_only_what_the_player_sees_in_every_phase():
    """Redrawing the opponent's hidden hand and the pile orders changes no score, whether the
    player acts, finishes a cook or discards for a Fly agaric."""
    g = GreedyAgent("fungi_v0", seed=0)
    rng = np.random.default_rng(3)
    phases = {R.PH_ACT: 0, R.PH_COOK: 0, R.PH_TRIM: 0}
    for s in STATES:
        p = G.current_player(s)
        base = g.scores(G, s, p)
        for _ in range(3):
            other = G.perturb_hidden(s, p, rng)
            np.testing.assert_array_equal(g.scores(G, other, p), base, err_msg=G.state_to_string(s))
        phases[int(R.phase(s))] += 1
    assert min(phases.values()) > 0, phases
