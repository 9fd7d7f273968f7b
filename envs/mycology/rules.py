"""Mycology rules as numba kernels over one int64 state array.

Kernel contract: :mod:`mushgym.core.batch`. The state layout is declared below
for the maximum of 6 players; the player count and options come from ``cfg``
(built by :class:`envs.mycology.game.MycologyGame.build_config`).

Flow of one turn: the 2d6 roll is made inside ``step`` (or ``init`` for the very
first turn) as soon as a turn starts; then the active player takes up to 2
actions (harvest / one of the six trades) or ends the turn early. A chosen
action that has a payment with a real choice in it (the "ANY 3" resources,
using the Magic token or not) enters the PAY phase, where the same player pays
one token at a time in a canonical order; a field-row replacement enters the
BOTTOM phase where the player orders the replaced cards under the deck. Moves
with only one legal option (a forced payment, the last card to the bottom, the
end of the turn after the second action) are applied automatically.
See RULES.md for every decision.
"""

import numpy as np
from numba import njit

from mushgym.core import RNG_WORDS, Layout, install_batch_kernels, pile_draw, pile_push_bottom, rng_below, rng_seed, shuffle_range

# --- sizes ------------------------------------------------------------------------
MAX_PLAYERS = 6
NUM_CARDS = 84
NUM_RES = 5
NUM_SEASONS = 4
FIELD_SIZE = 8
BASKET_SLOTS = 10
CF = 19  # card features in the observation

# resources (dice table order) and the dice total -> resource table (-1 = 7 = season)
OP, PP, WR, SY, SD = 0, 1, 2, 3, 4
DICE_RESOURCE = np.array([-1, -1, OP, PP, WR, SY, SD, -1, SD, SY, WR, PP, OP], np.int64)
CAPACITY = np.array([1, 2, 3, 4], np.int64)       # basket places per season
BASKET_OFF = np.array([0, 1, 3, 6], np.int64)     # first slot of each season basket

# specials
SP_NONE, SP_POISON, SP_STINKHORN, SP_MAGIC = 0, 1, 2, 3

# phases
PH_MAIN, PH_PAY, PH_BOTTOM, PH_OVER = 0, 1, 2, 3
# pending action kinds
K_HARVEST, K_T1, K_T2, K_T3, K_T4, K_T5, K_T6 = 0, 1, 2, 3, 4, 5, 6
# debt types
D_SPECIFIC, D_ANY, D_FEAST = 0, 1, 2

# --- actions ----------------------------------------------------------------------
A_HARVEST = 0      # + field slot 0..7
A_T1 = 8           # + resource: 3 ANY resources -> 1 resource of choice
A_T2 = 13          # 3 ANY resources -> 1 Feast
A_T3 = 14          # + resource: 1 Feast -> 1 resource of choice
A_T4 = 19          # 1 Feast -> advance the season
A_T5 = 20          # + row (0 top, 1 bottom): 1 Feast -> replace a field row
A_T6 = 22          # + (seat offset - 1): 2 Feast -> exchange top cards of the current season
A_END = 27         # end the turn
A_PAY_RES = 28     # + resource: pay one real resource
A_PAY_MAGIC = 33   # pay one Magic token (as the resource / Feast owed)
A_PAY_FEAST = 34   # pay one Feast token
A_BOTTOM = 35      # + column 0..3: put that replaced card under the deck next
NUM_ACTIONS = 39

# --- config layout ----------------------------------------------------------------
CFG_NUM_PLAYERS = 0
CFG_REWARD = 1         # 0 win/loss, 1 final score
CFG_MAX_TURNS = 2      # turn limit (a multiple of the player count)
CFG_POINTS = 8
CFG_SEASONS = CFG_POINTS + NUM_CARDS
CFG_FEAST = CFG_SEASONS + NUM_CARDS
CFG_SPECIAL = CFG_FEAST + NUM_CARDS
CFG_POISON_RES = CFG_SPECIAL + NUM_CARDS
CFG_COST = CFG_POISON_RES + NUM_CARDS   # [card * 5 + resource]
CFG_SIZE = CFG_COST + NUM_CARDS * NUM_RES

