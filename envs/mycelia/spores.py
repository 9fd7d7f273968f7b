"""The SPORE action's spread: the spore cone and the layers it fills (RULES.md, "SPORE").

The wind die's symbol picks the edge of the origin tile; the cone beyond that edge is walked
breadth-first (:func:`cone_distances`), and the spores go out layer by layer of equal distance
(:func:`spread_spores`): a whole layer is filled while the spores last, and when fewer spores are
left than the layer has tiles the player picks (a ``D_SPORE_PICK`` decision) or the Automata picks
by its rule (:func:`automata_pick_layer`).
"""

from numba import njit

from mushgym.core import bfs_walk_rule

from .board import band, in_cone
from .layout import (
    ADJ,
    D_SPORE_PICK,
    FORMATION,
    GU_SPORE3,
    LANDED,
    MARKS,
    NTP,
    ROLL,
    SPORE_ROWS,
    SPORE_SYM,
    ST_PICKS,
    adjacency_at,
    bit_get,
    bit_set,
    bits_clear,
    count_event,
    game_upgrades_at,
    mat_counter_at,
    mat_tile_at,
    mother_at,
    push_decision,
    spores_at,
    supply_at,
    tile_col_at,
    tile_row_at,
)
from .tiles import controller, edge_with_symbol, tile_colour
from .turn import automata_wants_colour, fate, is_automata, random_below
from .work import W_DIST, W_QUEUE


@njit(cache=True, inline="always")
def enters_cone(args, u):
    """The walk's rule for :func:`cone_distances`: ``args = (state, c0, r0, k, rows)``, tile ``u`` lies
    in the first ``rows`` rows of the cone beyond edge ``k`` of the tile at column ``c0``, row ``r0``."""
    state, c0, r0, k, rows = args
    c = state[tile_col_at(u)]
    r = state[tile_row_at(u)]
    return in_cone(c0, r0, k, c, r) and abs(band(c, r, k) - band(c0, r0, k)) < rows


@njit(cache=True)
def cone_rows(count):
    """Rows of the spore triangle of ``count`` spores: the smallest triangle holding them (rows of
    1, 3, 5, ... cells: 1 spore 1 row, 2-4 spores 2 rows, 5-9 spores 3 rows; RULES.md, "SPORE")."""
    rows = 1
    while rows * rows < count:
        rows += 1
    return rows


@njit(cache=True)
def cone_distances(state, origin, k, rows, work):
    """Distances from ``origin`` into ``work[W_DIST + t]`` (-1 = not reached), walking through flat
    edges inside the first ``rows`` rows of the cone beyond edge ``k`` of ``origin``
    (:func:`.board.in_cone`, asked of the tiles the walk reaches: the triangle of
    :func:`cone_rows`); returns the largest distance. The spore cone of RULES.md, "SPORE"."""
    for t in range(state[NTP]):
        work[W_DIST + t] = -1
    work[W_DIST + origin] = 0
    first = state[adjacency_at(origin, k)]
    if first < 0 or rows < 2:
        return 0
    work[W_DIST + first] = 1
    work[W_QUEUE] = first
    args = (state, state[tile_col_at(origin)], state[tile_row_at(origin)], k, rows)
    reached = bfs_walk_rule(state, ADJ, 3, enters_cone, args, work, W_DIST, W_QUEUE, 1, 1)
    return work[W_DIST + work[W_QUEUE + reached - 1]]


@njit(cache=True)
def put_spore(state, p, t):
    if state[supply_at(p)] > 0:
        state[supply_at(p)] -= 1
        state[spores_at(t, p)] += 1
        if state[FORMATION] >= 0:  # the expansion: where this SPORE action may invest
            bit_set(state, LANDED, t)


