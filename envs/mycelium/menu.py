"""Mycelium's turn player's own decisions (the decision stack empty): placing gatherers in the
Explore and Place Phases, the Draw Phase's discards, and the Action Phase menu (Build,
Exchange, Attack, the cards' abilities, and the variants' actions), its legal actions and
what each does.
"""

from numba import njit

from .abilities import play_card, play_pair, to_limbo
from .board import any_build_edge, has_path
from .cards import hand_card_mask, hand_size, lose_public, pay_capacity, spore_supply, to_discard
from .combat import attackable, start_combat
from .emsporium import bow_reach, can_start_buy, start_buy
from .exchange import exchange_menu, start_exchange
from .gathering import start_gathering
from .layout import (
    A_ATTACK,
    A_BPAIR,
    A_BREMOVE,
    A_BUILD,
    A_BUY,
    A_DECEIVE,
    A_END,
    A_EXCHANGE,
    A_HERO,
    A_MAGIC,
    A_PATTACK,
    A_PLACE_TAVERN,
    A_PVIEW,
    A_RUSSULA,
    A_SPAWN,
    A_TPAIR,
    A_TRADE,
    A_TRUFFLE,
    A_VEILED,
    A_WITCH,
    AB_BUILD_PAIR,
    AB_BUILD_REMOVE,
    AB_DECEIVE,
    AB_MAGIC,
    AB_PARROT_ATT,
    AB_PARROT_VIEW,
    AB_SPAWN,
    AB_THIEF_PAIR,
    AB_TRUFFLE,
    AB_VEILED,
    AB_WITCH,
    ACTIONS,
    BLEWIT,
    CFG_NE,
    CFG_NG,
    CFG_NP,
    CFG_TEAM,
    CHANT,
    D_PAY,
    D_RUSSULA_PICK,
    DECEIVER,
    DONE,
    MAGIC,
    MAX_ACTIONS_PER_TURN,
    MAX_EDGES,
    MAX_NUTRIENT_KINDS,
    MAXP,
    MOREL,
    NIGHT,
    NUM_CARD_TYPES,
    NUM_HEROES,
    NUM_MUSHLING_KINDS,
    PARASOL,
    PARROT,
    PH_DISCARD,
    PH_EXPLORE,
    PH_PLACE,
    PHASE,
    PLACED,
    RUSSULA,
    SHIITAKE,
    TAVERN,
    TRUFFLE,
    TURN_PLAYER,
    VEILED,
    WITCH,
    attack_action,
    attack_args,
    builder_pair_action,
    builder_pair_args,
    builder_remove_action,
    builder_remove_args,
    card_args,
    cfg_cave_at,
    cfg_permanent_at,
    deceive_action,
    deceive_args,
    discard_at,
    exchange_args,
    gatherer_at,
    hand_at,
    hero_args,
    loc_spores_at,
    ndiscard_at,
    parrot_attack_action,
    parrot_attack_args,
    parrot_view_action,
    parrot_view_args,
    place_gatherer_action,
    place_gatherer_args,
    push_decision,
    spawn_action,
    spawn_args,
    thief_pair_action,
    thief_pair_args,
    truffle_action,
    truffle_args,
    witch_action,
    witch_args,
)
from .tavern import menu_mask, on, tavern_gather, use_hero
from .team import trade_menu, trade_offer
from .turn import after_place


@njit(cache=True)
def allow(mask, a):
    mask[a] = 1
    return 1


