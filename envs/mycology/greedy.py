"""The greedy baselines of Mycology (``mycology_v1``): the best immediate gain in points.

The scores are computed by one compiled kernel, ``search.greedy_scores`` (its docstring says
what each action is worth), which the search's rollout policy plays too. :class:`Greedy` holds
the policy variants the simulation compares as parameters; ``heuristic`` (found by
``mushgym.agents.GreedyAgent``) is the default one: points + Feast, expected Poison, trade 2,
no exchange.
"""

from __future__ import annotations

import numpy as np

from .search import (  # noqa: F401  (RES_CHANCE: the Poison pricing, read by tests)
    POISON_AVOID,
    POISON_EXPECTED,
    POISON_IGNORE,
    POISON_LATE,
    RES_CHANCE,
    VALUE_POINTS,
    VALUE_POINTS_FEAST,
    greedy_scores,
)

VALUES = {"points_feast": VALUE_POINTS_FEAST, "points": VALUE_POINTS}
POISON_MODES = {"expected": POISON_EXPECTED, "ignore": POISON_IGNORE, "avoid": POISON_AVOID, "late": POISON_LATE}


class Greedy:
    """Scores of every action for the player to act; ``act`` takes the best legal one."""

    def __init__(
        self,
        game,
        value: str = "points_feast",
        poison: str = "expected",
        feast_trade: bool = True,
        exchange: bool = False,
        name: str | None = None,
    ):
        if value not in VALUES:
            raise ValueError(f"greedy value {value!r} unknown; choose from {tuple(VALUES)}")
        if poison not in POISON_MODES:
            raise ValueError(f"greedy poison mode {poison!r} unknown; choose from {tuple(POISON_MODES)}")
        self.game = game
        self.value, self.poison, self.feast_trade, self.exchange = value, poison, feast_trade, exchange
        self.name = name or f"greedy_{value}_{poison}"
        self._modes = (VALUES[value], POISON_MODES[poison], bool(feast_trade), bool(exchange))

    def scores(self, state: np.ndarray, player: int, action_mask: np.ndarray) -> np.ndarray:
        scores = np.full(self.game.num_actions, -np.inf)
        mask = np.ascontiguousarray(action_mask, dtype=np.int8)
        greedy_scores(state, self.game.config, int(player), mask, scores, *self._modes)
        return scores

    def act(self, state: np.ndarray, mask: np.ndarray) -> int:
        s = self.scores(state, self.game.current_player(state), mask)
        return int(np.argmax(s))


def heuristic(game, state, player, observation, action_mask) -> np.ndarray:
    """The default greedy as a GreedyAgent heuristic (found through the registry)."""
    g = game.__dict__.get("_default_greedy")
    if g is None:
        g = game.__dict__["_default_greedy"] = Greedy(game)
    return g.scores(state, player, action_mask)
