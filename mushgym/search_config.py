"""The settings of a search, validated once: :class:`SearchConfig`.

    from mushgym.search import Searcher
    from mushgym.search_config import SearchConfig

    config = SearchConfig(simulations=400, rollout="auto", widen="auto")
    searcher = Searcher(game, config)                 # or Searcher(game, simulations=400, ...)
    searcher.config                                   # the settings with every "auto" resolved

A ``SearchConfig`` checks each setting on its own when it is made (a clear ``ValueError``
naming the setting and its choices); :meth:`SearchConfig.resolve` then answers the ``"auto"``
settings for one game (its tuned constants, what kernels it provides) and refuses a setting the
game cannot honour (``rollout="greedy"`` without a rollout policy, ...). What each setting
means is in :mod:`mushgym.search`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import numpy as np

from .search_kernels import find_kernel, tuned_setting

ROLLOUTS = ("auto", "random", "greedy")
VALUES = ("auto", "returns", "game")
WIDEN_ORDERS = ("auto", "first", "ranked")
DEFAULT_C = 0.7
DEFAULT_C_PUCT = 1.25
DEFAULT_BATCH = 8
DEFAULT_POOL = 64
DEFAULT_POOL_TREES = 32


def _is_count(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool) and x >= 1


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float, np.floating, np.integer)) and not isinstance(x, bool) and bool(np.isfinite(x))


@dataclass(frozen=True)
class SearchConfig:
    """Every setting of :class:`mushgym.search.Searcher` but the game and the network.

    ``simulations`` per tree; ``c`` the exploration constant (None: 0.7 for UCT, 1.25 with a
    network); ``rollout``, ``value``, ``widen``, ``widen_order``, ``horizon`` (each may be
    ``"auto"``: the game's own); ``threads`` root-parallel trees; ``seed``; ``pool`` states drawn
    by the ``perturb_hidden`` fallback; with a network: ``batch`` leaves per call,
    ``virtual_loss``, ``pool_trees`` trees sharing each call.
    """

    simulations: int = 1000
    c: float | None = None
    rollout: str = "random"
    value: str = "returns"
    widen: float | str = 0.0
    widen_order: str = "first"
    horizon: int | str = 0
    threads: int = 1
    seed: int = 0
    pool: int = DEFAULT_POOL
    batch: int = DEFAULT_BATCH
    virtual_loss: float = 1.0
    pool_trees: int = DEFAULT_POOL_TREES

    def __post_init__(self) -> None:
        for name in ("simulations", "threads", "pool", "batch", "pool_trees"):
            if not _is_count(getattr(self, name)):
                raise ValueError(f"{name} must be a positive integer, got {getattr(self, name)!r}")
        if self.c is not None and not (_is_number(self.c) and self.c >= 0):
            raise ValueError(f"c (the exploration constant) must be a finite number >= 0, got {self.c!r}")
        for name, choices in (("rollout", ROLLOUTS), ("value", VALUES), ("widen_order", WIDEN_ORDERS)):
            if getattr(self, name) not in choices:
                raise ValueError(f"unknown {name} {getattr(self, name)!r}; choices: {list(choices)}")
        if self.widen != "auto" and not (_is_number(self.widen) and self.widen >= 0):
            raise ValueError(
                f"widen (progressive widening: children <= 1 + widen * sqrt(visits); 0 = off) must be "
                f"a finite number >= 0 or 'auto', got {self.widen!r}"
            )
        if self.horizon != "auto" and not (
            isinstance(self.horizon, (int, np.integer)) and not isinstance(self.horizon, bool) and self.horizon >= 0
        ):
            raise ValueError(
                f"horizon (moves a playout runs past the tree before the game's search_estimate values "
                f"it; 0 = play to the end) must be an integer >= 0 or 'auto', got {self.horizon!r}"
            )
        if isinstance(self.seed, bool) or not isinstance(self.seed, (int, np.integer)):
            raise ValueError(f"seed must be an integer, got {self.seed!r}")
        if not (_is_number(self.virtual_loss) and self.virtual_loss >= 0):
            raise ValueError(f"virtual_loss must be a finite number >= 0, got {self.virtual_loss!r}")

    @classmethod
    def with_settings(cls, config: SearchConfig | None = None, **settings: Any) -> SearchConfig:
        """``config`` (default: the defaults) with ``settings`` changed; an unknown name is refused."""
        names = [f.name for f in dataclasses.fields(cls)]
        unknown = sorted(set(settings) - set(names))
        if unknown:
            raise ValueError(f"unknown search setting(s) {unknown}; the settings: {names}")
        return dataclasses.replace(config or cls(), **settings)

    def resolve(self, game, has_network: bool = False) -> SearchConfig:
        """These settings for ``game``: each ``"auto"`` answered, ``c`` set, and a setting the
        game cannot honour refused by name."""
        has_policy = find_kernel(game.kernels, "rollout_policy") is not None
        has_value = find_kernel(game.kernels, "search_value") is not None
        has_estimate = find_kernel(game.kernels, "search_estimate") is not None
        rollout = ("greedy" if has_policy else "random") if self.rollout == "auto" else self.rollout
        if rollout == "greedy" and not has_policy:
            raise ValueError(
                f"{game.env_id} provides no compiled rollout_policy kernel, so rollout='greedy' "
                f"is not available; use rollout='random' (choices: {list(ROLLOUTS)})"
            )
        value = ("game" if has_value else "returns") if self.value == "auto" else self.value
        if value == "game" and not has_value:
            raise ValueError(
                f"{game.env_id} provides no compiled search_value kernel, so value='game' is not "
                f"available; use value='returns' (choices: {list(VALUES)})"
            )
        tuned = rollout == "greedy"  # the game's tuned constants go with its own rollout policy
        widen = self.widen
        if widen == "auto":
            widen = tuned_setting(game, "SEARCH_WIDEN", 0.0) if tuned else 0.0
        widen_order = self.widen_order
        if widen_order == "auto":
            widen_order = str(tuned_setting(game, "SEARCH_WIDEN_ORDER", "first") if tuned else "first")
        if widen_order == "ranked" and rollout != "greedy":
            raise ValueError(
                "widen_order='ranked' orders a node's new children by the game's rollout policy, so it "
                "needs rollout='greedy' (or 'auto' on a game with a rollout policy); use widen_order='first'"
            )
        horizon = self.horizon
        if horizon == "auto":
            horizon = tuned_setting(game, "SEARCH_HORIZON", 0) if tuned and has_estimate else 0
        if horizon > 0 and not has_estimate:
            raise ValueError(
                f"{game.env_id} provides no compiled search_estimate kernel, so a playout horizon is not "
                f"available; use horizon=0 (play to the end) or 'auto'"
            )
        c = self.c if self.c is not None else (DEFAULT_C_PUCT if has_network else DEFAULT_C)
        return dataclasses.replace(
            self,
            c=float(c),
            rollout=rollout,
            value=value,
            widen=float(widen),
            widen_order=widen_order,
            horizon=int(horizon),
            pool=max(1, min(int(self.pool), int(self.simulations))),
        )
