"""Result objects with a short repr (printing one never floods the terminal)."""

from __future__ import annotations

import numpy as np


class RolloutResult(dict):
    """What :meth:`mushgym.Game.random_rollouts` returns: a dict (``result["steps"]`` keeps
    working) whose keys are also attributes (``result.steps``), printed as one summary line.

    Keys: ``games``, ``steps``, ``mean_length``, ``max_length``, ``mean_returns`` (per seat),
    ``wins`` (per seat), ``lengths`` (per game), ``returns`` (per game and seat).
    """

    def __getattr__(self, name: str):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __repr__(self) -> str:
        mean = np.round(np.asarray(self.get("mean_returns", [])), 3).tolist()
        wins = np.asarray(self.get("wins", [])).tolist()
        return (
            f"RolloutResult(games={self.get('games')}, steps={self.get('steps')}, "
            f"mean_length={self.get('mean_length', 0):.1f}, max_length={self.get('max_length')}, "
            f"mean_returns={mean}, wins={wins}; per-game arrays in ['lengths'] and ['returns'])"
        )

    __str__ = __repr__

    def _repr_pretty_(self, p, cycle) -> None:  # IPython
        p.text(repr(self))
