"""Mycelium's state check of the decision stack (``check_stack``, one of :mod:`.validate`'s
field groups): slots above its top cleared, each entry's player and arguments by kind
(:data:`.layout.DECISION_ARGS`, from the kinds' declaration), where each kind may sit (one
``<kind>_fits`` function per kind, dispatched by the generated ``kind_fits``), and the top
entry a decision the player to act can answer.
"""

import numpy as np
from numba import njit

from .abilities import is_cancelled
from .cards import hand_size, pay_capacity
from .combat import combat_player, rep_card, steals
from .decisions import arg_ok, prompt_live
from .emsporium import cheapest_in_shop, hand_limit
from .exchange import picks
from .layout import (
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
    ABILITY_ARGS,
    ARRANGE_POSITION,
    ARRANGE_VIEWED,
    BLEWIT,
    BLUE_OY,
    BN_PLAYED,
    BN_TRIGGER,
    BUY_PAID,
    BUY_SPENT,
    C_ACTIVE,
    C_ATT,
    C_DEF,
    C_DEFENDED,
    C_NEXT,
    C_PASSES,
    C_STAGE,
    C_SUB,
    CFG_EMS,
    CFG_HOLDERS,
    CFG_LEGENDS,
    CFG_NP,
    CFG_TEAM,
    CHANT,
    CHICKEN,
    CS_AD,
    CS_PUFF,
    CS_REACT_A,
    CS_REACT_D,
    CS_REINF,
    CS_REVEAL,
    D_ATT_CARD,
    D_BN,
    D_COMBAT,
    D_DEFEND,
    D_FA,
    D_GATHER,
    D_HERO_PICK,
    D_LEGEND,
    D_RESOLVE,
    D_USE,
    DECEIVER,
    DECISION_ARGS,
    DECISION_KINDS,
    DONE,
    EXCHANGE_CHOICE_FIRST,
    EXCHANGE_CHOICE_OPTION,
    EXCHANGE_CHOICE_TYPE,
    FIRST,
    FLY_AGARIC_LEVEL,
    GATHER_SUBSET,
    HERO_PICK_LEFT,
    INKY_GIVE_RECEIVER,
    LIBERTY,
    MAX_PATHS,
    MOREL,
    NDECK_N,
    NIGHT,
    PARASOL,
    PATH_WINDOW_BUILDER,
    PAY_PAID,
    PH_ACTION,
    PH_DISCARD,
    PH_EXPLORE,
    PH_NUTRIENT,
    PH_OVER,
    PH_PLACE,
    PHASE,
    PINK_OY,
    PLACE_PATH_LEFT,
    PLACED,
    PUFF,
    REACTION_ABILITIES,
    RESOLVE_ABILITY,
    RESOLVE_X1,
    RESOLVE_X2,
    RESOLVE_X3,
    RUSSULA_PICK_FIRST,
    RUSSULA_PICK_MADE,
    SHIITAKE,
    STATE,
    TRADE_OFFERED,
    TRADE_OFFERS,
    TRADE_RETURNED,
    TRADE_USED,
    TURN_PLAYER,
    USE_ABILITY,
    USE_SIDE,
    c_card_at,
    cfg_card_type_at,
    cfg_cave_at,
    ctok_at,
    decision_arg,
    decision_at,
    decision_depth,
    gatherer_at,
    legend_deal_at,
    npaths_at,
)
from .tavern import heroes_available, on
from .team import teammate
from .validate_codes import V_ARG, V_ARRANGE, V_FA, V_KIND, V_OK, V_PLAYER, V_STACK, V_STACK_CLEAR, V_TOP, V_USE, error

_, STACK_DEPTH, STACK_ARGS = STATE.stack
#: abilities played from the Action Phase menu (their entry sits at the bottom of the stack)
MENU_ABILITIES = np.array(
    [
        AB_DECEIVE,
        AB_PARROT_VIEW,
        AB_PARROT_ATT,
        AB_RUSSULA,
        AB_VEILED,
        AB_BUILD_PAIR,
        AB_BUILD_REMOVE,
        AB_SPAWN,
        AB_MAGIC,
        AB_TRUFFLE,
        AB_WITCH,
        AB_THIEF_PAIR,
    ],
    dtype=np.int64,
)


