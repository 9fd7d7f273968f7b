"""The turn's bookkeeping, shared by every rule: random draws, which seat is the Automata, the
main action types used this turn, the end of the game, and the values of the Automata's card in play.

The Automata's "let fate decide" (:func:`fate`) is a uniform draw among tied options, counted in
the event counters (RULES.md, "The Automata").
"""

from numba import njit

from mushgym.core import rng_below

from .layout import (
    A_CARDNOW,
    ACTS,
    BLACK,
    CFG_AREQ,
    CFG_AUTO,
    CFG_LEVEL,
    CFG_NH,
    ENDER,
    GU_TWICE,
    NA_CARDS,
    OVER,
    RNG,
    ST_FATE,
    TURNP,
    USED,
    clear_decisions,
    count_event,
    game_upgrades_at,
)


@njit(cache=True)
def random_below(state, n):
    return rng_below(state, RNG, n)


@njit(cache=True)
def fate(state, n):
    """The Automata's "let fate decide": a uniform draw among ``n`` tied options."""
    if n > 1:
        count_event(state, ST_FATE)
    return random_below(state, n)


@njit(cache=True)
def is_automata(cfg, s):
    return cfg[CFG_AUTO] != 0 and s == cfg[CFG_NH]


@njit(cache=True)
def main_allowed(state, typ):
    p = state[TURNP]
    if state[ACTS] >= 2:
        return False
    if state[game_upgrades_at(p)] & GU_TWICE:
        return True
    return (state[USED] >> typ) & 1 == 0


@njit(cache=True)
def start_action(state, typ):
    state[ACTS] += 1
    state[USED] |= 1 << typ


@njit(cache=True)
def end_pending(state):
    """A decay completed a seat's mats: the game ends once its decay action is resolved."""
    return state[OVER] == 0 and state[ENDER] >= 0


@njit(cache=True)
def end_game(state, ender):
    state[OVER] = 1
    state[ENDER] = ender
    clear_decisions(state)


@njit(cache=True)
def automata_card_value(cfg, state, off, stride, i):
    side = cfg[CFG_LEVEL]
    return cfg[off + (side * NA_CARDS + state[A_CARDNOW]) * stride + i]


@njit(cache=True)
def automata_wants_colour(state, cfg, col):
    if col == BLACK:
        return True
    return automata_card_value(cfg, state, CFG_AREQ, 5, col) > 0
