"""Mycelia rules as numba kernels over one int64 state array.

Kernel contract: :mod:`mushgym.core.batch`. Sizes are for the largest table (4 seats:
up to 4 players, or up to 3 players plus the Automata seat, which always sits last).
Options and data tables come in ``cfg`` (built by :class:`envs.mycelia.game.MyceliaGame`).

The board is a list of placed tiles in placement order (lattice cell, rotation, tile id)
with a 3-neighbour adjacency table (``ADJ[i*3 + k]`` = the placed tile across edge ``k`` of
tile ``i``, or -1), updated when a tile is placed or moved. Geometry: :mod:`.board`.

Decisions live on a small stack of entries ``(kind, player, a0, a1, a2, a3)``; the
player to act and the legal mask come from its top entry. The bottom entry of a turn is
``D_MAIN`` (pick an action or a free action); an action that needs sub-decisions
(where to step, where to place a tile and how to turn it, where a spore goes among tiles
at the same distance, which spores pay for a mushroom, what a decay action targets)
pushes entries. A sub-decision with a single legal choice is applied automatically.
The Automata seat never decides: its whole turn runs inside ``step`` (``automata_turn``).
See RULES.md for every rule and every choice made where the rulebook is silent.
"""

import numpy as np
from numba import njit

from mushgym.core import install_batch_kernels, rng_below, rng_seed, shuffle_range

from .actions import *  # noqa: F401,F403 - the action ids and their compiled helpers (rules.A_PAY, pay_action, ...)
from .board import band, in_cone, is_up, neighbour_c, neighbour_r
from .layout import *  # noqa: F401,F403 - the declarations: sizes, cfg_*/state fields and their *_at helpers, the stack
from .observation import CF, MATF, OBS_SIZE, SEATF, TF, obs_size  # noqa: F401
from .observation import observe as _observe_base
from .observation_na import OBS_SIZE_NA, observe_na
from .validate import V_NO_ACTION, V_OK, check_state

# --- the work area (scratch passed to every kernel; nothing in it survives a call) ------------
W_QUEUE = 0                  # BFS queue / spores taken by the Automata
W_DIST = NT_MAX              # distances (cone, board)
W_AUX = 2 * NT_MAX           # a second distance table / ring scores
W_TRIED = 3 * NT_MAX         # networks tried by the Automata
LABEL = 4 * NT_MAX           # network label of each tile
W_MASK = 5 * NT_MAX          # a legal-action mask for forced decisions
WORK_SIZE = W_MASK + NUM_ACTIONS
# the vector loops prefetch the rows of the env 4 places ahead into L2 (mushgym/core/README.md,
# section 5): at batch 1,024 on one thread 0.441 -> 0.543 of the rollout rate (RULES.md, "Speed
# and memory"); Mycelia's kernels read a cold state in a scattered order
PREFETCH_AHEAD = 4

# --- the observation (a kernel of this module) ------------------------------------------
@njit(cache=True)
def observe(state, player, cfg, out, work):
    """The base game's observation (:mod:`.observation`), then with the expansion its appended
    block (:mod:`.observation_na`)."""
    _observe_base(state, player, cfg, out, work)
    if cfg[CFG_EXP] != 0:
        observe_na(state, player, cfg, out, work)


# --- small helpers ----------------------------------------------------------------
@njit(cache=True)
def _rand(state, n):
    return rng_below(state, RNG, n)


@njit(cache=True)
def _top(state):
    """Offset of the top entry of the decision stack (kind, player, a0..a3)."""
    return STACK + (decision_depth(state) - 1) * ENTRY


@njit(cache=True)
def _entry(state, o):
    """The decision entry at slot ``o``: (kind, player, a0, a1, a2, a3)."""
    return state[o], state[o + 1], state[o + 2], state[o + 3], state[o + 4], state[o + 5]


@njit(cache=True)
def _tile_colour(state, cfg, t):
    return cfg[cfg_tile_colour_at(state[tile_id_at(t)])]


@njit(cache=True)
def _symbol(state, cfg, t, k):
    """Wind symbol shown on edge ``k`` of placed tile ``t``."""
    return cfg[cfg_tile_order_at(state[tile_id_at(t)], (k + state[tile_rot_at(t)]) % 3)]


@njit(cache=True)
def _mother_at(state, t):
    for s in range(MAXS):
        if state[mother_at(s)] == t:
            return s
    return -1


@njit(cache=True)
def _control(state, t):
    """Seat controlling tile ``t``: the owner of a Mother mushroom there, else of a mushroom token, else -1."""
    m = _mother_at(state, t)
    if m >= 0:
        return m
    return state[mushroom_owner_at(t)]


@njit(cache=True)
def _spores_on(state, t):
    n = 0
    for s in range(MAXS):
        n += state[spores_at(t, s)]
    return n


@njit(cache=True)
def _degree(state, t):
    d = 0
    for k in range(3):
        if state[adjacency_at(t, k)] >= 0:
            d += 1
    return d


@njit(cache=True)
def _find_cell(state, c, r):
    for i in range(state[NTP]):
        if state[tile_col_at(i)] == c and state[tile_row_at(i)] == r and state[tile_id_at(i)] >= 0:
            return i
    return -1


@njit(cache=True)
def _link(state, i):
    """Fill the adjacency of placed tile ``i`` (and of its neighbours) from the lattice."""
    c = state[tile_col_at(i)]
    r = state[tile_row_at(i)]
    for k in range(3):
        j = _find_cell(state, neighbour_c(c, r, k), neighbour_r(c, r, k))
        if j == i:
            j = -1
        state[adjacency_at(i, k)] = j
        if j >= 0:
            state[adjacency_at(j, k)] = i  # the shared edge has the same name from both sides


@njit(cache=True)
def _unlink(state, i):
    for k in range(3):
        j = state[adjacency_at(i, k)]
        if j >= 0:
            state[adjacency_at(j, k)] = -1
        state[adjacency_at(i, k)] = -1


@njit(cache=True)
def _insect_token_to(state, t):
    if state[INS_SUPPLY] > 0:
        state[INS_SUPPLY] -= 1
        state[tile_insect_at(t)] = 1


@njit(cache=True)
def _place_tile(state, cfg, tile_id, c, r, rot):
    i = state[NTP]
    state[NTP] = i + 1
    state[tile_id_at(i)] = tile_id
    state[tile_col_at(i)] = c
    state[tile_row_at(i)] = r
    state[tile_rot_at(i)] = rot
    _link(state, i)
    if cfg[cfg_tile_insect_at(tile_id)] != 0:
        _insect_token_to(state, i)
    return i


@njit(cache=True)
def _move_mushroom(state, src, dst):
    """Move the mushroom token on tile ``src`` to tile ``dst`` (its mat records the new tile)."""
    q = state[mushroom_owner_at(src)]
    mm = state[mushroom_mat_at(src)]
    state[mushroom_owner_at(dst)] = q
    state[mushroom_mat_at(dst)] = mm
    state[mushroom_owner_at(src)] = -1
    state[mushroom_mat_at(src)] = 0
    state[mat_tile_at(q, mm)] = dst


@njit(cache=True)
def _enter(state, s, t):
    """Seat ``s``'s Mother mushroom lands on tile ``t`` and picks up its insect token."""
    state[mother_at(s)] = t
    if state[tile_insect_at(t)] != 0:
        state[tile_insect_at(t)] = 0
        state[insects_at(s)] += 1


@njit(cache=True)
def _hand_draw(state, p, card):
    state[card_loc_at(card)] = L_HAND + p
    state[hand_count_at(p)] += 1


@njit(cache=True)
def _reshuffle_discard(state):
    n = state[DISC_N]
    for i in range(n):
        c = state[discard_at(i)]
        state[deck_at(state[DECK_N])] = c
        state[DECK_N] += 1
        state[card_loc_at(c)] = L_DECK
        state[discard_at(i)] = 0
    state[DISC_N] = 0
    shuffle_range(state, DECK, state[DECK_N], RNG)


@njit(cache=True)
def _deck_available(state):
    return state[DECK_N] + state[DISC_N]


@njit(cache=True)
def _cards_available(state):
    """Cards a player could pick up: the market's and the deck's (with the discard pile)."""
    n = _deck_available(state)
    for j in range(3):
        if state[market_at(j)] >= 0:
            n += 1
    return n


@njit(cache=True)
def _draw_deck(state):
    """Top card of the deck (the discard pile is reshuffled into an empty deck), or -1."""
    if state[DECK_N] == 0:
        if state[DISC_N] == 0:
            return -1
        _reshuffle_discard(state)
    state[DECK_N] -= 1
    c = state[deck_at(state[DECK_N])]
    state[deck_at(state[DECK_N])] = 0
    return c


@njit(cache=True)
def _discard(state, c):
    state[discard_at(state[DISC_N])] = c
    state[DISC_N] += 1
    state[card_loc_at(c)] = L_DISCARD


@njit(cache=True)
def _refill_market(state):
    for j in range(3):
        if state[market_at(j)] < 0:
            c = _draw_deck(state)
            if c < 0:
                return
            state[market_at(j)] = c
            state[card_loc_at(c)] = L_MARKET


@njit(cache=True)
def _take_market(state, p, j):
    c = state[market_at(j)]
    state[market_at(j)] = -1
    _hand_draw(state, p, c)
    state[TAKEN] += 1


@njit(cache=True)
def _mat(p, i):
    return p * NMATS + i


@njit(cache=True)
def _blocked(state, p, i):
    t = state[mat_tile_at(p, i)]
    if t < 0:
        return False
    m = _mother_at(state, t)
    return m >= 0 and m != p


@njit(cache=True)
def _is_auto(cfg, s):
    return cfg[CFG_AUTO] != 0 and s == cfg[CFG_NH]


