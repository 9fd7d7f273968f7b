"""Mycology's compiled state check (the ``validate`` kernel of ``mushgym.Game.validate``).

The layout's per-slot bounds (layout.py) keep every index in range; this kernel checks
what depends on the options and on several slots at once. It is the one set of
Mycology's invariants (``MycologyGame.check_invariants`` reports its verdict as an
AssertionError): each card in exactly one place, seats of the player count only, baskets within
their season and capacity, scores equal to what they add up to, the token bound,
the dice, the turn limit, the end of the game, and the pending decision's arguments
by its kind. It returns 0 for a consistent state, else one of the ``V_*`` codes
(:data:`VALIDATION_ERRORS` says what each means). No allocation: the cards seen
are two bit words (no scratch needed).
"""

from numba import njit

from .layout import (
    ARG_ACTION,
    ARG_CARDS,
    ARG_GIVE,
    ARG_OWED,
    ARG_OWED_RES,
    ARG_PAY_KEY,
    ARG_PAY_TYPE,
    ARG_TARGET,
    BASKET_SLOTS,
    CFG_MAX_TURNS,
    CFG_NUM_PLAYERS,
    D_ANY,
    D_FEAST,
    D_SPECIFIC,
    DEC_BOTTOM,
    DEC_GIVE,
    DEC_PAY,
    DEC_TAKE,
    DECISION_ARGS,
    DECK_N,
    DIE1,
    ENDER,
    FIELD_SIZE,
    FIRST,
    K_HARVEST,
    K_T5,
    K_T6,
    MAX_CAPACITY,
    MAX_PLAYERS,
    NKINDS,
    NUM_RES,
    NUM_SEASONS,
    ROLL,
    ROW_SIZE,
    RUNNING,
    SEASON,
    TURN,
    TURN_LIMIT,
    TURN_PLAYER,
    basket_at,
    basket_count_at,
    cfg_cost_at,
    cfg_feast_at,
    cfg_points_at,
    cfg_seasons_at,
    decision_at,
    decision_depth,
    deck_at,
    feast_at,
    field_at,
    magic_at,
    poison_at,
    resources_at,
    score_at,
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

MAX_OWED_ANY = 3  # ANY resources / Feast a pending payment may still owe: the observation's
MAX_OWED_FEAST = 2  # bounds (observation.py: owed_any, owed_feast)
_LOW_BITS = 62  # cards 0..61 in the first word, 62..83 in the second


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
def _check_seats_turn_and_dice(state, cfg):
    """V_SEAT, V_TURN, V_DICE or V_ENDER: the player to act and the first player seats of the
    player count, the turn within the limit, the roll a sum of two dice, the ender a seat."""
    n = cfg[CFG_NUM_PLAYERS]
    if state[TURN_PLAYER] >= n or state[FIRST] >= n:
        return V_SEAT
    if state[TURN] > cfg[CFG_MAX_TURNS]:
        return V_TURN
    d2 = state[ROLL] - state[DIE1]
    if d2 < 1 or d2 > 6:
        return V_DICE
    if state[ENDER] >= n:
        return V_ENDER
    return V_OK


@njit(cache=True)
def _see_deck_and_field(state):
    """The deck's and the field's cards marked seen: ``(code, s0, s1)``, code V_CARDS for a
    card seen twice, V_FIELD for an empty field slot while the deck has cards and the game
    runs, in the order the slots come."""
    s0 = 0
    s1 = 0
    nd = state[DECK_N]
    for i in range(nd):
        s0, s1, ok = _see(s0, s1, state[deck_at(i)])
        if not ok:
            return V_CARDS, s0, s1
    for j in range(FIELD_SIZE):
        c = state[field_at(j)]
        if c >= 0:
            s0, s1, ok = _see(s0, s1, c)
            if not ok:
                return V_CARDS, s0, s1
        elif nd > 0 and state[ENDER] == RUNNING:
            return V_FIELD, s0, s1
    return V_OK, s0, s1


@njit(cache=True)
def _see_cards_going_under(state, kind, s0, s1):
    """The cards of a pending DEC_BOTTOM marked seen: ``(code, s0, s1)``, code V_CARDS for a
    card seen twice (nothing to see for another ``kind``)."""
    if kind == DEC_BOTTOM:
        for j in range(ROW_SIZE):
            c = decision_at(state, 0, 2 + ARG_CARDS + j)
            if c >= 0:
                s0, s1, ok = _see(s0, s1, c)
                if not ok:
                    return V_CARDS, s0, s1
    return V_OK, s0, s1


@njit(cache=True)
def _see_baskets(state, cfg, p, mark, s0, s1):
    """Seat ``p``'s baskets, their cards marked seen if ``mark``: ``(code, s0, s1, cards,
    points)``, code V_BASKET for a card of another season or a place above the top not
    empty, V_CARDS for a card seen twice, in the order the places come."""
    cards = 0
    points = 0
    for s in range(NUM_SEASONS):
        cnt = state[basket_count_at(p, s)]
        cards += cnt
        for k in range(MAX_CAPACITY):
            c = state[basket_at(p, s, k)]
            if k < cnt:
                if c < 0 or not (cfg[cfg_seasons_at(c)] >> s) & 1:
                    return V_BASKET, s0, s1, cards, points
                if mark:
                    s0, s1, ok = _see(s0, s1, c)
                    if not ok:
                        return V_CARDS, s0, s1, cards, points
                points += cfg[cfg_points_at(c)]
            elif c != -1:
                return V_BASKET, s0, s1, cards, points
    return V_OK, s0, s1, cards, points


@njit(cache=True)
def _max_feast(cfg):
    """The most Feast tokens a card gives."""
    most = 0
    for c in range(NKINDS):
        if cfg[cfg_feast_at(c)] > most:
            most = cfg[cfg_feast_at(c)]
    return most


@njit(cache=True)
def _check_seat_totals(state, cfg, p, cards, points):
    """Seat ``p`` with ``cards`` cards worth ``points`` in its baskets: V_EMPTY_SEAT if a seat
    beyond the player count holds anything, V_TOKENS over the token bound, V_SCORE if the
    score is not what it adds up to."""
    tokens = state[feast_at(p)] + state[magic_at(p)]
    for r in range(NUM_RES):
        tokens += state[resources_at(p, r)]
    if p >= cfg[CFG_NUM_PLAYERS]:
        if tokens != 0 or cards != 0 or state[poison_at(p)] != 0 or state[score_at(p)] != 0:
            return V_EMPTY_SEAT
        return V_OK
    max_feast = _max_feast(cfg)
    token_bound = 5 + 2 + cfg[CFG_MAX_TURNS] + 10 * (max_feast + 1)
    # the proven bound grows by one per roll (token_bound in game.py): a state may not hold
    # more than the turns played so far allow (+1 for the roll of the turn under way), or
    # a corrupted count would pass now and break the bound a few rolls later
    if tokens > token_bound or tokens > 8 + state[TURN] + 10 * (max_feast + 1):
        return V_TOKENS
    if state[score_at(p)] != points + state[feast_at(p)] + state[magic_at(p)] - 2 * state[poison_at(p)]:
        return V_SCORE
    return V_OK


@njit(cache=True)
def _check_seats(state, cfg, s0, s1):
    """Every seat's baskets (cards marked seen for the seats of the player count) and totals,
    seat by seat: ``(code, s0, s1, n_full, full_seat)``, the number of seats with full
    baskets and the last of them (-1 if none)."""
    n = cfg[CFG_NUM_PLAYERS]
    n_full = 0
    full_seat = -1
    for p in range(MAX_PLAYERS):
        code, s0, s1, cards, points = _see_baskets(state, cfg, p, p < n, s0, s1)
        if code != V_OK:
            return code, s0, s1, n_full, full_seat
        code = _check_seat_totals(state, cfg, p, cards, points)
        if code != V_OK:
            return code, s0, s1, n_full, full_seat
        if p < n and cards == BASKET_SLOTS:
            n_full += 1
            full_seat = p
    return V_OK, s0, s1, n_full, full_seat


@njit(cache=True)
def _all_seen(s0, s1):
    """Whether the bit words ``(s0, s1)`` mark every card seen."""
    return s0 == (1 << _LOW_BITS) - 1 and s1 == (1 << (NKINDS - _LOW_BITS)) - 1


@njit(cache=True)
def _check_end(state, cfg, n_full, full_seat):
    """V_END unless the ender agrees with the ``n_full`` seats of full baskets (the last
    ``full_seat``) and the turn limit."""
    ender = state[ENDER]
    if ender == RUNNING:
        if n_full > 0:
            return V_END
    elif ender == TURN_LIMIT:
        if n_full > 0 or state[TURN] != cfg[CFG_MAX_TURNS]:
            return V_END
    elif n_full != 1 or full_seat != ender:
        return V_END
    return V_OK


@njit(cache=True)
def _check_stack_cleared(state):
    """V_STACK unless the decision stack's entry is all zeros (no decision pending)."""
    for j in range(2 + DECISION_ARGS):
        if decision_at(state, 0, j) != 0:
            return V_STACK
    return V_OK


@njit(cache=True)
def _dearest_cost(cfg, r):
    """The most of resource ``r`` a card costs."""
    most = 0
    for c in range(NKINDS):
        if cfg[cfg_cost_at(c, r)] > most:
            most = cfg[cfg_cost_at(c, r)]
    return most


@njit(cache=True)
def _check_payment(state, cfg, action):
    """V_DECISION if a pending DEC_PAY for ``action`` has an impossible type, key or amounts owed."""
    t = decision_at(state, 0, 2 + ARG_PAY_TYPE)
    if t < D_SPECIFIC or t > D_FEAST or (t == D_SPECIFIC) != (action == K_HARVEST):
        return V_DECISION
    key = decision_at(state, 0, 2 + ARG_PAY_KEY)
    if key < 0 or key > 2 * NUM_RES - 1:
        return V_DECISION
    total = 0
    for r in range(NUM_RES):
        o = decision_at(state, 0, 2 + ARG_OWED_RES + r)
        most = _dearest_cost(cfg, r)  # no harvest owes more of a resource than the dearest card costs
        if o < 0 or o > most:
            return V_DECISION
        total += o
    owed = total if t == D_SPECIFIC else decision_at(state, 0, 2 + ARG_OWED)
    if owed <= 0 or decision_at(state, 0, 2 + ARG_OWED) < 0:
        return V_DECISION
    if (t == D_ANY and owed > MAX_OWED_ANY) or (t == D_FEAST and owed > MAX_OWED_FEAST):
        return V_DECISION
    return V_OK


@njit(cache=True)
def _check_give_or_take(state, cfg, kind, action, target):
    """V_DECISION if a pending DEC_GIVE or DEC_TAKE (``kind``) of ``action`` with ``target``
    is impossible: not a 6-trade with another seat, or too few cards in this season's baskets."""
    me = state[TURN_PLAYER]
    season = state[SEASON]
    if action != K_T6 or target == me or target >= cfg[CFG_NUM_PLAYERS]:
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
    return V_OK


@njit(cache=True)
def _check_cards_to_bottom(state, action):
    """V_DECISION if a pending DEC_BOTTOM is not a 5-trade's or has fewer than 2 cards left."""
    if action != K_T5:
        return V_DECISION
    left = 0
    for j in range(ROW_SIZE):
        if decision_at(state, 0, 2 + ARG_CARDS + j) >= 0:
            left += 1
    if left < 2:
        return V_DECISION
    return V_OK


@njit(cache=True)
def _check_pending_decision(state, cfg, kind):
    """V_DECISION unless the pending decision of ``kind`` is known, the player to act's, and
    its arguments possible for that kind."""
    if kind < DEC_PAY or decision_at(state, 0, 1) != state[TURN_PLAYER]:
        return V_DECISION
    action = decision_at(state, 0, 2 + ARG_ACTION)
    if kind == DEC_PAY:
        return _check_payment(state, cfg, action)
    if kind == DEC_GIVE or kind == DEC_TAKE:
        return _check_give_or_take(state, cfg, kind, action, decision_at(state, 0, 2 + ARG_TARGET))
    return _check_cards_to_bottom(state, action)  # DEC_BOTTOM


@njit(cache=True)
def validate(state, cfg, work):
    """0 for a consistent state, else the code of the first check that fails, the checks
    run in a fixed order (seats, turn and dice; the cards, slot by slot and seat by seat;
    the end; the decision stack; the pending decision)."""
    code = _check_seats_turn_and_dice(state, cfg)
    if code != V_OK:
        return code
    depth = decision_depth(state)
    kind = decision_at(state, 0, 0) if depth > 0 else 0
    code, s0, s1 = _see_deck_and_field(state)
    if code != V_OK:
        return code
    code, s0, s1 = _see_cards_going_under(state, kind, s0, s1)
    if code != V_OK:
        return code
    code, s0, s1, n_full, full_seat = _check_seats(state, cfg, s0, s1)
    if code != V_OK:
        return code
    if not _all_seen(s0, s1):
        return V_CARDS
    code = _check_end(state, cfg, n_full, full_seat)
    if code != V_OK:
        return code
    if depth == 0:
        return _check_stack_cleared(state)
    if state[ENDER] != RUNNING:
        return V_STACK
    return _check_pending_decision(state, cfg, kind)
