"""Mycelium's cards and tokens: hands and what each player knows of the others', the decks
and discard piles, drawing, the supplies (kernels over the state of :mod:`.layout`)."""

from numba import njit

from mushgym.core import shuffle_range

from .layout import (
    A_PAY_TOKEN,
    C_ACTIVE,
    C_REVEALED,
    CFG_HOLDERS,
    CFG_NP,
    COMBAT_TOKENS,
    DECK,
    DECK_N,
    DECK_TOP,
    DECK_TOP_N,
    DISCARD,
    MAX_GATHER_LOCS,
    MAX_NUTRIENT_KINDS,
    MAXP,
    NDECK,
    NDECK_N,
    NDECK_TOP,
    NDECK_TOP_N,
    NDISCARD,
    NUM_MUSHLING_KINDS,
    NUM_NUTRIENT_CARDS,
    NUTRIENT_TOKENS,
    RNG,
    SPORE_TOKENS,
    TURN_PLAYER,
    c_card_at,
    c_repl_at,
    card_action,
    carea_at,
    cfg_copies_at,
    cfg_spore_at,
    ctok_at,
    deck_at,
    deck_top_at,
    discard_at,
    hand_at,
    known_at,
    limbo_at,
    loc_nut_at,
    loc_spores_at,
    mat_nut_at,
    mat_spores_at,
    ndeck_top_at,
    nseen_at,
    pay_card_action,
)


@njit(cache=True)
def hand_size(state, p):
    s = 0
    for t in range(NUM_MUSHLING_KINDS):
        s += state[hand_at(p, t)]
    return s


@njit(cache=True)
def public_out(state, cfg, t):
    """Copies of type ``t`` not publicly accounted for (could be in someone's hand)."""
    n = cfg[cfg_copies_at(t)]
    n -= state[discard_at(t)] + state[limbo_at(t)] + state[carea_at(t)]
    for side in range(2):
        if state[C_ACTIVE] and state[C_REVEALED]:
            if state[c_card_at(side)] == t:
                n -= 1
        if state[c_repl_at(side)] == t:
            n -= 1
    return n


@njit(cache=True)
def may_hold(state, cfg, p, t1, t2):
    """Reaction prompt eligibility: public information (default) or holding (``holders``)."""
    if cfg[CFG_HOLDERS]:
        return state[hand_at(p, t1)] > 0 or (t2 >= 0 and state[hand_at(p, t2)] > 0)
    if hand_size(state, p) == 0:
        return False
    return public_out(state, cfg, t1) > 0 or (t2 >= 0 and public_out(state, cfg, t2) > 0)


@njit(cache=True)
def lose_public(state, cfg, q, t):
    """``q`` gives up a card of type ``t`` in view of everyone."""
    state[hand_at(q, t)] -= 1
    for p in range(cfg[CFG_NP]):
        k = known_at(p, q, t)
        if state[k] > 0:
            state[k] -= 1


@njit(cache=True)
def lose_hidden(state, cfg, q, t, witness):
    """``q`` loses a card of type ``t`` that only ``q`` and ``witness`` (-1: nobody) see."""
    state[hand_at(q, t)] -= 1
    for p in range(cfg[CFG_NP]):
        if p == q:
            continue
        if p == witness:
            k = known_at(p, q, t)
            if state[k] > 0:
                state[k] -= 1
        else:
            for u in range(NUM_MUSHLING_KINDS):
                k = known_at(p, q, u)
                if state[k] > 0:
                    state[k] -= 1


@njit(cache=True)
def gain_public(state, cfg, q, t):
    state[hand_at(q, t)] += 1
    for p in range(cfg[CFG_NP]):
        if p != q:
            state[known_at(p, q, t)] += 1


@njit(cache=True)
def to_discard(state, t, n):
    state[discard_at(t)] += n


@njit(cache=True)
def counts_onto_pile(state, counts, nkinds, pile, count_off):
    """Put a pile kept as counts per kind (a discard pile) on top of a pile of kinds (a deck),
    unshuffled, emptying the counts; returns how many cards moved."""
    n0 = state[count_off]
    m = 0
    for k in range(nkinds):
        for _ in range(state[counts + k]):
            state[pile + n0 + m] = k
            m += 1
        state[counts + k] = 0
    state[count_off] = n0 + m
    return m


@njit(cache=True)
def discard_onto_deck(state):
    """The mushling discard pile on top of the deck, unshuffled; returns how many cards."""
    return counts_onto_pile(state, DISCARD, NUM_MUSHLING_KINDS, DECK, DECK_N)


@njit(cache=True)
def ndiscard_onto_deck(state):
    """The nutrient discard pile on top of the nutrient deck, unshuffled; returns how many."""
    return counts_onto_pile(state, NDISCARD, MAX_NUTRIENT_KINDS, NDECK, NDECK_N)


