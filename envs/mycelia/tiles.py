"""The board's tiles and the pieces on them.

The board is a list of placed tiles in placement order (lattice cell, rotation, tile id) with a
3-neighbour adjacency table (``adjacency_at(i, k)`` = the placed tile across edge ``k`` of tile
``i``, or -1), updated here when a tile is placed (:func:`place_tile`) or moved
(:func:`move_tile`). Geometry of the lattice: :mod:`.board`. On the tiles: Mother mushrooms
(:func:`mother_on`, :func:`enter_tile`), mushroom tokens (:func:`move_mushroom`), spores, insect
tokens; who controls a tile (:func:`controller`), where a moved piece may go (:func:`empty_tier`).
"""

from numba import njit

from .board import neighbour_c, neighbour_r
from .layout import (
    BLACK,
    CFG_NH,
    CFG_NS,
    INS_SUPPLY,
    MAXS,
    NTP,
    adjacency_at,
    cfg_tile_colour_at,
    cfg_tile_insect_at,
    cfg_tile_order_at,
    insects_at,
    mat_tile_at,
    mother_at,
    mushroom_mat_at,
    mushroom_owner_at,
    sapling_at,
    spores_at,
    tile_col_at,
    tile_id_at,
    tile_insect_at,
    tile_rot_at,
    tile_row_at,
    tree_at,
)


@njit(cache=True)
def tile_colour(state, cfg, t):
    return cfg[cfg_tile_colour_at(state[tile_id_at(t)])]


@njit(cache=True)
def wind_symbol(state, cfg, t, k):
    """Wind symbol shown on edge ``k`` of placed tile ``t``."""
    return cfg[cfg_tile_order_at(state[tile_id_at(t)], (k + state[tile_rot_at(t)]) % 3)]


@njit(cache=True)
def edge_with_symbol(state, cfg, t, sym):
    for k in range(3):
        if wind_symbol(state, cfg, t, k) == sym:
            return k
    return 0


@njit(cache=True)
def mother_on(state, t):
    for s in range(MAXS):
        if state[mother_at(s)] == t:
            return s
    return -1


@njit(cache=True)
def controller(state, t):
    """Seat controlling tile ``t``: the owner of a Mother mushroom there, else of a mushroom token, else -1."""
    m = mother_on(state, t)
    if m >= 0:
        return m
    return state[mushroom_owner_at(t)]


@njit(cache=True)
def spores_on(state, t):
    n = 0
    for s in range(MAXS):
        n += state[spores_at(t, s)]
    return n


@njit(cache=True)
def degree(state, t):
    d = 0
    for k in range(3):
        if state[adjacency_at(t, k)] >= 0:
            d += 1
    return d


@njit(cache=True)
def find_cell(state, c, r):
    for i in range(state[NTP]):
        if state[tile_col_at(i)] == c and state[tile_row_at(i)] == r and state[tile_id_at(i)] >= 0:
            return i
    return -1


@njit(cache=True)
def link_tile(state, i):
    """Fill the adjacency of placed tile ``i`` (and of its neighbours) from the lattice."""
    c = state[tile_col_at(i)]
    r = state[tile_row_at(i)]
    for k in range(3):
        j = find_cell(state, neighbour_c(c, r, k), neighbour_r(c, r, k))
        if j == i:
            j = -1
        state[adjacency_at(i, k)] = j
        if j >= 0:
            state[adjacency_at(j, k)] = i  # the shared edge has the same name from both sides


@njit(cache=True)
def unlink_tile(state, i):
    for k in range(3):
        j = state[adjacency_at(i, k)]
        if j >= 0:
            state[adjacency_at(j, k)] = -1
        state[adjacency_at(i, k)] = -1


@njit(cache=True)
def insect_token_to(state, t):
    if state[INS_SUPPLY] > 0:
        state[INS_SUPPLY] -= 1
        state[tile_insect_at(t)] = 1


@njit(cache=True)
def place_tile(state, cfg, tile_id, c, r, rot):
    i = state[NTP]
    state[NTP] = i + 1
    state[tile_id_at(i)] = tile_id
    state[tile_col_at(i)] = c
    state[tile_row_at(i)] = r
    state[tile_rot_at(i)] = rot
    link_tile(state, i)
    if cfg[cfg_tile_insect_at(tile_id)] != 0:
        insect_token_to(state, i)
    return i


@njit(cache=True)
def move_tile(state, cfg, t, i, k, rot):
    """Move placed tile ``t`` (with everything on it) across free edge ``k`` of tile ``i``."""
    c = neighbour_c(state[tile_col_at(i)], state[tile_row_at(i)], k)
    r = neighbour_r(state[tile_col_at(i)], state[tile_row_at(i)], k)
    unlink_tile(state, t)
    state[tile_col_at(t)] = c
    state[tile_row_at(t)] = r
    state[tile_rot_at(t)] = rot
    link_tile(state, t)


