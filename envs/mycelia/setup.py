"""The set-up (RULES.md, "Components and setup"): the tiles dealt into two piles and the 12-tile
star, the cards, the first player, the expansion's set-up, and the Mother mushrooms placed in reverse
turn order (``init`` of the kernel contract).
"""

import numpy as np
from numba import njit

from mushgym.core import rng_below, rng_seed, shuffle_range

from . import expansion
from .actions import NUM_ACTIONS
from .cards import draw_deck, hand_draw
from .layout import (
    A_CARDNOW,
    AUTO_DECK,
    AUTO_DECK_N,
    BLACK,
    CFG_AUTO,
    CFG_EXP,
    CFG_INSECTS,
    CFG_NCARDS,
    CFG_NH,
    CFG_NS,
    CFG_NTILES,
    D_SETUP,
    DECK,
    DECK_N,
    DRAWN,
    ENDER,
    FIRST,
    FORMATION,
    INS_SUPPLY,
    L_ABSENT,
    L_DECK,
    MAT_CARD,
    MAT_TILE,
    MAXS,
    NA_CARDS,
    NC,
    NMATS,
    NT_MAX,
    NTP,
    RNG,
    ROLL,
    SPORES_EACH,
    TURNP,
    adjacency_at,
    automata_deck_at,
    card_loc_at,
    cfg_tile_colour_at,
    deck_at,
    insects_at,
    market_at,
    mother_at,
    mushroom_owner_at,
    pile_count_at,
    piles_at,
    push_decision,
    supply_at,
    tile_id_at,
    tile_insect_at,
    tree_at,
)
from .step import settle
from .tiles import place_tile, tile_colour
from .turn import is_automata, random_below
from .work import W_MASK

# --- setup --------------------------------------------------------------------------
STAR_C = np.array([-1, 0, 1, 1, 0, -1, -2, 0, 2, 2, 0, -2], np.int64)


STAR_R = np.array([-1, -1, -1, 0, 0, 0, -1, -2, -1, 0, 1, 0], np.int64)


@njit(cache=True)
def _shuffle_work(state, work, n):
    """Fisher-Yates shuffle of ``work[0:n]`` with the state's generator."""
    for i in range(n - 1, 0, -1):
        j = rng_below(state, RNG, i + 1)
        tmp = work[i]
        work[i] = work[j]
        work[j] = tmp


@njit(cache=True)
def _deal_tiles(state, cfg, work):
    """Shuffle the tiles into two piles and lay the 12-tile star (6 from each pile); reshuffle
    while black tiles leave fewer non-black centre tiles than Mother mushrooms."""
    nt = cfg[CFG_NTILES]
    need = cfg[CFG_NS]
    while True:
        for i in range(NT_MAX):
            state[tile_id_at(i)] = -1
            state[tile_insect_at(i)] = 0
            for k in range(3):
                state[adjacency_at(i, k)] = -1
        state[NTP] = 0
        state[INS_SUPPLY] = cfg[CFG_INSECTS] - cfg[CFG_NH] - (2 if cfg[CFG_AUTO] != 0 else 0)
        k = 0
        for t in range(NT_MAX):
            if nt == NT_MAX or cfg[cfg_tile_colour_at(t)] != BLACK:
                work[k] = t
                k += 1
        _shuffle_work(state, work, k)
        half = (k + 1) // 2
        for j in range(2):
            cnt = half if j == 0 else k - half
            for i in range(NT_MAX):
                state[piles_at(j, i)] = -1
            for i in range(cnt):
                state[piles_at(j, i)] = work[j * half + i]
            state[pile_count_at(j)] = cnt
        # the star: 6 from each pile (centre from pile 0, points from pile 1)
        for s in range(12):
            j = 0 if s < 6 else 1
            state[pile_count_at(j)] -= 1
            tid = state[piles_at(j, state[pile_count_at(j)])]
            state[piles_at(j, state[pile_count_at(j)])] = -1
            place_tile(state, cfg, tid, STAR_C[s], STAR_R[s], random_below(state, 3))
        free = 0
        for t in range(6):
            if tile_colour(state, cfg, t) != BLACK:
                free += 1
        if free >= need:
            return


@njit(cache=True)
def init(state, seed, cfg, work):
    state[:] = 0
    rng_seed(state, RNG, seed)
    nh = cfg[CFG_NH]
    ns = cfg[CFG_NS]
    state[ENDER] = -2
    state[DRAWN] = -1
    state[ROLL] = -1
    for s in range(MAXS):
        state[mother_at(s)] = -1
    for t in range(NT_MAX):
        state[mushroom_owner_at(t)] = -1
    for i in range(MAXS * NMATS):
        state[MAT_CARD + i] = -1
        state[MAT_TILE + i] = -1
    _deal_tiles(state, cfg, work)
    for s in range(ns):
        state[supply_at(s)] = SPORES_EACH
        state[insects_at(s)] = 2 if is_automata(cfg, s) else 1
    for t in range(NT_MAX):
        state[tree_at(t)] = -1
    state[FORMATION] = -1
    if cfg[CFG_EXP] != 0:
        expansion.setup(state, cfg)
    # cards (without the expansion its 35 cards are not in the game)
    nc = cfg[CFG_NCARDS]
    for c in range(NC):
        if c < nc:
            state[deck_at(c)] = c
            state[card_loc_at(c)] = L_DECK
        else:
            state[card_loc_at(c)] = L_ABSENT
    state[DECK_N] = nc
    shuffle_range(state, DECK, nc, RNG)
    first = random_below(state, nh)
    state[FIRST] = first
    for k in range(nh):
        p = (first + k) % nh
        extra = 1 if (nh == 2 and cfg[CFG_AUTO] == 0 and k == 1) else 0
        for _ in range(3 + extra):
            hand_draw(state, p, draw_deck(state))
    if cfg[CFG_AUTO] != 0:
        a = nh
        for _ in range(5):
            hand_draw(state, a, draw_deck(state))
        for i in range(NA_CARDS):
            state[automata_deck_at(i)] = i
        state[AUTO_DECK_N] = NA_CARDS
        shuffle_range(state, AUTO_DECK, NA_CARDS, RNG)
        state[A_CARDNOW] = -1
    for j in range(3):
        state[market_at(j)] = -1
    # Mother mushrooms, in reverse order: the player going last places first
    state[TURNP] = first
    for k in range(nh):
        p = (first + k) % nh
        push_decision(state, D_SETUP, p, 0, 0, 0, 0)
    settle(state, cfg, work[W_MASK : W_MASK + NUM_ACTIONS], work)
