"""Mycelium's combat: an attack on a Path, the face-down cards (``D_ATT_CARD``,
``D_DEFEND``), the reveal, the reinforcement round (``D_REINF``), the comparison and the
revealed cards' reactions, stage by stage (the ``D_COMBAT`` marker at the bottom of the
stack; its stage in the ``c_*`` fields).
"""

from numba import njit

from .abilities import play_card
from .board import any_build_edge, connected_to_own, remove_path
from .cards import ctok_supply, draw_cards, gain_public, hand_card_mask, hand_size, lose_hidden, may_hold, to_discard
from .emsporium import combat_bonus
from .layout import (
    A_HERO,
    A_NO_DEFENSE,
    A_PASS,
    A_REINF,
    AB_AD_REACT,
    AB_CHICKEN_ATT,
    AB_CHICKEN_DEF,
    AB_LIBERTY,
    AB_PUFF,
    AB_REINF,
    AB_THIEF_STEAL,
    BLUE_OY,
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
    CFG_NP,
    CHICKEN,
    CS_AD,
    CS_COMPARE,
    CS_END,
    CS_PUFF,
    CS_REACT_A,
    CS_REACT_D,
    CS_REINF,
    CS_REVEAL,
    D_ATT_CARD,
    D_COMBAT,
    D_DEFEND,
    D_REINF,
    D_USE,
    DECEIVER,
    LIBERTY,
    NUM_HEROES,
    NUM_MUSHLING_KINDS,
    PARASOL,
    PINK_OY,
    PUFF,
    SHIITAKE,
    TURN_PLAYER,
    c_bonus_at,
    c_card_at,
    c_nothief_at,
    c_repl_at,
    card_args,
    carea_at,
    cfg_combat_at,
    cfg_permanent_at,
    combat_token_action,
    combat_token_args,
    ctok_at,
    discard_at,
    hand_at,
    hero_args,
    paths_at,
    pop_decision,
    push_decision,
    reinforce_action,
    reinforce_args,
)
from .tavern import has_combat_reaction, reinf_mask, use_hero
from .team import is_teammate


@njit(cache=True)
def start_combat(state, cfg, att, e, slot):
    d = state[paths_at(e, slot)] - 1
    state[C_ACTIVE] = 1
    state[C_ATT] = att
    state[C_DEF] = d
    state[C_EDGE] = e
    for s in range(2):
        state[c_card_at(s)] = -1
        state[c_repl_at(s)] = -1
        state[c_bonus_at(s)] = 0
        state[c_nothief_at(s)] = 0
    state[C_DEFENDED] = 0
    state[C_REVEALED] = 0
    state[C_STAGE] = CS_REVEAL
    state[C_SUB] = 0
    state[C_PASSES] = 0
    state[C_WINNER] = -1
    push_decision(state, D_COMBAT, att)
    push_decision(state, D_ATT_CARD, att)


@njit(cache=True)
def rep_card(state, side):
    r = state[c_repl_at(side)]
    return r if r >= 0 else state[c_card_at(side)]


@njit(cache=True)
def is_thief(t):
    return t == PARASOL or t == SHIITAKE


@njit(cache=True)
def combat_player(state, side):
    return state[C_ATT] if side == 0 else state[C_DEF]


@njit(cache=True)
def attackable(state, cfg, p, e, slot, remote):
    q = state[paths_at(e, slot)] - 1
    if q < 0 or q == p or cfg[cfg_permanent_at(e)] == q:
        return False
    if is_teammate(cfg, p, q):  # variant: team (no friendly fire)
        return False
    return remote or connected_to_own(state, cfg, p, e)


@njit(cache=True)
def reinf_eligible(state, cfg, p):
    if state[ctok_at(p)] > 0 or has_combat_reaction(state, cfg, p):  # variant: hero_tavern
        return True
    return may_hold(state, cfg, p, BLUE_OY, PINK_OY)


@njit(cache=True)
def steals(state, side):
    """The Thief's reaction "Steal 1 random Mushling Card from the other player if revealed in
    combat" belongs to ``side``'s card: only an initial face-down card (rulebook: "Reaction
    abilities that say 'if revealed in combat' can not be used unless they belong to the initial
    face-down cards"; the Parasol's note: "only triggered when this card is the one that is
    played face-down"), never a card an Amethyst Deceiver drew."""
    return is_thief(state[c_card_at(side)])


