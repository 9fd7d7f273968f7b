"""Mycology's compiled rollout policy for information-set MCTS (``MCTSAgent(rollout="greedy")``).

``rollout_policy(state, cfg, mask, n_legal, work, rng) -> action``: a cheap greedy for the
simulations (random Mycology games last ~500 decisions, greedy ones ~80): harvest the
legal field card worth the most points, else a uniformly random legal action (payments,
trades, orderings included). It reads only the public field and the mask.
"""

from numba import njit

from .actions import A_HARVEST
from .layout import FIELD_SIZE, cfg_points_at, field_at
from .rules import sample_masked   # the engine's uniform legal draw (mushgym.core.batch)


@njit(cache=True)
def rollout_policy(state, cfg, mask, n_legal, work, rng):
    best = -1
    best_points = -1000
    for slot in range(FIELD_SIZE):
        a = A_HARVEST + slot
        if mask[a] != 0:
            pts = cfg[cfg_points_at(state[field_at(slot)])]
            if pts > best_points:
                best_points = pts
                best = a
    if best >= 0:
        return best
    return sample_masked(mask, n_legal, rng, 0)
