"""The mushroom cards: the deck (reshuffled from the discard pile when it runs out), the market
of three face-up cards, the hands, the discard pile, and stealing a card (RULES.md, "DISCOVER").
"""

from numba import njit

from mushgym.core import shuffle_range

from .layout import (
    DECK,
    DECK_N,
    DISC_N,
    L_DECK,
    L_DISCARD,
    L_HAND,
    L_MARKET,
    NC,
    RNG,
    TAKEN,
    card_loc_at,
    deck_at,
    discard_at,
    hand_count_at,
    market_at,
)
from .turn import random_below


@njit(cache=True)
def hand_draw(state, p, card):
    state[card_loc_at(card)] = L_HAND + p
    state[hand_count_at(p)] += 1


@njit(cache=True)
def reshuffle_discard(state):
    n = state[DISC_N]
    for i in range(n):
        c = state[discard_at(i)]
        state[deck_at(state[DECK_N])] = c
        state[DECK_N] += 1
        state[card_loc_at(c)] = L_DECK
        state[discard_at(i)] = 0
    state[DISC_N] = 0
    shuffle_range(state, DECK, state[DECK_N], RNG)


@njit(cache=True)
def deck_put_bottom(state, c):
    """Card ``c`` goes to the bottom of the deck (it is drawn last)."""
    for j in range(state[DECK_N], 0, -1):
        state[deck_at(j)] = state[deck_at(j - 1)]
    state[deck_at(0)] = c
    state[DECK_N] += 1
    state[card_loc_at(c)] = L_DECK


@njit(cache=True)
def deck_available(state):
    return state[DECK_N] + state[DISC_N]


@njit(cache=True)
def cards_available(state):
    """Cards a player could pick up: the market's and the deck's (with the discard pile)."""
    n = deck_available(state)
    for j in range(3):
        if state[market_at(j)] >= 0:
            n += 1
    return n


@njit(cache=True)
def draw_deck(state):
    """Top card of the deck (the discard pile is reshuffled into an empty deck), or -1."""
    if state[DECK_N] == 0:
        if state[DISC_N] == 0:
            return -1
        reshuffle_discard(state)
    state[DECK_N] -= 1
    c = state[deck_at(state[DECK_N])]
    state[deck_at(state[DECK_N])] = 0
    return c


@njit(cache=True)
def discard_card(state, c):
    state[discard_at(state[DISC_N])] = c
    state[DISC_N] += 1
    state[card_loc_at(c)] = L_DISCARD


@njit(cache=True)
def refill_market(state):
    for j in range(3):
        if state[market_at(j)] < 0:
            c = draw_deck(state)
            if c < 0:
                return
            state[market_at(j)] = c
            state[card_loc_at(c)] = L_MARKET


@njit(cache=True)
def take_market(state, p, j):
    c = state[market_at(j)]
    state[market_at(j)] = -1
    hand_draw(state, p, c)
    state[TAKEN] += 1


@njit(cache=True)
def steal_card(state, p, s):
    k = random_below(state, state[hand_count_at(s)])
    for c in range(NC):
        if state[card_loc_at(c)] == L_HAND + s:
            if k == 0:
                state[hand_count_at(s)] -= 1
                hand_draw(state, p, c)
                return
            k -= 1
