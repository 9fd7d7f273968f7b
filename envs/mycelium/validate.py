"""Mycelium's compiled state check (the ``validate`` kernel of ``mushgym.Game.validate``).

The layout's per-slot bounds (rules.py) keep every slot in its type's range; this kernel
checks what depends on the options and on several slots at once: the rules of
``MyceliumGame.check_invariants`` (which names the broken one in Python, slowly) and the
shape of every position the kernels can reach, so that a state is either one the game
could be in or refused. One function per field group, each returning 0 or a ``V_*`` code
times 1000 plus a detail (a seat, a type, a stack level); :data:`VALIDATION_ERRORS` says
what each code means. No allocation (counts go to the ``work`` area).

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
``check_stack``     the decision stack: slots above its top cleared, each entry's player and
                    arguments by kind, where each kind may sit (a combat's prompts above its
                    marker, payments and Russula's picks alone, Fly Agaric windows above the
                    ability they concern), the top entry a decision the player to act can
                    answer (the kernels' ``advance`` has nothing left to do); the variants'
                    kinds: a Buy (``D_BUY``, spent <= paid) alone in the Action Phase, the hero
                    picks (``D_HERO_PICK``) alone after the Gather Phase, the Legends deals
                    (``D_LEGEND``, one per player in turn order) before the Explore Phase;
                    ``mycelium_v1``'s Exchange (``D_EXCHANGE``) alone in the Action Phase, of
                    the turn player, its first card of its type, with a card left to name
``check_items``     Emsporium: each item type's 2 cards owned, in the shop or in the item deck
                    (none without the variant, none in an absent seat), empty deck slots above
                    its top
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
``check_stack`` places the Team decisions (``D_TRADE``: the turn player's teammate answering,
alone in the Action Phase; ``D_GATHER``: on top, in the Gather Phase's place (the Place Phase
before its first gatherer, above the hero picks), a Bird's Nest's Nutrient Card Phase, or a
hero's gathering in the Action Phase); ``check_turn`` lets the turn player's gatherers stay
out while its Gather Phase's choice is pending.
"""

import numpy as np
from numba import njit

from . import emsporium as _EM
from . import tavern as _TV
from . import exchange as _EX   # mycelium_v1
from . import team as _TM
from .rules import (
    CFG_BY_TYPE, D_EXCHANGE, cfg_card_type_at,
    AB_DECEIVE, AB_MAGIC, AB_PARROT_ATT, AB_RUSSULA, AB_TRUFFLE, AB_VEILED, AB_WITCH, CHICKEN, L, LIBERTY, PUFF,
    REACTION_ABILITIES,
    AD, ABILITY_ARGS, ABILITY_CARD, ACTIONS, AB_AD_REACT, AB_BIRDS, AB_BUILD_PAIR, AB_BUILD_REMOVE, AB_CHICKEN_ATT,
    AB_CHICKEN_DEF, AB_FLY, AB_INKY, AB_LIBERTY, AB_PARROT_VIEW, AB_PENNY, AB_PUFF, AB_REINF, AB_SPAWN,
    AB_THIEF_PAIR, AB_THIEF_STEAL, BLEWIT, BLUE_OY, BN_PLAYED, BN_TRIGGER, C_ACTIVE, C_ATT, C_DEF, C_DEFENDED,
    C_EDGE, C_NEXT, C_PASSES, C_REVEALED, C_STAGE, C_SUB, C_WINNER, CANCEL_COL, CARD_PAIR, CARD_X1,
    CFG_AGENTS, CFG_EMS, CFG_HOLDERS, CFG_LEGENDS, CFG_NE, CFG_NG, CFG_NNUT, CFG_NP, CFG_TEAM, CFG_TURN_LIMIT,
    CFG_WILLOW, CHANT, COMBAT_TOKENS, CS_AD, CS_COMPARE, CS_END, CS_PUFF, CS_REACT_A, CS_REACT_D, CS_REINF, CS_REVEAL,
    D_ARRANGE, D_ATT_CARD, D_BN, D_BUY, D_COMBAT, D_DEFEND, D_FA, D_GATHER, D_HERO_PICK, D_INKY_GIVE, D_LEGEND,
    D_PATHWIN, D_PAY, D_PLACE_PATH, D_REINF, D_REMOVE_OWN, D_RESOLVE, D_RUSSULA_PICK, D_TRADE, D_USE, DECISION_ARGS,
    DECK_N, DECK_TOP_N, DONE, DONE_LIMIT, DONE_RULES, E, FIRST, G, HAND_LIMIT, LAST_HAND, MAGIC, MAX_PATHS,
    MAXP, MOREL, NC, NDECK_N, NDECK_TOP_N, NIGHT, NK, NN, NO_CARD, PARASOL, PH_ACTION, PH_DISCARD, PH_EXPLORE,
    PH_NUTRIENT, PH_OVER, PH_PLACE, PHASE, PINK_OY, PLACED, RUSSULA, SHIITAKE, T, TAVERN, TP, TRADE_USED, TURN,
    WIN_NUTRIENTS, WINNER, HDECK_N, HERO_UP, IDECK_N, NH, NI, NIC, agent_of_at, arg_ok, c_bonus_at, c_card_at,
    c_nothief_at, c_repl_at, carea_at, cfg_cave_at, cfg_copies_at, cfg_hero_amount_at, gather_take_at, hero_deck_at,
    hero_up_at, heroes_at, item_deck_at, items_at, legend_deal_at, V_HEROES, V_ITEMS, V_TEAM,
    cfg_nut_deck_at, cfg_permanent_at, cfg_tree_at, ctok_at, ctok_supply, deck_at, deck_top_at, decision_at, decision_depth,
    discard_at, gatherer_at, hand_at, hand_size, known_at, limbo_at, loc_nut_at, loc_spores_at, mat_nut_at,
    mat_spores_at, ndeck_at, ndeck_top_at, ndiscard_at, npaths_at, nseen_at, nutrient_supply, paths_at, bonded_edges,
    prompt_live, rng_at, spore_supply,
)

