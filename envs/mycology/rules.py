"""Mycology rules as numba kernels over one int64 state array.

Kernel contract: ``mushgym/core/README.md``. The declarations (sizes, config
table, state, decision stack) are in :mod:`.layout`, the actions in
:mod:`.actions`, paying in :mod:`.payments`, the observation in
:mod:`.observation`; this module has the flow of a turn and the kernels.

Flow of one turn: the 2d6 roll is made inside ``step`` (or ``init`` for the very
first turn) as soon as a turn starts; then the turn player takes up to 2
actions (harvest / one of the six trades) or ends the turn early. An action
whose payment has a real choice in it (the "ANY 3" resources, using the Magic
token or not) pushes a DEC_PAY decision, answered one token at a time in a
canonical order; a field-row replacement then pushes a DEC_BOTTOM decision,
where the player orders the replaced cards under the deck. Moves with only one
legal option (a forced payment, the last card to the bottom, the end of the
turn after the second action) are applied automatically. See RULES.md for
every decision.
"""

from numba import njit

from mushgym.core import (
    generated_loops,
    pile_draw,
    pile_push_bottom,
    rng_below,
    rng_seed,
    sample_masked,  # noqa: F401  (the engine's uniform legal draw, re-exported)
    shuffle_range,
)

from .actions import (
    A_END,
    A_T1,
    A_T2,
    A_T4,
    A_T6,
    NUM_ACTIONS,
    bottom_action,
    bottom_args,
    give_action,
    give_args,
    harvest_action,
    harvest_args,
    take_action,
    take_args,
    trade1_action,
    trade1_args,
    trade3_action,
    trade3_args,
    trade5_action,
    trade5_args,
    trade6_action,
    trade6_args,
)
from .baskets import collect_poison, protected, total_cards, update_scores
from .layout import (
    ACTIONS_LEFT,
    ACTIONS_PER_TURN,
    ARG_ACTION,
    ARG_CARDS,
    ARG_GIVE,
    ARG_OWED,
    ARG_OWED_RES,
    ARG_PAY_KEY,
    ARG_PAY_TYPE,
    ARG_TARGET,
    BASKET_SLOTS,
    CAPACITY,
    CFG_MAX_TURNS,
    CFG_NUM_PLAYERS,
    CFG_POISON_RULE,
    CFG_REWARD,
    CFG_TURN_LIMIT_SCORED,
    D_ANY,
    D_FEAST,
    D_SPECIFIC,
    DEC_BOTTOM,
    DEC_GIVE,
    DEC_PAY,
    DEC_TAKE,
    DECK,
    DECK_N,
    DICE_RESOURCE,
    DIE1,
    ENDER,
    FIELD_SIZE,
    FIRST,
    K_HARVEST,
    K_T1,
    K_T2,
    K_T3,
    K_T4,
    K_T5,
    K_T6,
    MAX_CAPACITY,
    MAX_PLAYERS,
    NKINDS,
    NUM_RES,
    NUM_SEASONS,
    POISON_EVERY_COLLECTION,
    RNG,
    ROLL,
    ROW_SIZE,
    RUNNING,
    SEASON,
    SP_MAGIC,
    SP_POISON,  # noqa: F401  (re-exported: the rules' names for the card specials)
    STATE_SIZE,
    TURN,
    TURN_LIMIT,
    TURN_PLAYER,
    basket_at,
    basket_count_at,
    cfg_cost_at,
    cfg_feast_at,
    cfg_seasons_at,
    cfg_special_at,
    decision_depth,
    deck_at,
    feast_at,
    field_at,
    magic_at,
    pop_decision,
    push_decision,
    resources_at,
    score_at,
    set_top_arg,
    top_arg,
    top_arg_slot,
    top_kind,
    top_player,
)
from .observation import obs_size, observe  # noqa: F401  (kernel contract / size for the game)
from .payments import apply_pay, only_pay_action, owed, pay_mask
from .validate import validate  # noqa: F401  (the state check run by mushgym.Game.validate)

