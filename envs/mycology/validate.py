"""Mycology's compiled state check (the ``validate`` kernel of ``mushgym.Game.validate``).

The layout's per-slot bounds (layout.py) keep every index in range; this kernel checks
what depends on the options and on several slots at once, the same rules as
``MycologyGame.check_invariants`` (which names the broken one in Python, slowly):
each card in exactly one place, seats of the player count only, baskets within
their season and capacity, scores equal to what they add up to, the token bound,
the dice, the turn limit, the end of the game, and the pending decision's arguments
by its kind. It returns 0 for a consistent state, else one of the ``V_*`` codes
(:data:`VALIDATION_ERRORS` says what each means). No allocation: the cards seen
are two bit words
(no scratch needed).
"""

from numba import njit

from .layout import (
    ARG_ACTION, ARG_CARDS, ARG_GIVE, ARG_OWED, ARG_OWED_RES, ARG_PAY_KEY, ARG_PAY_TYPE,
    ARG_TARGET, BASKET_SLOTS, CAPACITY, CFG_MAX_TURNS, CFG_NUM_PLAYERS, D_ANY, D_FEAST, D_SPECIFIC, DEC_BOTTOM,
    DEC_GIVE, DEC_PAY, DEC_TAKE, DECK_N, DECISION_ARGS, DIE1, ENDER, FIELD_SIZE, FIRST, K_HARVEST, K_T5, K_T6,
    MAX_CAPACITY, MAX_PLAYERS, NKINDS, NUM_RES, NUM_SEASONS, ROLL, ROW_SIZE, RUNNING, SEASON, TURN, TURN_LIMIT,
    TURN_PLAYER, basket_at, basket_count_at, cfg_cost_at, cfg_feast_at, cfg_points_at, cfg_seasons_at, deck_at,
    decision_at, decision_depth, feast_at, field_at, magic_at, poison_at, resources_at, score_at,
)

V_OK = 0
V_SEAT = 1
V_TURN = 2
V_DICE = 3
V_ENDER = 4
V_EMPTY_SEAT = 5
V_BASKET = 6
V_CARDS = 7
V_SCORE = 8
V_TOKENS = 9
V_STACK = 10
V_DECISION = 11
V_FIELD = 12
V_END = 13

VALIDATION_ERRORS = {
    V_SEAT: "the player to act or the first player is not a seat of this player count",
    V_TURN: "the turn counter is beyond the turn limit",
    V_DICE: "the last roll is not the sum of two dice",
    V_ENDER: "the game's ender is not a seat of this player count",
    V_EMPTY_SEAT: "a seat beyond the player count holds tokens, points or cards",
    V_BASKET: "a basket holds a card of another season, or a place above its top is not empty",
    V_CARDS: "a card is missing or in two places (deck, field, baskets, cards going under the deck)",
    V_SCORE: "a score is not card points + Feast + Magic - 2 x Poison",
    V_TOKENS: "a player holds more tokens than the game can give",
    V_STACK: "a decision-stack entry above the top is not cleared, or a decision is pending after the end",
    V_DECISION: "the pending decision's kind, player or arguments are impossible",
    V_FIELD: "a field slot is empty while the deck still has cards",
    V_END: "the game's end (full baskets, ender, turn limit) is inconsistent",
}

MAX_OWED_ANY = 3     # ANY resources / Feast a pending payment may still owe: the observation's
MAX_OWED_FEAST = 2   # bounds (observation.py: owed_any, owed_feast)
_LOW_BITS = 62   # cards 0..61 in the first word, 62..83 in the second


@njit(cache=True, inline="always")
def _see(s0, s1, c):
    """Mark card ``c`` seen in the bit words ``(s0, s1)``: the new words, and False if it
    already was seen."""
    if c < _LOW_BITS:
        bit = 1 << c
        return s0 | bit, s1, (s0 & bit) == 0
    bit = 1 << (c - _LOW_BITS)
    return s0, s1 | bit, (s1 & bit) == 0


