"""The Hero Tavern and Legends variants of Mycelium (options ``hero_tavern=True``, ``legends=True``).

Kernels only; the base game's modules call them from hooks marked ``# variant: hero_tavern`` /
``# variant: legends``. With both options off nothing here changes the game (no hero is dealt,
no gatherer can go to the Tavern).

* The Tavern is a gatherer location outside the base game's gather locations (value
  ``TAVERN`` = 10 in ``gatherer``), placed with the appended action ``place_tavern`` in the
  Explore and Place Phases. In the Gather Phase (``end_actions``), each gatherer returning
  from it may recruit a hero by spending 1 Combat Token (none spent when the player has no
  token or no hero is left): one ``D_HERO_PICK`` decision per recruit, ``hero_pick(0 | 1)`` a
  face-up hero (replaced at once from the deck), ``hero_pick(2)`` the top of the hero deck.
  Bird's Nest, a Sulphur Shelf's gathering and Russula do not involve the Tavern (RULES.md).
* Heroes are public (``heroes``), outside the hand, never stolen, never cancelled (no Fly
  Agaric window). ``hero(h, k)`` uses ability k (0 = a, 1 = b) of hero h: an action in the
  Action Phase, or the ``combat`` reaction in the reinforcement round of a battle its owner
  fights. Then the hero goes to the bottom of the hero deck (and an empty face-up slot
  refills from the deck).
* Legends: at set-up each player is dealt 2 heroes (seen by that player only) and keeps 1
  (``legend_keep(k)``, a ``D_LEGEND`` decision, in turn order from the first player, before
  the Explore Phase); the heroes not kept are shuffled back and the 2 face-up ones dealt.
"""

from numba import njit

from mushgym.core import canonical_shuffle, refill_slots, shuffle_range

from .cards import ctok_supply, draw_cards, nutrient_supply, spore_supply
from .emsporium import spawn_bonus
from .gathering import start_gathering
from .layout import (
    C_ATT,
    C_DEF,
    C_PASSES,
    CFG_LEGENDS,
    CFG_NP,
    CFG_TAVERN,
    CFG_WILLOW,
    D_HERO_PICK,
    D_LEGEND,
    D_PLACE_PATH,
    FIRST,
    HDECK,
    HDECK_N,
    HERO_PICK_LEFT,
    HERO_UP,
    HERO_UP_SLOTS,
    MAXP,
    NDECK_N,
    NUM_HEROES,
    RNG,
    TAVERN,
    V_HEROES,  # noqa: F401  (the validate code of the hero counts; validate.py names it)
    agent_of_at,
    c_bonus_at,
    cfg_cave_at,
    cfg_hero_amount_at,
    cfg_hero_effect_at,
    ctok_at,
    decision_depth,
    gatherer_at,
    hero_action,
    hero_deck_at,
    hero_pick_action,
    hero_pick_args,
    hero_up_at,
    heroes_at,
    legend_deal_at,
    legend_keep_action,
    legend_keep_args,
    loc_nut_at,
    loc_spores_at,
    mat_spores_at,
    nseen_at,
    pop_decision,
    push_decision,
    set_top_arg,
    top_arg,
    top_kind,
)

# effects (variant_data.HERO_EFFECTS order)
HE_FREE_PATHS = 0
HE_SPORES = 1
HE_CTOKS = 2
HE_DRAW = 3
HE_SPAWN = 4
HE_VIEW = 5
HE_GATHER = 6
HE_WILLOW = 7
HE_COMBAT = 8


@njit(cache=True)
def on(cfg):
    return cfg[CFG_TAVERN] != 0 or cfg[CFG_LEGENDS] != 0


@njit(cache=True)
def deal_face_up(state):
    """Empty face-up slots take the top heroes of the deck (while it lasts)."""
    refill_slots(state, HERO_UP_SLOTS, HERO_UP, HDECK, HDECK_N)


@njit(cache=True)
def init_tavern(state, cfg):
    for s in range(HERO_UP):
        state[hero_up_at(s)] = -1
    for p in range(MAXP):
        for k in range(2):
            state[legend_deal_at(p, k)] = -1
    if not on(cfg):
        return
    for h in range(NUM_HEROES):
        state[hero_deck_at(h)] = h
    state[HDECK_N] = NUM_HEROES
    shuffle_range(state, HDECK, NUM_HEROES, RNG)
    if cfg[CFG_LEGENDS] == 0:
        deal_face_up(state)
        return
    n = cfg[CFG_NP]
    for i in range(n):
        p = (state[FIRST] + i) % n
        for k in range(2):
            m = state[HDECK_N] - 1
            state[legend_deal_at(p, k)] = state[hero_deck_at(m)]
            state[hero_deck_at(m)] = 0
            state[HDECK_N] = m
    for i in range(n - 1, -1, -1):  # the first player decides first (top of the stack)
        push_decision(state, D_LEGEND, (state[FIRST] + i) % n)