@njit(cache=True)
def react_ability(state, cfg, side):
    """Step-6 reaction available to the revealed card of ``side`` (-1 none). A card an Amethyst
    Deceiver drew is the revealed card (its "If you reveal this card" reactions: Chicken of the
    Woods, Liberty Cap), but a Thief it drew does not steal (:func:`steals`)."""
    t = rep_card(state, side)
    p = combat_player(state, side)
    won = state[C_WINNER] == side
    if is_thief(t):
        if not steals(state, side):
            return -1
        if state[c_nothief_at(side)] == 0 and hand_size(state, combat_player(state, 1 - side)) > 0:
            return AB_THIEF_STEAL
        return -1
    if t == CHICKEN:
        if side == 1:
            return AB_CHICKEN_DEF
        return AB_CHICKEN_ATT if won else -1
    if t == LIBERTY and won and any_build_edge(state, cfg, p):
        return AB_LIBERTY
    return -1


# --- the stages (each call advances the combat marker on top by one step; it may push prompts)


@njit(cache=True)
def combat_process(state, cfg, work):
    """Advance the combat marker on top of the stack by one stage (may push prompts)."""
    st = state[C_STAGE]
    if st == CS_REVEAL:
        stage_reveal(state)
    elif st == CS_AD:
        stage_deceivers(state)
    elif st == CS_REINF:
        stage_reinforcements(state, cfg)
    elif st == CS_COMPARE:
        stage_compare(state, cfg)
    elif st == CS_PUFF:
        stage_puffballs(state)
    elif st == CS_REACT_A or st == CS_REACT_D:
        stage_reactions(state, cfg, st)
    else:
        end_combat(state, cfg)


@njit(cache=True)
def stage_reveal(state):
    """1. The face-down cards are revealed; no defence: the Path is removed."""
    state[C_REVEALED] = 1
    if state[C_DEFENDED] == 0:
        remove_path(state, state[C_DEF], state[C_EDGE])
        state[C_WINNER] = 0
    state[C_STAGE] = CS_AD
    state[C_SUB] = 0


@njit(cache=True)
def stage_deceivers(state):
    """2. A revealed Amethyst Deceiver may draw a card in its place (attacker, then defender)."""
    sub = state[C_SUB]
    state[C_SUB] = sub + 1
    if sub < 2:
        if (sub == 0 or state[C_DEFENDED]) and state[c_card_at(sub)] == DECEIVER:
            push_decision(state, D_USE, combat_player(state, sub), AB_AD_REACT, sub)
    else:
        state[C_SUB] = 0
        if state[C_DEFENDED]:
            state[C_STAGE] = CS_REINF
            state[C_PASSES] = 0
            state[C_NEXT] = state[TURN_PLAYER]
        else:
            state[C_STAGE] = CS_PUFF


@njit(cache=True)
def stage_reinforcements(state, cfg):
    """3. The reinforcement round: players asked in turn until all pass in a row."""
    n = cfg[CFG_NP]
    if state[C_PASSES] >= n:
        state[C_STAGE] = CS_COMPARE
    else:
        p = state[C_NEXT]
        state[C_NEXT] = (p + 1) % n
        if reinf_eligible(state, cfg, p):
            push_decision(state, D_REINF, p)
        else:
            state[C_PASSES] += 1


@njit(cache=True)
def stage_compare(state, cfg):
    """4. The higher combat value wins (a tie: the defender); the loser's Path is removed."""
    att = state[C_ATT]
    dfd = state[C_DEF]
    ta = rep_card(state, 0)
    td = rep_card(state, 1)
    va = cfg[cfg_combat_at(ta)] + state[c_bonus_at(0)] + combat_bonus(state, att, 0)  # variant: emsporium
    vd = cfg[cfg_combat_at(td)] + state[c_bonus_at(1)] + combat_bonus(state, dfd, 1)
    if va > vd:
        state[C_WINNER] = 0
        remove_path(state, dfd, state[C_EDGE])
        if ctok_supply(state) > 0:
            state[ctok_at(att)] += 1
    else:
        state[C_WINNER] = 1
        draw_cards(state, dfd, 1)
    state[C_STAGE] = CS_PUFF
    state[C_SUB] = 0


