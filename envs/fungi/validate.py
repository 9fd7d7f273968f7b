"""Fungi's compiled state check (the ``validate`` kernel of ``mushgym.Game.validate``).

The layout's per-slot bounds (layout.py) keep every index in range; this kernel checks
what depends on the deck and on several slots at once. It is the one set of Fungi's
invariants (``FungiGame.check_invariants`` reports its verdict as an AssertionError): each
card of the deck in exactly one place (draw pile, Night pile, Forest, decay pile,
discard, hands, displays, cooked pans, the cook being made), Night cards only in the
Night pile, hand sizes equal to the hands, publicly known cards within them, hand
limits, Fly agarics and the trim, cooked pans well formed and scores / mushrooms /
totals equal to what the pans add up to, sticks within the deck's total, the Forest
full while the draw pile lasts, the end of the game, the Moons' Night cards, the
pending decision (kind, player, a cook's arguments and a Pan to finish it), the player
to act having an action, and the decision count within ``max_game_length``. It returns
0 for a consistent state, else one of the ``V_*`` codes (:data:`VALIDATION_ERRORS`
says what each means). No allocation: the cards are counted kind by kind.
"""

from numba import njit

from .cards import BASKET, BUTTER, CIDRE, FLY, MOON, NHAND, NIGHT0, NKINDS, NNIGHT, NTYPES, PAN
from .layout import (
    BUTTER_NEED,
    CFG_START_PANS,
    CIDRE_NEED,
    COOK_FOREST,
    COOK_NIGHT,
    COOK_TYPE,
    D_COOK,
    D_TRIM,
    DECAY_N,
    DRAW_N,
    FOREST_N,
    FOREST_SIZE,
    MAX_TRIM,
    NIGHT_N,
    NO_DECISION,
    NSTEPS,
    PAN_BUTTER,
    PAN_CIDRE,
    PAN_FOREST,
    PAN_NIGHT,
    PAN_TYPE,
    START_HAND,
    TERMINAL,
    TURN_PLAYER,
    baskets_at,
    cfg_copies_at,
    cfg_flavor_at,
    cfg_sticks_at,
    cfg_units_at,
    cooked_butter_at,
    cooked_cidre_at,
    cooked_forest_at,
    cooked_night_at,
    cooked_pans_at,
    decay_at,
    decision_depth,
    discard_at,
    draw_pile_at,
    empty_pans_at,
    fly_new_at,
    fly_old_at,
    forest_at,
    hand_at,
    hand_n_at,
    known_at,
    mushrooms_cooked_at,
    night_pile_at,
    pan_records_at,
    score_at,
    sticks_at,
    top_arg,
    top_kind,
    top_player,
)
from .legality import cooked_units, hand_limit, has_action, trim_limit

V_OK = 0
V_PILE = 1
V_CARDS = 2
V_HAND = 3
V_KNOWN = 4
V_LIMIT = 5
V_FLY = 6
V_PAN = 7
V_SCORE = 8
V_STICKS = 9
V_STACK = 10
V_DECISION = 11
V_FOREST = 12
V_END = 13
V_MOONS = 14
V_NO_ACTION = 15
V_STEPS = 16

VALIDATION_ERRORS = {
    V_PILE: "a Night card is in the draw pile, Forest or decay pile, or another card in the Night pile",
    V_CARDS: "a card is missing or in two places (piles, Forest, decay, discard, hands, displays, cooked pans, "
    "the cook being made)",
    V_HAND: "a hand size is not the number of cards in that hand",
    V_KNOWN: "publicly known hand cards exceed the hand, or include Night cards (drawn face down)",
    V_LIMIT: "a hand holds more cards than its limit outside a Fly agaric discard",
    V_FLY: "a Fly agaric is marked as taken this turn outside its taker's discard, or the discard is impossible "
    "(no Fly agaric, nothing or too much to discard)",
    V_PAN: "a cooked pan is malformed (a Night Morel, under 3 mushrooms, too much Butter/Cidre for its mushrooms)",
    V_SCORE: "a score, mushrooms cooked or cooked totals are not what the cooked pans add up to",
    V_STICKS: "a player holds more sticks than selling every mushroom of the deck gives",
    V_STACK: "the decision stack is impossible (unknown kind, another player's decision, a decision after the end)",
    V_DECISION: "the pending cook is impossible (a Night Morel, under 3 mushrooms, or no Pan to finish it)",
    V_FOREST: "the Forest is not full while the draw pile still has cards",
    V_END: "the end of the game is inconsistent (terminal flag and an empty Forest disagree)",
    V_MOONS: "fewer Night cards are left than Moons still to be taken",
    V_NO_ACTION: "the player to act has no legal action",
    V_STEPS: "the decision count exceeds the game's proven length bound",
}


