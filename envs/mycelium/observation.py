"""Mycelium's observation: what a player sees, seat-relative (the field table:
:data:`.layout.O`). Hidden information stays hidden: the others' hands only as far as the
observer knows them, the face-down combat cards until revealed, the nutrient deck only where
the observer has seen it.
"""

from numba import njit

from .board import bonded_count, bonded_edges
from .cards import ctok_supply, hand_size, nutrient_supply, spore_supply
from .combat import combat_player
from .emsporium import observe_emsporium
from .exchange import observe_exchange
from .layout import (
    AB_AD_REACT,
    AB_BUILD_REMOVE,
    AB_CHICKEN_ATT,
    AB_CHICKEN_DEF,
    AB_DECEIVE,
    AB_INKY,
    AB_LIBERTY,
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
    AB_WITCH,
    ACTIONS,
    BN_PLAYED,
    BN_TRIGGER,
    C_ACTIVE,
    C_ATT,
    C_DEF,
    C_DEFENDED,
    C_EDGE,
    C_REVEALED,
    C_STAGE,
    C_WINNER,
    CFG_EMS,
    CFG_NE,
    CFG_NG,
    CFG_NP,
    CFG_TEAM,
    CFG_TURN_LIMIT,
    D_BUY,
    D_FA,
    D_INKY_GIVE,
    D_PATHWIN,
    D_PAY,
    D_PLACE_PATH,
    D_REMOVE_OWN,
    D_RESOLVE,
    D_RUSSULA_PICK,
    D_USE,
    DECK_N,
    DECK_TOP_N,
    DONE,
    FIRST,
    FLY_AGARIC_LEVEL,
    INKY_GIVE_EDGE,
    LAST_EDGE,
    MAX_ACTIONS_PER_TURN,
    MAX_GATHER_LOCS,
    MAX_NUTRIENT_KINDS,
    MAX_PAID,
    MAXP,
    NDECK_N,
    NDECK_TOP_N,
    NUM_D_BASE,
    NUM_D_ITEMS,
    NUM_MUSHLING_KINDS,
    PATH_WINDOW_BUILDER,
    PATH_WINDOW_EDGE,
    PAY_PAID,
    PHASE,
    PLACE_PATH_LEFT,
    REMOVE_OWN_EDGE,
    RESOLVE_ABILITY,
    RESOLVE_X1,
    RESOLVE_X2,
    RESOLVE_X3,
    RUSSULA_PICK_FIRST,
    RUSSULA_PICK_MADE,
    TURN,
    TURN_PLAYER,
    USE_ABILITY,
    USE_SIDE,
    c_bonus_at,
    c_card_at,
    c_nothief_at,
    c_repl_at,
    carea_at,
    cfg_permanent_at,
    ctok_at,
    decision_arg,
    decision_at,
    decision_depth,
    deck_top_at,
    discard_at,
    gatherer_at,
    hand_at,
    known_at,
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
    top_arg,
    top_kind,
    top_player,
)
from .observation_layout import (
    O_AB,
    O_AB_KIND,
    O_AB_LOC,
    O_AB_SIDE,
    O_AB_TARGET,
    O_AB_USER,
    O_ACTIONS,
    O_ACTOR,
    O_BN,
    O_BONDED,
    O_BUY,
    O_C,
    O_C_CARD,
    O_C_NOTHIEF,
    O_C_REPL,
    O_C_STAGE,
    O_C_WHO,
    O_CAREA,
    O_DEAL,
    O_DECK_TOP,
    O_DECKS,
    O_DISCARD,
    O_DKIND,
    O_FIRST,
    O_FOCUS_EDGE,
    O_HAND,
    O_HDECK,
    O_HERO_UP,
    O_HEROES,
    O_IDECK,
    O_ITEMS,
    O_KNOWN,
    O_LIMBO,
    O_LOC_GATH,
    O_LOC_NUT,
    O_LOC_SPORES,
    O_NDECK_TOP,
    O_NDISCARD,
    O_NKNOWN,
    O_PATHS,
    O_PAY,
    O_PERM,
    O_PHASE,
    O_PICKS,
    O_PLAYERS,
    O_SHOP,
    O_SUPPLY,
    O_TAVERN,
    O_TOP_N,
    O_TURN,
    O_TURNP,
    O_VDKIND,
)
from .tavern import observe_tavern, on
from .team import observer_seat, team_observe


