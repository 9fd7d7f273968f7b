"""Mycelia's greedy baseline, compiled: the scores behind ``GreedyAgent`` and the rollout policy.

One scoring serves both: ``greedy_scores(state, cfg, p, mask, scores, work)`` fills the score of
every legal action (``greedy.py``'s ``heuristic``, what ``GreedyAgent`` plays, is a thin wrapper
around it), and ``rollout_policy(state, cfg, mask, n_legal, work, rng) -> action`` (``rollout=
"greedy"``, what ``rollout="auto"`` and ``mcts:SIMS`` use) plays, with probability
``ROLLOUT_EPSILON``, a uniformly random legal move, else ``greedy_move``: the legal action of the
best score, ties broken uniformly at random as ``GreedyAgent`` breaks them.

Greedy fruits when possible, else spores toward the colours it needs. Scores use only what the
acting player may see (its own hand: the colours its cards still need; the board, the market
and the mats): no step is looked ahead, since most steps roll the wind die or draw a card. The
Automata's turns run inside ``step`` and need no policy.

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

===================  ======================================================================
decision             score (the best legal action is taken; ties at random)
===================  ======================================================================
main                 fruit a card 100 + its points; AGE 95; decay a twice-spored mushroom
                     90; spore from a mat 60; spore from the Mother 20 + ``spore_value``;
                     move 15 + ``spore_value`` from the tile (+4 insect, +20 a sapling to
                     AGE); discover 12 + half the market card's points (deck 10); explore
                     8; stop 0; free actions -1
step on (move)       1 + ``spore_value`` of the tile; stopping: ``spore_value`` of the M
spore / fruit tile   1 on a needed colour + 0.01 x spores there
paying               another seat's spore 1, the player's own 0
fruit mat            the mat's upgrade bits
keep / trade         the card's points (trade: minus)
expansion            ``expansion_score``
===================  ======================================================================

``spore_value(origin, count)``: the needed-colour tiles among the ``count`` nearest of the wind
cone from ``origin``, averaged over the three faces of the wind die (``cone_distances`` in the
work area: the search's preallocated ``WORK_SIZE`` scratch, so no allocation).
"""

import numpy as np
from numba import njit

from mushgym.core import rng_below

from .actions import (
    A_AGE,
    A_CARD,
    A_DECAY,
    A_DECK,
    A_MARKET,
    A_MAT,
    A_NO_INVEST,
    A_PAY,
    A_PAY_SEAT4,
    A_PILE,
    A_PUSH_SAPLING,
    A_REROLL,
    A_SPORE,
    A_STOP,
    NUM_ACTIONS,
    action_card,
    action_seat,
)
from .expansion import sapling_held
from .layout import (
    BASE_SEATS,
    CFG_EXP,
    D_FRUIT_MAT,
    D_FRUIT_TILE,
    D_INVEST,
    D_KEEP,
    D_MAIN,
    D_MOVE,
    D_REROLL,
    D_SAP_ADD,
    D_SAP_PICK,
    D_SAP_REMOVE,
    D_SAP_REMOVE_SEAT,
    D_SPORE_PICK,
    D_SYM_SPORE,
    D_TRADE,
    D_TREE_PUSH,
    ENTRY,
    GU_SPORE3,
    L_HAND,
    NC,
    NCOL,
    NMATS,
    NT_MAX,
    NTP,
    SAPLING_SPORES,
    STACK,
    card_loc_at,
    cfg_points_at,
    cfg_require_at,
    cfg_tile_colour_at,
    cfg_wild_at,
    game_upgrades_at,
    market_at,
    mat_upgrades_at,
    mother_at,
    sapling_at,
    sapling_spores_at,
    tile_id_at,
    tile_insect_at,
    tree_at,
    trees_left_at,
)
from .rules import (  # public names only (the rules' own helpers may move)
    W_DIST,
    cone_distances,
    cone_rows,
    current_player,
    decision_depth,
    sample_masked,  # sample_masked: the engine's uniform legal draw (mushgym.core.batch)
)
from .tiles import controller, edge_with_symbol, spores_on

ROLLOUT_EPSILON = 0.05  # share of rollout moves drawn uniformly from the legal ones
TIE = 1e-9  # scores this close count as equal (GreedyAgent's tolerance)
BLACK_BIT = 1 << NCOL  # bit NCOL of the needed-colour set: black tiles (any colour)