# codes (a code times 1000 plus a detail is returned; 0 = a consistent state)
(V_OK, V_PLAYER, V_LOCATION, V_CARDS, V_NUTRIENT_CARDS, V_DECK_TOP, V_TOKENS, V_COMBAT, V_KIND, V_ARG,
 V_ARRANGE, V_RNG, V_USE, V_SEAT_SLOTS, V_TURN, V_EXPLORE, V_END, V_LIMBO, V_KNOWN, V_PILE, V_SEEN,
 V_TOKEN_PLACE, V_PATHS, V_PATH_COUNT, V_STACK_CLEAR, V_STACK, V_FA, V_TOP) = range(28)

VALIDATION_ERRORS = {
    V_RNG: "the random generator's state is all zero",
    V_PLAYER: "a seat, a Path owner or a decision's player is not a player of this {n}-player game (slot {d})",
    V_LOCATION: "a gatherer of player {d} is on no location of this board",
    V_CARDS: "the mushling cards of type {d}{name} do not add up to the deck's copies (or lie in an absent seat's hand)",
    V_NUTRIENT_CARDS: "the nutrient deck and discard pile do not hold the game's nutrient cards (kind {d})",
    V_DECK_TOP: "a Witch's Hat's public set on top of a deck is not what the deck's top holds",
    V_TOKENS: "more tokens on mats and locations than the supply holds, or a player with 10 Nutrients (a team with "
              "15 under the Team rules) in a running game",
    V_COMBAT: "the combat fields are inconsistent (players, edge, cards, stage, bonuses; idle values outside a combat)",
    V_KIND: "a decision kind is misplaced on the stack (stack entry {d})",
    V_ARG: "decision stack entry {d} has an argument outside its kind's range",
    V_ARRANGE: "decision stack entry {d} (arrange nutrient cards) names more cards than the deck holds",
    V_USE: "decision stack entry {d} offers an ability that is not a revealed card's reaction, or not its own",
    V_SEAT_SLOTS: "a slot of a seat beyond the player count is not empty (detail: the seat)",
    V_TURN: "the phase, turn, turn player, gatherers placed or actions used do not fit together",
    V_EXPLORE: "the gatherers placed do not follow the Explore/Place Phase (player {d})",
    V_END: "the end of the game is inconsistent (phase, winner, Nutrients, a pending decision or combat after the end)",
    V_LIMBO: "the cards of type {d}{name} in flight are not those of the abilities on the decision stack",
    V_KNOWN: "a player 'knows' a card that another player (detail: viewer * 4 + holder) does not hold",
    V_PILE: "a deck slot above the deck's top is not empty",
    V_SEEN: "a player has seen a nutrient card above the nutrient deck's top, or is an absent seat",
    V_TOKEN_PLACE: "tokens lie on a location the rules never put them on (location {d})",
    V_PATHS: "the Paths on edge {d} are impossible (two of one player, or a permanent Colony Path missing)",
    V_PATH_COUNT: "player {d}'s count of Paths is not the Paths on the board, or a 21st Path is not being removed",
    V_STACK_CLEAR: "a decision-stack entry above the top is not cleared, or the depth is impossible",
    V_STACK: "decision stack entry {d} does not fit the phase, the combat or the entries below it",
    V_FA: "the Fly Agaric window or Fly Agaric at stack entry {d} does not concern an ability below it",
    V_TOP: "the decision to take is one the game never asks (a finished step, or one with no answer)",
    # the variants' codes (emsporium.py, tavern.py, team.py)
    V_ITEMS: "the Emsporium item cards of type {d}{name} are not the variant's 2 copies (owned by the players, "
             "in the shop, in the item deck; none without the variant or in an absent seat), or the item deck's "
             "slots above its top are not empty",
    V_HEROES: "hero {d}{name} is not exactly once (none without the Tavern) among the players' heroes, the "
              "face-up heroes, the hero deck and the Legends deals, or the deals and face-up heroes do not fit "
              "the Legends decisions",
    V_TEAM: "the Team fields do not fit this game's options (detail: 0-3 the seat whose agent_of is wrong; "
            "10 a Trade flag, 11 a gathering choice outside the Team rules; 12 a Colony above 10 Nutrients; "
            "13 a Trade offer of a card the proposer does not hold; 14 a gathering choice not before the location "
            "asked; 15 a gathering asked where nothing can be taken) (detail {d})",
}
assert len(VALIDATION_ERRORS) == V_TEAM and V_ITEMS == V_TOP + 1 and V_HEROES == V_ITEMS + 1 and V_TEAM == V_HEROES + 1

_DETAIL = 1000


@njit(cache=True)
def _err(code, detail):
    return code * _DETAIL + detail


# --- seats ----------------------------------------------------------------------------------