# --- state layout -----------------------------------------------------------------
L = Layout()
RNG = L.array("rng", RNG_WORDS)
CUR = L.scalar("current_player")
FIRST = L.scalar("first_player")
SEASON = L.scalar("season")
PHASE = L.scalar("phase")
ACTIONS_LEFT = L.scalar("actions_left")
TURN = L.scalar("turn")                 # completed turns
ROLL = L.scalar("roll")                 # last dice total (2..12)
DIE1 = L.scalar("die1")
ENDER = L.scalar("ender")               # player who filled the baskets, -1 turn limit, -2 running
PEND_KIND = L.scalar("pending_kind")
PEND_ARG = L.scalar("pending_arg")
DEBT_TYPE = L.scalar("debt_type")
DEBT = L.array("debt", NUM_RES)         # specific resources owed (harvest)
DEBT_ANY = L.scalar("debt_any")         # ANY resources owed (trades 1, 2)
DEBT_FEAST = L.scalar("debt_feast")     # Feast owed (trades 3-6)
PAY_MIN = L.scalar("pay_min")           # canonical payment order key
BOTTOM_CARDS = L.array("bottom_cards", 4)
RES = L.array("resources", MAX_PLAYERS * NUM_RES)
FEAST = L.array("feast", MAX_PLAYERS)
MAGIC = L.array("magic", MAX_PLAYERS)
POISON = L.array("poison", MAX_PLAYERS)
SCORE = L.array("score", MAX_PLAYERS)
BCOUNT = L.array("basket_count", MAX_PLAYERS * NUM_SEASONS)
BASKET = L.array("baskets", MAX_PLAYERS * BASKET_SLOTS)
FIELD = L.array("field", FIELD_SIZE)
DECK = L.array("deck", NUM_CARDS)       # bottom first, top = DECK[DECK_N - 1]
DECK_N = L.scalar("deck_count")
STATE_SIZE = L.size


def obs_size(n):
    """Observation length for ``n`` players (see env.py for the index table)."""
    return 4 + 3 + 3 + 11 + n + 2 + 3 + 5 + 2 + 1 + 7 + 8 + 4 * CF + FIELD_SIZE * (1 + CF) + n * (15 + BASKET_SLOTS * (1 + CF)) + NUM_CARDS


# --- helpers ----------------------------------------------------------------------
@njit(cache=True)
def _cost(cfg, card, r):
    return cfg[CFG_COST + card * NUM_RES + r]


@njit(cache=True)
def _total_cards(state, p):
    t = 0
    for s in range(NUM_SEASONS):
        t += state[BCOUNT + p * NUM_SEASONS + s]
    return t


@njit(cache=True)
def _top_card(state, p, s):
    c = state[BCOUNT + p * NUM_SEASONS + s]
    if c == 0:
        return -1
    return state[BASKET + p * BASKET_SLOTS + BASKET_OFF[s] + c - 1]


@njit(cache=True)
def _protected(state, p, cfg):
    """An uncovered stinkhorn on top of any of p's baskets."""
    for s in range(NUM_SEASONS):
        t = _top_card(state, p, s)
        if t >= 0 and cfg[CFG_SPECIAL + t] == SP_STINKHORN:
            return True
    return False


@njit(cache=True)
def _update_scores(state, cfg):
    n = cfg[CFG_NUM_PLAYERS]
    for p in range(n):
        sc = state[FEAST + p] + state[MAGIC + p] - 2 * state[POISON + p]
        for s in range(NUM_SEASONS):
            for k in range(state[BCOUNT + p * NUM_SEASONS + s]):
                sc += cfg[CFG_POINTS + state[BASKET + p * BASKET_SLOTS + BASKET_OFF[s] + k]]
        state[SCORE + p] = sc


@njit(cache=True)
def _start_turn(state, cfg):
    """The active player's 2d6 roll, then the action phase."""
    n = cfg[CFG_NUM_PLAYERS]
    d1 = rng_below(state, RNG, 6) + 1
    d2 = rng_below(state, RNG, 6) + 1
    total = d1 + d2
    state[DIE1] = d1
    state[ROLL] = total
    r = DICE_RESOURCE[total]
    if r < 0:
        state[SEASON] = (state[SEASON] + 1) % NUM_SEASONS
    else:
        for p in range(n):
            state[RES + p * NUM_RES + r] += 1
            # one Poison token per poison mushroom of that resource in p's baskets
            for s in range(NUM_SEASONS):
                for k in range(state[BCOUNT + p * NUM_SEASONS + s]):
                    c = state[BASKET + p * BASKET_SLOTS + BASKET_OFF[s] + k]
                    if cfg[CFG_SPECIAL + c] == SP_POISON and cfg[CFG_POISON_RES + c] == r:
                        state[POISON + p] += 1
    state[PHASE] = PH_MAIN
    state[ACTIONS_LEFT] = 2
    _update_scores(state, cfg)


