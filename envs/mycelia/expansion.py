"""The North American expansion's kernels: saplings (investing, the symbiosis roll), AGE and
Grandfather Trees, and its decay actions (RULES.md, "North American expansion").

Called from the base game's modules above it (:mod:`.legality`, :mod:`.step`, :mod:`.automata`,
:mod:`.setup`) only when ``cfg[CFG_EXP]`` is set (the base game never reaches them); it uses only
the modules below them (it never imports those that call it).
The expansion's decisions are entries of the same stack (kinds ``D_INVEST`` ..
``D_AFTER_SPORE``). A SPORE action of a player pushes ``D_AFTER_SPORE`` (a0: the investment was
offered; a1: 1 in a SPORE action) under its spread; when it comes back to the top
(:func:`after_spore`, from :func:`.step.settle`) the player may invest one of the spores that landed
this action into the sapling of its tile, then every spore lying on a Grandfather Tree is pushed
by the tree's owner to a neighbouring tile (or, while the SPORE action has not invested, onto a
neighbouring sapling: the spore's owner rolls), one spore per decision, until no tree holds
one; then the entry goes.
"""

import numpy as np
from numba import njit

from .actions import A_KEEP_TILE, A_NO_INVEST, A_PILE, A_PUSH_SAPLING, A_REROLL, A_TILE, action_seat, seat_action
from .layout import (
    CFG_EXP,
    CFG_FORMATION,
    CFG_NH,
    CFG_NS,
    D_AFTER_SPORE,
    D_BONUS_PILE,
    D_INVEST,
    D_KEEP_TILE,
    D_PLACE,
    D_REROLL,
    D_SAP_ADD,
    D_SAP_PICK,
    D_SAP_REMOVE,
    D_SAP_REMOVE_SEAT,
    D_SYM_SPORE,
    D_TREE_PUSH,
    DC_EXPLORE2,
    DC_REROLL,
    DC_SAPLING_REMOVE,
    DC_SAPLING_ROLL,
    DC_TWO_SAPLINGS,
    DRAWN,
    FORMATION,
    GU_EXPLORE2,
    GU_REROLL,
    INS_SUPPLY,
    INVESTED,
    LANDED,
    MARKS,
    MAXS,
    NTP,
    ROLL,
    SAP_SUPPLY,
    SAPLING_SPORES,
    SAPLINGS,
    ST_AGE,
    ST_BONUS,
    ST_INVEST,
    ST_PUSH,
    T_AGE,
    TILES_OUT,
    TREES_EACH,
    adjacency_at,
    bit_get,
    bit_set,
    bits_clear,
    count_event,
    game_upgrades_at,
    insects_at,
    mother_at,
    mushroom_mat_at,
    mushroom_owner_at,
    pile_count_at,
    piles_at,
    pop_decision,
    push_decision,
    sapling_at,
    sapling_spores_at,
    set_top_arg,
    set_top_kind,
    spores_at,
    supply_at,
    top_arg,
    top_player,
    tree_at,
    trees_left_at,
)
from .mats import decay_mushroom
from .networks import label_networks
from .turn import main_allowed, random_below, start_action
from .work import LABEL

# --- set-up and new tiles -----------------------------------------------------------------------
#: the sapling start formations (designed; RULES.md "North American expansion"), by wind-die face:
#: O three alternate centre tiles, U three alternate star points, A all six star points
FORMATION_TILES = np.array([[1, 3, 5, -1, -1, -1], [6, 8, 10, -1, -1, -1], [6, 7, 8, 9, 10, 11]], np.int64)


@njit(cache=True)
def setup(state, cfg):
    """The expansion's set-up: the sapling formation (rolled, or the ``sapling_setup`` option),
    the rest of the 15 saplings in the supply, 3 Grandfather Trees beside each player's mats."""
    f = cfg[CFG_FORMATION]
    if f < 0:
        f = random_below(state, 3)
    state[FORMATION] = f
    state[SAP_SUPPLY] = SAPLINGS
    for j in range(6):
        t = FORMATION_TILES[f, j]
        if t >= 0:
            state[sapling_at(t)] = 1
            state[SAP_SUPPLY] -= 1
    for s in range(cfg[CFG_NH]):
        state[trees_left_at(s)] = TREES_EACH


