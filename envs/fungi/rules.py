"""Fungi: the kernel module (the contract of ``mushgym/core/README.md``) over one int64 state array.

The game is split where the engine's declarations make seams:

* :mod:`layout`: rules constants, the state / config / observation layouts, the
  action space and the decision stack (every index the kernels use comes from there);
* :mod:`legality`: hand limits, what a player may do, ``legal_mask``, ``current_player``;
* :mod:`effects`: the deal (``init``), ``step`` and the end of a turn;
* :mod:`observation`: ``observe``;
* :mod:`validate`: ``validate``, the consistency check ``Game.validate`` runs on every state
  the functional API is given (not on ``step_inplace(check=False)`` nor the batch kernels).

This module gathers them (``Game.kernels`` points here, and ``rules.X`` reaches every
declaration), adds ``is_terminal`` and ``returns``, and declares the generic batch loops over them
(``generated/rules_loops.py``, written by ``mushgym generate``).
See RULES.md for the rules as implemented. Everything is plain integer arithmetic on
arrays, so ``NUMBA_DISABLE_JIT=1`` gives the same results.

Card kinds: see :mod:`cards` (0..8 mushrooms, 9..16 Night, 17 Butter, 18 Cidre,
19 Pan, 20 Fly agaric, 21 Basket, 22 Moon). Hands are per-kind counts.
"""

from numba import njit

from mushgym.core import generated_loops, sample_masked  # noqa: F401  (sample_masked: the engine's uniform legal draw, re-exported)

from .effects import (  # noqa: F401  (re-exported: the kernels and what tests and agents reach as rules.X)
    advance,
    after_take,
    board_end_of_turn,
    cook_pan,
    draw_card,
    end_turn,
    expire_flies,
    init,
    resolve_card,
    spend,
    step,
)
from .layout import *  # noqa: F401,F403  (every declaration and generated index helper)
from .layout import CFG_REWARD, TERMINAL, cfg_units_at, mushrooms_cooked_at, score_at  # noqa: F401
from .legality import (  # noqa: F401
    can_take_decay,
    can_take_forest,
    cooked_units,
    current_player,
    finish_legal,
    hand_limit,
    has_action,
    legal_mask,
    phase,
    trim_limit,
    type_units,
)
from .observation import observe  # noqa: F401
from .validate import validate  # noqa: F401  (the state check run by mushgym.Game.validate)


@njit(cache=True)
def is_terminal(state):
    return state[TERMINAL] != 0


@njit(cache=True)
def returns(state, cfg, out):
    d = state[score_at(0)] - state[score_at(1)]
    if cfg[CFG_REWARD] == 1:
        out[0] = d
        out[1] = -d
        return
    if d == 0:
        d = state[mushrooms_cooked_at(0)] - state[mushrooms_cooked_at(1)]
    if d > 0:
        out[0] = 1.0
        out[1] = -1.0
    elif d < 0:
        out[0] = -1.0
        out[1] = 1.0
    else:
        out[0] = 0.0
        out[1] = 0.0


# the vector loops prefetch the state, mask and observation rows of the env two places ahead
# into L1: Fungi's 1.5 KB per env are read in a scattered order, and at batch 8,192 they come
# from L3 (A/B at batch 8,192: 1.24x vector steps/s on 2 threads, 1.09-1.13x on 1; into L2
# instead it lost 3-10%; RULES.md, "Speed")
PREFETCH_AHEAD = 2
PREFETCH_L1 = True
generated_loops(globals())