@njit(cache=True)
def phase_mask(state, cfg, mask, work):
    """The legal actions of the turn player when no decision is pending."""
    ph = state[PHASE]
    p = state[TURN_PLAYER]
    c = 0
    if ph == PH_EXPLORE or ph == PH_PLACE:
        for g in range(cfg[CFG_NG]):
            c += allow(mask, place_gatherer_action(g))
        if on(cfg):  # variant: hero_tavern
            c += allow(mask, A_PLACE_TAVERN)
        return c
    if ph == PH_DISCARD:
        return hand_card_mask(state, p, mask)
    # Action Phase menu
    c += allow(mask, A_END)
    if cfg[CFG_TEAM]:  # variant: team
        c += trade_menu(state, cfg, p, mask)
    if pay_capacity(state, cfg, p) >= 3 and any_build_edge(state, cfg, p):
        c += allow(mask, A_BUILD)
    if can_start_buy(state, cfg, p, pay_capacity(state, cfg, p)):  # variant: emsporium
        c += allow(mask, A_BUY)
    c += menu_mask(state, cfg, p, mask)  # variant: hero_tavern
    c += exchange_mask(state, cfg, p, mask)
    c += attack_mask(state, cfg, p, mask, work)
    c += card_menu_mask(state, cfg, p, mask)
    if state[ACTIONS] >= MAX_ACTIONS_PER_TURN:  # the actions that can loop are bounded (RULES.md gap 12)
        c -= unset_looping(mask)
    return c


@njit(cache=True)
def looping(a):
    """Attacks and the Amethyst Deceiver's exchange: the Action Phase actions that can give back
    what they cost (a Thief's steal, a Chicken of the Woods' or a Deceiver's card, the card the
    exchange takes), so only they can repeat without end; 30 of them per Action Phase."""
    return (
        (A_ATTACK <= a < A_ATTACK + 2 * MAX_EDGES)
        or (A_PATTACK <= a < A_PATTACK + 2 * MAX_EDGES)
        or (A_DECEIVE <= a < A_DECEIVE + NUM_MUSHLING_KINDS)
    )


@njit(cache=True)
def unset_looping(mask):
    c = 0
    for first, size in ((A_ATTACK, 2 * MAX_EDGES), (A_PATTACK, 2 * MAX_EDGES), (A_DECEIVE, NUM_MUSHLING_KINDS)):
        for a in range(first, first + size):
            if mask[a]:
                mask[a] = 0
                c += 1
    return c


@njit(cache=True)
def exchange_mask(state, cfg, p, mask):
    """Exchange: 2 cards of a Mushling Card Type for a card, or for a spore in a Spore Cave."""
    return exchange_menu(state, cfg, p, mask, spore_supply(state, cfg) > 0)


@njit(cache=True)
def discard_pile_size(state, d):
    """Cards in the mushling (0) or nutrient (1) discard pile."""
    s = 0
    if d == 0:
        for t in range(NUM_MUSHLING_KINDS):
            s += state[discard_at(t)]
    else:
        for k in range(MAX_NUTRIENT_KINDS):
            s += state[ndiscard_at(k)]
    return s


@njit(cache=True)
def attack_mask(state, cfg, p, mask, work):
    """Attack a Path connected to one's own (with a Bow: within its reach)."""
    c = 0
    if hand_size(state, p) > 0:
        bows = bow_reach(state, cfg, p, work)  # variant: emsporium (Bow: work[e] = within reach)
        for e in range(cfg[CFG_NE]):
            for s in range(2):
                if attackable(state, cfg, p, e, s, bows > 0 and work[e] == 1):
                    c += allow(mask, attack_action(e, s))
    return c