@njit(cache=True)
def _end_turn(state, cfg):
    n = cfg[CFG_NUM_PLAYERS]
    state[TURN] += 1
    if state[TURN] >= cfg[CFG_MAX_TURNS]:
        state[ENDER] = -1
        state[PHASE] = PH_OVER
        return
    state[CUR] = (state[CUR] + 1) % n
    _start_turn(state, cfg)


# --- payments -----------------------------------------------------------------------
@njit(cache=True)
def _pay_feasible(state, p):
    """Can the remaining debt still be paid, respecting the canonical order key?"""
    t = state[DEBT_TYPE]
    pm = state[PAY_MIN]
    magic = state[MAGIC + p]
    if t == D_SPECIFIC:
        short = 0
        for r in range(NUM_RES):
            d = state[DEBT + r]
            if d > 0:
                if pm > 2 * r:  # magic already used for r: the rest of r must be magic
                    short += d
                else:
                    h = state[RES + p * NUM_RES + r]
                    if d > h:
                        short += d - h
        return short <= magic
    elif t == D_ANY:
        avail = magic
        for r in range(NUM_RES):
            if r >= pm:
                avail += state[RES + p * NUM_RES + r]
        return state[DEBT_ANY] <= avail
    else:
        avail = magic
        if pm == 0:
            avail += state[FEAST + p]
        return state[DEBT_FEAST] <= avail


@njit(cache=True)
def _current_debt_res(state):
    for r in range(NUM_RES):
        if state[DEBT + r] > 0:
            return r
    return -1


@njit(cache=True)
def _debt_left(state):
    t = state[DEBT_TYPE]
    if t == D_SPECIFIC:
        s = 0
        for r in range(NUM_RES):
            s += state[DEBT + r]
        return s
    elif t == D_ANY:
        return state[DEBT_ANY]
    return state[DEBT_FEAST]


@njit(cache=True)
def _apply_pay(state, p, a):
    """Apply pay action ``a``; returns False (state untouched) if it is not applicable."""
    t = state[DEBT_TYPE]
    if t == D_SPECIFIC:
        r = _current_debt_res(state)
        if r < 0:
            return False
        if a >= A_PAY_RES and a < A_PAY_RES + NUM_RES:
            if a - A_PAY_RES != r or 2 * r < state[PAY_MIN] or state[RES + p * NUM_RES + r] <= 0:
                return False
            state[RES + p * NUM_RES + r] -= 1
            state[DEBT + r] -= 1
            state[PAY_MIN] = 2 * r
            return True
        if a == A_PAY_MAGIC:
            if state[MAGIC + p] <= 0:
                return False
            state[MAGIC + p] -= 1
            state[DEBT + r] -= 1
            state[PAY_MIN] = 2 * r + 1
            return True
        return False
    elif t == D_ANY:
        if a >= A_PAY_RES and a < A_PAY_RES + NUM_RES:
            r = a - A_PAY_RES
            if r < state[PAY_MIN] or state[RES + p * NUM_RES + r] <= 0 or state[DEBT_ANY] <= 0:
                return False
            state[RES + p * NUM_RES + r] -= 1
            state[DEBT_ANY] -= 1
            state[PAY_MIN] = r
            return True
        if a == A_PAY_MAGIC:
            if state[MAGIC + p] <= 0 or state[DEBT_ANY] <= 0:
                return False
            state[MAGIC + p] -= 1
            state[DEBT_ANY] -= 1
            state[PAY_MIN] = NUM_RES
            return True
        return False
    else:
        if a == A_PAY_FEAST:
            if state[PAY_MIN] > 0 or state[FEAST + p] <= 0 or state[DEBT_FEAST] <= 0:
                return False
            state[FEAST + p] -= 1
            state[DEBT_FEAST] -= 1
            state[PAY_MIN] = 0
            return True
        if a == A_PAY_MAGIC:
            if state[MAGIC + p] <= 0 or state[DEBT_FEAST] <= 0:
                return False
            state[MAGIC + p] -= 1
            state[DEBT_FEAST] -= 1
            state[PAY_MIN] = 1
            return True
        return False