@njit(cache=True)
def stage_puffballs(state):
    """5. A Common Puffball may cancel the other side's Thief (one that would steal: :func:`steals`)."""
    sub = state[C_SUB]
    state[C_SUB] = sub + 1
    if sub < 2:
        if state[C_DEFENDED] and rep_card(state, sub) == PUFF and steals(state, 1 - sub):
            push_decision(state, D_USE, combat_player(state, sub), AB_PUFF, sub)
    else:
        state[C_SUB] = 0
        state[C_STAGE] = CS_REACT_A


@njit(cache=True)
def stage_reactions(state, cfg, st):
    """6. The revealed cards' reactions: the attacker's, then the defender's."""
    side = 0 if st == CS_REACT_A else 1
    if state[C_SUB] == 0 and (side == 0 or state[C_DEFENDED]):
        state[C_SUB] = 1
        ab = react_ability(state, cfg, side)
        if ab >= 0:
            push_decision(state, D_USE, combat_player(state, side), ab, side)
    else:
        state[C_SUB] = 0
        state[C_STAGE] = CS_REACT_D if side == 0 else CS_END


@njit(cache=True)
def end_combat(state, cfg):
    """The combat cards go to the discard pile (an Amethyst Deceiver's draw to its owner's hand)."""
    for side in range(2):
        p = combat_player(state, side)
        c = state[c_card_at(side)]
        if c >= 0:
            to_discard(state, c, 1)
            state[c_card_at(side)] = -1
        r = state[c_repl_at(side)]
        if r >= 0:
            gain_public(state, cfg, p, r)
            state[c_repl_at(side)] = -1
    for t in range(NUM_MUSHLING_KINDS):
        state[discard_at(t)] += state[carea_at(t)]
        state[carea_at(t)] = 0
    state[C_ACTIVE] = 0
    state[C_REVEALED] = 0
    state[C_DEFENDED] = 0
    state[C_WINNER] = -1
    state[C_ATT] = -1
    state[C_DEF] = -1
    state[C_EDGE] = -1
    for s in range(2):
        state[c_bonus_at(s)] = 0
        state[c_nothief_at(s)] = 0
    pop_decision(state)


# --- the combat's decisions --------------------------------------------------------------------


@njit(cache=True)
def attack_card_mask(state, cfg, p, mask, work):
    return hand_card_mask(state, p, mask)


@njit(cache=True)
def attack_card_step(state, cfg, p, a, work):
    t = card_args(a)
    pop_decision(state)
    lose_hidden(state, cfg, p, t, -1)
    state[c_card_at(0)] = t
    if hand_size(state, state[C_DEF]) > 0:
        push_decision(state, D_DEFEND, state[C_DEF])


@njit(cache=True)
def defend_mask(state, cfg, p, mask, work):
    mask[A_NO_DEFENSE] = 1
    return hand_card_mask(state, p, mask) + 1


@njit(cache=True)
def defend_step(state, cfg, p, a, work):
    pop_decision(state)
    if a != A_NO_DEFENSE:
        t = card_args(a)
        lose_hidden(state, cfg, p, t, -1)
        state[c_card_at(1)] = t
        state[C_DEFENDED] = 1


@njit(cache=True)
def reinforce_mask(state, cfg, p, mask, work):
    c = 1
    mask[A_PASS] = 1
    for s in range(2):
        if state[hand_at(p, BLUE_OY)] > 0:
            mask[reinforce_action(0, s)] = 1
            c += 1
        if state[hand_at(p, PINK_OY)] > 0:
            mask[reinforce_action(1, s)] = 1
            c += 1
        if state[ctok_at(p)] > 0:
            mask[combat_token_action(s)] = 1
            c += 1
    return c + reinf_mask(state, cfg, p, mask)  # variant: hero_tavern (combat reactions)


@njit(cache=True)
def reinforce_step(state, cfg, p, a, work):
    pop_decision(state)
    if a == A_PASS:
        state[C_PASSES] += 1
    elif A_HERO <= a < A_HERO + 2 * NUM_HEROES:  # variant: hero_tavern (a hero's combat reaction)
        h, hk = hero_args(a)
        use_hero(state, cfg, p, h, hk, work)
    elif A_REINF <= a < A_REINF + 4:
        o, s = reinforce_args(a)
        t = BLUE_OY if o == 0 else PINK_OY
        state[C_PASSES] = 0
        play_card(state, cfg, p, t, AB_REINF, t, s, 0)
    else:
        s = combat_token_args(a)
        state[C_PASSES] = 0
        state[ctok_at(p)] -= 1
        state[c_bonus_at(s)] += 1