@njit(cache=True)
def needed_colours(state, cfg, p):
    """The colours ``p``'s hand still wants, as a bit set: bit c (red, green, brown, yellow; NCOL =
    black, any) set when a card in the hand requires spores of that colour (a wild spore wants any)."""
    need = 0
    wild = 0
    for c in range(NC):
        if state[card_loc_at(c)] == L_HAND + p:
            for col in range(NCOL):
                if cfg[cfg_require_at(c, col)] > 0:
                    need |= 1 << col
            wild += cfg[cfg_wild_at(c)]
    if wild > 0:
        need |= (1 << NCOL) - 1
    if need != 0:
        need |= BLACK_BIT
    return need


@njit(cache=True)
def tile_value(state, cfg, t, need):
    """1 when tile ``t``'s colour is one the hand needs, else 0."""
    return 1.0 if (need >> cfg[cfg_tile_colour_at(state[tile_id_at(t)])]) & 1 else 0.0


@njit(cache=True)
def spore_value(state, cfg, origin, count, need, work):
    """Expected needed-colour tiles among the ``count`` nearest (distance, then tile index) of the
    wind cone from ``origin``, averaged over the three faces of the die."""
    n = state[NTP]
    total = 0.0
    for sym in range(3):
        cone_distances(state, origin, edge_with_symbol(state, cfg, origin, sym), cone_rows(count), work)
        last_d, last_t = -1, -1
        for _ in range(count):
            best_d, best_t = NT_MAX + 1, -1
            for t in range(n):
                d = work[W_DIST + t]
                if d < 0 or d < last_d or (d == last_d and t <= last_t):
                    continue
                if d < best_d:
                    best_d, best_t = d, t
            if best_t < 0:
                break
            total += tile_value(state, cfg, best_t, need)
            last_d, last_t = best_d, best_t
    return total / 3.0


@njit(cache=True)
def ageable(state, p, t):
    """Tile ``t`` holds a sapling with 3 spores and ``p`` has a tree left (the expansion)."""
    return state[sapling_at(t)] != 0 and state[trees_left_at(p)] > 0 and sapling_held(state, t) >= SAPLING_SPORES


@njit(cache=True)
def pay_owner(a):
    """The seat whose spore a ``pay`` / ``pay_seat4`` action spends, else -1."""
    if A_PAY <= a < A_CARD:
        return (a - A_PAY) % BASE_SEATS
    if A_PAY_SEAT4 <= a < A_PAY_SEAT4 + NT_MAX:
        return BASE_SEATS
    return -1


@njit(cache=True)
def expansion_score(state, cfg, p, kind, a0, a1, a, need):
    """The expansion's decisions: invest in the fullest sapling, re-roll a roll that gives
    nothing, push spores to needed colours (an opponent's onto a tile p controls, never a sapling)."""
    if kind == D_INVEST:
        return 0.0 if a == A_NO_INVEST else 2.0 + sapling_held(state, a)
    if kind == D_REROLL:
        gives = a1 == 1 or (a1 == 0 and a0 >= 2) or (a1 == 2 and a0 >= 3)
        return 1.0 if (a == A_REROLL + 1) != gives else 0.0
    if kind == D_TREE_PUSH:
        if a >= A_PUSH_SAPLING:
            return -1.0 if a1 != p else 2.0
        if a == A_NO_INVEST:
            return 0.0
        if a1 == p:
            return tile_value(state, cfg, a, need) + (0.5 if state[tree_at(a)] < 0 else 0.0)
        return 1.0 if controller(state, a) == p else 0.0
    if kind == D_SYM_SPORE:
        return tile_value(state, cfg, a, need) - (0.5 if state[tree_at(a)] >= 0 else 0.0)
    if kind == D_SAP_PICK:
        return float(sapling_held(state, a))
    if kind == D_SAP_ADD:
        return 1.0 if state[mother_at(p)] == a else tile_value(state, cfg, a, need)
    if kind == D_SAP_REMOVE:
        return float(sapling_held(state, a) - 2 * state[sapling_spores_at(a, p)])
    if kind == D_SAP_REMOVE_SEAT:
        return 0.0 if action_seat(a) == p else 1.0
    return 0.0


@njit(cache=True)
def main_score(state, cfg, p, a, mcount, need, work):
    """The score of a main-decision action (the action menu and its free actions)."""
    c = action_card(a)
    if c >= 0:
        return 100.0 + cfg[cfg_points_at(c)]
    if a == A_AGE:
        return 95.0
    if A_DECAY <= a < A_DECAY + NMATS:
        return 90.0
    if a == A_SPORE:
        return 20.0 + spore_value(state, cfg, state[mother_at(p)], mcount, need, work)
    if A_SPORE < a < A_SPORE + 6:
        return 60.0
    if a < A_PAY:
        v = 15.0 + spore_value(state, cfg, a, mcount, need, work) + (4.0 if state[tile_insect_at(a)] != 0 else 0.0)
        if cfg[CFG_EXP] != 0 and ageable(state, p, a):
            v += 20.0
        return v
    if A_MARKET <= a < A_DECK:
        return 12.0 + cfg[cfg_points_at(state[market_at(a - A_MARKET)])] / 2.0
    if a == A_DECK:
        return 10.0
    if A_PILE <= a < A_PILE + 2:
        return 8.0
    if a == A_STOP:
        return 0.0
    return -1.0


