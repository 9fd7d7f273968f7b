"""Mycology's determinizer for information-set search (``mushgym.search``): a compiled kernel.

``determinize(state, player, cfg, work, rng)`` redraws what ``player`` cannot see: the
order of the deck (the only hidden part of a Mycology state: baskets, tokens,
resources and the field are public). The deck's cards are shuffled in place with the
search's generator ``rng`` (``int64[4]``); the search reseeds the state's own generator,
so future dice are drawn afresh too.

Simplification (RULES.md, "Search"): cards that every player saw go under the deck
(a replaced row, trades 5) are known to sit at its bottom in a known order; the state
does not record how many of the bottom cards are such, so they are shuffled with the
rest. The search thus forgets where those cards are, which loses information but never
reveals any. The deck is put in canonical order (by card id) before the shuffle, so for
a given ``rng`` the result depends only on the set of deck cards (public), not on
their true order. No allocation.
"""

from numba import njit

from mushgym.core import rng_below

from .cards import NKINDS
from .layout import DECK, DECK_N


@njit(cache=True)
def determinize(state, player, cfg, work, rng):
    n = state[DECK_N]
    w = 0                      # canonical order first (by card id): the draw depends on the set only
    for c in range(NKINDS):
        for i in range(w, n):
            if state[DECK + i] == c:
                state[DECK + i] = state[DECK + w]
                state[DECK + w] = c
                w += 1
                break
    for i in range(n - 1, 0, -1):
        j = rng_below(rng, 0, i + 1)
        t = state[DECK + i]
        state[DECK + i] = state[DECK + j]
        state[DECK + j] = t
