"""Mycelium's board: Paths on edges, building and removing them, and the bonds of a player's
Paths to its Colony (a breadth-first search over the work area)."""

from numba import njit

from mushgym.core.graph import bfs_walk_owned

from .layout import (
    CFG_EDGE_NBR,
    CFG_NE,
    LAST_EDGE,
    PATHS,
    W_MARKS,
    W_QUEUE,
    cfg_edge_nbr_at,
    cfg_gloc_edges_at,
    cfg_permanent_at,
    npaths_at,
    paths_at,
)


@njit(cache=True)
def has_path(state, e, p):
    return state[paths_at(e, 0)] == p + 1 or state[paths_at(e, 1)] == p + 1


@njit(cache=True, inline="always")
def next_to_own(state, cfg, p, e):
    """A Path of ``p`` on an edge sharing a corner with ``e``. Inlined where it is called:
    the masks ask it of every edge, and a call per edge made the Path placement mask about
    twice as slow."""
    for k in range(4):
        n = cfg[cfg_edge_nbr_at(e, k)]
        if n >= 0 and has_path(state, n, p):
            return True
    return False


@njit(cache=True)
def connected_to_own(state, cfg, p, e):
    """A Path of ``p`` on ``e`` itself or on an edge sharing a corner with ``e``."""
    return has_path(state, e, p) or next_to_own(state, cfg, p, e)


@njit(cache=True)
def can_build_at(state, cfg, p, e):
    """``p`` may build on ``e``: no Path of its own there, a free slot, one of its Paths next to it."""
    if has_path(state, e, p):
        return False
    if state[paths_at(e, 0)] != 0 and state[paths_at(e, 1)] != 0:
        return False
    return next_to_own(state, cfg, p, e)


@njit(cache=True)
def any_build_edge(state, cfg, p):
    for e in range(cfg[CFG_NE]):
        if can_build_at(state, cfg, p, e):
            return True
    return False


@njit(cache=True)
def any_removable(state, cfg, p, keep):
    for e in range(cfg[CFG_NE]):
        if e != keep and has_path(state, e, p) and cfg[cfg_permanent_at(e)] != p:
            return True
    return False


@njit(cache=True)
def place_path(state, cfg, p, e):
    slot = 0 if state[paths_at(e, 0)] == 0 else 1
    state[paths_at(e, slot)] = p + 1
    state[npaths_at(p)] += 1
    state[LAST_EDGE] = e


@njit(cache=True)
def remove_path(state, p, e):
    """Remove ``p``'s (non-permanent) Path on ``e``; False if there is none."""
    for slot in range(2):
        if state[paths_at(e, slot)] == p + 1:
            state[paths_at(e, slot)] = 0
            state[npaths_at(p)] -= 1
            state[LAST_EDGE] = e
            return True
    return False


@njit(cache=True)
def bonded_edges(state, cfg, p, work):
    """Marks ``work[e] = 1`` for every Path of ``p`` traced back to its Colony, else 0 (a
    breadth-first walk from its permanent Paths through its own Paths, which it tests as it
    reaches them: :func:`mushgym.core.graph.bfs_walk_owned`)."""
    ne = cfg[CFG_NE]
    tail = 0
    for e in range(ne):
        work[W_MARKS + e] = -1
        if cfg[cfg_permanent_at(e)] == p:
            work[W_MARKS + e] = 1
            work[W_QUEUE + tail] = e
            tail += 1
    bfs_walk_owned(cfg, CFG_EDGE_NBR, 4, state, PATHS, 2, p + 1, work, W_MARKS, W_QUEUE, tail, 0)
    for e in range(ne):
        if work[W_MARKS + e] < 0:
            work[W_MARKS + e] = 0


@njit(cache=True)
def bonded_count(cfg, g, work):
    c = 0
    for k in range(6):
        e = cfg[cfg_gloc_edges_at(g, k)]
        if e >= 0 and work[e]:
            c += 1
    return c
