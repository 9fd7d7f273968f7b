"""Build Mycelia positions from a readable description, for scenario tests.

``scenario(game, tiles=[(c, r, colour), ...], ...)`` starts from a dealt game and replaces
the board with the given tiles (in placement order), pieces and hands; every other tile goes
to the piles and every other card stays in the deck/market, so the game's invariants hold
(checked before returning).
"""

from __future__ import annotations

import numpy as np

from mushgym.envs.mycelia import rules as R
from mushgym.envs.mycelia.data import COLOURS, SYMBOLS

COL = {name: i for i, name in enumerate(COLOURS)}


def scenario(game, tiles, mothers=None, spores=None, mushrooms=None, hands=None, player=0, seed=0,
             symbols=None, insects=(), upgrades=None, saplings=None, trees=None):
    """A running state, ``player`` to choose a main action.

    tiles: [(c, r, colour name)]; symbols: {tile: {edge: "O"/"U"/"A"}} (at most one edge
    each: it fixes the rotation); mothers: {seat: tile}; spores: {(tile, seat): n};
    mushrooms: {tile: (seat, mat, card, counter)}; hands: {seat: [card ids]} (the cards
    are moved into the hand, the rest of each hand goes back to the deck); insects: tiles
    with an insect token; upgrades: {seat: game-upgrade bits}; the North American expansion:
    saplings: {tile: {seat: spores on the sapling}} (the rest of the 15 in the supply), trees:
    {tile: seat} (Grandfather Trees; the rest beside the mats).
    """
    s = game.new_state(seed)
    ns = game.num_seats
    used = set()
    s[R.T_ID:R.T_ID + R.NT_MAX] = -1
    s[R.ADJ:R.ADJ + 3 * R.NT_MAX] = -1
    s[R.T_INS:R.T_INS + R.NT_MAX] = 0
    s[R.SP:R.SP + R.MAXS * R.NT_MAX] = 0
    s[R.MUSH_P:R.MUSH_P + R.NT_MAX] = -1
    s[R.MUSH_M:R.MUSH_M + R.NT_MAX] = 0
    s[R.DRAWN] = -1
    symbols = symbols or {}
    for i, (c, r, colour) in enumerate(tiles):
        tid = next(t for t in range(R.NT_MAX) if t not in used and game.tiles.colour[t] == COL[colour]
                   and (game.config[R.CFG_NTILES] == R.NT_MAX or game.tiles.colour[t] != 4))
        used.add(tid)
        rot = 0
        for edge, sym in symbols.get(i, {}).items():
            order = list(game.tiles.order[tid])
            rot = next(x for x in range(3) if order[(edge + x) % 3] == SYMBOLS.index(sym))
        s[R.T_ID + i], s[R.T_C + i], s[R.T_R + i], s[R.T_ROT + i] = tid, c, r, rot
    s[R.NTP] = len(tiles)
    for i in range(len(tiles)):
        R.link_tile(s, i)
    rest = [t for t in range(R.NT_MAX) if t not in used
            and (game.config[R.CFG_NTILES] == R.NT_MAX or game.tiles.colour[t] != 4)]
    s[R.PILE:R.PILE + 2 * R.NT_MAX] = -1
    half = (len(rest) + 1) // 2
    for j, part in enumerate((rest[:half], rest[half:])):
        s[R.PILE + j * R.NT_MAX:R.PILE + j * R.NT_MAX + len(part)] = part
        s[R.PILE_N + j] = len(part)
    for t in insects:
        s[R.T_INS + t] = 1
    s[R.INS_SUPPLY] = int(game.config[R.CFG_INSECTS]) - int(s[R.INS:R.INS + ns].sum()) - len(insects)
    s[R.M_POS:R.M_POS + R.MAXS] = -1
    for seat, t in (mothers or {}).items():
        s[R.M_POS + seat] = t
    for seat in range(ns):
        if s[R.M_POS + seat] < 0:  # park unplaced Mother mushrooms on tiles of their own
            t = next(t for t in range(len(tiles)) if t not in s[R.M_POS:R.M_POS + R.MAXS])
            s[R.M_POS + seat] = t
    s[R.SUPPLY:R.SUPPLY + ns] = R.SPORES_EACH
    for (t, seat), n in (spores or {}).items():
        s[R.SP + t * R.MAXS + seat] += n
        s[R.SUPPLY + seat] -= n
    if game.expansion:
        s[R.SAP:R.SAP + R.NT_MAX] = 0
        s[R.SAP_SP:R.SAP_SP + R.NT_MAX * R.MAXS] = 0
        s[R.TREE:R.TREE + R.NT_MAX] = -1
        s[R.SAP_SUPPLY] = R.SAPLINGS - len(saplings or {})
        for t, held in (saplings or {}).items():
            s[R.SAP + t] = 1
            for seat, n in held.items():
                s[R.SAP_SP + t * R.MAXS + seat] = n
                s[R.SUPPLY + seat] -= n
        for seat in range(game.num_players):
            s[R.TREES_LEFT + seat] = R.TREES_EACH
        for t, seat in (trees or {}).items():
            s[R.TREE + t] = seat
            s[R.TREES_LEFT + seat] -= 1
    # cards: hands and mushrooms take their cards from wherever they are
    loc = s[R.LOC:R.LOC + R.NC]
    s[R.MARKET:R.MARKET + 3] = -1
    for c in range(R.NC):
        if loc[c] in (R.L_MARKET,) or R.L_HAND <= loc[c] < R.L_HAND + R.MAXS:
            loc[c] = R.L_DECK
    for seat, cards in (hands or {}).items():
        for c in cards:
            loc[c] = R.L_HAND + seat
    s[R.PTS:R.PTS + R.MAXS] = 0
    s[R.GROWN:R.GROWN + R.MAXS] = 0
    for t, (seat, mat, card, counter) in (mushrooms or {}).items():
        m = seat * R.NMATS + mat
        s[R.MAT_CARD + m] = card
        s[R.MAT_TILE + m] = t
        s[R.MAT_CTR + m] = counter
        s[R.MUSH_P + t] = seat
        s[R.MUSH_M + t] = mat
        if card >= 0:
            loc[card] = R.L_TOP + m
            s[R.PTS + seat] += game.cards.points[card]
        else:
            s[R.PTS + seat] += 5
        s[R.GROWN + seat] += 1
    for seat in range(ns):
        s[R.HAND_N + seat] = int((loc == R.L_HAND + seat).sum())
    old = [int(x) for x in s[R.DECK:R.DECK + int(s[R.DECK_N])]]
    deck = [c for c in old if loc[c] == R.L_DECK] + [c for c in range(R.NC) if loc[c] == R.L_DECK and c not in old]
    s[R.DECK:R.DECK + R.NC] = 0
    s[R.DECK:R.DECK + len(deck)] = deck
    s[R.DECK_N] = len(deck)
    R.refill_market(s)
    for seat, bits in (upgrades or {}).items():
        s[R.GUPG + seat] = bits
    s[R.STACK:R.STACK + R.STACK_MAX * R.ENTRY] = 0
    s[R.STACK_N] = 0
    s[R.ACTS] = 0
    s[R.USED] = 0
    s[R.TAKEN] = 0
    s[R.TURNP] = player
    R.push_decision(s, R.D_MAIN, player, 0, 0, 0, 0)
    game.check_invariants(s)
    return s


def spores_of(state, seat, n_tiles):
    return [int(state[R.SP + t * R.MAXS + seat]) for t in range(n_tiles)]


def legal_tiles(game, state):
    """Tile indices offered by the current decision (A_TILE block)."""
    mask = game.legal_mask(state)
    return sorted(int(a) for a in np.flatnonzero(mask[:R.A_PAY]))


def with_requirement(game, card, red=0, green=0, brown=0, yellow=0):
    """A copy of the game's config where ``card`` needs the given spores (for scenario tests)."""
    cfg = game.config.copy()
    cfg[R.CFG_REQ + card * 4:R.CFG_REQ + card * 4 + 4] = [red, green, brown, yellow]
    return cfg


WORK = np.zeros(R.WORK_SIZE, np.int64)


def mask_with(state, cfg):
    mask = np.zeros(R.NUM_ACTIONS, np.int8)
    R.legal_mask(state, cfg, mask, WORK)
    return mask


def act(state, cfg, action):
    """Apply a legal action under ``cfg`` (which may differ from the game's)."""
    mask = mask_with(state, cfg)
    assert mask[action], f"action {action} is not legal; legal: {np.flatnonzero(mask).tolist()}"
    R.step(state, action, cfg, WORK)
