"""The greedy baselines of Mycology (``mycology_v1``): the best immediate gain in points.

One greedy, :class:`Greedy`, with the policy variants the simulation compares as
parameters; ``heuristic`` (found by ``mushgym.agents.GreedyAgent``) is the default
one. Scores use only what is public to every player: the face-up field, the acting
player's resources, tokens and baskets, the season and the card tables. No step is
looked ahead, since a step that ends the turn rolls the next player's dice (future
chance the player cannot know).

* harvest: the card's value (``value="points_feast"``: points + Feast tokens, +1 for a
  Magic token; ``"points"``: points only), minus, with ``poison="expected"``, the
  Poison it is expected to bring (2 points x the chance of its resource per roll x the
  rolls left, roughly); ``poison="avoid"`` never harvests a poison card, ``"ignore"``
  disregards poison, ``"late"`` takes poison cards (by points) only once 7 of its 10
  basket places are filled (fewer rolls left to be poisoned by); plus a bonus for filling baskets (the game ends
  when one
  player's are full);
* trade 1 (3 resources -> 1 resource) and trade 3 (Feast -> resource) when they make
  an in-season card affordable right away (trade 1 only with 3 resources the card
  does not need), trade 4 (Feast -> next season) for the best harvest it opens or when
  the season's basket is full, trade 5 (Feast -> new field row) when no field card can go into the season's basket, the
  row with fewer in-season cards; trade 2 (3 resources -> Feast, ``feast_trade=True``):
  +1 point for resources that buy nothing in the field now; each minus what it costs;
* pay: the most plentiful resource first, then Feast, a Magic token last;
* trade 6 (2 Feast -> exchange), with ``exchange=True``: the best gain in card value of
  taking one of the other player's current-season mushrooms for one of yours (with
  ``poison="expected"`` a poison card is worth less than nothing: dumping it on another
  player is a gain), minus the 2 Feast; then give the least valuable, take the most;
* ending the turn is worth 0; without ``exchange`` exchanges a little less.
"""

from __future__ import annotations

import numpy as np

from . import rules as R
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
)
from .layout import FIELD_SIZE, NUM_RES, NUM_SEASONS, ROW_SIZE, SP_MAGIC, SP_POISON, C, L

# chance per roll that a resource comes up (2d6: 2/12 -> 2/36, 3/11 -> 4/36, ...)
RES_CHANCE = np.array([2, 4, 6, 8, 10], np.float64) / 36.0
VALUES = ("points_feast", "points")
POISON_MODES = ("expected", "ignore", "avoid", "late")
LATE_POISON_FROM = 7  # poison="late": poison cards only once this many basket places are filled


