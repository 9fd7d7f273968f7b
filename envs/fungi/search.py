"""Fungi's greedy, compiled, and the rollout policy of information-set MCTS.

``greedy_scores(state, cfg, player, mask, out)`` writes the score of every legal action into
``out`` (the rest stay untouched): the greedy baseline of Fungi (``greedy.py`` wraps it for
``GreedyAgent``), the best immediate gain, one decision ahead. Every score comes from what the
acting player sees: its hand, its display, the public Forest, decay pile and Night pile size,
and the pending cook; nothing hidden (the opponent's hand, the draw or Night pile order) enters
a score, so redrawing the hidden cards never changes the choice.

Values are in flavor points:

* cook: the flavor points the cook adds (with the follow-up that adds the most Butter and
  Cidre the hand and the mushrooms allow), minus a small pan cost (``PAN_COST``);
* finish a cook: the flavor points it adds (the mushrooms' and the Butter's and Cidre's);
* take a Forest card / the decay pile: the card's potential (a fraction of the points it can
  bring when cooked, more when it completes a set; Butter/Cidre worth more with a large set in
  hand; a Pan when none is at hand), minus ``STICK_VALUE`` per stick spent;
* sell: ``STICK_VALUE`` per stick gained, plus half the value of the best Forest card the new
  sticks bring into reach, minus the potential of the cards sold;
* put down a Pan: 0.1;
* discard (Fly agaric trim): the least valuable card goes.

``rollout_policy(state, cfg, mask, n_legal, work, rng) -> action`` (``MCTSAgent(rollout=
"greedy")``): a cheaper policy for the simulations than the greedy above: with the choice of the
five actions, cook the largest legal set (Night cards count 2), else take a free Forest card
(position 0 or 1, at random), else a uniformly random legal action; every follow-up (pan,
Butter, Cidre; Fly agaric discards) is uniformly random. It reads only what the player to act
sees (its hand, the Forest), so the simulations do not peek.
"""

from numba import njit

from mushgym.core import rng_below

from .cards import BASKET, BUTTER, CIDRE, FLY, MOON, NIGHT0, NKINDS, NNIGHT, NTYPES, PAN
from .layout import (
    A_COOK,
    A_DECAY,
    A_DISCARD,
    A_FINISH,
    A_PAN,
    A_SELL,
    B_VALUES,
    BUTTER_NEED,
    C_VALUES,
    CIDRE_NEED,
    COOK_FOREST,
    COOK_NIGHT,
    COOK_TYPE,
    DECAY_N,
    FOREST_N,
    FREE_POSITIONS,
    NIGHT_N,
    NO_DECISION,
    NUM_ACTIONS,
    cfg_flavor_at,
    cfg_sticks_at,
    cfg_units_at,
    cook_args,
    decay_at,
    discard_args,
    empty_pans_at,
    finish_cook_args,
    forest_at,
    hand_at,
    hand_n_at,
    sell_args,
    sticks_at,
    take_action,
    take_args,
    top_arg,
    top_kind,
)
from .legality import cooked_units, hand_limit
from .rules import sample_masked  # the engine's uniform legal draw (mushgym.core.batch)

STICK_VALUE = 0.4  # flavor points a stick is worth
PAN_COST = 0.5  # flavor points a cook costs (the pan it fills)


@njit(cache=True)
def _potential(flavor, units):
    """What ``units`` mushrooms of one type in hand are worth before cooking."""
    return flavor * units * (0.45 if units < 3 else 0.8)


@njit(cache=True)
def _take_cost(i):
    """Sticks to take the Forest card at position ``i``."""
    return i - 1 if i >= FREE_POSITIONS else 0


@njit(cache=True)
def _type_units(state, cfg, p, t):
    """Mushrooms of type ``t`` in p's hand (Night cards count as they say), as a float."""
    u = float(state[hand_at(p, t)])
    if t < NNIGHT:
        u += float(state[hand_at(p, NIGHT0 + t)]) * float(cfg[cfg_units_at(NIGHT0 + t)])
    return u


@njit(cache=True)
def _mushroom_value(state, cfg, p, t, units, give):
    """Potential gained by taking ``units`` mushrooms of type ``t`` (``give``: lost by giving them up)."""
    f = float(cfg[cfg_flavor_at(t)])
    tu = _type_units(state, cfg, p, t)
    if give:
        return _potential(f, tu) - _potential(f, max(tu - units, 0.0))
    return _potential(f, tu + units) - _potential(f, tu)


