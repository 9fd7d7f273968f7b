"""Mycelia's determinizer for information-set search (``mushgym.search``): a compiled kernel.

Kept in its own small file on purpose (the game's layout is being reworked elsewhere). It
depends only on these names of :mod:`.rules`: ``NC``, ``NT_MAX``, ``L_DECK``, ``L_BOX``,
``L_PENDING``, ``L_HAND`` (hand of seat s = ``L_HAND + s``), ``D_KEEP``, ``LOC``, ``DECK``,
``DECK_N``, ``PILE`` (pile j at ``PILE + j * NT_MAX``), ``PILE_N``, ``STACK``, ``STACK_N``,
``ENTRY`` (a stack entry: kind, player, args) and ``CFG_NS`` (seats), and on ``WORK_SIZE``
being at least ``2 * NC``.

``determinize(state, player, cfg, work, rng)`` is :meth:`MyceliaGame.perturb_hidden`
compiled, drawing from the search's generator ``rng``:

* the cards ``player`` cannot see (in the deck, the box, the other seats' hands but a card
  being fruited, and the cards drawn to keep when another seat is deciding) swap places uniformly at random,
  every place keeping its count (hand sizes, deck size); the deck's cards are then put in
  a uniformly random order. The hidden cards are taken in card order and their places in
  place order before the shuffle, so for a given ``rng`` the result depends only on what
  ``player`` knows;
* the tiles of the two piles are shuffled together, each pile keeping its size (the tile
  shuffle starts from the true order: exact for the distribution, not canonical).

The North American expansion adds no hidden information of its own: its 35 cards are redrawn
with the others (a card not in the game, ``L_ABSENT``, is no hidden place), and its saplings,
sapling spores, Grandfather Trees and the two tiles of "explore 2 keep 1" (drawn face up, out of
the piles) are public, so they stay (``tests/games/mycelia/test_mycelia_expansion.py`` checks it).

Scratch: ``work[0:2*NC]``. The state's own generator is reseeded by the search. No allocation.
"""

from numba import njit

from mushgym.core import canonical_shuffle, shuffle_cards

from .rules import (
    CFG_NS,
    D_FRUIT_MAT,
    D_FRUIT_TILE,
    D_KEEP,
    D_PAY,
    DECK,
    ENTRY,
    L_BOX,
    L_DECK,
    L_HAND,
    L_PENDING,
    LOC,
    NC,
    NT_MAX,
    PILE,
    PILE_N,
    STACK,
    STACK_N,
)


@njit(cache=True)
def _hidden(loc, player, n_seats, own_pending):
    if loc == L_DECK or loc == L_BOX:
        return True
    if loc == L_PENDING:
        return not own_pending
    return L_HAND <= loc < L_HAND + n_seats and loc != L_HAND + player


@njit(cache=True)
def determinize(state, player, cfg, work, rng):
    n_seats = cfg[CFG_NS]
    depth = state[STACK_N]
    own_pending = False
    if depth > 0:
        top = STACK + (depth - 1) * ENTRY
        own_pending = state[top] == D_KEEP and state[top + 1] == player
    # hidden cards (ascending ids in work[0:m]) and their places (work[NC:NC+m], sorted)
    fruiting = -1  # a card being fruited is public: it stays
    for lvl in range(depth):
        k = state[STACK + lvl * ENTRY]
        if k == D_FRUIT_MAT or k == D_FRUIT_TILE or k == D_PAY:
            fruiting = state[STACK + lvl * ENTRY + 2]
    m = 0
    for c in range(NC):
        if c != fruiting and _hidden(state[LOC + c], player, n_seats, own_pending):
            work[m] = c
            work[NC + m] = state[LOC + c]
            m += 1
    canonical_shuffle(work, NC, m, rng, 0)  # the places sorted, then a uniform assignment to cards
    for i in range(m):
        state[LOC + work[i]] = work[NC + i]
    n = 0
    for c in range(NC):  # the deck: its cards in id order, then shuffled
        if state[LOC + c] == L_DECK:
            state[DECK + n] = c
            n += 1
    canonical_shuffle(state, DECK, n, rng, 0)
    # the two tile piles shuffled together, sizes kept: one pile of both stepping over the first
    # pile's empty slots
    n0 = state[PILE_N]
    shuffle_cards(state, PILE, n0 + state[PILE_N + 1], n0, NT_MAX - n0, rng, 0)
