"""Fungi's compiled state check (the ``validate`` kernel of ``mushgym.Game.validate``).

The layout's per-slot bounds (layout.py) keep every index in range; this kernel checks
what depends on the deck and on several slots at once, the same rules as
``FungiGame.check_invariants`` (which names the broken one in Python, slowly): each
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
    BUTTER_NEED, CIDRE_NEED, COOK_FOREST, COOK_NIGHT, COOK_TYPE, D_COOK, D_TRIM, DECAY_N, DRAW_N, FOREST_N,
    FOREST_SIZE, MAX_TRIM, NIGHT_N, NO_DECISION, NSTEPS, PAN_BUTTER, PAN_CIDRE, PAN_FOREST, PAN_NIGHT, PAN_TYPE,
    START_HAND, TERMINAL, TURN_PLAYER, baskets_at, cfg_copies_at, cfg_flavor_at, cfg_sticks_at, cfg_units_at,
    CFG_START_PANS, cooked_butter_at, cooked_cidre_at, cooked_forest_at, cooked_night_at, cooked_pans_at, decay_at,
    decision_depth, discard_at, draw_pile_at, empty_pans_at, fly_new_at, fly_old_at, forest_at, hand_at, hand_n_at,
    known_at, mushrooms_cooked_at, night_pile_at, pan_records_at, score_at, sticks_at, top_arg, top_kind,
    top_player,
)
from .legality import cooked_units, has_action, hand_limit, trim_limit

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
def validate(state, cfg, work):
    terminal = state[TERMINAL] != 0
    nd = state[DRAW_N]
    nn = state[NIGHT_N]
    nf = state[FOREST_N]
    ny = state[DECAY_N]
    # what may lie where
    for i in range(nn):
        k = state[night_pile_at(i)]
        if k < NIGHT0 or k >= NIGHT0 + NNIGHT:
            return V_PILE
    for i in range(nd):
        k = state[draw_pile_at(i)]
        if NIGHT0 <= k < NIGHT0 + NNIGHT:
            return V_PILE
    for i in range(nf):
        k = state[forest_at(i)]
        if NIGHT0 <= k < NIGHT0 + NNIGHT:
            return V_PILE
    for i in range(ny):
        k = state[decay_at(i)]
        if NIGHT0 <= k < NIGHT0 + NNIGHT:
            return V_PILE
    # the decision stack
    depth = decision_depth(state)
    kind = top_kind(state) if depth > 0 else NO_DECISION
    if depth > 1 or (depth > 0 and kind != D_COOK and kind != D_TRIM):
        return V_STACK
    if depth > 0 and (terminal or top_player(state) != state[TURN_PLAYER]):
        return V_STACK
    me = state[TURN_PLAYER]
    ct = -1
    cn = 0
    cf = 0
    if kind == D_COOK:
        ct = top_arg(state, COOK_TYPE)
        cn = top_arg(state, COOK_NIGHT)
        cf = top_arg(state, COOK_FOREST)
        if cn > 0 and ct >= NNIGHT:
            return V_DECISION
        if cooked_units(ct, cn, cf, cfg) < 3:
            return V_DECISION
        if state[empty_pans_at(me)] == 0 and state[hand_at(me, PAN)] == 0:
            return V_DECISION
    # every card exactly once
    for k in range(NKINDS):
        c = state[discard_at(k)]
        c += _count_in(state, draw_pile_at(0), nd, k)
        c += _count_in(state, night_pile_at(0), nn, k)
        c += _count_in(state, forest_at(0), nf, k)
        c += _count_in(state, decay_at(0), ny, k)
        for p in range(2):
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
        if kind == D_COOK:
            if k == ct:
                c += cf
            elif ct < NNIGHT and k == NIGHT0 + ct:
                c += cn
        if c != cfg[cfg_copies_at(k)]:
            return V_CARDS
    # hands, limits, Fly agarics, pans, scores
    most_sticks = 0
    for k in range(NIGHT0 + NNIGHT):
        most_sticks += cfg[cfg_copies_at(k)] * cfg[cfg_units_at(k)] * cfg[cfg_sticks_at(k)]
    for p in range(2):
        h = 0
        for k in range(NHAND):
            hk = state[hand_at(p, k)]
            h += hk
            kn = state[known_at(p, k)]
            if kn > hk or (kn > 0 and NIGHT0 <= k < NIGHT0 + NNIGHT):
                return V_KNOWN
        if h != state[hand_n_at(p)]:
            return V_HAND
        in_trim = kind == D_TRIM and p == me
        if in_trim:
            over = h - trim_limit(state, p)
            if over <= 0 or over > MAX_TRIM or state[fly_new_at(p)] == 0:
                return V_FLY
        elif not terminal:
            if state[fly_new_at(p)] != 0:
                return V_FLY
            if h > hand_limit(state, p):
                return V_LIMIT
        if state[sticks_at(p)] > most_sticks:
            return V_STICKS
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
        if (score != state[score_at(p)] or units != state[mushrooms_cooked_at(p)]
                or butter != state[cooked_butter_at(p)] or cidre != state[cooked_cidre_at(p)]):
            return V_SCORE
        for t in range(NTYPES):
            fs = 0
            ns = 0
            for i in range(state[cooked_pans_at(p)]):
                if state[pan_records_at(p, i, PAN_TYPE)] == t:
                    fs += state[pan_records_at(p, i, PAN_FOREST)]
                    ns += state[pan_records_at(p, i, PAN_NIGHT)]
            if fs != state[cooked_forest_at(p, t)] or ns != state[cooked_night_at(p, t)]:
                return V_SCORE
    # the Forest, the end, the Moons
    if (nf == 0) != terminal:
        return V_END
    full = FOREST_SIZE - (1 if kind == D_TRIM else 0)   # a take mid-turn leaves a gap
    if nd > 0 and nf < full and not terminal:
        return V_FOREST
    nights = 0
    for k in range(NIGHT0, NIGHT0 + NNIGHT):
        nights += cfg[cfg_copies_at(k)]
    if cfg[cfg_copies_at(MOON)] <= nights:
        moons = (_count_in(state, draw_pile_at(0), nd, MOON) + _count_in(state, forest_at(0), nf, MOON)
                 + _count_in(state, decay_at(0), ny, MOON))
        if nn < moons:
            return V_MOONS
    # the length bound (FungiGame.max_game_length from the config)
    draw_size = -cfg[CFG_START_PANS]
    for k in range(NKINDS):
        if not NIGHT0 <= k < NIGHT0 + NNIGHT:
            draw_size += cfg[cfg_copies_at(k)]
    if state[NSTEPS] > draw_size - 2 * START_HAND + cfg[cfg_copies_at(PAN)] + MAX_TRIM * cfg[cfg_copies_at(FLY)]:
        return V_STEPS
    if not terminal and depth == 0 and not has_action(state, me, cfg):
        return V_NO_ACTION
    return V_OK
