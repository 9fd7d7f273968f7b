"""The board valuations of Mycelium's greedy baseline (``greedy.py``, which scores the actions
with them): the value tables, packed per-location tables, the edge values toward the Nutrient
Trees, gathering, and the variants' shop and hero values.

Allocation-free: the per-location tables (bonded Paths, the nutrient cards known to come) are
packed 4 bits a location into one integer, and the edge values (the best tree or Willow value
discounted by 0.8 an edge, ``edge_values``) are computed into the game's own work area (its
first 2 x edges slots of ``WORK_SIZE``, which the search preallocates) as fixed-point integers:
a label-correcting search from the trees' edges (the values of static edge distances, to ~1e-11).
"""

import numpy as np
from numba import njit

from .rules import (
    A_HERO,
    BIRDS,
    BLEWIT,
    CFG_AGENTS,
    CFG_NE,
    CFG_NG,
    CFG_TEAM,
    CFG_WILLOW,
    CHANT,
    DEATH,
    FLY,
    INKY,
    MAX_EDGES,
    MAXP,
    MOREL,
    NDECK_N,
    NE_CENTER,
    NE_RAIN,
    NE_TREE,
    NIGHT,
    NUM_MUSHLING_KINDS,
    PARASOL,
    PENNY,
    PH_EXPLORE,
    PHASE,
    SHIITAKE,
    SHOP,
    TURN_PLAYER,
    bonded_edges,
    cfg_combat_at,
    cfg_edge_nbr_at,
    cfg_gloc_edges_at,
    cfg_gloc_kind_at,
    cfg_hero_amount_at,
    cfg_hero_effect_at,
    cfg_item_cost_at,
    cfg_nut_effect_at,
    cfg_nut_target_at,
    cfg_spore_at,
    cfg_tree_at,
    decision_depth,
    gatherer_at,
    has_path,
    loc_nut_at,
    loc_spores_at,
    ndeck_at,
    nseen_at,
    shop_at,
    top_player,
)

# what a card of each Mushling type is worth holding besides its spore and combat values (keep_value)
KEEP = np.zeros(NUM_MUSHLING_KINDS)
KEEP[FLY] = 3.0
KEEP[PENNY] = 2.0
KEEP[CHANT] = 2.5
KEEP[BLEWIT] = 2.5
KEEP[BIRDS] = 2.0
KEEP[NIGHT] = 2.0
KEEP[MOREL] = 1.5
KEEP[PARASOL] = 1.2
KEEP[SHIITAKE] = 1.2
KEEP[DEATH] = 1.5
KEEP[INKY] = 1.0
SPORE_KEEP = 1.5  # a Spore Token's keep value in a Trade (3 spore value toward a Path; variant: team)
# variant: emsporium (item types in variant_data.ITEM_NAMES order: Sword, Pickaxe, Backpack,
# Bow, Flyers, Shield, Pouch, Basket)
ITEM_VALUE = np.array([0.8, 0.5, 1.0, 0.3, 0.4, 0.4, 0.2, 0.5])
# variant: hero_tavern (effects in variant_data.HERO_EFFECTS order: free_paths, spores,
# combat_tokens, draw, spawn, view_nutrients, gather_now, willow, combat)
HERO_VALUE = np.array([1.2, 0.7, 0.3, 0.6, 0.5, 0.1, 0.8, 0.4, 0.6])

FIXED = float(1 << 40)  # fixed-point scale of the edge values in the work area
IN_QUEUE = 1  # low bit of an edge value: the edge waits in the search's queue
NONE = -1e300  # the value of no choice yet


# --- small tables ------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def nibble(packed, g):
    """Location ``g``'s 4-bit count in a packed per-location table."""
    return (packed >> (4 * g)) & 15


@njit(cache=True)
def keep_value(cfg, t):
    """What a card of type ``t`` is worth holding."""
    return KEEP[t] + 0.4 * cfg[cfg_spore_at(t)] + cfg[cfg_combat_at(t)] / 8.0


@njit(cache=True)
def seat_to_act(state):
    """The seat deciding (the Team rules: an agent acts for the seat on top of the stack)."""
    return top_player(state) if decision_depth(state) > 0 else state[TURN_PLAYER]


@njit(cache=True)
def is_friend(cfg, p, q):
    """``q`` is ``p`` or, under the Team rules, its teammate."""
    return q == p or (cfg[CFG_TEAM] != 0 and q == (p + 2) % MAXP)


@njit(cache=True)
def is_target(cfg, g):
    """A Nutrient Tree or the Willow (gather-location kinds 1 and 2)."""
    k = cfg[cfg_gloc_kind_at(g)]
    return k == 1 or k == 2


@njit(cache=True)
def bonded_counts(state, cfg, p, work):
    """p's bonded Paths on each location, packed 4 bits a location (``bonded_edges`` in the work area)."""
    bonded_edges(state, cfg, p, work)
    packed = 0
    for g in range(cfg[CFG_NG]):
        n = 0
        for k in range(6):
            e = cfg[cfg_gloc_edges_at(g, k)]
            if e >= 0 and work[e] != 0:
                n += 1
        packed |= n << (4 * g)
    return packed