# --- networks ---------------------------------------------------------------------
@njit(cache=True)
def _in_network(state, p, t):
    if state[tree_at(t)] == p:   # the expansion: a Grandfather Tree is its owner's, whatever M stands there
        return True
    c = _control(state, t)
    if c == p:
        return True
    return c < 0 and state[spores_at(t, p)] > 0


@njit(cache=True)
def _spendable(state, p, t, o):
    """Spores of seat ``o`` on tile ``t`` that seat ``p`` may spend."""
    c = _control(state, t)
    if c == p:
        return state[spores_at(t, o)]
    if c < 0 and o == p:
        return state[spores_at(t, p)]
    return 0


@njit(cache=True)
def _spendable_all(state, p, t):
    c = _control(state, t)
    if c == p:
        return _spores_on(state, t)
    if c < 0:
        return state[spores_at(t, p)]
    return 0


@njit(cache=True)
def label_networks(state, p, work):
    """Label ``p``'s networks in ``LABEL`` (tile -> component id, -1 outside); return the count.

    A network is a set of flat-edge-connected tiles each holding a piece of ``p`` (Mother
    mushroom, mushroom token or spore) and not controlled by another seat.
    """
    n = state[NTP]
    for t in range(n):
        work[LABEL + t] = -1
    q = W_QUEUE
    comps = 0
    for t0 in range(n):
        if work[LABEL + t0] >= 0 or not _in_network(state, p, t0):
            continue
        work[LABEL + t0] = comps
        head = 0
        tail = 1
        work[q] = t0
        while head < tail:
            t = work[q + head]
            head += 1
            for k in range(3):
                u = state[adjacency_at(t, k)]
                if u >= 0 and work[LABEL + u] < 0 and _in_network(state, p, u):
                    work[LABEL + u] = comps
                    work[q + tail] = u
                    tail += 1
        comps += 1
    return comps


@njit(cache=True)
def _feasible(n0, n1, n2, n3, a0, a1, a2, a3, ablack, paid_black, wild=0):
    """Needs ``n*`` by colour and ``wild`` (any colour) payable from ``a*`` by colour and ``ablack``
    black spores, ``paid_black`` black spores already paid (each covers any need): black covers the
    colour deficit, and what is left of every colour and of black covers the wild spores."""
    deficit = max(0, n0 - a0) + max(0, n1 - a1) + max(0, n2 - a2) + max(0, n3 - a3)
    if max(0, deficit - paid_black) > ablack:
        return False
    if wild <= 0:
        return True
    surplus = max(0, a0 - n0) + max(0, a1 - n1) + max(0, a2 - n2) + max(0, a3 - n3)
    return deficit + wild <= surplus + paid_black + ablack


@njit(cache=True)
def _comp_avail(state, cfg, p, lab, work):
    """(red, green, brown, yellow, black) spendable by ``p`` in component ``lab``."""
    a0 = 0
    a1 = 0
    a2 = 0
    a3 = 0
    a4 = 0
    for t in range(state[NTP]):
        if work[LABEL + t] != lab:
            continue
        v = _spendable_all(state, p, t)
        col = _tile_colour(state, cfg, t)
        if col == 0:
            a0 += v
        elif col == 1:
            a1 += v
        elif col == 2:
            a2 += v
        elif col == 3:
            a3 += v
        else:
            a4 += v
    return a0, a1, a2, a3, a4


@njit(cache=True)
def _can_grow_on(state, cfg, p, t, n0, n1, n2, n3, a0, a1, a2, a3, a4, nw=0):
    """Can ``p`` grow on tile ``t`` of a component with availability ``a*``: no mushroom on
    ``t``, and a payment of needs ``n*`` (``nw`` wild) taking at least one spore from ``t`` exists."""
    if state[mushroom_owner_at(t)] >= 0 or _spendable_all(state, p, t) == 0:
        return False
    return _can_pay_from(_tile_colour(state, cfg, t), n0, n1, n2, n3, nw, a0, a1, a2, a3, a4, 0)


@njit(cache=True)
def _can_pay_from(col, n0, n1, n2, n3, nw, a0, a1, a2, a3, a4, pb):
    """A spore from a tile of colour ``col`` can be paid now (needs ``n*``, ``nw`` wild, ``pb`` black
    paid; availability ``a*`` counts that spore): a coloured spore pays its colour while it is owed,
    else a wild spore; a black one covers anything."""
    if n0 + n1 + n2 + n3 + nw - pb <= 0:
        return False
    if col == BLACK:
        return _feasible(n0, n1, n2, n3, a0, a1, a2, a3, a4 - 1, pb + 1, nw)
    if col == 0:
        if n0 > 0:
            return _feasible(n0 - 1, n1, n2, n3, a0 - 1, a1, a2, a3, a4, pb, nw)
        return nw > 0 and _feasible(n0, n1, n2, n3, a0 - 1, a1, a2, a3, a4, pb, nw - 1)
    if col == 1:
        if n1 > 0:
            return _feasible(n0, n1 - 1, n2, n3, a0, a1 - 1, a2, a3, a4, pb, nw)
        return nw > 0 and _feasible(n0, n1, n2, n3, a0, a1 - 1, a2, a3, a4, pb, nw - 1)
    if col == 2:
        if n2 > 0:
            return _feasible(n0, n1, n2 - 1, n3, a0, a1, a2 - 1, a3, a4, pb, nw)
        return nw > 0 and _feasible(n0, n1, n2, n3, a0, a1, a2 - 1, a3, a4, pb, nw - 1)
    if n3 > 0:
        return _feasible(n0, n1, n2, n3 - 1, a0, a1, a2, a3 - 1, a4, pb, nw)
    return nw > 0 and _feasible(n0, n1, n2, n3, a0, a1, a2, a3 - 1, a4, pb, nw - 1)


@njit(cache=True)
def _free_mat(state, cfg, p):
    for i in range(cfg[CFG_MATS]):
        if state[mat_card_at(p, i)] == -1 and state[mat_tile_at(p, i)] < 0:
            return i
    return -1


@njit(cache=True)
def _can_fruit(state, cfg, p, card, ncomp, work):
    """Some network of ``p`` pays for ``card`` with a tile to grow on (labels must be fresh)."""
    n0 = cfg[cfg_require_at(card, 0)]
    n1 = cfg[cfg_require_at(card, 1)]
    n2 = cfg[cfg_require_at(card, 2)]
    n3 = cfg[cfg_require_at(card, 3)]
    nw = cfg[cfg_wild_at(card)]
    for lab in range(ncomp):
        a0, a1, a2, a3, a4 = _comp_avail(state, cfg, p, lab, work)
        if not _feasible(n0, n1, n2, n3, a0, a1, a2, a3, a4, 0, nw):
            continue
        for t in range(state[NTP]):
            if work[LABEL + t] == lab and _can_grow_on(state, cfg, p, t, n0, n1, n2, n3, a0, a1, a2, a3, a4, nw):
                return True
    return False


# --- the spore cone -----------------------------------------------------------------
@njit(cache=True)
def cone_distances(state, origin, k, work):
    """Distances (through flat edges, inside the cone beyond edge ``k`` of ``origin``) into
    ``WORK[NT_MAX + t]`` (-1 = not reached); returns the largest distance."""
    n = state[NTP]
    dist = W_DIST
    q = W_QUEUE
    for t in range(n):
        work[dist + t] = -1
    c0 = state[tile_col_at(origin)]
    r0 = state[tile_row_at(origin)]
    work[dist + origin] = 0
    first = state[adjacency_at(origin, k)]
    if first < 0:
        return 0
    work[dist + first] = 1
    work[q] = first
    head = 0
    tail = 1
    far = 1
    while head < tail:
        t = work[q + head]
        head += 1
        for e in range(3):
            u = state[adjacency_at(t, e)]
            if u >= 0 and work[dist + u] < 0 and in_cone(c0, r0, k, state[tile_col_at(u)], state[tile_row_at(u)]):
                work[dist + u] = work[dist + t] + 1
                if work[dist + u] > far:
                    far = work[dist + u]
                work[q + tail] = u
                tail += 1
    return far


@njit(cache=True)
def _edge_with_symbol(state, cfg, t, sym):
    for k in range(3):
        if _symbol(state, cfg, t, k) == sym:
            return k
    return 0


@njit(cache=True)
def _put_spore(state, p, t):
    if state[supply_at(p)] > 0:
        state[supply_at(p)] -= 1
        state[spores_at(t, p)] += 1
        if state[FORMATION] >= 0:   # the expansion: where this SPORE action may invest
            bit_set(state, LANDED, t)


@njit(cache=True)
def _spore_from(state, cfg, p, origin, sym, count, both, work):
    """Spore from ``origin``, then (``both`` >= 0) from the Mother mushroom of ``p`` with the
    same wind symbol and ``both`` spores; stops early if a spore decision was pushed."""
    while True:
        if not _spread(state, cfg, p, origin, sym, count, both, work):
            return
        if both < 0:
            return
        origin = state[mother_at(p)]
        count = both
        both = -1


@njit(cache=True)
def _spread(state, cfg, p, origin, sym, count, both, work):
    """Spread ``count`` spores of ``p`` from ``origin`` with wind symbol ``sym``.

    Whole distance layers are filled automatically; when the spores left are fewer than the
    tiles of a layer, a ``D_SPORE_PICK`` decision is pushed (the Automata picks by its rule).
    Returns False if it pushed that decision (the rest follows when it is resolved).
    """
    k = _edge_with_symbol(state, cfg, origin, sym)
    left = min(count, state[supply_at(p)])
    if left > 0:
        _put_spore(state, p, origin)
        left -= 1
    if left > 0:
        far = cone_distances(state, origin, k, work)
        dist = W_DIST
        for d in range(1, far + 1):
            if left == 0:
                break
            size = 0
            for t in range(state[NTP]):
                if work[dist + t] == d:
                    size += 1
            if size <= left:
                for t in range(state[NTP]):
                    if work[dist + t] == d:
                        _put_spore(state, p, t)
                left -= size
            else:
                if _is_auto(cfg, p):
                    _auto_pick_layer(state, cfg, p, d, left, work)
                    left = 0
                else:
                    bits_clear(state, MARKS)
                    count_event(state, ST_PICKS)
                    push_decision(state, D_SPORE_PICK, p, origin, k, left, d + (both + 1) * 256 + sym * SPORE_SYM)
                    return False
    return True


