"""The kernel module of ``mycology_v1``: Mycology's kernels (:mod:`.rules`) with the compact observation.

The rules, actions, state and seeds are those of ``mycology_v0``: every kernel but
``observe`` is :mod:`.rules`'s own (the same compiled functions). ``observe`` is
:mod:`.observation_v1`'s, and ``validate`` adds one check to v0's: a player's Poison
tokens within the proven bound (:func:`poison_bound`), so that every state the game
accepts has an observation within its declared bounds (exact in ``uint8``). The generic
batch loops (rollouts, vector and single-agent APIs) are generated around this ``observe``
(``generated/rules_v1_loops.py``, declared here).
"""

from numba import njit

from mushgym.core import generated_loops

from .baskets import poison_bound
from .layout import CFG_NUM_PLAYERS, RNG, poison_at  # noqa: F401  (RNG: where the generator lives, as in rules.py)
from .observation_v1 import obs_size, observe  # noqa: F401  (kernel contract / size for the game)
from .rules import (  # noqa: F401  (the kernel contract: v0's kernels, unchanged)
    NUM_ACTIONS,
    STATE_SIZE,
    current_player,
    init,  # v0's deal (the generated loops around it stamp v1's header)
    is_terminal,
    is_truncated,
    legal_mask,
    returns,
    step,
)
from .validate import validate as validate_v0

V_POISON = 14
VALIDATION_ERRORS_V1 = {V_POISON: "a player holds more Poison tokens than the game can give"}

__all__ = [
    "init",
    "legal_mask",
    "step",
    "observe",
    "current_player",
    "is_terminal",
    "is_truncated",
    "returns",
    "validate",
    "poison_bound",
    "NUM_ACTIONS",
    "STATE_SIZE",
    "obs_size",
]


@njit(cache=True)
def validate(state, cfg, work):
    code = validate_v0(state, cfg, work)
    if code != 0:
        return code
    bound = poison_bound(cfg)
    for p in range(cfg[CFG_NUM_PLAYERS]):
        if state[poison_at(p)] > bound:
            return V_POISON
    return 0


generated_loops(globals())
