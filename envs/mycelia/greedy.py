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
* the North American expansion: AGE 95 (a sure 5 points); a move onto a sapling holding 3
  spores +20 (to AGE next); invest a spore whenever possible, in the sapling holding the most
  (nearer the guaranteed bonus and a tree); re-roll a symbiosis roll that gives nothing; a bonus
  spore, a spore pushed off its own tree go on a needed colour; an opponent's spore pushed off
  its tree goes on a tile the player controls, never onto a sapling (that would give the
  opponent a roll); the sapling decay actions favour its own saplings and cost the opponents.
"""

from __future__ import annotations

import numpy as np

from . import rules as R


def needed_colours(game, state, p) -> np.ndarray:
    """Spores still wanted by colour (red, green, brown, yellow, black=any) for the hand's cards
    (a wild spore, the expansion's, wants any colour)."""
    need = np.zeros(5)
    wild = 0
    for c in range(len(game.cards.names)):
        if state[R.LOC + c] == R.L_HAND + p:
            need[:4] += game.cards.require[c]
            wild += int(game.cards.wild[c])
    need[4] = need[:4].sum() + wild
    if wild:
        need[:4] += 0.5  # any colour helps a wild spore
    return need


def _card_of(a: int) -> int:
    """The card an action of the ``card`` or ``card_na`` group names, else -1."""
    if R.A_CARD <= a < R.A_CARD + R.NC_BASE:
        return a - R.A_CARD
    if R.A_CARD_NA <= a < R.A_CARD_NA + R.NC_NA:
        return a - R.A_CARD_NA + R.NC_BASE
    return -1


def _pay_owner(a: int) -> int:
    """The owner of the spore a ``pay`` / ``pay_seat4`` action spends, else -1."""
    if R.A_PAY <= a < R.A_CARD:
        return (a - R.A_PAY) % R.BASE_SEATS
    if R.A_PAY_SEAT4 <= a < R.A_PAY_SEAT4 + R.NT_MAX:
        return R.BASE_SEATS
    return -1


def _ageable(state, p, t) -> bool:
    """Tile ``t`` holds a sapling with 3 spores and ``p`` has a tree left (the expansion)."""
    return (
        bool(state[R.SAP + t])
        and state[R.TREES_LEFT + p] > 0
        and sum(int(state[R.SAP_SP + t * R.MAXS + s]) for s in range(R.MAXS)) >= R.SAPLING_SPORES
    )


def _tile_value(game, state, t, need) -> float:
    col = int(game.tiles.colour[int(state[R.T_ID + t])])
    return 1.0 if need[col] > 0 else 0.0


def spore_value(game, state, p, origin, count, need) -> float:
    """Expected needed-colour tiles reached by ``count`` spores from ``origin`` (die averaged)."""
    work = np.zeros(R.WORK_SIZE, np.int64)
    total = 0.0
    for sym in range(3):
        k = int(R.edge_with_symbol(state, game.config, origin, sym))
        far = int(R.cone_distances(state, origin, k, int(R.cone_rows(count)), work))
        dist = work[R.W_DIST : R.W_DIST + int(state[R.NTP])]
        order = sorted((int(d), t) for t, d in enumerate(dist) if d >= 0)[: max(count, 0)]
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
        if kind >= R.D_INVEST:
            v = _expansion_value(game, state, p, kind, top, a, need)
        elif kind == R.D_MAIN:
            if _card_of(a) >= 0:
                v = 100 + game.cards.points[_card_of(a)]
            elif a == R.A_AGE:
                v = 95
            elif R.A_DECAY <= a < R.A_DECAY + R.NMATS:
                v = 90
            elif a == R.A_SPORE:
                v = 20 + spore_value(game, state, p, int(state[R.M_POS + p]), mcount, need)
            elif R.A_SPORE < a < R.A_SPORE + 6:
                v = 60
            elif a < R.A_PAY:
                v = (
                    15
                    + spore_value(game, state, p, a, mcount, need)
                    + (4 if state[R.T_INS + a] else 0)
                    + (20 if game.expansion and _ageable(state, p, a) else 0)
                )
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
        elif kind == R.D_MOVE and a != R.A_STOP and a >= R.A_PAY:  # a free action between two steps
            v = -1
        elif kind == R.D_MOVE:
            v = (
                1 + spore_value(game, state, p, a, mcount, need)
                if a < R.A_PAY
                else spore_value(game, state, p, int(state[R.M_POS + p]), mcount, need)
            )
            here = a if a < R.A_PAY else int(state[R.M_POS + p])
            if game.expansion and _ageable(state, p, here):
                v += 20
        elif kind in (R.D_SPORE_PICK, R.D_FRUIT_TILE) and a < R.A_PAY:
            v = _tile_value(game, state, a, need) + 0.01 * R.spores_on(state, a)
        elif _pay_owner(a) >= 0:
            v = 1.0 if _pay_owner(a) != p else 0.0
        elif kind == R.D_FRUIT_MAT:
            v = float(state[R.MAT_UPG + p * R.NMATS + a - R.A_MAT])
        elif kind in (R.D_KEEP, R.D_TRADE) and _card_of(a) >= 0:
            c = _card_of(a)
            v = game.cards.points[c] if kind == R.D_KEEP else -game.cards.points[c]
        scores[a] = v
    return scores


def _sapling_held(state, t) -> int:
    return sum(int(state[R.SAP_SP + t * R.MAXS + s]) for s in range(R.MAXS))


def _expansion_value(game, state, p, kind, top, a, need) -> float:
    """Scores of the expansion's decisions (see the module docstring)."""
    if kind == R.D_INVEST:
        return 0.0 if a == R.A_NO_INVEST else 2.0 + _sapling_held(state, a - R.A_TILE)
    if kind == R.D_REROLL:
        k, sym = top[2], top[3]
        gives = sym == 1 or (sym == 0 and k >= 2) or (sym == 2 and k >= 3)
        return float((a == R.A_REROLL + 1) != gives)
    if kind == R.D_TREE_PUSH:
        owner = top[3]
        if a >= R.A_PUSH_SAPLING:
            return -1.0 if owner != p else 2.0
        if a == R.A_NO_INVEST:
            return 0.0
        t = a - R.A_TILE
        if owner == p:
            return _tile_value(game, state, t, need) + (0.5 if state[R.TREE + t] < 0 else 0.0)
        return 1.0 if int(R.controller(state, t)) == p else 0.0
    if kind == R.D_SYM_SPORE:
        t = a - R.A_TILE
        return _tile_value(game, state, t, need) - (0.5 if state[R.TREE + t] >= 0 else 0.0)
    if kind == R.D_SAP_PICK:
        t = a - R.A_TILE
        return float(_sapling_held(state, t))
    if kind == R.D_SAP_ADD:
        t = a - R.A_TILE
        return 1.0 if int(state[R.M_POS + p]) == t else _tile_value(game, state, t, need)
    if kind == R.D_SAP_REMOVE:
        t = a - R.A_TILE
        return float(_sapling_held(state, t) - 2 * int(state[R.SAP_SP + t * R.MAXS + p]))
    if kind == R.D_SAP_REMOVE_SEAT:
        return 0.0 if R.action_seat(a) == p else 1.0
    return 0.0