@njit(cache=True)
def forget_deck_top(state, nutrient):
    """The public set on top of a deck (a Witch's Hat's) is no longer known to be there."""
    if nutrient:
        state[NDECK_TOP_N] = 0
        for k in range(MAX_NUTRIENT_KINDS):
            state[ndeck_top_at(k)] = 0
    else:
        state[DECK_TOP_N] = 0
        for t in range(NUM_MUSHLING_KINDS):
            state[deck_top_at(t)] = 0


@njit(cache=True)
def draw_type(state):
    """Top mushling card (reshuffling the discard pile if the deck is empty), -1 if none."""
    if state[DECK_N] == 0:
        n = discard_onto_deck(state)
        shuffle_range(state, DECK, n, RNG)
        if n == 0:
            return -1
    n = state[DECK_N] - 1
    t = state[deck_at(n)]
    state[deck_at(n)] = 0
    state[DECK_N] = n
    if state[DECK_TOP_N] > 0:
        state[DECK_TOP_N] -= 1
        if state[DECK_TOP_N] == 0:
            forget_deck_top(state, False)
    return t


@njit(cache=True)
def draw_type_face_up(state):
    """Top mushling card drawn in view of everyone (it leaves the public set on top, if any)."""
    from_top = state[DECK_N] > 0 and state[DECK_TOP_N] > 0
    t = draw_type(state)
    if from_top and t >= 0 and state[deck_top_at(t)] > 0:
        state[deck_top_at(t)] -= 1
    return t


@njit(cache=True)
def draw_cards(state, p, k):
    for _ in range(k):
        t = draw_type(state)
        if t >= 0:
            state[hand_at(p, t)] += 1


@njit(cache=True)
def shuffle_nutrients_all(state):
    """The nutrient deck and discard pile shuffled together: nobody knows any position."""
    ndiscard_onto_deck(state)
    shuffle_range(state, NDECK, state[NDECK_N], RNG)
    forget_deck_top(state, True)
    for p in range(MAXP):
        for i in range(NUM_NUTRIENT_CARDS):
            state[nseen_at(p, i)] = 0


@njit(cache=True)
def witch_onto_deck(state, nutrient):
    """Witch's Hat: the discard pile shuffled onto its deck; everyone saw the pile, so the set
    on top is public (added to a set already there: the top cards are all of them)."""
    if nutrient:
        public_pile_onto_deck(state, NDISCARD, MAX_NUTRIENT_KINDS, NDECK, NDECK_N, NDECK_TOP, NDECK_TOP_N)
    else:
        public_pile_onto_deck(state, DISCARD, NUM_MUSHLING_KINDS, DECK, DECK_N, DECK_TOP, DECK_TOP_N)


@njit(cache=True)
def public_pile_onto_deck(state, counts, nkinds, pile, count_off, top_set, top_n):
    for k in range(nkinds):
        state[top_set + k] += state[counts + k]
    n0 = state[count_off]
    m = counts_onto_pile(state, counts, nkinds, pile, count_off)
    shuffle_range(state, pile + n0, m, RNG)
    state[top_n] += m


@njit(cache=True)
def spore_supply(state, cfg):
    s = SPORE_TOKENS
    for p in range(MAXP):
        s -= state[mat_spores_at(p)]
    for g in range(MAX_GATHER_LOCS):
        s -= state[loc_spores_at(g)]
    return s


@njit(cache=True)
def nutrient_supply(state, cfg):
    s = NUTRIENT_TOKENS
    for p in range(MAXP):
        s -= state[mat_nut_at(p)]
    for g in range(MAX_GATHER_LOCS):
        s -= state[loc_nut_at(g)]
    return s


@njit(cache=True)
def ctok_supply(state):
    s = COMBAT_TOKENS
    for p in range(MAXP):
        s -= state[ctok_at(p)]
    return s


@njit(cache=True)
def pay_capacity(state, cfg, p):
    v = 3 * state[mat_spores_at(p)]
    for t in range(NUM_MUSHLING_KINDS):
        v += state[hand_at(p, t)] * cfg[cfg_spore_at(t)]
    return v


@njit(cache=True)
def order_player(state, cfg, i):
    """The i-th player in turn order from the turn player."""
    return (state[TURN_PLAYER] + i) % cfg[CFG_NP]


@njit(cache=True)
def hand_card_mask(state, p, mask):
    """A card of any type in ``p``'s hand (the face-down cards, a gift, a discard)."""
    c = 0
    for t in range(NUM_MUSHLING_KINDS):
        if state[hand_at(p, t)] > 0:
            mask[card_action(t)] = 1
            c += 1
    return c


@njit(cache=True)
def payment_mask(state, cfg, p, mask):
    """The payments of a Build or a Buy: a Spore Token (3), a card for its spore value."""
    c = 0
    if state[mat_spores_at(p)] > 0:
        mask[A_PAY_TOKEN] = 1
        c += 1
    for t in range(NUM_MUSHLING_KINDS):
        if state[hand_at(p, t)] > 0 and cfg[cfg_spore_at(t)] > 0:
            mask[pay_card_action(t)] = 1
            c += 1
    return c