@njit(cache=True)
def new_tile_sapling(state, cfg, t):
    """Expansion: a tile added to the board rolls the wind die; an O adds a sapling (supply allowing)."""
    if cfg[CFG_EXP] == 0:
        return
    sym = random_below(state, 3)
    state[ROLL] = sym
    if sym == 0 and state[SAP_SUPPLY] > 0 and state[sapling_at(t)] == 0:
        state[sapling_at(t)] = 1
        state[SAP_SUPPLY] -= 1


# --- saplings ----------------------------------------------------------------------------------
@njit(cache=True)
def sapling_held(state, t):
    """Spores on the sapling of tile ``t``."""
    n = 0
    for s in range(MAXS):
        n += state[sapling_spores_at(t, s)]
    return n


@njit(cache=True)
def _sapling_room(state, t):
    return state[sapling_at(t)] != 0 and sapling_held(state, t) < SAPLING_SPORES


@njit(cache=True)
def _invest_ok(state, p, t):
    """The spore of ``p`` that landed on tile ``t`` this SPORE action may go onto its sapling."""
    return bit_get(state, LANDED, t) != 0 and _sapling_room(state, t) and state[spores_at(t, p)] > 0


@njit(cache=True)
def begin_spore(state, p):
    """A SPORE action of player ``p`` starts: its investment and tree pushes follow the spread."""
    bits_clear(state, LANDED)
    state[INVESTED] = 0
    push_decision(state, D_AFTER_SPORE, p, 0, 1, 0, 0)


@njit(cache=True)
def symbiosis(state, cfg, q, t):
    """A spore of ``q`` went onto the sapling of tile ``t``: roll for the symbiosis bonus (the
    re-roll upgrade asks first whether to keep the roll)."""
    k = sapling_held(state, t)
    sym = random_below(state, 3)
    state[ROLL] = sym
    if state[game_upgrades_at(q)] & GU_REROLL:
        push_decision(state, D_REROLL, q, k, sym, 0, 0)
        return
    _bonus(state, cfg, q, k, sym)


@njit(cache=True)
def _has_network(state, q, work):
    return label_networks(state, q, work) > 0


@njit(cache=True)
def _bonus(state, cfg, q, k, sym):
    """The symbiosis table: ``k`` spores on the sapling, wind symbol ``sym`` (0 O, 1 U, 2 A).
    U: one spore within the network (any row); O: an EXPLORE (2 or 3 spores); A: an insect (3)."""
    if sym == 1:
        if state[supply_at(q)] > 0:
            count_event(state, ST_BONUS)
            push_decision(state, D_SYM_SPORE, q, 0, 0, 0, 0)  # no tile of the network: nothing (mask empty)
    elif sym == 0:
        if k >= 2 and state[pile_count_at(0)] + state[pile_count_at(1)] > 0:
            count_event(state, ST_BONUS)
            push_decision(state, D_BONUS_PILE, q, 0, 0, 0, 0)
    elif k >= 3 and state[INS_SUPPLY] > 0:
        count_event(state, ST_BONUS)
        state[INS_SUPPLY] -= 1
        state[insects_at(q)] += 1


# --- after a SPORE action (and wherever spores land on a Grandfather Tree) --------------------------
@njit(cache=True)
def after_spore(state, cfg, work):
    """Resolve the ``D_AFTER_SPORE`` entry on top: offer the investment (once), then push the
    spores off Grandfather Trees one by one, then drop the entry."""
    p = top_player(state)
    n = state[NTP]
    if top_arg(state, 0) == 0:  # a0: the investment was offered
        set_top_arg(state, 0, 1)
        if state[INVESTED] == 0:
            for t in range(n):
                if _invest_ok(state, p, t):
                    push_decision(state, D_INVEST, p, 0, 0, 0, 0)
                    return
    # a chain in progress first: the spore just pushed onto a tree (a2: that tree + 1, a3: its owner;
    # MARKS holds the trees this spore went through), then a fresh chain from any spore on a tree
    chain = top_arg(state, 2) - 1
    if chain >= 0:
        w = top_arg(state, 3)
        set_top_arg(state, 2, 0)
        set_top_arg(state, 3, 0)
        if state[tree_at(chain)] >= 0 and state[spores_at(chain, w)] > 0:
            _push_off(state, p, chain, w)
            return
    bits_clear(state, MARKS)
    for t in range(n):
        if state[tree_at(t)] < 0:
            continue
        for w in range(MAXS):
            if state[spores_at(t, w)] > 0:
                _push_off(state, p, t, w)
                return
    pop_decision(state)
    bits_clear(state, LANDED)
    bits_clear(state, MARKS)
    state[INVESTED] = 0