__all__ = [
    "init",
    "legal_mask",
    "step",
    "observe",
    "current_player",
    "is_terminal",
    "is_truncated",
    "returns",
    "NUM_ACTIONS",
    "STATE_SIZE",
    "obs_size",
]


# --- turns ---------------------------------------------------------------------------
@njit(cache=True)
def start_turn(state, cfg):
    """The turn player's 2d6 roll (a 7 advances the season, any other total gives
    every player its resource, and Poison to holders of its poison mushrooms), then
    the actions."""
    d1 = rng_below(state, RNG, 6) + 1
    d2 = rng_below(state, RNG, 6) + 1
    total = d1 + d2
    state[DIE1] = d1
    state[ROLL] = total
    r = DICE_RESOURCE[total]
    if r < 0:
        state[SEASON] = (state[SEASON] + 1) % NUM_SEASONS
    else:
        for p in range(cfg[CFG_NUM_PLAYERS]):
            state[resources_at(p, r)] += 1
            collect_poison(state, cfg, p, r)
    state[ACTIONS_LEFT] = ACTIONS_PER_TURN
    update_scores(state, cfg)


@njit(cache=True)
def end_turn(state, cfg):
    state[TURN] += 1
    if state[TURN] >= cfg[CFG_MAX_TURNS]:
        state[ENDER] = TURN_LIMIT
        return
    state[TURN_PLAYER] = (state[TURN_PLAYER] + 1) % cfg[CFG_NUM_PLAYERS]
    start_turn(state, cfg)


@njit(cache=True)
def after_action(state, cfg):
    """An action is fully done: the game may be over, or the turn after the second action."""
    update_scores(state, cfg)
    if state[ENDER] != RUNNING:
        return
    if state[ACTIONS_LEFT] <= 0:
        end_turn(state, cfg)


# --- carrying out an action ------------------------------------------------------------
# push_decision takes the args positionally, in the order of ARG_* (layout.py)
assert (ARG_ACTION, ARG_TARGET, ARG_PAY_TYPE, ARG_PAY_KEY, ARG_OWED, ARG_OWED_RES, ARG_CARDS) == (0, 1, 2, 3, 4, 5, 2)


@njit(cache=True)
def begin_payment(state, kind, arg, pay_type, amount, c0=0, c1=0, c2=0, c3=0, c4=0):
    """Push the payment of an action: ``amount`` ANY resources or Feast, or (a harvest)
    the card's cost c0..c4 in OP, PP, WR, SY, SD. The args follow ARG_* (layout.py)."""
    push_decision(state, DEC_PAY, state[TURN_PLAYER], kind, arg, pay_type, 0, amount, c0, c1, c2, c3, c4)


@njit(cache=True)
def resolve_payment(state, cfg):
    """Apply forced payments; when the debt is paid, carry out the pending action."""
    p = state[TURN_PLAYER]
    e = top_arg_slot(state, 0)
    while owed(state, e) > 0:
        a = only_pay_action(state, e, p)
        if a < 0:
            return
        apply_pay(state, e, p, a)
    kind = state[e + ARG_ACTION]
    arg = state[e + ARG_TARGET]
    pop_decision(state)
    complete(state, cfg, kind, arg)


