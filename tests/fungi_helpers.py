"""Build Fungi positions for scenario tests (a thin layer over ``FungiGame.state_from``)."""

from __future__ import annotations

import numpy as np

from mushgym.envs.fungi import cards as C
from mushgym.envs.fungi import rules as R
from mushgym.envs.fungi.game import FungiGame, decode_action, encode_action  # noqa: F401

# Card names -> kinds (short and full names both work).
K: dict[str, int] = {}
for _k, _n in enumerate(C.KIND_SHORT):
    K[_n] = _k
for _k, _n in enumerate(C.KIND_NAMES):
    K[_n] = _k

_G = FungiGame()


def kind(x) -> int:
    return x if isinstance(x, (int, np.integer)) else K[x]


def setup(game: FungiGame | None = None, *, cur=0, phase=R.PH_ACT, **position) -> np.ndarray:
    """``game.state_from(...)`` with the older names: ``cur`` (the player to act) and ``phase``
    (R.PH_ACT, or R.PH_TRIM for a pending Fly agaric trim)."""
    pending = {R.PH_ACT: None, R.PH_TRIM: ("trim",)}[phase]
    return (game or _G).state_from(to_act=cur, pending=pending, **position)


def hand(s: np.ndarray, p: int) -> dict[str, int]:
    h = R.L.arrays(s)["hand"][p]
    return {C.KIND_SHORT[k]: int(h[k]) for k in range(C.NHAND) if h[k]}


def legal_set(game: FungiGame, s: np.ndarray) -> set[tuple]:
    return {decode_action(a) for a in game.legal_actions(s)}


def forest(s: np.ndarray) -> list[str]:
    v = R.L.arrays(s)
    return [C.KIND_SHORT[int(k)] for k in v["forest"][: int(v["forest_n"])]]


def decay(s: np.ndarray) -> list[str]:
    v = R.L.arrays(s)
    return [C.KIND_SHORT[int(k)] for k in v["decay"][: int(v["decay_n"])]]
