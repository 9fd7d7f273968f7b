"""The greedy baseline of Fungi (``fungi_v0``): the best immediate gain, one decision ahead.

The scores are computed by the compiled kernel ``search.greedy_scores`` (its module docstring
says what each action is worth); ``heuristic`` (found by ``mushgym.agents.GreedyAgent`` through
the registry) calls it.
"""

from __future__ import annotations

import numpy as np

from .search import greedy_scores


def heuristic(game, state, player, observation, action_mask) -> np.ndarray:
    """The greedy's score of every legal action (-inf for the others)."""
    scores = np.full(game.num_actions, -np.inf)
    greedy_scores(state, game.config, int(player), np.ascontiguousarray(action_mask, dtype=np.int8), scores)
    return scores