@njit(cache=True)
def check_seats(state, cfg):
    n = cfg[CFG_NP]
    if state[rng_at(0)] == 0 and state[rng_at(1)] == 0 and state[rng_at(2)] == 0 and state[rng_at(3)] == 0:
        return _err(V_RNG, 0)
    if state[TP] >= n:
        return _err(V_PLAYER, TP)
    if state[FIRST] >= n:
        return _err(V_PLAYER, FIRST)
    if state[C_NEXT] >= n:
        return _err(V_PLAYER, C_NEXT)
    if state[WINNER] >= n:
        return _err(V_PLAYER, WINNER)
    if state[C_ATT] >= n:
        return _err(V_PLAYER, C_ATT)
    if state[C_DEF] >= n:
        return _err(V_PLAYER, C_DEF)
    if state[BN_PLAYED] >> n != 0:
        return _err(V_SEAT_SLOTS, n)
    for p in range(n, MAXP):
        if state[mat_spores_at(p)] or state[mat_nut_at(p)] or state[ctok_at(p)] or state[npaths_at(p)]:
            return _err(V_SEAT_SLOTS, p)
        for i in range(3):
            if state[gatherer_at(p, i)] != 0:
                return _err(V_LOCATION, p)
        for t in range(T):
            if state[hand_at(p, t)] != 0:
                return _err(V_CARDS, t)
        for q in range(MAXP):
            for t in range(T):
                if state[known_at(p, q, t)] != 0 or state[known_at(q, p, t)] != 0:
                    return _err(V_SEAT_SLOTS, p)
        for i in range(NN):
            if state[nseen_at(p, i)] != 0:
                return _err(V_SEEN, p)
        for i in range(NI):   # variant: emsporium
            if state[items_at(p, i)] != 0:
                return _err(V_ITEMS, i)
        for h in range(NH):   # variant: hero_tavern, legends
            if state[heroes_at(p, h)] != 0:
                return _err(V_HEROES, h)
        for k in range(2):
            if state[legend_deal_at(p, k)] != -1:
                return _err(V_SEAT_SLOTS, p)
    ng = cfg[CFG_NG]
    tavern = _TV.on(cfg)
    for p in range(n):
        for i in range(3):
            g = state[gatherer_at(p, i)]
            if g >= ng and not (g == TAVERN and tavern):   # variant: hero_tavern (the Tavern)
                return _err(V_LOCATION, p)
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
    tp = state[TP]
    first = state[FIRST]
    limit = HAND_LIMIT
    for p in range(n):   # variant: emsporium (a Pouch raises its owner's limit; items are never lost)
        limit = max(limit, _EM.hand_limit(state, p))
    if state[LAST_HAND] > limit:
        return _err(V_TURN, 0)
    if turn > lim or (turn == lim and state[DONE] != DONE_LIMIT):
        return _err(V_TURN, 1)
    if ph == PH_EXPLORE:
        if turn != 0 or state[ACTIONS] != 0 or state[DONE] != 0:
            return _err(V_TURN, 2)
        # seats first, first + 1, ... have placed 3 gatherers, the explorer ``placed``, the rest none
        i = (tp - first) % n
        for j in range(n):
            p = (first + j) % n
            k = _placed(state, p)
            want = 3 if j < i else (state[PLACED] if j == i else 0)
            if k != want:
                return _err(V_EXPLORE, p)
        return V_OK
    if ph != PH_PLACE and state[PLACED] != 0:
        return _err(V_TURN, 3)
    if ph == PH_PLACE and _gathering(state) and state[PLACED] == 0:
        pass   # variant: team: the Gather Phase's choice is pending, the gatherers are still out
    elif ph == PH_PLACE and _placed(state, tp) != state[PLACED]:
        return _err(V_EXPLORE, tp)
    # after the Explore Phase, turn t is played by first + t (the turn limit stops before the move)
    played = turn - 1 if state[DONE] == DONE_LIMIT else turn
    if tp != (first + played) % n:
        return _err(V_TURN, 4)
    return V_OK


# --- the end --------------------------------------------------------------------------------

@njit(cache=True)
def check_end(state, cfg):
    n = cfg[CFG_NP]
    done = state[DONE]
    over = state[PHASE] == PH_OVER
    if over != (done != 0):
        return _err(V_END, 0)
    if cfg[CFG_TEAM]:   # variant: team (15 per team; a Colony holds at most 10, check_team)
        return _check_end_team(state, cfg)
    rich = 0
    for p in range(n):
        if state[mat_nut_at(p)] >= WIN_NUTRIENTS:
            rich += 1
    if done == 0:
        if state[WINNER] != -1:
            return _err(V_END, 1)
        if rich:
            return _err(V_TOKENS, 0)
        return V_OK
    if decision_depth(state) != 0 or state[C_ACTIVE] != 0:
        return _err(V_END, 2)
    for t in range(T):
        if state[limbo_at(t)] != 0:
            return _err(V_END, 3)
    w = state[WINNER]
    if done == DONE_RULES:
        if w < 0 or state[mat_nut_at(w)] < WIN_NUTRIENTS or rich != 1:
            return _err(V_END, 4)
    elif w != -1 or rich != 0:
        return _err(V_END, 5)
    return V_OK


@njit(cache=True)
def _check_end_team(state, cfg):
    """check_end under the Team rules: the first team to hold 15 wins at once."""
    done = state[DONE]
    rich = -1   # the team holding 15, -1 none (both: -2)
    for t in range(2):
        if _TM.team_totals(state, t) >= _TM.TEAM_WIN:
            rich = t if rich == -1 else -2
    if done == 0:
        if state[WINNER] != -1:
            return _err(V_END, 1)
        if rich != -1:
            return _err(V_TOKENS, 0)
        return V_OK
    if decision_depth(state) != 0 or state[C_ACTIVE] != 0:
        return _err(V_END, 2)
    for t in range(T):
        if state[limbo_at(t)] != 0:
            return _err(V_END, 3)
    w = state[WINNER]
    if done == DONE_RULES:
        if w < 0 or rich != w % 2:
            return _err(V_END, 4)
    elif w != -1 or rich != -1:
        return _err(V_END, 5)
    return V_OK


