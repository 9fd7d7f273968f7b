"""Mycelium's compiled rollout policy for information-set MCTS (``mushgym.search``).

``rollout_policy(state, cfg, mask, n_legal, work, rng) -> action`` (``rollout="greedy"``, what
``rollout="auto"`` and ``mcts:SIMS`` use): with probability ``ROLLOUT_EPSILON`` a uniformly
random legal move, else ``greedy_move``: the legal action of the best score of the greedy
baseline (``greedy.py``'s compiled ``greedy_scores``, which ``GreedyAgent`` plays too: grow toward
the Nutrient Trees, gather what is there, with every variant), ties broken uniformly at random as
``GreedyAgent`` breaks them. It reads what the seat to act sees: its own hand, the public table
and the static board (the 2-player game: both hands of the agent). Allocation-free.

``SEARCH_WIDEN`` (what ``widen="auto"`` uses with these rollouts): progressive widening, a node
gets a new child only while it has fewer than ``1 + 0.25 sqrt(visits)``, the rollout policy's
move first. Without it ``mcts:100`` tries each of the many legal moves of a Mycelium decision
once and plays nearly at random: it won 1 of 40 four-player games against greedy; with it 25 of
40 (the docs' Agents page, "How the search defaults were chosen").

``SEARCH_WIDEN_ORDER = "ranked"``: each new child is the rollout policy's choice among the moves
not yet in the tree (greedy's best, then its next best), where the default order adds a uniformly
random second child, most often a poor move among the ten or so legal ones. ``SEARCH_HORIZON = 0``: playouts run
to the end. Four players, ``mycelium_v0``, against greedy on the seeded deals 0-15 (the commands:
the docs' Agents page, "How the search defaults were chosen"):

=====================================  ===========  ===========
setting                                ``mcts:100``  ``mcts:400``
=====================================  ===========  ===========
random second child, full playouts      10-0-6
horizon 40 with ``search_estimate``     5-0-11       6-0-10
ranked children, full playouts          12-0-4
=====================================  ===========  ===========
"""

import numpy as np
from numba import njit

from mushgym.core import rng_below

from .greedy import action_score, greedy_context
from .greedy_board import NONE, bonded_counts, gather_now
from .rules import CFG_AGENTS, CFG_NP, CFG_TEAM, mat_nut_at, sample_masked

ROLLOUT_EPSILON = 0.05  # share of rollout moves drawn uniformly from the legal ones
SEARCH_WIDEN = 0.25  # progressive widening for mcts:SIMS (widen="auto" with these rollouts)
SEARCH_WIDEN_ORDER = "ranked"  # each new child is the rollout policy's next choice (widen_order="auto")
SEARCH_HORIZON = 0  # playouts run to the end (horizon="auto"); horizon=N cuts them for search_estimate
ESTIMATE_BETA = 0.6  # search_estimate: softmax weight on the colonies' scores (Nutrients)
ESTIMATE_GATHER = 0.5  # search_estimate: weight of what a colony's placed gatherers would gather
TIE = 1e-9  # scores this close count as equal (GreedyAgent's tolerance)


@njit(cache=True)
def greedy_move(state, cfg, mask, n_legal, work, rng):
    """The legal action of the best greedy score (``greedy.py``), ties uniformly at random."""
    context = greedy_context(state, cfg, mask, work)
    best = -1
    best_score = NONE
    ties = 0
    for a in range(mask.shape[0]):
        if mask[a] == 0:
            continue
        sc = action_score(state, cfg, mask, work, context, a)
        if sc > best_score + TIE:
            best, best_score, ties = a, sc, 1
        elif sc >= best_score - TIE:
            ties += 1
            if rng_below(rng, 0, ties) == 0:
                best = a
    return best if best >= 0 else sample_masked(mask, n_legal, rng, 0)


@njit(cache=True)
def rollout_policy(state, cfg, mask, n_legal, work, rng):
    """A uniformly random legal move with probability ROLLOUT_EPSILON, else ``greedy_move``."""
    if rng_below(rng, 0, 1 << 20) < ROLLOUT_EPSILON * (1 << 20):
        return sample_masked(mask, n_legal, rng, 0)
    return greedy_move(state, cfg, mask, n_legal, work, rng)


# --- the playout horizon's estimate ----------------------------------------------------------------
@njit(cache=True)
def colony_score(state, cfg, p, work):
    """A colony's Nutrients plus ESTIMATE_GATHER x what its placed gatherers would gather now."""
    return state[mat_nut_at(p)] + ESTIMATE_GATHER * gather_now(state, cfg, p, bonded_counts(state, cfg, p, work))


@njit(cache=True)
def search_estimate(state, cfg, work, out):
    """An unfinished game's value per agent in [0, 1] (``mushgym.search``: a playout cut
    ``SEARCH_HORIZON`` moves past the tree): the softmax, weight ``ESTIMATE_BETA``, of the
    colonies' ``colony_score``; under the Team rules (and in the 2-player game) of the two
    teams' summed scores, shared by the team's agents. Public state only."""
    n = cfg[CFG_NP]
    if cfg[CFG_TEAM] != 0:
        t0 = colony_score(state, cfg, 0, work) + colony_score(state, cfg, 2, work)
        t1 = colony_score(state, cfg, 1, work) + colony_score(state, cfg, 3, work)
        e0 = 1.0 / (1.0 + np.exp(ESTIMATE_BETA * (t1 - t0)))
        for i in range(cfg[CFG_AGENTS]):
            out[i] = e0 if i % 2 == 0 else 1.0 - e0
        return
    top = NONE
    for p in range(n):
        out[p] = colony_score(state, cfg, p, work)
        top = max(top, out[p])
    total = 0.0
    for p in range(n):
        out[p] = np.exp(ESTIMATE_BETA * (out[p] - top))
        total += out[p]
    for p in range(n):
        out[p] /= total
