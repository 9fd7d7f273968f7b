"""Mycology's greedy, compiled: the ``GreedyAgent``'s scores and the search's rollout policy.

``greedy_scores(state, cfg, player, mask, out, value, poison, feast_trade, exchange)`` writes the
score of every legal action into ``out`` (the rest stay untouched): the one greedy of Mycology, the
best immediate gain in points. ``greedy.py`` wraps it (``heuristic`` for ``GreedyAgent``, the
default greedy; ``Greedy`` with the variants the simulation compares as parameters). Scores use
only what is public to every player: the face-up field, the acting player's resources, tokens and
baskets, the season and the card tables. No step is looked ahead, since a step that ends the turn
rolls the next player's dice (future chance the player cannot know). ``filled`` = the player's
basket places filled, ``now`` = the best harvest value open:

============  =========================================================================
decision      score (the best legal action is taken)
============  =========================================================================
harvest       ``card_value``: points + Feast (+1 for Magic; ``value=VALUE_POINTS``: points
              only) + 0.5 (a basket place filled); ``poison=POISON_EXPECTED``: a Poison card
              minus 2 x its resource's chance per roll x the rolls left (``min(3 x players
              x max(1, 10 - filled), 12)``); ``POISON_AVOID`` never harvests a Poison card,
              ``POISON_LATE`` only once 7 of the 10 basket places are filled,
              ``POISON_IGNORE`` disregards Poison
trade 1       the best in-season card the new resource makes affordable (3 resources the
              card does not need to pay with) - 0.1, if better than ``now``; else -0.8
trade 2       (3 resources -> Feast, ``feast_trade``) 0.1 when nothing can be harvested
              now, else -0.5
trade 3       the best harvest the resource opens - 1.2, if better than ``now``; else -1.5
trade 4       the best harvest of the next season - 1.3 (else -1.5); at least 0.05 when the
              season's basket is full
trade 5       0.1 (top row; bottom 0.09) when no field card is in season and the season's
              basket has room; else -0.8
trade 6       with ``exchange``: the best gain in card value of taking one of the other
              player's current-season mushrooms for one of yours (a card the greedy would
              not harvest is worth its points - 10: dumping it is a gain), minus the 2 Feast,
              if positive; else -0.8
end           0
paying        0.01 x the resource's count (the most plentiful first), a Feast token -0.5,
              a Magic token -1
ordering      -0.01 x the column (the first legal column)
exchanging    give: minus the card's worth (the least valuable); take: its worth
============  =========================================================================

``rollout_policy(state, cfg, mask, n_legal, work, rng) -> action`` (``rollout="greedy"``, what
``rollout="auto"`` and ``mcts:SIMS`` use): with probability ``ROLLOUT_EPSILON`` (0.05) a
uniformly random legal move, else ``greedy_move``: the default greedy's best action (the first on
ties) on act, pay and ordering decisions, a uniformly random choice of an exchange's mushrooms.

History: the first rollout harvested by points and otherwise drew a uniformly
random legal action, trades included; those random trades spend the resources and Feast
that decide who harvests next, so the playouts hardly depended on the move under test. The
harvest rollout harvested by points + Feast, paid the most plentiful resource and took only trades
4 and 3 to open a harvest; it did not price Poison (which a 4-player game, with 3x the rolls,
punishes most) nor use trades 1, 2 and 5. Then the greedy itself became the rollout:
``mcts:1000`` against greedy on 48 fixed four-player deals (seeded A/B runs)
won 37-1-10 with ``greedy_move`` alone and 41-0-7 with the epsilon (the harvest rollout: 18-1-13 of 32,
unseeded); with 2 players 37-1-2 of 40 (harvest rollout: 35-0-5). The table and the ladders:
the docs' Agents page, "How the search defaults were chosen".

``search_value(state, cfg, lo, hi, out)`` (what ``value="auto"`` uses): the value in [0, 1] of
a finished game to every player. With the default ``reward="win_loss"`` it is
``(1 - MARGIN_WEIGHT) x`` the normalised win/loss return ``+ MARGIN_WEIGHT x`` the score
margin against the best other player, ``(margin / MARGIN_SCALE)`` clipped to [-1, 1] and
mapped to [0, 1]: a win by 12 points is worth more than a win by 1, a close loss more than a
rout. With ``reward="score"`` or ``"score_diff"`` (already graded by points) and for a
truncation (``turn_limit_end="truncate"``: no result) it is the normalised return alone.

``SEARCH_WIDEN`` (what ``widen="auto"`` uses with these rollouts): progressive widening, a
node gets a new child only while it has fewer than ``1 + 0.25 sqrt(visits)`` (the measurements
behind these choices: the docs' Agents page).
"""

