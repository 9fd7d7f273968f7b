"""A breadth-first search over a graph kept as a table of neighbours (game-agnostic).

Mycelium's bonds (:func:`.board.bonded_edges`) and the Bow's reach
(:func:`.emsporium.bow_reach`) both run it over the work area. It is written in the form of
the engine's shared search so that :mod:`.board` can take that one instead by changing its
import line.
"""

from numba import njit


@njit(cache=True)
def breadth_first(adj, adj_off, degree, work, marks, queue, tail, layers):
    """Spread from the seeds ``work[queue:queue + tail]`` (already marked 1 in the marks
    ``work[marks + v]``): a neighbour ``w`` of node ``v`` is ``adj[adj_off + v * degree + k]``
    (-1: none) and is entered, marked 1 and queued when its mark is 0 (any other mark closes
    it). ``layers`` >= 0 stops that many steps from the seeds (-1: no limit). Returns the
    number of nodes queued (the seeds included); the work area is the only memory used."""
    head = 0
    layer = 0
    while head < tail and layer != layers:
        end = tail
        while head < end:
            v = work[queue + head]
            head += 1
            for k in range(degree):
                w = adj[adj_off + v * degree + k]
                if w >= 0 and work[marks + w] == 0:
                    work[marks + w] = 1
                    work[queue + tail] = w
                    tail += 1
        layer += 1
    return tail
