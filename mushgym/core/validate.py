"""The compiled range check of a state against its layout's per-slot bounds.

A state layout declares ``low``/``high`` on the fields the kernels index with
(pile sizes, card kinds, players, decision-stack entries): a state whose every slot
is within its bounds cannot make a kernel read or write out of bounds. The check is
one pass over the state (``first_out_of_bounds``), run by the functional API on
every state coming in from Python (:meth:`mushgym.Game.validate`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

INT64_MIN = np.iinfo(np.int64).min
INT64_MAX = np.iinfo(np.int64).max


@njit(cache=True)
def first_out_of_bounds(state, low, high):
    """The first slot ``i`` with ``state[i]`` outside ``[low[i], high[i]]``, or -1."""
    for i in range(state.shape[0]):
        v = state[i]
        if v < low[i] or v > high[i]:
            return i
    return -1


def slot_name(layout, slot: int) -> str:
    """``field[i, j]`` naming a flat slot of ``layout``."""
    for f in layout.fields.values():
        if f.offset <= slot < f.offset + f.size:
            if not f.shape:
                return f.name
            idx = np.unravel_index(slot - f.offset, f.shape)
            return f"{f.name}[{', '.join(str(int(i)) for i in idx)}]"
    return f"slot {slot}"
