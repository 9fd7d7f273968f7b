"""Mycelium's compiled state check (the ``validate`` kernel of ``mushgym.Game.validate``).

The layout's per-slot bounds (layout.py) keep every slot in its type's range; this kernel
checks what depends on the options and on several slots at once: the rules of the game
(conservation, supplies, knowledge, the end; ``MyceliumGame.check_invariants`` raises its
verdict as an AssertionError) and the shape of every position the kernels can reach, so that
a state is either one the game could be in or refused. One function per field group, each
returning 0 or a ``V_*`` code times 1000 plus a detail (a seat, a type, a stack level);
:data:`VALIDATION_ERRORS` says what each code means. No allocation (counts go to the ``work`` area).

Field groups (add a variant's fields as a new group and call it from :func:`validate`):

=================== ==============================================================================
group               what is checked
=================== ==============================================================================
``check_seats``     the generator is not all zero; seats, owners and every per-seat slot of the
                    player count (the slots of absent seats stay 0)
``check_turn``      phase, turn, turn player, gatherers placed and actions as a turn runs:
                    the Explore Phase in seat order, the turn player ``(first + turn) % n``,
                    the turn limit, the last Draw Phase within the hand limit
``check_end``       running or over (the phase, the winner's 10 Nutrients, nobody else's,
                    no pending decision, combat or card in flight after the end)
``check_cards``     each mushling type's copies in exactly one place (deck, hands, discard,
                    abilities in flight, reinforcements, combat cards); the cards in flight
                    those of the abilities on the stack; knowledge within the hands; the
                    nutrient cards; empty slots above each deck's top; the public sets a
                    Witch's Hat put on top; nutrient cards seen only within the deck
``check_tokens``    spores, nutrients and combat tokens within their supplies and only where
                    the rules put them (spores in Spore Caves, nutrients on trees and the Willow)
``check_paths``     owners of the player count, never two Paths of one player on an edge, the
                    permanent Colony Paths in place, each player's count of built Paths, a
                    21st Path only while its owner is asked to remove one
``check_combat``    a combat's players, edge, cards, stage and bonuses (idle values outside one)
``check_stack``     (:mod:`.validate_stack`) the decision stack: slots above its top cleared, each entry's player and
                    arguments by kind, where each kind may sit (a combat's prompts above its
                    marker, payments and Russula's picks alone, Fly Agaric windows above the
                    ability they concern), the top entry a decision the player to act can
                    answer (the kernels' ``advance`` has nothing left to do); the variants'
                    kinds: a Buy (``D_BUY``, spent <= paid) alone in the Action Phase, the hero
                    picks (``D_HERO_PICK``) alone after the Gather Phase, the Legends deals
                    (``D_LEGEND``, one per player in turn order) before the Explore Phase;
                    the Exchange's choice (``D_EXCHANGE``) alone in the Action Phase, of
                    the turn player, its first card of its type, with a card left to name
``check_items``     Emsporium: each item type's 2 cards owned, in the shop or in the item deck
                    (none without the variant, none in an absent seat), empty deck slots above
                    its top, no empty shop slot in the Explore Phase while the item deck lasts
``check_heroes``    Hero Tavern / Legends: each hero exactly once among the players' heroes,
                    the face-up heroes, the hero deck and the Legends deals (none without the
                    variant); the deals those of the players still asked to keep one, the
                    face-up slots dealt once they are; empty deck slots above its top
``check_team``      Team / 2-player game: the seat-to-agent map of this game (``agent_of``), no
                    Trade flag, gathering choice or Colony above 10 Nutrients outside / under
                    the Team rules, a pending Trade offer's card still in the proposer's hand,
                    the gathering choices made only at locations before the one asked (none
                    without a ``D_GATHER``), that location one the player can take from
=================== ==============================================================================

The Team rules change other groups too (each marked ``variant: team``): ``check_end`` counts
the 15 Nutrients of a team, not the 10 of a player (a Colony may hold 10 in a running game);
``check_stack`` places the Team decisions (``D_TRADE``: the turn player's teammate answering, or the
turn player accepting what comes back, alone in the Action Phase; ``D_GATHER``: on top, in the Gather Phase's place
(the Place Phase
before its first gatherer, above the hero picks), a Bird's Nest's Nutrient Card Phase, or a
hero's gathering in the Action Phase); ``check_turn`` lets the turn player's gatherers stay
out while its Gather Phase's choice is pending.
"""

