"""Mycelium's ability effects: what each ability does when it resolves (``D_RESOLVE``, after
its Fly Agaric window, :mod:`.abilities`), and the two sub-decisions abilities ask for:
Russula's three placements (``D_RUSSULA_PICK``) and Magic Mushling's order (``D_ARRANGE``).
"""

from numba import njit

from mushgym.core import rng_below, shuffle_range

from .abilities import cancel_ability, drop_cancelled, release_cards, use_ability
from .board import has_path, remove_path
from .cards import (
    discard_onto_deck,
    draw_cards,
    draw_type_face_up,
    forget_deck_top,
    gain_public,
    hand_size,
    lose_hidden,
    shuffle_nutrients_all,
    spore_supply,
    witch_onto_deck,
)
from .combat import combat_player, start_combat
from .emsporium import spawn_bonus
from .gathering import start_gathering
from .layout import (
    A_PLACE_TAVERN,
    AB_AD_REACT,
    AB_BIRDS,
    AB_BUILD_PAIR,
    AB_BUILD_REMOVE,
    AB_CHICKEN_ATT,
    AB_CHICKEN_DEF,
    AB_DECEIVE,
    AB_FLY,
    AB_INKY,
    AB_LIBERTY,
    AB_MAGIC,
    AB_PARROT_ATT,
    AB_PARROT_VIEW,
    AB_PENNY,
    AB_PUFF,
    AB_REINF,
    AB_RUSSULA,
    AB_SPAWN,
    AB_THIEF_PAIR,
    AB_THIEF_STEAL,
    AB_TRUFFLE,
    AB_VEILED,
    AB_WITCH,
    ARRANGE_POSITION,
    ARRANGE_VIEWED,
    BLUE_OY,
    CFG_NG,
    CFG_NP,
    D_ARRANGE,
    D_INKY_GIVE,
    D_PLACE_PATH,
    DECK,
    DECK_N,
    MAXP,
    NDECK_N,
    NDECK_TOP_N,
    NIGHT,
    NUM_MUSHLING_KINDS,
    RESOLVE_ABILITY,
    RESOLVE_CANCELLED,
    RESOLVE_X1,
    RESOLVE_X2,
    RESOLVE_X3,
    RNG,
    RUSSULA_PICK_FIRST,
    RUSSULA_PICK_MADE,
    RUSSULA_PICK_SECOND,
    TAVERN,
    arrange_action,
    arrange_args,
    c_bonus_at,
    c_nothief_at,
    c_repl_at,
    discard_at,
    gatherer_at,
    hand_at,
    known_at,
    loc_spores_at,
    mat_spores_at,
    ndeck_at,
    nseen_at,
    paths_at,
    place_gatherer_action,
    place_gatherer_args,
    pop_decision,
    push_decision,
    set_top_arg,
    top_arg,
    top_player,
)
from .tavern import on


@njit(cache=True)
def ability_effect(state, cfg, u, ab, x1, x2, x3, work):
    """What ability ``ab`` of user ``u`` does (its arguments: layout.ABILITY_ARGS)."""
    n = cfg[CFG_NP]
    if ab == AB_FLY:
        cancel_ability(state, x1)
    elif ab == AB_DECEIVE:
        if state[discard_at(x1)] > 0:
            state[discard_at(x1)] -= 1
            gain_public(state, cfg, u, x1)
    elif ab == AB_AD_REACT:
        t = draw_type_face_up(state)
        if t >= 0:
            state[c_repl_at(x1)] = t
    elif ab == AB_CHICKEN_DEF:
        draw_cards(state, u, 3)
    elif ab == AB_CHICKEN_ATT:
        draw_cards(state, u, 1)
    elif ab == AB_PUFF:
        state[c_nothief_at(1 - x1)] = 1
    elif ab == AB_LIBERTY:
        push_decision(state, D_PLACE_PATH, u, 1)
    elif ab == AB_BIRDS:
        start_gathering(state, cfg, u, x1, work)  # variant: team (optional gathering asks first)
    elif ab == AB_PARROT_VIEW:
        for t in range(NUM_MUSHLING_KINDS):
            state[known_at(u, x1, t)] = state[hand_at(x1, t)]
    elif ab == AB_PARROT_ATT:
        if state[paths_at(x1, x2)] != 0 and hand_size(state, u) > 0:
            start_combat(state, cfg, u, x1, x2)
    elif ab == AB_RUSSULA:
        state[gatherer_at(u, 0)] = x1
        state[gatherer_at(u, 1)] = x2
        state[gatherer_at(u, 2)] = x3
    elif ab == AB_VEILED:
        top = state[NDECK_N]
        for i in range(min(n, top)):
            state[nseen_at(u, top - 1 - i)] = 1
    elif ab == AB_INKY:
        if has_path(state, x2, x1):
            if hand_size(state, x1) >= 2:
                push_decision(state, D_INKY_GIVE, x1, u, x2, 0)
            else:
                remove_path(state, x1, x2)
    elif ab == AB_PENNY:
        remove_path(state, x1, x2)
    elif ab == AB_REINF:
        state[c_bonus_at(x2)] += 2 if x1 == BLUE_OY else 3
    elif ab == AB_BUILD_PAIR:
        push_decision(state, D_PLACE_PATH, u, 2)
    elif ab == AB_BUILD_REMOVE:
        if remove_path(state, u, x2) and spore_supply(state, cfg) > 0:
            state[mat_spores_at(u)] += 1
    elif ab == AB_SPAWN:
        amount = (2 if x1 == NIGHT else 1) + spawn_bonus(state, u)  # variant: emsporium (Pickaxe)
        s = spore_supply(state, cfg)
        amount = amount if amount < s else s
        state[loc_spores_at(x2)] += amount
    elif ab == AB_MAGIC:
        top = state[NDECK_N]
        kk = min(n, top)
        for i in range(kk):
            for p in range(MAXP):
                state[nseen_at(p, top - 1 - i)] = 1 if p == u else 0
        if kk >= 2:
            push_decision(state, D_ARRANGE, u, 0, kk)
            if kk > state[NDECK_TOP_N]:  # the public set on top gets mixed with unknown cards
                forget_deck_top(state, True)
    elif ab == AB_TRUFFLE:
        if x1 == 0:
            discard_onto_deck(state)
            shuffle_range(state, DECK, state[DECK_N], RNG)
            forget_deck_top(state, False)
        else:
            shuffle_nutrients_all(state)
    elif ab == AB_WITCH:
        witch_onto_deck(state, x1 == 1)
    elif ab == AB_THIEF_PAIR:
        if state[loc_spores_at(x3)] > 0:
            state[loc_spores_at(x3)] -= 1
            state[mat_spores_at(u)] += 1
    elif ab == AB_THIEF_STEAL:
        v = combat_player(state, 1 - x1)
        hs = hand_size(state, v)
        if hs > 0:
            r = rng_below(state, RNG, hs)
            for t in range(NUM_MUSHLING_KINDS):
                c = state[hand_at(v, t)]
                if r < c:
                    lose_hidden(state, cfg, v, t, u)
                    state[hand_at(u, t)] += 1
                    state[known_at(v, u, t)] += 1
                    break
                r -= c