@njit(cache=True)
def _pay_legal(state, p, a):
    """Legal pay action: applicable and leaves the rest payable (state restored)."""
    saved_min = state[PAY_MIN]
    t = state[DEBT_TYPE]
    r = _current_debt_res(state)
    magic_before = state[MAGIC + p]
    feast_before = state[FEAST + p]
    if not _apply_pay(state, p, a):
        return False
    ok = _pay_feasible(state, p)
    # undo
    if t == D_SPECIFIC:
        state[DEBT + r] += 1
        if a == A_PAY_MAGIC:
            state[MAGIC + p] = magic_before
        else:
            state[RES + p * NUM_RES + r] += 1
    elif t == D_ANY:
        state[DEBT_ANY] += 1
        if a == A_PAY_MAGIC:
            state[MAGIC + p] = magic_before
        else:
            state[RES + p * NUM_RES + (a - A_PAY_RES)] += 1
    else:
        state[DEBT_FEAST] += 1
        state[MAGIC + p] = magic_before
        state[FEAST + p] = feast_before
    state[PAY_MIN] = saved_min
    return ok


@njit(cache=True)
def _pay_mask(state, p, mask):
    n = 0
    for r in range(NUM_RES):
        if _pay_legal(state, p, A_PAY_RES + r):
            mask[A_PAY_RES + r] = 1
            n += 1
    if _pay_legal(state, p, A_PAY_MAGIC):
        mask[A_PAY_MAGIC] = 1
        n += 1
    if _pay_legal(state, p, A_PAY_FEAST):
        mask[A_PAY_FEAST] = 1
        n += 1
    return n


@njit(cache=True)
def _only_pay_action(state, p):
    """The single legal pay action, or -1 if there are several (or none)."""
    found = -1
    for a in range(A_PAY_RES, A_PAY_FEAST + 1):
        if _pay_legal(state, p, a):
            if found >= 0:
                return -1
            found = a
    return found


@njit(cache=True)
def _begin_payment(state, cfg, kind, arg, dtype):
    state[PEND_KIND] = kind
    state[PEND_ARG] = arg
    state[DEBT_TYPE] = dtype
    state[PAY_MIN] = 0
    state[PHASE] = PH_PAY
    _resolve(state, cfg)


@njit(cache=True)
def _resolve(state, cfg):
    """Apply forced payments; when the debt is paid, carry out the pending action."""
    p = state[CUR]
    while _debt_left(state) > 0:
        a = _only_pay_action(state, p)
        if a < 0:
            return
        _apply_pay(state, p, a)
    _complete(state, cfg)


@njit(cache=True)
def _after_action(state, cfg):
    """An action is fully done: end the game, or the turn after the second action."""
    _update_scores(state, cfg)
    if state[PHASE] == PH_OVER:
        return
    state[PHASE] = PH_MAIN
    if state[ACTIONS_LEFT] <= 0:
        _end_turn(state, cfg)