from numba import njit

from .board import bonded_edges
from .cards import ctok_supply, nutrient_supply, spore_supply
from .emsporium import hand_limit, validate_emsporium
from .layout import (
    ABILITY_CARD,
    ACTIONS,
    BLUE_OY,
    BN_PLAYED,
    BN_TRIGGER,
    C_ACTIVE,
    C_ATT,
    C_DEF,
    C_DEFENDED,
    C_EDGE,
    C_NEXT,
    C_PASSES,
    C_REVEALED,
    C_STAGE,
    C_SUB,
    C_WINNER,
    CARD_PAIR,
    CARD_X1,
    CFG_AGENTS,
    CFG_LEGENDS,
    CFG_NE,
    CFG_NG,
    CFG_NNUT,
    CFG_NP,
    CFG_TEAM,
    CFG_TURN_LIMIT,
    CFG_WILLOW,
    COMBAT_TOKENS,
    CS_AD,
    CS_COMPARE,
    CS_END,
    CS_PUFF,
    CS_REACT_A,
    CS_REACT_D,
    CS_REINF,
    CS_REVEAL,
    D_GATHER,
    D_LEGEND,
    D_REMOVE_OWN,
    D_RESOLVE,
    D_RUSSULA_PICK,
    D_TRADE,
    DECEIVER,
    DECK_N,
    DECK_TOP_N,
    DONE,
    DONE_LIMIT,
    DONE_RULES,
    FIRST,
    HAND_LIMIT,
    HDECK_N,
    HERO_UP,
    IDECK_N,
    LAST_HAND,
    MAX_EDGES,
    MAX_GATHER_LOCS,
    MAX_NUTRIENT_KINDS,
    MAX_PATHS,
    MAXP,
    NDECK_N,
    NDECK_TOP_N,
    NUM_HEROES,
    NUM_ITEM_CARDS,
    NUM_ITEM_TYPES,
    NUM_MUSHLING_CARDS,
    NUM_MUSHLING_KINDS,
    NUM_NUTRIENT_CARDS,
    PH_EXPLORE,
    PH_OVER,
    PH_PLACE,
    PHASE,
    PINK_OY,
    PLACED,
    RUSSULA,
    SHOP,
    TAVERN,
    TRADE_OFFERS,
    TRADE_USED,
    TURN,
    TURN_PLAYER,
    WIN_NUTRIENTS,
    WINNER,
    agent_of_at,
    c_bonus_at,
    c_card_at,
    c_nothief_at,
    c_repl_at,
    carea_at,
    cfg_cave_at,
    cfg_copies_at,
    cfg_hero_amount_at,
    cfg_nut_deck_at,
    cfg_permanent_at,
    cfg_tree_at,
    ctok_at,
    decision_at,
    decision_depth,
    deck_at,
    deck_top_at,
    discard_at,
    gather_take_at,
    gatherer_at,
    hand_at,
    hero_deck_at,
    hero_up_at,
    heroes_at,
    item_deck_at,
    items_at,
    known_at,
    legend_deal_at,
    limbo_at,
    loc_nut_at,
    loc_spores_at,
    mat_nut_at,
    mat_spores_at,
    ndeck_at,
    ndeck_top_at,
    ndiscard_at,
    npaths_at,
    nseen_at,
    paths_at,
    rng_at,
    shop_at,
)
from .tavern import is_reaction, on, validate_tavern
from .team import TEAM_WIN, could_take, holds, is_teammate, team_totals, teammate
from .validate_codes import (  # noqa: F401  (the codes and their messages: MyceliumGame.validate, the tests)
    DETAIL,
    V_ARG,
    V_ARRANGE,
    V_CARDS,
    V_COMBAT,
    V_COMBAT_PATH,
    V_DECK_TOP,
    V_END,
    V_EXPLORE,
    V_FA,
    V_HEROES,
    V_ITEMS,
    V_KIND,
    V_KNOWN,
    V_LIMBO,
    V_LOCATION,
    V_NUTRIENT_CARDS,
    V_OK,
    V_PATH_COUNT,
    V_PATHS,
    V_PILE,
    V_PLAYER,
    V_RNG,
    V_SEAT_SLOTS,
    V_SEEN,
    V_SHOP,
    V_STACK,
    V_STACK_CLEAR,
    V_TEAM,
    V_TOKEN_PLACE,
    V_TOKENS,
    V_TOP,
    V_TURN,
    V_USE,
    VALIDATION_ERRORS,
    error,
)
from .validate_stack import check_stack

