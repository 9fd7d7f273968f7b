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
    for i in range(n - 1, 0, -1):
        j = rng_below(state, rng_off, i + 1)
        tmp = state[start + i]
        state[start + i] = state[start + j]
        state[start + j] = tmp


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
