"""Breadth-first search over a graph of fixed degree, in the work area (game-agnostic).

Mycelium's bonds (:func:`.board.bonded_edges`) and the Bow's reach
(:func:`.emsporium.bow_reach`) walk the board's edges with it. It is the engine's shared
walk, ``mushgym.core.graph.bfs_walk`` (same signature, same meaning): where the engine has
it, this module is the one line ``from mushgym.core.graph import bfs_walk  # noqa: F401``.

The graph is a neighbour table ``table[table_off + v * degree + k]`` (-1: none); the walk uses
three tables of one slot per node in the work area: ``work[allowed + v]`` (1: the walk may
enter ``v``), ``work[visit + v]`` (-1: not reached yet; the walk writes its source's value plus
``step`` per edge) and ``work[queue + i]`` (the nodes in the order reached, sources first).
Nothing is allocated.
"""

from numba import njit


@njit(cache=True)
def bfs_walk(table, table_off, degree, work, allowed, visit, queue, tail, step):
    """Walk on from the sources ``work[queue:queue + tail]`` (already given their values in
    ``visit``); returns the number of nodes reached, sources included."""
    head = 0
    while head < tail:
        v = work[queue + head]
        head += 1
        value = work[visit + v] + step
        for e in range(degree):
            u = table[table_off + v * degree + e]
            if u >= 0 and work[visit + u] < 0 and work[allowed + u] != 0:
                work[visit + u] = value
                work[queue + tail] = u
                tail += 1
    return tail