@njit(cache=True)
def observe(state, player, cfg, out, work):
    out[:] = 0.0
    n = cfg[CFG_NP]
    me = observer_seat(state, player)  # variant: team (the player itself, except in the 2-player game)
    out[O_PHASE + state[PHASE]] = 1.0
    depth = decision_depth(state)
    if state[DONE] == 0:
        actor = top_player(state) if depth > 0 else state[TURN_PLAYER]
        out[O_ACTOR + (actor - me) % n] = 1.0
        if depth > 0:
            if top_kind(state) < NUM_D_BASE:
                out[O_DKIND + top_kind(state)] = 1.0
            elif top_kind(state) < NUM_D_ITEMS:  # the items' variant decisions (their field exists with them on)
                out[O_VDKIND + top_kind(state) - NUM_D_BASE] = 1.0
            # (variant: team: its decisions are in its own block, team_observe)
    out[O_TURNP + (state[TURN_PLAYER] - me) % n] = 1.0
    out[O_FIRST + (state[FIRST] - me) % n] = 1.0
    lim = cfg[CFG_TURN_LIMIT]
    out[O_TURN] = min(1.0, state[TURN] / lim) if lim > 0 else 0.0
    out[O_ACTIONS] = state[ACTIONS] / MAX_ACTIONS_PER_TURN
    focus_edge = observe_question(state, cfg, me, out)
    if state[C_ACTIVE]:
        observe_combat(state, me, n, out)
        if focus_edge < 0:
            focus_edge = state[C_EDGE]
    if focus_edge < 0:
        focus_edge = state[LAST_EDGE]
    if focus_edge >= 0:
        out[O_FOCUS_EDGE + focus_edge] = 1.0
    observe_board(state, cfg, me, out, work)
    observe_players(state, cfg, me, out)
    observe_piles(state, cfg, me, out)
    observe_exchange(state, cfg, me, n, out)
    if cfg[CFG_EMS]:  # variant: emsporium
        observe_emsporium(
            state, cfg, me, n, out, O_ITEMS, O_SHOP, O_IDECK, O_BUY, depth > 0 and top_kind(state) == D_BUY
        )
    if on(cfg):  # variant: hero_tavern, legends
        observe_tavern(state, cfg, me, n, out, O_HEROES, O_HERO_UP, O_HDECK, O_DEAL, O_TAVERN, O_PICKS)
    if cfg[CFG_TEAM]:  # variant: team
        team_observe(state, cfg, me, out, work)


@njit(cache=True)
def observe_question(state, cfg, me, out):
    """The pending decision's arguments and the ability in question (the Fly Agaric window's,
    the use prompt's, or the ability in flight nearest the top); returns the edge in question
    (-1 none)."""
    n = cfg[CFG_NP]
    depth = decision_depth(state)
    focus_edge = -1
    lvl = -1
    if depth > 0:
        k = top_kind(state)
        if k == D_FA:
            lvl = top_arg(state, FLY_AGARIC_LEVEL)
        elif k == D_PATHWIN:
            focus_edge = top_arg(state, PATH_WINDOW_EDGE)
            out[O_AB_TARGET + (top_arg(state, PATH_WINDOW_BUILDER) - me) % n] = 1.0
        elif k == D_INKY_GIVE:
            focus_edge = top_arg(state, INKY_GIVE_EDGE)
        elif k == D_REMOVE_OWN:
            focus_edge = top_arg(state, REMOVE_OWN_EDGE)
        elif k == D_USE:
            out[O_AB + top_arg(state, USE_ABILITY)] = 1.0
            out[O_AB_USER + (top_player(state) - me) % n] = 1.0
            out[O_AB_SIDE + top_arg(state, USE_SIDE)] = 1.0
        elif k == D_PAY:
            out[O_PAY] = min(1.0, top_arg(state, PAY_PAID) / MAX_PAID)  # the last payment may overshoot 30
        elif k == D_PLACE_PATH:
            out[O_PAY + 1] = min(1.0, top_arg(state, PLACE_PATH_LEFT) / 10.0)
        elif k == D_RUSSULA_PICK:
            for i in range(top_arg(state, RUSSULA_PICK_MADE)):
                out[O_AB_LOC + top_arg(state, RUSSULA_PICK_FIRST + i)] += 1.0
        if lvl < 0:
            for lv in range(depth - 1, -1, -1):
                if decision_at(state, lv, 0) == D_RESOLVE:
                    lvl = lv
                    break
    if lvl >= 0:
        e = observe_ability(state, n, me, lvl, out)
        if e >= 0:
            focus_edge = e
    return focus_edge