# --- seats ----------------------------------------------------------------------------------


@njit(cache=True)
def check_seats(state, cfg):
    n = cfg[CFG_NP]
    if state[rng_at(0)] == 0 and state[rng_at(1)] == 0 and state[rng_at(2)] == 0 and state[rng_at(3)] == 0:
        return error(V_RNG, 0)
    if state[TURN_PLAYER] >= n:
        return error(V_PLAYER, TURN_PLAYER)
    if state[FIRST] >= n:
        return error(V_PLAYER, FIRST)
    if state[C_NEXT] >= n:
        return error(V_PLAYER, C_NEXT)
    if state[WINNER] >= n:
        return error(V_PLAYER, WINNER)
    if state[C_ATT] >= n:
        return error(V_PLAYER, C_ATT)
    if state[C_DEF] >= n:
        return error(V_PLAYER, C_DEF)
    if state[BN_PLAYED] >> n != 0:
        return error(V_SEAT_SLOTS, n)
    for p in range(n, MAXP):
        if state[mat_spores_at(p)] or state[mat_nut_at(p)] or state[ctok_at(p)] or state[npaths_at(p)]:
            return error(V_SEAT_SLOTS, p)
        for i in range(3):
            if state[gatherer_at(p, i)] != 0:
                return error(V_LOCATION, p)
        for t in range(NUM_MUSHLING_KINDS):
            if state[hand_at(p, t)] != 0:
                return error(V_CARDS, t)
        for q in range(MAXP):
            for t in range(NUM_MUSHLING_KINDS):
                if state[known_at(p, q, t)] != 0 or state[known_at(q, p, t)] != 0:
                    return error(V_SEAT_SLOTS, p)
        for i in range(NUM_NUTRIENT_CARDS):
            if state[nseen_at(p, i)] != 0:
                return error(V_SEEN, p)
        for i in range(NUM_ITEM_TYPES):  # variant: emsporium
            if state[items_at(p, i)] != 0:
                return error(V_ITEMS, i)
        for h in range(NUM_HEROES):  # variant: hero_tavern, legends
            if state[heroes_at(p, h)] != 0:
                return error(V_HEROES, h)
        for k in range(2):
            if state[legend_deal_at(p, k)] != -1:
                return error(V_SEAT_SLOTS, p)
    ng = cfg[CFG_NG]
    tavern = on(cfg)
    for p in range(n):
        for i in range(3):
            g = state[gatherer_at(p, i)]
            if g >= ng and not (g == TAVERN and tavern):  # variant: hero_tavern (the Tavern)
                return error(V_LOCATION, p)
    return V_OK


# --- the turn -------------------------------------------------------------------------------


@njit(cache=True)
def _placed(state, p):
    """Gatherers of ``p`` placed in order (slots 0..k-1 on the board, the rest at the Colony),
    or -1 if they are not in that order."""
    k = 0
    while k < 3 and state[gatherer_at(p, k)] >= 0:
        k += 1
    for i in range(k, 3):
        if state[gatherer_at(p, i)] >= 0:
            return -1
    return k


@njit(cache=True)
def _gathering(state):
    """Variant: team: a gathering choice (``D_GATHER``) is the decision on top."""
    depth = decision_depth(state)
    return depth > 0 and decision_at(state, depth - 1, 0) == D_GATHER


