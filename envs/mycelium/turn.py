"""Mycelium's turn: the set-up, the Nutrient Card Phase (and its Bird's Nest prompts,
``D_BN``), the end of the Explore and Place Phases, the Draw Phase, the end of the turn and of
the game, and the returns.
"""

from numba import njit

from mushgym.core import rng_below, rng_seed, shuffle_range

from .abilities import play_card
from .cards import draw_cards, hand_size, may_hold, nutrient_supply, order_player, shuffle_nutrients_all, spore_supply
from .emsporium import draw_phase_cards, hand_limit, init_items, refill_shop
from .layout import (
    A_PASS,
    AB_BIRDS,
    ACTIONS,
    BIRDS,
    BN_PLAYED,
    BN_TRIGGER,
    C_ATT,
    C_DEF,
    C_EDGE,
    C_WINNER,
    CFG_LIMIT_SCORED,
    CFG_NNUT,
    CFG_NP,
    CFG_TEAM,
    CFG_TURN_LIMIT,
    CFG_WILLOW,
    D_BN,
    DECK,
    DECK_N,
    DONE,
    DONE_LIMIT,
    FIRST,
    LAST_EDGE,
    LAST_HAND,
    MAX_EDGES,
    MAXP,
    NDECK,
    NDECK_N,
    NDECK_TOP_N,
    NE_CENTER,
    NE_SPORES,
    NE_TREE,
    NUM_MUSHLING_CARDS,
    PH_DISCARD,
    PH_EXPLORE,
    PH_NUTRIENT,
    PH_OVER,
    PHASE,
    PLACED,
    RNG,
    TRADE_OFFERS,
    TRADE_USED,
    TURN,
    TURN_PLAYER,
    WINNER,
    birds_nest_action,
    birds_nest_args,
    c_card_at,
    c_repl_at,
    cfg_cave_at,
    cfg_deck_at,
    cfg_nut_deck_at,
    cfg_nut_effect_at,
    cfg_nut_target_at,
    cfg_permanent_at,
    cfg_tree_at,
    clear_decisions,
    deck_at,
    gatherer_at,
    hand_at,
    loc_nut_at,
    loc_spores_at,
    mat_nut_at,
    mat_spores_at,
    ndeck_at,
    ndeck_top_at,
    ndiscard_at,
    nseen_at,
    paths_at,
    pop_decision,
    push_decision,
)
from .tavern import init_tavern
from .team import team_init, team_returns


@njit(cache=True)
def init(state, seed, cfg, work):
    state[:] = 0
    rng_seed(state, RNG, seed)
    n = cfg[CFG_NP]
    for e in range(MAX_EDGES):
        q = cfg[cfg_permanent_at(e)]
        if q >= 0:
            state[paths_at(e, 0)] = q + 1
    for i in range(NUM_MUSHLING_CARDS):
        state[deck_at(i)] = cfg[cfg_deck_at(i)]
    state[DECK_N] = NUM_MUSHLING_CARDS
    shuffle_range(state, DECK, NUM_MUSHLING_CARDS, RNG)
    nn = cfg[CFG_NNUT]
    for i in range(nn):
        state[ndeck_at(i)] = cfg[cfg_nut_deck_at(i)]
    state[NDECK_N] = nn
    shuffle_range(state, NDECK, nn, RNG)
    first = rng_below(state, RNG, n)
    state[FIRST] = first
    state[TURN_PLAYER] = first
    for i in range(n):
        draw_cards(state, (first + i) % n, 4 + i)
    for p in range(n):
        state[mat_spores_at(p)] = 3
        state[loc_spores_at(cfg[cfg_cave_at(p)])] = 3
        for i in range(3):
            state[gatherer_at(p, i)] = -1
    for t in range(4):
        g = cfg[cfg_tree_at(t)]
        if g >= 0:
            state[loc_nut_at(g)] = 1
    state[loc_nut_at(cfg[CFG_WILLOW])] = 1
    state[WINNER] = -1
    state[LAST_EDGE] = -1
    state[C_ATT] = -1
    state[C_DEF] = -1
    state[C_EDGE] = -1
    state[C_WINNER] = -1
    for s in range(2):
        state[c_card_at(s)] = -1
        state[c_repl_at(s)] = -1
    state[PHASE] = PH_EXPLORE
    clear_decisions(state)
    init_items(state, cfg)  # variant: emsporium
    init_tavern(state, cfg)  # variant: hero_tavern, legends
    team_init(state, cfg)  # variant: team


@njit(cache=True)
def start_turn(state, cfg):
    state[ACTIONS] = 0
    state[TRADE_USED] = 0  # variant: team
    state[TRADE_OFFERS] = 0
    state[PLACED] = 0
    state[PHASE] = PH_NUTRIENT
    state[BN_PLAYED] = 0
    state[BN_TRIGGER] = 0
    # 1. Nutrient Card Phase
    if state[NDECK_N] == 0:
        shuffle_nutrients_all(state)
    if state[NDECK_N] == 0:
        return
    top = state[NDECK_N] - 1
    k = state[ndeck_at(top)]
    state[ndeck_at(top)] = 0
    state[NDECK_N] = top
    if state[NDECK_TOP_N] > 0:  # drawn face up: it leaves the public set on top
        state[NDECK_TOP_N] -= 1
        state[ndeck_top_at(k)] -= 1
    for p in range(MAXP):
        state[nseen_at(p, top)] = 0
    state[ndiscard_at(k)] += 1
    eff = cfg[cfg_nut_effect_at(k)]
    trig = 0
    if eff == NE_TREE or eff == NE_CENTER:
        g = cfg[cfg_nut_target_at(k)] if eff == NE_TREE else cfg[CFG_WILLOW]
        if g >= 0 and nutrient_supply(state, cfg) > 0:
            state[loc_nut_at(g)] += 1
            if eff == NE_TREE:
                trig |= 1 << g
    elif eff == NE_SPORES:
        for p in range(cfg[CFG_NP]):
            if spore_supply(state, cfg) > 0:
                state[loc_spores_at(cfg[cfg_cave_at(p)])] += 1
    else:
        for t in range(4):
            g = cfg[cfg_tree_at(t)]
            if g >= 0 and nutrient_supply(state, cfg) > 0:
                state[loc_nut_at(g)] += 1
                trig |= 1 << g
    state[BN_TRIGGER] = trig
    if trig != 0:
        n = cfg[CFG_NP]
        for i in range(n - 1, -1, -1):
            q = order_player(state, cfg, i)
            if bn_eligible(state, cfg, q):
                push_decision(state, D_BN, q, 0)