@njit(cache=True)
def _push_off(state, p, t, w):
    """The owner of the tree on ``t`` pushes a spore of ``w`` off it (``D_AFTER_SPORE`` of ``p`` on
    top); a2 of the decision: the spore may go onto a sapling (the SPORE action's own spore, not
    invested yet)."""
    bit_set(state, MARKS, t)
    sap = 1 if (top_arg(state, 1) == 1 and state[INVESTED] == 0 and w == p) else 0
    push_decision(state, D_TREE_PUSH, state[tree_at(t)], t, w, sap, 0)


@njit(cache=True)
def after_placement(state, p):
    """A spore was put on tile ``t`` outside a SPORE action's spread (a symbiosis bonus, a tree
    just grown): have the trees push what lies on them (no investing)."""
    push_decision(state, D_AFTER_SPORE, p, 1, 0, 0, 0)


@njit(cache=True)
def after_automata(state, p):
    """The Automata's turn is over (``p`` plays next): the owners of the Grandfather Trees its spores
    landed on push them off ("the direction is determined by the owner of the G"). Its turn has no
    decision, and after its SPORE only MOVE or EXPLORE can follow, which no spore changes, so the
    pushes wait until its turn ends; never onto a sapling (the Automata does not invest)."""
    for t in range(state[NTP]):
        if state[tree_at(t)] >= 0:
            for w in range(MAXS):
                if state[spores_at(t, w)] > 0:
                    push_decision(state, D_AFTER_SPORE, p, 1, 0, 0, 0)
                    return


# --- AGE ---------------------------------------------------------------------------------------------
@njit(cache=True)
def can_age(state, cfg, p):
    """AGE: ``p``'s Mother mushroom stands on a sapling holding 3 spores, a tree is left to place."""
    if not main_allowed(state, T_AGE) or state[trees_left_at(p)] == 0:
        return False
    t = state[mother_at(p)]
    return t >= 0 and state[sapling_at(t)] != 0 and sapling_held(state, t) >= SAPLING_SPORES


@njit(cache=True)
def age(state, cfg, p):
    """The sapling's spores go back to their owners, the sapling to the supply, ``p``'s Grandfather
    Tree onto the tile; a mushroom there decays at once and the spores on the tile are pushed off
    by ``p``. Returns (owner, mat, decay action) of the decayed mushroom, whose owner then resolves
    its decay action (:func:`.step.resolve_decay`), or (-1, 0, -1)."""
    start_action(state, T_AGE)
    count_event(state, ST_AGE)
    t = state[mother_at(p)]
    for s in range(MAXS):
        state[supply_at(s)] += state[sapling_spores_at(t, s)]
        state[sapling_spores_at(t, s)] = 0
    state[sapling_at(t)] = 0
    state[SAP_SUPPLY] += 1
    state[tree_at(t)] = p
    state[trees_left_at(p)] -= 1
    after_placement(state, p)  # below: pushes come after the decay's decisions
    q = state[mushroom_owner_at(t)]
    if q < 0:
        return -1, 0, -1
    i = state[mushroom_mat_at(t)]
    return q, i, decay_mushroom(state, cfg, q, i)  # (q decayed under every mat: the game ends after it)