@njit(cache=True)
def action_score(state, cfg, p, kind, a0, a1, a, mcount, need, work):
    """The greedy score of legal action ``a`` at a decision of this kind (see the module docstring)."""
    if kind >= D_INVEST:
        return expansion_score(state, cfg, p, kind, a0, a1, a, need)
    if kind == D_MAIN:
        return main_score(state, cfg, p, a, mcount, need, work)
    if kind == D_MOVE:
        if a != A_STOP and a >= A_PAY:  # a free action between two steps: below stopping, as at the main decision
            return -1.0
        here = a if a < A_PAY else state[mother_at(p)]
        v = spore_value(state, cfg, here, mcount, need, work) + (1.0 if a < A_PAY else 0.0)
        if cfg[CFG_EXP] != 0 and ageable(state, p, here):
            v += 20.0
        return v
    if (kind == D_SPORE_PICK or kind == D_FRUIT_TILE) and a < A_PAY:
        return tile_value(state, cfg, a, need) + 0.01 * spores_on(state, a)
    o = pay_owner(a)
    if o >= 0:
        return 1.0 if o != p else 0.0
    if kind == D_FRUIT_MAT:
        return float(state[mat_upgrades_at(p, a - A_MAT)])
    if kind == D_KEEP or kind == D_TRADE:
        c = action_card(a)
        if c >= 0:
            return float(cfg[cfg_points_at(c)]) if kind == D_KEEP else -float(cfg[cfg_points_at(c)])
    return 0.0


@njit(cache=True)
def decision_on_top(state):
    """(kind, a0, a1) of the decision to take: the top of the stack (the main one when empty)."""
    depth = decision_depth(state)
    if depth == 0:
        return D_MAIN, 0, 0
    o = STACK + (depth - 1) * ENTRY
    return state[o], state[o + 2], state[o + 3]


@njit(cache=True)
def greedy_scores(state, cfg, p, mask, scores, work):
    """Fill ``scores`` with the greedy score of each legal action of ``mask`` for player ``p`` (-inf
    for the others) and return the number of legal actions; reads only what ``p`` may see."""
    kind, a0, a1 = decision_on_top(state)
    need = needed_colours(state, cfg, p)
    mcount = 3 if state[game_upgrades_at(p)] & GU_SPORE3 else 2
    n_legal = 0
    for a in range(scores.shape[0]):
        if a < NUM_ACTIONS and a < mask.shape[0] and mask[a] != 0:
            scores[a] = action_score(state, cfg, p, kind, a0, a1, a, mcount, need, work)
            n_legal += 1
        else:
            scores[a] = -np.inf
    return n_legal


@njit(cache=True)
def greedy_move(state, cfg, mask, n_legal, work, rng):
    """The legal action of the best ``action_score`` for the player to act, ties uniformly at random."""
    p = current_player(state)
    kind, a0, a1 = decision_on_top(state)
    need = needed_colours(state, cfg, p)
    mcount = 3 if state[game_upgrades_at(p)] & GU_SPORE3 else 2
    best = -1
    best_score = -1e300
    ties = 0
    for a in range(NUM_ACTIONS):
        if a >= mask.shape[0]:
            break
        if mask[a] == 0:
            continue
        sc = action_score(state, cfg, p, kind, a0, a1, a, mcount, need, work)
        if sc > best_score + TIE:
            best, best_score, ties = a, sc, 1
        elif sc >= best_score - TIE:
            ties += 1
            if rng_below(rng, 0, ties) == 0:
                best = a
    return best if best >= 0 else sample_masked(mask, n_legal, rng, 0)


@njit(cache=True)
def rollout_policy(state, cfg, mask, n_legal, work, rng):
    """A uniformly random legal move with probability ROLLOUT_EPSILON, else ``greedy_move``."""
    if rng_below(rng, 0, 1 << 20) < ROLLOUT_EPSILON * (1 << 20):
        return sample_masked(mask, n_legal, rng, 0)
    return greedy_move(state, cfg, mask, n_legal, work, rng)