@njit(cache=True)
def reaction_fits(state, ab, side, user):
    """The reaction ``ab`` of combat side ``side`` by ``user`` fits the combat's stage and cards
    (a D_USE prompt or the ability's entry: both sit just above the combat marker)."""
    if not state[C_ACTIVE] or user != combat_player(state, side):
        return False
    st = state[C_STAGE]
    sub = state[C_SUB]
    if ab == AB_AD_REACT:
        return st == CS_AD and sub == side + 1 and state[c_card_at(side)] == DECEIVER
    if ab == AB_PUFF:
        return st == CS_PUFF and sub == side + 1 and rep_card(state, side) == PUFF and steals(state, 1 - side)
    if st != (CS_REACT_A if side == 0 else CS_REACT_D) or sub != 1:
        return False
    t = rep_card(state, side)
    if ab == AB_CHICKEN_DEF:
        return side == 1 and t == CHICKEN
    if ab == AB_CHICKEN_ATT:
        return side == 0 and t == CHICKEN
    if ab == AB_LIBERTY:
        return t == LIBERTY
    if ab == AB_THIEF_STEAL:
        return steals(state, side)  # the initial face-down card only
    return False


@njit(cache=True)
def below_is_window(state, target, lv):
    """Entry ``target`` (below ``lv``) is an ability in flight and everything between is its
    Fly Agaric window."""
    if target >= lv or decision_at(state, target, 0) != D_RESOLVE:
        return False
    for m in range(target + 1, lv):
        if decision_at(state, m, 0) != D_FA or decision_at(state, m, 2) != target:
            return False
    return True


# --- where each decision kind may sit (one function per kind: kind_fits dispatches) ----------
# Each returns V_OK if the entry at level ``lv`` fits the phase, the combat and the entries
# below it, else a V_* code (check_stack adds the level).


@njit(cache=True)
def entry_on_top(lv, depth):
    return lv == depth - 1


@njit(cache=True)
def in_action_or_nutrient(state):
    """The prompts of the Action Phase's cards (and a Bird's Nest's) need one of these phases."""
    return state[PHASE] == PH_ACTION or state[PHASE] == PH_NUTRIENT


@njit(cache=True)
def combat_fits(state, cfg, lv, depth):
    return V_OK if lv == 0 and state[C_ACTIVE] != 0 and decision_at(state, lv, 1) == state[C_ATT] else V_KIND


@njit(cache=True)
def attack_card_fits(state, cfg, lv, depth):
    p = decision_at(state, lv, 1)
    ok = lv == 1 and entry_on_top(lv, depth) and state[C_ACTIVE] != 0 and p == state[C_ATT] and state[c_card_at(0)] < 0
    return V_OK if ok and state[C_STAGE] == CS_REVEAL else V_KIND


@njit(cache=True)
def defend_fits(state, cfg, lv, depth):
    p = decision_at(state, lv, 1)
    ok = lv == 1 and entry_on_top(lv, depth) and state[C_ACTIVE] != 0 and p == state[C_DEF] and state[c_card_at(0)] >= 0
    return V_OK if ok and not state[C_DEFENDED] and state[C_STAGE] == CS_REVEAL else V_KIND


@njit(cache=True)
def reinforce_fits(state, cfg, lv, depth):
    n = cfg[CFG_NP]
    p = decision_at(state, lv, 1)
    ok = (
        lv == 1
        and entry_on_top(lv, depth)
        and state[C_ACTIVE] != 0
        and state[C_STAGE] == CS_REINF
        and state[C_PASSES] < n
    )
    return V_OK if ok and state[C_NEXT] == (p + 1) % n else V_KIND


@njit(cache=True)
def use_fits(state, cfg, lv, depth):
    ab = decision_arg(state, lv, USE_ABILITY)
    ok = False
    for r in REACTION_ABILITIES:
        if ab == r:
            ok = True
    if not ok or not (
        lv == 1
        and entry_on_top(lv, depth)
        and reaction_fits(state, ab, decision_arg(state, lv, USE_SIDE), decision_at(state, lv, 1))
    ):
        return V_USE
    return V_OK


@njit(cache=True)
def birds_nest_fits(state, cfg, lv, depth):
    return V_OK if state[PHASE] == PH_NUTRIENT and not state[C_ACTIVE] else V_KIND