# --- cards ----------------------------------------------------------------------------------

@njit(cache=True)
def _limbo_of_stack(state, work):
    """work[0:T] = the cards the abilities on the stack hold in flight."""
    for t in range(T):
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
    for t in range(T):
        work[t] = state[discard_at(t)] + state[limbo_at(t)] + state[carea_at(t)]
        for p in range(MAXP):
            work[t] += state[hand_at(p, t)]
    nd = state[DECK_N]
    for i in range(nd):
        work[state[deck_at(i)]] += 1
    for i in range(nd, NC):
        if state[deck_at(i)] != 0:
            return _err(V_PILE, i)
    for side in range(2):
        for c in (state[c_card_at(side)], state[c_repl_at(side)]):
            if c >= 0:
                work[c] += 1
    for t in range(T):
        if work[t] != cfg[cfg_copies_at(t)]:
            return _err(V_CARDS, t)
    # the cards in flight are those of the abilities on the stack
    _limbo_of_stack(state, work)
    for t in range(T):
        if state[limbo_at(t)] != work[t]:
            return _err(V_LIMBO, t)
    # knowledge: a lower bound of the other players' hands
    for v in range(n):
        for q in range(n):
            for t in range(T):
                k = state[known_at(v, q, t)]
                if k > state[hand_at(q, t)] or (v == q and k != 0):
                    return _err(V_KNOWN, v * MAXP + q)
    # the public set a Witch's Hat put on top of the mushling deck: the top cards are among it
    tn = state[DECK_TOP_N]
    if tn > nd:
        return _err(V_DECK_TOP, 0)
    s = 0
    for t in range(T):
        work[t] = state[deck_top_at(t)]
        s += work[t]
    if s < tn or (tn == 0 and s != 0):
        return _err(V_DECK_TOP, 1)
    for i in range(nd - tn, nd):
        t = state[deck_at(i)]
        work[t] -= 1
        if work[t] < 0:
            return _err(V_DECK_TOP, 2)
    # nutrient cards: the deck and discard pile hold them all; the public set on top is exact
    nn = state[NDECK_N]
    if nn > cfg[CFG_NNUT]:
        return _err(V_NUTRIENT_CARDS, 0)
    for k in range(NK):
        work[k] = state[ndiscard_at(k)]
    for i in range(nn):
        work[state[ndeck_at(i)]] += 1
    for i in range(cfg[CFG_NNUT]):
        work[cfg[cfg_nut_deck_at(i)]] -= 1
    for k in range(NK):
        if work[k] != 0:
            return _err(V_NUTRIENT_CARDS, k)
    for i in range(nn, NN):
        if state[ndeck_at(i)] != 0:
            return _err(V_PILE, NC + i)
    ntn = state[NDECK_TOP_N]
    if ntn > nn:
        return _err(V_DECK_TOP, 3)
    for k in range(NK):
        work[k] = state[ndeck_top_at(k)]
    for i in range(nn - ntn, nn):
        work[state[ndeck_at(i)]] -= 1
    for k in range(NK):
        if work[k] != 0:
            return _err(V_DECK_TOP, 4)
    for p in range(n):
        for i in range(nn, NN):
            if state[nseen_at(p, i)] != 0:
                return _err(V_SEEN, p)
    return V_OK


# --- tokens ---------------------------------------------------------------------------------

@njit(cache=True)
def check_tokens(state, cfg, work):
    n = cfg[CFG_NP]
    ng = cfg[CFG_NG]
    if spore_supply(state, cfg) < 0 or nutrient_supply(state, cfg) < 0 or ctok_supply(state) < 0:
        return _err(V_TOKENS, 0)
    # spores only in the seats' Spore Caves; nutrients only on the trees and the Willow
    for g in range(G):
        work[g] = 0
    for p in range(n):
        work[cfg[cfg_cave_at(p)]] |= 1
    for i in range(4):
        g = cfg[cfg_tree_at(i)]
        if g >= 0:
            work[g] |= 2
    work[cfg[CFG_WILLOW]] |= 4
    trig = state[BN_TRIGGER]
    for g in range(G):
        if state[loc_spores_at(g)] != 0 and (g >= ng or work[g] & 1 == 0):
            return _err(V_TOKEN_PLACE, g)
        if state[loc_nut_at(g)] != 0 and (g >= ng or work[g] & 6 == 0):
            return _err(V_TOKEN_PLACE, g)
        if (trig >> g) & 1 and (g >= ng or work[g] & 2 == 0):
            return _err(V_TOKEN_PLACE, g)
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
            return _err(V_PATH_COUNT, p)
        if c > MAX_PATHS:   # the 21st Path: its owner is asked to remove one (the top decision)
            depth = decision_depth(state)
            if depth == 0 or decision_at(state, depth - 1, 0) != D_REMOVE_OWN or decision_at(state, depth - 1, 1) != p:
                return _err(V_PATH_COUNT, p)
    for e in range(E):
        a = state[paths_at(e, 0)]
        b = state[paths_at(e, 1)]
        if e >= ne:
            if a != 0 or b != 0:
                return _err(V_PLAYER, e)
            continue
        if a > n or b > n:
            return _err(V_PLAYER, e)
        if a != 0 and a == b:
            return _err(V_PATHS, e)
        q = cfg[cfg_permanent_at(e)]
        if q >= 0 and a != q + 1 and b != q + 1:
            return _err(V_PATHS, e)
    return V_OK


# --- combat ---------------------------------------------------------------------------------

