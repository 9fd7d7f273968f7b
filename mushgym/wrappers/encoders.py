"""Observation encoders: a game's float32 observation vector -> the network's input.

* ``"flat"``: the observation as it is, in ``Box(obs_low, obs_high)``.
* ``"scaled"`` (the default of ``SingleAgentEnv`` and ``train_ppo``): each element
  mapped to [0, 1] with the game's bounds.
* ``"onehot"``: every element whose bounds are integers at most ``max_onehot``
  apart becomes a one-hot block of ``high - low + 1`` entries; wider elements are
  scaled to [0, 1]. The layout is computed once from ``game.obs_low``/``obs_high``.
  Elements a game declares categorical (``game.obs_categorical``: a boolean per
  element, e.g. ``mycology_v1``'s card ids 0..84) become one-hot blocks whatever their
  span: an id scaled to [0, 1] means nothing to a network.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from mushgym.game import OBS_DTYPE
from mushgym.spaces import BoundedBox


class ObservationEncoder:
    name = "base"

    def __init__(self, low: np.ndarray, high: np.ndarray) -> None:
        self.low = np.asarray(low, dtype=np.float64).ravel()
        self.high = np.asarray(high, dtype=np.float64).ravel()
        if self.low.shape != self.high.shape or (self.low > self.high).any():
            raise ValueError("observation bounds must have one shape and low <= high")

    @property
    def space(self) -> spaces.Box:
        raise NotImplementedError

    def __call__(self, obs: np.ndarray) -> np.ndarray:
        return self.encode_batch(np.asarray(obs, dtype=OBS_DTYPE).reshape(1, -1))[0]

    def encode_batch(self, obs: np.ndarray) -> np.ndarray:
        raise NotImplementedError


class FlatEncoder(ObservationEncoder):
    name = "flat"

    @property
    def space(self) -> spaces.Box:
        return BoundedBox(self.low.astype(OBS_DTYPE), self.high.astype(OBS_DTYPE), dtype=OBS_DTYPE)

    def encode_batch(self, obs):
        return np.array(obs, dtype=OBS_DTYPE).reshape(len(obs), -1)  # a copy: callers keep it


class ScaledEncoder(ObservationEncoder):
    name = "scaled"

    def __init__(self, low, high):
        super().__init__(low, high)
        span = self.high - self.low
        self._scale = np.where(span > 0, 1.0 / np.where(span > 0, span, 1.0), 0.0).astype(OBS_DTYPE)
        self._low = self.low.astype(OBS_DTYPE)

    @property
    def space(self):
        return spaces.Box(0.0, 1.0, shape=(self.low.size,), dtype=OBS_DTYPE)

    def encode_batch(self, obs):
        x = (np.asarray(obs, dtype=OBS_DTYPE).reshape(len(obs), -1) - self._low) * self._scale
        return np.clip(x, 0.0, 1.0, out=x)


class OneHotEncoder(ObservationEncoder):
    name = "onehot"

    def __init__(self, low, high, max_onehot: int = 32, categorical=None):
        super().__init__(low, high)
        span = self.high - self.low
        integral = (self.low == np.round(self.low)) & (self.high == np.round(self.high))
        wanted = span <= max_onehot
        if categorical is not None:
            categorical = np.asarray(categorical, dtype=bool).ravel()
            if categorical.shape != self.low.shape:
                raise ValueError(
                    f"categorical must have one entry per observation element ({self.low.size}), "
                    f"got {categorical.shape}"
                )
            wanted = wanted | categorical
        self.onehot = integral & (span >= 1) & wanted
        self.scaled = ~self.onehot
        self._oh_idx = np.flatnonzero(self.onehot)
        self._sc_idx = np.flatnonzero(self.scaled)
        widths = (span[self._oh_idx] + 1).astype(np.int64)
        self._offsets = np.concatenate([[0], np.cumsum(widths)[:-1]]).astype(np.int64)
        self._oh_low = self.low[self._oh_idx]
        self._oh_max = span[self._oh_idx].astype(np.int64)
        self._n_oh = int(widths.sum())
        sc_span = span[self._sc_idx]
        self._sc_low = self.low[self._sc_idx].astype(OBS_DTYPE)
        self._sc_scale = np.where(sc_span > 0, 1.0 / np.where(sc_span > 0, sc_span, 1.0), 0.0).astype(OBS_DTYPE)
        self.size = self._n_oh + self._sc_idx.size

    @property
    def space(self):
        return spaces.Box(0.0, 1.0, shape=(self.size,), dtype=OBS_DTYPE)

    def encode_batch(self, obs):
        obs = np.asarray(obs, dtype=np.float64).reshape(len(obs), -1)
        n = obs.shape[0]
        out = np.zeros((n, self.size), dtype=OBS_DTYPE)
        if self._oh_idx.size:
            v = np.clip(np.rint(obs[:, self._oh_idx] - self._oh_low), 0, self._oh_max).astype(np.int64)
            cols = self._offsets + v
            out[np.arange(n)[:, None], cols] = 1.0
        if self._sc_idx.size:
            x = (obs[:, self._sc_idx].astype(OBS_DTYPE) - self._sc_low) * self._sc_scale
            out[:, self._n_oh :] = np.clip(x, 0.0, 1.0)
        return out


ENCODERS = {"flat": FlatEncoder, "scaled": ScaledEncoder, "onehot": OneHotEncoder}


def make_encoder(name: str | ObservationEncoder, game) -> ObservationEncoder:
    """The encoder ``name`` (``flat``, ``scaled``, ``onehot``) over ``game``'s observation bounds."""
    if isinstance(name, ObservationEncoder):
        return name
    if name not in ENCODERS:
        raise ValueError(f"unknown observation encoder {name!r}; choose from {sorted(ENCODERS)}")
    if name == "onehot":
        return OneHotEncoder(game.obs_low, game.obs_high, categorical=getattr(game, "obs_categorical", None))
    return ENCODERS[name](game.obs_low, game.obs_high)