@njit(cache=True)
def _complete(state, cfg):
    p = state[CUR]
    n = cfg[CFG_NUM_PLAYERS]
    kind = state[PEND_KIND]
    arg = state[PEND_ARG]
    for r in range(NUM_RES):
        state[DEBT + r] = 0
    state[DEBT_ANY] = 0
    state[DEBT_FEAST] = 0
    state[PAY_MIN] = 0
    if kind == K_HARVEST:
        card = state[FIELD + arg]
        s = state[SEASON]
        cnt = state[BCOUNT + p * NUM_SEASONS + s]
        state[BASKET + p * BASKET_SLOTS + BASKET_OFF[s] + cnt] = card
        state[BCOUNT + p * NUM_SEASONS + s] = cnt + 1
        state[FEAST + p] += cfg[CFG_FEAST + card]
        if cfg[CFG_SPECIAL + card] == SP_MAGIC:
            state[MAGIC + p] += 1
        state[FIELD + arg] = pile_draw(state, DECK, DECK_N) if state[DECK_N] > 0 else -1
        if _total_cards(state, p) == BASKET_SLOTS:
            state[ENDER] = p
            state[PHASE] = PH_OVER
    elif kind == K_T1 or kind == K_T3:
        state[RES + p * NUM_RES + arg] += 1
    elif kind == K_T2:
        state[FEAST + p] += 1
    elif kind == K_T4:
        state[SEASON] = (state[SEASON] + 1) % NUM_SEASONS
    elif kind == K_T5:
        # deal 4 new cards from the top into the row, then the player orders the old ones under the deck
        nb = 0
        for j in range(4):
            slot = arg * 4 + j
            old = state[FIELD + slot]
            state[BOTTOM_CARDS + j] = old
            if old >= 0:
                nb += 1
            state[FIELD + slot] = pile_draw(state, DECK, DECK_N) if state[DECK_N] > 0 else -1
        state[PHASE] = PH_BOTTOM
        _resolve_bottom(state, cfg)
        return
    elif kind == K_T6:
        q = arg
        s = state[SEASON]
        i_me = BASKET + p * BASKET_SLOTS + BASKET_OFF[s] + state[BCOUNT + p * NUM_SEASONS + s] - 1
        i_q = BASKET + q * BASKET_SLOTS + BASKET_OFF[s] + state[BCOUNT + q * NUM_SEASONS + s] - 1
        tmp = state[i_me]
        state[i_me] = state[i_q]
        state[i_q] = tmp
    _after_action(state, cfg)


@njit(cache=True)
def _resolve_bottom(state, cfg):
    left = 0
    last = -1
    for j in range(4):
        if state[BOTTOM_CARDS + j] >= 0:
            left += 1
            last = j
    if left > 1:
        return
    if left == 1:
        pile_push_bottom(state, DECK, DECK_N, state[BOTTOM_CARDS + last])
        state[BOTTOM_CARDS + last] = -1
    _after_action(state, cfg)


# --- main-phase legality ------------------------------------------------------------
@njit(cache=True)
def _can_harvest(state, cfg, p, slot):
    card = state[FIELD + slot]
    if card < 0:
        return False
    s = state[SEASON]
    if (cfg[CFG_SEASONS + card] >> s) & 1 == 0:
        return False
    if state[BCOUNT + p * NUM_SEASONS + s] >= CAPACITY[s]:
        return False
    short = 0
    for r in range(NUM_RES):
        d = _cost(cfg, card, r) - state[RES + p * NUM_RES + r]
        if d > 0:
            short += d
    return short <= state[MAGIC + p]


@njit(cache=True)
def _can_exchange(state, cfg, p, q):
    s = state[SEASON]
    if state[FEAST + p] + state[MAGIC + p] < 2:
        return False
    if state[BCOUNT + p * NUM_SEASONS + s] == 0 or state[BCOUNT + q * NUM_SEASONS + s] == 0:
        return False
    return not _protected(state, q, cfg)


# --- the kernels ----------------------------------------------------------------------
@njit(cache=True)
def init(state, seed, cfg, work):
    n = cfg[CFG_NUM_PLAYERS]
    for i in range(state.shape[0]):
        state[i] = 0
    rng_seed(state, RNG, seed)
    for i in range(NUM_CARDS):
        state[DECK + i] = i
    state[DECK_N] = NUM_CARDS
    shuffle_range(state, DECK, NUM_CARDS, RNG)
    for j in range(FIELD_SIZE):
        state[FIELD + j] = pile_draw(state, DECK, DECK_N)
    for p in range(MAX_PLAYERS):
        for s in range(BASKET_SLOTS):
            state[BASKET + p * BASKET_SLOTS + s] = -1
    for p in range(n):
        for r in range(NUM_RES):
            state[RES + p * NUM_RES + r] = 1
        state[FEAST + p] = 2
    for j in range(4):
        state[BOTTOM_CARDS + j] = -1
    state[SEASON] = 0
    state[ENDER] = -2
    first = rng_below(state, RNG, n)
    state[FIRST] = first
    state[CUR] = first
    _start_turn(state, cfg)