@njit(cache=True)
def legend_mask(state, cfg, p, mask, work):
    """A ``D_LEGEND`` entry: keep either dealt hero."""
    mask[legend_keep_action(0)] = 1
    mask[legend_keep_action(1)] = 1
    return 2


@njit(cache=True)
def legend_step(state, cfg, p, a, work):
    """``p`` keeps dealt hero ``k`` (0/1); the other goes back into the deck. After the last
    player, the deck is shuffled and the 2 face-up heroes dealt."""
    k = legend_keep_args(a)
    pop_decision(state)
    keep = state[legend_deal_at(p, k)]
    back = state[legend_deal_at(p, 1 - k)]
    state[heroes_at(p, keep)] = 1
    state[hero_deck_at(state[HDECK_N])] = back
    state[HDECK_N] += 1
    state[legend_deal_at(p, 0)] = -1
    state[legend_deal_at(p, 1)] = -1
    if decision_depth(state) == 0 or top_kind(state) != D_LEGEND:
        shuffle_range(state, HDECK, state[HDECK_N], RNG)
        deal_face_up(state)


@njit(cache=True)
def heroes_available(state):
    n = state[HDECK_N]
    for s in range(HERO_UP):
        if state[hero_up_at(s)] >= 0:
            n += 1
    return n


@njit(cache=True)
def tavern_gather(state, cfg, p):
    """Gather Phase: one hero pick per gatherer returning from the Tavern that its owner can
    pay a Combat Token for (the tokens are spent as the picks are made)."""
    if not on(cfg):
        return
    k = 0
    for i in range(3):
        if state[gatherer_at(p, i)] == TAVERN:
            k += 1
    if k > state[ctok_at(p)]:
        k = state[ctok_at(p)]
    if k > heroes_available(state):
        k = heroes_available(state)
    if k > 0:
        push_decision(state, D_HERO_PICK, p, k)


@njit(cache=True)
def hero_pick_mask(state, cfg, p, mask, work):
    """A ``D_HERO_PICK`` entry: a face-up hero, or the top of the hero deck."""
    c = 0
    for s in range(HERO_UP):
        if state[hero_up_at(s)] >= 0:
            mask[hero_pick_action(s)] = 1
            c += 1
    if state[HDECK_N] > 0:
        mask[hero_pick_action(HERO_UP)] = 1
        c += 1
    return c


@njit(cache=True)
def hero_pick_step(state, cfg, p, a, work):
    slot = hero_pick_args(a)
    left = top_arg(state, HERO_PICK_LEFT) - 1
    if left <= 0:
        pop_decision(state)
    else:
        set_top_arg(state, HERO_PICK_LEFT, left)
    state[ctok_at(p)] -= 1
    if slot < HERO_UP:
        h = state[hero_up_at(slot)]
        state[hero_up_at(slot)] = -1
        deal_face_up(state)
    else:
        n = state[HDECK_N] - 1
        h = state[hero_deck_at(n)]
        state[hero_deck_at(n)] = 0
        state[HDECK_N] = n
    state[heroes_at(p, h)] = 1


@njit(cache=True)
def is_reaction(cfg, h, k):
    return cfg[cfg_hero_effect_at(h, k)] == HE_COMBAT


@njit(cache=True)
def menu_mask(state, cfg, p, mask):
    """Action abilities of the heroes ``p`` holds."""
    c = 0
    if not on(cfg):
        return 0
    for h in range(NUM_HEROES):
        if state[heroes_at(p, h)]:
            for k in range(2):
                if not is_reaction(cfg, h, k):
                    mask[hero_action(h, k)] = 1
                    c += 1
    return c


@njit(cache=True)
def combat_side(state, p):
    if p == state[C_ATT]:
        return 0
    if p == state[C_DEF]:
        return 1
    return -1


@njit(cache=True)
def has_combat_reaction(state, cfg, p):
    if not on(cfg) or combat_side(state, p) < 0:
        return False
    for h in range(NUM_HEROES):
        if state[heroes_at(p, h)]:
            for k in range(2):
                if is_reaction(cfg, h, k):
                    return True
    return False


@njit(cache=True)
def reinf_mask(state, cfg, p, mask):
    """Combat reactions of ``p``'s heroes in the reinforcement round of its own battle."""
    c = 0
    if not has_combat_reaction(state, cfg, p):
        return 0
    for h in range(NUM_HEROES):
        if state[heroes_at(p, h)]:
            for k in range(2):
                if is_reaction(cfg, h, k):
                    mask[hero_action(h, k)] = 1
                    c += 1
    return c


@njit(cache=True)
def to_bottom(state, p, h):
    """After use: the hero goes to the bottom of the hero deck (an empty face-up slot refills)."""
    state[heroes_at(p, h)] = 0
    for i in range(state[HDECK_N], 0, -1):
        state[hero_deck_at(i)] = state[hero_deck_at(i - 1)]
    state[hero_deck_at(0)] = h
    state[HDECK_N] += 1
    deal_face_up(state)