@njit(cache=True)
def check_turn(state, cfg):
    n = cfg[CFG_NP]
    ph = state[PHASE]
    lim = cfg[CFG_TURN_LIMIT]
    turn = state[TURN]
    tp = state[TURN_PLAYER]
    first = state[FIRST]
    limit = HAND_LIMIT
    for p in range(n):  # variant: emsporium (a Pouch raises its owner's limit; items are never lost)
        limit = max(limit, hand_limit(state, p))
    if state[LAST_HAND] > limit:
        return error(V_TURN, 0)
    if turn > lim or (turn == lim and state[DONE] != DONE_LIMIT):
        return error(V_TURN, 1)
    if ph == PH_EXPLORE:
        if turn != 0 or state[ACTIONS] != 0 or state[DONE] != 0:
            return error(V_TURN, 2)
        # seats first, first + 1, ... have placed 3 gatherers, the explorer ``placed``, the rest none
        i = (tp - first) % n
        for j in range(n):
            p = (first + j) % n
            k = _placed(state, p)
            want = 3 if j < i else (state[PLACED] if j == i else 0)
            if k != want:
                return error(V_EXPLORE, p)
        return V_OK
    if ph != PH_PLACE and state[PLACED] != 0:
        return error(V_TURN, 3)
    if ph == PH_PLACE and _gathering(state) and state[PLACED] == 0:
        pass  # variant: team: the Gather Phase's choice is pending, the gatherers are still out
    elif ph == PH_PLACE and _placed(state, tp) != state[PLACED]:
        return error(V_EXPLORE, tp)
    # after the Explore Phase, turn t is played by first + t (the turn limit stops before the move)
    played = turn - 1 if state[DONE] == DONE_LIMIT else turn
    if tp != (first + played) % n:
        return error(V_TURN, 4)
    return V_OK


# --- the end --------------------------------------------------------------------------------


@njit(cache=True)
def check_end(state, cfg):
    n = cfg[CFG_NP]
    done = state[DONE]
    over = state[PHASE] == PH_OVER
    if over != (done != 0):
        return error(V_END, 0)
    if cfg[CFG_TEAM]:  # variant: team (15 per team; a Colony holds at most 10, check_team)
        return _check_end_team(state, cfg)
    rich = 0
    for p in range(n):
        if state[mat_nut_at(p)] >= WIN_NUTRIENTS:
            rich += 1
    if done == 0:
        if state[WINNER] != -1:
            return error(V_END, 1)
        if rich:
            return error(V_TOKENS, 0)
        return V_OK
    if decision_depth(state) != 0 or state[C_ACTIVE] != 0:
        return error(V_END, 2)
    for t in range(NUM_MUSHLING_KINDS):
        if state[limbo_at(t)] != 0:
            return error(V_END, 3)
    w = state[WINNER]
    if done == DONE_RULES:
        if w < 0 or state[mat_nut_at(w)] < WIN_NUTRIENTS or rich != 1:
            return error(V_END, 4)
    elif w != -1 or rich != 0:
        return error(V_END, 5)
    return V_OK


@njit(cache=True)
def _check_end_team(state, cfg):
    """check_end under the Team rules: the first team to hold 15 wins at once."""
    done = state[DONE]
    rich = -1  # the team holding 15, -1 none (both: -2)
    for t in range(2):
        if team_totals(state, t) >= TEAM_WIN:
            rich = t if rich == -1 else -2
    if done == 0:
        if state[WINNER] != -1:
            return error(V_END, 1)
        if rich != -1:
            return error(V_TOKENS, 0)
        return V_OK
    if decision_depth(state) != 0 or state[C_ACTIVE] != 0:
        return error(V_END, 2)
    for t in range(NUM_MUSHLING_KINDS):
        if state[limbo_at(t)] != 0:
            return error(V_END, 3)
    w = state[WINNER]
    if done == DONE_RULES:
        if w < 0 or rich != w % 2:
            return error(V_END, 4)
    elif w != -1 or rich != -1:
        return error(V_END, 5)
    return V_OK


# --- cards ----------------------------------------------------------------------------------


@njit(cache=True)
def _limbo_of_stack(state, work):
    """work[0:T] = the cards the abilities on the stack hold in flight."""
    for t in range(NUM_MUSHLING_KINDS):
        work[t] = 0
    for lv in range(decision_depth(state)):
        k = decision_at(state, lv, 0)
        if k == D_RUSSULA_PICK:
            work[RUSSULA] += 1
        elif k == D_RESOLVE:
            ab = decision_at(state, lv, 2)
            c = ABILITY_CARD[ab]
            if c >= 0:
                work[c] += 1
            elif c == CARD_X1 or c == CARD_PAIR:
                work[decision_at(state, lv, 3)] += 1
                if c == CARD_PAIR:
                    work[decision_at(state, lv, 4)] += 1


