"""Fungi kernels: what a player may do (hand limits, the five actions, the follow-ups, the mask)."""

from numba import njit

from .cards import BASKET, BUTTER, CIDRE, FLY, MOON, NHAND, NIGHT0, NNIGHT, NTYPES, PAN
from .layout import (
    A_DECAY,
    A_PAN,
    B_VALUES,
    BASE_LIMIT,
    BASKET_BONUS,
    BUTTER_NEED,
    C_VALUES,
    CIDRE_NEED,
    COOK_FOREST,
    COOK_NIGHT,
    COOK_TYPE,
    D_COOK,
    DECAY_N,
    F_VALUES,
    FLY_LIMIT,
    FOREST_N,
    FREE_POSITIONS,
    N_VALUES,
    NIGHT_N,
    NO_DECISION,
    TERMINAL,
    TURN_PLAYER,
    baskets_at,
    cfg_units_at,
    cook_action,
    decay_at,
    decision_at,
    decision_depth,
    discard_action,
    empty_pans_at,
    finish_cook_action,
    fly_new_at,
    fly_old_at,
    forest_at,
    hand_at,
    hand_n_at,
    sell_action,
    sticks_at,
    take_action,
    top_arg,
    top_kind,
)


# The decision stack holds at most one entry (layout.py: a cook follow-up or a trim, never
# nested), so its top is entry 0. ``current_player`` and ``phase`` read that entry and the turn
# player unconditionally, then choose: no branch on the data (the vector API runs them on
# neighbouring envs in unrelated phases). An empty stack's slots hold in-bounds leftovers
# (layout.py's bounds), multiplied away or not chosen.
@njit(cache=True)
def current_player(state):
    """The player of the pending decision, else the turn player."""
    pending = decision_at(state, 0, 1)
    turn = state[TURN_PLAYER]
    return pending if decision_depth(state) > 0 else turn


@njit(cache=True)
def phase(state):
    """PH_ACT (0) with no pending decision, else the decision's kind (PH_COOK, PH_TRIM)."""
    return decision_at(state, 0, 0) * (decision_depth(state) > 0)


@njit(cache=True)
def hand_limit(state, p):
    if state[fly_new_at(p)] + state[fly_old_at(p)] > 0:
        return FLY_LIMIT + BASKET_BONUS * state[baskets_at(p)]
    return BASE_LIMIT + BASKET_BONUS * state[baskets_at(p)]


@njit(cache=True)
def trim_limit(state, p):
    return FLY_LIMIT + BASKET_BONUS * state[baskets_at(p)]


@njit(cache=True)
def type_units(state, p, t, cfg):
    """Mushrooms of type ``t`` in p's hand (Night cards count as they say)."""
    u = state[hand_at(p, t)]
    if t < NNIGHT:
        u += state[hand_at(p, NIGHT0 + t)] * cfg[cfg_units_at(NIGHT0 + t)]
    return u


@njit(cache=True, inline="always")
def cooked_units(t, nn, f, cfg):
    """Mushrooms in ``f`` Forest and ``nn`` Night cards of type ``t`` (a Night card counts as it
    says; types from NNIGHT on have no Night cards). Without a branch on ``t``: any type 0..NTYPES-1
    reads an in-range entry (observe runs it on a decision entry that may be a leftover)."""
    return f + (t < NNIGHT) * nn * cfg[cfg_units_at(NIGHT0 + min(t, NNIGHT - 1))]


@njit(cache=True)
def can_take_forest(state, p, i):
    if i >= state[FOREST_N]:
        return False
    cost = i - 1 if i >= FREE_POSITIONS else 0
    if state[sticks_at(p)] < cost:
        return False
    card = state[forest_at(i)]
    if card == BASKET or card == FLY:
        return True
    if card == MOON and state[NIGHT_N] == 0:
        return True
    return state[hand_n_at(p)] + 1 <= hand_limit(state, p)


