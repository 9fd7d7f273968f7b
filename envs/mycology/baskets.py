"""What a player's baskets hold: stinkhorn protection, card count, scores, Poison."""

from numba import njit

from .layout import (
    CFG_MAX_TURNS,
    CFG_NUM_PLAYERS,
    NKINDS,
    NUM_RES,
    NUM_SEASONS,
    SP_POISON,
    SP_STINKHORN,
    basket_at,
    basket_count_at,
    cfg_points_at,
    cfg_poison_resource_at,
    cfg_special_at,
    feast_at,
    magic_at,
    poison_at,
    score_at,
)


@njit(cache=True)
def total_cards(state, p):
    t = 0
    for s in range(NUM_SEASONS):
        t += state[basket_count_at(p, s)]
    return t


@njit(cache=True)
def protected(state, p, cfg):
    """An uncovered stinkhorn on top of any of p's baskets. Without branches on the data (the
    vector API's ``observe`` and ``legal_mask`` run it on cold states, where a mispredicted
    branch costs more than the loads): an empty basket's place 0 holds -1 (validate.py)."""
    on = False
    for s in range(NUM_SEASONS):
        on |= is_stinkhorn(state[basket_at(p, s, max(state[basket_count_at(p, s)] - 1, 0))], cfg)  # the top card
    return on


@njit(cache=True, inline="always")
def is_stinkhorn(card, cfg):
    """``card`` (an id, or -1 for no card) is a stinkhorn; without a branch."""
    return (card >= 0) & (cfg[cfg_special_at(max(card, 0))] == SP_STINKHORN)


@njit(cache=True)
def update_scores(state, cfg):
    """score = card points + Feast + Magic - 2 x Poison, for every player. Every basket place
    read, without branches on the data (a place above the top holds -1 and adds 0)."""
    for p in range(cfg[CFG_NUM_PLAYERS]):
        sc = state[feast_at(p)] + state[magic_at(p)] - 2 * state[poison_at(p)]
        for s in range(NUM_SEASONS):
            for k in range(s + 1):  # season s's capacity
                c = state[basket_at(p, s, k)]
                sc += (c >= 0) * cfg[cfg_points_at(max(c, 0))]
        state[score_at(p)] = sc


@njit(cache=True)
def collect_poison(state, cfg, p, r):
    """p collects resource ``r``: one Poison token per poison mushroom of ``r`` in p's baskets
    (every place read, as in ``update_scores``)."""
    tokens = 0
    for s in range(NUM_SEASONS):
        for k in range(s + 1):
            c = state[basket_at(p, s, k)]
            cc = max(c, 0)
            tokens += (c >= 0) & (cfg[cfg_special_at(cc)] == SP_POISON) & (cfg[cfg_poison_resource_at(cc)] == r)
    state[poison_at(p)] += tokens


@njit(cache=True)
def poison_bound(cfg):
    """Most Poison tokens a player can hold: a collection of a resource gives one token per
    poison mushroom of that resource in the player's baskets (at most ``min(10, cards of that
    poison resource)``), and a player collects at most 3 times per turn (the roll, then 2
    actions that may be trades 1 or 3), in at most ``max_turns`` turns; Poison never goes down."""
    most = 0
    for r in range(NUM_RES):
        cards = 0
        for c in range(NKINDS):
            if cfg[cfg_special_at(c)] == SP_POISON and cfg[cfg_poison_resource_at(c)] == r:
                cards += 1
        if cards > most:
            most = cards
    return min(10, most) * 3 * cfg[CFG_MAX_TURNS]
