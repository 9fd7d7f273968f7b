"""Triangle-lattice geometry of Mycelia (envs/mycelia/board.py): neighbours, edges, spore cones."""

import pytest

from mushgym.envs.mycelia.board import (
    STAR_CENTRE,
    STAR_POINTS,
    band,
    edge_midpoint,
    edge_towards,
    in_cone,
    is_up,
    neighbour_c,
    neighbour_r,
    vertices,
)

CELLS = [(c, r) for c in range(-5, 6) for r in range(-5, 6)]


def nb(c, r, k):
    return neighbour_c(c, r, k), neighbour_r(c, r, k)


def test_orientation_alternates_along_rows_and_columns():
    assert is_up(0, 0) and not is_up(1, 0) and not is_up(0, 1) and is_up(-1, -1)


@pytest.mark.parametrize("c,r", CELLS)
def test_neighbours_are_symmetric_with_the_same_edge_name(c, r):
    seen = set()
    for k in range(3):
        c2, r2 = nb(c, r, k)
        assert is_up(c2, r2) != is_up(c, r)  # a neighbour across a flat edge points the other way
        assert nb(c2, r2, k) == (c, r)
        assert edge_towards(c, r, c2, r2) == k
        seen.add((c2, r2))
    assert len(seen) == 3


@pytest.mark.parametrize("c,r", CELLS[::7])
def test_neighbours_share_two_vertices_on_screen(c, r):
    vs = {(round(x, 6), round(y, 6)) for x, y in vertices(c, r)}
    for k in range(3):
        c2, r2 = nb(c, r, k)
        vs2 = {(round(x, 6), round(y, 6)) for x, y in vertices(c2, r2)}
        assert len(vs & vs2) == 2
        mx, my = edge_midpoint(c, r, k)
        mx2, my2 = edge_midpoint(c2, r2, k)
        assert (round(mx, 6), round(my, 6)) == (round(mx2, 6), round(my2, 6))


def test_start_star_is_a_hexagon_ring_with_six_points():
    ring = list(STAR_CENTRE)
    for i, cell in enumerate(ring):
        nxt = ring[(i + 1) % 6]
        assert edge_towards(*cell, *nxt) >= 0, f"centre tiles {cell} and {nxt} are not neighbours"
    for cell, point in zip(STAR_CENTRE, STAR_POINTS):
        assert edge_towards(*cell, *point) >= 0
        others = [x for x in STAR_CENTRE if x != cell]
        assert all(edge_towards(*o, *point) < 0 for o in others)


def _cone(c0, r0, k, radius=4):
    return {
        (c, r)
        for c in range(c0 - 2 * radius, c0 + 2 * radius + 1)
        for r in range(r0 - radius, r0 + radius + 1)
        if in_cone(c0, r0, k, c, r)
    }


@pytest.mark.parametrize("c0,r0", [(0, 0), (1, 0), (3, -2), (-2, 5)])
@pytest.mark.parametrize("k", [0, 1, 2])
def test_cone_is_the_larger_triangle_beyond_the_edge(c0, r0, k):
    """The cone holds the origin, the tile across the edge, and grows 1, 3, 5, ... cells per
    row away from the origin: the big triangle with the origin at its apex."""
    cone = _cone(c0, r0, k, radius=6)
    assert (c0, r0) in cone
    assert nb(c0, r0, k) in cone
    for j in range(3):  # the other two neighbours of the origin lie outside
        if j != k:
            assert nb(c0, r0, j) not in cone
    # layer sizes by distance (BFS inside the cone): 1, 1, 2, 2, 3, 3 ... (side-n triangles)
    dist = {(c0, r0): 0}
    frontier = [nb(c0, r0, k)]
    dist[frontier[0]] = 1
    while frontier:
        nxt = []
        for cell in frontier:
            for e in range(3):
                u = nb(*cell, e)
                if u in cone and u not in dist:
                    dist[u] = dist[cell] + 1
                    nxt.append(u)
        frontier = nxt
    sizes = [sum(1 for d in dist.values() if d == x) for x in range(7)]
    assert sizes == [1, 1, 2, 2, 3, 3, 4]
    # side-2 triangle = the 4 cells within distance 2 (rulebook Example A: 4 spores fill it)
    assert sum(1 for d in dist.values() if d <= 2) == 4


def test_cone_of_an_up_tile_through_its_bottom_edge():
    # origin (0,0) points up; its bottom edge A leads to (0,1), then (-1,1) and (1,1)
    assert {(0, 1), (-1, 1), (1, 1)} <= _cone(0, 0, 0)
    assert (-2, 1) not in _cone(0, 0, 0) and (2, 1) not in _cone(0, 0, 0)
    assert {(c, 2) for c in range(-2, 3)} <= _cone(0, 0, 0)
    assert (0, -1) not in _cone(0, 0, 0)


def test_only_the_horizontal_edge_changes_the_row():
    for c, r in CELLS[::5]:
        assert nb(c, r, 0)[1] == r + (1 if is_up(c, r) else -1)
        assert nb(c, r, 1)[1] == r and nb(c, r, 2)[1] == r
        assert band(c, r, 0) == r