@njit(cache=True)
def legend_fits(state, cfg, lv, depth):
    """Variant: legends (before the Explore Phase: entry lv asks first + n - 1 - lv; first on top)."""
    n = cfg[CFG_NP]
    p = decision_at(state, lv, 1)
    if cfg[CFG_LEGENDS] == 0 or state[PHASE] != PH_EXPLORE or p != (state[FIRST] + n - 1 - lv) % n:
        return V_KIND
    if state[legend_deal_at(p, 0)] < 0 or state[legend_deal_at(p, 1)] < 0:
        return V_ARG
    return V_OK


@njit(cache=True)
def trade_fits(state, cfg, lv, depth):
    """Variant: team (the turn player's offer: its teammate answers, then the proposer accepts
    what comes back; from the Action Phase menu, before the turn's Trade is made)."""
    ok = (
        cfg[CFG_TEAM] != 0
        and lv == 0
        and entry_on_top(lv, depth)
        and state[PHASE] == PH_ACTION
        and not state[C_ACTIVE]
        and state[TRADE_USED] == 0
    )
    offered = decision_arg(state, lv, TRADE_OFFERED)
    back = decision_arg(state, lv, TRADE_RETURNED)
    asked = teammate(state[TURN_PLAYER]) if back == 0 else state[TURN_PLAYER]
    if not (ok and decision_at(state, lv, 1) == asked and (state[TRADE_OFFERS] >> offered) & 1 == 1):
        return V_KIND
    return V_OK


@njit(cache=True)
def gather_fits(state, cfg, lv, depth):
    """Variant: team (a gathering's choices: the Gather Phase, a Bird's Nest, a hero's gathering)."""
    ph = state[PHASE]
    p = decision_at(state, lv, 1)
    tp = state[TURN_PLAYER]
    if (
        cfg[CFG_TEAM] == 0
        or not entry_on_top(lv, depth)
        or state[C_ACTIVE]
        or decision_arg(state, lv, GATHER_SUBSET) < 1
    ):
        return V_KIND
    if ph == PH_PLACE:  # the Gather Phase's (above the hero picks of the same Gather Phase)
        below = lv == 0 or (lv == 1 and decision_at(state, 0, 0) == D_HERO_PICK)
        return V_OK if below and p == tp and state[PLACED] == 0 else V_KIND
    if ph == PH_ACTION:  # a hero's gathering, from the Action Phase menu
        return V_OK if lv == 0 and p == tp else V_KIND
    return V_OK if ph == PH_NUTRIENT else V_KIND  # a Bird's Nest's


@njit(cache=True)
def hero_pick_fits(state, cfg, lv, depth):
    """Variant: hero_tavern (after the Gather Phase, before the Place Phase's first gatherer;
    variant: team: below the Gather Phase's gathering choice)."""
    p = decision_at(state, lv, 1)
    picks = decision_arg(state, lv, HERO_PICK_LEFT)
    top = entry_on_top(lv, depth) or (lv == depth - 2 and decision_at(state, depth - 1, 0) == D_GATHER)
    if not (
        on(cfg)
        and lv == 0
        and top
        and state[PHASE] == PH_PLACE
        and p == state[TURN_PLAYER]
        and state[PLACED] == 0
        and not state[C_ACTIVE]
    ):
        return V_KIND
    if picks < 1 or picks > state[ctok_at(p)] or picks > heroes_available(state):
        return V_ARG
    return V_OK


@njit(cache=True)
def buy_fits(state, cfg, lv, depth):
    """Variant: emsporium (a Buy from the Action Phase menu: payments, then items)."""
    if not (
        cfg[CFG_EMS] != 0
        and lv == 0
        and entry_on_top(lv, depth)
        and state[PHASE] == PH_ACTION
        and decision_at(state, lv, 1) == state[TURN_PLAYER]
        and not state[C_ACTIVE]
    ):
        return V_KIND
    if decision_arg(state, lv, BUY_SPENT) > decision_arg(state, lv, BUY_PAID):
        return V_ARG
    if decision_arg(state, lv, BUY_SPENT) == 0:  # no item yet: one must still be within reach
        cheapest = cheapest_in_shop(state, cfg)
        paid = decision_arg(state, lv, BUY_PAID)
        if cheapest < 0 or paid + pay_capacity(state, cfg, state[TURN_PLAYER]) < cheapest:
            return V_TOP
    return V_OK