@njit(cache=True)
def check_cards(state, cfg, work):
    n = cfg[CFG_NP]
    # mushling cards: each type's copies, wherever they are
    for t in range(NUM_MUSHLING_KINDS):
        work[t] = state[discard_at(t)] + state[limbo_at(t)] + state[carea_at(t)]
        for p in range(MAXP):
            work[t] += state[hand_at(p, t)]
    nd = state[DECK_N]
    for i in range(nd):
        work[state[deck_at(i)]] += 1
    for i in range(nd, NUM_MUSHLING_CARDS):
        if state[deck_at(i)] != 0:
            return error(V_PILE, i)
    for side in range(2):
        for c in (state[c_card_at(side)], state[c_repl_at(side)]):
            if c >= 0:
                work[c] += 1
    for t in range(NUM_MUSHLING_KINDS):
        if work[t] != cfg[cfg_copies_at(t)]:
            return error(V_CARDS, t)
    # the cards in flight are those of the abilities on the stack
    _limbo_of_stack(state, work)
    for t in range(NUM_MUSHLING_KINDS):
        if state[limbo_at(t)] != work[t]:
            return error(V_LIMBO, t)
    # knowledge: a lower bound of the other players' hands
    for v in range(n):
        for q in range(n):
            for t in range(NUM_MUSHLING_KINDS):
                k = state[known_at(v, q, t)]
                if k > state[hand_at(q, t)] or (v == q and k != 0):
                    return error(V_KNOWN, v * MAXP + q)
    # the public set a Witch's Hat put on top of the mushling deck: the top cards are among it
    tn = state[DECK_TOP_N]
    if tn > nd:
        return error(V_DECK_TOP, 0)
    s = 0
    for t in range(NUM_MUSHLING_KINDS):
        work[t] = state[deck_top_at(t)]
        s += work[t]
    if s < tn or (tn == 0 and s != 0):
        return error(V_DECK_TOP, 1)
    for i in range(nd - tn, nd):
        t = state[deck_at(i)]
        work[t] -= 1
        if work[t] < 0:
            return error(V_DECK_TOP, 2)
    # nutrient cards: the deck and discard pile hold them all; the public set on top is exact
    nn = state[NDECK_N]
    if nn > cfg[CFG_NNUT]:
        return error(V_NUTRIENT_CARDS, 0)
    for k in range(MAX_NUTRIENT_KINDS):
        work[k] = state[ndiscard_at(k)]
    for i in range(nn):
        work[state[ndeck_at(i)]] += 1
    for i in range(cfg[CFG_NNUT]):
        work[cfg[cfg_nut_deck_at(i)]] -= 1
    for k in range(MAX_NUTRIENT_KINDS):
        if work[k] != 0:
            return error(V_NUTRIENT_CARDS, k)
    for i in range(nn, NUM_NUTRIENT_CARDS):
        if state[ndeck_at(i)] != 0:
            return error(V_PILE, NUM_MUSHLING_CARDS + i)
    ntn = state[NDECK_TOP_N]
    if ntn > nn:
        return error(V_DECK_TOP, 3)
    for k in range(MAX_NUTRIENT_KINDS):
        work[k] = state[ndeck_top_at(k)]
    for i in range(nn - ntn, nn):
        work[state[ndeck_at(i)]] -= 1
    for k in range(MAX_NUTRIENT_KINDS):
        if work[k] != 0:
            return error(V_DECK_TOP, 4)
    for p in range(n):
        for i in range(nn, NUM_NUTRIENT_CARDS):
            if state[nseen_at(p, i)] != 0:
                return error(V_SEEN, p)
    return V_OK


# --- tokens ---------------------------------------------------------------------------------


@njit(cache=True)
def check_tokens(state, cfg, work):
    n = cfg[CFG_NP]
    ng = cfg[CFG_NG]
    if spore_supply(state, cfg) < 0 or nutrient_supply(state, cfg) < 0 or ctok_supply(state) < 0:
        return error(V_TOKENS, 0)
    # spores only in the seats' Spore Caves; nutrients only on the trees and the Willow
    for g in range(MAX_GATHER_LOCS):
        work[g] = 0
    for p in range(n):
        work[cfg[cfg_cave_at(p)]] |= 1
    for i in range(4):
        g = cfg[cfg_tree_at(i)]
        if g >= 0:
            work[g] |= 2
    work[cfg[CFG_WILLOW]] |= 4
    trig = state[BN_TRIGGER]
    for g in range(MAX_GATHER_LOCS):
        if state[loc_spores_at(g)] != 0 and (g >= ng or work[g] & 1 == 0):
            return error(V_TOKEN_PLACE, g)
        if state[loc_nut_at(g)] != 0 and (g >= ng or work[g] & 6 == 0):
            return error(V_TOKEN_PLACE, g)
        if (trig >> g) & 1 and (g >= ng or work[g] & 2 == 0):
            return error(V_TOKEN_PLACE, g)
    return V_OK