@njit(cache=True)
def _count_in(state, at0, n, k):
    """Cards of kind ``k`` among the ``n`` entries of a pile starting at slot ``at0``."""
    c = 0
    for i in range(n):
        if state[at0 + i] == k:
            c += 1
    return c


@njit(cache=True)
def _is_night(k):
    """Whether card kind ``k`` is a Night card."""
    return NIGHT0 <= k < NIGHT0 + NNIGHT


@njit(cache=True)
def _check_night_cards_placed(state):
    """V_PILE unless the Night pile holds Night cards only and the draw pile, the Forest and
    the decay pile hold none."""
    for i in range(state[NIGHT_N]):
        if not _is_night(state[night_pile_at(i)]):
            return V_PILE
    for i in range(state[DRAW_N]):
        if _is_night(state[draw_pile_at(i)]):
            return V_PILE
    for i in range(state[FOREST_N]):
        if _is_night(state[forest_at(i)]):
            return V_PILE
    for i in range(state[DECAY_N]):
        if _is_night(state[decay_at(i)]):
            return V_PILE
    return V_OK


@njit(cache=True)
def _pending_kind(state):
    """The kind of the pending decision, NO_DECISION if none is pending."""
    return top_kind(state) if decision_depth(state) > 0 else NO_DECISION


@njit(cache=True)
def _check_decision_stack(state):
    """V_STACK unless at most one decision is pending, a cook or a trim, before the end and
    for the player to act."""
    depth = decision_depth(state)
    kind = _pending_kind(state)
    if depth > 1 or (depth > 0 and kind != D_COOK and kind != D_TRIM):
        return V_STACK
    if depth > 0 and (state[TERMINAL] != 0 or top_player(state) != state[TURN_PLAYER]):
        return V_STACK
    return V_OK


@njit(cache=True)
def _check_pending_cook(state, cfg):
    """V_DECISION if the pending cook has a Night Morel, under 3 mushrooms, or no Pan to
    finish it (V_OK when no cook is pending)."""
    if _pending_kind(state) != D_COOK:
        return V_OK
    me = state[TURN_PLAYER]
    ct = top_arg(state, COOK_TYPE)
    cn = top_arg(state, COOK_NIGHT)
    cf = top_arg(state, COOK_FOREST)
    if cn > 0 and ct >= NNIGHT:
        return V_DECISION
    if cooked_units(ct, cn, cf, cfg) < 3:
        return V_DECISION
    if state[empty_pans_at(me)] == 0 and state[hand_at(me, PAN)] == 0:
        return V_DECISION
    return V_OK


@njit(cache=True)
def _held_by(state, p, k):
    """Cards of kind ``k`` that player ``p`` holds: in hand, cooked, as Pans, Fly agarics or
    baskets on display."""
    c = 0
    if k < NHAND:
        c += state[hand_at(p, k)]
    if k < NTYPES:
        c += state[cooked_forest_at(p, k)]
    elif k < NIGHT0 + NNIGHT:
        c += state[cooked_night_at(p, k - NIGHT0)]
    elif k == BUTTER:
        c += state[cooked_butter_at(p)]
    elif k == CIDRE:
        c += state[cooked_cidre_at(p)]
    elif k == PAN:
        c += state[empty_pans_at(p)] + state[cooked_pans_at(p)]
    elif k == FLY:
        c += state[fly_new_at(p)] + state[fly_old_at(p)]
    elif k == BASKET:
        c += state[baskets_at(p)]
    return c


