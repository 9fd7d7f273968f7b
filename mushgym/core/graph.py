"""Breadth-first search over a graph of fixed degree, in the work area.

A board game's graph (Mycelia's placed tiles and their three flat edges, Mycelium's edges
and the corners they share) is a neighbour table ``table[table_off + v * degree + e]``
(-1: no neighbour across ``e``), read from the state or the config. A walk needs two
tables of one slot per node, both in the kernel's work area (``work[visit + v]``,
``work[queue + i]``): nothing is allocated, so the walk can run inside ``step``.

- ``visit``: -1 for a node not reached yet (the caller clears it); the walk writes the value
  of each node it reaches: its source's value plus ``step`` per edge. With ``step = 1`` it
  numbers distances; with ``step = 0`` it labels a connected component.
- ``queue``: the nodes in the order they were reached (sources first), so the caller can
  read back what the walk reached: ``work[queue:queue + tail]``, the farthest last.

Which nodes the walk may enter is the game's rule (the spore cone, a player's network, tiles
without another Mother mushroom). :func:`bfs_walk_rule` is the one walk loop: it takes the rule
as a compiled function ``enter(args, u) -> bool`` and its arguments (a tuple), and asks it only
for the nodes the walk reaches, so a walk through a small part of the board never pays for a
pass over every node. The rule is a compile-time argument (numba specialises the walk per rule
function and caches it), and the walk is inlined into its caller (``inline="always"``): a
separate call was slower than the walk. Declare a rule ``@njit(inline="always")`` too: the
walk then holds the rule's code, where otherwise a rule that calls functions of its own stays a call
per node reached. The sources are visited whatever the rule says.

Two rules come with the core:

- :func:`bfs_walk`: a table ``work[allowed + v]`` the caller filled (1: may enter);
- :func:`bfs_walk_owned`: "one of the node's owner slots ``owners[owner_off + v * slots + k]``
  holds ``owner``", as a board keeps "who holds this edge" (Mycelium's bonds).
"""

from numba import njit


@njit(cache=True, inline="always")
def bfs_walk_rule(table, table_off, degree, enter, args, work, visit, queue, tail, step):
    """Walk on from the sources ``work[queue:queue + tail]`` (already given their values in
    ``visit``), entering a node ``u`` when ``enter(args, u)`` is true, asked when the walk
    reaches it; returns the number of nodes reached, sources included."""
    head = 0
    while head < tail:
        v = work[queue + head]
        head += 1
        value = work[visit + v] + step
        for e in range(degree):
            u = table[table_off + v * degree + e]
            if u >= 0 and work[visit + u] < 0 and enter(args, u):
                work[visit + u] = value
                work[queue + tail] = u
                tail += 1
    return tail


@njit(cache=True, inline="always")
def marked_allowed(args, u):
    """The rule of :func:`bfs_walk`: ``args = (work, allowed)``, enter where ``work[allowed + u]`` is 1."""
    work, allowed = args
    return work[allowed + u] == 1


@njit(cache=True, inline="always")
def held_by(args, u):
    """The rule of :func:`bfs_walk_owned`: ``args = (owners, owner_off, slots, owner)``."""
    owners, owner_off, slots, owner = args
    for k in range(slots):
        if owners[owner_off + u * slots + k] == owner:
            return True
    return False


@njit(cache=True, inline="always")
def bfs_walk_owned(table, table_off, degree, owners, owner_off, slots, owner, work, visit, queue, tail, step):
    """:func:`bfs_walk_rule` entering a node when one of its ``slots`` owner entries
    ``owners[owner_off + u * slots + k]`` equals ``owner``."""
    return bfs_walk_rule(
        table, table_off, degree, held_by, (owners, owner_off, slots, owner), work, visit, queue, tail, step
    )


@njit(cache=True)
def bfs_walk(table, table_off, degree, work, allowed, visit, queue, tail, step):
    """:func:`bfs_walk_rule` into the nodes ``work[allowed + u]`` marks 1 (the caller filled that
    table for every node)."""
    return bfs_walk_rule(table, table_off, degree, marked_allowed, (work, allowed), work, visit, queue, tail, step)


@njit(cache=True)
def bfs(table, table_off, degree, work, allowed, visit, queue, start, first, step):
    """Walk from node ``start`` (given the value ``first``) into the nodes ``allowed`` marks 1;
    returns the number of nodes reached."""
    work[visit + start] = first
    work[queue] = start
    return bfs_walk(table, table_off, degree, work, allowed, visit, queue, 1, step)