@njit(cache=True)
def legal_mask(state, cfg, mask, work):
    for i in range(mask.shape[0]):
        mask[i] = 0
    ph = state[PHASE]
    p = state[CUR]
    n = cfg[CFG_NUM_PLAYERS]
    if ph == PH_OVER:
        return 0
    if ph == PH_PAY:
        return _pay_mask(state, p, mask)
    if ph == PH_BOTTOM:
        k = 0
        for j in range(4):
            if state[BOTTOM_CARDS + j] >= 0:
                mask[A_BOTTOM + j] = 1
                k += 1
        return k
    k = 0
    for slot in range(FIELD_SIZE):
        if _can_harvest(state, cfg, p, slot):
            mask[A_HARVEST + slot] = 1
            k += 1
    tot = state[MAGIC + p]
    for r in range(NUM_RES):
        tot += state[RES + p * NUM_RES + r]
    if tot >= 3:
        for r in range(NUM_RES):
            mask[A_T1 + r] = 1
        mask[A_T2] = 1
        k += 6
    fm = state[FEAST + p] + state[MAGIC + p]
    if fm >= 1:
        for r in range(NUM_RES):
            mask[A_T3 + r] = 1
        mask[A_T4] = 1
        k += 6
        if state[DECK_N] >= 4:
            mask[A_T5] = 1
            mask[A_T5 + 1] = 1
            k += 2
    for o in range(1, n):
        if _can_exchange(state, cfg, p, (p + o) % n):
            mask[A_T6 + o - 1] = 1
            k += 1
    mask[A_END] = 1
    return k + 1


@njit(cache=True)
def step(state, action, cfg, work):
    _step(state, action, cfg)
    _update_scores(state, cfg)


@njit(cache=True)
def _step(state, action, cfg):
    p = state[CUR]
    n = cfg[CFG_NUM_PLAYERS]
    ph = state[PHASE]
    if ph == PH_PAY:
        _apply_pay(state, p, action)
        _resolve(state, cfg)
        return
    if ph == PH_BOTTOM:
        j = action - A_BOTTOM
        pile_push_bottom(state, DECK, DECK_N, state[BOTTOM_CARDS + j])
        state[BOTTOM_CARDS + j] = -1
        _resolve_bottom(state, cfg)
        return
    if action == A_END:
        _end_turn(state, cfg)
        return
    state[ACTIONS_LEFT] -= 1
    if action < A_T1:
        card = state[FIELD + action]
        for r in range(NUM_RES):
            state[DEBT + r] = _cost(cfg, card, r)
        _begin_payment(state, cfg, K_HARVEST, action, D_SPECIFIC)
    elif action < A_T2:
        state[DEBT_ANY] = 3
        _begin_payment(state, cfg, K_T1, action - A_T1, D_ANY)
    elif action == A_T2:
        state[DEBT_ANY] = 3
        _begin_payment(state, cfg, K_T2, 0, D_ANY)
    elif action < A_T4:
        state[DEBT_FEAST] = 1
        _begin_payment(state, cfg, K_T3, action - A_T3, D_FEAST)
    elif action == A_T4:
        state[DEBT_FEAST] = 1
        _begin_payment(state, cfg, K_T4, 0, D_FEAST)
    elif action < A_T6:
        state[DEBT_FEAST] = 1
        _begin_payment(state, cfg, K_T5, action - A_T5, D_FEAST)
    else:
        state[DEBT_FEAST] = 2
        _begin_payment(state, cfg, K_T6, (p + action - A_T6 + 1) % n, D_FEAST)


@njit(cache=True)
def current_player(state):
    return state[CUR]


@njit(cache=True)
def is_terminal(state):
    return state[PHASE] == PH_OVER


@njit(cache=True)
def returns(state, cfg, out):
    n = cfg[CFG_NUM_PLAYERS]
    if cfg[CFG_REWARD] == 1:
        for p in range(n):
            out[p] = float(state[SCORE + p])
        return
    if cfg[CFG_REWARD] == 2:
        total = 0
        for p in range(n):
            total += state[SCORE + p]
        for p in range(n):
            out[p] = state[SCORE + p] - (total - state[SCORE + p]) / (n - 1.0)
        return
    best = state[SCORE]
    for p in range(1, n):
        if state[SCORE + p] > best:
            best = state[SCORE + p]
    k = 0
    for p in range(n):
        if state[SCORE + p] == best:
            k += 1
    for p in range(n):
        if state[SCORE + p] == best:
            out[p] = (n - k) / (k * (n - 1.0))
        else:
            out[p] = -1.0 / (n - 1.0)