@njit(cache=True)
def _in_pending_cook(state, k):
    """Cards of kind ``k`` in the cook being made (0 when no cook is pending)."""
    if _pending_kind(state) != D_COOK:
        return 0
    ct = top_arg(state, COOK_TYPE)
    if k == ct:
        return top_arg(state, COOK_FOREST)
    if ct < NNIGHT and k == NIGHT0 + ct:
        return top_arg(state, COOK_NIGHT)
    return 0


@njit(cache=True)
def _check_card_conservation(state, cfg):
    """V_CARDS unless every card of the deck is in exactly one place, counted kind by kind."""
    nd = state[DRAW_N]
    nn = state[NIGHT_N]
    nf = state[FOREST_N]
    ny = state[DECAY_N]
    for k in range(NKINDS):
        c = state[discard_at(k)]
        c += _count_in(state, draw_pile_at(0), nd, k)
        c += _count_in(state, night_pile_at(0), nn, k)
        c += _count_in(state, forest_at(0), nf, k)
        c += _count_in(state, decay_at(0), ny, k)
        for p in range(2):
            c += _held_by(state, p, k)
        c += _in_pending_cook(state, k)
        if c != cfg[cfg_copies_at(k)]:
            return V_CARDS
    return V_OK


@njit(cache=True)
def _most_sticks(cfg):
    """The sticks selling every mushroom of the deck gives."""
    most = 0
    for k in range(NIGHT0 + NNIGHT):
        most += cfg[cfg_copies_at(k)] * cfg[cfg_units_at(k)] * cfg[cfg_sticks_at(k)]
    return most


@njit(cache=True)
def _check_hand(state, p):
    """V_KNOWN if player ``p``'s publicly known cards exceed the hand or include Night cards,
    V_HAND if the hand size is not the number of cards in the hand."""
    h = 0
    for k in range(NHAND):
        hk = state[hand_at(p, k)]
        h += hk
        kn = state[known_at(p, k)]
        if kn > hk or (kn > 0 and _is_night(k)):
            return V_KNOWN
    if h != state[hand_n_at(p)]:
        return V_HAND
    return V_OK


@njit(cache=True)
def _check_hand_limit(state, p):
    """V_FLY if player ``p``'s Fly agaric discard (the pending trim) is impossible, or a Fly
    agaric is marked as taken this turn outside it; V_LIMIT if the hand is over its limit
    outside the discard (no limit after the end)."""
    h = state[hand_n_at(p)]
    if _pending_kind(state) == D_TRIM and p == state[TURN_PLAYER]:
        over = h - trim_limit(state, p)
        if over <= 0 or over > MAX_TRIM or state[fly_new_at(p)] == 0:
            return V_FLY
    elif state[TERMINAL] == 0:
        if state[fly_new_at(p)] != 0:
            return V_FLY
        if h > hand_limit(state, p):
            return V_LIMIT
    return V_OK


@njit(cache=True)
def _check_cooked_pans(state, cfg, p):
    """V_PAN if one of player ``p``'s cooked pans is malformed, V_SCORE if the score,
    mushrooms cooked or cooked Butter / Cidre are not what the pans add up to."""
    score = 0
    units = 0
    butter = 0
    cidre = 0
    for i in range(state[cooked_pans_at(p)]):
        t = state[pan_records_at(p, i, PAN_TYPE)]
        f = state[pan_records_at(p, i, PAN_FOREST)]
        n = state[pan_records_at(p, i, PAN_NIGHT)]
        b = state[pan_records_at(p, i, PAN_BUTTER)]
        c = state[pan_records_at(p, i, PAN_CIDRE)]
        if n > 0 and t >= NNIGHT:
            return V_PAN
        u = cooked_units(t, n, f, cfg)
        if u < 3 or BUTTER_NEED * b + CIDRE_NEED * c > u:
            return V_PAN
        score += u * cfg[cfg_flavor_at(t)] + b * cfg[cfg_flavor_at(BUTTER)] + c * cfg[cfg_flavor_at(CIDRE)]
        units += u
        butter += b
        cidre += c
    if (
        score != state[score_at(p)]
        or units != state[mushrooms_cooked_at(p)]
        or butter != state[cooked_butter_at(p)]
        or cidre != state[cooked_cidre_at(p)]
    ):
        return V_SCORE
    return V_OK