@njit(cache=True)
def complete(state, cfg, kind, arg):
    """Carry out a paid action."""
    p = state[TURN_PLAYER]
    if kind == K_HARVEST:
        card = state[field_at(arg)]
        s = state[SEASON]
        cnt = state[basket_count_at(p, s)]
        state[basket_at(p, s, cnt)] = card
        state[basket_count_at(p, s)] = cnt + 1
        state[feast_at(p)] += cfg[cfg_feast_at(card)]
        if cfg[cfg_special_at(card)] == SP_MAGIC:
            state[magic_at(p)] += 1
        state[field_at(arg)] = pile_draw(state, DECK, DECK_N) if state[DECK_N] > 0 else -1
        if total_cards(state, p) == BASKET_SLOTS:
            state[ENDER] = p
    elif kind == K_T1 or kind == K_T3:
        state[resources_at(p, arg)] += 1
        if cfg[CFG_POISON_RULE] == POISON_EVERY_COLLECTION:
            collect_poison(state, cfg, p, arg)
    elif kind == K_T2:
        state[feast_at(p)] += 1
    elif kind == K_T4:
        state[SEASON] = (state[SEASON] + 1) % NUM_SEASONS
    elif kind == K_T5:
        # deal 4 new cards from the top into the row; the player orders the old ones under the deck
        first = arg * ROW_SIZE
        push_decision(
            state,
            DEC_BOTTOM,
            p,
            kind,
            arg,
            state[field_at(first)],
            state[field_at(first + 1)],
            state[field_at(first + 2)],
            state[field_at(first + 3)],
        )
        for j in range(ROW_SIZE):
            state[field_at(first + j)] = pile_draw(state, DECK, DECK_N) if state[DECK_N] > 0 else -1
        resolve_bottom(state, cfg)
        return
    elif kind == K_T6:
        begin_exchange(state, cfg, arg)
        return
    after_action(state, cfg)


# --- trade 6: which mushrooms are exchanged ----------------------------------------------
@njit(cache=True)
def begin_exchange(state, cfg, q):
    """The exchange with q is paid: p chooses the mushroom to give (DEC_GIVE), then the one to
    take (DEC_TAKE), each among the cards of the current season's basket; a choice with one
    option is made automatically."""
    p = state[TURN_PLAYER]
    push_decision(state, DEC_GIVE, p, K_T6, q)
    if state[basket_count_at(p, state[SEASON])] == 1:
        exchange_give(state, cfg, 0)


@njit(cache=True)
def exchange_give(state, cfg, place):
    q = top_arg(state, ARG_TARGET)
    pop_decision(state)
    push_decision(state, DEC_TAKE, state[TURN_PLAYER], K_T6, q, place)
    if state[basket_count_at(q, state[SEASON])] == 1:
        exchange_take(state, cfg, 0)


@njit(cache=True)
def exchange_take(state, cfg, place):
    """Swap the two mushrooms: each takes the other's place in its basket."""
    p = state[TURN_PLAYER]
    s = state[SEASON]
    q = top_arg(state, ARG_TARGET)
    i_me = basket_at(p, s, top_arg(state, ARG_GIVE))
    i_q = basket_at(q, s, place)
    pop_decision(state)
    tmp = state[i_me]
    state[i_me] = state[i_q]
    state[i_q] = tmp
    after_action(state, cfg)


@njit(cache=True)
def resolve_bottom(state, cfg):
    """The last replaced card goes under the deck by itself; then the action is done."""
    left = 0
    last = -1
    for j in range(ROW_SIZE):
        if top_arg(state, ARG_CARDS + j) >= 0:
            left += 1
            last = j
    if left > 1:
        return
    if left == 1:
        pile_push_bottom(state, DECK, DECK_N, top_arg(state, ARG_CARDS + last))
    pop_decision(state)
    after_action(state, cfg)


# --- main-phase legality ------------------------------------------------------------
# Every condition is computed without branches on the data (``&`` of the tests, a card id
# clamped to 0 where the slot is empty): the vector API calls ``legal_mask`` on every step of
# every env, on cold states, where mispredicted branches cost more than the loads and stores
# (RULES.md, "Speed of the vector API").
@njit(cache=True)
def can_harvest(state, cfg, p, slot):
    card = state[field_at(slot)]
    c = max(card, 0)  # an empty slot (-1) reads card 0's data and fails the first test
    s = state[SEASON]
    short = 0
    for r in range(NUM_RES):
        short += max(cfg[cfg_cost_at(c, r)] - state[resources_at(p, r)], 0)
    return (
        (card >= 0)
        & (((cfg[cfg_seasons_at(c)] >> s) & 1) == 1)
        & (state[basket_count_at(p, s)] < CAPACITY[s])
        & (short <= state[magic_at(p)])
    )