@njit(cache=True)
def end_turn(state, cfg):
    state[LAST_HAND] = hand_size(state, state[TURN_PLAYER])
    refill_shop(state, cfg)  # variant: emsporium
    state[TURN] += 1
    lim = cfg[CFG_TURN_LIMIT]
    if lim > 0 and state[TURN] >= lim:
        state[DONE] = DONE_LIMIT
        state[PHASE] = PH_OVER
        clear_decisions(state)
        return
    state[TURN_PLAYER] = (state[TURN_PLAYER] + 1) % cfg[CFG_NP]
    start_turn(state, cfg)


@njit(cache=True)
def after_place(state, cfg):
    """A gatherer was placed in the Explore or Place Phase."""
    state[PLACED] += 1
    if state[PLACED] < 3:
        return
    state[PLACED] = 0
    if state[PHASE] == PH_EXPLORE:
        nxt = (state[TURN_PLAYER] + 1) % cfg[CFG_NP]
        state[TURN_PLAYER] = nxt
        if nxt == state[FIRST]:
            start_turn(state, cfg)
        return
    # 5. Draw Phase
    draw_cards(state, state[TURN_PLAYER], draw_phase_cards(state, state[TURN_PLAYER]))  # variant: emsporium (Basket)
    if hand_size(state, state[TURN_PLAYER]) > hand_limit(state, state[TURN_PLAYER]):  # variant: emsporium (Pouch)
        state[PHASE] = PH_DISCARD
    else:
        end_turn(state, cfg)


# --- Bird's Nest in the Nutrient Card Phase ---------------------------------------------------


@njit(cache=True)
def bn_eligible(state, cfg, q):
    trig = state[BN_TRIGGER]
    on = False
    for i in range(3):
        g = state[gatherer_at(q, i)]
        if g >= 0 and (trig >> g) & 1:
            on = True
    return on and (state[BN_PLAYED] >> q) & 1 == 0 and may_hold(state, cfg, q, BIRDS, -1)


@njit(cache=True)
def birds_nest_live(state, cfg, p):
    return bn_eligible(state, cfg, p) or False


@njit(cache=True)
def birds_nest_mask(state, cfg, p, mask, work):
    """Pass, or gather with any non-empty subset of the gatherers placed."""
    mask[A_PASS] = 1
    c = 1
    if state[hand_at(p, BIRDS)] > 0:
        placed = 0
        for i in range(3):
            if state[gatherer_at(p, i)] >= 0:
                placed |= 1 << i
        for sub in range(1, 8):
            if sub & placed == sub:
                mask[birds_nest_action(sub - 1)] = 1
                c += 1
    return c


@njit(cache=True)
def birds_nest_step(state, cfg, p, a, work):
    """A Bird's Nest played (once per player and phase); the turn player is asked again."""
    pop_decision(state)
    if a != A_PASS:
        sub = birds_nest_args(a) + 1
        state[BN_PLAYED] |= 1 << p
        play_card(state, cfg, p, BIRDS, AB_BIRDS, sub, 0, 0)
        tp = state[TURN_PLAYER]
        if p != tp and bn_eligible(state, cfg, tp):
            push_decision(state, D_BN, tp, 1)


# --- the end of the game --------------------------------------------------------------------


@njit(cache=True)
def is_terminal(state):
    return state[DONE] != 0


@njit(cache=True)
def is_truncated(state, cfg):
    """The turn limit cut the game (not an ending of the rulebook), unless the option
    turn_limit_end="score" makes the limit an ending scored by Nutrients."""
    return state[DONE] == DONE_LIMIT and cfg[CFG_LIMIT_SCORED] == 0


@njit(cache=True)
def returns(state, cfg, out):
    """+1 to the winner, -1/(n-1) to each other player. A truncation gives 0 to all; a turn
    limit scored (turn_limit_end="score") makes the k players with the most Nutrients
    winners of (n-k)/(k(n-1)) each (0 when all tie)."""
    if cfg[CFG_TEAM]:  # variant: team (rewards shared by the team)
        team_returns(state, cfg, out)
        return
    n = cfg[CFG_NP]
    w = state[WINNER]
    if state[DONE] == DONE_LIMIT:
        best = -1
        k = 0
        for p in range(n):
            x = state[mat_nut_at(p)]
            if x > best:
                best = x
                k = 0
            if x == best:
                k += 1
        for p in range(n):
            if cfg[CFG_LIMIT_SCORED] == 0:
                out[p] = 0.0
            elif state[mat_nut_at(p)] == best:
                out[p] = (n - k) / (k * (n - 1.0))
            else:
                out[p] = -1.0 / (n - 1)
        return
    for p in range(n):
        if w < 0:
            out[p] = 0.0
        else:
            out[p] = 1.0 if p == w else -1.0 / (n - 1)
