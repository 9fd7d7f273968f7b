"""The player mats: which mat is free or blocked, a mushroom grown onto a mat (:func:`grow_mushroom`)
and decayed off it (:func:`decay_mushroom`, which marks the end of the game when every mat has a card
under it).
"""

from numba import njit

from .layout import (
    CFG_MATS,
    ENDER,
    FRUIT_NET,
    L_TOP,
    L_UNDER,
    MAT_CARD,
    MAT_CTR,
    MAT_TILE,
    MAT_UNDER,
    NDECAYS,
    NEED_WILD,
    NMATS,
    PAID_BLACK,
    ST_DECAY,
    ST_NA_DECAY,
    bits_clear,
    card_loc_at,
    cfg_decay_at,
    cfg_points_at,
    count_event,
    grown_at,
    hand_count_at,
    mat_card_at,
    mat_tile_at,
    mat_under_at,
    mushroom_mat_at,
    mushroom_owner_at,
    need_at,
    points_at,
)
from .tiles import mother_on


@njit(cache=True)
def mat_index(p, i):
    return p * NMATS + i


@njit(cache=True)
def mat_blocked(state, p, i):
    t = state[mat_tile_at(p, i)]
    if t < 0:
        return False
    m = mother_on(state, t)
    return m >= 0 and m != p


@njit(cache=True)
def free_mat(state, cfg, p):
    for i in range(cfg[CFG_MATS]):
        if state[mat_card_at(p, i)] == -1 and state[mat_tile_at(p, i)] < 0:
            return i
    return -1


@njit(cache=True)
def all_decayed(state, cfg, p):
    for i in range(cfg[CFG_MATS]):
        if state[mat_under_at(p, i)] == 0:
            return False
    return True


@njit(cache=True)
def decay_mushroom(state, cfg, p, i):
    """Decay the mushroom of mat ``i``; returns its card's decay action (-1 none: an Automata
    mushroom's is on its card in play). When every mat has a card under it the game is to end
    (``ENDER`` is set, the game still on): it ends once that decay action is resolved
    (:func:`.step.settle`, :func:`.automata.automata_turn`)."""
    m = mat_index(p, i)
    card = state[MAT_CARD + m]
    t = state[MAT_TILE + m]
    state[mushroom_owner_at(t)] = -1
    state[mushroom_mat_at(t)] = 0
    state[MAT_TILE + m] = -1
    state[MAT_CTR + m] = 0
    state[MAT_CARD + m] = -1
    state[MAT_UNDER + m] += 1
    if card >= 0:
        state[card_loc_at(card)] = L_UNDER + m
    if all_decayed(state, cfg, p):
        state[ENDER] = p
    if card < 0:
        return -1
    kind = cfg[cfg_decay_at(card)]
    count_event(state, ST_DECAY + kind if kind < NDECAYS else ST_NA_DECAY + kind - NDECAYS)
    return kind


@njit(cache=True)
def grow_mushroom(state, cfg, p, card, i, t):
    m = mat_index(p, i)
    state[hand_count_at(p)] -= 1
    state[card_loc_at(card)] = L_TOP + m
    state[MAT_CARD + m] = card
    state[MAT_TILE + m] = t
    state[MAT_CTR + m] = 0
    state[mushroom_owner_at(t)] = p
    state[mushroom_mat_at(t)] = i
    state[points_at(p)] += cfg[cfg_points_at(card)]
    state[grown_at(p)] += 1
    for c in range(4):
        state[need_at(c)] = 0
    state[NEED_WILD] = 0
    state[PAID_BLACK] = 0
    bits_clear(state, FRUIT_NET)