import numpy as np
from numba import njit

from mushgym.core import rng_below

from .actions import (
    A_BOTTOM,
    A_END,
    A_GIVE,
    A_HARVEST,
    A_PAY_FEAST,
    A_PAY_RES,
    A_T1,
    A_T2,
    A_T3,
    A_T4,
    A_T5,
    A_T6,
    A_TAKE,
    NUM_ACTIONS,
)
from .layout import (
    ARG_TARGET,
    CAPACITY,
    CFG_NUM_PLAYERS,
    CFG_REWARD,
    CFG_TURN_LIMIT_SCORED,
    DEC_BOTTOM,
    DEC_GIVE,
    DEC_PAY,
    DEC_TAKE,
    ENDER,
    FIELD_SIZE,
    NUM_RES,
    NUM_SEASONS,
    SEASON,
    SP_MAGIC,
    SP_POISON,
    TURN_LIMIT,
    basket_at,
    basket_count_at,
    cfg_cost_at,
    cfg_feast_at,
    cfg_points_at,
    cfg_poison_resource_at,
    cfg_seasons_at,
    cfg_special_at,
    decision_depth,
    feast_at,
    field_at,
    magic_at,
    resources_at,
    score_at,
    top_arg,
    top_kind,
)
from .rules import current_player, returns, sample_masked  # sample_masked: the engine's uniform legal draw

# chance per roll that a resource comes up (2d6: 2/12 -> 2/36, 3/11 -> 4/36, ...)
RES_CHANCE = np.array([2, 4, 6, 8, 10], np.float64) / 36.0
VALUE_POINTS_FEAST, VALUE_POINTS = 0, 1  # what a card is worth: points + Feast (+1 Magic), or points
POISON_EXPECTED, POISON_IGNORE, POISON_AVOID, POISON_LATE = 0, 1, 2, 3  # how a Poison card is priced
LATE_POISON_FROM = 7  # POISON_LATE: poison cards only once this many basket places are filled
MARGIN_WEIGHT = 0.3  # share of the score margin in search_value (win/loss reward)
ROLLOUT_EPSILON = 0.05  # share of rollout moves drawn uniformly from the legal ones
NONE = -np.inf  # "no harvest"
MARGIN_SCALE = 15.0  # points of margin that count fully
SEARCH_WIDEN = 0.25  # progressive widening for mcts:SIMS (widen="auto" with these rollouts)


@njit(cache=True)
def card_value(cfg, c, filled, n_players, value, poison):
    """Card ``c``'s value to the greedy when ``filled`` of its basket places are filled (NONE: a
    Poison card it does not harvest)."""
    special = cfg[cfg_special_at(c)]
    if special == SP_POISON and (poison == POISON_AVOID or (poison == POISON_LATE and filled < LATE_POISON_FROM)):
        return NONE
    v = float(cfg[cfg_points_at(c)])
    if value == VALUE_POINTS_FEAST:
        v += float(cfg[cfg_feast_at(c)]) + (1.0 if special == SP_MAGIC else 0.0)
    if poison == POISON_EXPECTED and special == SP_POISON:
        rolls_left = 3.0 * n_players * max(1.0, 10.0 - filled)
        v -= 2.0 * RES_CHANCE[cfg[cfg_poison_resource_at(c)]] * min(rolls_left, 12.0)
    return v + 0.5  # a basket place filled brings the end (and its lead) closer


@njit(cache=True)
def _worth(cfg, c, filled, n_players, value, poison):
    """A harvested card's value to whoever holds it (one the greedy would not harvest: points - 10)."""
    v = card_value(cfg, c, filled, n_players, value, poison)
    return v if v > NONE else cfg[cfg_points_at(c)] - 10.0


@njit(cache=True)
def _affordable(state, cfg, c, p, plus, magic):
    """Card ``c`` costs p no more than ``magic`` wildcards, with one more of resource ``plus`` (-1: none)."""
    short = 0
    for r in range(NUM_RES):
        have = state[resources_at(p, r)] + (1 if r == plus else 0)
        d = cfg[cfg_cost_at(c, r)] - have
        if d > 0:
            short += d
    return short <= magic


@njit(cache=True)
def _in_season(cfg, c, s):
    return c >= 0 and (cfg[cfg_seasons_at(c)] >> s) & 1 != 0