@njit(cache=True)
def validate(state, cfg, work):
    n = cfg[CFG_NUM_PLAYERS]
    max_turns = cfg[CFG_MAX_TURNS]
    if state[TURN_PLAYER] >= n or state[FIRST] >= n:
        return V_SEAT
    if state[TURN] > max_turns:
        return V_TURN
    d2 = state[ROLL] - state[DIE1]
    if d2 < 1 or d2 > 6:
        return V_DICE
    ender = state[ENDER]
    if ender >= n:
        return V_ENDER
    # cards: each exactly once
    s0 = 0
    s1 = 0
    nd = state[DECK_N]
    for i in range(nd):
        s0, s1, ok = _see(s0, s1, state[deck_at(i)])
        if not ok:
            return V_CARDS
    for j in range(FIELD_SIZE):
        c = state[field_at(j)]
        if c >= 0:
            s0, s1, ok = _see(s0, s1, c)
            if not ok:
                return V_CARDS
        elif nd > 0 and ender == RUNNING:
            return V_FIELD
    depth = decision_depth(state)
    kind = decision_at(state, 0, 0) if depth > 0 else 0
    if kind == DEC_BOTTOM:
        for j in range(ROW_SIZE):
            c = decision_at(state, 0, 2 + ARG_CARDS + j)
            if c >= 0:
                s0, s1, ok = _see(s0, s1, c)
                if not ok:
                    return V_CARDS
    max_feast = 0
    for c in range(NKINDS):
        if cfg[cfg_feast_at(c)] > max_feast:
            max_feast = cfg[cfg_feast_at(c)]
    token_bound = 5 + 2 + max_turns + 10 * (max_feast + 1)
    n_full = 0
    full_seat = -1
    for p in range(MAX_PLAYERS):
        tokens = state[feast_at(p)] + state[magic_at(p)]
        for r in range(NUM_RES):
            tokens += state[resources_at(p, r)]
        cards = 0
        points = 0
        for s in range(NUM_SEASONS):
            cnt = state[basket_count_at(p, s)]
            cards += cnt
            for k in range(MAX_CAPACITY):
                c = state[basket_at(p, s, k)]
                if k < cnt:
                    if c < 0 or not (cfg[cfg_seasons_at(c)] >> s) & 1:
                        return V_BASKET
                    if p < n:
                        s0, s1, ok = _see(s0, s1, c)
                        if not ok:
                            return V_CARDS
                    points += cfg[cfg_points_at(c)]
                elif c != -1:
                    return V_BASKET
        if p >= n:
            if tokens != 0 or cards != 0 or state[poison_at(p)] != 0 or state[score_at(p)] != 0:
                return V_EMPTY_SEAT
            continue
        # the proven bound grows by one per roll (token_bound in game.py): a state may not hold
        # more than the turns played so far allow (+1 for the roll of the turn under way), or
        # a corrupted count would pass now and break the bound a few rolls later
        if tokens > token_bound or tokens > 8 + state[TURN] + 10 * (max_feast + 1):
            return V_TOKENS
        if state[score_at(p)] != points + state[feast_at(p)] + state[magic_at(p)] - 2 * state[poison_at(p)]:
            return V_SCORE
        if cards == BASKET_SLOTS:
            n_full += 1
            full_seat = p
    if s0 != (1 << _LOW_BITS) - 1 or s1 != (1 << (NKINDS - _LOW_BITS)) - 1:
        return V_CARDS
    if ender == RUNNING:
        if n_full > 0:
            return V_END
    elif ender == TURN_LIMIT:
        if n_full > 0 or state[TURN] != max_turns:
            return V_END
    elif n_full != 1 or full_seat != ender:
        return V_END
    # the decision stack
    width = 2 + DECISION_ARGS
    for j in range(width if depth == 0 else 0):
        if decision_at(state, 0, j) != 0:
            return V_STACK
    if depth == 0:
        return V_OK
    if ender != RUNNING:
        return V_STACK
    if kind < DEC_PAY or decision_at(state, 0, 1) != state[TURN_PLAYER]:
        return V_DECISION
    action = decision_at(state, 0, 2 + ARG_ACTION)
    target = decision_at(state, 0, 2 + ARG_TARGET)
    me = state[TURN_PLAYER]
    season = state[SEASON]
    if kind == DEC_PAY:
        t = decision_at(state, 0, 2 + ARG_PAY_TYPE)
        if t < D_SPECIFIC or t > D_FEAST or (t == D_SPECIFIC) != (action == K_HARVEST):
            return V_DECISION
        key = decision_at(state, 0, 2 + ARG_PAY_KEY)
        if key < 0 or key > 2 * NUM_RES - 1:
            return V_DECISION
        total = 0
        for r in range(NUM_RES):
            o = decision_at(state, 0, 2 + ARG_OWED_RES + r)
            most = 0            # no harvest owes more of a resource than the dearest card costs
            for c in range(NKINDS):
                if cfg[cfg_cost_at(c, r)] > most:
                    most = cfg[cfg_cost_at(c, r)]
            if o < 0 or o > most:
                return V_DECISION
            total += o
        owed = total if t == D_SPECIFIC else decision_at(state, 0, 2 + ARG_OWED)
        if owed <= 0 or decision_at(state, 0, 2 + ARG_OWED) < 0:
            return V_DECISION
        if (t == D_ANY and owed > MAX_OWED_ANY) or (t == D_FEAST and owed > MAX_OWED_FEAST):
            return V_DECISION
    elif kind == DEC_GIVE or kind == DEC_TAKE:
        if action != K_T6 or target == me or target >= n:
            return V_DECISION
        mine = state[basket_count_at(me, season)]
        theirs = state[basket_count_at(target, season)]
        if mine < 1 or theirs < 1:
            return V_DECISION
        if kind == DEC_GIVE:
            if mine < 2:
                return V_DECISION
        else:
            g = decision_at(state, 0, 2 + ARG_GIVE)
            if g < 0 or g >= mine or theirs < 2:
                return V_DECISION
    else:   # DEC_BOTTOM
        if action != K_T5:
            return V_DECISION
        left = 0
        for j in range(ROW_SIZE):
            if decision_at(state, 0, 2 + ARG_CARDS + j) >= 0:
                left += 1
        if left < 2:
            return V_DECISION
    return V_OK