class Greedy:
    """Scores of every action for the player to act; ``act`` takes the best legal one."""

    def __init__(
        self,
        game,
        value: str = "points_feast",
        poison: str = "expected",
        feast_trade: bool = True,
        exchange: bool = False,
        name: str | None = None,
    ):
        if value not in VALUES:
            raise ValueError(f"greedy value {value!r} unknown; choose from {VALUES}")
        if poison not in POISON_MODES:
            raise ValueError(f"greedy poison mode {poison!r} unknown; choose from {POISON_MODES}")
        self.game = game
        self.value, self.poison, self.feast_trade, self.exchange = value, poison, feast_trade, exchange
        self.name = name or f"greedy_{value}_{poison}"
        t = C.arrays(game.config)
        self.points, self.seasons, self.feast = t["points"], t["seasons"], t["feast"]
        self.special, self.poison_res, self.cost = t["special"], t["poison_resource"], t["cost"]

    def card_value(self, c: int, filled: int) -> float:
        if self.special[c] == SP_POISON and (
            self.poison == "avoid" or (self.poison == "late" and filled < LATE_POISON_FROM)
        ):
            return -np.inf
        v = float(self.points[c])
        if self.value == "points_feast":
            v += float(self.feast[c]) + (1.0 if self.special[c] == SP_MAGIC else 0.0)
        if self.poison == "expected" and self.special[c] == SP_POISON:
            rolls_left = 3.0 * self.game.num_players * max(1.0, 10.0 - filled)
            v -= 2.0 * RES_CHANCE[int(self.poison_res[c])] * min(rolls_left, 12.0)
        return v + 0.5  # a basket place filled brings the end (and its lead) closer

    def scores(self, state: np.ndarray, player: int, action_mask: np.ndarray) -> np.ndarray:
        v = L.arrays(state)
        p = int(player)
        res = v["resources"][p].astype(np.int64)
        magic = int(v["magic"][p])
        my_feast = int(v["feast"][p])
        season = int(v["season"])
        counts = v["basket_count"][p]
        filled = int(counts.sum())
        field = v["field"]

        def affordable(c: int, r: np.ndarray, m: int) -> bool:
            return np.maximum(self.cost[c] - r, 0).sum() <= m

        def in_season(c: int, s: int) -> bool:
            return c >= 0 and bool((self.seasons[c] >> s) & 1)

        def best_harvest(r: np.ndarray, m: int, s: int) -> float:
            best = -np.inf
            if counts[s] >= R.CAPACITY[s]:
                return best
            for c in field:
                if in_season(int(c), s) and affordable(int(c), r, m):
                    best = max(best, self.card_value(int(c), filled))
            return best

        now = best_harvest(res, magic, season)

        def worth(c: int) -> float:  # a card already harvested: its value to whoever holds it
            v = self.card_value(c, filled)
            return v if np.isfinite(v) else float(self.points[c]) - 10.0

        def exchange_gain(q: int) -> float:
            mine = [worth(int(c)) for c in v["basket"][p, season, : int(counts[season])]]
            theirs = [worth(int(c)) for c in v["basket"][q, season, : int(v["basket_count"][q, season])]]
            return max(theirs) - min(mine) - 2.0 if mine and theirs else -np.inf

        scores = np.full(self.game.num_actions, -np.inf)
        phase = self.game.phase(state)
        for a in np.flatnonzero(action_mask):
            a = int(a)
            if phase == R.DEC_PAY:
                if A_PAY_RES <= a < A_PAY_RES + NUM_RES:
                    scores[a] = 0.01 * res[a - A_PAY_RES]
                elif a == A_PAY_FEAST:
                    scores[a] = -0.5
                else:
                    scores[a] = -1.0
            elif phase == R.DEC_BOTTOM:
                scores[a] = -0.01 * (a - A_BOTTOM)
            elif phase == R.DEC_GIVE:
                scores[a] = -worth(int(v["basket"][p, season, a - A_GIVE]))
            elif phase == R.DEC_TAKE:
                q = self.game.decision(state)["target"]
                scores[a] = worth(int(v["basket"][q, season, a - A_TAKE]))
            elif A_T6 <= a < A_END:
                q = (p + a - A_T6 + 1) % self.game.num_players
                gain = exchange_gain(q) if self.exchange else -np.inf
                scores[a] = gain if np.isfinite(gain) and gain > 0 else -0.8
            elif a < A_T1:
                scores[a] = self.card_value(int(field[a - A_HARVEST]), filled)
            elif a < A_T2:
                r2 = res.copy()
                r2[a - A_T1] += 1
                gain = -np.inf
                for c in field:  # the card the new resource completes, paid from resources it does not need
                    c = int(c)
                    if (
                        in_season(c, season)
                        and counts[season] < R.CAPACITY[season]
                        and affordable(c, r2, magic)
                        and not affordable(c, res, magic)
                        and (res - np.minimum(res, self.cost[c])).sum() >= 3
                    ):
                        gain = max(gain, self.card_value(c, filled))
                scores[a] = gain - 0.1 if np.isfinite(gain) and gain > now else -0.8
            elif A_T3 <= a < A_T4:
                r2 = res.copy()
                r2[a - A_T3] += 1
                gain = best_harvest(r2, magic if my_feast > 0 else magic - 1, season)
                scores[a] = (gain - 1.0 - 0.2) if np.isfinite(gain) and gain > now else -1.5
            elif a == A_T4:
                gain = best_harvest(res, magic if my_feast > 0 else magic - 1, (season + 1) % NUM_SEASONS)
                scores[a] = gain - 1.0 - 0.3 if np.isfinite(gain) else -1.5
                if counts[season] >= R.CAPACITY[season]:
                    scores[a] = max(scores[a], 0.05)  # a full basket: nothing to harvest until the season moves
            elif a == A_T2:
                scores[a] = 1.0 - 0.3 * 3 if self.feast_trade and not np.isfinite(now) else -0.5
            elif A_T5 <= a < A_T6:
                room = counts[season] < R.CAPACITY[season]
                none_in_season = not any(in_season(int(c), season) for c in field[:FIELD_SIZE])
                row = a - A_T5
                fewer = [
                    sum(in_season(int(field[r * ROW_SIZE + j]), season) for j in range(ROW_SIZE)) for r in range(2)
                ]
                scores[a] = 0.1 - 0.01 * row if room and none_in_season and fewer[row] <= fewer[1 - row] else -0.8
            elif a == A_END:
                scores[a] = 0.0
            else:
                scores[a] = -0.8
        return scores

    def heuristic(self, game, state, player, observation, action_mask) -> np.ndarray:
        return self.scores(state, player, action_mask)

    def act(self, state: np.ndarray, mask: np.ndarray) -> int:
        s = self.scores(state, self.game.current_player(state), mask)
        return int(np.argmax(s))


def mycology_heuristic(game, state, player, observation, action_mask) -> np.ndarray:
    """The default greedy (points + Feast, expected Poison) as a GreedyAgent heuristic."""
    g = game.__dict__.get("_default_greedy")
    if g is None:
        g = game.__dict__["_default_greedy"] = Greedy(game)
    return g.scores(state, player, action_mask)


heuristic = mycology_heuristic  # found by mushgym.agents.GreedyAgent through the registry