@njit(cache=True)
def _mother_count(state, p):
    return 3 if state[game_upgrades_at(p)] & GU_SPORE3 else 2


@njit(cache=True)
def _roll_and_spore(state, cfg, p, mat, count, both, work):
    """Roll the wind die, then spore ``count`` from ``p``'s Mother mushroom (``mat`` -1) or from
    the mushroom of mat ``mat`` (its spore counter moves up); ``both`` as in :func:`_spore_from`."""
    sym = _rand(state, 3)
    state[ROLL] = sym
    if mat < 0:
        origin = state[mother_at(p)]
    else:
        state[mat_counter_at(p, mat)] += 1
        origin = state[mat_tile_at(p, mat)]
    _spore_from(state, cfg, p, origin, sym, count, both, work)


@njit(cache=True)
def _spore_action(state, cfg, p, src, work):
    """Spore from the Mother mushroom (src 0) or the mushroom of mat src - 1."""
    if cfg[CFG_EXP] != 0:
        _NA.begin_spore(state, p)
    if src == 0:
        _roll_and_spore(state, cfg, p, -1, _mother_count(state, p), -1, work)
        return
    i = src - 1
    upg = state[mat_upgrades_at(p, i)]
    count = cfg[cfg_spores_at(state[mat_card_at(p, i)])] + (1 if upg & MU_EXTRA else 0)
    both = _mother_count(state, p) if upg & MU_BOTH else -1
    _roll_and_spore(state, cfg, p, i, count, both, work)


# --- placement of tiles -------------------------------------------------------------
@njit(cache=True)
def _placement_ok(state, i, k, skip, oc, orr):
    """Action (placed tile i, free edge k) names a free cell, canonically (i is the lowest-index
    placed neighbour of the cell); ``skip`` is a tile lifted off the board, (oc, orr) its old cell."""
    if i == skip or state[tile_id_at(i)] < 0:
        return False
    if state[adjacency_at(i, k)] >= 0 and state[adjacency_at(i, k)] != skip:
        return False
    c = neighbour_c(state[tile_col_at(i)], state[tile_row_at(i)], k)
    r = neighbour_r(state[tile_col_at(i)], state[tile_row_at(i)], k)
    if skip >= 0 and c == oc and r == orr:
        return False
    for e in range(3):
        j = _find_cell(state, neighbour_c(c, r, e), neighbour_r(c, r, e))
        if j >= 0 and j != skip and j < i:
            return False
    return True


# --- legal actions ------------------------------------------------------------------
@njit(cache=True)
def _can_move_to(state, p, t):
    m = _mother_at(state, t)
    return m < 0 or m == p


@njit(cache=True)
def _main_allowed(state, typ):
    p = state[TURNP]
    if state[ACTS] >= 2:
        return False
    if state[game_upgrades_at(p)] & GU_TWICE:
        return True
    return (state[USED] >> typ) & 1 == 0


@njit(cache=True)
def _other_mothers(state, cfg, p):
    for s in range(cfg[CFG_NS]):
        if s != p and state[mother_at(s)] >= 0:
            return True
    return False


@njit(cache=True)
def _main_mask(state, cfg, p, mask, work):
    """Legal actions of the main decision; returns the number of main (not free) actions."""
    n_main = 0
    mt = state[mother_at(p)]
    if _main_allowed(state, T_MOVE):
        for k in range(3):
            u = state[adjacency_at(mt, k)]
            if u >= 0 and _can_move_to(state, p, u):
                mask[A_TILE + u] = 1
                n_main += 1
    if _main_allowed(state, T_EXPLORE):
        for j in range(2):
            if state[pile_count_at(j)] > 0:
                mask[A_PILE + j] = 1
                n_main += 1
    if _main_allowed(state, T_SPORE):
        if state[supply_at(p)] > 0:
            mask[A_SPORE] = 1
            n_main += 1
            for i in range(cfg[CFG_MATS]):
                m = _mat(p, i)
                if state[MAT_TILE + m] >= 0 and state[MAT_CTR + m] < 2 and not _blocked(state, p, i):
                    mask[A_SPORE + 1 + i] = 1
                    n_main += 1
    if _main_allowed(state, T_DECAY):
        for i in range(cfg[CFG_MATS]):
            m = _mat(p, i)
            if state[MAT_TILE + m] >= 0 and state[MAT_CTR + m] >= 2 and not _blocked(state, p, i):
                mask[A_DECAY + i] = 1
                n_main += 1
    if _main_allowed(state, T_DISCOVER):
        for j in range(3):
            if state[market_at(j)] >= 0:
                mask[A_MARKET + j] = 1
                n_main += 1
        if _deck_available(state) > 0:
            mask[A_DECK] = 1
            n_main += 1
    if _main_allowed(state, T_FRUIT) and state[hand_count_at(p)] > 0 and _free_mat(state, cfg, p) >= 0:
        ncomp = label_networks(state, p, work)
        if ncomp > 0:
            for c in range(NC):
                if state[card_loc_at(c)] == L_HAND + p and _can_fruit(state, cfg, p, c, ncomp, work):
                    mask[card_action(c)] = 1
                    n_main += 1
    # free actions
    if state[insects_at(p)] >= 2 and _other_mothers(state, cfg, p):
        mask[A_INSECT_MOVE] = 1
    if state[insects_at(p)] >= 1 and _deck_available(state) > 0:
        mask[A_REFRESH] = 1
    if state[hand_count_at(p)] >= 3 and state[INS_SUPPLY] > 0:
        mask[A_TRADE] = 1
    if cfg[CFG_EXP] != 0 and _NA.can_age(state, cfg, p):
        mask[A_AGE] = 1
        n_main += 1
    if n_main == 0:
        mask[A_STOP] = 1
    return n_main


@njit(cache=True)
def _empty_tier(state, t):
    """Rank of tile ``t`` as the destination of a moved piece (lower is better): 0 nothing on it,
    1 an insect token only, 2 + spores for anything else without a Mother mushroom or a
    mushroom token; -1 not allowed."""
    if _mother_at(state, t) >= 0 or state[mushroom_owner_at(t)] >= 0 or state[tree_at(t)] >= 0:
        return -1
    s = _spores_on(state, t)
    if s == 0:
        return 1 if state[tile_insect_at(t)] != 0 else 0
    return 2 + s


@njit(cache=True)
def _best_tier(state):
    best = -1
    for t in range(state[NTP]):
        v = _empty_tier(state, t)
        if v >= 0 and (best < 0 or v < best):
            best = v
    return best


@njit(cache=True)
def _mask_dest_tier(state, mask):
    best = _best_tier(state)
    if best < 0:
        return
    for t in range(state[NTP]):
        if _empty_tier(state, t) == best:
            mask[A_TILE + t] = 1


@njit(cache=True)
def _sub_mask(state, cfg, mask, work):
    kind, p, a0, a1, a2, a3 = _entry(state, _top(state))
    if kind == D_MAIN:
        _main_mask(state, cfg, p, mask, work)
    elif kind == D_SETUP:
        for t in range(6):  # the six centre tiles are placed first
            if _tile_colour(state, cfg, t) != BLACK and _mother_at(state, t) < 0:
                mask[A_TILE + t] = 1
    elif kind == D_MOVE:
        mt = state[mother_at(p)]
        for k in range(3):
            u = state[adjacency_at(mt, k)]
            if u >= 0 and _can_move_to(state, p, u):
                mask[A_TILE + u] = 1
        mask[A_STOP] = 1
    elif kind == D_PLACE:
        skip = a1
        oc = a2
        orr = a3
        for i in range(state[NTP]):
            for k in range(3):
                if _placement_ok(state, i, k, skip, oc, orr):
                    mask[A_PLACE + i * 3 + k] = 1
    elif kind == D_ROT:
        for r in range(3):
            mask[A_ROT + r] = 1
    elif kind == D_SPORE_PICK:
        d = a3 & 255
        dist = W_DIST
        cone_distances(state, a0, a1, work)
        for t in range(state[NTP]):
            if work[dist + t] == d and bit_get(state, MARKS, t) == 0:
                mask[A_TILE + t] = 1
    elif kind == D_FRUIT_MAT:
        for i in range(cfg[CFG_MATS]):
            m = _mat(p, i)
            if state[MAT_CARD + m] == -1 and state[MAT_TILE + m] < 0:
                mask[A_MAT + i] = 1
    elif kind == D_FRUIT_TILE:
        card = a0
        n0 = cfg[cfg_require_at(card, 0)]
        n1 = cfg[cfg_require_at(card, 1)]
        n2 = cfg[cfg_require_at(card, 2)]
        n3 = cfg[cfg_require_at(card, 3)]
        nw = cfg[cfg_wild_at(card)]
        ncomp = label_networks(state, p, work)
        for lab in range(ncomp):
            av0, av1, av2, av3, av4 = _comp_avail(state, cfg, p, lab, work)
            if not _feasible(n0, n1, n2, n3, av0, av1, av2, av3, av4, 0, nw):
                continue
            for t in range(state[NTP]):
                if work[LABEL + t] == lab and _can_grow_on(state, cfg, p, t, n0, n1, n2, n3, av0, av1, av2, av3, av4,
                                                           nw):
                    mask[A_TILE + t] = 1
    elif kind == D_PAY:
        _pay_mask(state, cfg, p, a2, a3, mask, work)
    elif kind == D_OUTER_PICK:
        for t in range(state[NTP]):
            if _degree(state, t) == 1:
                mask[A_TILE + t] = 1
    elif kind == D_OPPM_PICK:
        for t in range(state[NTP]):
            if state[mushroom_owner_at(t)] >= 0 and state[mushroom_owner_at(t)] != p:
                mask[A_TILE + t] = 1
    elif kind == D_OPPM_DEST:
        _mask_dest_tier(state, mask)
    elif kind == D_MOTHER_PICK:
        for s in range(cfg[CFG_NS]):
            if s != p and state[mother_at(s)] >= 0:
                mask[seat_action(s)] = 1
    elif kind == D_MOTHER_DEST:
        if a1 == 0:  # decay (The Prince): an empty triangle, with the rulebook's fallbacks
            _mask_dest_tier(state, mask)
        else:  # insects: any tile without a Mother mushroom
            for t in range(state[NTP]):
                if _mother_at(state, t) < 0:
                    mask[A_TILE + t] = 1
    elif kind == D_STEAL:
        for s in range(cfg[CFG_NS]):
            if s != p and state[hand_count_at(s)] > 0:
                mask[seat_action(s)] = 1
    elif kind == D_DRAW2:
        for j in range(3):
            if state[market_at(j)] >= 0:
                mask[A_MARKET + j] = 1
        if _deck_available(state) > 0:
            mask[A_DECK] = 1
    elif kind == D_KEEP:
        for c in range(NC):
            if state[card_loc_at(c)] == L_PENDING:
                mask[card_action(c)] = 1
    elif kind == D_TRADE:
        for c in range(NC):
            if state[card_loc_at(c)] == L_HAND + p:
                mask[card_action(c)] = 1
    elif kind >= D_INVEST:   # the expansion's decisions
        _NA.sub_mask(state, cfg, kind, p, a0, a1, a2, a3, mask, work)