@njit(cache=True)
def _card_features(cfg, card, out, o):
    """CF floats describing ``card`` at out[o:o+CF] (all zero if card < 0)."""
    if card < 0:
        for i in range(CF):
            out[o + i] = 0.0
        return
    out[o] = cfg[CFG_POINTS + card] / 10.0
    for s in range(NUM_SEASONS):
        out[o + 1 + s] = float((cfg[CFG_SEASONS + card] >> s) & 1)
    for r in range(NUM_RES):
        out[o + 5 + r] = cfg[CFG_COST + card * NUM_RES + r] / 4.0
    out[o + 10] = cfg[CFG_FEAST + card] / 4.0
    sp = cfg[CFG_SPECIAL + card]
    out[o + 11] = 1.0 if sp == SP_POISON else 0.0
    out[o + 12] = 1.0 if sp == SP_STINKHORN else 0.0
    out[o + 13] = 1.0 if sp == SP_MAGIC else 0.0
    pr = cfg[CFG_POISON_RES + card]
    for r in range(NUM_RES):
        out[o + 14 + r] = 1.0 if pr == r else 0.0


@njit(cache=True)
def observe(state, player, cfg, out, work):
    n = cfg[CFG_NUM_PLAYERS]
    for i in range(out.shape[0]):
        out[i] = 0.0
    o = 0
    out[o + state[SEASON]] = 1.0
    o += 4
    ph = state[PHASE]
    if ph != PH_OVER:
        out[o + ph] = 1.0
    o += 3
    al = state[ACTIONS_LEFT]
    if al >= 0 and al <= 2:
        out[o + al] = 1.0
    o += 3
    if state[ROLL] >= 2:
        out[o + state[ROLL] - 2] = 1.0
    o += 11
    out[o + (state[CUR] - player + n) % n] = 1.0
    o += n
    out[o] = state[TURN] / float(cfg[CFG_MAX_TURNS])
    out[o + 1] = state[DECK_N] / float(NUM_CARDS)
    o += 2
    # pending payment
    if ph == PH_PAY:
        out[o + state[DEBT_TYPE]] = 1.0
    o += 3
    for r in range(NUM_RES):
        out[o + r] = float(state[DEBT + r])
    o += 5
    out[o] = float(state[DEBT_ANY])
    out[o + 1] = float(state[DEBT_FEAST])
    o += 2
    out[o] = state[PAY_MIN] / 10.0
    o += 1
    if ph == PH_PAY or ph == PH_BOTTOM:
        out[o + state[PEND_KIND]] = 1.0
        arg = state[PEND_ARG]
        if state[PEND_KIND] == K_T6:
            arg = (arg - player + n) % n
        out[o + 7 + arg] = 1.0
    o += 15
    for j in range(4):
        _card_features(cfg, state[BOTTOM_CARDS + j], out, o)
        o += CF
    # field
    for j in range(FIELD_SIZE):
        c = state[FIELD + j]
        if c >= 0:
            out[o] = 1.0
            _card_features(cfg, c, out, o + 1)
        o += 1 + CF
    # seats, observer first
    for k in range(n):
        q = (player + k) % n
        for r in range(NUM_RES):
            out[o + r] = float(state[RES + q * NUM_RES + r])
        out[o + 5] = float(state[FEAST + q])
        out[o + 6] = float(state[MAGIC + q])
        out[o + 7] = float(state[POISON + q])
        out[o + 8] = float(state[SCORE + q])
        for s in range(NUM_SEASONS):
            out[o + 9 + s] = state[BCOUNT + q * NUM_SEASONS + s] / float(CAPACITY[s])
        out[o + 13] = 1.0 if _protected(state, q, cfg) else 0.0
        out[o + 14] = 1.0 if q == state[FIRST] else 0.0
        o += 15
        for s in range(NUM_SEASONS):
            cnt = state[BCOUNT + q * NUM_SEASONS + s]
            for kk in range(CAPACITY[s]):
                if kk < cnt:
                    out[o] = 1.0
                    _card_features(cfg, state[BASKET + q * BASKET_SLOTS + BASKET_OFF[s] + kk], out, o + 1)
                o += 1 + CF
    # the set of cards still in the deck (public by elimination; the order is hidden)
    for i in range(state[DECK_N]):
        out[o + state[DECK + i]] = 1.0
    o += NUM_CARDS


install_batch_kernels(globals())
