"""The greedy baseline of Mycology (``mycology_v0``): the best immediate gain in points.

Scores use only what is public to every player: the face-up field, the acting
player's resources, tokens and baskets, the season and the card tables. No step
is looked ahead, since a step that ends the turn rolls the next player's dice
(future chance the player cannot know).

* harvest: the card's points + its Feast tokens (+1 for a Magic token), minus the
  expected Poison it will bring (2 points x the chance of its resource per roll
  x the rolls left, roughly), plus a bonus for filling baskets (the game ends when
  one player's are full);
* trade 3 (Feast -> resource) and trade 4 (Feast -> next season): the best harvest
  they make possible right away, minus the Feast point spent; trade 2 (3 resources
  -> Feast): +1 point for resources that buy nothing in the field now;
* pay: the most plentiful resource first, a Magic token or Feast only when needed;
* ending the turn is worth 0, other trades a little less.
"""

from __future__ import annotations

import numpy as np

from . import rules as R


# chance per roll that a resource comes up (2d6: 2/12 -> 2/36, 3/11 -> 4/36, ...)
RES_CHANCE = np.array([2, 4, 6, 8, 10], np.float64) / 36.0


def _card_tables(cfg):
    n = R.NUM_CARDS
    return (cfg[R.CFG_POINTS:R.CFG_POINTS + n], cfg[R.CFG_SEASONS:R.CFG_SEASONS + n],
            cfg[R.CFG_FEAST:R.CFG_FEAST + n], cfg[R.CFG_SPECIAL:R.CFG_SPECIAL + n],
            cfg[R.CFG_POISON_RES:R.CFG_POISON_RES + n],
            cfg[R.CFG_COST:R.CFG_COST + n * R.NUM_RES].reshape(n, R.NUM_RES))


def mycology_heuristic(game, state, player, observation, action_mask) -> np.ndarray:
    cfg = game.config
    points, seasons, feast, special, poison_res, cost = _card_tables(cfg)
    p = int(player)
    res = state[R.RES + p * R.NUM_RES:R.RES + (p + 1) * R.NUM_RES].astype(np.int64)
    magic = int(state[R.MAGIC + p])
    my_feast = int(state[R.FEAST + p])
    season = int(state[R.SEASON])
    counts = state[R.BCOUNT + p * R.NUM_SEASONS:R.BCOUNT + (p + 1) * R.NUM_SEASONS]
    filled = int(counts.sum())
    field = state[R.FIELD:R.FIELD + R.FIELD_SIZE]
    n_players = game.num_players

    def card_value(c: int) -> float:
        v = float(points[c] + feast[c])
        if special[c] == R.SP_MAGIC:
            v += 1.0
        if special[c] == R.SP_POISON:
            rolls_left = 3.0 * n_players * max(1.0, 10.0 - filled)
            v -= 2.0 * RES_CHANCE[int(poison_res[c])] * min(rolls_left, 12.0)
        return v + 0.5  # a basket place filled brings the end (and its lead) closer

    def best_harvest(r: np.ndarray, m: int, s: int) -> float:
        best = -np.inf
        if counts[s] >= R.CAPACITY[s]:
            return best
        for c in field:
            if c < 0 or not (seasons[c] >> s) & 1:
                continue
            if np.maximum(cost[c] - r, 0).sum() <= m:
                best = max(best, card_value(int(c)))
        return best

    scores = np.full(game.num_actions, -np.inf)
    phase = int(state[R.PHASE])
    for a in np.flatnonzero(action_mask):
        a = int(a)
        if phase == R.PH_PAY:
            if R.A_PAY_RES <= a < R.A_PAY_RES + R.NUM_RES:
                scores[a] = 0.01 * res[a - R.A_PAY_RES]
            elif a == R.A_PAY_MAGIC:
                scores[a] = -1.0
            else:
                scores[a] = -1.1
        elif phase == R.PH_BOTTOM:
            scores[a] = 0.0
        elif a < R.A_T1:
            scores[a] = card_value(int(field[a - R.A_HARVEST]))
        elif R.A_T3 <= a < R.A_T4:
            r2 = res.copy()
            r2[a - R.A_T3] += 1
            m2 = magic if my_feast > 0 else magic - 1
            gain = best_harvest(r2, m2, season)
            scores[a] = (gain - 1.0 - 0.2) if np.isfinite(gain) and gain > best_harvest(res, magic, season) else -1.5
        elif a == R.A_T4:
            gain = best_harvest(res, magic if my_feast > 0 else magic - 1, (season + 1) % R.NUM_SEASONS)
            scores[a] = gain - 1.0 - 0.3 if np.isfinite(gain) else -1.5
        elif a == R.A_T2:
            scores[a] = 1.0 - 0.3 * 3 if not np.isfinite(best_harvest(res, magic, season)) else -0.5
        elif a == R.A_END:
            scores[a] = 0.0
        else:
            scores[a] = -0.8
    return scores


heuristic = mycology_heuristic  # found by mushgym.agents.GreedyAgent through the registry
