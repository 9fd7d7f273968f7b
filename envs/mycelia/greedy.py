"""The greedy baseline of Mycelia for ``GreedyAgent``: the compiled scores of :mod:`.search`.

What greedy does (fruit when possible, else spore toward the colours it needs; reading only
what the acting player may see) is described, and computed, beside the rollout policy in
``search.py`` (``greedy_scores``); this module hands those scores to the agent.
"""

from __future__ import annotations

import numpy as np

from mushgym.game import MASK_DTYPE

from .search import greedy_scores
from .work import WORK_SIZE


def heuristic(game, state, player, observation, action_mask) -> np.ndarray:
    """The greedy score of each legal action for ``player`` (-inf for the illegal ones)."""
    scores = np.empty(game.num_actions)
    work = np.zeros(WORK_SIZE, np.int64)
    greedy_scores(state, game.config, int(player), np.asarray(action_mask, MASK_DTYPE), scores, work)
    return scores
