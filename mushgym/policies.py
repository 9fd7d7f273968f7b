"""The smallest policies the library itself plays with (random legal moves), batched.

A *policy* here is anything with ``act_batch(observations, action_masks) -> int64[n]``
(one legal action per row); :mod:`mushgym.episodes` asks each seat's policy for a
whole batch of decisions at once. The agents of :mod:`mushgym.agents` (greedy, PPO,
...) follow the same protocol; this module holds only what the library needs below
them (random play in :mod:`mushgym.testing`, ``mushgym bench`` and the wrappers' default opponent).
"""

from __future__ import annotations

import numpy as np


def uniform_legal_actions(action_masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``action_masks`` (random keys on the
    legal entries, argmax per row). A row without a legal action is a ``ValueError``."""
    masks = np.asarray(action_masks) != 0
    if masks.ndim != 2:
        raise ValueError(f"action_masks must be 2-D (one row per decision), got shape {masks.shape}")
    if not masks.any(axis=1).all():
        raise ValueError("no legal action in some row of action_masks")
    keys = rng.random(masks.shape)
    keys[~masks] = -1.0
    return keys.argmax(axis=1).astype(np.int64)


class UniformRandomPolicy:
    """Uniform over the legal actions, from its own seeded generator."""

    name = "random"
    uses_state = False

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """Start a new game (reseeding the generator if ``seed`` is given), as an agent does."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        return uniform_legal_actions(action_masks, self.rng)

    def __repr__(self) -> str:
        return "UniformRandomPolicy()"