@njit(cache=True)
def _pay_options(state, cfg, p, grow, grow_paid, t, work):
    """Can ``p`` pay one spore from tile ``t`` now (for some owner)? (labels fresh in LABEL)"""
    if work[LABEL + t] != work[LABEL + grow] or work[LABEL + t] < 0:
        return False
    if grow_paid == 0 and t != grow:
        return False
    if _spendable_all(state, p, t) == 0:
        return False
    a0, a1, a2, a3, a4 = _comp_avail(state, cfg, p, work[LABEL + grow], work)
    n0 = state[NEED]
    n1 = state[need_at(1)]
    n2 = state[need_at(2)]
    n3 = state[need_at(3)]
    pb = state[PAID_BLACK]
    return _can_pay_from(_tile_colour(state, cfg, t), n0, n1, n2, n3, state[NEED_WILD], a0, a1, a2, a3, a4, pb)


@njit(cache=True)
def _pay_mask(state, cfg, p, grow, grow_paid, mask, work):
    for t in range(state[NTP]):  # the paying network, fixed when the payment started
        work[LABEL + t] = 0 if bit_get(state, FRUIT_NET, t) else -1
    for t in range(state[NTP]):
        if _pay_options(state, cfg, p, grow, grow_paid, t, work):
            for o in range(cfg[CFG_NS]):
                if _spendable(state, p, t, o) > 0:
                    mask[pay_owner_action(t, o)] = 1


@njit(cache=True)
def legal_mask(state, cfg, mask, work):
    mask[:] = 0
    if state[OVER] != 0 or decision_depth(state) == 0:
        return 0
    _sub_mask(state, cfg, mask, work)
    n = 0
    for a in range(mask.shape[0]):   # the base game's mask is the prefix of NUM_ACTIONS_BASE ids
        n += mask[a]
    return n


@njit(cache=True)
def validate(state, cfg, work):
    """The state check of ``mushgym.Game.validate`` (:mod:`.validate`): 0 for a consistent state,
    else a ``V_*`` code. Never run by ``step`` nor the batch kernels."""
    code = check_state(state, cfg)
    if code == V_OK and state[OVER] == 0 and legal_mask(state, cfg, work[W_MASK:W_MASK + NUM_ACTIONS], work) == 0:
        return V_NO_ACTION
    return code


# --- turn flow --------------------------------------------------------------------
@njit(cache=True)
def _end_game(state, ender):
    state[OVER] = 1
    state[ENDER] = ender
    clear_decisions(state)


@njit(cache=True)
def _all_decayed(state, cfg, p):
    for i in range(cfg[CFG_MATS]):
        if state[mat_under_at(p, i)] == 0:
            return False
    return True


@njit(cache=True)
def _begin_turn(state, cfg, p):
    state[TURNP] = p
    state[ACTS] = 0
    state[USED] = 0
    state[TAKEN] = 0
    push_decision(state, D_MAIN, p, 0, 0, 0, 0)


@njit(cache=True)
def _next_turn(state, cfg, work):
    """End the current turn: refill the market, count the turn, then the next seat plays
    (the Automata's whole turn runs here, after the last player of each round)."""
    _refill_market(state)
    while decision_depth(state) > 0:
        pop_decision(state)
    nh = cfg[CFG_NH]
    p = state[TURNP]
    state[TURN] += 1
    if state[TURN] >= cfg[CFG_TURN_LIMIT]:
        count_event(state, ST_LIMIT)
        _end_game(state, TURN_LIMIT_END)
        return
    if _is_auto(cfg, p):
        nxt = state[FIRST]
    else:
        nxt = (p + 1) % nh
        if cfg[CFG_AUTO] != 0 and nxt == state[FIRST]:
            nxt = nh
    if _is_auto(cfg, nxt):
        state[TURNP] = nxt
        automata_turn(state, cfg, nxt, work)
        if state[OVER] != 0:
            return
        _refill_market(state)
        state[TURN] += 1
        if state[TURN] >= cfg[CFG_TURN_LIMIT]:
            count_event(state, ST_LIMIT)
            _end_game(state, TURN_LIMIT_END)
            return
        nxt = state[FIRST]
    _begin_turn(state, cfg, nxt)


@njit(cache=True)
def _start_action(state, typ):
    state[ACTS] += 1
    state[USED] |= 1 << typ


# --- decay ------------------------------------------------------------------------
@njit(cache=True)
def _decay(state, cfg, p, i):
    """Decay the mushroom of mat ``i``; the game ends at once when every mat has a card under it."""
    m = _mat(p, i)
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
    if _all_decayed(state, cfg, p):
        _end_game(state, p)
        return -1
    if card < 0:
        return -1
    kind = cfg[cfg_decay_at(card)]
    count_event(state, ST_DECAY + kind if kind < NDECAYS else ST_NA_DECAY + kind - NDECAYS)
    return kind


@njit(cache=True)
def _resolve_decay(state, cfg, p, i, kind):
    """Apply (or push the decisions of) decay action ``kind`` of a human seat."""
    m = _mat(p, i)
    if kind == DC_OUTER:
        for t in range(state[NTP]):
            if _degree(state, t) == 1:
                push_decision(state, D_OUTER_PICK, p, 0, 0, 0, 0)
                return
    elif kind == DC_OPP_MUSH:
        if _best_tier(state) >= 0:
            for t in range(state[NTP]):
                if state[mushroom_owner_at(t)] >= 0 and state[mushroom_owner_at(t)] != p:
                    push_decision(state, D_OPPM_PICK, p, 0, 0, 0, 0)
                    return
    elif kind == DC_OPP_MOTHER:
        if _best_tier(state) >= 0 and _other_mothers(state, cfg, p):
            push_decision(state, D_MOTHER_PICK, p, 0, 0, 0, 0)
    elif kind == DC_STEAL:
        for s in range(cfg[CFG_NS]):
            if s != p and state[hand_count_at(s)] > 0:
                push_decision(state, D_STEAL, p, 0, 0, 0, 0)
                return
    elif kind == DC_DRAW2:
        if _cards_available(state) > 0:
            push_decision(state, D_DRAW2, p, 2, 0, 0, 0)
    elif kind == DC_EXTRA:
        state[MAT_UPG + m] |= MU_EXTRA
    elif kind == DC_BOTH:
        state[MAT_UPG + m] |= MU_BOTH
    elif kind == DC_TWICE:
        state[game_upgrades_at(p)] |= GU_TWICE
    elif kind == DC_DISC2:
        state[game_upgrades_at(p)] |= GU_DISC2
    elif kind == DC_MOVE3:
        state[game_upgrades_at(p)] |= GU_MOVE3
    elif kind == DC_SPORE3:
        state[game_upgrades_at(p)] |= GU_SPORE3
    elif kind >= DC_SAPLING_ROLL:   # the expansion's decay actions
        _NA.resolve_decay(state, cfg, p, kind)


@njit(cache=True)
def _steal(state, p, s):
    k = _rand(state, state[hand_count_at(s)])
    for c in range(NC):
        if state[card_loc_at(c)] == L_HAND + s:
            if k == 0:
                state[hand_count_at(s)] -= 1
                _hand_draw(state, p, c)
                return
            k -= 1


@njit(cache=True)
def _move_tile(state, cfg, t, i, k, rot):
    """Move placed tile ``t`` (with everything on it) across free edge ``k`` of tile ``i``."""
    c = neighbour_c(state[tile_col_at(i)], state[tile_row_at(i)], k)
    r = neighbour_r(state[tile_col_at(i)], state[tile_row_at(i)], k)
    _unlink(state, t)
    state[tile_col_at(t)] = c
    state[tile_row_at(t)] = r
    state[tile_rot_at(t)] = rot
    _link(state, t)