@njit(cache=True)
def resolve_process(state, cfg, work):
    """The ability on top of the stack resolves (its Fly Agaric window is closed): cancelled,
    nothing happens; else its effect. Then its cards leave limbo (Truffle and Witch's Hat do
    not shuffle themselves in)."""
    u = top_player(state)
    ab = top_arg(state, RESOLVE_ABILITY)
    x1 = top_arg(state, RESOLVE_X1)
    x2 = top_arg(state, RESOLVE_X2)
    x3 = top_arg(state, RESOLVE_X3)
    cancelled = top_arg(state, RESOLVE_CANCELLED)
    pop_decision(state)
    if cancelled:
        drop_cancelled(state, ab, x1, x2)
        return
    ability_effect(state, cfg, u, ab, x1, x2, x3, work)
    release_cards(state, ab, x1, x2, False)


# --- Russula: place or replace the 3 gatherers (3 choices, then the ability) -----------------


@njit(cache=True)
def russula_pick_mask(state, cfg, p, mask, work):
    """Any location of the Explore and Place Phases ("Place/replace all your Gatherer
    Mushlings"): the gather locations, and the Hero Tavern with the variant."""
    for g in range(cfg[CFG_NG]):
        mask[place_gatherer_action(g)] = 1
    if on(cfg):  # variant: hero_tavern
        mask[A_PLACE_TAVERN] = 1
        return cfg[CFG_NG] + 1
    return cfg[CFG_NG]


@njit(cache=True)
def russula_pick_step(state, cfg, p, a, work):
    i = top_arg(state, RUSSULA_PICK_MADE)
    g = TAVERN if a == A_PLACE_TAVERN else place_gatherer_args(a)  # variant: hero_tavern
    if i < 2:
        set_top_arg(state, RUSSULA_PICK_FIRST + i, g)
        set_top_arg(state, RUSSULA_PICK_MADE, i + 1)
    else:
        l0 = top_arg(state, RUSSULA_PICK_FIRST)
        l1 = top_arg(state, RUSSULA_PICK_SECOND)
        pop_decision(state)
        use_ability(state, cfg, p, AB_RUSSULA, l0, l1, g)


# --- Magic Mushling: the viewed Nutrient Cards put back in the player's order -------------------


@njit(cache=True)
def arrange_mask(state, cfg, p, mask, work):
    c = 0
    for j in range(top_arg(state, ARRANGE_POSITION), top_arg(state, ARRANGE_VIEWED)):
        mask[arrange_action(j)] = 1
        c += 1
    return c


@njit(cache=True)
def arrange_step(state, cfg, p, a, work):
    """The viewed card at position ``j`` goes next from the top (position ``i``)."""
    i = top_arg(state, ARRANGE_POSITION)
    kk = top_arg(state, ARRANGE_VIEWED)
    j = arrange_args(a)
    top = state[NDECK_N] - 1
    x = state[ndeck_at(top - i)]
    state[ndeck_at(top - i)] = state[ndeck_at(top - j)]
    state[ndeck_at(top - j)] = x
    if i + 1 >= kk - 1:
        pop_decision(state)
    else:
        set_top_arg(state, ARRANGE_POSITION, i + 1)