@njit(cache=True)
def card_gain_at(cfg, k, g):
    """1 when nutrient card kind ``k`` puts a Nutrient on location ``g``."""
    eff = cfg[cfg_nut_effect_at(k)]
    if eff == NE_TREE:
        return 1 if cfg[cfg_nut_target_at(k)] == g else 0
    if eff == NE_CENTER:
        return 1 if cfg[CFG_WILLOW] == g else 0
    if eff == NE_RAIN:
        for t in range(4):
            if cfg[cfg_tree_at(t)] == g:
                return 1
    return 0


@njit(cache=True)
def upcoming_counts(state, cfg, p):
    """Nutrients the nutrient cards p knows come before its next Gather Phase add, packed per
    location: the next cards, one per agent (the 2-player game: 2 of its 4 seats' turns)."""
    packed = 0
    top = state[NDECK_N]
    for i in range(min(cfg[CFG_AGENTS], top)):
        pos = top - 1 - i
        if state[nseen_at(p, pos)] != 0:
            k = state[ndeck_at(pos)]
            for g in range(cfg[CFG_NG]):
                packed += card_gain_at(cfg, k, g) << (4 * g)
    return packed


@njit(cache=True)
def feeds_my_trees(cfg, k, bonded):
    """Locations among p's bonded trees that nutrient card kind ``k`` feeds."""
    n = 0
    for g in range(cfg[CFG_NG]):
        if nibble(bonded, g) > 0 and is_target(cfg, g):
            n += card_gain_at(cfg, k, g)
    return n


# --- edge values (the work area) ---------------------------------------------------------------
@njit(cache=True, inline="always")
def raise_edge(work, e, v, head, size):
    """Raise edge ``e``'s value to ``v`` if that is more, queueing it (``work[0:E]``, the circular
    queue from ``head`` holding ``size`` edges) unless it waits there already; the new size."""
    if v > (work[MAX_EDGES + e] & ~IN_QUEUE):
        flag = work[MAX_EDGES + e] & IN_QUEUE
        work[MAX_EDGES + e] = v | flag
        if flag == 0:
            work[MAX_EDGES + e] |= IN_QUEUE
            work[(head + size) % MAX_EDGES] = e
            size += 1
    return size


