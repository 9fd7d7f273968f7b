"""Mycology's compiled search kernels for information-set MCTS (``mushgym.search``).

``rollout_policy(state, cfg, mask, n_legal, work, rng) -> action`` (``rollout="greedy"``, what
``rollout="auto"`` and ``mcts:SIMS`` use): with probability ``ROLLOUT_EPSILON`` (0.05) a
uniformly random legal move, else ``greedy_move``: the default greedy baseline of ``greedy.py``
(``Greedy.act``: poison="expected", feast_trade=True, no exchange) compiled, the same move on
every act, pay and ordering decision (a test compares them). It reads only the public state and
the mask. ``filled`` = the player's basket places filled, ``now`` = the best harvest value open:

============  =========================================================================
decision      score (the best legal action is taken; the first on ties)
============  =========================================================================
harvest       ``card_value``: points + Feast (+1 for Magic) + 0.5 (a basket place filled),
              a Poison card minus 2 x its resource's chance per roll x the rolls left
              (``min(3 x players x max(1, 10 - filled), 12)``): declined when negative
trade 1       the best in-season card the new resource makes affordable (3 resources the
              card does not need to pay with) - 0.1, if better than ``now``; else -0.8
trade 2       (3 resources -> Feast) 0.1 when nothing can be harvested now, else -0.5
trade 3       the best harvest the resource opens - 1.2, if better than ``now``; else -1.5
trade 4       the best harvest of the next season - 1.3 (else -1.5); at least 0.05 when the
              season's basket is full
trade 5       0.1 (top row; bottom 0.09) when no field card is in season and the season's
              basket has room; else -0.8
trade 6, end  -0.8 (no exchange); ending the turn 0
paying        the player's most plentiful resource, then a Feast token, a Magic token last
ordering      the first legal column; an exchange's mushrooms: uniformly random
============  =========================================================================

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

from numba import njit

from mushgym.core import rng_below

from .actions import A_BOTTOM, A_END, A_HARVEST, A_PAY_FEAST, A_PAY_MAGIC, A_PAY_RES, A_T1, A_T2, A_T3, A_T4, A_T5, A_T6
from .greedy import RES_CHANCE  # chance per roll of each resource: the greedy's Poison pricing
from .layout import (
    CAPACITY,
    CFG_NUM_PLAYERS,
    CFG_REWARD,
    CFG_TURN_LIMIT_SCORED,
    ENDER,
    FIELD_SIZE,
    NUM_RES,
    NUM_SEASONS,
    ROW_SIZE,
    SEASON,
    SP_MAGIC,
    SP_POISON,
    TURN_LIMIT,
    basket_count_at,
    cfg_cost_at,
    cfg_feast_at,
    cfg_points_at,
    cfg_poison_resource_at,
    cfg_seasons_at,
    cfg_special_at,
    feast_at,
    field_at,
    magic_at,
    resources_at,
    score_at,
)
from .rules import current_player, returns, sample_masked  # sample_masked: the engine's uniform legal draw

MARGIN_WEIGHT = 0.3  # share of the score margin in search_value (win/loss reward)
ROLLOUT_EPSILON = 0.05  # share of rollout moves drawn uniformly from the legal ones
NONE = -1e9  # "no harvest" (greedy.py's -inf)
MARGIN_SCALE = 15.0  # points of margin that count fully
SEARCH_WIDEN = 0.25  # progressive widening for mcts:SIMS (widen="auto" with these rollouts)


@njit(cache=True)
def card_worth(cfg, c):
    """A field card's worth to the rollout before Poison: points + Feast, +1 for a Magic mushroom."""
    return cfg[cfg_points_at(c)] + cfg[cfg_feast_at(c)] + (1 if cfg[cfg_special_at(c)] == SP_MAGIC else 0)


@njit(cache=True)
def card_value(cfg, c, filled, n_players):
    """greedy.py's ``Greedy.card_value`` (poison="expected"): worth, minus a Poison card's expected
    cost (2 points x its resource's chance per roll x the rolls left, at most 12), + 0.5 for the
    basket place it fills."""
    v = float(card_worth(cfg, c))
    if cfg[cfg_special_at(c)] == SP_POISON:
        rolls_left = min(3.0 * n_players * max(1.0, 10.0 - filled), 12.0)
        v -= 2.0 * RES_CHANCE[cfg[cfg_poison_resource_at(c)]] * rolls_left
    return v + 0.5


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
def _best_harvest(state, cfg, p, s, plus, magic, filled, n_players):
    """greedy.py's ``best_harvest``: the best card_value p could harvest in season ``s`` (NONE: none)."""
    best = NONE
    if state[basket_count_at(p, s)] >= CAPACITY[s]:
        return best
    for slot in range(FIELD_SIZE):
        c = state[field_at(slot)]
        if _in_season(cfg, c, s) and _affordable(state, cfg, c, p, plus, magic):
            v = card_value(cfg, c, filled, n_players)
            if v > best:
                best = v
    return best


