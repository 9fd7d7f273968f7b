"""Gymnasium spaces with a fast masked ``sample``.

``gymnasium.spaces.Discrete.sample(mask)`` validates the mask and builds
several temporary arrays on each call (about 40 µs), which caps any masked
env driven by PettingZoo's standard loop at about 25k steps/s. ``MaskedDiscrete``
draws the same kind of sample (uniform over the legal actions, from the space's
own seeded ``np_random``) with one ``flatnonzero`` and one integer draw.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces


class MaskedDiscrete(spaces.Discrete):
    """``Discrete(n)`` whose ``sample(mask)`` is uniform over ``mask``'s ones, quickly."""

    def sample(self, mask=None, probability=None):  # noqa: D102 - same contract as Discrete
        if mask is None or probability is not None:
            return super().sample(mask=mask, probability=probability)
        if not isinstance(mask, np.ndarray) or mask.shape != (self.n,):
            raise ValueError(
                f"action mask must be an ndarray of shape ({self.n},), got {getattr(mask, 'shape', type(mask))}"
            )
        legal = mask.nonzero()[0]  # flatnonzero without its ravel wrapper: 1 µs less
        if legal.size == 0:
            return self.start  # Gymnasium's convention for an all-zero mask
        return self.start + legal[self.np_random.integers(legal.size)]

    def __repr__(self) -> str:
        return f"MaskedDiscrete({self.n})"


class BoundedBox(spaces.Box):
    """A ``Box`` whose repr stays one short line when every element has its own bounds.

    Gymnasium prints both bound arrays in full (hundreds of numbers for an observation
    vector); this prints their range and says where the per-element bounds are.
    Everything else (``contains``, ``sample``, equality, pickling, ``batch_space``) is Box's.
    """

    def __repr__(self) -> str:
        lo, hi = self.low, self.high
        if lo.size and (lo == lo.flat[0]).all() and (hi == hi.flat[0]).all():
            return f"Box({lo.flat[0]:g}, {hi.flat[0]:g}, {self.shape}, {self.dtype})"
        return f"Box({lo.min():g}..{hi.max():g}, {self.shape}, {self.dtype}; per-element bounds in .low / .high)"