@njit(cache=True)
def edge_values(state, cfg, bonded, full, work):
    """The value of every edge into ``work[E + e]`` (fixed point, FIXED = 1):
    the best over trees and the Willow of (1 + its Nutrients) x 0.8 per edge between (x 0.5
    where p has 2 bonded Paths already); 0 with a full Colony (Team rules). A label-correcting
    search from the locations' edges, ``work[0:E]`` its circular queue."""
    ne = cfg[CFG_NE]
    for e in range(ne):
        work[MAX_EDGES + e] = 0
    if full:
        return
    head = 0
    size = 0
    for g in range(cfg[CFG_NG]):
        if not is_target(cfg, g):
            continue
        w = (1.0 + state[loc_nut_at(g)]) * (0.5 if nibble(bonded, g) >= 2 else 1.0)
        v = np.int64(w * FIXED) & ~IN_QUEUE
        for k in range(6):
            e = cfg[cfg_gloc_edges_at(g, k)]
            if e >= 0:
                size = raise_edge(work, e, v, head, size)
    while size > 0:
        e = work[head]
        head = (head + 1) % MAX_EDGES
        size -= 1
        work[MAX_EDGES + e] &= ~IN_QUEUE
        cand = ((work[MAX_EDGES + e] * 4) // 5) & ~IN_QUEUE
        for k in range(4):
            n = cfg[cfg_edge_nbr_at(e, k)]
            if n >= 0:
                size = raise_edge(work, n, cand, head, size)


@njit(cache=True, inline="always")
def edge_value(work, e):
    return (work[MAX_EDGES + e] & ~IN_QUEUE) / FIXED


@njit(cache=True)
def reach(state, cfg, p, g, work):
    """Edges from location ``g`` to p's nearest Path (99 without Paths)."""
    ne = cfg[CFG_NE]
    for e in range(ne):
        work[MAX_EDGES + e] = -1
    tail = 0
    for k in range(6):
        e = cfg[cfg_gloc_edges_at(g, k)]
        if e >= 0 and work[MAX_EDGES + e] < 0:
            work[MAX_EDGES + e] = 0
            work[tail] = e
            tail += 1
    head = 0
    while head < tail:
        e = work[head]
        head += 1
        if has_path(state, e, p):
            return work[MAX_EDGES + e]
        for k in range(4):
            n = cfg[cfg_edge_nbr_at(e, k)]
            if n >= 0 and work[MAX_EDGES + n] < 0:
                work[MAX_EDGES + n] = work[MAX_EDGES + e] + 1
                work[tail] = n
                tail += 1
    return 99


@njit(cache=True)
def on_tree(cfg, e):
    for g in range(cfg[CFG_NG]):
        if is_target(cfg, g):
            for k in range(6):
                if cfg[cfg_gloc_edges_at(g, k)] == e:
                    return True
    return False


# --- gathering -----------------------------------------------------------------------------------
@njit(cache=True)
def gather_value(state, cfg, l0, l1, l2, l3, bonded, extra):
    """What gatherers on l0..l3 (-1 none) take: Nutrients 1, spores 0.3,
    the Mush Room 0.25, capped by the bonded Paths; ``extra`` Nutrients to come (packed)."""
    total = 0.0
    ng = cfg[CFG_NG]
    for i in range(4):
        g = l0 if i == 0 else (l1 if i == 1 else (l2 if i == 2 else l3))
        if g < 0 or g >= ng:
            continue
        if (i > 0 and g == l0) or (i > 1 and g == l1) or (i > 2 and g == l2):
            continue  # counted with its first occurrence
        k = (1 if l0 == g else 0) + (1 if l1 == g else 0) + (1 if l2 == g else 0) + (1 if l3 == g else 0)
        kind = cfg[cfg_gloc_kind_at(g)]
        if kind == 3:
            total += 0.25 * k
            continue
        take = min(k, nibble(bonded, g))
        if kind == 0:
            total += 0.3 * min(take, state[loc_spores_at(g)])
        else:
            total += min(take, state[loc_nut_at(g)] + nibble(extra, g))
    return total


@njit(cache=True)
def gather_now(state, cfg, p, bonded):
    return gather_value(
        state, cfg, state[gatherer_at(p, 0)], state[gatherer_at(p, 1)], state[gatherer_at(p, 2)], -1, bonded, 0
    )


@njit(cache=True)
def best_places_value(state, cfg, bonded):
    """Three locations chosen one by one for the most gathered; their value."""
    ng = cfg[CFG_NG]
    locs0, locs1, locs2 = -1, -1, -1
    for step in range(3):
        best, best_v = 0, NONE
        for g in range(ng):
            if step == 0:
                v = gather_value(state, cfg, g, -1, -1, -1, bonded, 0)
            elif step == 1:
                v = gather_value(state, cfg, locs0, g, -1, -1, bonded, 0)
            else:
                v = gather_value(state, cfg, locs0, locs1, g, -1, bonded, 0)
            if v > best_v:
                best, best_v = g, v
        if step == 0:
            locs0 = best
        elif step == 1:
            locs1 = best
        else:
            locs2 = best
    return gather_value(state, cfg, locs0, locs1, locs2, -1, bonded, 0)


@njit(cache=True)
def gatherer_score(state, cfg, p, g, bonded, upcoming, work):
    """The score of placing a gatherer on location ``g`` (Explore and Place Phases)."""
    k = 0
    for i in range(3):
        if state[gatherer_at(p, i)] == g:
            k += 1
    kind = cfg[cfg_gloc_kind_at(g)]
    b = nibble(bonded, g)
    if kind == 3:
        return 0.25
    if kind == 0:
        return min(0.3 * state[loc_spores_at(g)] if b > k else 0.0, 0.6)
    have = state[loc_nut_at(g)] + 0.3 + nibble(upcoming, g)
    if b > k:
        return have / (1.0 + k)
    d = reach(state, cfg, p, g, work) - (1 if state[PHASE] == PH_EXPLORE else 0)
    return 0.5 * have * 0.6 ** max(d, 0) / (1.0 + k)


# --- variants: emsporium, hero_tavern / legends -----------------------------------------------
@njit(cache=True)
def shop_target(state, cfg, budget):
    """The most valued shop slot costing at most ``budget`` (-1 none)."""
    best, slot = 0.0, -1
    for s in range(SHOP):
        i = state[shop_at(s)]
        if i >= 0 and cfg[cfg_item_cost_at(i)] <= budget and ITEM_VALUE[i] > best:
            best, slot = ITEM_VALUE[i], s
    return slot


@njit(cache=True)
def hero_worth(cfg, h):
    return max(
        HERO_VALUE[cfg[cfg_hero_effect_at(h, 0)]] * max(1, cfg[cfg_hero_amount_at(h, 0)]),
        HERO_VALUE[cfg[cfg_hero_effect_at(h, 1)]] * max(1, cfg[cfg_hero_amount_at(h, 1)]),
    )


@njit(cache=True)
def hero_use_score(cfg, a, best_edge, gathered):
    """An action ability of a held hero in the Action Phase."""
    eff = cfg[cfg_hero_effect_at((a - A_HERO) // 2, (a - A_HERO) % 2)]
    if eff == 0:
        return 2.5 + best_edge if best_edge > 0.25 else -1.0
    if eff == 6:
        return 0.9 if gathered >= 1.0 else -1.0
    if eff == 5:
        return 0.05
    return 0.5 + 0.1 * HERO_VALUE[eff]
