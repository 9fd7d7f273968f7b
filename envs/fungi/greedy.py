"""The greedy baseline of Fungi (``fungi_v0``): the best immediate gain, one decision ahead.

Every score comes from the acting player's own observation (its hand, its display,
the public Forest and decay pile) and from ``game.step`` look-ahead on a copy of the
state for cooking, where the gain is read from the player's own flavor points after
the step. Nothing hidden (the opponent's hand, the draw or Night pile order) enters
a score, so redrawing the hidden cards never changes the choice.

Values are in flavor points:

* cook: the flavor points the cook adds (look-ahead through the pan/Butter/Cidre
  follow-up, which picks the most Butter and Cidre), minus a small pan cost;
* take a Forest card / the decay pile: the card's potential (a fraction of the points
  it can bring when cooked, more when it completes a set; Butter/Cidre worth more with
  a large set in hand; a Pan when none is at hand), minus 0.4 per stick spent;
* sell: 0.4 per stick gained, plus half the value of the best Forest card the new
  sticks bring into reach, minus the potential of the cards sold;
* discard (Fly agaric trim): the least valuable card goes.
"""

from __future__ import annotations

import numpy as np

from . import rules as R
from .cards import BASKET, BUTTER, CIDRE, FLY, MOON, NIGHT0, NKINDS, NNIGHT, NTYPES, PAN

STICK_VALUE = 0.4
PAN_COST = 0.5


def _potential(flavor: float, units: float) -> float:
    """What ``units`` mushrooms of one type in hand are worth before cooking."""
    return flavor * units * (0.45 if units < 3 else 0.8)


class _View:
    """The acting player's view, read from its observation vector."""

    def __init__(self, game, obs):
        cfg = game.config
        c = R.CL.arrays(cfg)
        self.flavor = c["flavor"].astype(np.float64)
        self.sell = c["sticks"].astype(np.float64)
        self.units_of = c["units"].astype(np.float64)
        o = R.OL.arrays(obs)
        self.hand = o["my_hand"].astype(np.float64)
        self.hand_n = float(o["my_hand_size"])
        self.limit = float(o["my_hand_limit"])
        my = o["display"][0]
        self.sticks = float(my[R.DISP_STICKS])
        self.empty_pans = float(my[R.DISP_EMPTY_PANS])
        self.score = float(my[R.DISP_SCORE])
        n = int(o["forest_size"])
        self.forest = [int(o["forest_onehot"][i].argmax()) for i in range(n)]
        self.decay = o["decay_counts"].astype(np.float64)
        self.night_left = float(o["night_pile_size"])
        self.tu = np.array([self.type_units(t) for t in range(NTYPES)])

    def type_units(self, t: int) -> float:
        u = self.hand[t]
        if t < NNIGHT:
            u += self.hand[NIGHT0 + t] * self.units_of[NIGHT0 + t]
        return u

    def mushroom(self, kind: int) -> tuple[int, float] | None:
        if kind < NTYPES:
            return kind, 1.0
        if NIGHT0 <= kind < NIGHT0 + NNIGHT:
            return kind - NIGHT0, self.units_of[kind]
        return None

    def card_value(self, kind: int) -> float:
        """Potential gained by taking one card of ``kind`` into hand or display."""
        m = self.mushroom(kind)
        if m is not None:
            t, u = m
            f = self.flavor[t]
            return _potential(f, self.tu[t] + u) - _potential(f, self.tu[t])
        best_set = self.tu.max() if self.tu.size else 0.0
        if kind == BUTTER:
            return self.flavor[BUTTER] * (0.6 if best_set >= 3 else 0.3)
        if kind == CIDRE:
            return self.flavor[CIDRE] * (0.6 if best_set >= 4 else 0.3)
        if kind == PAN:
            return 1.5 if self.empty_pans + self.hand[PAN] == 0 else 0.2
        if kind == BASKET:
            return 1.5 if self.hand_n >= self.limit - 1 else 0.8
        if kind == MOON:
            if self.night_left <= 0:
                return 0.0
            return 0.45 * 2.0 * float(self.flavor[:NNIGHT].mean())
        if kind == FLY:
            return -0.3 if self.hand_n > 4 else 0.0
        return 0.0

    def hand_card_value(self, kind: int) -> float:
        """Potential lost by giving up one card of ``kind`` from hand."""
        m = self.mushroom(kind)
        if m is not None:
            t, u = m
            f = self.flavor[t]
            return _potential(f, self.tu[t]) - _potential(f, max(self.tu[t] - u, 0.0))
        return self.card_value(kind)


def fungi_heuristic(game, state, player, observation, action_mask) -> np.ndarray:
    v = _View(game, observation)
    k, cfg = game.kernels, game.config
    scores = np.full(game.num_actions, -np.inf)
    legal = np.flatnonzero(action_mask)
    obs_buf = np.zeros(game.observation_shape, dtype=np.float32)

    def my_score(s) -> float:
        k.observe(s, player, cfg, obs_buf, game.work)
        return float(obs_buf[R.obs_display_at(0, R.DISP_SCORE)])

    def best_finish_gain(s) -> float:
        """Score gained through the cook follow-up of ``s`` (best pan/Butter/Cidre)."""
        if k.is_terminal(s) or R.top_kind(s) != R.D_COOK:
            return my_score(s) - v.score
        m = np.zeros(game.num_actions, dtype=np.int8)
        k.legal_mask(s, cfg, m, game.work)
        best = -np.inf
        for a in np.flatnonzero(m):
            s2 = s.copy()
            k.step(s2, int(a), cfg, game.work)
            best = max(best, my_score(s2) - v.score)
        return best

    reachable_now = max(
        (v.card_value(c) for i, c in enumerate(v.forest) if (i - 1 if i >= R.FREE_POSITIONS else 0) <= v.sticks),
        default=0.0,
    )
    for a in legal:
        a = int(a)
        if a < R.A_DECAY:
            i = R.take_args(a)
            cost = i - 1 if i >= R.FREE_POSITIONS else 0
            scores[a] = v.card_value(v.forest[i]) - STICK_VALUE * cost
        elif a == R.A_DECAY:
            scores[a] = sum(v.card_value(c) * v.decay[c] for c in range(NKINDS) if v.decay[c] > 0)
        elif a == R.A_PAN:
            scores[a] = 0.1
        elif a < R.A_SELL:
            s = state.copy()
            k.step(s, a, cfg, game.work)
            scores[a] = best_finish_gain(s) - PAN_COST
        elif a < R.A_FINISH:
            t, nn, f = R.sell_args(a)
            units = f + (nn * v.units_of[NIGHT0 + t] if t < NNIGHT else 0)
            gain = units * v.sell[t]
            lost = _potential(v.flavor[t], v.tu[t]) - _potential(v.flavor[t], v.tu[t] - units)
            newly = max(
                (
                    v.card_value(c)
                    for i, c in enumerate(v.forest)
                    if i >= R.FREE_POSITIONS and v.sticks < i - 1 <= v.sticks + gain
                ),
                default=0.0,
            )
            scores[a] = STICK_VALUE * gain + 0.5 * max(0.0, newly - reachable_now) - lost
        elif a < R.A_DISCARD:
            s = state.copy()
            k.step(s, a, cfg, game.work)
            scores[a] = my_score(s) - v.score
        else:
            scores[a] = -v.hand_card_value(R.discard_args(a))
    return scores


heuristic = fungi_heuristic  # found by mushgym.agents.GreedyAgent through the registry
