"""A policy exported by an RLlib run (:mod:`mushgym.integrations.rllib_policy`) as an :class:`Agent`.

``make_agent`` returns one for a ``final.pt`` / ``policy.pt`` of such a run, or the
checkpoint or run folder holding it; the file holds weights only (no unpickling).
"""

from __future__ import annotations

import numpy as np

from mushgym.integrations.rllib_policy import MaskedMLPPolicy

from .base import Agent


class ExportedPolicyAgent(Agent):
    """The masked MLP actor of an RLlib run; ``deterministic`` (default) plays its most likely
    legal action, otherwise a sample of its masked softmax."""

    def __init__(self, path, env_id: str | None = None, seed: int | None = None, deterministic: bool = True) -> None:
        self.policy = MaskedMLPPolicy(path, env_id=env_id, deterministic=deterministic, seed=seed)
        self.name = str(path)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.policy.rng = np.random.default_rng(seed)

    def act(self, observation, action_mask) -> int:
        return int(self.act_batch(np.asarray(observation)[None], np.asarray(action_mask)[None])[0])

    def act_batch(self, observations, action_masks, **context) -> np.ndarray:
        return self.policy.act_batch(observations, action_masks)