@njit(cache=True)
def _basket_full(state, p, s):
    return state[basket_count_at(p, s)] >= CAPACITY[s]


@njit(cache=True)
def _best_harvest(state, cfg, p, s, plus, magic, filled, n_players, value, poison):
    """The best card_value p could harvest in season ``s`` with one more of resource ``plus``
    (-1: none) and ``magic`` wildcards (NONE: none)."""
    best = NONE
    if _basket_full(state, p, s):
        return best
    for slot in range(FIELD_SIZE):
        c = state[field_at(slot)]
        if _in_season(cfg, c, s) and _affordable(state, cfg, c, p, plus, magic):
            best = max(best, card_value(cfg, c, filled, n_players, value, poison))
    return best


@njit(cache=True)
def _trade1_gain(state, cfg, p, s, r1, filled, n_players, value, poison):
    """The best in-season card resource ``r1`` makes affordable, paid from resources it does not need."""
    gain = NONE
    if _basket_full(state, p, s):
        return gain
    magic = state[magic_at(p)]
    for slot in range(FIELD_SIZE):
        c = state[field_at(slot)]
        if not _in_season(cfg, c, s) or _affordable(state, cfg, c, p, -1, magic):
            continue
        if not _affordable(state, cfg, c, p, r1, magic):
            continue
        spare = 0
        for r in range(NUM_RES):
            spare += max(state[resources_at(p, r)] - cfg[cfg_cost_at(c, r)], 0)
        if spare >= 3:
            gain = max(gain, card_value(cfg, c, filled, n_players, value, poison))
    return gain


@njit(cache=True)
def _exchange_gain(state, cfg, p, q, s, filled, n_players, value, poison):
    """Taking q's best current-season mushroom for p's least valuable, minus the 2 Feast (NONE: no pair)."""
    np_, nq = state[basket_count_at(p, s)], state[basket_count_at(q, s)]
    if np_ == 0 or nq == 0:
        return NONE
    mine = np.inf
    for k in range(np_):
        mine = min(mine, _worth(cfg, state[basket_at(p, s, k)], filled, n_players, value, poison))
    theirs = NONE
    for k in range(nq):
        theirs = max(theirs, _worth(cfg, state[basket_at(q, s, k)], filled, n_players, value, poison))
    return theirs - mine - 2.0


@njit(cache=True)
def _act_score(state, cfg, a, p, s, filled, n_players, now, value, poison, feast_trade, exchange):
    """The score of the turn player's action ``a`` (the module docstring's table)."""
    if a < A_T1:
        return card_value(cfg, state[field_at(a - A_HARVEST)], filled, n_players, value, poison)
    if a < A_T2:
        gain = _trade1_gain(state, cfg, p, s, a - A_T1, filled, n_players, value, poison)
        return gain - 0.1 if gain > NONE and gain > now else -0.8
    if a == A_T2:
        return 1.0 - 0.3 * 3 if feast_trade and not now > NONE else -0.5
    m = state[magic_at(p)] if state[feast_at(p)] > 0 else state[magic_at(p)] - 1
    if a < A_T4:
        gain = _best_harvest(state, cfg, p, s, a - A_T3, m, filled, n_players, value, poison)
        return gain - 1.0 - 0.2 if gain > NONE and gain > now else -1.5
    if a == A_T4:
        gain = _best_harvest(state, cfg, p, (s + 1) % NUM_SEASONS, -1, m, filled, n_players, value, poison)
        sc = gain - 1.0 - 0.3 if gain > NONE else -1.5
        if _basket_full(state, p, s):
            sc = max(sc, 0.05)  # a full basket: nothing to harvest until the season moves
        return sc
    if a < A_T6:  # trade 5: only when no field card is in season (then both rows have as few)
        if _basket_full(state, p, s):
            return -0.8
        for slot in range(FIELD_SIZE):
            if _in_season(cfg, state[field_at(slot)], s):
                return -0.8
        return 0.1 - 0.01 * (a - A_T5)
    if a < A_END:
        if not exchange:
            return -0.8
        q = (p + a - A_T6 + 1) % n_players
        gain = _exchange_gain(state, cfg, p, q, s, filled, n_players, value, poison)
        return gain if gain > 0 else -0.8
    if a == A_END:
        return 0.0
    return -0.8


