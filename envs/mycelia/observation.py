"""Mycelia's observation: the base game's block (:mod:`.observation_base`), then with the North
American expansion its appended block (:mod:`.observation_na`). ``observe`` is the game's kernel;
:func:`observation_layout` the declaration with the bounds that depend on the options.

The base game's declaration (``OL``, the records ``CARD``, ``MAT``, ``SEAT``, ``TILE`` and their
sizes ``CF``, ``MATF``, ``SEATF``, ``TF``, ``POS_SHIFT``, ...) is re-exported from here.
"""

from numba import njit

from mushgym.core import Layout

from .layout import CFG_EXP
from .observation_base import *  # noqa: F401,F403 - the base game's declaration (OL, CF, TF, POS_SHIFT, ...)
from .observation_base import base_observation_layout, observe_base
from .observation_na import OBS_SIZE_NA, add_expansion_fields, observe_na  # noqa: F401


def observation_layout(rounds_high: int, expansion: bool = False) -> Layout:
    """The observation declaration with the bounds that depend on the options (the turn limit
    in rounds; the expansion's block and bounds)."""
    OL = base_observation_layout(rounds_high, expansion)
    if expansion:
        add_expansion_fields(OL)
    return OL


@njit(cache=True)
def observe(state, player, cfg, out, work):
    """The base game's observation, then with the expansion its appended block."""
    observe_base(state, player, cfg, out, work)
    if cfg[CFG_EXP] != 0:
        observe_na(state, player, cfg, out, work)
