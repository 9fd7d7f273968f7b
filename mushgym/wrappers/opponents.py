"""The opponents a learner meets: agents drawn from a weighted pool, self-play snapshots.

The pool builds each entry it is given with its ``build(spec, env_id=...)``. The library
itself knows only policies (anything with ``act_batch`` and ``reset``, kept as they are)
and ``"random"`` (:class:`mushgym.policies.UniformRandomPolicy`): it does not import the
agents. Names such as ``"greedy"``, ``"mcts:SIMS"`` or a model path need the agents'
builder::

    from mushgym.agents import make_agent
    pool = OpponentPool(["random", "greedy"], env_id="fungi_v0", build=make_agent)
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from mushgym.policies import UniformRandomPolicy

#: ``build(spec, env_id=...) -> agent``: how a pool turns the entries it is given into agents
Builder = Callable[..., Any]


def library_opponent(spec: Any, env_id: str | None = None) -> Any:
    """The builder of a pool given none: a policy as it is, ``"random"`` as a
    :class:`~mushgym.policies.UniformRandomPolicy`; anything else is refused with the fix."""
    if isinstance(spec, str):
        if spec == "random":
            return UniformRandomPolicy()
        raise ValueError(
            f"opponent {spec!r}: without a builder the library makes only 'random' and takes "
            "policies (objects with act_batch and reset) as they are; for 'greedy', 'mcts:SIMS' "
            "or a model path pass the agents' builder: OpponentPool(..., build=make_agent), "
            "SingleAgentEnv(..., build_opponent=make_agent) (from mushgym.agents import make_agent), "
            "or an agent such as mushgym.agents.GreedyAgent(env_id)"
        )
    if callable(getattr(spec, "act_batch", None)) and callable(getattr(spec, "reset", None)):
        return spec
    raise TypeError(
        f"an opponent is 'random', a policy (an object with act_batch and reset, e.g. a "
        f"mushgym.agents.Agent) or, with a builder such as mushgym.agents.make_agent, a name the "
        f"builder knows; got {spec!r}"
    )


class OpponentPool:
    """Agents the wrapper draws opponents from, with sampling weights.

    Self-play adds frozen snapshots of the learner with :meth:`add`; ``max_size``
    bounds the snapshots kept (the oldest non-permanent entries go first). ``build``
    turns each entry into an agent (see the module docstring; default
    :func:`library_opponent`).
    """

    def __init__(
        self,
        agents: Sequence[Any] = (),
        weights: Sequence[float] | None = None,
        env_id: str | None = None,
        max_size: int | None = None,
        build: Builder | None = None,
    ) -> None:
        self.env_id = env_id
        self.build = build or library_opponent
        self.max_size = max_size
        self.entries: list[list[Any]] = []  # [agent, weight, permanent]
        weights = list(weights) if weights is not None else [1.0] * len(agents)
        if len(weights) != len(agents):
            raise ValueError("one weight per opponent")
        for a, w in zip(agents, weights):
            self.add(a, w, permanent=True)

    def add(self, agent: Any, weight: float = 1.0, permanent: bool = False) -> None:
        self.entries.append([self.build(agent, env_id=self.env_id), float(weight), permanent])
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