# --- paths ----------------------------------------------------------------------------------


@njit(cache=True)
def check_paths(state, cfg):
    n = cfg[CFG_NP]
    ne = cfg[CFG_NE]
    for p in range(MAXP):
        c = 0
        for e in range(ne):
            if cfg[cfg_permanent_at(e)] != p and (state[paths_at(e, 0)] == p + 1 or state[paths_at(e, 1)] == p + 1):
                c += 1
        if c != state[npaths_at(p)]:
            return error(V_PATH_COUNT, p)
        if c > MAX_PATHS:  # the 21st Path: its owner is asked to remove one (the top decision)
            depth = decision_depth(state)
            if depth == 0 or decision_at(state, depth - 1, 0) != D_REMOVE_OWN or decision_at(state, depth - 1, 1) != p:
                return error(V_PATH_COUNT, p)
    for e in range(MAX_EDGES):
        a = state[paths_at(e, 0)]
        b = state[paths_at(e, 1)]
        if e >= ne:
            if a != 0 or b != 0:
                return error(V_PLAYER, e)
            continue
        if a > n or b > n:
            return error(V_PLAYER, e)
        if a != 0 and a == b:
            return error(V_PATHS, e)
        q = cfg[cfg_permanent_at(e)]
        if q >= 0 and a != q + 1 and b != q + 1:
            return error(V_PATHS, e)
    return V_OK


# --- combat ---------------------------------------------------------------------------------


@njit(cache=True)
def check_combat(state, cfg):
    n = cfg[CFG_NP]
    if state[C_PASSES] > n:
        return error(V_COMBAT, 0)
    if not state[C_ACTIVE]:
        idle = (
            state[C_ATT] == -1
            and state[C_DEF] == -1
            and state[C_EDGE] == -1
            and state[C_WINNER] == -1
            and state[C_DEFENDED] == 0
            and state[C_REVEALED] == 0
            and state[C_SUB] == 0
            and (state[C_STAGE] == CS_REVEAL or state[C_STAGE] == CS_END)
        )
        for s in range(2):
            idle = idle and state[c_card_at(s)] == -1 and state[c_repl_at(s)] == -1
            idle = idle and state[c_bonus_at(s)] == 0 and state[c_nothief_at(s)] == 0
        for t in range(NUM_MUSHLING_KINDS):
            idle = idle and state[carea_at(t)] == 0
        return V_OK if idle else error(V_COMBAT, 1)
    att = state[C_ATT]
    dfd = state[C_DEF]
    if att < 0 or dfd < 0 or att == dfd or state[C_EDGE] < 0 or state[C_EDGE] >= cfg[CFG_NE]:
        return error(V_COMBAT, 2)
    st = state[C_STAGE]
    revealed = state[C_REVEALED] != 0
    defended = state[C_DEFENDED] != 0
    if revealed == (st == CS_REVEAL) or st == CS_END:
        return error(V_COMBAT, 3)
    e = state[C_EDGE]
    target = (state[paths_at(e, 0)] == dfd + 1 or state[paths_at(e, 1)] == dfd + 1) and cfg[cfg_permanent_at(e)] != dfd
    if is_teammate(cfg, att, dfd):  # variant: team (no friendly fire)
        return error(V_COMBAT_PATH, 2)
    won = revealed and state[C_WINNER] == 0
    if (
        not won and st <= CS_COMPARE and not target
    ):  # (after a defender's win its Liberty Cap's 21st Path may remove it)
        return error(V_COMBAT_PATH, 0)
    if won and target:
        return error(V_COMBAT_PATH, 1)
    if defended != (state[c_card_at(1)] >= 0):
        return error(V_COMBAT, 4)
    if revealed and state[c_card_at(0)] < 0:
        return error(V_COMBAT, 5)
    if not revealed and (state[C_WINNER] != -1 or state[C_SUB] != 0):
        return error(V_COMBAT, 6)
    if st == CS_REINF and not defended:
        return error(V_COMBAT, 7)
    if st >= CS_PUFF and state[C_WINNER] < 0:
        return error(V_COMBAT, 8)
    if revealed and not defended and state[C_WINNER] != 0:  # no defence: the attacker won at the reveal
        return error(V_COMBAT, 8)
    if defended and st <= CS_COMPARE and state[C_WINNER] != -1:
        return error(V_COMBAT, 8)
    sub = state[C_SUB]
    if (st == CS_REINF or st == CS_COMPARE) and sub != 0:
        return error(V_COMBAT, 9)
    if (st == CS_REACT_A or st == CS_REACT_D) and sub > 1:
        return error(V_COMBAT, 9)
    for s in range(2):
        r = state[c_repl_at(s)]
        if r >= 0 and (not revealed or state[c_card_at(s)] != DECEIVER or st == CS_AD and sub <= s):
            return error(V_COMBAT, 10)
        if state[c_nothief_at(s)] and st < CS_PUFF:
            return error(V_COMBAT, 11)
    for t in range(NUM_MUSHLING_KINDS):
        if state[carea_at(t)] != 0 and t != BLUE_OY and t != PINK_OY:
            return error(V_COMBAT, 12)
    # the bonuses are the reinforcements in the combat area plus combat tokens spent
    # (and, with the Tavern, the heroes' combat reactions: each hero at most once per combat)
    base = 2 * state[carea_at(BLUE_OY)] + 3 * state[carea_at(PINK_OY)]
    extra = state[c_bonus_at(0)] + state[c_bonus_at(1)] - base
    most = COMBAT_TOKENS
    if on(cfg):  # variant: hero_tavern
        for h in range(NUM_HEROES):
            best = 0
            for k in range(2):
                if is_reaction(cfg, h, k):
                    best = max(best, cfg[cfg_hero_amount_at(h, k)])
            most += best
    if extra < 0 or extra > most or (not defended and (base != 0 or extra != 0)):
        return error(V_COMBAT, 13)
    return V_OK


