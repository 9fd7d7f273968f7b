"""Piles of cards inside a state array.

A pile is a fixed region ``state[start:start+capacity]`` plus a count slot;
the cards are the first ``count`` entries and the top of the pile is the last
one. Cards are small non-negative integers (card kinds or card ids).
"""

from numba import njit

from .rng import rng_below


@njit(cache=True)
def shuffle_range(state, start, n, rng_off):
    """Fisher-Yates shuffle of ``state[start:start+n]`` with the state's generator."""
    shuffle_cards(state, start, n, 0, 0, state, rng_off)


# --- hidden piles redrawn (determinizers, hidden decks) ------------------------------------
# A pile here is ``n`` cards at ``start`` that may step over a ``hole``: the ``hole_n`` slots
# from ``start + hole`` belong to something else (a public set inside the deck) and stay put;
# ``hole_n = 0`` is a plain run of slots. ``gen`` / ``gen_off`` is any generator: the state's
# own (``state, RNG``) or a search's (``rng, 0``).


@njit(cache=True, inline="always")
def pile_slot(start, i, hole, hole_n):
    """The slot of card ``i`` of a pile at ``start`` whose slots ``hole..hole+hole_n-1`` are skipped."""
    return start + i if i < hole else start + i + hole_n


@njit(cache=True)
def shuffle_cards(cards, start, n, hole, hole_n, gen, gen_off):
    """Fisher-Yates over the pile's ``n`` cards (skipping the hole), ``n - 1`` draws
    ``rng_below(gen, gen_off, i + 1)`` for ``i = n-1 .. 1``."""
    for i in range(n - 1, 0, -1):
        j = rng_below(gen, gen_off, i + 1)
        a = pile_slot(start, i, hole, hole_n)
        b = pile_slot(start, j, hole, hole_n)
        tmp = cards[a]
        cards[a] = cards[b]
        cards[b] = tmp


@njit(cache=True)
def sort_cards(cards, start, n, hole, hole_n):
    """The pile's cards in ascending order (insertion sort, skipping the hole): the canonical
    order of a multiset of cards, the same whatever order they came in."""
    for i in range(1, n):
        x = cards[pile_slot(start, i, hole, hole_n)]
        k = i
        while k > 0 and cards[pile_slot(start, k - 1, hole, hole_n)] > x:
            cards[pile_slot(start, k, hole, hole_n)] = cards[pile_slot(start, k - 1, hole, hole_n)]
            k -= 1
        cards[pile_slot(start, k, hole, hole_n)] = x


@njit(cache=True)
def canonical_shuffle(cards, start, n, gen, gen_off):
    """A hidden pile redrawn: ``cards[start:start+n]`` put in canonical (ascending) order, then
    shuffled from ``gen``. For a given generator the result depends only on which cards the
    pile holds (what the players know), not on the order they were in (which they do not):
    what a determinizer needs, so that one information set gives one redraw per seed."""
    canonical_shuffle_around(cards, start, n, n, 0, gen, gen_off)


@njit(cache=True)
def canonical_shuffle_around(cards, start, n, hole, hole_n, gen, gen_off):
    """:func:`canonical_shuffle` of a pile of ``n`` cards at ``start`` that steps over the
    ``hole_n`` slots from ``start + hole`` (they stay as they are)."""
    sort_cards(cards, start, n, hole, hole_n)
    shuffle_cards(cards, start, n, hole, hole_n, gen, gen_off)


@njit(cache=True)
def pile_push(state, start, count_off, card):
    state[start + state[count_off]] = card
    state[count_off] += 1


@njit(cache=True)
def pile_draw(state, start, count_off):
    """Remove and return the top card, or -1 if the pile is empty."""
    n = state[count_off]
    if n == 0:
        return -1
    n -= 1
    state[count_off] = n
    card = state[start + n]
    state[start + n] = 0
    return card


@njit(cache=True)
def refill_slots(state, slots, n_slots, start, count_off):
    """Face-up slots ``state[slots:slots+n_slots]`` that are empty (negative) take the top
    cards of the pile at ``start`` in slot order, while the pile lasts (a shop, a market)."""
    for s in range(n_slots):
        if state[slots + s] < 0:
            card = pile_draw(state, start, count_off)
            if card < 0:
                return
            state[slots + s] = card


@njit(cache=True)
def pile_push_bottom(state, start, count_off, card):
    """Put a card under the pile (shifts the others up by one)."""
    n = state[count_off]
    for i in range(n, 0, -1):
        state[start + i] = state[start + i - 1]
    state[start] = card
    state[count_off] = n + 1


@njit(cache=True)
def pile_remove_at(state, start, count_off, index):
    """Remove and return the card at ``index`` (0 = bottom), closing the gap."""
    n = state[count_off]
    card = state[start + index]
    for i in range(index, n - 1):
        state[start + i] = state[start + i + 1]
    state[start + n - 1] = 0
    state[count_off] = n - 1
    return card


@njit(cache=True)
def reshuffle_into(state, src, src_count_off, dst, dst_count_off, rng_off):
    """Move every card of pile ``src`` onto pile ``dst``, then shuffle ``dst``.

    The classic "shuffle the discard pile to form a new deck": the cards of
    ``src`` join ``dst`` and the whole of ``dst`` is shuffled; ``src`` is left empty.
    """
    n_src = state[src_count_off]
    n_dst = state[dst_count_off]
    for i in range(n_src):
        state[dst + n_dst + i] = state[src + i]
        state[src + i] = 0
    state[src_count_off] = 0
    state[dst_count_off] = n_dst + n_src
    shuffle_range(state, dst, n_dst + n_src, rng_off)


@njit(cache=True)
def count_by_type(state, start, n, out):
    """``out[k]`` += number of cards of kind ``k`` among ``state[start:start+n]``."""
    for i in range(n):
        out[state[start + i]] += 1