@njit(cache=True)
def can_exchange(state, cfg, p, q):
    s = state[SEASON]
    return (
        (state[feast_at(p)] + state[magic_at(p)] >= 2)
        & (state[basket_count_at(p, s)] > 0)
        & (state[basket_count_at(q, s)] > 0)
        & (not protected(state, q, cfg))
    )


# --- the kernels ----------------------------------------------------------------------
@njit(cache=True)
def init(state, seed, cfg, work):
    n = cfg[CFG_NUM_PLAYERS]
    for i in range(state.shape[0]):
        state[i] = 0
    rng_seed(state, RNG, seed)
    for i in range(NKINDS):
        state[deck_at(i)] = i
    state[DECK_N] = NKINDS
    shuffle_range(state, DECK, NKINDS, RNG)
    for j in range(FIELD_SIZE):
        state[field_at(j)] = pile_draw(state, DECK, DECK_N)
    for p in range(MAX_PLAYERS):
        for s in range(NUM_SEASONS):
            for k in range(MAX_CAPACITY):
                state[basket_at(p, s, k)] = -1
    for p in range(n):
        for r in range(NUM_RES):
            state[resources_at(p, r)] = 1
        state[feast_at(p)] = 2
    state[SEASON] = 0
    state[ENDER] = RUNNING
    first = rng_below(state, RNG, n)
    state[FIRST] = first
    state[TURN_PLAYER] = first
    start_turn(state, cfg)


@njit(cache=True)
def legal_mask(state, cfg, mask, work):
    for i in range(mask.shape[0]):
        mask[i] = 0
    if state[ENDER] != RUNNING:
        return 0
    p = current_player(state)
    kind = top_kind(state)
    if kind == DEC_PAY:
        return pay_mask(state, top_arg_slot(state, 0), p, mask)
    if kind == DEC_BOTTOM:
        k = 0
        for j in range(ROW_SIZE):
            if top_arg(state, ARG_CARDS + j) >= 0:
                mask[bottom_action(j)] = 1
                k += 1
        return k
    if kind == DEC_GIVE:
        k = state[basket_count_at(p, state[SEASON])]
        for j in range(k):
            mask[give_action(j)] = 1
        return k
    if kind == DEC_TAKE:
        k = state[basket_count_at(top_arg(state, ARG_TARGET), state[SEASON])]
        for j in range(k):
            mask[take_action(j)] = 1
        return k
    # the turn player's actions: every entry written (0 or 1) without branches on the data
    n = cfg[CFG_NUM_PLAYERS]
    k = 0
    for slot in range(FIELD_SIZE):
        ok = int(can_harvest(state, cfg, p, slot))
        mask[harvest_action(slot)] = ok
        k += ok
    tot = state[magic_at(p)]
    for r in range(NUM_RES):
        tot += state[resources_at(p, r)]
    t1 = int(tot >= 3)
    for r in range(NUM_RES):
        mask[trade1_action(r)] = t1
    mask[A_T2] = t1
    t3 = int(state[feast_at(p)] + state[magic_at(p)] >= 1)
    for r in range(NUM_RES):
        mask[trade3_action(r)] = t3
    mask[A_T4] = t3
    t5 = t3 & int(state[DECK_N] >= ROW_SIZE)
    mask[trade5_action(0)] = t5
    mask[trade5_action(1)] = t5
    k += (NUM_RES + 1) * (t1 + t3) + 2 * t5
    for o in range(1, n):
        q = p + o
        ok = int(can_exchange(state, cfg, p, q - n * (q >= n)))
        mask[trade6_action(o - 1)] = ok
        k += ok
    mask[A_END] = 1
    return k + 1