@njit(cache=True)
def check_combat(state, cfg):
    n = cfg[CFG_NP]
    if state[C_PASSES] > n:
        return _err(V_COMBAT, 0)
    if not state[C_ACTIVE]:
        idle = (state[C_ATT] == -1 and state[C_DEF] == -1 and state[C_EDGE] == -1 and state[C_WINNER] == -1
                and state[C_DEFENDED] == 0 and state[C_REVEALED] == 0 and state[C_SUB] == 0
                and (state[C_STAGE] == CS_REVEAL or state[C_STAGE] == CS_END))
        for s in range(2):
            idle = idle and state[c_card_at(s)] == -1 and state[c_repl_at(s)] == -1
            idle = idle and state[c_bonus_at(s)] == 0 and state[c_nothief_at(s)] == 0
        for t in range(T):
            idle = idle and state[carea_at(t)] == 0
        return V_OK if idle else _err(V_COMBAT, 1)
    att = state[C_ATT]
    dfd = state[C_DEF]
    if att < 0 or dfd < 0 or att == dfd or state[C_EDGE] < 0 or state[C_EDGE] >= cfg[CFG_NE]:
        return _err(V_COMBAT, 2)
    st = state[C_STAGE]
    revealed = state[C_REVEALED] != 0
    defended = state[C_DEFENDED] != 0
    if revealed == (st == CS_REVEAL) or st == CS_END:
        return _err(V_COMBAT, 3)
    if defended != (state[c_card_at(1)] >= 0):
        return _err(V_COMBAT, 4)
    if revealed and state[c_card_at(0)] < 0:
        return _err(V_COMBAT, 5)
    if not revealed and (state[C_WINNER] != -1 or state[C_SUB] != 0):
        return _err(V_COMBAT, 6)
    if st == CS_REINF and not defended:
        return _err(V_COMBAT, 7)
    if st >= CS_PUFF and state[C_WINNER] < 0:
        return _err(V_COMBAT, 8)
    if revealed and not defended and state[C_WINNER] != 0:   # no defence: the attacker won at the reveal
        return _err(V_COMBAT, 8)
    if defended and st <= CS_COMPARE and state[C_WINNER] != -1:
        return _err(V_COMBAT, 8)
    sub = state[C_SUB]
    if (st == CS_REINF or st == CS_COMPARE) and sub != 0:
        return _err(V_COMBAT, 9)
    if (st == CS_REACT_A or st == CS_REACT_D) and sub > 1:
        return _err(V_COMBAT, 9)
    for s in range(2):
        r = state[c_repl_at(s)]
        if r >= 0 and (not revealed or state[c_card_at(s)] != AD or st == CS_AD and sub <= s):
            return _err(V_COMBAT, 10)
        if state[c_nothief_at(s)] and st < CS_PUFF:
            return _err(V_COMBAT, 11)
    for t in range(T):
        if state[carea_at(t)] != 0 and t != BLUE_OY and t != PINK_OY:
            return _err(V_COMBAT, 12)
    # the bonuses are the reinforcements in the combat area plus combat tokens spent
    # (and, with the Tavern, the heroes' combat reactions: each hero at most once per combat)
    base = 2 * state[carea_at(BLUE_OY)] + 3 * state[carea_at(PINK_OY)]
    extra = state[c_bonus_at(0)] + state[c_bonus_at(1)] - base
    most = COMBAT_TOKENS
    if _TV.on(cfg):   # variant: hero_tavern
        for h in range(NH):
            best = 0
            for k in range(2):
                if _TV.is_reaction(cfg, h, k):
                    best = max(best, cfg[cfg_hero_amount_at(h, k)])
            most += best
    if extra < 0 or extra > most or (not defended and (base != 0 or extra != 0)):
        return _err(V_COMBAT, 13)
    return V_OK


# --- the decision stack ---------------------------------------------------------------------

_, STACK_DEPTH, STACK_ARGS = L.stack
#: abilities played from the Action Phase menu (their entry sits at the bottom of the stack)
MENU_ABILITIES = np.array([AB_DECEIVE, AB_PARROT_VIEW, AB_PARROT_ATT, AB_RUSSULA, AB_VEILED, AB_BUILD_PAIR,
                           AB_BUILD_REMOVE, AB_SPAWN, AB_MAGIC, AB_TRUFFLE, AB_WITCH, AB_THIEF_PAIR], dtype=np.int64)


@njit(cache=True)
def _combat_player(state, side):
    return state[C_ATT] if side == 0 else state[C_DEF]


@njit(cache=True)
def _rep_card(state, side):
    r = state[c_repl_at(side)]
    return r if r >= 0 else state[c_card_at(side)]


@njit(cache=True)
def _reaction_fits(state, ab, side, user):
    """The reaction ``ab`` of combat side ``side`` by ``user`` fits the combat's stage and cards
    (a D_USE prompt or the ability's entry: both sit just above the combat marker)."""
    if not state[C_ACTIVE] or user != _combat_player(state, side):
        return False
    st = state[C_STAGE]
    sub = state[C_SUB]
    if ab == AB_AD_REACT:
        return st == CS_AD and sub == side + 1 and state[c_card_at(side)] == AD
    if ab == AB_PUFF:
        return st == CS_PUFF and sub == side + 1 and _rep_card(state, side) == PUFF
    if st != (CS_REACT_A if side == 0 else CS_REACT_D) or sub != 1:
        return False
    t = _rep_card(state, side)
    if ab == AB_CHICKEN_DEF:
        return side == 1 and t == CHICKEN
    if ab == AB_CHICKEN_ATT:
        return side == 0 and t == CHICKEN
    if ab == AB_LIBERTY:
        return t == LIBERTY
    if ab == AB_THIEF_STEAL:
        return t == PARASOL or t == SHIITAKE
    return False