# --- the decision stack ---------------------------------------------------------------------

# --- the variants' cards: Emsporium items, Tavern heroes --------------------------------------


@njit(cache=True)
def check_items(state, cfg):
    """Emsporium (variant): each type's 2 item cards accounted for; deck slots above the top empty;
    the shop full in the Explore Phase while the item deck lasts."""
    c = validate_emsporium(state, cfg)
    if c != V_OK:
        return c
    for i in range(state[IDECK_N], NUM_ITEM_CARDS):
        if state[item_deck_at(i)] != 0:
            return error(V_ITEMS, state[item_deck_at(i)])
    if state[PHASE] == PH_EXPLORE and state[IDECK_N] > 0:  # a bought slot is refilled at its turn's end
        for s in range(SHOP):
            if state[shop_at(s)] < 0:
                return error(V_SHOP, s)
    return V_OK


@njit(cache=True)
def check_heroes(state, cfg):
    """Hero Tavern / Legends (variant): each hero once; the Legends deals those of the players
    with a ``D_LEGEND`` decision, the face-up heroes dealt once no deal is pending; deck slots
    above the top empty."""
    c = validate_tavern(state, cfg)
    if c != V_OK:
        return c
    for i in range(state[HDECK_N], NUM_HEROES):
        if state[hero_deck_at(i)] != 0:
            return error(V_HEROES, state[hero_deck_at(i)])
    if not on(cfg):
        return V_OK
    n = cfg[CFG_NP]
    depth = decision_depth(state)
    pending = 0
    for p in range(n):
        asked = False
        for lv in range(depth):
            if decision_at(state, lv, 0) == D_LEGEND and decision_at(state, lv, 1) == p:
                asked = True
        dealt = state[legend_deal_at(p, 0)] >= 0
        if dealt != (state[legend_deal_at(p, 1)] >= 0) or dealt != asked:
            return error(V_HEROES, max(state[legend_deal_at(p, 0)], state[legend_deal_at(p, 1)], 0))
        if asked:
            pending += 1
            for h in range(NUM_HEROES):  # a player still choosing holds no hero yet
                if state[heroes_at(p, h)]:
                    return error(V_HEROES, h)
        elif cfg[CFG_LEGENDS] and state[PHASE] == PH_EXPLORE and state[TURN] == 0 and depth > 0:
            kept = 0  # a player who chose holds the one kept
            for h in range(NUM_HEROES):
                kept += state[heroes_at(p, h)]
            if kept != 1:
                return error(V_HEROES, 0)
    for s in range(HERO_UP):  # the face-up heroes: none while deals are pending, else dealt while the deck lasts
        h = state[hero_up_at(s)]
        if pending and h >= 0:
            return error(V_HEROES, h)
        if not pending and h < 0 and state[HDECK_N] > 0:
            return error(V_HEROES, 0)
    return V_OK


