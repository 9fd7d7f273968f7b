"""The greedy baseline of Mycelia: fruit when possible, else spore toward the colours it needs.

Scores use only what the acting player may see (its own hand, the board, the market and
the mats): no step is looked ahead, since most steps roll the wind die or draw a card.

* fruit a card: 100 + its points; decay a mushroom that spored twice: 90;
* spore: a mushroom not yet spored twice 60; the Mother mushroom 20 + the expected number
  of tiles of a needed colour (by the hand's requirements, black counting for any) its
  spores would reach, averaged over the three faces of the wind die;
* move: 15 + the same expectation from the tile stepped on (+4 for an insect token);
* discover: 12 + half the market card's points (deck 10); explore 8;
* sub-decisions: a spore or a grown mushroom goes on a needed colour; pay the spores of
  other players first (they go back to their owners, the player's own network stays);
  free actions (insects, trades) only when nothing else scores (they cost tokens/cards).
"""

from __future__ import annotations

import numpy as np

from . import rules as R


def needed_colours(game, state, p) -> np.ndarray:
    """Spores still wanted by colour (red, green, brown, yellow, black=any) for the hand's cards."""
    need = np.zeros(5)
    for c in range(R.NC):
        if state[R.LOC + c] == R.L_HAND + p:
            need[:4] += game.cards.require[c]
    need[4] = need[:4].sum()
    return need


def _tile_value(game, state, t, need) -> float:
    col = int(game.tiles.colour[int(state[R.T_ID + t])])
    return 1.0 if need[col] > 0 else 0.0


def spore_value(game, state, p, origin, count, need) -> float:
    """Expected needed-colour tiles reached by ``count`` spores from ``origin`` (die averaged)."""
    work = np.zeros(R.WORK_SIZE, np.int64)
    total = 0.0
    for sym in range(3):
        k = int(R._edge_with_symbol(state, game.config, origin, sym))
        far = int(R.cone_distances(state, origin, k, work))
        dist = work[R.W_DIST:R.W_DIST + int(state[R.NTP])]
        order = sorted((int(d), t) for t, d in enumerate(dist) if d >= 0)[:max(count, 0)]
        total += sum(_tile_value(game, state, t, need) for _, t in order)
        del far
    return total / 3.0


def heuristic(game, state, player, observation, action_mask) -> np.ndarray:
    scores = np.full(game.num_actions, -np.inf)
    legal = np.flatnonzero(action_mask)
    if legal.size == 0:
        return scores
    p = player
    need = needed_colours(game, state, p)
    top = game._top(state)
    kind = top[0] if top else R.D_MAIN
    mcount = 3 if state[R.GUPG + p] & R.GU_SPORE3 else 2
    for a in legal:
        a = int(a)
        v = 0.0
        if kind == R.D_MAIN:
            if R.A_CARD <= a < R.A_CARD + R.NC:
                v = 100 + game.cards.points[a - R.A_CARD]
            elif R.A_DECAY <= a < R.A_DECAY + R.NMATS:
                v = 90
            elif a == R.A_SPORE:
                v = 20 + spore_value(game, state, p, int(state[R.M_POS + p]), mcount, need)
            elif R.A_SPORE < a < R.A_SPORE + 6:
                v = 60
            elif a < R.A_PAY:
                v = 15 + spore_value(game, state, p, a, mcount, need) + (4 if state[R.T_INS + a] else 0)
            elif R.A_MARKET <= a < R.A_DECK:
                v = 12 + game.cards.points[int(state[R.MARKET + a - R.A_MARKET])] / 2
            elif a == R.A_DECK:
                v = 10
            elif R.A_PILE <= a < R.A_PILE + 2:
                v = 8
            elif a == R.A_STOP:
                v = 0
            else:  # free actions
                v = -1
        elif kind == R.D_MOVE:
            v = 1 + spore_value(game, state, p, a, mcount, need) if a < R.A_PAY else spore_value(
                game, state, p, int(state[R.M_POS + p]), mcount, need)
        elif kind in (R.D_SPORE_PICK, R.D_FRUIT_TILE) and a < R.A_PAY:
            v = _tile_value(game, state, a, need) + 0.01 * R._spores_on(state, a)
        elif R.A_PAY <= a < R.A_CARD:
            t, o = divmod(a - R.A_PAY, 4)
            v = 1.0 if o != p else 0.0
        elif kind == R.D_FRUIT_MAT:
            v = float(state[R.MAT_UPG + p * R.NMATS + a - R.A_MAT])
        elif kind in (R.D_KEEP, R.D_TRADE) and R.A_CARD <= a < R.A_CARD + R.NC:
            c = a - R.A_CARD
            v = game.cards.points[c] if kind == R.D_KEEP else -game.cards.points[c]
        scores[a] = v
    return scores