@njit(cache=True)
def _below_is_window(state, target, lv):
    """Entry ``target`` (below ``lv``) is an ability in flight and everything between is its
    Fly Agaric window."""
    if target >= lv or decision_at(state, target, 0) != D_RESOLVE:
        return False
    for m in range(target + 1, lv):
        if decision_at(state, m, 0) != D_FA or decision_at(state, m, 2) != target:
            return False
    return True


@njit(cache=True)
def _entry_ok(state, cfg, lv, depth):
    """0 if stack entry ``lv`` fits where it is, else a V_* code."""
    n = cfg[CFG_NP]
    k = decision_at(state, lv, 0)
    p = decision_at(state, lv, 1)
    a0 = decision_at(state, lv, 2)
    a1 = decision_at(state, lv, 3)
    a2 = decision_at(state, lv, 4)
    top = lv == depth - 1
    ph = state[PHASE]
    tp = state[TP]
    active = state[C_ACTIVE] != 0
    if k == D_COMBAT:
        return V_OK if lv == 0 and active and p == state[C_ATT] else V_KIND
    if k == D_ATT_CARD:
        ok = lv == 1 and top and active and p == state[C_ATT] and state[c_card_at(0)] < 0
        return V_OK if ok and state[C_STAGE] == CS_REVEAL else V_KIND
    if k == D_DEFEND:
        ok = lv == 1 and top and active and p == state[C_DEF] and state[c_card_at(0)] >= 0
        return V_OK if ok and not state[C_DEFENDED] and state[C_STAGE] == CS_REVEAL else V_KIND
    if k == D_REINF:
        ok = lv == 1 and top and active and state[C_STAGE] == CS_REINF and state[C_PASSES] < n
        return V_OK if ok and state[C_NEXT] == (p + 1) % n else V_KIND
    if k == D_USE:
        ok = False
        for r in REACTION_ABILITIES:
            if a0 == r:
                ok = True
        if not ok or not (lv == 1 and top and _reaction_fits(state, a0, a1, p)):
            return V_USE
        return V_OK
    if k == D_BN:
        return V_OK if ph == PH_NUTRIENT and not active else V_KIND
    if k == D_LEGEND:   # variant: legends (before the Explore Phase: entry lv asks first + n - 1 - lv; first on top)
        if cfg[CFG_LEGENDS] == 0 or ph != PH_EXPLORE or p != (state[FIRST] + n - 1 - lv) % n:
            return V_KIND
        if state[legend_deal_at(p, 0)] < 0 or state[legend_deal_at(p, 1)] < 0:
            return V_ARG
        return V_OK
    if k == D_TRADE:   # variant: team (the turn player's offer, its teammate answers; from the Action Phase menu)
        ok = cfg[CFG_TEAM] != 0 and lv == 0 and top and ph == PH_ACTION and not active
        return V_OK if ok and p == _TM.teammate(tp) and state[TRADE_USED] != 0 else V_KIND
    if k == D_GATHER:   # variant: team (a gathering's choices: Gather Phase, Bird's Nest, a hero's gathering)
        if cfg[CFG_TEAM] == 0 or not top or active or a0 < 1:
            return V_KIND
        if ph == PH_PLACE:   # the Gather Phase's (above the hero picks of the same Gather Phase)
            below = lv == 0 or (lv == 1 and decision_at(state, 0, 0) == D_HERO_PICK)
            return V_OK if below and p == tp and state[PLACED] == 0 else V_KIND
        if ph == PH_ACTION:   # a hero's gathering, from the Action Phase menu
            return V_OK if lv == 0 and p == tp else V_KIND
        return V_OK if ph == PH_NUTRIENT else V_KIND   # a Bird's Nest's
    if k == D_HERO_PICK:   # variant: hero_tavern (after the Gather Phase, before the Place Phase's first gatherer;
        # variant: team: below the Gather Phase's gathering choice)
        top = top or (lv == depth - 2 and decision_at(state, depth - 1, 0) == D_GATHER)
        if not (_TV.on(cfg) and lv == 0 and top and ph == PH_PLACE and p == tp and state[PLACED] == 0 and not active):
            return V_KIND
        if a0 < 1 or a0 > state[ctok_at(p)] or a0 > _TV.heroes_available(state):
            return V_ARG
        return V_OK
    if k == D_BUY:   # variant: emsporium (a Buy from the Action Phase menu: payments, then items)
        if not (cfg[CFG_EMS] != 0 and lv == 0 and top and ph == PH_ACTION and p == tp and not active):
            return V_KIND
        if a1 > a0:   # spent <= paid
            return V_ARG
        return V_OK
    if k == D_EXCHANGE:   # mycelium_v1 (exchange.py): the Exchange's choice of cards, from the Action Phase menu
        ok = cfg[CFG_BY_TYPE] != 0 and lv == 0 and top and ph == PH_ACTION and p == tp and not active
        if not (ok and state[ACTIONS] >= 1):
            return V_KIND
        if a1 > n or (a2 > 0 and cfg[cfg_card_type_at(a2 - 1)] != a0):
            return V_ARG
        answers, _last = _EX.picks(state, cfg, p, a0, a2 - 1)
        return V_OK if answers >= 1 else V_TOP
    if ph != PH_ACTION and ph != PH_NUTRIENT:
        return V_KIND
    if k == D_PAY or k == D_RUSSULA_PICK or k == D_ARRANGE:
        if not (lv == 0 and top and ph == PH_ACTION and p == tp):
            return V_KIND
        if k == D_RUSSULA_PICK:   # picks not made yet are 0
            for j in range(a0, 2):
                if decision_at(state, lv, 3 + j) != 0:
                    return V_ARG
        if k == D_ARRANGE and not (2 <= a1 <= n and a0 + 1 < a1 <= state[NDECK_N]):
            return V_ARRANGE
        return V_OK
    if k == D_PLACE_PATH:
        if a0 < 1:
            return V_ARG
        if lv == 0:
            return V_OK if ph == PH_ACTION and p == tp and not active else V_KIND
        # Liberty Cap's Path, above the combat it won
        return V_OK if lv == 1 and active and state[C_STAGE] >= CS_REACT_A else V_KIND
    if k == D_REMOVE_OWN:
        return V_OK if top and state[npaths_at(p)] == MAX_PATHS + 1 else V_KIND
    if k == D_PATHWIN:
        return V_OK if a0 != p and ph == PH_ACTION else V_KIND
    if k == D_INKY_GIVE:
        return V_OK if a0 != p and ph == PH_ACTION else V_KIND
    if k == D_FA:   # a window of other players than the ability's user, each asked once
        if not _below_is_window(state, a0, lv) or decision_at(state, a0, 1) == p:
            return V_FA
        for m in range(a0 + 1, lv):
            if decision_at(state, m, 1) == p:
                return V_FA
        return V_OK
    # an ability in flight (D_RESOLVE): its card(s), user and where it may sit
    ab = a0
    x1 = a1
    x2 = a2
    x3 = decision_at(state, lv, 5)
    if ab == AB_FLY:
        if not _below_is_window(state, x1, lv) or decision_at(state, x1, CANCEL_COL) != 0:
            return V_FA
        return V_OK
    if ab == AB_AD_REACT or ab == AB_CHICKEN_DEF or ab == AB_CHICKEN_ATT or ab == AB_PUFF or ab == AB_LIBERTY \
            or ab == AB_THIEF_STEAL:
        return V_OK if lv == 1 and _reaction_fits(state, ab, x1, p) else V_USE
    if ab == AB_REINF:
        ok = lv == 1 and active and state[C_STAGE] == CS_REINF and (x1 == BLUE_OY or x1 == PINK_OY)
        return V_OK if ok else V_KIND
    if ab == AB_BIRDS:
        return V_OK if ph == PH_NUTRIENT and x1 >= 1 and not active else V_KIND
    if ab == AB_PENNY or ab == AB_INKY:
        return V_OK if x1 != p and ph == PH_ACTION else V_KIND
    for m in MENU_ABILITIES:
        if ab == m:
            if not (lv == 0 and ph == PH_ACTION and p == tp and not active):
                return V_KIND
            if ab == AB_PARROT_VIEW and x1 == p:
                return V_ARG
            if ab == AB_BUILD_REMOVE and x1 != CHANT and x1 != BLEWIT:
                return V_ARG
            if ab == AB_BUILD_PAIR and not (x1 <= x2 and (x1 == CHANT or x1 == BLEWIT) and (x2 == CHANT or x2 == BLEWIT)):
                return V_ARG
            if ab == AB_THIEF_PAIR and not (x1 <= x2 and (x1 == PARASOL or x1 == SHIITAKE)
                                            and (x2 == PARASOL or x2 == SHIITAKE)):
                return V_ARG
            if ab == AB_SPAWN or ab == AB_THIEF_PAIR:
                if ab == AB_SPAWN and x1 != NIGHT and x1 != MOREL:
                    return V_ARG
                cave = x2 if ab == AB_SPAWN else x3
                found = False
                for q in range(n):
                    if cfg[cfg_cave_at(q)] == cave:
                        found = True
                if not found:
                    return V_ARG
            return V_OK
    return V_KIND


