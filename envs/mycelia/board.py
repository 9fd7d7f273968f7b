"""Triangle-lattice geometry of the Mycelia board, as pure functions on integers.

A lattice cell is ``(c, r)``: row ``r`` (growing downwards) and column ``c``. The cell
points up when ``c + r`` is even, down otherwise. Every cell has three edges, named by
the family of lattice lines they lie on::

    edge 0 (A): the horizontal edge  (bottom of an up cell, top of a down cell)
    edge 1 (B): the "/" edge          (left of an up cell, right of a down cell)
    edge 2 (C): the "\\" edge         (right of an up cell, left of a down cell)

Two cells sharing an edge see it with the same name from both sides. Read clockwise,
the edges of every cell come in the order A, B, C (both orientations), so a tile whose
wind symbols read ``order[0], order[1], order[2]`` clockwise, turned to rotation ``rot``,
shows ``order[(k + rot) % 3]`` on edge ``k``.

Band coordinates: with triangle side 1 and row height 1, the three line families are
``y = const`` (rows), ``u = 2x + y = const`` and ``v = 2x - y = const``. A cell's bands
(the floors of y, u, v at its centroid) are ``(r, c + r, c - r - 1)``. The *spore cone*
beyond edge ``k`` of a cell O (the rulebook's "larger triangle shape") is the big
triangle with O at its apex, opening through edge ``k``: every cell lying on O's side of
the lines of O's two other edges (bands compared inclusively).
"""

from numba import njit

EDGE_NAMES = ("A (horizontal)", "B (/)", "C (\\)")


@njit(cache=True)
def is_up(c, r):
    return ((c + r) & 1) == 0


@njit(cache=True)
def neighbour_c(c, r, k):
    """Column of the cell across edge ``k`` of (c, r)."""
    if k == 0:
        return c
    if k == 1:
        return c - 1 if is_up(c, r) else c + 1
    return c + 1 if is_up(c, r) else c - 1


@njit(cache=True)
def neighbour_r(c, r, k):
    """Row of the cell across edge ``k`` of (c, r)."""
    if k == 0:
        return r + 1 if is_up(c, r) else r - 1
    return r


@njit(cache=True)
def band(c, r, k):
    """The band index of cell (c, r) in line family ``k`` (0: y, 1: u, 2: v)."""
    if k == 0:
        return r
    if k == 1:
        return c + r
    return c - r - 1


@njit(cache=True)
def _side(up, k):
    """+1 if the cell's interior lies on the larger-band side of its edge-``k`` line, else -1."""
    if k == 1:
        return 1 if up else -1
    return -1 if up else 1


@njit(cache=True)
def in_cone(c0, r0, k, c, r):
    """Is cell (c, r) inside the spore cone of origin (c0, r0) through its edge ``k``?"""
    up = is_up(c0, r0)
    for j in range(3):
        if j == k:
            continue
        d = band(c, r, j) - band(c0, r0, j)
        if _side(up, j) * d < 0:
            return False
    return True


@njit(cache=True)
def edge_towards(c, r, c2, r2):
    """The edge of (c, r) shared with (c2, r2), or -1 if they are not neighbours."""
    for k in range(3):
        if neighbour_c(c, r, k) == c2 and neighbour_r(c, r, k) == r2:
            return k
    return -1


def vertices(c: int, r: int, side: float = 1.0) -> list[tuple[float, float]]:
    """Screen coordinates (x right, y down) of the corners of cell (c, r), equilateral with ``side``."""
    h = side * 3**0.5 / 2
    x = c * side / 2
    if (c + r) % 2 == 0:  # up
        return [(x, r * h), (x + side / 2, (r + 1) * h), (x - side / 2, (r + 1) * h)]
    return [(x - side / 2, r * h), (x + side / 2, r * h), (x, (r + 1) * h)]


def edge_midpoint(c: int, r: int, k: int, side: float = 1.0) -> tuple[float, float]:
    """Screen coordinates of the midpoint of edge ``k`` of cell (c, r)."""
    (x0, y0), (x1, y1), (x2, y2) = vertices(c, r, side)
    up = (c + r) % 2 == 0
    # up: A bottom (v1-v2), B left (v2-v0), C right (v0-v1); down: A top (v0-v1), B right (v1-v2), C left (v2-v0)
    pairs = {True: ((1, 2), (2, 0), (0, 1)), False: ((0, 1), (1, 2), (2, 0))}[up]
    pts = ((x0, y0), (x1, y1), (x2, y2))
    a, b = pairs[k]
    return ((pts[a][0] + pts[b][0]) / 2, (pts[a][1] + pts[b][1]) / 2)


#: The 12-tile start star: the six centre cells (a hexagon around one lattice vertex; the
#: places for Mother mushrooms), in ring order, then the six points, one beyond each outer
#: edge of the hexagon.
STAR_CENTRE = ((-1, -1), (0, -1), (1, -1), (1, 0), (0, 0), (-1, 0))
STAR_POINTS = ((-2, -1), (0, -2), (2, -1), (2, 0), (0, 1), (-2, 0))
