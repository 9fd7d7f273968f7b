"""The opponents a learner meets: agents drawn from a weighted pool, self-play snapshots."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np


class OpponentPool:
    """Agents the wrapper draws opponents from, with sampling weights.

    Self-play adds frozen snapshots of the learner with :meth:`add`; ``max_size``
    bounds the snapshots kept (the oldest non-permanent entries go first).
    """

    def __init__(self, agents: Sequence[Any] = (), weights: Sequence[float] | None = None,
                 env_id: str | None = None, max_size: int | None = None) -> None:
        self.env_id = env_id
        self.max_size = max_size
        self.entries: list[list[Any]] = []  # [agent, weight, permanent]
        weights = list(weights) if weights is not None else [1.0] * len(agents)
        if len(weights) != len(agents):
            raise ValueError("one weight per opponent")
        for a, w in zip(agents, weights):
            self.add(a, w, permanent=True)

    def _build(self, agent):
        from mushgym.agents import make_agent

        return make_agent(agent, env_id=self.env_id)

    def add(self, agent: Any, weight: float = 1.0, permanent: bool = False) -> None:
        self.entries.append([self._build(agent), float(weight), permanent])
        if self.max_size is not None:
            while sum(1 for e in self.entries if not e[2]) > self.max_size:
                i = next(i for i, e in enumerate(self.entries) if not e[2])
                del self.entries[i]

    @property
    def agents(self) -> list[Any]:
        return [e[0] for e in self.entries]

    def sample(self, rng: np.random.Generator):
        if not self.entries:
            raise ValueError("the opponent pool is empty")
        w = np.array([e[1] for e in self.entries], dtype=np.float64)
        return self.entries[int(rng.choice(len(w), p=w / w.sum()))][0]

    def __len__(self) -> int:
        return len(self.entries)

    def __repr__(self) -> str:
        return "OpponentPool(" + ", ".join(f"{getattr(e[0], 'name', e[0])}:{e[1]:g}" for e in self.entries) + ")"
