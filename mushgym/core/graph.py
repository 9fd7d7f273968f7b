"""Breadth-first search over a graph of fixed degree, in the work area.

A board game's graph (Mycelia's placed tiles and their three flat edges, Mycelium's edges
and the corners they share) is a neighbour table ``table[table_off + v * degree + e]``
(-1: no neighbour across ``e``), read from the state or the config. A walk needs three
tables of one slot per node, all in the kernel's work area (``work[allowed + v]``,
``work[visit + v]``, ``work[queue + i]``): nothing is allocated, so the walk can run
inside ``step``.

- ``allowed``: the caller's rule of which nodes the walk may enter (exactly 1) or not (0), filled
  before the walk (the spore cone, a player's pieces, tiles without another Mother
  mushroom). The sources are visited whatever it says.
- ``visit``: -1 for a node not reached yet (the caller clears it); the walk writes the value
  of each node it reaches: its source's value plus ``step`` per edge. With ``step = 1`` it
  numbers distances; with ``step = 0`` it labels a connected component.
- ``queue``: the nodes in the order they were reached (sources first), so the caller can
  read back what the walk reached: ``work[queue:queue + tail]``, the farthest last.

:func:`bfs_walk_owned` is the walk itself, for the common rule "nodes a player owns": instead
of an ``allowed`` table it reads the node's owner slots (``owners[owner_off + v * slots +
k]``, as a board keeps "who holds this edge") only for the nodes the walk reaches. A walk
through one player's pieces touches a small part of the board, so this skips the pass
over every node that filling ``allowed`` costs (Mycelium's bonds, walked once per gathering).
It is inlined into its caller (``inline="always"``): a separate call was slower than the walk.
:func:`bfs_walk` is that walk with ``allowed`` as the owner table (one slot per node, owner 1).
"""

from numba import njit


@njit(cache=True, inline="always")
def bfs_walk_owned(table, table_off, degree, owners, owner_off, slots, owner, work, visit, queue, tail, step):
    """Walk on from the sources ``work[queue:queue + tail]`` (already given their values in
    ``visit``), entering a node when one of its ``slots`` owner entries ``owners[owner_off + u *
    slots + k]`` equals ``owner``, tested when the walk reaches it; returns the number of nodes
    reached, sources included."""
    head = 0
    while head < tail:
        v = work[queue + head]
        head += 1
        value = work[visit + v] + step
        for e in range(degree):
            u = table[table_off + v * degree + e]
            if u >= 0 and work[visit + u] < 0:
                for k in range(slots):
                    if owners[owner_off + u * slots + k] == owner:
                        work[visit + u] = value
                        work[queue + tail] = u
                        tail += 1
                        break
    return tail


@njit(cache=True)
def bfs_walk(table, table_off, degree, work, allowed, visit, queue, tail, step):
    """Walk on from the sources ``work[queue:queue + tail]`` (already given their values in
    ``visit``) into the nodes ``allowed`` marks 1; returns the number of nodes reached,
    sources included. The ``allowed`` table is the one owner slot per node that
    :func:`bfs_walk_owned` reads, with owner 1."""
    return bfs_walk_owned(table, table_off, degree, work, allowed, 1, 1, work, visit, queue, tail, step)


@njit(cache=True)
def bfs(table, table_off, degree, work, allowed, visit, queue, start, first, step):
    """Walk from node ``start`` (given the value ``first``); returns the number of nodes reached."""
    work[visit + start] = first
    work[queue] = start
    return bfs_walk(table, table_off, degree, work, allowed, visit, queue, 1, step)
