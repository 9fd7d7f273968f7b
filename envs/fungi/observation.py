"""Fungi kernel: a player's observation (the layout ``OL`` of :mod:`layout`, player-relative)."""

from numba import njit

from mushgym.core import copy_block

from .cards import NHAND, NKINDS, NNIGHT, NTYPES
from .layout import (
    COOK_FOREST,
    COOK_NIGHT,
    COOK_TYPE,
    D_COOK,
    D_TRIM,
    DECAY_N,
    DISP_BASKETS,
    DISP_BUTTER,
    DISP_CIDRE,
    DISP_COOKED_F,
    DISP_COOKED_NT,
    DISP_EMPTY_PANS,
    DISP_FLY_NEW,
    DISP_FLY_OLD,
    DISP_NCOOKED,
    DISP_SCORE,
    DISP_STICKS,
    DISP_UNITS,
    DRAW_N,
    FOREST_N,
    FOREST_SIZE,
    NIGHT_N,
    O_DECAY,
    O_DECAY_N,
    O_DISCARD,
    O_DRAW_N,
    O_FOREST,
    O_FOREST_N,
    O_HAND,
    O_HAND_N,
    O_I_STARTED,
    O_LIMIT,
    O_NIGHT_N,
    O_OPP_HAND_N,
    O_OPP_KNOWN,
    O_PEND_UNITS,
    O_TO_ACT,
    O_TRIM_LEFT,
    START,
    TERMINAL,
    baskets_at,
    cooked_butter_at,
    cooked_cidre_at,
    cooked_forest_at,
    cooked_night_at,
    cooked_pans_at,
    decay_at,
    decision_at,
    discard_at,
    empty_pans_at,
    fly_new_at,
    fly_old_at,
    forest_at,
    hand_at,
    hand_n_at,
    known_at,
    mushrooms_cooked_at,
    obs_decay_counts_at,
    obs_display_at,
    obs_forest_onehot_at,
    obs_pending_cook_type_onehot_at,
    obs_phase_onehot_at,
    score_at,
    sticks_at,
)
from .legality import cooked_units, current_player, hand_limit, phase, trim_limit


# Inlined into its callers (the vector loops call it for every env at every step): no
# call, no reference counting of the argument arrays. Every element of ``out`` is written
# exactly once, except the one-hot / count blocks, which are cleared and then set.
@njit(cache=True, inline="always")
def observe(state, player, cfg, out, work):
    me = player & 1  # player is 0 or 1; the mask lets the indices below skip wraparound
    opp = 1 - me
    hm = hand_at(me, 0)
    ko = known_at(opp, 0)
    copy_block(out, O_HAND, state, hm, NHAND)
    copy_block(out, O_OPP_KNOWN, state, ko, NHAND)
    out[O_HAND_N] = state[hand_n_at(me)]
    out[O_LIMIT] = hand_limit(state, me)
    out[O_OPP_HAND_N] = state[hand_n_at(opp)]
    for who in range(2):  # 0: my display, 1: the opponent's
        q = me if who == 0 else opp
        out[obs_display_at(who, DISP_BASKETS)] = state[baskets_at(q)]
        out[obs_display_at(who, DISP_STICKS)] = state[sticks_at(q)]
        out[obs_display_at(who, DISP_EMPTY_PANS)] = state[empty_pans_at(q)]
        out[obs_display_at(who, DISP_FLY_NEW)] = state[fly_new_at(q)]
        out[obs_display_at(who, DISP_FLY_OLD)] = state[fly_old_at(q)]
        out[obs_display_at(who, DISP_NCOOKED)] = state[cooked_pans_at(q)]
        copy_block(out, obs_display_at(who, DISP_COOKED_F), state, cooked_forest_at(q, 0), NTYPES)
        copy_block(out, obs_display_at(who, DISP_COOKED_NT), state, cooked_night_at(q, 0), NNIGHT)
        out[obs_display_at(who, DISP_BUTTER)] = state[cooked_butter_at(q)]
        out[obs_display_at(who, DISP_CIDRE)] = state[cooked_cidre_at(q)]
        out[obs_display_at(who, DISP_SCORE)] = state[score_at(q)]
        out[obs_display_at(who, DISP_UNITS)] = state[mushrooms_cooked_at(q)]
    forest = out[O_FOREST : O_FOREST + FOREST_SIZE * NKINDS]  # slices: indices provably >= 0
    for i in range(FOREST_SIZE * NKINDS):
        forest[i] = 0.0
    fn = state[FOREST_N]
    for i in range(fn):
        forest[obs_forest_onehot_at(i, state[forest_at(i)] & 31) - O_FOREST] = 1.0  # card ids 0..22 (validate)
    out[O_FOREST_N] = fn
    decay = out[O_DECAY : O_DECAY + NKINDS]
    for k in range(NKINDS):
        decay[k] = 0.0
    dn = state[DECAY_N]
    for j in range(dn):
        decay[obs_decay_counts_at(state[decay_at(j)] & 31) - O_DECAY] += 1.0
    out[O_DECAY_N] = dn
    copy_block(out, O_DISCARD, state, discard_at(0), NKINDS)
    out[O_DRAW_N] = state[DRAW_N]
    out[O_NIGHT_N] = state[NIGHT_N]
    for k in range(O_TO_ACT, O_I_STARTED):  # to-act flag .. discards left: set below if they apply
        out[k] = 0.0
    # without branches on the data (neighbouring envs of a vector are in unrelated phases): every
    # entry is written, multiplied by "it applies"; ``current_player``, ``phase`` and
    # ``cooked_units`` choose without branches, and an empty stack's slots hold in-bounds
    # leftovers (layout.py's bounds), so the cook entry's indices stay in range
    running = state[TERMINAL] == 0
    cp = current_player(state)
    ph = phase(state)
    out[O_TO_ACT] = running & (cp == me)
    out[obs_phase_onehot_at(ph)] = running
    cooking = running & (ph == D_COOK)
    t = decision_at(state, 0, 2 + COOK_TYPE)
    out[obs_pending_cook_type_onehot_at(t)] = cooking
    out[O_PEND_UNITS] = cooking * cooked_units(
        t, decision_at(state, 0, 2 + COOK_NIGHT), decision_at(state, 0, 2 + COOK_FOREST), cfg
    )
    trimming = running & (ph == D_TRIM)
    q = cp & 1
    out[O_TRIM_LEFT] = trimming * (state[hand_n_at(q)] - trim_limit(state, q))
    out[O_I_STARTED] = state[START] == me