# --- the Team variant and the 2-player game ----------------------------------------------------


@njit(cache=True)
def check_team(state, cfg, work):
    """Team / 2-player game (variant): the seat-to-agent map of these options; the Trade flag
    and the gathering choices only under the Team rules; 10 Nutrients per Colony; a pending
    Trade's offered card (or Spore Token) still the proposer's; the gathering choices those
    of the locations before the one asked, which the player can take from (the Team
    decisions' places on the stack: check_stack)."""
    two = cfg[CFG_AGENTS] != cfg[CFG_NP]
    for s in range(MAXP):
        if state[agent_of_at(s)] != (s % 2 if two else s):
            return error(V_TEAM, s)
    depth = decision_depth(state)
    gathering = _gathering(state)
    if cfg[CFG_TEAM] == 0:
        if state[TRADE_USED] != 0 or state[TRADE_OFFERS] != 0:
            return error(V_TEAM, 10)
        for g in range(MAX_GATHER_LOCS):
            if state[gather_take_at(g)] != 0:
                return error(V_TEAM, 11)
        return V_OK
    for p in range(MAXP):
        if state[mat_nut_at(p)] > WIN_NUTRIENTS:
            return error(V_TEAM, 12)
    if depth > 0 and decision_at(state, depth - 1, 0) == D_TRADE:
        back = decision_at(state, depth - 1, 3)
        if not holds(state, state[TURN_PLAYER], decision_at(state, depth - 1, 2)) or (
            back > 0 and not holds(state, teammate(state[TURN_PLAYER]), back - 1)
        ):
            return error(V_TEAM, 13)
    asked = MAX_GATHER_LOCS  # the location asked now (G: none, every choice is -1)
    if gathering:
        asked = decision_at(state, depth - 1, 3)
    for g in range(MAX_GATHER_LOCS):
        if g >= asked and state[gather_take_at(g)] != -1:
            return error(V_TEAM, 14)
    if gathering:
        p = decision_at(state, depth - 1, 1)
        subset = decision_at(state, depth - 1, 2)
        bonded_edges(state, cfg, p, work)
        if could_take(state, cfg, p, subset, asked, work) < 1:
            return error(V_TEAM, 15)
        for g in range(asked):
            if state[gather_take_at(g)] > could_take(state, cfg, p, subset, g, work):
                return error(V_TEAM, 14)
    return V_OK


# --- all groups -----------------------------------------------------------------------------


@njit(cache=True)
def validate(state, cfg, work):
    """0 if ``state`` is a position of this game the kernels can run on, else a V_* code times
    1000 plus a detail. The per-slot bounds (checked before) keep every index in its type's
    range; the groups below check the rest (one function per field group)."""
    c = check_seats(state, cfg)
    if c == V_OK:
        c = check_paths(state, cfg)
    if c == V_OK:  # before the groups that read the stack's arguments as types and levels
        c = check_stack(state, cfg)
    if c == V_OK:
        c = check_cards(state, cfg, work)
    if c == V_OK:
        c = check_tokens(state, cfg, work)
    if c == V_OK:
        c = check_combat(state, cfg)
    if c == V_OK:
        c = check_turn(state, cfg)
    if c == V_OK:
        c = check_end(state, cfg)
    if c == V_OK:
        c = check_items(state, cfg)  # variant: emsporium
    if c == V_OK:
        c = check_heroes(state, cfg)  # variant: hero_tavern, legends
    if c == V_OK:
        c = check_team(state, cfg, work)  # variant: team (and the 2-player game)
    return c