# --- the expansion's decisions ---------------------------------------------------------------------
@njit(cache=True)
def sub_mask(state, cfg, kind, p, a0, a1, a2, a3, mask, work):
    if kind == D_INVEST:
        for t in range(state[NTP]):
            if _invest_ok(state, p, t):
                mask[A_TILE + t] = 1
        mask[A_NO_INVEST] = 1
    elif kind == D_TREE_PUSH:
        any_ok = False
        for k in range(3):
            u = state[adjacency_at(a0, k)]
            if u < 0:
                continue
            if state[tree_at(u)] < 0 or bit_get(state, MARKS, u) == 0:
                mask[A_TILE + u] = 1
                any_ok = True
            if a2 == 1 and _sapling_room(state, u):
                mask[A_PUSH_SAPLING + u] = 1
                any_ok = True
        if not any_ok:  # every neighbour is a tree this spore went through: it goes back (RULES.md)
            mask[A_NO_INVEST] = 1
    elif kind == D_SYM_SPORE:
        label_networks(state, p, work)
        for t in range(state[NTP]):
            if work[LABEL + t] >= 0:
                mask[A_TILE + t] = 1
    elif kind == D_REROLL:
        mask[A_REROLL] = 1
        mask[A_REROLL + 1] = 1
    elif kind == D_BONUS_PILE:
        for j in range(2):
            if state[pile_count_at(j)] > 0:
                mask[A_PILE + j] = 1
    elif kind == D_KEEP_TILE:
        mask[A_KEEP_TILE] = 1
        mask[A_KEEP_TILE + 1] = 1
    elif kind == D_SAP_PICK:
        for t in range(state[NTP]):
            if _sapling_room(state, t):
                mask[A_TILE + t] = 1
    elif kind == D_SAP_ADD:
        for t in range(state[NTP]):
            if state[sapling_at(t)] == 0 and state[tree_at(t)] < 0:
                mask[A_TILE + t] = 1
    elif kind == D_SAP_REMOVE:
        for t in range(state[NTP]):
            if sapling_held(state, t) > 0:
                mask[A_TILE + t] = 1
    elif kind == D_SAP_REMOVE_SEAT:
        for s in range(cfg[CFG_NS]):
            if state[sapling_spores_at(a0, s)] > 0:
                mask[seat_action(s)] = 1


@njit(cache=True)
def apply(state, cfg, kind, p, a0, a1, a2, a3, action, work):
    if kind == D_INVEST:
        pop_decision(state)
        if action != A_NO_INVEST:
            t = action - A_TILE
            state[spores_at(t, p)] -= 1
            state[sapling_spores_at(t, p)] += 1
            state[INVESTED] = 1
            count_event(state, ST_INVEST)
            symbiosis(state, cfg, p, t)
    elif kind == D_TREE_PUSH:
        pop_decision(state)
        w = a1
        count_event(state, ST_PUSH)
        state[spores_at(a0, w)] -= 1
        if action == A_NO_INVEST:
            state[supply_at(w)] += 1
            bits_clear(state, MARKS)
        elif action >= A_PUSH_SAPLING:
            u = action - A_PUSH_SAPLING
            state[sapling_spores_at(u, w)] += 1
            state[INVESTED] = 1
            bits_clear(state, MARKS)
            symbiosis(state, cfg, w, u)
        else:
            u = action - A_TILE
            state[spores_at(u, w)] += 1
            if state[tree_at(u)] >= 0:  # the chain goes on from that tree, with this spore
                set_top_arg(state, 2, u + 1)
                set_top_arg(state, 3, w)
            else:
                bits_clear(state, MARKS)
    elif kind == D_SYM_SPORE:
        pop_decision(state)
        t = action - A_TILE
        state[supply_at(p)] -= 1
        state[spores_at(t, p)] += 1
        if state[tree_at(t)] >= 0:  # onto its own tree (Common Question): the tree pushes it on
            after_placement(state, p)
    elif kind == D_REROLL:
        pop_decision(state)
        sym = a1
        if action == A_REROLL + 1:
            sym = random_below(state, 3)
            state[ROLL] = sym
        _bonus(state, cfg, p, a0, sym)
    elif kind == D_BONUS_PILE:
        pop_decision(state)
        explore_draw(
            state, p, action - A_PILE
        )  # then placed and turned as an EXPLORE (its new tile rolls for a sapling)
    elif kind == D_KEEP_TILE:
        pop_decision(state)
        keep = a0 if action == A_KEEP_TILE else a1
        gone = a1 if action == A_KEEP_TILE else a0
        bit_set(state, TILES_OUT, gone)
        state[DRAWN] = keep
        push_decision(state, D_PLACE, p, 0, -1, 0, 0)
    elif kind == D_SAP_PICK:
        pop_decision(state)
        t = action - A_TILE
        state[supply_at(p)] -= 1
        state[sapling_spores_at(t, p)] += 1
        symbiosis(state, cfg, p, t)
    elif kind == D_SAP_ADD:
        t = action - A_TILE
        state[sapling_at(t)] = 1
        state[SAP_SUPPLY] -= 1
        if a0 <= 1 or not _can_add_sapling(state):
            pop_decision(state)
        else:
            set_top_arg(state, 0, a0 - 1)
    elif kind == D_SAP_REMOVE:
        t = action - A_TILE
        w = -1
        cnt = 0
        for s in range(MAXS):
            if state[sapling_spores_at(t, s)] > 0:
                w = s
                cnt += 1
        if cnt == 1:
            pop_decision(state)
            _remove_sapling_spore(state, t, w)
        else:  # spores of several seats on it: whose goes back
            set_top_kind(state, D_SAP_REMOVE_SEAT)
            set_top_arg(state, 0, t)
    elif kind == D_SAP_REMOVE_SEAT:
        pop_decision(state)
        _remove_sapling_spore(state, a0, action_seat(action))