@njit(cache=True)
def exchange_choice_fits(state, cfg, lv, depth):
    """The Exchange's choice of cards (exchange.py), from the Action Phase menu, with a choice
    left (a pick with one legal answer is never asked)."""
    p = decision_at(state, lv, 1)
    ok = (
        lv == 0
        and entry_on_top(lv, depth)
        and state[PHASE] == PH_ACTION
        and p == state[TURN_PLAYER]
        and not state[C_ACTIVE]
    )
    if not ok:
        return V_KIND
    ct = decision_arg(state, lv, EXCHANGE_CHOICE_TYPE)
    first = decision_arg(state, lv, EXCHANGE_CHOICE_FIRST)
    if decision_arg(state, lv, EXCHANGE_CHOICE_OPTION) > cfg[CFG_NP] or (
        first > 0 and cfg[cfg_card_type_at(first - 1)] != ct
    ):
        return V_ARG
    answers, _last = picks(state, cfg, p, ct, first - 1)
    return V_OK if answers >= 2 else V_TOP


@njit(cache=True)
def menu_prompt_fits(state, lv, depth):
    """A sub-decision of the Action Phase menu, alone on the stack (a payment, Russula's picks,
    Magic Mushling's order)."""
    ok = in_action_or_nutrient(state) and lv == 0 and entry_on_top(lv, depth) and state[PHASE] == PH_ACTION
    return ok and decision_at(state, lv, 1) == state[TURN_PLAYER]


@njit(cache=True)
def pay_fits(state, cfg, lv, depth):
    """A Build's payment: a Path paid for, or 3 still within reach."""
    if not menu_prompt_fits(state, lv, depth):
        return V_KIND
    paid = decision_arg(state, lv, PAY_PAID)
    return V_OK if paid >= 3 or paid + pay_capacity(state, cfg, state[TURN_PLAYER]) >= 3 else V_TOP


@njit(cache=True)
def russula_pick_fits(state, cfg, lv, depth):
    if not menu_prompt_fits(state, lv, depth):
        return V_KIND
    for j in range(decision_arg(state, lv, RUSSULA_PICK_MADE), 2):  # picks not made yet are 0
        if decision_arg(state, lv, RUSSULA_PICK_FIRST + j) != 0:
            return V_ARG
    return V_OK


@njit(cache=True)
def arrange_fits(state, cfg, lv, depth):
    if not menu_prompt_fits(state, lv, depth):
        return V_KIND
    i = decision_arg(state, lv, ARRANGE_POSITION)
    kk = decision_arg(state, lv, ARRANGE_VIEWED)
    if not (2 <= kk <= cfg[CFG_NP] and i + 1 < kk <= state[NDECK_N]):
        return V_ARRANGE
    return V_OK


@njit(cache=True)
def place_path_fits(state, cfg, lv, depth):
    if not in_action_or_nutrient(state):
        return V_KIND
    if decision_arg(state, lv, PLACE_PATH_LEFT) < 1:
        return V_ARG
    if lv == 0:
        ok = state[PHASE] == PH_ACTION and decision_at(state, lv, 1) == state[TURN_PLAYER] and not state[C_ACTIVE]
        return V_OK if ok else V_KIND
    # Liberty Cap's Path, above the combat it won
    return V_OK if lv == 1 and state[C_ACTIVE] and state[C_STAGE] >= CS_REACT_A else V_KIND


@njit(cache=True)
def remove_own_fits(state, cfg, lv, depth):
    if not in_action_or_nutrient(state):
        return V_KIND
    ok = entry_on_top(lv, depth) and state[npaths_at(decision_at(state, lv, 1))] == MAX_PATHS + 1
    return V_OK if ok else V_KIND


@njit(cache=True)
def asks_another_in_action_phase(state, lv, other):
    """A prompt of the Action Phase about the Path of another player (argument ``other``)."""
    ok = decision_arg(state, lv, other) != decision_at(state, lv, 1) and state[PHASE] == PH_ACTION
    return V_OK if ok else V_KIND


