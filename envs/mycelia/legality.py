"""Legal actions: the mask of each decision kind on top of the stack (:func:`decision_mask`),
the main decision's (:func:`main_mask`), the payment's (:func:`pay_mask`), and ``legal_mask`` and
``validate`` of the kernel contract. The expansion's decision kinds: :func:`.expansion.sub_mask`.
"""

from numba import njit

from . import expansion
from .actions import (
    A_AGE,
    A_DECAY,
    A_DECK,
    A_INSECT_MOVE,
    A_MARKET,
    A_MAT,
    A_PILE,
    A_PLACE,
    A_REFRESH,
    A_ROT,
    A_SPORE,
    A_STOP,
    A_TILE,
    A_TRADE,
    NUM_ACTIONS,
    card_action,
    pay_owner_action,
    seat_action,
)
from .cards import cards_available, deck_available
from .layout import (
    BLACK,
    CFG_EXP,
    CFG_MATS,
    CFG_NS,
    D_DRAW2,
    D_FRUIT_MAT,
    D_FRUIT_TILE,
    D_INVEST,
    D_KEEP,
    D_MAIN,
    D_MOTHER_DEST,
    D_MOTHER_PICK,
    D_MOVE,
    D_OPPM_DEST,
    D_OPPM_PICK,
    D_OUTER_PICK,
    D_PAY,
    D_PLACE,
    D_ROT,
    D_SETUP,
    D_SPORE_PICK,
    D_STEAL,
    D_TRADE,
    FRUIT_NET,
    INS_SUPPLY,
    L_HAND,
    L_PENDING,
    MARKS,
    MAT_CARD,
    MAT_CTR,
    MAT_TILE,
    NC,
    NTP,
    OVER,
    PILE_N,
    SPORE_ROWS,
    T_DECAY,
    T_DISCOVER,
    T_EXPLORE,
    T_FRUIT,
    T_MOVE,
    T_SPORE,
    adjacency_at,
    bit_get,
    card_loc_at,
    cfg_require_at,
    cfg_wild_at,
    decision_depth,
    hand_count_at,
    insects_at,
    market_at,
    mother_at,
    mushroom_owner_at,
    pile_count_at,
    supply_at,
    top_entry,
)
from .mats import free_mat, mat_blocked, mat_index
from .networks import can_fruit, can_grow_on, can_pay_tile, label_networks, network_spores, payment_feasible, spendable
from .spores import cone_distances
from .tiles import (
    automata_side_ok,
    best_tier,
    can_move_to,
    degree,
    empty_tier,
    mother_on,
    other_mothers,
    placement_ok,
    tile_colour,
)
from .turn import main_allowed
from .validate import V_NO_ACTION, V_OK, check_state
from .work import LABEL, W_DIST, W_MASK


@njit(cache=True)
def free_mask(state, cfg, p, mask):
    """The free actions ("at any point on your turn"): 2 insects move another player's M, 1 insect
    refreshes the market, 3 cards buy an insect. Returns how many are possible."""
    n = 0
    if state[insects_at(p)] >= 2 and other_mothers(state, cfg, p):
        mask[A_INSECT_MOVE] = 1
        n += 1
    if state[insects_at(p)] >= 1 and deck_available(state) > 0:
        mask[A_REFRESH] = 1
        n += 1
    if state[hand_count_at(p)] >= 3 and state[INS_SUPPLY] > 0:
        mask[A_TRADE] = 1
        n += 1
    return n


@njit(cache=True)
def free_action_possible(state, cfg, p):
    """A free action is possible for ``p`` (the checks of :func:`free_mask`)."""
    return (
        (state[insects_at(p)] >= 2 and other_mothers(state, cfg, p))
        or (state[insects_at(p)] >= 1 and deck_available(state) > 0)
        or (state[hand_count_at(p)] >= 3 and state[INS_SUPPLY] > 0)
    )