@njit(cache=True)
def placement_ok(state, i, k, skip, oc, orr):
    """Action (placed tile i, free edge k) names a free cell, canonically (i is the lowest-index
    placed neighbour of the cell); ``skip`` is a tile lifted off the board, (oc, orr) its old cell."""
    if i == skip or state[tile_id_at(i)] < 0:
        return False
    if state[adjacency_at(i, k)] >= 0 and state[adjacency_at(i, k)] != skip:
        return False
    c = neighbour_c(state[tile_col_at(i)], state[tile_row_at(i)], k)
    r = neighbour_r(state[tile_col_at(i)], state[tile_row_at(i)], k)
    if skip >= 0 and c == oc and r == orr:
        return False
    for e in range(3):
        j = find_cell(state, neighbour_c(c, r, e), neighbour_r(c, r, e))
        if j >= 0 and j != skip and j < i:
            return False
    return True


@njit(cache=True)
def move_mushroom(state, src, dst):
    """Move the mushroom token on tile ``src`` to tile ``dst`` (its mat records the new tile)."""
    q = state[mushroom_owner_at(src)]
    mm = state[mushroom_mat_at(src)]
    state[mushroom_owner_at(dst)] = q
    state[mushroom_mat_at(dst)] = mm
    state[mushroom_owner_at(src)] = -1
    state[mushroom_mat_at(src)] = 0
    state[mat_tile_at(q, mm)] = dst


@njit(cache=True)
def enter_tile(state, s, t):
    """Seat ``s``'s Mother mushroom lands on tile ``t`` and picks up its insect token."""
    state[mother_at(s)] = t
    if state[tile_insect_at(t)] != 0:
        state[tile_insect_at(t)] = 0
        state[insects_at(s)] += 1


@njit(cache=True)
def can_move_to(state, p, t):
    m = mother_on(state, t)
    return m < 0 or m == p


@njit(cache=True)
def other_mothers(state, cfg, p):
    for s in range(cfg[CFG_NS]):
        if s != p and state[mother_at(s)] >= 0:
            return True
    return False


@njit(cache=True)
def empty_tier(state, t):
    """Rank of tile ``t`` as the destination of a moved piece (lower is better): 0 nothing on it,
    1 an insect token only, 2 + spores for anything else without a Mother mushroom or a
    mushroom token (the expansion: a sapling is something on the tile, ranked by the tile's
    spores); -1 not allowed."""
    if mother_on(state, t) >= 0 or state[mushroom_owner_at(t)] >= 0 or state[tree_at(t)] >= 0:
        return -1
    s = spores_on(state, t)
    if s == 0 and state[sapling_at(t)] == 0:
        return 1 if state[tile_insect_at(t)] != 0 else 0
    return 2 + s


@njit(cache=True)
def best_tier(state):
    best = -1
    for t in range(state[NTP]):
        v = empty_tier(state, t)
        if v >= 0 and (best < 0 or v < best):
            best = v
    return best


# --- the Automata's Mother mushroom at set-up -----------------------------------------------------
@njit(cache=True)
def automata_centre_score(state, cfg, nh, t):
    """How far centre tile ``t`` is from equidistant between the players' Mother mushrooms (the
    spread of its ring distances to them; solo: 0 directly opposite); -1 if it cannot take the
    Automata's (black, or a Mother mushroom there)."""
    if tile_colour(state, cfg, t) == BLACK or mother_on(state, t) >= 0:
        return -1
    if nh == 1:
        ring = (t - state[mother_at(0)]) % 6
        return 3 - min(ring, 6 - ring)
    lo = 1 << 20
    hi = -1
    for s in range(nh):
        d = (t - state[mother_at(s)]) % 6
        d = min(d, 6 - d)
        lo = min(lo, d)
        hi = max(hi, d)
    return hi - lo


@njit(cache=True)
def automata_centre_best(state, cfg, nh):
    """The lowest :func:`automata_centre_score` of the free centre tiles."""
    best = 1 << 20
    for t in range(6):
        v = automata_centre_score(state, cfg, nh, t)
        if v >= 0 and v < best:
            best = v
    return best


@njit(cache=True)
def nearest_players(state, nh, t):
    """Bit set of the players whose Mother mushrooms are nearest (ring distance) to centre tile ``t``:
    the players a place for the Automata's is next to."""
    lo = 1 << 20
    bits = 0
    for s in range(nh):
        d = (t - state[mother_at(s)]) % 6
        d = min(d, 6 - d)
        if d < lo:
            lo = d
            bits = 1 << s
        elif d == lo:
            bits |= 1 << s
    return bits


@njit(cache=True)
def automata_side_ok(state, cfg, p, t):
    """Centre tile ``t`` is a side player ``p`` may put the Automata's Mother mushroom on (a best
    tile next to ``p`` alone)."""
    nh = cfg[CFG_NH]
    return (
        automata_centre_score(state, cfg, nh, t) == automata_centre_best(state, cfg, nh)
        and nearest_players(state, nh, t) == 1 << p
    )