@njit(cache=True)
def spore_from(state, cfg, p, origin, sym, count, both, work):
    """Spore from ``origin``, then (``both`` >= 0) from the Mother mushroom of ``p`` with the
    same wind symbol and ``both`` spores; stops early if a spore decision was pushed."""
    while True:
        if not spread_spores(state, cfg, p, origin, sym, count, both, work):
            return
        if both < 0:
            return
        origin = state[mother_at(p)]
        count = both
        both = -1


@njit(cache=True)
def spread_spores(state, cfg, p, origin, sym, count, both, work):
    """Spread ``count`` spores of ``p`` from ``origin`` with wind symbol ``sym``.

    Whole distance layers are filled automatically; when the spores left are fewer than the
    tiles of a layer, a ``D_SPORE_PICK`` decision is pushed (the Automata picks by its rule).
    Returns False if it pushed that decision (the rest follows when it is resolved).
    """
    k = edge_with_symbol(state, cfg, origin, sym)
    left = min(count, state[supply_at(p)])
    if left > 0:
        put_spore(state, p, origin)
        left -= 1
    if left > 0:
        rows = cone_rows(count)
        far = cone_distances(state, origin, k, rows, work)
        dist = W_DIST
        for d in range(1, far + 1):
            if left == 0:
                break
            size = 0
            for t in range(state[NTP]):
                if work[dist + t] == d:
                    size += 1
            if size <= left:
                for t in range(state[NTP]):
                    if work[dist + t] == d:
                        put_spore(state, p, t)
                left -= size
            else:
                if is_automata(cfg, p):
                    automata_pick_layer(state, cfg, p, d, left, work)
                    left = 0
                else:
                    bits_clear(state, MARKS)
                    count_event(state, ST_PICKS)
                    push_decision(
                        state,
                        D_SPORE_PICK,
                        p,
                        origin,
                        k,
                        left,
                        d + (both + 1) * 256 + sym * SPORE_SYM + rows * SPORE_ROWS,
                    )
                    return False
    return True


@njit(cache=True)
def automata_pick_layer(state, cfg, a, d, left, work):
    """The Automata picks ``left`` tiles among those at distance ``d`` (WORK distances fresh):
    first tiles no opponent controls whose colour its card asks for, then uncontrolled tiles,
    then any; ties drawn by fate."""
    dist = W_DIST
    for _ in range(left):
        best = 99
        cnt = 0
        for t in range(state[NTP]):
            if work[dist + t] != d or bit_get(state, MARKS, t):
                continue
            c = controller(state, t)
            v = (
                0
                if (c < 0 or c == a) and automata_wants_colour(state, cfg, tile_colour(state, cfg, t))
                else (1 if c < 0 or c == a else 2)
            )
            if v < best:
                best = v
                cnt = 1
            elif v == best:
                cnt += 1
        if cnt == 0:
            break
        k = fate(state, cnt)
        for t in range(state[NTP]):
            if work[dist + t] != d or bit_get(state, MARKS, t):
                continue
            c = controller(state, t)
            v = (
                0
                if (c < 0 or c == a) and automata_wants_colour(state, cfg, tile_colour(state, cfg, t))
                else (1 if c < 0 or c == a else 2)
            )
            if v == best:
                if k == 0:
                    put_spore(state, a, t)
                    bit_set(state, MARKS, t)
                    break
                k -= 1
    bits_clear(state, MARKS)


@njit(cache=True)
def mother_spore_count(state, p):
    return 3 if state[game_upgrades_at(p)] & GU_SPORE3 else 2


@njit(cache=True)
def roll_and_spore(state, cfg, p, mat, count, both, work):
    """Roll the wind die, then spore ``count`` from ``p``'s Mother mushroom (``mat`` -1) or from
    the mushroom of mat ``mat`` (its spore counter moves up); ``both`` as in :func:`spore_from`."""
    sym = random_below(state, 3)
    state[ROLL] = sym
    if mat < 0:
        origin = state[mother_at(p)]
    else:
        state[mat_counter_at(p, mat)] += 1
        origin = state[mat_tile_at(p, mat)]
    spore_from(state, cfg, p, origin, sym, count, both, work)