@njit(cache=True)
def main_mask(state, cfg, p, mask, work):
    """Legal actions of the main decision; returns the number of main (not free) actions."""
    n_main = 0
    mt = state[mother_at(p)]
    if main_allowed(state, T_MOVE):
        for k in range(3):
            u = state[adjacency_at(mt, k)]
            if u >= 0 and can_move_to(state, p, u):
                mask[A_TILE + u] = 1
                n_main += 1
    if main_allowed(state, T_EXPLORE):
        for j in range(2):
            if state[pile_count_at(j)] > 0:
                mask[A_PILE + j] = 1
                n_main += 1
    if main_allowed(state, T_SPORE):
        if state[supply_at(p)] > 0:
            mask[A_SPORE] = 1
            n_main += 1
            for i in range(cfg[CFG_MATS]):
                m = mat_index(p, i)
                if state[MAT_TILE + m] >= 0 and state[MAT_CTR + m] < 2 and not mat_blocked(state, p, i):
                    mask[A_SPORE + 1 + i] = 1
                    n_main += 1
    if main_allowed(state, T_DECAY):
        for i in range(cfg[CFG_MATS]):
            m = mat_index(p, i)
            if state[MAT_TILE + m] >= 0 and state[MAT_CTR + m] >= 2 and not mat_blocked(state, p, i):
                mask[A_DECAY + i] = 1
                n_main += 1
    if main_allowed(state, T_DISCOVER):
        for j in range(3):
            if state[market_at(j)] >= 0:
                mask[A_MARKET + j] = 1
                n_main += 1
        if deck_available(state) > 0:
            mask[A_DECK] = 1
            n_main += 1
    if main_allowed(state, T_FRUIT) and state[hand_count_at(p)] > 0 and free_mat(state, cfg, p) >= 0:
        ncomp = label_networks(state, p, work)
        if ncomp > 0:
            for c in range(NC):
                if state[card_loc_at(c)] == L_HAND + p and can_fruit(state, cfg, p, c, ncomp, work):
                    mask[card_action(c)] = 1
                    n_main += 1
    free_mask(state, cfg, p, mask)
    if cfg[CFG_EXP] != 0 and expansion.can_age(state, cfg, p):
        mask[A_AGE] = 1
        n_main += 1
    if n_main == 0:
        mask[A_STOP] = 1
    return n_main


@njit(cache=True)
def mask_best_tiers(state, mask):
    best = best_tier(state)
    if best < 0:
        return
    for t in range(state[NTP]):
        if empty_tier(state, t) == best:
            mask[A_TILE + t] = 1


