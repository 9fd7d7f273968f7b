"""Fungi's compiled rollout policy for information-set MCTS (``MCTSAgent(rollout="greedy")``).

``rollout_policy(state, cfg, mask, n_legal, work, rng) -> action``: a cheap greedy for
the simulations, not the full greedy baseline (``greedy.py``, Python): with the choice
of the five actions, cook the largest legal set (Night cards count 2), else take a free
Forest card (position 0 or 1, at random), else a uniformly random legal action; every
follow-up (pan, Butter, Cidre; Fly agaric discards) is uniformly random. It reads only
what the player to act sees (its hand, the Forest), so the simulations do not peek.
"""

from numba import njit

from mushgym.core import rng_below

from .layout import A_COOK, A_SELL, NO_DECISION, cook_args, take_action, top_kind
from .rules import sample_masked  # the engine's uniform legal draw (mushgym.core.batch)


@njit(cache=True)
def rollout_policy(state, cfg, mask, n_legal, work, rng):
    if top_kind(state) == NO_DECISION:
        best = -1
        best_units = 0
        for a in range(A_COOK, A_SELL):
            if mask[a] != 0:
                t, n, f = cook_args(a)
                if f + 2 * n > best_units:
                    best_units = f + 2 * n
                    best = a
        if best >= 0:
            return best
        t0 = mask[take_action(0)] != 0
        t1 = mask[take_action(1)] != 0
        if t0 and t1:
            return take_action(rng_below(rng, 0, 2))
        if t0:
            return take_action(0)
        if t1:
            return take_action(1)
    return sample_masked(mask, n_legal, rng, 0)