@njit(cache=True)
def card_menu_mask(state, cfg, p, mask):
    """The abilities of the cards in hand that are played from the Action Phase menu."""
    n = cfg[CFG_NP]
    ne = cfg[CFG_NE]
    c = 0
    if state[hand_at(p, DECEIVER)] > 0:
        for t in range(NUM_MUSHLING_KINDS):
            if state[discard_at(t)] > 0:
                c += allow(mask, deceive_action(t))
    if state[hand_at(p, PARROT)] > 0:
        for o in range(n - 1):
            c += allow(mask, parrot_view_action(o))
        if hand_size(state, p) >= 2:
            for e in range(ne):
                for s in range(2):
                    if attackable(state, cfg, p, e, s, True):
                        c += allow(mask, parrot_attack_action(e, s))
    if state[hand_at(p, RUSSULA)] > 0:
        c += allow(mask, A_RUSSULA)
    if state[hand_at(p, VEILED)] > 0:
        c += allow(mask, A_VEILED)
    c += builder_mask(state, cfg, p, mask)
    for w in range(2):
        if state[hand_at(p, NIGHT if w == 0 else MOREL)] > 0:
            for q in range(n):
                c += allow(mask, spawn_action(w, q))
    if state[hand_at(p, MAGIC)] > 0:
        c += allow(mask, A_MAGIC)
    for d in range(2):
        if state[hand_at(p, TRUFFLE)] > 0:
            c += allow(mask, truffle_action(d))
        if state[hand_at(p, WITCH)] > 0 and discard_pile_size(state, d) > 0:  # RULES.md gap 15
            c += allow(mask, witch_action(d))
    npa = state[hand_at(p, PARASOL)]
    nsh = state[hand_at(p, SHIITAKE)]
    for pair in range(3):
        ok = (pair == 0 and npa >= 2) or (pair == 1 and npa >= 1 and nsh >= 1) or (pair == 2 and nsh >= 2)
        if ok:
            for q in range(n):
                if state[loc_spores_at(cfg[cfg_cave_at(q)])] > 0:
                    c += allow(mask, thief_pair_action(pair, q))
    return c


@njit(cache=True)
def builder_mask(state, cfg, p, mask):
    """Builders: a pair for 2 free Paths, one to remove your own Path for a spore."""
    c = 0
    nch = state[hand_at(p, CHANT)]
    nbl = state[hand_at(p, BLEWIT)]
    if nch >= 2:
        c += allow(mask, builder_pair_action(0))
    if nch >= 1 and nbl >= 1:
        c += allow(mask, builder_pair_action(1))
    if nbl >= 2:
        c += allow(mask, builder_pair_action(2))
    if nch + nbl > 0:
        for e in range(cfg[CFG_NE]):
            if has_path(state, e, p) and cfg[cfg_permanent_at(e)] != p:
                if nch > 0:
                    c += allow(mask, builder_remove_action(0, e))
                if nbl > 0:
                    c += allow(mask, builder_remove_action(1, e))
    return c


# --- what the turn player's actions do ---------------------------------------------------------


@njit(cache=True)
def phase_step(state, cfg, a, work):
    """Apply the turn player's action when no decision is pending."""
    ph = state[PHASE]
    p = state[TURN_PLAYER]
    if ph == PH_EXPLORE or ph == PH_PLACE:
        state[gatherer_at(p, state[PLACED])] = (
            TAVERN if a == A_PLACE_TAVERN else place_gatherer_args(a)
        )  # variant: hero_tavern
        after_place(state, cfg)
    elif ph == PH_DISCARD:
        t = card_args(a)
        lose_public(state, cfg, p, t)
        to_discard(state, t, 1)
    else:
        step_action_phase(state, cfg, a, work)


@njit(cache=True)
def pair_types(kind_a, kind_b, pair):
    if pair == 0:
        return kind_a, kind_a
    if pair == 1:
        return kind_a, kind_b
    return kind_b, kind_b


@njit(cache=True)
def exchange_step(state, cfg, p, a):
    """Exchange: the 2 cards of the type (named next when there is a choice) to the discard
    pile, then a card drawn or a spore spawned."""
    ct, o = exchange_args(a)
    start_exchange(state, cfg, p, ct, o)