@njit(cache=True)
def path_window_fits(state, cfg, lv, depth):
    return asks_another_in_action_phase(state, lv, PATH_WINDOW_BUILDER)


@njit(cache=True)
def inky_give_fits(state, cfg, lv, depth):
    return asks_another_in_action_phase(state, lv, INKY_GIVE_RECEIVER)


@njit(cache=True)
def fly_agaric_fits(state, cfg, lv, depth):
    """A window of other players than the ability's user, each asked once."""
    if not in_action_or_nutrient(state):
        return V_KIND
    target = decision_arg(state, lv, FLY_AGARIC_LEVEL)
    p = decision_at(state, lv, 1)
    if not below_is_window(state, target, lv) or decision_at(state, target, 1) == p:
        return V_FA
    for m in range(target + 1, lv):
        if decision_at(state, m, 1) == p:
            return V_FA
    return V_OK


@njit(cache=True)
def resolve_fits(state, cfg, lv, depth):
    """An ability in flight: its card(s), user and where it may sit."""
    if not in_action_or_nutrient(state):
        return V_KIND
    n = cfg[CFG_NP]
    p = decision_at(state, lv, 1)
    ph = state[PHASE]
    active = state[C_ACTIVE] != 0
    ab = decision_arg(state, lv, RESOLVE_ABILITY)
    x1 = decision_arg(state, lv, RESOLVE_X1)
    x2 = decision_arg(state, lv, RESOLVE_X2)
    x3 = decision_arg(state, lv, RESOLVE_X3)
    if ab == AB_FLY:  # a Fly Agaric's target: an ability below, in its window, not cancelled yet
        if not below_is_window(state, x1, lv) or is_cancelled(state, x1):
            return V_FA
        return V_OK
    if (
        ab == AB_AD_REACT
        or ab == AB_CHICKEN_DEF
        or ab == AB_CHICKEN_ATT
        or ab == AB_PUFF
        or ab == AB_LIBERTY
        or ab == AB_THIEF_STEAL
    ):
        return V_OK if lv == 1 and reaction_fits(state, ab, x1, p) else V_USE
    if ab == AB_REINF:
        ok = lv == 1 and active and state[C_STAGE] == CS_REINF and (x1 == BLUE_OY or x1 == PINK_OY)
        return V_OK if ok else V_KIND
    if ab == AB_BIRDS:
        return V_OK if ph == PH_NUTRIENT and x1 >= 1 and not active else V_KIND
    if ab == AB_PENNY or ab == AB_INKY:
        return V_OK if x1 != p and ph == PH_ACTION else V_KIND
    for m in MENU_ABILITIES:
        if ab == m:
            if not (lv == 0 and ph == PH_ACTION and p == state[TURN_PLAYER] and not active):
                return V_KIND
            return menu_ability_args_fit(cfg, ab, p, x1, x2, x3, n)
    return V_KIND


@njit(cache=True)
def menu_ability_args_fit(cfg, ab, p, x1, x2, x3, n):
    """The arguments of an ability played from the Action Phase menu."""
    if ab == AB_PARROT_VIEW and x1 == p:
        return V_ARG
    if ab == AB_BUILD_REMOVE and x1 != CHANT and x1 != BLEWIT:
        return V_ARG
    if ab == AB_BUILD_PAIR and not (x1 <= x2 and (x1 == CHANT or x1 == BLEWIT) and (x2 == CHANT or x2 == BLEWIT)):
        return V_ARG
    if ab == AB_THIEF_PAIR and not (
        x1 <= x2 and (x1 == PARASOL or x1 == SHIITAKE) and (x2 == PARASOL or x2 == SHIITAKE)
    ):
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


DECISION_KINDS.generated_checks(globals())