@njit(cache=True)
def greedy_act_score(state, cfg, a, p, s, filled, n_players, now):
    """greedy.py's score of act-phase action ``a`` (feast_trade=True, exchange=False)."""
    if a < A_T1:
        return card_value(cfg, state[field_at(a - A_HARVEST)], filled, n_players)
    if a < A_T2:
        r1 = a - A_T1
        gain = NONE
        if state[basket_count_at(p, s)] < CAPACITY[s]:
            for slot in range(FIELD_SIZE):
                c = state[field_at(slot)]
                if not _in_season(cfg, c, s):
                    continue
                if not _affordable(state, cfg, c, p, r1, state[magic_at(p)]):
                    continue
                if _affordable(state, cfg, c, p, -1, state[magic_at(p)]):
                    continue
                spare = 0
                for r in range(NUM_RES):
                    spare += max(state[resources_at(p, r)] - cfg[cfg_cost_at(c, r)], 0)
                if spare >= 3:
                    gain = max(gain, card_value(cfg, c, filled, n_players))
        return gain - 0.1 if gain > NONE and gain > now else -0.8
    if a == A_T2:
        return 0.1 if now <= NONE else -0.5
    m = state[magic_at(p)] if state[feast_at(p)] > 0 else state[magic_at(p)] - 1
    if a < A_T4:
        gain = _best_harvest(state, cfg, p, s, a - A_T3, m, filled, n_players)
        return gain - 1.2 if gain > NONE and gain > now else -1.5
    if a == A_T4:
        gain = _best_harvest(state, cfg, p, (s + 1) % NUM_SEASONS, -1, m, filled, n_players)
        sc = gain - 1.3 if gain > NONE else -1.5
        if state[basket_count_at(p, s)] >= CAPACITY[s]:
            sc = max(sc, 0.05)
        return sc
    if a < A_T6:
        row = a - A_T5
        if state[basket_count_at(p, s)] >= CAPACITY[s]:
            return -0.8
        for slot in range(FIELD_SIZE):  # greedy.py's "fewer in-season cards" test holds whenever none is
            if _in_season(cfg, state[field_at(slot)], s):
                return -0.8
        return 0.1 - 0.01 * row
    if a == A_END:
        return 0.0
    return -0.8


@njit(cache=True)
def greedy_move(state, cfg, mask, n_legal, work, rng):
    """greedy.py's default greedy (``Greedy.act``: poison="expected", feast_trade=True, no exchange)
    on act, pay and ordering decisions; a uniformly random choice of the mushrooms of an exchange."""
    p = current_player(state)
    best = -1
    if mask[A_END] != 0:  # the turn player acts
        s = state[SEASON]
        n_players = cfg[CFG_NUM_PLAYERS]
        filled = 0
        for q in range(NUM_SEASONS):
            filled += state[basket_count_at(p, q)]
        now = _best_harvest(state, cfg, p, s, -1, state[magic_at(p)], filled, n_players)
        best_score = -1e300
        for a in range(A_HARVEST, A_END + 1):
            if mask[a] != 0:
                sc = greedy_act_score(state, cfg, a, p, s, filled, n_players, now)
                if sc > best_score:
                    best_score = sc
                    best = a
        return best
    most = -1
    for r in range(NUM_RES):
        if mask[A_PAY_RES + r] != 0 and state[resources_at(p, r)] > most:
            most = state[resources_at(p, r)]
            best = A_PAY_RES + r
    if best >= 0:
        return best
    if mask[A_PAY_FEAST] != 0:
        return A_PAY_FEAST
    if mask[A_PAY_MAGIC] != 0:
        return A_PAY_MAGIC
    for k in range(ROW_SIZE):
        if mask[A_BOTTOM + k] != 0:
            return A_BOTTOM + k
    return sample_masked(mask, n_legal, rng, 0)


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