@njit(cache=True)
def step(state, action, cfg, work):
    _step(state, action, cfg)
    update_scores(state, cfg)


@njit(cache=True)
def _step(state, action, cfg):
    p = state[TURN_PLAYER]
    kind = top_kind(state)
    if kind == DEC_PAY:
        apply_pay(state, top_arg_slot(state, 0), p, action)
        resolve_payment(state, cfg)
        return
    if kind == DEC_GIVE:
        exchange_give(state, cfg, give_args(action))
        return
    if kind == DEC_TAKE:
        exchange_take(state, cfg, take_args(action))
        return
    if kind == DEC_BOTTOM:
        j = bottom_args(action)
        pile_push_bottom(state, DECK, DECK_N, top_arg(state, ARG_CARDS + j))
        set_top_arg(state, ARG_CARDS + j, -1)
        resolve_bottom(state, cfg)
        return
    if action == A_END:
        end_turn(state, cfg)
        return
    state[ACTIONS_LEFT] -= 1
    if action < A_T1:
        slot = harvest_args(action)
        c = state[field_at(slot)]
        begin_payment(
            state,
            K_HARVEST,
            slot,
            D_SPECIFIC,
            0,
            cfg[cfg_cost_at(c, 0)],
            cfg[cfg_cost_at(c, 1)],
            cfg[cfg_cost_at(c, 2)],
            cfg[cfg_cost_at(c, 3)],
            cfg[cfg_cost_at(c, 4)],
        )
    elif action < A_T2:
        begin_payment(state, K_T1, trade1_args(action), D_ANY, 3)
    elif action == A_T2:
        begin_payment(state, K_T2, 0, D_ANY, 3)
    elif action < A_T4:
        begin_payment(state, K_T3, trade3_args(action), D_FEAST, 1)
    elif action == A_T4:
        begin_payment(state, K_T4, 0, D_FEAST, 1)
    elif action < A_T6:
        begin_payment(state, K_T5, trade5_args(action), D_FEAST, 1)
    else:
        begin_payment(state, K_T6, (p + trade6_args(action) + 1) % cfg[CFG_NUM_PLAYERS], D_FEAST, 2)
    resolve_payment(state, cfg)


@njit(cache=True)
def current_player(state):
    return top_player(state) if decision_depth(state) > 0 else state[TURN_PLAYER]


@njit(cache=True)
def is_terminal(state):
    return state[ENDER] != RUNNING


@njit(cache=True)
def is_truncated(state, cfg):
    """The game was cut by the turn limit (not one of the rulebook's endings), unless the
    option turn_limit_end="score" makes the limit a normal ending."""
    return state[ENDER] == TURN_LIMIT and cfg[CFG_TURN_LIMIT_SCORED] == 0


@njit(cache=True)
def returns(state, cfg, out):
    n = cfg[CFG_NUM_PLAYERS]
    if state[ENDER] == TURN_LIMIT and cfg[CFG_TURN_LIMIT_SCORED] == 0:
        for p in range(n):
            out[p] = 0.0  # a truncation: no result (option turn_limit_end="score" scores it)
        return
    if cfg[CFG_REWARD] == 1:
        for p in range(n):
            out[p] = float(state[score_at(p)])
        return
    if cfg[CFG_REWARD] == 2:
        total = 0
        for p in range(n):
            total += state[score_at(p)]
        for p in range(n):
            out[p] = state[score_at(p)] - (total - state[score_at(p)]) / (n - 1.0)
        return
    best = state[score_at(0)]
    for p in range(1, n):
        if state[score_at(p)] > best:
            best = state[score_at(p)]
    k = 0
    for p in range(n):
        if state[score_at(p)] == best:
            k += 1
    for p in range(n):
        if state[score_at(p)] == best:
            out[p] = (n - k) / (k * (n - 1.0))
        else:
            out[p] = -1.0 / (n - 1.0)


generated_loops(globals())