@njit(cache=True)
def _check_cooked_totals(state, p):
    """V_SCORE unless player ``p``'s cooked Forest and Night cards of each type are what the
    pans of that type add up to."""
    for t in range(NTYPES):
        fs = 0
        ns = 0
        for i in range(state[cooked_pans_at(p)]):
            if state[pan_records_at(p, i, PAN_TYPE)] == t:
                fs += state[pan_records_at(p, i, PAN_FOREST)]
                ns += state[pan_records_at(p, i, PAN_NIGHT)]
        if fs != state[cooked_forest_at(p, t)] or ns != state[cooked_night_at(p, t)]:
            return V_SCORE
    return V_OK


@njit(cache=True)
def _check_player(state, cfg, p, most_sticks):
    """Player ``p``'s hand, hand limit, sticks (at most ``most_sticks``) and cooked pans, in
    that order: the first failing code, else V_OK."""
    code = _check_hand(state, p)
    if code != V_OK:
        return code
    code = _check_hand_limit(state, p)
    if code != V_OK:
        return code
    if state[sticks_at(p)] > most_sticks:
        return V_STICKS
    code = _check_cooked_pans(state, cfg, p)
    if code != V_OK:
        return code
    return _check_cooked_totals(state, p)


@njit(cache=True)
def _check_forest_and_end(state):
    """V_END if the terminal flag and an empty Forest disagree, V_FOREST if the Forest is not
    full (but for a take's gap during a trim) while the draw pile still has cards."""
    terminal = state[TERMINAL] != 0
    nf = state[FOREST_N]
    if (nf == 0) != terminal:
        return V_END
    full = FOREST_SIZE - (1 if _pending_kind(state) == D_TRIM else 0)  # a take mid-turn leaves a gap
    if state[DRAW_N] > 0 and nf < full and not terminal:
        return V_FOREST
    return V_OK


@njit(cache=True)
def _check_moons(state, cfg):
    """V_MOONS if fewer Night cards are left than Moons still to be taken (when the deck has
    no more Moons than Night cards)."""
    nights = 0
    for k in range(NIGHT0, NIGHT0 + NNIGHT):
        nights += cfg[cfg_copies_at(k)]
    if cfg[cfg_copies_at(MOON)] <= nights:
        moons = (
            _count_in(state, draw_pile_at(0), state[DRAW_N], MOON)
            + _count_in(state, forest_at(0), state[FOREST_N], MOON)
            + _count_in(state, decay_at(0), state[DECAY_N], MOON)
        )
        if state[NIGHT_N] < moons:
            return V_MOONS
    return V_OK


@njit(cache=True)
def _check_length_bound(state, cfg):
    """V_STEPS if the decision count exceeds FungiGame.max_game_length (from the config)."""
    draw_size = -cfg[CFG_START_PANS]
    for k in range(NKINDS):
        if not _is_night(k):
            draw_size += cfg[cfg_copies_at(k)]
    if state[NSTEPS] > draw_size - 2 * START_HAND + cfg[cfg_copies_at(PAN)] + MAX_TRIM * cfg[cfg_copies_at(FLY)]:
        return V_STEPS
    return V_OK


@njit(cache=True)
def validate(state, cfg, work):
    """0 for a consistent state, else the code of the first check that fails, the checks
    run in a fixed order (piles, decision stack, pending cook, cards, each player, Forest
    and end, Moons, length bound, an action for the player to act)."""
    code = _check_night_cards_placed(state)
    if code != V_OK:
        return code
    code = _check_decision_stack(state)
    if code != V_OK:
        return code
    code = _check_pending_cook(state, cfg)
    if code != V_OK:
        return code
    code = _check_card_conservation(state, cfg)
    if code != V_OK:
        return code
    most_sticks = _most_sticks(cfg)
    for p in range(2):
        code = _check_player(state, cfg, p, most_sticks)
        if code != V_OK:
            return code
    code = _check_forest_and_end(state)
    if code != V_OK:
        return code
    code = _check_moons(state, cfg)
    if code != V_OK:
        return code
    code = _check_length_bound(state, cfg)
    if code != V_OK:
        return code
    if state[TERMINAL] == 0 and decision_depth(state) == 0 and not has_action(state, state[TURN_PLAYER], cfg):
        return V_NO_ACTION
    return V_OK