# --- step ------------------------------------------------------------------------
@njit(cache=True)
def _apply(state, cfg, action, work):
    o = _top(state)   # the entry is updated in place below (kind and args)
    kind, p, a0, a1, a2, a3 = _entry(state, o)
    if kind == D_MAIN:
        _apply_main(state, cfg, p, action, work)
    elif kind == D_SETUP:
        pop_decision(state)
        _enter(state, p, action - A_TILE)
        if decision_depth(state) == 0:
            _after_setup(state, cfg, work)
    elif kind == D_MOVE:
        if action == A_STOP:
            pop_decision(state)
        else:
            _enter(state, p, action - A_TILE)
            if a0 <= 1:
                pop_decision(state)
            else:
                state[o + 2] = a0 - 1
    elif kind == D_PLACE:
        x = action - A_PLACE
        state[o] = D_ROT
        state[o + 2] = x // 3
        state[o + 3] = x % 3
        state[o + 4] = a1  # the tile being moved, -1 for a drawn tile
        state[o + 5] = 0
    elif kind == D_ROT:
        rot = action - A_ROT
        pop_decision(state)
        if a2 < 0:  # a drawn tile (explore)
            tid = state[DRAWN]
            state[DRAWN] = -1
            c = neighbour_c(state[tile_col_at(a0)], state[tile_row_at(a0)], a1)
            r = neighbour_r(state[tile_col_at(a0)], state[tile_row_at(a0)], a1)
            _new_tile_sapling(state, cfg, _place_tile(state, cfg, tid, c, r, rot))
        else:  # an outer tile moved by decay
            _move_tile(state, cfg, a2, a0, a1, rot)
    elif kind == D_SPORE_PICK:
        t = action - A_TILE
        _put_spore(state, p, t)
        bit_set(state, MARKS, t)
        left = a2 - 1
        if left <= 0 or state[supply_at(p)] == 0:
            pop_decision(state)
            bits_clear(state, MARKS)
            both = ((a3 >> 8) & 7) - 1
            if both >= 0:
                _spore_from(state, cfg, p, state[mother_at(p)], a3 // SPORE_SYM, both, -1, work)
        else:
            state[o + 4] = left
    elif kind == D_FRUIT_MAT:
        state[o] = D_FRUIT_TILE
        state[o + 3] = action - A_MAT
    elif kind == D_FRUIT_TILE:
        grow = action - A_TILE
        for c in range(4):
            state[need_at(c)] = cfg[cfg_require_at(a0, c)]
        state[NEED_WILD] = cfg[cfg_wild_at(a0)]
        state[PAID_BLACK] = 0
        label_networks(state, p, work)  # the network is fixed when the payment starts
        net = 0
        for t in range(state[NTP]):
            if work[LABEL + t] == work[LABEL + grow]:
                net |= 1 << t
        bits_put(state, FRUIT_NET, net)
        state[o] = D_PAY
        state[o + 4] = grow
        state[o + 5] = 0
    elif kind == D_PAY:
        if action >= A_PAY_SEAT4:
            t = action - A_PAY_SEAT4
            w = BASE_SEATS
        else:
            x = action - A_PAY
            t = x // BASE_SEATS
            w = x % BASE_SEATS
        state[spores_at(t, w)] -= 1
        state[supply_at(w)] += 1
        col = _tile_colour(state, cfg, t)
        if col == BLACK:
            state[PAID_BLACK] += 1
        elif state[need_at(col)] > 0:
            state[need_at(col)] -= 1
        else:
            state[NEED_WILD] -= 1
        state[o + 5] = 1
        if (state[NEED] + state[need_at(1)] + state[need_at(2)] + state[need_at(3)] + state[NEED_WILD]
                - state[PAID_BLACK] <= 0):
            pop_decision(state)
            _grow(state, cfg, p, a0, a1, a2)
    elif kind == D_OUTER_PICK:
        t = action - A_TILE
        state[o] = D_PLACE
        state[o + 2] = 0
        state[o + 3] = t
        state[o + 4] = state[tile_col_at(t)]
        state[o + 5] = state[tile_row_at(t)]
    elif kind == D_OPPM_PICK:
        state[o] = D_OPPM_DEST
        state[o + 2] = action - A_TILE
    elif kind == D_OPPM_DEST:
        pop_decision(state)
        src = a0
        dst = action - A_TILE
        _move_mushroom(state, src, dst)
    elif kind == D_MOTHER_PICK:
        state[o] = D_MOTHER_DEST
        state[o + 3] = a0
        state[o + 2] = action_seat(action)
    elif kind == D_MOTHER_DEST:
        pop_decision(state)
        _enter(state, a0, action - A_TILE)
    elif kind == D_STEAL:
        pop_decision(state)
        _steal(state, p, action_seat(action))
    elif kind == D_DRAW2:
        if action == A_DECK:
            c = _draw_deck(state)
            _hand_draw(state, p, c)
        else:
            _take_market(state, p, action - A_MARKET)
        if a0 <= 1 or _cards_available(state) == 0:
            pop_decision(state)
            _refill_market(state)
        else:
            state[o + 2] = a0 - 1
    elif kind == D_KEEP:
        pop_decision(state)
        keep = action_card(action)
        for c in range(NC):
            if state[card_loc_at(c)] == L_PENDING:
                if c == keep:
                    _hand_draw(state, p, c)
                else:
                    state[card_loc_at(c)] = L_BOX
    elif kind == D_TRADE:
        c = action_card(action)
        state[hand_count_at(p)] -= 1
        _discard(state, c)
        if a0 <= 1:
            pop_decision(state)
            state[INS_SUPPLY] -= 1
            state[insects_at(p)] += 1
        else:
            state[o + 2] = a0 - 1
    elif kind >= D_INVEST:   # the expansion's decisions
        _NA.apply(state, cfg, o, kind, p, a0, a1, a2, a3, action, work)


@njit(cache=True)
def _grow(state, cfg, p, card, i, t):
    m = _mat(p, i)
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


@njit(cache=True)
def _apply_main(state, cfg, p, action, work):
    if action == A_STOP:
        state[ACTS] = 2
        return
    if action == A_INSECT_MOVE:
        state[insects_at(p)] -= 2
        state[INS_SUPPLY] += 2
        push_decision(state, D_MOTHER_PICK, p, 1, 0, 0, 0)
        return
    if action == A_REFRESH:
        state[insects_at(p)] -= 1
        state[INS_SUPPLY] += 1
        for j in range(3):
            if state[market_at(j)] >= 0:
                _discard(state, state[market_at(j)])
                state[market_at(j)] = -1
        _refill_market(state)
        return
    if action == A_TRADE:
        push_decision(state, D_TRADE, p, 3, 0, 0, 0)
        return
    if action == A_AGE:   # the expansion
        _NA.age(state, cfg, p, work)
        return
    if action < A_PAY:  # move: first step
        _start_action(state, T_MOVE)
        _enter(state, p, action - A_TILE)
        steps = 3 if state[game_upgrades_at(p)] & GU_MOVE3 else 2
        push_decision(state, D_MOVE, p, steps - 1, 0, 0, 0)
        return
    if action >= A_PILE and action < A_PILE + 2:
        _start_action(state, T_EXPLORE)
        j = action - A_PILE
        if cfg[CFG_EXP] != 0:   # the expansion: "explore 2 keep 1" may draw a second tile
            _NA.explore_draw(state, p, j)
            return
        state[pile_count_at(j)] -= 1
        state[DRAWN] = state[piles_at(j, state[pile_count_at(j)])]
        state[piles_at(j, state[pile_count_at(j)])] = -1
        push_decision(state, D_PLACE, p, 0, -1, 0, 0)
        return
    if action >= A_SPORE and action < A_SPORE + 6:
        _start_action(state, T_SPORE)
        _spore_action(state, cfg, p, action - A_SPORE, work)
        return
    if action >= A_DECAY and action < A_DECAY + NMATS:
        _start_action(state, T_DECAY)
        i = action - A_DECAY
        kind = _decay(state, cfg, p, i)
        if kind >= 0:
            _resolve_decay(state, cfg, p, i, kind)
        return
    if action >= A_MARKET and action <= A_DECK:
        _start_action(state, T_DISCOVER)
        if action == A_DECK:
            c = _draw_deck(state)
            if state[game_upgrades_at(p)] & GU_DISC2:
                c2 = _draw_deck(state)
                if c2 >= 0:
                    state[card_loc_at(c)] = L_PENDING
                    state[card_loc_at(c2)] = L_PENDING
                    push_decision(state, D_KEEP, p, 0, 0, 0, 0)
                    return
            _hand_draw(state, p, c)
        else:
            _take_market(state, p, action - A_MARKET)
        return
    if action_card(action) >= 0:
        _start_action(state, T_FRUIT)
        push_decision(state, D_FRUIT_MAT, p, action_card(action), 0, 0, 0)
        return


@njit(cache=True)
def _main_has_cheap_action(state, cfg, p):
    """A main action other than FRUIT is possible (checked without searching networks)."""
    if _main_allowed(state, T_SPORE) and state[supply_at(p)] > 0:
        return True
    if _main_allowed(state, T_DISCOVER) and _cards_available(state) > 0:
        return True
    if _main_allowed(state, T_EXPLORE) and state[PILE_N] + state[pile_count_at(1)] > 0:
        return True
    if _main_allowed(state, T_MOVE):
        mt = state[mother_at(p)]
        for k in range(3):
            u = state[adjacency_at(mt, k)]
            if u >= 0 and _can_move_to(state, p, u):
                return True
    return False


@njit(cache=True)
def _settle(state, cfg, mask, work):
    """Apply forced decisions (a sub-decision with one legal choice, the end of a turn)."""
    while state[OVER] == 0:
        if decision_depth(state) == 0:
            return
        o = _top(state)
        kind = state[o]
        if kind == D_AFTER_SPORE:   # the expansion: investing, then spores pushed off trees
            _NA.after_spore(state, cfg, work)
            continue
        if kind == D_MAIN:
            if state[ACTS] >= 2:
                _next_turn(state, cfg, work)
                continue
            if _main_has_cheap_action(state, cfg, state[o + 1]):
                return  # a real choice: no need for the full mask
        n = legal_mask(state, cfg, mask, work)
        if n == 0:
            if kind == D_MAIN:
                _next_turn(state, cfg, work)
                continue
            pop_decision(state)  # a sub-decision with no choice left (cannot happen by construction)
            continue
        if n == 1 and (kind != D_MAIN or mask[A_STOP] == 1):
            a = 0
            while mask[a] == 0:
                a += 1
            _apply(state, cfg, a, work)
            continue
        return


@njit(cache=True)
def step(state, action, cfg, work):
    _apply(state, cfg, action, work)
    _settle(state, cfg, work[W_MASK:W_MASK + NUM_ACTIONS], work)


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
            _place_tile(state, cfg, tid, STAR_C[s], STAR_R[s], _rand(state, 3))
        free = 0
        for t in range(6):
            if _tile_colour(state, cfg, t) != BLACK:
                free += 1
        if free >= need:
            return


#: the sapling start formations (designed; RULES.md "North American expansion"), by wind-die face:
#: O three alternate centre tiles, U three alternate star points, A all six star points
FORMATION_TILES = np.array([[1, 3, 5, -1, -1, -1], [6, 8, 10, -1, -1, -1], [6, 7, 8, 9, 10, 11]], np.int64)


@njit(cache=True)
def _expansion_setup(state, cfg):
    """The expansion's set-up: the sapling formation (rolled, or the ``sapling_setup`` option),
    the rest of the 15 saplings in the supply, 3 Grandfather Trees beside each player's mats."""
    f = cfg[CFG_FORMATION]
    if f < 0:
        f = _rand(state, 3)
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
def _new_tile_sapling(state, cfg, t):
    """Expansion: a tile added to the board rolls the wind die; an O adds a sapling (supply allowing)."""
    if cfg[CFG_EXP] == 0:
        return
    sym = _rand(state, 3)
    state[ROLL] = sym
    if sym == 0 and state[SAP_SUPPLY] > 0 and state[sapling_at(t)] == 0:
        state[sapling_at(t)] = 1
        state[SAP_SUPPLY] -= 1


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
        state[insects_at(s)] = 2 if _is_auto(cfg, s) else 1
    for t in range(NT_MAX):
        state[tree_at(t)] = -1
    state[FORMATION] = -1
    if cfg[CFG_EXP] != 0:
        _expansion_setup(state, cfg)
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
    first = _rand(state, nh)
    state[FIRST] = first
    for k in range(nh):
        p = (first + k) % nh
        extra = 1 if (nh == 2 and cfg[CFG_AUTO] == 0 and k == 1) else 0
        for _ in range(3 + extra):
            _hand_draw(state, p, _draw_deck(state))
    if cfg[CFG_AUTO] != 0:
        a = nh
        for _ in range(5):
            _hand_draw(state, a, _draw_deck(state))
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
    _settle(state, cfg, work[W_MASK:W_MASK + NUM_ACTIONS], work)


@njit(cache=True)
def _after_setup(state, cfg, work):
    if cfg[CFG_AUTO] != 0:
        _auto_place_mother(state, cfg, cfg[CFG_NH], work)
    _refill_market(state)
    _begin_turn(state, cfg, state[FIRST])


# --- the Automata -------------------------------------------------------------------
@njit(cache=True)
def _bfs(state, src, avoid_mothers_of, work):
    """Distances from tile ``src`` over flat edges into WORK[NT_MAX + t] (-1 unreached).
    Tiles with a Mother mushroom of a seat other than ``avoid_mothers_of`` are not entered
    (pass -1 to walk everywhere). Returns the number reached."""
    n = state[NTP]
    dist = W_DIST
    q = W_QUEUE
    for t in range(n):
        work[dist + t] = -1
    work[dist + src] = 0
    work[q] = src
    head = 0
    tail = 1
    while head < tail:
        t = work[q + head]
        head += 1
        for e in range(3):
            u = state[adjacency_at(t, e)]
            if u < 0 or work[dist + u] >= 0:
                continue
            if avoid_mothers_of >= 0:
                m = _mother_at(state, u)
                if m >= 0 and m != avoid_mothers_of:
                    continue
            work[dist + u] = work[dist + t] + 1
            work[q + tail] = u
            tail += 1
    return tail


@njit(cache=True)
def _fate(state, n):
    """The Automata's "let fate decide": a uniform draw among ``n`` tied options."""
    if n > 1:
        count_event(state, ST_FATE)
    return _rand(state, n)


@njit(cache=True)
def _auto_place_mother(state, cfg, a, work):
    """The Automata's Mother mushroom goes last: opposite the player's in the solo game, else
    equidistant from the players' (the free centre tile whose distances to them spread least;
    ties, e.g. two players opposite each other, drawn by fate)."""
    nh = cfg[CFG_NH]
    best = 1 << 30
    cnt = 0
    for t in range(6):
        if _tile_colour(state, cfg, t) == BLACK or _mother_at(state, t) >= 0:
            continue
        if nh == 1:
            ring = (t - state[M_POS]) % 6
            score = 3 - min(ring, 6 - ring)  # 0 when opposite
        else:
            lo = 1 << 20
            hi = -1
            for s in range(nh):
                d = (t - state[mother_at(s)]) % 6
                d = min(d, 6 - d)
                lo = min(lo, d)
                hi = max(hi, d)
            score = hi - lo
        work[W_AUX + t] = score
        if score < best:
            best = score
            cnt = 1
        elif score == best:
            cnt += 1
    k = _fate(state, cnt)
    for t in range(6):
        if _tile_colour(state, cfg, t) == BLACK or _mother_at(state, t) >= 0:
            continue
        if work[W_AUX + t] == best:
            if k == 0:
                _enter(state, a, t)
                return
            k -= 1


@njit(cache=True)
def _acfg(cfg, state, off, stride, i):
    side = cfg[CFG_LEVEL]
    return cfg[off + (side * NA_CARDS + state[A_CARDNOW]) * stride + i]


@njit(cache=True)
def _auto_card_colour_ok(state, cfg, col):
    if col == BLACK:
        return True
    return _acfg(cfg, state, CFG_AREQ, 5, col) > 0


@njit(cache=True)
def _auto_pick_layer(state, cfg, a, d, left, work):
    """The Automata picks ``left`` tiles among those at distance ``d`` (WORK distances fresh):
    first tiles no opponent controls whose colour its card asks for, then uncontrolled tiles,
    then any; ties drawn by fate."""
    dist = W_DIST
    for _ in range(left):
        best = 99
        cnt = 0
        for t in range(state[NTP]):
            if work[dist + t] != d or bit_get(state, MARKS, t):
                continue
            c = _control(state, t)
            v = 0 if (c < 0 or c == a) and _auto_card_colour_ok(state, cfg, _tile_colour(state, cfg, t)) else (1 if c < 0 or c == a else 2)
            if v < best:
                best = v
                cnt = 1
            elif v == best:
                cnt += 1
        if cnt == 0:
            break
        k = _fate(state, cnt)
        for t in range(state[NTP]):
            if work[dist + t] != d or bit_get(state, MARKS, t):
                continue
            c = _control(state, t)
            v = 0 if (c < 0 or c == a) and _auto_card_colour_ok(state, cfg, _tile_colour(state, cfg, t)) else (1 if c < 0 or c == a else 2)
            if v == best:
                if k == 0:
                    _put_spore(state, a, t)
                    bit_set(state, MARKS, t)
                    break
                k -= 1
    bits_clear(state, MARKS)


@njit(cache=True)
def _auto_fruit(state, cfg, a, ncomp, work):
    """Fruit for the Automata if one of its networks pays its card (coloured spores by colour or
    black, wild spores from anything, each taken from the most populated tile); the networks
    are tried from the richest. Returns True if it grew a mushroom. (Labels must be fresh.)"""
    slot = -1
    for i in range(cfg[CFG_MATS]):
        m = _mat(a, i)
        if state[MAT_CARD + m] == -1 and state[MAT_TILE + m] < 0 and state[MAT_UNDER + m] == 0:
            slot = i
            break
    if slot < 0:
        return False
    tried = W_TRIED
    for lab in range(ncomp):
        work[tried + lab] = 0
    for _ in range(ncomp):
        best_lab = -1
        best_n = -1
        for lab in range(ncomp):
            if work[tried + lab] != 0:
                continue
            a0, a1, a2, a3, a4 = _comp_avail(state, cfg, a, lab, work)
            n = a0 + a1 + a2 + a3 + a4
            if n > best_n:
                best_n = n
                best_lab = lab
        work[tried + best_lab] = 1
        if _auto_pay(state, cfg, a, best_lab, slot, work):
            return True
    return False


@njit(cache=True)
def _auto_pay(state, cfg, a, lab, slot, work):
    """Plan the payment (WORK[t] = spores taken from tile t) and, if it works, pay and grow."""
    n = state[NTP]
    take = W_QUEUE
    for t in range(n):
        work[take + t] = 0
    for col in range(5):  # 0..3 coloured needs (tile of that colour, else black), 4 wild
        need = _acfg(cfg, state, CFG_AREQ, 5, col)
        for _ in range(need):
            best = -1
            bv = -1
            for pass_ in range(2):
                for t in range(n):
                    if work[LABEL + t] != lab:
                        continue
                    tc = _tile_colour(state, cfg, t)
                    if col < 4:
                        if pass_ == 0 and tc != col:
                            continue
                        if pass_ == 1 and tc != BLACK:
                            continue
                    left = _spendable_all(state, a, t) - work[take + t]
                    if left <= 0:
                        continue
                    v = _spores_on(state, t) - work[take + t]
                    if v > bv:
                        bv = v
                        best = t
                if best >= 0 or col == 4:
                    break
            if best < 0:
                return False
            work[take + best] += 1
    # where to grow: a paid tile with no mushroom, of a colour on the card, else closest to an opponent
    grow = -1
    for t in range(n):
        if work[take + t] > 0 and state[mushroom_owner_at(t)] < 0 and _tile_colour(state, cfg, t) < 4 and _acfg(cfg, state, CFG_AREQ, 5, _tile_colour(state, cfg, t)) > 0:
            grow = t
            break
    if grow < 0:
        bestd = 1 << 20
        for t in range(n):
            if work[take + t] > 0 and state[mushroom_owner_at(t)] < 0:
                d = _dist_to_opponent(state, cfg, a, t, work)
                if d < bestd:
                    bestd = d
                    grow = t
    if grow < 0:
        return False
    for t in range(n):
        k = work[take + t]
        # the others' spores first, its own last (helping the Automata: it keeps its network)
        for o in range(MAXS):
            w = (a + 1 + o) % MAXS
            while k > 0 and _spendable(state, a, t, w) > 0:
                state[spores_at(t, w)] -= 1
                state[supply_at(w)] += 1
                k -= 1
    m = _mat(a, slot)
    state[MAT_CARD + m] = AUTO_CARD
    state[MAT_TILE + m] = grow
    state[MAT_CTR + m] = 0
    state[mushroom_owner_at(grow)] = a
    state[mushroom_mat_at(grow)] = slot
    state[points_at(a)] += 5
    state[grown_at(a)] += 1
    return True


@njit(cache=True)
def _dist_to_opponent(state, cfg, a, t, work):
    """Distance (over the board) from tile ``t`` to the nearest opponent Mother mushroom."""
    dist = W_AUX  # its own table: the caller's queue and distances stay intact
    n = state[NTP]
    for u in range(n):
        work[dist + u] = -1
    work[dist + t] = 0
    # simple relaxation (n <= 50): Bellman-Ford over the adjacency
    changed = True
    while changed:
        changed = False
        for u in range(n):
            if work[dist + u] < 0:
                continue
            for e in range(3):
                v = state[adjacency_at(u, e)]
                if v >= 0 and (work[dist + v] < 0 or work[dist + v] > work[dist + u] + 1):
                    work[dist + v] = work[dist + u] + 1
                    changed = True
    best = 1 << 20
    for s in range(cfg[CFG_NS]):
        if s != a and state[mother_at(s)] >= 0 and work[dist + state[mother_at(s)]] >= 0:
            best = min(best, work[dist + state[mother_at(s)]])
    return best


@njit(cache=True)
def _auto_decay_slot(state, cfg, a):
    for i in range(cfg[CFG_MATS]):
        m = _mat(a, i)
        if state[MAT_TILE + m] >= 0 and state[MAT_CTR + m] >= 2 and not _blocked(state, a, i):
            return i
    return -1


@njit(cache=True)
def _auto_spore_origin(state, cfg, a):
    """-2 none possible; -1 the Mother mushroom; else the slot whose mushroom spores next
    (the lowest counter first, so all have spored once before any spores twice)."""
    on_board = False
    best = -2
    bc = 99
    for i in range(cfg[CFG_MATS]):
        m = _mat(a, i)
        if state[MAT_TILE + m] >= 0:
            on_board = True
            if state[MAT_CTR + m] < 2 and not _blocked(state, a, i) and state[MAT_CTR + m] < bc:
                bc = state[MAT_CTR + m]
                best = i
    if not on_board:
        return -1
    return best


@njit(cache=True)
def _auto_explore(state, cfg, a, near):
    """The Automata explores: a tile from the fuller pile, placed across a free edge of tile
    ``near`` if it has one (else anywhere), edge and rotation drawn by fate. False if no tile."""
    j = 0 if state[PILE_N] >= state[pile_count_at(1)] else 1
    if state[pile_count_at(j)] == 0:
        return False
    state[pile_count_at(j)] -= 1
    tid = state[piles_at(j, state[pile_count_at(j)])]
    state[piles_at(j, state[pile_count_at(j)])] = -1
    placed0 = state[NTP]
    cnt = 0
    if near >= 0:
        for k in range(3):
            if state[adjacency_at(near, k)] < 0:
                cnt += 1
    if cnt > 0:
        x = _fate(state, cnt)
        for k in range(3):
            if state[adjacency_at(near, k)] < 0:
                if x == 0:
                    _place_tile(state, cfg, tid, neighbour_c(state[tile_col_at(near)], state[tile_row_at(near)], k),
                                neighbour_r(state[tile_col_at(near)], state[tile_row_at(near)], k), _fate(state, 3))
                    break
                x -= 1
    else:
        for i in range(state[NTP]):
            for k in range(3):
                if _placement_ok(state, i, k, -1, 0, 0):
                    cnt += 1
        x = _fate(state, cnt)
        done = False
        for i in range(state[NTP]):
            if done:
                break
            for k in range(3):
                if _placement_ok(state, i, k, -1, 0, 0):
                    if x == 0:
                        _place_tile(state, cfg, tid, neighbour_c(state[tile_col_at(i)], state[tile_row_at(i)], k),
                                    neighbour_r(state[tile_col_at(i)], state[tile_row_at(i)], k), _fate(state, 3))
                        done = True
                        break
                    x -= 1
    if state[NTP] > placed0:
        _new_tile_sapling(state, cfg, state[NTP] - 1)
    count_event(state, ST_AUTO + 4)
    return True


@njit(cache=True)
def _auto_spore(state, cfg, a, origin_slot, work):
    """The Automata spores its card's count from its M (``origin_slot`` -1) or a mushroom."""
    _roll_and_spore(state, cfg, a, origin_slot, _acfg(cfg, state, CFG_ASPO, 1, 0), -1, work)
    if cfg[CFG_EXP] != 0:
        _NA.auto_push(state, cfg)
    count_event(state, ST_AUTO + 2)


@njit(cache=True)
def _auto_is_target(state, cfg, a, t, target):
    if target == MT_COLOUR:
        return _tile_colour(state, cfg, t) == _acfg(cfg, state, CFG_ACOL, 1, 0)
    if target == MT_OPP_MUSH:
        return state[mushroom_owner_at(t)] >= 0 and state[mushroom_owner_at(t)] != a
    if target == MT_OWN_MUSH:
        return state[mushroom_owner_at(t)] == a
    if target == MT_OPP_MOTHER:
        m = _mother_at(state, t)
        return m >= 0 and m != a
    if target == MT_INSECT:
        return state[tile_insect_at(t)] != 0
    # opponent spores: the most populated tile(s)
    best = 0
    for u in range(state[NTP]):
        v = _spores_on(state, u) - state[spores_at(u, a)]
        best = max(best, v)
    return best > 0 and _spores_on(state, t) - state[spores_at(t, a)] == best


@njit(cache=True)
def _auto_move(state, cfg, a, work):
    """MOVE by the card's symbol for the rolled face; False if the M did not move at all."""
    face = _rand(state, 3)
    target = _acfg(cfg, state, CFG_AMOVE, 3, face)
    start = state[mother_at(a)]
    _bfs(state, start, a, work)
    dist = W_DIST
    # nearest target: a tile to stand on, or (opponent's M) a tile next to it
    best = 1 << 20
    for t in range(state[NTP]):
        if t == start or not _auto_is_target(state, cfg, a, t, target):
            continue
        if target == MT_OPP_MOTHER:
            for e in range(3):
                u = state[adjacency_at(t, e)]
                if u >= 0 and work[dist + u] >= 0 and work[dist + u] < best:
                    best = work[dist + u]
        elif work[dist + t] > 0 and work[dist + t] < best:
            best = work[dist + t]
    moved = False
    if best < (1 << 20) and best > 0:
        # goal tiles at distance ``best``; fate picks one; walk a shortest path up to 2 steps
        cnt = 0
        for t in range(state[NTP]):
            if work[dist + t] == best and _auto_goal(state, cfg, a, t, target, start):
                cnt += 1
        k = _fate(state, cnt)
        goal = -1
        for t in range(state[NTP]):
            if work[dist + t] == best and _auto_goal(state, cfg, a, t, target, start):
                if k == 0:
                    goal = t
                    break
                k -= 1
        # path: walk back from the goal
        steps = min(2, best)
        cur = goal
        while work[dist + cur] > steps:
            for e in range(3):
                u = state[adjacency_at(cur, e)]
                if u >= 0 and work[dist + u] == work[dist + cur] - 1:
                    cur = u
                    break
        # cur is at distance ``steps``; enter the tiles along the way (insects picked up)
        path0 = cur
        if steps == 2:
            for e in range(3):
                u = state[adjacency_at(cur, e)]
                if u >= 0 and work[dist + u] == 1:
                    _enter(state, a, u)
                    break
        _enter(state, a, path0)
        moved = True
        if target == MT_INSECT and best == 1:  # a second insect token next to the first
            for e in range(3):
                u = state[adjacency_at(path0, e)]
                if u >= 0 and state[tile_insect_at(u)] != 0 and _mother_at(state, u) < 0:
                    _enter(state, a, u)
                    break
    else:
        count_event(state, ST_WALK)
        for _ in range(2):
            sym = _rand(state, 3)
            cur = state[mother_at(a)]
            k = _edge_with_symbol(state, cfg, cur, sym)
            u = state[adjacency_at(cur, k)]
            if u >= 0 and _mother_at(state, u) < 0:
                _enter(state, a, u)
        moved = state[mother_at(a)] != start
    if moved:
        count_event(state, ST_AUTO + 3)
    return moved


@njit(cache=True)
def _auto_goal(state, cfg, a, t, target, start):
    if target == MT_OPP_MOTHER:
        for e in range(3):
            u = state[adjacency_at(t, e)]
            if u >= 0 and _auto_is_target(state, cfg, a, u, target):
                return True
        return False
    return t != start and _auto_is_target(state, cfg, a, t, target)


@njit(cache=True)
def _auto_decay_action(state, cfg, a, kind):
    """The Automata resolves an instant decay action, choosing what helps it (fate on ties)."""
    if kind == DC_STEAL:
        cnt = 0
        for s in range(cfg[CFG_NS]):
            if s != a and state[hand_count_at(s)] > 0:
                cnt += 1
        if cnt > 0:
            k = _fate(state, cnt)
            for s in range(cfg[CFG_NS]):
                if s != a and state[hand_count_at(s)] > 0:
                    if k == 0:
                        _steal(state, a, s)
                        break
                    k -= 1
    elif kind == DC_DRAW2:
        for _ in range(2):
            c = _draw_deck(state)
            if c >= 0:
                _hand_draw(state, a, c)
    elif kind == DC_OPP_MUSH or kind == DC_OPP_MOTHER:
        best = _best_tier(state)
        if best < 0:
            return
        cnt = 0
        for t in range(state[NTP]):
            if kind == DC_OPP_MUSH:
                ok = state[mushroom_owner_at(t)] >= 0 and state[mushroom_owner_at(t)] != a
            else:
                m = _mother_at(state, t)
                ok = m >= 0 and m != a
            if ok:
                cnt += 1
        if cnt == 0:
            return
        k = _fate(state, cnt)
        src = -1
        for t in range(state[NTP]):
            if kind == DC_OPP_MUSH:
                ok = state[mushroom_owner_at(t)] >= 0 and state[mushroom_owner_at(t)] != a
            else:
                m = _mother_at(state, t)
                ok = m >= 0 and m != a
            if ok:
                if k == 0:
                    src = t
                    break
                k -= 1
        dcnt = 0
        for t in range(state[NTP]):
            if _empty_tier(state, t) == best:
                dcnt += 1
        k = _fate(state, dcnt)
        for t in range(state[NTP]):
            if _empty_tier(state, t) == best:
                if k == 0:
                    if kind == DC_OPP_MUSH:
                        _move_mushroom(state, src, t)
                    else:
                        _enter(state, _mother_at(state, src), t)
                    break
                k -= 1
    elif kind == DC_OUTER:
        # move an outer tile that holds none of its pieces next to its Mother mushroom
        cnt = 0
        for t in range(state[NTP]):
            if _degree(state, t) == 1 and state[mother_at(a)] != t and state[mushroom_owner_at(t)] != a and state[spores_at(t, a)] == 0:
                cnt += 1
        if cnt == 0:
            return
        k = _fate(state, cnt)
        mt = state[mother_at(a)]
        for t in range(state[NTP]):
            if _degree(state, t) == 1 and state[mother_at(a)] != t and state[mushroom_owner_at(t)] != a and state[spores_at(t, a)] == 0:
                if k == 0:
                    oc = state[tile_col_at(t)]
                    orr = state[tile_row_at(t)]
                    # a free edge of the M's tile, else any placement
                    for e in range(3):
                        if state[adjacency_at(mt, e)] < 0 and _placement_ok(state, mt, e, t, oc, orr):
                            _move_tile(state, cfg, t, mt, e, _fate(state, 3))
                            return
                    for i in range(state[NTP]):
                        for e in range(3):
                            if _placement_ok(state, i, e, t, oc, orr):
                                _move_tile(state, cfg, t, i, e, _fate(state, 3))
                                return
                    return
                k -= 1


@njit(cache=True)
def automata_turn(state, cfg, a, work):
    """The Automata's whole turn: draw its card, then two actions, Fruit > Decay > Spore > Move."""
    if state[AUTO_DECK_N] == 0:
        for i in range(NA_CARDS):
            state[automata_deck_at(i)] = i
        state[AUTO_DECK_N] = NA_CARDS
        shuffle_range(state, AUTO_DECK, NA_CARDS, RNG)
    state[AUTO_DECK_N] -= 1
    state[A_CARDNOW] = state[automata_deck_at(state[AUTO_DECK_N])]
    done = 0
    tried = 0  # bits: 1 fruit, 2 decay, 4 spore, 8 move
    while done < 2 and state[OVER] == 0:
        if tried & 1 == 0:
            tried |= 1
            ncomp = label_networks(state, a, work)
            if ncomp > 0 and _auto_fruit(state, cfg, a, ncomp, work):
                count_event(state, ST_AUTO)
                done += 1
            continue
        if tried & 2 == 0:
            tried |= 2
            i = _auto_decay_slot(state, cfg, a)
            if i >= 0:
                m = _mat(a, i)
                t = state[MAT_TILE + m]
                state[mushroom_owner_at(t)] = -1
                state[mushroom_mat_at(t)] = 0
                state[MAT_TILE + m] = -1
                state[MAT_CTR + m] = 0
                state[MAT_CARD + m] = -1
                state[MAT_UNDER + m] = 1
                count_event(state, ST_AUTO + 1)
                done += 1
                if _all_decayed(state, cfg, a):
                    _end_game(state, a)
                    return
                kind = _acfg(cfg, state, CFG_ADEC, 1, 0)
                count_event(state, ST_DECAY + kind)
                _auto_decay_action(state, cfg, a, kind)
            continue
        if tried & 4 == 0:
            tried |= 4
            src = _auto_spore_origin(state, cfg, a)
            if src == -2 or state[supply_at(a)] == 0:
                continue
            origin = state[mother_at(a)] if src < 0 else state[mat_tile_at(a, src)]
            if _degree(state, origin) == 1 and (state[PILE_N] + state[pile_count_at(1)]) > 0:
                _auto_explore(state, cfg, a, origin)
                done += 1
                if done == 2:
                    break
            _auto_spore(state, cfg, a, src, work)
            done += 1
            continue
        if tried & 8 == 0:
            tried |= 8
            # only MOVE left because a mushroom is blocked: one insect moves the blocker far away
            blocked = -1
            for i in range(cfg[CFG_MATS]):
                if _blocked(state, a, i):
                    blocked = i
            if done == 0 and blocked >= 0 and state[insects_at(a)] >= 1:
                t = state[mat_tile_at(a, blocked)]
                s = _mother_at(state, t)
                _bfs(state, t, -1, work)
                far = -1
                for u in range(state[NTP]):
                    if _mother_at(state, u) < 0 and work[W_DIST + u] > far:
                        far = work[W_DIST + u]
                cnt = 0
                for u in range(state[NTP]):
                    if _mother_at(state, u) < 0 and work[W_DIST + u] == far:
                        cnt += 1
                k = _fate(state, cnt)
                for u in range(state[NTP]):
                    if _mother_at(state, u) < 0 and work[W_DIST + u] == far:
                        if k == 0:
                            state[insects_at(a)] -= 1
                            state[INS_SUPPLY] += 1
                            _enter(state, s, u)
                            break
                        k -= 1
                count_event(state, ST_AUTO + 5)
                done += 1
                _auto_explore(state, cfg, a, t)
                done += 1
                continue
            if not _auto_move(state, cfg, a, work):
                _auto_explore(state, cfg, a, state[mother_at(a)])
            done += 1
            continue
        break


# --- reading the state --------------------------------------------------------------
@njit(cache=True)
def current_player(state):
    if state[OVER] != 0 or decision_depth(state) == 0:
        return -1
    return state[_top(state) + 1]


@njit(cache=True)
def is_terminal(state):
    return state[OVER] != 0


@njit(cache=True)
def final_score(state, cfg, s):
    egt = cfg[CFG_MATS] if (state[ENDER] == s and not _is_auto(cfg, s)) else 0
    trees = 0
    if cfg[CFG_EXP] != 0:   # the expansion: 5 points per Grandfather Tree on the board
        for t in range(state[NTP]):
            if state[tree_at(t)] == s:
                trees += TREE_POINTS
    return state[points_at(s)] + state[insects_at(s)] // 2 + egt + trees


@njit(cache=True)
def _beats(state, cfg, s, t):
    """Seat s ranks above seat t: points, then mushrooms grown, then insects."""
    a = final_score(state, cfg, s)
    b = final_score(state, cfg, t)
    if a != b:
        return a > b
    if state[grown_at(s)] != state[grown_at(t)]:
        return state[grown_at(s)] > state[grown_at(t)]
    return state[insects_at(s)] > state[insects_at(t)]


@njit(cache=True)
def is_truncated(state, cfg):
    """The game was cut by the turn limit (not one of the rulebook's endings), unless the
    option turn_limit_end="score" makes the limit a scored ending."""
    return state[OVER] != 0 and state[ENDER] == TURN_LIMIT_END and cfg[CFG_LIMIT_SCORED] == 0


@njit(cache=True)
def returns(state, cfg, out):
    nh = cfg[CFG_NH]
    ns = cfg[CFG_NS]
    mode = cfg[CFG_REWARD]
    if is_truncated(state, cfg):
        for p in range(nh):
            out[p] = 0.0  # a truncation: no result (option turn_limit_end="score" scores it)
        return
    if mode == 1:
        for p in range(nh):
            out[p] = final_score(state, cfg, p)
        return
    if mode == 2:
        for p in range(nh):
            tot = 0.0
            for s in range(ns):
                if s != p:
                    tot += final_score(state, cfg, s)
            out[p] = final_score(state, cfg, p) - tot / (ns - 1)
        return
    # win/loss among all seats (the Automata included); tied winners share
    k = 0
    for s in range(ns):
        top = True
        for t in range(ns):
            if t != s and _beats(state, cfg, t, s):
                top = False
        if top:
            k += 1
    for p in range(nh):
        top = True
        for t in range(ns):
            if t != p and _beats(state, cfg, t, p):
                top = False
        if top:
            out[p] = (ns - k) / (k * (ns - 1))
        else:
            out[p] = -1.0 / (ns - 1)


from . import expansion as _NA  # noqa: E402  (the North American expansion's kernels: they use this module)

install_batch_kernels(globals())
