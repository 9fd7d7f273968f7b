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

from mushgym.core import canonical_shuffle

from .layout import DECK, DECK_N


@njit(cache=True)
def determinize(state, player, cfg, work, rng):
    canonical_shuffle(state, DECK, state[DECK_N], rng, 0)  # by card id, then shuffled: depends on the set only