@njit(cache=True)
def _remove_sapling_spore(state, t, w):
    state[sapling_spores_at(t, w)] -= 1
    state[supply_at(w)] += 1


@njit(cache=True)
def _can_add_sapling(state):
    if state[SAP_SUPPLY] == 0:
        return False
    for t in range(state[NTP]):
        if state[sapling_at(t)] == 0 and state[tree_at(t)] < 0:
            return True
    return False


# --- EXPLORE with the "explore 2 keep 1" upgrade ---------------------------------------------------
@njit(cache=True)
def _draw_tile(state, j):
    state[pile_count_at(j)] -= 1
    tid = state[piles_at(j, state[pile_count_at(j)])]
    state[piles_at(j, state[pile_count_at(j)])] = -1
    return tid


@njit(cache=True)
def explore_draw(state, p, j):
    """EXPLORE from pile ``j``: the top tile, or with the upgrade the top two (the second from the
    other pile when ``j`` runs out; one tile if there is no other) to keep one of."""
    t1 = _draw_tile(state, j)
    if state[game_upgrades_at(p)] & GU_EXPLORE2:
        j2 = j if state[pile_count_at(j)] > 0 else 1 - j
        if state[pile_count_at(j2)] > 0:
            t2 = _draw_tile(state, j2)
            push_decision(state, D_KEEP_TILE, p, t1, t2, 0, 0)
            return
    state[DRAWN] = t1
    push_decision(state, D_PLACE, p, 0, -1, 0, 0)


# --- the expansion's decay actions -------------------------------------------------------------------
@njit(cache=True)
def resolve_decay(state, cfg, p, kind):
    if kind == DC_SAPLING_ROLL:
        if state[supply_at(p)] > 0:
            for t in range(state[NTP]):
                if _sapling_room(state, t):
                    push_decision(state, D_SAP_PICK, p, 0, 0, 0, 0)
                    return
    elif kind == DC_REROLL:
        state[game_upgrades_at(p)] |= GU_REROLL
    elif kind == DC_EXPLORE2:
        state[game_upgrades_at(p)] |= GU_EXPLORE2
    elif kind == DC_TWO_SAPLINGS:
        if _can_add_sapling(state):
            push_decision(state, D_SAP_ADD, p, 2, 0, 0, 0)
    elif kind == DC_SAPLING_REMOVE:
        for t in range(state[NTP]):
            if sapling_held(state, t) > 0:
                push_decision(state, D_SAP_REMOVE, p, 0, 0, 0, 0)
                return