@njit(cache=True)
def step_action_phase(state, cfg, a, work):
    p = state[TURN_PLAYER]
    if a == A_END:
        tavern_gather(state, cfg, p)  # variant: hero_tavern (before the gatherers come home)
        start_gathering(state, cfg, p, 7, work)  # variant: team (optional gathering asks first)
        if state[DONE]:
            return
        state[PHASE] = PH_PLACE
        state[PLACED] = 0
        return
    if looping(a):
        state[ACTIONS] += 1
    if a == A_BUILD:
        push_decision(state, D_PAY, p, 0)
    elif a == A_BUY:  # variant: emsporium
        start_buy(state, p)
    elif A_HERO <= a < A_HERO + 2 * NUM_HEROES:  # variant: hero_tavern
        h, k = hero_args(a)
        use_hero(state, cfg, p, h, k, work)
    elif A_EXCHANGE <= a < A_EXCHANGE + NUM_CARD_TYPES * (1 + MAXP):
        exchange_step(state, cfg, p, a)
    elif A_ATTACK <= a < A_ATTACK + 2 * MAX_EDGES:
        e, s = attack_args(a)
        start_combat(state, cfg, p, e, s)
    elif A_TRADE <= a < A_TRADE + NUM_MUSHLING_KINDS + 1:  # variant: team
        trade_offer(state, cfg, p, a - A_TRADE)
    else:
        play_from_menu(state, cfg, p, a)


@njit(cache=True)
def play_from_menu(state, cfg, p, a):
    """A card (or a pair) played from the Action Phase menu for its ability."""
    if A_DECEIVE <= a < A_DECEIVE + NUM_MUSHLING_KINDS:
        play_card(state, cfg, p, DECEIVER, AB_DECEIVE, deceive_args(a), 0, 0)
    elif A_PVIEW <= a < A_PVIEW + MAXP - 1:
        q = (p + 1 + parrot_view_args(a)) % cfg[CFG_NP]
        play_card(state, cfg, p, PARROT, AB_PARROT_VIEW, q, 0, 0)
    elif A_PATTACK <= a < A_PATTACK + 2 * MAX_EDGES:
        e, s = parrot_attack_args(a)
        play_card(state, cfg, p, PARROT, AB_PARROT_ATT, e, s, 0)
    elif a == A_RUSSULA:
        to_limbo(state, cfg, p, RUSSULA)
        push_decision(state, D_RUSSULA_PICK, p, 0, 0, 0)
    elif a == A_VEILED:
        play_card(state, cfg, p, VEILED, AB_VEILED, 0, 0, 0)
    elif A_BPAIR <= a < A_BPAIR + 3:
        t1, t2 = pair_types(CHANT, BLEWIT, builder_pair_args(a))
        play_pair(state, cfg, p, t1, t2, AB_BUILD_PAIR, 0)
    elif A_BREMOVE <= a < A_BREMOVE + 2 * MAX_EDGES:
        b, e = builder_remove_args(a)
        t = CHANT if b == 0 else BLEWIT
        play_card(state, cfg, p, t, AB_BUILD_REMOVE, t, e, 0)
    elif A_SPAWN <= a < A_SPAWN + 2 * MAXP:
        w, q = spawn_args(a)
        t = NIGHT if w == 0 else MOREL
        play_card(state, cfg, p, t, AB_SPAWN, t, cfg[cfg_cave_at(q)], 0)
    elif a == A_MAGIC:
        play_card(state, cfg, p, MAGIC, AB_MAGIC, 0, 0, 0)
    elif A_TRUFFLE <= a < A_TRUFFLE + 2:
        play_card(state, cfg, p, TRUFFLE, AB_TRUFFLE, truffle_args(a), 0, 0)
    elif A_WITCH <= a < A_WITCH + 2:
        play_card(state, cfg, p, WITCH, AB_WITCH, witch_args(a), 0, 0)
    elif A_TPAIR <= a < A_TPAIR + 3 * MAXP:
        pair, q = thief_pair_args(a)
        t1, t2 = pair_types(PARASOL, SHIITAKE, pair)
        play_pair(state, cfg, p, t1, t2, AB_THIEF_PAIR, cfg[cfg_cave_at(q)])
