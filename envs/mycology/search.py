"""Mycology's compiled search kernels for information-set MCTS (``mushgym.search``).

``rollout_policy(state, cfg, mask, n_legal, work, rng) -> action`` (``rollout="greedy"``, what
``rollout="auto"`` and ``mcts:SIMS`` use): a cheap greedy for the simulations. It reads only
the public state and the mask:

============  =========================================================================
decision      rollout move
============  =========================================================================
act           harvest the legal field card worth the most (points + Feast, +1 for Magic);
              with nothing to harvest: trade 4 (a Feast: next season) when the season's
              basket is full, else trade 3 (a Feast for a resource) when one resource is
              all an in-season field card lacks (the best such card), else end the turn;
              no other trade
paying        the player's most plentiful resource, then a Feast token, a Magic token last
other         (ordering, exchange) a uniformly random legal action
============  =========================================================================

History: the first rollout (s18-s24) harvested by points and otherwise drew a uniformly
random legal action, trades included; those random trades spend the resources and Feast
that decide who harvests next, so the playouts hardly depended on the move under test.

``search_value(state, cfg, lo, hi, out)`` (what ``value="auto"`` uses): the value in [0, 1] of
a finished game to every player. With the default ``reward="win_loss"`` it is
``(1 - MARGIN_WEIGHT) x`` the normalised win/loss return ``+ MARGIN_WEIGHT x`` the score
margin against the best other player, ``(margin / MARGIN_SCALE)`` clipped to [-1, 1] and
mapped to [0, 1]: a win by 12 points is worth more than a win by 1, a close loss more than a
rout. With ``reward="score"`` or ``"score_diff"`` (already graded by points) and for a
truncation (``turn_limit_end="truncate"``: no result) it is the normalised return alone.

``SEARCH_WIDEN`` (what ``widen="auto"`` uses with these rollouts): progressive widening, a
node gets a new child only while it has fewer than ``1 + 0.25 sqrt(visits)`` (the measurements
behind these choices: ``benchmarks/search_ladder/README.md``).
"""

from numba import njit

from .actions import A_END, A_HARVEST, A_PAY_FEAST, A_PAY_MAGIC, A_PAY_RES, A_T3, A_T4
from .layout import (
    CAPACITY, CFG_NUM_PLAYERS, CFG_REWARD, CFG_TURN_LIMIT_SCORED, ENDER, FIELD_SIZE, NUM_RES, SEASON, SP_MAGIC,
    TURN_LIMIT, basket_count_at, cfg_cost_at, cfg_feast_at, cfg_points_at, cfg_seasons_at, cfg_special_at, feast_at,
    field_at, magic_at, resources_at, score_at,
)
from .rules import current_player, returns, sample_masked   # sample_masked: the engine's uniform legal draw

MARGIN_WEIGHT = 0.3   # share of the score margin in search_value (win/loss reward)
MARGIN_SCALE = 15.0   # points of margin that count fully
SEARCH_WIDEN = 0.25   # progressive widening for mcts:SIMS (widen="auto" with these rollouts)


@njit(cache=True)
def card_worth(cfg, c):
    """What the rollout values a field card at: points + Feast, +1 for a Magic mushroom."""
    return cfg[cfg_points_at(c)] + cfg[cfg_feast_at(c)] + (1 if cfg[cfg_special_at(c)] == SP_MAGIC else 0)


@njit(cache=True)
def rollout_policy(state, cfg, mask, n_legal, work, rng):
    best = -1
    best_value = -1000
    for slot in range(FIELD_SIZE):
        a = A_HARVEST + slot
        if mask[a] != 0:
            c = state[field_at(slot)]
            v = card_worth(cfg, c)
            if v > best_value:
                best_value = v
                best = a
    if best >= 0:
        return best
    p = current_player(state)
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
    if mask[A_END] != 0:
        s = state[SEASON]
        if state[basket_count_at(p, s)] >= CAPACITY[s]:
            if mask[A_T4] != 0:
                return A_T4            # the season's basket is full: a Feast moves the season on
        elif state[feast_at(p)] > 0:
            # a Feast for the one resource an in-season field card lacks (the best such card)
            for slot in range(FIELD_SIZE):
                c = state[field_at(slot)]
                if c < 0 or (cfg[cfg_seasons_at(c)] >> s) & 1 == 0:
                    continue
                short = -state[magic_at(p)]
                lack = -1
                for r in range(NUM_RES):
                    d = cfg[cfg_cost_at(c, r)] - state[resources_at(p, r)]
                    if d > 0:
                        short += d
                        lack = r
                if short == 1 and mask[A_T3 + lack] != 0:
                    v = card_worth(cfg, c)
                    if v > best_value:
                        best_value = v
                        best = A_T3 + lack
            if best >= 0:
                return best
        return A_END
    return sample_masked(mask, n_legal, rng, 0)


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
