"""The core's breadth-first search over the work area (mushgym.core.graph), against a plain search."""

from collections import deque

import numpy as np
import pytest

from mushgym.core import bfs, bfs_walk


def _random_graph(rng, n, degree):
    """A neighbour table of fixed degree (-1: none), symmetric, in one array with an offset."""
    off = 3
    table = np.full(off + n * degree, -1, np.int64)
    for v in range(n):
        for e in range(degree):
            if table[off + v * degree + e] < 0 and rng.random() < 0.6:
                u = int(rng.integers(n))
                free = [k for k in range(degree) if table[off + u * degree + k] < 0]
                if u != v and free:
                    table[off + v * degree + e] = u
                    table[off + u * degree + free[0]] = v
    return table, off


def _plain_distances(table, off, degree, allowed, start, n):
    dist = [-1] * n
    dist[start] = 0
    todo = deque([start])
    while todo:
        v = todo.popleft()
        for e in range(degree):
            u = int(table[off + v * degree + e])
            if u >= 0 and dist[u] < 0 and allowed[u]:
                dist[u] = dist[v] + 1
                todo.append(u)
    return dist


@pytest.mark.parametrize("seed", range(20))
def test_bfs_distances_and_labels_match_a_plain_search(seed):
    rng = np.random.default_rng(seed)
    n, degree = int(rng.integers(2, 40)), 3
    table, off = _random_graph(rng, n, degree)
    allow, visit, queue = 0, n, 2 * n
    work = np.zeros(3 * n, np.int64)
    allowed = rng.random(n) < 0.8
    work[allow : allow + n] = allowed
    start = int(rng.integers(n))
    work[visit : visit + n] = -1
    reached = bfs(table, off, degree, work, allow, visit, queue, start, 0, 1)
    expected = _plain_distances(table, off, degree, allowed, start, n)
    assert list(work[visit : visit + n]) == expected  # the start is visited whatever allowed says
    assert reached == sum(d >= 0 for d in expected)
    order = [int(work[queue + i]) for i in range(reached)]
    assert order[0] == start and sorted(order) == [v for v in range(n) if expected[v] >= 0]
    assert [expected[v] for v in order] == sorted(expected[v] for v in order)  # nearest first
    # step 0: every node reached gets the start's value (a component label)
    work[visit : visit + n] = -1
    bfs(table, off, degree, work, allow, visit, queue, start, 7, 0)
    assert all((work[visit + v] == 7) == (expected[v] >= 0) for v in range(n))


def test_bfs_walk_goes_on_from_several_sources():
    # a path 0-1-2-3-4 (degree 2): sources 0 and 4 meet in the middle
    table = np.array([-1, 1, 0, 2, 1, 3, 2, 4, 3, -1], np.int64)
    work = np.zeros(15, np.int64)
    work[0:5] = 1
    work[5:10] = -1
    work[5 + 0] = work[5 + 4] = 0
    work[10], work[11] = 0, 4
    assert bfs_walk(table, 0, 2, work, 0, 5, 10, 2, 1) == 5
    assert list(work[5:10]) == [0, 1, 2, 1, 0]


def _plain_walk(table, off, degree, may_enter, sources, n, step):
    """Values and visiting order of a plain breadth-first walk from several sources (value 1)."""
    value = [-1] * n
    order = []
    for s in sources:
        value[s] = 1
        order.append(s)
    todo = deque(sources)
    while todo:
        v = todo.popleft()
        for e in range(degree):
            u = int(table[off + v * degree + e])
            if u >= 0 and value[u] < 0 and may_enter(u):
                value[u] = value[v] + step
                order.append(u)
                todo.append(u)
    return value, order


@pytest.mark.parametrize("seed", range(20))
def test_bfs_walk_owned_matches_a_plain_walk_and_bfs_walk(seed):
    """The owner-slot rule visits what a plain walk through the owner's nodes visits, in the same
    order, and ``bfs_walk`` with the ``allowed`` table "one of the node's slots holds the owner"
    filled beforehand does the same."""
    from mushgym.core import bfs_walk_owned

    rng = np.random.default_rng(100 + seed)
    n, degree, slots = int(rng.integers(2, 40)), 4, 2
    table, off = _random_graph(rng, n, degree)
    owner_off = 5
    owners = np.zeros(owner_off + n * slots, np.int64)
    owners[owner_off:] = rng.integers(0, 4, n * slots)  # owners 0..3, 0 free
    owner = int(rng.integers(1, 4))
    held = owners[owner_off:].reshape(n, slots)
    sources = sorted({int(x) for x in rng.integers(n, size=int(rng.integers(1, 4)))})
    step = int(rng.integers(0, 2))
    value, order = _plain_walk(table, off, degree, lambda u: (held[u] == owner).any(), sources, n, step)
    for lazy in (True, False):
        allow, visit, queue = 0, n, 2 * n
        work = np.zeros(3 * n, np.int64)
        work[visit : visit + n] = -1
        for i, s in enumerate(sources):
            work[visit + s] = 1
            work[queue + i] = s
        if lazy:
            reached = bfs_walk_owned(
                table, off, degree, owners, owner_off, slots, owner, work, visit, queue, len(sources), step
            )
        else:
            work[allow : allow + n] = (held == owner).any(axis=1)
            reached = bfs_walk(table, off, degree, work, allow, visit, queue, len(sources), step)
        assert reached == len(order)
        assert list(work[visit : visit + n]) == value
        assert list(work[queue : queue + reached]) == order


@pytest.mark.parametrize("seed", range(10))
def test_bfs_walk_rule_asks_a_game_rule_lazily(seed):
    """A rule of the game's own (here "the node's colour is the walk's colour, or the node is below
    a bound"), given to the one walk loop as a compiled function: the walk visits what a plain walk
    visits, in the same order, and asks the rule only for nodes next to ones it reached."""
    from numba import njit

    from mushgym.core import bfs_walk_rule

    @njit
    def same_colour_or_low(args, u):
        colours, colour, bound, asked = args
        asked[u] += 1
        return colours[u] == colour or u < bound

    rng = np.random.default_rng(300 + seed)
    n, degree = int(rng.integers(2, 40)), 3
    table, off = _random_graph(rng, n, degree)
    colours = rng.integers(0, 3, n).astype(np.int64)
    colour, bound = int(rng.integers(3)), int(rng.integers(n))
    sources = sorted({int(x) for x in rng.integers(n, size=int(rng.integers(1, 3)))})
    value, order = _plain_walk(table, off, degree, lambda u: colours[u] == colour or u < bound, sources, n, 1)
    visit, queue = 0, n
    work = np.zeros(2 * n, np.int64)
    work[visit : visit + n] = -1
    for i, s in enumerate(sources):
        work[visit + s] = 1
        work[queue + i] = s
    asked = np.zeros(n, np.int64)
    reached = bfs_walk_rule(
        table, off, degree, same_colour_or_low, (colours, colour, bound, asked), work, visit, queue, len(sources), 1
    )
    assert reached == len(order)
    assert list(work[visit : visit + n]) == value
    assert list(work[queue : queue + reached]) == order
    neighbours = {int(table[off + v * degree + e]) for v in order for e in range(degree)} - {-1}
    assert {u for u in range(n) if asked[u]} <= neighbours - set(sources)  # never a pass over every node
    for u in range(n):  # asked at most once per reached neighbour (a refused node is asked again)
        assert asked[u] <= sum(int(table[off + v * degree + e]) == u for v in order for e in range(degree))
    assert all(asked[u] == 1 for u in order if u not in sources)  # an entered node is asked once