# --- generated by `mushgym generate` from DECISION_KINDS.checks: do not edit by hand ---
# fmt: off
@njit(cache=True)
def kind_fits(state, cfg, k, lv, depth):
    """0 if the entry of kind ``k`` at level ``lv`` fits where it sits."""
    if k == 0:
        return resolve_fits(state, cfg, lv, depth)
    if k == 1:
        return combat_fits(state, cfg, lv, depth)
    if k == 2:
        return fly_agaric_fits(state, cfg, lv, depth)
    if k == 3:
        return path_window_fits(state, cfg, lv, depth)
    if k == 4:
        return reinforce_fits(state, cfg, lv, depth)
    if k == 5:
        return birds_nest_fits(state, cfg, lv, depth)
    if k == 6:
        return use_fits(state, cfg, lv, depth)
    if k == 7:
        return pay_fits(state, cfg, lv, depth)
    if k == 8:
        return place_path_fits(state, cfg, lv, depth)
    if k == 9:
        return remove_own_fits(state, cfg, lv, depth)
    if k == 10:
        return attack_card_fits(state, cfg, lv, depth)
    if k == 11:
        return defend_fits(state, cfg, lv, depth)
    if k == 12:
        return inky_give_fits(state, cfg, lv, depth)
    if k == 13:
        return russula_pick_fits(state, cfg, lv, depth)
    if k == 14:
        return arrange_fits(state, cfg, lv, depth)
    if k == 15:
        return buy_fits(state, cfg, lv, depth)
    if k == 16:
        return hero_pick_fits(state, cfg, lv, depth)
    if k == 17:
        return legend_fits(state, cfg, lv, depth)
    if k == 18:
        return trade_fits(state, cfg, lv, depth)
    if k == 19:
        return gather_fits(state, cfg, lv, depth)
    if k == 20:
        return exchange_choice_fits(state, cfg, lv, depth)
    return -1
# fmt: on
# --- end of generated code ---


@njit(cache=True)
def check_stack(state, cfg):
    n = cfg[CFG_NP]
    depth = decision_depth(state)
    for lv in range(depth, STACK_DEPTH):
        for j in range(2 + STACK_ARGS):
            if decision_at(state, lv, j) != 0:
                return error(V_STACK_CLEAR, lv)
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
            return error(V_STACK, 0)
    for lv in range(depth):
        k = decision_at(state, lv, 0)
        if decision_at(state, lv, 1) >= n:
            return error(V_PLAYER, lv)
        for i in range(STACK_ARGS):
            code = DECISION_ARGS[k, i]
            v = decision_arg(state, lv, i)
            if k == D_RESOLVE and RESOLVE_X1 <= i <= RESOLVE_X3:
                code = ABILITY_ARGS[decision_arg(state, lv, RESOLVE_ABILITY), i - RESOLVE_X1]
            if not arg_ok(state, cfg, v, code, lv):
                return error(V_ARG, lv)
        if k == D_USE:  # a revealed card's reaction
            ok = False
            for r in REACTION_ABILITIES:
                if decision_arg(state, lv, USE_ABILITY) == r:
                    ok = True
            if not ok:
                return error(V_USE, lv)
    for lv in range(depth):  # (every entry's arguments in range first: the placement reads others')
        c = kind_fits(state, cfg, decision_at(state, lv, 0), lv, depth)
        if c != V_OK:
            return error(c, lv)
    # a combat in progress has its marker at the bottom, and its face-down cards chosen in turn
    if state[C_ACTIVE]:
        if depth == 0 or decision_at(state, 0, 0) != D_COMBAT:
            return error(V_STACK, 0)
        if state[C_STAGE] == CS_REVEAL:  # waiting for the attacker's or the defender's card
            kt = decision_at(state, depth - 1, 0)
            if depth != 2 or (kt != D_ATT_CARD and kt != D_DEFEND):
                return error(V_STACK, 1)
    # the top: a decision the kernels' advance stops at, with an answer
    if state[DONE]:
        return V_OK
    if depth == 0:
        tp = state[TURN_PLAYER]
        if ph == PH_NUTRIENT or (ph == PH_DISCARD and hand_size(state, tp) <= hand_limit(state, tp)):
            return error(V_TOP, 0)
        return V_OK
    kt = decision_at(state, depth - 1, 0)
    if kt == D_RESOLVE or kt == D_COMBAT:
        return error(V_TOP, depth - 1)
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
            return error(V_TOP, depth - 1)
    elif not prompt_live(state, cfg):
        return error(V_TOP, depth - 1)
    if kt == D_ATT_CARD and hand_size(state, decision_at(state, depth - 1, 1)) == 0:
        return error(V_TOP, depth - 1)
    return V_OK