@njit(cache=True)
def check_stack(state, cfg):
    n = cfg[CFG_NP]
    depth = decision_depth(state)
    for lv in range(depth, STACK_DEPTH):
        for j in range(2 + STACK_ARGS):
            if decision_at(state, lv, j) != 0:
                return _err(V_STACK_CLEAR, lv)
    ph = state[PHASE]
    if (ph == PH_EXPLORE or ph == PH_PLACE or ph == PH_DISCARD or ph == PH_OVER) and depth != 0:
        # variant: the Legends deals (Explore Phase, one per player) and the hero picks (Place Phase)
        kb = decision_at(state, 0, 0)
        legends = ph == PH_EXPLORE and kb == D_LEGEND and depth <= n
        picks = ph == PH_PLACE and kb == D_HERO_PICK and depth == 1
        # variant: team: the Gather Phase's gathering choice (above its hero picks, if any)
        kt = decision_at(state, depth - 1, 0)
        gathering = ph == PH_PLACE and kt == D_GATHER and (depth == 1 or (depth == 2 and kb == D_HERO_PICK))
        if not (legends or picks or gathering):
            return _err(V_STACK, 0)
    for lv in range(depth):
        k = decision_at(state, lv, 0)
        if decision_at(state, lv, 1) >= n:
            return _err(V_PLAYER, lv)
        for i in range(STACK_ARGS):
            code = DECISION_ARGS[k, i]
            v = decision_at(state, lv, 2 + i)
            if k == D_RESOLVE and 1 <= i <= 3:
                code = ABILITY_ARGS[decision_at(state, lv, 2), i - 1]
            if not arg_ok(state, cfg, v, code, lv):
                return _err(V_ARG, lv)
        if k == D_USE:   # a revealed card's reaction
            ok = False
            for r in REACTION_ABILITIES:
                if decision_at(state, lv, 2) == r:
                    ok = True
            if not ok:
                return _err(V_USE, lv)
    for lv in range(depth):   # (every entry's arguments in range first: the placement reads others')
        c = _entry_ok(state, cfg, lv, depth)
        if c != V_OK:
            return _err(c, lv)
    # a combat in progress has its marker at the bottom, and its face-down cards chosen in turn
    if state[C_ACTIVE]:
        if depth == 0 or decision_at(state, 0, 0) != D_COMBAT:
            return _err(V_STACK, 0)
        if state[C_STAGE] == CS_REVEAL:   # waiting for the attacker's or the defender's card
            kt = decision_at(state, depth - 1, 0)
            if depth != 2 or (kt != D_ATT_CARD and kt != D_DEFEND):
                return _err(V_STACK, 1)
    # the top: a decision the kernels' advance stops at, with an answer
    if state[DONE]:
        return V_OK
    if depth == 0:
        tp = state[TP]
        if ph == PH_NUTRIENT or (ph == PH_DISCARD and hand_size(state, tp) <= _EM.hand_limit(state, tp)):
            return _err(V_TOP, 0)
        return V_OK
    kt = decision_at(state, depth - 1, 0)
    if kt == D_RESOLVE or kt == D_COMBAT:
        return _err(V_TOP, depth - 1)
    if kt == D_BN and cfg[CFG_HOLDERS]:
        # Bird's Nest asked of its holder (reaction_prompts='holders'): whether it is held is
        # hidden from the others, and a redeal of what a player cannot see (perturb_hidden,
        # determinize) may move the card; the rest of the prompt's condition is public
        q = decision_at(state, depth - 1, 1)
        on = False
        for i in range(3):
            g = state[gatherer_at(q, i)]
            if g >= 0 and (state[BN_TRIGGER] >> g) & 1:
                on = True
        if not on or (state[BN_PLAYED] >> q) & 1:
            return _err(V_TOP, depth - 1)
    elif not prompt_live(state, cfg):
        return _err(V_TOP, depth - 1)
    if kt == D_ATT_CARD and hand_size(state, decision_at(state, depth - 1, 1)) == 0:
        return _err(V_TOP, depth - 1)
    return V_OK