@njit(cache=True)
def observe_ability(state, n, me, lvl, out):
    """The ability in flight at level ``lvl``: its user and what it names; returns its edge (-1)."""
    ab = decision_arg(state, lvl, RESOLVE_ABILITY)
    x1 = decision_arg(state, lvl, RESOLVE_X1)
    x2 = decision_arg(state, lvl, RESOLVE_X2)
    x3 = decision_arg(state, lvl, RESOLVE_X3)
    out[O_AB + ab] = 1.0
    out[O_AB_USER + (decision_at(state, lvl, 1) - me) % n] = 1.0
    focus_edge = -1
    if (
        ab == AB_AD_REACT
        or ab == AB_CHICKEN_DEF
        or ab == AB_CHICKEN_ATT
        or ab == AB_PUFF
        or ab == AB_LIBERTY
        or ab == AB_THIEF_STEAL
    ):
        out[O_AB_SIDE + x1] = 1.0
    elif ab == AB_REINF:
        out[O_AB_SIDE + x2] = 1.0
        out[O_AB_KIND + x1] = 1.0
    elif ab == AB_DECEIVE:
        out[O_AB_KIND + x1] = 1.0
    elif ab == AB_PARROT_VIEW:
        out[O_AB_TARGET + (x1 - me) % n] = 1.0
    elif ab == AB_PARROT_ATT:
        focus_edge = x1
    elif ab == AB_INKY or ab == AB_PENNY:
        out[O_AB_TARGET + (x1 - me) % n] = 1.0
        focus_edge = x2
    elif ab == AB_BUILD_REMOVE:
        out[O_AB_KIND + x1] = 1.0
        focus_edge = x2
    elif ab == AB_SPAWN:
        out[O_AB_KIND + x1] = 1.0
        out[O_AB_LOC + x2] += 1.0
    elif ab == AB_THIEF_PAIR:
        out[O_AB_LOC + x3] += 1.0
    elif ab == AB_RUSSULA:
        out[O_AB_LOC + x1] += 1.0
        out[O_AB_LOC + x2] += 1.0
        out[O_AB_LOC + x3] += 1.0
    elif ab == AB_TRUFFLE or ab == AB_WITCH:
        out[O_AB_SIDE + x1] = 1.0
    return focus_edge


@njit(cache=True)
def observe_combat(state, me, n, out):
    att = state[C_ATT]
    dfd = state[C_DEF]
    out[O_C] = 1.0
    out[O_C + 1] = state[C_DEFENDED]
    out[O_C + 2] = state[C_REVEALED]
    w = state[C_WINNER]
    if w >= 0:
        out[O_C + 3 + w] = 1.0
    out[O_C + 5] = min(1.0, state[c_bonus_at(0)] / 20.0)
    out[O_C + 6] = min(1.0, state[c_bonus_at(1)] / 20.0)
    out[O_C + 7] = 1.0 if me == att or me == dfd else 0.0
    out[O_C_WHO + (att - me) % n] = 1.0
    out[O_C_WHO + MAXP + (dfd - me) % n] = 1.0
    out[O_C_STAGE + state[C_STAGE]] = 1.0
    for side in range(2):
        cc = state[c_card_at(side)]
        if cc >= 0 and (state[C_REVEALED] or combat_player(state, side) == me):
            out[O_C_CARD + side * NUM_MUSHLING_KINDS + cc] = 1.0
        r = state[c_repl_at(side)]
        if r >= 0:
            out[O_C_REPL + side * NUM_MUSHLING_KINDS + r] = 1.0
        out[O_C_NOTHIEF + side] = state[c_nothief_at(side)]