@njit(cache=True)
def use_hero(state, cfg, p, h, k, work):
    """Ability ``k`` of hero ``h`` (never cancelled: no Fly Agaric window)."""
    eff = cfg[cfg_hero_effect_at(h, k)]
    amt = cfg[cfg_hero_amount_at(h, k)]
    to_bottom(state, p, h)
    if eff == HE_COMBAT:
        state[c_bonus_at(combat_side(state, p))] += amt
        state[C_PASSES] = 0
    elif eff == HE_FREE_PATHS:
        push_decision(state, D_PLACE_PATH, p, amt)
    elif eff == HE_SPORES:
        s = spore_supply(state, cfg)
        state[mat_spores_at(p)] += amt if amt < s else s
    elif eff == HE_CTOKS:
        s = ctok_supply(state)
        state[ctok_at(p)] += amt if amt < s else s
    elif eff == HE_DRAW:
        draw_cards(state, p, amt)
    elif eff == HE_SPAWN:  # a spawn: the Pickaxe adds its spores (RULES.md, Emsporium gap 5)
        amt += spawn_bonus(state, p)
        s = spore_supply(state, cfg)
        state[loc_spores_at(cfg[cfg_cave_at(p)])] += amt if amt < s else s
    elif eff == HE_VIEW:
        top = state[NDECK_N]
        for i in range(min(amt, top)):
            state[nseen_at(p, top - 1 - i)] = 1
    elif eff == HE_GATHER:
        start_gathering(state, cfg, p, 7, work)  # variant: team (optional gathering under the Team rules)
    elif eff == HE_WILLOW:
        s = nutrient_supply(state, cfg)
        state[loc_nut_at(cfg[CFG_WILLOW])] += amt if amt < s else s


@njit(cache=True)
def validate_tavern(state, cfg):
    """0, or V_HEROES * 1000 + the hero that is not exactly once among the players' heroes,
    the face-up slots, the hero deck and the Legends deals (none without the variant)."""
    n = cfg[CFG_NP]
    for h in range(NUM_HEROES):
        c = 0
        for p in range(MAXP):
            c += state[heroes_at(p, h)]
            if p >= n and state[heroes_at(p, h)]:
                return V_HEROES * 1000 + h
            for k in range(2):
                if state[legend_deal_at(p, k)] == h:
                    c += 1
        for s in range(HERO_UP):
            if state[hero_up_at(s)] == h:
                c += 1
        for i in range(state[HDECK_N]):
            if state[hero_deck_at(i)] == h:
                c += 1
        if c != (1 if on(cfg) else 0):
            return V_HEROES * 1000 + h
    return 0


@njit(cache=True)
def observe_tavern(state, cfg, me, n, out, o_heroes, o_up, o_deck, o_deal, o_tavern, o_picks):
    for q in range(n):
        o = (q - me) % n
        for h in range(NUM_HEROES):
            out[o_heroes + o * NUM_HEROES + h] = state[heroes_at(q, h)]
        for i in range(3):
            if state[gatherer_at(q, i)] == TAVERN:
                out[o_tavern + o] += 1.0
    for s in range(HERO_UP):
        h = state[hero_up_at(s)]
        if h >= 0:
            out[o_up + h] = 1.0
    out[o_deck] = state[HDECK_N]
    for k in range(2):
        h = state[legend_deal_at(me, k)]
        if h >= 0:
            out[o_deal + k * NUM_HEROES + h] = 1.0
    if decision_depth(state) > 0 and top_kind(state) == D_HERO_PICK:
        out[o_picks] = top_arg(state, HERO_PICK_LEFT)


@njit(cache=True)
def determinize_heroes(state, player, cfg, rng):
    """The hero deck's order and the other players' Legends deals are hidden: pooled in
    canonical order, shuffled from ``rng``, dealt back (deals first, then the deck).
    ``player`` is an agent: in the 2-player game (variant: team) both of its seats' deals stay."""
    if not on(cfg):
        return
    n0 = state[HDECK_N]
    m = n0
    for p in range(MAXP):
        if state[agent_of_at(p)] != player:  # variant: team (an agent's seats)
            for k in range(2):
                h = state[legend_deal_at(p, k)]
                if h >= 0:
                    state[hero_deck_at(m)] = h
                    m += 1
    canonical_shuffle(state, hero_deck_at(0), m, rng, 0)
    for p in range(MAXP):
        if state[agent_of_at(p)] != player:  # variant: team (an agent's seats)
            for k in range(2):
                if state[legend_deal_at(p, k)] >= 0:
                    m -= 1
                    state[legend_deal_at(p, k)] = state[hero_deck_at(m)]
                    state[hero_deck_at(m)] = 0