@njit(cache=True)
def decision_mask(state, cfg, mask, work):
    kind, p, a0, a1, a2, a3 = top_entry(state)
    if kind == D_MAIN:
        main_mask(state, cfg, p, mask, work)
    elif kind == D_SETUP:
        for t in range(6):  # the six centre tiles are placed first
            if a0 == 1:  # the side of the Automata's Mother mushroom, next to p (its Example B)
                if automata_side_ok(state, cfg, p, t):
                    mask[A_TILE + t] = 1
            elif tile_colour(state, cfg, t) != BLACK and mother_on(state, t) < 0:
                mask[A_TILE + t] = 1
    elif kind == D_MOVE:
        mt = state[mother_at(p)]
        steps = 0
        for k in range(3):
            u = state[adjacency_at(mt, k)]
            if u >= 0 and can_move_to(state, p, u):
                mask[A_TILE + u] = 1
                steps += 1
        mask[A_STOP] = 1
        if steps > 0:  # between two steps: the free actions too (RULES.md, "A turn")
            free_mask(state, cfg, p, mask)
    elif kind == D_PLACE:
        skip = a1
        oc = a2
        orr = a3
        for i in range(state[NTP]):
            for k in range(3):
                if placement_ok(state, i, k, skip, oc, orr):
                    mask[A_PLACE + i * 3 + k] = 1
    elif kind == D_ROT:
        for r in range(3):
            mask[A_ROT + r] = 1
    elif kind == D_SPORE_PICK:
        d = a3 & 255
        dist = W_DIST
        cone_distances(state, a0, a1, a3 // SPORE_ROWS, work)
        for t in range(state[NTP]):
            if work[dist + t] == d and bit_get(state, MARKS, t) == 0:
                mask[A_TILE + t] = 1
    elif kind == D_FRUIT_MAT:
        for i in range(cfg[CFG_MATS]):
            m = mat_index(p, i)
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
            av0, av1, av2, av3, av4 = network_spores(state, cfg, p, lab, work)
            if not payment_feasible(n0, n1, n2, n3, av0, av1, av2, av3, av4, 0, nw):
                continue
            for t in range(state[NTP]):
                if work[LABEL + t] == lab and can_grow_on(
                    state, cfg, p, t, n0, n1, n2, n3, av0, av1, av2, av3, av4, nw
                ):
                    mask[A_TILE + t] = 1
    elif kind == D_PAY:
        pay_mask(state, cfg, p, a2, a3, mask, work)
    elif kind == D_OUTER_PICK:
        for t in range(state[NTP]):
            if degree(state, t) == 1:
                mask[A_TILE + t] = 1
    elif kind == D_OPPM_PICK:
        for t in range(state[NTP]):
            if state[mushroom_owner_at(t)] >= 0 and state[mushroom_owner_at(t)] != p:
                mask[A_TILE + t] = 1
    elif kind == D_OPPM_DEST:
        mask_best_tiers(state, mask)
    elif kind == D_MOTHER_PICK:
        for s in range(cfg[CFG_NS]):
            if s != p and state[mother_at(s)] >= 0:
                mask[seat_action(s)] = 1
    elif kind == D_MOTHER_DEST:
        if a1 == 0:  # decay (The Prince): an empty triangle, with the rulebook's fallbacks
            mask_best_tiers(state, mask)
        else:  # insects: any tile without a Mother mushroom
            for t in range(state[NTP]):
                if mother_on(state, t) < 0:
                    mask[A_TILE + t] = 1
    elif kind == D_STEAL:
        for s in range(cfg[CFG_NS]):
            if s != p and state[hand_count_at(s)] > 0:
                mask[seat_action(s)] = 1
    elif kind == D_DRAW2:
        for j in range(3):
            if state[market_at(j)] >= 0:
                mask[A_MARKET + j] = 1
        if deck_available(state) > 0:
            mask[A_DECK] = 1
    elif kind == D_KEEP:
        if a0 == 1:  # the card not kept: the bottom of the deck or the box
            mask[A_DECK] = 1
            mask[A_STOP] = 1
        else:
            for c in range(NC):
                if state[card_loc_at(c)] == L_PENDING:
                    mask[card_action(c)] = 1
    elif kind == D_TRADE:
        for c in range(NC):
            if state[card_loc_at(c)] == L_HAND + p:
                mask[card_action(c)] = 1
    elif kind >= D_INVEST:  # the expansion's decisions
        expansion.sub_mask(state, cfg, kind, p, a0, a1, a2, a3, mask, work)


@njit(cache=True)
def pay_mask(state, cfg, p, grow, grow_paid, mask, work):
    for t in range(state[NTP]):  # the paying network, fixed when the payment started
        work[LABEL + t] = 0 if bit_get(state, FRUIT_NET, t) else -1
    for t in range(state[NTP]):
        if can_pay_tile(state, cfg, p, grow, grow_paid, t, work):
            for o in range(cfg[CFG_NS]):
                if spendable(state, p, t, o) > 0:
                    mask[pay_owner_action(t, o)] = 1


@njit(cache=True)
def legal_mask(state, cfg, mask, work):
    mask[:] = 0
    if state[OVER] != 0 or decision_depth(state) == 0:
        return 0
    decision_mask(state, cfg, mask, work)
    n = 0
    for a in range(mask.shape[0]):  # the base game's mask is the prefix of NUM_ACTIONS_BASE ids
        n += mask[a]
    return n


@njit(cache=True)
def has_cheap_main_action(state, cfg, p):
    """A main action other than FRUIT is possible (checked without searching networks)."""
    if main_allowed(state, T_SPORE) and state[supply_at(p)] > 0:
        return True
    if main_allowed(state, T_DISCOVER) and cards_available(state) > 0:
        return True
    if main_allowed(state, T_EXPLORE) and state[PILE_N] + state[pile_count_at(1)] > 0:
        return True
    if main_allowed(state, T_MOVE):
        mt = state[mother_at(p)]
        for k in range(3):
            u = state[adjacency_at(mt, k)]
            if u >= 0 and can_move_to(state, p, u):
                return True
    return False


@njit(cache=True)
def validate(state, cfg, work):
    """The state check of ``mushgym.Game.validate`` (:mod:`.validate`): 0 for a consistent state,
    else a ``V_*`` code. Never run by ``step`` nor the batch kernels."""
    code = check_state(state, cfg)
    if code == V_OK and state[OVER] == 0 and legal_mask(state, cfg, work[W_MASK : W_MASK + NUM_ACTIONS], work) == 0:
        return V_NO_ACTION
    return code