@njit(cache=True)
def can_take_decay(state, p):
    n = state[DECAY_N]
    if n == 0:
        return False
    cards = 0
    baskets = 0
    moons = 0
    for j in range(n):
        c = state[decay_at(j)]
        if c == FLY:
            return True  # trimmed straight away: always allowed (RULES.md)
        if c == BASKET:
            baskets += 1
        elif c == MOON:
            moons += 1
        else:
            cards += 1
    nights = state[NIGHT_N]
    cards += moons if moons < nights else nights
    return state[hand_n_at(p)] + cards <= hand_limit(state, p) + BASKET_BONUS * baskets


@njit(cache=True)
def has_action(state, p, cfg):
    """True if ``p`` has a legal action in the action phase (same as a non-empty mask)."""
    if state[hand_at(p, PAN)] > 0:
        return True
    for i in range(state[FOREST_N]):
        if can_take_forest(state, p, i):
            return True
    if can_take_decay(state, p):
        return True
    for t in range(NTYPES):
        if type_units(state, p, t, cfg) >= 2:
            return True  # selling; cooking needs 3 and a pan, so it is covered too
    return False


@njit(cache=True)
def finish_legal(state, p, src, b, c, cfg):
    """May ``p`` finish the pending cook (top of the stack) in pan ``src`` with ``b`` Butter, ``c`` Cidre?"""
    if src == 0:
        if state[empty_pans_at(p)] == 0:
            return False
    elif state[hand_at(p, PAN)] == 0:
        return False
    if b > state[hand_at(p, BUTTER)] or c > state[hand_at(p, CIDRE)]:
        return False
    units = cooked_units(top_arg(state, COOK_TYPE), top_arg(state, COOK_NIGHT), top_arg(state, COOK_FOREST), cfg)
    return BUTTER_NEED * b + CIDRE_NEED * c <= units


@njit(cache=True)
def legal_mask(state, cfg, mask, work):
    for a in range(mask.shape[0]):
        mask[a] = 0
    if state[TERMINAL] != 0:
        return 0
    p = current_player(state)
    n_legal = 0
    kind = top_kind(state)
    if kind == NO_DECISION:
        for i in range(state[FOREST_N]):
            if can_take_forest(state, p, i):
                mask[take_action(i)] = 1
                n_legal += 1
        if can_take_decay(state, p):
            mask[A_DECAY] = 1
            n_legal += 1
        has_pan = state[hand_at(p, PAN)] > 0
        if has_pan:
            mask[A_PAN] = 1
            n_legal += 1
        can_cook = has_pan or state[empty_pans_at(p)] > 0
        for t in range(NTYPES):
            fmax = state[hand_at(p, t)]
            nmax = 0
            nu = 0
            if t < NNIGHT:
                nmax = state[hand_at(p, NIGHT0 + t)]
                nu = cfg[cfg_units_at(NIGHT0 + t)]
            if fmax + nmax * nu < 2:
                continue
            if fmax > F_VALUES - 1:
                fmax = F_VALUES - 1
            if nmax > N_VALUES - 1:
                nmax = N_VALUES - 1
            for nn in range(nmax + 1):
                for f in range(fmax + 1):
                    u = f + nn * nu
                    if u >= 2:
                        mask[sell_action(t, nn, f)] = 1
                        n_legal += 1
                        if u >= 3 and can_cook:
                            mask[cook_action(t, nn, f)] = 1
                            n_legal += 1
    elif kind == D_COOK:
        for src in range(2):
            for b in range(B_VALUES):
                for c in range(C_VALUES):
                    if finish_legal(state, p, src, b, c, cfg):
                        mask[finish_cook_action(src, b, c)] = 1
                        n_legal += 1
    else:  # D_TRIM
        for k in range(NHAND):
            if state[hand_at(p, k)] > 0:
                mask[discard_action(k)] = 1
                n_legal += 1
    return n_legal
