"""Build Mycelia positions from a readable description, for scenario tests: a thin layer over
``MyceliaGame.state_from`` (envs/mycelia/positions.py) with the shorter names the tests use.

``scenario(game, tiles=[(c, r, colour), ...], ...)`` lays the given tiles (in placement order),
pieces and hands; every other tile goes to the piles and every other card to the deck and the
market, so the game's invariants hold (``state_from`` checks them).
"""

from __future__ import annotations

import numpy as np

from mushgym.envs.mycelia import rules as R
from mushgym.envs.mycelia.data import COLOURS, SYMBOLS

COL = {name: i for i, name in enumerate(COLOURS)}


def _rotation(game, colour, taken, symbols):
    """The tile id ``state_from`` gives the next tile of ``colour``, and the rotation that puts
    the wanted symbol on the wanted edge (``symbols``: {edge: "O"/"U"/"A"})."""
    tid = next(t for t in range(R.NT_MAX) if t not in taken and game.tiles.colour[t] == COL[colour])
    taken.add(tid)
    rot = 0
    for edge, sym in symbols.items():
        order = list(game.tiles.order[tid])
        rot = next(x for x in range(3) if order[(edge + x) % 3] == SYMBOLS.index(sym))
    return rot


def scenario(
    game,
    tiles,
    mothers=None,
    spores=None,
    mushrooms=None,
    hands=None,
    player=0,
    seed=0,
    symbols=None,
    insects=(),
    upgrades=None,
    saplings=None,
    trees=None,
    under=None,
    **more,
):
    """A running state, ``player`` to choose a main action.

    tiles: [(c, r, colour name)]; symbols: {tile: {edge: "O"/"U"/"A"}} (at most one edge
    each: it fixes the rotation); mothers: {seat: tile} (a seat left out gets a tile of its
    own); spores: {(tile, seat): n}; mushrooms: {tile: (seat, mat, card, counter)} (card -2:
    an Automata mushroom); hands: {seat: [card ids]}; insects: tiles with an insect token;
    upgrades: {seat: game-upgrade bits}; under: {seat: {mat: [cards decayed under it]}}; the North
    American expansion: saplings: {tile: {seat: spores on the sapling}}, trees: {tile: seat}.
    ``more``: any other field of ``state_from``.
    """
    symbols = symbols or {}
    taken: set[int] = set()
    laid = [
        (c, r, colour, _rotation(game, colour, taken, symbols.get(i, {}))) for i, (c, r, colour) in enumerate(tiles)
    ]
    mothers = dict(mothers or {})
    for seat in range(game.num_seats):  # park unplaced Mother mushrooms on tiles of their own
        if seat not in mothers:
            mothers[seat] = next(t for t in range(len(tiles)) if t not in mothers.values())
    by_tile: dict[int, dict[int, int]] = {}
    for (t, seat), n in (spores or {}).items():
        by_tile.setdefault(t, {})[seat] = by_tile.get(t, {}).get(seat, 0) + n
    mats: dict[int, dict] = {}
    for t, (seat, mat, card, counter) in (mushrooms or {}).items():
        mats.setdefault(seat, {})[mat] = {
            "card": "automata" if card == R.AUTO_CARD else card,
            "tile": t,
            "counter": counter,
        }
    for seat, by_mat in (under or {}).items():
        for mat, cards in by_mat.items():
            mats.setdefault(seat, {}).setdefault(mat, {})["under"] = list(cards)
    if game.expansion:
        more.setdefault("saplings", saplings or {})
        more.setdefault("trees", trees or {})
    return game.state_from(
        tiles=laid,
        mothers=mothers,
        spores=by_tile,
        mats=mats,
        hands=hands,
        insects=list(insects),
        upgrades=upgrades,
        turn_player=player,
        seed=seed,
        **more,
    )


def spores_of(state, seat, n_tiles):
    return [int(state[R.SP + t * R.MAXS + seat]) for t in range(n_tiles)]


def legal_tiles(game, state):
    """Tile indices offered by the current decision (A_TILE block)."""
    mask = game.legal_mask(state)
    return sorted(int(a) for a in np.flatnonzero(mask[: R.A_PAY]))


def with_requirement(game, card, red=0, green=0, brown=0, yellow=0):
    """A copy of the game's config where ``card`` needs the given spores (for scenario tests)."""
    cfg = game.config.copy()
    cfg[R.CFG_REQ + card * 4 : R.CFG_REQ + card * 4 + 4] = [red, green, brown, yellow]
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