@njit(cache=True)
def observe_board(state, cfg, me, out, work):
    """Paths, the tokens on each location, my bonds, the Bird's Nest triggers."""
    n = cfg[CFG_NP]
    for e in range(cfg[CFG_NE]):
        for s in range(2):
            q = state[paths_at(e, s)] - 1
            if q >= 0:
                out[O_PATHS + e * MAXP + (q - me) % n] = 1.0
        if cfg[cfg_permanent_at(e)] >= 0:
            out[O_PERM + e] = 1.0
    bonded_edges(state, cfg, me, work)
    for g in range(cfg[CFG_NG]):
        out[O_LOC_NUT + g] = state[loc_nut_at(g)]
        out[O_LOC_SPORES + g] = state[loc_spores_at(g)]
        out[O_BONDED + g] = bonded_count(cfg, g, work)
        out[O_BN + g] = (state[BN_TRIGGER] >> g) & 1


@njit(cache=True)
def observe_players(state, cfg, me, out):
    """Each seat's gatherers, public counts and what I know of its hand."""
    n = cfg[CFG_NP]
    for q in range(n):
        o = (q - me) % n
        home = 0
        for i in range(3):
            g = state[gatherer_at(q, i)]
            if g >= 0:
                if g < MAX_GATHER_LOCS:  # variant: hero_tavern (a gatherer on the Tavern: the tavern_gatherers field)
                    out[O_LOC_GATH + g * MAXP + o] += 1.0
            else:
                home += 1
        b = O_PLAYERS + o * 8
        out[b] = 1.0
        out[b + 1] = hand_size(state, q)
        out[b + 2] = state[mat_spores_at(q)]
        out[b + 3] = state[mat_nut_at(q)]
        out[b + 4] = state[ctok_at(q)]
        out[b + 5] = state[npaths_at(q)]
        out[b + 6] = home
        out[b + 7] = (state[BN_PLAYED] >> q) & 1
        if o > 0:
            for t in range(NUM_MUSHLING_KINDS):
                out[O_KNOWN + (o - 1) * NUM_MUSHLING_KINDS + t] = state[known_at(me, q, t)]


@njit(cache=True)
def observe_piles(state, cfg, me, out):
    """My hand, the public piles, the deck sizes, what I know of the nutrient deck, the supply."""
    for t in range(NUM_MUSHLING_KINDS):
        out[O_HAND + t] = state[hand_at(me, t)]
        out[O_DISCARD + t] = state[discard_at(t)]
        out[O_LIMBO + t] = state[limbo_at(t)]
        out[O_CAREA + t] = state[carea_at(t)]
    out[O_DECKS] = state[DECK_N]
    out[O_DECKS + 1] = state[NDECK_N]
    for kd in range(MAX_NUTRIENT_KINDS):
        out[O_NDISCARD + kd] = state[ndiscard_at(kd)]
    top = state[NDECK_N]
    for i in range(top):
        pos = top - 1 - i
        if state[nseen_at(me, pos)]:
            out[O_NKNOWN + i * MAX_NUTRIENT_KINDS + state[ndeck_at(pos)]] = 1.0
    for t in range(NUM_MUSHLING_KINDS):
        out[O_DECK_TOP + t] = state[deck_top_at(t)]
    for kd in range(MAX_NUTRIENT_KINDS):
        out[O_NDECK_TOP + kd] = state[ndeck_top_at(kd)]
    out[O_TOP_N] = state[DECK_TOP_N]
    out[O_TOP_N + 1] = state[NDECK_TOP_N]
    out[O_SUPPLY] = spore_supply(state, cfg)
    out[O_SUPPLY + 1] = nutrient_supply(state, cfg)
    out[O_SUPPLY + 2] = ctok_supply(state)