@njit(cache=True)
def _card_value(state, cfg, p, kind, give):
    """Potential gained by taking one card of ``kind`` into hand or display (``give``: lost by
    giving one up from hand)."""
    if kind < NTYPES:
        return _mushroom_value(state, cfg, p, kind, 1.0, give)
    if kind < NIGHT0 + NNIGHT:
        return _mushroom_value(state, cfg, p, kind - NIGHT0, float(cfg[cfg_units_at(kind)]), give)
    best_set = 0.0
    for t in range(NTYPES):
        best_set = max(best_set, _type_units(state, cfg, p, t))
    hand_n = float(state[hand_n_at(p)])
    if kind == BUTTER:
        return cfg[cfg_flavor_at(BUTTER)] * (0.6 if best_set >= 3 else 0.3)
    if kind == CIDRE:
        return cfg[cfg_flavor_at(CIDRE)] * (0.6 if best_set >= 4 else 0.3)
    if kind == PAN:
        return 1.5 if state[empty_pans_at(p)] + state[hand_at(p, PAN)] == 0 else 0.2
    if kind == BASKET:
        return 1.5 if hand_n >= hand_limit(state, p) - 1 else 0.8
    if kind == MOON:
        if state[NIGHT_N] <= 0:
            return 0.0
        flavor = 0.0
        for t in range(NNIGHT):
            flavor += cfg[cfg_flavor_at(t)]
        return 0.45 * 2.0 * (flavor / NNIGHT)
    if kind == FLY:
        return -0.3 if hand_n > 4 else 0.0
    return 0.0


@njit(cache=True)
def _best_in_reach(state, cfg, p, low, high):
    """The best value of a Forest card costing more than ``low`` and at most ``high`` sticks
    (0 when there is none)."""
    best = 0.0
    found = False
    for i in range(state[FOREST_N]):
        cost = _take_cost(i)
        if low < cost <= high:
            v = _card_value(state, cfg, p, state[forest_at(i)], False)
            best = v if not found else max(best, v)
            found = True
    return best


@njit(cache=True)
def _best_finish(state, cfg, p, units):
    """The flavor points the most Butter and Cidre p's hand may add to a cook of ``units`` mushrooms."""
    best = 0
    for b in range(min(B_VALUES - 1, state[hand_at(p, BUTTER)]) + 1):
        for c in range(min(C_VALUES - 1, state[hand_at(p, CIDRE)]) + 1):
            if BUTTER_NEED * b + CIDRE_NEED * c <= units:
                best = max(best, b * cfg[cfg_flavor_at(BUTTER)] + c * cfg[cfg_flavor_at(CIDRE)])
    return best


@njit(cache=True)
def _sell_score(state, cfg, p, a, sticks):
    t, nn, f = sell_args(a)
    units = f + (nn * float(cfg[cfg_units_at(NIGHT0 + t)]) if t < NNIGHT else 0.0)
    gain = units * cfg[cfg_sticks_at(t)]
    lost = _mushroom_value(state, cfg, p, t, units, True)
    reachable_now = _best_in_reach(state, cfg, p, -1.0, sticks)
    newly = _best_in_reach(state, cfg, p, sticks, sticks + gain)
    return STICK_VALUE * gain + 0.5 * max(0.0, newly - reachable_now) - lost


@njit(cache=True)
def _score(state, cfg, p, a):
    """The greedy's score of action ``a`` of player ``p`` (the module docstring)."""
    if a < A_DECAY:
        i = take_args(a)
        return _card_value(state, cfg, p, state[forest_at(i)], False) - STICK_VALUE * _take_cost(i)
    if a == A_DECAY:
        total = 0.0
        for k in range(NKINDS):
            n = 0
            for j in range(state[DECAY_N]):
                n += state[decay_at(j)] == k
            if n > 0:
                total += _card_value(state, cfg, p, k, False) * n
        return total
    if a == A_PAN:
        return 0.1
    if a < A_SELL:
        t, nn, f = cook_args(a)
        units = cooked_units(t, nn, f, cfg)
        return float(units * cfg[cfg_flavor_at(t)] + _best_finish(state, cfg, p, units)) - PAN_COST
    if a < A_FINISH:
        return _sell_score(state, cfg, p, a, float(state[sticks_at(p)]))
    if a < A_DISCARD:
        _, b, c = finish_cook_args(a)
        t = top_arg(state, COOK_TYPE)
        units = cooked_units(t, top_arg(state, COOK_NIGHT), top_arg(state, COOK_FOREST), cfg)
        flavor = units * cfg[cfg_flavor_at(t)] + b * cfg[cfg_flavor_at(BUTTER)] + c * cfg[cfg_flavor_at(CIDRE)]
        return float(flavor)
    return -_card_value(state, cfg, p, discard_args(a), True)


@njit(cache=True)
def greedy_scores(state, cfg, player, mask, out):
    """The greedy's score of every legal action of ``player`` into ``out`` (float64[NUM_ACTIONS])."""
    for a in range(NUM_ACTIONS):
        if mask[a] != 0:
            out[a] = _score(state, cfg, player, a)


@njit(cache=True)
def rollout_policy(state, cfg, mask, n_legal, work, rng):
    if top_kind(state) == NO_DECISION:
        best = -1
        best_units = 0
        for a in range(A_COOK, A_SELL):
            if mask[a] != 0:
                t, n, f = cook_args(a)
                if f + 2 * n > best_units:
                    best_units = f + 2 * n
                    best = a
        if best >= 0:
            return best
        t0 = mask[take_action(0)] != 0
        t1 = mask[take_action(1)] != 0
        if t0 and t1:
            return take_action(rng_below(rng, 0, 2))
        if t0:
            return take_action(0)
        if t1:
            return take_action(1)
    return sample_masked(mask, n_legal, rng, 0)