# --- the variants' cards: Emsporium items, Tavern heroes --------------------------------------

@njit(cache=True)
def check_items(state, cfg):
    """Emsporium (variant): each type's 2 item cards accounted for; deck slots above the top empty."""
    c = _EM.validate_emsporium(state, cfg)
    if c != V_OK:
        return c
    for i in range(state[IDECK_N], NIC):
        if state[item_deck_at(i)] != 0:
            return _err(V_ITEMS, state[item_deck_at(i)])
    return V_OK


@njit(cache=True)
def check_heroes(state, cfg):
    """Hero Tavern / Legends (variant): each hero once; the Legends deals those of the players
    with a ``D_LEGEND`` decision, the face-up heroes dealt once no deal is pending; deck slots
    above the top empty."""
    c = _TV.validate_tavern(state, cfg)
    if c != V_OK:
        return c
    for i in range(state[HDECK_N], NH):
        if state[hero_deck_at(i)] != 0:
            return _err(V_HEROES, state[hero_deck_at(i)])
    if not _TV.on(cfg):
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
            return _err(V_HEROES, max(state[legend_deal_at(p, 0)], state[legend_deal_at(p, 1)], 0))
        if asked:
            pending += 1
            for h in range(NH):   # a player still choosing holds no hero yet
                if state[heroes_at(p, h)]:
                    return _err(V_HEROES, h)
        elif cfg[CFG_LEGENDS] and state[PHASE] == PH_EXPLORE and state[TURN] == 0 and depth > 0:
            kept = 0   # a player who chose holds the one kept
            for h in range(NH):
                kept += state[heroes_at(p, h)]
            if kept != 1:
                return _err(V_HEROES, 0)
    for s in range(HERO_UP):   # the face-up heroes: none while deals are pending, else dealt while the deck lasts
        h = state[hero_up_at(s)]
        if pending and h >= 0:
            return _err(V_HEROES, h)
        if not pending and h < 0 and state[HDECK_N] > 0:
            return _err(V_HEROES, 0)
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
            return _err(V_TEAM, s)
    depth = decision_depth(state)
    gathering = _gathering(state)
    if cfg[CFG_TEAM] == 0:
        if state[TRADE_USED] != 0:
            return _err(V_TEAM, 10)
        for g in range(G):
            if state[gather_take_at(g)] != 0:
                return _err(V_TEAM, 11)
        return V_OK
    for p in range(MAXP):
        if state[mat_nut_at(p)] > WIN_NUTRIENTS:
            return _err(V_TEAM, 12)
    if depth > 0 and decision_at(state, depth - 1, 0) == D_TRADE:
        if not _TM.holds(state, state[TP], decision_at(state, depth - 1, 2)):
            return _err(V_TEAM, 13)
    asked = G   # the location asked now (G: none, every choice is -1)
    if gathering:
        asked = decision_at(state, depth - 1, 3)
    for g in range(G):
        if g >= asked and state[gather_take_at(g)] != -1:
            return _err(V_TEAM, 14)
    if gathering:
        p = decision_at(state, depth - 1, 1)
        subset = decision_at(state, depth - 1, 2)
        bonded_edges(state, cfg, p, work)
        if _TM.could_take(state, cfg, p, subset, asked, work) < 1:
            return _err(V_TEAM, 15)
        for g in range(asked):
            if state[gather_take_at(g)] > _TM.could_take(state, cfg, p, subset, g, work):
                return _err(V_TEAM, 14)
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
    if c == V_OK:   # before the groups that read the stack's arguments as types and levels
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
        c = check_items(state, cfg)   # variant: emsporium
    if c == V_OK:
        c = check_heroes(state, cfg)   # variant: hero_tavern, legends
    if c == V_OK:
        c = check_team(state, cfg, work)   # variant: team (and the 2-player game)
    return c