@njit(cache=True)
def _decision_score(state, cfg, kind, a, p, s, filled, n_players, value, poison):
    """The score of action ``a`` answering the pending decision ``kind`` (pay, order, exchange)."""
    if kind == DEC_PAY:
        if A_PAY_RES <= a < A_PAY_RES + NUM_RES:
            return 0.01 * state[resources_at(p, a - A_PAY_RES)]
        return -0.5 if a == A_PAY_FEAST else -1.0
    if kind == DEC_BOTTOM:
        return -0.01 * (a - A_BOTTOM)
    if kind == DEC_GIVE:
        return -_worth(cfg, state[basket_at(p, s, a - A_GIVE)], filled, n_players, value, poison)
    q = top_arg(state, ARG_TARGET)
    return _worth(cfg, state[basket_at(q, s, a - A_TAKE)], filled, n_players, value, poison)


@njit(cache=True)
def _context(state, cfg, p, value, poison):
    """What every score of p's decision reads: the pending decision's kind (0: act), the season,
    p's basket places filled and ``now``, the best harvest open (NONE outside the act phase)."""
    kind = top_kind(state) if decision_depth(state) > 0 else 0
    s = state[SEASON]
    filled = 0
    for q in range(NUM_SEASONS):
        filled += state[basket_count_at(p, q)]
    now = NONE
    if kind == 0:
        now = _best_harvest(state, cfg, p, s, -1, state[magic_at(p)], filled, cfg[CFG_NUM_PLAYERS], value, poison)
    return kind, s, filled, now


@njit(cache=True)
def _score(state, cfg, a, p, context, value, poison, feast_trade, exchange):
    kind, s, filled, now = context
    n_players = cfg[CFG_NUM_PLAYERS]
    if kind == 0:
        return _act_score(state, cfg, a, p, s, filled, n_players, now, value, poison, feast_trade, exchange)
    return _decision_score(state, cfg, kind, a, p, s, filled, n_players, value, poison)


@njit(cache=True)
def greedy_scores(state, cfg, player, mask, out, value, poison, feast_trade, exchange):
    """The greedy's score of every legal action of ``player`` into ``out`` (float64[NUM_ACTIONS])."""
    context = _context(state, cfg, player, value, poison)
    for a in range(NUM_ACTIONS):
        if mask[a] != 0:
            out[a] = _score(state, cfg, a, player, context, value, poison, feast_trade, exchange)


@njit(cache=True)
def greedy_move(state, cfg, mask, n_legal, work, rng):
    """The default greedy's best move (points + Feast, expected Poison, trade 2, no exchange; the
    first on ties) on act, pay and ordering decisions; a uniformly random choice of the mushrooms
    of an exchange."""
    p = current_player(state)
    context = _context(state, cfg, p, VALUE_POINTS_FEAST, POISON_EXPECTED)
    if context[0] == DEC_GIVE or context[0] == DEC_TAKE:
        return sample_masked(mask, n_legal, rng, 0)
    best = -1
    best_score = -np.inf
    for a in range(NUM_ACTIONS):
        if mask[a] != 0:
            sc = _score(state, cfg, a, p, context, VALUE_POINTS_FEAST, POISON_EXPECTED, True, False)
            if best < 0 or sc > best_score:
                best_score = sc
                best = a
    return best


@njit(cache=True)
def rollout_policy(state, cfg, mask, n_legal, work, rng):
    """A uniformly random legal move with probability ROLLOUT_EPSILON, else ``greedy_move``."""
    if rng_below(rng, 0, 1 << 20) < ROLLOUT_EPSILON * (1 << 20):
        return sample_masked(mask, n_legal, rng, 0)
    return greedy_move(state, cfg, mask, n_legal, work, rng)


@njit(cache=True)
def search_value(state, cfg, lo, hi, out):
    returns(state, cfg, out)
    n = cfg[CFG_NUM_PLAYERS]
    scale = 1.0 / (hi - lo) if hi > lo else 1.0
    for p in range(n):
        out[p] = (out[p] - lo) * scale
    if cfg[CFG_REWARD] != 0 or (state[ENDER] == TURN_LIMIT and cfg[CFG_TURN_LIMIT_SCORED] == 0):
        return
    for p in range(n):
        other = -1000000
        for q in range(n):
            if q != p and state[score_at(q)] > other:
                other = state[score_at(q)]
        m = (state[score_at(p)] - other) / MARGIN_SCALE
        m = min(1.0, max(-1.0, m))
        out[p] = (1.0 - MARGIN_WEIGHT) * out[p] + MARGIN_WEIGHT * 0.5 * (m + 1.0)
